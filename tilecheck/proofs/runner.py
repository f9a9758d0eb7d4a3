"""One runner for every obligation: violation formula -> proved / refuted / unknown.

An obligation is a pure function from a ``Query`` to a ``Violation``: a Z3
formula that is satisfiable exactly when the obligation fails, and a function
that explains a model in the user's words.  unsat is a proof; sat is a
refutation whose witness is replayed on the concrete semantics before it is
reported (a witness that does not replay is an internal inconsistency and is
reported as ``unknown``, never as a verdict); unknown and timeouts stay unknown.
"""
from __future__ import annotations

import itertools
import re
import time
from math import gcd, prod
from dataclasses import dataclass, replace
from typing import Callable

import z3
import numpy as np

from ..domain import allowed
from ..encode import Query, Witness
from ..poly import Division, Poly
from . import modular

from ..verdict import Verdict

PROVED, REFUTED, UNKNOWN, SKIPPED = Verdict.PROVED, Verdict.REFUTED, Verdict.UNKNOWN, Verdict.SKIPPED


@dataclass(frozen=True)
class Tuning:
    """The solver tactics' budget: how ``decide`` shares one obligation's ``timeout_s`` among its attempts,
    and how far each enumeration goes.  A share is a fraction (of the budget, or of what is left where
    it says so), a ``_s`` field seconds, the others counts.  Each bounds how long an attempt may run, or
    how many points it tries, before the next attempt (or unknown): another value may move a query
    between decided and unknown, or change which counterexample is found first; it never makes an
    unknown a proof.  The values are tuned on the fuzz campaigns (BENCHMARKS.md).  Tests change one with
    ``monkeypatch.setattr(runner, "TUNING", dataclasses.replace(runner.TUNING, field=value))``."""

    # -- the first attempt (fast_solver: the tactic TACTIC in the main context) --
    fast_share: float = 0.5  # of the budget, for the first attempt: the default solver, after it, is rarely the
    # one that decides (once in 1,000 symbolic fuzz cases, measured 2026-12-01), and it spoils later queries
    # (tactic_solver)
    main_first_s: float = 0.2  # seconds at most for a symbolic query's first attempt in the main context: the
    # hard ones go on in fresh contexts (_fresh_check says why)
    fast_split_share: float = 0.2  # of the budget, for the first attempt when a case split is possible, and at
    fast_split_s: float = 0.25  # most this many seconds: on 119 such queries of 300 symbolic fuzz cases the first
    # attempt decided every one, in 0.11 s at most; the split decided them all alike, in 3x the time: it comes second

    # -- the facts' model and its neighbours (_at_the_facts_model; Facts.neighbours) --
    pin_share: float = 0.1  # of the budget, for the first query at the facts' model (symbolic obligations only):
    # most symbolic refutations hold at the smallest symbol values
    near_share: float = 0.1  # of the budget, for each point next to the facts' model (in a fresh context, the
    # translation included: a 1,024-thread collision at the first point took 0.06-0.14 s, past 0.05 of 2 s)

    # -- every allowed point of a small symbol box, each pinned (_every_point: exact both ways) --
    every_share: float = 0.5  # of the budget left after the first attempt
    every_box: int = 1 << 14  # points of the symbols' box whose facts are evaluated, at most
    every_points: int = 64  # points the facts allow, decided one by one, at most
    every_point_s: float = 0.1  # seconds per point at most (an unknown point ends it)

    # -- the grid of the smallest allowed symbol values (_on_the_grid: refutations only) --
    grid_share: float = 0.1  # of the budget
    grid_values: int = 16  # smallest allowed values per symbol (its step: range, multiple_of, congruences)
    grid_drawn: int = 4096  # grid points drawn (allowed or not), at most
    grid_point_s: float = 0.05  # seconds per pinned point, at most

    # -- by the residues' classes of a congruence (_by_classes: refutations only) --
    class_share: float = 0.5  # of the rest of the first attempt's share
    class_combos: int = 1 << 12  # residue combinations of the congruence's variables enumerated, at most
    class_queries: int = 16  # bad classes asked, at most
    class_query_s: float = 0.1  # seconds per class query, at most

    # -- the case split of a query nonlinear only through small digits (_split_plan, _case_split) --
    split_share: float = 0.5  # of the time left after the first attempts
    split_cases: int = 64  # assignments of the split's digits, at most
    split_range: int = 16  # values of one digit the split may pin, at most

    # -- the counterexample --
    minimize_s: float = 0.25  # seconds at most to minimise a refutation of a residue violation
    # (Violation.shortcut's equisatisfiable restatement): a bound costs minimality, never the refutation


TUNING = Tuning()


