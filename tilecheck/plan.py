"""A proved plan: what the emitter consumes.  Only ``Report.plan`` can make one."""
from __future__ import annotations


from .check import Apply, Check

_TOKEN = object()


class Plan:
    """Every application of a check whose every obligation is proved."""

    def __init__(self, token, check: Check):
        if token is not _TOKEN:
            raise PermissionError("a Plan comes only from a proved Report (tilecheck.prove(check).plan)")
        self.check = check

    @property
    def applies(self) -> tuple[Apply, ...]:
        return self.check.applies

    def __repr__(self):
        return f"Plan({self.check.path}, {len(self.applies)} applications)"
