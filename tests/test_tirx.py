"""The TIRx front end: translation of recorded extractions (no tvm_tirx needed), the CLI, and — when
the peer's venv exists (bash bench/peer_env.sh) — the real extraction against the recorded one."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import tilecheck
from tilecheck.cli import main
from tilecheck.frontends import tirx

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "tirx_cases"
VENV_PY = ROOT / "bench" / ".venv-tirx" / "bin" / "python"


def load(name):
    return json.loads((CASES / name).read_text())


def proved_cases(name):
    cases, errors = tirx.translate(load(name))
    for c in cases:
        tirx.prove_case(c, timeout=30)
    return {c.kernel + (f"#{c.index}" if c.index else ""): c for c in cases}, errors


@pytest.fixture(scope="module")
def peer():
    return proved_cases("peer_tirx.json")


@pytest.fixture(scope="module")
def more():
    return proved_cases("tirx_kernels.json")


# What each of bench/peer_tirx.py's kernels is, by reasoning (BENCHMARKS.md, "Against the peer, TVM TIRx", summarises why):
# verdict and the first obligation that fails.
PEER = {
    "seed": ("proved", None), "inj_3x2": ("proved", None), "reversed_words": ("proved", None),
    "collide": ("refuted", "disjoint"), "race_thread_store": ("refuted", "disjoint"),
    "race_warp_store": ("refuted", "disjoint"), "store_self_overwrite": ("refuted", "disjoint"),
    "v8_b32_sm90": ("refuted", "target"), "v8_b32_sm100a": ("proved", None),
    "symbolic_start": ("proved", None), "symbolic_start_ctaid": ("proved", None),
    "misaligned_region": ("refuted", "alignment"), "cta_shared_store": ("proved", None),
    "cta_lane_stride2": ("refuted", "ownership"), "generic_space": ("refuted", "space"),
    "preserve_dst_store": ("refuted", "operands"),
}


def test_peer_cases_verdicts(peer):
    cases, errors = peer
    assert set(cases) == set(PEER)
    for name, (verdict, failed) in PEER.items():
        r = cases[name].result
        assert r["verdict"] == verdict, (name, r)
        if failed:
            assert r["failed"][0] == failed, (name, r)
    # the two kernels TIRx cannot even spell (T.ptx["ld.global.v8.b16"], ["ld.global.v4.f16"]) are build errors
    assert sorted(e["kernel"] for e in errors) == ["v4_f16", "v8_b16_sm100a"]
    assert all(e["stage"] == "build" for e in errors)


def test_results_point_at_the_tirx_source_line(peer):
    cases, _ = peer
    text = (ROOT / "bench" / "peer_tirx.py").read_text().splitlines()
    for c in cases.values():
        assert c.file == "bench/peer_tirx.py"
        assert "tile.apply" in text[c.line - 1], (c.kernel, c.line)
    assert cases["race_thread_store"].where == f"bench/peer_tirx.py:{cases['race_thread_store'].line}"


def test_seed_check_data(peer):
    check = peer[0]["seed"].check
    assert check["threads"] == 1 and check["arch"] == "sm_90"
    reg = next(t for t in check["tensors"].values() if t["scope"] == "register")
    mem = next(t for t in check["tensors"].values() if t["scope"] == "global")
    # TIRx resolved the rearrange "i b j d -> j i (d b)" into the views' layouts
    assert reg["shape"] == [7, 15, 4] and reg["layout"] == "(7,15,4):(120,8,2)"
    assert mem["layout"] == "(7,15,4):(60,4,1)" and mem["align"] == 16
    assert peer[0]["seed"].result["instructions"] == 105


def test_copy_check_data_ctaid_and_nested_mode(more):
    c = more[0]["copy_v2"]
    check = c.check
    assert check["threads"] == 256 and check["apply"][0]["scope"] == "cta"
    assert check["symbols"]["bx"] == {"min": 0, "from": "ctaid.x"}
    assert "bx < nb" in check["assume"]  # grid.x = nb is symbolic
    v = check["tensors"]["v"]
    # TIRx groups (nb, 8) row-major into nb*8; the CuTe nested mode is colexicographic: (8, nb)
    assert v["layout"] == "((8,nb),32,2,4):((128,2048),4,1024,1)"
    assert check["apply"][0]["src"] == "v[(8 * bx):(8 * bx)+8, 0:32, 0:2, 0:4]"
    assert check["tensors"]["Rg"]["layout"] == "(8,32,2,4):(1@warpid,1@laneid,4,1)"
    assert c.result["verdict"] == "proved" and more[0]["copy_v2#1"].result["verdict"] == "proved"


def test_symbolic_start_takes_t_assume(peer):
    check = peer[0]["symbolic_start"].check
    assert check["symbols"]["r0"] == {"min": -2**31, "max": 2**31 - 1}
    assert "r0 >= 0" in check["assume"] and "(r0 + 8) <= n" in check["assume"]
    # without the T.assume facts (TIRx's own checks ignore them) the start may be negative
    bare = copy.deepcopy(check)
    bare["assume"] = [f for f in bare["assume"] if "r0" not in f and "c0" not in f]
    r = tilecheck.prove(tilecheck.from_dict(bare)).applies[0]
    assert r.verdict == "refuted" and r.obligation("bounds").status == "refuted"


def test_reversed_words_offset_and_negative_stride(peer):
    rg = peer[0]["reversed_words"].check["tensors"]["Rg"]
    assert rg["layout"] == "(2,4):(4,-1)" and rg["offset"] == 3


def test_loop_variable_bounds(more):
    ok, bad = more[0]["loop_rows_in_bounds"], more[0]["loop_rows_past_end"]
    assert ok.check["symbols"]["i"] == {"min": 0, "max": 3}
    assert ok.result["verdict"] == "proved"
    assert bad.result["verdict"] == "refuted" and bad.result["failed"] == ["bounds"]
    assert bad.result["counterexample"]["symbols"] == {"i": 3}


def test_tirx_verdicts_recorded(peer):
    cases, _ = peer
    assert cases["race_thread_store"].tirx["verdict"] == "accepted"
    assert cases["inj_3x2"].tirx["verdict"] == "rejected"
    assert "nonoverlapping" in cases["inj_3x2"].tirx["message"]


def _kernel(data, name):
    return copy.deepcopy(next(k for k in data["kernels"] if k["name"] == name))


@pytest.mark.parametrize("edit, reason", [
    (lambda k: k["tensors"]["Rg"].update(replica=["T.Iter(2, 1, \"laneid\")"]), "replicated layout"),
    (lambda k: k["tensors"]["Rg"]["dims"][0][0].__setitem__(2, "tid_in_wg"), "layout axis 'tid_in_wg'"),
    (lambda k: k["applies"][0].update(opcode="mov.b32"), "not an ld/st"),
    (lambda k: k["applies"][0].update(scope="warpgroup"), "scope 'warpgroup'"),
    (lambda k: k.update(block=["nthreads", 1, 1]), "block"),
    (lambda k: k["tensors"]["Rg"].update(dtype="float8_e4m3fn"), "dtype 'float8_e4m3fn'"),
    (lambda k: k["applies"][0].update(unsupported="expression Cast"), "expression Cast"),
    (lambda k: k["tensors"]["Rg"]["offset"].update(laneid=1), "offset on thread axis"),
])
def test_unsupported_reasons(edit, reason):
    k = _kernel(load("peer_tirx.json"), "cta_shared_store")
    edit(k)
    cases, _ = tirx.translate({"kernels": [k], "file": "x.py"})
    r = tirx.prove_case(cases[0])
    assert r["verdict"] == "unsupported" and reason in r["reason"], r


def test_toml_round_trip(peer):
    for name in ("copy_v2", "seed", "symbolic_start", "race_warp_store"):
        c = (peer[0].get(name) or proved_cases("tirx_kernels.json")[0][name])
        check = tilecheck.loads(tirx.to_toml(c.check, "header"), f"<{name}>")
        assert tilecheck.prove(check).verdict == c.result["verdict"]


def test_cli_from_json(tmp_path, capsys):
    rc = main(["tirx", str(CASES / "peer_tirx.json"), "--from-json", "--json", "--emit-toml", str(tmp_path)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1
    s = out["summary"]
    assert (s["applies"], s["proved"], s["refuted"], s["unsupported"], s["build_errors"]) == (16, 7, 9, 0, 2)
    assert s["source_sites"] == 17
    assert len(list(tmp_path.glob("*.toml"))) == 16
    assert main(["prove", str(tmp_path / "seed_apply0.toml")]) == 0


def test_cli_text_names_line_and_tirx_verdict(capsys):
    main(["tirx", str(CASES / "peer_tirx.json"), "--from-json"])
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "race_thread_store" in ln)
    assert line.startswith("bench/peer_tirx.py:") and "refuted [disjoint]" in line and "(TIRx: accepted)" in line


def test_cli_errors(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["tirx", str(bad), "--from-json"]) == 2
    assert main(["tirx", str(tmp_path / "none.py"), "--tirx-python", "/nonexistent/python"]) == 2
    src = tmp_path / "k.py"
    src.write_text("x = 1\n")
    assert main(["tirx", str(src), "--tirx-python", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.count("tilecheck: error:") == 3 and "Traceback" not in err


@pytest.mark.skipif(not VENV_PY.exists(), reason="the TIRx venv bench/.venv-tirx is absent (bash bench/peer_env.sh makes it)")
@pytest.mark.parametrize("name", ["peer_tirx", "tirx_kernels"])
def test_real_extraction_matches_recorded(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # the recorded paths are relative to the repository root
    live = tirx.extract(f"bench/{name}.py", str(VENV_PY), compile=True)
    rec = load(f"{name}.json")
    assert live["kernels"] == rec["kernels"]
    assert live["source_sites"] == rec["source_sites"]
    assert [e["kernel"] for e in live["errors"]] == [e["kernel"] for e in rec["errors"]]
