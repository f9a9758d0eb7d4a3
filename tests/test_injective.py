"""The injectivity lemma (``proofs.injective``) across CTAs: a CTA digit whose two copies the facts keep
apart (both ``r % 8 == 0``) counts with its actual difference, and the facts' division digits are
given to the chain query (``x = 8*q + rem``: with ``q`` dropped, ``x % 8 == 0`` was lost)."""
import tomllib

import pytest
from dataclasses import replace
from pathlib import Path

import tilecheck
from tilecheck import decide
from tilecheck.check import from_dict
from tilecheck.proofs import injective
from tilecheck.report import prove

CASE = Path(__file__).parent / "data" / "disjoint" / "seed141_cta_congruence.toml"


def _envs(check, rs):
    envs = [{"n": n, "r": r, "s": s, "s2": s2} for n in (3, 10, 17) for r in rs for s in (256 * n, 256 * n + 8)
            for s2 in (2 * s, 2 * s + 2) if r + 2 <= n]
    return [e for e in envs if decide.allowed(check, e)]


def test_a_cta_digit_kept_apart_by_a_congruence_gives_the_lemma(monkeypatch):
    """Seed 141: the chain holds only with ``|r_a - r_b| >= 8``: the lemma is made (no lemma before:
    the solver proved it in 1.08-1.18 s), disjoint is proved, and the decider agrees over two CTAs'
    values on a grid."""
    lemmas = []
    real = injective.lemma
    monkeypatch.setattr(injective, "lemma", lambda *a, **k: lemmas.append(real(*a, **k)) or lemmas[-1])
    check = tilecheck.load(CASE)
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert lemmas and lemmas[0], "no lemma"
    assert o.status == "proved", o.message
    envs = _envs(check, range(0, 16, 8))
    assert len(envs) >= 10 and decide.decide(check, envs)[0]["disjoint"][0] == "proved"


def test_without_the_congruence_the_two_ctas_overlap_and_no_lemma_is_made(monkeypatch):
    """The same store without ``r % 8 == 0``: CTAs ``r = 0`` and ``r = 1`` store to one element; no lemma
    (the chain fails at ``|Δr| = 1``), refuted, and the decider finds the same overlap."""
    lemmas = []
    real = injective.lemma
    monkeypatch.setattr(injective, "lemma", lambda *a, **k: lemmas.append(real(*a, **k)) or lemmas[-1])
    check = from_dict(tomllib.loads(CASE.read_text().replace('"r % 8 == 0", ', '')))
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert lemmas == [[]]
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None
    assert decide.decide(check, _envs(check, range(0, 3)))[0]["disjoint"][0] == "refuted"


# --- every difference tried (injective._no_collision) ------------------------------------------------

ONE_PARAMETER = Path(__file__).parent / "data" / "disjoint" / "seed171_one_stride_parameter.toml"


def test_one_stride_parameter_without_a_chain_gives_the_lemma_by_every_difference(monkeypatch):
    """Seed 171: the chain fails for large ``n`` (the constant stride is then not above the others' sum)
    but ``93368853*Δl1 = -n'*(60Δw + 120Δl0 + 12Δi)`` has no solution in range: the lemma is made, disjoint
    proved, and the decider agrees on the symbols' small values."""
    lemmas = []
    real = injective.lemma
    monkeypatch.setattr(injective, "lemma", lambda *a, **k: lemmas.append(real(*a, **k)) or lemmas[-1])
    check = tilecheck.load(ONE_PARAMETER)
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert lemmas and len(lemmas[0]) == 4
    assert o.status == "proved", o.message
    envs = decide.assignments(check, limit=64)
    assert len(envs) >= 16 and decide.decide(check, envs)[0]["disjoint"][0] == "proved"


