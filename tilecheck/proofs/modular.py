"""An exact decision procedure for congruences modulo a power of two.

``P(x) mod 2^j`` depends only on each variable's residue modulo ``2^j``: products,
sums and integer coefficients commute with reduction.  So a violation
``P(x) mod 2^j != 0`` can be decided over ``j``-bit vectors, where Z3 bit-blasts a
tiny circuit instead of searching unbounded nonlinear integers.  The constraints
carried over are the ones that are *implied* modulo ``2^j`` by the real ones:

* every equation ``E(x) == 0`` (the division digits' definitions, ``==`` facts)
  holds as the congruence ``E(x) == 0 (mod 2^j)``;
* a variable whose range ``[lo, hi]`` is shorter than ``2^j`` keeps it exactly
  (``(x - lo) mod 2^j <= hi - lo``), and so does a fact ``x != c`` on it;
* everything else (inequalities between larger ranges) is dropped.

Every real model reduces to a model of this relaxation, so ``unsat`` here is a proof
of the real obligation.  ``sat`` proves nothing (a dropped constraint may exclude
it): the caller then asks the exact integer query, which finds the counterexample.
"""
from __future__ import annotations

import z3

from ..poly import Poly


def power_of_two(m: int) -> int | None:
    """``j`` with ``m == 2**j``, else None."""
    return m.bit_length() - 1 if m > 0 and m & (m - 1) == 0 else None


def unsat(target: Poly, modulus: int, ctx, timeout_ms: int) -> tuple[bool, "z3.Solver | None"]:
    """(True, the bit-vector query) when ``target mod modulus != 0`` has no model (a proof);
    (False, ...) when undecided here.  The query is None when no search was needed."""
    j = power_of_two(modulus)
    if j is None or j == 0:
        return j == 0, None  # everything is a multiple of 1
    return relaxed_unsat(lambda term: term(target) != 0, j, ctx, timeout_ms)


def relaxed_unsat(goal, j: int, ctx, timeout_ms: int, eqs=None, tag: str = "") -> tuple[bool, "z3.Solver | None"]:
    """(True, the bit-vector query) when ``goal(term)`` has no model over ``j``-bit vectors under
    the constraints implied modulo ``2^j`` (module docstring); ``term(p)`` is the polynomial ``p``
    reduced modulo ``2^j``.  ``goal`` must be implied modulo ``2^j`` by the real violation it
    relaxes (its value at the reductions of any real model): then unsat here is a proof of the real
    obligation; sat proves nothing.  ``eqs``: the defining equations to carry over (default: all
    of ``ctx``'s; a subset is a further relaxation).  ``tag`` is appended to every bit-vector's name
    (to state the query next to the integer one in one SMT-LIB script)."""
    modulus = 1 << j
    bv: dict[str, z3.BitVecRef] = {}

    def term(p: Poly):
        parts = []
        for m, c in p.terms.items():
            c %= modulus
            if not c:
                continue
            t = z3.BitVecVal(c, j)
            for v in m:
                if v not in bv:
                    bv[v] = z3.BitVec(v + tag, j)
                t = t * bv[v]
            parts.append(t)
        return z3.simplify(sum(parts[1:], parts[0])) if parts else z3.BitVecVal(0, j)

    g = goal(term)
    constant = z3.simplify(g)
    if z3.is_false(constant) or z3.is_true(constant):
        return z3.is_false(constant), None
    solver = z3.SolverFor("QF_BV")
    solver.set(timeout=timeout_ms)
    solver.add(g)
    for e in (ctx.eqs if eqs is None else eqs):
        solver.add(term(e) == 0)
    for p, op in ctx.rels:
        if op == "==":
            solver.add(term(p) == 0)
        elif op == "!=":
            v = _single(p)
            if v is not None:
                name, c = v
                var = ctx.vars.get(name)
                if var and var.lo is not None and var.hi is not None and var.hi - var.lo < modulus \
                        and var.lo <= c <= var.hi:
                    solver.add(term(Poly.var(name)) != c % modulus)
    for name in list(bv):
        var = ctx.vars.get(name)
        if var and var.lo is not None and var.hi is not None and var.hi - var.lo < modulus - 1:
            solver.add(z3.ULE(bv[name] - (var.lo % modulus), var.hi - var.lo))
    return solver.check() == z3.unsat, solver


def _single(p: Poly):
    """``(x, c)`` when ``p`` is ``x - c`` or ``c - x``, else None."""
    lin = [(m, c) for m, c in p.terms.items() if m]
    if len(lin) != 1 or len(lin[0][0]) != 1 or lin[0][1] not in (1, -1):
        return None
    (name,), k = lin[0]
    return name, -p.constant * k
