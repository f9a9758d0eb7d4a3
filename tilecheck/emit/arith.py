"""Integer arithmetic in PTX from exact polynomials: the once-per-thread part of addresses.

``Arith.value(p, bits)`` returns a register (or an immediate) holding the
polynomial ``p`` modulo ``2**bits``.  Its variables are the thread index
``%tid.x``, the symbols (a register each, from the caller's ``symbol``
function) and the fresh quotient/remainder variables of exact divisions that
``Context.divmod`` recorded, which become ``div``/``rem`` instructions, and the swizzled
offsets ``Divisions.swizzle`` recorded, which become ``shr``/``and``/``xor``.
Every value is computed once (memoized), so two addresses that share a thread
part share its registers.
"""
from __future__ import annotations

from typing import Callable

from ..poly import Context, Division, Poly, Swizzled
from .operand import TID

TYPE = {32: "s32", 64: "s64"}


class Regs:
    """Scratch register names by class, numbered from 1 like nvcc's, and their declarations."""

    KINDS = {64: ".b64", 32: ".b32", 16: ".b16", "pred": ".pred"}

    def __init__(self, b64: str = "%rd", b32: str = "%ra", b16: str = "%rh", pred: str = "%p"):
        self.prefix = {64: b64, 32: b32, 16: b16, "pred": pred}
        self.count = {k: 0 for k in self.prefix}

    def new(self, kind) -> str:
        self.count[kind] += 1
        return f"{self.prefix[kind]}{self.count[kind]}"

    def declarations(self) -> list[str]:
        return [f".reg {self.KINDS[k]} {self.prefix[k]}<{n + 1}>;" for k, n in self.count.items() if n]


