"""The numpy reference: what a check's kernel must leave in every buffer, from the layouts alone.

The kernel's buffers (the emitter's ABI, see docs/gpu.md):

* a memory tensor has a buffer of its element offsets ``[0, cosize)`` (a global
  one ``[0, extent)``: its declared extent, not rounded up to a swizzle's block,
  as a user allocates it); global tensors are accessed in place, shared ones are copied in, used and copied
  back, local ones are filled into every thread's copy and thread 0 copies its
  own back;
* a register tensor has a buffer of its logical shape, row-major: filled into
  the registers first when its first use is a store's source, and written
  back from the registers (every element whose register was written) when an
  application loads into it.

The reference replays the applications in order on that model: a load is a
gather ``register[slot(dst(c))] = memory[offset(src(c))]`` and a store a
scatter ``memory[offset(dst(c))] = register[slot(src(c))]`` over every
coordinate ``c = (*group, *repeat, word)`` of the application, with the
offsets and slots taken from ``View.index`` and the tensors' layouts — the
same concrete semantics the proofs are replayed on, never the emitted code.
Registers are modelled physically, by (owning thread, slot), so two logical
elements that share a slot read the same value, as they do in hardware.

Every buffer is compared bit for bit as unsigned integers of the element's
width.  Inputs are random bits from a seeded generator (never zeros or an
iota); floating-point inputs are never NaN; buffers the kernel must write are
poisoned first with a sentinel that no input can equal (a NaN pattern for
floats), so an element the kernel forgot to write shows up.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from math import prod

import numpy as np

from .. import accesses
from ..check import Apply, Check, Tensor, cta_grid
from ..families import REGISTER
from ..errors import InputError
from .. import oracle
from ..expr import evaluate, holds, names_of
from ..layout import OFFSET

UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}

# Poison patterns: a quiet NaN with a payload for floats, a fixed value for integers.  Random inputs
# are redrawn so that none equals the poison of its type.
SENTINEL = {"float16": 0x7E5A, "bfloat16": 0x7FDA, "float32": 0x7FDEAD5A, "float64": 0x7FFDEAD5A5A5DEAD,
            "int8": 0xA5, "uint8": 0xA5, "int16": 0xA5A5, "uint16": 0xA5A5, "int32": 0xA5A5DEAD,
            "uint32": 0xA5A5DEAD, "int64": 0xA5A5DEADBEEF5A5A, "uint64": 0xA5A5DEADBEEF5A5A}
# (exponent mask, mantissa mask) of the float types, to keep random bits away from NaN
FLOAT_BITS = {"float16": (0x7C00, 0x03FF), "bfloat16": (0x7F80, 0x007F),
              "float32": (0x7F800000, 0x007FFFFF), "float64": (0x7FF0000000000000, 0x000FFFFFFFFFFFFF)}
MAX_LOCAL_ELEMENTS = 1 << 26  # threads x cosize of one local tensor's per-thread copies
# all buffers of one run together, when no device says how much it has free (the runner passes the
# device's free memory instead): sizes and offsets are 64-bit everywhere, in the kernel and here
MAX_CASE_BYTES = 1 << 32


class ReferenceUndefined(Exception):
    """The layouts do not define the kernel's result (an access out of bounds, a race)."""


class BufferTooLarge(Exception):
    """The case's buffers are more than a run can allocate (``max_bytes``: the device's free memory,
    or MAX_CASE_BYTES): huge strides or offsets, or huge symbol values."""


@dataclass
class Case:
    """One kernel run: symbol values, initial buffers and the buffers the reference expects."""
    check: Check
    symbols: dict  # name -> value, every symbol passed as a kernel parameter
    seed: int
    inputs: dict  # tensor name -> initial buffer (unsigned integers of the element's width)
    expected: dict  # tensor name -> expected final buffer
    written: dict  # tensor name -> bool mask: the elements the kernel changes
    grid: int = 1  # CTAs (x); more than one only for ctaid-bound symbols
    ctaid: dict = field(default_factory=dict)  # symbol name -> "ctaid.x" for CTA-bound symbols
    undefined: str | None = None  # why the layouts define no result (then expected is None)
    # tensor -> (residue, modulus) of its buffer's address, for the unchecked run of a refutation that
    # blames the declared ``align``; every other buffer sits at exactly its alignment
    placement: dict = field(default_factory=dict)
    # tensor -> bool mask of the elements whose expected value is a NaN of any payload (a TMA load's
    # NaN fill: the hardware picks the payload); ``compare`` takes any NaN there but the poison
    nan: dict = field(default_factory=dict)

    def params(self) -> list[str]:
        """Kernel parameter names in ABI order: tensors, then the symbols that are parameters."""
        return [*self.check.tensors, *[n for n, s in self.check.symbols.items() if not s.source]]


