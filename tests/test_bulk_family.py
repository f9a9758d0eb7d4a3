"""Non-tensor bulk copies (``families/bulk.py``, issue 30 item 3): the spelling held to ptxas, the shared
obligations on 16-byte atoms (alignment, bounds, contiguity), ``bulk_copy`` and ``bulk_tx``, each held
to the decider's restatement."""
import copy
import subprocess
from pathlib import Path

import pytest

from tilecheck import decide, families
from tilecheck.check import from_dict, load
from tilecheck.errors import InputError
from tilecheck.report import prove

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LOAD = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.global.shared::cta.bulk_group"


def base(src="A[i:i+1, 0:32]: o (r w=4) -> (o r) w", size=128, store=False, **tensors):
    """One row of 32 float32 (128 bytes) of A copied to S: proved."""
    d = {"arch": "sm_90", "symbols": {"i": {"min": 0, "max": 63}},
         "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [64, 64], "align": 16},
                     "S": {"dtype": "float32", "scope": "shared", "shape": [32], "align": 128}, **tensors},
         "apply": [{"opcode": LOAD, "dst": "S: (r w=4) -> r w", "src": src, "size": size, "expect_tx": size}]}
    if store:
        d["apply"][0] = {"opcode": STORE, "dst": src, "src": "S: (r w=4) -> r w", "size": size}
    return d


def outcomes(d):
    c = from_dict(copy.deepcopy(d))
    got = {o.name: o for o in prove(c).applies[0].obligations}
    want = decide.decide(c)[0]
    for name, o in got.items():  # the decider's restatement agrees, and every refutation replays on it
        if o.status in ("proved", "refuted"):
            assert want[name][0] == o.status, (name, o.status, want[name])
        if o.status == "refuted":
            assert decide.violation_at(c, 0, name, o.counterexample) is None, o.message
    return got


def status(d, name):
    return outcomes(d)[name].status


def test_a_row_is_proved_as_one_instruction_with_the_shared_obligations():
    for store in (False, True):
        got = outcomes(base(store=store))
        assert all(o.status == "proved" for o in got.values()), {n: o.message for n, o in got.items()}
        assert {"contiguity", "alignment", "bounds", "overflow", "bulk_copy"} <= set(got)
        assert ("bulk_tx" in got) != store  # a store completes with .bulk_group: no byte count
    assert prove(from_dict(base())).applies[0].instructions == 1


def test_the_examples():
    assert prove(load(EXAMPLES / "bulk_copy_row.toml")).verdict == "proved"
    o = outcomes(base(size=2040))["bulk_copy"]
    assert o.status == "refuted" and "not a positive multiple of 16 (8 bytes past 2032)" in o.message
    r = prove(load(EXAMPLES / "bulk_size_2040_refuted.toml"))
    o = r.applies[0].obligation("bulk_copy")
    assert o.status == "refuted" and o.counterexample["size"] == 2040 and "ptxas refuses the immediate" in o.message


def test_bulk_copy_holds_size_to_the_views_bytes_and_one_run():
    o = outcomes(base(size=144))["bulk_copy"]
    assert o.status == "refuted" and "is 8 atoms of 16 bytes, 128 bytes" in o.message
    # a column block of two rows: atom 2 starts a row (64 floats) on, not 8 floats on
    o = outcomes(base(src="A[i:i+4, 0:8]: o (r w=4) -> (o r) w"))["bulk_copy"]
    assert o.status == "refuted" and (o.counterexample["offset"] - o.counterexample["expected_offset"]) % 56 == 0
    # a symbolic size the facts leave free: refuted where it is not the view's 128 bytes
    d = base(size="16*n")
    d["symbols"]["n"] = {"min": 1, "max": 64}
    d["apply"][0]["expect_tx"] = "16*n"
    assert status(d, "bulk_copy") == "refuted"
    d["assume"] = ["n == 8"]  # (the decider's corner enumeration has no assignment here: the prover alone)
    assert prove(from_dict(d)).applies[0].obligation("bulk_copy").status == "proved"


def test_alignment_and_bounds_are_the_shared_obligations():
    o = outcomes(base(src="A[i:i+1, 2:34]: o (r w=4) -> (o r) w"))["alignment"]  # 8 bytes into the row
    assert o.status == "refuted" and o.counterexample["byte_offset"] % 16 == 8
    assert status(base(src="A[i:i+1, 0:32]: o (r w=4) -> (o r) w", A={"dtype": "float32", "scope": "global",
                                                                       "shape": [64, 64], "align": 8}),
                  "alignment") == "refuted"
    d = base()
    d["symbols"]["i"]["max"] = 64  # row 64 of a 64-row tensor
    assert status(d, "bounds") == "refuted"


