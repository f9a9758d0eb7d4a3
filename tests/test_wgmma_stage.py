"""``tilecheck fuzz --gpu --families descriptor`` (``tilecheck/fuzz/wgmma_stage.py``): drawn descriptor
pairs through one ``wgmma.mma_async.m64n8k16.f32.f16.f16`` each, against the model's numpy prediction.

On the CPU: the drawn cases are placed in the probe's shared images and predicted; the model reads a
wrong address exactly where tilecheck refutes the descriptors (K step 0; at a later step a wrong read is
refuted too); where it reads right the prediction is the declared product; the probe kernel assembles.
On the GPU (``pytest -m gpu tests/test_wgmma_stage.py``, the H200): the hardware's D equals the model's
prediction for every case."""
import numpy as np
import pytest

from tilecheck.fuzz import wgmma_stage
from tilecheck.gpu import wgmma_probe as probe
from tilecheck.tools import ToolNotFound, ptxas
from conftest import require_gpu


def test_drawn_pairs_are_placed_predicted_and_the_model_agrees_with_tilecheck():
    cases = wgmma_stage.cases(16, 0)
    assert len(cases) == 16
    for c in cases:
        assert c.predicted.shape == (probe.M, probe.N) and np.isfinite(c.predicted).all()
        assert c.img_a.size == probe.B_AT // 2 and c.img_b.size == (probe.SHARED_BYTES - probe.B_AT) // 2
        assert wgmma_stage.model_problems(c) == [], (c.a, c.b, c.step)
        if not c.wrong:  # the model reads the declared tiles: the prediction is the declared product
            assert np.array_equal(c.predicted, c.declared)
    assert any(c.wrong for c in cases) and any(not c.refuted for c in cases)  # both kinds run
    assert any(c.step for c in cases)  # K steps too


def test_a_wrong_read_tilecheck_proves_is_a_model_problem():
    c = next(c for c in wgmma_stage.cases(16, 0) if c.step == 0 and c.wrong)
    c.refuted = False
    assert "reads a wrong address" in wgmma_stage.model_problems(c)[0]


@pytest.mark.parametrize("trans_a", [0, 1])
def test_the_probe_kernel_assembles(trans_a):
    try:
        r = ptxas(probe.kernel(trans_a), "sm_90a")
    except ToolNotFound:
        pytest.skip("ptxas not found")
    assert r.ok, r.summary()
    assert f", 1, 1, {trans_a}, 0;" in probe.kernel(trans_a)  # imm-trans-a, imm-trans-b


@pytest.mark.gpu
def test_the_hardware_reads_what_the_model_says_on_drawn_descriptors():
    g = require_gpu("sm_90a")
    lines = wgmma_stage.run(n=60, seed=0, gpu=g)
    assert "hardware == model 60/60" in lines[0] and "model vs tilecheck problems 0" in lines[0], "\n".join(lines)


class _FakeDevice:
    """A device whose probe computes what ``bend`` makes of the model's prediction (the identity: a device
    that reads what the model says), A read with the kernel's major-ness (``ignore_trans``: always K-major,
    a stage that loaded only the K-major kernel)."""

    def __init__(self, bend=lambda d: d, ignore_trans=False):
        self.bend, self.ignore_trans = bend, ignore_trans
        drv = type("Drv", (), {})()
        drv.In = drv.Out = lambda a: a
        drv.Context = type("Ctx", (), {"synchronize": staticmethod(lambda: None)})
        self.drv = drv

    def probe(self, img_a, img_b, da, db, out, block, grid, major_a="K"):
        assert block == (128, 1, 1) and grid == (1, 1)
        major_a = "K" if self.ignore_trans else major_a
        out[...] = self.bend(probe.predict_words(img_a, int(da), img_b, int(db) - (probe.B_AT >> 4), major_a))

    def function(self, gpu=None, major_a="K"):
        """``probe.probe_function`` on this device."""
        return self, lambda *args, **kw: self.probe(*args, **kw, major_a=major_a)


def test_the_stage_counts_and_writes_what_the_device_gives(monkeypatch, tmp_path):
    dev = _FakeDevice()
    monkeypatch.setattr(probe, "probe_function", dev.function)
    line = wgmma_stage.run(n=8, seed=0, out=str(tmp_path))[0]
    assert "8 descriptor pairs" in line and "hardware == model 8/8" in line and "problems 0" in line, line
    dev.bend = lambda d: d.T.reshape(d.shape) if d.any() else d + 1  # a device that reads elsewhere
    lines = wgmma_stage.run(n=8, seed=0, out=str(tmp_path))
    assert "hardware == model 0/8" in lines[0] and any("wgmma differs: case 0" in x for x in lines), lines
    assert sorted(p.name for p in (tmp_path / "wgmma").glob("differs-0-*.toml")) == ["differs-0-A.toml",
                                                                                   "differs-0-B.toml"]


