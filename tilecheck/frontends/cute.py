"""CuTe DSL front end: ``tilecheck cute FILE.py`` proves the copies of CuTe Python DSL kernels in place.

Two halves, as for TIRx. ``cute_extract.py`` (next to this file) needs nvidia-cutlass-dsl (``pip install
'tilecheck[cute]'``): it imports FILE.py, runs its ``tilecheck_*`` functions (each builds fake arguments and
calls ``cute.compile``; no GPU is needed) and records every ``cute.copy`` traced, with the layouts as the DSL
prints them. This module is pure: it turns each record into one check (``tilecheck.from_dict`` data), proves
it and reports at the file:line of the ``cute.copy``. Nothing here imports the DSL, so the translation is
tested from recorded extractions (tests/cute_cases/).

Translation (a TiledCopy's copy of partitioned tensors -> one [[apply]]):
  * threads = the tiled copy's size. A memory operand is the tensor the partition was cut from (``whole``):
    its first modes tiled by ``tiler_mn`` (mode i composed with tiler i), composed with the thread-value
    layout (``layout_src_tv_tiled`` for the source, ``layout_dst_tv_tiled`` for the destination; ldmatrix and
    stmatrix view both operands at the register side's, as tilecheck's ldmatrix family does), gives the
    thread mode and the value mode; the value mode splits into the atom's values (the word) and the rest;
    the tile's rest modes (mode i composed with the complement of tiler i) and the whole tensor's untiled
    modes follow, as CuTe's ``partition_S``/``partition_D`` order them, and the slices taken of the
    partition fix modes (an integer: an offset; a loop index: a symbol over the mode's extent). The shapes
    are checked against the per-thread tensor the DSL passed to ``cute.copy`` (a mismatch is reported
    unsupported, never guessed), and so is the value mode where the operand's own TV layout is used.
  * a register operand is the per-thread tensor as passed (``retile`` or a fragment), its slots owned by
    the thread (``1@tid``, or ``1@laneid`` at warp scope).
  * a dynamic stride ``?{div=N}`` is a symbol ``s<k>`` with ``min = 1``, ``multiple_of = N`` (the DSL's
    divisibility, its own contract on the tensor); each printed ``?`` is its own symbol (the DSL does not
    say that two are the same value). The base alignment is the pointer's ``align<N>`` (default: one
    element); a swizzle on the pointer (``S<B,M,S>`` on byte addresses) is the element swizzle
    ``Sw<B,M-log2(bytes),S>`` of the tensor's offsets (the shared base aligned to the swizzle's period, as
    CuTe's allocator places swizzled buffers).
  * ``CopyG2SOp`` -> ``cp.async.{ca,cg}.shared.global`` with ``cp_size`` = the atom's bytes (cta scope);
    ``CopyUniversalOp`` between registers and global or shared memory -> ``ld``/``st`` ``.vN.bW`` (cta scope;
    16-bit elements in pairs are moved as 32-bit words, as docs/check-file.md describes); ``LdMatrix8x8x16bOp``
    / ``StMatrix8x8x16bOp`` -> ``ldmatrix``/``stmatrix .m8n8.xN[.trans].shared.b16`` at warp scope, each
    warp's tile at a symbol ``warp`` bound to the warp id (``from = "warpid"``: every warp of the CTA).
A copy with a plain CopyAtom of operands a TiledCopy partitioned takes that TiledCopy's threads and TV layouts
(each memory operand the side its partition names: ``partition_S`` the source's), its word the atom's values.
Reported ``unsupported`` with the reason: TMA (``cp.async.bulk.tensor``: the record lacks the global tensor's shape
and strides, a load's expect_tx and the consumer's view of the box; the reason names them), copies with a
plain CopyAtom of operands no TiledCopy partitioned (a TiledMma's or by hand: the thread mapping is not read), an
operand whose partition the tracer did not see (a tensor the DSL rebuilt as a loop-carried value), memory to
memory universal copies. Not modelled: the copy's predicate (every copy of the tile is checked, as if all
were taken), bounds beyond the partitioned tile (the whole tensor's extent is the tile's).
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import ci_format
from ..check_toml import to_toml
from ..ci_format import Finding
from ..errors import InputError
from ..layout import Layout, parse_layout
from ..modes import _leaves
from ..obligations import CONTRACT, RECORDS
from ..timeout import positive_seconds
from . import cute_extract
from .proving import prove_translated

HELP = "trace the cute.copy calls of CuTe Python DSL kernels and prove each"
INSTALL = "pip install 'tilecheck[cute]'"
DTYPE = {"Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32", "Float64": "float64",
         "Int8": "int8", "Uint8": "uint8", "Int16": "int16", "Uint16": "uint16", "Int32": "int32",
         "Uint32": "uint32", "Int64": "int64", "Uint64": "uint64"}
INT32_MAX = 2**31 - 1


class Unsupported(Exception):
    pass


@dataclass
class Case:
    """One traced copy: its check data, or why it has none."""
    file: str
    entry: str
    index: int
    line: int | None
    op: str
    calls: int = 1
    opcode: str | None = None
    scope: str | None = None
    check: dict | None = None
    unsupported: str | None = None
    result: dict = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line if self.line is not None else '?'}"


# ----------------------------------------------------------------------- dynamic integers
def _primes(start: int):
    n = start | 1
    while True:
        if all(n % p for p in range(3, int(n ** 0.5) + 1, 2)):
            yield n
        n += 2


class Dynamic:
    """The DSL's dynamic integers ``?{div=N}`` of one operand, as large distinct primes while the layout
    algebra runs (CuTe's composition only multiplies a left-hand stride by an integer, so ``c * P_k`` reads
    back as ``c * s_k``), and as symbols after."""
    MIN = 10**9

    def __init__(self, names: list):
        self.names = names  # shared across the operands of one check: each ? its own name
        self.marks = {}  # prime -> (name, div)
        self.halved = set()  # names that count 32-bit words (a 16-bit stride halved)
        self._gen = _primes(self.MIN + 7 + 1000 * len(names))

    def substitute(self, text: str) -> str:
        colon = _top_colon(text)

        def one(m):
            div = re.search(r"div=(\d+)", m.group(0) or "")
            p = next(self._gen)
            while p in self.marks:
                p = next(self._gen)
            name = f"{'n' if m.start() < colon else 's'}{len(self.names)}"  # an extent n, a stride s
            self.names.append((name, int(div.group(1)) if div else 1))
            self.marks[p] = (name, int(div.group(1)) if div else 1)
            return str(p)
        return re.sub(r"\?(\{[^}]*\})?", one, text)

    def halvable(self, x: int) -> int | None:
        """``x / 2`` as a stride in 32-bit words (a dynamic integer whose divisibility is even then stands for
        its half: its symbol is named in words from here on); None when x may be odd."""
        if abs(x) < self.MIN:
            return x // 2 if x % 2 == 0 else None
        for p, (name, div) in self.marks.items():
            if x % p == 0:
                c = x // p
                if name in self.halved:
                    return x
                if div % 2 == 0:
                    self.halved.add(name)
                    return x
                return (c // 2) * p if c % 2 == 0 else None
        return None

    def expr(self, x: int) -> str | int:
        if abs(x) < self.MIN:
            return x
        for p, (name, _) in self.marks.items():
            if x % p == 0 and abs(x // p) < self.MIN:
                c = x // p
                return name if c == 1 else f"{c}*{name}"
        raise Unsupported(f"the stride {x} mixes two dynamic integers")


def _top_colon(text: str) -> int:
    """The position of the ':' between a layout's shape and stride (outside parentheses)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "(<{"
        depth -= ch in ")>}"
        if ch == ":" and depth == 0:
            return i
    return len(text)


