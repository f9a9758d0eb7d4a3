"""The obligation registry: each record of ``tilecheck/obligations.py`` bound to the module whose
``violation(q)`` decides it, in the order they are decided (``REGISTRY``).

The records (names, order, prerequisites, severity, docs, hardware predictions) live below the
check model in ``tilecheck/records/`` (collected by ``tilecheck/obligations.py``), which imports no
obligation; this module, above every obligation, binds each name to ``proofs/<name>.py`` by file
and re-exports the records' names.  Adding an obligation is one module in ``proofs/`` and its record
in its family's file of ``records/``; nothing here.
"""
from __future__ import annotations

import importlib
from dataclasses import replace

from ..obligations import (CONTRACT, DIFFERS, ILLEGAL, NAMES, PERFORMANCE, PERFORMANCE_NAMES, RECORDS,  # noqa: F401
                           Obligation)
from . import descriptor

# each record bound to the module named after it, ``proofs/<name>.py`` (found by file, as the
# records are: adding an obligation touches no table here)
REGISTRY: dict[str, Obligation] = {name: replace(o, module=importlib.import_module(f"{__package__}.{name}"))
                                   for name, o in RECORDS.items()}

# obligations of a tensor map ([tensormaps.NAME]), not of an application: name -> module with
# ``violation(check, tmap)`` and ``prove(check, tmap, timeout_s, facts, minimize) -> Outcome``
TENSORMAP_REGISTRY = {"descriptor": descriptor}


def blocks(name: str, require=()) -> bool:
    """Whether a refutation of ``name`` makes its application refuted (blocks emission): a contract
    always; a performance obligation when the check file requires it (``require``, per apply)."""
    return REGISTRY[name].severity == CONTRACT or name in require if name in REGISTRY else True
