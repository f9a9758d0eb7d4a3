"""tilecheck: prove the layout contract of PTX ld/st instructions with Z3, then emit PTX."""
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
