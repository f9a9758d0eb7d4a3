"""tma_inner: the innermost coordinate of every TMA copy is a multiple of 16 bytes
(``coords[0] * element size``), for every symbol value the facts allow.  No NVIDIA document states it;
the H200 faults ("illegal instruction") on inner coordinates of 1, 3 and 4 elements of 1-, 4- and
8-byte types (triton #7385, tilelang #2527; docs/tma.md)."""
from ..expr import evaluate
from .runner import Violation
from .tma_common import parts, z


def violation(q):
    op, m, s, _ = parts(q)
    e = m.bits // 8
    c0 = q.poly(op.coords[0])
    formula = (z(q, c0) * e) % 16 != 0

    def explain(w):
        c = evaluate(op.coords[0], w.symbols)
        if (c * e) % 16 == 0:
            return None
        at = ", ".join(f"{k} = {v}" for k, v in w.symbols.items())
        return (f"coords[0] = {op.coords[0]} = {c} elements = {c * e} bytes, not a multiple of 16"
                + (f" (at {at})" if at else "") + ": the copy faults with an illegal instruction",
                {"symbols": dict(w.symbols), "coords[0]": c, "bytes": c * e})
    return Violation(formula, explain)
