"""target: the opcode is a legal PTX ld/st form for the architecture."""
from ..opcodes import legality
from .runner import static


def violation(q):
    op, arch = q.apply.opcode, q.check.arch
    reason = legality(op, arch)
    return static(reason is None, reason or "", {"opcode": op.text, "arch": arch})
