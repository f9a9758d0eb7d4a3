"""The exact test for the contiguity of swizzled atoms and ldmatrix/stmatrix rows
(``proofs/swizzle.py``): its lemma against the integers, its verdicts against the brute-force
decider, and the seed-13 campaign's slow and unknown cases (``tests/data/swizzled_rows``), each
decided and agreeing with the decider."""
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tilecheck
from tilecheck import decide
from tilecheck.check import from_dict
from tilecheck.encode import Query, Witness
from tilecheck.fuzz.differential import compare
from tilecheck.layout import Swizzle
from tilecheck.proofs import contiguity, smt2, swizzle
from tilecheck.proofs import facts as _facts
from tilecheck.strategies import checks, symbolic_checks, to_toml

ROWS = Path(__file__).parent / "data" / "swizzled_rows"
QUIET = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
SWIZZLES = st.tuples(st.integers(1, 3), st.integers(0, 4), st.integers(0, 4)).map(
    lambda t: Swizzle(t[0], t[1], t[0] + t[2]))


def cute(o: int, sw: Swizzle) -> int:
    """CuTe's swizzle bit by bit (tests/test_swizzle.py's reimplementation)."""
    out = o
    for i in range(sw.bits):
        if (o >> (sw.base + sw.shift + i)) & 1:
            out ^= 1 << (sw.base + i)
    return out


@settings(max_examples=400, **QUIET)
@given(SWIZZLES, st.integers(-2**40, 2**40), st.integers(0, 15))
def test_the_gap_is_zero_exactly_when_its_residue_is(sw, L, k):
    """The two facts the procedure rests on: ``gap mod 2^W`` is the W-bit XOR arithmetic on the
    residues, and ``|gap| < 2^W`` (W = M+S+B+1), so gap == 0 exactly when the residue is 0."""
    W = sw.base + sw.shift + sw.bits + 1
    mod = 1 << W
    gap = cute(L + k, sw) - cute(L, sw) - k
    x = L % mod

    def swz_w(v):
        return (v ^ ((v & sw.yyy_mask) >> sw.shift)) % mod

    assert abs(gap) < mod
    assert gap % mod == (swz_w((x + k) % mod) - swz_w(x) - k) % mod
    assert (gap == 0) == ((swz_w((x + k) % mod) - swz_w(x) - k) % mod == 0)


def _shortcut(check):
    """The contiguity violation's swizzle test for the first apply, and the query it runs on."""
    apply = check.applies[0]
    q = Query(check, apply)
    v = contiguity.violation(q)
    return v.shortcut


@pytest.mark.parametrize("path", sorted(ROWS.glob("*.toml")), ids=lambda p: p.stem)
def test_the_campaigns_slow_and_unknown_rows_are_decided_and_agree_with_the_decider(path):
    check = tilecheck.load(path)
    report = tilecheck.prove(check, timeout=10)
    (o,) = [o for o in report.applies[0].obligations if o.name == "contiguity"]
    assert o.status in ("proved", "refuted"), o.message
    truth = decide.decide(check)[0]["contiguity"]
    if o.status == "refuted":  # the counterexample replays on the concrete semantics
        assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None
    else:  # proved for every value: none in the decider's range violates
        assert truth[0] == "proved", truth
    if not check.symbols:
        assert truth[0] == o.status


@pytest.mark.parametrize("name", ["slowest_stmatrix_x4", "slow_stmatrix_trans_m4", "slow_symbolic_ldmatrix_trans",
                                  "unknown_0", "unknown_1", "unknown_2", "unknown_3", "unknown_5"])
def test_the_residue_test_itself_proves_the_rows_that_were_slow(name):
    """Not the solver's luck on the digits: the two-step test proves them (rows aligned to 8, M >= 3)."""
    check = tilecheck.load(ROWS / f"{name}.toml")
    assert _facts.decide(check, 10).ok
    proved, queries, instead = _shortcut(check)(10.0)
    assert proved and len(queries) == 1 and instead is None


def test_the_residue_test_does_not_prove_a_row_the_swizzle_splits():
    """Sw<3,2,3> XORs bit 2 of a row of 8 with a bit from 5 up: some row is permuted (the solver's
    counterexample replays), and the test, used only in its sound direction, proves nothing."""
    check = tilecheck.load(ROWS / "unknown_4.toml")
    proved, queries, instead = _shortcut(check)(10.0)
    assert not proved and queries == [] and instead is not None  # the plain rows are contiguous
    o = [o for o in tilecheck.prove(check).applies[0].obligations if o.name == "contiguity"][0]
    assert o.status == "refuted" and decide.violation_at(check, 0, "contiguity", o.counterexample) is None


TILE = """
threads = 32
[tensors.S]
dtype = "float16"
scope = "shared"
shape = [16, {cols}]
offset = {offset}
align = 16
layout = "Sw<{B},{M},{S}> o (16,{cols}):({stride},1)"
[tensors.R]
dtype = "float16"
scope = "register"
shape = [16, 8]
layout = "((8,2),(2,4)):((4@laneid,2),(1,1@laneid))"
[[apply]]
opcode = "ldmatrix.sync.aligned.m8n8.x2.shared.b16"
scope = "warp"
dst = "R: (ia=2 g=8) (q=4 j=2) -> (g q) (ia j)"
src = "S[0:16, {c0}:{c0}+8]: (ia=2 g=8) (q=4 j=2) -> (g q) (ia j)"
"""


