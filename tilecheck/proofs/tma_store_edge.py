"""tma_store_edge: a TMA store (shared -> global) writes nothing outside its tensor, for every symbol value
the facts allow.  Measured on the H200 (driver 580.159.04, ``gpu/tma_probe.py``; docs/tma.md, "Stores at
the tensor's edges"), a store clipped at the tensor's edges is not the load's mirror:

- a box starting before the tensor (a negative coordinate) **faulted** (illegal instruction; tma_probe
  0435, 0696), so every start coordinate must be >= 0;
- a box over the far edge of dimension 0 writes whole 16-byte chunks: where ``dims[0] * element size``
  is not a multiple of 16 it wrote the bytes from ``dims[0] * element size`` up to the next 16-byte
  boundary of every row it stored (tma_probe 0434, 0695: 2 rows x 10 bytes past 134 and 262-byte rows),
  so a box that may reach past ``dims[0]`` needs ``dims[0] * element size`` a multiple of 16.

Loads are not concerned (149 of 149 probed loads matched the model, the edges included)."""
import z3

from ..expr import evaluate
from .runner import Violation
from .tma_common import at, parts, visits, z


def violation(q):
    op, m, _, _ = parts(q)
    e = m.bits // 8
    fails = [z(q, q.poly(c)) < 0 for c in op.coords]
    c0, b0, d0 = z(q, q.poly(op.coords[0])), z(q, visits(q, m)[0]), z(q, q.poly(m.dims[0]))
    fails.append(z3.And(c0 + b0 > d0, (d0 * e) % 16 != 0))

    def explain(w):
        cs = [evaluate(c, w.symbols) for c in op.coords]
        for i, (c, v) in enumerate(zip(op.coords, cs)):
            if v < 0:
                return (f"coords[{i}] = {c} = {v}{at(w.symbols)}: the box starts before the tensor; the H200 "
                        "faulted on a store box starting before the tensor (tma_probe 0435/0696)",
                        {"symbols": dict(w.symbols), "coordinate": i, "value": v})
        b0, d0 = evaluate(m.box[0], w.symbols), evaluate(m.dims[0], w.symbols)
        dims = [evaluate(d, w.symbols) for d in m.dims]
        if cs[0] + b0 <= d0 or (d0 * e) % 16 == 0:
            return None
        lo, hi = d0 * e, -(-d0 * e // 16) * 16 - 1
        row = cs[1:]
        inside = all(r < d for r, d in zip(row, dims[1:]))
        where = ("past the tensor's start" if not row else
                 f"of row {row[0]}" if len(row) == 1 else f"of row ({', '.join(map(str, row))})")
        return (f"the box covers elements {cs[0]} .. {cs[0] + b0 - 1} of dimension 0, past dims[0] = {d0} "
                f"({lo} bytes, not a multiple of 16){at(w.symbols)}: the H200 writes whole 16-byte chunks past "
                f"the innermost extent (tma_probe 0434/0695): bytes {lo}..{hi} {where}"
                + ("" if inside else " (the box's first row; no row of it is inside the tensor here)"),
                {"symbols": dict(w.symbols), "dimension": 0, "first": cs[0], "last": cs[0] + b0 - 1, "dim": d0,
                 "bytes": [lo, hi], "row": row})
    return Violation(z3.Or(*fails), explain)
