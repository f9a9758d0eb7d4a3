"""What the TMA copy obligations (``tma_*.py``) share: the apply's parts and the box's visits as
polynomials of the symbols (the prover's side; the decider restates them in ``families/tma.py``)."""
from __future__ import annotations

import z3

from ..expr import concrete, names_of
from ..tma_landing import SWIZZLE_BITS


def parts(q):
    """(opcode, tensor map or None, the shared tensor, the global tensor)."""
    a = q.apply
    op = a.opcode
    shared, other = (a.dst, a.src) if op.load else (a.src, a.dst)
    return op, q.check.tensormaps.get(op.tensormap), q.tensor(shared), q.tensor(other)


def swizzle_bits(m) -> int:
    """B of the map's swizzle (0: none); ``tma_map`` refuses the modes not modelled first."""
    return SWIZZLE_BITS.get(m.swizzle, 0)


def visits(q, m) -> list:
    """Elements visited per dimension, innermost first, as polynomials: ``box[0]``, then
    ``ceil(box[i] / element_strides[i])`` (a concrete element stride: the expression parser divides by
    constants only; ``tma_map`` refutes a symbolic one)."""
    out = [q.poly(m.box[0])]
    for b, e in zip(m.box[1:], m.element_strides[1:]):
        e = concrete(e)
        out.append(q.poly(b) if e == 1 else q.ctx.divmod(q.poly(b) + (e - 1), e, "tma_visit")[0])
    return out


def concrete_visits(m) -> list | None:
    """The visits as ints when the box and element strides are concrete, else None."""
    box = [concrete(b) for b in m.box]
    es = [concrete(e) for e in m.element_strides]
    if None in box or None in es:
        return None
    return [box[0]] + [-(-b // e) for b, e in zip(box[1:], es[1:])]


def undeclared(q) -> list[str]:
    op = q.apply.opcode
    names = set().union(*(names_of(c) for c in op.coords))
    if op.expect_tx is not None:
        names |= names_of(op.expect_tx)
    return sorted(names - set(q.check.symbols))


def z(q, p):
    """``p`` as a Z3 integer term (a constant too)."""
    x = q.z(p)
    return z3.IntVal(x) if isinstance(x, int) else x


def at(symbols: dict) -> str:
    text = ", ".join(f"{k} = {v}" for k, v in symbols.items())
    return f" (at {text})" if text else ""
