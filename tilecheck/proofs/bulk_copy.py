"""bulk_copy: a bulk copy moves ``size`` contiguous bytes, ``[address, address + size)`` on both sides, so
(for every symbol value the facts allow) ``size`` is a positive multiple of 16 bytes (ptxas refuses an
immediate that is not; a register one is undefined), it is the bytes of the operand's view (its
16-byte atoms: the view is ``(repeat, word)``, the word 16 bytes of elements), and the view's atoms are
one run: atom ``n`` (the repeat coordinates in row-major order) starts ``16 n`` bytes after atom 0.
Within an atom the words are ``contiguity``'s, the first byte's 16-byte alignment ``alignment``'s
(both ends aligned: the start, and the end 16 n bytes on), the run inside the tensor ``bounds``'."""
import z3

from ..encode import Coords
from ..expr import concrete, evaluate
from ..layout import OFFSET
from ..poly import Poly
from .runner import Violation
from .tma_common import at, z

ATOM = 16


def violation(q):
    op, view = q.apply.opcode, q.memory
    t = q.tensor(view)
    size = q.poly(op.size)
    extents = [q.poly(e) for e in q.repeat_shape]
    atoms = Poly.const(1)
    for e in extents:
        atoms = atoms * e
    c = q.coords("a", word=False)
    n = Poly.const(0)
    for r, e in zip(c.repeat, extents):
        n = n * e + r
    first = Coords("a", c.group, [Poly.const(0)] * len(c.repeat), Poly.const(0))
    gap = q.value(view, c)[OFFSET] - q.value(view, first)[OFFSET] - op.vector * n
    zs = z(q, size)
    formula = z3.Or(zs <= 0, zs % ATOM != 0, zs != ATOM * z(q, atoms), z(q, gap) != 0)

    def explain(w):
        s = evaluate(op.size, w.symbols)
        shape = [evaluate(e, w.symbols) for e in q.repeat_shape]
        count = 1
        for e in shape:
            count *= e
        cex = {"symbols": dict(w.symbols), "size": s, "operand": view.text}
        fixed = concrete(op.size) is not None
        said = f"size = {s} bytes" if fixed else f"size = {op.size} = {s} bytes{at(w.symbols)}"
        if s <= 0 or s % ATOM:
            return (f"{said}, not a positive multiple of 16"
                    + (f" ({s % ATOM} bytes past {s - s % ATOM})" if s > 0 else "")
                    + (": ptxas refuses the immediate" if fixed else ": the copy is undefined"), cex)
        if s != ATOM * count:
            return (f"{said}, but {view.text} is {count} atoms of 16 bytes, "
                    f"{ATOM * count} bytes", {**cex, "view_bytes": ATOM * count})
        g, r, _ = w.coords("a")
        o, o0 = w.value(view, (g, r, 0))[OFFSET], w.value(view, (g, tuple(0 for _ in r), 0))[OFFSET]
        k = 0
        for x, e in zip(r, shape):
            k = k * e + x
        if o == o0 + op.vector * k:
            return None
        return (f"atom {k} of {view.text} (repeat {list(r)}) starts at element offset {o} of {t.name}, but the copy's "
                f"bytes are one run from {o0}: it starts at {o0 + op.vector * k}{at(w.symbols)}",
                {**cex, "repeat": list(r), "offset": o, "expected_offset": o0 + op.vector * k})
    return Violation(formula, explain)
