"""alignment refuted class by class of the residues (``runner._by_classes``): ``P mod m`` is a constant
on each class of its variables' residues, so a violation ``rest and P mod m != 0`` is ``rest`` on a bad
class -- a query with no product under a ``mod``.  Each refutation is replayed (the obligation's
``explain`` and the brute-force decider); a property test holds the bad classes to enumeration."""
from pathlib import Path

import z3
from hypothesis import given, settings, strategies as st

import tilecheck
from tilecheck import decide
from tilecheck.encode import Query, Witness
from tilecheck.poly import Context, Poly
from tilecheck.proofs import alignment, runner
from tilecheck.proofs import facts as _facts

DATA = Path(__file__).parent / "data" / "alignment"


def _query(check):
    q = Query(check, check.applies[0])
    q.facts = _facts.decide(check, 10)
    v = alignment.violation(q)
    names = runner._names(v.formula)
    background = [q.build(c) for c, _ in runner.relevant(names, q.constraints())]
    return q, v, background


def test_seed143s_guarded_alignment_refutation_is_found_class_by_class():
    """Seed 143 (--families ..., guard): a guarded ``ld.global.v2.b16`` of rows ``k`` apart whose first
    byte is ``2*(lane*k + c + k*r)``: the solver took 0.1-1.1 s (the product under the mod), a class
    of odd ``c`` with the atom in bounds is a linear query; the counterexample replays."""
    check = tilecheck.load(DATA / "seed143_guarded_refutation.toml")
    q, v, background = _query(check)
    assert v.classes is not None
    found = runner._by_classes(q, v.classes, background, 10.0)
    assert found is not None
    solver, answer, model = found
    assert answer == z3.sat and solver.check() == z3.sat
    env = {n: model.eval(var, model_completion=True).as_long() for n, var in q.zv.items()}
    explained = v.explain(Witness(q, env))
    assert explained is not None
    message, cex = explained
    assert cex["byte_offset"] % 4 != 0
    assert decide.violation_at(check, 0, "alignment", cex) is None  # the decider replays it
    (o,) = [o for o in tilecheck.prove(check, timeout=2).applies[0].obligations if o.name == "alignment"]
    assert o.status == "refuted" and decide.violation_at(check, 0, "alignment", o.counterexample) is None


def test_an_aligned_guarded_tile_has_no_bad_class():
    """The same tile with ``c`` a multiple of 2 and ``k`` of 2: every class's first byte is a multiple
    of 4, so no class is asked (None) and the obligation is proved; the decider agrees."""
    text = (DATA / "seed143_guarded_refutation.toml").read_text()
    text = text.replace("[symbols.c]\nmin = 0", "[symbols.c]\nmin = 0\nmultiple_of = 2")
    text = text.replace("[symbols.k]\nmax = 1048576", "[symbols.k]\nmax = 1048576\nmultiple_of = 2")
    check = tilecheck.loads(text)
    q, v, background = _query(check)
    assert runner._by_classes(q, v.classes, background, 10.0) is None
    (o,) = [o for o in tilecheck.prove(check, timeout=10).applies[0].obligations if o.name == "alignment"]
    assert o.status == "proved"
    envs = [{"n": n, "k": k, "r": r, "c": c} for n in (1, 3, 40) for k in (2, 4, 6) for r in (0, 1, 5)
            for c in (0, 2, 4)]
    assert decide.decide(check, envs)[0]["alignment"][0] == "proved"


class _Q:
    """What ``_by_classes`` reads of a Query: its context and Z3 variables."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.zv = {v: z3.Int(v) for v in ctx.vars}


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.integers(-7, 7), st.lists(st.sampled_from("xyz"), min_size=0, max_size=3)),
                min_size=1, max_size=4),
       st.sampled_from([2, 4, 8]),
       st.tuples(*[st.tuples(st.integers(-3, 3), st.integers(0, 9)) for _ in "xyz"]))
def test_a_class_refutation_exists_exactly_when_enumeration_finds_a_violation(terms, m, bounds):
    """``P mod m != 0`` over small boxes: ``_by_classes`` finds a model (and it violates) exactly when
    enumerating the box finds a point with ``P mod m != 0`` (every class of residues the variables
    reach is in the box: the first bad class asked is sat), but for a constant ``P``."""
    import itertools
    ctx = Context()
    box = {}
    for name, (lo, size) in zip("xyz", bounds):
        ctx.var(name, lo, lo + size)
        box[name] = range(lo, lo + size + 1)
    p = Poly()
    for c, mono in terms:
        t = Poly.const(c)
        for v in mono:
            t = t * Poly.var(v)
        p = p + t
    q = _Q(ctx)
    background = [c for c, _ in ctx.background(q.zv)]
    expected = any(p.eval(dict(zip("xyz", pt))) % m for pt in itertools.product(*box.values()))
    found = runner._by_classes(q, (p, m, z3.BoolVal(True)), background, 10.0)
    if not expected:
        assert found is None
        return
    if not p.subst(ctx.constants(p.variables())).variables():  # a constant: nothing to enumerate (the
        assert found is None  # solver decides)
        return
    assert found is not None
    _, answer, model = found
    assert answer == z3.sat
    at = {v: model.eval(q.zv[v], model_completion=True).as_long() for v in "xyz"}
    assert all(at[v] in box[v] for v in "xyz") and p.eval(at) % m != 0
