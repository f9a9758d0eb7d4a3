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

PROVED, REFUTED, UNKNOWN, SKIPPED = "proved", "refuted", "unknown", "skipped"


@dataclass
class Violation:
    formula: object  # z3.BoolRef
    explain: Callable[[Witness], "tuple[str, dict] | None"]


@dataclass
class Outcome:
    name: str
    status: str
    seconds: float = 0.0
    message: str | None = None
    counterexample: dict | None = None

    def to_json(self) -> dict:
        out = {"name": self.name, "status": self.status, "seconds": round(self.seconds, 6)}
        if self.message is not None:
            out["message"] = self.message
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample
        return out


def static(ok: bool, message: str, counterexample: dict | None = None) -> Violation:
    """A fact of the input that needs no coordinates (still decided through the solver)."""
    return Violation(z3.BoolVal(not ok), lambda w: (message, counterexample or {}))


def decide(name: str, obligation, check, apply, timeout_s: float, recorder=None) -> Outcome:
    start = time.perf_counter()
    q = Query(check, apply)
    v: Violation = obligation(q)
    solver = z3.Solver()
    solver.set(timeout=max(1, int(timeout_s * 1000)))
    solver.add(v.formula)
    solver.add(*q.background())
    r = solver.check()
    if recorder is not None:  # --smt2 / --recheck: export the query, let cvc5 decide it (proofs/smt2.py)
        recorder.observe(name, apply.index, check, solver, r)
    if r == z3.unsat:
        return Outcome(name, PROVED, time.perf_counter() - start)
    if r == z3.unknown:
        reason = solver.reason_unknown()
        why = "timed out" if "timeout" in reason or "canceled" in reason else f"solver gave up ({reason})"
        return Outcome(name, UNKNOWN, time.perf_counter() - start, f"{name} unknown: {why} after {timeout_s:g} s")
    model = solver.model()
    env = {n: model.eval(var, model_completion=True).as_long() for n, var in q.zv.items()}
    for n in q.ctx.vars:
        env.setdefault(n, 0)
    explained = v.explain(Witness(q, env))
    if explained is None:
        return Outcome(name, UNKNOWN, time.perf_counter() - start,
                       f"{name} unknown: the solver's counterexample did not replay on the concrete semantics "
                       "(internal error, please report)")
    message, cex = explained
    return Outcome(name, REFUTED, time.perf_counter() - start, f"{name} refuted: {message}", cex)
