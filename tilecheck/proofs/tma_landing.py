"""tma_landing: the layout the shared tensor declares (the consumer's view of the landed box) is where a
TMA copy writes each box element (``tilecheck/tma_landing.py``: box order, element strides, the
swizzle anchored at shared address 0), for every box element and every symbol value the facts allow.
A producer/consumer swizzle mismatch (a 128B map read through a 64B or an unswizzled layout) is refuted
with the first differing element.  The shared base is a multiple of the pattern's repeat (``tma_smem``,
a prerequisite), so both sides are stated as element offsets from it: TMA's ``Sw o (visits):(dense)``
seen at the tensor's ``offset``, and the declared layout at the same ``offset`` (``crd2idx``).
The box must be concrete (a symbolic box: unknown)."""
from itertools import product

import z3

from .. import crd2idx
from ..expr import evaluate
from ..layout import OFFSET, Layout
from ..tma_landing import TmaBox
from .runner import Violation
from .tma_common import at, concrete_visits, parts, z


def _tma_layout(m, esize):
    """TMA's landing as a layout over the shared tensor's index (outermost first)."""
    box = [b for b in (evaluate(x, {}) for x in m.box)]
    es = [evaluate(x, {}) for x in m.element_strides]
    L = TmaBox(esize, tuple(box), tuple(es), m.swizzle).layout()
    return Layout(tuple(reversed(L.shape)), tuple(reversed(L.stride)), L.swizzle)


def first_difference(s, L, shape, symbols):
    """The first element (tensor order) where the declared layout and TMA's differ, with both offsets."""
    dom = crd2idx.Ints(symbols)
    for k in product(*(range(n) for n in reversed(shape))):
        mine = crd2idx.layout_value(s.layout, k, dom, s.offset)[OFFSET]
        tma = crd2idx.layout_value(L, k, dom, s.offset)[OFFSET]
        if mine != tma:
            return k, mine, tma
    return None


def violation(q):
    _, m, s, _ = parts(q)
    shape = concrete_visits(m)
    if shape is None:
        return Violation(z3.BoolVal(False), lambda w: None,
                         unknown="tma_landing unknown: the landing is decided for a concrete box only")
    try:
        L = _tma_layout(m, s.esize)
    except ValueError as e:  # the descriptor's rules (box_inner, swizzle_span) fail: tensormaps.NAME says which
        return Violation(z3.BoolVal(False), lambda w: None, unknown=f"tma_landing unknown: {e}")
    dom = crd2idx.Polys(q.ctx, q.symbols)
    index = [q.ctx.var(f"tma_k{i}", 0, n - 1) for i, n in enumerate(reversed(shape))]
    mine = crd2idx.layout_value(s.layout, index, dom, s.offset)[OFFSET]
    tma = crd2idx.layout_value(L, index, dom, s.offset)[OFFSET]
    formula = z(q, mine) != z(q, tma)

    def explain(w):
        found = first_difference(s, L, shape, w.symbols)
        if found is None:
            return None
        k, mine, tma = found
        e = s.esize
        return (f"{s.name}{list(k)} is at byte {e * mine} of {s.name}'s declared layout, but tensormaps.{m.name} "
                f"(swizzle {m.swizzle}) lands it at byte {e * tma}{at(w.symbols)}: the consumer reads another "
                "element", {"symbols": dict(w.symbols), "element": list(k), "declared_byte": e * mine,
                            "tma_byte": e * tma})
    return Violation(formula, explain, searches=True)
