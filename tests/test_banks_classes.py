"""banks over lanes a symbolic stride apart (``warp._by_residue_classes``): two groups of 16 lanes
``s`` elements apart, ``s`` a symbol.  Once the facts prove the groups never come close, the count
depends only on residues; each verdict here is held to the brute-force decider over a grid that
covers every residue the count can see (so proved and refuted must both match it exactly)."""
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import tilecheck
from tilecheck import decide
from tilecheck.check import loads
from tilecheck.proofs import warp
from tilecheck.report import prove


def _text(op="st", dtype="float16", vector=4, swizzle=(1, 2, 5), multiple_of=16, more="", apart="s >= 4*n"):
    esize = {"float16": 2, "float32": 4, "uint8": 1}[dtype]
    kind = {"float16": "u16", "float32": "f32", "uint8": "u8"}[dtype]
    opcode = f"{op}.shared{'.v%d' % vector if vector > 1 else ''}.{kind}"
    mem, reg = ("dst", "src") if op == "st" else ("src", "dst")
    sw = "Sw<%d,%d,%d> o " % swizzle if swizzle else ""
    # A is declared with 4 rows and the view takes the old 2 (A[0:2, ...]): the same accessed offsets, at most
    # s + v*n - 1 unswizzled; a swizzle keeps an offset in its 2^(B+M)-element block (at most 32 here), so the
    # accessed offsets stay below s + v*n + 31 <= 3s + v*n, the declared extent (s >= 16): bounds holds
    return f'''arch = "sm_80"
threads = 32
assume = ["r + 16 <= n", "{apart}"{', "' + more + '"' if more else ''}]
[symbols.n]
min = 24
max = 64
multiple_of = 8
[symbols.r]
min = 0
max = 48
multiple_of = 4
[symbols.s]
min = 16
multiple_of = {multiple_of}
[tensors.A]
dtype = "{dtype}"
scope = "shared"
shape = [4, "n", {vector}]
layout = "{sw}(4,n,{vector}):(s,{vector},1)"
align = {vector * esize}
[tensors.R]
dtype = "{dtype}"
scope = "register"
shape = [32, {vector}]
layout = "(32,{vector}):(1@laneid,1)"
[[apply]]
opcode = "{opcode}"
scope = "warp"
{mem} = "A[0:2, r:r+16, :]: l0 l1 v -> (l0 l1) v"
{reg} = "R"
'''


def _grid_verdict(check, multiple_of: int) -> str:
    """The decider's banks verdict over n = 64 (every r allowed), every r and s over 256 elements
    from 256 (= 4n): every residue of r and of s the count can depend on (it depends on them modulo
    m, at most 256 for every case here: 2^(M+S+B) = 256, and 128 unswizzled)."""
    envs = [env for r in range(0, 49, 4) for s in range(256, 256 + 256, multiple_of)
            if decide.allowed(check, env := {"n": 64, "r": r, "s": s})]
    assert envs
    return decide.decide(check, envs)[0]["banks"][0]


CASES = [  # (op, dtype, vector, swizzle, multiple_of of s, one more fact), the grid's verdict
    (("st", "float16", 4, (1, 2, 5), 16, ""), "proved"),  # the seed-32 case's operand
    (("st", "float16", 4, (1, 2, 5), 8, ""), "proved"),
    (("st", "float16", 4, (1, 2, 5), 4, ""), "refuted"),
    (("st", "float16", 4, (1, 2, 5), 4, "s % 64 == 32"), "proved"),
    (("ld", "float32", 2, (2, 2, 4), 8, ""), "refuted"),  # 8-byte loads: lane pairs may merge
    (("ld", "float32", 2, (2, 2, 4), 8, "s % 64 == 32"), "refuted"),
    (("ld", "float32", 4, (3, 2, 3), 4, "s % 128 == 64"), "refuted"),
    (("st", "float32", 1, None, 4, ""), "refuted"),  # unswizzled: m grows to a whole row of banks
    (("st", "float32", 1, None, 4, "s % 32 == 16"), "proved"),
    (("st", "float32", 1, None, 16, "s % 64 == 16"), "proved"),
    (("ld", "uint8", 4, (1, 4, 3), 4, ""), "refuted"),
]


