"""Shared-memory matrix descriptors (wgmma on sm_90, tcgen05 on sm_100) as layouts.

A tensor core reads an operand tile from shared memory through a 64-bit descriptor.  This module is
the model of that word, nothing else (no family, no obligation): its bit fields, packing and
unpacking (for Python ints and for Z3 bit-vectors alike, so the round trip is proved for every
field value), and what it means -- ``decode`` turns a descriptor into the layout of the operand tile
``(MN, K)`` it makes the tensor core read, ``encode`` finds the descriptor that reads a declared
shared layout, or says why none does.

Sources (stated once, held to in ``tests/test_smem_descriptor.py``):

- PTX ISA 9.0, "Matrix Descriptor Format" (wgmma): bits 0-13 start address, 16-29 leading dimension
  byte offset (LBO), 32-45 stride dimension byte offset (SBO), each ``matrix-descriptor-encode(x) =
  (x & 0x3FFFF) >> 4``; 49-51 base offset; 62-63 swizzle (0 none, 1 128B, 2 64B, 3 32B).  The base
  offset is 0 when the swizzle pattern starts on its repeat (1024 B for 128B, 512 B for 64B, 256 B
  for 32B), else ``(pattern start addr >> 7) & 7``.
- PTX ISA 9.0, tcgen05 "Shared Memory Descriptor": the same start/LBO/SBO, bits 46-48 the fixed
  value 0b001, 49-51 base offset, 52 the LBO mode (0 relative offset, 1 absolute address), 53-60
  fixed 0, 61-63 swizzle (0 none, 1 128B with 32B atomicity, 2 128B, 4 64B, 6 32B; 3, 5, 7 invalid).
  CUTLASS's ``UMMA::SmemDescriptor`` (``cute/arch/mma_sm100_desc.hpp``) names bits 46-47 ``version``
  (= 1) and leaves bit 48 zero: the same word.
- The canonical layouts, from CUTLASS's ``make_gmma_desc`` (``cute/atom/mma_traits_sm90_gmma.hpp``),
  in units of 16-byte chunks (``T = 16 / element bytes`` elements each), ``W`` = 1, 2, 4, 8 for
  none, 32B, 64B, 128B::

      K-major   none   ((8,m),2):((1,SBO),LBO)        swizzled ((8,m),2):((W,SBO),1)
      MN-major  none   ((1,n),(8,k)):((-,SBO),(1,LBO)) swizzled ((W,n),(8,k)):((1,LBO),(W,SBO))

  and the swizzle ``Swizzle<log2 W, 4, 3>`` on byte addresses (CuTe applies it to the pointer).
  tilecheck's ``Sw<B,M,S>`` acts on element offsets, so the same swizzle is ``Sw<log2 W, 4-e, 3>``
  for ``2^e``-byte elements: K-major 128B for 16-bit elements is ``Sw<3,3,3> o (8,64):(64,1)``
  here, which CuTe prints ``Sw<3,4,3> o smem_ptr[16b] o (_8,_64):(_64,_1)``.

The swizzle's phase comes from the address bits (the pattern's repeat) and the base offset: the
model, from the PTX base-offset formula, is that byte address ``a`` is read at
``a ^ ((((a >> 7) - base_offset) & (W - 1)) << 4)``.  With the base offset at 0 and the pattern on
its repeat this is CuTe's ``Swizzle<log2 W,4,3>`` of the address.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import z3

from . import tcgen05_idesc
from .layout import Layout, Swizzle

WGMMA, TCGEN05 = "sm_90", "sm_100"
ARCHES = (WGMMA, TCGEN05)

# (name, first bit, width) of every field a descriptor word holds, per arch; the rest is reserved 0
BITS = {
    WGMMA: (("start", 0, 14), ("lbo", 16, 14), ("sbo", 32, 14), ("base_offset", 49, 3), ("layout_type", 62, 2)),
    TCGEN05: (("start", 0, 14), ("lbo", 16, 14), ("sbo", 32, 14), ("fixed", 46, 3), ("base_offset", 49, 3),
              ("lbo_mode", 52, 1), ("fixed_zero", 53, 8), ("layout_type", 61, 3)),
}
FIXED = {WGMMA: {}, TCGEN05: {"fixed": 0b001, "fixed_zero": 0}}  # fields that must hold one value

# swizzle mode <-> layout_type code
CODES = {WGMMA: {"none": 0, "128B": 1, "64B": 2, "32B": 3},
         TCGEN05: {"none": 0, "128B_base32B": 1, "128B": 2, "64B": 4, "32B": 6}}
INVALID_CODES = {WGMMA: (), TCGEN05: (3, 5, 7)}
WIDTH = {"none": 1, "32B": 2, "64B": 4, "128B": 8}  # W: 16-byte chunks per swizzle row
REPEAT = {"32B": 256, "64B": 512, "128B": 1024}  # bytes after which the swizzle pattern repeats
# tcgen05's layout type 1: 128-byte rows swizzled in 32-byte atoms (CuTe's Swizzle<2,5,2> on byte addresses),
# MN-major 32-bit (tf32) operands only; PTX gives its pattern's start with the 128B swizzle's (1024 B)
ATOM32 = "128B_base32B"
REPEAT[ATOM32] = 1024
MODES = {WGMMA: tuple(WIDTH), TCGEN05: (*WIDTH, ATOM32)}  # the modes with a canonical layout here, per arch
ADDRESS_BITS = 18  # matrix-descriptor-encode keeps x & 0x3FFFF
ELEMENT_BITS = (8, 16, 32)  # 8-bit (e4m3, e5m2, s8, u8), 16-bit (f16, bf16), tf32
MAJORS = ("K", "MN")
K_BYTES = 32  # one dense wgmma / tcgen05 (kind::f16, tf32, f8f6f4, i8) reads 32 bytes of K per row


def reserved_mask(arch: str) -> int:
    """The bits of a descriptor word no field holds: they must be 0."""
    used = 0
    for _, lo, width in BITS[_arch(arch)]:
        used |= ((1 << width) - 1) << lo
    return ~used & (2**64 - 1)


# packing: Python ints or Z3 bit-vectors ---------------------------------------------------------

def _z3(x) -> bool:
    return hasattr(x, "sort") and not isinstance(x, int)


def _lshr(x, n: int):
    if _z3(x):
        return z3.LShR(x, n)
    return x >> n


def _urem(x, n: int):
    if _z3(x):
        return z3.URem(x, n)
    return x % n


def _udiv(x, n: int):
    if _z3(x):
        return z3.UDiv(x, n)
    return x // n


def _word(x, bits: int = 64):
    """``x`` as a ``bits``-wide bit-vector when it is a Z3 term (zero-extended), unchanged if an int."""
    if not _z3(x):
        return x
    size = x.size()
    return z3.ZeroExt(bits - size, x) if size < bits else (z3.Extract(bits - 1, 0, x) if size > bits else x)


def pack_raw(raw: dict, arch: str = WGMMA):
    """The 64-bit word holding the raw field values ``raw`` (name -> value as stored, e.g. ``start``
    is the address >> 4); fixed fields default to their value, other missing fields to 0.  Each value
    is masked to its width (what a C bit-field assignment does): a too-wide value is caught by the
    ``descriptor-encoding`` obligation, not here.  Ints give an int, a Z3 term gives a 64-bit term."""
    arch = _arch(arch)
    raw = {**FIXED[arch], **raw}
    unknown = set(raw) - {n for n, _, _ in BITS[arch]}
    if unknown:
        raise ValueError(f"descriptor fields {sorted(unknown)} are not {arch} fields")
    zterm = any(_z3(v) for v in raw.values())
    word = 0
    if zterm:
        word = z3.BitVecVal(0, 64)
    for name, lo, width in BITS[arch]:
        v = raw.get(name, 0)
        v = _word(v) if zterm and _z3(v) else v
        word = word | ((v & ((1 << width) - 1)) << lo)
    return word


def unpack_raw(word, arch: str = WGMMA) -> dict:
    """The raw field values of a 64-bit descriptor word (an int, or a 64-bit Z3 term)."""
    arch = _arch(arch)
    return {name: _lshr(word, lo) & ((1 << width) - 1) for name, lo, width in BITS[arch]}


def matrix_descriptor_encode(x):
    """PTX's ``matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4``: what a 14-bit field holds for a byte
    value ``x`` (an address, LBO or SBO).  Exact only for ``x`` a multiple of 16 below 2^18."""
    return _lshr(x & ((1 << ADDRESS_BITS) - 1), 4)


@dataclass(frozen=True)
class Fields:
    """A descriptor's meaning: byte values (ints or Z3 terms) and the swizzle mode's name.

    ``start`` is the shared-memory byte address of the tile's first 16-byte chunk, ``lbo``/``sbo`` the
    leading/stride dimension byte offsets, ``base_offset`` the 3-bit phase of the swizzle pattern,
    ``swizzle`` one of ``CODES[arch]``; ``lbo_mode`` (tcgen05 only) 0 relative, 1 absolute."""
    start: object
    lbo: object
    sbo: object
    base_offset: object = 0
    swizzle: str = "none"
    arch: str = WGMMA
    lbo_mode: object = 0

    def __post_init__(self):
        _arch(self.arch)
        if self.swizzle not in CODES[self.arch]:
            raise ValueError(f"swizzle {self.swizzle!r}: {self.arch} descriptors know {', '.join(CODES[self.arch])}")

    def raw(self) -> dict:
        """The raw field values of the word that encodes these fields exactly (PTX's encoding)."""
        out = {"start": matrix_descriptor_encode(self.start), "lbo": matrix_descriptor_encode(self.lbo),
               "sbo": matrix_descriptor_encode(self.sbo), "base_offset": self.base_offset,
               "layout_type": CODES[self.arch][self.swizzle]}
        if self.arch == TCGEN05:
            out["lbo_mode"] = self.lbo_mode
        return out


def pack(fields: Fields):
    """The descriptor word of ``fields`` (an int, or a 64-bit Z3 term when a field is one)."""
    return pack_raw(fields.raw(), fields.arch)


def unpack(word, arch: str = WGMMA) -> Fields:
    """The fields a concrete descriptor word holds (byte values: the 14-bit fields shifted left by 4).
    A layout type that names no mode (tcgen05's 3, 5, 7) is a ValueError."""
    arch = _arch(arch)
    raw = unpack_raw(word, arch)
    names = {c: n for n, c in CODES[arch].items()}
    if raw["layout_type"] not in names:
        raise ValueError(f"descriptor 0x{word:016x}: layout type {raw['layout_type']} is invalid on {arch}")
    return Fields(raw["start"] << 4, raw["lbo"] << 4, raw["sbo"] << 4, raw["base_offset"],
                  names[raw["layout_type"]], arch, raw.get("lbo_mode", 0))


# canonical layouts ------------------------------------------------------------------------------

def element_log2(elem_bits: int) -> int:
    if elem_bits not in ELEMENT_BITS:
        raise ValueError(f"element width {elem_bits} bits: tensor-core operands here are 8, 16 or 32 (tf32) bits")
    return {8: 0, 16: 1, 32: 2}[elem_bits]


def instruction_k(elem_bits: int) -> int:
    """K of one dense instruction, in elements: 32 bytes of each row (k16 for 16-bit, k32 for 8-bit, k8 for tf32)."""
    return K_BYTES // (1 << element_log2(elem_bits))


def swizzle_of(mode: str, elem_bits: int) -> Swizzle | None:
    """The swizzle of ``mode`` on element offsets (tilecheck's ``Sw``): ``Sw<log2 W, 4-e, 3>``;
    tcgen05's 128B with 32-byte atoms (CuTe's ``Swizzle<2,5,2>`` on bytes) ``Sw<2, 5-e, 2>``."""
    if mode == "none":
        return None
    if mode == ATOM32:
        return Swizzle(2, 5 - element_log2(elem_bits), 2)
    return Swizzle(WIDTH[mode].bit_length() - 1, 4 - element_log2(elem_bits), 3)


def mode_of(swizzle: Swizzle | None, elem_bits: int, arch: str | None = None) -> str | None:
    """The descriptor swizzle mode whose element-offset swizzle is ``swizzle`` (None: no mode is),
    among ``arch``'s modes (default: every arch's)."""
    for mode in MODES[_arch(arch)] if arch is not None else MODES[TCGEN05]:
        if swizzle_of(mode, elem_bits) == swizzle:
            return mode
    return None


def atom_rows(mode: str) -> int:
    """K-rows of one swizzle atom of an MN-major operand: 4 for 128B with 32-byte atoms, else 8."""
    return 4 if mode == ATOM32 else 8


def mode_width(mode: str) -> int:
    """W: 16-byte chunks per swizzle row (128B with 32-byte atoms: 8, 128-byte rows)."""
    return 8 if mode == ATOM32 else WIDTH[mode]


def combination_problem(major: str, mode: str, elem_bits: int, arch: str = WGMMA) -> str | None:
    """Why the instruction cannot read an operand of this major-ness, swizzle mode and element width on
    ``arch``, or None.  sm_90: MN-major operands are 16-bit only (wgmma's imm-trans).  sm_100 (PTX ISA
    9.0, tcgen05 "Valid Combinations of Type-Size, Major-ness and Swizzling" and "Layout for swizzle
    atoms"): MN-major 8- and 16-bit operands take every mode but 128B with 32-byte atoms, MN-major 32-bit
    (tf32) operands only that one, which has no K-major atom."""
    arch = TCGEN05 if mode == ATOM32 else _arch(arch)
    if major == "MN" and arch == WGMMA and elem_bits != 16:
        return f"MN-major operands are 16-bit only (wgmma's imm-trans is for .f16/.bf16), not {elem_bits}-bit"
    if mode == ATOM32 and major == "K":
        return "the 128B swizzle with 32-byte atoms (layout type 1) has no K-major layout: MN-major only"
    if mode == ATOM32 and elem_bits != 32:
        return (f"the 128B swizzle with 32-byte atoms (layout type 1) is for MN-major 32-bit (tf32) operands only, "
                f"not {elem_bits}-bit")
    if major == "MN" and arch == TCGEN05 and elem_bits == 32 and mode != ATOM32:
        return (f"MN-major 32-bit (tf32) operands take only the 128B swizzle with 32-byte atoms "
                f"(layout type 1), not {mode}")
    return None


def check_tile(major: str, mode: str, elem_bits: int, tile, arch: str = WGMMA, lbo_mode: int = 0) -> None:
    """ValueError unless a descriptor of ``mode`` can describe the operand tile ``(MN, K)`` on ``arch``
    (the 128B swizzle with 32-byte atoms implies sm_100).  ``lbo_mode`` 1 (tcgen05's absolute LBO)
    also admits a K of 48 bytes, the tile the ISA made that mode for."""
    if major not in MAJORS:
        raise ValueError(f"major {major!r}: 'K' or 'MN'")
    arch = TCGEN05 if mode == ATOM32 else _arch(arch)
    if mode not in MODES[arch]:
        raise ValueError(f"swizzle mode {mode!r} has no canonical layout here (modelled: {', '.join(MODES[arch])})")
    e = element_log2(elem_bits)
    mn, k = tile
    T = 16 >> e
    if k != instruction_k(elem_bits) and not (lbo_mode and k << e == 48):
        raise ValueError(f"tile {tuple(tile)}: one instruction reads K = {instruction_k(elem_bits)} "
                         f"{elem_bits}-bit elements (32 bytes), not {k}")
    why = combination_problem(major, mode, elem_bits, arch)
    if why is not None:
        raise ValueError(why)
    step = 8 if major == "K" else T
    if mn < 1 or mn % step:
        raise ValueError(f"tile {tuple(tile)}: {major}-major MN must be a positive multiple of {step}")
    W = mode_width(mode)
    if major == "MN" and mn > T * W and mn % (T * W):
        raise ValueError(f"tile {tuple(tile)}: MN-major {mode} needs MN a multiple of the atom's {T * W} "
                         f"elements when it is wider than one atom")


def canonical_modes(major: str, mode: str, elem_bits: int, tile, lbo, sbo, arch: str = WGMMA):
    """The canonical layout of ``(MN, K)`` as ``(shape, byte strides)``: two nested modes, MN then K,
    strides ints or Z3 terms (``lbo``, ``sbo`` in bytes).  Unswizzled; the swizzle is ``swizzle_of``."""
    check_tile(major, mode, elem_bits, tile, arch)
    e = element_log2(elem_bits)
    T = 16 >> e
    W = mode_width(mode)
    mn, kk = tile
    if major == "K":  # rows of 16-byte chunks along K; 8 rows a core matrix (or a swizzle atom)
        row = 16 * W  # bytes between the rows of one group of 8 (a swizzle row is W chunks)
        k_chunk = lbo if mode == "none" else 16
        return ((8, mn // 8), (T, kk // T)), ((row, sbo), (1 << e, k_chunk))
    # MN-major: 16-byte chunks along MN, K-rows of W chunks in groups of 8 (4 for 32-byte atoms)
    G = atom_rows(mode)
    if mode == "none":
        return ((T, mn // T), (G, kk // G)), ((1 << e, sbo), (16, lbo))
    w = min(W, mn // T)
    return ((T, w, max(1, mn // (T * W))), (G, kk // G)), ((1 << e, 16, lbo), (16 * W, sbo))


@dataclass(frozen=True)
class Decoded:
    """What a descriptor makes the tensor core read: element ``(mn, k)`` of the tile is at byte
    ``origin + esize * layout((mn, k), offset=offset)`` -- CuTe's ``Sw o offset o L`` on element offsets,
    placed at the byte address ``origin`` where the swizzle pattern starts."""
    layout: Layout
    offset: int  # elements, added before the swizzle
    origin: int  # bytes
    elem_bits: int

    def address(self, mn: int, k: int) -> int:
        esize = self.elem_bits // 8
        return self.origin + esize * self.layout((mn, k), offset=self.offset)[""]


def decode(desc, major: str, elem_bits: int, tile, arch: str = WGMMA):
    """The shared-memory layout a concrete descriptor (a word, or ``Fields``) makes the tensor core
    read for the operand tile ``tile = (MN, K)``, K-major or MN-major, 8/16/32-bit elements: a
    ``Decoded``, or for tcgen05's absolute LBO mode a ``DecodedSplit`` (two pieces along K)."""
    f = desc if isinstance(desc, Fields) else unpack(desc, arch)
    if f.arch == TCGEN05 and f.lbo_mode:
        return _decode_absolute(f, major, elem_bits, tile)
    e = element_log2(elem_bits)
    shape, bstride = canonical_modes(major, f.swizzle, elem_bits, tile, f.lbo, f.sbo, f.arch)
    stride = tuple(tuple(_elements(d, e, f) for d in m) for m in bstride)
    if f.swizzle == "none":
        return Decoded(Layout(shape, stride), 0, f.start, elem_bits)
    # the pattern's origin: the last address at or below start whose bits 7-9 equal the base offset
    phase = 128 * (f.base_offset & 7)
    origin = f.start - ((f.start - phase) % 1024)
    return Decoded(Layout(shape, stride, swizzle_of(f.swizzle, elem_bits)), (f.start - origin) >> e, origin, elem_bits)


# tcgen05's absolute LBO mode (bit 52) ------------------------------------------------------------
#
# PTX ISA 9.0, tcgen05 "Leading Dimension Stride: relative offset or absolute address": a K of 48
# bytes "would overflow the 128B shared memory boundary if the data is packed contiguously"; the
# absolute mode breaks the data into two chunks, each inside an aligned 128-byte row, and the LBO field
# holds the absolute address of the second.  Restrictions: the 128B swizzle (16-byte atoms) only,
# K-major only (the instruction descriptor's transpose bits 0), base offset 0; sm_103a.  The model:
# the K bytes of a row are read from ``start`` up to the 128-byte boundary of start's row, the rest
# from the LBO address (same rows, same SBO), and the 128B swizzle of each address as in the relative
# mode.  CUTLASS's SM103 mma_unpack sets exactly that LBO: the start address of the next K block's
# descriptor.  Not run on hardware (no sm_103 here).

@dataclass(frozen=True)
class DecodedSplit:
    """The absolute-LBO mode's read: K elements ``< split`` through ``first``, the rest through
    ``second`` (its K counted from ``split``; None when the tile's K fits before the boundary)."""
    first: Decoded
    second: "Decoded | None"
    split: int
    elem_bits: int

    def address(self, mn: int, k: int) -> int:
        if k < self.split:
            return self.first.address(mn, k)
        return self.second.address(mn, k - self.split)


def absolute_problem(fields: Fields, major: str) -> str | None:
    """Why the absolute LBO mode cannot be used with these fields and major-ness (the ISA's three
    restrictions), or None (also when the mode is relative)."""
    if not fields.lbo_mode:
        return None
    if fields.swizzle != "128B":
        return (f"the absolute LBO mode (bit 52) needs the 128B swizzle with 16-byte atoms (PTX restriction 1), "
                f"not {fields.swizzle}")
    if major != "K":
        return "the absolute LBO mode (bit 52) is K-major only (PTX restriction 2: transpose bits 0)"
    if fields.base_offset != 0:
        return f"the absolute LBO mode (bit 52) needs base offset 0 (PTX restriction 3), not {fields.base_offset}"
    return None


def _decode_absolute(f: Fields, major: str, elem_bits: int, tile) -> DecodedSplit:
    check_tile(major, f.swizzle, elem_bits, tile, f.arch, lbo_mode=1)
    why = absolute_problem(f, major)
    if why is not None:
        raise ValueError(why)
    e = element_log2(elem_bits)
    mn, kk = tile
    split = (128 - (f.start & 127)) >> e  # K elements before start's 128-byte boundary
    sw = swizzle_of("128B", elem_bits)

    def piece(at: int, extent: int) -> Decoded:
        lay = Layout(((8, mn // 8), extent), ((128 >> e, _elements(f.sbo, e, f)), 1), sw)
        origin = at - at % 1024
        return Decoded(lay, (at - origin) >> e, origin, elem_bits)
    second = piece(f.lbo, kk - split) if split < kk else None
    return DecodedSplit(piece(f.start, min(split, kk)), second, split, elem_bits)


def _elements(d: int, e: int, f: Fields) -> int:
    if d % (1 << e):
        raise ValueError(f"stride {d} bytes of {f} is not a whole number of elements")
    return d >> e


def hardware_address(fields: Fields, major: str, elem_bits: int, tile, mn, k, swizzled: bool = True):
    """The byte address the tensor core reads element ``(mn, k)`` at, for fields and coordinates that
    are ints or 64-bit Z3 terms: the canonical byte offset from ``start``, then the swizzle of the
    address bits with the base offset's phase (the model in the module's docstring).  The proofs
    state the descriptor obligations through this one function; ``decode`` is the same map as a layout.
    tcgen05's absolute LBO mode (``lbo_mode`` 1, an int here) reads K past start's 128-byte row from
    the LBO address (the model above ``DecodedSplit``)."""
    if fields.arch == TCGEN05 and not _z3(fields.lbo_mode) and fields.lbo_mode:
        a = _absolute_address(fields, major, elem_bits, tile, mn, k)
    else:
        shape, stride = canonical_modes(major, fields.swizzle, elem_bits, tile, fields.lbo, fields.sbo, fields.arch)
        a = fields.start
        for coord, s, d in zip((mn, k), shape, stride):
            for i, (si, di) in enumerate(zip(s, d)):
                last = i == len(s) - 1
                part = coord if last else _urem(coord, si)
                coord = coord if last else _udiv(coord, si)
                a = a + part * di
    if fields.swizzle == "none" or not swizzled:
        return a
    mask, unit = (3, 5) if fields.swizzle == ATOM32 else (WIDTH[fields.swizzle] - 1, 4)
    return a ^ (((_lshr(a, 7) - fields.base_offset) & mask) << unit)


def _absolute_address(fields: Fields, major: str, elem_bits: int, tile, mn, k):
    """The unswizzled address of ``(mn, k)`` in the absolute LBO mode: K-major 128B rows, K bytes up to
    start's 128-byte boundary from ``start``, the rest from the LBO address."""
    check_tile(major, fields.swizzle, elem_bits, tile, fields.arch, lbo_mode=1)
    why = absolute_problem(replace(fields, base_offset=0), major)  # the base offset is the encoding's to refute
    if why is not None:
        raise ValueError(why)
    kb = k * (elem_bits // 8)
    row = _urem(mn, 8) * 128 + _udiv(mn, 8) * fields.sbo
    room = 128 - (fields.start & 127)
    if _z3(kb) or _z3(room):
        kb, room = _word(z3.BitVecVal(kb, 64) if isinstance(kb, int) else kb), \
            _word(z3.BitVecVal(room, 64) if isinstance(room, int) else room)
        return z3.If(z3.ULT(kb, room), fields.start + row + kb, fields.lbo + row + kb - room)
    return fields.start + row + kb if kb < room else fields.lbo + row + kb - room


# encode: the descriptor that reads a declared layout ---------------------------------------------

@dataclass(frozen=True)
class Encoded:
    fields: Fields | None
    reason: str | None = None  # why no descriptor reads the layout (fields is None)


def declared_address(layout: Layout, elem_bits: int, address: int, offset: int, mn: int, k: int) -> int:
    """The byte address of element ``(mn, k)`` of a shared tensor at byte ``address`` with ``layout``
    (element offsets, swizzled or not) and ``offset`` (elements, before the swizzle)."""
    return address + (elem_bits // 8) * layout((mn, k), offset=offset)[""]


def encode(layout: Layout, major: str, elem_bits: int, tile, address: int = 0, offset: int = 0,
           arch: str = WGMMA, lbo_mode: int = 0) -> Encoded:
    """The descriptor whose canonical layout equals a declared shared layout over ``tile``, or the
    reason none does.

    ``layout`` maps the tile's ``(mn, k)`` to element offsets (tilecheck's ``Sw`` on element offsets
    when swizzled), ``offset`` is added before the swizzle and ``address`` is the tensor's byte address
    (where its swizzle pattern starts).  The swizzle mode is the one whose ``Sw`` the layout declares;
    start, LBO and SBO are read off the layout at the canonical form's unit coordinates (every canonical
    layout is fixed by those and the mode), so when the descriptor they give does not read the layout
    at every element, no descriptor does: the reason names the first element where they differ.
    ``lbo_mode`` 1 (tcgen05): the descriptor in the absolute LBO mode, its LBO the address where K
    continues past start's 128-byte row."""
    e = element_log2(elem_bits)
    mode = mode_of(layout.swizzle, elem_bits, arch)  # the layout's swizzle decides the mode
    if mode is None:
        extra = " or Sw<2,{},2> (128B with 32-byte atoms)".format(5 - e) if _arch(arch) == TCGEN05 else ""
        return Encoded(None, f"the layout's swizzle {layout.swizzle} is no descriptor mode for {elem_bits}-bit elements "
                             f"(Sw<B,{4 - e},3> with B = 1, 2, 3, or none{extra})")
    try:
        check_tile(major, mode, elem_bits, tile, arch, lbo_mode)
    except ValueError as err:
        return Encoded(None, str(err))
    mn, kk = tile
    plain = Layout(layout.shape, layout.stride)

    def u(i, j):  # the unswizzled byte offset from the pattern's start
        return (offset + plain((i, j))[""]) << e

    first, lbo, sbo = read_off(u, major, mode, elem_bits, mn)
    start = address + first
    base_offset = 0
    if mode != "none" and address % REPEAT[mode]:
        base_offset = (address >> 7) & 7
    if lbo_mode:
        why = absolute_problem(Fields(start, 0, 0, base_offset, mode, TCGEN05, 1), major)
        if why is not None:
            return Encoded(None, why)
        split = (128 - (start & 127)) >> e
        lbo = address + u(0, split) if split < kk else 0  # where K continues (unused when it fits)
    for name, v in (("start address", start), ("LBO", lbo), ("SBO", sbo)):
        if v % 16 or not 0 <= v < 1 << ADDRESS_BITS:
            return Encoded(None, f"the layout needs {name} = {v} bytes, which a descriptor cannot hold "
                                 f"(a multiple of 16 in [0, 2^{ADDRESS_BITS}))")
    fields = Fields(start, lbo, sbo, base_offset, mode, arch, lbo_mode)
    got = first_difference(fields, major, elem_bits, tile, layout, address, offset)
    if got is not None:
        (i, j), mine, theirs = got
        return Encoded(None, f"no descriptor reads this layout: the only candidate ({describe(fields)}) reads "
                             f"element ({i},{j}) at byte {theirs}, the layout has it at byte {mine}")
    return Encoded(fields)


def read_off(u, major: str, mode: str, elem_bits: int, mn: int):
    """``(start, LBO, SBO)`` read off an unswizzled byte-offset function ``u(mn, k)`` (ints or Z3 terms)
    at the canonical form's unit coordinates: ``(0,0)``; the next 8-row group ``(8,0)`` (K-major) or
    the next 16-byte chunk / atom along MN; the second K chunk ``(0,T)`` or K-row group ``(0,8)``
    (``(0,4)`` for the 128B swizzle with 32-byte atoms).  An
    offset the tile does not use is CUTLASS's default (LBO 16 B, "assumed 1", for K-major swizzled) or 0.
    ``encode`` uses it; ``tests/test_smem_descriptor.py`` proves it inverts ``canonical_modes`` for every
    field value."""
    T = 16 >> element_log2(elem_bits)
    W = mode_width(mode)
    if major == "K":
        sbo = u(8, 0) - u(0, 0) if mn > 8 else 0
        lbo = u(0, T) - u(0, 0) if mode == "none" else 16
    elif mode == "none":
        sbo = u(T, 0) - u(0, 0) if mn > T else 0
        lbo = u(0, 8) - u(0, 0)
    else:
        lbo = u(T * W, 0) - u(0, 0) if mn > T * W else 0
        sbo = u(0, atom_rows(mode)) - u(0, 0)
    return u(0, 0), lbo, sbo


def first_difference(fields: Fields, major: str, elem_bits: int, tile, layout: Layout, address: int, offset: int):
    """The first element ``(mn, k)`` (row-major over the tile) whose byte address differs between the
    declared layout and the descriptor, as ``((mn, k), declared, descriptor)``; None if none does."""
    for i in range(tile[0]):
        for j in range(tile[1]):
            mine = declared_address(layout, elem_bits, address, offset, i, j)
            theirs = hardware_address(fields, major, elem_bits, tile, i, j)
            if mine != theirs:
                return (i, j), mine, theirs
    return None


def describe(f: Fields) -> str:
    out = f"start={f.start} lbo={f.lbo} sbo={f.sbo} base_offset={f.base_offset} swizzle={f.swizzle}"
    return out + (f" lbo_mode={f.lbo_mode}" if f.arch == TCGEN05 else "")


def _arch(arch: str) -> str:
    a = {"sm_90a": WGMMA, "sm_100a": TCGEN05}.get(arch, arch)
    if a not in ARCHES:
        raise ValueError(f"arch {arch!r}: descriptors are modelled for sm_90 (wgmma) and sm_100 (tcgen05)")
    return a


# tcgen05's instruction descriptor (kind::f16 / kind::tf32 / kind::f8f6f4 / kind::i8): M and N --------

IDESC_BITS = (("sparse_id2", 0, 2), ("sparse", 2, 1), ("saturate", 3, 1), ("c_format", 4, 2), ("a_format", 7, 3),
              ("b_format", 10, 3), ("a_negate", 13, 1), ("b_negate", 14, 1), ("a_major", 15, 1), ("b_major", 16, 1),
              ("n_dim", 17, 6), ("m_dim", 24, 5), ("max_shift", 30, 2))  # CUTLASS's UMMA::InstrDescriptor


def pack_idesc(raw: dict):
    """tcgen05's 32-bit instruction descriptor from raw field values (``n_dim = N >> 3``, ``m_dim = M >> 4``)."""
    unknown = set(raw) - {n for n, _, _ in IDESC_BITS}
    if unknown:
        raise ValueError(f"instruction descriptor fields {sorted(unknown)} are unknown")
    word = 0
    for name, lo, width in IDESC_BITS:
        v = raw.get(name, 0)
        if _z3(v):
            word = (z3.BitVecVal(0, 32) if isinstance(word, int) else word)
            v = _word(v, 32)
        word = word | ((v & ((1 << width) - 1)) << lo)
    return word


def unpack_idesc(word) -> dict:
    return {name: _lshr(word, lo) & ((1 << width) - 1) for name, lo, width in IDESC_BITS}


def idesc_shape_ok(m: int, n: int, cta_group: int = 1) -> str | None:
    """None when ``M x N`` is a dense tcgen05.mma shape of ``cta_group`` for kind::f16 (and tf32,
    f8f6f4) with both operands from descriptors, else the reason: PTX ISA 9.0 Table 39, cta_group::1
    M = 64 or 128 with N a multiple of 8 in [8, 256], cta_group::2 M = 128 or 256 with N a multiple of
    16 in [16, 256].  Every kind's rule: ``tcgen05_idesc.shape_problem``."""
    return tcgen05_idesc.shape_problem("f16", m, n, cta_group)


def with_start(fields: Fields, start) -> Fields:
    return replace(fields, start=start)
