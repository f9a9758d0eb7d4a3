"""Layouts and views: exact semantics, and the symbolic encoding agrees with them."""
import itertools

from hypothesis import given, settings, strategies as st

from tilecheck.errors import InputError
from tilecheck.layout import Layout, parse_layout, row_major
from tilecheck.poly import Context, Poly
from tilecheck.view import parse_operand


def test_parse_and_evaluate():
    lay = parse_layout("(15,2,7,2):(4,1,60,2)")
    assert lay.extents() == [15, 2, 7, 2]
    assert lay((1, 1, 2, 1))[""] == 4 + 1 + 120 + 2
    assert lay.cosize() == 14 * 4 + 1 + 6 * 60 + 2 + 1
    assert str(lay) == "(15,2,7,2):(4,1,60,2)"


def test_nested_mode_splits_colexicographically():
    lay = parse_layout("((2,4),3):((1,2),8)")
    assert lay.extents() == [8, 3]
    assert [lay((i, 0))[""] for i in range(8)] == [0, 1, 2, 3, 4, 5, 6, 7]
    lay = parse_layout("((2,4),3):((4,1),8)")
    assert [lay((i, 1))[""] for i in range(8)] == [8, 12, 9, 13, 10, 14, 11, 15]


def test_thread_strides_and_symbols():
    lay = parse_layout("(4,32,3,4):(1@warpid,1@laneid,4,1)")
    assert lay((2, 5, 1, 3)) == {"": 7, "warpid": 2, "laneid": 5}
    lay = parse_layout("(n,k):(k,1)")
    assert lay((2, 3), {"n": 10, "k": 16})[""] == 35


def test_row_major_default():
    assert row_major((3, 4, 5)).stride == (20, 5, 1)


def test_bad_layouts():
    for text in ["(4,4)", "(4,4):(1,)", "(4,(2,2)):(1,2)", "(4,0):(1,1)", "(4,4):(1,x@lane)", "(4,4:(1,1)"]:
        try:
            parse_layout(text)
        except InputError as e:
            assert "\n" not in str(e)
        else:
            raise AssertionError(text)


def test_view_split_merge_and_slice():
    v = parse_operand("A[2:6, :]: r (v=2 w) -> r v w", {"A": (8, 8)})
    assert v.shape == (4, 2, 4)
    assert v.index((1, 1, 3)) == (3, 7)
    v = parse_operand("A: i b j d -> j i (d b)", {"A": (15, 2, 7, 2)})
    assert v.shape == (7, 15, 4)
    assert v.index((3, 5, 2)) == (5, 0, 3, 1)


@st.composite
def layouts(draw):
    rank = draw(st.integers(1, 3))
    shape, stride = [], []
    for _ in range(rank):
        if draw(st.booleans()):
            sub = draw(st.lists(st.integers(1, 3), min_size=2, max_size=3))
            shape.append(tuple(sub))
            stride.append(tuple(draw(st.integers(-5, 9)) for _ in sub))
        else:
            shape.append(draw(st.integers(1, 4)))
            stride.append(draw(st.integers(-5, 9)))
    return Layout(tuple(shape), tuple(stride)), draw(st.integers(-20, 20))


@settings(max_examples=200, deadline=None)
@given(layouts())
def test_polynomial_encoding_agrees_with_evaluation(lo):
    """The offset polynomial with its defining constraints pins the same value as the semantics."""
    import z3
    lay, offset = lo
    ext = lay.extents()
    for idx in itertools.islice(itertools.product(*[range(e) for e in ext]), 20):
        ctx = Context()
        p = lay.poly([Poly.const(i) for i in idx], ctx, {}, offset)[""]
        zv = ctx.z3vars()
        s = z3.Solver()
        s.add(*ctx.background(zv))
        s.add(p.z3(zv) != lay(idx, {}, offset)[""])
        assert s.check() == z3.unsat