@dataclass
class Violation:
    formula: object  # z3.BoolRef
    explain: Callable[[Witness], "tuple[str, dict] | None"]
    static: bool = False  # a fact of the input: formula is a constant, explain needs no witness
    congruence: "tuple | None" = None  # (P, m): the formula is P mod m != 0, decided exactly mod 2^j first
    classes: "tuple | None" = None  # (P, m, rest): the formula is rest and P mod m != 0 (m a power of two): a
    # symbolic refutation may be looked for class by class of the residues (``_by_classes``)
    note: str | None = None  # the message of a proof (registers: the number), None for most
    count: int | None = None  # banks, sectors: the exact count the outcome reports (Outcome.count)
    unknown: str | None = None  # the obligation cannot be decided for this input: the unknown's message
    skipped: str | None = None  # the obligation does not apply to this input (a performance one): why
    shortcut: "Callable[[float], tuple[bool, list, object]] | None" = None  # a sufficient test (proofs/swizzle.py):
    # shortcut(seconds left) -> (True when it proves the obligation, the proof's queries as (suffix, solver,
    # result), a formula equisatisfiable with ``formula`` to decide instead or None); False proves nothing
    witness: "Callable[[dict | None], dict | None] | None" = None  # when the shortcut leaves an equisatisfiable
    # violation: a direct search for a counterexample (proofs/swizzle.py): the values of the solver's variables at
    # the smallest violating point at the facts' model (or at the given symbol values), replayed by evaluation;
    # None: the solver decides, as without it
    searches: bool = False  # explain finds its own (minimal) counterexample: the model is not minimised
    budget: float | None = None  # seconds at most for the search (a performance obligation not required)
    background: "list | None" = None  # the constraints (Query.constraints) the formula is decided under, taken
    # before the obligation made variables it does not need (warp.py's residue rule); None: all of them


@dataclass
class Outcome:
    name: str
    status: str
    seconds: float = 0.0
    message: str | None = None
    counterexample: dict | None = None
    count: int | None = None  # banks: wavefronts, sectors: sectors per warp-instruction (the maximum)

    def to_json(self) -> dict:
        out = {"name": self.name, "status": self.status, "seconds": round(self.seconds, 6)}
        if self.message is not None:
            out["message"] = self.message
        if self.count is not None:
            out["count"] = self.count
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample
        return out


def static(ok: bool, message: str, counterexample: dict | None = None) -> Violation:
    """A fact of the input that needs no coordinates: decided in Python, without the solver."""
    return Violation(z3.BoolVal(not ok), lambda w: (message, counterexample or {}), static=True)


