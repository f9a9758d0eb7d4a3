"""tma_tx: a TMA load's ``expect_tx`` is the bytes the copy delivers to each mbarrier it completes on --
the whole box, elements outside the tensor included (TMA fills them and counts them), times the CTAs of
a multicast's mask -- and at most 2^20 - 1 (the mbarrier's transaction count), for every symbol value
the facts allow.  A count that never arrives is a kernel that waits forever (mirage #705, cutlass
#1748: the count of a box clamped at the tensor's edge); here it is a refutation.  With ``phase`` the
count is the phase's: the sum over its loads (``families/mbarrier.py``; a bulk load's ``size`` among
them), stated on each apply of the phase."""
import z3

from ..expr import concrete, evaluate
from ..families.mbarrier import MAX_TX
from ..families.mbarrier import members
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


def member_bytes(q, a):
    """The bytes apply ``a`` delivers to each barrier it completes on, a polynomial (None: no map): a
    tensor copy's box, a bulk copy's ``size``."""
    op = a.opcode
    if getattr(op, "size", None) is not None:
        return q.poly(op.size)
    m = q.check.tensormaps.get(op.tensormap)
    if m is None or any(concrete(e) is None for e in m.element_strides):  # that apply's tma_map refutes it
        return None
    total = m.bits // 8 * op.fan_in
    for v in visits(q, m):
        total = total * v
    return total


def member_value(check, a, symbols) -> int:
    op = a.opcode
    if getattr(op, "size", None) is not None:
        return evaluate(op.size, symbols)
    return _delivered(op, check.tensormaps[op.tensormap], symbols)


def violation(q):
    op = q.apply.opcode
    if op.expect_tx is None:
        return static(True, "")
    if getattr(op, "phase", None) is not None:
        return phase_violation(q, op)
    op, m, _, _ = parts(q)
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


def phase_violation(q, op):
    """``expect_tx`` against the sum over the loads of ``op``'s mbarrier phase (without a phase: this
    load's bytes; ``bulk_tx`` states it so)."""
    group = members(q.check, q.apply)
    polys = [member_bytes(q, a) for a in group]
    if None in polys:
        k = group[polys.index(None)].index
        return Violation(z3.BoolVal(False), lambda w: None,
                         unknown=f"unknown: apply[{k}] of phase {op.phase!r} has no tensor map, or one with symbolic "
                                 "element strides (its tma_map refutes it)")
    total = sum(polys[1:], polys[0])
    delivered, tx = z(q, total), z(q, q.poly(op.expect_tx))
    formula = (tx != delivered) | (delivered > MAX_TX)

    def explain(w):
        each = [member_value(q.check, a, w.symbols) for a in group]
        n, t = sum(each), evaluate(op.expect_tx, w.symbols)
        terms = " + ".join(f"{b} (apply[{a.index}])" for a, b in zip(group, each))
        copies = (f"the {len(group)} copies of phase {op.phase!r} deliver {terms} = {n}" if op.phase is not None
                  else f"the copy delivers its size, {op.size} = {n} bytes")
        cex = {"symbols": dict(w.symbols), "expect_tx": t, "delivered": n,
               **({"phase": op.phase, "applies": [a.index for a in group], "bytes": each} if op.phase else {})}
        if t != n:
            return (f"expect_tx = {op.expect_tx} = {t} bytes, but {copies}{at(w.symbols)}: "
                    + ("the mbarrier phase never completes" if t < n else "the phase waits for bytes that never arrive"),
                    cex)
        if n > MAX_TX:
            return (f"{copies}{at(w.symbols)}, over the mbarrier's "
                    "transaction count limit 2^20 - 1", cex)
        return None
    return Violation(formula, explain)
