"""The exact test for the contiguity of swizzled atoms and ldmatrix/stmatrix rows
(``proofs/swizzle.py``): its lemma against the integers, its verdicts against the brute-force
decider, and the seed-13 campaign's slow and unknown cases (``tests/data/swizzled_rows``), each
decided and agreeing with the decider."""
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tilecheck
from tilecheck import decide
from tilecheck.encode import Query
from tilecheck.fuzz.differential import compare
from tilecheck.layout import Swizzle
from tilecheck.proofs import contiguity
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
