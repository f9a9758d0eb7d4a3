"""A symbolic refutation at the smallest allowed symbol values (``runner._on_the_grid``): each point of
the symbols' smallest values (their ranges, ``multiple_of`` and ``name % d == e`` facts), in
lexicographic order, pinned and decided; past the facts' model's neighbours (one symbol changed) it
reaches a collision two symbols away.  Held to the brute-force decider, value by value."""
import itertools
from dataclasses import replace
from pathlib import Path

import z3

import tilecheck
from tilecheck import decide
from tilecheck.encode import Query, Witness
from tilecheck.proofs import disjoint, runner
from tilecheck.proofs import facts as _facts

DATA = Path(__file__).parent / "data" / "disjoint"


def _query(check):
    """The disjoint query of the first apply as ``runner.decide`` states it."""
    q = Query(check, check.applies[0])
    q.facts = _facts.decide(check, 10)
    v = disjoint.violation(q)
    mentioned = set(q.zv)
    assertions = [(q.build(c), vs) for c, vs in runner.relevant(mentioned, q.constraints())]
    used = set().union(*(vs for _, vs in assertions)) | mentioned
    return q, v, [v.formula, *(f for f, _ in assertions)], used


def test_seed151s_collision_two_symbols_from_the_model_is_found_on_the_grid(monkeypatch):
    """Seed 151 under z3 5.0.0: ``st.global`` rows ``2*n+1`` apart and a fifth mode of stride ``s``;
    ``s = 24`` is one less than the stride at ``n = 12`` and two stores meet (unknown at 2 s: the
    facts' model is ``s = 4``, its neighbours ``s = 8, 12``).  Every point decided (no per-point
    bound), the first sat one is the decider's first collision, and it replays."""
    monkeypatch.setattr(runner, "TUNING", replace(runner.TUNING, grid_point_s=10.0))
    check = tilecheck.load(DATA / "seed151_two_symbols_from_the_model.toml")
    q, v, query, used = _query(check)
    found = runner._on_the_grid(q, query, used, q.facts, 60.0)
    assert found is not None
    solver, answer, model = found
    assert answer == z3.sat
    env = {n: model.eval(var, model_completion=True).as_long() for n, var in q.zv.items() if n in used}
    w = Witness(q, env)
    assert w.symbols == {"n": 12, "s": 24}
    explained = v.explain(w)
    assert explained is not None
    assert decide.violation_at(check, 0, "disjoint", explained[1]) is None
    first = None
    for n, s in itertools.product(range(12, 75), range(4, 66)):
        env = {"n": n, "s": s}
        if decide.allowed(check, env) and decide.decide(check, [env])[0]["disjoint"][0] == "refuted":
            first = env
            break
    assert first == {"n": 12, "s": 24}


def test_the_grid_steps_by_multiple_of_and_congruence_facts(monkeypatch):
    """The grid's values of a symbol are its smallest allowed by its range, ``multiple_of`` and its
    ``name % d == e`` facts: ``s % 4 == 0`` from 4 gives 4, 8, 12, ...; no point is pinned twice."""
    check = tilecheck.load(DATA / "seed151_two_symbols_from_the_model.toml")
    q, v, query, used = _query(check)
    seen = []
    real = runner._Fresh.check

    def spy(self, extra, seconds):
        seen.append(tuple(str(e) for e in extra))
        return z3.unsat, None  # every point unsat: the whole grid is walked
    monkeypatch.setattr(runner._Fresh, "check", spy)
    assert runner._on_the_grid(q, query, used, q.facts, 60.0) is None
    assert real is not None and len(seen) == len(set(seen)) == 16 * 16 - 1  # less the facts' model
    assert seen[:3] == [("n == 12", "s == 8"), ("n == 12", "s == 12"), ("n == 12", "s == 16")]
    assert ("n == 72", "s == 64") in seen and all("s == 6" != p[1] for p in seen)
