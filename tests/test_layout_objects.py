"""Layouts from Python: duck-typed CuTe layout objects (.shape, .stride) wherever a layout string is accepted."""
import pytest

import tilecheck
from tilecheck import InputError, parse_layout


class CuteLayout:
    """A stand-in for pycute's / tensor-layouts' Layout: nothing but .shape and .stride."""

    def __init__(self, shape, stride):
        self.shape, self.stride = shape, stride


class Swizzle:
    def __init__(self, bits, base, shift):
        self.bits, self.base, self.shift = bits, base, shift


class ComposedLayout:  # pycute spells a swizzled layout ComposedLayout(layoutB, offset, layoutA)
    def __init__(self, b, offset, a):
        self.layoutB, self.offset, self.layoutA = b, offset, a
        self.shape = a.shape


def check_with(layout):
    return tilecheck.from_dict({
        "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [15, 2, 7, 2], "layout": layout, "align": 16},
                    "R": {"dtype": "float32", "scope": "register", "shape": [15, 2, 7, 2],
                          "layout": "(15,2,7,2):(8,2,120,4)"}},
        "apply": [{"opcode": "ld.global.v4.b32", "dst": "R: i b j d -> j i (d b)", "src": "A: i b j d -> j i (d b)"}]})


def test_object_gives_the_same_layout_as_the_string():
    text = "(15,2,7,2):(4,1,60,2)"
    obj = check_with(CuteLayout((15, 2, 7, 2), (4, 1, 60, 2)))
    assert obj.tensors["A"].layout == parse_layout(text) == check_with(text).tensors["A"].layout
    assert tilecheck.prove(obj).verdict == "proved"


def test_object_with_wrong_strides_is_refuted_like_the_string():
    obj = check_with(CuteLayout((15, 2, 7, 2), (4, 2, 60, 1)))  # word axes swapped: atoms not contiguous
    report = tilecheck.prove(obj)
    assert report.verdict == "refuted"
    assert report.applies[0].obligation("contiguity").status == "refuted"


def test_nested_and_rank_one_objects():
    c = tilecheck.from_dict({
        "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [8], "layout": CuteLayout(((2, 4),), ((1, 2),))},
                    "B": {"dtype": "float32", "scope": "global", "shape": [8], "layout": CuteLayout(8, 1)},
                    "R": {"dtype": "float32", "scope": "register", "shape": [8], "layout": CuteLayout([8], [1])}},
        "apply": [{"opcode": "ld.global.b32", "dst": "R: (r w=1) -> r w", "src": "A: (r w=1) -> r w"}]})
    assert str(c.tensors["A"].layout) == "((2,4)):((1,2))"
    assert str(c.tensors["B"].layout) == "(8):(1)" and str(c.tensors["R"].layout) == "(8):(1)"


@pytest.mark.parametrize("layout, message", [
    (ComposedLayout(CuteLayout((8,), (1,)), 0, CuteLayout((8,), (1,))), "swizzled or composed layout (ComposedLayout) is not supported yet"),
    (Swizzle(3, 4, 3), "swizzled or composed layout (Swizzle) is not supported yet"),
    (object(), "an object with .shape and .stride"),
    (42, "an object with .shape and .stride (nested tuples of ints), got int"),
    (CuteLayout((15, 2, 7, 2), (4, 1, 60)), "shape and stride have different nesting"),
    (CuteLayout((15, 2, 7, 2), (4, 1, 60, "d")), "must be nested tuples of ints, got 'd'"),
    (CuteLayout((15, 2, 7, 2), (4, 1, 60, True)), "must be nested tuples of ints, got True"),
    (CuteLayout((15, 2, 14), (4, 1, 60)), "has 3 modes, the tensor's shape has 4"),
    (CuteLayout((15, 2, 7, 0), (4, 1, 60, 2)), "shape entries must be positive"),
])
def test_bad_objects_are_one_line_input_errors(layout, message):
    with pytest.raises(InputError) as e:
        check_with(layout)
    assert message in str(e.value) and str(e.value).startswith("tensors.A: layout: ")
    assert "\n" not in str(e.value)


def test_real_tensor_layouts_classes():
    tl = pytest.importorskip("tensor_layouts")
    c = check_with(tl.Layout((15, 2, 7, 2), (4, 1, 60, 2)))
    assert c.tensors["A"].layout == parse_layout("(15,2,7,2):(4,1,60,2)")
    assert tilecheck.prove(c).verdict == "proved"
    nested = tl.Layout(((2, 4), 3), ((1, 2), 8))
    assert tilecheck.check._layout_object(nested) == parse_layout("((2,4),3):((1,2),8)")
    swizzled = tl.compose(tl.Swizzle(3, 4, 3), tl.Layout((15, 2, 7, 2), (4, 1, 60, 2)))
    with pytest.raises(InputError, match="swizzled or composed layout .ComposedLayout. is not supported yet"):
        check_with(swizzled)
    with pytest.raises(InputError, match=r"swizzled or composed layout \(Swizzle\)"):
        check_with(tl.Swizzle(3, 4, 3))
