"""Operand views: ``NAME[r0:r0+8, :]: r (v=2 w) -> r v w``.

A view slices a tensor's logical shape (half-open ranges, symbolic starts,
concrete extents) and rearranges the sliced axes einops-style: the left side
names each axis and may split it ``(a=4 b)``; the right side lists the view's
axes, merging names row-major ``(d b)``; ``()`` on the right is a size-1 axis (the word axis
of a scalar opcode: ``A: i j -> i j ()``).  Every name on the left is one
*elementary* axis with a concrete extent; each view axis is a row-major
product of elementary axes, and each logical axis is a row-major product of
elementary axes plus its slice start.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from math import prod

from .errors import InputError
from .expr import concrete, parse_expr
from . import crd2idx

_OPERAND = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)\s*(\[(.*?)\])?\s*(?::(.*))?$", re.S)
_TOKEN = re.compile(r"\(|\)|[A-Za-z_][A-Za-z_0-9]*(?:\s*=\s*\d+)?|\S")


@dataclass(frozen=True)
class View:
    """An operand (``"A[0:8, :]: i j -> i j ()"``): a tensor, slice starts and stops, and the
    rearrange pattern that makes it ``(*group, *repeat, word)``; ``parse_operand`` builds one."""
    tensor: str
    text: str
    starts: tuple  # per logical axis: int | Expr
    extents: tuple  # per logical axis: int | Expr (sliced extent)
    sliced: tuple  # per logical axis: True when the operand slices it
    left: tuple  # per logical axis: tuple of elementary names, row-major
    axes: tuple  # per view axis: tuple of elementary names, row-major
    size: dict  # elementary name -> concrete extent

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(prod(self.size[n] for n in names) for names in self.axes)

    def index(self, coords, env: dict[str, int] | None = None) -> tuple[int, ...]:
        """The tensor's logical index of the view element at ``coords`` (ints or numpy arrays)."""
        return tuple(crd2idx.view_index(self, coords, crd2idx.Ints(env)))


def parse_operand(text: str, shapes: dict[str, tuple]) -> View:
    """Parse an operand string against the tensors' logical shapes."""
    if not isinstance(text, str):
        raise InputError(f"operand must be a string like 'A[0:8, :]: i j -> i j', got {text!r}")
    m = _OPERAND.match(text)
    if not m:
        raise InputError(f"cannot parse operand {text!r} (expected NAME[slices]: PATTERN)")
    name, has_slice, slice_text, pattern = m.group(1), m.group(2), m.group(3), m.group(4)
    if name not in shapes:
        raise InputError(f"operand {text!r} names unknown tensor {name!r}")
    shape = shapes[name]
    starts, extents, sliced = _slices(slice_text if has_slice else None, shape, text)
    if pattern is None or not pattern.strip():
        names = tuple(f"_{k}" for k in range(len(shape)))
        left, axes = tuple((n,) for n in names), tuple((n,) for n in names)
        size = {}
        for n, e in zip(names, extents):
            size[n] = _concrete_extent(e, text)
    else:
        left, axes, size = _pattern(pattern, extents, text)
    return View(name, text.strip(), tuple(starts), tuple(extents), tuple(sliced), left, axes, size)


def _concrete_extent(e, text):
    c = concrete(e)
    if c is None:
        raise InputError(f"operand {text!r}: axis extent {e} is symbolic; slice it to a concrete extent")
    return c


def _slices(text, shape, whole):
    if text is None:
        return [0] * len(shape), list(shape), [False] * len(shape)
    items = [t.strip() for t in text.split(",")] if text.strip() else []
    if len(items) != len(shape):
        raise InputError(f"operand {whole!r} slices {len(items)} axes, tensor has {len(shape)}")
    starts, extents, sliced = [], [], []
    for item, dim in zip(items, shape):
        if item == ":":
            starts.append(0), extents.append(dim), sliced.append(False)
            continue
        if item.count(":") != 1:
            raise InputError(f"operand {whole!r}: slice {item!r} must be 'start:stop' or ':'")
        a, b = item.split(":")
        start = parse_expr(a, "slice start") if a.strip() else 0
        stop = parse_expr(b, "slice stop") if b.strip() else dim
        ext = concrete(_sub(stop, start))
        if ext is None:
            raise InputError(f"operand {whole!r}: slice {item!r} has no concrete extent")
        if ext <= 0:
            raise InputError(f"operand {whole!r}: slice {item!r} is empty")
        starts.append(start), extents.append(ext), sliced.append(True)
    return starts, extents, sliced


