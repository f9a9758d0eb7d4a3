"""The maximum of a symbolic bank or sector count by the residue rule's levels (``warp.decide``'s
``by_levels``): the count is a function of the residue combination, so the largest bad combination
that the solver finds reachable is the maximum -- exact, where a search over the lanes' count ran
out of its 0.25 s ("at least N").  And ``warp._bad_formula`` does not list millions of rows for a
form that cannot be short enough."""
from pathlib import Path

import tilecheck
from tilecheck import decide
from tilecheck.proofs import warp
from tilecheck.report import prove

DATA = Path(__file__).parent / "data"


def _sectors(check):
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "sectors"]
    return o


def test_the_largest_reachable_level_is_the_exact_maximum(monkeypatch):
    """At the smallest n (0) the lanes touch 3 sectors; 4 from n % 32 >= 3 on.  The counterexample
    stays at n = 0 (its own 3 sectors) and the count is the maximum, 4, exact, reached from n = 3 on: the
    decider's largest over n in [0, 64) is 4 as well, first at n = 3, and it finds 3 at n = 0."""
    monkeypatch.setattr(warp, "MAXIMUM_SEARCH_S", 10.0)  # verdicts, not time: a loaded machine is slow
    monkeypatch.setattr(warp, "WORST_MINIMIZE_S", 10.0)
    check = tilecheck.load(DATA / "banks" / "sectors_levels_stride3.toml")
    o = _sectors(check)
    assert o.status == "refuted", o.message
    cex = o.counterexample
    assert cex["symbols"] == {"n": 0} and cex["sectors"] == 3
    assert cex["exact"] is True and cex["count"] == 4 and o.count == 4, o.message
    worst = cex["worst_symbols"]  # where the maximum is reached, counted there by the decider
    assert decide.count(check, 0, "sectors", worst) == 4 and f"reached at n={worst['n']}" in o.message
    assert decide.violation_at(check, 0, "sectors", cex) is None
    counts = [decide.decide(check, [{"n": n}])[0]["sectors"][1]["count"] for n in range(64)]
    assert max(counts) == 4 and counts[0] == 3
    assert worst == {"n": counts.index(4)}  # the smallest n where the maximum is reached (3)


def test_a_level_is_claimed_only_when_its_point_counts_it():
    """``maximum_by_levels``: from the top, an unreachable level (unsat, or no combination: True) is
    passed; the first satisfiable one is the maximum only when its model counts exactly that level;
    otherwise, or undecided, or out of time, no claim."""
    import time

    import z3
    far = time.perf_counter() + 60

    def run(answers, c=3, levels=(3, 4, 5, 6), deadline=far):
        asked = []

        def formula_at(level, left):
            asked.append(level)
            return True if answers[level] is True else level

        def decide_level(f, left):
            r, count = answers[f]
            return r, None if count is None else (count, {"n": f})
        return warp.maximum_by_levels(list(levels), c, deadline, formula_at, decide_level), asked

    sat, unsat, unknown = z3.sat, z3.unsat, z3.unknown
    assert run({6: True, 5: (unsat, None), 4: (sat, 4)}) == (((4, {"n": 4}), True), [6, 5, 4])
    assert run({6: True, 5: (unsat, None), 4: (unsat, None)}) == (((3, None), True), [6, 5, 4])  # c is it
    assert run({6: (sat, 5), 5: (sat, 5), 4: (sat, 4)})[0] == (None, False)  # counts 5 at level 6: no claim
    assert run({6: (sat, None), 5: (sat, 5), 4: (sat, 4)})[0] == (None, False)  # not over the bound there
    assert run({6: (unknown, None), 5: (sat, 5), 4: (sat, 4)})[0] == (None, False)
    assert run({6: (sat, 6)}, deadline=time.perf_counter() - 1)[0] == (None, False)
    assert run({}, c=6)[0] == ((6, None), True)  # no level above c


def test_a_run_form_that_cannot_be_short_is_not_made(monkeypatch):
    """Seed 7 (--swizzled): 7,168 bad combinations, each with 146 assignments of the variables'
    residues: 1,048,576 rows, which every run form listed (6.5 s) before finding each over
    ``FORMULA_ATOMS``.  A run form of a term with ``k`` values has at least ``rows / k`` groups: none is
    made, no formula (None), and the rows are never listed; the refutation stands as before."""
    listed = []
    real = warp._by_runs
    monkeypatch.setattr(warp, "_by_runs", lambda rows, j: listed.append(len(rows)) or real(rows, j))
    check = tilecheck.load(DATA / "banks" / "seed7_long_run_forms.toml")
    o = _sectors(check)
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "sectors", o.counterexample) is None
    assert all(n <= 1 << 16 for n in listed), listed


def test_a_congruence_fact_keeps_only_its_residues(monkeypatch):
    """Seed 6: ``s % 16 == 0`` as a fact (not ``multiple_of``): the residue table took every ``s mod 1024``
    (27,194 combinations, 4 bases: over the limit, no residue decision, unknown at 1 s).  The fact's
    remainder digit is pinned at 0, so only the 64 multiples of 16 are residues ``s`` can have: the
    table fits, banks is refuted by the residue rule, and the decider replays the counterexample."""
    from tilecheck.encode import Query
    path = DATA / "banks" / "seed6_residues_under_a_congruence_fact.toml"
    check = tilecheck.load(path)
    q = Query(check, check.applies[0])
    assert warp._congruent(q, "s", range(1024), 1024) == list(range(0, 1024, 16))
    assert warp._congruent(q, "s", range(40, 70), 0) == [48, 64]  # its own values
    assert warp._congruent(q, "n", range(8), 8) == range(8)  # no fact about n
    decided = []
    real = warp._by_residue
    monkeypatch.setattr(warp, "_by_residue", lambda *a, **k: decided.append(real(*a, **k)) or decided[-1])
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert decided and decided[0] is not None and decided[0] is not True
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "banks", o.counterexample) is None


def test_residue_combinations_are_counted_before_they_are_made():
    """Seed 203 (--swizzled): with ``P``'s residue any of m = 16,384, the combinations with the classes'
    residues were made as a dict before their count was compared with the limit (a worker took 24 GB
    and was killed).  In a process limited to 2 GB of address space the file is decided (banks refuted,
    a performance report: exit 0), no MemoryError."""
    import resource
    import subprocess
    import sys

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    path = DATA / "banks" / "seed203_combinations_counted_before_made.toml"
    run = subprocess.run([sys.executable, "-m", "tilecheck", "prove", str(path)], capture_output=True, text=True,
                         preexec_fn=limit, timeout=300)
    assert "MemoryError" not in run.stderr and run.returncode == 0, run.stderr[-2000:]  # (banks: not blocking)
    assert "banks       refuted" in run.stdout
