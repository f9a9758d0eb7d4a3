"""TMA tile copies, ``cp.async.bulk.tensor.{1..5}d``: one thread gives the copy engine a tensor map, the
box's start coordinates and a shared address; the engine moves the whole box (docs/tma.md, "Copies").

Global -> shared (a load): ``cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::complete_tx::bytes
{.multicast::cluster}{.L2::cache_hint} [dst], [map, {c0, ...}], [mbar]{, cta_mask}{, policy}``: the box
lands in ``dst`` and its bytes complete on the mbarrier's transaction count (``expect_tx``).  Shared ->
global (a store): ``cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group{.L2::cache_hint}
[map, {c0, ...}], [src]``.  The spelling and the legal set are PTX ISA 8.0's (sm_90; ``.version`` 8.0),
tile mode only (no ``.im2col``, ``.cta_group``, ``.gather4``).  ptxas 13.0 takes the qualifiers in any
order but the two spaces' (destination first), so tilecheck does too (``tests/test_tma_family.py``
holds the legal set and the ``.version`` to ptxas); it warns that ``.multicast::cluster`` belongs to
``sm_90a`` (accepted on ``sm_90`` all the same).

An ``[[apply]]`` names the opcode, the shared tensor (``dst`` of a load, ``src`` of a store: its
declared layout is the consumer's view of the landed box), the global tensor (the other operand;
its view is not read: the tensor map and ``coords`` say what moves) and the keys ``tensormap`` (a
``[tensormaps.NAME]`` of the file, describing the global tensor), ``coords`` (one expression of the
symbols per dimension, innermost first, in elements), ``expect_tx`` (a load: the byte count the
kernel's ``mbarrier.arrive.expect_tx`` declares for the phase this copy completes on) and
``cta_mask`` (with ``.multicast::cluster``: the 16-bit mask of the cluster's CTAs the box lands in).
One thread issues the copy (scope ``thread``).

The obligations are the family's own (``proofs/tma_*.py``, docs/check-file.md): ``tma_map`` (the
apply, the map and the tensors agree), ``tma_inner`` (the innermost coordinate a multiple of 16
bytes), ``tma_smem`` (the shared address 128-byte aligned, and where a swizzle's pattern is anchored
known), ``tma_landing`` (the shared tensor's declared layout is where TMA writes each box element),
``tma_tx`` (``expect_tx`` is the bytes delivered, summed over the loads of its ``phase``:
``families/mbarrier.py``), ``tma_box`` (the box inside the tensor, a performance/information
obligation: TMA fills the rest) and, of a multicast load only, ``tma_multicast`` (the mask inside the
cluster, the slices of two ranks in disjoint shared bytes: ``from = "ctarank"`` symbols).  The decider's restatement of each is
``RULES`` below, written apart from the proofs on purpose (no evaluation code shared).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product

import numpy as np

from .. import oracle  # the oracles' evaluator of declared layouts (the decider's rules below; not crd2idx)
from .. import tma_landing as landing
from ..errors import InputError
from ..expr import evaluate, names_of, parse_expr
from ..opcodes import OpcodeError, needs
from . import MEMORY, READ, WRITE, Family, Moves, Role, mbarrier

LOAD_COMPLETION, STORE_COMPLETION = "mbarrier::complete_tx::bytes", "bulk_group"
DIMS = ("1d", "2d", "3d", "4d", "5d")
GROUPS = {"dim": DIMS, "space": ("shared::cluster", "shared::cta", "global"), "mode": ("tile",),
          "completion": (LOAD_COMPLETION, STORE_COMPLETION), "multicast": ("multicast::cluster",),
          "hint": ("L2::cache_hint",)}
GROUP_OF = {q: g for g, qs in GROUPS.items() for q in qs}
VERSIONS = (("cp.async.bulk.tensor", lambda op: True, (8, 0)),)
OBLIGATIONS = ("target", "tma_map", "tma_region", "tma_inner", "tma_store_edge", "tma_disjoint", "tma_smem", "tma_landing",
               "tma_tx", "tma_box", "tma_multicast")


@dataclass(frozen=True)
class TmaOpcode:
    text: str
    kind: str  # "cp.async.bulk.tensor"
    space: str | None  # the shared side's state space, as spelled
    qualifiers: tuple[str, ...]
    rank: int = 0
    load: bool = True  # global -> shared (else shared -> global)
    # bound from the [[apply]] table (FAMILY.bind)
    tensormap: str = ""
    coords: tuple = ()
    expect_tx: object = None
    cta_mask: int | None = None
    bits: int = 0
    vector: int = 1  # one thread gives one address: the box is the engine's, not the thread's
    cache_hint: bool = False
    phase: str | None = None  # the mbarrier phase it completes on with other loads (families/mbarrier.py)

    def first(self, group):
        return next((q for q in self.qualifiers if GROUP_OF.get(q) == group), None)

    @property
    def multicast(self) -> bool:
        return self.first("multicast") is not None

    @property
    def fan_in(self) -> int:
        """CTAs the box lands in (each completes its own mbarrier with the box's bytes)."""
        return bin(self.cta_mask).count("1") if self.multicast and self.cta_mask else 1


def parse(text: str) -> TmaOpcode:
    parts = text.strip().split(".")
    if parts[:4] != ["cp", "async", "bulk", "tensor"]:
        raise OpcodeError(f"{text!r} is not a cp.async.bulk.tensor instruction")
    quals = tuple(parts[4:])
    for q in quals:
        if q in ("im2col", "im2col_no_offs", "tile::gather4", "tile::scatter4") or q.startswith("cta_group"):
            raise OpcodeError(f"{text!r}: tilecheck's TMA family models tile mode only (.{q})")
        if q not in GROUP_OF:
            raise OpcodeError(f"unknown qualifier '.{q}' in {text!r}" if q else f"empty qualifier in {text!r}")
    dim = next((q for q in quals if GROUP_OF[q] == "dim"), None)
    spaces = [q for q in quals if GROUP_OF[q] == "space"]
    load = bool(spaces) and spaces[0] != "global"
    shared = next((s for s in spaces if s != "global"), None)
    return TmaOpcode(text.strip(), "cp.async.bulk.tensor", shared, quals, int(dim[0]) if dim else 0, load,
                     cache_hint="L2::cache_hint" in quals)


def load_spelling(rank: int) -> str:
    """The tile-mode load of a rank-``rank`` box that completes on an mbarrier (what a GEMM mainloop issues:
    ``tilecheck/mainloop.py`` proves it as an apply, ``emit/mainloop.py`` spells it with ``Tma.spell``)."""
    return f"cp.async.bulk.tensor.{DIMS[rank - 1]}.shared::cluster.global.tile.{LOAD_COMPLETION}"


def legality(op, arch) -> str | None:
    dims = [q for q in op.qualifiers if GROUP_OF[q] == "dim"]
    return mbarrier.copy_problem(
        op, arch, GROUP_OF, GROUPS, before=[(len(dims) != 1, "needs exactly one of .1d .. .5d")],
        after=[(op.multicast and not op.load, ".multicast::cluster is a load's (global -> shared::cluster)")])


def ptx_version(op, arch) -> tuple[int, int]:
    return needs(VERSIONS, op, arch)


def _expr(x, where):
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise InputError(f"must be an integer or an expression of the symbols, got {x!r}", where)
    return parse_expr(x, where)


class Tma(Family):
    name = "cp.async.bulk.tensor"
    instructions = ("cp.async.bulk.tensor",)
    groups = ("thread",)  # one thread issues a copy; the box is the engine's
    keys = {"tensormap": None, "coords": None, "expect_tx": None, "cta_mask": None, "phase": None}
    obligations = OBLIGATIONS
    verbs = ("reads", "copies to")
    form = "cp.async.bulk.tensor.Nd (tile)"
    pictured = False  # the box is the engine's copy, placed by the tensor map: no thread's elements to draw

    def roles(self, op):
        if op.load:
            return Role("dst", MEMORY, ("shared",), WRITE), Role("src", MEMORY, ("global",), READ)
        return Role("dst", MEMORY, ("global",), WRITE), Role("src", MEMORY, ("shared",), READ)

    def memory_role(self, op):
        return "dst" if op.load else "src"  # the shared side: its layout is the one the obligations hold

    parse = staticmethod(parse)
    legality = staticmethod(legality)
    ptx_version = staticmethod(ptx_version)
    versions = VERSIONS

    def bind(self, op, spec, tensors, views):
        """The opcode with the apply's tensor map name, coordinates, ``expect_tx`` and ``cta_mask``."""
        name = spec.get("tensormap")
        if not isinstance(name, str) or not name:
            raise InputError("a TMA copy needs tensormap = \"NAME\" (a [tensormaps.NAME] of the file)", "tensormap")
        coords = spec.get("coords")
        if not isinstance(coords, list) or not coords:
            raise InputError("coords must be a list of the box's start coordinates, innermost first, in elements",
                             "coords")
        if op.rank and len(coords) != op.rank:
            raise InputError(f"coords has {len(coords)} entries, the opcode's .{op.rank}d needs {op.rank}", "coords")
        cs = tuple(_expr(c, f"coords[{k}]") for k, c in enumerate(coords))
        tx = spec.get("expect_tx")
        if op.load and tx is None and spec.get("phase") is None:  # a phase's: families/mbarrier.py
            raise InputError("a TMA load needs expect_tx: the bytes the kernel's mbarrier.arrive.expect_tx "
                             "declares for the phase the copy completes on", "expect_tx")
        if not op.load and tx is not None:
            raise InputError("expect_tx is a load's (an mbarrier's byte count); a store completes with .bulk_group",
                             "expect_tx")
        tx = None if tx is None else _expr(tx, "expect_tx")
        mask = spec.get("cta_mask")
        if op.multicast != (mask is not None):
            raise InputError("cta_mask goes exactly with .multicast::cluster", "cta_mask")
        if mask is not None and (isinstance(mask, bool) or not isinstance(mask, int) or not 1 <= mask < 2**16):
            raise InputError(f"cta_mask must be a 16-bit mask of the cluster's CTAs (1 .. 65535), got {mask!r}",
                             "cta_mask")
        shared = views["dst" if op.load else "src"]
        t = tensors.get(shared.tensor)
        return replace(op, tensormap=name, coords=cs, expect_tx=tx, cta_mask=mask, bits=t.bits if t else 0,
                       phase=mbarrier.phase_key(spec, op.load))

    def operand_facts(self, a):
        op = a.opcode
        return {"tensormap": op.tensormap, "coords": [str(c) for c in op.coords],
                "expect_tx": None if op.expect_tx is None else str(op.expect_tx), "cta_mask": op.cta_mask,
                **({"phase": op.phase} if op.phase is not None else {})}

    def applicable(self, op):
        """``tma_multicast`` is a multicast load's only, ``tma_store_edge`` and ``tma_disjoint`` a store's."""
        skip = {"tma_store_edge", "tma_disjoint"} if op.load else {"tma_multicast"}
        if not op.multicast:
            skip.add("tma_multicast")
        return tuple(n for n in self.obligations if n not in skip)

    def check_applies(self, applies, symbols):
        """The mbarrier phases (``phase``): one ``expect_tx`` per phase, over every family's loads."""
        return mbarrier.check_phases(applies, symbols)

    @staticmethod
    def spelling(rank: int, load: bool = True, multicast: bool = False) -> str:
        """The opcode of a tile-mode copy of ``rank`` dimensions: a load completing on an mbarrier (multicast
        or not), or a store completing on a bulk group (``tmap_strategies.tma_checks`` draws them)."""
        if load:
            return load_spelling(rank) + (".multicast::cluster" if multicast else "")
        return f"cp.async.bulk.tensor.{rank}d.global.shared::cta.tile.{STORE_COMPLETION}"

    @staticmethod
    def spell(op, shared: str, tmap: str, coords, mbar: str = "", mask: str = "", policy: str = "") -> str:
        """One copy's PTX line given its operands' registers: ``shared`` (a .b32 shared address),
        ``tmap`` (the tensor map's generic address, .b64), ``coords`` (.b32 registers, innermost first),
        ``mbar`` (a load's mbarrier, .b32 shared address), ``mask`` (.b16 with .multicast::cluster),
        ``policy`` (.b64 with .L2::cache_hint).  ``tests/test_tma_family.py`` holds it to ptxas."""
        box = f"[{tmap}, {{{', '.join(coords)}}}]"
        extra = ([mask] if op.multicast else []) + ([policy] if op.cache_hint else [])
        operands = [f"[{shared}]", box, f"[{mbar}]"] if op.load else [box, f"[{shared}]"]
        return f"\t{op.text} " + ", ".join(operands + extra) + ";"

    def uses(self, a):
        return ("policy",) if a.opcode.cache_hint else ()

    def tensormaps(self, a):
        return (a.opcode.tensormap,)

    def unemitted(self, apply, check=None) -> str:
        """A multicast copy needs a cluster launch; the copies of a ``phase`` are emitted only as
        consecutive applications (``mbarrier.separated``)."""
        if apply.opcode.multicast:
            return "tilecheck does not emit .multicast::cluster copies yet (the kernel would need a cluster launch)"
        return mbarrier.separated(check, apply)

    def lower(self, a, k):
        """``mbarrier.lower_copy``: one thread issues the copy, the phase's first declares its bytes, every
        thread waits after the phase's last.  The shared address is the tensor's unswizzled start (TMA
        swizzles the address itself), the coordinates registers computed from the symbols."""
        op = a.opcode
        why = self.unemitted(a, k.check)
        if why:
            raise InputError(f"{op.text}: {why}", f"apply[{a.index}]")
        smem = k.start((a.dst if op.load else a.src).tensor)
        tmap = k.tensormap(op.tensormap)
        coords = [k.register(c, 32) for c in op.coords]
        policy = k.policy if op.cache_hint else ""
        return mbarrier.lower_copy(a, k, lambda mbar: self.spell(op, smem, tmap, coords, mbar, policy=policy), "tma")

    def moves(self, check, a, env):
        """The box, element by element (the numpy reference): TMA's landing model (``tma_landing.TmaBox``)
        places visited element ``k`` at the shared tensor's start plus its offset, swizzled as an
        address (the tensor's base is a multiple of its ``align``, which ``tma_smem`` holds to the
        pattern's repeat: the pattern starts at the buffer's start); it reads the global tensor at
        the map's address (the tensor's base plus ``offset`` elements) plus ``sum(coord[i] *
        stride[i])`` bytes.  A load fills the elements outside the tensor (zero, or a NaN with
        ``oob_fill = "nan"``); a store does not write them."""
        op = a.opcode
        m = check.tensormaps[op.tensormap]
        arg = m.at(env)
        s = check.tensors[(a.dst if op.load else a.src).tensor]
        e = s.esize
        box = landing.TmaBox(e, tuple(arg["box"]), tuple(arg["element_strides"]), m.swizzle)
        k = [x.reshape(-1) for x in np.indices(box.shape[::-1])[::-1]]  # innermost first, dimension 0 fastest
        shared = box.address(evaluate(s.offset, env) * e, k) // e
        coords = box.source([evaluate(c, env) for c in op.coords], k)
        inside = np.ones(len(shared), dtype=bool)
        byte = arg["address_offset"] + coords[0] * e
        for i, c in enumerate(coords):
            inside &= (c >= 0) & (c < arg["dims"][i])
            if i:
                byte = byte + c * arg["strides"][i - 1]
        glob = byte // e
        if op.load:
            return Moves(shared, glob, inside, "nan" if m.oob_fill == "nan" else 0)
        return Moves(glob, shared, inside, None)




# --- the decider's restatement (tilecheck/decide.py reads RULES): each rule by enumeration at one symbol
# assignment, written apart from proofs/tma_*.py on purpose; a rule returns a witness dict or None ---

_BITS = {"none": 0, "32B": 1, "64B": 2, "128B": 3}


def _parts(check, apply, env):
    op = apply.opcode
    m = check.tensormaps.get(op.tensormap)
    shared = apply.dst if op.load else apply.src
    return op, m, check.tensors[shared.tensor], check.tensors[(apply.src if op.load else apply.dst).tensor]


def _visits(m, env):
    box = [evaluate(b, env) for b in m.box]
    es = [evaluate(e, env) for e in m.element_strides]
    return [box[0]] + [-(-b // e) for b, e in zip(box[1:], es[1:])], [1] + es[1:]


def decide_map(check, apply, env):
    op, m, s, g = _parts(check, apply, env)
    if m is None:
        return {"tensormap": op.tensormap, "reason": "no such [tensormaps] table"}
    if m.tensor != g.name:
        return {"tensormap": m.name, "describes": m.tensor, "global": g.name}
    if m.rank != op.rank or len(op.coords) != m.rank:
        return {"tensormap": m.name, "rank": m.rank, "opcode_rank": op.rank}
    if s.bits != m.bits:
        return {"tensormap": m.name, "bits": s.bits, "map_bits": m.bits}
    if m.interleave != "none" or m.swizzle not in _BITS:
        return {"tensormap": m.name, "interleave": m.interleave, "swizzle": m.swizzle}
    names = set().union(*(names_of(c) for c in op.coords))
    names |= names_of(op.expect_tx) if op.expect_tx is not None else set()
    if names - set(check.symbols):
        return {"undeclared": sorted(names - set(check.symbols))}
    if any(names_of(e) for e in m.element_strides):
        return {"tensormap": m.name, "element_strides": "symbolic"}
    if any(names_of(x) for x in (*m.box, *s.shape)):  # stated of a concrete box and shared tensor only
        return None
    shape, _ = _visits(m, env)
    if [evaluate(e, env) for e in s.shape] != shape[::-1]:
        return {"tensor": s.name, "shape": list(s.shape), "box_visits": shape[::-1]}
    return None


def _flat(x) -> list:
    return [leaf for e in x for leaf in _flat(e)] if isinstance(x, tuple) else [x]


def decide_region(check, apply, env):
    """The map's bytes (from the tensor's base: ``offset`` elements, then every element inside the dims at
    its byte strides, the last one's bytes included) against the tensor's declared extent (1 + the
    largest unswizzled offset, the offset included: what ``bounds`` allows), each summed here."""
    _, m, _, g = _parts(check, apply, env)
    e = m.bits // 8
    off = evaluate(g.offset, env)
    top = off
    for sh, st in zip(_flat(g.layout.shape), _flat(g.layout.stride)):
        if not isinstance(st, oracle.ThreadStride):
            top += max((evaluate(sh, env) - 1) * evaluate(st, env), 0)
    last = off * g.esize + (evaluate(m.dims[0], env) - 1) * e + e - 1
    for d, st in zip(m.dims[1:], m.strides):
        last += (evaluate(d, env) - 1) * evaluate(st, env)
    size = (top + 1) * g.esize
    if off < 0 or last >= size:
        return {"symbols": dict(env), "tensormap": m.name, "first_byte": off * g.esize, "last_byte": last,
                "tensor_bytes": size}
    return None


def decide_store_edge(check, apply, env):
    """A store: no start coordinate below 0 (the H200 faulted), and a box past ``dims[0]`` only where
    ``dims[0]`` elements are whole 16-byte chunks (the H200 writes the rest of the last chunk)."""
    op, m, _, _ = _parts(check, apply, env)
    if op.load:
        return None
    cs = [evaluate(c, env) for c in op.coords]
    for i, c in enumerate(cs):
        if c < 0:
            return {"symbols": dict(env), "coordinate": i, "value": c}
    d0, b0 = evaluate(m.dims[0], env), evaluate(m.box[0], env)
    if cs[0] + b0 > d0 and d0 * (m.bits // 8) % 16:
        return {"symbols": dict(env), "dimension": 0, "first": cs[0], "last": cs[0] + b0 - 1, "dim": d0}
    return None


def decide_inner(check, apply, env):
    op, m, _, _ = _parts(check, apply, env)
    c0 = evaluate(op.coords[0], env)
    return None if (c0 * m.bits // 8) % 16 == 0 else {"symbols": dict(env), "coords[0]": c0}


def decide_smem(check, apply, env):
    _, m, s, _ = _parts(check, apply, env)
    dst = evaluate(s.offset, env) * s.esize
    repeat = 1 << (7 + _BITS[m.swizzle]) if _BITS[m.swizzle] else 1
    if s.align % 128 or dst % 128 or s.align % repeat:
        return {"symbols": dict(env), "align": s.align, "offset_bytes": dst, "repeat": repeat}
    return None


def decide_landing(check, apply, env):
    """Every box element: TMA's shared byte (its own arithmetic) against the declared layout (the oracle's).
    With a swizzle each inner row of the box takes the swizzle's span (16 << B bytes): rows narrower
    than it are padded (the H200, 2026-12-03; docs/gpu.md, "TMA: where the bytes land")."""
    _, m, s, _ = _parts(check, apply, env)
    shape, _ = _visits(m, env)
    e, b = s.esize, _BITS[m.swizzle]
    row = (16 << b) if b else e * shape[0]  # shared bytes from one inner row to the next
    base = evaluate(s.offset, env) * e  # bytes past an address that is a multiple of the pattern's repeat
    for k in product(*(range(n) for n in reversed(shape))):  # tensor order: outermost first
        rows, scale = 0, 1
        for kk, n in zip(reversed(k[:-1]), shape[1:]):
            rows += kk * scale
            scale *= n
        a = base + e * k[-1] + row * rows
        tma = a ^ (((a >> 7) & ((1 << b) - 1)) << 4) if b else a
        mine = e * oracle.layout_value(s.layout, k, env, s.offset)[""]
        if tma != mine:
            return {"symbols": dict(env), "element": list(k), "tma_byte": tma, "declared_byte": mine}
    return None


def tx_bytes(check, apply, env):
    """The bytes one copy delivers to each barrier it completes on (None: its map is missing)."""
    op, m, s, _ = _parts(check, apply, env)
    if m is None:
        return None
    shape, _ = _visits(m, env)
    n = m.bits // 8 * op.fan_in
    for v in shape:
        n *= v
    return n


def decide_multicast(check, apply, env):
    """The symmetric multicast: the mask inside the cluster, and the slices of two issuing ranks apart
    (each rank's bytes by TMA's own arithmetic, unswizzled: the swizzle permutes bytes)."""
    op, m, s, _ = _parts(check, apply, env)
    ranks = [i for i in range(16) if op.cta_mask >> i & 1]
    rank = [n for n, x in check.symbols.items() if x.source == "ctarank"]
    if rank and ranks[-1] > min(check.symbols[n].max for n in rank):
        return {"cta_mask": op.cta_mask, "cta": ranks[-1]}
    if len(ranks) < 2 or any(names_of(x) for x in (*m.box, *m.element_strides)):
        return None  # one CTA; a symbolic box: the prover's unknown
    shape, _ = _visits(m, env)
    e, b = s.esize, _BITS[m.swizzle]
    row = (16 << b) if b else e * shape[0]

    def written(r):
        at = {**env, **{n: r for n in rank}}
        base = evaluate(s.offset, at) * e
        rows = 1
        for n in shape[1:]:
            rows *= n
        return {base + e * i + row * j for i in range(shape[0]) for j in range(rows)}
    for r1 in ranks:  # every pair of issuing ranks, whatever rank the assignment gave the symbol
        mine = written(r1)
        for r2 in ranks:
            both = mine & written(r2) if r2 != r1 else set()
            if both:
                return {"symbols": {**env, **{n: r1 for n in rank}}, "ranks": [r1, r2], "plain_byte": min(both)}
    return None


def decide_box(check, apply, env):
    op, m, _, _ = _parts(check, apply, env)
    shape, step = _visits(m, env)
    for i, (c, n, st) in enumerate(zip(op.coords, shape, step)):
        lo, d = evaluate(c, env), evaluate(m.dims[i], env)
        if lo < 0 or lo + st * (n - 1) >= d:
            return {"symbols": dict(env), "dimension": i, "first": lo, "last": lo + st * (n - 1), "dim": d}
    return None


def _written(check, apply, env) -> set:
    """The global bytes a store's box writes at ``env``: every visited element inside the map, ``e`` bytes
    at ``e * offset + e * x[0] + sum(x[i] * strides[i - 1])`` of the tensor."""
    op, m, _, g = _parts(check, apply, env)
    shape, step = _visits(m, env)
    e = m.bits // 8
    dims = [evaluate(d, env) for d in m.dims]
    pitch = [e] + [evaluate(s, env) for s in m.strides]
    start = [evaluate(c, env) for c in op.coords]
    base = evaluate(g.offset, env) * e
    out = set()
    for k in product(*(range(n) for n in shape)):
        x = [c + i * s for c, i, s in zip(start, k, step)]
        if all(0 <= v < d for v, d in zip(x, dims)):
            a = base + sum(v * p for v, p in zip(x, pitch))
            out.update(range(a, a + e))
    return out


def decide_disjoint(check, apply, env, others):
    """A store's box against the boxes of the launch's other CTAs (``others``: their assignments, the
    CTA-bound symbols differing): no byte in common."""
    if apply.opcode.load or not others:
        return None
    mine = _written(check, apply, env)
    for o in others:
        both = mine & _written(check, apply, o)
        if both:
            return {"symbols": dict(env), "other_symbols": dict(o), "byte": min(both)}
    return None


RULE_NEEDS = {"tma_map": (), "tma_region": ("tma_map",), "tma_inner": ("tma_map",),
              "tma_store_edge": ("tma_map",), "tma_disjoint": ("tma_map",), "tma_smem": ("tma_map",),
              "tma_landing": ("tma_map", "tma_smem"), "tma_tx": ("tma_map",), "tma_box": ("tma_map",),
              "tma_multicast": ("tma_map", "tma_smem")}
RULES = {"tma_map": decide_map, "tma_region": decide_region, "tma_inner": decide_inner,
         "tma_store_edge": decide_store_edge, "tma_disjoint": lambda check, apply, env: None,  # (across CTAs: below)
         "tma_smem": decide_smem, "tma_landing": decide_landing,
         "tma_tx": mbarrier.decide_tx, "tma_box": decide_box, "tma_multicast": decide_multicast}


FAMILY = Tma()
FAMILY.tx_bytes = tx_bytes  # the decider's: an mbarrier phase sums its copies' (decide_tx)
FAMILY.rules, FAMILY.rule_needs = RULES, RULE_NEEDS
FAMILY.cta_rules = {"tma_disjoint": decide_disjoint}  # rule(check, apply, env, others): the decider's pairs of CTAs