@pytest.mark.parametrize("case,verdict", CASES, ids=lambda c: "-".join(map(str, c)) if isinstance(c, tuple) else c)
def test_classes_agree_with_the_decider_on_every_residue(case, verdict, monkeypatch):
    """The prover's verdict, by the class decision, equals the decider's over the whole grid (and
    the verdict recorded here, so that both verdicts are known to occur); a refutation replays."""
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)  # the verdicts, not the time
    # no refutation by enumeration at the symbols' ends first: the class decision must find it
    monkeypatch.setattr(warp, "_refute_by_enumeration", lambda *a, **k: None)
    decided = []
    real = warp._by_residue_classes

    def spy(*a, **k):
        out = real(*a, **k)
        decided.append(out)
        return out
    monkeypatch.setattr(warp, "_by_residue_classes", spy)
    check = loads(_text(*case))
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert decided and decided[-1] is not None, "the class decision did not apply"
    assert o.status == _grid_verdict(check, case[4]) == verdict, o.message
    if o.status == "refuted":
        assert decide.violation_at(check, 0, "banks", o.counterexample) is None


@pytest.mark.parametrize("case", [("st", "float16", 4, (1, 2, 5), 16, ""), ("st", "float32", 1, None, 4, ""),
                                  ("ld", "float32", 2, (2, 2, 4), 8, "")], ids=lambda c: "-".join(map(str, c)))
def test_a_stride_that_may_be_small_is_split_at_a_threshold(case, monkeypatch):
    """Without a fact keeping the groups apart (``s >= 16``: they interleave for small s), the stride
    is split at the least value from which they are apart (``warp._stride_threshold``): below it each
    value of s is decided with the lanes one base plus constants, above it by the residues.  The
    verdict equals the decider's over every s up to 528 (the small values and a whole period)."""
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)
    monkeypatch.setattr(warp, "_refute_by_enumeration", lambda *a, **k: None)
    split, decided = [], []
    real_split, real = warp._stride_threshold, warp._by_residue_classes
    monkeypatch.setattr(warp, "_stride_threshold", lambda *a, **k: split.append(real_split(*a, **k)) or split[-1])
    monkeypatch.setattr(warp, "_by_residue_classes", lambda *a, **k: decided.append(real(*a, **k)) or decided[-1])
    check = loads(_text(*case, apart="s >= 16"))
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert split and split[-1] is not None and len(split[-1][1]) > 0, "no split"
    assert decided and decided[-1] is not None
    envs = [env for r in range(0, 49, 4) for s in range(16, 16 + 512, case[4])
            if decide.allowed(check, env := {"n": 64, "r": r, "s": s})]
    assert o.status == decide.decide(check, envs)[0]["banks"][0], o.message
    if o.status == "refuted":
        assert decide.violation_at(check, 0, "banks", o.counterexample) is None


def _spy(monkeypatch, name: str) -> list:
    """What ``warp.<name>`` returns, call by call (the verdicts below must come from it); the
    performance budget and the enumerations' time bounds raised: a loaded test machine can take more
    than 1 s, or 0.1 s to enumerate the points next to the facts' model (verdicts, not time)."""
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)
    monkeypatch.setattr(warp, "REFUTE_FIRST_S", 10.0)
    monkeypatch.setattr(warp, "SMALL_DOMAIN_S", 10.0)
    monkeypatch.setattr(warp, "MAXIMUM_SEARCH_S", 10.0)  # (the maximum's levels: exact, as a fact)
    seen, real = [], getattr(warp, name)
    monkeypatch.setattr(warp, name, lambda *a, **k: seen.append(real(*a, **k)) or seen[-1])
    return seen


def test_the_seed_32_case_is_proved_by_the_class_decision(monkeypatch):
    """The seed-32 campaign's unknown (banks timed out at 1 s in every tree before): proved by the
    class decision, and no assignment of the decider's grid conflicts."""
    decided = _spy(monkeypatch, "_by_residue_classes")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "symbolic_stride_swizzled.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert o.status == "proved", o.message
    assert decided == [True]
    assert _grid_verdict(check, 16) == "proved"


def test_the_residues_a_base_can_take_decide_a_sectors_count(monkeypatch):
    """A thread-scope ``ld.global.v2.f64`` of a swizzled tile with a symbolic stride (seed 33,
    --swizzled: unknown at the 1 s budget before): the bad residues of the lanes' common base are
    all out of reach of the residues the base can take (``warp._residues``), so it is proved with no
    count query; the decider agrees over a whole period of ``s`` (2,048 elements) and every ``o``."""
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)  # verdicts, not time
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "sectors_symbolic_stride_residues.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "sectors"]
    assert o.status == "proved", o.message
    envs = [{"s": s, "o": v} for s in range(8, 8 + 2048, 8) for v in range(0, 8, 2)]
    assert decide.decide(check, envs)[0]["sectors"][0] == "proved"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-40, 40), st.sampled_from([(), ("x",), ("y",), ("x", "y"), ("x", "x")])),
                min_size=1, max_size=4),
       st.sampled_from([4, 32, 128, 256]), st.integers(0, 3), st.integers(1, 70), st.integers(1, 9))
