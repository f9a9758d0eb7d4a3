"""The non-tensor bulk copies' records (``families/bulk.py``; docs/tma.md, "Bulk copies"): their modules
are ``proofs/bulk_*.py``.  The copy's alignment, bounds and overflow are the shared obligations'
(``core.py``), stated on its 16-byte atoms."""
from . import Obligation

ORDER = 1  # with tma.py: by file name, bulk first (the decider appends the families' rules in their files' order)

RECORDS = (
    Obligation("bulk_copy", ("shape", "space"),
               "(bulk copies) `size` is a positive multiple of 16 bytes and the bytes of each operand's view "
               "(its 16-byte atoms), and each view's atoms are one contiguous run: the copy's `[address, address + "
               "size)`", hardware="ptxas refuses an immediate size; a register size that is not a multiple of 16 "
               "is undefined (a fault or output that differs from the numpy reference)", rank=1,
               per_memory_operand=True),
    Obligation("bulk_tx", ("bulk_copy",),
               "(bulk loads) `expect_tx` equals the bytes its `phase` delivers (this copy's `size`, plus the other "
               "loads of the phase), and is at most 2^20 - 1",
               hardware="the kernel waits forever on its mbarrier (a hang, ended by the launch timeout)", rank=1),
)
