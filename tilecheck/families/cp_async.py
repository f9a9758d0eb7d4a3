"""cp.async: each thread copies one atom of ``cp-size`` bytes from global to shared memory,
asynchronously.  Two memory operands and no registers: the destination ``dst`` is ``.shared``,
the source ``src`` is ``.global``; the atom is ``cp_size`` bytes (``cp_size / element size``
words, the view's last axis), contiguous and aligned to ``cp_size`` on *both* sides; shared
destinations are distinct across the CTA (``disjoint``'s store rule on ``dst``); ``bounds`` and
``overflow`` on both sides.  ``ownership`` does not apply (no register operand).

Spelling: ``cp.async.{ca,cg}.shared{::cta}.global{.L2::64B,.L2::128B,.L2::256B} [dst], [src],
cp-size`` with ``cp_size`` (an ``[[apply]]`` key: PTX spells it as an operand) 4, 8 or 16 for
``.ca`` and 16 only for ``.cg`` (any other ``cp_size`` is bad input, refused by ``bind``: no cp.async
copies it, so no obligation is decided of it); sm_80 or newer; the prefetch sizes need PTX 7.4 (``VERSIONS``;
``.shared::cta`` needs none: ptxas 13.0 takes it at 7.0).  The legal set and each spelling's
lowest ``.version`` are ptxas 13.0 sweeps (``tests/test_cp_async.py``: 320 spellings x sm_80/sm_90/sm_100a, 32 accepted
on each).  ``guard = true`` guards the source (``proofs/guard.py``): the copy takes ``src-size``
(cp-size where the source atom is in bounds, 0 where not: nothing is read and the destination is
zero-filled).  Not modelled yet: an explicit ``src-size`` (a partial copy), ``ignore-src``,
``.L2::cache_hint``.  Emitted kernels wait for the copies (``cp.async.commit_group``,
``cp.async.wait_all``) and ``bar.sync`` before shared memory is read back.
"""
from dataclasses import dataclass, replace

from ..errors import InputError
from ..opcodes import OpcodeError, needs, parse_arch
from . import MEMORY, READ, WRITE, Draw, Family, Role

GROUPS = {"cache": ("ca", "cg"), "space": ("shared", "shared::cta", "shared::cluster"),
          "source": ("global",), "prefetch": ("L2::64B", "L2::128B", "L2::256B")}
GROUP_OF = {q: g for g, qs in GROUPS.items() for q in qs}
SIZES = (4, 8, 16)
# qualifier -> lowest .version, each checked against ptxas 13.0 (tests/test_cp_async.py)
VERSIONS = (("cp.async", lambda op: True, (7, 0)),
            (".L2::64B/.L2::128B/.L2::256B", lambda op: op.first("prefetch"), (7, 4)))


@dataclass(frozen=True)
class CpAsyncOpcode:
    text: str
    kind: str  # "cp.async"
    space: str | None  # the destination's (shared)
    qualifiers: tuple[str, ...]
    cp_size: int = 0  # bytes; bound from the [[apply]] table's cp_size (FAMILY.bind)
    bits: int = 0  # the element width of the tensors it copies (bound with cp_size)
    vector: int = 1  # words per atom: cp_size * 8 / bits
    cache_hint: bool = False

    def first(self, group):
        return next((q for q in self.qualifiers if GROUP_OF[q] == group), None)


def parse(text: str) -> CpAsyncOpcode:
    parts = text.strip().split(".")
    if parts[:2] != ["cp", "async"]:
        raise OpcodeError(f"{text!r} is not a cp.async instruction")
    quals = parts[2:]
    if any(q in ("commit_group", "wait_group", "wait_all", "bulk", "mbarrier") for q in quals):
        raise OpcodeError(f"{text!r}: tilecheck's cp.async family models the copy cp.async.{{ca,cg}}.shared.global only")
    for q in quals:
        if q not in GROUP_OF:
            raise OpcodeError(f"unknown qualifier '.{q}' in {text!r}" if q else f"empty qualifier in {text!r}")
    space = next((q for q in quals if GROUP_OF[q] == "space"), None)
    return CpAsyncOpcode(text.strip(), "cp.async", "shared" if space == "shared::cta" else space, tuple(quals))


def legality(op, arch) -> str | None:
    target = parse_arch(arch)
    groups = [GROUP_OF[q] for q in op.qualifiers]
    order = [g for g in GROUPS if g in groups]
    reasons = [
        (next((g for g in GROUPS if groups.count(g) > 1), None), "more than one .{} qualifier"),
        (op.first("cache") is None, "needs .ca or .cg"),
        (op.first("space") not in ("shared", "shared::cta"), "the destination must be .shared or .shared::cta"),
        (op.first("source") is None, "the source must be .global"),
        (groups != sorted(groups, key=order.index), "qualifiers out of order (cp.async.{ca,cg}.shared.global.L2::NB)"),
        (op.cp_size not in SIZES, f"cp-size {op.cp_size} is not 4, 8 or 16"),
        (op.first("cache") == "cg" and op.cp_size != 16, f"cp.async.cg copies 16 bytes only, cp-size is {op.cp_size}"),
    ]
    for bad, reason in reasons:
        if bad:
            return f"{op.text}: {reason.format(bad) if '{}' in reason else reason}"
    if target.sm < 80:
        return f"{op.text} needs sm_80 or newer, target is {target.name}"
    return None


