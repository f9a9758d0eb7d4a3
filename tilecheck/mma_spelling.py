"""The PTX spellings of the tensor-core instructions that read shared-memory descriptors, and a tiny
kernel holding them (for ptxas: ``tests/test_mma_spelling.py`` assembles every spelling here at the
``.version`` written, and checks that the version below it is refused).

Only spellings; the wgmma family (its operands, groups and obligations) comes later and will emit
through these.  Sources: PTX ISA 9.0, ``wgmma.mma_async`` (shapes ``m64nNk16`` for .f16/.bf16,
``m64nNk32`` for .e4m3/.e5m2, ``m64nNk8`` for .tf32, N a multiple of 8 in [8, 256]; ``scale-d`` a
predicate, then ``imm-scale-a``, ``imm-scale-b`` and, for .f16/.bf16 only, ``imm-trans-a``,
``imm-trans-b``) and ``tcgen05.mma`` (``[d-tmem], a-desc, b-desc, idesc, enable-input-d``).
"""
from __future__ import annotations

from . import tcgen05_idesc as td

WGMMA_TARGET, WGMMA_VERSION = "sm_90a", "8.0"  # wgmma: PTX ISA 8.0, sm_90a
TCGEN05_TARGET, TCGEN05_VERSION = "sm_100a", "8.6"  # tcgen05: PTX ISA 8.6, sm_100a

WGMMA_K = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32}  # K of one instruction, per input type
WGMMA_N = tuple(range(8, 257, 8))
TCGEN05_KINDS = ("f16", "tf32", "f8f6f4", "i8")


