"""CuTe's printed layouts in and out, and CuTe's layout algebra, against an independent CuTe
implementation (``tensor-layouts``, the test extra) as the oracle: every form round-trips and every
value, size, cosize, coalesce, complement and composition equals the oracle's."""
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tilecheck
from tilecheck import strategies
from tilecheck.errors import InputError
from tilecheck.expr import Expr
from tilecheck.layout import Layout, ThreadStride, parse_layout
from tilecheck.poly import Poly

tl = pytest.importorskip("tensor_layouts")

ROOT = Path(__file__).resolve().parent.parent
SWIZZLES = [(1, 0, 1), (2, 2, 3), (3, 3, 3), (3, 4, 3), (2, 4, 4)]


# the oracle's view of a layout ------------------------------------------------------------------

def oracle(lay: Layout):
    """The same layout as a tensor-layouts value (swizzled: ``compose(Swizzle, Layout)``)."""
    if lay.rank == 1 and not isinstance(lay.shape[0], tuple):
        o = tl.Layout(lay.shape[0], lay.stride[0])  # a rank-1 integer mode is CuTe's 8:1
    else:
        o = tl.Layout(lay.shape, lay.stride)
    if lay.swizzle is not None:
        sw = lay.swizzle
        o = tl.compose(tl.Swizzle(sw.bits, sw.base, sw.shift), o)
    return o


def from_oracle(o) -> Layout:
    """The oracle's layout read back through its own printing (``(8, 64) : (64, 1)``)."""
    return parse_layout(str(o))


def unit_strides_zero(lay: Layout) -> Layout:
    """``lay`` with every size-1 mode's stride 0.  CuTe (C++ ``bw_coalesce`` of a static 1, and
    pycute) makes a composed size-1 mode ``_1:_0``; tensor-layouts keeps a stride there (``1:1``),
    which no index ever reads."""
    def fix(s, d):
        if isinstance(s, tuple):
            return tuple(fix(x, y) for x, y in zip(s, d))
        return 0 if s == 1 else d
    return Layout(lay.shape, fix(lay.shape, lay.stride), lay.swizzle)


def nonneg(lay: Layout) -> bool:
    return all(d >= 0 for d in _leaves(lay.stride))


def _leaves(x):
    return [y for e in x for y in _leaves(e)] if isinstance(x, tuple) else [x]


# random CuTe layouts, drawn through one integer source (Hypothesis or a seeded Random) -----------

LEAF_SHAPES = [1, 2, 3, 4, 6, 8, 16]
LEAF_STRIDES = [0, 1, 2, 3, 4, 8, 16, 64, -1, -2, 5]


def _pick(draw_int, options):
    return options[draw_int(0, len(options) - 1)]


def _mode(draw_int, depth, leaf):
    if depth and draw_int(0, 3) == 0:
        parts = [_mode(draw_int, depth - 1, leaf) for _ in range(draw_int(2, 3))]  # (x) is x: no 1-tuples inside
        return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
    return leaf()


def random_layout(draw_int, kind="any", max_size=2048) -> Layout:
    """A nested layout of rank 1..3 (depth up to 2, at most ``max_size`` indices).  ``kind``:
    "any" (zero, negative and arbitrary strides), "injective" (each stride a permuted compact
    stride times a gap of 1 or 2: complement is defined), "pow2" (shapes and strides powers of
    two, with zeros: composition's divisibility mostly holds)."""
    budget = [max_size]

    def extent(options):
        s = _pick(draw_int, [o for o in options if o <= budget[0]] or [1])
        budget[0] //= s
        return s

    if kind == "any":
        leaf = lambda: (extent(LEAF_SHAPES), _pick(draw_int, LEAF_STRIDES))  # noqa: E731
    else:
        shapes = [1, 2, 4, 8] if kind == "pow2" else LEAF_SHAPES
        leaf = lambda: (extent(shapes), None)  # noqa: E731
    modes = [_mode(draw_int, 2, leaf) for _ in range(draw_int(1, 3))]
    shape, stride = tuple(m[0] for m in modes), tuple(m[1] for m in modes)
    if kind != "any":
        flat = _leaves(shape)
        order = list(range(len(flat)))
        for i in range(len(order) - 1, 0, -1):  # a permutation drawn through draw_int
            j = draw_int(0, i)
            order[i], order[j] = order[j], order[i]
        strides, span = [0] * len(flat), 1
        for k in order:
            span *= _pick(draw_int, [1, 1, 2]) if kind == "injective" else 1
            strides[k] = span if kind == "injective" or draw_int(0, 5) else 0
            span *= flat[k]
        it = iter(strides)
        stride = _refill(shape, it)
    return Layout(shape, stride)


