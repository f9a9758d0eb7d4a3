"""The proved Hopper GEMM mainloop without a GPU (tilecheck/mainloop.py, tilecheck/emit/mainloop.py): every
supported configuration proves piece by piece and its PTX assembles for sm_90a; a swizzle mismatch, a
misaligned stage, an unaligned K, an odd N and an over-budget ring are refuted with the piece named; a
refuted spec yields no plan and so no PTX; an unchecked override yields a plan marked so.  The device half
is tests/test_mainloop_gpu.py."""
import re

import pytest

from tilecheck import mainloop as ml
from tilecheck.emit import mainloop as emit
from tilecheck.tools import ToolNotFound, find_tool, ptxas

SUPPORTED = ml.supported()
_RESULTS = {}


def proved(spec):
    if spec not in _RESULTS:
        _RESULTS[spec] = ml.prove(spec)
    return _RESULTS[spec]


def piece(result, name):
    return next(p for p in result.pieces if p.name == name)


@pytest.mark.parametrize("spec", SUPPORTED, ids=str)
def test_every_supported_configuration_proves_piece_by_piece(spec):
    r = proved(spec)
    assert r.verdict == "proved", r.to_text()
    names = {p.name for p in r.pieces}
    for op in "AB":
        assert f"tensor map {op}" in names
        for s in range(spec.stages):
            assert f"tma {op} stage {s}" in names
            wgs = [f" wg {g}" for g in range(spec.wgs)] if op == "A" and spec.wgs > 1 else [""]
            assert {f"descriptor {op} stage {s}{w}" for w in wgs} <= names
    assert {"phase-tx", "shared-budget", "fragment", "epilogue"} <= names
    assert {"guard", "ownership", "bounds", "alignment", "disjoint"} <= set(piece(r, "epilogue").obligations)
    # each piece names the obligations it was proved by
    assert set(piece(r, "tma A stage 0").obligations) >= {"tma_map", "tma_smem", "tma_landing", "tma_tx"}
    assert set(piece(r, "descriptor B stage 1").obligations) == {"descriptor-encoding", "descriptor-base",
                                                                   "descriptor-layout", "descriptor-k-advance"}
    assert set(piece(r, "fragment").obligations) == {"fragment-owned", "fragment-disjoint", "fragment-covers"}
    p = r.plan
    assert p is not None and not p.unchecked
    assert p.tx == spec.box("A").nbytes + spec.box("B").nbytes  # the whole boxes, the edge's fill included
    assert len(p.a.advance) == spec.ksteps - 1


def test_the_sweep_covers_every_mode_type_and_ragged_edges():
    assert {(s.swizzle, s.dtype) for s in SUPPORTED} == {(w, d) for w in ml.SWIZZLES for d in ml.DTYPES}
    assert all(s.k % s.bk and s.m % s.rows and s.n % s.bn for s in SUPPORTED)
    assert {(s.wgs, s.overlap, s.producer) for s in SUPPORTED} == {(1, False, False), (2, True, False),
                                                                      (2, True, True)}
    assert all(s.ktiles > s.stages for s in SUPPORTED)  # the refill runs


