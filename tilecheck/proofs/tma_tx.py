"""tma_tx: a TMA load's ``expect_tx`` is the bytes the copy delivers to each mbarrier it completes on --
the whole box, elements outside the tensor included (TMA fills them and counts them), times the CTAs of
a multicast's mask -- and at most 2^20 - 1 (the mbarrier's transaction count), for every symbol value
the facts allow.  A count that never arrives is a kernel that waits forever (mirage #705, cutlass
#1748: the count of a box clamped at the tensor's edge); here it is a refutation."""
from ..expr import evaluate
from ..families.tma import MAX_TX
from .runner import Violation, static
from .tma_common import at, parts, visits, z


def _delivered(op, m, symbols) -> int:
    n = m.bits // 8 * op.fan_in
    box = [evaluate(b, symbols) for b in m.box]
    es = [evaluate(e, symbols) for e in m.element_strides]
    n *= box[0]
    for b, e in zip(box[1:], es[1:]):
        n *= -(-b // e)
    return n


def violation(q):
    op, m, _, _ = parts(q)
    if op.expect_tx is None:
        return static(True, "")
    total = m.bits // 8 * op.fan_in
    for v in visits(q, m):
        total = total * v
    delivered, tx = z(q, total), z(q, q.poly(op.expect_tx))
    formula = (tx != delivered) | (delivered > MAX_TX)

    def explain(w):
        n, t = _delivered(op, m, w.symbols), evaluate(op.expect_tx, w.symbols)
        fan = f" x {op.fan_in} CTAs of cta_mask" if op.fan_in > 1 else ""
        if t != n:
            return (f"expect_tx = {op.expect_tx} = {t} bytes, but the copy delivers {n} (the whole box of "
                    f"tensormaps.{m.name}{fan}, elements outside the tensor included){at(w.symbols)}: the "
                    "mbarrier phase never completes" if t < n else
                    f"expect_tx = {op.expect_tx} = {t} bytes, but the copy delivers {n}{at(w.symbols)}: the phase "
                    "waits for bytes that never arrive",
                    {"symbols": dict(w.symbols), "expect_tx": t, "delivered": n})
        if n > MAX_TX:
            return (f"the copy delivers {n} bytes{at(w.symbols)}, over the mbarrier's transaction count limit "
                    f"2^20 - 1", {"symbols": dict(w.symbols), "expect_tx": t, "delivered": n})
        return None
    return Violation(formula, explain)