def _refill(shape, it):
    return tuple(_refill(s, it) if isinstance(s, tuple) else next(it) for s in shape)


def hyp(draw):
    return lambda lo, hi: draw(st.integers(lo, hi))


@st.composite
def cute_layouts(draw, kind="any"):
    return random_layout(hyp(draw), kind)


# the comparisons (each returns the number of values compared; a mismatch raises) ---------------

def check_roundtrip(lay: Layout) -> int:
    for style in ("c++", "dsl"):
        text = lay.cute(style)
        assert parse_layout(text) == lay, (style, text)
    assert parse_layout(str(lay)) == lay
    if lay.swizzle is None:
        assert from_oracle(oracle(lay)) == lay  # the oracle's printing reads back to the same layout
    return 4 if lay.swizzle is None else 3


def check_values(lay: Layout) -> int:
    o = oracle(lay)
    n = lay.size()
    assert n == tl.size(o)
    ours = lay(np.arange(n))
    theirs = [o(i) for i in range(n)]
    assert [lay(i) for i in range(n)] == theirs == list(ours), lay
    if nonneg(lay) and lay.swizzle is None:  # CuTe's cosize is L(size-1)+1; equal to ours then
        assert lay.cosize() == tl.cosize(o) == theirs[-1] + 1
        return n + 2
    return n + 1


def check_coalesce(lay: Layout) -> int:
    ours = lay.coalesce()
    theirs = tl.coalesce(oracle(lay))
    if lay.swizzle is not None:  # the oracle's Sw o offset o L: its swizzle, offset 0, L coalesced
        sw = theirs.outer
        assert (sw.bits, sw.base, sw.shift) == (lay.swizzle.bits, lay.swizzle.base, lay.swizzle.shift)
        assert theirs.offset == 0
        theirs = theirs.inner
    assert ours == Layout(*_plain(from_oracle(theirs)), lay.swizzle), lay
    assert [ours(i) for i in range(lay.size())] == [lay(i) for i in range(lay.size())]
    return 1


def check_complement(lay: Layout, cotarget: int) -> int:
    ours = lay.complement(cotarget)
    theirs = from_oracle(tl.complement(oracle(lay), cotarget))
    assert ours == theirs, (lay, cotarget)
    return 1


def check_composition(a: Layout, b: Layout) -> str:
    """'equal' (both answer, the same layout, and A(B(i)) wherever B(i) is in A's domain; "equal but a
    size-1 mode's stride" when only such a stride differs), 'both refuse', or
    'we refuse' (CuTe's divisibility condition fails; the oracle may still answer)."""
    try:
        ours = a.composition(b)
    except InputError as e:
        assert "\n" not in str(e)
        try:
            theirs = tl.compose(oracle(a), oracle(b))
        except Exception:
            return "both refuse"
        inside = [i for i in range(b.size()) if 0 <= b(i) < a.size()]
        if [theirs(i) for i in inside] != [a(b(i)) for i in inside]:
            return "we refuse, the oracle's answer is not A(B(i))"
        return "we refuse"
    theirs = from_oracle(tl.compose(oracle(a), oracle(b)))  # it answers where CuTe's conditions hold
    assert unit_strides_zero(ours) == unit_strides_zero(theirs), (a, b, ours, theirs)
    inside = [i for i in range(b.size()) if 0 <= b(i) < a.size()]  # CuTe coalesces A: beyond its size
    assert [ours(i) for i in inside] == [a(b(i)) for i in inside]  # A's last mode is not A's own
    return "equal" if ours == theirs else "equal but a size-1 mode's stride"


# Hypothesis: each property on its own (shrinks to a readable layout) ----------------------------

@settings(max_examples=1000, deadline=None)
@given(cute_layouts())
def test_random_layouts_round_trip_and_evaluate_as_the_oracle(lay):
    check_roundtrip(lay)
    check_values(lay)
    check_coalesce(lay)


@settings(max_examples=200, deadline=None)
@given(strategies.layouts())
def test_the_strategies_layouts_round_trip_and_evaluate_as_the_oracle(drawn):
    _, text = drawn
    lay = parse_layout(text)
    check_roundtrip(lay)
    check_values(lay)
    check_coalesce(lay)


@settings(max_examples=200, deadline=None)
@given(cute_layouts("injective"), st.integers(1, 300))
def test_complement_is_the_oracles(lay, cotarget):
    check_complement(lay, cotarget)
    check_complement(lay, lay.cosize())
    assert lay.complement() == lay.complement(lay.cosize())


