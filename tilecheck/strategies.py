"""Hypothesis strategies that draw whole tilecheck check files, for property tests.

    from hypothesis import given
    import tilecheck
    from tilecheck.strategies import checks

    @given(checks())
    def test_every_check_gets_a_verdict(data):
        report = tilecheck.prove(tilecheck.from_dict(data))
        assert report.verdict in ("proved", "refuted")

A strategy draws plain data: ``checks()`` and ``symbolic_checks()`` the dict a TOML
check file gives (``tilecheck.from_dict`` reads it, ``to_toml`` writes it as a file);
``layouts()``, ``register_layouts()``, ``seed_layouts()`` and ``opcodes()`` the strings
of one field.  Every drawn check is valid input (it loads without ``InputError``); its
verdict may be anything.  The draws are built so that about half of them prove and the
rest fail one or a few obligations: layouts with permuted strides, gaps and padding,
negative strides, nested modes; register layouts that are injective, permuted,
interleaved or colliding, with lane, warp and tid thread strides; views that split and
merge axes and slice tensors; vector widths, element types and state spaces; thread,
warp and cta scope with up to 1024 threads; loads and stores; and, in
``symbolic_checks()``, symbols for shapes, strides, slice starts and offsets with their
facts.  Every choice shrinks toward the plainest option, so a failing case shrinks to a
small readable check.  Sizes stay small (``max_points`` bounds the coordinates of one
application) so that the brute-force decider ``tilecheck.decide`` stays fast.
"""
from __future__ import annotations

import copy
import functools
from math import prod
from types import SimpleNamespace

from hypothesis import reject, strategies as st

try:
    from hypothesis.strategies._internal.lazy import unwrap_strategies
except ImportError:  # another Hypothesis: every draw through draw()
    def unwrap_strategies(s):
        raise ImportError

from . import families as _families
from .check_toml import to_toml  # noqa: F401 (public: tilecheck.strategies.to_toml)
from .machine import ADDRESS_LIMIT, APPLY_SCOPES, CTA, GROUP_NAMES, GROUPS, group_shape

# the scopes the drawn memory applications take: one thread, a warp, the whole CTA (a fixed group of
# several warps, wgmma's warpgroup, issues only its own family's instruction, drawn by that family)
DRAWN_SCOPES = tuple(s for s in APPLY_SCOPES if GROUPS[s].warps in (0, 1, CTA))

WORD_MAX = 2**64 - 1  # the largest offset or stride a check file takes (check.WORD)

__all__ = ["checks", "symbolic_checks", "FAMILIES", "layouts", "register_layouts", "seed_layouts", "opcodes",
           "malformed_texts", "to_toml", "DTYPE_BITS"]

DTYPE_BITS = {"float32": 32, "float16": 16, "int8": 8, "float64": 64, "uint8": 8, "bfloat16": 16,
              "int16": 16, "uint16": 16, "int32": 32, "uint32": 32, "int64": 64, "uint64": 64}


def _group_axes(scope: str, threads: int) -> list[tuple[str, int]]:
    """The group axes of ``scope`` as (view axis name, extent): [], [("l", 32)] or [("w", n), ("l", 32)]."""
    return [(name[0], e) for name, e in zip(GROUP_NAMES[scope], group_shape(scope, threads))]


SEED_SHAPE, SEED_STRIDE = (15, 2, 7, 2), (4, 1, 60, 2)


# --- small drawing helpers: every one shrinks toward its first / plainest choice ---------------

@functools.lru_cache(maxsize=4096)
def _ints(lo: int, hi: int):
    """``st.integers(lo, hi)``, made once: a fresh strategy per draw costs Hypothesis a validation
    each time (a third of the drawing time); the values drawn are the same."""
    return st.integers(lo, hi)


_INNER: dict = {}  # a strategy made once (_ints, _sampled) -> what draw() would call do_draw on, or None


def _inner(strategy):
    if strategy not in _INNER:
        try:
            strategy.validate()
            inner = unwrap_strategies(strategy)
            ok = not inner.is_empty and callable(getattr(inner, "do_draw", None))
        except Exception:  # noqa: BLE001 - another Hypothesis: draw() as usual
            ok = False
        _INNER[strategy] = inner if ok else None
    return _INNER[strategy]


def _direct(draw, strategy):
    """``draw(strategy)`` for a strategy made once.  Inside a strategy, ``draw`` is the
    ConjectureData's own ``draw``, which for a nested draw validates the strategy, unwraps it and
    opens a span, then calls its ``do_draw``: called directly here, the same choices are drawn (the
    same values from the same random stream; only the span that would group them for the shrinker
    is not recorded) at a fraction of the cost -- integers and picks are most of a check's ~80 draws."""
    data = getattr(draw, "__self__", None)
    inner = _inner(strategy) if data is not None and getattr(data, "depth", 0) > 0 else None
    return draw(strategy) if inner is None else inner.do_draw(data)


def _int(draw, lo: int, hi: int) -> int:
    """``draw(_ints(lo, hi))``, directly (``_direct``)."""
    return _direct(draw, _ints(lo, hi))


@functools.lru_cache(maxsize=4096)
def _sampled_cached(options: tuple):
    return st.sampled_from(options)


def _sampled(options):
    """``st.sampled_from(options)``, made once for options of plain values."""
    options = tuple(options)
    if all(type(o) in (int, str) for o in options):
        return _sampled_cached(options)
    return st.sampled_from(options)


def _draw_sampled(draw, options):
    """``draw(_sampled(options))``, directly (``_direct``) when the strategy is made once."""
    options = tuple(options)
    if all(type(o) in (int, str) for o in options):
        return _direct(draw, _sampled_cached(options))
    return draw(st.sampled_from(options))


def _pick(draw, options, weights=None):
    """One of ``options`` (weighted); shrinks toward the first."""
    options = list(options)
    if weights is None:
        return _draw_sampled(draw, options)
    k = _int(draw, 0, sum(weights) - 1)
    for opt, w in zip(options, weights):
        if k < w:
            return opt
        k -= w
    return options[-1]


def _among(draw, allowed, options, weights, what):
    """``_pick`` restricted to the caller's ``allowed`` choices (None: all of them)."""
    if allowed is None:
        return _pick(draw, options, weights)
    bad = [a for a in allowed if a not in options]
    if bad or not allowed:
        raise ValueError(f"{what} must be a non-empty subset of {tuple(options)}, got {tuple(allowed)!r}")
    kept = [(o, w) for o, w in zip(options, weights) if o in allowed]
    return _pick(draw, [o for o, _ in kept], [w for _, w in kept])