def test_residues_cover_every_value(terms, m, lo, span_x, span_y):
    """``warp._residues`` lists every residue the polynomial takes over its variables' ranges (a
    superset is all a proof needs; every value is checked here by evaluation)."""
    from types import SimpleNamespace

    from tilecheck.poly import Context, Poly
    ctx = Context()
    ctx.var("x", lo, lo + span_x - 1)
    ctx.var("y", -lo, -lo + span_y - 1)
    p = Poly()
    for c, mono in terms:
        t = Poly.const(c)
        for v in mono:
            t = t * Poly.var(v)
        p = p + t
    got = warp._residues(SimpleNamespace(ctx=ctx), [p], m, limit=1 << 20)
    for x in range(lo, lo + span_x):
        for y in range(-lo, -lo + span_y):
            assert (p.eval({"x": x, "y": y}) % m,) in got


def test_the_seed_34_small_stride_case_is_refuted_and_replays(monkeypatch):
    """Seed 34 (--swizzled): lane groups ``s`` elements apart with ``s >= 4`` (unknown at the 1 s
    budget before): split at the threshold, refuted, and the decider agrees at the counterexample."""
    split = _spy(monkeypatch, "_stride_threshold")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "small_stride_threshold.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert split and split[-1] is not None
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "banks", o.counterexample) is None


def test_a_conflict_next_to_the_facts_model_is_found_by_enumeration(monkeypatch):
    """Seed 34 (--swizzled): 32 byte stores ``4*(n//4)`` bytes apart conflict when ``n//4`` is even; the
    facts' model (n = 12, ``n//4`` = 3) has none, its neighbour n = 16 does.  Enumerated at the points
    next to the model (``Facts.neighbours``) before any query: refuted at n = 16, the smallest n with a
    conflict (the decider finds none at n = 12 or 14), and the counterexample replays."""
    found = _spy(monkeypatch, "_refute_by_enumeration")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "neighbour_of_the_model.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert found and found[0] is not None and found[0][0]["n"] == 16
    assert o.status == "refuted", o.message
    assert o.counterexample["symbols"]["n"] == 16
    assert decide.violation_at(check, 0, "banks", o.counterexample) is None
    for n in (12, 14):
        envs = [{"n": n, "s": 384 * (n // 4), "o": v} for v in range(0, 8, 2)]
        assert decide.decide(check, envs)[0]["banks"][0] == "proved"


def test_a_swizzle_block_crossing_is_refuted_by_the_residues_without_the_lanes_digits(monkeypatch):
    """Seed 58 (--swizzled): 32 lanes store at ``o + lane`` under ``Sw<3,3,7>``; the count depends on
    ``o mod 8192`` (over the old residue limit: unknown at 1 s before) and conflicts exactly when the
    lanes cross a 1024-element block.  The residue rule runs before the lanes' swizzled values are
    made, so its query's background holds none of their digits; the bad residues come as a few runs
    (``_runs``); refuted at the smallest such offset, o = 993, and the decider agrees there and finds
    no conflict at o = 992."""
    decided = _spy(monkeypatch, "_by_residue")
    from tilecheck.proofs import banks
    made, real = [], banks.violation
    monkeypatch.setattr(banks, "violation", lambda q: made.append(real(q)) or made[-1])
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "swizzle_block_crossing.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert decided and decided[0] is not None and decided[0] is not True
    assert str(decided[0]).count("<=") == 16  # 16 runs of bad residues, not ~500 equalities
    assert o.status == "refuted", o.message
    assert o.counterexample["symbols"]["o"] == 993
    assert decide.violation_at(check, 0, "banks", o.counterexample) is None
    assert decide.decide(check, [{"o": 992}, {"o": 993}])[0]["banks"][0] == "refuted"
    assert decide.decide(check, [{"o": 992}])[0]["banks"][0] == "proved"
    # the residue query's background: the symbol's bounds, no swizzle digit of any lane
    (v,) = made
    names = set().union(*(vs for _, vs in v.background))
    assert "o" in names and not any(n.startswith("swz") for n in names), sorted(names)


def test_residues_the_start_never_reaches_are_left_out_by_its_content(monkeypatch):
    """Seed 58 (--swizzled): the plain start is ``8*(...)`` (every coefficient a multiple of 8), the
    residues the count finds over the ideal are odd: none reachable, proved by the residue rule
    without the solver (unknown at 1 s before); the decider agrees on a grid of allowed values.  (One
    thread: ``Sectors.always_ideal`` proves it first; turned off here, the residue rule must.)"""
    from tilecheck.proofs.sectors import RULE
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "sectors_residue_content.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "sectors"]
    assert o.status == "proved" and check.threads == 1
    monkeypatch.setattr(RULE, "always_ideal", lambda lanes, width: False)
    decided = _spy(monkeypatch, "_by_residue")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "sectors"]
    assert decided == [True]
    assert o.status == "proved", o.message
    envs = [{"s": s, "s2": s2, "s3": s3} for s in (8, 16, 24, 40) for s2 in (16, 24, 48, 56, 80)
            for s3 in (48, 64, 80, 96, 112) if s2 >= 2 * s and s3 >= s2]
    assert len(envs) > 20
    assert decide.decide(check, envs)[0]["sectors"][0] == "proved"


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 40)), max_size=60))
def test_runs_hold_the_same_pairs(bad):
    runs = warp._runs(bad)
    assert sorted({(k, r) for k, lo, hi in runs for r in range(lo, hi + 1)}) == sorted(set(bad))
    assert all(a[0] != b[0] or a[2] + 1 < b[1] for a, b in zip(runs, runs[1:]))  # maximal runs


