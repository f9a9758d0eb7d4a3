"""tma_disjoint: the boxes two CTAs of one launch store (a TMA store, shared -> global) share no global
byte, for every symbol value the facts allow.  A symbol bound to ``%ctaid`` or ``%cluster_ctarank``
(``from = "ctaid.x"``, ``"ctarank"``) differs between the CTAs that run the store at once; each CTA has its
own copy of those symbols under the same facts (the others shared: one launch).  CTA ``a`` writes the
box's elements ``x[i] = coords[i] + k[i] * element_strides[i]`` (``0 <= k[i] < visits[i]``) that lie inside
the map (``0 <= x[i] < dims[i]``: the rest is clipped), element ``x`` at byte
``e * offset + e * x[0] + sum(x[i] * strides[i - 1])`` of the global tensor (``offset`` its element offset,
``e`` the element size); two CTAs whose CTA-bound symbols differ and who write bytes less than ``e`` apart
race (the generic ``disjoint`` does this for the views of the other families; a TMA store's view does
not say what the box writes).  Without a CTA-bound symbol, or for a load (its destination is its own
CTA's shared memory; a multicast's is ``tma_multicast``), there is nothing to compare.  The counterexample
names both CTAs, the element of each and the byte."""
import z3

from ..expr import concrete, evaluate, to_poly
from .disjoint import across_unknown
from .runner import Violation, static
from .tma_common import at, concrete_visits, parts, visits, z


def _box(q, m, tag, syms):
    """CTA ``tag``'s written element: (its box index k, the coordinates x, the conditions that k is in the
    box and x inside the map, the byte address) over its symbols ``syms``."""
    ks, xs, cond = [], [], []
    fixed = concrete_visits(m)
    for i, (n, c) in enumerate(zip(visits(q, m), q.apply.opcode.coords)):
        k = q.ctx.var(f"tma_d{tag}{i}", 0, fixed[i] - 1 if fixed else None)
        es = concrete(m.element_strides[i])
        x = to_poly(c, q.ctx, syms) + k * es
        ks.append(k)
        xs.append(x)
        cond += [z(q, k) < z(q, n), z(q, x) >= 0, z(q, x) < z(q, to_poly(m.dims[i], q.ctx, syms))]
    e = m.bits // 8
    g = parts(q)[3]
    addr = to_poly(g.offset, q.ctx, syms) * e + xs[0] * e
    for x, s in zip(xs[1:], m.strides):
        addr = addr + x * to_poly(s, q.ctx, syms)
    return ks, xs, cond, addr


def violation(q):
    op, m, _, g = parts(q)
    bound = q.cta_bound
    if op.load or not bound:
        return static(True, "")
    grid_unknown = across_unknown(q, "tma_disjoint", q.apply.dst.tensor)
    if grid_unknown is not None:
        return grid_unknown
    e = m.bits // 8
    sa, sb = q.symbols, q.other_cta("b")
    ka, xa, ca, aa = _box(q, m, "a", sa)
    kb, xb, cb, ab = _box(q, m, "b", sb)
    other = z3.Or(*(z(q, sa[n]) != z(q, sb[n]) for n in bound))
    za, zb = z(q, aa), z(q, ab)
    formula = z3.And(other, *ca, *cb, za - zb < e, zb - za < e)

    def explain(w):
        syms_a, syms_b = dict(w.symbols), dict(w.cta_symbols.get("b", w.symbols))
        if all(syms_a.get(n) == syms_b.get(n) for n in bound):
            return None
        pa = [x.eval(w.env) for x in xa]
        pb = [x.eval(w.env) for x in xb]
        byte_a, byte_b = aa.eval(w.env), ab.eval(w.env)
        if abs(byte_a - byte_b) >= e or not _inside(m, pa, syms_a) or not _inside(m, pb, syms_b):
            return None
        cta = lambda s: ", ".join(f"{n}={s[n]}" for n in bound)  # noqa: E731
        rest = {k: v for k, v in syms_a.items() if k not in bound}
        return (f"two CTAs, CTA ({cta(syms_a)}) and CTA ({cta(syms_b)}), both store to byte {max(byte_a, byte_b)} of "
                f"{g.name} through {m.name}: the element at coordinates {tuple(pa)} (innermost first) of the first's box "
                f"and {tuple(pb)} of the second's{at(rest)}; "
                "their boxes overlap, so the CTAs race on those bytes",
                {"symbols": syms_a, "other_symbols": syms_b, "element": pa, "other_element": pb,
                 "byte": max(byte_a, byte_b)})
    return Violation(formula, explain, searches=True)


def _inside(m, x, syms) -> bool:
    return all(0 <= v < evaluate(d, syms) for v, d in zip(x, m.dims))
