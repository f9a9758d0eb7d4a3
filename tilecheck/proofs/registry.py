"""The obligation registry: each record of ``tilecheck/obligations.py`` bound to the module whose
``violation(q)`` decides it, in the order they are decided (``REGISTRY``).

The records (names, order, prerequisites, severity, docs, hardware predictions) live below the
check model in ``tilecheck/obligations.py``, which imports no obligation; this module, above every
obligation, binds name -> module and re-exports the records' names.
Adding an obligation is one module in ``proofs/``, one record there and its module here.
"""
from __future__ import annotations

from dataclasses import replace

from ..obligations import (CONTRACT, DIFFERS, ILLEGAL, NAMES, PERFORMANCE, PERFORMANCE_NAMES, RECORDS,  # noqa: F401
                           Obligation)
from . import (alignment, banks, bounds, contiguity, disjoint, guard, operands, overflow, ownership, registers, sectors,
               shape, space, target, width)
from . import descriptor
from . import tma_box, tma_inner, tma_landing, tma_map, tma_smem, tma_tx

_MODULES = {"target": target, "space": space, "shape": shape, "width": width, "operands": operands, "guard": guard,
            "contiguity": contiguity, "alignment": alignment, "ownership": ownership, "disjoint": disjoint,
            "bounds": bounds, "overflow": overflow, "registers": registers, "banks": banks, "sectors": sectors,
            "tma_map": tma_map, "tma_inner": tma_inner, "tma_smem": tma_smem, "tma_landing": tma_landing,
            "tma_tx": tma_tx, "tma_box": tma_box}

REGISTRY: dict[str, Obligation] = {name: replace(o, module=_MODULES[name]) for name, o in RECORDS.items()}

# obligations of a tensor map ([tensormaps.NAME]), not of an application: name -> module with
# ``violation(check, tmap)`` and ``prove(check, tmap, timeout_s, facts, minimize) -> Outcome``
TENSORMAP_REGISTRY = {"descriptor": descriptor}


def blocks(name: str, require=()) -> bool:
    """Whether a refutation of ``name`` makes its application refuted (blocks emission): a contract
    always; a performance obligation when the check file requires it (``require``, per apply)."""
    return REGISTRY[name].severity == CONTRACT or name in require if name in REGISTRY else True
