"""The semantics of views and layouts, stated again for the oracles.

The brute-force decider (``decide.py``) and the numpy reference (``gpu/reference.py``) judge the
proofs and the emitter, so they must not share the evaluator those use (``crd2idx.py``).  This
is the check-file format's definition (docs/check-file.md), written plainly for Python ints and
numpy integer arrays; it never changes its inputs.
"""
from __future__ import annotations

from .expr import evaluate
from .layout import OFFSET, ThreadStride


def view_index(view, coords, env: dict[str, int]) -> tuple:
    """The logical index of the view element at ``coords`` (one coordinate per view axis).

    Each view axis is a row-major number over its elementary axes; each logical axis is the
    slice start plus a row-major number over its elementary axes."""
    digit = {}
    for c, names in zip(coords, view.axes):
        for n in reversed(names):
            digit[n] = c % view.size[n]
            c = c // view.size[n]
    out = []
    for start, names in zip(view.starts, view.left):
        i = 0
        for n in names:
            i = i * view.size[n] + digit[n]
        out.append(evaluate(start, env) + i)
    return tuple(out)


def layout_value(layout, index, env: dict[str, int], offset=0) -> dict:
    """``{"": offset + sum(coord * stride), axis: sum(coord * coef) for thread strides}``, the
    element offset swizzled when the layout is (``swizzled``).

    A nested mode splits its coordinate colexicographically: the first sub-mode takes
    ``coord % extent``, the rest see ``coord // extent``; the last sub-mode takes what is left."""
    out = {OFFSET: evaluate(offset, env)}

    def leaf(c, stride):
        if isinstance(stride, ThreadStride):
            out[stride.axis] = out.get(stride.axis, 0) + c * stride.coef
        else:
            out[OFFSET] = out[OFFSET] + c * evaluate(stride, env)

    def mode(c, shape, stride):
        if not isinstance(shape, tuple):
            return leaf(c, stride)
        for k, (s, d) in enumerate(zip(shape, stride)):
            if k == len(shape) - 1:
                return mode(c, s, d)
            ext = _size(s, env)
            mode(c % ext, s, d)
            c = c // ext

    for c, shape, stride in zip(index, layout.shape, layout.stride):
        mode(c, shape, stride)
    sw = getattr(layout, "swizzle", None)
    if sw is not None:
        out[OFFSET] = swizzled(out[OFFSET], sw.bits, sw.base, sw.shift)
    return out


def swizzled(o, B: int, M: int, S: int):
    """CuTe's ``Swizzle<B,M,S>`` of the element offset ``o`` (the tensor's offset plus the layout's):
    bit ``M+i`` of the result is bit ``M+i`` of ``o`` XOR bit ``M+S+i`` of ``o`` for ``i < B``; every
    other bit is ``o``'s (two's complement for a negative ``o``, as Python and numpy shift)."""
    low = ((1 << B) - 1) << M  # the bits that change
    return o ^ ((o >> S) & low)


def _size(shape, env) -> int:
    if isinstance(shape, tuple):
        n = 1
        for s in shape:
            n *= _size(s, env)
        return n
    return evaluate(shape, env)


class Ints:
    """The number domain a role's declared thread-value layout (``families.Role.holds``/``origin``)
    is read in, for the oracles: plain floor division and remainder of Python ints or numpy integer
    arrays (the shared evaluator's ``crd2idx.Ints`` is the prover's and the emitter's)."""

    @staticmethod
    def divmod(c, d: int, stem: str):
        return c // d, c % d