def wgmma(n: int, ab: str = "f16", accumulators: str = "%d", a: str = "%desc_a", b: str = "%desc_b",
          scale_d: str = "%scale_d", trans_a: int = 0, trans_b: int = 0) -> str:
    """``wgmma.mma_async.sync.aligned.m64n{n}k{K}.f32.{ab}.{ab}`` with both operands from descriptors:
    ``n / 2`` f32 accumulator registers per thread (``{accumulators}0`` ...)."""
    if ab not in WGMMA_K:
        raise ValueError(f"wgmma input type {ab!r}: one of {', '.join(WGMMA_K)}")
    if n not in WGMMA_N:
        raise ValueError(f"wgmma N = {n}: a multiple of 8 in [8, 256]")
    if (trans_a or trans_b) and ab not in ("f16", "bf16"):
        raise ValueError(f"imm-trans is for .f16/.bf16 only, not .{ab}")
    regs = ", ".join(f"{accumulators}{i}" for i in range(n // 2))
    tail = ", 1, 1" + (f", {trans_a}, {trans_b}" if ab in ("f16", "bf16") else "")
    return (f"wgmma.mma_async.sync.aligned.m64n{n}k{WGMMA_K[ab]}.f32.{ab}.{ab} {{{regs}}}, {a}, {b}, "
            f"{scale_d}{tail};")


def tcgen05(kind: str = "f16", cta_group: int = 1, d: str = "%tmem_d", a: str = "%desc_a", b: str = "%desc_b",
            idesc: "str | int" = "%idesc", enable_d: str = "%scale_d") -> str:
    """``tcgen05.mma.cta_group::{1,2}.kind::{kind}`` with A and B from shared-memory descriptors; the
    instruction descriptor a register or a 32-bit immediate (an int, e.g. ``tcgen05_idesc.encode``)."""
    if kind not in TCGEN05_KINDS or cta_group not in (1, 2):
        raise ValueError(f"tcgen05.mma kind {kind!r}, cta_group {cta_group}: kinds {', '.join(TCGEN05_KINDS)}, groups 1, 2")
    if isinstance(idesc, int):
        if not 0 <= idesc < 1 << 32:
            raise ValueError(f"instruction descriptor {idesc:#x} is not a 32-bit word")
        idesc = f"{idesc:#010x}"
    return f"tcgen05.mma.cta_group::{cta_group}.kind::{kind} [{d}], {a}, {b}, {idesc}, {enable_d};"


# tensor memory: allocation, completion, loads and stores (PTX ISA 9.0, tcgen05.alloc, .commit, .ld, .st)

TMEM_LD_SHAPES = {"32x32b": 1, "16x64b": 1, "16x128b": 2, "16x256b": 4, "16x32bx2": 1}  # .b32 registers per .num
TMEM_NUMS = (1, 2, 4, 8, 16, 32, 64, 128)
TMEM_MAX_REGS = 128  # PTX Table 49: at most 128 registers (so .16x128b stops at .x64, .16x256b at .x32)


def tcgen05_alloc(cta_group: int = 1, dst: str = "%slot", columns: int = 32) -> list[str]:
    """Allocate ``columns`` tensor-memory columns (a power of 2 in [32, 512]), writing the address to
    shared memory at ``dst``, and give up the right to allocate again (one warp issues both)."""
    if columns < 32 or columns > 512 or columns & (columns - 1):
        raise ValueError(f"tcgen05.alloc of {columns} columns: a power of 2 in [32, 512]")
    return [f"tcgen05.alloc.cta_group::{cta_group}.sync.aligned.shared::cta.b32 [{dst}], {columns};",
            f"tcgen05.relinquish_alloc_permit.cta_group::{cta_group}.sync.aligned;"]


def tcgen05_dealloc(cta_group: int = 1, taddr: str = "%tmem_d", columns: int = 32) -> str:
    return f"tcgen05.dealloc.cta_group::{cta_group}.sync.aligned.b32 {taddr}, {columns};"


def tcgen05_commit(cta_group: int = 1, mbar: str = "%bar") -> str:
    """Arrive on the mbarrier at ``mbar`` when this thread's earlier tcgen05.mma have completed."""
    return f"tcgen05.commit.cta_group::{cta_group}.mbarrier::arrive::one.shared::cluster.b64 [{mbar}];"


def tmem_registers(shape: str, num: int) -> int:
    """The .b32 registers one thread gives to ``tcgen05.{ld,st}.{shape}.x{num}``."""
    if shape not in TMEM_LD_SHAPES or num not in TMEM_NUMS:
        raise ValueError(f"tcgen05.ld/st shape {shape!r}, .x{num}: shapes {', '.join(TMEM_LD_SHAPES)}, "
                         f"nums {', '.join(map(str, TMEM_NUMS))}")
    regs = TMEM_LD_SHAPES[shape] * num
    if regs > TMEM_MAX_REGS:
        raise ValueError(f"tcgen05.ld/st.{shape}.x{num} would take {regs} registers (at most {TMEM_MAX_REGS})")
    return regs


def tcgen05_ld(shape: str, num: int, regs: str = "%t", taddr: str = "%tmem_d", pack: bool = False) -> str:
    """``tcgen05.ld.sync.aligned.{shape}.x{num}[.pack::16b].b32`` into ``{regs}0`` ... (a warp's lanes)."""
    n = tmem_registers(shape, num)
    vec = ", ".join(f"{regs}{i}" for i in range(n))
    half = ", 2" if shape == "16x32bx2" else ""  # the immediate half-split offset (columns)
    return f"tcgen05.ld.sync.aligned.{shape}.x{num}{'.pack::16b' if pack else ''}.b32 {{{vec}}}, [{taddr}]{half};"


def tcgen05_st(shape: str, num: int, regs: str = "%t", taddr: str = "%tmem_d", unpack: bool = False) -> str:
    n = tmem_registers(shape, num)
    vec = ", ".join(f"{regs}{i}" for i in range(n))
    half = ", 2" if shape == "16x32bx2" else ""
    return f"tcgen05.st.sync.aligned.{shape}.x{num}{'.unpack::16b' if unpack else ''}.b32 [{taddr}]{half}, {{{vec}}};"


def probe_kernel(lines: list[str], target: str, version: str, accumulators: int = 0, name: str = "probe") -> str:
    """A kernel that reads two descriptors, an instruction descriptor and a tensor-memory address from
    its parameters and issues ``lines`` (wgmma's between a fence and a commit/wait)."""
    wg = any(x.startswith("wgmma.") for x in lines)
    body = ["wgmma.fence.sync.aligned;", *lines, "wgmma.commit_group.sync.aligned;",
            "wgmma.wait_group.sync.aligned 0;"] if wg else list(lines)
    regs = [".reg .b64 %desc_a, %desc_b;", ".reg .b32 %idesc, %tmem_d;", ".reg .pred %scale_d;"]
    if accumulators:
        regs.append(f".reg .f32 %d<{accumulators}>;")
    tc = any(x.startswith("tcgen05.") for x in lines)
    if tc:  # tensor memory: the allocation's shared slot, an mbarrier, load/store registers
        regs += [".reg .b32 %slot;", ".reg .b64 %bar;", f".reg .b32 %t<{TMEM_MAX_REGS}>;",
                 ".shared .align 8 .b64 mbar;", ".shared .align 4 .b32 tslot;"]
    return "\n".join([
        f".version {version}", f".target {target}", ".address_size 64", "",
        f".visible .entry {name}(.param .u64 p_a, .param .u64 p_b, .param .u32 p_idesc, .param .u32 p_tmem)",
        "{", *(f"  {r}" for r in regs),
        "  ld.param.u64 %desc_a, [p_a];", "  ld.param.u64 %desc_b, [p_b];",
        "  ld.param.u32 %idesc, [p_idesc];", "  ld.param.u32 %tmem_d, [p_tmem];",
        "  setp.ne.b32 %scale_d, %idesc, 0;",
        *(["  mov.u32 %slot, tslot;", "  mov.u64 %bar, mbar;"] if tc else []),
        *(f"  {x}" for x in body), "  ret;", "}", ""])


def wgmma_kernel(ab: str, version: str = WGMMA_VERSION) -> str:
    """Every ``m64nNk*`` N of input type ``ab`` (both operands from descriptors) in one kernel."""
    lines = [wgmma(n, ab) for n in WGMMA_N]
    if ab in ("f16", "bf16"):
        lines += [wgmma(64, ab, trans_a=1, trans_b=1)]  # MN-major A and B
    return probe_kernel(lines, WGMMA_TARGET, version, accumulators=max(WGMMA_N) // 2, name=f"wgmma_{ab}")


def tcgen05_idescs(cta_group: int = 1) -> dict:
    """A proved instruction descriptor word per kind (``tcgen05_idesc``: no problem for the kind and
    cta_group): M = 128 (64 would not do for cta_group::2), N = 64, K-major A and B."""
    types = {"f16": ("f32", "bf16"), "tf32": ("f32", "tf32"), "f8f6f4": ("f32", "e4m3"), "i8": ("s32", "s8")}
    out = {}
    for kind, (d, ab) in types.items():
        word = td.encode(td.Idesc(kind, 128, 64, d, ab, ab))
        assert not td.problems(word, kind, cta_group, 128, 64), (kind, cta_group)
        out[kind] = word
    return out


def tcgen05_lines(cta_group: int = 1) -> list[str]:
    """Every tcgen05 spelling of one cta_group: tensor-memory allocation, ``tcgen05.mma`` of each kind
    with the instruction descriptor in a register and as the proved immediate, the commit to an
    mbarrier, deallocation."""
    imm = tcgen05_idescs(cta_group)
    mma = [tcgen05(k, cta_group, idesc=i) for k in TCGEN05_KINDS for i in ("%idesc", imm[k])]
    return [*tcgen05_alloc(cta_group), *mma, tcgen05_commit(cta_group), tcgen05_dealloc(cta_group)]


def tcgen05_tmem_lines() -> list[str]:
    """Every tensor-memory load and store spelling (each shape and .num, and the 16-bit pack/unpack
    forms at .x1), each followed by its wait, and the two thread-sync fences."""
    out = ["tcgen05.fence::before_thread_sync;", "tcgen05.fence::after_thread_sync;"]
    for shape in TMEM_LD_SHAPES:
        for num in TMEM_NUMS:
            if TMEM_LD_SHAPES[shape] * num > TMEM_MAX_REGS:
                continue
            out += [tcgen05_ld(shape, num), "tcgen05.wait::ld.sync.aligned;",
                    tcgen05_st(shape, num), "tcgen05.wait::st.sync.aligned;"]
        out += [tcgen05_ld(shape, 1, pack=True), "tcgen05.wait::ld.sync.aligned;",
                tcgen05_st(shape, 1, unpack=True), "tcgen05.wait::st.sync.aligned;"]
    return out


def tcgen05_kernel(cta_group: int = 1, version: str = TCGEN05_VERSION) -> str:
    """Every tcgen05 spelling of one cta_group in one kernel (ptxas refuses a function that mixes
    ``cta_group::1`` and ``::2``): ``tcgen05_lines``."""
    return probe_kernel(tcgen05_lines(cta_group), TCGEN05_TARGET, version, name=f"tcgen05_mma_{cta_group}")


def tcgen05_tmem_kernel(version: str = TCGEN05_VERSION) -> str:
    """Every tensor-memory load/store spelling in one kernel: ``tcgen05_tmem_lines``."""
    return probe_kernel(tcgen05_tmem_lines(), TCGEN05_TARGET, version, name="tcgen05_tmem")
