"""ptxas accepts every wgmma / tcgen05.mma spelling of ``tilecheck/mma_spelling.py`` at the ``.version``
written, and refuses the version below it (so the version is the lowest that works)."""
import pytest

from tilecheck import mma_spelling as ms
from tilecheck.tools import ToolNotFound, find_tool, ptxas


@pytest.fixture(scope="module", autouse=True)
def _ptxas():
    try:
        find_tool("ptxas")
    except ToolNotFound:
        pytest.skip("ptxas not found")


def _below(version: str) -> str:
    major, minor = map(int, version.split("."))
    return f"{major}.{minor - 1}" if minor else f"{major - 1}.8"


@pytest.mark.parametrize("ab", sorted(ms.WGMMA_K))
def test_wgmma_spellings_assemble_for_sm_90a(ab):
    text = ms.wgmma_kernel(ab)
    assert text.count("wgmma.mma_async") == len(ms.WGMMA_N) + (ab in ("f16", "bf16"))
    r = ptxas(text, ms.WGMMA_TARGET)
    assert r.ok, r.summary()
    low = ptxas(ms.wgmma_kernel(ab, _below(ms.WGMMA_VERSION)), ms.WGMMA_TARGET)
    assert not low.ok and f"requires PTX ISA .version {ms.WGMMA_VERSION}" in low.summary()


@pytest.mark.parametrize("cta_group", [1, 2])
def test_tcgen05_spellings_assemble_for_sm_100a(cta_group):
    text = ms.tcgen05_kernel(cta_group)
    # every kind with the instruction descriptor in a register and as the proved immediate
    assert text.count("tcgen05.mma") == 2 * len(ms.TCGEN05_KINDS)
    for kind, word in ms.tcgen05_idescs(cta_group).items():
        assert f"kind::{kind} [%tmem_d], %desc_a, %desc_b, {word:#010x}, %scale_d;" in text
    for op in ("tcgen05.alloc", "tcgen05.relinquish_alloc_permit", "tcgen05.commit", "tcgen05.dealloc"):
        assert text.count(f"{op}.cta_group::{cta_group}.") == 1, op
    r = ptxas(text, ms.TCGEN05_TARGET)
    assert r.ok, r.summary()
    low = ptxas(ms.tcgen05_kernel(cta_group, _below(ms.TCGEN05_VERSION)), ms.TCGEN05_TARGET)
    assert not low.ok and f"requires PTX ISA .version {ms.TCGEN05_VERSION}" in low.summary()
    hopper = ptxas(text.replace(".target sm_100a", ".target sm_90a"), "sm_90a")
    assert not hopper.ok and "tcgen05" in hopper.summary()  # tcgen05 is Blackwell's


def test_spellings_refuse_what_ptx_does_not_have():
    with pytest.raises(ValueError, match="multiple of 8"):
        ms.wgmma(12)
    with pytest.raises(ValueError, match="imm-trans"):
        ms.wgmma(64, "e4m3", trans_a=1)
    assert ms.wgmma(8) == ("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %desc_a, "
                           "%desc_b, %scale_d, 1, 1, 0, 0;")


def test_tcgen05_tensor_memory_spellings_assemble_for_sm_100a():
    text = ms.tcgen05_tmem_kernel()
    lines = ms.tcgen05_tmem_lines()
    ld = [x for x in lines if x.startswith("tcgen05.ld.")]
    st = [x for x in lines if x.startswith("tcgen05.st.")]
    # 37 (shape, .num) pairs within 128 registers (PTX Table 49), each also packed/unpacked at .x1
    assert len(ld) == len(st) == 37 + 5
    assert len(set(lines)) == 37 * 2 + 10 + 2 + 2  # + wait::ld, wait::st, the two fences
    r = ptxas(text, ms.TCGEN05_TARGET)
    assert r.ok, r.summary()
    low = ptxas(ms.tcgen05_tmem_kernel(_below(ms.TCGEN05_VERSION)), ms.TCGEN05_TARGET)
    assert not low.ok and f"requires PTX ISA .version {ms.TCGEN05_VERSION}" in low.summary()
    # ptxas checks the vector: a .x2 load into one register is refused (so the sweep tests the counts)
    wrong = text.replace("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%t0, %t1}", "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%t0}")
    assert wrong != text and not ptxas(wrong, ms.TCGEN05_TARGET).ok
    with pytest.raises(ValueError, match="at most 128"):
        ms.tcgen05_ld("16x256b", 64)


def test_tcgen05_immediate_idesc_is_proved_and_spelled_as_a_word():
    from tilecheck import tcgen05_idesc as td
    for group in (1, 2):
        for kind, word in ms.tcgen05_idescs(group).items():
            assert td.problems(word, kind, group, 128, 64) == []
    assert ms.tcgen05("f16", 1, idesc=0x08100490).endswith(", 0x08100490, %scale_d;")
    with pytest.raises(ValueError, match="32-bit"):
        ms.tcgen05("f16", 1, idesc=1 << 32)
