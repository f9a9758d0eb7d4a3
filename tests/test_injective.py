"""The injectivity lemma (``proofs.injective``) across CTAs: a CTA digit whose two copies the facts keep
apart (both ``r % 8 == 0``) counts with its actual difference, and the facts' division digits are
given to the chain query (``x = 8*q + rem``: with ``q`` dropped, ``x % 8 == 0`` was lost)."""
import tomllib
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
