"""fragment: the register operand's view is the instruction's thread-value layout (wgmma's accumulator).

The register role declares ``values``, ``(thread, value) -> row + rows * column`` of its ``tile``
(``families.Role``).  Register ``i`` of thread ``t`` is, for the instruction, element ``TV(t, i)``;
for the code, the element the apply's view names at group ``(warp, lane)`` of ``t`` and word ``i``.
They must be equal for every thread and register, and the tensor must be the instruction's tile:
then ``ownership`` (the issuing thread holds each slot) says the slot is the register the instruction
writes, ``disjoint`` that a thread's registers are distinct, and the layout's being a bijection onto
the tile (held to the PTX figure by ``tests/test_wgmma_family.py``) that the fragments cover it.
Exact: every (thread, value) enumerated (8,192 for N = 128)."""
import numpy as np

from .. import crd2idx
from ..expr import concrete
from ..families import REGISTER
from ..families.tv import size
from ..machine import GROUPS
from .runner import static


def violation(q):
    a = q.apply
    acc = next((x for x in q.check.accesses_of(a) if x.kind == REGISTER and x.crosses and x.spec.tile), None)
    if acc is None:
        return static(True, "")
    role, view, t = acc.spec, acc.view, q.tensor(acc.view)
    rows, cols = role.tile
    shape = tuple(concrete(x) for x in t.shape)
    if shape != (rows, cols):
        return static(False, f"{t.name} has shape {shape}: {a.opcode.text} writes a {rows} x {cols} tile",
                      {"tensor": t.name, "shape": list(shape), "tile": [rows, cols]})
    group = len(q.group_shape)
    if any(e != 1 for e in view.shape[group:-1]):
        return static(False, f"the view {view.text!r} repeats the instruction ({view.shape[group:-1]}): one "
                             f"{a.opcode.text} writes each register once", {"view": list(view.shape)})
    threads, values = role.group_threads, size(role.values.shape[1])
    flat = np.arange(threads * values)
    thread, value = flat % threads, flat // threads
    e = np.asarray(role.values(flat))
    want = (e % rows, e // rows)
    g = GROUPS[a.scope].of(thread)
    zero = [np.zeros_like(flat)] * (len(view.shape) - group - 1)
    got = crd2idx.view_index(view, [*g, *zero, value], crd2idx.Ints({}), "")
    got = [np.broadcast_to(np.asarray(x), flat.shape) for x in got]
    bad = np.flatnonzero((got[0] != want[0]) | (got[1] != want[1]))
    if not bad.size:
        return static(True, "")
    k = int(bad[np.lexsort((value[bad], thread[bad]))[0]])  # the first thread, then register
    th, i = int(thread[k]), int(value[k])
    r, c, vr, vc = int(want[0][k]), int(want[1][k]), int(got[0][k]), int(got[1][k])
    where = ", ".join(f"{n} {int(x[k])}" for n, x in zip(GROUPS[a.scope].coords, g))
    return static(False, f"{a.opcode.text} writes {t.name}[{r},{c}] to register {i} of thread {th} ({where}), but the "
                         f"view {view.text!r} names {t.name}[{vr},{vc}] there",
                  {"thread": th, "register": i, "element": [r, c], "view_element": [vr, vc], "tensor": t.name})
