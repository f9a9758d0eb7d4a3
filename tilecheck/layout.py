"""CuTe layouts ``shape:stride`` as small immutable values.

A layout maps a logical index (one coordinate per top-level mode) to an offset.
A nested mode ``((2,4),3):((1,2),8)`` stands for one dimension and splits its
coordinate colexicographically (first sub-mode fastest).  A stride ``k@laneid``
(``@warpid``, ``@tid``) sends the coordinate to a thread component instead of
the element offset: register layouts say which thread owns each slot.

CuTe's printed forms are read as they are (``(_8,_64):(_64,_1)``, ``Sw<3,4,3> o _0 o ...``, the
Python DSL's ``S<3,4,3> o 0 o ...``) and written by ``Layout.cute``; ``Layout`` also has CuTe's
``L(i)``, ``size``, ``cosize``, ``coalesce``, ``complement`` and ``composition``.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

from . import crd2idx
from .errors import InputError
from .expr import Expr, brief, concrete, evaluate, flat, parse_expr, parse_tree
from .modes import OFFSET, THREAD_AXES, ThreadStride, _leaves, mul, product  # noqa: F401 (re-exported)
from .poly import Context, Poly

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
    """A CuTe layout ``shape:stride``, optionally swizzled (``Sw<B,M,S> o shape:stride``).

    ``shape`` and ``stride`` are tuples of the same nesting, one entry per top-level mode; a leaf
    is an int or a symbolic ``Expr`` (a stride leaf may also be a thread stride ``k@laneid``).  A
    rank-1 layout with an integer mode, ``Layout((8,), (1,))``, is CuTe's ``8:1`` (CuTe's ``(8):(1)``
    reads the same).  Build one with ``parse_layout`` (which also reads CuTe's printed forms).

    - ``L(i)`` for an integer (or numpy integer array) ``i``: CuTe's ``L(i)``, the element offset of
      the 1-D index ``i`` (split colexicographically over all modes, first mode fastest; the last
      mode takes what is left), swizzled when the layout is.  ``L(coords)`` with one coordinate per
      top-level mode gives every component: ``{"": offset, "laneid": ...}``.
    - ``size()``, ``cosize()``: the domain's size and 1 + the largest offset.
    - ``coalesce()``, ``complement(cotarget)``, ``composition(B)``: CuTe's operations (concrete
      layouts only, no thread strides), as defined in CuTe's ``layout.hpp``.
    - ``str(L)`` is tilecheck's spelling ``(8,64):(64,1)``; ``L.cute()`` is CuTe C++'s
      ``(_8,_64):(_64,_1)``, ``L.cute("dsl")`` the CuTe Python DSL's.
    """
    shape: tuple  # nested tuples of int | Expr
    stride: tuple  # same nesting, leaves int | Expr | ThreadStride
    swizzle: Swizzle | None = None  # CuTe's ComposedLayout<Swizzle, offset, L>: swz(offset + L(i))

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self):
        text = f"{_show(self.shape)}:{_show(self.stride)}"
        return text if self.swizzle is None else f"{self.swizzle} o {text}"

    def cute(self, style: str = "c++") -> str:
        """The layout as CuTe prints it: ``"c++"`` marks every integer static, ``(_8,_64):(_64,_1)``,
        and a swizzled layout ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)``; ``"dsl"`` (the CuTe Python DSL)
        prints ``(8,64):(64,1)`` and ``S<3,4,3> o 0 o (8,64):(64,1)``.  A rank-1 layout with an
        integer mode prints as ``_8:_1``.  Symbolic entries print as expressions (CuTe's dynamic
        integers), thread strides as ``k@laneid`` (no CuTe spelling).  ``parse_layout`` reads
        every form back to an equal layout."""
        if style not in ("c++", "dsl"):
            raise ValueError(f"style must be 'c++' or 'dsl', got {style!r}")
        static = style == "c++"
        shape, stride = _to_cute(self)
        text = f"{_show(shape, static)}:{_show(stride, static)}"
        if self.swizzle is None:
            return text
        sw = self.swizzle
        name, zero = ("Sw", "_0") if static else ("S", "0")
        return f"{name}<{sw.bits},{sw.base},{sw.shift}> o {zero} o {text}"

    def extents(self) -> list:
        """The extent of each top-level mode (int or Expr)."""
        return [product(_leaves(m)) for m in self.shape]

    def symbols(self, offset=0) -> list[str]:
        """The symbols the shape, the stride and ``offset`` read, sorted (empty: concrete)."""
        leaves = [*_leaves(self.shape), *_leaves(self.stride), offset]
        return sorted({n for x in leaves if isinstance(x, Expr) for n in x.names()})

    def thread_axes(self) -> set[str]:
        """The thread axes (``laneid``, ``warpid``, ``tid``) the layout's thread strides name."""
        return {s.axis for s in _leaves(self.stride) if isinstance(s, ThreadStride)}

    # evaluation (crd2idx.py: one evaluator for ints, numpy arrays and polynomials) ----
    def __call__(self, index, env: dict[str, int] | None = None, offset=0):
        """``L(i)`` (``i`` an int or a numpy integer array): CuTe's value at the 1-D index ``i``, an
        int (or array).  ``L(coords)`` (a tuple or list, one coordinate per top-level mode): the
        components ``{"": offset, "laneid": ..., ...}`` of thread-strided layouts too.  ``env``
        gives the symbols' values, ``offset`` is added before the swizzle."""
        if isinstance(index, (tuple, list)):
            return crd2idx.layout_value(self, index, crd2idx.Ints(env), offset)
        if isinstance(index, bool) or not (isinstance(index, int) or hasattr(index, "dtype")):
            raise TypeError(f"index a layout with an integer or a tuple of coordinates, got {index!r}")
        if self.thread_axes():
            raise InputError(f"layout {self}: L(i) is an element offset, and this layout has thread strides; "
                             "call it with one coordinate per mode")
        whole = Layout((self.shape,), (self.stride,), self.swizzle)  # one mode: i splits colexicographically
        return crd2idx.layout_value(whole, [index], crd2idx.Ints(env), offset)[OFFSET]

    def size(self, env: dict[str, int] | None = None):
        """CuTe's ``size``: the number of indices (the product of the shape); an int, or an Expr
        when the shape is symbolic and ``env`` does not give the symbols' values."""
        n = product(_leaves(self.shape))
        return n if env is None or isinstance(n, int) else evaluate(n, env)

    def extent(self, env: dict[str, int] | None = None, offset=0) -> int:
        """The declared extent: 1 + the largest *unswizzled* element offset over the whole domain
        (thread strides ignored) -- the elements a buffer the user allocates for the tensor holds,
        and the upper end ``bounds`` checks every accessed (swizzled) offset against."""
        env = env or {}
        top = evaluate(offset, env)
        for s, d in zip(_leaves(self.shape), _leaves(self.stride)):
            if not isinstance(d, ThreadStride):
                top += max((evaluate(s, env) - 1) * evaluate(d, env), 0)
        return top + 1

    def cosize(self, env: dict[str, int] | None = None, offset=0) -> int:
        """1 + the largest element offset over the whole domain (thread strides ignored).

        Swizzled: the declared ``extent`` rounded up to a multiple of the swizzle's ``block``
        (``2^(M+B)``): a safe bound on the swizzled offsets (the swizzle keeps every offset's bits
        above ``M+B`` and its sign, so an offset in ``[0, n)`` stays in ``[0, roundup(n, 2^(M+B)))``),
        and the size of the arrays tilecheck allocates itself (``--kernel``'s ``.shared``/``.local``
        arrays).  A buffer the user allocates holds only ``extent`` elements: a swizzled offset
        in ``[extent, cosize)`` is past it, and ``bounds`` refutes it (issue 32)."""
        top = self.extent(env, offset)
        if self.swizzle is not None:
            return -(-top // self.swizzle.block) * self.swizzle.block
        return top
    # CuTe's layout algebra (concrete layouts) -------------------------------------------------
    def coalesce(self) -> "Layout":
        """CuTe's ``coalesce``: the same function of the 1-D index over ``[0, size)`` with the
        fewest modes, flat; size-1 modes dropped, a mode merged into the one before when its
        stride is that mode's shape times stride.  A swizzled layout keeps its swizzle (CuTe's
        ``coalesce`` of a ``ComposedLayout`` coalesces the inner layout)."""
        shape, stride = _coalesce(*_to_cute(self._concrete("coalesce")))
        return _from_cute(shape, stride, self.swizzle)

    def complement(self, cotarget: int | None = None) -> "Layout":
        """CuTe's ``complement(L, cotarget)``: the layout of the gaps, ordered so that
        ``(L, complement)`` is a bijection onto ``[0, cotarget)`` rounded up to a multiple of
        L's span; ``cotarget`` defaults to ``L.cosize()``.  Non-negative strides only; a
        non-injective layout (a mode whose stride falls inside an earlier mode's span) is refused
        as CuTe refuses it.  Not for swizzled layouts."""
        if self.swizzle is not None:
            raise InputError(f"layout {self}: the complement of a swizzled layout is not defined here")
        lay = self._concrete("complement")
        if cotarget is None:
            cotarget = lay.cosize()
        if isinstance(cotarget, bool) or not isinstance(cotarget, int) or cotarget < 1:
            raise InputError(f"complement of {self}: the cotarget must be a positive integer, got {cotarget!r}")
        return _from_cute(*_complement(_leaves(lay.shape), _leaves(lay.stride), cotarget, self))

    def composition(self, other: "Layout") -> "Layout":
        """CuTe's ``composition(A, B)``, ``A o B``: the layout with B's shape whose value at ``i`` is
        ``A(B(i))`` (A's last mode extended past its size, as in CuTe).  A is coalesced first,
        then each of B's integer modes divides A's modes in turn (CuTe's ``composition_impl``);
        CuTe's divisibility conditions are checked: a stride or shape of B that does not divide
        (or is not a multiple of) the A mode it meets is an InputError (these conditions are what
        makes B's modes, composed one by one, add up to ``A(B(i))``).  A swizzled A keeps its
        swizzle outside (``Sw o A o B``); B must not be swizzled."""
        if not isinstance(other, Layout):
            raise TypeError(f"composition needs a Layout, got {other!r}")
        if other.swizzle is not None:
            raise InputError(f"composition {self} o {other}: the right-hand layout must not be swizzled")
        a = _to_cute(self._concrete("composition"))
        b = _to_cute(other._concrete("composition"))
        flat = _coalesce(*a)
        sa, da = ([flat[0]], [flat[1]]) if isinstance(flat[0], int) else (list(flat[0]), list(flat[1]))
        where = f"composition {self} o {other}"
        shape, stride = _compose_modes(sa, da, *b, where)
        return _from_cute(shape, stride, self.swizzle)

    def _concrete(self, what: str) -> "Layout":
        if any(isinstance(x, Expr) for x in (*_leaves(self.shape), *_leaves(self.stride))):
            raise InputError(f"layout {self}: {what} needs a concrete layout (integers, no symbols)")
        if self.thread_axes():
            raise InputError(f"layout {self}: {what} needs element strides (no @laneid, @warpid, @tid)")
        return self

    def poly(self, index: list[Poly], ctx: Context, symbols: dict[str, Poly], offset=0) -> dict[str, Poly]:
        """Every component (offset, thread axes) at a symbolic ``index``, as exact polynomials (the proofs')."""
        return crd2idx.layout_value(self, index, crd2idx.Polys(ctx, symbols), offset)


def row_major(shape) -> Layout:
    """The row-major (C order) layout of ``shape``: the last axis has stride 1."""
    shape = tuple(shape)  # each stride one flat product: a high rank nests no parentheses
    return Layout(shape, tuple(product(shape[k + 1:]) for k in range(len(shape))))


_SWIZZLE = re.compile(r"^\s*(Sw|S)\s*<([^<>]*)>\s*o\b\s*(.*)$", re.S)
_SWIZZLE_START = re.compile(r"^\s*Sw?\s*<")
_OFFSET = re.compile(r"^([^:()<>]*?)\s*\bo\b\s*(.*)$", re.S)  # "_0 o (8,64):(64,1)": the offset, then the layout
_STATIC = re.compile(r"(?<![\w.])_(-?\d+)(?![\w.])")  # CuTe's static integer _8 (C<8>), _-1


def static_ints(text: str) -> str:
    """``text`` with CuTe's static integers ``_8``, ``_-1`` written as ``8``, ``-1``."""
    return _STATIC.sub(r"\1", text)


def parse_layout(text: str) -> Layout:
    """Parse a layout; raises InputError with the reason.

    Accepted: ``"(15,2,7,2):(4,1,60,2)"``, nested modes ``"((2,4),3):((1,2),8)"``, CuTe's printed
    forms with static integers ``"(_8,_64):(_64,_1)"`` (``_8`` is the integer 8, never a symbol),
    and swizzled layouts as CuTe C++ prints them, ``"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"``, as
    the CuTe Python DSL prints them, ``"S<3,4,3> o 0 o (8,64):(64,1)"``, or without the offset,
    ``"Sw<3,4,3> o (8,64):(64,1)"``.  The offset between the swizzle and the layout must be 0 (a
    tensor's ``offset`` is the place for another one: it is added before the swizzle, as CuTe's).
    A layout is immutable: each text is parsed once per process (an error is not kept, so it is
    raised again each time)."""
    return _parse_layout(text) if isinstance(text, str) else _parse_layout.__wrapped__(text)


@lru_cache(maxsize=4096)
def _parse_layout(text: str) -> Layout:
    if isinstance(text, str) and _SWIZZLE_START.match(text):
        m = _SWIZZLE.match(text)
        if not m:
            raise InputError(f"layout {brief(text)}: a swizzled layout is 'Sw<B,M,S> o shape:stride', "
                             "e.g. 'Sw<3,3,3> o (8,64):(64,1)'")
        args = [static_ints(a.strip()) for a in m.group(2).split(",")]
        if len(args) != 3 or not all(re.fullmatch(r"[+-]?\d{1,4}", a) for a in args):
            raise InputError(f"layout {brief(text)}: {m.group(1)}<B,M,S> takes three integers, e.g. Sw<3,3,3>")
        try:
            swizzle = Swizzle(*map(int, args))
        except InputError as e:
            raise InputError(f"layout {brief(text)}: {e.message}") from None
        rest = m.group(3)
        off = _OFFSET.match(rest)
        if off:  # CuTe's ComposedLayout<Swizzle, offset, L> prints its offset: "_0" in C++, "0" in the DSL
            value = static_ints(off.group(1).strip())
            if value != "0" and re.fullmatch(r"[+-]?\d+", value) and int(value) == 0:
                value = "0"
            if value != "0":
                raise InputError(f"layout {brief(text)}: the offset {off.group(1).strip()!r} between the swizzle and "
                                 "the layout is not supported; write 0 there and give the offset as the tensor's "
                                 "'offset' (added before the swizzle, as in CuTe)")
            rest = off.group(2)
        try:
            inner = _parse_layout.__wrapped__(rest)
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


# internals ---------------------------------------------------------------

def _parse_side(text, whole, stride):
    text = static_ints(flat(text))  # a newline or a tab is a space; get_source_segment reads this text
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


def _show(x, static=False):
    if isinstance(x, tuple):
        return "(" + ",".join(_show(e, static) for e in x) + ")"
    return f"_{x}" if static and isinstance(x, int) else str(x)


# CuTe's layout algebra on (shape, stride) in CuTe's form: an int mode or nested tuples ----------

def _to_cute(lay: Layout):
    """``(shape, stride)`` as CuTe has them: a rank-1 layout with an integer mode is ``(8, 1)``."""
    if len(lay.shape) == 1 and not isinstance(lay.shape[0], tuple):
        return lay.shape[0], lay.stride[0]
    return lay.shape, lay.stride


def _from_cute(shape, stride, swizzle=None) -> Layout:
    if not isinstance(shape, tuple):
        return Layout((shape,), (stride,), swizzle)
    return Layout(shape, stride, swizzle)


def _coalesce(shape, stride):
    """CuTe's ``coalesce`` of a (possibly nested) mode: ``(int, int)`` or flat tuples."""
    out_s, out_d = [1], [0]
    for s, d in zip(_leaves(shape), _leaves(stride)):
        if s == 1:
            continue
        if out_s[-1] == 1:
            out_s[-1], out_d[-1] = s, d
        elif out_s[-1] * out_d[-1] == d:
            out_s[-1] *= s
        else:
            out_s.append(s)
            out_d.append(d)
    return (out_s[0], out_d[0]) if len(out_s) == 1 else (tuple(out_s), tuple(out_d))


def _shape_div(a: int, b: int, where: str) -> int:
    """CuTe's ``shape_div`` of integers: ``ceil(a / b)``, where one of them divides the other."""
    if a % b and b % a:
        raise InputError(f"{where}: {a} and {b} do not divide one another (CuTe's shape_div)")
    return -(-a // b)


def _compose_modes(sa: list, da: list, b_shape, b_stride, where: str):
    """``A o B`` for a coalesced A (``sa``, ``da`` flat) and B's (nested) mode: by mode over B."""
    if isinstance(b_shape, tuple):
        parts = [_compose_modes(sa, da, s, d, where) for s, d in zip(b_shape, b_stride)]
        return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
    if len(sa) == 1:  # rank-1 A: its one mode is extended
        return b_shape, b_stride * da[0]
    if b_stride == 0:
        return b_shape, 0
    out_s, out_d = [], []
    rest_shape, rest_stride = b_shape, b_stride
    for s, d in zip(sa[:-1], da[:-1]):
        s1 = _shape_div(s, abs(rest_stride), where)  # divide out B's stride from A's mode
        out_s.append(min(s1, rest_shape))  # mod out B's shape
        out_d.append(rest_stride * d)
        rest_shape = _shape_div(rest_shape, s1, where)
        rest_stride = _shape_div(abs(rest_stride), s, where) * (1 if rest_stride > 0 else -1)
    out_s.append(rest_shape)
    out_d.append(rest_stride * da[-1])
    return _coalesce(tuple(out_s), tuple(out_d))


def _complement(shapes: list, strides: list, cotarget: int, lay) -> tuple:
    """CuTe's ``complement`` of the flat modes ``shapes``/``strides``: the gaps in order of stride."""
    if any(d < 0 for d in strides):
        raise InputError(f"complement of {lay}: negative strides are not supported")
    modes = sorted((d, s) for s, d in zip(shapes, strides) if s != 1 and d != 0)
    out_s, out_d, current = [], [], 1
    for d, s in modes:
        gap = d // current
        if gap == 0:
            raise InputError(f"complement of {lay}: the layout is not injective (stride {d} lies inside "
                             f"the span {current} of the modes before it)")
        out_s.append(gap)
        out_d.append(current)
        current = d * s
    out_s.append(-(-cotarget // current))
    out_d.append(current)
    return _coalesce(tuple(out_s), tuple(out_d))


# a CuTe thread-value layout as a register tensor's layout ---------------------------------------

def from_tv(text: str, tile: tuple) -> Layout:
    """The register layout of a fragment given as CuTe's thread-value layout ``(T,V) -> i``: thread
    ``t`` (the first mode, colexicographic) holds as its value ``v`` (the second mode) the element of
    the ``tile`` (concrete extents) at CuTe's colexicographic index ``i`` (for a 16x8 tile, ``m + 16*n``),
    as CuTe's MMA and copy atoms declare them (``((4,8),(2,2)):((32,1),(16,8))`` is the m16n8k8
    accumulator).  The result maps each element to its slot (``v``) and thread, ``k@laneid`` while
    ``t < 32`` and ``k@warpid`` above; a mode that crosses a tile axis or the warp is split.  Raises
    InputError saying why when there is no such layout: every element must be held exactly once
    (the layout is a bijection onto the tile, no stride-0 broadcast)."""
    tv = parse_layout(text)
    if tv.swizzle is not None or len(tv.shape) != 2:
        raise InputError(f"{brief(text)}: a thread-value layout has two modes, (thread, value), "
                         f"and no swizzle; got rank {len(tv.shape)}")
    digits = []  # (extent, tile-index stride, "T" | "V", position stride within T or V)
    for kind, shape, stride in (("T", tv.shape[0], tv.stride[0]), ("V", tv.shape[1], tv.stride[1])):
        pos = 1
        for s, d in zip(_leaves(shape), _leaves(stride)):
            if not isinstance(s, int) or not isinstance(d, int):
                raise InputError(f"{brief(text)}: shapes and strides must be integers, got {s}:{d}")
            if s > 1:
                if d == 0:
                    raise InputError(f"{brief(text)}: a {'thread' if kind == 'T' else 'value'} mode of stride "
                                     f"0 ({s}:0) gives one element to several {'threads' if kind == 'T' else 'values'}"
                                     "; a register fragment holds each element once")
                digits.append((s, d, kind, pos))
            pos *= s
    size = product(tile)
    digits.sort(key=lambda x: x[1])
    want = 1
    for s, d, kind, _ in digits:
        if d != want:
            raise InputError(f"{brief(text)}: not one element per (thread, value) of the {'x'.join(map(str, tile))}"
                             f" tile: after index {want - 1} comes a mode {s}:{d} (indices {want}.. are "
                             + ("held twice" if d < want else "held by no thread") + ")")
        want *= s
    if want != size:
        raise InputError(f"{brief(text)}: the threads' values cover {want} elements, the "
                         f"{'x'.join(map(str, tile))} tile has {size}")

    def split(ds, at, where):  # cut the digit whose tile-index range (or thread range) crosses ``at``
        out = []
        for s, d, kind, p in ds:
            lo = d if where == "index" else p
            if lo < at < lo * s and (where == "index" or kind == "T"):
                a = at // lo
                if at % lo or s % a:
                    raise InputError(f"{brief(text)}: mode {s}:{d} crosses "
                                     + (f"a tile axis (at index {at})" if where == "index" else "the warp (thread 32)")
                                     + " in a way a layout cannot split")
                out += [(a, d, kind, p), (s // a, d * a, kind, p * a)]
            else:
                out.append((s, d, kind, p))
        return out
    bound = 1
    for e in tile[:-1]:
        bound *= e
        digits = split(digits, bound, "index")
    digits = split(digits, 32, "thread")
    modes = []
    lo = 1
    for e in tile:
        mine = [x for x in digits if lo <= x[1] < lo * e]
        lo *= e
        shape = tuple(s for s, *_ in mine)
        stride = tuple(p if kind == "V" else ThreadStride(p, "laneid") if p < 32 else ThreadStride(p // 32, "warpid")
                       for _, _, kind, p in mine)
        modes.append(((1, 0) if not mine else (shape[0], stride[0]) if len(mine) == 1 else (shape, stride)))
    return Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))
