"""The ncu calibration probe without a GPU: its predictions, its kernels (through ptxas and nvdisasm),
and the reading of ncu's CSV (both pages, as Nsight Compute documents them) into the comparison."""
import json
import re
import subprocess
import sys

import pytest

from tilecheck import memory_model as mm
from tilecheck.gpu import ncu_csv, ncu_probe
from tilecheck.tools import ToolNotFound, find_tool

PROBES = ncu_probe.probes()


def probe(suffix: str) -> ncu_probe.Probe:
    [p] = [p for p in PROBES if p.name.endswith(suffix)]
    return p


def test_the_set_covers_every_kind_and_fits_the_budget():
    kinds = {(p.space, p.op, p.ptype) for p in PROBES}
    for op in ("ld", "st"):
        for t in ncu_probe.TYPES:
            assert ("shared", op, t) in kinds
        for t in ("u8", "u16", "u32", "b64", "v4.b32"):
            assert ("global", op, t) in kinds
    assert 300 <= len(PROBES) <= 450
    assert len({p.name for p in PROBES}) == len(PROBES)
    # every conflict degree 1..32 of 4-byte shared loads
    degrees = {p.predicted["wavefronts"] for p in PROBES
               if (p.space, p.op, p.ptype) == ("shared", "ld", "u32") and "u32_stride" in p.name}
    assert degrees == {1, 2, 4, 8, 16, 32}


@pytest.mark.parametrize("suffix, wavefronts, conflicts", [
    ("sld_u32_stride128", 32, 31), ("sst_u32_stride4", 1, 0), ("sld_u32_bcast", 1, 0),
    ("sld_u8_stride1", 1, 0), ("sld_u8_subword_rows", 8, 7),
    ("sld_b64_stride8", 2, 0), ("sld_v2b32_half_partner", 2, 0), ("sld_b64_neighbour", 4, 2),
    ("sld_v4b32_stride16", 4, 0), ("sld_v4b32_quarter_partner", 4, 0), ("sld_v4b32_neighbour", 8, 4),
    ("sld_u32_half_partner", 2, 1), ("sld_b64_contig_hi16", 1, 0), ("sld_u32_row_one5", 1, 0),
    ("sld_u32_none", 0, 0), ("sld_v4b32_repeat3", 12, 0), ("sst_u32_4warps_stride", 1 + 2 + 4 + 8, 11),
])
def test_shared_predictions(suffix, wavefronts, conflicts):
    p = probe(suffix)
    assert (p.predicted["wavefronts"], p.predicted["conflicts"]) == (wavefronts, conflicts)


@pytest.mark.parametrize("suffix, sectors, requests", [
    ("gld_u32_contig", 4, 1), ("gst_u8_contig", 1, 1), ("gld_v4b32_contig", 16, 1), ("gld_u32_stride128", 32, 1),
    ("gld_u32_shift4", 5, 1), ("gld_v4b32_shift16", 17, 1), ("gld_u32_bcast", 1, 1), ("gst_u32_none", 0, 0),
    ("gld_u32_4warps", 16, 4), ("gst_v4b32_repeat2", 32, 2), ("gld_u32_contig_even", 4, 1),
])
def test_global_predictions(suffix, sectors, requests):
    p = probe(suffix)
    assert (p.predicted["sectors"], p.predicted["requests"]) == (sectors, requests)


def test_predictions_are_memory_models_sums():
    for p in PROBES:
        ws = p.warps()
        if p.space == "shared":
            want = sum(mm.wavefronts(w, p.width, p.op) for w in ws)
        else:
            want = sum(mm.sectors(w, p.width) for w in ws)
        assert p.predicted[p.main_key] == p.repeats * want


def table_of(ptx: str, threads: int) -> list:
    """Replay the kernel's selp chain: each thread's offset (None: at or above the inactive mark)."""
    import re
    default = int(re.search(r"mov.u32 \t%r1, (\d+);", ptx).group(1))
    chosen = {int(t): int(v) for t, v in
              re.findall(r"setp.eq.u32 \t%p3, %r0, (\d+);\n\tselp.b32 \t%r1, (\d+), %r1, %p3;", ptx)}
    vals = [chosen.get(t, default) for t in range(threads)]
    return [v if v < ncu_probe.INACTIVE_FROM else None for v in vals]