def _collides(alphas, betas, ranges_a, ranges_b, p_values) -> bool:
    """Brute force: two points of the box with some digit different and the same offset, at some p."""
    import itertools
    for p in p_values:
        coef = [a * p + b for a, b in zip(alphas, betas)]
        seen = {}
        for x in itertools.product(*(range(lo, hi + 1) for lo, hi in ranges_a)):
            seen.setdefault(sum(c * v for c, v in zip(coef, x)), []).append(x)
        for y in itertools.product(*(range(lo, hi + 1) for lo, hi in ranges_b)):
            off = sum(c * v for c, v in zip(coef, y))
            if any(x != y for x in seen.get(off, [])):
                return True
    return False


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_no_collision_is_exact_against_brute_force(data):
    """``_no_collision`` over random coefficients ``α·p + β``, digit ranges (the two sides' ranges the same
    length, their lows apart) and ``p`` ranges: True exactly when no value of ``p`` lets two different
    points of the box share an offset."""
    from tilecheck.poly import Context, Poly
    k = data.draw(st.integers(1, 3))
    one = data.draw(st.booleans())
    alphas = [data.draw(st.integers(-6, 6)) if one else 0 for _ in range(k)]
    betas = [data.draw(st.integers(-12, 12)) for _ in range(k)]
    spans = [data.draw(st.integers(0, 3)) for _ in range(k)]
    lows = [(data.draw(st.integers(-2, 2)), data.draw(st.integers(-2, 2))) for _ in range(k)]
    plo = data.draw(st.integers(-8, 8))
    phi = plo + data.draw(st.integers(0, 8))

    class Q:
        ctx = Context()
    q = Q()
    q.ctx.var("p", plo, phi)
    pairs, ca = [], {}
    for j in range(k):
        q.ctx.var(f"a{j}", lows[j][0], lows[j][0] + spans[j])
        q.ctx.var(f"b{j}", lows[j][1], lows[j][1] + spans[j])
        pairs.append((f"a{j}", f"b{j}"))
        ca[f"a{j}"] = alphas[j] * Poly.var("p") + betas[j]
    got = injective._no_collision(q, pairs, ca, "p" if one else None)
    ra = [(lows[j][0], lows[j][0] + spans[j]) for j in range(k)]
    rb = [(lows[j][1], lows[j][1] + spans[j]) for j in range(k)]
    # the offsets compared are Σ c·x_a and Σ c·x_b: a collision is x_a != x_b (as digit vectors) with
    # equal offsets; the lemma's claim is that equal offsets force x_a == x_b digit by digit
    assert got == (not _collides(alphas, betas, ra, rb, range(plo, phi + 1) if one else [0]))


# --- every allowed point of a few-valued symbol box (runner._every_point) -----------------------------

FEW = Path(__file__).parent / "data" / "disjoint" / "seed181_few_symbol_values.toml"
FEW_FACTS = 'assume = ["r % 8 == 0", "s % 4 == 0", "s2 % 4 == 0", "s2 >= 4*s"]'


def _few(facts: str | None = None):
    text = FEW.read_text()
    assert FEW_FACTS in text
    return from_dict(tomllib.loads(text if facts is None else text.replace(FEW_FACTS, f"assume = {facts}")))


def _allowed_points(check):
    return [e for e in ({"r": 0, "s": s, "s2": s2} for s in range(4, 10) for s2 in range(4, 66))
            if decide.allowed(check, e)]


def _route(monkeypatch):
    from tilecheck.proofs import runner
    seen = []
    real = runner._every_point
    monkeypatch.setattr(runner, "_every_point", lambda *a, **k: seen.append(real(*a, **k)) or seen[-1])
    return seen


def test_few_symbol_values_each_pinned_prove_what_the_whole_query_could_not(monkeypatch):
    """Seed 181: 22 allowed ``(s, s2)`` points; the whole query was unknown at 2 s (under z3 5.4.1 and
    5.0.0).  Each point pinned is linear: every one unsat is a proof, and the decider, over every allowed
    point, agrees.  (The verdicts, not the time: at 2 s, and 0.1 s a point, a loaded machine left it
    unknown -- 22 points of ~15 ms each alone; the main context's first attempt stays at TUNING.main_first_s.)"""
    from tilecheck.proofs import runner
    monkeypatch.setattr(runner, "TUNING", replace(runner.TUNING, every_point_s=2.0))
    seen = _route(monkeypatch)
    check = _few()
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "proved", o.message
    assert any(s is not None and str(s[1]) == "unsat" for s in seen)
    envs = _allowed_points(check)
    assert len(envs) == 22 and decide.decide(check, envs)[0]["disjoint"][0] == "proved"


