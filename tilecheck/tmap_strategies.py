"""Hypothesis strategies of check files with tensor maps (``[tensormaps.NAME]``, issue 30).

``tensormap_checks()`` draws a check file (as a dict for ``check.from_dict``) with one global tensor and
one tensor map ``M`` of it: every field at or next to the driver's boundaries (dims 0/1/2^32/2^32+1,
strides off by a byte or at 2^40, box 0/1/256/257, element strides 0..9, rank 0..6, every enum), each
numeric field concrete or an expression of up to two symbols with small ranges (so that the decider
can enumerate every allowed value).  Kept apart from ``tilecheck/strategies.py`` (the apply
strategies)."""
from __future__ import annotations

from hypothesis import strategies as st

from .tensormap import DATA_TYPES, INTERLEAVES, L2_PROMOTIONS, SWIZZLES

TENSOR_DTYPE = {"float32_ftz": "float32", "tfloat32": "float32", "tfloat32_ftz": "float32",
                "16u4_align8b": "uint8", "16u4_align16b": "uint8", "16u6_align16b": "uint8"}
SYMBOLS = ("S", "T")


def _near(*points):
    """A value at or next to one of ``points``."""
    return st.builds(lambda p, d: p + d, st.sampled_from(points), st.sampled_from((0, 0, 0, -1, 1, -16, 16)))


DIMS = st.one_of(st.integers(1, 4096), _near(1, 2**32))
STRIDES = st.one_of(st.integers(0, 2**20).map(lambda k: 16 * k), st.integers(0, 2**16), _near(0, 2**40 - 16, 2**40))
BOX = st.one_of(st.integers(1, 256), _near(1, 256, 0))
ELEMENT_STRIDES = st.integers(0, 9)


@st.composite
def _field(draw, values, symbols):
    """A value, or ``a*S + b`` with a symbol of ``symbols``, so that some allowed value hits ``values``' draw."""
    v = draw(values)
    if not symbols or draw(st.integers(0, 3)):
        return v
    s = draw(st.sampled_from(symbols))
    a = draw(st.sampled_from((1, 2, 16, -1)))
    return f"{a}*{s} + {v}"


@st.composite
def _good(draw, symbols, unit, floor=1, top=4096):
    """A multiple of ``unit`` in ``floor*unit..top*unit``, or ``unit*S + that`` with a symbol."""
    v = unit * draw(st.integers(floor, top))
    if symbols and draw(st.booleans()):
        return f"{unit}*{draw(st.sampled_from(symbols))} + {v}"
    return v


@st.composite
def tensormap_checks(draw, symbolic: bool = True):
    """A check file's dict with tensor ``A`` and tensor map ``M`` (``symbolic``: fields may use symbols);
    half of them follow most rules (small dims, strides of 16-byte multiples, a 16- or 32-byte inner box,
    no interleave, an sm_90 swizzle), so that proofs are drawn as well as refutations."""
    symbols = {}
    if symbolic:
        for name in SYMBOLS[:draw(st.integers(0, 2))]:
            lo = draw(st.integers(-2, 40))
            symbols[name] = {"min": lo, "max": lo + draw(st.integers(0, 12)),
                             "multiple_of": draw(st.sampled_from((1, 1, 2, 8, 16)))}
            if -(-lo // symbols[name]["multiple_of"]) * symbols[name]["multiple_of"] > symbols[name]["max"]:
                symbols[name]["multiple_of"] = 1
    names = tuple(symbols)
    if draw(st.booleans()):
        return _mostly_good(draw, symbols, names)
    dtype = draw(st.sampled_from(DATA_TYPES[:13] * 2 + DATA_TYPES[13:]))
    rank = draw(st.sampled_from((1, 2, 3, 3, 4, 5) * 4 + (0, 6)))
    field = lambda values: draw(_field(values, names))  # noqa: E731
    m = {"tensor": "A", "dtype": dtype, "dims": [field(DIMS) for _ in range(rank)],
         "strides": [field(STRIDES) for _ in range(max(rank - 1, 0))], "box": [field(BOX) for _ in range(rank)],
         "element_strides": [field(ELEMENT_STRIDES) for _ in range(rank)],
         "interleave": draw(st.sampled_from(("none",) * 6 + INTERLEAVES[1:])),
         "swizzle": draw(st.sampled_from(SWIZZLES[:4] * 3 + SWIZZLES[4:])),
         "l2_promotion": draw(st.sampled_from(L2_PROMOTIONS)), "oob_fill": draw(st.sampled_from(("none", "nan"))),
         "computed_in": draw(st.sampled_from(("uint64", "uint64", "int64", "int32")))}
    tensor = {"dtype": TENSOR_DTYPE.get(dtype, dtype), "scope": "global", "shape": [1],
              "align": draw(st.sampled_from((8, 16, 32, 32, 64, 1024, 1024)))}
    if draw(st.booleans()):
        tensor["offset"] = field(st.sampled_from((0, 0, 16, 32, 64, 1, 8, 2**54 - 4096, 2**57)))  # 2^57: address_range
    return {"arch": draw(st.sampled_from(("sm_90",) * 6 + ("sm_90a", "sm_80", "sm_100", "sm_100"))), "symbols": symbols,
            "tensors": {"A": tensor}, "tensormaps": {"M": m}}


def _mostly_good(draw, symbols, names):
    dtype = draw(st.sampled_from(DATA_TYPES[:13]))
    bits = {"uint8": 8, "uint16": 16, "float16": 16, "bfloat16": 16, "uint64": 64, "int64": 64, "float64": 64}.get(
        dtype, 32)
    rank = draw(st.integers(1, 5))
    inner = draw(st.sampled_from((128, 256)))  # bits: a 16- or 32-byte inner box
    m = {"tensor": "A", "dtype": dtype, "dims": [draw(_good(names, 1, 1, 4096)) for _ in range(rank)],
         "strides": [draw(_good(names, 16, 1, 4096)) for _ in range(rank - 1)],
         "box": [inner // bits] + [draw(st.integers(1, 16)) for _ in range(rank - 1)],
         "element_strides": [draw(st.integers(1, 8)) for _ in range(rank)],
         "swizzle": draw(st.sampled_from(SWIZZLES[:4])), "oob_fill": "nan" if bits > 8 and draw(st.booleans())
         and dtype.startswith(("float", "bfloat", "tfloat")) else "none"}
    tensor = {"dtype": TENSOR_DTYPE.get(dtype, dtype), "scope": "global", "shape": [1],
              "align": draw(st.sampled_from((16, 32, 256)))}
    if names and draw(st.booleans()):
        tensor["offset"] = f"{128 // (bits // 8) if bits >= 8 else 16}*{draw(st.sampled_from(names))}"
    return {"arch": "sm_90", "symbols": symbols, "tensors": {"A": tensor}, "tensormaps": {"M": m}}
