"""One operand of an application, evaluated for code generation.

The proofs see an operand at symbolic coordinates; the emitter needs the same
values split the way PTX computes them: a *thread part* (a polynomial over the
thread index, the symbols and exact divisions of them — computed once, in
registers) and a *per-coordinate part* (an integer for each repeat and word —
the immediate offset or the register slot).

Every elementary axis of the view's repeat and word axes becomes one variable
``$rTAG.NAME`` / ``$wTAG.NAME``; group axes are digits of ``%tid.x``.  When the
evaluated offset is affine in those variables (every flat layout, and every
nested one whose splits see only constants) the per-coordinate part is a dot
product evaluated for all repeats at once with numpy; otherwise each repeat is
evaluated on its own (``exact``), which is slower but equally exact.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from math import prod

import numpy as np

from .. import crd2idx
from ..check import Apply, Check, Tensor
from ..layout import row_major
from ..machine import CTA, GROUPS, WARP
from ..poly import Context, Division, Poly, Swizzled
from .applies import copies, register_copies  # noqa: F401 (copies re-exported)

REPEAT, WORD = "$r", "$w"
TID = "%tid.x"


def atoms(check: Check) -> tuple[Context, dict[str, Poly]]:
    """A context holding the thread index and the symbols (as plain variables) with their bounds; a
    warp-id symbol (``from = "warpid"``) is ``%tid.x / 32`` (not ``%warpid``, which a warp may change)."""
    ctx = Context()
    tid = ctx.var(TID, 0, check.threads - 1)
    symbols = {s.name: ctx.var(s.name, s.min, s.max) for s in check.symbols.values() if not s.warp}
    for s in check.symbols.values():
        if s.warp:  # the same division the lane's (group_coords) is: one shift
            symbols[s.name] = ctx.divmod(tid, WARP, "lane")[0] if check.threads > WARP else Poly()
    return ctx, symbols


@dataclass(frozen=True)
class Operands:
    """The emitter's operand model of a check, built once per plan (``Plan.operands``) by ``build``:
    the context holding ``%tid.x`` and the symbols, and per application its operands by role —
    ``"memory"``/``"register"`` (an ld/st-like application), ``"dst"``/``"src"`` (a copy), and
    ``"buffer"``: the register operand over its row-major kernel buffer, for the applications
    whose register tile a kernel reads from or writes to its buffer.  Emission works on a
    ``fork()``, so that it never changes the plan's model."""
    ctx: Context
    symbols: dict[str, Poly]
    applies: tuple[dict[str, "Operand"], ...]

    def fork(self) -> "Operands":
        """A copy whose context (and every operand's reference to it) is private to one emission."""
        c = self.ctx
        ctx = Context(dict(c.vars), list(c.eqs), list(c.ges), list(c.rels), dict(c.memo), c._fresh)
        return Operands(ctx, self.symbols, tuple({k: op._rebind(ctx) for k, op in ops.items()}
                                                 for ops in self.applies))


def build(check: Check) -> Operands:
    """The operand model of every application of ``check``, in the order the emitter once built it
    (each application's operands, then the buffers of the register copies): the plan calls this
    once (``Plan.operands``); no emitter entry point calls it."""
    ctx, sym = atoms(check)
    out = []
    for a in check.applies:
        if copies(a):
            out.append({role: Operand(check, a, getattr(a, role), ctx, sym, word=False,
                                      tag=f"{a.index}{role[0]}") for role in ("dst", "src")})
        else:
            role = a.family.role(a.opcode, "src" if a.is_load else "dst")
            out.append({"memory": Operand(check, a, a.memory, ctx, sym, word=False, tag=f"{a.index}m",
                                          origin=role.origin),
                        "register": Operand(check, a, a.register, ctx, sym, word=True, tag=f"{a.index}r")})
    fills, writes = register_copies(check)
    for a in (*fills, *writes):
        if "buffer" not in out[a.index]:
            t = check.tensors[a.register.tensor]
            flat = Tensor(t.name, t.dtype, "global", t.shape, row_major(t.shape), 0, t.esize)
            out[a.index]["buffer"] = Operand(check, a, a.register, ctx, sym, tensor=flat, word=True,
                                             tag=f"{a.index}b")
    return Operands(ctx, sym, tuple(out))


