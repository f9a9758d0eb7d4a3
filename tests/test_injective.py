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
