"""Hypothesis strategies of descriptor check files (issue 31, item 7): a shared tensor and the
shared-memory matrix descriptor that reads it (docs/wgmma.md, "Descriptor check files").

``descriptor_checks()`` draws the dict a descriptor check file gives (``tilecheck.descriptor_file.load``
takes it; ``strategies.to_toml`` writes it).  The tensor's layout is CuTe's ``tile_to_shape`` of a
canonical atom (``Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>``) over one or several instructions'
K, for every mode, major-ness and element width, at an address on or off the swizzle pattern's repeat;
the descriptor is the one ``smem_descriptor.encode`` gives for it (with its K steps' advances), so
about half the draws agree.  The rest carry one or two of the users' bugs (issue 31): another swizzle
mode, LBO and SBO swapped, a field written unshifted or carrying into the next one, a base offset off
its pattern, a start off by 16 or not a multiple of 16, K steps advanced 32 bytes past a swizzle atom,
another major-ness, another arch's word, a tile past the tensor.  ``symbolic``: the address (and with
it the start and the base offset), an offset or the word are expressions of symbols with small ranges,
so that the decider (``decide.descriptors``) enumerates every value.
"""
from __future__ import annotations

from hypothesis import strategies as st

from . import smem_descriptor as sd
from .layout import Layout

DTYPES = {8: ("float8_e4m3", "int8", "uint8", "float8_e5m2"), 16: ("float16", "bfloat16"), 32: ("tf32",)}
SHAPES = (("K", 16), ("K", 8), ("K", 32), ("MN", 16))  # (major, element bits) a descriptor reads
TCGEN05_SHAPES = (("MN", 8), ("MN", 32))  # tcgen05's own: MN-major 8-bit, MN-major tf32 (128B with 32-byte atoms)
MUTATIONS = ("swizzle", "swap", "unshifted", "carry", "base", "start", "advance", "lbo", "sbo", "unaligned",
             "arch", "major", "tile")