def test_kernels_hold_their_pattern():
    for p in PROBES:
        ptx = ncu_probe.kernel_ptx(p)
        assert table_of(ptx, p.threads) == p.offsets, p.name
        assert ptx.count(f"\t@%p0 {p.op}.{p.space}.{p.ptype} ") == p.repeats, p.name
    p = probe("sld_v4b32_neighbour")
    ptx = ncu_probe.kernel_ptx(p)
    assert "ld.global" not in ptx and ptx.count("st.global.u32") == 1  # the sink


def _tool(name):
    try:
        return find_tool(name)
    except ToolNotFound as e:
        pytest.skip(f"{e}")


def test_probe_kernels_assemble_to_one_profiled_instruction_each(tmp_path):
    """ptxas assembles a subset; nvdisasm shows each kernel holds its access ``repeats`` times and its sink."""
    _tool("ptxas")
    _tool("nvdisasm")
    ps = [p for p in PROBES if any(k in p.name for k in ("none", "repeat", "4warps", "random", "_stride128", "contig_one5"))]
    ncu_probe.assemble(ps, tmp_path)
    assert ncu_probe.check_sass(ps, tmp_path) == []
    sass = (tmp_path / "probes.sass").read_text()
    counts = ncu_probe.sass_counts(sass)
    assert counts[probe("sld_v4b32_repeat3").name]["LDS"] == 3


def test_sass_counts_catches_a_missing_access():
    sass = ("//--------------------- .text.k1 ---\n.text.k1:\n"
            "        /*0040*/                   LDS.128 R4, [R0] ;\n"
            "        /*0050*/               @P0 STG.E desc[UR4][R2.64], R5 ;\n"
            ".text.k2:\n        /*0010*/                   EXIT ;\n")
    assert ncu_probe.sass_counts(sass) == {"k1": {"LDS": 1, "STG": 1}, "k2": {}}


HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
          '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')


def details_csv(ps, measured) -> str:
    """ncu --csv (details page): one line per (launch, metric), as Nsight Compute prints it."""
    lines = ["==PROF== Connected to process 4242 (/usr/bin/python3.12)", HEADER]
    for k, p in enumerate(ps):
        for name in ncu_csv.METRICS:
            v = measured(p, name)
            lines.append(f'"{k}","4242","python3.12","127.0.0.1","{p.name}","1","7","({p.threads}, 1, 1)",'
                         f'"(1, 1, 1)","0","9.0","Command line profiler metrics","{name}",'
                         f'"{"sector" if "sectors" in name else ""}","{v:,}"')
    lines.append("==PROF== Disconnected from process 4242")
    return "\n".join(lines) + "\n"


def exact(p, name):
    """The counters as the model predicts them (the other space's counters: a sink's worth)."""
    if name == p.main_metric:
        return p.predicted[p.main_key]
    if name in (ncu_csv.SHARED_CONFLICTS[p.op], ncu_csv.GLOBAL_REQUESTS[p.op]):
        return p.predicted["conflicts" if p.space == "shared" else "requests"]
    return 7


def test_parse_details_page_with_separators_and_noise():
    ps = PROBES[:5] + [probe("sld_u32_stride128")]
    rows = ncu_csv.parse(details_csv(ps, lambda p, n: 1234 if n == p.main_metric else exact(p, n)))
    assert sorted(rows) == list(range(len(ps)))
    assert rows[5].kernel == ps[5].name
    assert ncu_csv.metric(rows[5], ps[5].main_metric) == 1234  # "1,234"
    assert set(rows[0].metrics) == set(ncu_csv.METRICS)


