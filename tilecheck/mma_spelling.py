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
            idesc: str = "%idesc", enable_d: str = "%scale_d") -> str:
    """``tcgen05.mma.cta_group::{1,2}.kind::{kind}`` with A and B from shared-memory descriptors."""
    if kind not in TCGEN05_KINDS or cta_group not in (1, 2):
        raise ValueError(f"tcgen05.mma kind {kind!r}, cta_group {cta_group}: kinds {', '.join(TCGEN05_KINDS)}, groups 1, 2")
    return f"tcgen05.mma.cta_group::{cta_group}.kind::{kind} [{d}], {a}, {b}, {idesc}, {enable_d};"


def probe_kernel(lines: list[str], target: str, version: str, accumulators: int = 0, name: str = "probe") -> str:
    """A kernel that reads two descriptors, an instruction descriptor and a tensor-memory address from
    its parameters and issues ``lines`` (wgmma's between a fence and a commit/wait)."""
    wg = any(x.startswith("wgmma.") for x in lines)
    body = ["wgmma.fence.sync.aligned;", *lines, "wgmma.commit_group.sync.aligned;",
            "wgmma.wait_group.sync.aligned 0;"] if wg else list(lines)
    regs = [".reg .b64 %desc_a, %desc_b;", ".reg .b32 %idesc, %tmem_d;", ".reg .pred %scale_d;"]
    if accumulators:
        regs.append(f".reg .f32 %d<{accumulators}>;")
    return "\n".join([
        f".version {version}", f".target {target}", ".address_size 64", "",
        f".visible .entry {name}(.param .u64 p_a, .param .u64 p_b, .param .u32 p_idesc, .param .u32 p_tmem)",
        "{", *(f"  {r}" for r in regs),
        "  ld.param.u64 %desc_a, [p_a];", "  ld.param.u64 %desc_b, [p_b];",
        "  ld.param.u32 %idesc, [p_idesc];", "  ld.param.u32 %tmem_d, [p_tmem];",
        "  setp.ne.b32 %scale_d, %idesc, 0;",
        *(f"  {x}" for x in body), "  ret;", "}", ""])


def wgmma_kernel(ab: str, version: str = WGMMA_VERSION) -> str:
    """Every ``m64nNk*`` N of input type ``ab`` (both operands from descriptors) in one kernel."""
    lines = [wgmma(n, ab) for n in WGMMA_N]
    if ab in ("f16", "bf16"):
        lines += [wgmma(64, ab, trans_a=1, trans_b=1)]  # MN-major A and B
    return probe_kernel(lines, WGMMA_TARGET, version, accumulators=max(WGMMA_N) // 2, name=f"wgmma_{ab}")


def tcgen05_kernel(cta_group: int = 1, version: str = TCGEN05_VERSION) -> str:
    """Every ``tcgen05.mma`` kind of one cta_group in one kernel (ptxas refuses a function that mixes
    ``cta_group::1`` and ``::2``)."""
    return probe_kernel([tcgen05(k, cta_group) for k in TCGEN05_KINDS], TCGEN05_TARGET, version,
                        name=f"tcgen05_mma_{cta_group}")
