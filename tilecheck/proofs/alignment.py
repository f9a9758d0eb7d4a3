"""alignment: the base pointer and every atom's first byte are aligned to the vector's size."""
import z3

from ..encode import element, verb
from ..layout import OFFSET
from .. import crd2idx
from .contiguity import role_of, row_of
from ..poly import And
from .guard import atom_inside, restricts
from .runner import Violation, static


def violation(q):
    view = q.memory
    t = q.tensor(view)
    role = role_of(q)
    vbytes = (role.words or q.apply.opcode.vector) * t.esize
    if t.align % vbytes:
        return static(False, f"{t.name}'s base pointer is {t.align}-byte aligned, {q.apply.opcode.text} needs {vbytes}",
                      {"tensor": t.name, "align": t.align, "vector_bytes": vbytes})
    if role.holds is not None:
        return _rows(q, view, t, role, vbytes)
    c = q.coords("a", word=False)
    first_byte = (t.esize * q.value(view, c)[OFFSET]).mod(vbytes)

    def explain(w):
        co = w.coords("a")
        b = t.esize * w.value(view, co)[OFFSET]
        if b % vbytes == 0:
            return None
        idx = w.index(view, co)
        return (f"{w.where(co)} {verb(q.apply, view)} {element(t, idx)} at byte offset {b}, not a multiple of {vbytes}",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "offset": b // t.esize,
                 "byte_offset": b, "vector_bytes": vbytes})

    if restricts(q, "alignment", view):  # only guarded-in atoms (guard.guarded's conjunction, its
        # restriction made once: the classes' rest too); no congruence shortcut
        inside = atom_inside(q, c)
        return Violation(And(inside, q.z(first_byte) % vbytes != 0), explain, classes=(first_byte, vbytes, inside))
    return Violation(q.z(first_byte) % vbytes != 0, explain, congruence=(first_byte, vbytes),
                     classes=(first_byte, vbytes, z3.BoolVal(True)))


def _rows(q, view, t, role, vbytes):
    """Rows gathered across lanes (ldmatrix): each row's first byte, the element's offset less its
    position in the row, is a multiple of the row's bytes."""
    c = q.coords("a")
    _, pos, _, _ = row_of(role, c.group, c.word, q.domain(c))
    first_byte = (t.esize * (q.value(view, c)[OFFSET] - pos)).mod(vbytes)

    def explain(w):
        co = w.coords("a")
        (lane,), p, _, _ = row_of(role, co[0], co[2], crd2idx.Ints())
        b = t.esize * (w.value(view, co)[OFFSET] - p)
        if b % vbytes == 0:
            return None
        idx = w.index(view, co)
        return (f"{w.where(co)} {verb(q.apply, view)} {element(t, idx)}, position {p} of the row whose address "
                f"lane {lane} gives; the row starts at byte offset {b}, not a multiple of {vbytes}",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "offset": b // t.esize,
                 "byte_offset": b, "vector_bytes": vbytes, "row_lane": lane, "position": p})

    return Violation(q.z(first_byte) % vbytes != 0, explain, congruence=(first_byte, vbytes))