def _sub(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a - b
    return parse_expr(f"({a})-({b})")


def _groups(side, whole, unit=False):
    """Tokens of one side of a pattern: list of groups, each a list of (name, size|None).
    With ``unit`` (the right side), ``()`` is an empty group: a size-1 axis."""
    groups, cur = [], None
    for tok in _TOKEN.findall(side):
        if tok == "(":
            if cur is not None:
                raise InputError(f"pattern {whole!r}: nested parentheses")
            cur = []
        elif tok == ")":
            if cur is None or not (cur or unit):
                raise InputError(f"pattern {whole!r}: unbalanced or empty parentheses")
            groups.append(cur)
            cur = None
        elif re.match(r"[A-Za-z_]", tok):
            n, _, s = tok.partition("=")
            if len(s.strip()) > 18:
                raise InputError(f"pattern {whole!r}: split size {s.strip()[:12]}... is too large")
            item = (n.strip(), int(s) if s else None)
            if cur is None:
                groups.append([item])
            else:
                cur.append(item)
        else:
            raise InputError(f"pattern {whole!r}: unexpected {tok!r}")
    if cur is not None:
        raise InputError(f"pattern {whole!r}: unbalanced parentheses")
    return groups


def _pattern(pattern, extents, whole):
    if pattern.count("->") != 1:
        raise InputError(f"operand {whole!r}: pattern must be 'left -> right'")
    lhs, rhs = pattern.split("->")
    lgroups, rgroups = _groups(lhs, whole), _groups(rhs, whole, unit=True)
    if len(lgroups) != len(extents):
        raise InputError(f"operand {whole!r}: pattern names {len(lgroups)} axes, the operand has {len(extents)}")
    size, left = {}, []
    for group, dim in zip(lgroups, extents):
        unknown = [n for n, s in group if s is None]
        known = prod(s for _, s in group if s is not None)
        if any(s is not None and s <= 0 for _, s in group):
            raise InputError(f"operand {whole!r}: split sizes must be positive")
        if len(group) > 1 and len(unknown) > 1:
            raise InputError(f"operand {whole!r}: give the sizes of all but one of ({' '.join(n for n, _ in group)})")
        d = concrete(dim)
        if d is None:
            raise InputError(f"operand {whole!r}: axis extent {dim} is symbolic; slice it to a concrete extent")
        if unknown:
            if d % known:
                raise InputError(f"operand {whole!r}: split sizes {known} do not divide the axis extent {d}")
            sizes = {n: (s if s is not None else d // known) for n, s in group}
        else:
            if known != d:
                raise InputError(f"operand {whole!r}: split sizes multiply to {known}, the axis extent is {d}")
            sizes = dict(group)
        for n, s in sizes.items():
            if n in size:
                raise InputError(f"operand {whole!r}: axis name {n!r} appears twice on the left")
            size[n] = s
        left.append(tuple(n for n, _ in group))
    axes, seen = [], []
    for k, group in enumerate(rgroups):
        if not group:  # (): a size-1 axis of its own, named so that no pattern can spell it
            size[f"(){k}"] = 1
            axes.append((f"(){k}",))
            continue
        if any(s is not None for _, s in group):
            raise InputError(f"operand {whole!r}: sizes belong on the left side of the pattern")
        for n, _ in group:
            if n not in size:
                raise InputError(f"operand {whole!r}: axis {n!r} on the right is not named on the left")
            if n in seen:
                raise InputError(f"operand {whole!r}: axis {n!r} appears twice on the right")
            seen.append(n)
        axes.append(tuple(n for n, _ in group))
    missing = [n for n in size if n not in seen and not n.startswith("()")]
    if missing:
        raise InputError(f"operand {whole!r}: axis {missing[0]!r} on the left is missing on the right")
    return tuple(left), tuple(axes), size
