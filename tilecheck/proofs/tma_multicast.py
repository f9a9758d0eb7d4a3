"""tma_multicast: a TMA load with ``.multicast::cluster`` in the symmetric pattern -- every CTA of
``cta_mask`` issues its own slice of the tile to every CTA of the mask (docs/tma.md, "Multicast") --
(1) names only CTAs of the cluster: with a symbol bound to ``%cluster_ctarank`` (``from = "ctarank"``,
``0 .. max``) the cluster has ``max + 1`` CTAs, and a mask bit past them is a CTA that never issues its
slice, so the ``popcount(cta_mask)`` slices ``tma_tx`` counts on each barrier never all arrive (a hang);
(2) the slices land in disjoint shared bytes of each receiving CTA: for two issuing ranks ``r != r'`` of
the mask (and every symbol value the facts allow, the CTA-bound symbols each CTA's own), no box element
of one slice is written at the byte of any element of the other.  The destination of rank ``r`` is the
shared tensor's address at that CTA's symbols (its ``offset``: e.g. ``4096*r`` elements, each rank its
half of the tile).  TMA's swizzle permutes the bytes of the address space (an XOR of address bits by
higher ones, anchored at 0): two copies write one byte exactly when their unswizzled bytes meet, so the
box is compared unswizzled (the padded rows' pitch kept); the counterexample names the two ranks and
the shared byte (swizzled, where it lands).  The box must be concrete (a symbolic box: unknown)."""
import numpy as np
import z3

from .. import crd2idx
from ..expr import concrete
from ..layout import OFFSET, Layout
from ..tma_landing import TmaBox
from .runner import Violation, static
from .tma_common import at, concrete_visits, parts, z


def ranks(mask: int) -> list[int]:
    return [i for i in range(16) if mask >> i & 1]


def _layouts(m, esize):
    """TMA's landing over the shared tensor's index (outermost first): (swizzled, unswizzled)."""
    box = TmaBox(esize, tuple(concrete(b) for b in m.box), tuple(concrete(e) for e in m.element_strides), m.swizzle)
    L = box.layout()
    L = Layout(tuple(reversed(L.shape)), tuple(reversed(L.stride)), L.swizzle)
    return L, Layout(L.shape, L.stride, None)


def violation(q):
    op, m, s, _ = parts(q)
    mask = op.cta_mask or 0
    rs = ranks(mask)
    rank = [n for n, x in q.check.symbols.items() if x.rank]
    cluster = min(q.check.symbols[n].max for n in rank) + 1 if rank else None
    if cluster is not None and rs[-1] >= cluster:
        return static(False, f"cta_mask = {mask:#06x} names CTA {rs[-1]}, but the cluster has {cluster} CTAs "
                             f"(symbols.{rank[0]}: from = \"ctarank\", max = {cluster - 1}): that slice is never "
                             f"issued, and the {len(rs)} slices each barrier's expect_tx counts never all arrive",
                      {"cta_mask": mask, "cta": rs[-1], "cluster": cluster})
    if len(rs) < 2:
        return static(True, "")
    shape = concrete_visits(m)
    if shape is None:
        return Violation(z3.BoolVal(False), lambda w: None,
                         unknown="tma_multicast unknown: the slices' bytes are compared for a concrete box only")
    try:
        L, P = _layouts(m, s.esize)
    except ValueError as e:  # the descriptor's rules fail: tensormaps.NAME says which
        return Violation(z3.BoolVal(False), lambda w: None, unknown=f"tma_multicast unknown: {e}")
    sa, sb = q.symbols, q.other_cta("b")  # CTA b: its own copy of the CTA-bound symbols (the rank among them)
    ra = sa[rank[0]] if rank else q.ctx.var("tma_rank_a", 0, 15)
    rb = sb[rank[0]] if rank else q.ctx.var("tma_rank_b", 0, 15)
    ka = [q.ctx.var(f"tma_ka{i}", 0, n - 1) for i, n in enumerate(reversed(shape))]
    kb = [q.ctx.var(f"tma_kb{i}", 0, n - 1) for i, n in enumerate(reversed(shape))]
    oa = crd2idx.layout_value(P, ka, crd2idx.Polys(q.ctx, sa), s.offset)[OFFSET]
    ob = crd2idx.layout_value(P, kb, crd2idx.Polys(q.ctx, sb), s.offset)[OFFSET]
    za, zb = z(q, ra), z(q, rb)
    formula = z3.And(za != zb, z3.Or(*(za == r for r in rs)), z3.Or(*(zb == r for r in rs)), z(q, oa) == z(q, ob))

    def explain(w):
        syms_a, syms_b = dict(w.symbols), dict(w.cta_symbols.get("b", w.symbols))
        r1, r2 = ra.eval(w.env), rb.eval(w.env)
        if r1 == r2 or r1 not in rs or r2 not in rs:
            return None
        found = first_overlap(s, L, P, shape, syms_a, syms_b)
        if found is None:
            return None
        k1, k2, byte = found
        other = {k: v for k, v in syms_b.items() if syms_a.get(k) != v}
        return (f"CTAs {r1} and {r2} of cta_mask = {mask:#06x} both multicast to byte {byte} of {s.name} in every "
                f"CTA of the mask ({s.name}{list(k1)} of CTA {r1}'s slice, {s.name}{list(k2)} of CTA {r2}'s)"
                f"{at(syms_a)}{_other(other, r2)}: one slice overwrites "
                f"the other (each CTA's destination must depend on its rank: from = \"ctarank\")",
                {"symbols": syms_a, "other_symbols": syms_b, "ranks": [r1, r2], "byte": byte,
                 "element": list(k1), "other_element": list(k2)})
    return Violation(formula, explain, searches=True)


def _other(symbols: dict, rank: int) -> str:
    text = ", ".join(f"{k} = {v}" for k, v in symbols.items())
    return f" (CTA {rank} at {text})" if text else ""


def first_overlap(s, L, P, shape, syms_a, syms_b):
    """The first element of slice a (tensor order) whose byte slice b writes too: (element of a, element
    of b, the shared byte both write, swizzled), or None."""
    index = [a.reshape(-1) for a in np.indices(tuple(reversed(shape)), dtype=np.int64)]
    oa = np.asarray(crd2idx.layout_value(P, index, crd2idx.Ints(syms_a), s.offset)[OFFSET]).reshape(-1)
    ob = np.asarray(crd2idx.layout_value(P, index, crd2idx.Ints(syms_b), s.offset)[OFFSET]).reshape(-1)
    common = np.isin(oa, ob)
    if not common.any():
        return None
    i = int(np.flatnonzero(common)[0])
    j = int(np.flatnonzero(ob == oa[i])[0])
    k1, k2 = tuple(int(a[i]) for a in index), tuple(int(a[j]) for a in index)
    landed = crd2idx.layout_value(L, [np.array([v]) for v in k1], crd2idx.Ints(syms_a), s.offset)[OFFSET]
    return k1, k2, s.esize * int(np.asarray(landed).reshape(-1)[0])