def test_parse_raw_page_and_scaled_units():
    names = ncu_csv.METRICS[:2]
    text = ('"ID","Process ID","Kernel Name","' + '","'.join(names) + '"\n'
            '"","","","","Ksector"\n'
            '"0","1","tcprobe_000_x(int, float)","32","1.5"\n')
    [row] = ncu_csv.parse(text).values()
    assert row.kernel == "tcprobe_000_x"
    assert ncu_csv.metric(row, names[0]) == 32
    assert ncu_csv.metric(row, names[1]) == 1500


def _saved_run(tmp_path, measured):
    ps = [p for p in PROBES if "stride" in p.name][:30] + [probe("gld_u32_contig")]
    out = tmp_path / "run"
    out.mkdir()
    (out / "probes.json").write_text(json.dumps([ncu_probe.asdict(p) for p in ps]))
    (out / "ncu_raw.csv").write_text(details_csv(ps, measured))
    return ps, out


def test_report_agrees_on_exact_counters(tmp_path, capsys):
    ps, out = _saved_run(tmp_path, exact)
    assert ncu_probe.main(["--parse", str(out)]) == 0
    text = capsys.readouterr().out
    sh = sum(p.space == "shared" for p in ps)
    assert text.rstrip().endswith(f"predicted == measured: {sh}/{sh} shared, {len(ps) - sh}/{len(ps) - sh} global")
    assert "mismatches (0):" in text and (out / "table.txt").exists()


def test_report_lists_a_mismatch(tmp_path, capsys):
    target = probe("sld_u32_stride128").name
    ps, out = _saved_run(tmp_path, lambda p, n: 16 if (p.name == target and n == p.main_metric) else exact(p, n))
    assert target in {p.name for p in ps}
    assert ncu_probe.main(["--parse", str(out)]) == 1
    text = capsys.readouterr().out
    sh = sum(p.space == "shared" for p in ps)
    assert f"predicted == measured: {sh - 1}/{sh} shared" in text
    assert f"{target}: ld.shared.u32 lane*128: predicted 32 wavefronts, measured 16" in text


def test_report_names_kernels_ncu_did_not_profile(tmp_path, capsys):
    ps, out = _saved_run(tmp_path, exact)
    text = (out / "ncu_raw.csv").read_text()
    (out / "ncu_raw.csv").write_text("\n".join(l for l in text.splitlines() if ps[0].name not in l))
    assert ncu_probe.main(["--parse", str(out)]) == 1
    assert f"no ncu row for 1 kernels: {ps[0].name}" in capsys.readouterr().out