@settings(max_examples=300, deadline=None)
@given(cute_layouts("pow2"), cute_layouts("pow2"))
def test_composition_is_the_oracles(a, b):
    check_composition(a, b)


@settings(max_examples=100, deadline=None)
@given(cute_layouts(), st.sampled_from(SWIZZLES))
def test_swizzled_layouts_round_trip_and_evaluate_as_the_oracle(lay, sw):
    b, m, s = sw
    sw_lay = parse_layout(f"Sw<{b},{m},{s}> o {lay}")
    check_roundtrip(sw_lay)
    check_values(sw_lay)
    assert sw_lay.coalesce() == Layout(*_plain(lay.coalesce()), sw_lay.swizzle)


def _plain(lay):
    return lay.shape, lay.stride


# a counted sweep over >= 1,000 random layouts (the numbers in the report) -------------------------

SWEEP = 500


def sweep(n: int = SWEEP, seed: int = 33) -> dict:
    rng = random.Random(seed)
    draw = rng.randint
    counts = {"layouts": 0, "round-trip": 0, "values": 0, "coalesce": 0, "complement": 0,
              "composition equal": 0, "composition equal but a size-1 mode's stride": 0,
              "composition both refuse": 0, "composition we refuse": 0,
              "composition we refuse, the oracle's answer is not A(B(i))": 0}
    for k in range(n):
        lay = random_layout(draw, "any")
        if k % 4 == 0:
            sw = SWIZZLES[k // 4 % len(SWIZZLES)]
            lay = parse_layout(f"Sw<{sw[0]},{sw[1]},{sw[2]}> o {lay}")
        counts["layouts"] += 1
        counts["round-trip"] += check_roundtrip(lay)
        counts["values"] += check_values(lay)
        counts["coalesce"] += check_coalesce(lay)
        inj = random_layout(draw, "injective")
        counts["layouts"] += 1
        counts["round-trip"] += check_roundtrip(inj)
        counts["complement"] += check_complement(inj, draw(1, 4 * inj.cosize()))
        for kind in ("pow2", "injective"):  # injective: shapes 3 and 6 too, CuTe's conditions may fail
            a, b = random_layout(draw, kind), random_layout(draw, kind, max_size=64)
            counts["layouts"] += 2
            counts["round-trip"] += check_roundtrip(a) + check_roundtrip(b)
            counts["composition " + check_composition(a, b)] += 1
    return counts


def test_sweep_agrees_with_the_oracle_everywhere():
    counts = sweep()
    assert counts["layouts"] >= 1000
    assert counts["composition equal"] >= SWEEP // 2  # the draws exercise composition, not refusals
    print(counts)


# the examples' layouts ------------------------------------------------------------------------------

def example_layouts():
    out = []
    for path in sorted((ROOT / "examples").glob("*.toml")):
        check = tilecheck.load(path)
        out += [(f"{path.name}:{t.name}", t.layout) for t in check.tensors.values()]
    return out


def same(a: Layout, b: Layout) -> bool:
    """Equal layouts; a symbolic leaf compared as a polynomial (``(k)`` is ``k``: an Expr is
    equal only to itself)."""
    def leaf(x):
        if isinstance(x, Expr):
            return x.poly(None, {n: Poly.var(n) for n in x.names()})
        return x if isinstance(x, ThreadStride) else Poly.const(x)

    def walk(x, y):
        if isinstance(x, tuple) or isinstance(y, tuple):
            return isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y) and all(map(walk, x, y))
        return leaf(x) == leaf(y)
    return a.swizzle == b.swizzle and walk(a.shape, b.shape) and walk(a.stride, b.stride)


def test_every_example_layout_round_trips():
    lays = example_layouts()
    assert len(lays) >= 40
    compared = 0
    for where, lay in lays:
        for style in ("c++", "dsl"):
            assert same(parse_layout(lay.cute(style)), lay), where
        assert same(parse_layout(str(lay)), lay), where
        if not lay.symbols() and not lay.thread_axes():
            check_values(lay)
            compared += 1
    assert compared >= 20


# CuTe's printed forms, by hand ------------------------------------------------------------------------

def test_cute_printed_forms_parse():
    assert parse_layout("(_8,_64):(_64,_1)") == parse_layout("(8,64):(64,1)")
    sw = parse_layout("Sw<3,4,3> o (8,64):(64,1)")
    assert parse_layout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)") == sw  # CuTe C++
    assert parse_layout("S<3,4,3> o 0 o (8,64):(64,1)") == sw  # the CuTe Python DSL
    assert parse_layout("_8:_1") == parse_layout("(8):(1)") == Layout((8,), (1,))
    assert parse_layout("((_4,_3)):((_1,_4))").shape == ((4, 3),)
    assert parse_layout("(_4,(_2,n)):(_-1,(_4,_8))").stride == (-1, (4, 8))
    assert parse_layout("(_4,n):(_1,_4)").symbols() == ["n"]  # _4 is static, n a symbol