def _chance(draw, percent: int) -> bool:
    """True with ``percent`` % probability; shrinks to False."""
    return _int(draw, 0, 99) >= 100 - percent


def _divisors(n):
    return [d for d in range(2, n) if n % d == 0]


def _factor(draw, extent, max_parts=3):
    """``extent`` as row-major factors (a view axis split into sub-axes); shrinks to [extent]."""
    parts = [extent]
    while len(parts) < max_parts and _chance(draw, 30):
        k = _int(draw, 0, len(parts) - 1)
        ds = _divisors(parts[k]) + ([1] if _chance(draw, 10) else [])
        if not ds:
            break
        d = _draw_sampled(draw, ds)
        parts[k:k + 1] = [d, parts[k] // d]
    return parts


# --- tiny polynomials for symbolic sizes, strides and offsets ----------------------------------

class _P:
    """An integer polynomial over symbol names, only to spell shapes, strides and offsets."""

    def __init__(self, terms=None):
        self.t = {m: c for m, c in (terms or {}).items() if c}

    @staticmethod
    def of(x):
        if isinstance(x, _P):
            return x
        if isinstance(x, str):
            return _P({(x,): 1})
        return _P({(): int(x)})

    def __add__(self, o):
        o = _P.of(o)
        t = dict(self.t)
        for m, c in o.t.items():
            t[m] = t.get(m, 0) + c
        return _P(t)

    def __mul__(self, o):
        o = _P.of(o)
        t = {}
        for m1, c1 in self.t.items():
            for m2, c2 in o.t.items():
                m = tuple(sorted(m1 + m2))
                t[m] = t.get(m, 0) + c1 * c2
        return _P(t)

    def __neg__(self):
        return _P({m: -c for m, c in self.t.items()})

    @property
    def const(self):
        return None if any(m for m in self.t) else self.t.get((), 0)

    def value(self):
        """An int when constant, else the expression text."""
        c = self.const
        return c if c is not None else str(self)

    def __str__(self):
        if not self.t:
            return "0"
        out = ""
        for m, c in sorted(self.t.items(), key=lambda mc: (-len(mc[0]), mc[0])):
            body = "*".join(m)
            term = str(abs(c)) if not m else body if abs(c) == 1 else f"{abs(c)}*{body}"
            out += ("-" if c < 0 else "+" if out else "") + term
        return out


# --- one operand: a view of a tensor ----------------------------------------------------------

class _Names:
    def __init__(self):
        self.used = set()

    def fresh(self, base):
        n, k = base, 1
        while n in self.used:
            k += 1
            n = f"{base}{k}"
        self.used.add(n)
        return n


def _view_axes(group, repeat, vector):
    """The canonical view: [(role, base name, extent)] for (*group, *repeat, word)."""
    axes = [("group", b, e) for b, e in group]
    axes += [("repeat", "ijkm"[k], e) for k, e in enumerate(repeat)]
    return axes + [("word", "v", vector)]


def _operand_structure(draw, axes):
    """Split each view axis into elementary names, then group the names into logical axes.

    Returns (view, logical, size, role): view = [[names]] per view axis (row-major merge);
    logical = [[names]] per logical axis (row-major split); size and role per name."""
    view, size, role = [], {}, {}
    for r, base, extent in axes:
        parts = _factor(draw, extent)
        names = [base] if len(parts) == 1 else [f"{base}{k}" for k in range(len(parts))]
        for n, p in zip(names, parts):
            size[n], role[n] = p, r
        view.append(names)
    flat = [n for names in view for n in names]
    order = draw(st.permutations(flat)) if _chance(draw, 60) else flat
    logical = [[order[0]]]
    for n in order[1:]:
        if _chance(draw, 20):
            logical[-1].append(n)
        else:
            logical.append([n])
    return view, logical, size, role


def _pattern(view, logical, size):
    left = []
    for names in logical:
        if len(names) == 1:
            left.append(names[0])
        else:
            left.append("(" + " ".join(f"{n}={size[n]}" for n in names[:-1]) + f" {names[-1]})")
    right = [names[0] if len(names) == 1 else "(" + " ".join(names) + ")" for names in view]
    return " ".join(left) + " -> " + " ".join(right)


class _Block:
    """A run of elementary names that gets one stride: a flat logical axis, or one sub-mode of a nested one."""

    def __init__(self, names, size, roles):
        self.names, self.size, self.roles = names, size, roles  # size: int or _P
        self.stride = None  # _P, or a thread stride text "k@laneid"

    @property
    def is_word(self):
        return "word" in self.roles


class _Operand:
    """A tensor and the view of it that one application uses."""

    def __init__(self, name, view, logical, size, role):
        self.name, self.view, self.logical, self.size, self.role = name, view, logical, size, role
        self.axes = []  # per logical axis: dict(kind=flat|nested, blocks=[...], dim=_P, start=_P, extent=int)
        self.offset = _P.of(0)
        self.pattern = True

    def word_names(self):
        return next(names for names in self.view if self.role[names[0]] == "word")

    def blocks(self):
        return [b for a in self.axes for b in a["blocks"]]

    def operand_text(self):
        text = self.name
        if any(a["sliced"] for a in self.axes):
            items = []
            for a in self.axes:
                if not a["sliced"]:
                    items.append(":")
                else:
                    s = a["start"]
                    stop = (s + a["extent"]).value()
                    items.append(f"{s.value()}:{stop}")
            text += "[" + ", ".join(items) + "]"
        trivial = all(len(v) == 1 for v in self.view) and [v[0] for v in self.view] == [l[0] for l in self.logical] \
            and all(len(l) == 1 for l in self.logical)
        if self.pattern or not trivial:
            text += ": " + _pattern(self.view, self.logical, self.size)
        return text

    def layout_text(self):
        shapes, strides = [], []
        for a in self.axes:
            if a["kind"] == "flat":
                shapes.append(str(a["dim"]))
                strides.append(str(a["blocks"][0].stride))
            else:  # nested: first sub-mode fastest, so the row-major names reversed
                bs = list(reversed(a["blocks"]))
                sh = [str(b.size) for b in bs]
                sd = [str(b.stride) for b in bs]
                if len(bs) >= 3 and a.get("deep"):
                    sh = [sh[0], "(" + ",".join(sh[1:]) + ")"]
                    sd = [sd[0], "(" + ",".join(sd[1:]) + ")"]
                shapes.append("(" + ",".join(sh) + ")")
                strides.append("(" + ",".join(sd) + ")")
        return f"({','.join(shapes)}):({','.join(strides)})"  # CuTe's spelling: ((4,3)):((1,4)) is rank 1

    def shape(self):
        return [a["dim"].value() for a in self.axes]


def _axes_and_slices(draw, op, symbolic, syms, allow_pad=True, register=False):
    """Decide per logical axis: flat or nested, its padding, slice start and symbols.

    A register axis that holds a group name (a thread stride) next to others is nested
    and never padded."""
    for names in op.logical:
        extent = prod(op.size[n] for n in names)
        roles = [op.role[n] for n in names]
        threaded = register and "group" in roles
        nested = len(names) > 1 and (threaded or _chance(draw, 50))
        pad = 0
        if allow_pad and not threaded and _chance(draw, 25):
            pad = _pick(draw, [1, 2, 4, 3, 8, 16])
        a = {"kind": "nested" if nested else "flat", "extent": extent, "sliced": pad > 0, "deep": False}
        if nested:
            inner = prod(op.size[n] for n in names[1:])
            outer = op.size[names[0]] + pad  # the last sub-mode takes what is left
            blocks = [_Block([names[0]], _P.of(outer), [roles[0]])]
            blocks += [_Block([n], _P.of(op.size[n]), [op.role[n]]) for n in names[1:]]
            dim = _P.of(outer * inner)
            a["deep"] = len(names) >= 3 and _chance(draw, 30)
            span = outer * inner - extent
            starts = [k * inner for k in range(span // inner + 1)] if _chance(draw, 70) else list(range(span + 1))
        else:
            dim = _P.of(extent + pad)
            blocks = [_Block(list(names), dim, roles)]
            starts = list(range(pad + 1))
        start = _P.of(_draw_sampled(draw, starts) if pad else 0)
        if pad and _chance(draw, 4):  # a slice that leaves the tensor
            start = _P.of(_pick(draw, [pad + 1, -1, pad + 2]))
        if symbolic and pad and not nested and _chance(draw, 45):
            # a symbolic dimension: n, 2*n+1, (n//4), ... >= start + extent (via the symbol's min, a fact,
            # or, rarely, not at all)
            n = syms.fresh_symbol("n")
            m = _pick(draw, [1, 2, 4, 8], [4, 1, 2, 1])
            need = start.const + extent if start.const is not None else extent
            form = _pick(draw, ["n", "a*n+b", "n//d"], [6, 2, 2])
            a_, b_, d_ = 1, 0, 1
            if form == "a*n+b":
                a_, b_ = _pick(draw, [2, 4, 3]), _pick(draw, [1, 0, -1])
            elif form == "n//d":
                d_ = _pick(draw, [2, 4, 3])
            lo = max(-(-(need - b_) // a_) * d_, 1)  # the least n whose dimension holds the slice
            how = _pick(draw, ["min", "fact", "none"], [6, 3, 1])
            dim = _P.of(f"({n}//{d_})") if d_ > 1 else _P.of(n) * a_ + b_
            if how == "min":
                syms.declare(n, lo, draw(_maxes(lo)), m)
            else:
                syms.declare(n, max(1, (extent - b_) // a_) * d_, draw(_maxes(lo)), m)
                if how == "fact":
                    syms.assume(f"{dim} >= {need}")
            blocks[0].size = dim
        elif symbolic and nested and pad and _chance(draw, 30):
            # a nested mode whose last (outermost) sub-mode is symbolic: ((4, n)) for a dimension 4*n
            n = syms.fresh_symbol("n")
            rows = (start.const or 0) // inner + (1 if (start.const or 0) % inner else 0)
            syms.declare(n, op.size[names[0]] + rows, draw(_maxes(op.size[names[0]] + rows)))
            blocks[0].size = _P.of(n)
            dim = _P.of(n) * inner
        if symbolic and pad and not nested and _chance(draw, 40):
            # a symbolic slice start on a multiple of m, inside the tensor (usually)
            r = syms.fresh_symbol("r")
            m = _pick(draw, [1, 2, 4, 8, 16], [3, 1, 2, 2, 1])
            if dim.const is not None:
                hi = (dim.const - extent) // m * m
                if _chance(draw, 8):
                    hi += m
                syms.declare(r, 0, hi, m)
            else:
                syms.declare(r, 0, draw(_maxes(0)), m)
                if not _chance(draw, 10):
                    syms.assume(f"{r} + {extent} <= {dim}")
            start = _P.of(r)
        a.update(blocks=blocks, dim=dim, start=start, sliced=bool(pad) or start.const != 0)
        op.axes.append(a)


def _row_major(op) -> bool:
    """The tensor's layout is the default one (row-major over its shape, offset 0)."""
    acc = _P.of(1)
    for a in reversed(op.axes):
        if a["kind"] != "flat" or str(a["blocks"][0].stride) != str(acc):
            return False
        acc = acc * a["dim"]
    return str(op.offset) == "0"


def _maxes(lo):
    """The upper end of a symbol's range: near its minimum, large, or the default 2^31 - 1."""
    return st.sampled_from([lo + 64, 2**20, 2**31 - 1, lo + 7])


class _Symbols:
    def __init__(self, facts_for_multiples=False, ctaid=False):
        self.symbols, self.facts, self.names = {}, [], _Names()
        self.facts_for_multiples = facts_for_multiples  # "n % 8 == 0" instead of multiple_of = 8
        self.ctaid = ctaid  # the first slice start comes from %ctaid.x

    def fresh_symbol(self, base):
        return self.names.fresh(base)

    def declare(self, name, lo, hi, m=1):
        lo = -(-lo // m) * m
        hi = max(hi, lo)
        spec = {}
        if lo != 1:
            spec["min"] = lo
        if hi != 2**31 - 1:
            spec["max"] = hi
        if m != 1 and self.facts_for_multiples:
            self.facts.append(f"{name} % {m} == 0")
        elif m != 1:
            spec["multiple_of"] = m
        if self.ctaid and name.startswith("r"):
            spec["from"] = "ctaid.x"
            self.ctaid = False
        self.symbols[name] = spec

    def assume(self, fact):
        self.facts.append(fact)


def _memory_strides(draw, op, esize, scope, symbolic, syms, vector):
    """Give every memory block a stride: a compact order, then gaps, negation, far strides."""
    blocks = op.blocks()
    policy = _pick(draw, ["word-inner", "row-major", "permuted"], [5, 3, 2])
    if policy == "row-major":
        inner_first = list(reversed(blocks))
    elif policy == "permuted":
        inner_first = draw(st.permutations(list(reversed(blocks))))
    else:  # the word's blocks innermost, fastest first; the other blocks in any order
        word_order = op.word_names()
        words = sorted((b for b in blocks if b.is_word),
                       key=lambda b: -max(word_order.index(n) for n in b.names if n in word_order))
        rest = [b for b in reversed(blocks) if not b.is_word]
        inner_first = words + (draw(st.permutations(rest)) if rest else [])
    acc = _P.of(1)
    for k, b in enumerate(inner_first):
        if symbolic and k > 0 and _chance(draw, 20):
            s = syms.fresh_symbol("s")
            m = _pick(draw, [1, 2, 4, 8, 16], [2, 1, 3, 2, 1])
            if acc.const is not None:
                lo = acc.const if not _chance(draw, 10) else _pick(draw, [1, -16, 0])  # sometimes too small
                syms.declare(s, lo, draw(_maxes(lo)), m)
            else:
                syms.declare(s, 1, draw(_maxes(1)), m)
                if not _chance(draw, 10):
                    syms.assume(f"{s} >= {acc}")
            acc = _P.of(s)
        b.stride = acc
        gap = _pick(draw, [1, 2, 3, 4], [12, 2, 1, 1])
        acc = acc * b.size * gap
    if _chance(draw, 10):  # a tensor laid out far from its base: offsets near the address limit
        top = ADDRESS_LIMIT[scope] // esize
        outer = inner_first[-1]
        # (an offset or a stride is a 64-bit integer, at most 2**64 - 1: the check file says no more)
        if _chance(draw, 50) or outer.size.const is None or outer.size.const < 2:
            op.offset = op.offset + min(WORD_MAX, top - _int(draw, 0, 64) * vector)
        else:
            outer.stride = _P.of(min(WORD_MAX, top // (outer.size.const - 1) - _int(draw, -2, 2) * vector))
    for b in blocks:
        if _chance(draw, 8):  # a negative stride, usually with an offset that keeps it inside
            b.stride = -b.stride
            if not _chance(draw, 15):
                op.offset = op.offset + (b.size + -1) * (-b.stride)
    if _chance(draw, 5):  # scrambled: small arbitrary strides (overlaps, gaps, collisions)
        for b in blocks:
            b.stride = _P.of(_int(draw, -3, 8))


def _costly(draw, op, esize, space):
    """Now and then a shared or global tile that costs more than the ideal (``banks``, ``sectors``):
    the innermost lane block 32-256 bytes apart (one bank for 128 bytes: 16-byte atoms in rows of 128
    bytes conflict 8-way; a sector or more per lane), or at one address (consecutive lanes share it:
    a load of 8 or 16 bytes is then served per pair, a broadcast when every lane does)."""
    if space not in ("shared", "global") or not _chance(draw, 12):
        return
    lane = next((names[-1] for names in op.view if op.role[names[0]] == "group" and names[0].startswith("l")), None)
    block = next((b for b in op.blocks() if lane in b.names), None)
    if block is None or not isinstance(block.stride, _P):
        return
    if _chance(draw, 35):
        block.stride = _P.of(0)
    else:
        block.stride = _P.of(max(1, _pick(draw, [128, 256, 64, 32], [4, 1, 1, 1]) // esize))


def _register_strides(draw, op, scope):
    """Thread strides for the group names, slot strides for the rest (injective or not)."""
    blocks = op.blocks()
    # the group names: lane/warp coordinates become laneid/warpid/tid components (at cta scope any mix
    # with 32*warpid + laneid + tid = 32*warp + lane)
    thread = {}
    for names in op.view:
        if op.role[names[0]] != "group":
            continue
        if names[0].startswith("l"):  # a group of every warp of the CTA: a lane is also a tid
            axis, acc = _pick(draw, [("laneid", 1), ("tid", 1)] if GROUPS[scope].warps == CTA else [("laneid", 1)])
        else:
            axis, acc = _pick(draw, [("warpid", 1), ("tid", 32), ("laneid", 32)])
        for n in reversed(names):
            thread[n] = (acc, axis)
            acc *= op.size[n]
    for b in blocks:
        if b.roles[0] == "group":
            coef, axis = thread[b.names[-1]]
            b.stride = f"{coef}@{axis}"
    if thread and _chance(draw, 8):  # a foreign slot: a wrong coefficient or axis, or no thread at all
        b = _draw_sampled(draw, [b for b in blocks if b.roles[0] == "group"])
        coef, axis = thread[b.names[-1]]
        b.stride = _pick(draw, [f"{2 * coef}@{axis}", f"{coef}@tid", f"{coef}@warpid", "1"])
    slots = [b for b in blocks if b.roles[0] != "group"]
    policy = _pick(draw, ["compact", "permuted", "interleaved", "colliding"], [5, 3, 2, 1])
    order = list(reversed(slots)) if policy == "compact" else draw(st.permutations(slots))
    acc = 1
    for b in order:
        b.stride = _P.of(acc)
        acc *= b.size.const * (_pick(draw, [2, 3, 1]) if policy == "interleaved" else 1)
    if policy == "colliding" and len(order) > 0:
        b = _draw_sampled(draw, order)
        b.stride = _P.of(_draw_sampled(draw, [0] + [o.stride.const for o in order]))
    for b in slots:
        if _chance(draw, 8):  # reversed slots, usually shifted back inside the layout
            b.stride = -b.stride
            if not _chance(draw, 15):
                op.offset = op.offset + (b.size.const - 1) * (-b.stride.const)
    if slots and _chance(draw, 4):  # a repeat or word slot handed to another thread
        b = _draw_sampled(draw, slots)
        b.stride = _pick(draw, ["1@laneid", "1@tid", "1@warpid"])


# --- opcodes ------------------------------------------------------------------------------------

@st.composite
def opcodes(draw, kind=None, space=None, bits=None, vector=None):
    """A PTX ld/st spelling, mostly legal: ``ld.global.nc.v4.b32``, ``st.shared::cta.b16``, ...

    Unset arguments are drawn; ``space`` may also be ``"generic"`` (no state space) or
    ``"shared::cluster"``.  Cache, eviction, prefetch and ordering qualifiers appear now
    and then, sometimes in combinations that refute ``target`` (the plain family's
    ``draw_opcode``)."""
    fam = plain_family()
    kind = kind or _pick(draw, list(fam.instructions))
    return fam.draw_opcode(TOOLS, draw, kind, space, bits, vector)


@st.composite
def _opcode(draw, fam, kind, space, bits, vector):
    """``fam``'s spelling of ``kind``, drawn as ``opcodes`` draws the plain family's."""
    return fam.draw_opcode(TOOLS, draw, kind, space, bits, vector)


def plain_family():
    """The family of the plain tiles (its ``Draw`` is "plain")."""
    return _PLAIN


# --- whole checks -----------------------------------------------------------------------------

def _vector(draw, bits):
    legal = [v for v in (1, 2, 4) if v * bits <= 128]
    wide = [8] if bits == 32 else [4] if bits == 64 else [8]  # 256-bit (sm_100+) or always-refuted .v8
    return _pick(draw, legal + wide, [4] + [3] * (len(legal) - 1) + [1])


def _repeat(draw, budget):
    out = []
    for _ in range(_int(draw, 0, 3)):
        hi = min(6, budget)
        e = _int(draw, 1, hi) if hi > 1 else 1
        budget //= e
        out.append(e)
    return out


def _guarded_application(draw, k, threads, scope, symbolic, syms, max_points, names, kinds=None, spaces=None,
                         dtypes=None, guard=True, swizzled=None):
    """One ``guard = true`` [[apply]] (of a family's ``tile_kinds``) of an R x (Q*V) tile at a (symbolic or
    concrete) corner of a row-major (n, k) tensor whose extents need not be multiples of the tile:
    the tile may cross the bottom and right edges, and an atom may straddle the right edge when the
    column start or k is not a multiple of the vector.  None when the restrictions leave no such draw.
    ``guard=False``: the same tile unguarded (an edge crossing is then refuted on ``bounds``); a
    family's ``draw_tile_operands`` draws the rest (a register tile, or a copy's shared tile)."""
    tiles = _TILES
    family = {k: f for k, _, f in tiles}
    options = [o for o, _, _ in tiles if kinds is None or o in kinds]
    if not options or (spaces is not None and all(family[o].draw_spaces is not None
                                                  and not set(spaces) & set(family[o].draw_spaces) for o in options)):
        return None  # no kind draws a tile in those spaces (a kind without draw_spaces ignores them)
    kind = _pick(draw, options, [w for o, w, _ in tiles if o in options] if len(options) == len(tiles) else None)
    fam = family[kind]
    dnames = [d for d in DTYPE_BITS if dtypes is None or d in dtypes]
    dtype = _pick(draw, dnames)
    bits = DTYPE_BITS[dtype]
    esize = bits // 8
    space, vector, opcode = fam.draw_tile_atom(TOOLS, draw, kind, bits, esize, spaces)
    group = _group_axes(scope, threads)
    gsize = prod(e for _, e in group)
    q = _pick(draw, [2, 1, 4])
    if gsize * vector > max_points or (group and 32 % q):
        return None
    rep = _int(draw, 1, max(1, min(3, max_points // (gsize * vector * (1 if group else q)))))
    cols = q * vector
    if not group:  # one thread: its q atoms of a row are its own
        left, right, rows = f"i (q w={vector})", "i q w", rep
    elif len(group) == 1:  # the lanes
        gi = 32 // q
        left, right, rows = f"(ri gi={gi}) (q w={vector})", "(gi q) ri w", rep * gi
    else:  # the warps and their lanes
        wn, gi = group[0][1], 32 // q
        left, right, rows = f"(ri wi={wn} gi={gi}) (q w={vector})", "wi (gi q) ri w", rep * wn * gi
    pattern = f"{left} -> {right}"
    if symbolic:
        n, kk, r0, c0 = (syms.fresh_symbol(b) for b in ("n", "k", "r", "c"))
        syms.declare(n, 1, draw(_maxes(1)))
        mk = _pick(draw, [vector, 1, 2, 2 * vector])
        syms.declare(kk, mk, draw(_maxes(mk)), mk)
        syms.declare(r0, 0, draw(_maxes(0)), _pick(draw, [rows, 1]))
        mc = _pick(draw, [cols, vector, 1])
        syms.declare(c0, 0, draw(_maxes(0)), mc)
        shape, rs, cs = [n, kk], r0, c0
    else:
        rs = _pick(draw, [0, 1, rows])
        cs = _pick(draw, [0, vector, 1, cols])
        shape = [max(1, rs + rows - _pick(draw, [1, 0, rows - 1, rows + 1])),
                 max(1, cs + cols - _pick(draw, [1, vector, 0, 2, cols]))]
    mname = names.fresh("AB"[k] if k < 2 else "M")
    mem_t = {"dtype": dtype, "scope": space, "shape": shape}
    align = _pick(draw, [vector * esize, esize, 16], [8, 1, 1])
    if align != esize:
        mem_t["align"] = align
    memop = f"{mname}[{rs}:{rs}+{rows}, {cs}:{cs}+{cols}]: {pattern}"
    ap = {"opcode": opcode or draw(_opcode(fam, kind, space, bits, vector))}
    if group:  # not the one-thread group, the scope key's default
        ap["scope"] = scope
    if guard:
        ap["guard"] = True
    tile = SimpleNamespace(ap=ap, memop=memop, mname=mname, mem_t=mem_t, pattern=pattern, names=names, k=k,
                           dtype=dtype, esize=esize, vector=vector, rows=rows, cols=cols, rep=rep, q=q, scope=scope,
                           threads=threads, swizzled=swizzled)
    return fam.draw_tile_operands(TOOLS, draw, kind, tile)


def _swizzle(draw, space, vector, swizzled):
    """CuTe's ``Sw<B,M,S>`` for a memory tensor's layout, or None: drawn for a quarter of the shared
    tensors and a few global or local ones (5 %), for every one with ``swizzled=True``, never with
    False.  ``M`` is usually the atom's (``log2(vector)``: the atom stays whole), else any."""
    if swizzled is False or (swizzled is None and not _chance(draw, 25 if space == "shared" else 5)):
        return None
    b = _pick(draw, [1, 2, 3, 0], [4, 3, 3, 1])
    m = _pick(draw, [vector.bit_length() - 1, 0, 1, 2, 3, 4], [8, 1, 1, 1, 1, 1])
    return f"Sw<{b},{m},{b + _pick(draw, [1, 0, 2, 3, 4])}>"


# what a family's draw hooks (``families.Family.draw_*``) draw with: the families import no Hypothesis
TOOLS = SimpleNamespace(pick=_pick, among=_among, chance=_chance, int=_int, sampled=_sampled,
                        draw_sampled=_draw_sampled, sampled_from=st.sampled_from, lists=st.lists,
                        permutations=st.permutations, maxes=_maxes, P=_P, swizzle=_swizzle)


_DRAWS = _families.draws()  # name -> (Draw, family): what ``checks(families=...)`` draws
_PLAIN = next(f for d, f in _DRAWS.values() if d.how == "plain")
_TILES = _families.tile_kinds()  # (kind, weight, family) of the guarded tiles
FAMILIES = tuple(_DRAWS)  # their names, in rank order ("ldst", "guard", ...)
STAGING_PERCENT = 16  # of applications, by default: a staging family (a Draw with a staging weight)
_STAGING = sorted((d for d, _ in _DRAWS.values() if d.staging), key=lambda d: d.staging_rank)


def _fits(out, kinds, spaces, scopes) -> bool:
    """A staging family's draw keeps the caller's restrictions (``kinds``: the plain family's kinds,
    each family's apply counting as its ``draw_kind``; ``spaces``: the memory operand's; ``scopes``)."""
    if kinds is None and spaces is None and scopes is None:
        return True
    tensors, a = out
    op = _families.parse(a["opcode"])
    fam = _families.of(op)
    kind = fam.draw_kind(op)
    memory = a[fam.memory_role(op)].split("[")[0].split(":")[0].strip()
    return ((kinds is None or kind in kinds) and (spaces is None or tensors.get(memory, {}).get("scope") in spaces)
            and (scopes is None or a.get("scope") in scopes))


def _staged(draw, family, k, threads, scope, symbolic, syms, max_points, names, kinds, spaces, dtypes, swizzled,
            guard=None):
    """One application of a staging ``family`` (None when the restrictions leave no such draw)."""
    d, fam = _DRAWS[family]
    if d.how == "hook":
        return fam.draw_apply(TOOLS, draw, family, k=k, threads=threads, symbolic=symbolic, syms=syms,
                              max_points=max_points, names=names, dtypes=dtypes, swizzled=swizzled)
    if d.how == "tile":
        return _guarded_application(draw, k, threads, scope, symbolic, syms, max_points, names, list(fam.tile_kinds),
                                    None, dtypes, guard=_chance(draw, 40) if guard is None else guard,
                                    swizzled=swizzled)
    return _guarded_application(draw, k, threads, scope, symbolic, syms, max_points, names, kinds, spaces, dtypes,
                                swizzled=swizzled)


def _application(draw, k, threads, scope, symbolic, syms, max_points, names, kinds=None, spaces=None, dtypes=None,
                 swizzled=None, families=None, scopes=None):
    """One [[apply]] with its memory tensor and register tensor (its layout swizzled: ``_swizzle``;
    sometimes, ``STAGING_PERCENT`` %, a staging family: a guarded tile (``_guarded_application``,
    never swizzled), a family's own draw (``Family.draw_apply``) or an unguarded tile of a family).
    ``families``: only these (``FAMILIES``), each drawn with the same weight."""
    if families is not None:
        order = list(families)
        first = order.pop(_int(draw, 0, len(order) - 1))
        for fam in [first] + order:  # the drawn family, else the others in turn
            if _DRAWS[fam][0].how == "plain":
                break
            out = _staged(draw, fam, k, threads, scope, symbolic, syms, max_points, names, kinds, spaces, dtypes,
                          swizzled, guard=True if _DRAWS[fam][0].how == "guard" else None)
            if out is not None:
                return out
        else:
            reject()  # no family of the restriction fits this check's threads: draw another
    elif swizzled is not True and _chance(draw, STAGING_PERCENT):
        fam = _pick(draw, [d.name for d in _STAGING], [d.staging for d in _STAGING])
        restricted = kinds is not None or spaces is not None or scopes is not None
        saved = (set(names.used), copy.deepcopy(syms.__dict__)) if restricted else None
        out = _staged(draw, fam, k, threads, scope, symbolic, syms, max_points, names, kinds, spaces, dtypes,
                      swizzled, guard=False if _DRAWS[fam][0].how == "tile" else None)
        if out is not None and _fits(out, kinds, spaces, scopes):
            return out
        if restricted:  # a draw outside the restrictions leaves no names or symbols behind
            names.used, syms.__dict__ = saved
    plain = plain_family()
    kind = _among(draw, kinds, list(plain.instructions), [1] * len(plain.instructions), "kinds")
    memory_role = plain.draw_memory_role(kind)
    space = _among(draw, spaces, ["global", "shared", "local"], [1, 1, 1], "spaces")
    dtype = _among(draw, dtypes, list(DTYPE_BITS), [1] * len(DTYPE_BITS), "dtypes")
    bits = DTYPE_BITS[dtype]
    esize = bits // 8
    vector = _vector(draw, bits)
    group = _group_axes(scope, threads)
    gsize = prod(e for _, e in group)
    executing = threads if memory_role == "dst" else gsize  # a store: every thread executes
    repeat = _repeat(draw, max(1, max_points // (max(gsize, executing) * vector)))
    axes = _view_axes(group, repeat, vector)

    mname, rname = names.fresh("AB"[k] if k < 2 else "M"), names.fresh("RS"[k] if k < 2 else "Q")
    mem = _Operand(mname, *_operand_structure(draw, axes))
    _axes_and_slices(draw, mem, symbolic, syms)
    _memory_strides(draw, mem, esize, space, symbolic, syms, vector)
    _costly(draw, mem, esize, space)
    if symbolic and _chance(draw, 25):
        o = syms.fresh_symbol("o")
        m = _pick(draw, [1, vector, 4, 2])
        lo = 0 if not _chance(draw, 10) else -8
        syms.declare(o, lo, draw(_maxes(lo)), m)
        mem.offset = mem.offset + _P.of(o)
    if _chance(draw, 10):
        mem.offset = mem.offset + _int(draw, 0, 8)

    rax = axes
    if _chance(draw, 3) and len(repeat) >= 2:  # dst and src disagree on the repeat order
        rax = axes[:len(group)] + list(reversed(axes[len(group):-1])) + axes[-1:]
    reg = _Operand(rname, *_operand_structure(draw, rax))
    _axes_and_slices(draw, reg, False, syms, allow_pad=_chance(draw, 20), register=True)
    _register_strides(draw, reg, scope)
    mem.pattern = reg.pattern = _chance(draw, 50)  # spelled out even where the operand alone would do

    mem_t = {"dtype": dtype, "scope": space, "shape": mem.shape()}
    if not _row_major(mem) or _chance(draw, 30):
        mem_t["layout"] = mem.layout_text()
    if mem.offset.value() != 0:
        mem_t["offset"] = mem.offset.value()
        if isinstance(mem_t["offset"], int) and abs(mem_t["offset"]) > WORD_MAX:
            reject()  # past what a 64-bit register holds: the check file refuses it (an input error)
    align = _pick(draw, [vector * esize, esize, 16, 2 * vector * esize, 4, 8], [10, 2, 2, 1, 1, 1])
    if align != esize:
        mem_t["align"] = align
    reg_t = {"dtype": dtype, "scope": "register", "shape": reg.shape()}
    if not _row_major(reg) or _chance(draw, 30):
        reg_t["layout"] = reg.layout_text()
    if reg.offset.value() != 0:
        reg_t["offset"] = reg.offset.value()

    # mutations that refute the static obligations
    op_space, op_bits, op_vector = space, bits, vector
    if _chance(draw, 3):
        op_space = _pick(draw, [s for s in ("global", "shared", "local") if s != space])
    if _chance(draw, 3):
        op_bits = _pick(draw, [b for b in (32, 16, 8, 64) if b != bits])
    if _chance(draw, 3):
        op_vector = _pick(draw, [v for v in (1, 2, 4) if v != vector])
    if _chance(draw, 2):
        op_space = _pick(draw, ["generic", "shared::cluster"])
    opcode = draw(_opcode(plain, kind, op_space, op_bits, op_vector))
    if _chance(draw, 2) and "@" not in reg_t.get("layout", ""):
        reg_t["scope"] = _pick(draw, ["global", "shared", "local"])
    ap = {"opcode": opcode}
    if GROUPS[scope].coords:  # not the one-thread group, the scope key's default
        ap["scope"] = scope
    regop, memop = reg.operand_text(), mem.operand_text()
    ap["dst"], ap["src"] = (memop, regop) if memory_role == "dst" else (regop, memop)
    plain.draw_keys(TOOLS, draw, kind, ap)
    swz = _swizzle(draw, space, vector, swizzled)  # drawn last: the other draws stay as they were
    if swz:
        mem_t["layout"] = f"{swz} o {mem.layout_text()}"
    return {mname: mem_t, rname: reg_t}, ap


@st.composite
def checks(draw, symbolic: bool = False, max_points: int = 1024, max_applies: int = 2, *, scopes=None, kinds=None,
           spaces=None, dtypes=None, archs=None, swizzled=None, families=None):
    """A whole check file's data (the dict ``tilecheck.from_dict`` takes).

    ``max_points`` bounds, per application, the (thread or group) x repeat x word points
    that the brute-force decider visits; ``symbolic`` adds symbols (see ``symbolic_checks``).
    ``scopes`` ("thread", "warp", "cta"), ``kinds`` ("ld", "st"), ``spaces`` ("global",
    "shared", "local"), ``dtypes`` (tilecheck's dtype names) and ``archs`` ("sm_90", ...)
    restrict the draws, e.g. ``checks(scopes=["cta"], kinds=["st"])`` for CTA-wide stores;
    ``swizzled`` True swizzles every memory tensor (``Sw<B,M,S> o ...``), False none, None some.
    ``families`` (``FAMILIES``: "ldst" the plain ld/st tiles, "guard" guarded ld/st/cp.async tiles,
    "cp.async" guarded or not, "ldmatrix", "stmatrix") draws only applications of those families,
    e.g. ``checks(families=["ldmatrix", "stmatrix"])``; by default ``STAGING_PERCENT`` % of the
    applications are of the staging families, the rest plain ld/st."""
    if families is not None:
        families = tuple(families)
        bad = [f for f in families if f not in FAMILIES]
        if bad or not families:
            raise ValueError(f"families must be a non-empty subset of {FAMILIES}, got {families!r}")
        plain = any(_DRAWS[f][0].how == "plain" for f in families)
        warps = all(_DRAWS[f][0].warp for f in families)  # every one needs a whole warp
        if not plain and scopes is None:
            # thread counts every family fits (a guarded tile: its group times its vector within max_points;
            # a warp's draw: a multiple of 32)
            scopes = ["warp"] if warps else None
    arch = _among(draw, archs, ["sm_90", "sm_100a", "sm_80", "sm_75", "sm_120"], [12, 3, 1, 1, 1], "archs")
    scope = _among(draw, scopes, list(DRAWN_SCOPES), [5, 2, 3], "scopes")
    if not GROUPS[scope].coords:
        options, weights = [1, 32, 2, 64, 128, 1024], [12, 1, 1, 1, 1, 1]
    elif GROUPS[scope].warps == 1:
        options, weights = [32, 64, 96, 1024], [8, 2, 1, 1]
    else:
        options, weights = [32, 64, 128, 256, 1024, 96, 512], [3, 3, 3, 1, 1, 1, 1]
    if families is not None and not plain:
        kept = [(t, 3 * w if warps and t == 32 else w) for t, w in zip(options, weights)
                if t <= max(32, max_points // 4) and (t % 32 == 0 or not warps)]
        options, weights = [t for t, _ in kept], [w for _, w in kept]
    threads = _pick(draw, options, weights)
    syms = _Symbols(symbolic and _chance(draw, 15), symbolic and _chance(draw, 10))
    names = _Names()
    tensors, applies = {}, []
    for k in range(1 + (_int(draw, 0, max_applies - 1) if _chance(draw, 10) else 0)):
        sc = scope if k == 0 else _pick(draw, [x for x in DRAWN_SCOPES if x in (scopes or DRAWN_SCOPES)
                                               and threads % GROUPS[x].multiple == 0])
        t, a = _application(draw, k, threads, sc, symbolic, syms, max_points, names, kinds, spaces, dtypes,
                            swizzled, families, scopes)
        tensors.update(t)
        applies.append(a)
    data = {}
    if arch != "sm_90":
        data["arch"] = arch
    if threads != 1:
        data["threads"] = threads
    if syms.facts:
        data["assume"] = syms.facts
    if syms.symbols:
        data["symbols"] = syms.symbols
    data["tensors"] = tensors
    data["apply"] = applies
    return data


def symbolic_checks(max_points: int = 256, max_applies: int = 1, **restrict):
    """Checks with symbols: symbolic tensor dimensions (and the strides that follow from them),
    symbolic strides, slice starts and offsets, each with min/max/multiple_of and facts that
    usually (not always) keep the access inside the tensor (for ldmatrix/stmatrix: a symbolic row
    stride, column count, slice start or offset).  Draws without any symbol are
    filtered out.  ``restrict``: as for ``checks``."""
    return checks(symbolic=True, max_points=max_points, max_applies=max_applies, **restrict).filter(
        lambda d: bool(d.get("symbols")))


# --- single fields ------------------------------------------------------------------------------

@st.composite
def layouts(draw, rank: int | None = None):
    """A memory layout over a small shape: ``(shape, "shape:stride")`` with permuted compact
    strides, gaps, nested modes and negative strides (concrete)."""
    rank = rank or _int(draw, 1, 4)
    axes = [("repeat", "ijkm"[k], _int(draw, 1, 6)) for k in range(rank - 1)]
    axes.append(("word", "v", _pick(draw, [1, 2, 4, 8])))
    op = _Operand("A", *_operand_structure(draw, axes))
    _axes_and_slices(draw, op, False, _Symbols())
    _memory_strides(draw, op, 4, "global", False, _Symbols(), 1)
    return tuple(op.shape()), op.layout_text()


@st.composite
def register_layouts(draw, scope: str = "thread", threads: int = 32):
    """A register layout over ``(*group, repeat, word)``: ``(shape, "shape:stride")`` with
    lane/warp/tid thread strides for the group axes and injective, permuted, interleaved or
    colliding slot strides."""
    group = _group_axes(scope, threads)
    axes = _view_axes(group, [_int(draw, 1, 4)], _pick(draw, [1, 2, 4]))
    op = _Operand("R", *_operand_structure(draw, axes))
    _axes_and_slices(draw, op, False, _Symbols(), allow_pad=False, register=True)
    _register_strides(draw, op, scope)
    return tuple(op.shape()), op.layout_text()


def seed_layouts():
    """The documentation example's layout ``(15,2,7,2):(4,1,60,2)`` with its strides permuted
    (each permutation is a bijection onto other offsets; some keep the words contiguous)."""
    shape = "(" + ",".join(map(str, SEED_SHAPE)) + ")"
    return st.permutations(SEED_STRIDE).map(lambda s: f"{shape}:({','.join(map(str, s))})")


# --- malformed input ----------------------------------------------------------------------------

_JUNK = ["", " ", "[", "]", "(", ")", ":", "::", "->", "=", ",", ".", "..", "@", "@lane", "1@", "x", "-",
         "'", '"', "\\", "\n", "#", "{", "}", "0", "-1", "99999999999999999999", "1e3", "n", "//", "%", "**",
         "v3", ".b33", ".L1::bogus", "true", "nan", "\x00", "é", "(((", ")))", "((1,2),3)", "1@laneid",
         "n//4", "k//2", "2*n", "n+1", "k", "n%4", "9" * 4400]


_VALUES = ['"x"', "1", "-1", "0", "true", "[]", "[1, 2]", '["n"]', "{}", '{a = 1}', "[[1], [2]]", "[{}]",
           '"1@laneid"', '"ld.global.b32"', '"A"', '"(4):(1)"', "2048", "1.5", "inf", "nan", '"sm_90"',
           '"n >= 1"', '["n > "]', "1979-05-27", '""', "[true]", "[1.5]", '"-1"', "99999999999999999999"]


@st.composite
def malformed_texts(draw, base: str):
    """A check file text derived from ``base`` by one or a few edits (deletions, insertions of
    junk, duplicated or swapped lines, retyped values).  Most are input errors; some are
    still valid files.  Either way ``tilecheck prove`` must answer without a traceback."""
    text = base
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["insert", "delete", "replace", "line", "value", "swap"]))
        if how == "line":
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            op = draw(st.sampled_from(["drop", "dup", "junk", "retype"]))
            if op == "retype":  # the same key, a value of another TOML type
                key, eq, _ = lines[k].partition("=")
                if eq:
                    lines[k] = key + "= " + draw(st.sampled_from(_VALUES))
            elif op == "drop":
                del lines[k]
            elif op == "dup":
                lines.insert(k, lines[k])
            else:
                key = draw(st.sampled_from(["bogus", "dtype", "scope", "shape", "layout", "offset", "align",
                                            "opcode", "dst", "src", "pred", "min", "max", "multiple_of",
                                            "threads", "arch", "assume", "version", "from"]))
                val = draw(st.sampled_from(_VALUES))
                lines.insert(k, f"{key} = {val}")
            text = "\n".join(lines)
            continue
        if how == "value":  # retype one quoted value
            quoted = [i for i, ch in enumerate(text) if ch == '"']
            if len(quoted) >= 2:
                k = draw(st.integers(0, len(quoted) // 2 - 1)) * 2
                a, b = quoted[k], quoted[k + 1]
                inner = text[a + 1:b]
                new = draw(st.one_of(
                    st.sampled_from(_JUNK),
                    st.builds(lambda i, j, s: inner[:i] + s + inner[j:], st.integers(0, len(inner)),
                              st.integers(0, len(inner)), st.sampled_from(_JUNK))))
                text = text[:a + 1] + new.replace('"', "'").replace("\\", "/").replace("\n", " ") + text[b:]
            continue
        if not text:
            text = draw(st.sampled_from(_JUNK))
            continue
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 8)))
        if how == "insert":
            text = text[:i] + draw(st.sampled_from(_JUNK)) + text[i:]
        elif how == "delete":
            text = text[:i] + text[j:]
        elif how == "replace":
            text = text[:i] + draw(st.sampled_from(_JUNK)) + text[j:]
        else:  # swap two spans
            k = draw(st.integers(0, len(text)))
            a, b = sorted((i, k))
            text = text[:a] + text[b:b + (j - i)] + text[a + (j - i):b] + text[a:a + (j - i)] + text[b + (j - i):] \
                if b - a >= j - i else text
    return text


def sample(n: int, seed: int, strategy) -> list:
    """The first ``n`` values Hypothesis draws from ``strategy`` with ``seed`` (no database, no health
    checks): the same values in every run (the benchmarks' and the ncu comparison's cases)."""
    from hypothesis import HealthCheck, given, seed as hseed, settings
    out = []

    @settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @hseed(seed)
    @given(strategy)
    def collect(data):
        out.append(data)
    collect()
    return out[:n]
