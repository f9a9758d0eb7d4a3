"""The guard of a ``guard = true`` application: one predicate per repeat, from ``setp``.

The proof (``proofs/guard.py``) shows that word 0 of an atom is in bounds exactly when the whole
atom is, so the guard is word 0's logical index in ``[0, extent)`` on every axis of the guarded
operand's tensor.  Per repeat and axis, ``index >= 0`` and ``extent - index >= 1`` are each
``rest + c >= low`` (``rest`` a polynomial over ``%tid.x`` and the symbols, computed once in a
register by ``Arith``; ``c`` the repeat's constant): ``setp.ge.s64 p, rest, low - c``, chained with
``setp.ge.and.s64``.  A bound that the variables' ranges already decide emits nothing: a repeat
whose every bound holds is unguarded (``True``), one with a bound that never holds is ``False``
(never executed).  Identical conditions share one predicate register.
"""
from __future__ import annotations

from .. import crd2idx
from ..expr import to_poly
from ..poly import Poly
from .arith import Arith
from .operand import Operand


def predicates(op: Operand, arith: Arith) -> list:
    """Per repeat (``op.repeats()`` order): True, False or a .pred register holding the guard."""
    ints = crd2idx.Ints()
    dims = [to_poly(d, op.ctx, op.symbols) for d in op.tensor.shape]
    memo: dict = {}
    out = []
    for rep in op.repeats():
        env = op._elements([*rep, 0], [*op.repeat_axes, op.word_axis], ints)
        elem = {**op.elem, **{n: Poly.const(int(d)) for n, d in env.items()}}
        index = crd2idx.logical(op.view, elem, op.dom)
        conds, never = [], False
        for i, d in zip(index, dims):
            for p, low in ((i, 0), (d - i, 1)):  # i >= 0, d - i >= 1
                lo, hi = op.ctx.interval(p)
                if lo is not None and lo >= low:
                    continue  # always holds
                if hi is not None and hi < low:
                    never = True
                    continue
                c = p.constant
                conds.append((p - c, low - c))  # p >= low  <=>  p - c >= low - c
        if never:
            out.append(False)
        elif not conds:
            out.append(True)
        else:
            key = tuple(conds)
            if key not in memo:
                memo[key] = _setp(arith, conds)
            out.append(memo[key])
    return out


def _setp(arith: Arith, conds) -> str:
    p = arith.regs.new("pred")
    for k, (rest, bound) in enumerate(conds):
        reg = arith.value(rest, 64)
        if reg.lstrip("-").isdigit():  # a constant the interval did not decide (cannot happen): keep exact
            reg = arith.op(64, "mov.s64", reg)
        if k == 0:
            arith.emit(f"setp.ge.s64 {p}, {reg}, {bound};")
        else:
            arith.emit(f"setp.ge.and.s64 {p}, {reg}, {bound}, {p};")
    return p