def _layout(text: str, dyn: Dynamic) -> Layout:
    try:
        return parse_layout(dyn.substitute(text))
    except InputError as e:
        raise Unsupported(f"cannot read the DSL's layout {text!r}: {e.message}") from None


def _size(shape) -> int:
    n = 1
    for s in _leaves(shape):
        n *= s
    return n


def _mode(lay: Layout, i: int) -> Layout:
    return Layout((lay.shape[i],), (lay.stride[i],))


def _join(modes: list[Layout]) -> Layout:
    """Layouts of one mode each, side by side."""
    return Layout(tuple(m.shape[0] if m.rank == 1 else m.shape for m in modes),
                  tuple(m.stride[0] if m.rank == 1 else m.stride for m in modes))


def _compose(a: Layout, b: Layout, what: str) -> Layout:
    try:
        return a.composition(b)
    except InputError as e:
        raise Unsupported(f"{what}: {e.message}") from None


def _text(x, dyn: Dynamic) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_text(y, dyn) for y in x) + ")"
    return str(dyn.expr(x)) if isinstance(x, int) else str(x)


def _shape_text(x) -> str:
    return "(" + ",".join(_shape_text(y) for y in x) + ")" if isinstance(x, tuple) else str(x)


def _static(mode: Layout):
    """A mode's (shape, stride) leaves coalesced, or None when a stride is dynamic (then not compared)."""
    if any(abs(d) >= Dynamic.MIN for d in _leaves(mode.stride)):
        return None
    try:
        return str(mode.coalesce())
    except InputError:
        return None


def _value_expr(mode: Layout, var: str, dyn: Dynamic) -> str:
    """The offset of one (possibly nested) mode at a symbolic coordinate ``var``."""
    terms, below = [], 1
    shapes, strides = _leaves(mode.shape), _leaves(mode.stride)
    for k, (s, d) in enumerate(zip(shapes, strides)):
        if s == 1 or d == 0:
            below *= s
            continue
        c = var if below == 1 else f"({var} // {below})"
        if k < len(shapes) - 1:
            c = f"({c} % {s})"
        d = dyn.expr(d)
        terms.append(c if d == 1 else f"{d}*{c}")
        below *= s
    return " + ".join(terms) or "0"


# --------------------------------------------------------------------------- one operand
_ALIGN = re.compile(r"align<(\d+)>")
_PTR_SWIZZLE = re.compile(r"S<(\d+),(\d+),(\d+)>")


