"""The machine's constants that several modules need: the issuing group of each apply scope and
the address width of each state space.  This is their one source; the brute-force decider
(``decide.py``) and the numpy reference (``gpu/reference.py``) restate them on purpose, as
independent oracles, and ``tests/test_single_source.py`` checks the restatements agree.

A group is the set of threads that issues one application together: ``thread`` is one thread
(no coordinates), ``warp`` is 32 lanes (``(lane,)``), ``warpgroup`` 4 warps (``(warp, lane)``, the
warp within the group: wgmma's), ``cta`` is every warp of the CTA (``(warp, lane)``, thread = 32 *
warp + lane).  ``GROUPS`` states them as data (``Group``); the code reads its coordinates and extents.
"""
from __future__ import annotations

from dataclasses import dataclass

WARP = 32  # threads per warp
CTA = -1  # a group's ``warps`` when it is every warp of the CTA


@dataclass(frozen=True)
class Group:
    """An issuing group as data: the names of its coordinates (outermost first) and the warps it
    spans (0: one thread, ``CTA``: every warp of the CTA).  A thread id maps into it as
    ``(warp within the group, lane)``; the one-warp group has the lane alone."""
    name: str
    coords: tuple[str, ...]
    warps: int

    def shape(self, threads: int) -> tuple[int, ...]:
        if not self.coords:
            return ()
        if len(self.coords) == 1:
            return (WARP,)
        return (threads // WARP if self.warps == CTA else self.warps, WARP)

    def of(self, thread):
        if not self.coords:
            return ()
        if len(self.coords) == 1:
            return (thread % WARP,)
        return (thread // WARP if self.warps == CTA else thread // WARP % self.warps, thread % WARP)

    def span(self, threads: int) -> int:
        """Threads of one group (the CTA's thread count must be a multiple of it)."""
        return 1 if not self.coords else threads if self.warps == CTA else WARP * self.warps

    @property
    def multiple(self) -> int:
        """The CTA's thread count must be a multiple of this (1: any)."""
        return 1 if not self.coords else WARP * max(1, self.warps)


GROUPS = {g.name: g for g in (Group("thread", (), 0), Group("warp", ("lane",), 1),
                              Group("warpgroup", ("warp", "lane"), 4), Group("cta", ("warp", "lane"), CTA))}
APPLY_SCOPES = ("thread", "warp", "warpgroup", "cta")  # the scopes the decider and the reference restate
GROUP_NAMES = {name: g.coords for name, g in GROUPS.items()}

# the bytes a state space can address: an offset (in bytes) from a tensor's base must stay below
ADDRESS_LIMIT = {"global": 2**64, "shared": 2**32, "local": 2**32}


def group_shape(scope: str, threads: int) -> tuple[int, ...]:
    """The extents of the group coordinates of ``scope`` in a CTA of ``threads`` threads."""
    return GROUPS[scope].shape(threads)


def group_of(scope: str, thread):
    """The group coordinates of ``thread`` (an int, or anything with ``//`` and ``%``)."""
    return GROUPS[scope].of(thread)


def thread_of(scope: str, group: tuple) -> int:
    """The thread index (within its group's warp or CTA) at ``group`` coordinates; 0 for ``thread``."""
    if not GROUPS[scope].coords or not group:
        return 0
    return group[-1] + WARP * (group[0] if len(group) == 2 else 0)
