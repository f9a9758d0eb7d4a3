"""The accumulator's fragment map on the H200: one ``wgmma.mma_async.m64nNk16.f32.f16.f16`` per N, D stored
through ``families/wgmma.py``'s fragment map (``issue_and_store``), equal to numpy's ``A . B^T``.

``tests/test_wgmma_probe.py`` confirmed N = 8 (its stores follow the same map); N > 8 adds the map's
``8*(i//4)`` column blocks, which only the hardware can confirm.  A and B are K-major 128B-swizzled tiles
read through descriptors in the mode the probe confirmed; the CPU half holds the descriptor model
(``smem_descriptor.decode``) to the declared tiles and assembles the kernels.  On the GPU: ``pytest -m gpu tests/test_wgmma_fragment_gpu.py``."""
import numpy as np
import pytest

from tilecheck import smem_descriptor as sd
from tilecheck.families import wgmma
from tilecheck.gpu import wgmma_probe as probe
from tilecheck.layout import parse_layout
from tilecheck.mma_spelling import WGMMA_TARGET, WGMMA_VERSION
from tilecheck.tools import ToolNotFound, ptxas
from conftest import require_gpu

NS = [8, 16, 24, 64, 128, 256]
A_BYTES = 64 * 64 * 2  # A: a 64 x 64 half tile, one 128B swizzle atom along K (the wgmma reads K 0..15)


def _setup(n):
    """A and B both K-major 128B-swizzled (CuTe's ``Layout_K_SW128_Atom<half_t>`` over the rows), read through
    ``Fields(start, 16, 1024, 0, "128B")``: the descriptor mode ``tests/test_wgmma_probe.py``'s ``sw128``
    case confirmed on the H200, so that a difference here is the fragment map's."""
    a_layout = parse_layout("Sw<3,3,3> o (64,64):(64,1)")
    b_layout = parse_layout(f"Sw<3,3,3> o ({n},64):(64,1)")
    fa = sd.Fields(0, 16, 1024, 0, "128B")
    fb = sd.Fields(A_BYTES, 16, 1024, 0, "128B")
    rng = np.random.default_rng(n)
    a = rng.integers(-8, 9, (64, 16)).astype(np.float16)  # small integers: every sum exact in f32
    b = rng.integers(-8, 9, (n, 16)).astype(np.float16)
    size = A_BYTES + 128 * n

    def place(i, j, layout, at):
        return sd.declared_address(layout, 16, at, 0, i, j)
    img = probe.image(a, lambda i, j: place(i, j, a_layout, 0), size)
    for i in range(n):
        for j in range(16):
            img[place(i, j, b_layout, A_BYTES) // 2] = b[i, j]
    return img, fa, fb, a.astype(np.float32) @ b.astype(np.float32).T, size


def kernel(n: int) -> str:
    """Copy the image to shared memory, then ``wgmma.issue_and_store`` (the descriptors' starts are
    relative to the shared buffer: its address >> 4 is added)."""
    op = wgmma.parse(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16")
    size = A_BYTES + 128 * n
    return "\n".join([
        f".version {WGMMA_VERSION}", f".target {WGMMA_TARGET}", ".address_size 64", "",
        f".shared .align 1024 .b8 smem[{size}];", "",
        ".visible .entry frag(.param .u64 p_img, .param .u64 p_da, .param .u64 p_db, .param .u64 p_c)", "{",
        "  .reg .b64 %desc_a, %desc_b, %c, %a, %img, %src, %off64, %base64;",
        "  .reg .b32 %t, %w, %l, %g, %q, %row, %off, %i, %dst, %base;", "  .reg .b32 %v<4>;",
        f"  .reg .f32 %d<{op.vector}>;", "  .reg .pred %scale_d, %loop;",
        "  ld.param.u64 %img, [p_img];", "  ld.param.u64 %desc_a, [p_da];", "  ld.param.u64 %desc_b, [p_db];",
        "  ld.param.u64 %c, [p_c];", "  cvta.to.global.u64 %img, %img;", "  cvta.to.global.u64 %c, %c;",
        "  mov.u32 %i, %tid.x;", "  mov.u32 %base, smem;",
        "COPY:", "  shl.b32 %dst, %i, 4;", "  cvt.u64.u32 %off64, %dst;", "  add.u64 %src, %img, %off64;",
        "  ld.global.v4.b32 {%v0, %v1, %v2, %v3}, [%src];", "  add.u32 %dst, %dst, %base;",
        "  st.shared.v4.b32 [%dst], {%v0, %v1, %v2, %v3};", "  add.u32 %i, %i, 128;",
        f"  setp.lt.u32 %loop, %i, {size // 16};", "  @%loop bra COPY;",
        "  fence.proxy.async.shared::cta;", "  bar.sync 0;",
        "  shr.u32 %i, %base, 4;", "  cvt.u64.u32 %base64, %i;",
        "  add.u64 %desc_a, %desc_a, %base64;", "  add.u64 %desc_b, %desc_b, %base64;",
        "  setp.ne.b32 %scale_d, %i, %i;  // scale-d false: D = A . B",
        *(f"  {x}" for x in wgmma.issue_and_store(op)), "  ret;", "}", ""])


@pytest.mark.parametrize("n", NS)
def test_the_model_reads_the_declared_tiles(n):
    img, fa, fb, declared, _ = _setup(n)
    a = probe.read(img, fa, "K", (64, 16)).astype(np.float32)
    b = probe.read(img, fb, "K", (n, 16)).astype(np.float32)
    assert np.array_equal(a @ b.T, declared)


def test_the_kernels_assemble():
    try:
        for n in NS:
            r = ptxas(kernel(n), "sm_90a")
            assert r.ok, (n, r.summary())
    except ToolNotFound:
        pytest.skip("ptxas not found")


@pytest.mark.gpu
@pytest.mark.parametrize("n", NS)
def test_the_hardware_fragment_is_the_declared_map(n):
    from tilecheck.gpu.runner import ptxas as assemble
    g = require_gpu("sm_90a")
    img, fa, fb, declared, _ = _setup(n)
    drv = g.drv
    fn = drv.module_from_buffer(assemble(kernel(n), WGMMA_TARGET)).get_function("frag")
    out = np.full((64, n), np.nan, dtype=np.float32)
    fn(drv.In(img), np.uint64(sd.pack(fa)), np.uint64(sd.pack(fb)), drv.Out(out), block=(128, 1, 1), grid=(1, 1))
    drv.Context.synchronize()
    assert np.array_equal(out, declared), f"N={n}: first differences {np.argwhere(out != declared)[:5].tolist()}"
