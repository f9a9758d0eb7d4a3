"""The TMA family (cp.async.bulk.tensor, families/tma.py) and its obligations (proofs/tma_*.py): each
refuted and proved, the decider's restatement agreeing with the proofs on drawn applies."""
import copy
import random

import pytest

from tilecheck import decide, families
from tilecheck.check import from_dict
from tilecheck.cli import main
from tilecheck.errors import InputError
from tilecheck.opcodes import OpcodeError
from tilecheck.report import prove

LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def base(**over):
    """A 128 x 64 float16 box, 128B-swizzled, landed in a matching shared tensor: proved."""
    d = {"arch": "sm_90", "assume": ["64*k + 64 <= K", "128*m + 128 <= M"],
         "symbols": {"M": {"min": 128, "max": 4096, "multiple_of": 128},
                     "K": {"min": 64, "max": 4096, "multiple_of": 64},
                     "m": {"min": 0, "max": 31}, "k": {"min": 0, "max": 63}},
         "tensors": {"A": {"dtype": "float16", "scope": "global", "shape": ["M", "K"], "align": 256},
                     "S": {"dtype": "float16", "scope": "shared", "shape": [128, 64],
                           "layout": "Sw<3,3,3> o (128,64):(64,1)", "align": 1024}},
         "tensormaps": {"TA": {"tensor": "A", "dims": ["K", "M"], "strides": ["2*K"], "box": [64, 128],
                               "swizzle": "128B"}},
         "apply": [{"opcode": LOAD, "dst": "S: i j -> (i j)", "src": "A[0:1, 0:1]", "tensormap": "TA",
                    "coords": ["64*k", "128*m"], "expect_tx": 16384}]}
    for path, v in over.items():
        node = d
        keys = path.split("/")
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if v is None:
            del node[keys[-1]]
        else:
            node[keys[-1]] = v
    return d


def outcomes(d):
    r = prove(from_dict(copy.deepcopy(d)))
    return {o.name: o for o in r.applies[0].obligations}


def statuses(d):
    return {n: o.status for n, o in outcomes(d).items()}


def test_the_base_check_is_proved_and_names_the_family_obligations():
    s = statuses(base())
    assert s == dict.fromkeys(["target", "tma_map", "tma_inner", "tma_smem", "tma_landing", "tma_tx", "tma_box"],
                              "proved")


def test_parse_prefers_the_longest_instruction_name():
    # "cp.async" is a prefix of "cp.async.bulk.tensor": the TMA family parses it, not cp.async's
    op = families.parse(LOAD)
    assert op.kind == "cp.async.bulk.tensor" and op.rank == 2 and op.load
    assert families.parse("cp.async.ca.shared.global").kind == "cp.async"


@pytest.mark.parametrize("text, reason", [
    ("cp.async.bulk.tensor.2d.global.shared::cluster.tile.mbarrier::complete_tx::bytes", "the spaces"),
    ("cp.async.bulk.tensor.2d.shared::cluster.global.tile.bulk_group", "completes with"),
    ("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.multicast::cluster", "multicast"),
    ("cp.async.bulk.tensor.shared::cluster.global.mbarrier::complete_tx::bytes", "one of .1d"),
    ("cp.async.bulk.tensor.2d.shared::cluster.global.tile.tile.mbarrier::complete_tx::bytes", "given twice"),
])
def test_illegal_spellings_are_refuted_on_target(text, reason):
    fam = families.FAMILIES["cp.async.bulk.tensor"]
    assert reason in fam.legality(families.parse(text), "sm_90")


def test_sm80_is_refuted_and_legal_spellings_pass():
    fam = families.FAMILIES["cp.async.bulk.tensor"]
    assert "sm_90" in fam.legality(families.parse(LOAD), "sm_80")
    for text in (LOAD, STORE, LOAD + ".multicast::cluster.L2::cache_hint",
                 "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes"):
        assert fam.legality(families.parse(text), "sm_90") is None, text


def test_im2col_is_not_modelled():
    with pytest.raises(OpcodeError, match="tile mode only"):
        families.parse("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes")


@pytest.mark.parametrize("over, match", [
    ({"apply/0/tensormap": None}, "tensormap"),
    ({"apply/0/coords": ["64*k"]}, "needs 2"),
    ({"apply/0/expect_tx": None}, "expect_tx"),
    ({"apply/0/cta_mask": 3}, "cta_mask goes exactly with"),
    ({"apply/0/coords": ["64*k", True]}, "integer or an expression"),
])
def test_bad_apply_keys_are_input_errors(over, match):
    with pytest.raises(InputError, match=match):
        from_dict(base(**over))


