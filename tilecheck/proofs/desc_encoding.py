"""desc_encoding: ``proofs/smem_descriptor.py``'s ``encoding`` obligation of each descriptor operand of the apply
(docs/wgmma.md, "The obligations"; ``desc_common`` builds the declarations)."""
from .desc_common import decide


def violation(q):
    return decide(q, "desc_encoding")
