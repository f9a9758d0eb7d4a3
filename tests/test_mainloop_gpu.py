"""The proved Hopper GEMM mainloop on the H200 (tilecheck/gpu/mainloop.py): shapes x swizzle modes x input
types, M, N and K ragged among them, each equal to numpy's ``A @ B.T`` in float32 (small integers: exactly;
one standard-normal case per type within the stated tolerance); a descriptor the proof refutes, forced
(``unchecked``), gives a wrong product.  Marked ``gpu``: skipped without pycuda or an sm_90 device.

    pytest -m gpu tests/test_mainloop_gpu.py         # on the H200, after: source .gpu/setup-on-device.sh
"""
import pytest

from tilecheck import mainloop as ml
from conftest import require_gpu

pytestmark = pytest.mark.gpu

SHAPES = [(64, 128, 256), (200, 280, 296), (128, 512, 1024), (1, 8, 8)]
CASES = ([ml.Mainloop(m, n, k, 128, 3, sw, dt) for (m, n, k) in SHAPES[:2] for sw in ml.SWIZZLES
          for dt in ("f16", "bf16")]
         + [ml.Mainloop(m, n, k, 128, 3, sw, "e4m3") for (m, n, k) in ((64, 128, 512), (200, 280, 592))
            for sw in ml.SWIZZLES]
         + ml.supported()
         + [ml.Mainloop(128, 512, 1024, 256, 4, "128B", "f16"), ml.Mainloop(128, 512, 1024, 64, 1, "128B", "bf16"),
            ml.Mainloop(1, 8, 8, 8, 2, "128B", "f16"), ml.Mainloop(1, 8, 16, 8, 2, "none", "e4m3"),
            ml.Mainloop(200, 280, 296, 128, 2, "128B", "f16", pad=128),  # a stage 128 B off the pattern, read there
            ml.Mainloop(1000, 1000, 1000, 128, 4, "128B", "f16")])


@pytest.fixture(scope="module")
def device():
    g = require_gpu()
    why = g.can_run("sm_90a")
    if why:
        pytest.skip(why)
    return g


@pytest.mark.parametrize("spec", list(dict.fromkeys(CASES)), ids=str)
def test_the_proved_mainloop_equals_numpy(device, spec):
    from tilecheck.gpu import mainloop as run
    out = run.run(spec)
    assert out.ok, out.line


@pytest.mark.parametrize("dtype", list(ml.DTYPES))
def test_random_normal_inputs_within_the_stated_tolerance(device, dtype):
    from tilecheck.gpu import mainloop as run
    out = run.run(ml.Mainloop(256, 384, 1024, 128, 3, "128B", dtype), data="normal", seed=1)
    assert out.ok, out.line


@pytest.mark.parametrize("spec", [
    ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16", unchecked_swizzle="64B"),
    ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16", unchecked_swizzle="none"),
    ml.Mainloop(200, 280, 296, 128, 3, "64B", "bf16", unchecked_swizzle="32B"),
    ml.Mainloop(200, 280, 296, 128, 3, "128B", "f16", unchecked_base_offset=3),
], ids=str)
def test_a_refuted_descriptor_forced_gives_a_wrong_product(device, spec):
    from tilecheck.gpu import mainloop as run
    out = run.run(spec)
    assert out.differ > 0, out.line