def group_coords(check: Check, apply: Apply, ctx: Context) -> list[Poly]:
    """The group coordinates (warp, lane) of the issuing thread, from ``%tid.x``."""
    tid = Poly.var(TID)
    g = GROUPS[apply.scope]
    if not g.coords:
        return []
    if check.threads <= WARP:  # one warp: the lane is the thread index
        warp, lane = Poly(), tid
    else:
        warp, lane = ctx.divmod(tid, WARP, "lane")
    if len(g.coords) == 1:
        return [lane]
    if g.warps != CTA and check.threads > g.span(check.threads):  # the warp within its group
        warp = ctx.divmod(warp, g.warps, "wg")[1]
    return [warp, lane]


@dataclass
class Linear:
    """``value = thread + sum(coef[v] * v)`` over the repeat/word variables ``v``."""
    thread: Poly
    coef: dict[str, Poly]


class Operand:
    """A view of a tensor with its repeat and word coordinates left as variables."""

    def __init__(self, check: Check, apply: Apply, view, ctx: Context, symbols: dict[str, Poly],
                 tensor: Tensor | None = None, word: bool = True, tag: str = "", origin=None):
        self.check, self.apply, self.view = check, apply, view
        self.rv, self.wv = f"{REPEAT}{tag}.", f"{WORD}{tag}."
        self.tensor = tensor or check.tensors[view.tensor]
        self.ctx, self.symbols = ctx, symbols
        g = len(check.group_shape(apply.scope))
        self.group_axes, self.repeat_axes, self.word_axis = view.axes[:g], view.axes[g:-1], view.axes[-1]
        self.repeat_shape = tuple(prod(view.size[n] for n in names) for names in self.repeat_axes)
        self.vector = prod(view.size[n] for n in self.word_axis)
        self.word = word
        self._group = group_coords(check, apply, ctx)
        self.dom = crd2idx.Divisions(ctx, symbols)
        self.origin = origin is not None
        start = Poly()  # the word of the address (0: the issuing thread's own atom)
        if origin is not None:  # the thread's address is another coordinate's (ldmatrix: its row's origin)
            g0, start = origin(self._group[-1:], self.dom)
            self._group = [*self._group[:-1], *g0]
        elem = {}
        for c, names in zip(self._group, self.group_axes):
            elem.update(zip(names, self.dom.digits(c, [view.size[n] for n in names], "")))
        for names in self.repeat_axes:
            for n in names:
                elem[n] = ctx.var(self.rv + n, 0, view.size[n] - 1)
        if word or origin is None:
            for n in self.word_axis:
                elem[n] = ctx.var(self.wv + n, 0, view.size[n] - 1) if word else Poly()
        else:
            elem.update(zip(self.word_axis, self.dom.digits(start, [view.size[n] for n in self.word_axis], "")))
        self.elem = elem
        self.index = crd2idx.logical(view, elem, self.dom)
        self.comps = self._value(self.index)

    def _rebind(self, ctx: Context) -> "Operand":
        """This operand over ``ctx`` (a fork of its own context)."""
        op = copy.copy(self)
        op.ctx, op.dom = ctx, crd2idx.Divisions(ctx, self.symbols)
        return op

    def _value(self, index) -> dict[str, Poly]:
        return crd2idx.components(crd2idx.layout_value(self.tensor.layout, index, self.dom, self.tensor.offset),
                                  self.dom)

    # the split -------------------------------------------------------------
    def variables(self) -> list[str]:
        """The per-coordinate variables, repeat axes first, in the view's order."""
        out = [self.rv + n for names in self.repeat_axes for n in names]
        return out + ([self.wv + n for n in self.word_axis] if self.word else [])

    def linear(self, p: Poly) -> Linear | None:
        """``p`` as thread part + per-coordinate variables times coefficients free of the
        thread and of other coordinates; None when it is not of that form."""
        per = set(self.variables())
        tainted = self._tainted(per)
        if p.variables() & tainted:
            return None
        thread, coef = Poly(), {}
        for m, c in p.terms.items():
            vs = [v for v in m if v in per]
            if not vs:
                thread = thread + Poly({m: c})
                continue
            rest = tuple(v for v in m if v not in per)
            if len(vs) > 1 or any(self._thread_dependent(v) for v in rest):
                return None
            coef[vs[0]] = coef.get(vs[0], Poly()) + Poly({rest: c})
        return Linear(thread, coef)

    def _tainted(self, per: set[str]) -> set[str]:
        """Fresh division variables whose dividend depends on a per-coordinate variable."""
        out, grew = set(), True
        while grew:  # a swizzle's value may be divided again, and the other way round
            grew = False
            for e in self.ctx.defined(*_DEFINED):
                if e.source.variables() & (per | out):
                    new = {v for q in e.parts for v in q.variables()} - out
                    out |= new
                    grew = grew or bool(new)
        return out

    def _thread_dependent(self, v: str) -> bool:
        if v == TID:
            return True
        for e in self.ctx.defined(*_DEFINED):
            if any(v in q.variables() for q in e.parts):
                return any(self._thread_dependent(w) for w in e.source.variables())
        return False

    # per-coordinate values --------------------------------------------------
    def digits(self) -> dict[str, np.ndarray]:
        """Each per-coordinate variable's value, shape (repeats, vector) (word 0 when ``word`` is off)."""
        ints = crd2idx.Ints()
        rep = np.arange(prod(self.repeat_shape), dtype=np.int64)
        coords = ints.digits(rep, list(self.repeat_shape), "") if self.repeat_shape else []
        out = {self.rv + n: a[:, None] for n, a in self._elements(coords, self.repeat_axes, ints).items()}
        if self.word:
            w = np.arange(self.vector, dtype=np.int64)
            out.update({self.wv + n: a[None, :] for n, a in self._elements([w], [self.word_axis], ints).items()})
        return out

    def at(self, repeat: tuple[int, ...], word: int = 0) -> dict[str, Poly]:
        """The components at one concrete repeat and word, thread left symbolic (the exact path)."""
        ints = crd2idx.Ints()
        if self.origin and not self.word:  # the word is the thread's origin's (ldmatrix), not a coordinate
            env = self._elements([*repeat], [*self.repeat_axes], ints)
        else:
            env = self._elements([*repeat, word], [*self.repeat_axes, self.word_axis], ints)
        elem = {**self.elem, **{n: Poly.const(int(d)) for n, d in env.items()}}
        return self._value(crd2idx.logical(self.view, elem, self.dom))

    def _elements(self, coords, axes, dom) -> dict:
        """The elementary digits of coordinates along ``axes`` (a part of the view's axes)."""
        out = {}
        for c, names in zip(coords, axes):
            out.update(zip(names, dom.digits(c, [self.view.size[n] for n in names], "")))
        return out

    def repeats(self):
        return np.ndindex(*self.repeat_shape)


def integer_dot(lin: Linear, digits: dict[str, np.ndarray], shape) -> np.ndarray | None:
    """sum(coef * digit) when every coefficient is an integer, else None."""
    out = np.zeros(shape, dtype=np.int64)
    for v, c in lin.coef.items():
        if not c.is_const:
            return None
        out = out + c.constant * digits[v]
    return out


_DEFINED = (Division, Swizzled)  # memo entries whose parts are fresh variables defined by their source
