"""The obligations' records, found by file: each module here (``core.py``, ``tma.py``, ...) declares
``ORDER`` (where its records go among the files' -- lowest first) and ``RECORDS``, a tuple of
``Obligation`` in the order they are decided, and nothing else.  ``obligations.py`` collects them into
its tables and ``proofs/registry.py`` binds each to ``proofs/<name>.py``.

The records are data only: this package imports no obligation (no Z3), so that the check model
(``check.py``: ``require``, ``expect``) reads them below the proofs.  Adding an obligation is one
module in ``proofs/`` and its record in the records file of its family (a new family of obligations:
a new file here).
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

CONTRACT, PERFORMANCE = "contract", "performance"

# what the hardware does when a plan refuted on an obligation is forced through (--unchecked)
DIFFERS = "output that differs from the numpy reference (or a fault)"
ILLEGAL = "an illegal-address fault, a write outside the buffer, or output that differs from the numpy reference"


@dataclass(frozen=True)
class Obligation:
    name: str
    needs: tuple[str, ...]  # prerequisites: proved first, else this one is skipped
    doc: str  # the docs table's "holds when" cell
    needs_on_load: tuple[str, ...] = ()  # extra prerequisites when the register operand is written
    severity: str = CONTRACT  # contract: a refutation blocks emission; performance: reported only
    hardware: str = DIFFERS  # the predicted behaviour of a forced refuted plan
    fault: str | None = None  # the CUDA error text the prediction expects, if a fault
    rank: int = 3  # which prediction wins when several obligations are refuted (lowest)
    per_memory_operand: bool = False  # stated on q.memory: decided once per memory operand of the family
    spaces: tuple[str, ...] = ()  # only on memory operands in these state spaces (absent if the apply has none)
    guarded_only: bool = False  # decided only for an application with ``guard = true``
    module: object = None  # violation(q) -> Violation: bound by proofs/registry.py (None in RECORDS)

    def prerequisites(self, is_load: bool) -> tuple[str, ...]:
        return self.needs + (self.needs_on_load if is_load else ())

    def roles(self, check, apply) -> tuple[str, ...] | None:
        """The memory operands this obligation is decided on (``spaces``: those whose tensor lives
        there; none: it does not apply), or None when it is not restricted by space."""
        if not self.spaces:
            return None
        return tuple(x.role for x in check.accesses_of(apply) if x.memory and x.space in self.spaces)

    @property
    def needs_doc(self) -> str:
        out = ", ".join(self.needs)
        if self.needs_on_load:
            out += f" (+ {', '.join(self.needs_on_load)} for loads)"
        return out

    @property
    def doc_row(self) -> str:
        """This obligation's row of the docs table."""
        return f"| `{self.name}` | {self.doc} | {self.needs_doc + ' ' if self.needs_doc else ''}| {self.severity} |"


def collect(files: dict) -> dict[str, Obligation]:
    """``{file: (ORDER, RECORDS)}`` -> name -> record, the files by (ORDER, file name), each file's
    records in its order; a name declared twice is an error naming both files."""
    out: dict[str, Obligation] = {}
    where: dict[str, str] = {}
    for file, (_, recs) in sorted(files.items(), key=lambda kv: (kv[1][0], kv[0])):
        for o in recs:
            if o.name in out:
                raise ValueError(f"obligation {o.name!r} is declared in records/{where[o.name]}.py "
                                 f"and records/{file}.py")
            out[o.name], where[o.name] = o, file
    return out


def _discover() -> dict[str, tuple[int, tuple[Obligation, ...]]]:
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found[info.name] = (module.ORDER, tuple(module.RECORDS))
    return found


_FOUND = _discover()
RECORDS: dict[str, Obligation] = collect(_FOUND)
FILES: dict[str, tuple[Obligation, ...]] = {f: recs for f, (_, recs) in _FOUND.items()}
