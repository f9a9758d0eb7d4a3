"""The decider's tables on numpy int64 (``decide.fits_int64``): exact wherever it is used, Python ints
wherever a value could wrap."""
import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from tilecheck import decide as enumerator, oracle
from tilecheck.check import from_dict
from tilecheck.layout import parse_layout


def _store(shape, layout, offset=0):
    return from_dict({"threads": 32, "tensors": {
        "A": {"dtype": "float32", "scope": "global", "shape": shape, "layout": layout, "offset": offset},
        "R": {"dtype": "float32", "scope": "register", "shape": [32, 4], "layout": "(32,4):(1@laneid,1)"}},
        "apply": [{"opcode": "st.global.v4.b32", "scope": "warp", "dst": "A", "src": "R"}]}, "<case>")


def _tables(check, exact):
    old = enumerator.EXACT_INT64
    try:
        enumerator.EXACT_INT64 = exact
        ops = enumerator.Operands(check, check.applies[0], {})
        return ops.arrays(check.applies[0].memory), ops._index_bounds(check.applies[0].memory)
    finally:
        enumerator.EXACT_INT64 = old


def test_a_plain_table_is_made_on_int64_and_equals_the_python_int_table():
    check = _store([32, 4], "(32,4):(4,1)")
    fast, bounds = _tables(check, enumerator.EXACT_INT64)
    slow, none = _tables(check, 0)  # a limit of 0: every table on Python ints
    assert bounds == [32, 4] and none is None
    assert enumerator.fits_int64(check.tensors["A"].layout, bounds, {}, 0)
    assert all((a == b).all() for a, b in zip(fast, slow))


def test_strides_that_would_wrap_int64_keep_python_ints_and_the_same_verdicts():
    # 2^61 per lane: lane 31's offset is past 2^63, which int64 would wrap to a negative number
    check = _store([32, 4], f"(32,4):({2**61},1)")
    layout = check.tensors["A"].layout
    assert not enumerator.fits_int64(layout, [32, 4], {}, 0)
    cols, _ = _tables(check, enumerator.EXACT_INT64)
    assert cols[0].dtype == object and int(cols[0][31, 0]) == 31 * 2**61
    fast = enumerator.decide(check)
    old = enumerator.TABLE_LIMIT
    try:
        enumerator.TABLE_LIMIT = 0  # point by point, Python ints
        plain = enumerator.decide(check)
    finally:
        enumerator.TABLE_LIMIT = old
    assert fast == plain and fast[0]["overflow"][0] == "refuted"


def test_a_zero_extent_sub_mode_is_left_to_python_ints():
    # numpy's x % 0 is 0 with a warning; Python ints raise, and the scalar path decides
    layout = parse_layout("((n,4),8):((1,0),4)")  # a symbolic extent: 0 at n = 0
    assert enumerator.fits_int64(layout, [32, 8], {"n": 2}, 0)
    assert not enumerator.fits_int64(layout, [32, 8], {"n": 0}, 0)


_EXTENTS = st.integers(1, 6)
_STRIDES = st.one_of(st.integers(-(2**40), 2**40), st.integers(-(2**62), 2**62))


@st.composite
def _layouts(draw):
    modes = draw(st.lists(st.lists(st.tuples(_EXTENTS, _STRIDES), min_size=1, max_size=3), min_size=1, max_size=3))
    shape = ",".join(f"({','.join(str(e) for e, _ in m)})" if len(m) > 1 else str(m[0][0]) for m in modes)
    stride = ",".join(f"({','.join(str(d) for _, d in m)})" if len(m) > 1 else str(m[0][1]) for m in modes)
    text = f"({shape}):({stride})"
    if draw(st.booleans()):
        b, m = draw(st.integers(1, 3)), draw(st.integers(0, 4))
        text = f"Sw<{b},{m},{draw(st.integers(b, 6))}> o {text}"
    return parse_layout(text), [draw(st.integers(1, 40)) for _ in modes], draw(_STRIDES)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_layouts(), st.randoms(use_true_random=False))
def test_fits_int64_means_the_int64_values_are_the_python_int_values(case, rnd):
    """Whenever ``fits_int64`` says yes, ``oracle.layout_value`` over indices within the bounds (negative
    ones included) gives the same values on int64 as on Python ints."""
    layout, bounds, offset = case
    if not enumerator.fits_int64(layout, bounds, {}, offset):
        return
    idx = [np.array([rnd.randint(-b, b) for _ in range(16)] + [b, -b], dtype=np.int64) for b in bounds]
    fast = oracle.layout_value(layout, tuple(idx), {}, offset)
    slow = oracle.layout_value(layout, tuple(i.astype(object) for i in idx), {}, offset)
    for k in slow:
        assert [int(v) for v in np.broadcast_to(fast[k], (18,))] == [int(v) for v in np.broadcast_to(slow[k], (18,))]
