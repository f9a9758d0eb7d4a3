"""desc_k_advance: ``proofs/smem_descriptor.py``'s ``k_advance`` obligation (skipped where no descriptor declares ``advance``) of each descriptor operand of the apply
(docs/wgmma.md, "The obligations"; ``desc_common`` builds the declarations)."""
from .desc_common import decide


def violation(q):
    return decide(q, "desc_k_advance")