def test_bad_input_is_one_line_exit_2(tmp_path, capsys):
    import tomlkit
    p = tmp_path / "bad.toml"
    p.write_text(tomlkit.dumps(base(**{"apply/0/expect_tx": None})))
    assert main(["prove", str(p)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "expect_tx" in err


# --- one test per obligation: refuted, and the fixed form proved ---

def test_tma_map_refutes_a_map_of_another_tensor_and_a_shape_that_is_not_the_box():
    d = base(**{"tensors/B": {"dtype": "float16", "scope": "global", "shape": [64, 64]}})
    d["tensormaps"]["TB"] = {"tensor": "B", "dims": [64, 64], "strides": [128], "box": [64, 128]}
    d["apply"][0]["tensormap"] = "TB"
    o = outcomes(d)["tma_map"]
    assert o.status == "refuted" and "describes B" in o.message
    o = outcomes(base(**{"tensors/S/shape": [64, 64], "tensors/S/layout": "Sw<3,3,3> o (64,64):(64,1)"}))["tma_map"]
    assert o.status == "refuted" and o.counterexample["box_visits"] == [128, 64]
    o = outcomes(base(**{"apply/0/tensormap": "TZ"}))["tma_map"]
    assert o.status == "refuted" and "no [tensormaps] table" in o.message


def test_tma_inner_refuted_at_the_smallest_unaligned_column_and_proved_aligned():
    d = base(**{"symbols/c": {"min": 0, "max": 64}, "apply/0/coords": ["c", "128*m"]})
    o = outcomes(d)["tma_inner"]
    assert o.status == "refuted" and o.counterexample["coords[0]"] == 1 and o.counterexample["bytes"] == 2
    d["symbols"]["c"]["multiple_of"] = 8  # 8 float16 = 16 bytes
    assert statuses(d)["tma_inner"] == "proved"


def test_tma_smem_refutes_128_alignment_of_a_swizzled_box_and_an_offset_off_128():
    o = outcomes(base(**{"tensors/S/align": 128}))["tma_smem"]
    assert o.status == "refuted" and o.counterexample["repeat"] == 1024
    # unswizzled: 128 is enough
    assert statuses(base(**{"tensors/S/align": 128, "tensormaps/TA/swizzle": "none",
                            "tensors/S/layout": "(128,64):(64,1)"}))["tma_smem"] == "proved"
    # a symbolic stage offset: 16 bytes past 1024 faults
    d = base(**{"symbols/s": {"min": 0, "max": 3}, "tensors/S/offset": "8192*s + 8*s"})
    o = outcomes(d)["tma_smem"]
    assert o.status == "refuted" and o.counterexample["symbols"]["s"] == 1 and o.counterexample["offset_bytes"] == 16400


def test_tma_landing_refutes_a_swizzle_mismatch_with_the_first_differing_element():
    o = outcomes(base(**{"tensors/S/layout": "(128,64):(64,1)"}))["tma_landing"]
    assert o.status == "refuted" and o.counterexample["element"] == [1, 0]
    assert (o.counterexample["declared_byte"], o.counterexample["tma_byte"]) == (128, 144)
    o = outcomes(base(**{"tensors/S/layout": "Sw<2,3,3> o (128,64):(64,1)"}))["tma_landing"]
    assert o.status == "refuted" and o.counterexample["element"] == [4, 0]


@pytest.mark.parametrize("layout", ["Sw<3,3,3> o (128,(8,8)):(64,(1,8))", "Sw<3,3,3> o ((64,2),64):((64,4096),1)"])
def test_tma_landing_proves_another_spelling_of_the_same_layout(layout):
    assert statuses(base(**{"tensors/S/layout": layout}))["tma_landing"] == "proved"
    # and a spelling that moves one mode is refuted
    o = outcomes(base(**{"tensors/S/layout": layout.replace("(1,8)", "(8,1)").replace("(64,4096)", "(4096,64)")}))
    assert o["tma_landing"].status == "refuted"


def test_tma_landing_holds_the_pattern_anchored_by_the_offset():
    # the second pipeline stage 128 bytes past a 1024 boundary: the declared layout sees the offset
    # before the swizzle (as CuTe does), so it is where TMA lands the box
    d = base(**{"symbols/s": {"min": 0, "max": 3}, "tensors/S/offset": "64*s"})
    assert statuses(d)["tma_landing"] == "proved"
    # declared as if the stage started the pattern (the offset after the swizzle): refuted at s = 1
    d = base(**{"symbols/s": {"min": 0, "max": 3}, "tensors/S/offset": "64*s",
                "tensors/S/layout": "(128,64):(64,1)"})
    assert outcomes(d)["tma_landing"].status == "refuted"


def test_tma_landing_needs_room_for_the_padded_rows():
    """The H200 (2026-12-03): a 128B-swizzled box of 64-byte rows (32 float16) puts each row 128 bytes
    apart.  A shared tensor declared with dense rows is refuted at row 1, naming the footprint; the
    padded layout (row stride 64 elements) is proved; expect_tx stays the box's bytes."""
    narrow = {"tensormaps/TA/box": [32, 128], "tensors/S/shape": [128, 32], "apply/0/coords": ["32*k", "128*m"],
              "apply/0/expect_tx": 8192}
    dense = base(**narrow, **{"tensors/S/layout": "Sw<3,3,3> o (128,32):(32,1)"})
    o = outcomes(dense)
    assert o["tma_landing"].status == "refuted" and o["tma_landing"].counterexample["element"] == [1, 0]
    # the decider's restatement (padded rows too) replays the refutation, and finds it by itself
    assert decide.violation_at(from_dict(copy.deepcopy(dense)), 0, "tma_landing", o["tma_landing"].counterexample) is None
    assert decide.decide(from_dict(copy.deepcopy(dense)), limit=10**3)[0]["tma_landing"][0] == "refuted"
    assert (o["tma_landing"].counterexample["declared_byte"], o["tma_landing"].counterexample["tma_byte"]) == (64, 144)
    assert "needs 16384 bytes of S, 128 per row" in o["tma_landing"].message
    o = outcomes(base(**narrow, **{"tensors/S/layout": "Sw<3,3,3> o (128,32):(64,1)"}))
    assert o["tma_landing"].status == "proved" and o["tma_tx"].status == "proved"
    padded = from_dict(base(**narrow, **{"tensors/S/layout": "Sw<3,3,3> o (128,32):(64,1)"}))
    assert decide.decide(padded, limit=10**3)[0]["tma_landing"][0] == "proved"


def test_tma_tx_counts_the_full_box_the_multicast_fan_in_and_the_limit():
    o = outcomes(base(**{"symbols/R": {"min": 1, "max": 128}, "apply/0/expect_tx": "128*R"}))["tma_tx"]
    assert o.status == "refuted" and (o.counterexample["expect_tx"], o.counterexample["delivered"]) == (128, 16384)
    mc = {"apply/0/opcode": LOAD + ".multicast::cluster", "apply/0/cta_mask": 0b1011}
    o = outcomes(base(**mc))["tma_tx"]
    assert o.status == "refuted" and o.counterexample["delivered"] == 3 * 16384
    assert statuses(base(**mc, **{"apply/0/expect_tx": 3 * 16384}))["tma_tx"] == "proved"
    # element strides: ceil(128 / 3) = 43 rows visited
    es = {"tensormaps/TA/element_strides": [1, 3], "tensors/S/shape": [43, 64],
          "tensors/S/layout": "Sw<3,3,3> o (43,64):(64,1)"}
    assert statuses(base(**es, **{"apply/0/expect_tx": 43 * 128}))["tma_tx"] == "proved"
    assert outcomes(base(**es))["tma_tx"].counterexample["delivered"] == 43 * 128
    # over the mbarrier's 2^20 - 1: 16 CTAs of a 64 KiB box (2 x 256 x 64 float16) is 2^20
    big = base(**{"apply/0/opcode": LOAD.replace(".2d", ".3d") + ".multicast::cluster", "apply/0/cta_mask": 0xFFFF,
                  "apply/0/expect_tx": 2**20, "apply/0/coords": ["64*k", "256*m", 0],
                  "apply/0/dst": "S: h i j -> (h i j)", "apply/0/src": "A[0:1, 0:1, 0:1]",
                  "tensors/S/shape": [2, 256, 64], "tensors/S/layout": "Sw<3,3,3> o (2,256,64):(16384,64,1)",
                  "tensors/A/shape": [2, "M", "K"], "assume": ["64*k + 64 <= K", "256*m + 256 <= M"]})
    big["tensormaps"]["TA"] = {"tensor": "A", "dims": ["K", "M", 2], "strides": ["2*K", "2*K*M"],
                               "box": [64, 256, 2], "swizzle": "128B"}
    o = outcomes(big)["tma_tx"]
    assert o.status == "refuted" and "2^20 - 1" in o.message and o.counterexample["delivered"] == 2**20


def test_tma_box_is_reported_not_blocking_and_blocks_when_required():
    d = base(**{"assume": ["64*k + 64 <= K"]})
    r = prove(from_dict(copy.deepcopy(d)))
    o = r.applies[0].obligation("tma_box")
    assert o.status == "refuted" and r.verdict == "proved"
    d["apply"][0]["require"] = ["tma_box"]
    assert prove(from_dict(d)).verdict == "refuted"


def test_a_store_is_proved_and_has_no_expect_tx():
    st = {"apply/0/opcode": STORE, "apply/0/dst": "A[0:1, 0:1]", "apply/0/src": "S: i j -> (i j)",
          "apply/0/expect_tx": None}
    s = statuses(base(**st))
    assert s["tma_tx"] == "proved" and all(v == "proved" for v in s.values())
    with pytest.raises(InputError, match="a load's"):
        from_dict(base(**{**st, "apply/0/expect_tx": 16384}))
    assert statuses(base(**{**st, "tensors/S/align": 512}))["tma_smem"] == "refuted"


def test_emitting_a_tma_copy_writes_it_and_a_multicast_is_a_one_line_error(tmp_path, capsys):
    import tomlkit
    p = tmp_path / "tma.toml"
    p.write_text(tomlkit.dumps(base()))
    assert main(["emit", str(p)]) == 0
    out = capsys.readouterr().out
    assert f"\t{LOAD} [%base_S], [%tmap_TA, {{" in out and "mbarrier.arrive.expect_tx" in out
    p.write_text(tomlkit.dumps(base(**{"apply/0/opcode": LOAD + ".multicast::cluster", "apply/0/cta_mask": 1,
                                       "apply/0/expect_tx": 16384})))
    assert main(["emit", str(p)]) == 2
    err = capsys.readouterr().err
    assert "does not emit .multicast::cluster copies yet" in err and err.count("\n") == 1


# --- the decider's restatement (families/tma.py RULES) agrees with the proofs on drawn applies ---

def _draw(rng):
    esize, dtype = rng.choice([(1, "uint8"), (2, "float16"), (4, "float32"), (8, "float64")])
    swz = rng.choice(["none", "32B", "64B", "128B"])
    span = {"none": 128, "32B": 32, "64B": 64, "128B": 128}[swz]
    inner = rng.choice([n for n in (16, 32, 64, 128) if n <= span]) // esize
    rows = rng.choice([2, 4, 8, 16])
    es = rng.choice([1, 1, 2, 3])
    visits = -(-rows // es)
    b = {"none": 0, "32B": 1, "64B": 2, "128B": 3}[swz]
    cb = rng.choice([b, b, max(b - 1, 0), min(b + 1, 3)])  # the consumer's pattern, now and then another
    m_base = 4 - (esize.bit_length() - 1)
    layout = f"({visits},{inner}):({inner},1)"
    if cb:
        layout = f"Sw<{cb},{m_base},3> o {layout}"
    align = rng.choice([128, 256, 512, 1024])
    off_unit = rng.choice([0, 16, 128, 1024]) // esize
    c0 = rng.choice(["16*c", "c", "8*c", f"{inner}*c"])
    tx = rng.choice(["exact", "exact", "clamped", "R"])
    box_bytes = esize * inner * visits
    return {"arch": "sm_90",
            "symbols": {"c": {"min": 0, "max": 3}, "r": {"min": 0, "max": 2}, "s": {"min": 0, "max": 2},
                        "R": {"min": 1, "max": 3}, "N": {"min": 64, "max": 64}},
            "tensors": {"G": {"dtype": dtype, "scope": "global", "shape": [rows * 3, "N"], "align": 256},
                        "S": {"dtype": dtype, "scope": "shared", "shape": [visits, inner], "layout": layout,
                              "align": align, "offset": f"{off_unit}*s"}},
            "tensormaps": {"T": {"tensor": "G", "dims": ["N", rows * 3], "strides": [f"{esize}*N"],
                                 "box": [inner, rows], "element_strides": [1, es], "swizzle": swz}},
            "apply": [{"opcode": LOAD, "dst": "S: i j -> (i j)", "src": "G[0:1, 0:1]", "tensormap": "T",
                       "coords": [c0, f"{rows}*r"],
                       "expect_tx": {"exact": box_bytes, "clamped": f"{box_bytes}*R - {esize * inner}*R",
                                     "R": f"{box_bytes // 2}*R"}[tx]}]}


def test_decider_agrees_with_the_proofs_on_drawn_applies():
    rng = random.Random(30)
    refuted = {}
    for n in range(60):
        d = _draw(rng)
        c = from_dict(copy.deepcopy(d))
        want = {k: v[0] for k, v in decide.decide(c, limit=10**4)[0].items()}  # every assignment: small ranges
        report = prove(c)
        got = {o.name: o.status for o in report.applies[0].obligations}
        for o in report.applies[0].obligations:  # every refutation replays on the decider (tilecheck fuzz's check)
            if o.status == "refuted":
                assert decide.violation_at(c, 0, o.name, o.counterexample) is None, (n, o.message)
        for k, v in got.items():  # skipped: a prerequisite failed (the decider, combining assignments,
            # decides it at those where the prerequisite held, as tilecheck fuzz allows)
            if v == "skipped":
                assert any(want[p] != "proved" for p in decide.needs(k, False)), (n, k, d)
            else:
                assert v == want[k], (n, k, v, want[k], d)
        for k, v in got.items():
            refuted[k] = refuted.get(k, 0) + (v == "refuted")
    # the draws reach every obligation's refutation
    assert all(refuted[k] for k in ("tma_inner", "tma_smem", "tma_landing", "tma_tx", "tma_box")), refuted


# --- the spelling and its lowest .version held to ptxas 13.0 ---

def _spellings():
    out = []
    for r in range(1, 6):
        out += [f"cp.async.bulk.tensor.{r}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
                f"cp.async.bulk.tensor.{r}d.global.shared::cta.tile.bulk_group"]
    load = "cp.async.bulk.tensor.2d.shared::cluster.global"
    out += [f"{load}.mbarrier::complete_tx::bytes", f"{load}.mbarrier::complete_tx::bytes.multicast::cluster",
            f"{load}.tile.mbarrier::complete_tx::bytes.L2::cache_hint",
            f"{load}.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
            "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group.L2::cache_hint",
            f"{load}.mbarrier::complete_tx::bytes.L2::cache_hint.multicast::cluster",  # either order
            f"{load}.mbarrier::complete_tx::bytes.tile", "cp.async.bulk.tensor.2d.tile.shared::cluster.global"
            ".mbarrier::complete_tx::bytes",  # any order but the spaces'
            # refused by legality: ptxas must refuse them too
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.tile.mbarrier::complete_tx::bytes",
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.multicast::cluster",
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.bulk_group",
            "cp.async.bulk.tensor.2d.global.shared::cta.tile.mbarrier::complete_tx::bytes",
            "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"]
    return out


def _module(text, version):
    fam = families.FAMILIES["cp.async.bulk.tensor"]
    op = families.parse(text)
    regs = [f"%r{10 + i}" for i in range(max(op.rank, 1))]
    line = fam.spell(op, "%r1", "%rd1", regs, "%r2", "%rs1", "%rd2")
    return "\n".join([f".version {version}", ".target sm_90", ".address_size 64",
                      ".shared .align 1024 .b8 smem[4096];", ".shared .align 8 .b64 mbar;",
                      ".visible .entry k(.param .align 64 .b8 tmap[128])", "{",
                      "\t.reg .b32 %r<24>;", "\t.reg .b64 %rd<8>;", "\t.reg .b16 %rs<4>;",
                      "\tmov.u32 %r1, smem;", "\tmov.u32 %r2, mbar;", "\tmov.b64 %rd1, tmap;",
                      "\tcvta.param.u64 %rd1, %rd1;", "\tmov.b64 %rd2, 0;", "\tmov.b16 %rs1, 3;",
                      *[f"\tmov.u32 {r}, 0;" for r in regs], line, "\tret;", "}", ""])


def _ptxas(text, version, tmp_path):
    from tilecheck.tools import find_tool
    import subprocess
    src = tmp_path / "k.ptx"
    src.write_text(_module(text, version))
    r = subprocess.run([find_tool("ptxas"), "-arch=sm_90", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip() or "refused")


@pytest.mark.parametrize("text", _spellings())
def test_legality_and_version_match_ptxas(text, tmp_path):
    from tilecheck.tools import ToolNotFound, find_tool
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    fam = families.FAMILIES["cp.async.bulk.tensor"]
    op = families.parse(text)
    legal = fam.legality(op, "sm_90") is None
    err = _ptxas(text, "8.0", tmp_path)
    assert (err is None) == legal, (text, err)
    if legal:
        assert fam.ptx_version(op, "sm_90") == (8, 0)
        assert "requires PTX ISA .version 8.0" in (_ptxas(text, "7.8", tmp_path) or ""), text