@dataclass
class Mismatch:
    tensor: str
    position: int  # flat element offset (memory) or row-major index (register) in the buffer
    index: tuple  # the same as a buffer coordinate (register: logical index; memory: (offset,))
    got: int
    want: int
    poison: int

    def __str__(self):
        what = "left unwritten (still poison)" if self.got == self.poison and self.want != self.poison else \
            "written although nothing stores there" if self.want == self.poison else "wrong value"
        where = f"{self.tensor}[{','.join(map(str, self.index))}]" if len(self.index) > 1 else \
            f"{self.tensor} element offset {self.index[0]}"
        return f"{where}: got 0x{self.got:x}, want 0x{self.want:x} ({what})"


@dataclass
class Comparison:
    """The outcome of comparing a run's buffers with the reference."""
    case: Case
    checked: dict  # tensor -> elements compared
    written: dict  # tensor -> elements the kernel had to write
    mismatches: dict  # tensor -> count of differing elements
    first: list  # a few Mismatch values, for the report

    @property
    def ok(self) -> bool:
        return not any(self.mismatches.values())

    def summary(self) -> str:
        if self.ok:
            return (f"{sum(self.checked.values())} elements in {len(self.checked)} buffers equal the numpy "
                    f"reference bit for bit ({sum(self.written.values())} written by the kernel)")
        bad = ", ".join(f"{t}: {n} of {self.checked[t]}" for t, n in self.mismatches.items() if n)
        return f"differs from the numpy reference ({bad}); first: {self.first[0]}"


# symbols ------------------------------------------------------------------

def ctaid_symbols(check: Check) -> dict:
    return {n: s.source for n, s in check.symbols.items() if s.source and s.source.startswith("ctaid.")}


def warpid_symbols(check: Check) -> list[str]:
    """The symbols read from the warp id (``from = "warpid"``): warp k's value is k."""
    return [n for n, s in check.symbols.items() if s.source == "warpid"]


