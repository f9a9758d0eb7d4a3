"""tilecheck.gpu.ncu_compare: predictions summed over every warp-instruction of emitted kernels,
``prepare`` on a small N, the report on ncu's real CSV format, ``run --profile``'s input errors."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tilecheck import from_dict, load, prove
from tilecheck import memory_model as mm
from tilecheck.gpu import ncu_compare as nc
from tilecheck.gpu import ncu_csv
from tilecheck.gpu.reference import bind_symbols

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"


def _store(layout: str) -> dict:
    """128 threads, cta scope, three st.shared.v4.b32 per thread into S with ``layout``."""
    return {"threads": 128,
            "tensors": {"S": {"dtype": "float32", "scope": "shared", "shape": [4, 32, 3, 4], "layout": layout,
                              "align": 16},
                        "R": {"dtype": "float32", "scope": "register", "shape": [4, 32, 3, 4],
                              "layout": "(4,32,3,4):(1@warpid,1@laneid,4,1)"}},
            "apply": [{"opcode": "st.shared.v4.b32", "scope": "cta", "dst": "S", "src": "R"}]}


def _by_source(items):
    return {t.source.split(" (")[0].split(" st.")[0]: t for t in items}


def _hand_wavefronts(strides):
    """The apply's wavefronts counted here by hand: 4 warps x 3 repeats, phases of 8 lanes (16 bytes)."""
    w_, l_, r_ = strides
    total = 0
    for w in range(4):
        for r in range(3):
            for ph in range(4):
                per_bank = {}
                for lane in range(8 * ph, 8 * ph + 8):
                    word = (w * w_ + lane * l_ + r * r_) * 4 // 4
                    for k in range(4):
                        per_bank.setdefault((word + k) % 32, set()).add(word + k)
                total += max(len(s) for s in per_bank.values())
    return total


@pytest.mark.parametrize("layout,strides", [("(4,32,3,4):(384,12,4,1)", (384, 12, 4)),
                                            ("(4,32,3,4):(768,8,256,1)", (768, 8, 256))])
def test_apply_prediction_sums_every_warp_instruction(layout, strides):
    check = from_dict(_store(layout))
    report = prove(check)
    assert report.verdict == "proved"
    items = nc.traffic(check, bind_symbols(check))
    src = _by_source(items)
    apply = src["apply[0]"]
    assert (apply.space, apply.op, apply.width, len(apply.warps)) == ("shared", "st", 16, 12)
    assert apply.count() == _hand_wavefronts(strides)
    assert apply.count() == (48 if strides[1] == 12 else 96)  # lanes 32 bytes apart: 2-way per phase
    # the fill loop: cosize elements, 128 threads, 32 contiguous floats per warp-instruction
    n = check.tensors["S"].layout.cosize({}, 0)
    fill = src["fill S"] if "fill S" in src else next(t for t in items if t.source == "fill S (st.shared)")
    fills = [t for t in items if t.source.startswith("fill S")]
    assert {t.key for t in fills} == {"global_ld", "shared_st"}
    st = next(t for t in fills if t.key == "shared_st")
    assert sum(len(w) for w in st.warps) == n and st.count() == len(st.warps)
    del fill
    c = nc.counters(items)
    assert c["shared_st"] == apply.count() + st.count()
    rec = nc.case_record(check, report.plan, "tcnc_t", bind_symbols(check))
    assert rec["predicted"] == c and rec["judged"] == "shared_st"
    assert rec["sass"] == {"LDS": 1, "STS": 1 + 3, "LDG": 1 + 12, "STG": 1}


