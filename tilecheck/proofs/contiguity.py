"""contiguity: each atom's memory words are at element offsets base, base+1, ..., base+V-1."""

from ..encode import Coords, element, verb
from ..layout import OFFSET
from ..poly import Poly
from .guard import guarded
from .runner import Violation


def violation(q):
    view = q.memory
    t = q.tensor(view)
    c = q.coords("a")
    base = Coords("a", c.group, c.repeat, Poly.const(0))
    gap = q.value(view, c)[OFFSET] - q.value(view, base)[OFFSET] - c.word

    def explain(w):
        g, r, word = co = w.coords("a")
        o, o0 = w.value(view, co)[OFFSET], w.value(view, (g, r, 0))[OFFSET]
        if o == o0 + word:
            return None
        idx = w.index(view, co)
        return (f"{w.where(co)} {verb(q.apply, view)} {element(t, idx)} at element offset {o}, but the atom starts at {o0}, "
                f"so word {word} should be at {o0 + word}",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "offset": o,
                 "base_offset": o0, "expected_offset": o0 + word})

    return Violation(guarded(q, "contiguity", view, c, q.z(gap) != 0), explain)
