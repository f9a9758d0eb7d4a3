"""Hypothesis strategies of check files with tensor maps (``[tensormaps.NAME]``, issue 30).

``tensormap_checks()`` draws a check file (as a dict for ``check.from_dict``) with one global tensor and
one tensor map ``M`` of it: every field at or next to the driver's boundaries (dims 0/1/2^32/2^32+1,
strides off by a byte or at 2^40, box 0/1/256/257, element strides 0..9, rank 0..6, every enum), each
numeric field concrete or an expression of up to two symbols with small ranges (so that the decider
can enumerate every allowed value).  Kept apart from ``tilecheck/strategies.py`` (the apply
strategies)."""
from __future__ import annotations

from hypothesis import strategies as st

from .families.bulk import FAMILY as BULK  # the non-tensor copies' spelling
from .families.tma import FAMILY as TMA  # the copies' spelling (the family's own)
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


# --- whole check files with a TMA copy (issue 30, item 6) -----------------------------------------------

TMA_DTYPES = {"uint8": 1, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}
SPAN = {"none": None, "32B": 32, "64B": 64, "128B": 128}
SW_BITS = {"none": 0, "32B": 1, "64B": 2, "128B": 3}


@st.composite
def tma_checks(draw, symbolic: bool = False):
    """A check file's dict with a global tensor ``G``, a tensor map ``T`` of it, a shared tensor ``S`` and
    one TMA copy (``cp.async.bulk.tensor.{1,2,3}d``): a load (now and then multicast, with its
    ``cta_mask``) or a store; in one draw of four a non-tensor bulk copy follows (``_bulk_copy``: a load
    in the TMA load's mbarrier phase, its ``expect_tx`` then the sum or the box's alone, or a copy of its
    own).  The box is concrete; the shared tensor's layout is where TMA lands the box
    (rows padded to the swizzle span) or, now and then, another: dense rows, another swizzle; the
    destination on or off the pattern's repeat; ``expect_tx`` the bytes delivered or a clamped box's;
    the innermost coordinate on 16 bytes or not.  ``symbolic``: the global extent, the coordinates,
    the stage offset and ``expect_tx`` are expressions of symbols with small ranges."""
    dtype = draw(st.sampled_from(tuple(TMA_DTYPES)))
    esize = TMA_DTYPES[dtype]
    rank = draw(st.sampled_from((2, 2, 1, 3)))
    swz = draw(st.sampled_from(tuple(SPAN)))
    span = SPAN[swz] or 128
    # within the swizzle's span: a wider box is the descriptor's refutation (swizzle_span, drawn by
    # tensormap_checks), and TMA's landing of it is not modelled (tma_landing unknown)
    inner_bytes = draw(st.sampled_from([n for n in (16, 32, 64, 128) if n <= span]))
    inner = max(1, inner_bytes // esize)
    box = [inner] + [draw(st.sampled_from((1, 2, 4, 8))) for _ in range(rank - 1)]
    es = [1] + [draw(st.sampled_from((1, 1, 1, 2, 3))) for _ in range(rank - 1)]
    visits = [inner] + [-(-b // e) for b, e in zip(box[1:], es[1:])]
    b = SW_BITS[swz]
    cb = b if draw(st.integers(0, 4)) else draw(st.sampled_from((0, 1, 2, 3)))  # the consumer's pattern
    padded = draw(st.integers(0, 5)) > 0
    row = (16 << b) // esize if b and padded and inner * esize < (16 << b) else inner  # elements between rows
    shape = visits[::-1]  # the shared tensor: outermost first
    if draw(st.integers(0, 19)) == 0:
        shape[0] += 1  # not the box's shape: tma_map
    strides, acc = [], 1
    for k, n in enumerate(reversed(shape)):
        strides.append(acc)
        acc *= row if k == 0 else n
    layout = f"({','.join(map(str, shape))}):({','.join(map(str, reversed(strides)))})"
    if cb:
        layout = f"Sw<{cb},{4 - (esize.bit_length() - 1)},3> o {layout}"
    symbols = {}
    sym = lambda name, lo, hi, m=1: symbols.setdefault(name, {"min": lo, "max": hi, **({"multiple_of": m} if m > 1 else {})})  # noqa: E731
    # the global tensor: N contiguous elements a row, the outer extents a few boxes deep
    outer = [box[k] * es[k] * draw(st.integers(1, 3)) for k in range(1, rank)]
    if symbolic and draw(st.booleans()):
        sym("N", 16 * inner, 16 * inner + draw(st.sampled_from((0, 16, 64))), 16)
        n_inner = "N"
    else:
        n_inner = inner * draw(st.integers(1, 4))
        if draw(st.integers(0, 9)) == 0:  # rows of a byte count not a multiple of 16 (triton #10927's 1022)
            n_inner += max(1, 8 // esize) if esize < 16 else 0
    dims = [n_inner] + outer
    gstrides, acc = [], f"{esize}*N" if n_inner == "N" else esize * n_inner
    for k in range(1, rank):
        gstrides.append(acc)
        acc = f"{acc}*{outer[k - 1]}" if isinstance(acc, str) else acc * outer[k - 1]
    g = {"dtype": dtype, "scope": "global", "shape": dims[::-1], "align": draw(st.sampled_from((16, 256, 1024)))}
    tmap = {"tensor": "G", "dims": dims, "strides": gstrides, "box": box, "swizzle": swz}
    if any(e != 1 for e in es):
        tmap["element_strides"] = es
    # the coordinates, innermost first, in elements (the innermost on 16 bytes, or not)
    unit = draw(st.sampled_from((16 // esize or 1, 16 // esize or 1, inner, 1, 8)))
    if symbolic and draw(st.booleans()):
        sym("c", 0, draw(st.integers(0, 3)))
        c0 = f"{unit}*c"
    else:
        c0 = unit * draw(st.integers(0, 2))
    coords = [c0]
    for k in range(1, rank):
        step = box[k] * es[k]
        if symbolic and k == 1 and draw(st.booleans()):
            sym("r", 0, draw(st.integers(0, 2)))
            coords.append(f"{step}*r")
        else:
            coords.append(step * draw(st.integers(0, 2)) + (draw(st.sampled_from((0, 1))) if draw(st.integers(0, 9)) == 0 else 0))
    s = {"dtype": dtype, "scope": "shared", "shape": shape, "layout": layout,
         "align": draw(st.sampled_from((1024,) * 6 + (512, 256, 128)))}
    stage = draw(st.sampled_from((0,) * 6 + (1024, 1024, 128, 64)))  # bytes past the base: a pipeline stage
    if symbolic and draw(st.booleans()):
        sym("s", 0, 2)
        s["offset"] = f"{max(1, (stage or 1024) // esize)}*s"
    elif stage:
        s["offset"] = max(1, stage // esize)
    load = draw(st.integers(0, 4)) > 0
    if not load and rank > 1 and draw(st.integers(0, 2)) == 0:  # (concrete draws too: the GPU stage runs a grid)
        # a grid: CTA t stores the tile at row step*t (the boxes apart), or at a smaller step (they overlap:
        # tma_disjoint); the symbol read from %ctaid.x, each CTA its own value
        step = box[1] * es[1]
        symbols["t"] = {"from": "ctaid.x", "min": 0, "max": draw(st.integers(1, 3))}
        coords[1] = f"{draw(st.sampled_from((step, step, max(1, step - 1), 1)))}*t"
    shared_view = "S: " + " ".join("ijk"[:rank]) + " -> (" + " ".join("ijk"[:rank]) + ")"
    global_view = "G[" + ", ".join(["0:1"] * rank) + "]"
    ap = {"tensormap": "T", "coords": coords}
    if load:
        multicast = draw(st.integers(0, 5)) == 0
        ap = {"opcode": TMA.spelling(rank, True, multicast), "dst": shared_view, "src": global_view, **ap}
        fan = 1
        if multicast:
            mask = draw(st.sampled_from((1, 3, 5, 15, 0xFFFF)))
            ap["cta_mask"] = mask
            fan = bin(mask).count("1")
        nbytes = esize
        for v in visits:
            nbytes *= v
        how = draw(st.sampled_from(("exact",) * 5 + ("one", "clamped", "off")))
        if how == "exact":
            ap["expect_tx"] = nbytes * fan
        elif how == "one":
            ap["expect_tx"] = nbytes
        elif how == "off":
            ap["expect_tx"] = nbytes * fan + draw(st.sampled_from((16, -16, 2)))
        elif symbolic:  # the bytes of a box clamped to R rows inside the tensor
            sym("R", 1, visits[-1] if rank > 1 else 2)
            ap["expect_tx"] = f"{nbytes // visits[-1] if rank > 1 else nbytes}*R"
        else:
            ap["expect_tx"] = max(0, nbytes - esize * inner)
    else:
        ap = {"opcode": TMA.spelling(rank, False), "dst": global_view, "src": shared_view, **ap}
    tensors, applies = {"G": g, "S": s}, [ap]
    if draw(st.integers(0, 3)) == 0:  # and a non-tensor bulk copy: in the TMA load's phase, or on its own
        bulk_tensors, bulk = draw(_bulk_copy(symbolic, sym, grid="t" not in symbols))
        tensors |= bulk_tensors
        if load and "expect_tx" in ap and draw(st.integers(0, 2)) > 0 and bulk["opcode"] == BULK_LOAD:
            bulk["phase"] = ap["phase"] = "p"  # one mbarrier phase: the TMA load's expect_tx is the sum
            del bulk["expect_tx"]
            if draw(st.integers(0, 4)) > 0 or how != "exact":  # (else: the box alone, the bulk bytes missed)
                ap["expect_tx"] = f"{ap['expect_tx']} + {bulk['size']}" if isinstance(ap["expect_tx"], str) \
                    else ap["expect_tx"] + (bulk["size"] if isinstance(bulk["size"], int) else 0)
        applies.append(bulk)
    data = {"arch": "sm_90"}
    if symbols:
        data["symbols"] = symbols
    data["tensors"] = tensors
    data["tensormaps"] = {"T": tmap}
    data["apply"] = applies
    if symbolic and not symbols:  # every symbolic draw has a symbol: the stage offset
        data["symbols"] = {"s": {"min": 0, "max": 2}}
        s["offset"] = f"{max(1, 1024 // esize)}*s"
        data = {"arch": "sm_90", "symbols": data["symbols"], "tensors": data["tensors"], "tensormaps": data["tensormaps"],
                "apply": data["apply"]}
    return data


BULK_LOAD, BULK_STORE = BULK.spelling(True), BULK.spelling(False)
BULK_DTYPES = {"uint8": 1, "uint16": 2, "float32": 4, "float64": 8}


@st.composite
def _bulk_copy(draw, symbolic: bool, sym, grid: bool = False):
    """A non-tensor bulk copy (``cp.async.bulk``) between a 1-D global tensor ``H`` and a 1-D shared tensor
    ``B``: ``n`` 16-byte atoms, a load (``expect_tx`` its size, now and then off) or a store; now and then
    a size off 16 or off the views' bytes, a start off 16 bytes, a slice past the tensor's end.  ``sym``
    declares a symbol (the slice's start, ``symbolic``); ``grid``: a store's start symbol may be read from
    ``%ctaid.x`` (each CTA its own run; ``disjoint`` compares two CTAs').  Returns (tensors, apply)."""
    dtype = draw(st.sampled_from(tuple(BULK_DTYPES)))
    w = 16 // BULK_DTYPES[dtype]  # elements an atom
    n = draw(st.sampled_from((1, 2, 4, 8)))
    rows = draw(st.integers(1, 3))  # the global tensor holds `rows` runs of n atoms
    size = 16 * n
    odd = draw(st.sampled_from(("none",) * 12 + ("size", "views", "start", "past")))
    if odd == "size":
        size += draw(st.sampled_from((-8, 8, -1)))  # not a multiple of 16: bulk_copy
    elif odd == "views":
        size += 16  # a multiple of 16, but not the views' bytes: bulk_copy
    run = w * n
    if symbolic and draw(st.booleans()):
        sym("q", 0, rows - 1 + (odd == "past"))
        start = f"{run}*q"
    else:
        start = run * draw(st.integers(0, rows - 1)) + (run * rows if odd == "past" else 0)
    if odd == "start" and w > 1:
        start = f"{start}+1" if isinstance(start, str) else start + 1  # 16 bytes off: alignment
    end = f"{start}+{run}" if isinstance(start, str) else start + run
    tensors = {"H": {"dtype": dtype, "scope": "global", "shape": [run * rows], "align": 16},
               "B": {"dtype": dtype, "scope": "shared", "shape": [run], "align": 128}}
    shared, glob = f"B: (r w={w}) -> r w", f"H[{start}:{end}]: (r w={w}) -> r w"
    load = draw(st.integers(0, 2)) > 0
    if not load and grid and isinstance(start, str) and start.startswith(f"{run}*q") and draw(st.booleans()):
        sym("q", 0, rows - 1)["from"] = "ctaid.x"  # a grid of stores: CTA q its run
    if load:
        ap = {"opcode": BULK_LOAD, "dst": shared, "src": glob, "size": size,
              "expect_tx": size + (draw(st.sampled_from((16, -16))) if draw(st.integers(0, 9)) == 0 else 0)}
    else:
        ap = {"opcode": BULK_STORE, "dst": glob, "src": shared, "size": size}
    return tensors, ap