@settings(max_examples=60, **QUIET)
@given(SWIZZLES, st.sampled_from([8, 12, 16, 24, 40, 64, 72]), st.integers(0, 3), st.sampled_from([0, 2, 4, 8, 16]))
def test_a_sweep_of_swizzled_ldmatrix_tiles_agrees_with_the_decider(sw, stride, c0, offset):
    """Row strides and offsets that keep the plain rows aligned to 8 or not, every swizzle with
    B in 1..3, M in 0..4: Z3's contiguity verdict is the decider's."""
    cols = max(stride, c0 + 8)
    check = tilecheck.loads(TILE.format(B=sw.bits, M=sw.base, S=sw.shift, cols=cols, stride=stride, c0=c0,
                                        offset=offset))
    o = [o for o in tilecheck.prove(check, timeout=10).applies[0].obligations if o.name == "contiguity"][0]
    assert o.status == decide.decide(check)[0]["contiguity"][0], (str(sw), stride, c0, offset, o.message)
    proved, _, _ = _shortcut(check)(10.0)
    if proved:
        assert o.status == "proved"


@settings(max_examples=30, **QUIET)
@given(checks(families=["ldmatrix", "stmatrix", "guard"], swizzled=True))
def test_drawn_swizzled_tiles_agree_with_the_decider(data):
    assert compare(data).problems == [], to_toml(data)


@settings(max_examples=15, **QUIET)
@given(symbolic_checks(families=["ldmatrix", "stmatrix"], swizzled=True))
def test_drawn_symbolic_swizzled_tiles_agree_one_way(data):
    assert compare(data, timeout=5).problems == [], to_toml(data)


# --- refutations of split rows, found at the facts' model without the solver --------------------------

SPLIT = ["refuted_sw334_stride20", "refuted_sw226", "refuted_guarded_atoms", "unknown_4"]


def _violation(check):
    """The contiguity Violation of the first apply, its Query given the facts as the runner does."""
    q = Query(check, check.applies[0])
    q.facts = _facts.decide(check, 10)
    return q, contiguity.violation(q)


def _contiguity(report):
    (o,) = [o for o in report.applies[0].obligations if o.name == "contiguity"]
    return o


def _smallest_by_the_decider(check, cex):
    """The first point (group, repeat, word in order) at the counterexample's symbols that the
    brute-force decider's replay calls a violation, as the counterexample's coordinates."""
    q = Query(check, check.applies[0])
    gnames, rnames = list(cex.get("group", {})), list(cex.get("repeat", {}))
    dims = [*q.group_shape, *q.repeat_shape, q.vector]
    for point in itertools.product(*map(range, dims)):
        g, r, w = point[:len(gnames)], point[len(gnames):-1], point[-1]
        at = {"group": dict(zip(gnames, g)), "repeat": dict(zip(rnames, r)), "word": w}
        if cex.get("symbols"):
            at["symbols"] = cex["symbols"]
        if decide.violation_at(check, 0, "contiguity", at) is None:
            return at
    return None


@pytest.mark.parametrize("name", SPLIT)
def test_a_split_row_is_refuted_at_its_smallest_point_without_the_solver(name):
    """Step 1 holds, step 2 does not: the search at the facts' model finds a point (replayed), and
    the report's counterexample is the decider's first violating point, minimised or not."""
    check = tilecheck.load(ROWS / f"{name}.toml")
    q, v = _violation(check)
    proved, queries, instead = v.shortcut(10.0)
    assert not proved and queries == [] and instead is not None
    env = v.witness()
    assert env is not None and v.explain(Witness(q, env)) is not None
    reports = [_contiguity(tilecheck.prove(check, timeout=10, minimize=m)) for m in (True, False)]
    assert [o.status for o in reports] == ["refuted", "refuted"]
    assert reports[0].counterexample == reports[1].counterexample
    cex = reports[0].counterexample
    assert decide.violation_at(check, 0, "contiguity", cex) is None
    smallest = _smallest_by_the_decider(check, cex)
    assert smallest == {k: cex[k] for k in smallest}
    if check.symbols:  # the facts' model: here every symbol's smallest allowed value
        assert cex["symbols"] == {n: s.min for n, s in check.symbols.items()}


def test_the_guard_is_respected_by_the_search():
    """Lane 0's atom (row -1) is split by the swizzle but guarded out: the first guarded-in one is
    reported, and the search's own first candidate is not lane 0."""
    check = tilecheck.load(ROWS / "refuted_guarded_atoms.toml")
    q, v = _violation(check)
    lane0 = {**v.witness(), "a:lane": 0, "a:repeat0": 0}
    assert any(v.explain(Witness(q, {**lane0, "a:word": k})) is not None for k in range(4))  # split there
    cex = _contiguity(tilecheck.prove(check)).counterexample
    assert cex["group"]["lane"] > 0
    assert decide.violation_at(check, 0, "contiguity", {**cex, "group": {"lane": 0}}) is not None


def test_a_violation_away_from_the_facts_model_is_found_on_the_grid():
    """Rows split only when o is not a multiple of 8: nothing at o = 0 (the facts' model); the
    grid's next value, o = 4, splits them, the smallest such o."""
    check = tilecheck.load(ROWS / "refuted_symbolic_offset.toml")
    _, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None and v.witness()["o'"] == 1  # o's variable o': o = 4*o'
    cex = _contiguity(tilecheck.prove(check, timeout=10)).counterexample
    assert cex["symbols"] == {"o": 4}
    assert decide.violation_at(check, 0, "contiguity", cex) is None
    smallest = _smallest_by_the_decider(check, cex)
    assert smallest == {k: cex[k] for k in smallest}


def test_a_violation_off_the_grid_goes_to_the_solver_and_replays(monkeypatch):
    """With the grid cut to the facts' model alone, the solver refutes; the coordinates are then
    the smallest at the symbols it found."""
    monkeypatch.setattr(swizzle, "GRID", 1)
    monkeypatch.setattr(swizzle, "STEPPED", 1)
    monkeypatch.setattr(swizzle, "RESIDUE_COMBOS", 0)  # no search by residues either
    monkeypatch.setattr(_facts.Facts, "neighbours", lambda self, *a, **k: [])
    check = tilecheck.load(ROWS / "refuted_symbolic_offset.toml")
    _, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None and v.witness() is None
    for minimize in (True, False):
        cex = _contiguity(tilecheck.prove(check, timeout=10, minimize=minimize)).counterexample
        assert cex["symbols"]["o"] % 8 != 0
        assert decide.violation_at(check, 0, "contiguity", cex) is None
        smallest = _smallest_by_the_decider(check, cex)
        assert smallest == {k: cex[k] for k in smallest}


