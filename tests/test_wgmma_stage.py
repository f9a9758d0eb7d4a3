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


def test_the_probe_kernel_assembles():
    try:
        r = ptxas(probe.kernel(), "sm_90a")
    except ToolNotFound:
        pytest.skip("ptxas not found")
    assert r.ok, r.summary()


@pytest.mark.gpu
def test_the_hardware_reads_what_the_model_says_on_drawn_descriptors():
    from tilecheck.gpu.runner import GpuUnavailable, gpu
    try:
        g = gpu()
    except GpuUnavailable as e:
        pytest.skip(str(e))
    if g.can_run("sm_90a"):
        pytest.skip(g.can_run("sm_90a"))
    lines = wgmma_stage.run(n=60, seed=0, gpu=g)
    assert "hardware == model 60/60" in lines[0] and "model vs tilecheck problems 0" in lines[0], "\n".join(lines)


class _FakeDevice:
    """A device whose probe computes what ``bend`` makes of the model's prediction (the identity: a device
    that reads what the model says)."""

    def __init__(self, bend=lambda d: d):
        self.bend = bend
        drv = type("Drv", (), {})()
        drv.In = drv.Out = lambda a: a
        drv.Context = type("Ctx", (), {"synchronize": staticmethod(lambda: None)})
        self.drv = drv

    def probe(self, img_a, img_b, da, db, out, block, grid):
        assert block == (128, 1, 1) and grid == (1, 1)
        out[...] = self.bend(probe.predict_words(img_a, int(da), img_b, int(db) - (probe.B_AT >> 4)))


def test_the_stage_counts_and_writes_what_the_device_gives(monkeypatch, tmp_path):
    dev = _FakeDevice()
    monkeypatch.setattr(probe, "probe_function", lambda gpu=None: (dev, dev.probe))
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
    monkeypatch.setattr(probe, "probe_function", lambda gpu=None: (dev, dev.probe))
    monkeypatch.setattr(wgmma_stage, "CASES", 5)
    assert main(["fuzz", "--gpu", "--families", "descriptor", "--cases", "4", "--symbolic-cases", "0",
                 "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "wgmma GPU stage: 5 descriptor pairs" in out and "hardware == model 5/5" in out, out
