"""banks (performance): one warp-instruction on shared memory takes the ideal number of wavefronts.

The model is ``tilecheck/memory_model.py`` (held to ``ncu``'s counters); a warp-instruction is
``proofs/warp.py``'s.  Its rules, each named here once so that a change to the model is local:

* ``phase_lanes(width)``: a warp-instruction is served in phases of 32, 16 or 8 lanes;
* ``lane_words(width)``: an aligned lane touches the 4-byte words ``addr // 4 + k``, ``k < lane_words``;
* ``bank(word) = word % 32``;
* a phase takes as many wavefronts as the most *distinct* words one bank holds; the instruction
  their sum; the ideal is one per phase with an active lane;
* ``pairs``: an 8- or 16-byte *load* whose every aligned lane pair ``(2j, 2j+1)`` reads one address
  is served per pair (the pair's lower lane), ``phase_lanes(width)`` pairs per phase; otherwise,
  and for every store, lane by lane.  Symbolically the mode is the conjunction of the 16 pairs'
  address equalities at the same warp, repeat, base and symbols, and both modes are encoded
  exactly (the count is ``If(merged, per-pair count, per-lane count)``).

Concrete checks are counted by enumeration (``crd2idx`` on numpy arrays, ``memory_model`` per
distinct warp-instruction).  Symbolic checks are one Z3 query: per phase a bank variable ``B``, a
lane's word in ``B`` (if it touches ``B``) and the number of distinct such words, summed over the
phases; the violation is that sum above the ideal (or the file's ``expect`` bound); at the ideal
it is stated on two symbolic lanes instead (``pair``).  A refutation's count is the worst
warp-instruction at the counterexample's symbol values (enumerated), raised by a maximum search
over symbols within a budget (``warp.decide``): exact when the search ends, "at least N" otherwise.
"""
from __future__ import annotations

import z3

from .. import memory_model
from ..poly import And, If, Not, Or, Poly, cmp
from . import warp
from ..crd2idx import Polys
from ..encode import Coords
from ..layout import OFFSET
from .guard import atom_inside

BANKS, WORD = memory_model.BANKS, memory_model.WORD


def phase_lanes(width: int) -> int:
    return memory_model.phase_lanes(width)


def lane_words(width: int) -> int:
    """Words an aligned lane of ``width`` bytes touches (the model's words at address 0)."""
    return len(memory_model.words(0, width))


def bank(word):
    return word % BANKS


def phase_count(addresses: list, width: int, tag: str, q=None, active=None):
    """Z3: (distinct words in bank ``B`` among ``addresses``, B's bounds) for one phase; ``active``:
    per address the lane's guard (None: every lane active), an inactive lane touches no word."""
    b = q.zv[tag] if q is not None else z3.Int(tag)
    hits, words = [], []
    for k, a in enumerate(addresses):
        first = a / WORD  # floor: an active lane's a >= 0 (bounds is a prerequisite)
        d = bank(b - first)  # the lane's word in bank B is first + d, if d < lane_words
        hits.append(d < lane_words(width) if active is None else And(active[k], d < lane_words(width)))
        words.append(first + d)
    new = [And(h, *(Not(And(hits[j], cmp("==", words[j], words[i]))) for j in range(i)))
           for i, h in enumerate(hits)]
    return warp.total([If(n, 1, 0) for n in new]), [b >= 0, b < BANKS]


def pairs_merged(addrs: list, width: int, op: str, active=None, bit: int = 0):
    """Z3: every lane ``l`` of the load reads the address of ``l ^ 2^bit`` (``memory_model.merge_bit``:
    aligned pairs for bit 0, ``l, l^2`` for bit 1; a lane without a partner agrees with it, and so does
    an inactive lane: ``active``, None when every lane is).  A pair whose addresses differ by a nonzero
    constant makes it false at once (unless one of its lanes may be inactive), one that differs by
    zero drops out."""
    if not memory_model.reads(op) or width not in (8, 16):
        return z3.BoolVal(False)
    k, eqs = 1 << bit, []
    for j in range(len(addrs)):
        if j & k or j ^ k >= len(addrs):
            continue
        d = z3.simplify(addrs[j] - addrs[j ^ k])
        if z3.is_int_value(d) and d.as_long() == 0:
            continue
        same = z3.BoolVal(False) if z3.is_int_value(d) else addrs[j] == addrs[j ^ k]
        if active is not None:
            same = Or(Not(active[j]), Not(active[j ^ k]), same)
        elif z3.is_false(same):
            return same
        eqs.append(same)
    return z3.And(*eqs) if eqs else z3.BoolVal(True)