def test_a_violation_next_to_the_facts_model_is_found_by_enumeration(monkeypatch):
    """No violation at the facts' model; one at a point next to it (``Facts.neighbours``), which the
    solver used to find in 0.3-1.1 s (seed 21): the search enumerates those points too, so the
    refutation needs no solver, and it replays."""
    check = tilecheck.load(ROWS / "refuted_next_to_the_model.toml")
    q, v = _violation(check)
    env = v.witness()
    assert env is not None
    symbols = Witness(q, env).symbols
    assert symbols != q.facts.model and symbols in q.facts.neighbours()
    o = _contiguity(tilecheck.prove(check, timeout=10))
    assert o.status == "refuted" and decide.violation_at(check, 0, "contiguity", o.counterexample) is None


def test_a_domain_over_the_search_limit_is_left_to_the_solver(monkeypatch):
    check = tilecheck.load(ROWS / "refuted_sw226.toml")
    monkeypatch.setattr(swizzle, "POINTS", 1)
    monkeypatch.setattr(swizzle, "VECTOR_POINTS", 1)
    _, v = _violation(check)
    assert v.witness() is None
    o = _contiguity(tilecheck.prove(check, timeout=10))
    assert o.status == "refuted" and decide.violation_at(check, 0, "contiguity", o.counterexample) is None


@pytest.mark.skipif(smt2.cvc5_version() is None, reason="the cvc5 package is not installed")
def test_a_refutation_found_by_the_search_is_rechecked_by_cvc5():
    for name in ("refuted_sw334_stride20", "unknown_4"):
        report = tilecheck.prove(tilecheck.load(ROWS / f"{name}.toml"), recheck=True)
        (rec,) = [r for r in report.recheck.records if r.obligation == "contiguity"]
        assert rec.z3 == "sat" and rec.cvc5 == "sat", (rec.cvc5, rec.reason)


def test_rows_split_at_other_symbol_values_are_found_on_the_grid_of_small_values():
    """The facts' model (n=16) splits no row; the grid of each symbol's three smallest values does
    (n=18, o=0), found by enumeration and replayed by the decider, without the solver.  It is the
    smallest in n: the decider finds no split at n=16 for any o over a whole period of the
    swizzle's residues (Sw<3,3,3>: 512 elements)."""
    check = tilecheck.load(ROWS / "grid_stmatrix_trans.toml")
    report = tilecheck.prove(check, timeout=10)
    (o,) = [o for o in report.applies[0].obligations if o.name == "contiguity"]
    assert o.status == "refuted", o.message
    assert o.counterexample["symbols"] == {"n": 18, "o": 0}
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None
    at16 = decide.decide(check, [{"n": 16, "o": o_} for o_ in range(0, 512, 8)])[0]["contiguity"]
    assert at16[0] == "proved", at16
    grid = _facts.small_values(check, swizzle.GRID)
    assert grid[:4] == [{"n": 16, "o": 0}, {"n": 16, "o": 8}, {"n": 16, "o": 16}, {"n": 18, "o": 0}]


def test_atoms_not_contiguous_before_the_swizzle_are_refuted_by_the_search(monkeypatch):
    """Step 1 fails (the plain atom is not contiguous): the search finds the first violating point;
    the violation formula, with the swizzle's digits, never goes to the solver."""
    check = tilecheck.load(ROWS / "concrete_plain_not_contiguous.toml")
    from tilecheck.proofs import runner

    def no_solver(*a, **k):
        raise AssertionError("the violation formula went to the solver")
    with monkeypatch.context() as m:  # runner.decide's own solvers (swizzle.py's step 1 keeps its own)
        m.setattr(runner, "general_solver", no_solver)
        m.setattr(runner, "fast_solver", no_solver)
        o = runner.decide("contiguity", contiguity.violation, check, check.applies[0], 10.0,
                          _facts.decide(check, 10))
    assert o.status == "refuted"
    assert o.counterexample["group"] == {"warp": 0, "lane": 0} and o.counterexample["word"] == 1
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None
    assert decide.decide(check)[0]["contiguity"][0] == "refuted"


def test_a_1024_thread_tile_past_the_point_by_point_limit_is_found_over_the_whole_table():
    """8,192 points (1,024 threads x 2 repeats x 4 words): past the 4,096 points the search explains
    one by one, so the solver used to refute it (0.22 s); the points that can violate, found over the
    whole table at once (``candidates``), give the same first point as the point-by-point search with
    its limit raised, without the solver."""
    check = tilecheck.load(ROWS / "refuted_1024_threads.toml")
    q, v = _violation(check)
    assert not v.shortcut(10.0)[0]
    env = v.witness()
    assert env is not None
    c = q.coords("a")
    assert swizzle.smallest_at_facts_model(q, c.all, v.explain)() is None  # one by one: over the limit
    assert swizzle.smallest_at_facts_model(q, c.all, v.explain, limit=10**5)() == env
    o = _contiguity(tilecheck.prove(check, timeout=10))
    assert o.status == "refuted" and o.counterexample["symbols"] == {"s": 4}
    assert o.counterexample["group"] == {"warp": 1, "lane": 0} and o.counterexample["word"] == 2
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None
    assert _smallest_by_the_decider(check, o.counterexample) == {k: o.counterexample[k]
                                                                  for k in ("group", "repeat", "word", "symbols")}