def test_build_only_writes_kernels_and_predictions(tmp_path):
    _tool("ptxas")
    r = subprocess.run([sys.executable, "-m", "tilecheck.gpu.ncu_probe", "--out", str(tmp_path), "--build-only",
                        "--only", "u32_stride", "--no-sass"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    saved = json.loads((tmp_path / "probes.json").read_text())
    assert saved and all("u32_stride" in d["name"] for d in saved)
    assert (tmp_path / "probes.cubin").stat().st_size > 0
    assert len(list((tmp_path / "ptx").glob("*.ptx"))) == len(saved)


@pytest.mark.gpu
def test_probe_under_ncu(tmp_path):
    """On a GPU machine with ncu: a few probes profiled; the counters are read for every kernel."""
    if ncu_csv.find_ncu() is None:
        pytest.skip("GPU test: ncu (Nsight Compute) is not installed here")
    try:
        import pycuda.driver as drv
        drv.init()
        if drv.Device.count() == 0:
            raise RuntimeError("no device")
    except Exception as e:  # noqa: BLE001 - any reason there is no device
        pytest.skip(f"GPU test: no pycuda or no CUDA device here ({e})")
    code = ncu_probe.main(["--out", str(tmp_path), "--only", "u32_stride|gld_u32_contig$"])
    results = json.loads((tmp_path / "results.json").read_text())
    assert results and all(r["measured"][("wavefronts" if re.search(r"_s(ld|st)_", r["name"]) else "sectors")] is not None
                           for r in results)
    assert code in (0, 1)


def test_memory_model_equals_the_h200_counters_on_every_saved_probe():
    """The four calibration rounds measured on the H200 (``tests/data/ncu_probe_h200.json``: 1,380
    kernels, ncu's counters; round 3 ldmatrix/stmatrix, round 4 lanes l and l^2 sharing): memory_model's
    count equals the measured one for every kernel."""
    import json
    from pathlib import Path
    saved = json.loads((Path(__file__).parent / "data" / "ncu_probe_h200.json").read_text())
    assert len(saved["probes"]) >= 1380 and sum(s.get("round") == 3 for s in saved["probes"]) >= 160
    assert sum(s.get("round") == 4 for s in saved["probes"]) == 440
    wrong = []
    for s in saved["probes"]:
        p = ncu_probe.Probe(s["name"], s["space"], s["op"], s["ptype"], s["offsets"], s["repeats"])
        key = "wavefronts" if s["space"] == "shared" else "sectors"
        if p.predict()[key] != s["measured"][key]:
            wrong.append((s["name"], p.predicted[key], s["measured"][key]))
    assert wrong == []


def test_the_pair_rule_is_what_the_counters_needed():
    """Without the load pair rule the model misses measured kernels (the rule is not decoration)."""
    import json
    from pathlib import Path
    saved = json.loads((Path(__file__).parent / "data" / "ncu_probe_h200.json").read_text())
    missed = 0
    for s in saved["probes"]:
        if s["space"] != "shared" or s.get("round") == 3:
            continue
        w = ncu_probe.TYPES[s["ptype"]][0]
        warps = [{i: o for i, o in enumerate(s["offsets"][k:k + 32]) if o is not None}
                 for k in range(0, len(s["offsets"]), 32)]
        lane_model = sum(mm.wavefronts(a, w, "st") for a in warps) * s["repeats"]
        missed += lane_model != s["measured"]["wavefronts"]
    assert missed >= 40


# round 3: ldmatrix / stmatrix -------------------------------------------------------------------

MATRIX_PROBES = ncu_probe.probes_round3()


def test_round3_covers_both_instructions_every_count_and_tells_the_candidates_apart():
    kinds = {(p.op, p.ptype) for p in MATRIX_PROBES}
    assert {(op, f"x{n}") for op in ("ld", "st") for n in (1, 2, 4)} <= kinds
    assert ("ld", "x4.trans") in kinds and ("st", "x4.trans") in kinds
    assert len({p.name for p in MATRIX_PROBES}) == len(MATRIX_PROBES)
    # each alternative model predicts a different count for some probe: the round can refute it
    for alt in ("alt_pairs_merge", "alt_every_lane"):
        assert any(p.predicted[alt] != p.predicted["wavefronts"] for p in MATRIX_PROBES), alt


def test_the_matrix_rule_is_what_the_counters_needed():
    """The measured ldmatrix/stmatrix kernels refute both alternatives to one phase per matrix: the
    16-byte load pair rule (8 kernels) and counting the lanes past ``8 * num`` (over 100)."""
    import json
    from pathlib import Path
    saved = json.loads((Path(__file__).parent / "data" / "ncu_probe_h200.json").read_text())
    missed = {"alt_pairs_merge": 0, "alt_every_lane": 0}
    for s in saved["probes"]:
        if s.get("round") == 3:
            p = ncu_probe.Probe(s["name"], s["space"], s["op"], s["ptype"], s["offsets"], s["repeats"])
            for alt in missed:
                missed[alt] += p.predict()[alt] != s["measured"]["wavefronts"]
    assert missed["alt_pairs_merge"] >= 8 and missed["alt_every_lane"] >= 100


def test_matrix_wavefronts_one_phase_per_matrix():
    rows = {lane: (lane % 8) * 128 + (lane // 8) * 16 for lane in range(32)}  # 8 rows of one bank per matrix
    assert mm.matrix_wavefronts(rows, 4) == 32 and mm.matrix_wavefronts(rows, 1) == 8
    swizzled = {lane: a ^ (((a >> 7) & 7) << 4) for lane, a in rows.items()}
    assert mm.matrix_wavefronts(swizzled, 4) == 4
    unused = {lane: lane * 16 if lane < 8 else 0 for lane in range(32)}
    assert mm.matrix_wavefronts(unused, 1) == 1  # lanes 8-31 give no address to .x1


def test_round3_kernels_assemble_to_one_matrix_instruction_each(tmp_path):
    _tool("ptxas")
    _tool("nvdisasm")
    ps = [p for p in MATRIX_PROBES if any(k in p.name for k in ("repeat3", "4warps", "trans", "x1_contig", "x2_bcast"))]
    ncu_probe.assemble(ps, tmp_path)
    assert ncu_probe.check_sass(ps, tmp_path) == []
    counts = ncu_probe.sass_counts((tmp_path / "probes.sass").read_text())
    [ld3] = [p for p in ps if p.name.endswith("ldsm_x4_repeat3")]
    assert counts[ld3.name] == {"LDSM": 3, "STG": 3}
    [st3] = [p for p in ps if p.name.endswith("stsm_x4_repeat3")]
    assert counts[st3.name] == {"STSM": 3}


def test_round3_report_judges_the_load_and_store_counters(tmp_path, capsys):
    """LDSM is counted in ncu's shared *load* wavefronts, STSM in the *store* ones (measured: the
    all-shared counter has one wavefront more per warp, not from the profiled instruction)."""
    ps = MATRIX_PROBES[:12]
    bad = next(k for k, p in enumerate(ps) if p.predicted["alt_every_lane"] != p.predicted["wavefronts"])
    out = tmp_path / "run"
    out.mkdir()
    (out / "probes.json").write_text(json.dumps([ncu_probe.asdict(p) for p in ps]))
    lines = [HEADER]
    for k, p in enumerate(ps):
        for name, v in ((ncu_csv.SHARED_WAVEFRONTS[p.op],
                         p.predicted["alt_every_lane"] if k == bad else p.predicted["wavefronts"]),
                        (ncu_csv.SHARED_CONFLICTS[p.op], p.predicted["conflicts"]),
                        (ncu_csv.SHARED_ALL, p.predicted["wavefronts"] + 1)):  # +1: not the judged counter
            lines.append(f'"{k}","1","python3.12","h","{p.name}","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","s",'
                         f'"{name}","","{v}"')
    (out / "ncu_raw.csv").write_text("\n".join(lines) + "\n")
    assert ncu_probe.main(["--parse", str(out)]) == 1
    text = capsys.readouterr().out
    assert f"{ps[bad].name}: {ps[bad].instruction}" in text
    assert "predicted == measured: 11/12 shared" in text
    assert "ldmatrix/stmatrix model wavefronts: 11/12 probes equal" in text


def test_the_xor2_merge_is_what_round_4_needed(monkeypatch):
    """Issue 32: 8/16-byte loads whose lanes l and l^2 read one address (aligned pairs not) are served per
    pair like aligned pairs; a model that merges only aligned pairs (bit 0) misses round-4 kernels the H200
    measured (49 of 440), one that also merged l^4, l^8 or l^16 would miss rounds 1-2's quarter/half probes."""
    import json
    from pathlib import Path
    saved = json.loads((Path(__file__).parent / "data" / "ncu_probe_h200.json").read_text())

    def missed(bits, rounds):
        monkeypatch.setattr(mm, "MERGE_BITS", bits)
        n = 0
        for s in saved["probes"]:
            if s["space"] != "shared" or s.get("round") not in rounds:
                continue
            p = ncu_probe.Probe(s["name"], s["space"], s["op"], s["ptype"], s["offsets"], s["repeats"])
            n += p.predict()["wavefronts"] != s["measured"]["wavefronts"]
        return n
    assert missed((0, 1), (1, 2, 4)) == 0
    assert missed((0,), (4,)) >= 40
    assert missed((0, 1, 4), (1, 2)) > 0 and missed((0, 1, 3), (1, 2)) > 0