def test_global_load_prediction_and_register_write_back():
    data = {"threads": 32, "tensors": {
        "G": {"dtype": "float32", "scope": "global", "shape": [32, 2], "layout": "(32,2):(8,1)", "align": 8},
        "R": {"dtype": "float32", "scope": "register", "shape": [32, 2], "layout": "(32,2):(1@laneid,1)"}},
        "apply": [{"opcode": "ld.global.v2.b32", "scope": "warp", "dst": "R", "src": "G"}]}
    check = from_dict(data)
    assert prove(check).verdict == "proved"
    items = nc.traffic(check, bind_symbols(check))
    apply = next(t for t in items if t.source.startswith("apply[0]"))
    assert apply.warps == [{l: 32 * l for l in range(32)}]
    assert apply.count() == 32 == mm.sectors(apply.warps[0], 8)
    back = next(t for t in items if t.source.startswith("register write-back"))
    assert back.key == "global_st" and back.per_thread == 2 and back.count() == 2 * 8  # row-major (32,2) floats
    peer = nc.peer_numbers(check, bind_symbols(check))
    assert peer == {"expressible": True, "apply": 32, "transactions": 8}  # 1 KiB: 8 lines of 128 B


def test_peer_cannot_express_a_partial_warp():
    check = load(str(ROOT / "examples" / "seed.toml"))
    assert nc.peer_numbers(check, bind_symbols(check))["expressible"] is False


def test_unsupported_traffic_is_refused_not_guessed():
    check = load(str(ROOT / "examples" / "red_split_k.toml"))
    with pytest.raises(nc.Unpredictable):
        nc.traffic(check, bind_symbols(check))


def test_cp_async_global_reads_are_load_sectors_its_shared_writes_listed():
    """cp.async (LDGSTS), as the H200's counters showed: its global reads are global load sectors,
    its shared writes in none of the four compared counters (listed, not judged)."""
    check = load(str(ROOT / "examples" / "cp_async_tile.toml"))
    items = nc.traffic(check, bind_symbols(check))
    copy = {t.space: t for t in items if "cp.async" in t.source}
    assert copy["global"].key == "global_ld" and copy["global"].judged and not copy["shared"].judged
    rest = nc.counters([t for t in items if t not in copy.values()])
    assert nc.counters(items)["global_ld"] == rest["global_ld"] + copy["global"].count() > rest["global_ld"]
    assert nc.sass_expected(items)["LDGSTS"] == copy["shared"].per_thread


def test_parse_real_h200_csv_excerpt():
    """ncu's real details-page CSV (the first 60 probe kernels of the H200 run) parses to the counters
    saved in tests/data/ncu_probe_h200.json."""
    rows = ncu_csv.parse((DATA / "ncu_raw_h200_excerpt.csv").read_text())
    saved = {p["name"]: p for p in json.loads((DATA / "ncu_probe_h200.json").read_text())["probes"]}
    named = ncu_csv.by_kernel(rows)
    assert len(named) == 60
    for name, got in named.items():
        p = saved[name]
        key = "wavefronts" if p["space"] == "shared" else "sectors"
        metric = (ncu_csv.SHARED_WAVEFRONTS if p["space"] == "shared" else ncu_csv.GLOBAL_SECTORS)[p["op"]]
        assert ncu_csv.metric(got[0], metric) == p["measured"][key], name
        assert len(got[0].metrics) == 8


def _fake_csv(cases, change=None) -> str:
    head = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
            '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')
    lines = ["==PROF== Connected to process 1 (/usr/bin/python3.12)", head]
    for i, c in enumerate(cases):
        for key, metric in nc.COUNTERS.items():
            k = f"{key[0]}_{key[1]}"
            v = c["predicted"][k] + (1 if change == c["name"] and k == c["judged"] else 0)
            lines.append(f'"{i}","1","python3.12","h","{c["name"]}","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0",'
                         f'"Command line profiler metrics","{metric}","","{v:,}"')
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    pytest.importorskip("tensor_layouts")
    from tilecheck.tools import ToolNotFound, find_tool
    try:
        find_tool("ptxas")
    except ToolNotFound:
        pytest.skip("ptxas is not installed here")
    out = tmp_path_factory.mktemp("ncmp")
    data = nc.prepare(out, shared=8, global_=4, seed=3, log=lambda m: None)
    return out, data