def test_a_stride_that_never_reaches_the_threshold_is_counted_value_by_value(monkeypatch):
    """Seed 58 (--swizzled): 32 lanes ``s`` elements apart with ``s`` in [0, 7]: no separation query (the
    stride is below the threshold everywhere), each of its 8 values counted as one base plus constants;
    refuted (unknown at 1 s before), and the decider agrees at the counterexample."""
    split = _spy(monkeypatch, "_stride_threshold")
    bases = _spy(monkeypatch, "_one_base")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "stride_below_threshold_everywhere.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "sectors"]
    assert split and split[0] is not None and split[0][2] is False
    assert len(bases) >= 8 and len(bases) % 8 == 0  # (the maximum's levels count them again)
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "sectors", o.counterexample) is None


def test_bounds_the_facts_imply_make_a_domain_small_enough_to_enumerate(monkeypatch):
    """Seed 77: ``s2 >= 72*s`` with ``s2 <= 65`` leaves ``s = 0`` although ``s`` is declared up to 2^20:
    over the declared ranges the assignments were too many to enumerate and ``banks`` was unknown at its
    1 s budget; over the implied ones (``Query._tighten``) they are 128, every one counted.  The count
    is the exact maximum, and the brute-force decider, over every allowed assignment, finds the same."""
    monkeypatch.setattr(warp, "SMALL_DOMAIN_S", 30.0)  # the enumeration's time bound, not what is tested
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "seed77_implied_bounds_small_domain.toml")
    assert warp._every_assignment(check) is None  # the declared ranges: too many
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert o.status == "refuted", o.message
    cex = o.counterexample
    assert cex["exact"] is True and decide.violation_at(check, 0, "banks", cex) is None
    envs = [{"r": r, "s": 0, "s2": s2} for r in range(4) for s2 in range(2, 66) if s2 % 2 == 0]
    assert all(decide.allowed(check, e) for e in envs)
    assert not decide.allowed(check, {"r": 0, "s": 1, "s2": 64}) and not decide.allowed(check, {"r": 0, "s": 0, "s2": 3})
    assert max(decide.count(check, 0, "banks", e) for e in envs) == cex["count"] == o.count


def test_bad_residues_in_runs_decide_the_seed_112_case(monkeypatch):
    """Seed 112 (--swizzled): 32 lanes ``n2//2`` elements apart under ``Sw<2,0,5>``; 14,208 of the
    16,384 residue pairs (``P mod 128``, ``n2//2 mod 128``) are over the ideal, and the formula with
    one disjunct per pair was over FORMULA_ATOMS: unknown at the 1 s budget and at 20 s.  Grouped by
    the other residues, ``P``'s bad values fall in 3 sets of runs (``_by_runs``): refuted, and the
    decider agrees at the counterexample."""
    runs = _spy(monkeypatch, "_by_runs")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "seed112_bad_residues_in_runs.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert runs and len(runs[0]) == 3
    assert o.status == "refuted", o.message
    assert decide.violation_at(check, 0, "banks", o.counterexample) is None


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 1), st.integers(0, 15), st.integers(0, 3), st.integers(0, 2)), min_size=1,
               max_size=80), st.booleans())