@settings(max_examples=25, **QUIET)
@given(symbolic_checks(swizzled=True) | checks(swizzled=True))
def test_the_search_over_the_table_finds_the_point_by_point_searchs_point(data):
    """For drawn swizzled tiles whose contiguity goes to the search: the same point (or none) with the
    table of candidates as explaining every point, within the point-by-point limit."""
    check = from_dict(data, "<drawn>")
    for a in check.applies:
        if check.tensors[a.memory.tensor].layout.swizzle is None:
            continue
        q = Query(check, a)
        try:
            q.facts = _facts.decide(check, 10)
        except tilecheck.InputError:  # contradictory facts: no search
            return
        if check.symbols and not q.facts.ok:
            continue
        v = contiguity.violation(q)
        if v.witness is None:
            continue
        c = q.coords("a")
        assert v.witness() == swizzle.smallest_at_facts_model(q, c.all, v.explain, limit=swizzle.POINTS)() \
            or _over(q, c)


def _over(q, c) -> bool:
    """The domain is over the point-by-point limit (only the table search looks there)."""
    n = 1
    for p in c.all:
        for name in p.variables():
            var = q.ctx.vars[name]
            n *= var.hi - var.lo + 1
    return n > swizzle.POINTS


def test_a_split_that_needs_a_later_symbols_next_value_is_found_next_to_the_facts_model():
    """Seed 34 (--swizzled): the atoms split only when ``r3`` (the fifth symbol) is odd; the facts' model
    has r3 = 0 and the grid of small values has no allowed point (s2 >= 4*n2*s).  The search walks the
    points next to the model for every symbol (``Facts.each_neighbour``, made one at a time) and finds
    r3 = 1 with the others at the model's values; the solver left it unknown at 2 s."""
    check = tilecheck.load(ROWS / "refuted_fifth_symbol.toml")
    q, v = _violation(check)
    env = v.witness()
    assert env is not None
    symbols = Witness(q, env).symbols
    assert symbols == {**q.facts.model, "r3": 1} and q.facts.model["r3"] == 0
    o = _contiguity(tilecheck.prove(check, timeout=10))
    assert o.status == "refuted" and o.counterexample["symbols"] == symbols
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None
    smallest = _smallest_by_the_decider(check, o.counterexample)
    assert smallest == {k: o.counterexample[k] for k in smallest}


# --- the smallest refutation by residues (swizzle.by_residue) -----------------------------------------

def _off_the_grid(monkeypatch):
    monkeypatch.setattr(swizzle, "GRID", 1)
    monkeypatch.setattr(swizzle, "STEPPED", 1)
    monkeypatch.setattr(_facts.Facts, "neighbours", lambda self, *a, **k: [])
    monkeypatch.setattr(_facts.Facts, "each_neighbour", lambda self, *a, **k: iter(()))


