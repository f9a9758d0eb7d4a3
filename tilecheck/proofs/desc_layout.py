"""desc_layout: each descriptor operand reads the instruction's tile of the shared tensor it names, at the
byte addresses the tensor's declared layout gives (``proofs/smem_descriptor.py``'s ``layout``: the first
differing element is the counterexample).  Stated first without the solver: the descriptor's ``tile``,
where the file gives one, is the instruction's, the tensor's elements are the opcode's width, and the
descriptor's mode has a canonical layout of that tile (``smem_descriptor.check_tile``)."""
from .. import smem_descriptor as sd
from .desc_common import decide


def violation(q):
    op = q.apply.opcode

    def fits(access, d):
        t = q.check.tensors[d.tensor]
        if d.tile is not None and tuple(d.tile) != tuple(access.spec.tile):
            return f"tile {tuple(d.tile)}, {op.text} reads {tuple(access.spec.tile)} (MN, K)"
        if t.bits != op.bits:
            return f"{t.name} has {t.bits}-bit elements, {op.text} reads {op.bits}-bit ones"
        try:
            sd.check_tile(d.major, d.swizzle, t.bits, tuple(access.spec.tile))
        except ValueError as e:
            return str(e)
        return None
    return decide(q, "desc_layout", fits)