def test_the_bad_residue_formula_in_runs_holds_the_same_combinations(bad, pointer):
    """``_bad_formula`` in whichever form is shortest (runs of ``P`` or one disjunct per combination)
    is equivalent (Z3) to the disjunction of the combinations themselves."""
    import z3
    x, y, z, b = z3.Ints("x y z b")
    bad = [(k if pointer else 0, (p, r1, r2)) for k, p, r1, r2 in bad]
    got = warp._bad_formula(None, b if pointer else None, bad, [x, y, z])
    plain = z3.Or(*[z3.And(*([b == k] if pointer else []), x == p, y == r1, z == r2) for k, (p, r1, r2) in bad])
    s = z3.Solver()
    s.add(got != plain, x >= 0, x < 16)  # (x is a residue: P mod 16)
    assert s.check() == z3.unsat


def test_a_variable_with_one_value_is_a_constant_in_the_residue_table(monkeypatch):
    """Seed 121: the plain start ``4*r2 + 8*n2*r + 16*warp*n*n2`` of a one-warp CTA (warp = 0); with
    the warp's monomial kept, ``n`` (up to 2^20) made the residue table 131,072 combinations (over the
    limit: the classes fell back to every residue of the start, 32,768 rows, ~1 s).  The one-valued
    variable is substituted first: 512 combinations, proved, and the decider agrees on every allowed
    ``r`` and ``r2`` at several ``n``."""
    tables = _spy(monkeypatch, "_residues")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "seed121_one_valued_warp.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert tables and tables[0] is not None and len(tables[0]) <= 512 and "n" not in tables[0].variables
    assert o.status == "proved", o.message
    envs = [{"n": n, "r": r, "n2": 8, "r2": 0} for n in (11, 12, 64, 100, 4099) for r in range(8) if r + 4 <= n]
    assert all(decide.allowed(check, e) for e in envs)
    assert decide.decide(check, envs)[0]["banks"][0] == "proved"


def test_small_strides_count_the_residues_the_start_takes_and_a_variable_goes_in_runs(monkeypatch):
    """Seed 123 (--families): stmatrix rows ``n`` elements apart under ``Sw<3,3,6>``.  The 58 strides
    below the threshold were each counted over all 4,096 residues of the start (over the limit: no
    residue decision), and the bad (repeat, ``n mod 4096``) pairs, 12,096, made a formula over
    FORMULA_ATOMS: unknown at the 1 s budget.  Now each small stride counts only the residues its start
    takes (3 each), and ``n mod 4096`` goes in runs: refuted, the worst count 8 (the decider's at the
    counterexample), and the decider finds conflicts from n = 16 on, none at n = 8."""
    runs = _spy(monkeypatch, "_by_runs")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks"
                           / "seed123_small_strides_and_runs_of_a_variable.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert runs
    assert o.status == "refuted", o.message
    cex = o.counterexample
    assert decide.violation_at(check, 0, "banks", cex) is None
    # the maximum, 8 (by the residue rule's levels), is reached at other symbols than the smallest
    # counterexample's (whose own count is beside it): the decider counts each
    assert cex["exact"] and o.count == cex["count"] == 8
    assert cex["wavefronts"] == decide.count(check, 0, "banks", cex["symbols"])
    assert decide.count(check, 0, "banks", cex.get("worst_symbols", cex["symbols"])) == 8
    assert decide.decide(check, [{"n": 8}])[0]["banks"][0] == "proved"
    assert decide.decide(check, [{"n": 16}])[0]["banks"][0] == "refuted"


class _Terms:
    """A stand-in for ``Query`` in ``_bad_formula``: a variable's term is a Z3 integer of its name."""

    @staticmethod
    def z(p):
        import z3
        (name,) = p.variables()
        return z3.Int(name)


RESTS = (lambda u, w: (3 * u + w) % 5, lambda u, w: (u + 2 * w) % 7, lambda u, w: (2 * u + w) % 4)


@settings(max_examples=80, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 1), st.integers(0, 7), st.integers(0, 2), st.integers(0, 7)), min_size=1,
               max_size=60), st.booleans(), st.integers(1, 3))