class Arith:
    """Emits the instructions that compute polynomials, appending them to ``lines``."""

    def __init__(self, ctx: Context, symbol: Callable[[str], tuple[str, int]], regs: Regs):
        self.ctx, self.symbol, self.regs = ctx, symbol, regs
        self.lines: list[str] = []
        self._natural: dict[str, tuple[str, int]] = {}  # variable -> (register, its width)
        self._memo: dict = {}

    def emit(self, line: str):
        self.lines.append("\t" + line)

    # values ----------------------------------------------------------------
    def value(self, p: Poly, bits: int, start: str | None = None) -> str:
        """A register (or an immediate) holding ``start + p`` modulo ``2**bits``."""
        p = self._refold(p)
        if p == 0 and start is not None:
            return start
        if p.is_const and start is None:
            return str(_signed(p.constant, bits))
        key = (p, bits, start)
        if key not in self._memo:
            acc = start
            for m, c in sorted((m, c) for m, c in p.terms.items() if m):
                acc = self._term(m, _signed(c, bits), bits, acc)
            if p.constant:
                acc = self.op(bits, f"add.{TYPE[bits]}", acc, _signed(p.constant, bits))
            self._memo[key] = acc
        return self._memo[key]

    def offset(self, base: str, p: Poly, bits: int) -> str:
        """A register holding ``base + p`` (``base`` itself when ``p`` is 0)."""
        return self.value(p, bits, start=base)

    def step(self, prev: str, stride: Poly, k: int, bits: int) -> str:
        """A register holding ``prev + k * stride``: one instruction once the stride is in a register."""
        key = ("step", prev, stride, k, bits)
        if key not in self._memo:
            wide = bits == 64 and self._wide(stride, k)
            if wide:
                self._memo[key] = self.op(64, f"mad.wide.{wide}", self.value(stride, 32), k, prev)
            else:
                s, t = self.value(stride, bits), TYPE[bits]
                self._memo[key] = (self.op(bits, f"add.{t}", prev, s) if k == 1 else
                                   self.op(bits, f"mad.lo.{t}", s, k, prev))
        return self._memo[key]

    # internals ---------------------------------------------------------------
    def op(self, bits: int, opcode: str, *args) -> str:
        """Emit ``opcode`` into a fresh register of ``bits`` and return its name."""
        d = self.regs.new(bits)
        self.emit(f"{opcode} {d}, {', '.join(map(str, args))};")
        return d

    def _term(self, m: tuple[str, ...], c: int, bits: int, acc: str | None) -> str:
        """``acc + c * prod(m)`` (just the product term when ``acc`` is None)."""
        t = TYPE[bits]
        wide = bits == 64 and len(m) == 1 and self._wide(Poly.var(m[0]), c)
        if wide:  # a 32-bit value times a 32-bit constant, widened: one IMAD.WIDE
            a = self._atom(m[0], 32)
            return self.op(64, f"mul.wide.{wide}", a, c) if acc is None else \
                self.op(64, f"mad.wide.{wide}", a, c, acc)
        f = self._product(m, bits)
        if c == 1:
            return f if acc is None else self.op(bits, f"add.{t}", acc, f)
        if c == -1 and acc is not None:
            return self.op(bits, f"sub.{t}", acc, f)
        return self.op(bits, f"mul.lo.{t}", f, c) if acc is None else self.op(bits, f"mad.lo.{t}", f, c, acc)

    def _wide(self, p: Poly, k: int) -> str | None:
        """'u32' or 's32' when ``p`` and ``k`` both fit that type, so ``mul.wide`` computes ``k * p``."""
        lo, hi = self.ctx.interval(p)
        if lo is None or hi is None:
            return None
        if 0 <= lo and hi < 2**32 and 0 <= k < 2**32:
            return "u32"
        if -2**31 <= lo and hi < 2**31 and -2**31 <= k < 2**31:
            return "s32"
        return None

    def _product(self, m: tuple[str, ...], bits: int) -> str:
        if len(m) == 1:
            return self._atom(m[0], bits)
        key = (Poly({m: 1}), bits)
        if key not in self._memo:
            if bits == 64 and len(m) == 2 and all(self._wide(Poly.var(v), 0) == "u32" for v in m):
                acc = self.op(64, "mul.wide.u32", self._atom(m[0], 32), self._atom(m[1], 32))
            else:
                acc = self._atom(m[0], bits)
                for v in m[1:]:
                    acc = self.op(bits, f"mul.lo.{TYPE[bits]}", acc, self._atom(v, bits))
            self._memo[key] = acc
        return self._memo[key]

    def _refold(self, p: Poly) -> Poly:
        """Undo a division where the polynomial puts it back together: ``c*d*q + c*r`` is ``c*x``
        for ``x = d*q + r`` (``32*warp + lane`` is the thread index)."""
        changed = True
        while changed:
            changed = False
            for e in self.ctx.defined(Division):
                q, r = e.q, e.r
                if not (len(q.terms) == len(r.terms) == 1) or q.is_const:
                    continue
                (qm, qc), = q.terms.items()
                (rm, rc), = r.terms.items()
                if qc != 1 or rc != 1 or len(qm) != 1 or len(rm) != 1:
                    continue
                cq, cr = p.terms.get(qm, 0), p.terms.get(rm, 0)
                if cr and cq == e.d * cr:
                    p = p - cr * (e.d * q + r) + cr * e.source
                    changed = True
        return p

    def _atom(self, v: str, bits: int) -> str:
        reg, nat = self._natural_of(v)
        if nat == bits:
            return reg
        key = ("cvt", v, bits)
        if key not in self._memo:  # 32-bit atoms are never negative; 64 -> 32 keeps the low bits
            cvt = "cvt.u64.u32" if bits == 64 else "cvt.u32.u64"
            self._memo[key] = self.op(bits, cvt, reg)
        return self._memo[key]

    def _natural_of(self, v: str) -> tuple[str, int]:
        if v not in self._natural:
            if v == TID:
                self._natural[v] = (self.op(32, "mov.u32", TID), 32)
            elif v in self.ctx.vars and "~" not in v:
                self._natural[v] = self.symbol(v)
            else:
                self._divide(v)
        return self._natural[v]

    def _swizzle(self, v: str) -> bool:
        """Define ``v`` when a swizzle introduced it: ``x ^ ((x >> S) & zzz_mask)`` of its offset
        ``x`` (32-bit when ``x`` fits, else 64-bit with an arithmetic shift: two's complement,
        as the oracle's integers).  False when no swizzle defines ``v``."""
        for e in self.ctx.defined(Swizzled):
            if e.value.variables() == {v}:
                p, B, M, S = e.source, e.bits, e.base, e.shift
                break
        else:
            return False
        lo, hi = self.ctx.interval(p)
        narrow = all(self._natural_of(w)[1] == 32 for w in sorted(p.variables()))
        bits = 32 if narrow and lo is not None and lo >= 0 and hi < 2**31 else 64
        x = self.value(p, bits)
        shifted = self.op(bits, f"shr.{'u32' if bits == 32 else 's64'}", x, S)
        masked = self.op(bits, f"and.b{bits}", shifted, ((1 << B) - 1) << M)
        self._natural[v] = (self.op(bits, f"xor.b{bits}", x, masked), bits)
        return True

    def _divide(self, v: str):
        """Define the quotient and remainder of the exact division that introduced ``v``."""
        if self._swizzle(v):
            return
        for e in self.ctx.defined(Division):
            if v in e.q.variables() | e.r.variables():
                p, d, q, r = e.source, e.d, e.q, e.r
                break
        else:
            raise KeyError(f"variable {v!r} has no definition")
        qn, rn = next(iter(q.variables())), next(iter(r.variables()))
        lo, hi = self.ctx.interval(p)
        narrow = all(self._natural_of(w)[1] == 32 for w in sorted(p.variables()))
        k = d.bit_length() - 1
        if narrow and lo is not None and lo >= 0 and hi < 2**32:
            x = self.value(p, 32)
            if d == 1 << k:
                qr = self.op(32, "shr.u32", x, k), self.op(32, "and.b32", x, d - 1)
            elif (magic := _magic(d, hi)) is not None:  # ptxas divides by a constant the slow way
                t = self.op(32, "mul.hi.u32", x, magic)
                q32 = self.op(32, "shr.u32", t, k) if k else t
                qr = q32, self.op(32, "mad.lo.s32", q32, -d, x)
            else:
                qr = self.op(32, "div.u32", x, d), self.op(32, "rem.u32", x, d)
            self._natural[qn], self._natural[rn] = (qr[0], 32), (qr[1], 32)
            return
        x = self.value(p, 64)
        if d == 1 << k:  # an arithmetic shift is floor division, for negative values too
            qr = self.op(64, "shr.s64", x, k), self.op(64, "and.b64", x, d - 1)
        elif lo is not None and lo >= 0:
            qr = self.op(64, "div.u64", x, d), self.op(64, "rem.u64", x, d)
        else:  # floor division of a value that may be negative
            q0, r0 = self.op(64, "div.s64", x, d), self.op(64, "rem.s64", x, d)
            neg = self.regs.new("pred")
            self.emit(f"setp.lt.s64 {neg}, {r0}, 0;")
            q1, r1 = self.op(64, "sub.s64", q0, 1), self.op(64, "add.s64", r0, d)
            qr = self.op(64, "selp.b64", q1, q0, neg), self.op(64, "selp.b64", r1, r0, neg)
        self._natural[qn], self._natural[rn] = (qr[0], 64), (qr[1], 64)


def _magic(d: int, hi: int) -> int | None:
    """M with ``floor(x / d) == (x * M) >> (32 + floor(log2 d))`` for every 0 <= x <= hi, M < 2**32."""
    shift = 32 + d.bit_length() - 1
    m = -(-(1 << shift) // d)
    if m >= 1 << 32 or hi * (m * d - (1 << shift)) >= 1 << shift:
        return None
    return m


def _signed(c: int, bits: int) -> int:
    """``c`` reduced modulo ``2**bits`` into the signed range (a PTX immediate)."""
    c %= 1 << bits
    return c - (1 << bits) if c >= 1 << (bits - 1) else c
