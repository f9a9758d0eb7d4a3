"""contiguity: each atom's memory words are at element offsets base, base+1, ..., base+V-1."""

from dataclasses import replace

import z3

from .. import crd2idx
from ..encode import Coords, element, verb
from ..layout import OFFSET
from ..poly import Poly
from .runner import Violation


def violation(q):
    view = q.memory
    t = q.tensor(view)
    c = q.coords("a")
    base = Coords("a", c.group, c.repeat, Poly.const(0))
    gap = q.value(view, c)[OFFSET] - q.value(view, base)[OFFSET] - c.word

    def explain(w):
        g, r, word = co = w.coords("a")
        o, o0 = w.value(view, co)[OFFSET], w.value(view, (g, r, 0))[OFFSET]
        if o == o0 + word:
            return None
        idx = w.index(view, co)
        return (f"{w.where(co)} {verb(q.apply, view)} {element(t, idx)} at element offset {o}, but the atom starts at {o0}, "
                f"so word {word} should be at {o0 + word}",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "offset": o,
                 "base_offset": o0, "expected_offset": o0 + word})

    lemma = _atom_lemma(q, view, t, c, base, gap)
    return Violation(z3.And(q.z(gap) != 0, *lemma) if lemma else q.z(gap) != 0, explain)


def _atom_lemma(q, view, t, c, base, gap: Poly) -> list:
    """A valid implication that spares the solver the swizzle's digits in the common case: when the
    atom's V words (V a power of two, V <= 2^M) are contiguous before the swizzle and the plain base
    is a multiple of V, the plain words differ only in bits below M, which Sw<B,M,S> neither reads
    (it reads bits from M+S up) nor changes (bits M..M+B-1): the swizzled words are contiguous too.
    Empty for an unswizzled tensor or another V."""
    sw, v = t.layout.swizzle, q.vector
    if sw is None or v & (v - 1) or v > 1 << sw.base:
        return []
    plain = replace(t, layout=replace(t.layout, swizzle=None))
    at = lambda co: crd2idx.operand_value(plain, view, co.all, q.domain(co), co.tag)[OFFSET]  # noqa: E731
    p0 = at(base)
    pgap = at(c) - p0 - c.word
    return [z3.Implies(z3.And(q.z(pgap) == 0, q.z(p0) % v == 0), q.z(gap) == 0)]
