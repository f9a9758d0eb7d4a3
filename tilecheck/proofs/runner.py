"""One runner for every obligation: violation formula -> proved / refuted / unknown.

An obligation is a pure function from a ``Query`` to a ``Violation``: a Z3
formula that is satisfiable exactly when the obligation fails, and a function
that explains a model in the user's words.  unsat is a proof; sat is a
refutation whose witness is replayed on the concrete semantics before it is
reported (a witness that does not replay is an internal inconsistency and is
reported as ``unknown``, never as a verdict); unknown and timeouts stay unknown.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import z3

from ..encode import Query, Witness
from . import modular

from ..verdict import Verdict

PROVED, REFUTED, UNKNOWN, SKIPPED = Verdict.PROVED, Verdict.REFUTED, Verdict.UNKNOWN, Verdict.SKIPPED


@dataclass
class Violation:
    formula: object  # z3.BoolRef
    explain: Callable[[Witness], "tuple[str, dict] | None"]
    static: bool = False  # a fact of the input: formula is a constant, explain needs no witness
    congruence: "tuple | None" = None  # (P, m): the formula is P mod m != 0, decided exactly mod 2^j first
    note: str | None = None  # the message of a proof (registers: the number), None for most
    count: int | None = None  # banks, sectors: the exact count the outcome reports (Outcome.count)
    unknown: str | None = None  # the obligation cannot be decided for this input: the unknown's message
    skipped: str | None = None  # the obligation does not apply to this input (a performance one): why
    searches: bool = False  # explain finds its own (minimal) counterexample: the model is not minimised
    budget: float | None = None  # seconds at most for the search (a performance obligation not required)


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
    q = Query(check, apply, role)
    q.facts = facts  # banks/sectors try the facts' smallest model by enumeration before any query
    q.exporting = recorder is not None  # an exported query states the whole formula (bounds.py)
    v: Violation = obligation(q)
    if v.budget is not None:
        timeout_s = min(timeout_s, v.budget)
    if role is not None:  # one query per memory operand: the recorder names each
        recorder = None if recorder is None else _Named(recorder, role)
    # every Z3 variable of a query is made through q.zv (Query.z), so its names now are those of the
    # formula (a superset at worst, which only adds constraints): no walk over the Z3 term
    mentioned = set(q.zv)
    if v.unknown is not None:
        return Outcome(name, UNKNOWN, time.perf_counter() - start, v.unknown)
    if v.skipped is not None:
        return Outcome(name, SKIPPED, time.perf_counter() - start, v.skipped)
    formula = z3.simplify(v.formula)
    if z3.Z3_get_bool_value(formula.ctx.ref(), formula.as_ast()) == z3.Z3_L_FALSE:  # z3.is_false, without wrappers
        _record(recorder, name, apply, check, v.formula, z3.unsat)
        return Outcome(name, PROVED, time.perf_counter() - start, v.note, count=v.count)
    if v.static:
        _record(recorder, name, apply, check, v.formula, z3.sat)
        message, cex = v.explain(None)
        return Outcome(name, REFUTED, time.perf_counter() - start, f"{name} refuted: {message}", cex, v.count)
    assertions = [(q.build(c), vs) for c, vs in relevant(mentioned, q.constraints())]
    used = set().union(*(vs for _, vs in assertions)) | mentioned
    if facts is not None and used & q.symbol_vars() and not facts.ok:
        return Outcome(name, UNKNOWN, time.perf_counter() - start, f"{name} unknown: {facts.reason}")
    if v.congruence is not None:
        proved, bv = modular.unsat(*v.congruence, q.ctx, max(1, int(timeout_s * 1000)))
        if proved:
            if recorder is not None and bv is not None:  # the bit-vector query is the proof: export it
                recorder.observe(name, apply.index, check, bv, z3.unsat)
            return Outcome(name, PROVED, time.perf_counter() - start)
    solver = fast_solver(timeout_s)
    formulas = [v.formula, *(f for f, _ in assertions)]
    add(solver, formulas)
    r = solver.check()
    fast = None
    if r == z3.unknown and start + timeout_s - time.perf_counter() > 0.001:
        fast, solver = solver, general_solver(formulas, start + timeout_s - time.perf_counter())
        r = solver.check()
    if recorder is not None:  # --smt2 / --recheck: export the query, let cvc5 decide it (proofs/smt2.py);
        # after a fallback, the fast solver's (preprocessed, equisatisfiable) assertions, as always
        recorder.observe(name, apply.index, check, solver if fast is None else general_solver(fast, 1.0), r)
    if r == z3.unsat:
        return Outcome(name, PROVED, time.perf_counter() - start, v.note)
    if r == z3.unknown:
        reason = solver.reason_unknown()
        why = "timed out" if "timeout" in reason or "canceled" in reason else f"solver gave up ({reason})"
        return Outcome(name, UNKNOWN, time.perf_counter() - start, f"{name} unknown: {why} after {timeout_s:g} s")
    model = solver.model()
    if minimize and not v.searches:
        model = _minimize(solver, q, used, model, deadline=start + timeout_s)
    env = {n: model.eval(var, model_completion=True).as_long() for n, var in q.zv.items() if n in used}
    _complete(q, env, used, facts)
    explained = v.explain(Witness(q, env))
    if explained is None:
        return Outcome(name, UNKNOWN, time.perf_counter() - start,
                       f"{name} unknown: the solver's counterexample did not replay on the concrete semantics "
                       "(internal error, please report)")
    message, cex = explained
    return Outcome(name, REFUTED, time.perf_counter() - start, f"{name} refuted: {message}", cex, v.count)


class _Named:
    """A recorder that files a memory operand's query under ``<obligation>-<role>``."""

    def __init__(self, recorder, role: str):
        self.recorder, self.role = recorder, role

    def observe(self, name, *args):
        return self.recorder.observe(f"{name}-{self.role}", *args)


