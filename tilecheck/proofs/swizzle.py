"""An exact decision procedure for the contiguity of swizzled atoms and rows (``contiguity``).

A run of words at *plain* offsets ``L + k`` (``k`` in ``[0, V)``; ``L`` the run's plain start
``offset + L(index)``) lands at ``swz(L + k)`` under ``Sw<B,M,S>``; the run stays contiguous
when ``gap(L, k) = swz(L + k) - swz(L) - k`` is 0 for every ``k``.  Two facts make that decidable
without the swizzle's digits:

* ``swz`` reads and changes only the bits below ``T = M + S + B`` and keeps every bit from ``T``
  up, so ``swz(x) mod 2^W = swz(x mod 2^W)`` for ``W >= T``: ``gap mod 2^W`` is a function of
  ``L mod 2^W`` and ``k mod 2^W``, computed by the same XOR on ``W``-bit vectors;
* ``|swz(x) - x| < 2^(M+B)``, so ``|gap| < 2^(M+B+1) <= 2^W`` with ``W = T + 1``: ``gap == 0``
  exactly when ``gap mod 2^W == 0``.

So, once the plain run is proved contiguous (step 1: ``plain(word) != L + k`` unsat, an integer
query with no swizzle in it), the swizzled run is contiguous when the ``W``-bit query
``swz(x + k) - swz(x) - k != 0`` is unsat under the constraints implied modulo ``2^W``
(``modular.relaxed_unsat``; step 2).  Both steps are used in their sound direction only: unsat
is a proof; sat or unknown proves nothing and the obligation's own formula (on the digits)
decides, restated on the residue when step 1 holds (``residue_violation``: equisatisfiable,
without the digits of the large offsets).  The familiar lemma is a special case: ``L`` a multiple of ``V`` (a power of two) and
``V <= 2^M`` make ``gap`` 0 (the words differ only in bits below ``M``, which the swizzle neither
reads nor changes); step 2 also proves the runs that rest on other congruences (a stride that is
a multiple of ``2^(M+S+B)``, ``M`` below ``log2 V`` with the read bits known to be 0, ...).

When step 1 holds and step 2 does not, the swizzle splits some run at some residue of its start:
a refutation is likely, and it is looked for first without the solver (``smallest_at_facts_model``):
every point ``(group, repeat, word)`` in order at the facts' model (their smallest symbol values),
each judged on the concrete semantics (the obligation's ``explain``) and the first violating one
replayed by the brute-force decider (``decide.violation_at``) before it is reported.  The first
point in that order is the counterexample ``runner._minimize`` would reach (smallest symbols, then
coordinates), so none is minimised.  None there: the same search on the grid of each symbol's
``GRID`` smallest allowed values, in lexicographic order (the first symbol's smallest value first,
as the minimisation orders them), within ``POINTS`` points in all.  Found none (the violation needs
larger symbol values, or the domain has more than ``POINTS`` points): the residue violation goes to
the solver as before.  An obligation that can state its test over every point at once (contiguity's
``candidates``: the same ``crd2idx`` on numpy arrays of Python ints) has only the points that can
violate explained, in the same order, and reaches ``VECTOR_POINTS`` points (a 1,024-thread tile).
The runner also runs the search when the plain run itself is not contiguous (step 1 fails): a
refutation is then likely too, and the swizzle's digits make the solver slow on it (a concrete
local tile: 1.3 s by the solver, 20 ms by the search).
"""
from __future__ import annotations

import itertools

import z3

from .. import crd2idx
from ..encode import Witness
from ..poly import Poly
from . import modular
from .facts import NEIGHBOURS, small_values
from .runner import _complete, _names, fast_solver, relevant

POINTS = 4096  # the most points smallest_at_facts_model explains one by one (50-450 us each)


