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

from dataclasses import dataclass
from math import prod

import numpy as np

from ..check import Apply, Check, Tensor
from ..expr import to_poly
from ..layout import OFFSET, THREAD_AXES
from ..machine import WARP
from ..poly import Context, Poly

REPEAT, WORD = "$r", "$w"
TID = "%tid.x"


def atoms(check: Check) -> tuple[Context, dict[str, Poly]]:
    """A context holding the thread index and the symbols (as plain variables) with their bounds."""
    ctx = Context()
    ctx.var(TID, 0, check.threads - 1)
    symbols = {s.name: ctx.var(s.name, s.min, s.max) for s in check.symbols.values()}
    return ctx, symbols


def group_coords(check: Check, apply: Apply, ctx: Context) -> list[Poly]:
    """The group coordinates (warp, lane) of the issuing thread, from ``%tid.x``."""
    tid = Poly.var(TID)
    if apply.scope == "thread":
        return []
    if check.threads <= WARP:  # one warp: the lane is the thread index
        warp, lane = Poly(), tid
    else:
        warp, lane = ctx.divmod(tid, WARP, "lane")
    return [lane] if apply.scope == "warp" else [warp, lane]


@dataclass
class Linear:
    """``value = thread + sum(coef[v] * v)`` over the repeat/word variables ``v``."""
    thread: Poly
    coef: dict[str, Poly]


class Operand:
    """A view of a tensor with its repeat and word coordinates left as variables."""

    def __init__(self, check: Check, apply: Apply, view, ctx: Context, symbols: dict[str, Poly],
                 tensor: Tensor | None = None, word: bool = True, tag: str = ""):
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
        elem = {}
        for c, names in zip(self._group, self.group_axes):
            elem.update(zip(names, _digits(c, [view.size[n] for n in names], ctx)))
        for names in self.repeat_axes:
            for n in names:
                elem[n] = ctx.var(self.rv + n, 0, view.size[n] - 1)
        for n in self.word_axis:
            elem[n] = ctx.var(self.wv + n, 0, view.size[n] - 1) if word else Poly()
        self.elem = elem
        self.index = [to_poly(start, ctx, symbols) + _row_major([elem[n] for n in names],
                                                               [view.size[n] for n in names])
                      for start, names in zip(view.starts, view.left)]
        self.comps = self.tensor.layout.poly(self.index, ctx, symbols, self.tensor.offset)
        for a in (OFFSET, *THREAD_AXES):
            self.comps.setdefault(a, Poly())

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
        out = set()
        for key, val in self.ctx.memo.items():
            if key[0] == "divmod" and key[1].variables() & (per | out):
                out.update(v for q in val for v in q.variables())
        return out

    def _thread_dependent(self, v: str) -> bool:
        if v == TID:
            return True
        for key, val in self.ctx.memo.items():
            if key[0] == "divmod" and any(v in q.variables() for q in val):
                return any(self._thread_dependent(w) for w in key[1].variables())
        return False

    # per-coordinate values --------------------------------------------------
    def digits(self) -> dict[str, np.ndarray]:
        """Each per-coordinate variable's value, shape (repeats, vector) (word 0 when ``word`` is off)."""
        n = prod(self.repeat_shape)
        rep = np.arange(n, dtype=np.int64)
        out = {}
        for k, names in reversed(list(enumerate(self.repeat_axes))):
            c = rep % self.repeat_shape[k]
            rep = rep // self.repeat_shape[k]
            out.update(_np_digits(c, [self.view.size[m] for m in names], self.rv, names))
        out = {v: a[:, None] for v, a in out.items()}
        if self.word:
            w = np.arange(self.vector, dtype=np.int64)
            out.update({v: a[None, :] for v, a in
                        _np_digits(w, [self.view.size[m] for m in self.word_axis], self.wv, self.word_axis).items()})
        return out

    def at(self, repeat: tuple[int, ...], word: int = 0) -> dict[str, Poly]:
        """The components at one concrete repeat and word, thread left symbolic (the exact path)."""
        env = {}
        for c, names in zip(repeat, self.repeat_axes):
            env.update(zip(names, (Poly.const(d) for d in _int_digits(c, [self.view.size[n] for n in names]))))
        for n, d in zip(self.word_axis, _int_digits(word, [self.view.size[n] for n in self.word_axis])):
            env[n] = Poly.const(d)
        elem = {**self.elem, **env}
        index = [to_poly(start, self.ctx, self.symbols) + _row_major([elem[n] for n in names],
                                                                    [self.view.size[n] for n in names])
                 for start, names in zip(self.view.starts, self.view.left)]
        comps = self.tensor.layout.poly(index, self.ctx, self.symbols, self.tensor.offset)
        for a in (OFFSET, *THREAD_AXES):
            comps.setdefault(a, Poly())
        return comps

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


def _digits(c: Poly, sizes: list[int], ctx: Context) -> list[Poly]:
    """Row-major digits of ``c`` (last fastest) through exact divisions."""
    out = []
    for s in reversed(sizes[1:]):
        c, r = ctx.divmod(c, s, "digit")
        out.append(r)
    out.append(c)
    return list(reversed(out))


def _row_major(vals: list[Poly], sizes: list[int]) -> Poly:
    acc = Poly()
    for v, s in zip(vals, sizes):
        acc = acc * s + v
    return acc


def _np_digits(c: np.ndarray, sizes: list[int], prefix: str, names) -> dict[str, np.ndarray]:
    out = {}
    for n, s in reversed(list(zip(names, sizes))):
        out[prefix + n] = c % s
        c = c // s
    return out


def _int_digits(c: int, sizes: list[int]) -> list[int]:
    out = []
    for s in reversed(sizes):
        out.append(c % s)
        c //= s
    return list(reversed(out))