def _record(recorder, name, apply, check, formula, result) -> None:
    """Show the recorder (--smt2 / --recheck) an obligation decided without a search: its query is
    the formula alone (a constant, or one that simplifies to false)."""
    if recorder is not None:
        solver = z3.Solver()
        solver.add(formula)
        recorder.observe(name, apply.index, check, solver, result)


FAST_SHARE = 0.25  # of the budget, for the first attempt
_FAST = None


def fast_solver(timeout_s: float):
    """The first attempt: simplification, Gaussian elimination of the encoding's many defining
    equations (``solve-eqs``), then Z3's SMT core; 2-8x faster than ``z3.Solver()`` on tilecheck's
    queries (measured on 832 fuzz queries, BENCHMARKS.md).  The same decision procedure, only without the general
    solver's portfolio: an ``unknown`` here goes to ``general_solver``."""
    global _FAST
    if _FAST is None:  # a tactic is stateless: made once, each solver is fresh
        _FAST = z3.Then("simplify", "solve-eqs", "smt")
    solver = _FAST.solver()
    solver.set(timeout=max(1, int(timeout_s * FAST_SHARE * 1000)))
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


def general_solver(first, seconds: float):
    """``z3.Solver()`` (with nlsat for nonlinear queries) on ``first`` (the formulas, or a solver's
    assertions), for the rest of the budget.  Pass the formulas after a tactic solver's ``unknown``:
    its ``assertions()`` then may hold only part of them (seen on a guarded sectors query: 17 of 29,
    a model of the part that did not replay)."""
    solver = z3.Solver()
    solver.set(timeout=max(1, int(seconds * 1000)))
    solver.add(*(first if isinstance(first, list) else first.assertions()))
    return solver


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


def _complete(q: Query, env: dict, used: set, facts) -> None:
    """Values for the variables the solver did not see: symbols from the facts' own model (they
    lie in other components, so together with the solver's they satisfy every fact), the rest 0."""
    sym = facts.model if facts is not None and facts.status == "sat" else {}
    for s in q.check.symbols.values():
        for p in [q.symbols[s.name], *(c[s.name] for c in q.cta_copies.values())]:
            (var,) = p.variables() if p.variables() else (None,)
            if var is None or var in env:
                continue
            value = sym.get(s.name, s.min)
            env[var] = value // s.multiple_of if s.multiple_of > 1 else value
    for n in q.ctx.vars:
        env.setdefault(n, 0)
