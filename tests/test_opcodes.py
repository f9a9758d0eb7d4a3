"""ld/st's spelling (tilecheck/families/ldst.py: parsing, judging per target, PTX versions) and the targets (tilecheck.opcodes)."""
import pytest

from tilecheck.families.ldst import Opcode, legality, parse, ptx_legality, ptx_version
from tilecheck.opcodes import ArchError, OpcodeError, parse_arch

ALL_ARCHS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
             "sm_103a", "sm_110", "sm_120", "sm_121f"]


# --- parse ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, token", [
    ("ld.global.b33", ".b33"),
    ("ld.global.v3.b32", ".v3"),
    ("ld.global.L1::bogus.b32", ".L1::bogus"),
    ("st.shared.s128", ".s128"),
    ("add.f32", "add"),
    ("ld.global.v4", "missing type"),
    ("ld.global", "missing type"),
    ("ld..b32", "empty qualifier"),
    ("", "unknown instruction"),
])
def test_parse_errors_are_one_line_and_name_the_token(text, token):
    with pytest.raises(OpcodeError) as e:
        parse(text)
    msg = str(e.value)
    assert token in msg and "\n" not in msg
    assert isinstance(e.value, ValueError)


def test_parse_error_message_shape():
    with pytest.raises(OpcodeError, match=r"^unknown qualifier '\.b33' in 'ld\.global\.b33'$"):
        parse("ld.global.b33")


def test_parse_fields():
    op = parse("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.b32")
    assert op == Opcode(text="ld.global.nc.L1::no_allocate.L2::cache_hint.v4.b32", kind="ld",
                        space="global", vector=4, type="b32", bits=32, cache_hint=True,
                        qualifiers=("global", "nc", "L1::no_allocate", "L2::cache_hint",
                                    "v4", "b32"))
    assert parse("st.b64").space is None and parse("st.b64").vector == 1
    assert parse("ld.shared::cta.v2.u16").space == "shared"
    assert parse("st.shared::cluster.f64").space == "shared::cluster"
    assert parse("ld.param::entry.s8").space == "param"
    assert parse("ld.const.b128").bits == 128
    assert parse("  st.local.v8.f32 ").text == "  st.local.v8.f32 "  # kept as spelled


def test_real_tokens_in_illegal_combinations_parse():
    for text in ["ld.global.v4.f16", "ld.shared.L2::128B.v4.b32", "st.global.nc.b32",
                 "ld.global.v8.b16", "ld.global.shared.b32", "st.const.b32", "ld.wb.b32",
                 "ld.global.unified.b32", "ld.global.bf16x2", "ld.b32.global"]:
        op = parse(text)
        assert legality(op, "sm_100a") is not None or text == "ld.b32.global"
    assert parse("ld.global.v4.f16").bits == 16 and parse("ld.global.f16x2").bits == 32


# --- legality ------------------------------------------------------------------------------

def test_v8_b32_needs_sm100():
    op = parse("ld.global.v8.b32")
    assert legality(op, "sm_90") == \
        "ld.global.v8.b32 needs sm_100 or newer (256-bit vectors), target is sm_90"
    assert legality(op, "sm_100a") is None
    assert legality(parse("st.v4.f64"), "sm_120") is None      # generic 256-bit store
    assert legality(parse("ld.global.v4.b64"), "sm_90a") is not None


@pytest.mark.parametrize("arch", ALL_ARCHS)
@pytest.mark.parametrize("text", ["ld.global.v8.b16", "st.global.v8.b16", "ld.global.v8.u8",
                                  "st.v8.s16", "ld.global.nc.v8.b8"])
def test_narrow_v8_refused_everywhere_though_ptxas_takes_it(text, arch):
    op = parse(text)
    reason = legality(op, arch)
    assert reason is not None and "miscompiles" in reason
    assert ptx_legality(op, arch) is None