def test_the_first_colliding_point_of_few_symbol_values_is_the_deciders_first(monkeypatch):
    """The same store with ``s2 % 3 == 1`` (42 allowed points): the first point, in declaration order, at
    which the pinned query is sat is the refutation, at the decider's first colliding symbols."""
    seen = _route(monkeypatch)
    check = _few('["s % 4 == 0", "s2 % 3 == 1"]')
    (o,) = [o for o in prove(check, timeout=2).applies[0].obligations if o.name == "disjoint"]
    first = next(e for e in _allowed_points(check) if decide.decide(check, [e])[0]["disjoint"][0] == "refuted")
    assert o.status == "refuted" and o.counterexample["first"]["symbols"] == first
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None


@pytest.mark.parametrize("path,box", [
    (FEW, {"r": [0], "s": range(4, 10), "s2": range(4, 66)}),
    (Path(__file__).parent / "data" / "swizzled_rows" / "seed152_tied_to_an_earlier_symbol_by_value.toml",
     {"n": range(4, 60, 4), "r": range(0, 40, 2), "r2": [0, 2], "s": [12, 16]}),
    (Path(__file__).parent / "data" / "swizzled_rows" / "seed172_classes_of_the_first_symbol.toml",
     {"n": range(2, 12), "n2": range(20, 40), "r": range(0, 12)}),
])
def test_the_facts_evaluated_at_a_point_are_the_deciders(path, box):
    """``runner._facts_hold`` (the encoded facts, their division digits computed) against the decider's
    ``allowed`` at every point of a box of symbol values: the same answer wherever it gives one."""
    import itertools
    from tilecheck.encode import Query
    from tilecheck.proofs import runner
    check = tilecheck.load(path)
    q = Query(check, check.applies[0])
    names = list(box)
    told = 0
    for values in itertools.product(*box.values()):
        sym = dict(zip(names, values))
        env = {}
        for n, v in sym.items():
            p = q.symbols[n]
            (var,) = p.variables()
            scale = p.terms[(var,)]
            if v % scale:
                break
            env[var] = v // scale
        else:
            got = runner._facts_hold(q, env)
            if got is not None:
                told += 1
                assert got == decide.allowed(check, sym), sym
    assert told > 20


def test_a_sat_point_among_few_symbol_values_is_the_refutation_not_a_proof(monkeypatch):
    """The first attempt cut short (so that the points decide): with ``s2 % 3 == 1`` and ``s2 <= 16``
    (10 allowed points), the points are asked in order and the first sat one, ``(s, s2) = (8, 4)``, is
    the refutation; every point before it is unsat.  (A sat point taken for unsat would be a wrong
    proof: this test is what holds that.)"""
    from tilecheck.proofs import runner
    monkeypatch.setattr(runner, "TUNING", replace(runner.TUNING, main_first_s=0.0001))
    seen = _route(monkeypatch)
    check = _few('["s % 4 == 0", "s2 % 3 == 1", "s2 <= 16"]')
    envs = _allowed_points(check)
    assert len(envs) == 10
    first = next(e for e in envs if decide.decide(check, [e])[0]["disjoint"][0] == "refuted")
    assert first == {"r": 0, "s": 8, "s2": 4}
    (o,) = [o for o in prove(check, timeout=2).applies[0].obligations if o.name == "disjoint"]
    assert seen and seen[0] is not None and str(seen[0][1]) == "sat"
    assert o.status == "refuted" and o.counterexample["first"]["symbols"] == first


# --- the lemma's digits fix the access: disjoint proved without the solver (injective.determined) ------

def _disjoint(check, apply, exporting: bool):
    """``disjoint`` of one apply, with the query exported (the whole formula to the solver) or not."""
    from tilecheck.proofs import disjoint, facts as facts_mod, runner

    class Silent:  # a recorder that records nothing: the obligation states its whole formula
        def observe(self, *a, **k):
            pass
    f = facts_mod.decide(check, 10)
    return runner.decide("disjoint", disjoint.violation, check, apply, 10, f, False,
                         Silent() if exporting else None)


