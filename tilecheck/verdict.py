"""The verdicts: of one obligation (``proved``, ``refuted``, ``unknown``, ``skipped``) and of a
whole check file (those, ``error`` and ``internal``).

A ``Verdict`` is a ``str``: it equals, hashes, prints, formats and serialises to JSON exactly as
its text, so reports and comparisons read the same; a typo in a name is an AttributeError.
"""
from __future__ import annotations

import enum


class Verdict(str, enum.Enum):
    PROVED = "proved"
    REFUTED = "refuted"
    UNKNOWN = "unknown"  # never a proof: the solver's unknown or a timeout
    SKIPPED = "skipped"  # a prerequisite was not proved
    ERROR = "error"  # bad input (exit 2)
    INTERNAL = "internal"  # a disagreement between solvers (exit 4)

    __hash__ = str.__hash__
    __repr__ = str.__repr__

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)
