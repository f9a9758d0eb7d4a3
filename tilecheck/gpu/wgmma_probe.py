"""One ``wgmma.mma_async.m64n8k16.f32.f16.f16`` on the hardware, to hold the descriptor model to it.

The kernel (one warpgroup) copies two shared-memory images from global memory -- the bytes of A
(up to 16 KiB) and B (8 x 16 halves, K-major) placed wherever the test put them -- issues one wgmma
whose descriptors the host gives (start addresses relative to the 1024-byte aligned shared buffer)
and writes D = A_read . B_read^T to global memory.  ``predict`` computes what the model says the
tensor core reads (``smem_descriptor.decode``) and multiplies in numpy: the hardware and the model
agree exactly when the model is right -- for agreeing descriptors and for ones the obligations
refute (a swizzle mismatch, a base offset off its pattern), whose wrong results the model predicts too.

The accumulator fragment of ``m64nNk16`` (PTX ISA, "wgmma .m64nNk16 register fragment layout for the
accumulator"): thread ``t`` (warp ``w = t / 32``, lane ``l``) holds, for N = 8, ``d0, d1`` at row
``16w + l/4``, columns ``2(l%4)``, ``+1``, and ``d2, d3`` at the row ``+ 8``.
"""
from __future__ import annotations

import numpy as np

from .. import smem_descriptor as sd
from ..mma_spelling import WGMMA_TARGET, WGMMA_VERSION, wgmma
from .runner import gpu as default_gpu, ptxas

SHARED_BYTES = 24576  # A's image in [0, 16384), B's in [16384, 24576)
B_AT = 16384
M, N, K = 64, 8, 16


def kernel(trans_a: int = 0) -> str:
    """The probe kernel: ``probe(a_img, b_img, desc_a, desc_b, out)``; one CTA of 128 threads.  ``trans_a``
    1: the wgmma's ``imm-trans-a`` is 1, A is read MN-major (B stays K-major)."""
    mma = wgmma(N, "f16", accumulators="%d", a="%da", b="%db", scale_d="%p", trans_a=trans_a)
    return f"""\
.version {WGMMA_VERSION}
.target {WGMMA_TARGET}
.address_size 64

.shared .align 1024 .b8 smem[{SHARED_BYTES}];

.visible .entry probe(.param .u64 p_a, .param .u64 p_b, .param .u64 p_da, .param .u64 p_db, .param .u64 p_out)
{{
  .reg .b64 %ga, %gb, %out, %da, %db, %base64, %off64, %src, %row64;
  .reg .b32 %t, %i, %base, %dst, %w, %l, %row, %col, %idx;
  .reg .b32 %v<4>;
  .reg .f32 %d<4>;
  .reg .pred %p, %loop;
  ld.param.u64 %ga, [p_a];
  ld.param.u64 %gb, [p_b];
  ld.param.u64 %da, [p_da];
  ld.param.u64 %db, [p_db];
  ld.param.u64 %out, [p_out];
  cvta.to.global.u64 %ga, %ga;
  cvta.to.global.u64 %gb, %gb;
  cvta.to.global.u64 %out, %out;
  mov.u32 %t, %tid.x;
  mov.u32 %base, smem;
  // copy both images, 16 bytes a thread a round: A's 8192 bytes from a_img, B's from b_img
  mov.u32 %i, %t;
COPY:
  shl.b32 %dst, %i, 4;
  cvt.u64.u32 %off64, %dst;
  setp.lt.u32 %p, %dst, {B_AT};
  @%p add.u64 %src, %ga, %off64;
  @!%p sub.u64 %off64, %off64, {B_AT};  // B's image is {SHARED_BYTES - B_AT} bytes
  @!%p add.u64 %src, %gb, %off64;
  ld.global.v4.b32 {{%v0, %v1, %v2, %v3}}, [%src];
  add.u32 %dst, %dst, %base;
  st.shared.v4.b32 [%dst], {{%v0, %v1, %v2, %v3}};
  add.u32 %i, %i, 128;
  setp.lt.u32 %loop, %i, {SHARED_BYTES // 16};
  @%loop bra COPY;
  fence.proxy.async.shared::cta;  // this thread's st.shared made visible to the async proxy (wgmma), then
  bar.sync 0;                     // every thread's, before any wgmma reads them
  // the descriptors' start fields are relative to smem: add its address >> 4
  shr.u32 %i, %base, 4;
  cvt.u64.u32 %base64, %i;
  add.u64 %da, %da, %base64;
  add.u64 %db, %db, %base64;
  setp.ne.b32 %p, %t, %t;  // scale-d false: D = A . B
  wgmma.fence.sync.aligned;
  {mma}
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  // D fragment: row 16w + l/4 (+8 for d2, d3), columns 2(l%4), +1
  shr.u32 %w, %t, 5;
  and.b32 %l, %t, 31;
  shl.b32 %row, %w, 4;
  shr.u32 %i, %l, 2;
  add.u32 %row, %row, %i;
  and.b32 %col, %l, 3;
  shl.b32 %col, %col, 1;
  mad.lo.u32 %idx, %row, {N}, %col;
  mul.wide.u32 %off64, %idx, 4;
  add.u64 %row64, %out, %off64;
  st.global.v2.f32 [%row64], {{%d0, %d1}};
  st.global.v2.f32 [%row64+{8 * N * 4}], {{%d2, %d3}};
  ret;
}}
"""


