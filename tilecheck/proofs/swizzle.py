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
each judged on the concrete semantics (the obligation's ``explain``), the first violating one
reported (the brute-force decider is not asked: it is the oracle ``tilecheck fuzz`` holds this
search to, so it decides nothing for the prover).  The first
point in that order is the counterexample ``runner._minimize`` would reach (smallest symbols, then
coordinates), so none is minimised.  None there: the same search on the grid of each symbol's
``GRID`` smallest allowed values, in lexicographic order (the first symbol's smallest value first,
as the minimisation orders them), within ``POINTS`` points in all.  Found none (the violation needs
larger symbol values, or the domain has more than ``POINTS`` points): ``by_residue`` looks for the
smallest splitting symbol values exactly, by their residues (or, with too many residue classes, the
leading symbols by value and the last one in its facts' interval: ``_values_then_last``); found none
or could not say: the residue violation goes to the solver as before.  An obligation that can state
its test over every point at once (contiguity's
``candidates``: the same ``crd2idx`` on numpy arrays of Python ints) has only the points that can
violate explained, in the same order, and reaches ``VECTOR_POINTS`` points (a 1,024-thread tile).
The runner also runs the search when the plain run itself is not contiguous (step 1 fails): a
refutation is then likely too, and the swizzle's digits make the solver slow on it (a concrete
local tile: 1.3 s by the solver, 20 ms by the search).
"""
from __future__ import annotations

import itertools
import math
import re
import time

import z3
import numpy as np

from .. import crd2idx
from ..domain import allowed
from ..encode import Witness
from ..poly import Digits, Division, Poly, nonnegative
from . import modular
from .facts import NEIGHBOURS, small_values
from .runner import _CONGRUENCE, _complete, _congruences, _names, fast_solver, grid_axes, relevant
from ..crd2idx import Ints

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
        decide.plain_contiguous = True  # step 1 holds: ``by_residue`` may look for a refutation
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

    decide.plain_contiguous = False
    decide.sw, decide.p0, decide.pos = sw, p0, pos
    return decide


def smallest_at_facts_model(q, coords: list, explain, inside=None, name: str = "contiguity", limit: int | None = None,
                            candidates=None):
    """A search for the smallest counterexample at the facts' model, for the runner
    (``Violation.witness``): a function ``search(at=None)`` that returns the values of the solver's
    variables at the first point (``coords`` in order: group, repeat, word) where ``explain``
    reports a violation and ``inside`` (the guard, when the obligation is stated of guarded-in
    atoms: ``inside(witness)``) holds; the symbols at the
    facts' model, or at ``at``'s values of their variables (a solver's model: the smallest
    coordinates there).  None when no point of at most ``limit`` (default ``POINTS``) does, or the
    symbols have no known allowed values (the solver then decides: nothing is concluded from a miss).

    ``candidates(symbols, coordinates)``: the points where ``explain`` can report a violation, at every
    point at once (``coordinates``: one numpy array of Python ints per entry of ``coords``, every point
    in order; a boolean array back, or None to judge every point): only those are explained, in the
    same order, so the first point found is the same; the search then reaches ``VECTOR_POINTS``
    points (a 1,024-thread tile at several symbol values) instead of ``POINTS``."""

    def search(at: dict | None = None):
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
        if check.symbols and not allowed(check, first):
            return None
        # the facts' model (or ``at``), then (no ``at``) the allowed points next to it (Facts.neighbours,
        # in lexicographic order) and the grid of small values
        def others():  # made as the search reaches them (a neighbour is a few queries, the grid a filter)
            seen = [first]
            for e in itertools.chain(facts.each_neighbour(NEIGHBOURS * len(check.symbols)),
                                     _later(lambda: small_values(check, GRID)),
                                     _later(lambda: _stepped(check, STEPPED))):
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
                return dict(env)
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
    try:
        bad = candidates(symbols, full)
    except Exception:  # noqa: BLE001 - the point-by-point search decides
        return None
    if bad is None:
        return None
    bad = np.broadcast_to(np.asarray(bad, dtype=bool), (size,))
    return np.flatnonzero(bad)


GRID = 3  # smallest allowed values per symbol tried after the facts' model (POINTS bounds the work)
STEPPED = 8  # then each symbol's smallest values by its step (multiple_of, ``name % d == e`` facts)


def _stepped(check, k: int):
    """The points of each symbol's ``k`` smallest values by its step (its range, ``multiple_of`` and its
    ``name % d == e`` facts: ``runner.grid_axes``) that the facts allow, in lexicographic order (a symbol
    stepped by a congruence fact has one allowed value in ``d`` raw ones: fuzz seed 194, ``s % 4 == 0`` from
    48, split first at ``s = 68, r = 8``, past the raw grid)."""
    if not any(_congruences(check, name) for name in check.symbols):
        return  # (each symbol's step is its multiple_of: the raw grid already holds its smallest values)
    axes = grid_axes(check, list(check.symbols), {}, k)
    if axes is None:
        return
    for values in itertools.product(*axes):
        env = dict(zip(check.symbols, values))
        if allowed(check, env):
            yield env


# --- the smallest refutation by residues ------------------------------------------------------------
RESIDUE_BITS = 20  # T = M + S + B at most (the table of bad run starts has 2^T entries)
RESIDUE_COMBOS = 1 << 20  # symbol values enumerated at most (in steps, the first splitting one ends it) ...
RESIDUE_S = 0.5  # ... within this many seconds (the steps after the first)
RESIDUE_DIGITS = 1 << 24  # ... or this many when a symbol's division digit or a later symbol is in them (no
# interval for the last variable then: the steps go on until the time is up)
RESIDUE_CELLS = 1 << 21  # symbol values x distinct run starts evaluated per step
TRIES = 256  # splitting values of a lone variable that the other facts may rule out, tried in order


def by_residue(q, shortcut, coords: list, search):
    """The smallest refutation of a swizzled contiguity whose plain runs are contiguous, found by
    enumeration when the search at the smallest symbol values (``smallest_at_facts_model``) finds
    none: a function ``() -> env | None`` for the runner (``Violation.witness``), run only after
    ``shortcut`` proved step 1 (``plain_contiguous``).

    Step 1 holds, so a run starting at plain offset ``L`` splits exactly when ``gap(L mod 2^T, k) =
    swz(l + k) - swz(l) - k`` is not 0 for one of its positions ``k`` (the module's first fact):
    a table of the bad ``(l, k)``.  ``L`` (``shortcut.p0``) is a polynomial in the symbols' variables
    whose coefficients are the coordinates' values (the division digits of the coordinates computed
    from them); ``L mod 2^T`` then depends only on each variable's residue modulo ``2^T / g`` (``g``
    the gcd of the coefficients of the terms it is in).  A variable's ``2^T / g`` smallest allowed
    values (its range's, fewer when the range is shorter) are every residue once, each at its smallest
    value: the combinations in lexicographic order (the order ``runner._minimize`` gives the
    variables) are every class of symbol values at its smallest member, so the first one with a bad
    start is the smallest violating symbol values within the variables' ranges.  There the search
    finds the smallest coordinates and replays them (``explain``);
    ``domain.allowed`` holds the other facts to them.  A division digit of the symbols alone (``n//4``:
    ``_symbol_digits``) is no function of its symbol's residue: that symbol goes by value over its whole
    range (``BY_VALUE`` values at most), the digit computed from it.  A candidate the facts rule out is
    skipped at once where that is exact: the last variable's facts are congruences that rule out its
    whole class (``_class_invariant``; such values are left out at once), or the other variables go by
    value and the next candidate has the same values of them; otherwise ``_walk`` goes on by value in
    lexicographic order, up to ``WALK_TRIES`` candidates.  A symbol outside ``L`` that the facts tie to
    its symbols and that comes first in the minimisation's order stays at the facts' model's value, its
    smallest; if every candidate is ruled out there, it goes by value (``_by_earlier``).  One declared
    after all of them is completed per candidate (``_completed``).  None (the solver decides) for one
    declared between them, when a coefficient is not a function of the coordinates, or past the limits
    above: nothing is concluded from a miss."""

    def find():

        if not getattr(shortcut, "plain_contiguous", False):
            return None
        sw, p0, pos = shortcut.sw, shortcut.p0, shortcut.pos
        T = sw.base + sw.shift + sw.bits
        if T > RESIDUE_BITS:
            return None
        mod = 1 << T
        syms = q.symbol_vars()
        coords_ = [p for p in coords if p.variables()]
        names = [min(p.variables()) for p in coords_]
        if any(p != Poly.var(n) for p, n in zip(coords_, names)) or pos.variables() & syms:
            return None
        ranges = [q.ctx.vars[n] for n in names]
        if any(v.lo is None or v.hi is None for v in ranges):
            return None
        shape = [v.hi - v.lo + 1 for v in ranges]
        n = math.prod(shape)
        if n > VECTOR_POINTS or min(shape, default=1) < 1 \
                or any(max(abs(v.lo), abs(v.hi)) >= 1 << 31 for v in ranges):
            return None
        flat = np.indices(shape, dtype=np.int64).reshape(len(shape), n)
        known = {name: flat[j] + v.lo for j, (name, v) in enumerate(zip(names, ranges))}
        _digits(q.ctx, known, syms, n)
        derived = _symbol_digits(q.ctx, syms)  # digits of the symbols alone (``n//4``): by their symbols' values
        terms: dict = {}  # the symbols' monomial -> its coefficient at every point (mod 2^T)
        for m, c in p0.terms.items():
            rest = [v for v in m if v not in syms and v not in derived]
            if any(v not in known for v in rest):
                return None
            value = np.full(n, c % mod, dtype=np.int64)
            for v in rest:
                value = value * (known[v] % mod) % mod
            key = tuple(v for v in m if v in syms or v in derived)
            terms[key] = (terms.get(key, 0) + value) % mod
        if any(v not in known for v in pos.variables()):
            return None
        k = np.broadcast_to(pos.eval(known), (n,))
        monos = sorted(m for m in terms if m)
        used = {v for m in monos for v in m}
        needed = used & set(derived)
        while True:  # a nested digit needs the digits its source is in
            more = {u for v in needed for u in derived[v][0].variables() if u in derived} - needed
            if not more:
                break
            needed |= more
        by_value = set().union(*(derived[v][3] for v in needed))  # their symbols: enumerated by value
        order = [v for v in q.ctx.vars if v in syms and (v in used or v in by_value)]
        digits_of = [(v, *derived[v][:3]) for v in derived if v in needed]  # in the memo's order (nested later)
        # the facts may tie these variables to a symbol outside them only when it comes first in the
        # minimisation's order: then its smallest value, the facts' model's (lexicographically smallest in
        # declaration order), is the smallest counterexample's too, if one has it; a candidate is allowed
        # or not with it there (``_allowed``), and the first allowed is the smallest.  One that comes
        # later may need a larger value than the model's for a smaller candidate: the solver decides.
        tied = set().union(set(order), *(vs for _, vs in relevant(set(order), q.constraints()))) & syms
        rank = {v: k for k, v in enumerate(q.ctx.vars)}
        # a tied symbol declared after all of these is completed at its smallest allowed value for each
        # candidate (Facts.completion): it comes last in the order, so that is the smallest point too
        later = {v for v in tied - set(order) if order and rank[v] > rank[order[-1]]}
        earlier = tied - set(order) - later
        if not order or any(rank[v] > rank[order[0]] for v in earlier):
            return None
        if later and (_symbols_of(q, later) is None or q.cta_copies):
            return None

        def admit(at: dict):
            """``at`` (with the later tied symbols' variables, completed) when the facts allow it, else None."""
            if not later:
                return at if _allowed(q, at) else None
            return _completed(q, at, later)
        zero = np.zeros(n, dtype=np.int64)
        pairs = np.unique(np.stack([terms.get(m, zero) for m in [*monos, ()]] + [k], axis=1), axis=0)
        coef, inverse = np.unique(pairs[:, :-1], axis=0, return_inverse=True)  # the distinct runs' starts
        positions: dict = {}  # a start's row -> the positions of its words
        for row, kk in zip(np.ravel(inverse).tolist(), pairs[:, -1].tolist()):
            positions.setdefault(row, set()).add(kk)
        values, residues = [], []  # per variable: every residue class once, at its smallest member
        big = None  # the first symbol, when it must go by value over more than BY_VALUE values
        for v in order:
            g = 0
            for j, m in enumerate(monos):
                if v in m:
                    g = math.gcd(g, *(int(x) for x in np.unique(coef[:, j])))
            period = mod // math.gcd(mod, g) if g else 1
            var = q.ctx.vars[v]
            if var.lo is None:
                return None
            if v in by_value:  # a digit's symbol: every value (a digit's residue is no function of its residue)
                if var.hi is None or var.hi - var.lo + 1 > BY_VALUE:
                    if v != order[0] or earlier:  # (the first symbol goes by value below, from its smallest)
                        return None
                    big = v
                    period = 1
                else:
                    period = var.hi - var.lo + 1
            count = period if var.hi is None else min(period, var.hi - var.lo + 1)
            if count < 1:
                return None
            values.append(range(var.lo, var.lo + count))
            residues.append(np.array([x % mod for x in values[-1]], dtype=np.int64))
        starts = np.arange(mod, dtype=np.int64)
        tables: dict = {}  # a set of positions -> the starts at which one of them is split off
        for row, ks in positions.items():
            key = frozenset(ks)
            if key not in tables:
                tables[key] = [[], np.zeros(mod, dtype=bool)]
                for kk in key:
                    tables[key][1] |= (sw(starts + kk) - sw(starts) - kk) != 0
            tables[key][0].append(row)
        groups = [(np.array(rows_, dtype=np.int64), table) for rows_, table in tables.values()]
        if big is not None:
            return _first_by_value(q, order, values, monos, coef, groups, mod, digits_of, search, admit)
        total = math.prod(len(r) for r in values)
        if total > RESIDUE_COMBOS and not (digits_of or later):  # too many classes: the leading variables'
            return _values_then_last(q, order, monos, coef, groups, mod, search)  # values, the last one's interval
        if total > RESIDUE_DIGITS:
            return None

        def badness(first, stop):
            """Whether combinations ``first .. stop-1`` (lexicographic) split a run, with their digits."""
            idx = np.arange(first, stop, dtype=np.int64)
            digits, rest = [], idx
            for r in reversed(residues):  # lexicographic: the first variable slowest
                digits.append(rest % len(r))
                rest = rest // len(r)
            digits.reverse()
            vals = {v: r[d] for v, r, d in zip(order, residues, digits)}
            if digits_of:  # the symbols' digits from their symbols' values (exact integers)
                exact = {v: np.asarray(values[j], dtype=np.int64)[digits[j]] for j, v in enumerate(order)
                         if v in by_value}
                for v, src, d, kind in digits_of:
                    whole = np.broadcast_to(np.asarray(src.eval(exact), dtype=np.int64), (len(idx),))
                    exact[v] = whole // d if kind == "q" else whole % d
                    vals[v] = exact[v] % mod
            start = _starts(coef, monos, vals, len(idx), mod)
            bad = np.zeros(len(idx), dtype=bool)
            for where, table in groups:
                bad |= table[start[:, where]].any(axis=1)
            return bad, digits

        def first_split():  # the candidates in order, the earlier tied symbols at the facts' model
            chunk = max(1, RESIDUE_CELLS // len(coef))
            tried, skipped = 0, None  # (skipped: the leading values at which a candidate was ruled out)
            # every variable but the last over its whole range (by value, not by class): a value the facts
            # rule out may be skipped for the next with the same leading values
            congruences = _class_invariant(q, order[-1], len(values[-1]))
            congruent = None if congruences is None else \
                np.array([all((k * x) % d == e for k, d, e in congruences) for x in values[-1]], dtype=bool)
            def whole(j):  # the variable goes by value over its whole range, not by class
                var = q.ctx.vars[order[j]]
                return var.hi is not None and len(values[j]) == var.hi - var.lo + 1
            # the first variable may go by class: a larger member of any of its classes lies past every
            # class's smallest member, so past every candidate; the ones between must go by value
            exact_lead = all(whole(j) for j in range(1, len(order) - 1))
            whole_last = whole(len(order) - 1)  # then a candidate ruled out hides no larger member of its class
            deadline = time.perf_counter() + RESIDUE_S
            for first in range(0, total, chunk):
                if first and time.perf_counter() > deadline:  # (a miss concludes nothing: the solver decides)
                    return None
                bad, digits = badness(first, min(total, first + chunk))
                if congruent is not None:  # the last variable's values its congruences rule out, with their classes
                    bad &= congruent[digits[-1]]
                for i in np.flatnonzero(bad).tolist():
                    at = {v: values[j][int(digits[j][i])] for j, v in enumerate(order)}
                    prefix = tuple(int(digits[j][i]) for j in range(len(order) - 1))
                    if skipped is not None and prefix != skipped and not whole_last:  # a larger member of a
                        # class skipped at smaller leading values may come before this candidate
                        return _walk(q, order, values, badness, total, len(coef), search, admit)
                    admitted = admit(at)
                    if admitted is not None:
                        return search(admitted)
                    tried += 1
                    if not exact_lead or tried >= TRIES:
                        return _walk(q, order, values, badness, total, len(coef), search, admit)
                    if congruent is None:  # (else the whole class is ruled out: nothing to remember)
                        skipped = prefix
                    # the leading variables at their values: every other member of this class (of the last
                    # variable) lies past every candidate with these leading values (each the smallest of
                    # its class, all below lo + period), so the next candidate with them is still the smallest
            # every candidate ruled out: a larger member of a class (the first variable's) may still split
            return _walk(q, order, values, badness, total, len(coef), search, admit) if tried else None

        found = first_split()
        if found is None and earlier:  # every candidate ruled out there: the earlier symbol by value
            return _by_earlier(q, earlier, order, values, badness, total, len(coef), search, admit)
        return found

    return find


WALK_CELLS = 1 << 22  # combinations x distinct run starts evaluated at once by _walk, at most
WALK_TRIES = 256  # candidates _walk holds to the facts, at most


def _walk(q, order, values, badness, total, rows, search, admit):
    """``by_residue`` when a candidate the facts rule out may hide a smaller one (a class's larger
    member): the variables of ``order`` by value, in lexicographic order, each value standing for its
    class (``values[j]``: one smallest member per class, the class of ``x`` at ``(x - lo) % len``), a
    branch entered only when some combination of the classes below splits a run (the whole table of
    ``badness``).  The first candidate the facts allow (``admit``) is the smallest violating symbol
    values; None past ``WALK_TRIES`` candidates ruled out (the solver decides) or when no class splits."""

    if total * max(1, rows) > WALK_CELLS:
        return None
    bad = badness(0, total)[0].reshape([len(r) for r in values])
    tries = [0]

    def dfs(j, at: dict, sub):
        var, vals = q.ctx.vars[order[j]], values[j]
        x = vals[0]
        while var.hi is None or x <= var.hi:
            c = (x - vals[0]) % len(vals)
            if sub[c].any():
                if j == len(order) - 1:
                    here = admit({**at, order[j]: x})
                    if here is not None:
                        return here
                    tries[0] += 1
                    if tries[0] >= WALK_TRIES:
                        raise StopIteration
                else:
                    found = dfs(j + 1, {**at, order[j]: x}, sub[c])
                    if found is not None:
                        return found
            x += 1
        return None

    if not bad.any():
        return None
    try:
        found = dfs(0, {}, bad)
    except StopIteration:
        return None
    return None if found is None else search(found)


EARLIER_VALUES = 1 << 10  # values of an earlier tied symbol _by_earlier tries, at most
EARLIER_STEPS = 1 << 18  # candidate values _by_earlier visits in all, at most
EARLIER_ROUNDS = 8  # rounds of interval propagation over the linear facts at each value (_bounds_at)


def _by_earlier(q, earlier, order, values, badness, total, rows, search, admit):
    """``by_residue`` when the facts tie the run start's variables to a symbol declared before them
    (``r + 1 <= n//2``, ``n`` first) and at the facts' model's value of it (its smallest) every splitting
    candidate is ruled out: that symbol by value, from its smallest, each value pinned with its division
    digits (``_symbol_digits``).  At a value the linear facts bound the start's variables (``_bounds_at``:
    interval propagation, a superset of the values the facts allow), so its candidates are finitely many;
    they are walked in lexicographic order as ``_walk`` walks them (a branch entered only where some class
    below splits a run), and the first the facts allow (``admit``) is the smallest violating point: every
    smaller value of the symbol had none.  None (the solver decides) for more than one such symbol, a
    variable the facts leave without a bound, or past ``EARLIER_VALUES`` values or ``EARLIER_STEPS``."""

    if len(earlier) != 1 or q.cta_copies or total * max(1, rows) > WALK_CELLS:
        return None
    (e,) = earlier
    var = q.ctx.vars.get(e)
    if var is None or var.lo is None:
        return None
    bad = badness(0, total)[0].reshape([len(r) for r in values])
    if not bad.any():
        return None
    digits = {v: parts for v, parts in _symbol_digits(q.ctx, {e}).items() if parts[3] == {e}}
    steps = [0]

    def dfs(j, at: dict, sub, bounds):
        vals = values[j]
        lo, hi = bounds[order[j]]
        for x in range(lo, hi + 1):
            steps[0] += 1
            if steps[0] > EARLIER_STEPS:
                raise StopIteration
            c = (x - vals[0]) % len(vals)
            if not sub[c].any():
                continue
            here = {**at, order[j]: x}
            found = admit(here) if j == len(order) - 1 else dfs(j + 1, here, sub[c], bounds)
            if found is not None:
                return found
        return None

    top = var.lo + EARLIER_VALUES - 1 if var.hi is None else min(var.hi, var.lo + EARLIER_VALUES - 1)
    try:
        for x in range(var.lo, top + 1):
            bounds = _bounds_at(q, _pinned(e, x, digits), order)
            if bounds is None:  # a variable without a bound at this value: its candidates are not finitely many
                return None
            if not bounds:  # no allowed value at all here
                continue
            found = dfs(0, {e: x}, bad, bounds)
            if found is not None:
                return search(found)
    except StopIteration:
        return None
    return None


def _first_by_value(q, order, values, monos, coef, groups, mod, digits_of, search, admit):
    """``by_residue`` when the run start's first symbol must go by value (a division digit of it is in the
    start) over more values than ``BY_VALUE``: from its smallest, each value pinned with its digits.  At
    a value the linear facts bound the other symbols (``_bounds_at``); a symbol no fact names (nor a digit
    of it) goes by class, at each class's smallest member in its bounds (its class decides the split,
    and no fact tells its members apart), every other one by value over its bounds.  The candidates at
    that value are then finitely many, in lexicographic order, and the first the facts allow (``admit``)
    is the smallest violating point: every smaller value of the first symbol had none.  None past
    ``EARLIER_VALUES`` values, when some symbol of the start is left without a bound, or past the limits.
    Seed 183 (``--swizzled``): a start with ``n//2`` (``n`` up to 1,048,576), ``r`` tied by ``r + 1 <= n//2``
    and ``s`` unbounded: split first at ``(n, r, s) = (6, 0, 44)``, unknown at 2 s before."""

    e, rest = order[0], order[1:]
    var = q.ctx.vars[e]
    syms = q.symbol_vars()
    derived = _symbol_digits(q.ctx, syms)
    in_facts = set().union(*(p.variables() for p, _ in q.ctx.rels)) if q.ctx.rels else set()
    named = set()  # the symbol variables some fact names, directly or through a digit of them
    for v in in_facts:
        if v in syms:
            named.add(v)
        elif v in derived:
            named |= derived[v][3]
        else:
            return None  # a fact over something else: no symbol is free of it
    own = {v: parts for v, parts in derived.items() if parts[3] == {e}}  # the first symbol's own digits
    if any(not ({src_v for src_v in src.variables()} <= {e} | set(own)) for _, src, _, _ in digits_of):
        return None  # a digit in the start that depends on another symbol
    top = var.lo + EARLIER_VALUES - 1 if var.hi is None else min(var.hi, var.lo + EARLIER_VALUES - 1)
    for x in range(var.lo, top + 1):
        bounds = _bounds_at(q, _pinned(e, x, own), rest)
        if bounds is None:
            return None
        if not bounds:  # no allowed value at all here
            continue
        lists = []
        for j, v in enumerate(rest, start=1):
            lo, hi = bounds[v]
            if v not in named:  # free of the facts: each class at its smallest member in the bounds
                reps = sorted({lo + (c - lo) % len(values[j]) for c in values[j]} if hi - lo + 1 >= len(values[j])
                              else range(lo, hi + 1))
            else:
                if hi - lo + 1 > EARLIER_STEPS:
                    return None
                reps = range(lo, hi + 1)
            lists.append(np.asarray(list(reps), dtype=np.int64))
        size = math.prod(len(r) for r in lists)
        if size == 0:
            continue
        if size * max(1, len(coef)) > WALK_CELLS:
            return None
        grids = np.meshgrid(*lists, indexing="ij") if lists else []
        exact = {e: np.full(size, x, dtype=np.int64)}
        exact.update({v: g.ravel() for v, g in zip(rest, grids)})
        vals = {v: a % mod for v, a in exact.items()}
        for v, src, d, kind in digits_of:
            whole = np.broadcast_to(np.asarray(src.eval(exact), dtype=np.int64), (size,))
            exact[v] = whole // d if kind == "q" else whole % d
            vals[v] = exact[v] % mod
        start = _starts(coef, monos, vals, size, mod)
        bad = np.zeros(size, dtype=bool)
        for where, table in groups:
            bad |= table[start[:, where]].any(axis=1)
        for i in np.flatnonzero(bad).tolist():
            admitted = admit({e: x, **{v: int(exact[v][i]) for v in rest}})
            if admitted is not None:
                return search(admitted)
    return None


def _pinned(e: str, x: int, digits: dict) -> dict:
    """``{e: x}`` with each of ``digits`` (``_symbol_digits``' entries of ``e`` alone, in the memo's order: a
    nested digit after its source) computed from it."""
    pins = {e: x}
    for v, (src, d, kind, _) in digits.items():
        whole = src.eval(pins)
        pins[v] = whole // d if kind == "q" else whole % d
    return pins


def _bounds_at(q, pins: dict, order) -> "dict | None":
    """``{var: (lo, hi)}`` for the variables of ``order`` with ``pins`` (variable -> value) substituted in
    the linear facts, by interval propagation from the variables' ranges (sound: every allowed value lies
    inside); ``{}`` when the facts leave some variable no value, None when one of ``order`` has no upper
    or lower end."""
    ctx = q.ctx
    box = {n: [v.lo, v.hi] for n, v in ctx.vars.items()}
    for v, x in pins.items():
        lo, hi = box.get(v, [None, None])
        if (lo is not None and x < lo) or (hi is not None and x > hi):
            return {}
        box[v] = [x, x]
    facts = []
    for p, op in ctx.rels:
        p = p.subst(pins)
        if not any(len(m) > 1 for m in p.terms):
            facts += nonnegative(p, op)
    for _ in range(EARLIER_ROUNDS if facts else 0):
        changed = False
        for f in facts:  # f >= 0: a*x >= -(the rest), at most -(its lowest) ... at least -(its highest)
            for m, a in f.terms.items():
                if not m:
                    continue
                (x,) = m
                rest = 0
                for m2, a2 in f.terms.items():
                    if m2 == m:
                        continue
                    if not m2:
                        rest += a2
                        continue
                    lo2, hi2 = box[m2[0]]
                    end = hi2 if a2 > 0 else lo2
                    if end is None:
                        rest = None
                        break
                    rest += a2 * end
                if rest is None:
                    continue
                lo, hi = box[x]
                if a > 0:  # a*x >= -rest
                    new = -(rest // a)
                    if lo is None or new > lo:
                        box[x][0], changed = new, True
                else:  # -a*x <= rest
                    new = rest // -a
                    if hi is None or new < hi:
                        box[x][1], changed = new, True
                if box[x][0] is not None and box[x][1] is not None and box[x][0] > box[x][1]:
                    return {}
        if not changed:
            break
    out = {}
    for v in order:
        lo, hi = box[v]
        if lo is None or hi is None:
            return None
        out[v] = (lo, hi)
    return out


def _symbol_of(q, var: str):
    """``(name, scale)`` of the symbol that is ``scale * var`` (``multiple_of`` scales), or None."""
    for name, p in q.symbols.items():
        if p.variables() == {var} and len(p.terms) == 1:
            (scale,) = p.terms.values()
            return name, scale
    return None


def _allowed(q, at: dict) -> bool:
    """The facts hold at the variables' values ``at`` (the other symbols at the facts' model)."""
    env = dict(at)
    _complete(q, env, set(), getattr(q, "facts", None))
    return allowed(q.check, Witness(q, env).symbols)


def _symbols_of(q, vs: set):
    """``{var: (symbol, scale)}`` for variables that are ``scale * var`` of one symbol each, or None."""
    out = {}
    for v in vs:
        found = _symbol_of(q, v)
        if found is None:
            return None
        out[v] = found
    return out


def _completed(q, at: dict, later: set):
    """``at`` with the variables ``later`` (symbols declared after ``at``'s) at their smallest values the
    facts allow with ``at``'s (``Facts.completion``), or None when no such values exist."""
    facts = getattr(q, "facts", None)
    if facts is None:
        return None
    of = _symbols_of(q, later)
    env = dict(at)
    _complete(q, env, set(), facts)
    symbols = Witness(q, env).symbols
    skip = {name for name, _ in of.values()}
    done = facts.completion({n: v for n, v in symbols.items() if n not in skip})
    if done is None or not allowed(q.check, done):
        return None
    out = dict(at)
    for v, (name, scale) in of.items():
        if done[name] % scale:
            return None
        out[v] = done[name] // scale
    return out


def _starts(coef, monos, vals: dict, n: int, mod: int, skip=None):
    """The runs' starts modulo ``mod`` (``n`` x rows): each row's constant plus its coefficient of every
    monomial of ``monos`` (but ``skip``) times the monomial at the variables' values ``vals`` (arrays)."""
    start = np.broadcast_to(coef[:, -1], (n, len(coef))).astype(np.int64) % mod
    for j, m in enumerate(monos):
        if m == skip:
            continue
        mono = np.ones(n, dtype=np.int64)
        for v in m:
            mono = mono * (np.asarray(vals[v]) % mod).astype(np.int64) % mod
        start = (start + np.outer(mono, coef[:, j]) % mod) % mod
    return start


def _class_invariant(q, var: str, period: int):
    """``[(scale, d, e)]`` when every fact the check states of ``var``'s symbol (its ``assume``
    entries) is ``name % d == e`` with ``d`` dividing the symbol's step over one residue class
    (``period`` values of ``var``; the symbol is ``scale * var``): a value ruled out then rules out its
    whole class (min and max only cut the class's far members).  None otherwise."""
    found = _symbol_of(q, var)
    if found is None or q.check.symbols[found[0]].source:  # (a CTA-bound symbol equals its peers: a fact too)
        return None
    name, scale = found
    out = []
    for text, *_ in q.check.assume:
        if not re.search(rf"\b{re.escape(name)}\b", text):
            continue
        m = _CONGRUENCE.match(text)
        if m is None or m.group(1) != name or int(m.group(2)) == 0 or (abs(scale) * period) % int(m.group(2)):
            return None
        out.append((scale, int(m.group(2)), int(m.group(3))))
    return out


LEAD_COMBOS = 1 << 14  # values of the leading variables tried by _values_then_last, at most


def _values_then_last(q, order, monos, coef, groups, mod, search):
    """``by_residue`` when the residue classes are too many: the leading variables of ``order`` by
    their values in lexicographic order (the first from its smallest value, up to ``LEAD_COMBOS``
    combinations; the others over their whole ranges), the last one, ``c``, solved for: it must be in
    ``L`` only as ``a*c`` with ``a`` a power of two (mod 2^T), and in the facts only linearly (no
    division, remainder or ``!=``), so that at given leading values the allowed ``c`` are the integers
    of an interval ``[alpha, beta]`` (its bounds from those facts and ``c``'s range).  The smallest
    ``c >= alpha`` that splits a run is ``alpha + d``, ``d`` read from a table of the distance to the
    next bad start along ``+a`` steps: exact, so the first leading values with that ``c <= beta`` (and
    the facts on the leading variables alone holding) are the smallest violating symbol values.
    None when a condition does not hold or no combination within the limit splits a run."""

    last, lead = order[-1], order[:-1]
    if not lead or any(last in m and m != (last,) for m in monos) or (last,) not in monos:
        return None
    a = np.unique(coef[:, monos.index((last,))])
    if len(a) != 1 or int(a[0]) == 0 or int(a[0]) & (int(a[0]) - 1):
        return None
    a = int(a[0])
    found = _symbol_of(q, last)
    if found is None:
        return None
    word = re.compile(rf"\b{re.escape(found[0])}\b")
    if any(word.search(text) and re.search(r"%|/|!=", text) for text, *_ in q.check.assume):
        return None
    bounds = []  # (b, rest): b*c + rest >= 0, rest a polynomial in the leading variables
    for p, op in q.ctx.rels:
        if last not in p.variables():
            continue
        b = p.coefficient(last)
        if not b or op == "!=" or not (p - Poly({(last,): b})).variables() <= set(lead):
            return None
        bounds += [(g.coefficient(last), g - Poly({(last,): g.coefficient(last)})) for g in nonnegative(p, op)]
    var = q.ctx.vars[last]
    if var.lo is None:
        return None
    ranges = [q.ctx.vars[v] for v in lead]
    if any(v.lo is None for v in ranges) or any(v.hi is None for v in ranges[1:]):
        return None
    per = math.prod(v.hi - v.lo + 1 for v in ranges[1:])
    first = ranges[0].hi - ranges[0].lo + 1 if ranges[0].hi is not None else LEAD_COMBOS
    count = min(first, LEAD_COMBOS // max(1, per))
    if count < 1 or per < 1:
        return None
    axes = [range(ranges[0].lo, ranges[0].lo + count)] + [range(v.lo, v.hi + 1) for v in ranges[1:]]
    grid = np.indices([len(r) for r in axes]).reshape(len(axes), -1)
    vals = {v: np.array(axes[i], dtype=object)[grid[i]] for i, v in enumerate(lead)}  # exact ints
    alpha = np.full(grid.shape[1], var.lo, dtype=object)
    beta = np.full(grid.shape[1], var.hi if var.hi is not None else None, dtype=object)
    for b, rest in bounds:  # b*c >= -rest
        r = np.broadcast_to(np.asarray(rest.eval(vals), dtype=object), alpha.shape)
        if b > 0:  # c >= ceil(-rest / b)
            alpha = np.maximum(alpha, np.array([-(x // b) for x in r], dtype=object))
        else:  # c <= floor(rest / -b)
            beta = np.array([x // -b if bb is None else min(x // -b, bb) for x, bb in zip(r, beta)], dtype=object)
    # the start of each run at c = alpha, mod 2^T: the leading variables' terms, then a*alpha
    start = _starts(coef, monos, vals, grid.shape[1], mod, skip=(last,))
    start = (start + (a * np.array([int(x) % mod for x in alpha], dtype=np.int64))[:, None]) % mod
    d = np.full(grid.shape[1], mod, dtype=np.int64)  # the fewest steps of +a to a bad start (mod: none)
    for where, table in groups:
        d = np.minimum(d, _next_bad(table, a)[start[:, where]].min(axis=1))
    for i in np.flatnonzero(d < mod).tolist():
        c = alpha[i] + int(d[i])
        if beta[i] is not None and c > beta[i]:
            continue
        at = {v: int(vals[v][i]) for v in lead} | {last: int(c)}
        if _allowed(q, at):
            return search(at)
        # c is in its facts' interval: a fact on the leading variables alone rules them out, for every c
    return None


def _next_bad(table, a: int):
    """For each start ``l`` in ``[0, 2^T)``: the fewest steps ``d >= 0`` with ``table[(l + a*d) mod 2^T]``
    (``a`` a power of two), or ``2^T`` when its chain has none."""
    mod = len(table)
    chain = mod // a  # the starts l, l+a, ... of one residue mod a: a cycle of this length
    cyc = table.reshape(chain, a).T  # cyc[r, t] = table[r + a*t]
    twice = np.concatenate([cyc, cyc], axis=1)
    pos = np.where(twice, np.arange(2 * chain)[None, :], 4 * chain)
    nxt = np.minimum.accumulate(pos[:, ::-1], axis=1)[:, ::-1][:, :chain]  # the next bad position
    dist = nxt - np.arange(chain)[None, :]
    dist = np.where(dist >= 2 * chain, mod, dist)
    out = np.empty(mod, dtype=np.int64)
    out.reshape(chain, a).T[:] = dist
    return out


BY_VALUE = 1 << 12  # the values of a symbol whose division digits are in a run's start, at most


def _symbol_digits(ctx, syms: set) -> dict:
    """``{digit: (source, d, "q" | "r", symbols)}`` for the division digits (``Context.divmod``: ``digit``
    is ``source // d`` or ``source % d``) of polynomials in the symbols' variables alone, or in such
    digits too (``(n//4)//2``: made after, so later in the memo's order), each a function of the symbols'
    values (``symbols``: the symbol variables it depends on)."""
    out: dict = {}
    for e in ctx.defined(Division):
        src, d, parts = e.source, e.d, e.parts
        vs = src.variables()
        if not vs or not vs <= syms | set(out) or d <= 0 or not _fits(ctx, src):
            continue
        if any(not (len(p.variables()) == 1 and p == Poly.var(min(p.variables()))) for p in parts):
            continue
        base = set().union(*(out[v][3] if v in out else {v} for v in vs))
        for p, kind in zip(parts, ("q", "r")):
            out[min(p.variables())] = (src, d, kind, base)
    return out


def _fits(ctx, p: Poly) -> bool:
    """Every partial sum of ``p``'s terms, over the variables' ranges, is exact in int64 arrays."""
    room = (1 << 62) // max(1, len(p.terms))
    for m, c in p.terms.items():
        lo, hi = ctx.interval(Poly({m: c}))
        if lo is None or hi is None or max(-lo, hi) >= room:
            return False
    return True


def _digits(ctx, known: dict, syms: set, n: int) -> None:
    """The division digits (``Context.divmod``, ``Polys.digits``) that are functions of ``known``'s
    variables, computed into it (numpy arrays of ``n`` values), until no more can be."""

    progress = True
    while progress:
        progress = False
        for e in ctx.defined(Division, Digits):
            src = e.source
            outs = list(e.parts)
            if src.variables() & syms or any(v not in known for v in src.variables()):
                continue
            if not _fits(ctx, src):
                continue
            if any(not (o.variables() and len(o.variables()) == 1 and o == Poly.var(min(o.variables())))
                   for o in outs):
                continue
            onames = [min(o.variables()) for o in outs]
            if all(v in known for v in onames):
                continue
            value = np.broadcast_to(src.eval(known), (n,))
            parts = [value // e.d, value % e.d] if isinstance(e, Division) else Ints().digits(value, list(e.sizes), "")
            for name, part in zip(onames, parts):
                known[name] = part
            progress = True
