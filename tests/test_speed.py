"""The exact shortcuts of the fast paths agree with the plain ones."""
from hypothesis import HealthCheck, given, settings

from tilecheck import decide as enumerator
from tilecheck.check import from_dict, load
from tilecheck.encode import Query
from tilecheck.layout import OFFSET
from tilecheck.proofs import injective
from tilecheck.proofs.facts import decide as decide_facts
from tilecheck.report import prove
from tilecheck.strategies import checks, symbolic_checks

CASES = "tests/soundness_cases/"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(checks() | symbolic_checks())
def test_decider_tables_match_the_point_by_point_path(data):
    _tables_agree(data)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(checks(families=("guard",)) | symbolic_checks(families=("guard",)))
def test_decider_tables_leave_out_guarded_out_atoms_as_the_point_by_point_path(data):
    """A guarded apply's rules over the tables skip the guarded-out atoms (``_kept``) exactly where the
    scalar rules do (``_skips``): the same verdicts and witnesses."""
    _tables_agree(data)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(checks(families=("ldmatrix", "stmatrix")) | symbolic_checks(families=("ldmatrix", "stmatrix")))
def test_decider_tables_of_gathered_matrix_rows_match_the_point_by_point_path(data):
    """ldmatrix / stmatrix: each row's origin looked up over the whole table (``_matrix_row_starts``) gives
    the point-by-point rules' verdicts and witnesses (contiguity and alignment refute in about 1 of 10
    and 3 of 10 drawn applies)."""
    _tables_agree(data)


def _tables_agree(data):
    """The decider over its tables and point by point: the same verdicts and witnesses."""
    check = from_dict(data, "<drawn>")
    if check.symbols and not enumerator.assignments(check):
        return
    tables, plain = _both_paths(check)
    assert tables == plain


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(symbolic_checks())
def test_decider_settles_a_refuted_obligation_once(data):
    """Over several assignments the decider no longer re-decides an obligation already refuted
    (only as another's prerequisite): the combined verdicts and witnesses are those of deciding
    every obligation at every assignment and keeping the first refutation."""
    check = from_dict(data, "<drawn>")
    envs = enumerator.assignments(check)
    if not envs:
        return
    rank = {"proved": 0, "skipped": 1, "refuted": 2}
    for apply, got in zip(check.applies, enumerator.decide(check, envs)):
        if "disjoint" in got and got["disjoint"][0] == "refuted" and enumerator.disjoint_grid(check, apply, envs):
            continue  # the grid-wide refutation is added after the per-assignment verdicts
        want = {n: ("proved", None) for n in enumerator.applicable(apply, check)}
        for env in envs:
            for name, (status, w) in enumerator._decide_one(check, apply, env).items():
                if rank[status] > rank[want[name][0]]:
                    want[name] = (status, w)
        assert got == want


def _offsets(path):
    c = load(path)
    a = c.applies[0]
    q = Query(c, a)
    ca, cb = q.coords("a", thread=True), q.coords("b", thread=True)
    return q, q.value(a.memory, ca)[OFFSET], q.value(a.memory, cb)[OFFSET]


def test_injectivity_lemma_is_found_for_a_symbolic_stride_chain():
    q, oa, ob = _offsets(CASES + "disjoint_symbolic_chain_refuted.toml")
    lemma = injective.lemma(q, oa, "a", ob, "b")
    assert lemma  # strides 1, n//4, s, 32*s with s >= 4*(n//4): a chain


def test_no_lemma_when_strides_collide():
    q, oa, ob = _offsets(CASES + "grid_overlap_refuted.toml")
    # a refuted store: whatever the lemma says, the verdict stays refuted and replays
    r = prove(load(CASES + "grid_overlap_refuted.toml"))
    assert r.verdict == "refuted"
    assert injective.lemma(q, oa, "a", oa + 1, "b") == []  # different parameter parts: no lemma


def _with_facts(path):
    q, oa, ob = _offsets(path)
    q.facts = decide_facts(load(path), 10)
    return q, oa, ob


def test_the_chain_is_judged_at_the_facts_model_without_a_query(monkeypatch):
    """The campaign's slowest disjoint proof: the chain fails at k = 1, a value the facts allow, so
    no lemma, decided by arithmetic at the facts' model (no solver asked); disjoint is still proved,
    and the decider agrees."""
    path = "tests/data/slow_disjoint_chain_fails.toml"
    q, oa, ob = _with_facts(path)
    assert q.facts.model == {"n": 1, "k": 1, "r": 0, "c": 0}  # found first (it is shared by every obligation)

    def no_solver(*a, **k):
        raise AssertionError("the chain query was asked")
    monkeypatch.setattr(injective.z3, "Solver", no_solver)
    assert injective.lemma(q, oa, "a", ob, "b") == []
    monkeypatch.undo()
    check = load(path)
    d = {o.name: o for ar in prove(check).applies for o in ar.obligations}
    assert d["disjoint"].status == "proved"
    assert enumerator.decide(check)[0]["disjoint"][0] == "proved"


def test_a_chain_that_holds_is_still_proved_with_the_facts_model():
    q, oa, ob = _with_facts(CASES + "disjoint_symbolic_chain_refuted.toml")
    assert injective.lemma(q, oa, "a", ob, "b")


def test_chain_case_is_proved_quickly():
    r = prove(load(CASES + "disjoint_symbolic_chain_refuted.toml"), timeout=2)
    d = {o.name: o for ar in r.applies for o in ar.obligations}
    assert d["disjoint"].status == "proved"
    assert d["disjoint"].seconds < 1.0


def _both_paths(check):
    old = enumerator.TABLE_LIMIT
    try:
        enumerator.TABLE_LIMIT = 0
        plain = enumerator.decide(check)
    finally:
        enumerator.TABLE_LIMIT = old
    return enumerator.decide(check), plain


def _store(threads, scope, space, shape, layout, reg_layout, view_extra=""):
    return from_dict({"threads": threads, "tensors": {
        "A": {"dtype": "float32", "scope": space, "shape": shape, "layout": layout},
        "R": {"dtype": "float32", "scope": "register", "shape": shape, "layout": reg_layout}},
        "apply": [{"opcode": f"st.{space}.b32", "scope": scope, "dst": "A", "src": "R"}]}, "<case>")


def test_disjoint_over_the_table_gives_the_point_by_point_witness():
    # two threads store the same word: the race is thread 1's first word, the other thread 0's
    race = _store(2, "thread", "global", [4, 1], "(4,1):(1,0)", "(4,1):(1,0)")
    fast, plain = _both_paths(race)
    assert fast == plain and fast[0]["disjoint"][0] == "refuted"
    assert fast[0]["disjoint"][1]["thread"] == 1 and fast[0]["disjoint"][1]["other"] == (0, (0,), 0)
    # .local: every thread has its own window, so the same offsets in 64 threads are no race ...
    local = _store(64, "cta", "local", [2, 32, 1], "(2,32,1):(0,0,0)", "(2,32,1):(1@warpid,1@laneid,0)")
    fast, plain = _both_paths(local)
    assert fast == plain and fast[0]["disjoint"][0] == "proved"
    # ... but two words of one thread at one offset are
    twice = _store(32, "warp", "local", [32, 2, 1], "(32,2,1):(1,0,0)", "(32,2,1):(1@laneid,1,0)")
    fast, plain = _both_paths(twice)
    assert fast == plain and fast[0]["disjoint"][0] == "refuted" and fast[0]["disjoint"][1]["thread"] == 0