def shortcut(q, sw, pgap, p0, pos, where=None):
    """The sufficient test for the runner (``Violation.shortcut``), or None when ``sw`` is the
    identity.  ``pgap``: the plain offset of the word less ``p0 + pos`` (0 when the plain run is
    contiguous); ``p0``: the plain run's start; ``pos``: the word's position in its run;
    ``where``: restricts a violation to the atoms it is stated of (``where(bad)``: a guard), or
    None.  The background constraints are taken now, before the swizzled values add their digits."""
    if sw is None or sw.bits == 0:
        return None
    bad = q.z(pgap) != 0
    plain_violation = bad if where is None else where(bad)
    background = q.constraints()
    eqs = list(q.ctx.eqs)

    def residue_violation():
        """The violation restated on ``L``'s residue, equisatisfiable with the obligation's once
        the plain run is proved contiguous (``pgap == 0`` is then valid and is conjoined):
        ``L = 2^T*h + l`` (one division), and ``gap = swz(l + k) - swz(l) - k`` exactly (``swz``
        keeps the multiple of ``2^T``), the swizzle's digits split only the small ``l`` and ``l + k``."""
        T = sw.base + sw.shift + sw.bits
        _, l = crd2idx.exact_divmod(p0, 1 << T, q.ctx) or q.ctx.divmod(p0, 1 << T, "swz.res")
        gap = crd2idx.swizzle_poly(l + pos, sw, q.ctx) - crd2idx.swizzle_poly(l, sw, q.ctx) - pos
        bad = z3.And(q.z(pgap) == 0, q.z(gap) != 0)
        return bad if where is None else where(bad)

    def decide(timeout_s: float):
        """(True, [("", the proof as one query)], None) when both steps are unsat; (False, [],
        the residue violation) when only the first is; (False, [], None) else.  The query states
        both steps' violations as one disjunction (the bit-vectors renamed): unsat exactly when
        both are, so --smt2/--recheck see one query per obligation."""
        solver = fast_solver(timeout_s)  # a share of the time left: an unknown here falls back
        plain = [plain_violation, *(q.build(c) for c, _ in relevant(_names(plain_violation), background))]
        solver.add(*plain)
        if solver.check() != z3.unsat:
            return False, [], None
        W = sw.base + sw.shift + sw.bits + 1

        def swz(x):
            return x ^ z3.LShR(x & sw.yyy_mask, sw.shift)

        def goal(term):
            x, k = term(p0), term(pos)
            return swz(x + k) - swz(x) - k != 0

        proved, bv = modular.relaxed_unsat(goal, W, q.ctx, max(1, int(timeout_s * 1000)), eqs, tag="#bv")
        if not proved:
            return False, [], residue_violation()
        both = z3.Solver()
        both.add(z3.Or(z3.And(*plain), z3.And(*bv.assertions())) if bv is not None else z3.And(*plain))
        return True, [("", both, z3.unsat)], None

    return decide


