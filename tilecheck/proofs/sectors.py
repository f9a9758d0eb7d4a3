"""sectors (performance): one warp-instruction on global memory touches the fewest 32-byte sectors.

The model is ``tilecheck/memory_model.py``; a warp-instruction is ``proofs/warp.py``'s.  Its rules:

* ``sector(addr) = addr // 32``: an aligned lane of at most 16 bytes lies in one sector;
* the count is the number of distinct sectors of the active lanes;
* the ideal is ``ceil(bytes / 32)`` for the distinct bytes moved; aligned atoms of one width are
  equal or disjoint, so the bytes are ``width`` times the number of distinct addresses.

Concrete checks are counted by enumeration; a symbolic one is one Z3 query: the distinct sectors
``S`` and distinct addresses ``D`` of one warp-instruction as sums over its lanes, the violation
``S > ceil(width * D / 32)`` (or ``S`` above the file's ``expect`` bound), and the reported
count the largest ``S`` of a violating warp-instruction (a binary search).
"""
from __future__ import annotations

import z3

from .. import memory_model
from ..poly import And, If, Not, cmp
from . import warp

SECTOR = memory_model.SECTOR


def sector(addr):
    return addr / SECTOR


def distinct(terms: list, active=None):
    """Z3: how many distinct values ``terms`` take (``active``: only where the term's guard holds;
    None: every term)."""
    if active is not None:
        return warp.total([If(And(active[i], *(Not(And(active[j], cmp("==", terms[j], t))) for j in range(i))), 1, 0)
                           for i, t in enumerate(terms)])
    # the first term counts 1 (no empty (and): SMT-LIB readers such as cvc5 reject it)
    return warp.total([If(And(*(cmp("!=", terms[j], t) for j in range(i))), 1, 0) if i else z3.IntVal(1)
                   for i, t in enumerate(terms)])


class Sectors(warp.Rule):
    name = "sectors"
    modulus = SECTOR
    shift = warp.SHIFT_SECTORS
    unit = "sectors"
    boundary = "sector"

    def supported(self, width):
        return None if SECTOR % width == 0 else f"no sector rule for {width}-byte accesses"

    def count(self, addresses, width, op):
        return memory_model.sectors(addresses, width), memory_model.ideal_sectors(addresses, width)

    def count_rows(self, rows, width, op):
        return memory_model.count_rows("sectors", rows, width, op)

    def most(self, lanes, width):
        return lanes

    def always_ideal(self, lanes, width):
        """Atoms aligned to their width (``alignment``, a prerequisite) of at most 32 bytes each lie in
        one sector, a function of the address: the distinct sectors are at most the distinct addresses
        ``D``.  At 32 bytes the atoms are equal or disjoint, so ``32*D`` bytes move and the ideal is ``D``;
        one lane's ideal is 1, its one sector (0 and 0 when it is guarded out)."""
        return width == SECTOR or lanes <= 1

    def encode(self, q, addrs, width, tag, op, active=None):
        s, d = distinct([sector(a) for a in addrs], active), distinct(addrs, active)
        ideal = (width * d + SECTOR - 1) / SECTOR
        return s, ideal, []

    def describe(self, addresses, width, verb, op):
        by = {}
        for lane in sorted(addresses):
            a = addresses[lane]
            for s in range(a // SECTOR, (a + width - 1) // SECTOR + 1):
                by.setdefault(s, []).append(lane)
        moved = len({b for a in addresses.values() for b in range(a, a + width)})
        first = ", ".join(f"{s} (lane{'s' if len(ls) > 1 else ''} {_lanes(ls)})" for s, ls in list(by.items())[:4])
        more = f", ... ({len(by)} in all)" if len(by) > 4 else ""
        return (f"lanes {verb} {moved} bytes in sectors {first}{more}",
                {"sectors_touched": {str(s): ls for s, ls in by.items()}, "bytes": moved, "width": width})


def _lanes(ls: list[int]) -> str:
    if len(ls) > 2 and ls == list(range(ls[0], ls[-1] + 1)):
        return f"{ls[0]}-{ls[-1]}"
    return ", ".join(map(str, ls))


RULE = Sectors()


def violation(q):
    return warp.decide(q, RULE)
