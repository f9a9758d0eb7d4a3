"""The wgmma applications' records (``families/wgmma.py``; docs/wgmma.md): the accumulator's fragment and the
A and B operands' shared-memory matrix descriptors.  Their modules are ``proofs/fragment.py`` and
``proofs/desc_*.py`` (the descriptor ones state ``proofs/smem_descriptor.py``'s obligations of each
descriptor operand against the shared tensor it names)."""
from . import Obligation

ORDER = 2

RECORDS = (
    Obligation("fragment", ("shape", "space"),
               "(thread-value registers) the register operand's view names, at every thread of the group and value "
               "`i`, the element the instruction's thread-value layout gives it (wgmma's accumulator: register `i` "
               "of thread `t` is `TV(t, i)`), and its tensor is the instruction's tile: with `ownership` and "
               "`disjoint`, the fragments are the registers the instruction writes and partition the tile"),
    Obligation("desc_encoding", ("space",),
               "(descriptor operands) start, LBO, SBO are multiples of 16 below 2^18, the base offset fits 3 bits "
               "(0 without a swizzle), and the packed word is PTX's exact encoding of them"),
    Obligation("desc_base", ("space",),
               "(descriptor operands) a swizzled tensor starts on its pattern's repeat (1024/512/256 B) with base "
               "offset 0, or the descriptor carries `(address >> 7) & 7`"),
    Obligation("desc_layout", ("space",),
               "(descriptor operands) the descriptor reads the instruction's tile of the 16-bit shared tensor it "
               "names: every element at the same byte address as the tensor's declared layout puts it"),
    Obligation("desc_k_advance", ("space",),
               "(descriptor operands) each K step's advanced descriptor (`advance`) reads that K slice of the "
               "tensor, and its start stays encodable"),
    Obligation("desc_uniform", ("space",),
               "(descriptor operands) the descriptor is uniform across the issuing group: its fields use no symbol "
               "that depends on the thread (`from = \"warpid\"`)"),
)