def decide(name: str, obligation, check, apply, timeout_s: float, facts=None, minimize: bool = True,
           recorder=None, role: str | None = None) -> Outcome:
    """Decide one obligation (``role``: of that memory operand, for a family with several).  ``facts`` (``proofs.facts.decide``) says whether the symbols' facts have
    a model; only the facts that share variables with the violation formula are given to the solver.
    ``recorder`` (--smt2 / --recheck) sees every query the solver decides."""
    start = time.perf_counter()
    bounded = False  # True: the counterexample's minimisation gets TUNING.minimize_s at most (a residue refutation)
    q = Query(check, apply, role)
    q.facts = facts  # banks/sectors try the facts' smallest model by enumeration before any query
    q.exporting = recorder is not None  # an exported query states the whole formula (bounds.py)
    q.timeout_s = timeout_s  # (an obligation that decides its own queries: the descriptors' bit-vector ones)
    v: Violation = obligation(q)
    if v.budget is not None:
        timeout_s = min(timeout_s, v.budget)
    if role is not None:  # one query per memory operand: the recorder names each
        recorder = None if recorder is None else _Named(recorder, role)
    # every Z3 variable of a query is made through q.zv (Query.z), so its names now are those of the
    # formula (a superset at worst, which only adds constraints): no walk over the Z3 term
    mentioned = set(q.zv) if v.background is None else _names(v.formula)
    if v.unknown is not None:
        return Outcome(name, UNKNOWN, time.perf_counter() - start, v.unknown)
    if v.skipped is not None:
        return Outcome(name, SKIPPED, time.perf_counter() - start, v.skipped)
    formula = v.formula  # a constant (a static obligation's) needs no simplification
    if z3.Z3_get_bool_value(formula.ctx.ref(), formula.as_ast()) == z3.Z3_L_UNDEF:
        formula = z3.simplify(formula)
    if z3.Z3_get_bool_value(formula.ctx.ref(), formula.as_ast()) == z3.Z3_L_FALSE:  # z3.is_false, without wrappers
        _record(recorder, name, apply, check, v.formula, z3.unsat)
        return Outcome(name, PROVED, time.perf_counter() - start, v.note, count=v.count)
    if v.static:
        _record(recorder, name, apply, check, v.formula, z3.sat)
        message, cex = v.explain(None)
        return Outcome(name, REFUTED, time.perf_counter() - start, f"{name} refuted: {message}", cex, v.count)
    if v.shortcut is not None and (facts is None or facts.ok or not q.symbol_vars()):
        proved, queries, instead = v.shortcut(max(0.001, start + timeout_s - time.perf_counter()))
        if proved:
            for suffix, s, r in queries if recorder is not None else ():  # the queries that are the proof
                recorder.observe(f"{name}-{suffix}" if suffix else name, apply.index, check, s, r)
            return Outcome(name, PROVED, time.perf_counter() - start, v.note)
        if v.witness is not None:  # a swizzle splits a run, or the plain run is not contiguous: a
            # refutation is likely, looked for at the facts' model before the solver meets the digits
            found = _witnessed(name, v, q, apply, check, recorder, start, timeout_s)
            if found is not None:
                return found
        if instead is not None:  # an equisatisfiable violation, stated with fewer digits
            v = replace(v, formula=instead)
            mentioned = _names(instead)
            bounded = True
    assertions = [(q.build(c), vs) for c, vs in
                  relevant(mentioned, q.constraints() if v.background is None else v.background)]
    used = set().union(*(vs for _, vs in assertions)) | mentioned
    if facts is not None and used & q.symbol_vars() and not facts.ok:
        return Outcome(name, UNKNOWN, time.perf_counter() - start, f"{name} unknown: {facts.reason}")
    if v.congruence is not None:
        proved, bv = modular.unsat(*v.congruence, q.ctx, max(1, int(timeout_s * 1000)))
        if proved:
            if recorder is not None and bv is not None:  # the bit-vector query is the proof: export it
                recorder.observe(name, apply.index, check, bv, z3.unsat)
            return Outcome(name, PROVED, time.perf_counter() - start)
    query = [v.formula, *(f for f, _ in assertions)]
    at_model = z3.unsat  # the answer at the facts' model: a refutation there is one, and is linear
    symbolic = bool(used & q.symbol_vars())  # in the symbols (most symbolic refutations hold at the
    if symbolic:  # smallest symbols, or next to them)
        pinned, at_model, _ = _at_the_facts_model(q, query, used, facts, timeout_s * TUNING.pin_share)
    # a symbolic query nonlinear only through small digits can be split into linear cases: the first
    # attempt then gets a smaller share, so that the split has time (the easy queries still decide at once)
    plan = _split_plan(q, used) if symbolic and at_model != z3.sat else None
    found = None  # a model found in a fresh context (_fresh_check), translated to the main one
    if at_model == z3.sat:
        solver, r = pinned, z3.sat
    else:
        share = TUNING.fast_share if plan is None else min(TUNING.fast_split_share, TUNING.fast_split_s / timeout_s)
        first = min(share * timeout_s, TUNING.main_first_s) if symbolic else share * timeout_s
        solver = fast_solver(timeout_s, first)
        add(solver, query)
        began = time.perf_counter()
        r = solver.check()
        spent = time.perf_counter() - began
    # a hard one: every later attempt in a fresh Z3 context of its own (_fresh_check says why; a
    # context that has run other checks is no longer as fast: only the case split's cases share one)
    if r == z3.unknown and symbolic:  # few allowed symbol values: each decided, pinned (exact both ways)
        every = _every_point(q, query, used, (start + timeout_s - time.perf_counter()) * TUNING.every_share)
        if every is not None:
            solver, r, found = every
    if r == z3.unknown and symbolic:  # the points next to the facts' model (Facts.neighbours)
        for near in facts.neighbours() if facts is not None and facts.status == "sat" else ():
            pinned, at_near, near_model = _at_the_facts_model(q, query, used, facts, timeout_s * TUNING.near_share,
                                                              near,
                                                              fresh=True)
            if at_near == z3.sat:
                solver, r, found = pinned, z3.sat, near_model
                break
    if r == z3.unknown and symbolic and v.witness is None:  # the smallest allowed symbol values in order,
        # pinned (an obligation with a witness has searched its own grid: swizzle.smallest_at_facts_model)
        grid = _on_the_grid(q, query, used, facts,
                            min(timeout_s * TUNING.grid_share, start + timeout_s - time.perf_counter()))
        if grid is not None:
            solver, r, found = grid
    if r == z3.unknown and symbolic and v.classes is not None:  # by the residues' classes: linear queries
        by_class = _by_classes(q, v.classes, [f for f, _ in assertions],
                               min(share * timeout_s - spent, start + timeout_s - time.perf_counter())
                               * TUNING.class_share)
        if by_class is not None:
            solver, r, found = by_class
    if r == z3.unknown and symbolic:  # the whole query, for the rest of the first attempt's share (and
        # no longer than the budget left)
        r, found = _fresh_check(query, min(share * timeout_s - spent, start + timeout_s - time.perf_counter()))
        if r != z3.unknown:
            solver = tactic_solver(1000 * max(0.001, start + timeout_s - time.perf_counter()))
            add(solver, query)  # the query in the main context: minimisation, --smt2/--recheck
    if r == z3.unknown and plan is not None:  # nonlinear through small digits: a linear query per value
        split = _case_split(q, query, plan, (start + timeout_s - time.perf_counter()) * TUNING.split_share)
        if split[1] != z3.unknown:
            solver, r, found = split
    if r == z3.unknown and at_model == z3.unknown:  # the facts' model again, with what is left
        pinned, at_model, again = _at_the_facts_model(q, query, used, facts,
                                                      (start + timeout_s - time.perf_counter()) / 2, fresh=symbolic)
        if at_model == z3.sat:
            solver, r, found = pinned, z3.sat, again
    if r == z3.unknown and start + timeout_s - time.perf_counter() > 0.001:
        solver = general_solver(query, start + timeout_s - time.perf_counter())
        r = solver.check()
    if recorder is not None:  # --smt2 / --recheck: export the query, let cvc5 decide it (proofs/smt2.py);
        # a sat answer's model goes with it (cvc5 checks it when it cannot decide the query alone)
        exported = solver
        if r == z3.unknown:  # undecided: the query itself, not the last attempt's assertions (a tactic
            # solver's, after its check, are its preprocessed goal, with Z3's own pseudo-Boolean terms
            # such as pbeq, which cvc5 cannot read)
            exported = z3.Solver()
            add(exported, query)
        recorder.observe(name, apply.index, check, exported, r,
                         model=(found if found is not None else _model(solver)) if r == z3.sat else None)
    if r == z3.unsat:
        return Outcome(name, PROVED, time.perf_counter() - start, v.note)
    if r == z3.unknown:
        reason = solver.reason_unknown()
        why = "timed out" if "timeout" in reason or "canceled" in reason else f"solver gave up ({reason})"
        return Outcome(name, UNKNOWN, time.perf_counter() - start, f"{name} unknown: {why} after {timeout_s:g} s")
    model = solver.model() if found is None else found
    if minimize and not v.searches:
        deadline = start + timeout_s
        if bounded:  # each step keeps the last model: a bound costs minimality, never the refutation
            deadline = min(deadline, time.perf_counter() + TUNING.minimize_s)
        model = _minimize(solver, q, used, model, deadline=deadline)
    env = {n: model.eval(var, model_completion=True).as_long() for n, var in q.zv.items() if n in used}
    _complete(q, env, used, facts)
    if bounded and v.witness is not None:  # the smallest coordinates at these symbols, by enumeration
        env = v.witness(env) or env
    explained = v.explain(Witness(q, env))
    if explained is None:
        return Outcome(name, UNKNOWN, time.perf_counter() - start,
                       f"{name} unknown: the solver's counterexample did not replay on the concrete semantics "
                       "(internal error, please report)")
    message, cex = explained
    return Outcome(name, REFUTED, time.perf_counter() - start, f"{name} refuted: {message}", cex, v.count)


