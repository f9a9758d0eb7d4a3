"""CuTe layouts ``shape:stride`` as small immutable values.

A layout maps a logical index (one coordinate per top-level mode) to an offset.
A nested mode ``((2,4),3):((1,2),8)`` stands for one dimension and splits its
coordinate colexicographically (first sub-mode fastest).  A stride ``k@laneid``
(``@warpid``, ``@tid``) sends the coordinate to a thread component instead of
the element offset: register layouts say which thread owns each slot.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache
from math import prod

from .errors import InputError
from .expr import Expr, brief, concrete, evaluate, flat, parse_expr, parse_tree
from .poly import Context, Poly

THREAD_AXES = ("laneid", "warpid", "tid")
OFFSET = ""  # the component of the element offset / register slot


@dataclass(frozen=True)
class ThreadStride:
    coef: int
    axis: str  # one of THREAD_AXES

    def __str__(self):
        return f"{self.coef}@{self.axis}"


@dataclass(frozen=True)
class Swizzle:
    """CuTe's ``Swizzle<B,M,S>``: ``o ^ ((o & yyy_mask) >> S)`` with ``yyy_mask = (2^B-1) << (M+S)``.

    It XORs the B bits of ``o`` at ``M+S`` into the B bits at ``M`` (``zzz_mask``) and changes no
    other bit: ``swz(o) >> (M+B) == o >> (M+B)`` and ``swz(o) % 2^M == o % 2^M``, so it permutes
    the offsets of every aligned block of ``2^(M+B)`` elements (and of ``2^(M+S+B)``); B = 0 is the
    identity.  ``B >= 0, M >= 0, S >= B`` (CuTe asks ``|S| >= B``; a negative shift is not accepted)."""
    bits: int  # B
    base: int  # M
    shift: int  # S

    def __post_init__(self):
        B, M, S = self.bits, self.base, self.shift
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (B, M, S)) \
                or B < 0 or M < 0 or S < B or B > 16 or M + S + B > 62:
            raise InputError(f"swizzle Sw<{B},{M},{S}> needs integers B >= 0, M >= 0, S >= B "
                             "(with B <= 16 and M + S + B <= 62)")

    @property
    def yyy_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base + self.shift)

    @property
    def zzz_mask(self) -> int:
        return ((1 << self.bits) - 1) << self.base

    @property
    def block(self) -> int:
        """``2^(M+B)``: the swizzle maps every aligned block of this many offsets onto itself."""
        return 1 << (self.base + self.bits)

    def __call__(self, o):
        """The swizzled offset (a Python int or a numpy integer array; never in place)."""
        return o ^ ((o & self.yyy_mask) >> self.shift)

    def __str__(self):
        return f"Sw<{self.bits},{self.base},{self.shift}>"


@dataclass(frozen=True)
class Layout:
    """A CuTe layout ``shape:stride`` (``parse_layout("(8,4):(4,1)")``, optionally swizzled
    ``Sw<B,M,S> o ...``); a stride ``1@laneid`` / ``@warpid`` / ``@tid`` maps a mode to a thread."""
    shape: tuple  # nested tuples of int | Expr
    stride: tuple  # same nesting, leaves int | Expr | ThreadStride
    swizzle: Swizzle | None = None  # CuTe's ComposedLayout<Swizzle, offset, L>: swz(offset + L(i))

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self):
        text = f"{_show(self.shape)}:{_show(self.stride)}"
        return text if self.swizzle is None else f"{self.swizzle} o {text}"

    def extents(self) -> list:
        """The extent of each top-level mode (int or Expr)."""
        return [product(_leaves(m)) for m in self.shape]

    def symbols(self, offset=0) -> list[str]:
        """The symbols the shape, the stride and ``offset`` read, sorted (empty: concrete)."""
        leaves = [*_leaves(self.shape), *_leaves(self.stride), offset]
        return sorted({n for x in leaves if isinstance(x, Expr) for n in x.names()})

    def thread_axes(self) -> set[str]:
        return {s.axis for s in _leaves(self.stride) if isinstance(s, ThreadStride)}

    # evaluation (crd2idx.py: one evaluator for ints, numpy arrays and polynomials) ----
    def __call__(self, index, env: dict[str, int] | None = None, offset=0) -> dict[str, int]:
        from . import crd2idx
        return crd2idx.layout_value(self, index, crd2idx.Ints(env), offset)

    def cosize(self, env: dict[str, int] | None = None, offset=0) -> int:
        """1 + the largest element offset over the whole domain (thread strides ignored).

        Swizzled: the unswizzled cosize rounded up to a multiple of the swizzle's ``block``
        (``2^(M+B)``).  A safe bound, and the tightest that depends on the largest offset alone:
        the swizzle keeps every offset's bits above ``M+B`` and its sign, so an offset in
        ``[0, n)`` stays in ``[0, roundup(n, 2^(M+B)))``, and ``swz(o)`` lies in ``[0, C)`` exactly
        when ``o`` does, for every such ``C``."""
        env = env or {}
        top = evaluate(offset, env)
        for s, d in zip(_leaves(self.shape), _leaves(self.stride)):
            if not isinstance(d, ThreadStride):
                top += max((evaluate(s, env) - 1) * evaluate(d, env), 0)
        if self.swizzle is not None:
            return -(-(top + 1) // self.swizzle.block) * self.swizzle.block
        return top + 1

    def poly(self, index: list[Poly], ctx: Context, symbols: dict[str, Poly], offset=0) -> dict[str, Poly]:
        from . import crd2idx
        return crd2idx.layout_value(self, index, crd2idx.Polys(ctx, symbols), offset)


def row_major(shape) -> Layout:
    """The row-major (C order) layout of ``shape``: the last axis has stride 1."""
    shape = tuple(shape)  # each stride one flat product: a high rank nests no parentheses
    return Layout(shape, tuple(product(shape[k + 1:]) for k in range(len(shape))))


_SWIZZLE = re.compile(r"^\s*Sw\s*<([^<>]*)>\s*o\b\s*(.*)$", re.S)


def parse_layout(text: str) -> Layout:
    """Parse ``"(15,2,7,2):(4,1,60,2)"`` or a swizzled ``"Sw<3,3,3> o (8,64):(64,1)"``; raises
    InputError with the reason.  A layout is immutable: each text is parsed once per process (an
    error is not kept, so it is raised again each time)."""
    return _parse_layout(text) if isinstance(text, str) else _parse_layout.__wrapped__(text)


@lru_cache(maxsize=4096)
def _parse_layout(text: str) -> Layout:
    if isinstance(text, str) and text.lstrip().startswith("Sw"):
        m = _SWIZZLE.match(text)
        if not m:
            raise InputError(f"layout {brief(text)}: a swizzled layout is 'Sw<B,M,S> o shape:stride', "
                             "e.g. 'Sw<3,3,3> o (8,64):(64,1)'")
        args = [a.strip() for a in m.group(1).split(",")]
        if len(args) != 3 or not all(re.fullmatch(r"[+-]?\d{1,4}", a) for a in args):
            raise InputError(f"layout {brief(text)}: Sw<B,M,S> takes three integers, e.g. Sw<3,3,3>")
        try:
            swizzle = Swizzle(*map(int, args))
        except InputError as e:
            raise InputError(f"layout {brief(text)}: {e.message}") from None
        try:
            inner = _parse_layout.__wrapped__(m.group(2))
        except InputError as e:
            raise InputError(f"layout {brief(text)}: after the swizzle, {e.message}") from None
        if inner.swizzle is not None:
            raise InputError(f"layout {brief(text)}: one swizzle per layout (compose them into one Sw<B,M,S>)")
        if inner.thread_axes():
            raise InputError(f"layout {brief(text)}: a swizzled layout cannot have thread strides (@laneid, @warpid, @tid)")
        return Layout(inner.shape, inner.stride, swizzle)
    if not isinstance(text, str) or text.count(":") != 1:
        raise InputError(f"layout {brief(text)} must be 'shape:stride', e.g. '(4,8):(8,1)'")
    shape_t, stride_t = text.split(":")
    shape = _parse_side(shape_t, text, stride=False)
    stride = _parse_side(stride_t, text, stride=True)
    if not isinstance(shape, tuple):
        shape, stride = (shape,), (stride,)
    # CuTe spells a rank-1 nested layout "((4,3)):((1,4))"; Python's parser drops the outer pair
    if _single_wrapped(shape_t) and _single_wrapped(stride_t):
        shape, stride = (shape,), (stride,)
    if not isinstance(stride, tuple) or not _same_nesting(shape, stride):
        raise InputError(f"layout {brief(text)}: shape and stride have different nesting")
    for s in _leaves(shape):
        c = concrete(s)
        if c is not None and c < 1:
            raise InputError(f"layout {brief(text)}: shape entries must be positive, got {c}")
    return Layout(shape, stride)


def mul(a, b):
    """Product of two values (int or Expr), kept an int when both are."""
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    return parse_expr(f"({a})*({b})")


def product(values) -> "int | Expr":
    """Product of values (int or Expr), an int when all are; one flat product, so that many
    symbolic factors do not nest parentheses."""
    values = list(values)
    if all(isinstance(v, int) for v in values):
        return prod(values)
    return parse_expr("*".join(f"({v})" for v in values))


# internals ---------------------------------------------------------------

def _parse_side(text, whole, stride):
    text = flat(text)  # a newline or a tab is a space; get_source_segment reads this text
    try:
        tree = parse_tree(text, "layout")
    except SyntaxError:
        raise InputError(f"cannot parse layout {brief(whole)}") from None

    def leaf(node):
        if isinstance(node, ast.Tuple):
            if not node.elts:
                raise InputError(f"layout {brief(whole)} has an empty mode")
            return tuple(leaf(e) for e in node.elts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            if not stride:
                raise InputError(f"layout {brief(whole)}: '@' thread axes belong in the stride")
            if not isinstance(node.right, ast.Name) or node.right.id not in THREAD_AXES:
                axis = ast.get_source_segment(text, node.right)
                raise InputError(f"layout {brief(whole)}: unknown thread axis {brief(axis)} (use laneid, warpid or tid)")
            coef = parse_expr(ast.get_source_segment(text, node.left), "thread stride")
            if not isinstance(coef, int):
                raise InputError(f"layout {brief(whole)}: a thread stride's coefficient must be an integer")
            return ThreadStride(coef, node.right.id)
        seg = ast.get_source_segment(text, node)
        try:
            return parse_expr(seg, "layout entry")
        except InputError as e:
            raise InputError(f"layout {brief(whole)}: {e.message}") from None

    return leaf(tree)


def _single_wrapped(text: str) -> bool:
    """True for "((4,3))": outer parentheses holding exactly one parenthesized mode.
    Whitespace does not count: "( (4,3) )" is the same."""
    t = "".join(text.split())
    if not (t.startswith("((") and t.endswith("))")):
        return False
    depth = 0
    for i, ch in enumerate(t):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i != len(t) - 1:
            return False  # the first '(' closes before the end
        if depth == 1 and ch == "," :
            return False  # a top-level comma: several modes
    inner = t[1:-1].strip()
    depth = 0
    for i, ch in enumerate(inner):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i != len(inner) - 1:
            return False
    return True


def _same_nesting(a, b):
    if isinstance(a, tuple) != isinstance(b, tuple):
        return False
    return not isinstance(a, tuple) or (len(a) == len(b) and all(map(_same_nesting, a, b)))


def _leaves(x):
    if isinstance(x, tuple):
        return [leaf for e in x for leaf in _leaves(e)]
    return [x]


def _show(x):
    if isinstance(x, tuple):
        return "(" + ",".join(_show(e) for e in x) + ")"
    return str(x)
