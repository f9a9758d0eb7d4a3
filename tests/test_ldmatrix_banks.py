"""banks for ldmatrix/stmatrix: one phase per matrix (lanes 8i..8i+7 give its rows, 16 bytes each),
the model measured on the H200 (tests/test_ncu_probe.py, round 3).  The prover (warp.py: a lane's
address is its row's, ``role.origin``), the decider (decide.matrix_origins) and the ncu prediction
of the emitted kernel (gpu/ncu_compare: the reference's own row addressing) agree; the staging
examples: the swizzled tile proved conflict-free, the unswizzled refuted with its lanes."""
from pathlib import Path

import pytest

from tilecheck import decide, memory_model
from tilecheck.check import from_dict, load_check
from tilecheck.report import prove

EXAMPLES = Path(__file__).parent.parent / "examples"


def tile(rows, cols, layout, num=4, trans=False, op="ldmatrix", symbols=None, arch="sm_90", assume=(), expect=None):
    """A warp moves an (rows x cols) fp16 shared tile, 8x8 matrices (mb, kb), matrix i = (ib ia)."""
    pat = "(mb=%d ia=2 g=8) (kb=%d ib=2 q=4 j=2) -> (g q) mb kb (ib ia j)" % (rows // 16, cols // 16)
    if num == 2:
        pat = "(mb=%d g=8) (kb=%d ib=2 q=4 j=2) -> (g q) mb kb (ib j)" % (rows // 8, cols // 16)
    data = {"arch": arch, "threads": 32,
            "tensors": {"S": {"dtype": "float16", "scope": "shared", "shape": [rows, cols], "layout": layout,
                              "align": 128},
                        "R": {"dtype": "float16", "scope": "register", "shape": [rows, cols]}},
            "apply": [{"opcode": f"{op}.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16",
                       "scope": "warp", "dst": "R: " + pat, "src": "S: " + pat}]}
    if op == "stmatrix":
        a = data["apply"][0]
        a["dst"], a["src"] = a["src"], a["dst"]
    if symbols:
        data["symbols"] = symbols
    if assume:
        data["assume"] = list(assume)
    if expect:
        data["apply"][0]["expect"] = expect
    return from_dict(data, "<test>")


def banks(check):
    (a,) = prove(check).applies
    return next(o for o in a.obligations if o.name == "banks")


def decided(check, env=None):
    return decide.decide(check, env)[0]["banks"] if env is None else decide.decide(check, [env])[0]["banks"]


@pytest.mark.parametrize("pitch,per_matrix", [(16, 1), (32, 2), (64, 4), (128, 8), (144, 1), (256, 8)])
def test_row_pitch_sets_the_wavefronts_of_each_matrix(pitch, per_matrix):
    """Rows ``pitch`` bytes apart (a (16, pitch/2) fp16 tile's 16x16 block): 8 rows touch
    ``128 // gcd`` banks... per matrix: as many wavefronts as rows share one bank's words."""
    cols = pitch // 2
    if cols < 16:
        pytest.skip("the pattern needs 16 columns")
    c = tile(16, 16, f"(16,16):({cols},1)")
    o = banks(c)
    assert o.count == 4 * per_matrix
    assert o.status == ("proved" if per_matrix == 1 else "refuted")
    d = decided(c)
    assert (d[0] == "proved") == (per_matrix == 1)
    if d[1]:
        assert d[1]["count"] == 4 * per_matrix


def test_the_swizzle_removes_the_conflicts_of_a_128_byte_row_tile():
    plain, swz = tile(32, 64, "(32,64):(64,1)"), tile(32, 64, "Sw<3,3,3> o (32,64):(64,1)")
    o = banks(plain)
    assert (o.status, o.count) == ("refuted", 32)
    assert o.counterexample["lanes"] == [0, 1] and o.counterexample["bank"] == 0
    assert (banks(swz).status, banks(swz).count) == ("proved", 4)
    assert decided(plain)[1]["count"] == 32 and decided(swz)[0] == "proved"


def test_stmatrix_addresses_rows_alike():
    c = tile(32, 64, "(32,64):(64,1)", op="stmatrix")
    assert banks(c).count == 32 and decided(c)[1]["count"] == 32
    assert banks(tile(32, 64, "Sw<3,3,3> o (32,64):(64,1)", op="stmatrix")).status == "proved"


def test_x2_counts_two_phases_and_ignores_the_other_lanes():
    c = tile(16, 16, "(16,16):(8,1)", num=2)  # 16-byte rows contiguous: the ideal, 2 phases
    o = banks(c)
    assert (o.status, o.count) == ("proved", 2)


def test_symbolic_row_pitch_refuted_with_the_pitch_never_refuted_when_padded():
    """A symbolic pitch ``p`` (elements, multiple of 8): refuted at a pitch that puts rows in one
    bank.  Padded (``p % 64 == 8``: 144 bytes mod 128) it is conflict-free for every allowed value,
    which Z3 does not prove (``r * p`` modulo 32 words: nonlinear; unknown, never refuted) -- the
    concrete padded pitch is proved above.  Known gap: a residue decision procedure would decide it."""
    sym = {"p": {"min": 64, "max": 1024, "multiple_of": 8}}
    o = banks(tile(16, 16, "(16,16):(p,1)", symbols=sym))
    assert o.status == "refuted"
    p = o.counterexample["symbols"]["p"]
    rows = {lane: 2 * ((lane % 8) * p + 8 * (lane // 8 % 2) + 8 * p * (lane // 16)) for lane in range(32)}
    assert memory_model.matrix_wavefronts(rows, 4) > 4  # the counterexample replays in the model
    padded = {"p": {"min": 72, "max": 6472, "multiple_of": 8}}
    o2 = banks(tile(16, 16, "(16,16):(p,1)", symbols=padded, assume=["p % 64 == 8"],
                    expect={"banks": "conflict-free"}))  # a contract: the full solver budget
    assert o2.status in ("proved", "unknown")


def test_staging_examples_swizzled_proved_unswizzled_refuted_with_lanes():
    for name in ("staging_fp16_x4", "staging_bf16_x4_trans"):
        r = prove(load_check(str(EXAMPLES / f"{name}.toml")))
        assert r.verdict == "proved"
        o = next(o for o in r.applies[1].obligations if o.name == "banks")
        assert (o.status, o.count) == ("proved", 4), name
    r = prove(load_check(str(EXAMPLES / "staging_unswizzled_banks_refuted.toml")))
    assert r.verdict == "refuted"
    o = next(o for o in r.applies[1].obligations if o.name == "banks")
    assert (o.status, o.count, o.counterexample["lanes"]) == ("refuted", 32, [0, 1])
    assert all(o.status == "proved" for o in r.applies[1].obligations if o.name != "banks")


def test_ncu_prediction_of_the_staging_kernel_counts_ldmatrix_as_the_model(tmp_path):
    """The emitted staging kernel's predicted shared-load wavefronts: 8 LDSM.x4 at 4 (swizzled) or
    32 (unswizzled) each, plus the copy-back loop; its SASS holds 8 LDGSTS and 8 LDSM."""
    from tilecheck.gpu import ncu_compare as nc
    from tilecheck.gpu.reference import bind_symbols
    from tilecheck.tools import ToolNotFound, find_tool
    got = {}
    for name in ("staging_fp16_x4", "staging_unswizzled_banks_refuted"):
        c = load_check(str(EXAMPLES / f"{name}.toml"))
        env = bind_symbols(c, {"m": 45, "k": 72, "r0": 32, "c0": 0})
        items = nc.traffic(c, env)
        ldsm = next(t for t in items if "ldmatrix" in t.source)
        got[name] = ldsm.count()
        assert len(ldsm.warps) == 8 and ldsm.ideal() == 32
        assert nc.sass_expected(items)["LDSM"] == 8 and nc.sass_expected(items)["LDGSTS"] == 8
        assert [t.key for t in items if "cp.async" in t.source and t.judged] == ["global_ld"]
    assert got == {"staging_fp16_x4": 32, "staging_unswizzled_banks_refuted": 256}
    try:
        find_tool("ptxas"), find_tool("nvdisasm")
    except ToolNotFound as e:
        pytest.skip(str(e))
    c = load_check(str(EXAMPLES / "staging_fp16_x4.toml"))
    env = bind_symbols(c, {"m": 45, "k": 72, "r0": 32, "c0": 0})
    rec = nc.case_record(c, prove(c).plan, "tcnc_stage", env)
    assert rec["judged"] == "shared_ld" and nc.assemble([rec], tmp_path, log=lambda m: None, arch=c.arch) == set()