def _model(solver):
    """The solver's model, or None when it has none (not checked in this context)."""
    try:
        return solver.model()
    except z3.Z3Exception:
        return None


def _witnessed(name, v: Violation, q: Query, apply, check, recorder, start: float, timeout_s: float) -> "Outcome | None":
    """The refutation ``v.witness`` finds without the solver (replayed on the concrete semantics:
    the obligation's ``explain``), or None.  The point is already
    the smallest (proofs/swizzle.py): not minimised.  For the recorder (--smt2 / --recheck) the
    violation formula with the point's coordinates and symbols pinned is decided too (sat, else
    None: the solver decides) and shown with every variable pinned to that model (ground, sat)."""
    env = v.witness() if v.witness is not None else None
    explained = None if env is None else v.explain(Witness(q, env))
    if explained is None:
        return None
    if recorder is not None:
        names = _names(v.formula)
        query = [v.formula, *(q.build(c) for c, _ in relevant(names, q.constraints()))]
        for f in query[1:]:
            names |= _names(f)
        pins = [q.zv[n] == env[n] for n in sorted(names) if n in env and _minimizable(q, n)]
        solver = fast_solver(max(0.001, start + timeout_s - time.perf_counter()) / TUNING.fast_share)
        add(solver, [*query, *pins])
        if solver.check() != z3.sat:  # the encoding disagrees with the concrete semantics: let the solver decide
            return None
        model, ground = solver.model(), z3.Solver()
        add(ground, [*query, *(q.zv[n] == model.eval(q.zv[n], model_completion=True) for n in sorted(names))])
        recorder.observe(name, apply.index, check, ground, z3.sat)
    message, cex = explained
    return Outcome(name, REFUTED, time.perf_counter() - start, f"{name} refuted: {message}", cex, v.count)


class _Named:
    """A recorder that files a memory operand's query under ``<obligation>-<role>``."""

    def __init__(self, recorder, role: str):
        self.recorder, self.role = recorder, role

    def observe(self, name, *args, **kwargs):
        return self.recorder.observe(f"{name}-{self.role}", *args, **kwargs)


def _record(recorder, name, apply, check, formula, result) -> None:
    """Show the recorder (--smt2 / --recheck) an obligation decided without a search: its query is
    the formula alone (a constant, or one that simplifies to false)."""
    if recorder is not None:
        solver = z3.Solver()
        solver.add(formula)
        recorder.observe(name, apply.index, check, solver, result)


_FAST = None
TACTIC = ("simplify", "solve-eqs", "smt")  # the first attempt's (fast_solver), in every context


def fast_solver(timeout_s: float, seconds: float | None = None):
    """The first attempt: simplification, Gaussian elimination of the encoding's many defining
    equations (``solve-eqs``), then Z3's SMT core; 2-8x faster than ``z3.Solver()`` on tilecheck's
    queries (measured on 832 fuzz queries, BENCHMARKS.md).  The same decision procedure, only without the general
    solver's portfolio: an ``unknown`` here goes to ``general_solver``."""
    return tactic_solver(max(1, int((timeout_s * TUNING.fast_share if seconds is None else seconds) * 1000)))


def tactic_solver(ms: int):
    """A fresh solver of the first attempt's tactic with a bound of ``ms`` milliseconds.

    Used instead of ``z3.Solver()`` wherever a query may be nonlinear: on such queries the default
    solver runs Z3's ``qfnia`` tactic, which leaves process-wide state behind (z3 5.0 and 5.4 alike:
    after one 0.2 s ``qfnia`` check of a symbols' facts query, a 3 ms ``qfnia`` query of another
    context takes 0.1-1.2 s, for the rest of the process); this tactic neither leaves that state nor
    suffers from it (tests/test_solver_state.py)."""
    global _FAST
    if _FAST is None:  # a tactic is stateless: made once, each solver is fresh
        _FAST = z3.Then(*TACTIC)
    solver = _FAST.solver()
    solver.set(timeout=max(1, int(ms)))
    return solver


