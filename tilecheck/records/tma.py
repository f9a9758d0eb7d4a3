"""The TMA copies' records (``families/tma.py``; docs/tma.md): their modules are ``proofs/tma_*.py``."""
from . import PERFORMANCE, Obligation

ORDER = 1

RECORDS = (
    Obligation("tma_map", (),
               "(TMA copies) the `tensormap` exists and describes the global operand, its rank is the opcode's "
               "`.Nd` and the `coords`', its element width the shared tensor's; no interleave; swizzle none/32B/64B/"
               "128B; a concrete box's visits are the shared tensor's shape (outermost first)"),
    Obligation("tma_region", ("tma_map",),
               "(TMA copies) the bytes the `tensormap` reaches from its address (the global tensor's base plus "
               "`offset * element size`, then `sum((dims[i] - 1) * strides[i]) + element size`) lie inside the "
               "global tensor (its declared layout's extent)",
               hardware="the copy reads or writes another allocation's bytes (an illegal-address fault, or "
                        "output that differs from the numpy reference)", rank=1),
    Obligation("tma_inner", ("tma_map",),
               "(TMA copies) `coords[0] * element size` is a multiple of 16 bytes",
               hardware="the launch ends in an illegal-instruction fault", fault="illegal instruction", rank=0),
    Obligation("tma_store_edge", ("tma_map",),
               "(TMA stores) every start coordinate is >= 0, and a box that may reach past `dims[0]` has "
               "`dims[0] * element size` a multiple of 16 bytes (the H200 faults on the one and writes whole "
               "16-byte chunks past the innermost extent on the other)",
               hardware="an illegal-instruction fault (a negative coordinate), or bytes written past the tensor's "
                        "innermost extent (output that differs from the numpy reference)", rank=0),
    Obligation("tma_disjoint", ("tma_map",),
               "(TMA stores) with a symbol bound to `%ctaid` or `%cluster_ctarank`, the boxes two CTAs store (their "
               "elements inside the map) share no global byte",
               hardware="two CTAs write the same bytes: which one's value stays is a race (output that differs "
                        "from the numpy reference, or from run to run)", rank=1),
    Obligation("tma_smem", ("tma_map",),
               "(TMA copies) the shared address (`align`, plus `offset * element size`) is a multiple of 128 bytes, "
               "and with a swizzled map `align` is a multiple of the pattern's repeat (256/512/1024 bytes)",
               hardware="an illegal-instruction fault, or output that differs from the numpy reference", rank=0),
    Obligation("tma_landing", ("tma_map", "tma_smem"),
               "(TMA copies) the shared tensor's declared layout is where TMA writes every box element (box order, "
               "element strides, the swizzle anchored at address 0); the box concrete"),
    Obligation("tma_tx", ("tma_map",),
               "(TMA loads) `expect_tx` equals the bytes delivered: element size * the box's visits (elements "
               "outside the tensor included) * the CTAs of `cta_mask`, summed over the loads of its `phase`, and "
               "is at most 2^20 - 1",
               hardware="the kernel waits forever on its mbarrier (a hang, ended by the launch timeout)", rank=1),
    Obligation("tma_box", ("tma_map",),
               "(TMA copies) every element the box visits is inside the tensor (else a load fills it with zero or "
               "NaN and counts it, a store skips it)",
               severity=PERFORMANCE,
               hardware="defined: the box's elements outside the tensor are filled (loads) or skipped (stores)",
               rank=4),
    Obligation("tma_multicast", ("tma_map", "tma_smem"),
               "(TMA loads with `.multicast::cluster`) every CTA of `cta_mask` is a rank of the cluster (the "
               "`ctarank` symbol's 0..max), so the `popcount(cta_mask)` slices `tma_tx` counts arrive; and the "
               "slices the CTAs of the mask issue (each its own, to every CTA of the mask) land in disjoint shared "
               "bytes; the box concrete",
               hardware="a multicast slice overwrites another CTA's (output that differs from the numpy reference), "
                        "or the kernel waits forever on its mbarrier", rank=1),
)