@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(st.data())
def test_determined_digits_prove_what_the_whole_query_proves(data):
    """On drawn concrete checks (the fuzz campaign's strategy), ``disjoint`` without the solver where the
    lemma's digits fix the accesses has the status the whole query gets from the solver (exported:
    no shortcut), and the brute-force decider's."""
    from tilecheck.errors import InputError
    from tilecheck.strategies import checks
    d = data.draw(checks())
    try:
        check = from_dict(d, "<drawn>")
    except InputError:
        return
    decided = decide.decide(check)
    proved = prove(check, timeout=10).applies
    for i, apply in enumerate(check.applies):
        quick, whole = _disjoint(check, apply, False), _disjoint(check, apply, True)
        assert quick.status == whole.status, (quick.message, whole.message)
        (o,) = [o for o in proved[i].obligations if o.name == "disjoint"] or [None]
        if o is not None and "disjoint" in decided[i]:  # in the pipeline (its prerequisites proved or not)
            assert o.status == decided[i]["disjoint"][0], o.message


def _store_query(layout: str, threads: int = 32):
    """A Query of a warp-scope store of an (R, 4) int32 register tile through ``layout``, with the
    lemma's pairs of its disjoint formula."""
    from tilecheck.encode import Query
    from tilecheck.proofs import disjoint
    check = from_dict({"threads": threads, "tensors": {
        "A": {"dtype": "int32", "scope": "global", "shape": [32, 4], "layout": layout},
        "R": {"dtype": "int32", "scope": "register", "shape": [32, 4], "layout": "(32,4):(1@laneid,1)"}},
        "apply": [{"opcode": "st.global.b32", "scope": "warp", "dst": "A: l j -> l j ()", "src": "R: l j -> l j ()"}]})
    q = Query(check, check.applies[0])
    a, b = q.coords("a", thread=True), q.coords("b", thread=True)
    pairs: list = []
    from tilecheck.layout import OFFSET
    off_a, off_b = q.value(q.memory, a)[OFFSET], q.value(q.memory, b)[OFFSET]
    injective.lemma(q, off_a, "a", off_b, "b", pairs_out=pairs)
    return check, q, a, b, pairs, disjoint._coordinates(q, a, b, thread=True)


def test_determined_needs_every_coordinate_fixed():
    """Row-major (32, 4): every coordinate (the repeat, and the thread through its lane digit) is fixed
    by the lemma's digits: determined.  The same coordinates paired wrongly (a's repeat with b's
    word): not.  A broadcast (the lane's stride 0): the lane is no digit of the offset, not
    determined, and disjoint is refuted as the decider refutes it (warps of one CTA race)."""
    check, q, a, b, pairs, coords = _store_query("(32,4):(4,1)")
    assert pairs and injective.determined(q, pairs, coords)
    swapped = [(a.repeat[0], b.word), *coords[1:]]
    assert not injective.determined(q, pairs, swapped)
    assert not injective.determined(q, [], coords)
    check, q, a, b, pairs, coords = _store_query("(32,4):(0,1)")
    assert not injective.determined(q, pairs, coords)
    (o,) = [o for o in prove(check).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "refuted" and decide.decide(check)[0]["disjoint"][0] == "refuted"


# --- no lemma: the equal offsets as cases of the digits' differences (injective.differences) -----------

TWO_STRIDES = Path(__file__).parent / "data" / "disjoint" / "seed201_two_stride_symbols.toml"


def test_two_stride_symbols_collide_at_the_smallest_symbols():
    """Seed 201: lanes ``2*s3`` apart and warps ``s`` apart collide exactly when ``s = s3`` (``|Δwarp| = 2``,
    ``|Δlane| = 1``); with ``s3 >= n*s2 >= 40`` and ``s <= 66`` the smallest is ``s = s3 = 40``.  Unknown at
    2 s before; the cases of the digits' differences are linear: refuted at ``(n, s, s2, s3, o) =
    (10, 40, 4, 40, -8)``, which replays, and the decider finds no collision for any smaller ``s``."""
    check = tilecheck.load(TWO_STRIDES)
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "refuted", o.message
    assert "with symbols (n=10, s=40, s2=4, s3=40, o=-8)" in o.message
    assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None
    envs = [{"n": 10, "s": s, "s2": 4, "s3": 40, "o": -8} for s in range(2, 40)]
    assert decide.decide(check, envs)[0]["disjoint"][0] == "proved"


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.integers(1, 4), st.integers(1, 4), st.sampled_from([2, 3, 4]), st.integers(1, 6), st.integers(1, 6))
def test_difference_cases_decide_as_brute_force(c1, c2, width, s_hi, t_hi):
    """A CTA store of 32 lanes ``c1*s`` apart and ``width`` warps ``c2*t`` apart (two stride symbols, each over
    a small range): ``disjoint`` is proved exactly when no (s, t) makes two accesses share an offset
    (brute force over the ranges), and a refutation's symbols do."""
    check = from_dict({"threads": 32 * width, "symbols": {"s": {"min": 1, "max": s_hi}, "t": {"min": 1, "max": t_hi}},
                       "tensors": {"A": {"dtype": "int32", "scope": "shared", "shape": [width, 32],
                                         "layout": f"({width},32):({c2}*t,{c1}*s)"},
                                   "R": {"dtype": "int32", "scope": "register", "shape": [width, 32],
                                         "layout": f"({width},32):(32@tid,1@tid)"}},
                       "apply": [{"opcode": "st.shared.b32", "scope": "cta", "dst": "A: w l -> w l ()",
                                  "src": "R: w l -> w l ()"}]})

    def collide(s, t):
        offs = [w * c2 * t + l * c1 * s for w in range(width) for l in range(32)]
        return len(set(offs)) < len(offs)
    bad = [(s, t) for s in range(1, s_hi + 1) for t in range(1, t_hi + 1) if collide(s, t)]
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert o.status == ("refuted" if bad else "proved"), o.message
    if bad:
        assert decide.violation_at(check, 0, "disjoint", o.counterexample) is None