def add(solver, formulas) -> None:
    """``solver.add(*formulas)`` through Z3's C API (z3py's per-assertion casts cost more than the
    assertion itself); anything but a Boolean term goes through ``solver.add``."""
    ref, s = solver.ctx.ref(), solver.solver
    for f in formulas:
        if isinstance(f, z3.BoolRef):
            z3.Z3_solver_assert(ref, s, f.as_ast())
        else:
            solver.add(f)


def general_solver(query: list, seconds: float):
    """``z3.Solver()`` (with nlsat for nonlinear queries) on the formulas ``query``, for the rest of
    the budget.  The query itself, not the first attempt's ``assertions()``: after a check, a
    tactic solver's assertions are its preprocessed goal, without the variables ``solve-eqs``
    eliminated, and a model of that would give those variables no value (a counterexample that
    does not replay)."""
    solver = z3.Solver()
    solver.set(timeout=max(1, int(seconds * 1000)))
    add(solver, query)
    return solver


def _at_the_facts_model(q: Query, query: list, used: set, facts, seconds: float, point: dict | None = None,
                        fresh: bool = False):
    """A refutation at one allowed point: the symbols pinned to the facts' model (``proofs.facts``),
    which satisfies every fact, so a model here is a model of ``query`` (a counterexample, and the
    smallest symbol values there are: that model is the facts' smallest).  With the symbols concrete
    the nonlinear terms in them become linear.  Returns (the pinned solver, its answer, a model or
    None), or (None, unknown, None) when there is nothing to pin; unsat here proves nothing about other
    points.  ``fresh``: decided in a fresh context (the model translated back; the solver returned
    holds the pinned query in the main context, unchecked), else in the main context (no model: the
    solver's own)."""
    model = getattr(facts, "model", None) if facts is not None and facts.status == "sat" else None
    model = point if point is not None and model is not None else model  # another allowed point
    pins = [q.z(p) == model[n] for n, p in q.symbols.items()
            if model is not None and n in model and p.variables() and p.variables() <= used]
    if not pins or seconds <= 0.001:
        return None, z3.unknown, None
    pinned = tactic_solver(seconds * 1000)
    add(pinned, [*query, *pins])
    if not fresh:
        return pinned, pinned.check(), None
    r, found = _Fresh(query).check(pins, seconds)
    return pinned, r, found


class _Fresh:
    """A query translated into a fresh Z3 context, where an attempt after the first is made
    (``_fresh_check`` says why): each check a fresh solver of the first attempt's tactic."""

    def __init__(self, query: list):
        self.ctx = z3.Context()
        self.query = [f.translate(self.ctx) for f in query]

    def check(self, extra: list, seconds: float):
        """(answer, model translated into the main context or None) of the query and ``extra`` (main
        context terms) within ``seconds``."""
        if seconds <= 0.001:
            return z3.unknown, None
        solver = z3.Then(*TACTIC, ctx=self.ctx).solver()
        solver.set(timeout=max(1, int(seconds * 1000)))
        for f in (*self.query, *(e.translate(self.ctx) for e in extra)):
            solver.add(f)
        r = solver.check()
        return r, solver.model().translate(z3.main_ctx()) if r == z3.sat else None


def _fresh_check(query: list, seconds: float):
    """The first attempt's tactic on ``query`` translated into a fresh Z3 context: ``(answer, model)``,
    the model (sat) translated back into the main context.  The main context accumulates the terms of
    every earlier query, and the same hard query there takes 0.1-1.2 s from one try to the next (a
    ``bounds`` query of fuzz seed 23: unknown at 2 s in a campaign, 0.12 s alone); in a fresh context
    it takes 0.09-0.15 s every time (BENCHMARKS.md section 11)."""
    return _Fresh(query).check([], seconds)


def _on_the_grid(q: Query, query: list, used: set, facts, seconds: float):
    """A refutation at the smallest allowed symbol values: the symbols of ``query`` each over its
    ``TUNING.grid_values`` smallest values (its range, ``multiple_of`` and ``name % d == e`` facts), in
    lexicographic (declaration)
    order, the others at the facts' model; each point the facts allow (``domain.allowed``) pinned and
    decided in one fresh context (``_fresh_check`` says why): with the symbols concrete the query's
    products in them are linear.  Past the neighbours of the facts' model (which change one symbol)
    it reaches a collision two symbols away (fuzz seed 151 under z3 5.0.0: ``s = 24`` with ``n = 12``,
    ``s`` one less than the stride ``2*n+1``).  ``(pinned solver, sat, model)`` at the first sat point
    (as ``_at_the_facts_model`` returns), None when none is found within ``seconds``: unsat points
    prove nothing about the others."""
    model = getattr(facts, "model", None) if facts is not None and facts.status == "sat" else None
    if not model or seconds <= 0.002 or q.cta_copies:
        return None
    check = q.check
    names = [n for n, p in q.symbols.items() if p.variables() and p.variables() <= used]
    if not names or any(n not in model for n in check.symbols):
        return None
    axes = grid_axes(check, names, model, TUNING.grid_values)
    if axes is None:
        return None
    deadline = time.perf_counter() + seconds
    fresh = None
    for drawn, values in enumerate(itertools.product(*axes)):
        left = deadline - time.perf_counter()
        if drawn >= TUNING.grid_drawn or left <= 0.001:
            return None
        env = dict(zip(check.symbols, values))
        if env == model or not allowed(check, env):  # (the model's point was asked first)
            continue
        pins = [q.z(q.symbols[n]) == env[n] for n in names]
        fresh = fresh if fresh is not None else _Fresh(query)
        r, found = fresh.check(pins, min(left, TUNING.grid_point_s))
        if r == z3.sat:
            pinned = tactic_solver(max(1, int(left * 1000)))
            add(pinned, [*query, *pins])
            return pinned, r, found
    return None