def test_the_128b_descriptor_is_cutlass_s():
    """K-major 128B f16: LBO 16 (unused), SBO 1024 (8 rows of 128 bytes), layout type 1; 32 bytes a K step."""
    p = proved(ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16")).plan
    assert p.a.desc_const == (1 << 62) | ((1024 >> 4) << 32) | ((16 >> 4) << 16)
    assert p.a.advance == (32, 64, 96)
    assert p.b.start == (8192, 8192 + 24576, 8192 + 2 * 24576)


def test_a_swizzle_mismatch_is_refuted_and_unchecked_is_marked():
    spec = ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16", unchecked_swizzle="64B")
    r = ml.prove(spec)
    assert r.verdict == "refuted"
    d = piece(r, "descriptor A stage 0")
    assert d.verdict == "refuted" and d.message.startswith("descriptor-layout refuted: element (1,0) of SA0")
    assert piece(r, "tma A stage 0").verdict == "proved"  # the landing is fine: the reader is wrong
    assert r.plan is not None and r.plan.unchecked and r.plan.refutations
    assert r.plan.a.desc_const >> 62 == 2  # the forced 64B code
    assert "UNCHECKED" in emit.ptx(r.plan).splitlines()[0]


def test_a_forced_base_offset_is_refuted():
    r = ml.prove(ml.Mainloop(200, 280, 296, 128, 2, "128B", "f16", unchecked_base_offset=3))
    d = piece(r, "descriptor B stage 0")
    assert d.verdict == "refuted" and d.message.startswith("descriptor-base refuted")
    assert r.plan.unchecked


def test_an_override_that_is_not_refuted_gives_no_plan():
    r = ml.prove(ml.Mainloop(200, 280, 296, 128, 2, "128B", "f16", unchecked_swizzle="128B"))
    assert r.verdict == "proved" and r.plan is None and "nothing to confirm" in r.reason


def test_a_misaligned_stage_is_refuted_by_tma_smem():
    r = ml.prove(ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16", pad=16))
    assert r.plan is None
    p = piece(r, "tma A stage 0")
    assert p.verdict == "refuted" and p.message.startswith("tma_smem refuted: SA0's offset is 16 bytes past")
    assert r.reason.startswith("tma A stage 0: tma_smem refuted")


def test_a_stage_off_the_pattern_but_read_there_proves():
    """128 bytes past the 1024 boundary: TMA swizzles the absolute address, and so does the descriptor
    (start 128, base offset 0): the landing and the reads agree (the model; the GPU test runs it)."""
    r = ml.prove(ml.Mainloop(200, 280, 296, 128, 2, "128B", "f16", pad=128))
    assert r.verdict == "proved", r.to_text()
    assert r.plan.a.start[0] == 128


def test_an_unaligned_k_is_refuted_by_the_tensor_map():
    r = ml.prove(ml.Mainloop(200, 280, 300, 128, 3, "128B", "f16"))
    assert r.plan is None
    assert piece(r, "tensor map A").message.endswith("strides[0] = 600 bytes is not a multiple of 16")


def test_an_odd_n_is_refuted_by_the_guarded_epilogue():
    """N = 281: the edge tile's last column pair is half inside C (the guard obligation's straddle)."""
    r = ml.prove(ml.Mainloop(200, 281, 296, 128, 3, "128B", "f16"))
    p = piece(r, "epilogue")
    assert r.plan is None and p.verdict == "refuted" and p.message.startswith("guard refuted")
    assert "straddles C's edge" in p.message


def test_a_ring_over_the_shared_budget_is_refuted():
    r = ml.prove(ml.Mainloop(256, 256, 1024, 256, 6, "128B", "f16"))
    assert r.plan is None and piece(r, "shared-budget").message.startswith("shared-budget refuted: 6 stages")


def test_no_ptx_without_a_plan():
    r = ml.prove(ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16", pad=16))
    with pytest.raises(TypeError):
        emit.ptx(r.plan)
    with pytest.raises(PermissionError):
        ml.Plan(object(), r.spec, None, None, 0, False)


@pytest.mark.parametrize("kw", [{"bn": 12}, {"stages": 0}, {"swizzle": "16B"}, {"dtype": "f32"}, {"m": 0},
                                {"unchecked_swizzle": "16B"}, {"unchecked_base_offset": 8}, {"wgs": 3},
                                {"overlap": True, "stages": 1}, {"producer": 1}, {"raster": -1}, {"raster": 65}])
def test_bad_specs_are_one_line_errors(kw):
    args = {"m": 64, "n": 64, "k": 64, **kw}
    with pytest.raises(ml.SpecError):
        ml.Mainloop(**args)


def test_two_warpgroups_read_their_own_rows():
    """wgs=2: A's box is 128 rows; warpgroup 1's descriptors are proved to read rows 64..127 (8192 bytes on
    with 128B), B's are shared."""
    r = proved(ml.Mainloop(300, 280, 296, 128, 3, "128B", "f16", wgs=2, overlap=True))
    assert r.verdict == "proved", r.to_text()
    assert {"descriptor A stage 2 wg 1", "descriptor B stage 2"} <= {p.name for p in r.pieces}
    assert r.plan.a.wg_step == 64 * 128 and r.plan.b.wg_step == 0
    assert r.plan.a.box_bytes == 128 * 128
    text = emit.ptx(r.plan)
    assert ".maxntid 256, 1, 1" in text and "wgmma.wait_group.sync.aligned 1;" in text


def test_a_producer_warp_issues_the_loads_and_the_consumers_release_by_mbarrier():
    spec = ml.Mainloop(300, 280, 296, 128, 3, "128B", "f16", wgs=2, overlap=True, producer=True)
    r = proved(spec)
    assert r.verdict == "proved" and spec.threads == 288 and spec.barriers == 6
    text = emit.ptx(r.plan)
    assert ".maxntid 288, 1, 1" in text and "bar.sync" not in text.split("LOOP:")[1].split("PRODUCER:")[0]
    assert text.count("mbarrier.init.shared::cta.b64") == 6 and ", 256;" in text  # 'empty': one arrival a consumer
    assert text.count("mbarrier.arrive.shared::cta.b64") == 1


def test_the_ptx_carries_the_proved_numbers():
    spec = ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16")
    p = proved(spec).plan
    text = emit.ptx(p)
    assert f"{p.a.desc_const:#x}" in text
    assert text.count("mbarrier.arrive.expect_tx.shared::cta.b64 \t_, ") == min(spec.stages, spec.ktiles) + 1
    assert f", {p.tx};" in text
    assert len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16", text)) == spec.ksteps
    assert text.count("st.global.v2.f32") == 2 * spec.bn // 8
    assert ".target sm_90a" in text


@pytest.mark.parametrize("spec", SUPPORTED, ids=str)
def test_every_configuration_assembles_for_sm_90a(spec):
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"no ptxas: {e}")
    r = ptxas(emit.ptx(proved(spec).plan), "sm_90a")
    assert r.ok, r.summary()


def test_the_runner_s_inputs_are_exact_in_every_type():
    from tilecheck.gpu import mainloop as run
    import numpy as np
    x = np.arange(-3, 4, dtype=np.float32)
    for dt in ml.DTYPES:
        bits, back = run.to_device_bits(x, dt)
        assert np.array_equal(back, x), dt
    bits, back = run.to_device_bits(np.array([1.0, 448.0, -0.015625, 0.1], dtype=np.float32), "e4m3")
    assert bits.tolist()[:3] == [0x38, 0x7E, 0x88] and back[3] == np.float32(0.1015625)
    bits, back = run.to_device_bits(np.array([1.0, -2.5], dtype=np.float32), "bf16")
    assert bits.tolist() == [0x3F80, 0xC020]


def test_the_runner_s_bad_input_is_exit_2(capsys):
    from tilecheck.gpu import mainloop as run
    assert run.main(["--m", "64", "--n", "64", "--k", "64", "--swizzle", "16B"]) == 2
    assert "swizzle = '16B'" in capsys.readouterr().err
    assert run.main(["--m", "x", "--n", "64", "--k", "64"]) == 2


def test_the_benchmark_s_configurations_prove_and_fit():
    """bench/gemm.py (torch only inside main): each configuration proves on a bench shape."""
    import importlib.util
    from pathlib import Path
    spec_ = importlib.util.spec_from_file_location("bench_gemm", Path(__file__).resolve().parents[1] / "bench/gemm.py")
    bench = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(bench)
    for bn, stages, sw, wgs, overlap, producer, raster in bench.CONFIGS:
        r = proved(ml.Mainloop(1000, 1000, 1000, bn, stages, sw, "f16", wgs=wgs, overlap=overlap, producer=producer,
                               raster=raster))
        assert r.plan is not None, r.reason


def test_the_runner_proves_without_a_gpu(capsys, tmp_path):
    from tilecheck.gpu import mainloop as run
    assert run.main(["--m", "200", "--n", "280", "--k", "296", "--swizzle", "128B,64B", "--prove-only",
                     "--ptx", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count(": proved") == 2 and "descriptor B stage 2" in out
    assert (tmp_path / "mainloop-1.ptx").read_text().startswith("// tilecheck mainloop: M=200 N=280 K=296")
    assert run.main(["--m", "200", "--n", "280", "--k", "300", "--prove-only"]) == 3
    assert "no plan: tensor map A: descriptor refuted" in capsys.readouterr().out