@pytest.mark.parametrize("text, arch, fragment", [
    ("ld.global.v4.f16", "sm_90", "no .f16"),
    ("ld.shared.L2::128B.v4.b32", "sm_90", ".L2::128B needs .global or generic"),
    ("st.global.nc.b32", "sm_90", "st has no .nc"),
    ("ld.nc.b32", "sm_90", ".nc"),
    ("st.const.b32", "sm_90", ".const"),
    ("ld.global.relaxed.b32", "sm_90", "needs a scope"),
    ("ld.global.gpu.b32", "sm_90", "scope needs"),
    ("ld.local.volatile.b32", "sm_90", ".local"),
    ("ld.global.cg.L1::evict_last.b32", "sm_90", "do not combine"),
    ("ld.global.v2.b128", "sm_100a", "vector"),
    ("ld.shared.v8.b32", "sm_100a", "256-bit"),
    ("ld.global.L2::evict_last.v4.b32", "sm_100a", "256-bit"),
    ("ld.global.mmio.relaxed.gpu.b32", "sm_90", ".mmio needs .relaxed.sys"),
    ("ld.global.unified.b32", "sm_90", "[a].unified"),
    ("ld.global.shared.b32", "sm_90", "more than one state space"),
    ("ld.shared::cluster.b32", "sm_80", "sm_90"),
    ("ld.global.relaxed.cluster.b32", "sm_89", "sm_90"),
    ("ld.global.L2::cache_hint.b32", "sm_75", "sm_80"),
])
def test_refuted_with_one_line_reason(text, arch, fragment):
    reason = legality(parse(text), arch)
    assert reason is not None and fragment in reason and "\n" not in reason
    assert reason.startswith(text)


@pytest.mark.parametrize("text", [
    "ld.global.nc.L1::no_allocate.v4.b32", "ld.v4.b32", "st.v2.b64", "ld.global.v4.b32",
    "st.shared::cta.v4.f32", "ld.shared::cluster.b32", "ld.global.relaxed.gpu.b32",
    "st.release.sys.shared.b32", "ld.acquire.cluster.b64", "ld.global.mmio.relaxed.sys.u32",
    "ld.global.L2::cache_hint.L2::256B.b32", "ld.global.nc.cs.L2::128B.v2.f32",
    "ld.L2::64B.f64", "ld.const.b128", "ld.param::entry.b32", "st.param::func.v2.b32",
    "st.global.wt.b8", "ld.local.lu.b16", "ld.b32.global",      # ptxas ignores the order
])
def test_legal_on_sm90(text):
    assert legality(parse(text), "sm_90") is None


def test_sm100_only_forms():
    for text in ["ld.global.L2::evict_last.v8.f32", "st.global.L1::evict_first.L2::evict_last.v4.u64",
                 "ld.global.nc.L2::evict_first.v4.f64", "st.volatile.L2::evict_normal.v8.b32"]:
        assert legality(parse(text), "sm_100a") is None, text
        assert "sm_100" in legality(parse(text), "sm_90")


def test_arch_errors():
    assert parse_arch("sm_90a").sm == 90 and parse_arch("sm_90a").suffix == "a"
    assert parse_arch("sm_100f").suffix == "f"
    for junk in ["sm90", "compute_90", "sm_90x", "", "SM_90", "sm_101", "sm_99"]:
        with pytest.raises(ArchError) as e:
            parse_arch(junk)
        assert "\n" not in str(e.value) and isinstance(e.value, OpcodeError)
    with pytest.raises(ValueError):
        legality(parse("ld.b32"), "sm_9000")


# --- ptx_version ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, arch, version", [
    ("ld.global.b32", "sm_75", (6, 3)),
    ("ld.global.b32", "sm_80", (7, 0)),
    ("ld.global.b32", "sm_90", (7, 8)),
    ("ld.global.b32", "sm_90a", (8, 0)),
    ("ld.global.b32", "sm_100a", (8, 6)),
    ("ld.global.b32", "sm_103a", (8, 8)),
    ("ld.global.b32", "sm_120", (8, 7)),
    ("ld.global.b32", "sm_110", (9, 0)),
    ("ld.global.v8.b32", "sm_100a", (8, 8)),        # 256-bit vectors: 8.8
    ("st.global.L2::evict_last.v4.b64", "sm_100", (8, 8)),
    ("ld.global.L1::evict_last.b32", "sm_80", (7, 4)),
    ("ld.global.L2::cache_hint.b32", "sm_80", (7, 4)),
    ("ld.global.L2::128B.b32", "sm_75", (7, 4)),
    ("ld.shared::cta.b32", "sm_80", (7, 8)),
    ("ld.global.relaxed.cluster.b32", "sm_90", (7, 8)),
    ("ld.global.mmio.relaxed.sys.b32", "sm_80", (8, 2)),
    ("ld.param::entry.b32", "sm_80", (8, 3)),
    ("ld.global.b128", "sm_80", (8, 3)),
    ("ld.global.relaxed.sys.b128", "sm_80", (8, 4)),  # .sys scope with .b128: 8.4
    ("ld.global.relaxed.gpu.b128", "sm_80", (8, 3)),
])
def test_ptx_version(text, arch, version):
    assert ptx_version(parse(text), arch) == version
