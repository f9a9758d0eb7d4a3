"""The obligations' tables, in the order they are decided: ``RECORDS`` (name -> record: prerequisites,
severity, the docs table's row, the hardware prediction, the state spaces and families they apply
to -- everything but the function that decides each one), ``NAMES`` and ``PERFORMANCE_NAMES``.

The records themselves live in ``tilecheck/records/`` (one data-only file per family of obligations,
found by file, like the families); this module collects them and imports no obligation, so that the
check model (``check.py``: ``require``, ``expect``) reads the records below the proofs;
``proofs/registry.py`` binds each record to its module (``REGISTRY``) and re-exports every name
here.  The report, the fuzz summary, the docs table (``docs/check-file.md``, held to ``doc_row`` by
``tests/test_registry.py``) and the hardware predictions of ``tilecheck run --unchecked`` all
iterate the records in this order; a family (``tilecheck/families/``) names the obligations that
apply to it.  Adding an obligation is one module ``proofs/<name>.py`` and its record in its
family's file of ``records/``.
"""
from __future__ import annotations

from .records import CONTRACT, DIFFERS, ILLEGAL, PERFORMANCE, RECORDS, Obligation  # noqa: F401

NAMES: tuple[str, ...] = tuple(RECORDS)


PERFORMANCE_NAMES: tuple[str, ...] = tuple(n for n, o in RECORDS.items() if o.severity == PERFORMANCE)
