"""One wgmma on the H200 against the descriptor model (``tilecheck/gpu/wgmma_probe.py``).

On the CPU: the probe kernel assembles for sm_90a, and the model's predictions tell the cases apart
(an agreeing descriptor reads the declared tile, a refuted one reads something else).  On the GPU
(``pytest -m gpu tests/test_wgmma_probe.py``): the hardware's D equals the model's prediction for every
case, and differs from the declared product exactly where tilecheck refutes the descriptor."""
import numpy as np
import pytest

from tilecheck import smem_descriptor as sd
from tilecheck.gpu import wgmma_probe as probe
from tilecheck.layout import parse_layout
from tilecheck.proofs.smem_descriptor import Declaration, Operand, decide
from tilecheck.tools import ToolNotFound, ptxas
from conftest import require_gpu

SW128 = parse_layout("Sw<3,3,3> o (64,64):(64,1)")  # A: a 64x64 half tile, one 128B atom along K
SW64 = parse_layout("Sw<2,3,3> o (64,32):(32,1)")
B_LAYOUT = parse_layout("(8,(8,2)):(8,(1,64))")  # B: 8 x 16 halves, K-major, interleaved core matrices
FB = sd.Fields(0, 128, 256, 0, "none")

# name -> (A's layout, its byte address in the image, the descriptor, the K slice it should read, refuted?)
CASES = {
    "sw128": (SW128, 0, sd.Fields(0, 16, 1024, 0, "128B"), 0, False),
    "sw128_k_step_1": (SW128, 0, sd.Fields(32, 16, 1024, 0, "128B"), 1, False),
    "sw128_k_step_3": (SW128, 0, sd.Fields(96, 16, 1024, 0, "128B"), 3, False),
    "sw64": (SW64, 0, sd.Fields(0, 16, 512, 0, "64B"), 0, False),
    "swizzle_mismatch": (SW128, 0, sd.Fields(0, 16, 1024, 0, "64B"), 0, True),
    "base_offset_3": (SW128, 384, sd.Fields(384, 16, 1024, 3, "128B"), 0, False),
    "base_offset_missing": (SW128, 384, sd.Fields(384, 16, 1024, 0, "128B"), 0, True),
}


def _values():
    rng = np.random.default_rng(31)
    a = rng.integers(-8, 9, (64, 64)).astype(np.float16)  # small integers: every product and sum is exact
    b = rng.integers(-8, 9, (8, 16)).astype(np.float16)
    return a, b


def _case(name):
    layout, address, fa, step, refuted = CASES[name]
    a, b = _values()
    img_a = probe.image(a[:, :layout.extents()[1]], lambda i, j: sd.declared_address(layout, 16, address, 0, i, j))
    img_b = probe.image(b, lambda i, j: sd.declared_address(B_LAYOUT, 16, 0, 0, i, j), probe.SHARED_BYTES - probe.B_AT)
    declared = a[:, 16 * step:16 * step + 16].astype(np.float32) @ b.astype(np.float32).T
    return img_a, fa, img_b, declared, refuted, layout, address, step


@pytest.mark.parametrize("name", sorted(CASES))
def test_tilecheck_refutes_exactly_the_cases_the_model_reads_wrongly(name):
    img_a, fa, img_b, declared, refuted, layout, address, step = _case(name)
    predicted = probe.predict(img_a, fa, img_b, FB)
    assert np.array_equal(predicted, declared) != refuted
    f0 = sd.Fields(fa.start - 32 * step, fa.lbo, fa.sbo, fa.base_offset, fa.swizzle)
    decl = Declaration("DA", Operand(layout, 16, address, name="A"), "K", f0, (64, 16),
                       advance=tuple(32 * j for j in range(1, step + 1)))
    verdicts = {o.name: o.status for o in decide(decl)}
    assert ("refuted" in verdicts.values()) == refuted, verdicts


def test_the_probe_kernel_assembles():
    try:
        r = ptxas(probe.kernel(), "sm_90a")
    except ToolNotFound:
        pytest.skip("ptxas not found")
    assert r.ok, r.summary()


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_hardware_reads_what_the_model_says(name):
    g = require_gpu("sm_90a")
    img_a, fa, img_b, declared, refuted, *_ = _case(name)
    got = probe.run(img_a, fa, img_b, FB, g)
    predicted = probe.predict(img_a, fa, img_b, FB)
    assert np.array_equal(got, predicted), f"{name}: {np.argwhere(got != predicted)[:5].tolist()}"
    assert np.array_equal(got, declared) != refuted