def _pointer(iterator: str, width: int):
    """(byte alignment, element swizzle text or None) of a DSL pointer type."""
    m = _ALIGN.search(iterator)
    align = int(m.group(1)) if m else max(1, width // 8)
    sw = _PTR_SWIZZLE.search(iterator)
    if not sw:
        return align, None
    b, base, s = (int(x) for x in sw.groups())
    shift = (width // 8).bit_length() - 1
    if base < shift:
        raise Unsupported(f"the pointer swizzle S<{b},{base},{s}> moves bits inside one {width}-bit element")
    return align, f"Sw<{b},{base - shift},{s}>"


def _split_value(per_thread: Layout) -> tuple[int, int]:
    """(atom values, rest values) of a partitioned tensor's first mode ((atom_v, rest_v), ...)."""
    m0 = per_thread.shape[0]
    if isinstance(m0, tuple) and len(m0) == 2:
        return _size(m0[0]), _size(m0[1])
    return _size(m0), 1


class Side:
    """One operand of a copy as tilecheck modes: thread, word (the atom's values), repeats; offset, symbols."""

    def __init__(self, name, rec, tv_text, tiler, split, threads, scope, dyn, facts, own_tv=True):
        self.name, self.rec, self.dyn = name, rec, dyn
        self.space = rec["memspace"]
        self.width = int(rec["width"])
        if rec["dtype"] not in DTYPE:
            raise Unsupported(f"{name}: element type {rec['dtype']} (tilecheck: {', '.join(DTYPE)})")
        self.dtype = DTYPE[rec["dtype"]]
        per_thread = _layout(rec["layout"], dyn)
        self.offset_terms: list[str] = []
        self.fixed: dict[int, object] = {}  # repeat axis -> the index a slice fixed it at (int or symbol)
        if self.space == "rmem":
            m0 = _mode(per_thread, 0)
            atom_v, rest_v = split
            if _size(m0.shape) != atom_v * rest_v:
                raise Unsupported(f"{name}: {_size(m0.shape)} values per thread, the copy moves {atom_v} x {rest_v}")
            v = _compose(m0, Layout((atom_v, rest_v), (1, atom_v)), f"{name}: the value mode")
            self.word, rest = _mode(v, 0), _mode(v, 1)
            self.repeats = [rest] + [_mode(per_thread, i) for i in range(1, per_thread.rank)]
            self.thread = None
            self.swizzle, self.align = None, None
            self.threads, self.scope = threads, scope
            return
        if self.space not in ("gmem", "smem"):
            raise Unsupported(f"{name}: address space {self.space}")
        origin = rec.get("origin")
        if not origin or "whole_layout" not in origin:
            raise Unsupported(f"{name}: the tensor it was partitioned from is not known (a loop-carried tensor "
                              "the DSL rebuilt, or one not cut by ThrCopy.partition_S/D)")
        whole = _layout(origin["whole_layout"], dyn)
        self.align, self.swizzle = _pointer(origin["whole_iterator"], self.width)
        if whole.swizzle is not None:
            if self.swizzle is not None:
                raise Unsupported(f"{name}: swizzled both in its layout and in its pointer")
            self.swizzle = str(whole.swizzle)
            whole = Layout(whole.shape, whole.stride)
        self.whole = whole
        tilers = [_layout(t, dyn) for t in tiler]
        if len(tilers) > whole.rank:
            raise Unsupported(f"{name}: the tiler has {len(tilers)} modes, the tensor {whole.rank}")
        tile, rest = [], []
        for i, t in enumerate(tilers):
            mi = _mode(whole, i)
            tile.append(_compose(mi, t, f"{name}: mode {i} o tiler {t}"))
            n = _size(whole.shape[i])
            try:
                comp = t.complement(n)
            except InputError as e:
                raise Unsupported(f"{name}: complement of tiler {t} in {n}: {e.message}") from None
            rest.append(_compose(mi, comp, f"{name}: mode {i} o complement"))
        tv = _layout(tv_text, dyn)
        if tv.rank != 2:
            raise Unsupported(f"{name}: the TV layout {tv_text} is not (thread, value)")
        tvx = _compose(_join(tile), tv, f"{name}: tile o TV layout")
        atom_v, rest_v = split
        v = _compose(_mode(tvx, 1), Layout((atom_v, rest_v), (1, atom_v)), f"{name}: the value mode")
        self.word = _mode(v, 0)
        rest_v = _mode(v, 1)
        modes = [r if r.rank == 1 else _join([r]) for r in rest] + \
            [_mode(whole, i) for i in range(len(tilers), whole.rank)]
        thr = _mode(tvx, 0)
        if _size(thr.shape) != threads:
            raise Unsupported(f"{name}: the TV layout has {_size(thr.shape)} threads, the tiled copy {threads}")
        # the slices taken of the partition fix axes after the value mode: kept as axes of the tensor
        # (so that its extent is the whole buffer's) and sliced in the operand's view
        self.repeats = [rest_v] + modes
        live = list(range(1, len(self.repeats)))  # the partition's modes after the first, by position
        for sl in origin.get("slices", []):
            coord = sl["coord"]
            if len(coord) != 1 + len(live):
                raise Unsupported(f"{name}: slice {coord} of a rank-{1 + len(live)} partition")
            if coord[0] is not None:
                raise Unsupported(f"{name}: a slice {coord} that fixes the value mode")
            kept = []
            for c, ax in zip(coord[1:], live):
                if c is None:
                    kept.append(ax)
                elif isinstance(c, int):
                    self.fixed[ax] = c
                elif c == "?":
                    var = f"k{len(facts['slices'])}"
                    ext = _size(self.repeats[ax].shape)
                    facts["slices"].append((var, ext if ext < Dynamic.MIN else dyn.expr(ext)))
                    self.fixed[ax] = var
                else:
                    raise Unsupported(f"{name}: a nested slice coordinate {c!r}")
            live = kept
        if scope == "warp":  # lanes are the group; the warp is a symbol
            if threads % 32:
                raise Unsupported(f"{name}: {threads} threads is not whole warps")
            lw = _compose(thr, Layout((32, threads // 32), (1, 32)), f"{name}: thread mode o (lane, warp)")
            self.thread = _mode(lw, 0)
            if threads > 32:
                e = _value_expr(_mode(lw, 1), "warp", dyn)
                if e != "0":
                    self.offset_terms.append(e)
        else:
            self.thread = thr
        self.threads, self.scope = threads, scope
        # the DSL's own per-thread tensor: the same repeat extents (and the same value mode where its TV is ours)
        mine = [_size(m.shape) for k, m in enumerate(self.repeats) if k not in self.fixed]
        theirs = [_size(per_thread.shape[i]) for i in range(1, per_thread.rank)]
        if [x for x in mine[1:] if x != 1] != [x for x in theirs if x != 1] or _size(self.word.shape) != split[0]:
            raise Unsupported(f"{name}: tilecheck's partition {mine} (word {_size(self.word.shape)}) differs from "
                              f"the DSL's per-thread tensor {rec['layout']}")
        if own_tv:  # the same TV layout as the DSL's partition: the same per-thread offsets where static
            value = Layout(((self.word.shape[0], self.repeats[0].shape[0]),),
                           ((self.word.stride[0], self.repeats[0].stride[0]),))
            ours = [value] + [m for k, m in enumerate(self.repeats[1:], 1) if k not in self.fixed]
            dsl = [_mode(per_thread, i) for i in range(per_thread.rank)]
            for a, b in zip(ours, dsl):
                fa, fb = _static(a), _static(b)
                if fa is not None and fb is not None and fa != fb:
                    raise Unsupported(f"{name}: tilecheck's partition gives the per-thread mode {a}, the DSL's "
                                      f"{b} (in {rec['layout']})")

    def live(self) -> list[int]:
        """The repeat axes of the view: not fixed by a slice, extent not 1."""
        return [k for k, r in enumerate(self.repeats) if k not in self.fixed and _size(r.shape) != 1]

    def ordered(self) -> list[str]:
        """``--assume-no-overlap``: facts that the whole tensor does not overlap itself, in the sufficient form
        of ordered strides: its static-stride modes first (by stride), then its dynamic strides in the order
        the layout writes them, each at least the span of the modes before it."""
        leaves = [(sh, d) for sh, d in zip(_leaves(self.whole.shape), _leaves(self.whole.stride)) if sh != 1 and d != 0]
        static = sorted((abs(d), sh) for sh, d in leaves if abs(d) < Dynamic.MIN and abs(sh) < Dynamic.MIN)
        dynamic = [(sh, d) for sh, d in leaves if abs(d) >= Dynamic.MIN]
        if any(abs(d) < Dynamic.MIN and abs(sh) >= Dynamic.MIN for sh, d in leaves):
            dynamic = [(sh, d) for sh, d in leaves if abs(d) < Dynamic.MIN and abs(sh) >= Dynamic.MIN] + dynamic
        span = ["1"]
        for d, sh in static:
            span.append(f"{sh - 1}*{d}")
        facts = []

        def elements(x):  # a symbol halved into 32-bit words (16-bit pairs) counts 2 elements a unit
            return re.sub(r"\b[sn]\d+\b", lambda m: f"(2*{m.group(0)})" if m.group(0) in self.dyn.halved
                          else m.group(0), str(self.dyn.expr(x)))
        for sh, d in dynamic:
            stride, ext = elements(d), self.dyn.expr(sh)
            if abs(d) >= Dynamic.MIN:
                facts.append(f"{stride} >= {' + '.join(span)}")
            span.append(f"({ext} - 1)*{stride}")
        return facts

    # -------------------------------------------------------------------- as a check
    def modes(self) -> list[tuple[str, object, object]]:
        """(axis name, shape, stride text) per tensor axis: thread, word, repeats."""
        out = []
        if self.space == "rmem":
            axis = "1@tid" if self.scope == "cta" else "1@laneid"
            out.append(("t", self.threads if self.scope == "cta" else 32, axis))
        else:
            out.append(("t", self.thread.shape[0], _text(self.thread.stride[0], self.dyn)))
        out.append(("v", self.word.shape[0], _text(self.word.stride[0], self.dyn)))
        for i, r in enumerate(self.repeats):
            shape = r.shape[0]
            out.append((f"r{i}", self.dyn.expr(shape) if isinstance(shape, int) else shape, _text(r.stride[0], self.dyn)))
        return out

    def tensor(self) -> dict:
        axes = self.modes()
        shape = [_size(s) if isinstance(s, tuple) else s for _, s, _ in axes]
        shape = [self.dyn.expr(x) if isinstance(x, int) else x for x in shape]
        text = "(" + ",".join(_shape_text(s) for _, s, _ in axes) + "):(" + ",".join(str(d) for _, _, d in axes) + ")"
        scope = {"gmem": "global", "smem": "shared", "rmem": "register"}[self.space]
        spec = {"dtype": self.dtype, "scope": scope, "shape": shape,
                "layout": (f"{self.swizzle} o " if self.swizzle else "") + text}
        if self.offset_terms:
            spec["offset"] = " + ".join(self.offset_terms)
        if self.align is not None:
            spec["align"] = self.align
        return spec

    def view(self, tensor: str) -> str:
        """The operand: fixed axes sliced (and merged into the word as size-1 sub-axes), the thread split
        into (warp, lane) at cta scope."""
        names = [n for n, _, _ in self.modes()]
        reps = [f"r{k}" for k in self.live()]
        fixed = [f"r{k}" for k in range(len(self.repeats)) if f"r{k}" not in reps]
        word = f"(v {' '.join(fixed)})" if fixed else "v"
        head = tensor
        if self.fixed:
            parts = [":"] * len(names)
            for k, at in self.fixed.items():
                parts[2 + k] = f"{at}:{at}+1" if isinstance(at, str) else f"{at}:{at + 1}"
            head = f"{tensor}[{', '.join(parts)}]"
        left = " ".join(["(w l=32)" if self.scope == "cta" else "l"] + names[1:])
        right = " ".join((["w", "l"] if self.scope == "cta" else ["l"]) + reps + [word])
        return f"{head}: {left} -> {right}"


# --------------------------------------------------------------------------- translation
_SWIZZLE_SPAN = {0: "none", 1: "32B", 2: "64B", 3: "128B"}


def _tma_reason(c: dict, src: dict, dst: dict) -> str:
    """Why a recorded TMA copy is not an ``[[apply]]`` of the TMA family: what the record holds (the box,
    the shared side's alignment and swizzle) and what a tensor map and the apply need that it lacks."""
    op = c.get("op", "?")
    load = "G2S" in op
    coord, smem = (src, dst) if load else (dst, src)
    if smem.get("memspace") != "smem" or coord.get("memspace") != "none":
        return f"{op}: a TMA copy between {src.get('memspace')} and {dst.get('memspace')} (not read)"
    try:
        sh = parse_layout(re.sub(r"(\d+)@\d+", r"\1", coord["layout"])).shape  # strides: basis vectors
        while isinstance(sh, tuple) and len(sh) == 1:
            sh = sh[0]
        box = sh[0] if isinstance(sh, tuple) and isinstance(sh[0], tuple) else sh  # ((box), rest)
        flat = _size(parse_layout(smem["layout"]).shape)
    except InputError as e:
        return f"{op}: cannot read the DSL's TMA layouts: {e.message}"
    m = _ALIGN.search(smem["iterator"])
    sw = _PTR_SWIZZLE.search(smem["iterator"])
    swizzle = _SWIZZLE_SPAN.get(int(sw.group(1)), sw.group(0)) if sw and sw.group(2) == "4" else (
        sw.group(0) if sw else "none")
    width = smem.get("width", 0)
    rank = len(box) if isinstance(box, tuple) else 1
    held = (f"the record holds the box {_shape_text(box)} (tensor coordinates, {flat} {smem.get('dtype')} = "
            f"{flat * width // 8} bytes), the shared side's align {m.group(1) if m else '?'} and swizzle {swizzle}")
    missing = ["the global tensor's shape and strides (the copy's global side is the coordinates "
               f"{coord['iterator']}: the tensor map is encoded on the host and not traced)"]
    if load:
        missing += ["the expect_tx the kernel arms the barrier with (a pipeline's tx_count, not a cute.copy)",
                    f"the consumer's view of the landed box (the shared side is recorded as the atom's flat "
                    f"{smem['layout']})"]
    return (f"{op}: TMA {'load' if load else 'store'} (cp.async.bulk.tensor.{rank}d); {held}; "
            f"a tensormap and [[apply]] of the TMA family also need {', '.join(missing)}")


def _opcode(c: dict, src: dict, dst: dict) -> tuple[str, str, dict]:
    """(opcode, scope, extra apply keys) of a copy record; raises Unsupported."""
    op = c.get("op", "?")
    if "Bulk" in op or "Tma" in op or "TMA" in op:
        raise Unsupported(_tma_reason(c, src, dst))
    sp = (src["memspace"], dst["memspace"])
    if op == "CopyG2SOp":
        if sp != ("gmem", "smem"):
            raise Unsupported(f"cp.async from {sp[0]} to {sp[1]}")
        return "cp.async.{cache}.shared.global", "cta", {}
    if op == "CopyUniversalOp":
        spell = {("gmem", "rmem"): "ld.global", ("smem", "rmem"): "ld.shared", ("rmem", "gmem"): "st.global",
                 ("rmem", "smem"): "st.shared"}.get(sp)
        if spell is None:
            raise Unsupported(f"a universal copy from {sp[0]} to {sp[1]} (tilecheck's ld/st move memory and "
                              "registers)")
        return spell, "cta", {}
    if op in ("LdMatrix8x8x16bOp", "StMatrix8x8x16bOp"):
        want = ("smem", "rmem") if op.startswith("Ld") else ("rmem", "smem")
        if sp != want:
            raise Unsupported(f"{op} from {sp[0]} to {sp[1]}")
        n = c.get("num_matrices", 1)
        name = "ldmatrix" if op.startswith("Ld") else "stmatrix"
        return f"{name}.sync.aligned.m8n8.x{n}{'.trans' if c.get('transpose') else ''}.shared.b16", "warp", {}
    raise Unsupported(f"copy operation {op}: no tilecheck family")


def _pairs(side: Side) -> None:
    """16-bit elements moved as 32-bit words (ld/st .vN.b32): every stride but the word's even."""
    def half(mode, what):
        for x in _leaves(mode.stride):
            if side.dyn.halvable(x) is None:
                raise Unsupported(f"{side.name}: {what} stride {side.dyn.expr(x)} may be odd: the 16-bit elements "
                                  "do not pair into 32-bit words")
        return Layout(mode.shape, _halve(mode.stride, side.dyn))
    w = side.word
    if w.stride[0] != 1 or not isinstance(w.shape[0], int) or w.shape[0] % 2:
        raise Unsupported(f"{side.name}: the word {w} is not contiguous pairs of 16-bit elements")
    side.word = Layout((w.shape[0] // 2,), (1,))
    side.repeats = [half(r, "a repeat") for r in side.repeats]
    if side.thread is not None:
        side.thread = half(side.thread, "the thread")
    if side.offset_terms:
        raise Unsupported(f"{side.name}: pairing 16-bit elements under an offset {side.offset_terms}")
    if side.swizzle:
        b, m, s = (int(x) for x in re.findall(r"\d+", side.swizzle))
        if m < 1:
            raise Unsupported(f"{side.name}: the swizzle {side.swizzle} moves single 16-bit elements")
        side.swizzle = f"Sw<{b},{m - 1},{s}>"
    side.dtype, side.width = "uint32", 32


def _halve(s, dyn):
    return tuple(_halve(x, dyn) for x in s) if isinstance(s, tuple) else dyn.halvable(s)


def translate_copy(c: dict, no_overlap: bool = False) -> tuple[dict, str, str]:
    """(check data, opcode, scope) of one recorded copy; raises Unsupported. ``no_overlap``: assume the
    global tensor a store writes does not overlap itself (``Side.ordered``)."""
    if "unsupported" in c:
        raise Unsupported(c["unsupported"])
    src, dst = c["src"], c["dst"]
    opcode, scope, extra = _opcode(c, src, dst)
    per = {k: _layout(r["layout"], Dynamic([])) for k, r in (("src", src), ("dst", dst))}
    if c.get("atom") == "TiledCopy":
        tiled = {"src": c, "dst": c}
        split_of = None
    else:  # a plain CopyAtom: the threads are those of the TiledCopy that partitioned each memory operand
        tiled = {k: (r.get("origin") or {}).get("tiled") for k, r in (("src", src), ("dst", dst))}
        mem = [k for k, r in (("src", src), ("dst", dst)) if r["memspace"] != "rmem"]
        if not mem or any(tiled[k] is None for k in mem):
            raise Unsupported(f"a copy with a plain {c.get('atom')} ({c.get('op')}) of an operand that no TiledCopy "
                              "partitioned (a TiledMma's partition_C, or by hand): the thread of each element is "
                              "not read")
        if len({tiled[k]["threads"] for k in mem}) != 1:
            raise Unsupported("the operands were partitioned by tiled copies of different sizes")
        for k in ("src", "dst"):
            tiled[k] = tiled[k] or tiled[mem[0]]
        atom_v = _size(_layout(c["atom_tv_src"], Dynamic([])).shape[1])
        n = _size(per[mem[0]].shape[0])
        if n % atom_v:
            raise Unsupported(f"{n} values per thread do not split into atoms of {atom_v}")
        split_of = (atom_v, n // atom_v)
        c = {**c, **tiled[mem[0]]}
    threads = int(c["threads"])
    if threads % 32:
        raise Unsupported(f"{threads} threads: tilecheck's warp and cta scopes take whole warps")
    matrix = opcode.startswith(("ldmatrix", "stmatrix"))
    reg = "dst" if opcode.startswith("ldmatrix") else "src"
    def tv(k):  # a memory operand is cut by its partition's side of the tiled copy (partition_S: source)
        how = ((src if k == "src" else dst).get("origin") or {}).get("how", f"partition_{k[0].upper()}")
        return tiled[k]["tv_src" if how == "partition_S" else "tv_dst"]
    tvs = {"src": tiled["src"]["tv_dst"] if matrix and reg == "dst" else tv("src"),
           "dst": tiled["dst"]["tv_src"] if matrix and reg == "src" else tv("dst")}
    names: list = []
    facts = {"slices": []}
    sides = {}
    for k, rec in (("src", src), ("dst", dst)):
        split_from = reg if matrix else k  # the value split of the operand whose TV is used
        split = split_of or _split_value(per[split_from])
        sides[k] = Side(k, rec, tvs[k], tiled[k]["tiler"], split, threads, scope,
                        Dynamic(names), facts, own_tv=split_from == k)
    reps = {k: [_size(s.repeats[i].shape) for i in s.live()] for k, s in sides.items()}
    if reps["src"] != reps["dst"]:
        raise Unsupported(f"the operands' repeats differ: src {reps['src']}, dst {reps['dst']}")
    if _size(sides["src"].word.shape) != _size(sides["dst"].word.shape):
        raise Unsupported("the operands' atoms differ in size")
    atom = _size(sides["src"].word.shape)
    width = sides["src"].width
    apply = {}
    if opcode.startswith("cp.async"):
        size = atom * width // 8
        cache = "cg" if c.get("cache_mode") == "GLOBAL" and size == 16 else "ca"
        opcode = opcode.format(cache=cache)
        apply["cp_size"] = size
    elif opcode.startswith(("ld.", "st.")):
        if width == 16 and atom % 2 == 0 and atom > 1:
            for s in sides.values():
                _pairs(s)
            atom, width = atom // 2, 32
        if atom not in (1, 2, 4):
            raise Unsupported(f"{atom} elements of {width} bits per instruction (ld/st take 1, 2 or 4)")
        opcode = f"{opcode}{'' if atom == 1 else f'.v{atom}'}.b{width}"
        if c.get("pred"):
            apply["pred"] = True
    symbols, assume_ext = {}, []
    no_overlap_facts = sides["dst"].ordered() if no_overlap and sides["dst"].space == "gmem" else []
    halved = set().union(*(s.dyn.halved for s in sides.values()))
    for name, div in names:
        if name in halved:
            div //= 2
        if any(re.search(rf"\b{name}\b", str(s.tensor())) for s in sides.values()) or \
                any(re.search(rf"\b{name}\b", f) for f in no_overlap_facts) or \
                any(ext == name for _, ext in facts["slices"]):
            symbols[name] = {"min": 1, "max": INT32_MAX, **({"multiple_of": div} if div > 1 else {})}
            # a stride is >= 1 (positive, as the DSL's dynamic strides of a compact tensor are); an extent >= 1
    for var, ext in facts["slices"]:
        if isinstance(ext, int):
            symbols[var] = {"min": 0, "max": ext - 1}
        else:
            symbols[var] = {"min": 0, "max": INT32_MAX}
            assume_ext.append(f"{var} < {ext}")
    if scope == "warp" and threads > 32 and any("warp" in str(s.tensor().get("offset", "")) for s in sides.values()):
        symbols["warp"] = {"from": "warpid"}  # each warp's tile at its own warp id, every warp of the CTA
    tensors = {"S": sides["src"].tensor(), "D": sides["dst"].tensor()}
    assume = assume_ext + no_overlap_facts
    # ldmatrix/stmatrix: every warp of the CTA, each at its own warp id (from = "warpid"): the stores
    # of two warps are compared too
    out = {"arch": "sm_90" if opcode.startswith("stmatrix") else "sm_80", "threads": threads}
    if symbols:
        out["symbols"] = symbols
    if assume:
        out["assume"] = assume
    out["tensors"] = tensors
    out["apply"] = [{"opcode": opcode, "scope": scope, "dst": sides["dst"].view("D"),
                     "src": sides["src"].view("S"), **apply, **extra}]
    return out, opcode, scope


def translate(data: dict, file: str | None = None, no_overlap: bool = False) -> tuple[list[Case], list[dict]]:
    """Every recorded copy as a Case; and the entries the DSL could not trace."""
    file = file or data.get("file", "<cute>")
    cases = []
    for i, c in enumerate(data.get("copies", [])):
        case = Case(c.get("file", file), c.get("entry") or "?", i, c.get("line"), c.get("op", "?"), c.get("calls", 1))
        try:
            case.check, case.opcode, case.scope = translate_copy(c, no_overlap)
        except Unsupported as e:
            case.unsupported = str(e)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError, InputError) as e:
            # a malformed record (hand-edited, or from another DSL version)
            case.unsupported = f"malformed extraction: {type(e).__name__}: {e}"
        cases.append(case)
    return cases, list(data.get("errors", []))


# ------------------------------------------------------------------------------ proving
def prove_case(c: Case, timeout: float = 10.0) -> dict:
    """Prove one case; the result dict is also stored on the case."""
    if c.check is None:
        c.result = {"verdict": "unsupported", "reason": c.unsupported}
        return c.result

    def notes(rep):
        found = [o.message for o in rep.obligations
                 if o.status == "proved" and o.name in ("banks", "sectors") and o.message]
        return {"notes": found} if found else {}

    def describe(bad):
        return {"messages": [o.message if (o.message or "").startswith(o.name) else f"{o.name}: {o.message}"
                             for o in bad]}
    c.result = prove_translated(c.check, f"{c.where} ({c.entry} copy[{c.index}])", timeout, describe, notes)
    return c.result


def summary(cases: list[Case], errors: list[dict]) -> dict:
    out = {"copies": len(cases), "calls": sum(c.calls for c in cases), "trace_errors": len(errors)}
    for v in ("proved", "refuted", "unknown", "unsupported"):
        out[v] = sum(c.result.get("verdict") == v for c in cases)
    return out


# ---------------------------------------------------------------------------- extraction
def dsl_available() -> bool:
    try:
        return importlib.util.find_spec("cutlass") is not None and importlib.util.find_spec("cutlass.cute") is not None
    except (ImportError, ValueError):
        return False


def extract(path: str, entries: list[str] | None = None, arch: str | None = None) -> dict:
    if not os.path.isfile(path):
        raise InputError("no such file", path)
    if arch:  # before the DSL is imported (it reads CUTE_DSL_ARCH once)
        os.environ["CUTE_DSL_ARCH"] = arch
    if not dsl_available():
        raise InputError(f"the CuTe DSL (nvidia-cutlass-dsl) is not installed; {INSTALL}", "tilecheck cute")
    data = cute_extract.record(path, entries)
    data["file"] = path
    return data


def load_extraction(path: str) -> dict:
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", path) from None
    except ValueError as e:
        raise InputError(f"not JSON: {e}", path) from None
    if not isinstance(data, dict) or not isinstance(data.get("copies"), list):
        raise InputError("not a CuTe DSL extraction (needs a 'copies' list)", path)
    return data


# ---------------------------------------------------------------------------------- CLI
def add_arguments(p):
    p.add_argument("file", metavar="FILE.py", help="a Python file whose tilecheck_* functions cute.compile "
                   "CuTe DSL kernels (or, with --from-json, a recorded extraction)")
    p.add_argument("--entry", action="append", metavar="NAME", help="run this function of FILE.py (repeatable; "
                   "default: every function named tilecheck_*)")
    p.add_argument("--arch", metavar="SM", help="CUTE_DSL_ARCH for the trace, e.g. sm_90a (default: the DSL's)")
    p.add_argument("--from-json", action="store_true", help="FILE is a recorded extraction (--save-extraction)")
    p.add_argument("--save-extraction", metavar="OUT.json", help="write the raw extraction here")
    p.add_argument("--emit-toml", metavar="DIR", help="write each copy's check file into DIR")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS",
                   help="bound on each query (default 10)")
    p.add_argument("--assume-no-overlap", action="store_true", help="assume each global tensor a copy stores to "
                   "does not overlap itself (its dynamic strides ordered, each at least the span of the modes "
                   "before it)")
    p.add_argument("--json", action="store_true", help="one JSON object: summary, cases, trace errors")
    p.add_argument("--format", choices=("text", "json", "sarif", "github"), default=None,
                   help="text (default), json (= --json), sarif or github: each refutation at its cute.copy's line")


def findings(cases: list[Case], errors: list[dict], file: str) -> list:
    """The CI findings (ci_format.Finding): each refuted or unknown obligation at its cute.copy's line, an
    unsupported copy as a note, an entry the DSL could not trace as an error."""
    out = []
    for c in cases:
        r = c.result
        if r.get("verdict") == "unsupported":
            out.append(Finding(c.file, "note", "unsupported", f"{c.entry}: {c.op} not checked: {r['reason']}", c.line))
            continue
        for name, status in r.get("obligations", {}).items():
            if status not in ("refuted", "unknown"):
                continue
            msg = next((m for m in r.get("messages", []) if m.startswith(name)), f"{name} {status}")
            blocking = name in r.get("failed", []) and r["verdict"] == "refuted" and \
                (RECORDS[name].severity == CONTRACT if name in RECORDS else True)
            level = "error" if status == "refuted" and blocking else "warning"
            out.append(Finding(c.file, level, name, f"{c.entry} {c.opcode}: {msg}", c.line, c.index,
                               r.get("counterexample") if level == "error" else None))
    for e in errors:
        out.append(Finding(file, "error", "input", f"{e.get('entry') or '(the file)'}: not traced: {e['message'][:500]}"))
    return out


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def main(args) -> int:
    if args.from_json:
        data = load_extraction(args.file)
    else:
        data = extract(args.file, args.entry, args.arch)
    if args.save_extraction:
        try:
            Path(args.save_extraction).write_text(json.dumps(data, indent=1) + "\n")
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror}", args.save_extraction) from None
    cases, errors = translate(data, data.get("file", args.file), args.assume_no_overlap)
    for c in cases:
        prove_case(c, args.timeout)
    if args.emit_toml:
        out = Path(args.emit_toml)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for c in cases:
                if c.check is not None:
                    (out / _slug(f"{c.entry}_copy{c.index}_line{c.line}.toml")).write_text(
                        to_toml(c.check, comment=f"traced by tilecheck cute from {c.where} ({c.entry}, copy[{c.index}])"))
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror}", args.emit_toml) from None
    summ = summary(cases, errors)
    fmt = args.format or ("json" if args.json else "text")
    if args.json and fmt != "json":
        raise InputError(f"--json and --format {fmt} ask for two outputs", "--format")
    if fmt in ("sarif", "github"):
        from .. import __version__  # computed on first use (importlib.metadata: ~20 ms a command)
        found = findings(cases, errors, data.get("file", args.file))
        if fmt == "sarif":
            print(ci_format.dumps_log(found, __version__))
        else:
            for f in found:
                print(ci_format.annotation(f))
            print(f"{summ['copies']} copies: {summ['proved']} proved, {summ['refuted']} refuted, "
                  f"{summ['unknown']} unknown, {summ['unsupported']} unsupported")
    elif fmt == "json":
        print(json.dumps({"file": data.get("file", args.file), "dsl_version": data.get("dsl_version"),
                          "summary": summ, "trace_errors": errors,
                          "cases": [{"where": c.where, "entry": c.entry, "index": c.index, "op": c.op,
                                     "opcode": c.opcode, "scope": c.scope, "calls": c.calls, **c.result}
                                    for c in cases]}, indent=1))
    else:
        for c in cases:
            r = c.result
            head = f"{c.where}: {c.entry} copy[{c.index}] {c.opcode or c.op}"
            head += f" ({c.scope} scope)" if c.scope else ""
            head += f": {r['verdict']}"
            if r["verdict"] in ("refuted", "unknown"):
                head += f" [{', '.join(r['failed'])}]"
            if c.calls > 1:
                head += f"  ({c.calls} calls)"
            print(head)
            if r["verdict"] == "unsupported":
                print(f"    - {r['reason']}")
            for m in r.get("messages", []):
                print(f"    - {m}")
        for e in errors:
            print(f"{e.get('where') or data.get('file', args.file)}: {e.get('entry') or '(the file)'}: not traced ({e.get('stage', '?')}): "
                  f"{e['message'][:300]}")
        print(f"{summ['copies']} copies ({summ['calls']} cute.copy calls traced): {summ['proved']} proved, "
              f"{summ['refuted']} refuted, {summ['unknown']} unknown, {summ['unsupported']} unsupported; "
              f"{summ['trace_errors']} entries not traced")
    verdicts = [c.result["verdict"] for c in cases]
    if "refuted" in verdicts:
        return 1
    if "unknown" in verdicts:
        return 3
    if not cases and errors:
        return 2
    return 0
