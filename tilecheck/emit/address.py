"""Where each access goes: one address register and one immediate byte offset per coordinate.

The thread- and symbol-dependent part of an operand's offset is computed once
(``Arith``); each repeat's constant part becomes the immediate of ``[%rd1+240]``.
When the per-repeat part depends on a symbol (a symbolic row stride), the
stride is put in a register once and each distinct multiple of it gets one
register, derived from the base by a single ``mad``; repeats that differ only
by a constant share that register.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np

from ..layout import OFFSET
from ..poly import Poly
from .arith import Arith
from .errors import EmitError
from .operand import Operand

IMM_LIMIT = 2**31  # PTX address immediates are signed 32-bit


@dataclass
class Addresses:
    """``registers[which[i]] + imm[i]`` is coordinate i's byte address (arrays of shape (repeats, words))."""
    registers: list[str]
    which: np.ndarray
    imm: np.ndarray


def addresses(op: Operand, arith: Arith, base: str, bits: int) -> Addresses:
    """The byte address of every coordinate of ``op`` relative to ``base`` (a register of ``bits``)."""
    try:
        return _addresses(op, arith, base, bits)
    except OverflowError:
        raise EmitError(f"{op.tensor.name}: byte offsets of 2^63 or more are beyond the emitter's "
                        "64-bit signed arithmetic") from None


def _addresses(op: Operand, arith: Arith, base: str, bits: int) -> Addresses:
    esize = op.tensor.esize
    lin = op.linear(op.comps[OFFSET])
    if lin is None:
        return _exact(op, arith, base, bits)
    digits = op.digits()
    shape = (int(np.prod(op.repeat_shape)), op.vector if op.word else 1)
    # a constant near 2^64 (proved in bounds modulo the address width) stays in the register part
    c0 = lin.thread.constant if abs(lin.thread.constant * esize) < 2**62 else 0
    imm = np.full(shape, c0, dtype=np.int64)
    for v, c in lin.coef.items():
        imm = imm + c.constant * digits[v]
    thread = lin.thread - c0
    start = arith.offset(base, esize * thread, bits)
    # the symbolic part of each coefficient: sum over primitive polynomials U of (integer multiple) * U
    units: dict[Poly, np.ndarray] = {}
    for v, c in lin.coef.items():
        sym = c - c.constant
        if sym == 0:
            continue
        g, u = _primitive(sym)
        units[u] = units.get(u, 0) + g * digits[v]
    if not units:
        return _bucket(Addresses([start], np.zeros(shape, dtype=np.int64), imm * esize), arith, bits)
    polys = list(units)
    mult = np.stack([np.broadcast_to(units[u], shape).reshape(-1) for u in polys], axis=1)
    rows, which = np.unique(mult, axis=0, return_inverse=True)
    regs, prev, at = [], start, [0] * len(polys)
    for row in rows.tolist():  # sorted: each row is one instruction away from the previous one
        r = prev
        for u, k, k0 in zip(polys, row, at):
            if k != k0:
                r = arith.step(r, esize * u, k - k0, bits)
        regs.append(r)
        prev, at = r, row
    return _bucket(Addresses(regs, which.reshape(shape), imm * esize), arith, bits)


def _primitive(p: Poly) -> tuple[int, Poly]:
    """``p = g * u`` with ``u``'s coefficients coprime and its first coefficient positive."""
    g = 0
    for c in p.terms.values():
        g = gcd(g, c)
    first = p.terms[min(p.terms)]
    if first < 0:
        g = -g
    return g, Poly({m: c // g for m, c in p.terms.items()})


def _exact(op: Operand, arith: Arith, base: str, bits: int) -> Addresses:
    """One evaluation per coordinate: for offsets that are not affine in the repeat coordinates."""
    esize = op.tensor.esize
    words = range(op.vector) if op.word else [0]
    regs, index, which, imm = [], {}, [], []
    for rep in op.repeats():
        for w in words:
            off = op.at(rep, w)[OFFSET]
            c = off.constant
            r = arith.offset(base, esize * (off - c), bits)
            if r not in index:
                index[r] = len(regs)
                regs.append(r)
            which.append(index[r])
            imm.append(c * esize)
    shape = (-1, len(words))
    return _bucket(Addresses(regs, np.array(which, dtype=np.int64).reshape(shape),
                             np.array(imm, dtype=np.int64).reshape(shape)), arith, bits)


def _bucket(a: Addresses, arith: Arith, bits: int) -> Addresses:
    """Move immediates outside PTX's signed 32-bit range into registers of their own."""
    big = (a.imm < -IMM_LIMIT) | (a.imm >= IMM_LIMIT)
    if not big.any():
        return a
    hi = (a.imm // 2**30) * 2**30
    hi[~big] = 0
    regs, keys = list(a.registers), {}
    which = a.which.copy()
    for idx in zip(*np.nonzero(big)):
        key = (int(a.which[idx]), int(hi[idx]))
        if key not in keys:
            keys[key] = len(regs)
            regs.append(arith.offset(a.registers[key[0]], Poly.const(key[1]), bits))
        which[idx] = keys[key]
    return Addresses(regs, which, a.imm - hi)
