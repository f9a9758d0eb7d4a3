"""tilecheck: prove the layout contract of PTX ld/st instructions with Z3, then emit PTX.

A check file (TOML, docs/check-file.md) declares tensors with CuTe layouts and the instructions
that move them (``[[apply]]``); ``prove`` decides every obligation (contiguity, alignment,
ownership, disjointness, bounds, overflow, and the counted ones: registers, banks, sectors) for
every value of the symbols, and a proved report hands out a plan to emit PTX from::

    import tilecheck
    check = tilecheck.load("examples/seed.toml")      # or loads(text), from_dict(data)
    report = tilecheck.prove(check, timeout=10)       # a Report
    print(report.verdict)                              # "proved" | "refuted" | "unknown"
    print(report.to_text())                            # the obligations, with counterexamples
    from tilecheck.emit import fragment, kernel
    ptx = kernel(report.plan)                          # a complete .entry (proved reports only)

Bad input raises ``InputError`` (one line naming the place).  Command line: ``tilecheck prove
FILE``, ``tilecheck emit FILE``, ``tilecheck suggest FILE``; in pytest: ``pytest --tilecheck DIR``
(``tilecheck.pytest_plugin``).  Hypothesis strategies of check files: ``tilecheck.strategies``.
"""
from .check import Apply, Check, Symbol, Tensor, from_dict, load, loads
from .errors import InputError
from .layout import Layout, parse_layout, row_major
from .report import Report, prove
from .view import View, parse_operand

__all__ = ["Apply", "Check", "InputError", "Layout", "Report", "Symbol", "Tensor", "View", "from_dict",
           "load", "loads", "parse_layout", "parse_operand", "prove", "row_major"]


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("tilecheck")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0.1.0"


def __getattr__(name):  # __version__ on first use: importlib.metadata costs every command ~20 ms
    if name == "__version__":
        globals()["__version__"] = v = _version()
        return v
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