def test_bulk_tx_is_the_size():
    d = base()
    d["apply"][0]["expect_tx"] = 64
    o = outcomes(d)["bulk_tx"]
    assert o.status == "refuted" and "the copy delivers its size, 128 = 128 bytes" in o.message


def test_bad_keys_are_input_errors():
    for over, words in (({"size": None}, "needs size"), ({"expect_tx": None}, "needs expect_tx"),
                        ({"size": True}, "must be an integer"), ({"phase": 1}, "phase must be")):
        d = base()
        for k, v in over.items():
            if v is None:
                del d["apply"][0][k]
            else:
                d["apply"][0][k] = v
        with pytest.raises(InputError, match=words):
            from_dict(d)
    with pytest.raises(InputError, match="a load's"):
        d = base(store=True)
        d["apply"][0]["expect_tx"] = 128
        from_dict(d)


def test_not_modelled_forms_are_refused_at_parse():
    for text in (LOAD + ".multicast::cluster", "cp.async.bulk.prefetch.L2.global",
                 "cp.async.bulk.commit_group"):
        with pytest.raises(ValueError, match="bulk family models|not modelled|models the copies"):
            families.parse(text)
    assert families.parse(LOAD).kind == "cp.async.bulk"
    assert families.parse("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group").kind == "cp.async.bulk.tensor"


# --- the spelling and its lowest .version held to ptxas 13.0 ---

SPELLINGS = [LOAD, STORE, LOAD + ".L2::cache_hint", STORE + ".L2::cache_hint",
             "cp.async.bulk.mbarrier::complete_tx::bytes.shared::cluster.global",  # any order but the spaces'
             "cp.async.bulk.shared::cluster.global.L2::cache_hint.mbarrier::complete_tx::bytes",
             "cp.async.bulk.bulk_group.global.shared::cta",
             # refused by legality: ptxas must refuse them too (at the .version tilecheck emits, 8.0)
             "cp.async.bulk.global.shared::cluster.mbarrier::complete_tx::bytes",
             "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes",
             "cp.async.bulk.shared::cluster.global.bulk_group",
             "cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes",
             "cp.async.bulk.global.shared::cluster.bulk_group",
             "cp.async.bulk.shared::cta.global.bulk_group",
             LOAD + ".L2::cache_hint.L2::cache_hint"]


def _module(text, version, size="256"):
    fam = families.FAMILIES["cp.async.bulk"]
    op = families.parse(text)
    dst, src = ("%r1", "%rd1") if op.load else ("%rd1", "%r1")
    line = fam.spell(op, dst, src, size, "%r2", "%rd2")
    return "\n".join([f".version {version}", ".target sm_90", ".address_size 64",
                      ".shared .align 128 .b8 smem[4096];", ".shared .align 8 .b64 mbar;",
                      ".visible .entry k(.param .u64 p)", "{", "\t.reg .b32 %r<8>;", "\t.reg .b64 %rd<8>;",
                      "\tmov.u32 %r1, smem;", "\tmov.u32 %r2, mbar;", "\tld.param.u64 %rd1, [p];",
                      "\tmov.b64 %rd2, 0;", "\tmov.u32 %r3, 256;", line, "\tret;", "}", ""])


def _ptxas(text, version, tmp_path, size="256"):
    from tilecheck.tools import find_tool
    src = tmp_path / "k.ptx"
    src.write_text(_module(text, version, size))
    r = subprocess.run([find_tool("ptxas"), "-arch=sm_90", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip() or "refused")


def _need_ptxas():
    from tilecheck.tools import ToolNotFound, find_tool
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")


@pytest.mark.parametrize("text", SPELLINGS)
def test_legality_and_version_match_ptxas(text, tmp_path):
    _need_ptxas()
    fam = families.FAMILIES["cp.async.bulk"]
    op = families.parse(text)
    legal = fam.legality(op, "sm_90") is None
    err = _ptxas(text, "8.0", tmp_path)
    assert (err is None) == legal, (text, err)
    if legal:
        assert fam.ptx_version(op, "sm_90") == (8, 0) and fam.legality(op, "sm_80") is not None
        assert "requires PTX ISA .version 8.0" in (_ptxas(text, "7.8", tmp_path) or ""), text


def test_ptxas_refuses_an_immediate_size_off_16_and_takes_a_register(tmp_path):
    _need_ptxas()
    assert "multiple of 16" in (_ptxas(LOAD, "8.0", tmp_path, size="2040") or "")
    assert _ptxas(LOAD, "8.0", tmp_path, size="2048") is None and _ptxas(LOAD, "8.0", tmp_path, size="%r3") is None
