"""tma_region: the bytes a TMA copy's tensor map describes lie inside the global tensor the apply names, for
every symbol value the facts allow.  The map's address is the tensor's base plus ``offset * element size``;
from it the map reaches ``sum((dims[i] - 1) * strides[i]) + element size`` bytes (``strides[0]`` the
element size, the others the map's byte strides: the largest address of an element inside the map, plus
one).  The tensor's buffer holds its declared layout's extent (``Layout.extent``: 1 + the largest
unswizzled offset, its ``offset`` included: what ``bounds`` holds every other access to), so the
obligation states ``0 <= offset`` and ``offset * element size + reach <= extent * element size``.  TMA
clips at the map's dims, never at the buffer: a map wider than its tensor (dims swapped, a stride in
elements, a row-major map over a column-major tensor) loads and stores bytes of other allocations."""
import z3

from ..expr import evaluate
from .bounds import extent_terms
from .runner import Violation
from .tma_common import at, parts, z


def _extent(q, t):
    """The tensor's declared extent (``bounds.extent_terms``): ``top`` a polynomial, each term of open
    sign a Z3 term counted as ``max(term, 0)``."""
    top, mixed = extent_terms(q, t)
    return top, [z(q, m) for m in mixed]


def _reach(m, env):
    e = m.bits // 8
    dims = [evaluate(d, env) for d in m.dims]
    return e + (dims[0] - 1) * e + sum((d - 1) * evaluate(s, env) for d, s in zip(dims[1:], m.strides))


def violation(q):
    _, m, _, g = parts(q)
    e, te = m.bits // 8, g.esize
    reach = q.poly(m.dims[0]) * e
    for d, s in zip(m.dims[1:], m.strides):
        reach = reach + (q.poly(d) - 1) * q.poly(s)
    top, mixed = _extent(q, g)
    end = q.poly(g.offset) * te + reach - top * te  # > 0: past the buffer (before the open-signed terms)
    terms = [z3.If(x > 0, x, 0) * te for x in mixed]  # one term alone, not a one-child (+ ...) cvc5 refuses
    over = z(q, end) > (terms[0] if len(terms) == 1 else z3.Sum(*terms)) if terms else z(q, end) > 0
    formula = z3.Or(z(q, q.poly(g.offset)) < 0, over)

    def explain(w):
        env = w.symbols
        off = evaluate(g.offset, env) * te
        size = g.layout.extent(env, g.offset) * te
        span = _reach(m, env)
        if off >= 0 and off + span <= size:
            return None
        dims = [evaluate(d, env) for d in m.dims]
        strides = [e] + [evaluate(s, env) for s in m.strides]
        return (f"tensormaps.{m.name} reaches bytes {off} .. {off + span - 1} of {g.name} (its address {off} bytes "
                f"past the base; dims {dims}, byte strides {strides}), {g.name} holds {size} bytes (its declared "
                f"layout's extent){at(env)}: the copy may read or write outside the tensor",
                {"symbols": dict(env), "tensormap": m.name, "first_byte": off, "last_byte": off + span - 1,
                 "tensor_bytes": size})
    return Violation(formula, explain)