def _every_point(q: Query, query: list, used: set, seconds: float):
    """A symbolic query decided point by point when its symbols allow few values: every point of the
    box of the query's symbol variables (their ranges, which the query states) where the facts hold --
    evaluated exactly here (``_facts_hold``; a point where one cannot be is kept) -- pinned and decided
    in one fresh context, in lexicographic (declaration) order.  With the symbols concrete the query's
    products in them are linear.  The first sat point is a refutation at the smallest symbol values;
    unsat at every point is a proof (no allowed value is left out).  ``(solver, answer, model or None)``,
    or None: too many points, an unknown point, or out of time (nothing is concluded).  Fuzz seed 181: a
    ``.local`` v8 store through strides ``s`` and ``s2 >= 4*s`` with 22 allowed points, unknown at 2 s."""
    syms = [v for v in q.ctx.vars if v in used and v in q.symbol_vars()]
    if not syms or q.cta_copies or seconds <= 0.002:
        return None
    ranges = []
    for v in syms:
        var = q.ctx.vars[v]
        if var.lo is None or var.hi is None:
            return None
        ranges.append(range(var.lo, var.hi + 1))
    if prod(len(r) for r in ranges) > TUNING.every_box:
        return None
    points = []
    for values in itertools.product(*ranges):
        env = dict(zip(syms, values))
        if _facts_hold(q, env) is not False:
            points.append(env)
            if len(points) > TUNING.every_points:
                return None
    if not points:
        return None
    began = time.perf_counter()
    deadline = began + seconds
    fresh = _Fresh(query)
    for k, env in enumerate(points):
        now = time.perf_counter()
        left = deadline - now
        if left <= 0.001 or (k >= 3 and (now - began) / k * len(points) > seconds):  # (it would not finish:
            return None  # the other routes get the time; a refutation before the end is found by the grid too)
        pins = [q.zv[v] == env[v] for v in syms]
        r, found = fresh.check(pins, min(left, TUNING.every_point_s))
        if r == z3.unknown:
            return None
        if r == z3.sat:
            pinned = tactic_solver(max(1, int(left * 1000)))
            add(pinned, [*query, *pins])
            return pinned, r, found
    solver = tactic_solver(max(1, int((deadline - time.perf_counter()) * 1000)))
    add(solver, query)  # the query in the main context: --smt2/--recheck
    return solver, z3.unsat, None


_HOLDS = {"<": lambda x: x < 0, "<=": lambda x: x <= 0, ">": lambda x: x > 0, ">=": lambda x: x >= 0,
          "==": lambda x: x == 0, "!=": lambda x: x != 0}


def _facts_hold(q: Query, env: dict) -> "bool | None":
    """Whether every fact (``Context.rels``) holds at the symbol variables' values ``env``, their division
    digits (``Context.divmod``: floor division) computed from them; None when some fact names a variable
    that cannot be computed so (nothing is ruled out then)."""
    env = dict(env)
    ctx = q.ctx
    progress = True
    while progress:  # the digits of known values, until no more (a nested digit after its source)
        progress = False
        for e in ctx.defined(Division):
            src, d, parts = e.source, e.d, e.parts
            names = [min(part.variables()) if part.variables() else None for part in parts]
            if d <= 0 or None in names or any(part != Poly.var(n) for part, n in zip(parts, names)):
                continue
            if names[0] in env or not src.variables() <= set(env):
                continue
            value = src.eval(env)
            env[names[0]], env[names[1]] = value // d, value % d
            progress = True
    unknown = False
    for p, op in ctx.rels:
        if not p.variables() <= set(env):
            unknown = True
            continue
        if not _HOLDS[op](p.eval(env)):
            return False
    return None if unknown else True


def grid_axes(check, names: list, fixed: dict, k: int) -> "list | None":
    """Per symbol of ``check`` (declaration order): the ``k`` smallest values of ``names``' symbols by their
    step (range, ``multiple_of`` and ``name % d == e`` facts), the others at ``fixed``'s value; None when
    a symbol's congruences allow no value (the facts would be contradictory)."""
    axes = []
    for name, sym in check.symbols.items():
        if name not in names:
            axes.append([fixed[name]])
            continue
        step, rest = max(1, sym.multiple_of), 0
        for d, e in _congruences(check, name):  # "name % d == e" facts: the values they allow
            if rest % gcd(step, d) != e % gcd(step, d):
                return None  # no value satisfies both
            rest = next(x for x in range(rest, rest + step * d, step) if x % d == e % d)
            step = step * d // gcd(step, d)
        first = sym.min + (rest - sym.min) % step
        axes.append(range(first, min(sym.max, first + step * (k - 1)) + 1, step))
    return axes