def canonical_tile(major: str, mode: str, bits: int, mn: int, ktot: int) -> Layout:
    """CuTe's ``tile_to_shape(Layout_{major}_{mode}_Atom<T>, (MN, ktot))`` in element offsets (atoms along
    MN first), with tilecheck's swizzle on element offsets (``smem_descriptor.swizzle_of``)."""
    T = 16 // (bits // 8)
    sw = sd.swizzle_of(mode, bits)
    if mode == sd.ATOM32:  # MN-major tf32: 128-byte rows (32 elements), 4 K-rows an atom
        n = mn // 32
        return Layout(((32, n), (4, ktot // 4)), ((1, 128), (32, 128 * n)), sw)
    W = sd.WIDTH[mode]
    if major == "K":
        row = T * W  # elements per row of the atom (8 rows)
        kmode, kstride = (ktot, 1) if ktot <= row else ((row, ktot // row), (1, mn * row))
        return Layout(((8, mn // 8), kmode), ((row, 8 * row), kstride), sw)
    atom = T * W
    n = mn // atom
    return Layout(((atom, n), (8, ktot // 8)), ((1, atom * 8), (atom, atom * 8 * n)), sw)


def _steps(mode: str, bits: int, major: str) -> list[int]:
    """Instructions along K the tensor may hold: a K-major tile's K is within one atom row or whole rows."""
    if major == "MN" or mode == "none":
        return [1, 2, 3, 4]
    half = sd.WIDTH[mode] // 2  # instruction K's per atom row (32 bytes each)
    return sorted({n for n in (1, 2, 3, 4, 8) if n <= half or n % half == 0})


def _word(raw: dict, arch: str) -> str:
    """A word as the code computes it: the raw field expressions ORed at their bits."""
    lo = {n: b for n, b, _ in sd.BITS[arch]}
    parts = [f"(({v}) << {lo[n]})" if lo[n] else f"({v})" for n, v in raw.items() if v != 0]
    return " | ".join(parts) or "0"


@st.composite
def descriptor_checks(draw, symbolic: bool = False, mutate: bool | None = None, *, shapes=None, mns=None, archs=None,
                      dtypes=None, mutations=None):
    """A descriptor check file's data: tensor ``SA`` and descriptor ``DA`` (``mutate``: True always one of
    ``MUTATIONS``, False never, None about half the time).  Restrictions: ``shapes`` ((major, element
    bits) of ``SHAPES``), ``mns`` (the tile's MN), ``archs``, ``dtypes``, ``mutations`` (of ``MUTATIONS``)
    -- the GPU stage draws what its one wgmma runs (``fuzz/wgmma_stage.py``)."""
    arch = draw(st.sampled_from(archs or ("sm_90",) * 3 + ("sm_100",)))
    major, bits = draw(st.sampled_from(shapes or (SHAPES + TCGEN05_SHAPES if arch == "sm_100" else SHAPES)))
    mode = draw(st.sampled_from(("128B", "64B", "32B", "none")))  # shrinks toward the common 128B
    if (major, bits) == ("MN", 32):
        mode = sd.ATOM32  # the one mode tcgen05 reads MN-major tf32 with
    dtype = draw(st.sampled_from([t for t in DTYPES[bits] if dtypes is None or t in dtypes]))
    esize = bits // 8
    k = sd.instruction_k(bits)
    mn = draw(st.sampled_from(mns or ((32, 64) if mode == sd.ATOM32 else (128, 256) if (major, bits) == ("MN", 8)
                                      else (64, 128) if major == "MN" else (8, 16, 64, 32))))
    nk = draw(st.sampled_from(_steps(mode, bits, major)))
    layout = canonical_tile(major, mode, bits, mn, k * nk)
    repeat = sd.REPEAT.get(mode, 1024)  # 128B_base32B: 1024 too
    on_repeat = mode == "none" or draw(st.integers(0, 3)) > 0
    base = draw(st.sampled_from((0, 1024, 2048, 3072)))
    if not on_repeat:
        base += draw(st.sampled_from([b for b in (128, 256, 384, 512, 640, 768, 896) if b % repeat]))
    offset = 0
    if draw(st.integers(0, 5)) == 0:  # a later stage of the same buffer: whole repeats further
        offset = draw(st.integers(1, 3)) * 1024 // esize
    enc = sd.encode(layout, major, bits, (mn, k), address=base, offset=offset, arch=arch)
    f = enc.fields if enc.fields is not None else sd.Fields(base, 16, 1024, 0, mode, arch)
    plain = Layout(layout.shape, layout.stride)
    advance = [esize * (plain((0, j * k))[""] - plain((0, 0))[""]) for j in range(1, nk)]
    d = {"tensor": "SA", "major": major, "tile": [mn, k], "swizzle": mode, "start": f.start, "lbo": f.lbo,
         "sbo": f.sbo, "base_offset": f.base_offset}
    t = {"dtype": dtype, "layout": str(layout), "address": base}
    if offset:
        t["offset"] = offset
    symbols: dict = {}
    if symbolic:  # the address (start, base offset with it) a symbol: whole repeats, or 128-byte steps
        how = draw(st.sampled_from(("repeat", "repeat", "rows", "sbo")))
        if how == "repeat":
            symbols["a"] = {"multiple_of": 1024, "max": 1024 * draw(st.integers(1, 4))}
            t["address"], d["start"] = f"a + {base}", f"a + {f.start}"
        elif how == "rows" and mode != "none":  # anywhere 128-byte aligned: the base offset follows the address
            symbols["a"] = {"multiple_of": 128, "max": 128 * draw(st.integers(1, 12))}
            t["address"], d["start"] = f"a + {base}", f"a + {f.start}"
            d["base_offset"] = draw(st.sampled_from((f"((a + {base}) >> 7) & 7", f.base_offset)))
        else:  # SBO from a symbol near its value (the right one among them, or not)
            lo, hi = draw(st.integers(0, 2)), draw(st.integers(0, 2))
            symbols["s"] = {"multiple_of": 16, "min": max(0, f.sbo - 16 * lo), "max": f.sbo + 16 * hi}
            d["sbo"] = "s"
    bugs = []
    if mutate or (mutate is None and draw(st.booleans())):
        bugs = [draw(st.sampled_from(mutations or MUTATIONS)) for _ in range(draw(st.sampled_from((1, 1, 1, 2))))]
    word = None
    for bug in bugs:
        if bug == "swizzle":
            d["swizzle"] = draw(st.sampled_from([m for m in sd.WIDTH if m != mode]))  # tf32 MN: none it reads
            if d["swizzle"] == "none":
                d["base_offset"] = 0
        elif bug == "swap":
            d["lbo"], d["sbo"] = d["sbo"], d["lbo"]
        elif bug in ("lbo", "sbo"):
            d[bug] = f"{d[bug]} + 16" if isinstance(d[bug], str) else d[bug] + draw(st.sampled_from((16, -16, 128)))
            if not isinstance(d[bug], str) and d[bug] < 0:
                d[bug] = 0
        elif bug == "carry":  # a value past 2^18: its 14-bit field cannot hold it
            key = draw(st.sampled_from(("lbo", "sbo")))
            d[key] = f"({d[key]}) + 262144" if isinstance(d[key], str) else d[key] + (1 << 18)
        elif bug == "base":
            if isinstance(d["base_offset"], int) and mode != "none":
                d["base_offset"] = (d["base_offset"] + draw(st.integers(1, 7))) % 8
            elif mode != "none":
                d["base_offset"] = 0
        elif bug in ("start", "unaligned"):
            delta = draw(st.sampled_from((16, 32, -16))) if bug == "start" else draw(st.sampled_from((8, 2, 4)))
            if isinstance(d["start"], str):
                d["start"] = f"{d['start']} {'+' if delta > 0 else '-'} {abs(delta)}"
            else:
                d["start"] = max(0, d["start"] + delta)
        elif bug == "advance":  # 32 bytes a K step, past the atom too (or one step 16 bytes off)
            if draw(st.booleans()):
                advance = [32 * j for j in range(1, max(nk, 2) + draw(st.integers(0, 4)))]
            elif advance:
                j = draw(st.integers(0, len(advance) - 1))
                advance[j] += draw(st.sampled_from((16, -16, 32)))
        elif bug == "arch":  # the other arch's word
            other = "sm_100" if arch == "sm_90" else "sm_90"
            word = "other"
            d["_other"] = other
        elif bug == "major":
            if bits == 16 and mn % 64 == 0:
                d["major"] = "K" if major == "MN" else "MN"
        elif bug == "tile":
            d["tile"] = [2 * mn if major == "K" or mn * 2 % 64 == 0 else mn, k]
        elif bug == "unshifted":  # a byte value written into its field without >> 4
            word = draw(st.sampled_from(("lbo", "sbo", "start")))
    if word is not None:
        w_arch = d.pop("_other", arch)
        sw = d["swizzle"] if d["swizzle"] in sd.CODES[w_arch] else "128B"  # sm_90 has no 128B_base32B
        raw = {n: f"(({d[n]}) & 262143) >> 4" for n in ("start", "lbo", "sbo")}  # matrix-descriptor-encode
        raw.update({
            "base_offset": d["base_offset"], "layout_type": sd.CODES[w_arch][sw]})
        if word in raw:
            raw[word] = d[word]
        if w_arch == "sm_100":
            raw["fixed"] = 1
        d["word"] = _word(raw, w_arch)
    advance = [a for a in advance if a >= 0]
    if advance:
        d["advance"] = advance
    if d["tile"][0] > mn and d["major"] == "MN" and d["tile"][0] % 64:
        d["tile"][0] = mn
    data = {"arch": arch}
    if symbols:
        data["symbols"] = symbols
    data["tensors"] = {"SA": t}
    data["descriptors"] = {"DA": d}
    return data
