"""guard: with ``guard = true`` each atom runs only where it is in bounds, and that guard is exact.

The guarded operand (ld/st: the memory operand; cp.async: the source) may cross its tensor's edge:
its slice may start or end outside the tensor.  An atom (one thread's instruction at one repeat) is
*in* when every word's logical index lies in ``[0, extent)`` on every axis, and *out* otherwise.
The emitted guard is word 0's index in bounds (a ``setp`` per axis over the thread index, the
repeat and the symbols); this obligation proves it exact in both directions:

* guard => the whole atom is in bounds, and
* not guard => some word of the atom is out of bounds (no in-bounds atom is skipped),

which together say no atom *straddles* the edge (some words in, some out).  A straddling atom is
the refutation: its coordinates, which words are in and which out, and the widest narrower vector
whose sub-atoms never straddle (re-proved here with the same solver and constraints).

The other obligations are then stated under the guard (``atom_inside``): the family's ``guarded``
obligations only of guarded-in atoms of the guarded operand, the rest of every atom.
"""
from __future__ import annotations

import z3

from .. import accesses
from ..encode import Coords, element
from ..expr import evaluate, to_poly
from ..poly import And, Poly, cmp
from .runner import Violation, fast_solver, relevant

SOLVE_S = 5.0  # seconds for each narrower-vector re-proof


def role(apply) -> str | None:
    """The guarded operand's role ("dst"/"src"), None when the application is not guarded."""
    return accesses.guarded_role(apply)


def restricts(q, name: str, view) -> bool:
    """Obligation ``name`` on ``view`` is stated only of guarded-in atoms."""
    return name in accesses.restricted(q.apply, view)


def word_inside(q, c: Coords, w: int, view=None) -> list:
    """Z3 conditions: word ``w`` of the atom at ``c`` (group, repeat) has every index in bounds."""
    view = view if view is not None else getattr(q.apply, role(q.apply))
    t = q.tensor(view)
    sym = c.symbols or q.symbols
    idx = q.index(view, Coords(c.tag, c.group, c.repeat, Poly.const(w), c.symbols))
    out = []
    for i, dim in zip(idx, t.shape):
        out += [cmp(">=", q.z(i), 0), cmp("<", q.z(i), q.z(to_poly(dim, q.ctx, sym)))]
    return out


def atom_inside(q, c: Coords):
    """Z3: every word of the guarded atom at ``c``'s group and repeat is in bounds."""
    return And(*[x for w in range(q.vector) for x in word_inside(q, c, w)])


def guarded(q, name: str, view, c: Coords, formula):
    """``formula`` (a violation at ``c``) restricted to guarded-in atoms when ``name`` is guarded."""
    return And(atom_inside(q, c), formula) if restricts(q, name, view) else formula


def straddle(q, c: Coords, width: int):
    """Z3: some sub-atom of ``width`` words of the atom at ``c`` has a word in and a word out."""
    ins = [z3.And(*word_inside(q, c, w)) for w in range(q.vector)]
    return z3.Or(*[z3.And(z3.Or(*ins[s:s + width]), z3.Or(*[z3.Not(x) for x in ins[s:s + width]]))
                   for s in range(0, q.vector, width)])


def inside_words(w, view, t, co) -> tuple[list[int], list[int]]:
    """The words of the atom at concrete ``co`` that are in bounds and those that are not."""
    group, repeat, _ = co
    ins, outs = [], []
    for k in range(w.q.vector):
        idx = w.index(view, (group, repeat, k))
        ok = all(0 <= i < evaluate(d, w.symbols) for i, d in zip(idx, t.shape))
        (ins if ok else outs).append(k)
    return ins, outs


def narrower(q, c: Coords, timeout_s: float = SOLVE_S) -> tuple[int | None, str]:
    """The widest power-of-two width below the vector whose sub-atoms never straddle, re-proved."""
    width = q.vector // 2
    while width >= 1:
        if q.vector % width == 0:
            f = straddle(q, c, width)
            s = fast_solver(timeout_s)
            s.add(f)
            s.add(*[q.build(k) for k, _ in relevant(set(q.zv), q.constraints())])
            r = s.check()
            if r == z3.unsat:
                return width, "re-proved"
            if r == z3.unknown:
                return None, f"width {width} unknown"
        width //= 2
    return None, "none"


def suggestion(apply, esize: int, width: int) -> str:
    """The family's spelling of the same instruction with ``width``-word atoms."""
    return apply.family.narrower(apply.opcode, esize, width)


def violation(q):
    r = role(q.apply)
    view = getattr(q.apply, r)
    t = q.tensor(view)
    c = q.coords("a", word=False)
    formula = straddle(q, c, q.vector)

    def explain(w):
        co = w.coords("a")
        ins, outs = inside_words(w, view, t, co)
        if not ins or not outs:
            return None
        width, how = narrower(q, c)
        first = element(t, w.index(view, (co[0], co[1], ins[0])))
        gone = element(t, w.index(view, (co[0], co[1], outs[0])))
        hint = (f"; the guard is exact with {width}-word atoms ({suggestion(q.apply, t.esize, width)}, {how})"
                if width else "")
        return (f"{w.where(co)}: the atom of {r} {view.text!r} straddles {t.name}'s edge: words {ins} are in "
                f"bounds ({first}, ...), words {outs} are not ({gone}, ...){hint}",
                {**w.describe(co), "operand": r, "tensor": t.name, "inside": ins, "outside": outs,
                 "narrower": width})

    return Violation(formula, explain,
                     note=f"exact: word 0 of each {r} atom is in bounds exactly when all {q.vector} are "
                          "(no atom straddles the edge)")