def test_fuzz_gpu_with_descriptors_runs_the_wgmma_stage(monkeypatch, tmp_path, capsys):
    from tilecheck.cli import main
    from tilecheck.fuzz import gpu_stage
    from tilecheck.gpu import runner
    dev = _FakeDevice()
    monkeypatch.setattr(runner, "gpu", lambda: dev)
    monkeypatch.setattr(gpu_stage, "run", lambda tally, **kw: ["  gpu: no proved check file"])
    monkeypatch.setattr(probe, "probe_function", dev.function)
    monkeypatch.setattr(wgmma_stage, "CASES", 5)
    assert main(["fuzz", "--gpu", "--families", "descriptor", "--cases", "4", "--symbolic-cases", "0",
                 "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "wgmma GPU stage: 5 descriptor pairs" in out and "hardware == model 5/5" in out, out


# cases 48, 49 and 136 of `tilecheck fuzz --gpu --families descriptor --cases 200 --symbolic-cases 0 --seed 31`
# (wgmma_stage.cases(200, 31)): A's descriptor carries the "major" bug -- the tensor is K-major, the descriptor
# declares MN-major.  tilecheck's descriptor-layout refutes it (MN-major, the word reads element (0,1) at byte
# 1056, 1056, 1088; the tensor has it at 1026); the stage used to read every A K-major (imm-trans-a 0), where
# the word reads the declared tile exactly, and called the refutation a model-vs-tilecheck problem.
_K_MAJOR_B = {"arch": "sm_90", "tensors": {"SA": {"dtype": "float16", "layout": "Sw<2,3,3> o ((8,1),(32,2)):((32,256),(1,256))",
                                                  "address": 2048}},
              "descriptors": {"DA": {"tensor": "SA", "major": "K", "tile": [8, 16], "swizzle": "64B", "start": 2048,
                                     "lbo": 16, "sbo": 0, "base_offset": 0, "advance": [32, 512, 544]}}}
SEED31_MN_MAJOR = {  # case: (A's layout, swizzle, SBO, B, the byte the MN-major word reads A's element (0,1) at)
    48: ("Sw<1,3,3> o ((8,8),16):((16,128),1)", "32B", 256, {**_K_MAJOR_B, "tensors": {"SA": {
        **_K_MAJOR_B["tensors"]["SA"], "address": 2944, "offset": 512}}, "descriptors": {"DA": {
            **_K_MAJOR_B["descriptors"]["DA"], "start": 3968, "base_offset": 7}}}, 1056),
    49: ("Sw<1,3,3> o ((8,8),16):((16,128),1)", "32B", 256, _K_MAJOR_B, 1056),
    136: ("Sw<2,3,3> o ((8,8),16):((32,256),1)", "64B", 512, {"arch": "sm_90", "tensors": {"SA": {
        "dtype": "float16", "layout": "((8,1),(8,4)):((8,64),(1,64))", "address": 3072}}, "descriptors": {"DA": {
            "tensor": "SA", "major": "K", "tile": [8, 16], "swizzle": "none", "start": 3072, "lbo": 128, "sbo": 256,
            "base_offset": 0, "advance": [256]}}}, 1088),
}


def _seed31_case(k):
    lay, mode, sbo, b, _ = SEED31_MN_MAJOR[k]
    a = {"arch": "sm_90", "tensors": {"SA": {"dtype": "float16", "layout": lay, "address": 1024}},
         "descriptors": {"DA": {"tensor": "SA", "major": "MN", "tile": [64, 16], "swizzle": mode, "start": 1024,
                                "lbo": 16, "sbo": sbo, "base_offset": 0}}}
    return wgmma_stage.prepare(a, b, 0, np.random.default_rng(k))


@pytest.mark.parametrize("k", sorted(SEED31_MN_MAJOR))
def test_an_mn_major_descriptor_is_read_mn_major_seed_31(k):
    from tilecheck import smem_descriptor as sd
    c = _seed31_case(k)
    assert c is not None and wgmma_stage.model_problems(c) == [], wgmma_stage.model_problems(c)
    assert c.major == "MN"
    assert c.z3["A"]["descriptor-layout"] == "refuted" and c.refuted
    # the element tilecheck names: declared at byte 1026, the MN-major word reads it elsewhere; K-major it
    # would read it right (the K-major tensor's own descriptor), which is what the stage used to compare
    assert sd.decode(c.word_a, "MN", 16, (64, 16)).address(0, 1) == SEED31_MN_MAJOR[k][4]
    assert sd.decode(c.word_a, "K", 16, (64, 16)).address(0, 1) == 1026
    assert c.wrong
    assert not np.array_equal(c.predicted, c.declared)  # the device, reading as the model does, confirms it


def test_the_stage_runs_mn_major_a_through_imm_trans_a(monkeypatch):
    drawn = [_seed31_case(k) for k in sorted(SEED31_MN_MAJOR)]
    monkeypatch.setattr(wgmma_stage, "cases", lambda n, seed: drawn)
    dev = _FakeDevice()
    monkeypatch.setattr(probe, "probe_function", dev.function)
    line = wgmma_stage.run(n=3, seed=31)[0]
    assert "MN-major A in 3 (imm-trans-a 1)" in line and "hardware == model 3/3" in line, line
    assert "the model reads wrongly in 3, D != declared in 3/3" in line and "problems 0" in line, line
    dev.ignore_trans = True  # a device given the K-major kernel for them reads the declared tile: not the model
    line = wgmma_stage.run(n=3, seed=31)[0]
    assert "hardware == model 0/3" in line and "D != declared in 0/3" in line, line