def test_across_ctas_the_chain_is_tried_in_the_facts_models_order_too():
    """Seed 203: two CTAs (``r`` and ``r'``, ``r + 1 <= n``) store digits with coefficients ``1, s, n2*s, s2,
    n*s2, 8*n*s2``; ``s2 >= 2*n2*s`` makes the chain hold in that order, but at the lower ends (``s2 = 2``)
    the order differs and moving the CTA digit alone does not mend it: unknown at 2 s before.  From the
    facts' model's order too: proved, and the decider agrees over two CTAs' values on a grid."""
    check = tilecheck.load(Path(__file__).parent / "data" / "disjoint" / "seed203_across_in_the_models_order.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "proved", o.message
    envs = [{"n": n, "r": r, "n2": n2, "s": s, "s2": s2} for n in (5, 7) for r in (0, 1, n - 1) for n2 in (4, 8)
            for s in (16, 32) for s2 in (2 * n2 * s, 2 * n2 * s + 2)]
    envs = [e for e in envs if decide.allowed(check, e)]
    assert len(envs) >= 20 and decide.decide(check, envs)[0]["disjoint"][0] == "proved"


def test_difference_cases_across_ctas_keep_a_symbols_terms_together(monkeypatch):
    """Seed 205: two CTAs (``r`` in {0, 8}) of a v4 store; the CTA digit's stride lies between the lanes'
    (no chain order).  The cases of the digits' differences, across CTAs too, with each coefficient's
    monomials summed before their ranges are taken (``s'*(128Δr + 16Δw1 + 96Δl0 + 8Δw0)``: zero only when
    the bracket is; coefficient by coefficient, 1,747 cases survived) and the word's 60-bit coefficient
    in exact integers: proved (unknown at 2 s before); the decider agrees over two CTAs and ``s`` up to
    256.  Exported (``--smt2``), the query is the whole formula, as before (``test_smt2``)."""
    made = []
    real = injective.differences
    monkeypatch.setattr(injective, "differences", lambda *a: made.append(real(*a)) or made[-1])
    check = tilecheck.load(Path(__file__).parent / "data" / "disjoint" / "seed205_unknown_exports_the_query.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "disjoint"]
    assert o.status == "proved", o.message
    assert made and made[0] is not None  # the cases were made (the solver alone: unknown at 2 s)
    assert len(made[0].children()) < 16  # one monomial's terms together: a handful of cases, not 1,747
    envs = [{"r": r, "s": s} for s in range(8, 257, 8) for r in (0, 8)]
    assert decide.decide(check, envs)[0]["disjoint"][0] == "proved"