def test_cute_printing():
    assert parse_layout("(8,64):(64,1)").cute() == "(_8,_64):(_64,_1)"
    assert parse_layout("Sw<3,4,3> o (8,64):(64,1)").cute() == "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"
    assert parse_layout("Sw<3,4,3> o (8,64):(64,1)").cute("dsl") == "S<3,4,3> o 0 o (8,64):(64,1)"
    assert parse_layout("8:1").cute() == "_8:_1"
    assert parse_layout("((4,3)):((1,4))").cute() == "((_4,_3)):((_1,_4))"
    assert parse_layout("(n,4):(4,1)").cute() == "(n,_4):(_4,_1)"
    assert str(parse_layout("(_8,_64):(_64,_1)")) == "(8,64):(64,1)"  # tilecheck's own spelling


def test_cute_documentation_examples():
    """The results CuTe's layout-algebra tutorial gives."""
    p = parse_layout
    assert p("(2,(1,6)):(1,(6,2))").coalesce().cute() == "_12:_1"
    assert p("20:2").composition(p("(4,5):(1,4)")).cute() == "(_4,_5):(_2,_8)"
    assert p("(10,2):(16,4)").composition(p("(5,4):(1,5)")).cute() == "(_5,(_2,_2)):(_16,(_80,_4))"
    assert p("4:2").complement(16).cute() == "(_2,_2):(_1,_8)"
    assert p("(2,2):(1,6)").complement(24).cute() == "(_3,_2):(_2,_12)"
    assert p("(8,64):(64,1)")(9) == 65 and p("Sw<3,4,3> o (8,64):(64,1)")(2) == 144
    assert p("(n,4):(1,n)").size({"n": 3}) == 12 and str(p("(n,4):(1,n)").size()) == "(n)*(4)"


def test_swizzle_keeps_outside_in_composition():
    a = parse_layout("Sw<3,4,3> o (8,64):(64,1)")
    b = parse_layout("(4,8):(8,1)")
    c = a.composition(b)
    assert c.swizzle == a.swizzle
    assert [c(i) for i in range(32)] == [a(b(i)) for i in range(32)]


@pytest.mark.parametrize("call, message", [
    (lambda: parse_layout("Sw<3,4,3> o _8 o (8,64):(64,1)"), "offset '_8'"),
    (lambda: parse_layout("S<3,4,3> o n o (8,64):(64,1)"), "offset 'n'"),
    (lambda: parse_layout("(n,4):(1,n)").coalesce(), "concrete"),
    (lambda: parse_layout("(32,4):(1@laneid,1)").composition(parse_layout("4:1")), "@laneid"),
    (lambda: parse_layout("(2,2):(1,1)").complement(), "not injective"),
    (lambda: parse_layout("4:-1").complement(8), "negative"),
    (lambda: parse_layout("(6,2):(2,100)").composition(parse_layout("4:1")), "do not divide"),
    (lambda: parse_layout("Sw<3,4,3> o (8,64):(64,1)").complement(), "swizzled"),
    (lambda: parse_layout("8:1").composition(parse_layout("Sw<1,1,1> o 8:1")), "swizzled"),
])
def test_refusals_are_one_line_input_errors(call, message):
    with pytest.raises(InputError) as e:
        call()
    assert message in str(e.value) and "\n" not in str(e.value)


def test_check_file_errors_exit_2(tmp_path):
    base = ('[tensors.A]\ndtype = "float32"\nscope = "global"\nshape = [8, 64]\n'
            'layout = "Sw<3,4,3> o {off} o (_8,_64):(_64,_1)"\n')
    cases = [(base.format(off="_8"), "offset '_8'"),
             ("[symbols._8]\nmin = 1\n" + base.format(off="_0"), "symbols._8")]
    for k, (text, message) in enumerate(cases):
        f = tmp_path / f"c{k}.toml"
        f.write_text(text)
        r = subprocess.run([sys.executable, "-m", "tilecheck", "prove", str(f)], capture_output=True, text=True,
                           cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        assert r.returncode == 2, r.stderr
        assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_help_documents_the_layout():
    doc = Layout.__doc__
    for word in ("cute()", "size()", "cosize()", "coalesce()", "complement(", "composition(", "L(i)"):
        assert word in doc