def test_prepare_small(small):
    out, data = small
    cases = data["cases"]
    assert sum(c["space"] == "shared" for c in cases) == 8 and sum(c["space"] == "global" for c in cases) == 4
    cells = {(c["space"], c["op"], c["scope"]) for c in cases}
    assert cells == set(nc.cells())
    assert (out / "kernels.cubin").stat().st_size > 0
    saved = json.loads((out / "cases.json").read_text())["cases"]
    assert [c["name"] for c in saved] == [c["name"] for c in cases]
    for c in cases:
        assert c["predicted"][c["judged"]] >= c["ideal"][c["judged"]] > 0
        assert c["name"] in (out / "kernels.ptx").read_text()
        check = from_dict(json.loads(c["source"]))  # the stored check reproduces the prediction
        assert nc.counters(nc.traffic(check, bind_symbols(check))) == c["predicted"]


def test_report_counts_and_lists_mismatches(small, tmp_path):
    out, data = small
    cases = data["cases"]
    for f in ("cases.json",):
        (tmp_path / f).write_text((out / f).read_text())
    bad = next(c for c in cases if c["space"] == "global")["name"]
    (tmp_path / "ncu_raw.csv").write_text(_fake_csv(cases, change=bad))
    r = subprocess.run([sys.executable, "-m", "tilecheck.gpu.ncu_compare", "report", str(tmp_path)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "predicted == measured: 8/8 shared, 3/4 global"
    assert f"  {bad}:" in r.stdout and "MISMATCH" in r.stdout
    assert "peer (tensor-layouts) shared" in r.stdout
    (tmp_path / "ncu_raw.csv").write_text(_fake_csv(cases))
    assert nc.main(["report", str(tmp_path)]) == 0


def test_measure_without_prepare_is_an_error(tmp_path, capsys):
    assert nc.main(["measure", str(tmp_path)]) == 2
    assert "run prepare first" in capsys.readouterr().err


def test_run_profile_with_json_is_an_input_error():
    r = subprocess.run([sys.executable, "-m", "tilecheck", "run", str(ROOT / "examples" / "seed.toml"),
                        "--profile", "--json"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "--profile" in r.stdout + r.stderr and "Traceback" not in r.stderr


@pytest.mark.gpu
def test_measure_under_ncu(small, tmp_path):
    """On a GPU machine with ncu: the small set profiled in one process; every kernel gets a row."""
    if ncu_csv.find_ncu() is None:
        pytest.skip("GPU test: ncu (Nsight Compute) is not installed here")
    try:
        import pycuda.driver as drv
        drv.init()
        if drv.Device.count() == 0:
            raise RuntimeError("no device")
    except Exception as e:  # noqa: BLE001 - any reason there is no device
        pytest.skip(f"GPU test: no pycuda or no CUDA device here ({e})")
    out, _ = small
    for f in ("cases.json", "kernels.cubin"):
        (tmp_path / f).write_bytes((out / f).read_bytes())
    code = nc.main(["measure", str(tmp_path)])
    results = json.loads((tmp_path / "results.json").read_text())
    assert results and all(r["measured"] is not None for r in results)
    assert code in (0, 1)


def test_prepare_draws_ldmatrix_and_stmatrix_kernels(tmp_path):
    """``--matrix N``: half ldmatrix, half stmatrix kernels, each SASS-checked (LDSM/STSM), predicted
    by the matrix rule: the apply's wavefronts are the prover's count times the instructions."""
    from tilecheck.tools import ToolNotFound, find_tool
    try:
        find_tool("ptxas")
    except ToolNotFound:
        pytest.skip("ptxas is not installed here")
    data = nc.prepare(tmp_path, shared=0, global_=0, matrix=4, seed=2, log=lambda m: None)
    cases = data["cases"]
    assert sorted(c["opcode"].split(".")[0] for c in cases) == ["ldmatrix"] * 2 + ["stmatrix"] * 2
    for c in cases:
        assert c["judged"] == ("shared_ld" if c["opcode"].startswith("ldmatrix") else "shared_st")
        assert c["sass"].get("LDSM" if c["opcode"].startswith("ldmatrix") else "STSM", 0) > 0
        apply_row = next(b for b in c["breakdown"] if b[0].startswith("apply["))
        check = from_dict(json.loads(c["source"]))
        banks = next(o for o in prove(check).applies[0].obligations if o.name == "banks")
        if banks.count is not None and check.threads == 32:  # one warp: the worst instruction bounds each
            assert apply_row[4] <= banks.count * apply_row[3]
