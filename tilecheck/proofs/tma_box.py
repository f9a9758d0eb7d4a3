"""tma_box: every element a TMA copy's box visits is inside the tensor (``0 <= c_i + step_i*k_i <
dims_i``), for every symbol value the facts allow.  A performance/information obligation, not a
contract: TMA defines what happens outside -- a load fills those elements (zero, or NaN with
``oob_fill = "nan"``) and still counts their bytes, a store skips them -- so a box over the edge is a
kernel's way to handle a ragged tile; what it breaks is a byte count that leaves the filled elements
out, which ``tma_tx`` refutes.  ``require = ["tma_box"]`` makes it a contract of the apply."""
import z3

from ..expr import evaluate
from .runner import Violation
from .tma_common import at, parts, visits, z


def violation(q):
    op, m, _, _ = parts(q)
    steps = [1] + [q.poly(e) for e in m.element_strides[1:]]
    fails = []
    for c, n, st, d in zip(op.coords, visits(q, m), steps, m.dims):
        lo = z(q, q.poly(c))
        last = z(q, q.poly(c) + st * (n - 1))
        fails.append(z3.Or(lo < 0, last >= z(q, q.poly(d))))

    def explain(w):
        for i, (c, d) in enumerate(zip(op.coords, m.dims)):
            lo, dim = evaluate(c, w.symbols), evaluate(d, w.symbols)
            b, e = evaluate(m.box[i], w.symbols), evaluate(m.element_strides[i], w.symbols) if i else 1
            last = lo + e * (-(-b // e) - 1)
            if lo < 0 or last >= dim:
                fill = "NaN" if m.oob_fill == "nan" else "zero"
                return (f"dimension {i}: the box visits coordinates {lo} .. {last}, the tensor has {dim}{at(w.symbols)}"
                        f" ({'filled with ' + fill + ', counted in the bytes' if op.load else 'not written'})",
                        {"symbols": dict(w.symbols), "dimension": i, "first": lo, "last": last, "dim": dim})
        return None
    return Violation(z3.Or(*fails), explain)