def test_the_bad_residue_formula_with_a_table_in_any_form_holds_the_same_combinations(picks, pointer, n):
    """With a table of the variables' residues (``u`` in [0, 2] by value, ``w`` mod 8) that give the
    other ``n`` residues (``RESTS``), every form ``_bad_formula`` may choose (one disjunct per
    combination, by residues or by the variables, or one term's values in runs) is equivalent (Z3,
    under those definitions) to the bad combinations stated by the variables."""
    import z3
    rests = RESTS[:n]
    table = warp._Residues()
    table.variables, table.moduli = ["u", "w"], [None, 8]
    for u in range(3):
        for w in range(8):
            table.setdefault(tuple(f(u, w) for f in rests), []).append((u, w))
    x, b, u, w = z3.Ints("x b u w")
    ys = [z3.Int(f"y{i}") for i in range(n)]
    bad = sorted({(k if pointer else 0, (p, *(f(a, c) for f in rests))) for k, p, a, c in picks})
    got = warp._bad_formula(_Terms(), b if pointer else None, bad, [x, *ys], table, lead=1)
    stated = z3.Or(*[z3.And(*([b == k] if pointer else []), x == combo[0], u == a0, w % 8 == a1)
                     for k, combo in bad for a0, a1 in table[combo[1:]]])
    s = z3.Solver()
    s.add(got != stated, u >= 0, u <= 2, x >= 0, x < 8, *(y == f(u, w % 8) for y, f in zip(ys, rests)))
    assert s.check() == z3.unsat


def test_a_stride_with_one_allowed_value_is_a_constant(monkeypatch):
    """Seed 133 (--families): stmatrix rows ``s`` apart with ``s`` in [8, 15], ``multiple_of = 8``: one
    value.  As a symbolic stride, its one value was counted over every residue of the start (the odd
    ones too, which ``64*(...)`` never takes) and the formula left to the solver: unknown at the 1 s
    budget.  As the constant 8 the lanes are one base plus constants, and the start's content rules
    out every bad residue: proved with no query; the decider agrees over a whole period of ``o``."""
    classes = _spy(monkeypatch, "_by_residue_classes")
    decided = _spy(monkeypatch, "_by_residue")
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "seed133_one_valued_stride.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert classes == [] and decided == [True]
    assert o.status == "proved", o.message
    envs = [{"s": 8, "r": r, "o": v} for r in (0, 8) for v in range(0, 4096 + 64, 64)]
    assert decide.decide(check, envs)[0]["banks"][0] == "proved"


def test_seed144s_one_lane_32_byte_sectors_are_at_the_ideal_without_a_query():
    """Seed 144 (--swizzled): one thread's ``ld.global.v4.u64`` of a swizzled tensor, symbolic strides.
    A 32-byte aligned atom is one sector, and a one-lane warp-instruction's ideal is 1: proved with no
    count (the residue formula the swizzle made was unknown at 1 s); the decider agrees at every
    assignment it enumerates, and each rule alone is a theorem of the model (held to it below)."""
    from tilecheck.encode import Query
    from tilecheck.fuzz.differential import compare
    from tilecheck.proofs import facts as _facts, sectors
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "seed144_one_lane_32_byte_sectors.toml")
    q = Query(check, check.applies[0])
    q.facts = _facts.decide(check, 10)
    v = sectors.violation(q)
    assert v.static and v.unknown is None and str(v.formula) == "False"  # proved with no query
    (o,) = [o for o in tilecheck.prove(check, timeout=2).applies[0].obligations if o.name == "sectors"]
    assert o.status == "proved"
    r = compare(check, timeout=2)
    assert not r.problems and r.statuses[0]["sectors"] == "proved"


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(1, 32).flatmap(lambda n: st.tuples(
    st.sampled_from([1, 2, 4, 8, 16, 32]),
    st.lists(st.integers(0, 64), min_size=n, max_size=n))))
def test_the_always_ideal_sectors_rules_hold_in_the_model(case):
    """32-byte atoms, or one lane: ``memory_model``'s count never exceeds its ideal for aligned atoms."""
    from tilecheck import memory_model
    from tilecheck.proofs.sectors import RULE
    width, slots = case
    addresses = {lane: s * width for lane, s in enumerate(slots)}  # aligned to the width
    if RULE.always_ideal(len(addresses), width):
        assert memory_model.sectors(addresses, width) <= memory_model.ideal_sectors(addresses, width)
    for lane in addresses:  # one lane alone
        one = {lane: addresses[lane]}
        assert RULE.always_ideal(1, width)
        assert memory_model.sectors(one, width) <= memory_model.ideal_sectors(one, width)
