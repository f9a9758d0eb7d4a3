"""target: the opcode is a legal PTX form for the architecture (its family's spelling rules)."""
from .runner import static


def violation(q):
    op, arch = q.apply.opcode, q.check.arch
    reason = q.apply.family.legality(op, arch)
    return static(reason is None, reason or "", {"opcode": op.text, "arch": arch})
