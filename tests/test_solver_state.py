"""Z3's default solver leaves process-wide state behind: after ``z3.Solver()`` (the ``qfnia``
tactic) decides a nonlinear facts query, later nonlinear queries of any context can take
100-400x longer, for the rest of the process (z3 5.0 and 5.4 alike; found when a fuzz campaign's
worker answered unknown on a case that a fresh process decides in 3 ms).  tilecheck decides the
facts, the injectivity chain and every first attempt with ``runner.tactic_solver`` instead, which
neither leaves that state nor suffers from it.  Each check runs in a fresh interpreter: the test
process's own history is not part of the experiment."""
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

DATA = Path(__file__).parent / "data" / "solver_state"

SCRIPT = r"""
import json, sys, tilecheck
out = []
for path in sys.argv[1:]:
    report = tilecheck.prove(tilecheck.load(path), timeout=2)
    out.append({o.name: o.status for o in report.applies[0].obligations})
print(json.dumps(out))
"""


def _prove_in_order(*paths) -> list[dict]:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, *map(str, paths)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_chain_is_proved_after_the_facts_that_used_to_spoil_the_solver():
    first, second = _prove_in_order(DATA / "facts_qfnia.toml", DATA / "chain_after_qfnia.toml")
    assert "unknown" not in first.values(), first
    assert second["disjoint"] == "proved", second


def test_the_chain_alone_is_proved():
    (alone,) = _prove_in_order(DATA / "chain_after_qfnia.toml")
    assert alone["disjoint"] == "proved", alone


