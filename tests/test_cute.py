"""The CuTe DSL front end (`tilecheck cute`): translation of recorded traces (no DSL needed), the CLI, and —
when nvidia-cutlass-dsl is installed (pip install -e '.[cute]') — real traces of CUTLASS's GEMM examples
(tests/cute_cases/, copied from NVIDIA/cutlass 7107b05) and of small kernels, against the recording."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tilecheck.cli import main
from tilecheck.frontends import cute

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cute_cases"
RECORDING = CASES / "cutlass_gemms.extraction.json"
needs_dsl = pytest.mark.skipif(not cute.dsl_available(),
                               reason="nvidia-cutlass-dsl is not installed (pip install -e '.[cute]')")


def recording():
    return json.loads(RECORDING.read_text())


def subset(tmp_path, *entries):
    """The recording of some entries only (the CLI tests prove fewer copies)."""
    data = recording()
    data["copies"] = [c for c in data["copies"] if c.get("entry") in entries]
    f = tmp_path / "subset.json"
    f.write_text(json.dumps(data))
    return str(f)


SMALL = ("tilecheck_tensorop_gemm", "tilecheck_elementwise_add")  # 14 copies: 10 proved, 2 refuted, 2 unsupported


@pytest.fixture(scope="module")
def gemms():
    cases, errors = cute.translate(recording())
    for c in cases:
        cute.prove_case(c, timeout=30)
    return cases, errors


def by_line(cases, file, line):
    return [c for c in cases if c.file.endswith(file) and c.line == line]


def test_cutlass_gemm_counts(gemms):
    """Every copy of the four traced configurations is proved, refuted or reported unsupported with its
    reason: the figures of BENCHMARKS.md ("CuTe DSL front end")."""
    cases, errors = gemms
    assert errors == []
    s = cute.summary(cases, errors)
    assert (s["copies"], s["calls"], s["proved"], s["refuted"], s["unknown"], s["unsupported"]) == (100, 148, 81, 10, 0, 9)
    ops = {c.opcode for c in cases if c.result["verdict"] == "proved"}
    assert ops == {"cp.async.ca.shared.global", "cp.async.cg.shared.global", "ld.global.b32", "st.shared.b16",
                   "ld.shared.v4.b32", "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                   "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "stmatrix.sync.aligned.m8n8.x4.shared.b16"}
    shared = [c for c in cases if "banks" in c.result.get("obligations", {})]
    assert len(shared) == 79 and all(c.result["obligations"]["banks"] == "proved" for c in shared)
    reasons = sorted(c.result["reason"].split(":")[0] for c in cases if c.result["verdict"] == "unsupported")
    assert reasons.count("CopyBulkTensorTileG2SOp") == 4 and reasons.count("CopyBulkTensorTileS2GOp") == 1
    tma = [c.result["reason"] for c in cases if c.unsupported and "CopyBulkTensor" in c.unsupported]
    assert all("no tilecheck family" not in r and "global tensor's shape and strides" in r for r in tma)
    loads = [r for r in tma if r.startswith("CopyBulkTensorTileG2SOp")]
    assert all("box (64,128)" in r and "16384 bytes" in r and "align 1024 and swizzle 128B" in r
               and "cp.async.bulk.tensor.2d" in r and "expect_tx" in r and "consumer's view" in r for r in loads)
    store = [r for r in tma if r.startswith("CopyBulkTensorTileS2GOp")]
    assert len(store) == 1 and "box (32,64)" in store[0] and "swizzle 64B" in store[0]
    assert "expect_tx" not in store[0]  # a store arms no barrier
    assert sum("plain CopyAtom" in c.result["reason"] for c in cases if c.unsupported) == 2
    assert sum("loop-carried" in c.result["reason"] for c in cases if c.unsupported) == 2


def test_tensorop_ldmatrix_and_swizzle(gemms):
    """tensorop_gemm's ldmatrix.x4 from its Sw<2,3,3> shared tile (the DSL's pointer swizzle S<2,4,3> on
    bytes) and its 16-byte cp.async into it: proved, conflict-free."""
    cases, _ = gemms
    (ld,) = by_line(cases, "cutlass_ampere_tensorop_gemm.py", 666)
    assert ld.result["verdict"] == "proved"
    assert ld.check["tensors"]["S"]["layout"].startswith("Sw<2,3,3> o ")
    assert ld.result["obligations"]["banks"] == "proved"
    (cp,) = by_line(cases, "cutlass_ampere_tensorop_gemm.py", 545)
    assert cp.opcode == "cp.async.cg.shared.global" and cp.check["apply"][0]["cp_size"] == 16
    assert cp.result["obligations"]["alignment"] == "proved" and cp.result["obligations"]["banks"] == "proved"


def test_stmatrix_epilogue_is_checked_for_every_warp(gemms):
    """Hopper's stmatrix.x4 epilogue: every warp of the CTA at its own tile (a symbol bound to the warp
    id), so the stores of two warps are compared: proved; with the warps' tiles half as far apart, two
    warps store one element."""
    import tilecheck
    from tilecheck.check import from_dict
    cases, _ = gemms
    st = [c for c in cases if c.opcode and c.opcode.startswith("stmatrix") and c.line == 1002]
    assert st and all(c.result["verdict"] == "proved" for c in st)
    data = copy.deepcopy(st[0].check)
    assert data["threads"] == 128 and data["symbols"]["warp"] == {"from": "warpid"}
    d = data["tensors"]["D"]
    assert d["offset"] == "512*warp"
    d["offset"] = "256*warp"
    ob = tilecheck.prove(from_dict(data)).applies[0].obligation("disjoint")
    assert ob.status == "refuted" and ob.counterexample["first"]["thread"] // 32 != \
        ob.counterexample["second"]["thread"] // 32


def test_epilogue_store_refutation_is_explained(gemms):
    """tensorop_gemm's epilogue st.global.v4.b32 (8 halves in pairs): disjoint refuted only at a row stride
    below the tile's 128 columns (4 words = 8 halves in the counterexample), where the kernel's predicate
    masks the columns past N; tilecheck does not model the predicate (docs/cute.md)."""
    cases, _ = gemms
    (st,) = by_line(cases, "cutlass_ampere_tensorop_gemm.py", 813)
    assert st.opcode == "st.global.v4.b32" and st.check["apply"][0].get("pred") is True
    assert st.result["failed"][0] == "disjoint"
    ce = st.result["counterexample"]["first"]  # the first of the two threads that store to one word
    assert min(v for k, v in ce["symbols"].items() if k.startswith("s")) < 64  # a stride in words < 128 halves


def test_refuted_stores_prove_once_the_row_stride_covers_the_tile(gemms):
    """Every refutation is a global store's `disjoint` at a row stride below the tile's width: each check
    proves once its row stride is at least the tile's width (tensorop and flash attention: 128 halves = 64
    words; elementwise_add: 128 floats), and still refutes just below it."""
    from tilecheck import from_dict, prove
    cases, _ = gemms
    refuted = [c for c in cases if c.result["verdict"] == "refuted"]
    assert sorted({(Path(c.file).name, c.line) for c in refuted}) == [
        ("cutlass_ampere_elementwise_add.py", 221), ("cutlass_ampere_flash_attention_v2.py", 745),
        ("cutlass_ampere_tensorop_gemm.py", 813)]
    assert len(refuted) == 10  # flash attention's O store: 8 copies, one per unrolled column block
    width = {"cutlass_ampere_elementwise_add.py": 128}
    for c in refuted:
        assert c.result["failed"][0] == "disjoint"
        (stride,) = [k for k in c.check["symbols"] if k.startswith("s")]
        w = width.get(Path(c.file).name, 64)
        for low, verdict in ((w, "proved"), (w - 8, "refuted")):
            data = copy.deepcopy(c.check)
            data["symbols"][stride]["min"] = low
            rep = prove(from_dict(data), timeout=30).applies[0]
            assert rep.obligation("disjoint").status == verdict, (c.where, low)


def test_plain_atom_of_tiled_partitions(gemms):
    """elementwise_add copies TiledCopy partitions with a plain 32-bit universal CopyAtom: the threads are
    the partitions' tiled copy, the word the atom's one element (scalar ld.global.b32, 16 per thread)."""
    cases, _ = gemms
    loads = [c for c in cases if c.file.endswith("elementwise_add.py") and c.opcode == "ld.global.b32"]
    assert [c.line for c in loads] == [206, 207]
    assert all(c.result["verdict"] == "proved" and c.result["instructions"] == 16 for c in loads)
    assert all(c.check["apply"][0]["pred"] is True for c in loads)


def test_dynamic_strides_keep_the_dsl_divisibility(gemms):
    cases, _ = gemms
    (cp,) = by_line(cases, "cutlass_ampere_tensorop_gemm.py", 545)
    syms = cp.check["symbols"]
    strides = [v for k, v in syms.items() if k.startswith("s")]
    assert strides and all(v.get("multiple_of") in (8, 256) for v in strides)


def test_a_partition_that_disagrees_with_the_dsl_is_unsupported():
    """tilecheck recomputes each memory operand from the whole tensor and the TV layout, and compares it
    with the per-thread tensor the DSL passed to cute.copy: a TV layout changed in the record is caught."""
    data = recording()
    rec = next(c for c in data["copies"] if c.get("line") == 545)
    bad = copy.deepcopy(rec)
    bad["tv_dst"] = bad["tv_dst"].replace("(32,0)", "(1,0)").replace("((256,1)", "((256,8)")
    cases, _ = cute.translate({"copies": [rec, bad]})
    assert cases[0].unsupported is None
    assert cases[1].unsupported and "DSL" in cases[1].unsupported


def test_cli_from_json(capsys, tmp_path):
    status = main(["cute", "--from-json", subset(tmp_path, *SMALL), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 1  # the refuted epilogue stores
    assert out["summary"]["proved"] == 10 and out["dsl_version"] == "4.8.1"
    where = {c["where"] for c in out["cases"] if c["verdict"] == "refuted"}
    assert where == {"tests/cute_cases/cutlass_ampere_tensorop_gemm.py:813",
                     "tests/cute_cases/cutlass_ampere_elementwise_add.py:221"}


def test_assume_no_overlap(capsys, tmp_path):
    """--assume-no-overlap: a stored-to global tensor does not overlap itself (its row stride at least the
    tile's row, in elements also when the store moves 16-bit pairs as words): every refutation proves."""
    data = recording()
    rec = next(c for c in data["copies"] if c.get("line") == 813)
    check, _, _ = cute.translate_copy(rec, no_overlap=True)
    assert check["assume"] == ["(2*s1) >= 1 + 127*1"]
    status = main(["cute", "--from-json", subset(tmp_path, *SMALL, "tilecheck_flash_attention_v2"),
                   "--assume-no-overlap", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0  # on all of the recording: 91 proved, 0 refuted, 9 unsupported (BENCHMARKS.md)
    assert (out["summary"]["proved"], out["summary"]["refuted"], out["summary"]["unsupported"]) == (75, 0, 2)


def test_without_the_dsl_exit_2_with_the_install_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(cute, "dsl_available", lambda: False)
    f = tmp_path / "k.py"
    f.write_text("def tilecheck_x():\n    pass\n")
    assert main(["cute", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'tilecheck[cute]'" in err[0]


@pytest.mark.parametrize("content", ["not json", "{\"kernels\": []}"])
def test_bad_recording_exit_2(tmp_path, capsys, content):
    f = tmp_path / "x.json"
    f.write_text(content)
    assert main(["cute", "--from-json", str(f)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


# --------------------------------------------------------------------------- with the DSL
@needs_dsl
def test_trace_small_kernels(capsys):
    """A 16-byte cp.async of a 64x64 fp16 tile: into Sw<3,3,3> o (64,64):(64,1), proved and conflict-free;
    into rows padded to 68 halves, alignment refuted at byte offset 136 (the DSL's own IR verifier refuses
    that kernel too, at compile time: reported as the entry's trace error)."""
    status = main(["cute", str(CASES / "tilecheck_small.py"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 1
    by = {c["entry"]: c for c in out["cases"]}
    assert by["tilecheck_swizzled"]["verdict"] == "proved"
    assert by["tilecheck_swizzled"]["obligations"]["banks"] == "proved"
    bad = by["tilecheck_padded_refuted"]
    assert bad["verdict"] == "refuted" and bad["failed"] == ["alignment"] and "byte offset 136" in bad["messages"][0]
    (err,) = out["trace_errors"]
    assert err["entry"] == "tilecheck_padded_refuted" and "alignment" in err["message"]


@needs_dsl
def test_trace_cutlass_gemms_matches_the_recording(tmp_path):
    """The recording is what tracing the examples gives today: the command of BENCHMARKS.md, in a fresh
    process (the DSL reads CUTE_DSL_ARCH once; sm_90a for the Hopper kernel)."""
    import subprocess
    import sys
    out = tmp_path / "trace.json"
    r = subprocess.run([sys.executable, "-m", "tilecheck", "cute", "tests/cute_cases/tilecheck_cutlass_gemms.py",
                        "--arch", "sm_90a", "--save-extraction", str(out)], cwd=ROOT, capture_output=True, text=True,
                       env={**__import__("os").environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    assert r.returncode == 1, r.stderr  # the one refuted epilogue store
    assert r.stdout.strip().splitlines()[-1].startswith("100 copies (148 cute.copy calls traced): 81 proved, 10 refuted")
    data = json.loads(out.read_text())
    assert data["errors"] == []
    assert data["copies"] == recording()["copies"]


def test_cute_github_and_sarif(capsys, tmp_path):
    """`tilecheck cute --format github|sarif`: each refutation at its cute.copy's line, a performance one a
    warning, an untranslated copy a note; the exit status is the verdict's."""
    small = subset(tmp_path, *SMALL, "tilecheck_hopper_dense_gemm")
    status = main(["cute", "--from-json", small, "--format", "github"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert status == 1
    errors = [l for l in lines if l.startswith("::error ")]
    assert [e.split("::")[1] for e in errors] == [
        "error file=tests/cute_cases/cutlass_ampere_elementwise_add.py,line=221,title=tilecheck disjoint",
        "error file=tests/cute_cases/cutlass_ampere_tensorop_gemm.py,line=813,title=tilecheck disjoint"]
    assert sum(l.startswith("::note ") for l in lines) == 7  # 5 TMA, 2 loop-carried
    assert all("title=tilecheck sectors" in l for l in lines if l.startswith("::warning "))
    assert lines[-1] == "23 copies: 14 proved, 2 refuted, 0 unknown, 7 unsupported"
    status = main(["cute", "--from-json", small, "--format", "sarif"])
    log = json.loads(capsys.readouterr().out)
    assert status == 1
    results = log["runs"][0]["results"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    err = [r for r in results if r["level"] == "error"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in err] == [221, 813]
    assert all(r["properties"]["counterexample"]["first"]["symbols"] for r in err)