_CONGRUENCE = re.compile(r"^\s*([A-Za-z_]\w*)\s*%\s*(\d+)\s*==\s*(\d+)\s*$")  # "name % d == e"


def _congruences(check, name: str) -> list[tuple[int, int]]:
    """``(d, e)`` of each fact ``name % d == e`` (``d > 0``) of ``check``."""
    out = []
    for text, *_ in check.assume:
        m = _CONGRUENCE.match(text)
        if m is not None and m.group(1) == name and int(m.group(2)) > 0:
            out.append((int(m.group(2)), int(m.group(3))))
    return out


def _by_classes(q: Query, classes: tuple, background: list, seconds: float):
    """A refutation of ``rest and P mod m != 0`` (``Violation.classes``, ``m`` a power of two) class by
    class: ``P mod m`` depends only on its variables' residues modulo ``m`` (``modular``), so on a class
    (every variable's residue fixed) it is a constant, and where that constant is not 0 the violation
    is ``rest`` and the class's congruences: a query with no product under a ``mod`` (linear when
    ``rest`` and the background are).  The bad classes are enumerated (``TUNING.class_combos`` at most) and
    asked in order, in one fresh Z3 context (``_fresh_check`` says why), up to ``TUNING.class_queries`` of
    them within ``seconds``.  A sat class is a refutation: ``(solver, sat, model)``, the solver (main
    context) holding the class's query for minimisation and --smt2/--recheck, as ``_case_split``'s
    cases; None otherwise (nothing is concluded from unsat classes: the solver decides)."""

    target, m, rest = classes
    if modular.power_of_two(m) is None or m < 2 or seconds <= 0.002:
        return None
    deadline = time.perf_counter() + seconds
    target = target.subst(q.ctx.constants(target.variables()))
    names = [v for v in q.ctx.vars if v in target.variables()]
    if not names or any(v not in q.ctx.vars for v in target.variables()):
        return None
    residues = []
    for v in names:
        var = q.ctx.vars[v]
        span = None if var.lo is None or var.hi is None else var.hi - var.lo + 1
        residues.append(sorted({(var.lo + i) % m for i in range(span)}) if span is not None and span < m
                        else list(range(m)))
    if prod(len(r) for r in residues) > TUNING.class_combos:
        return None
    grid = np.array(list(itertools.product(*residues)), dtype=np.int64).reshape(-1, len(names))
    reduced = target.mod(m)
    value = np.broadcast_to(np.asarray(reduced.eval({v: grid[:, k] for k, v in enumerate(names)}), dtype=np.int64),
                            (len(grid),)) % m
    bad = np.flatnonzero(value != 0)
    if not len(bad):
        return None
    fresh = _Fresh([rest, *background])
    for row in bad[:TUNING.class_queries].tolist():
        left = deadline - time.perf_counter()
        if left <= 0.001:
            return None
        case = [q.zv[v] % m == int(r) for v, r in zip(names, grid[row])]
        answer, model = fresh.check(case, min(left, TUNING.class_query_s))
        if answer == z3.sat:
            main = tactic_solver(max(1, int(left * 1000)))
            add(main, [rest, *background, *case])
            return main, answer, model
    return None


def _split_plan(q: Query, used: set):
    """For a query over the variables ``used`` that is nonlinear through products of variables (the
    monomials ``Query.z`` made, and those of the division and fact relations): the fewest small-range
    variables (coordinates' digits, bounded symbols: at most ``TUNING.split_range`` values each,
    ``TUNING.split_cases`` assignments in all) whose values leave every product at most one free factor, as
    ``(names, ranges)``; None when there is no such split (or nothing nonlinear).  Read off the
    polynomials, not the Z3 terms (a walk over a large term costs more than the query).  A product
    made outside ``Query.z`` is missed: its cases stay nonlinear, which costs speed, never soundness
    (the cases cover every model whatever they leave nonlinear)."""
    monos = {m for m in q.nonlinear if len(m) > 1 and set(m) <= used}
    for p in (*q.ctx.eqs, *(p for p, _ in q.ctx.rels)):
        monos.update(m for m in p.terms if len(m) > 1 and set(m) <= used)
    if not monos:
        return None
    pins: list[str] = []
    for m in sorted(monos):
        while len([v for v in m if v not in pins]) > 1:
            free = [v for v in dict.fromkeys(m) if v not in pins and v in used]
            sizes = {}
            for v in free:
                var = q.ctx.vars.get(v)
                if (var is not None and var.lo is not None and var.hi is not None
                        and var.hi - var.lo < TUNING.split_range):
                    sizes[v] = var.hi - var.lo + 1
            if not sizes:
                return None
            pins.append(min(sizes, key=lambda v: (sizes[v], v)))
    ranges = [range(q.ctx.vars[v].lo, q.ctx.vars[v].hi + 1) for v in pins]
    return (pins, ranges) if prod(len(r) for r in ranges) <= TUNING.split_cases else None