def test_an_unknown_first_attempt_is_tried_again_at_the_facts_model():
    """disjoint is violated at s = 0 (every lane stores to one word): the unpinned query is slow on
    both z3 ends, the query with the symbols pinned to the facts' model is linear and sat."""
    import tilecheck
    from tilecheck import decide
    check = tilecheck.load(DATA / "disjoint_at_facts_model.toml")
    (o,) = [o for o in tilecheck.prove(check, timeout=2).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "refuted", o.message
    assert o.counterexample["first"]["symbols"] == {"s": 0, "s2": 4}
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None


def test_two_ctas_are_told_apart_by_the_range_the_facts_prove_for_their_symbol():
    """Each CTA's r' is a digit of the injectivity chain over [0, 1] (the facts: r + 1 <= n, n = 8),
    not its declared [0, 16]: proved at once (was unknown after 20 s), and the decider agrees."""
    import tilecheck
    from tilecheck import decide
    from tilecheck.encode import Query
    from tilecheck.proofs import injective
    check = tilecheck.load(DATA / "grid_disjoint_facts_bound_r.toml")
    (o,) = [o for o in tilecheck.prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "proved", o.message
    assert decide.decide(check)[0]["disjoint"][0] == "proved"
    q = Query(check, check.applies[0])
    assert injective._proved_range(q, "r'", 0, 16) == (0, 1)


def test_without_that_fact_the_lemma_does_not_apply_and_the_collision_is_refuted():
    """Without r + 1 <= n, r' spans [0, 16] and CTAs r = 0 and r = 8 collide: refuted, and the
    counterexample (two CTAs) replays on the concrete semantics."""
    import tilecheck
    from tilecheck import decide
    check = tilecheck.load(DATA / "grid_disjoint_collides.toml")
    (o,) = [o for o in tilecheck.prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None
    assert o.counterexample["first"]["symbols"]["r"] != o.counterexample["second"]["symbols"]["r"]


def _disjoint_refuted_without(monkeypatch, name: str, fast) -> dict:
    """disjoint of the file ``name`` decided with the runner's unpinned first attempts (the main and
    the fresh context) replaced by ``fast`` and no general solver, at a 40 s budget (each pinned point gets 2-4 s, where it needs
    ~0.07 s alone: a loaded CI worker, where one took over 0.5 s with z3 5.0.0, does not turn this
    into a test of speed): refuted, the counterexample replayed; its first symbols."""
    import tilecheck
    from tilecheck import decide
    from tilecheck.proofs import disjoint, facts, runner

    def general(*_):
        raise AssertionError("the general solver was asked")

    check = tilecheck.load(DATA / name)
    known = facts.decide(check, 2)
    monkeypatch.setattr(runner, "fast_solver", fast)

    def fresh(query, seconds, *_):  # the unpinned query in a fresh context: ``fast`` too
        solver = fast(seconds)
        runner.add(solver, query)
        r = solver.check()
        return r, solver.model() if r == runner.z3.sat else None
    monkeypatch.setattr(runner, "_fresh_check", fresh)
    monkeypatch.setattr(runner, "general_solver", general)
    o = runner.decide("disjoint", disjoint.violation, check, check.applies[0], 40, known)
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None
    return o.counterexample["first"]["symbols"]


def test_a_symbolic_refutation_at_the_facts_model_needs_no_unpinned_query(monkeypatch):
    """The query with the symbols pinned to the facts' smallest model is asked first (a tenth of the
    budget): here it is sat (s = 0: every column collides), so the unpinned query, which Z3 5.4.1
    needed 1-5 s for, is never asked; the counterexample is at the smallest symbols and replays."""
    def unpinned(*_):
        raise AssertionError("the unpinned query was asked")

    assert _disjoint_refuted_without(monkeypatch, "disjoint_pinned_first.toml", unpinned) == {"s": 0, "s2": 4}


def test_the_points_next_to_the_facts_model_are_the_next_values_of_each_symbol():
    """For each symbol in turn, its next two allowed values (the symbols before it at the model's),
    the symbols after it as small as the facts allow (s2 >= 2*s)."""
    import tilecheck
    from tilecheck.proofs import facts
    known = facts.decide(tilecheck.load(DATA / "disjoint_next_to_model.toml"), 2)
    assert known.model == {"s": 16, "s2": 32}
    assert known.neighbours() == [{"s": 32, "s2": 64}, {"s": 48, "s2": 96}, {"s": 16, "s2": 33}, {"s": 16, "s2": 34}]


def test_a_refutation_next_to_the_facts_model_is_found_when_the_unpinned_query_is_undecided(monkeypatch):
    """The stores collide at s = 32, s2 = 64, not at the facts' model: with the unpinned query
    undecided (1 ms) and no general solver, the neighbours find it, minimal and replayed."""
    from tilecheck.proofs import runner
    found = _disjoint_refuted_without(monkeypatch, "disjoint_next_to_model.toml", lambda *_: runner.tactic_solver(1))
    assert found == {"s": 32, "s2": 64}


def test_a_cta_digit_bounded_by_another_symbol_counts_by_its_actual_difference():
    """r + 1 <= 3*n with n unbounded: r' = r/8 spans 0..131072 as proved alone, which breaks the chain
    below the 6*n stride; counted by |r' - r'@b| under both copies' facts (16*|Δr'| <= 6*n - 2) the chain
    holds in another order, the lemma is proved, and so is disjoint (the decider agrees)."""
    import tilecheck
    from tilecheck import decide
    from tilecheck.encode import Query
    from tilecheck.proofs import disjoint, facts, injective, runner
    check = tilecheck.load(DATA / "grid_disjoint_span_by_symbol.toml")
    calls = []
    real = injective._across
    q = Query(check, check.applies[0])
    q.facts = facts.decide(check, 2)
    try:
        injective._across = lambda *a: calls.append(real(*a)) or calls[-1]
        disjoint.violation(q)
    finally:
        injective._across = real
    assert calls and calls[-1], "the chain across CTAs was not proved"
    o = runner.decide("disjoint", disjoint.violation, check, check.applies[0], 10, facts.decide(check, 2))
    assert o.status == "proved", o.message
    assert decide.decide(check)[0]["disjoint"][0] == "proved"


def test_with_a_wider_cta_range_the_ctas_collide_and_it_is_refuted():
    """r + 1 <= 4*n: CTAs r = 0 and r = 24 (n = 8) store to one word across the 6*n stride."""
    import tilecheck
    from tilecheck import decide
    check = tilecheck.load(DATA / "grid_disjoint_span_collides.toml")
    o = tilecheck.prove(check, timeout=10).applies[0].obligation("disjoint")
    assert o.status == "refuted", o.message
    assert o.counterexample["first"]["symbols"]["r"] != o.counterexample["second"]["symbols"]["r"]
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None


def _in_bounds_calls(monkeypatch) -> list:
    from tilecheck.proofs import injective
    calls, real = [], injective.in_bounds
    monkeypatch.setattr(injective, "in_bounds", lambda *a: calls.append(real(*a)) or calls[-1])
    return calls


def test_a_guarded_store_whose_chain_needs_the_guard_is_proved_like_the_decider(monkeypatch):
    """The view's own digits are injective only for guarded-in columns (a 4-wide slice of a ragged k):
    the lemma over the tensor's axes (``injective.in_bounds``: (n, k):(k, 1) is injective on its domain)
    gives equal indices; proved, as the decider (0.5-0.9 s and a campaign unknown without it)."""
    import tilecheck
    from tilecheck import decide
    calls = _in_bounds_calls(monkeypatch)
    check = tilecheck.load(DATA / "guarded_disjoint_needs_guard.toml")
    assert tilecheck.prove(check, timeout=10).applies[0].obligation("disjoint").status == "proved"
    assert calls and len(calls[-1]) == 2, "the in-bounds lemma (one equality per axis) was not proved"
    assert decide.decide(check)[0]["disjoint"][0] == "proved"


def test_a_layout_that_overlaps_its_own_rows_gets_no_in_bounds_lemma_and_is_refuted(monkeypatch):
    """(n, k):(2, 1) with k up to 65: two in-bounds elements share an offset, so the chain is not proved,
    no lemma is added, and the collision is found; its counterexample replays on the decider."""
    import tilecheck
    from tilecheck import decide
    calls = _in_bounds_calls(monkeypatch)
    check = tilecheck.load(DATA / "guarded_disjoint_overlapping_rows.toml")
    o = tilecheck.prove(check, timeout=10).applies[0].obligation("disjoint")
    assert calls and calls[-1] == []
    assert o.status == "refuted", o.message
    assert decide.decide(check)[0]["disjoint"][0] == "refuted"
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None


def test_no_neighbours_without_a_model():
    """A smallest model not found in time (empty) gives no points, not an error."""
    import tilecheck
    from tilecheck.proofs import facts
    known = facts.decide(tilecheck.load(DATA / "disjoint_next_to_model.toml"), 2)
    known._model = {}
    assert known.neighbours() == []


def test_a_split_far_from_the_smallest_symbols_is_refuted_by_the_case_split(monkeypatch):
    """The rows of this swizzled ldmatrix split only where row*n reaches the swizzle's bits 10-12 with
    an odd c (n >= 160): unknown even at 10 s before the case split; pinning the row digits (a few
    values each) makes each case linear, and one case is sat.  The counterexample replays on the decider.
    (Since ``swizzle.by_residue``, the residues find it before any query; they are off here.)"""
    import tilecheck
    from tilecheck import decide
    from tilecheck.proofs import runner
    answers, real = [], runner._case_split

    def split(*args):
        out = real(*args)
        answers.append(out[1])
        return out
    monkeypatch.setattr(runner, "_case_split", split)
    from tilecheck.proofs import swizzle  # the smallest refutation by residues finds it first: off here
    monkeypatch.setattr(swizzle, "by_residue", lambda *a, **k: (lambda: None))
    check = tilecheck.load(DATA / "swizzled_rows_split_far.toml")
    assert decide.decide(check)[0]["contiguity"][0] == "refuted"
    # (30 s, not 10: the split's share of the budget; under a loaded 2-core suite 10 s once left it no time,
    # and a later stage found the refutation instead.  Alone it takes about a second.)
    o = tilecheck.prove(check, timeout=30).applies[0].obligation("contiguity")
    assert o.status == "refuted", o.message
    assert runner.z3.sat in answers, "the case split did not find it"
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None


class _Var:
    def __init__(self, name, lo, hi):
        self.name, self.lo, self.hi = name, lo, hi


class _Query:
    """What the case split reads of a Query: the variables' ranges, their Z3 constants, and the
    nonlinear monomials its terms were made with."""

    def __init__(self, nonlinear=(), **ranges):
        import z3

        class Ctx:
            vars = {n: _Var(n, lo, hi) for n, (lo, hi) in ranges.items()}
            eqs, rels = [], []
        self.ctx, self.zv, self.nonlinear = Ctx, {n: z3.Int(n) for n in ranges}, set(nonlinear)


def test_the_case_split_pins_the_small_digit_of_each_product_and_covers_its_range():
    import z3
    from tilecheck.proofs import runner
    q = _Query({("n", "x")}, x=(0, 3), n=(1, None), y=(0, None))
    x, n, y = (q.zv[v] for v in "xny")
    ranges = [x >= 0, x <= 3, n >= 1, y >= 0]
    plan = runner._split_plan(q, {"x", "n", "y"})
    assert plan == (["x"], [range(0, 4)])
    # 2*x*n is even, 4*y + 1 odd: every case is unsat, and the split says so (a proof)
    solver, answer, model = runner._case_split(q, [2 * x * n == 4 * y + 1, *ranges], plan, 5)
    assert answer == z3.unsat and model is None
    # x*n == 9 with n <= 3, x in 0..3: only x = 3, n = 3; the sat case's model satisfies the query
    solver, answer, m = runner._case_split(q, [x * n == 9, n <= 3, *ranges], plan, 5)
    assert answer == z3.sat and m.ctx == z3.main_ctx()
    assert m.eval(x).as_long() * m.eval(n).as_long() == 9 and m.eval(n).as_long() <= 3
    # a monomial over a variable the query does not use is no reason to split
    assert runner._split_plan(q, {"n", "y"}) is None


def test_no_case_split_for_a_product_of_unbounded_or_wide_variables():
    from tilecheck.proofs import runner
    assert runner._split_plan(_Query({("m", "n")}, n=(1, None), m=(1, None)), {"n", "m"}) is None
    assert runner._split_plan(_Query({("n", "w")}, n=(1, None), w=(0, 1023)), {"n", "w"}) is None  # 1,024 values
    assert runner._split_plan(_Query((), n=(1, None), m=(1, None)), {"n", "m"}) is None  # linear
    # x*x*n: x pinned once leaves n free; two small digits and a symbol: both digits pinned
    plan = runner._split_plan(_Query({("n", "x", "y")}, x=(0, 1), y=(0, 3), n=(0, None)), {"n", "x", "y"})
    assert plan is not None and sorted(plan[0]) == ["x", "y"]


def test_a_fresh_context_decides_the_query_and_its_model_is_one_of_the_main_context():
    import z3
    from tilecheck.proofs import runner
    x, y = z3.Ints("fresh_x fresh_y")
    r, model = runner._fresh_check([x * y == 12, x > 3, y > 1], 5)
    assert r == z3.sat and model.ctx == z3.main_ctx()
    assert model.eval(x).as_long() * model.eval(y).as_long() == 12 and model.eval(x).as_long() > 3
    assert runner._fresh_check([x * x == 2], 5) == (z3.unsat, None)


def test_symbolic_queries_decided_in_a_fresh_context_agree_with_the_decider(monkeypatch):
    """With the main context's first attempt cut to 1 ms, every symbolic query that attempt does not
    decide goes to ``_fresh_check``: the verdicts are the decider's, and each counterexample replays."""
    import tilecheck
    from tilecheck import decide
    from tilecheck.proofs import runner
    from tilecheck.proofs import swizzle
    calls, real = [], runner._fresh_check
    monkeypatch.setattr(runner, "TUNING", replace(runner.TUNING, main_first_s=0.001))
    # the exact searches that would otherwise decide some of these first (few symbol values, the grid
    # stepped by congruence facts): this test is about the fresh context
    monkeypatch.setattr(runner, "_every_point", lambda *a, **k: None)
    monkeypatch.setattr(swizzle, "STEPPED", 1)
    monkeypatch.setattr(runner, "_fresh_check", lambda *a: calls.append(real(*a)) or calls[-1])
    for path in sorted((Path(__file__).parent / "soundness_cases").glob("*.toml")) + [
            DATA / "guarded_disjoint_overlapping_rows.toml", DATA / "disjoint_next_to_model.toml"]:
        check = tilecheck.load(path)
        if not decide.assignments(check):  # no symbol values in the decider's range (a hard fact)
            continue
        expected = decide.decide(check)
        for i, ar in enumerate(tilecheck.prove(check, timeout=20).applies):
            for o in ar.obligations:
                want = expected[i][o.name][0]
                assert o.status != "unknown" and (o.status == want or "skipped" in (o.status, want)), \
                    (path.name, o.name, o.status, want)
                if o.status == "refuted" and o.counterexample:
                    assert decide.violation_at(check, i, o.name, o.counterexample) is None, (path.name, o.name)
    assert any(r[0] == runner.z3.sat for r in calls) and any(r[0] == runner.z3.unsat for r in calls)