def ptx_version(op, arch) -> tuple[int, int]:
    return needs(VERSIONS, op, arch)


class CpAsync(Family):
    name = "cp.async"
    instructions = ("cp.async",)
    keys = {"cp_size": None, "guard": False}  # cp_size: an integer, required: bound into the opcode (bind)
    # guard = true: the source is guarded; a guarded-out copy still runs, with src-size 0 (it reads no
    # byte and zero-fills the destination), so the destination's obligations and the source address's
    # contiguity and alignment hold for every atom; bounds and overflow of the source for guarded-in ones
    guarded = ("bounds", "overflow")

    obligations = ("target", "space", "shape", "width", "guard", "contiguity", "alignment", "disjoint", "bounds",
                   "overflow", "banks", "sectors")  # not ownership: there is no register operand
    verbs = ("reads", "copies to")

    def roles(self, op):
        return Role("dst", MEMORY, ("shared",), WRITE), Role("src", MEMORY, ("global",), READ, guard=True)

    parse = staticmethod(parse)
    legality = staticmethod(legality)
    ptx_version = staticmethod(ptx_version)
    versions = VERSIONS

    form = "cp.async.{ca,cg}.shared.global"
    drain = ("cp.async.commit_group;", "cp.async.wait_all;")

    def guard_operand(self, op):
        """src-size: cp-size where the source atom is in bounds, 0 (nothing read, zero-fill) where not."""
        return op.cp_size, 0

    def narrower(self, op, esize, width):
        cache = ".ca" if op.first("cache") == "cg" else ""
        return f"cp_size = {width * esize}" + (f" with {op.text.replace('.cg', cache)}" if cache else "")

    def bind(self, op, spec, tensors, views):
        """The opcode with the apply's ``cp_size`` and the copied element width (the source's)."""
        size = spec.get("cp_size")
        if size is None:
            raise InputError("cp.async needs cp_size (the copy's bytes: 4, 8 or 16)", "cp_size")
        if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
            raise InputError(f"cp_size must be 4, 8 or 16 (the bytes of one copy), got {size!r}", "cp_size")
        t = tensors[views["src"].tensor]
        if (8 * size) % t.bits:
            raise InputError(f"cp_size {size} is not a whole number of {t.dtype} elements ({t.esize} bytes)", "cp_size")
        return replace(op, cp_size=size, bits=t.bits, vector=8 * size // t.bits)

    def operand_facts(self, a):
        return {"cp_size": a.opcode.cp_size}

    def instruction(self, a, regs, addr, pred, policy):
        """``regs`` is the source's address here (fragment.lower passes both addresses); with
        ``guard``, ``pred`` is the src-size operand (a register: cp-size or 0, or an immediate)."""
        tail = f", {pred}" if a.guard and pred is not None else ""
        return f"\t{a.opcode.text} {addr}, {regs}, {a.opcode.cp_size}{tail};"

    def reference(self, a, memory, off, threads, values):
        memory.scatter(off, threads, values)

    # --- the strategies' draws (tilecheck/strategies.py): a guarded tile (guarded or not) copied to
    # a shared tile, sometimes swizzled ---
    draws = (Draw("cp.async", "tile", 2, "guarded or not", staging=1, staging_rank=3),)
    tile_kinds = {"cp.async": 2}

    # ncu (gpu/ncu_compare.py): measured on the H200 (tilecheck run --profile, docs/efficiency.md): LDGSTS's
    # global reads are in the global *load* sectors; its shared writes are in none of the LSU counters
    ncu_traffic = "copy"

    def sass(self, op, space):
        return "LDGSTS"

    def draw_tile_atom(self, tools, draw, kind, bits, esize, spaces):
        """Global source (``spaces`` does not restrict it), the copy's size and spelling."""
        size = tools.pick(draw, [s for s in (16, 8, 4) if s % esize == 0] or [16])
        vector = max(1, size // esize)
        return "global", vector, f"cp.async.{'cg' if size == 16 and tools.chance(draw, 50) else 'ca'}.shared.global"

    def draw_tile_operands(self, tools, draw, kind, t):
        """The cp_size key and the shared destination tile (swizzled now and then, drawn last)."""
        ap = t.ap
        ap["cp_size"] = t.vector * t.esize
        sname = t.names.fresh("S")
        ap["dst"], ap["src"] = f"{sname}: {t.pattern}", t.memop
        dst_t = {"dtype": t.dtype, "scope": "shared", "shape": [t.rows, t.cols], "align": t.vector * t.esize}
        swz = tools.swizzle(draw, "shared", t.vector, t.swizzled)  # drawn last: the other draws stay as they were
        if swz:
            dst_t["layout"] = f"{swz} o ({t.rows},{t.cols}):({t.cols},1)"
        return {t.mname: t.mem_t, sname: dst_t}, ap


FAMILY = CpAsync()