def _case_split(q: Query, query: list, plan, seconds: float):
    """``query`` decided by one linear query per assignment of ``plan``'s variables (``_split_plan``),
    in lexicographic order, in one fresh Z3 context of its own (``_fresh_check`` says why).  The pinned variables'
    ranges are asserted in ``query`` (``relevant`` keeps every range of a variable it mentions), so
    the cases cover every model: all unsat is a proof, a sat case a counterexample.  Returns
    ``(solver, answer, model)``: for sat, a main-context solver holding the query and that case's pins
    (for minimisation and --smt2/--recheck) and the case's model translated into the main context;
    for unsat, a solver holding the whole query and no model; ``(None, unknown, None)`` when some
    case is undecided and none is sat."""
    pins, ranges = plan
    deadline = time.perf_counter() + seconds
    fresh = _Fresh(query)  # one context for every case (a translation per case would cost more)
    undecided = False
    for values in itertools.product(*ranges):
        left = deadline - time.perf_counter()
        if left <= 0.001:
            return None, z3.unknown, None
        case = [q.zv[v] == k for v, k in zip(pins, values)]
        r, model = fresh.check(case, left / 2)
        if r == z3.sat:
            main = tactic_solver(max(1, int(left * 1000)))
            add(main, [*query, *case])
            return main, r, model
        undecided |= r == z3.unknown
    if undecided:
        return None, z3.unknown, None
    whole = z3.Solver()
    add(whole, query)
    return whole, z3.unsat, None


def _names(f) -> set[str]:
    """The uninterpreted constants (the solver variables) of the Z3 term ``f`` (walked through Z3's C
    API: z3py's wrapper objects for every subterm cost ~10x more)."""
    ref = f.ctx.ref()
    seen, out, todo = set(), set(), [f.as_ast()]
    while todo:
        a = todo.pop()
        i = z3.Z3_get_ast_id(ref, a)
        if i in seen:
            continue
        seen.add(i)
        kind = z3.Z3_get_ast_kind(ref, a)
        if kind == z3.Z3_QUANTIFIER_AST:
            todo.append(z3.Z3_get_quantifier_body(ref, a))
        if kind != z3.Z3_APP_AST:  # (a numeral, a bound variable)
            continue
        n = z3.Z3_get_app_num_args(ref, a)
        if n:
            todo.extend(z3.Z3_get_app_arg(ref, a, k) for k in range(n))
        else:
            d = z3.Z3_get_app_decl(ref, a)
            if z3.Z3_get_decl_kind(ref, d) == z3.Z3_OP_UNINTERPRETED:
                out.add(z3.Z3_get_symbol_string(ref, z3.Z3_get_decl_name(ref, d)))
    return out


def relevant(need: set[str], background: list[tuple[object, frozenset]]) -> list[tuple[object, frozenset]]:
    """The background constraints connected to the variables ``need`` (a formula's) through shared
    variables.

    Sound because the rest is satisfiable on its own: it bounds variables nothing else
    mentions, defines division digits (always solvable), or states facts about symbols in
    other components, which have a model (``proofs.facts`` decides that first)."""
    # connected components over variables (union-find), then the items in their original order
    parent: dict = {}

    def find(x):
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    for _, vs in background:
        it = iter(vs)
        first = next(it, None)
        if first is None:
            continue
        r = find(first)
        for v in it:
            rv = find(v)
            if rv != r:
                parent[rv] = r
    roots = {find(v) for v in need}
    return [item for item in background if item[1] and find(next(iter(item[1]))) in roots]


def _minimize(solver, q: Query, used: set, model, deadline: float):
    """The smallest symbol values, then coordinates (in order), that still violate: a binary
    search per variable; each step that the solver cannot decide in time keeps the last model."""
    order = [v for v in q.ctx.vars if v in used and _minimizable(q, v)]
    solver.push()
    for name in order:
        model = lowest(solver, q.zv[name], q.ctx.vars[name].lo, model, deadline)
    solver.pop()
    return model


def lowest(solver, x, lo, model, deadline: float | None = None):
    """The model with the smallest value of ``x`` (not below ``lo``) that the solver finds by binary
    search, each step within what is left of ``deadline`` (a step it cannot decide keeps the last
    model); then ``x`` is fixed there in ``solver``."""
    best = model.eval(x, model_completion=True).as_long()
    while lo is not None and lo < best:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            break
        mid = (lo + best) // 2
        solver.push()
        solver.add(x <= mid)
        if left is not None:
            solver.set(timeout=max(1, int(min(left, 0.5) * 1000)))
        if solver.check() == z3.sat:
            model = solver.model()
            best = model.eval(x, model_completion=True).as_long()
        else:
            lo = mid + 1
        solver.pop()
    solver.add(x == best)
    return model


def _minimizable(q: Query, name: str) -> bool:
    """Symbols (and their CTA copies) and canonical coordinates, not division digits."""
    return "~" not in name and "." not in name


def _complete(q: Query, env: dict, used: set, facts, values: dict | None = None) -> None:
    """Values for the variables the solver did not see: symbols from the facts' own model (they
    lie in other components, so together with the solver's they satisfy every fact), or from
    ``values`` (symbol name -> value) when given, the rest 0."""
    sym = values if values is not None else facts.model if facts is not None and facts.status == "sat" else {}
    for s in q.check.symbols.values():
        for p in [q.symbols[s.name], *(c[s.name] for c in q.cta_copies.values())]:
            (var,) = p.variables() if p.variables() else (None,)
            if var is None or var in env:
                continue
            value = sym.get(s.name, s.min)
            env[var] = value // s.multiple_of if s.multiple_of > 1 else value
    for n in q.ctx.vars:
        env.setdefault(n, 0)
