"""width: both tensors' element width equals the opcode's type width."""
from .runner import static


def violation(q):
    a = q.apply
    op = a.opcode
    for view in (a.dst, a.src):
        t = q.tensor(view)
        if t.bits != op.bits:
            return static(False, f"{t.name} is {t.dtype} ({t.bits} bits) but {op.text} moves {op.bits}-bit words",
                          {"tensor": t.name, "dtype": t.dtype, "bits": t.bits, "opcode_bits": op.bits})
    return static(True, "")