def smallest_at_facts_model(q, coords: list, explain, inside=None, name: str = "contiguity", limit: int | None = None,
                            candidates=None):
    """A search for the smallest counterexample at the facts' model, for the runner
    (``Violation.witness``): a function ``search(at=None)`` that returns the values of the solver's
    variables at the first point (``coords`` in order: group, repeat, word) where ``explain``
    reports a violation and ``inside`` (the guard, when the obligation is stated of guarded-in
    atoms: ``inside(witness)``) holds, replayed by the brute-force decider; the symbols at the
    facts' model, or at ``at``'s values of their variables (a solver's model: the smallest
    coordinates there).  None when no point of at most ``limit`` (default ``POINTS``) does, or the
    symbols have no known allowed values (the solver then decides: nothing is concluded from a miss).

    ``candidates(symbols, coordinates)``: the points where ``explain`` can report a violation, at every
    point at once (``coordinates``: one numpy array of Python ints per entry of ``coords``, every point
    in order; a boolean array back, or None to judge every point): only those are explained, in the
    same order, so the first point found is the same; the search then reaches ``VECTOR_POINTS``
    points (a 1,024-thread tile at several symbol values) instead of ``POINTS``."""

    def search(at: dict | None = None):
        # the decider imports nothing of the prover; here only to replay
        from .. import decide

        check = q.check
        coords_ = [p for p in coords if p.variables()]  # a coordinate pinned to a constant is no variable
        names = [min(p.variables()) for p in coords_]
        if any(p != Poly.var(n) for p, n in zip(coords_, names)):
            return None  # not plain coordinates
        ranges = [q.ctx.vars[n] for n in names]
        if any(v.lo is None or v.hi is None for v in ranges):
            return None
        size = 1
        for v in ranges:
            size *= v.hi - v.lo + 1
        facts = getattr(q, "facts", None)
        most = (POINTS if candidates is None else VECTOR_POINTS) if limit is None else limit
        if size > most:
            return None
        if check.symbols and at is None and (facts is None or not facts.ok):
            return None
        env: dict = {}
        if at is not None:
            env.update((v, at[v]) for v in q.symbol_vars() if v in at)
        _complete(q, env, set(), facts)  # the (other) symbols at the facts' model, every other variable 0
        first = Witness(q, env).symbols
        if check.symbols and not decide.allowed(check, first):
            return None
        # the facts' model (or ``at``), then (no ``at``) the allowed points next to it (Facts.neighbours,
        # in lexicographic order) and the grid of small values
        def others():  # made as the search reaches them (a neighbour is a few queries, the grid a filter)
            seen = [first]
            for e in itertools.chain(facts.each_neighbour(NEIGHBOURS * len(check.symbols)),
                                     _later(lambda: small_values(check, GRID))):
                if e not in seen:
                    seen.append(e)
                    yield e

        tries = itertools.chain([None], others() if at is None and check.symbols else ())
        budget = max(most, size)
        scalar = max(POINTS if limit is None else limit, size) if size <= (POINTS if limit is None else limit) else 0
        grid = _grid(ranges, coords, names) if candidates is not None else None
        for values in tries:
            if values is not None:
                if budget < size:
                    break
                env = {}
                _complete(q, env, set(), facts, values)
            budget -= size
            points = itertools.product(*(range(v.lo, v.hi + 1) for v in ranges))
            mask = None if grid is None else _mask(candidates, Witness(q, env).symbols, grid[1], size)
            if mask is not None:  # only the points that can violate, in the same order
                points = (tuple(int(g[i]) for g in grid[0]) for i in mask[:POINTS].tolist())
            else:  # every point explained: at most POINTS (or ``limit``) of them in all
                scalar -= size
                if scalar < 0:
                    break
            for point in points:
                env.update(zip(names, point))
                w = Witness(q, env)
                explained = explain(w)
                if explained is None or (inside is not None and not inside(w)):
                    continue
                if decide.violation_at(check, q.apply.index, name, explained[1]) is None:
                    return dict(env)
                return None  # the prover's and the decider's semantics differ here: let the solver decide
        return None

    return search


def _later(make):
    """The items of ``make()``, made when the first is asked for."""
    yield from make()


VECTOR_POINTS = 1 << 16  # ... when the points that can violate are found at once (``candidates``)


def _grid(ranges, coords, names):
    """Every point of the search in its order (``itertools.product`` of the variables' ranges): the
    variables' values, and each entry of ``coords`` (a variable, or a constant) as numpy arrays of
    Python ints."""
    import numpy as np
    shape = [v.hi - v.lo + 1 for v in ranges]
    n = 1
    for e in shape:
        n *= e
    flat = np.indices(shape).reshape(len(shape), n).astype(object) if shape else np.zeros((0, 1), dtype=object)
    values = [flat[k] + v.lo for k, v in enumerate(ranges)]
    by_name = dict(zip(names, values))
    full = [by_name[min(p.variables())] if p.variables() else np.full(n, p.constant, dtype=object) for p in coords]
    return values, full


def _mask(candidates, symbols, full, size):
    """The positions where ``candidates`` says a violation can be (an int array), None when it cannot say
    (every point is then explained)."""
    import numpy as np
    try:
        bad = candidates(symbols, full)
    except Exception:  # noqa: BLE001 - the point-by-point search decides
        return None
    if bad is None:
        return None
    bad = np.broadcast_to(np.asarray(bad, dtype=bool), (size,))
    return np.flatnonzero(bad)


GRID = 3  # smallest allowed values per symbol tried after the facts' model (POINTS bounds the work)