def test_a_violation_off_the_grid_is_found_by_residues_at_the_smallest_point(monkeypatch):
    """The grid cut to the facts' model: the residues find the refutation without the solver, at the
    brute-force decider's first symbols and, there, its first point.  (The solver's route, its
    minimisation bounded by ``TUNING.minimize_s``, reached o = 12 or 20 instead of 4 under load.)"""
    _off_the_grid(monkeypatch)
    check = tilecheck.load(ROWS / "refuted_symbolic_offset.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    assert env is not None and v.explain(Witness(q, env)) is not None
    cex = _contiguity(tilecheck.prove(check, timeout=10)).counterexample
    assert cex["symbols"] == Witness(q, env).symbols == _first_by_the_decider(check, [("o", range(0, 65, 4))])
    smallest = _smallest_by_the_decider(check, cex)
    assert smallest == {k: cex[k] for k in smallest}


def test_seed_77s_row_split_far_off_the_grid_is_refuted_at_the_smallest_symbols():
    """seed 77: rows split only from s = 44 (r = 8): 3-6.7 s by the solver, unknown at the campaign's
    2 s bound; by residues well inside it.  The decider, symbol value by symbol value, finds no
    violation at any smaller (s, r)."""
    check = tilecheck.load(ROWS / "seed77_trans_off_the_grid.toml")
    o = _contiguity(tilecheck.prove(check, timeout=2))
    assert o.status == "refuted", o.message
    cex = o.counterexample
    assert cex["symbols"] == {"s": 44, "r": 8, "c": 0}
    assert decide.violation_at(check, 0, "contiguity", cex) is None
    assert _smallest_by_the_decider(check, cex) == {k: cex[k] for k in _smallest_by_the_decider(check, cex)}
    assert _first_by_the_decider(check, [("s", range(16, 45, 4)), ("r", range(0, 9, 2)), ("c", [0])]) \
        == {"s": 44, "r": 8, "c": 0}


def _first_by_the_decider(check, axes):
    """The lexicographically first symbol values (``axes``: each symbol's values in order) at which the
    brute-force decider finds a contiguity violation, None if none."""
    for values in itertools.product(*(v for _, v in axes)):
        env = dict(zip((n for n, _ in axes), values))
        if not decide.allowed(check, env):
            continue
        first = decide._first_violation(decide.Operands(check, check.applies[0], env), "contiguity")
        assert first is not decide._SCALAR
        if first is not None:
            return env
    return None


RESIDUE_ROWS = """
threads = 32
[symbols.s]
min = {smin}
max = {smax}
multiple_of = {mult}
[symbols.r]
min = 0
max = 8
multiple_of = 2
[tensors.S]
dtype = "float16"
scope = "shared"
shape = [32, 64]
align = 16
layout = "{sw} o (32,64):(s,1)"
[tensors.R]
dtype = "float16"
scope = "register"
shape = [16, 8]
layout = "((8,2),(2,4)):((4@laneid,2),(1,1@laneid))"
[[apply]]
opcode = "ldmatrix.sync.aligned.m8n8.x2.shared.b16"
scope = "warp"
dst = "R: (ia=2 g=8) (q=4 j=2) -> (g q) (ia j)"
src = "S[r:r+16, 0:8]: (ia=2 g=8) (q=4 j=2) -> (g q) (ia j)"
"""


@pytest.mark.parametrize("sw,mult,smin", [
    ("Sw<1,3,3>", 2, 8), ("Sw<2,3,3>", 4, 16), ("Sw<1,3,4>", 4, 8), ("Sw<3,3,3>", 2, 64), ("Sw<1,2,4>", 2, 8),
    ("Sw<2,3,4>", 8, 8), ("Sw<1,3,3>", 2, 130), ("Sw<2,3,3>", 4, 260), ("Sw<1,4,3>", 2, 1002),
])
def test_residues_find_the_decider_s_first_symbols(monkeypatch, sw, mult, smin):
    """Rows of a symbolic stride ``s`` (its range longer than the residues' period 2^T/g, so the
    classes are lifted) and start ``r``, with the grid cut to the facts' model: the residues' first
    symbols are the brute-force decider's lexicographically first (none: the obligation is proved),
    and the report agrees."""
    _off_the_grid(monkeypatch)
    smax = smin + 152
    check = from_dict(__import__("tomllib").loads(
        RESIDUE_ROWS.format(sw=sw, mult=mult, smin=smin, smax=smax)))
    expected = _first_by_the_decider(check, [("s", range(smin, smax + 1, mult)), ("r", range(0, 9, 2))])
    q, v = _violation(check)
    proved, _, instead = v.shortcut(10.0)
    o = _contiguity(tilecheck.prove(check, timeout=10))
    if expected is None:
        assert proved and o.status == "proved"
        return
    assert not proved and instead is not None  # the plain rows are contiguous: only the swizzle splits
    env = v.witness()
    assert env is not None and Witness(q, env).symbols == expected
    assert o.status == "refuted" and o.counterexample["symbols"] == expected


def test_a_splitting_value_the_facts_rule_out_is_skipped_for_the_next_one():
    """Seed 92 (--swizzled): ``o`` in [0, 2^20] with ``o % 2 == 0`` (an assume, not a multiple_of): the
    first splitting residue is 125, which the fact rules out; with one variable every other member of
    its class comes after every candidate, so the next splitting value, 126, is the smallest allowed
    (the decider agrees value by value).  The solver took 1.0-1.7 s here."""
    check = tilecheck.load(ROWS / "seed92_candidate_ruled_out_by_a_fact.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None and v.witness() is not None
    o = _contiguity(tilecheck.prove(check, timeout=2))
    assert o.status == "refuted" and o.counterexample["symbols"] == {"o": 126}
    assert _first_by_the_decider(check, [("o", range(0, 200))]) == {"o": 126}
    smallest = _smallest_by_the_decider(check, o.counterexample)  # thread scope: no group in the report
    assert smallest == {"group": {}, **{k: o.counterexample[k] for k in smallest if k != "group"}}


def _first_with_interval(check, ns, rs):
    """The decider's lexicographically first (n, r, c) with c over its whole allowed interval."""
    for n in ns:
        for r in rs:
            found = _first_by_the_decider(check, [("n", [n]), ("r", [r]), ("c", range(0, n - 15))])
            if found is not None:
                return found
    return None


def test_too_many_classes_leading_values_then_the_last_variable_solved_for():
    """Seed 101: rows at ``n*(r+i) + c + j`` with ``n`` and ``c`` unbounded (8,192 residues each: too
    many classes); ``n`` and ``r`` by value, ``c`` solved for in the interval its fact
    ``c + 16 <= n`` leaves: the smallest splitting symbols, as the decider finds them value by value.
    The solver could not decide it in 30 s."""
    check = tilecheck.load(ROWS / "seed101_leading_values_then_last.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    assert env is not None and Witness(q, env).symbols == {"n": 43, "r": 8, "c": 20}
    assert _first_with_interval(check, range(20, 44), (0, 8)) == {"n": 43, "r": 8, "c": 20}
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and o.counterexample["symbols"] == {"n": 43, "r": 8, "c": 20}
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None


@pytest.mark.parametrize("extra,low", [('"c >= 24"', 24), ('"2*c > n + 5"', None), ('"c >= 3*r + 7"', None)])
def test_the_last_variables_interval_from_its_facts_gives_the_deciders_first_symbols(extra, low):
    """Lower bounds on ``c`` from facts that mention the leading variables too: the interval's
    ``alpha`` (a split below it is not allowed; a larger ``c`` inside it may split) agrees with the
    decider value by value."""
    text = (ROWS / "seed101_leading_values_then_last.toml").read_text().replace(
        'assume = ["c + 16 <= n"]', f'assume = ["c + 16 <= n", {extra}]')
    check = from_dict(__import__("tomllib").loads(text))
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    expected = None
    for n in range(20, 120):
        for r in (0, 8):
            expected = _first_by_the_decider(check, [("n", [n]), ("r", [r]), ("c", range(0, n - 15))])
            if expected:
                break
        if expected:
            break
    assert expected is not None and env is not None and Witness(q, env).symbols == expected
    if low is not None:
        assert expected["c"] >= low


def test_a_fact_that_is_not_an_interval_leaves_the_last_variable_to_the_solver(monkeypatch):
    """The same rows with ``c % 2 == 1`` too: the allowed ``c`` are no interval, so nothing is solved
    for (the witness finds nothing there; the solver decides)."""
    _off_the_grid(monkeypatch)
    text = (ROWS / "seed101_leading_values_then_last.toml").read_text().replace(
        'assume = ["c + 16 <= n"]', 'assume = ["c + 16 <= n", "c % 2 == 1"]')
    check = from_dict(__import__("tomllib").loads(text))
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None and swizzle._values_then_last is not None
    calls = []
    real = swizzle._values_then_last
    monkeypatch.setattr(swizzle, "_values_then_last", lambda *a: calls.append(real(*a)) or calls[-1])
    v2 = contiguity.violation(_violation(check)[0])
    v2.shortcut(10.0)
    v2.witness()
    assert calls == [None]


@settings(max_examples=200, **QUIET)
@given(st.integers(1, 9).flatmap(lambda t: st.tuples(st.just(t), st.integers(0, t - 1),
                                                     st.lists(st.booleans(), min_size=1 << t, max_size=1 << t))))
def test_next_bad_start_is_the_fewest_steps(case):
    t, k, bad = case
    import numpy as np
    table, a, mod = np.array(bad, dtype=bool), 1 << k, 1 << t
    got = swizzle._next_bad(table, a)
    for l in range(mod):
        assert got[l] == next((d for d in range(mod) if bad[(l + a * d) % mod]), mod)


def test_a_congruence_fact_rules_out_whole_classes_and_the_first_allowed_split_is_found():
    """Seed 101 (rerun): ``s % 4 == 0`` (an assume) with ``s``'s classes 2,048 apart: every splitting
    ``s`` at ``r = 0`` is odd or 2 mod 4, and the fact rules out its whole class, so the search goes on
    to ``r = 1``: ``(r, s) = (1, 20)``, as the decider finds value by value (over a whole period of
    ``s`` at ``r = 0``).  Unknown at the campaign's 2 s bound before."""
    check = tilecheck.load(ROWS / "seed101_congruence_rules_out_classes.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    assert env is not None and Witness(q, env).symbols == {"r": 1, "s": 20}
    assert _first_by_the_decider(check, [("r", [0]), ("s", range(12, 12 + 2048 + 4, 4))]) is None
    assert _first_by_the_decider(check, [("r", [1]), ("s", range(12, 21))]) == {"r": 1, "s": 20}
    o = _contiguity(tilecheck.prove(check, timeout=2))
    assert o.status == "refuted" and o.counterexample["symbols"] == {"r": 1, "s": 20}
    assert swizzle._class_invariant(q, "s", 2048) == [(1, 4, 0)]
    assert swizzle._class_invariant(q, "s", 2046) is None  # 4 does not divide the step


def test_a_fact_that_ties_the_start_to_an_earlier_symbol_keeps_the_residue_search():
    """Seed 122 (--swizzled): rows at ``s2*(31 - lane)`` with the fact ``s2 >= s``, ``s`` declared first
    (min -16).  ``s`` comes first in the minimisation's order, so its smallest value (the facts' model's)
    is the smallest counterexample's: the residues find ``(s, s2) = (-16, 9)``, the decider's first value
    by value.  Unknown at the campaign's 2 s bound in a fresh process before (the solver's route)."""
    check = tilecheck.load(ROWS / "seed122_tied_to_an_earlier_symbol.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    assert env is not None and Witness(q, env).symbols == {"s": -16, "s2": 9}
    assert _first_by_the_decider(check, [("s", [-16]), ("s2", range(1, 10))]) == {"s": -16, "s2": 9}
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and o.counterexample["symbols"] == {"s": -16, "s2": 9}
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None


@pytest.mark.parametrize("fact", ["s2 >= s", "s >= 4*s2 - 40"])
def test_a_fact_that_ties_the_start_to_a_later_symbol_completes_it_at_its_smallest(monkeypatch, fact):
    """The same rows with ``s`` declared after ``s2`` (which alone is in the start): for each candidate
    ``s2`` the later ``s`` is completed at its smallest value the facts allow with it
    (``Facts.completion``; ``s >= 4*s2 - 40`` needs it above the facts' model's for larger ``s2``):
    the first symbols are the decider's, ``s2`` first.  (Seed 151: ``s2 >= 10*s`` with ``s2`` later,
    1.09-1.46 s by the solver in campaigns, unknown in some runs.)"""
    _off_the_grid(monkeypatch)
    text = (ROWS / "seed122_tied_to_an_earlier_symbol.toml").read_text().replace(
        'assume = ["s2 >= s"]', f'assume = ["{fact}"]')
    head, rest = text.split("[symbols.s]", 1)
    s_block, rest = rest.split("[symbols.s2]", 1)
    s2_block, tail = rest.split("[tensors.A]", 1)
    check = from_dict(__import__("tomllib").loads(
        f"{head}[symbols.s2]{s2_block}[symbols.s]{s_block}[tensors.A]{tail}"))
    assert list(check.symbols) == ["s2", "s"]
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    expected = _first_by_the_decider(check, [("s2", range(1, 40)), ("s", range(-16, 200, 4))])
    assert expected is not None and env is not None and Witness(q, env).symbols == expected
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and decide.violation_at(check, 0, "contiguity", o.counterexample) is None


def test_seed151s_later_symbol_only_in_a_fact_is_completed():
    """Seed 151: rows ``s`` apart under ``Sw<2,1,4>`` and ``s2`` (declared after ``s``, in no layout) tied
    by ``s2 >= 10*s``: split first at ``s = 11``, where ``s2`` is at least 110, so 112 (its
    ``multiple_of``); the decider finds the same, value by value."""
    check = tilecheck.load(ROWS / "seed151_later_symbol_in_a_fact.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    assert env is not None and Witness(q, env).symbols == {"s": 11, "s2": 112}
    assert _first_by_the_decider(check, [("s", range(2, 20)), ("s2", range(8, 400, 8))]) == {"s": 11, "s2": 112}
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and o.counterexample["symbols"] == {"s": 11, "s2": 112}


def test_seed144s_symbol_digit_in_the_run_start_is_refuted_at_the_deciders_first_symbols():
    """Seed 144 (--swizzled): a ``.local`` run whose start has a term in ``n//4`` (a division digit of a
    symbol, not a function of ``n``'s residue); ``n`` goes by value, its digit computed from it, and a
    candidate the fact ``s >= 3*(n//4)`` rules out sends the search to the walk by value (``_walk``).
    The solver was unknown at 2 s; the decider finds the same first symbols value by value."""
    check = tilecheck.load(ROWS / "seed144_symbol_digit_in_the_start.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    expected = {"r": 0, "n": 20, "s": 16, "o": 0}
    assert env is not None and Witness(q, env).symbols == expected
    assert _first_by_the_decider(check, [("r", [0, 2]), ("n", range(16, 24)), ("s", range(4, 68, 4)),
                                         ("o", range(0, 65, 4))]) == expected
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and o.counterexample["symbols"] == expected
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None


DIGIT_ROWS = """
threads = 32
assume = ["s >= {c}*(n//{k})"]
[symbols.s]
min = {smin}
max = {smax}
multiple_of = 64
[symbols.n]
min = 0
max = 15
[symbols.r]
min = 0
max = 4
multiple_of = 2
[tensors.S]
dtype = "float16"
scope = "shared"
shape = [32, 64]
align = 16
offset = "{a}*(n//{k})"
layout = "{sw} o (32,64):(s,1)"
[tensors.R]
dtype = "float16"
scope = "register"
shape = [16, 8]
layout = "((8,2),(2,4)):((4@laneid,2),(1,1@laneid))"
[[apply]]
opcode = "ldmatrix.sync.aligned.m8n8.x2.shared.b16"
scope = "warp"
dst = "R: (ia=2 g=8) (q=4 j=2) -> (g q) (ia j)"
src = "S[r:r+16, 0:8]: (ia=2 g=8) (q=4 j=2) -> (g q) (ia j)"
"""


@pytest.mark.parametrize("sw,a,k,c,smin", [
    ("Sw<1,3,3>", 2, 4, 100, 64), ("Sw<1,3,3>", 2, 3, 0, 64), ("Sw<2,3,3>", 4, 5, 130, 64),
    ("Sw<1,3,4>", 2, 2, 200, 128), ("Sw<2,3,3>", 8, 4, 70, 64), ("Sw<1,3,3>", 6, 7, 300, 64),
])
def test_a_symbols_division_digit_in_the_start_gives_the_deciders_first_symbols(monkeypatch, sw, a, k, c, smin):
    """Rows ``s`` apart (``s`` a multiple of 64: only the start ``a*(n//k)`` can split one) under a fact
    ``s >= c*(n//k)``, the grid cut to the facts' model: ``n`` by value with its digit computed, ``s`` by
    class and, past a candidate the fact rules out, by value (``_walk``): the first symbols are the
    brute-force decider's (none: proved), and the report agrees."""
    _off_the_grid(monkeypatch)
    smax = smin + 64 * 6
    check = from_dict(__import__("tomllib").loads(DIGIT_ROWS.format(sw=sw, a=a, k=k, c=c, smin=smin, smax=smax)))
    expected = _first_by_the_decider(check, [("s", range(smin, smax + 1, 64)), ("n", range(16)),
                                             ("r", range(0, 5, 2))])
    q, v = _violation(check)
    proved, _, instead = v.shortcut(10.0)
    o = _contiguity(tilecheck.prove(check, timeout=10))
    if expected is None:
        assert proved and o.status == "proved"
        return
    assert not proved and instead is not None
    env = v.witness()
    assert env is not None and Witness(q, env).symbols == expected
    assert o.status == "refuted" and o.counterexample["symbols"] == expected


def test_seed151s_classes_past_the_old_limit_are_enumerated_until_the_first_split():
    """Seed 151: ``ldmatrix .trans`` rows ``n`` apart from row ``r`` under ``Sw<3,3,7>``: ``n`` by value (65)
    times ``r``'s 8,192 classes is over the old 65,536-combination limit, and ``r`` is in ``r*n`` (no
    interval rule): unknown at 2 s.  Enumerated in steps, the first split is at ``n = 9, r = 90``, the
    decider's first value by value (``n = 8`` keeps every row start a multiple of 8: no split at any ``r``)."""
    check = tilecheck.load(ROWS / "seed151_many_classes.toml")
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    assert env is not None and Witness(q, env).symbols == {"n": 9, "r": 90}
    assert _first_by_the_decider(check, [("n", range(8, 10)), ("r", range(0, 200))]) == {"n": 9, "r": 90}
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and o.counterexample["symbols"] == {"n": 9, "r": 90}
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None


@pytest.mark.parametrize("fact", ["r + 1 <= (n//2)", "2*r + 8 <= n", "r + 1 <= (n//2)//3", "r <= n - 40"])
def test_an_earlier_symbol_that_rules_out_every_split_at_the_model_goes_by_value(fact):
    """Seed 152 (--swizzled): the run start ``r*s + r2`` is tied by a fact to ``n``, declared first, whose
    smallest value (the facts' model's) rules out every splitting ``r``.  ``n`` goes by value, each value
    bounding ``r`` through the facts (``swizzle._by_earlier``): the first split the facts allow is the
    decider's first point value by value (n = 132 for the campaign's fact).  The solver's route gave
    (n, r) = (176, 86) or (180, 88) after 1.1 s."""
    text = (ROWS / "seed152_tied_to_an_earlier_symbol_by_value.toml").read_text()
    check = from_dict(__import__("tomllib").loads(
        text.replace('assume = ["r + 1 <= (n//2)"]', f'assume = ["{fact}"]')))
    q, v = _violation(check)
    assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    expected = _first_by_the_decider(check, [("n", range(4, 600, 4)), ("r", range(0, 300, 2)), ("r2", [0, 2]),
                                             ("s", [12, 16])])
    assert expected is not None and expected["n"] > q.facts.model["n"]
    assert env is not None and Witness(q, env).symbols == expected
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and o.counterexample["symbols"] == expected
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None
    smallest = _smallest_by_the_decider(check, o.counterexample)  # (one thread: no group in the counterexample)
    assert smallest is not None and all(smallest[k] == o.counterexample.get(k, {}) for k in smallest)


def test_bounds_at_a_pinned_value_hold_every_allowed_value():
    """``swizzle._bounds_at``: with ``n`` pinned, the facts' intervals for ``r`` contain every value the
    decider allows and none past the fact's end (``r + 1 <= n//2``, ``r`` a multiple of 2)."""
    check = tilecheck.load(ROWS / "seed152_tied_to_an_earlier_symbol_by_value.toml")
    q, _ = _violation(check)
    (rv,) = q.symbols["r"].variables()
    (nv,) = q.symbols["n"].variables()
    digits = swizzle._symbol_digits(q.ctx, {nv})
    for n in range(4, 80, 4):
        lo, hi = swizzle._bounds_at(q, swizzle._pinned(nv, n // 4, digits), [rv])[rv]
        allowed = [r for r in range(0, 200, 2)
                   if decide.allowed(check, {"n": n, "r": r, "r2": 0, "s": 12})]
        assert allowed and lo * 2 <= min(allowed) and max(allowed) == 2 * hi


def _the_deciders_first_split(name: str, grid: list, expected: dict, shortcut: bool = False):
    """The file ``ROWS/name``: the decider's first split over ``grid`` is ``expected``; the obligation's
    witness (after its shortcut's residue search, ``shortcut``) and the refutation of ``prove`` are
    there.  Returns the check and the contiguity outcome."""
    check = tilecheck.load(ROWS / name)
    q, v = _violation(check)
    if shortcut:
        assert v.shortcut(10.0)[2] is not None
    env = v.witness()
    assert _first_by_the_decider(check, grid) == expected
    assert env is not None and Witness(q, env).symbols == expected
    o = _contiguity(tilecheck.prove(check, timeout=2, minimize=False))
    assert o.status == "refuted" and o.counterexample["symbols"] == expected
    return check, o


def test_the_first_symbol_by_class_and_the_others_by_value_skip_ruled_out_candidates_exactly():
    """Seed 172 (--swizzled): the run start holds ``n`` (1,024 classes), the digit ``n2//3`` (``n2`` by value)
    and ``r`` (its whole range, 0-26, by value): 1.7 million combinations, past 2^20, and the splits at
    ``n = 7`` for ``n2`` not a multiple of 4 are ruled out.  With every variable after the first by value,
    a ruled-out candidate hides no smaller one (a larger member of ``n``'s class comes after every class's
    smallest): the steps go on to ``(n, n2, r) = (7, 28, 0)``, the decider's first (unknown at 10 s
    before)."""
    check, o = _the_deciders_first_split("seed172_classes_of_the_first_symbol.toml",
                                         [("n", range(2, 40)), ("n2", range(20, 83)), ("r", range(0, 30))],
                                         {"n": 7, "n2": 28, "r": 0}, shortcut=True)
    smallest = _smallest_by_the_decider(check, o.counterexample)
    assert smallest is not None and all(smallest[k] == o.counterexample.get(k, {}) for k in smallest)


def test_a_first_symbol_with_a_digit_past_the_value_limit_goes_by_value_with_the_others_bounded():
    """Seed 183 (--swizzled): ``n//2`` is in the run start and ``n`` ranges over a million values, so it
    cannot go by value over its range; it is the first symbol, so it goes by value from its smallest, and
    at each value the facts bound ``r`` (``r + 1 <= n//2``) while ``s``, which no fact names, goes by class
    (``swizzle._first_by_value``): the first split the facts allow is ``(n, r, s) = (6, 0, 44)``, the
    decider's first value by value (unknown at 2 s before)."""
    check, o = _the_deciders_first_split("seed183_first_symbol_by_value_past_the_limit.toml",
                                         [("n", range(6, 12)), ("r", range(0, 8, 4)), ("s", range(16, 120, 4))],
                                         {"n": 6, "r": 0, "s": 44}, shortcut=True)
    smallest = _smallest_by_the_decider(check, o.counterexample)
    assert smallest is not None and all(smallest[k] == o.counterexample.get(k, {}) for k in smallest)


def test_gathered_rows_split_on_the_grid_stepped_by_a_congruence_fact():
    """Seed 194 (--families): ``ldmatrix .x4.trans`` rows ``s`` apart with ``s % 4 == 0`` from 48 (the raw
    grid of three smallest values holds one allowed ``s``): the search of gathered rows tests every point
    at once (``candidates``), so it reaches the grid stepped by the facts (``swizzle._stepped``), and the
    first split there, ``(s, r, c) = (68, 8, 0)``, is the decider's first (unknown at 2 s under z3 5.0.0,
    refuted at ``s = 5956`` under 5.4.1, before)."""
    check, o = _the_deciders_first_split("seed194_gathered_rows_on_the_stepped_grid.toml",
                                         [("s", range(48, 200, 4)), ("r", range(0, 9, 2)), ("c", range(0, 25, 8))],
                                         {"s": 68, "r": 8, "c": 0})
    assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None


@pytest.mark.parametrize("symbols", [{"s": 68, "r": 8, "c": 0}, {"s": 72, "r": 2, "c": 16}, {"s": 100, "r": 6, "c": 8}])
def test_gathered_rows_candidates_find_the_point_by_point_searchs_point(monkeypatch, symbols):
    """The gathered rows' ``candidates`` (explain's test on arrays) against the point-by-point search at
    the same symbols: the same first point (or none), so the mask misses no violating point before it."""
    check = tilecheck.load(ROWS / "seed194_gathered_rows_on_the_stepped_grid.toml")
    q, v = _violation(check)
    at = {}
    for n, val in symbols.items():
        (var,) = q.symbols[n].variables()
        at[var] = val // q.symbols[n].terms[(var,)]
    with_mask = v.witness(at)
    real = swizzle.smallest_at_facts_model
    monkeypatch.setattr(swizzle, "smallest_at_facts_model",
                        lambda *a, candidates=None, **k: real(*a, **k))
    q2, v2 = _violation(check)
    assert with_mask == v2.witness(at)
