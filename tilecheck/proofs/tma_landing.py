"""tma_landing: the layout the shared tensor declares (the consumer's view of the landed box) is where a
TMA copy writes each box element (``tilecheck/tma_landing.py``: box order, element strides, the
swizzle anchored at shared address 0), for every box element and every symbol value the facts allow.
A producer/consumer swizzle mismatch (a 128B map read through a 64B or an unswizzled layout) is refuted
with the first differing element.  The shared base is a multiple of the pattern's repeat (``tma_smem``,
a prerequisite), so both sides are stated as element offsets from it: TMA's ``Sw o (visits):(dense)``
seen at the tensor's ``offset``, and the declared layout at the same ``offset`` (``crd2idx``).
With a swizzle each inner row of the box takes the swizzle's span in shared memory (the H200,
2026-12-03): a box of rows narrower than the span needs ``span x rows`` bytes of the shared tensor,
and a consumer that declares dense rows (or a tensor that leaves no room for the padding) is refuted
at the first element of row 1, the message naming the rows' pitch and the footprint.
The box must be concrete (a symbolic box: unknown).  A concrete layout and offset are decided by
comparing every element at once (numpy through ``crd2idx.Ints``: exact, a few ms where Z3 takes
seconds to see two spellings of one swizzled layout equal); a symbolic offset or layout by Z3."""
import numpy as np
import z3

from .. import crd2idx
from ..expr import evaluate
from ..layout import OFFSET, Layout
from ..tma_landing import TmaBox
from .runner import Violation, static
from .tma_common import at, concrete_visits, parts, z


def _tma_layout(m, esize):
    """TMA's landing as a layout over the shared tensor's index (outermost first)."""
    box = [b for b in (evaluate(x, {}) for x in m.box)]
    es = [evaluate(x, {}) for x in m.element_strides]
    L = TmaBox(esize, tuple(box), tuple(es), m.swizzle).layout()
    return Layout(tuple(reversed(L.shape)), tuple(reversed(L.stride)), L.swizzle)


def first_difference(s, L, shape, symbols):
    """The first element (tensor order) where the declared layout and TMA's differ, with both offsets:
    every element at once, as numpy arrays (``crd2idx.Ints`` takes them)."""
    dom = crd2idx.Ints(symbols)
    index = [a.reshape(-1) for a in np.indices(tuple(reversed(shape)), dtype=np.int64)]
    mine = np.asarray(crd2idx.layout_value(s.layout, index, dom, s.offset)[OFFSET])
    tma = np.asarray(crd2idx.layout_value(L, index, dom, s.offset)[OFFSET])
    bad = np.flatnonzero(np.broadcast_to(mine, tma.shape) != tma)
    if not bad.size:
        return None
    i = int(bad[0])
    mine = np.broadcast_to(mine, tma.shape)
    return tuple(int(a[i]) for a in index), int(mine[i]), int(tma[i])


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
    if not s.layout.symbols(s.offset):  # a concrete landing: every element compared, exactly (no solver)
        found = first_difference(s, L, shape, {})
        if found is None:
            return static(True, "")
        k, mine, tma = found
        return static(False, _say(s, m, k, mine, tma, {}), _cex(k, mine, tma, s, {}))
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
        return _say(s, m, k, mine, tma, w.symbols), _cex(k, mine, tma, s, w.symbols)
    return Violation(formula, explain, searches=True)


def _say(s, m, k, mine, tma, symbols) -> str:
    e = s.esize
    msg = (f"{s.name}{list(k)} is at byte {e * mine} of {s.name}'s declared layout, but tensormaps.{m.name} "
           f"(swizzle {m.swizzle}) lands it at byte {e * tma}{at(symbols)}: the consumer reads another element")
    box = _box(m, e)
    if box is not None and box.pitch > e * box.shape[0]:
        msg += (f" (the box's {e * box.shape[0]}-byte rows each take the {box.span}-byte swizzle span: "
                f"the box needs {box.footprint} bytes of {s.name}, {box.pitch} per row)")
    return msg


def _box(m, esize):
    try:
        return TmaBox(esize, tuple(evaluate(x, {}) for x in m.box), tuple(evaluate(x, {}) for x in m.element_strides),
                      m.swizzle)
    except (ValueError, TypeError, KeyError):
        return None


def _cex(k, mine, tma, s, symbols) -> dict:
    return {"symbols": dict(symbols), "element": list(k), "declared_byte": s.esize * mine, "tma_byte": s.esize * tma}
