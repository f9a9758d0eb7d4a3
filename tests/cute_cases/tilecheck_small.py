"""Small CuTe DSL kernels for `tilecheck cute` (tests/test_cute.py): a CTA of 128 threads stages a 64x64
fp16 tile from global memory into shared memory with 16-byte cp.async, through a TiledCopy.

- tilecheck_swizzled: shared tile Sw<3,3,3> o (64,64):(64,1), proved (conflict-free too);
- tilecheck_padded_refuted: rows padded by 4 halves, (64,64):(68,1): a row starts 136 bytes after the
  previous one, so every odd row's 16-byte destinations are only 8-byte aligned: alignment refuted;
- tilecheck_ldmatrix: the tile loaded back as mma A fragments with ldmatrix.x4 through
  make_tiled_copy_A of an m16n8k16 TiledMma (4 warps), proved.
"""
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_stream, make_fake_tensor


@cute.kernel
def stage_kernel(gA: cute.Tensor, tiled_copy: cute.TiledCopy, padded: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    if cutlass.const_expr(padded):
        s_layout = cute.make_layout((64, 64), stride=(68, 1))
    else:
        s_layout = cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((64, 64), stride=(64, 1)))
    smem = cutlass.utils.SmemAllocator()
    sA = smem.allocate_tensor(cutlass.Float16, s_layout, 128)
    thr = tiled_copy.get_slice(tidx)
    tAgA = thr.partition_S(gA)
    tAsA = thr.partition_D(sA)
    cute.copy(tiled_copy, tAgA, tAsA)


def _tiled_copy():
    atom = cute.make_copy_atom(cute.nvgpu.cpasync.CopyG2SOp(cache_mode=cute.nvgpu.cpasync.LoadCacheMode.GLOBAL),
                               cutlass.Float16, num_bits_per_copy=128)
    thr_layout = cute.make_layout((16, 8), stride=(8, 1))  # thread t: row t // 8, 16-byte chunk t % 8
    val_layout = cute.make_layout((1, 8))  # 8 halves of one row
    return cute.make_tiled_copy_tv(atom, thr_layout, val_layout)


@cute.jit
def stage_swizzled(mA: cute.Tensor):
    stage_kernel(mA, _tiled_copy(), False).launch(grid=[1, 1, 1], block=[128, 1, 1])


@cute.jit
def stage_padded(mA: cute.Tensor):
    stage_kernel(mA, _tiled_copy(), True).launch(grid=[1, 1, 1], block=[128, 1, 1])


def _matrix():
    # a 64x64 fp16 tile of a row-major matrix whose row stride is a multiple of 8 halves (16 bytes)
    return make_fake_tensor(cutlass.Float16, (64, 64), stride=(cute.sym_int32(divisibility=8), 1), assumed_align=16)


def tilecheck_swizzled():
    cute.compile(stage_swizzled, _matrix())


def tilecheck_padded_refuted():
    cute.compile(stage_padded, _matrix())
