"""The machine's constants that several modules need: the issuing group of each apply scope and
the address width of each state space.  This is their one source; the brute-force decider
(``decide.py``) and the numpy reference (``gpu/reference.py``) restate them on purpose, as
independent oracles, and ``tests/test_single_source.py`` checks the restatements agree.

A group is the set of threads that issues one application together: ``thread`` is one thread
(no coordinates), ``warp`` is 32 lanes (``(lane,)``), ``cta`` is every warp of the CTA
(``(warp, lane)``, thread = 32 * warp + lane).
"""
from __future__ import annotations

WARP = 32  # threads per warp
APPLY_SCOPES = ("thread", "warp", "cta")
GROUP_NAMES = {"thread": (), "warp": ("lane",), "cta": ("warp", "lane")}

# the bytes a state space can address: an offset (in bytes) from a tensor's base must stay below
ADDRESS_LIMIT = {"global": 2**64, "shared": 2**32, "local": 2**32}


def group_shape(scope: str, threads: int) -> tuple[int, ...]:
    """The extents of the group coordinates of ``scope`` in a CTA of ``threads`` threads."""
    return {"thread": (), "warp": (WARP,), "cta": (threads // WARP, WARP)}[scope]


def group_of(scope: str, thread):
    """The group coordinates of ``thread`` (an int, or anything with ``//`` and ``%``)."""
    return {"thread": (), "warp": (thread % WARP,), "cta": (thread // WARP, thread % WARP)}[scope]


def thread_of(scope: str, group: tuple) -> int:
    """The thread index (within its group's warp or CTA) at ``group`` coordinates; 0 for ``thread``."""
    if scope == "thread" or not group:
        return 0
    return group[-1] + WARP * (group[0] if len(group) == 2 else 0)