def bind_symbols(check: Check, given: dict | None = None) -> dict:
    """Values for every parameter symbol: ``given`` checked against the symbol's facts and the
    file's assumptions, the smallest allowed value for the rest.  Raises InputError."""
    given = dict(given or {})
    env = {}
    for name in given:
        if name not in check.symbols:
            known = ", ".join(check.symbols) or "none"
            raise InputError(f"unknown symbol {name!r} (the file declares: {known})", "--set")
        if check.symbols[name].source:
            raise InputError(f"symbol {name!r} is bound to {check.symbols[name].register}: the launch sets it",
                             "--set")
    for name, s in check.symbols.items():
        if s.source:
            continue
        if name in given:
            v = given[name]
            if not (s.min <= v <= s.max) or v % s.multiple_of:
                mult = f", a multiple of {s.multiple_of}" if s.multiple_of > 1 else ""
                raise InputError(f"{name}={v} is outside the symbol's facts (min {s.min}, max {s.max}{mult})"
                                 + s.min_note, "--set")
        else:
            v = -(-s.min // s.multiple_of) * s.multiple_of
        env[name] = v
    for cta in _cta_values(check, env):
        _assumptions(check, {**env, **cta}, given)
    return env


def _cta_values(check: Check, env: dict) -> list[dict]:
    """One symbol environment per CTA: ctaid-bound symbols take every value 0..max; a symbol bound to
    ``%cluster_ctarank`` is 0 in every CTA (a run launches no cluster: each CTA is its own one-CTA one)."""
    rank = {n: 0 for n, s in check.symbols.items() if s.source == "ctarank"}
    bound = ctaid_symbols(check)
    if not bound:
        return [dict(rank)]
    if len(bound) > 1 or next(iter(bound.values())) != "ctaid.x":
        raise InputError("only one symbol bound to ctaid.x can be launched (grid (n,1,1))", "symbols")
    name = next(iter(bound))
    s = check.symbols[name]
    cta_grid(check)
    if s.max >= 65536:
        raise InputError(f"symbol {name!r} is bound to %ctaid.x: it needs min = 0, multiple_of = 1 and "
                         f"max < 65536 so that every CTA of the grid (max+1 of them) is covered by the proof"
                         + s.min_note, f"symbols.{name}")
    return [{**rank, name: v} for v in range(s.max + 1)]


def _assumptions(check, env, given):
    for text, lhs, op, rhs in check.assume:
        if not holds(op, evaluate(lhs, env), evaluate(rhs, env)):
            vals = ", ".join(f"{k}={v}" for k, v in env.items())
            hint = "" if set(env) <= set(given) else " (unset symbols take their smallest value: use --set)"
            raise InputError(f"the assumption {text!r} does not hold for {vals}{hint}", "--set")


# values -------------------------------------------------------------------

def storage(t: Tensor):
    """The numpy dtype a tensor's buffer is held and compared in: unsigned, the element's width."""
    return UINT[t.bits]


def poison(t: Tensor, n: int) -> np.ndarray:
    return np.full(n, SENTINEL[t.dtype], dtype=storage(t))


def random_bits(t: Tensor, n: int, rng: np.random.Generator) -> np.ndarray:
    """Random elements of ``t``'s type: never NaN for floats, never the poison."""
    dt = storage(t)
    x = rng.integers(0, np.iinfo(dt).max, size=n, dtype=dt, endpoint=True)
    if t.dtype in FLOAT_BITS:
        e, m = (dt(v) for v in FLOAT_BITS[t.dtype])
        nan = ((x & e) == e) & ((x & m) != 0)
        x[nan] ^= dt(_top_bit(int(e)))  # clear the exponent's top bit: a finite number
    s = dt(SENTINEL[t.dtype])
    x[x == s] ^= dt(1)
    return x


def _top_bit(mask: int) -> int:
    return 1 << (mask.bit_length() - 1)


def rng_for(seed: int, name: str) -> np.random.Generator:
    """One generator per tensor, so adding a tensor does not change the others' inputs."""
    return np.random.default_rng([seed & 0xFFFFFFFFFFFFFFFF, zlib.crc32(name.encode())])


# the model ----------------------------------------------------------------

def buffer_size(t: Tensor, env: dict) -> int:
    """Elements of ``t``'s buffer: a register tensor's logical shape; a global tensor's declared
    extent (``Layout.extent``: the buffer a user allocates, used in place -- a swizzled offset past
    it, which ``bounds`` refutes, reads past the buffer in a forced run); a shared or local tensor's
    cosize (the kernel's own array, rounded up to a swizzle's block, is filled from all of it)."""
    if t.is_register:
        return prod(int(evaluate(s, env)) for s in t.shape)
    if t.scope == "global":
        return int(t.layout.extent(env, t.offset))
    return int(t.layout.cosize(env, t.offset))


def buffer_sizes(check: Check, env: dict) -> dict:
    """Elements of every tensor's buffer at these symbol values (the largest over the CTAs)."""
    ctas = _cta_values(check, env)
    warps = [{n: k for n in warpid_symbols(check)} for k in range(-(-check.threads // 32))]
    sizes = {}
    for name, t in check.tensors.items():  # the largest over the warps (a warp-id symbol in an offset)
        e = {**env, **ctas[-1]}  # one CTA: its own symbols ({} or the cluster rank's 0)
        sizes[name] = max(buffer_size(t, {**e, **w}) for w in warps)
        if len(ctas) > 1 and not t.is_register:
            sizes[name] = max(buffer_size(t, {**env, **c, **w}) for c in ctas for w in warps)
    return sizes


def case_bytes(check: Check, env: dict) -> int:
    """Bytes of all the buffers of one run at these symbol values (guard bytes not counted)."""
    return sum(n * check.tensors[k].esize for k, n in buffer_sizes(check, env).items())


def too_large(check: Check, sizes: dict, max_bytes: int, what: str) -> BufferTooLarge | None:
    total = sum(sizes[n] * t.esize for n, t in check.tensors.items())
    if total <= max_bytes:
        return None
    big = max(sizes, key=lambda n: sizes[n] * check.tensors[n].esize)
    return BufferTooLarge(f"{big}: its buffer would hold {sizes[big]} elements (the layout's cosize): "
                          f"{total / 2**30:.3g} GiB in all, more than {what}")


def roles(check: Check) -> dict:
    """Per tensor: 'input' (random data) or 'output' (poisoned).  Memory: input when first loaded from,
    output when first stored to.  Registers: input when the kernel first fills them from the buffer
    (first use is a store's source, or a load with ``preserve_dst``), output when first loaded into."""
    out = {}
    for a in check.applies:
        mem, reg = a.memory.tensor, a.register.tensor
        out.setdefault(mem, "input" if a.is_load or a.family.updates_memory else "output")
        out.setdefault(reg, "output" if a.is_load and not a.family.keeps_registers(a) else "input")
    for n in check.tensors:
        out.setdefault(n, "input")
    return out


def _coords(shape) -> list[np.ndarray]:
    grid = np.indices(tuple(shape), dtype=np.int64).reshape(len(shape), -1)
    return list(grid)


def _index(view, coords, env) -> tuple:
    idx = oracle.view_index(view, coords, env)
    n = len(coords[0])
    return tuple(np.broadcast_to(np.asarray(i, dtype=np.int64), (n,)) for i in idx)


def _evaluate_layout(t: Tensor, index, env) -> dict:
    comps = oracle.layout_value(t.layout, index, env, t.offset)
    n = len(index[0]) if len(index) else 1
    return {k: np.broadcast_to(np.asarray(v, dtype=np.int64), (n,)) for k, v in comps.items()}


class _Registers:
    """A register tensor's state: one value per physical register (owning thread, slot)."""

    def __init__(self, t: Tensor, env: dict):
        self.t = t
        self.shape = tuple(int(evaluate(s, env)) for s in t.shape)
        idx = _coords(self.shape)
        comps = _evaluate_layout(t, idx, env)
        zero = np.zeros(len(idx[0]) if idx else 1, dtype=np.int64)
        thread = 32 * comps.get("warpid", zero) + comps.get("laneid", zero) + comps.get("tid", zero)
        keys = np.stack([thread, comps[OFFSET]], axis=1)
        _, self.phys = np.unique(keys, axis=0, return_inverse=True)  # element (row-major) -> register
        self.phys = self.phys.reshape(-1)
        n = int(self.phys.max()) + 1 if self.phys.size else 0
        self.value = np.zeros(n, dtype=storage(t))
        self.defined = np.zeros(n, dtype=bool)
        self.loaded = np.zeros(self.phys.size, dtype=bool)  # elements some loading application names

    def flat(self, index) -> np.ndarray:
        for i, (k, e) in enumerate(zip(index, self.shape)):
            if np.any((k < 0) | (k >= e)):
                raise ReferenceUndefined(f"{self.t.name}: logical index out of its shape on axis {i}")
        return np.ravel_multi_index(tuple(index), self.shape)

    def fill(self, flat: np.ndarray, buf: np.ndarray):
        r = self.phys[flat]
        self.value[r] = buf[flat]
        self.defined[r] = True

    def write(self, flat: np.ndarray, values: np.ndarray):
        r = self.phys[flat]
        self.value[r] = values
        self.defined[r] = True

    def read(self, flat: np.ndarray) -> np.ndarray:
        r = self.phys[flat]
        if not self.defined[r].all():
            raise ReferenceUndefined(f"a store reads registers of {self.t.name} that nothing wrote")
        return self.value[r]

    def result(self, buf: np.ndarray) -> np.ndarray:
        """The buffer after the write-back of every element a loading application names."""
        out = buf.copy()
        r = self.phys[self.loaded]
        if not self.defined[r].all():
            raise ReferenceUndefined(f"the kernel writes back registers of {self.t.name} that nothing wrote "
                                     f"(a load whose predicate is false, without preserve_dst)")
        out[self.loaded] = self.value[r]
        return out


class _Memory:
    """A memory tensor's state; local memory keeps one copy per thread.  ``nan``: the elements that
    hold a NaN of any payload (a fill, ``Family.moves``), or None."""

    def __init__(self, t: Tensor, buf: np.ndarray, threads: int, nan: np.ndarray | None = None):
        self.t, self.size = t, len(buf)
        self.nan = None if nan is None else nan.copy()
        if t.scope == "local":
            if threads * self.size > MAX_LOCAL_ELEMENTS:
                raise ReferenceUndefined(f"{t.name}: {threads} local copies of {self.size} elements is too many")
            self.data = np.tile(buf, (threads, 1))
        else:
            self.data = buf.copy()

    def _check(self, off):
        bad = (off < 0) | (off >= self.size)
        if bad.any():
            o = int(off[bad][0])
            raise ReferenceUndefined(f"{self.t.name}: element offset {o} is outside [0, {self.size})")

    def gather(self, off, threads) -> np.ndarray:
        self._check(off)
        if self.t.scope != "local":
            return self.data[off]
        vals = self.data[threads, off[None, :]]  # (replicas, coordinates)
        if (vals != vals[:1]).any():
            raise ReferenceUndefined(f"threads that share registers load different values from local {self.t.name}")
        return vals[0]

    def scatter(self, off, threads, values):
        self._check(off)
        if self.t.scope != "local":
            if _collide(off):
                raise ReferenceUndefined(f"a store writes one element of {self.t.name} twice")
            self.data[off] = values
            if self.nan is not None:
                self.nan[off] = False
        else:
            t2 = np.broadcast_to(threads, (threads.shape[0], off.shape[0]))
            self.data[t2, off[None, :]] = values[None, :]

    def result(self) -> np.ndarray:
        return (self.data[0] if self.t.scope == "local" else self.data).copy()

    def move(self, mv, src: "_Memory"):
        """``Family.moves``: the elements ``mv.dst`` take ``src``'s ``mv.src`` where ``mv.read``, the fill
        elsewhere (a NaN of any payload: the type's quiet NaN here, marked in ``nan``)."""
        dst, read = np.asarray(mv.dst, dtype=np.int64), np.asarray(mv.read, dtype=bool)
        values = np.zeros(len(dst), dtype=self.data.dtype)
        values[read] = src.gather(np.asarray(mv.src, dtype=np.int64)[read], None)
        if mv.fill is None:  # nothing is written where nothing is read
            self.scatter(dst[read], None, values[read])
            return
        if mv.fill == "nan":
            if self.t.dtype not in FLOAT_BITS:
                raise ReferenceUndefined(f"a NaN fill of {self.t.name}, a {self.t.dtype} tensor")
            e, m = FLOAT_BITS[self.t.dtype]
            values[~read] = e | m
        else:
            values[~read] = mv.fill
        self.scatter(dst, None, values)
        if mv.fill == "nan" and (~read).any():
            if self.nan is None:
                self.nan = np.zeros(self.size, dtype=bool)
            self.nan[dst[~read]] = True


def _collide(off) -> bool:
    return len(np.unique(off)) != len(off)


def _issuers(check: Check, a: Apply, group, warp: int | None = None) -> np.ndarray:
    """Thread ids executing each coordinate: shape (replicas, coordinates); ``warp``: that warp's only
    (a warp-id symbol: only thread- and warp-sized groups take one, ``check._warp_uses``)."""
    shape = check.group_shape(a.scope)
    if not shape:  # one thread per group: every thread executes every coordinate
        if warp is None:
            return np.arange(check.threads, dtype=np.int64)[:, None]
        return np.arange(32 * warp, min(32 * warp + 32, check.threads), dtype=np.int64)[:, None]
    inner = group[-1] + (32 * group[0] if len(shape) == 2 else 0)  # the thread within its group
    span = prod(shape)  # one replica per group of the CTA (a warp: each warp; the CTA: one)
    out = span * np.arange(check.threads // span, dtype=np.int64)[:, None] + inner[None, :]
    if warp is not None and span == 32:  # a warp-sized group: that warp's replica
        return out[warp:warp + 1]
    return out


def _apply_per_warp(check: Check, a: Apply, env: dict, mems: dict, regs: dict, names: list[str]):
    """An application whose memory operand starts at a warp-id symbol: each warp at its own value,
    one after the other; two warps writing one element (not a reduction) is a race."""
    warps = -(-check.threads // 32)
    envs = [{**env, **{n: k for n in names}} for k in range(warps)]
    if a.is_load and not _copies(a) and warps > 1:
        raise ReferenceUndefined(f"apply[{a.index}]: each warp loads its own tile (a warp-id symbol) into one "
                                 f"register tile {a.register.tensor}: its write-back races")
    t = check.tensors[a.dst.tensor]
    if t.scope != "local" and not a.family.updates_memory:  # a reduction may meet itself
        coords = _coords(a.dst.shape)
        offs = []
        for e in envs:
            off = _evaluate_layout(t, _index(a.dst, coords, e), e)[OFFSET]
            crossing = accesses.role_of(a, a.dst)
            if crossing.values is not None:  # the atom crosses lanes: each row from its origin
                off = _row_offsets(crossing, off, a.dst.shape)
            m = _inside(check, a, coords, e)
            offs.append(off if m is None else off[m])
        if _collide(np.concatenate(offs)):
            raise ReferenceUndefined(f"a store writes one element of {t.name} twice (two warps)")
    for k, e in enumerate(envs):
        _apply(check, a, e, mems, regs, warp=k)


def reference(check: Check, symbols: dict | None = None, seed: int = 0, strict: bool = True,
              pred: bool = True, max_bytes: int | None = None) -> Case:
    """The initial and the expected buffers of ``check``'s kernel for these symbol values and seed.

    ``symbols`` must bind every parameter symbol (see ``bind_symbols``).  When the layouts do not
    determine the result (only for plans that are not proved: an access out of bounds, a race),
    raises ReferenceUndefined, or with ``strict=False`` returns the inputs with ``expected`` None
    and the reason in ``undefined``.  ``pred`` is the value of the predicate guarding the
    applications with ``pred = true`` (the emitter's ``kernel(plan, pred=...)``).  ``max_bytes``
    bounds all the buffers together (the runner passes the device's free memory; default
    MAX_CASE_BYTES): more raises BufferTooLarge before anything is allocated.
    """
    env = dict(symbols if symbols is not None else bind_symbols(check))
    ctas = _cta_values(check, env)
    role = roles(check)
    inputs, sizes = {}, buffer_sizes(check, env)
    limit = MAX_CASE_BYTES if max_bytes is None else max_bytes
    err = too_large(check, sizes, limit, f"the {MAX_CASE_BYTES >> 30} GiB a run allocates" if max_bytes is None
                    else f"the {limit / 2**30:.3g} GiB of free device memory")
    if err:
        raise err
    for name, t in check.tensors.items():
        a = next((a for a in check.applies if name in (a.dst.tensor, a.src.tensor)), None)
        own = a.family.inputs(a, t, sizes[name], rng_for(seed, name)) if a and role[name] == "input" else None
        inputs[name] = (own if own is not None else random_bits(t, sizes[name], rng_for(seed, name))
                        if role[name] == "input" else poison(t, sizes[name]))
    expected = {n: b.copy() for n, b in inputs.items()}
    try:
        if len(ctas) > 1 and any(check.tensors[a.dst.tensor].scope != "global" for a in check.applies):
            # (what an application writes is its dst: a register tile, a shared box, a local array; the kernel
            # copies each back to one buffer from every CTA)
            raise ReferenceUndefined("several CTAs copy back one shared/local/register buffer: the result is a race")
        nan: dict = {}
        for cta in ctas:
            _simulate(check, {**env, **cta}, inputs, expected, pred, nan)
    except ReferenceUndefined as e:
        if strict:
            raise
        return Case(check, env, seed, inputs, None, None, len(ctas), ctaid_symbols(check), str(e))
    written = {n: expected[n] != inputs[n] for n in inputs}
    return Case(check, env, seed, inputs, expected, written, len(ctas), ctaid_symbols(check), nan=nan)


def _simulate(check: Check, env: dict, inputs: dict, expected: dict, pred: bool, nan: dict):
    mems, regs = {}, {}
    for name, t in check.tensors.items():
        if t.is_register:
            regs[name] = _Registers(t, env)
        else:
            # global tensors see the previous CTAs' stores; shared/local start from the buffer
            glob = t.scope == "global"
            mems[name] = _Memory(t, expected[name] if glob else inputs[name], check.threads,
                                 nan.get(name) if glob else None)
    first = set()
    for a in check.applies:  # the fill: the first application's register elements, from the buffer
        if _copies(a):
            continue
        name = a.register.tensor
        if name not in first:
            first.add(name)
            if not a.is_load or a.family.keeps_registers(a):
                regs[name].fill(_register_elements(check, a, env, regs[name]), inputs[name])
    for a in check.applies:
        if a.is_load:
            regs[a.register.tensor].loaded[_register_elements(check, a, env, regs[a.register.tensor])] = True
        if "predicate" in a.family.uses(a) and not pred:
            continue  # predicated off: the instruction does nothing
        _apply(check, a, env, mems, regs)
    for name, m in mems.items():
        expected[name] = m.result()
        if m.nan is not None and m.nan.any():
            nan[name] = m.nan
    last = {a.register.tensor: a for a in check.applies}
    for name, r in regs.items():
        if r.loaded.any() and last[name].is_load:  # a tile a later store consumed is not written back
            expected[name] = r.result(expected[name])


def _register_elements(check: Check, a: Apply, env: dict, reg: "_Registers") -> np.ndarray:
    return reg.flat(_index(a.register, _coords(a.memory.shape), env))


def _copies(a: Apply) -> bool:
    """Both operands are memory (cp.async): the instruction copies src to dst, no registers."""
    return not any(x.kind == REGISTER for x in _accesses(a))


def _accesses(a: Apply) -> tuple:
    """``a``'s accesses as its family's roles declare them (``accesses.py``; a check's own list needs
    the check, the roles' data is all the reference reads)."""
    return a.family.roles(a.opcode)


def _inside(check: Check, a: Apply, coords, env: dict) -> np.ndarray | None:
    """``guard = true``: per coordinate, whether its whole atom (every word's logical index on every
    axis in [0, extent)) lies inside the guarded tensor -- a copy's source, else the memory
    operand's.  None without a guard (everything runs)."""
    role = accesses.guarded_role(a)
    if role is None:
        return None
    view = getattr(a, role)
    t = check.tensors[view.tensor]
    ok = np.ones(len(coords[0]), dtype=bool)
    for i, d in zip(_index(view, coords, env), t.shape):
        ok &= (i >= 0) & (i < int(evaluate(d, env)))
    words = view.shape[-1]
    return np.repeat(ok.reshape(-1, words).all(axis=1), words)


def _some(issuers: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The issuers of the coordinates ``m`` selects (a thread-scope column serves them all)."""
    return issuers if issuers.shape[1] == 1 else issuers[:, m]


def _apply(check: Check, a: Apply, env: dict, mems: dict, regs: dict, warp: int | None = None):
    names = warpid_symbols(check)
    if warp is None and len(check.group_shape(a.scope)) < 2 and set(names) & {  # thread or warp groups
            n for v in (a.dst, a.src) for x in (*v.starts, check.tensors[v.tensor].offset) for n in names_of(x)}:
        return _apply_per_warp(check, a, env, mems, regs, names)
    moved = a.family.moves(check, a, env)
    if moved is not None:  # an engine copy its views do not describe (a TMA box): the family's elements
        mems[a.dst.tensor].move(moved, mems[a.src.tensor])
        return
    if _copies(a):  # gather every atom from src, scatter it to dst
        coords = _coords(a.dst.shape)
        issuers = _issuers(check, a, coords[:len(check.group_shape(a.scope))], warp)
        dst_t, src_t = check.tensors[a.dst.tensor], check.tensors[a.src.tensor]
        so = _evaluate_layout(src_t, _index(a.src, coords, env), env)[OFFSET]
        do = _evaluate_layout(dst_t, _index(a.dst, coords, env), env)[OFFSET]
        m = _inside(check, a, coords, env)
        if m is None:
            values = mems[src_t.name].gather(so, issuers)
        else:  # src-size 0 outside: nothing is read, the destination atom is zero-filled
            values = np.zeros(len(so), dtype=mems[src_t.name].data.dtype)
            values[m] = mems[src_t.name].gather(so[m], _some(issuers, m))
        a.family.reference(a, mems[dst_t.name], do, issuers, values)
        return
    coords = _coords(a.memory.shape)
    g = len(check.group_shape(a.scope))
    issuers = _issuers(check, a, coords[:g], warp)
    mem_t, reg_t = check.tensors[a.memory.tensor], check.tensors[a.register.tensor]
    off = _evaluate_layout(mem_t, _index(a.memory, coords, env), env)[OFFSET]
    crossing = accesses.role_of(a, a.memory)
    if crossing.values is not None:  # the atom crosses lanes: each row from its origin (the declared layout)
        off = _row_offsets(crossing, off, a.memory.shape)
    reg = regs[reg_t.name]
    flat = reg.flat(_index(a.register, coords, env))
    m = _inside(check, a, coords, env)
    if m is not None:  # guard = true: a guarded-out atom does not execute
        if a.family.zeroes(a):  # ... and its destination registers are zero
            reg.write(flat[~m], np.zeros(int((~m).sum()), dtype=reg.value.dtype))
        off, flat, issuers = off[m], flat[m], _some(issuers, m)
    if a.is_load:
        reg.write(flat, mems[mem_t.name].gather(off, issuers))
    else:  # the family says what a write does to memory (a store scatters)
        a.family.reference(a, mems[mem_t.name], off, issuers, reg.read(flat))


def _row_offsets(role, off: np.ndarray, shape) -> np.ndarray:
    """What an instruction whose atoms cross lanes reaches (ldmatrix/stmatrix: lane ``8*i + r`` gives
    the address of row r of matrix i, the 8 elements from there), as its role's thread-value layout
    declares it (``families.Role.values``): the element at view coordinates (lane t, word k) is
    position p of address lane L's atom (``holds``), read from where the view puts that atom's
    position 0 (``origin``) plus p.  ``off``: the element offset of every coordinate (lane, *repeat,
    word), row-major (equal to the result when the rows are contiguous)."""
    lanes, words = shape[0], shape[-1]
    grid = off.reshape(lanes, -1, words)
    dom = oracle.Ints()
    (row,), col = role.holds([np.arange(lanes)[:, None]], np.arange(words)[None, :], dom)
    (lane0,), word0 = role.origin([row], dom)
    lane0, word0, col = (np.broadcast_to(np.asarray(x), (lanes, words)) for x in (lane0, word0, col))
    start = grid[lane0, :, word0]  # (lanes, words, repeats)
    return (np.moveaxis(start, 2, 1) + col[:, None, :]).reshape(-1)


# comparison ---------------------------------------------------------------

def compare(case: Case, outputs: dict, limit: int = 5) -> Comparison:
    """Compare a run's final buffers with the reference, bit for bit."""
    checked, written, mismatches, first = {}, {}, {}, []
    for name, want in case.expected.items():
        t = case.check.tensors[name]
        got = np.asarray(outputs[name]).view(storage(t)).reshape(-1)
        if got.shape != want.shape:
            raise ValueError(f"{name}: got {got.shape[0]} elements, the reference has {want.shape[0]}")
        differ = got != want
        if name in case.nan:  # a NaN fill: any NaN of the type but the poison
            differ &= ~(case.nan[name] & _is_nan(got, t.dtype) & (got != storage(t)(SENTINEL[t.dtype])))
        bad = np.flatnonzero(differ)
        checked[name], written[name], mismatches[name] = want.size, int(case.written[name].sum()), len(bad)
        for p in bad[:max(0, limit - len(first))]:
            index = (tuple(int(i) for i in np.unravel_index(p, _shape(t, case.symbols))) if t.is_register
                     else (int(p),))
            first.append(Mismatch(name, int(p), index, int(got[p]), int(want[p]), SENTINEL[t.dtype]))
    return Comparison(case, checked, written, mismatches, first)


def _is_nan(bits: np.ndarray, dtype: str) -> np.ndarray:
    if dtype not in FLOAT_BITS:
        return np.zeros(bits.shape, dtype=bool)
    e, m = (bits.dtype.type(v) for v in FLOAT_BITS[dtype])
    return ((bits & e) == e) & ((bits & m) != 0)


def _shape(t: Tensor, env: dict) -> tuple:
    return tuple(int(evaluate(s, env)) for s in t.shape)
