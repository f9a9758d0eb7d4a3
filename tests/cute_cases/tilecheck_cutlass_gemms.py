"""Entry points for `tilecheck cute` on CUTLASS's own CuTe DSL GEMM (and elementwise) examples (copied next to this file,
with their license headers, from NVIDIA/cutlass commit 7107b05535f8977f5ecb9d01ee203205b1fd9bc4,
examples/python/CuTeDSL/cute/; flash_attention_v2 and elementwise_add too): each tilecheck_* function builds fake tensors (no GPU, no torch) the way
the example's run() builds real ones, and compiles the kernel with cute.compile.

    tilecheck cute tests/cute_cases/tilecheck_cutlass_gemms.py --arch sm_90a

Problem sizes are symbolic (cute.sym_int*); strides are dynamic with the divisibility the examples'
mark_layout_dynamic gives a 16-byte aligned, contiguous leading dimension.
"""
import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_stream, make_fake_tensor


def _sym(div=1):
    return cute.sym_int32(divisibility=div)


def _sym64(div=1):
    return cute.sym_int64(divisibility=div)


def tilecheck_sgemm_mn_major():
    """sgemm.py, its documented run: --a_major m --b_major n --c_major n (A M x K, B N x K, C M x N, fp32)."""
    from cutlass_ampere_sgemm import SGemm
    M, N, K = _sym(), _sym(), _sym(4)
    a = make_fake_tensor(cutlass.Float32, (M, K), stride=(1, _sym(4)), assumed_align=16)
    b = make_fake_tensor(cutlass.Float32, (N, K), stride=(1, _sym(4)), assumed_align=16)
    c = make_fake_tensor(cutlass.Float32, (M, N), stride=(_sym(4), 1), assumed_align=16)
    cute.compile(SGemm(), a, b, c, stream=make_fake_stream())


def tilecheck_sgemm_k_major():
    """sgemm.py with --a_major k --b_major k: scalar cp.async into padded shared tiles."""
    from cutlass_ampere_sgemm import SGemm
    M, N, K = _sym(), _sym(), _sym(4)
    a = make_fake_tensor(cutlass.Float32, (M, K), stride=(_sym(4), 1), assumed_align=16)
    b = make_fake_tensor(cutlass.Float32, (N, K), stride=(_sym(4), 1), assumed_align=16)
    c = make_fake_tensor(cutlass.Float32, (M, N), stride=(_sym(4), 1), assumed_align=16)
    cute.compile(SGemm(), a, b, c, stream=make_fake_stream())


def tilecheck_tensorop_gemm():
    """tensorop_gemm.py's defaults: fp16 A, B, C, fp32 accumulators, atom layout (2,2,1), k-major A and B,
    n-major C, through its bmm() wrapper ((l,m,k), (l,k,n), (l,m,n))."""
    from cutlass_ampere_tensorop_gemm import TensorOpGemm, bmm
    L, M, N, K = 1, _sym(), _sym(8), _sym(8)
    a = make_fake_tensor(cutlass.Float16, (L, M, K), stride=(_sym64(8), _sym64(8), 1), assumed_align=16)
    b = make_fake_tensor(cutlass.Float16, (L, K, N), stride=(_sym64(8), 1, _sym64(8)), assumed_align=16)
    c = make_fake_tensor(cutlass.Float16, (L, M, N), stride=(_sym64(8), _sym64(8), 1), assumed_align=16)
    gemm = TensorOpGemm(cutlass.Float16, cutlass.Float16, cutlass.Float32, (2, 2, 1), False)
    cute.compile(bmm, gemm, a, b, c, make_fake_stream(), lambda x: x)


def tilecheck_hopper_dense_gemm():
    """hopper/dense_gemm.py's defaults: fp16, fp32 accumulators, tile 128x128, cluster 1x1, k-major A and
    B, n-major C ((m,k,l), (n,k,l), (m,n,l)); traced for sm_90a (--arch sm_90a)."""
    from cutlass_hopper_dense_gemm import HopperWgmmaGemmKernel
    M, N, K, L = _sym(), _sym(8), _sym(8), 1
    a = make_fake_tensor(cutlass.Float16, (M, K, L), stride=(_sym64(8), 1, _sym64(8)), assumed_align=16)
    b = make_fake_tensor(cutlass.Float16, (N, K, L), stride=(_sym64(8), 1, _sym64(8)), assumed_align=16)
    c = make_fake_tensor(cutlass.Float16, (M, N, L), stride=(_sym64(8), 1, _sym64(8)), assumed_align=16)
    gemm = HopperWgmmaGemmKernel(cutlass.Float32, (128, 128), (1, 1))
    cute.compile(gemm, a, b, c, make_fake_stream())


def tilecheck_elementwise_add():
    """ampere/kernel/elementwise/elementwise_add.py as its main runs it (Float32, dynamic row-major layouts,
    copy_bits 128): TiledCopy partitions copied with a plain 32-bit universal CopyAtom."""
    from cutlass_ampere_elementwise_add import elementwise_add
    M, N = _sym(), _sym(4)
    a, b, c = (make_fake_tensor(cutlass.Float32, (M, N), stride=(_sym(4), 1), assumed_align=16) for _ in range(3))
    cute.compile(elementwise_add, a, b, c)


def tilecheck_flash_attention_v2():
    """ampere/kernel/attention/flash_attention_v2.py at its main's defaults (fp16, head_dim 128, 128x128
    blocks, 128 threads, not causal): Q, K, V, O (batch, seqlen, heads, head_dim), head_dim contiguous."""
    from cutlass_ampere_flash_attention_v2 import FlashAttentionForwardAmpere

    def qkvo():
        B, S, H = _sym(), _sym(), _sym()
        return make_fake_tensor(cutlass.Float16, (B, S, H, 128), stride=(_sym64(8), _sym64(8), _sym64(8), 1),
                                assumed_align=16)
    fa2 = FlashAttentionForwardAmpere(128, 128, 128, 128, False)
    cute.compile(fa2, qkvo(), qkvo(), qkvo(), qkvo(), cutlass.Float32(1.0), make_fake_stream())