def pair_units(addrs: list, active, bit: int = 0):
    """A merged load's requests, in ``memory_model.unit`` order: per pair ``(l, l ^ 2^bit)`` (``l``'s bit
    clear) the lower active lane's address and whether either lane is active (``memory_model.phases``);
    ``active`` None: the pairs' lower lanes."""
    k = 1 << bit
    lows = [j for j in range(len(addrs)) if not j & k]
    if active is None:
        return [addrs[j] for j in lows], None
    units, on = [], []
    for j in lows:
        if j ^ k < len(addrs):
            units.append(If(active[j], addrs[j], addrs[j ^ k]))
            on.append(Or(active[j], active[j ^ k]))
        else:
            units.append(addrs[j])
            on.append(active[j])
    return units, on


class Banks(warp.Rule):
    name = "banks"
    modulus = WORD  # a base shifted by whole words renames the banks only
    shift = warp.SHIFT_BANKS
    unit = "wavefronts"
    boundary = "word"

    def supported(self, width):
        try:
            phase_lanes(width)
        except ValueError:
            return (f"no wavefront rule for {width}-byte shared accesses (PTX has none: 256-bit vectors need "
                    ".global; not measured)")
        return None

    def count(self, addresses, width, op):
        return memory_model.wavefronts(addresses, width, op), memory_model.ideal_wavefronts(addresses, width, op)

    def count_rows(self, rows, width, op):
        return memory_model.count_rows("banks", rows, width, op)

    def most(self, lanes, width):
        return lanes  # a lane touches at most one word of a bank

    def encode(self, q, addrs, width, tag, op, active=None):
        n = phase_lanes(width)
        side = []

        def served(units, on, name):
            """(wavefronts, ideal): the ideal is one per phase, or with guards per phase with an active lane."""
            total, ideal = [], []
            for p in range(0, len(units), n):
                c, s = phase_count(units[p:p + n], width, f"{tag}:{name}{p // n}", q,
                                   None if on is None else on[p:p + n])
                total.append(c)
                side.extend(s)
                if on is not None:
                    ideal.append(If(Or(*on[p:p + n]), 1, 0))
            return warp.total(total), len(total) if on is None else warp.total(ideal)

        count, ideal = served(addrs, active, "bank")
        for bit in reversed(memory_model.MERGE_BITS):  # bit 0 outermost: it is tried first
            merged = pairs_merged(addrs, width, op, active, bit)
            if not z3.is_false(merged):  # per pair: the pairs' lower (active) lanes, n requests a phase
                pcount, pideal = served(*pair_units(addrs, active, bit), f"pairbank{bit or ''}")
                count, ideal = z3.If(merged, pcount, count), z3.If(merged, pideal, ideal)
        return count, ideal, side

    def pair(self, q, view, warp_var, repeat, base, width, op, addrs, active=None):
        """Two (active) lanes of one phase touching distinct words of one bank (lanes and word indices
        symbolic); a phase is ``phase_lanes`` lanes, or twice as many when the load's pairs merge."""
        n, p, nw = warp.lanes(q.check, q.apply, view), phase_lanes(width), lane_words(width)
        t = q.tensor(view)
        out, words = [], []
        for tag in ("a", "b"):
            lane = q.ctx.var(f"i:lane_{tag}", 0, n - 1)
            g, word = warp.start(q.apply, view, warp.group(q.apply.scope, warp_var, lane), lane,
                                 Polys(q.ctx, q.symbols))  # ldmatrix: the lane's row (role.origin)
            c = Coords("i", list(g), repeat, Poly.of(word))
            off = t.esize * q.value(view, c)[OFFSET]
            if active is not None:  # guard = true: both lanes' atoms are guarded in
                out.append(atom_inside(q, c))
            k = q.zv[f"i:k_{tag}"]
            out += [k >= 0, k < nw]
            words.append(q.z(base + off) / WORD + k)
        la, lb = q.z(Poly.var("i:lane_a")), q.z(Poly.var("i:lane_b"))
        same = la / p == lb / p
        merged = z3.Or(*[pairs_merged(addrs, width, op, active, bit) for bit in memory_model.MERGE_BITS])
        if not z3.is_false(z3.simplify(merged)):  # a merged load (either bit): a phase spans 2p lanes
            same = z3.If(merged, la / (2 * p) == lb / (2 * p), same)
        return z3.And(la < lb, same, *out, words[0] != words[1], bank(words[0]) == bank(words[1]))

    def describe(self, addresses, width, verb, op):
        pair = memory_model.conflict(addresses, width, op)
        if pair is None:  # over an expected bound without a conflict: the phases are the count
            n = len(memory_model.phases(addresses, width, op))
            return (f"lanes {verb} in {n} phase{'s' if n != 1 else ''} without a bank conflict",
                    {"phases": n, "width": width})
        a, b, bk = pair
        wa, wb = (next(w for w in memory_model.words(addresses[x], width) if bank(w) == bk) for x in (a, b))
        return (f"lanes {a} and {b} {verb} words {wa} and {wb} (bytes {addresses[a]} and {addresses[b]}), bank {bk}",
                {"lanes": [a, b], "words": [wa, wb], "byte_addresses": [addresses[a], addresses[b]], "bank": bk,
                 "width": width})


RULE = Banks()


def violation(q):
    return warp.decide(q, RULE)