def image(values: np.ndarray, address_of, size: int = B_AT) -> np.ndarray:
    """A ``size``-byte shared image (as float16 slots) holding ``values[i, j]`` at byte ``address_of(i, j)``;
    the other bytes hold small-integer noise (every product exact), so a read from the wrong place shows."""
    img = np.random.default_rng(7).integers(-8, 9, size // 2).astype(np.float16)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            a = address_of(i, j)
            assert a % 2 == 0 and 0 <= a < size, a
            img[a // 2] = values[i, j]
    return img


def read(img: np.ndarray, fields: sd.Fields, major: str, tile) -> np.ndarray:
    """What the model says the tensor core reads from ``img`` through ``fields`` (``decode``)."""
    d = sd.decode(fields, major, 16, tile)
    return np.array([[img[d.address(i, j) // 2] for j in range(tile[1])] for i in range(tile[0])], dtype=np.float16)


def predict(img_a, fa: sd.Fields, img_b, fb: sd.Fields) -> np.ndarray:
    """D = A_read . B_read^T in float32, A and B as the model reads them (B's start relative to its image)."""
    a = read(img_a, fa, "K", (M, K)).astype(np.float32)
    b = read(img_b, fb, "K", (N, K)).astype(np.float32)
    return a @ b.T


def run(img_a, fa: sd.Fields, img_b, fb: sd.Fields, gpu=None) -> np.ndarray:
    """The hardware's D for the images and descriptors (``fb``'s start relative to B's image)."""
    g = gpu or default_gpu()
    drv = g.drv
    module = drv.module_from_buffer(ptxas(kernel(), WGMMA_TARGET))
    fn = module.get_function("probe")
    out = np.full((M, N), np.nan, dtype=np.float32)
    fb_abs = sd.Fields(fb.start + B_AT, fb.lbo, fb.sbo, fb.base_offset, fb.swizzle)
    da, db = np.uint64(sd.pack(fa)), np.uint64(sd.pack(fb_abs))
    fn(drv.In(img_a), drv.In(img_b), da, db, drv.Out(out), block=(128, 1, 1), grid=(1, 1))
    drv.Context.synchronize()
    return out


# --- drawn descriptors (tilecheck fuzz --gpu --families descriptor: fuzz/wgmma_stage.py) ---------------

def read_word(img: np.ndarray, word: int, major: str, tile) -> np.ndarray:
    """What the model says the tensor core reads from ``img`` through a packed sm_90 word (``decode``)."""
    d = sd.decode(word, major, 16, tile)
    return np.array([[img[d.address(i, j) // 2] for j in range(tile[1])] for i in range(tile[0])], dtype=np.float16)


def predict_words(img_a, word_a: int, img_b, word_b: int, major_a: str = "K") -> np.ndarray:
    """``predict`` for packed words as the code built them (B's start relative to its image; A read
    ``major_a``-major: the kernel's ``imm-trans-a`` is 1 for ``"MN"``)."""
    a = read_word(img_a, word_a, major_a, (M, K)).astype(np.float32)
    b = read_word(img_b, word_b, "K", (N, K)).astype(np.float32)
    return a @ b.T


def probe_function(gpu=None, major_a: str = "K"):
    """The probe kernel loaded on the device (assembled once for a run of many cases), reading A
    ``major_a``-major (``"MN"``: ``imm-trans-a`` 1)."""
    g = gpu or default_gpu()
    return g, g.drv.module_from_buffer(ptxas(kernel(int(major_a == "MN")), WGMMA_TARGET)).get_function("probe")


def run_words(img_a, word_a: int, img_b, word_b: int, gpu=None, loaded=None) -> np.ndarray:
    """``run`` with packed words (``word_b``'s start relative to B's image: B_AT is added to its start
    field); ``loaded``: ``probe_function``'s answer (for the A major-ness the case declares), reused."""
    g, fn = loaded or probe_function(gpu)
    drv = g.drv
    out = np.full((M, N), np.nan, dtype=np.float32)
    da, db = np.uint64(word_a), np.uint64(word_b + (B_AT >> 4))
    fn(drv.In(img_a), drv.In(img_b), da, db, drv.Out(out), block=(128, 1, 1), grid=(1, 1))
    drv.Context.synchronize()
    return out
