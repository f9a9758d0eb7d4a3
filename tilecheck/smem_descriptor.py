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
    """The swizzle of ``mode`` on element offsets (tilecheck's ``Sw``): ``Sw<log2 W, 4-e, 3>``."""
    if mode == "none":
        return None
    return Swizzle(WIDTH[mode].bit_length() - 1, 4 - element_log2(elem_bits), 3)


def mode_of(swizzle: Swizzle | None, elem_bits: int) -> str | None:
    """The descriptor swizzle mode whose element-offset swizzle is ``swizzle`` (None: no mode is)."""
    for mode in WIDTH:
        if swizzle_of(mode, elem_bits) == swizzle:
            return mode
    return None


def check_tile(major: str, mode: str, elem_bits: int, tile) -> None:
    """ValueError unless a descriptor of ``mode`` can describe the operand tile ``(MN, K)``."""
    if major not in MAJORS:
        raise ValueError(f"major {major!r}: 'K' or 'MN'")
    if mode not in WIDTH:
        raise ValueError(f"swizzle mode {mode!r} has no canonical layout here (modelled: {', '.join(WIDTH)})")
    e = element_log2(elem_bits)
    mn, k = tile
    T = 16 >> e
    if k != instruction_k(elem_bits):
        raise ValueError(f"tile {tuple(tile)}: one instruction reads K = {instruction_k(elem_bits)} "
                         f"{elem_bits}-bit elements (32 bytes), not {k}")
    if major == "MN" and elem_bits != 16:
        raise ValueError(f"MN-major operands are 16-bit only (wgmma's imm-trans is for .f16/.bf16), not {elem_bits}-bit")
    step = 8 if major == "K" else T
    if mn < 1 or mn % step:
        raise ValueError(f"tile {tuple(tile)}: {major}-major MN must be a positive multiple of {step}")
    if major == "MN" and mn > T * WIDTH[mode] and mn % (T * WIDTH[mode]):
        raise ValueError(f"tile {tuple(tile)}: MN-major {mode} needs MN a multiple of the atom's {T * WIDTH[mode]} "
                         f"elements when it is wider than one atom")


def canonical_modes(major: str, mode: str, elem_bits: int, tile, lbo, sbo):
    """The canonical layout of ``(MN, K)`` as ``(shape, byte strides)``: two nested modes, MN then K,
    strides ints or Z3 terms (``lbo``, ``sbo`` in bytes).  Unswizzled; the swizzle is ``swizzle_of``."""
    check_tile(major, mode, elem_bits, tile)
    e = element_log2(elem_bits)
    T = 16 >> e
    W = WIDTH[mode]
    mn, _ = tile
    if major == "K":  # rows of 16-byte chunks along K; 8 rows a core matrix (or a swizzle atom)
        row = 16 * W  # bytes between the rows of one group of 8 (a swizzle row is W chunks)
        k_chunk = lbo if mode == "none" else 16
        return ((8, mn // 8), (T, 2)), ((row, sbo), (1 << e, k_chunk))
    # MN-major: 16-byte chunks along MN, 8 K-rows of W chunks
    if mode == "none":
        return ((T, mn // T), (8, 2)), ((1 << e, sbo), (16, lbo))
    w = min(W, mn // T)
    return ((T, w, max(1, mn // (T * W))), (8, 2)), ((1 << e, 16, lbo), (16 * W, sbo))


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


def decode(desc, major: str, elem_bits: int, tile, arch: str = WGMMA) -> Decoded:
    """The shared-memory layout a concrete descriptor (a word, or ``Fields``) makes the tensor core
    read for the operand tile ``tile = (MN, K)``, K-major or MN-major, 8/16/32-bit elements."""
    f = desc if isinstance(desc, Fields) else unpack(desc, arch)
    if f.arch == TCGEN05 and f.lbo_mode:
        raise ValueError("tcgen05's absolute LBO mode (bit 52, for 48-byte K tiles on sm_103a) is not modelled")
    e = element_log2(elem_bits)
    shape, bstride = canonical_modes(major, f.swizzle, elem_bits, tile, f.lbo, f.sbo)
    stride = tuple(tuple(_elements(d, e, f) for d in m) for m in bstride)
    if f.swizzle == "none":
        return Decoded(Layout(shape, stride), 0, f.start, elem_bits)
    # the pattern's origin: the last address at or below start whose bits 7-9 equal the base offset
    phase = 128 * (f.base_offset & 7)
    origin = f.start - ((f.start - phase) % 1024)
    return Decoded(Layout(shape, stride, swizzle_of(f.swizzle, elem_bits)), (f.start - origin) >> e, origin, elem_bits)


def _elements(d: int, e: int, f: Fields) -> int:
    if d % (1 << e):
        raise ValueError(f"stride {d} bytes of {f} is not a whole number of elements")
    return d >> e


def hardware_address(fields: Fields, major: str, elem_bits: int, tile, mn, k, swizzled: bool = True):
    """The byte address the tensor core reads element ``(mn, k)`` at, for fields and coordinates that
    are ints or 64-bit Z3 terms: the canonical byte offset from ``start``, then the swizzle of the
    address bits with the base offset's phase (the model in the module's docstring).  The proofs
    state the descriptor obligations through this one function; ``decode`` is the same map as a layout."""
    shape, stride = canonical_modes(major, fields.swizzle, elem_bits, tile, fields.lbo, fields.sbo)
    a = fields.start
    for coord, s, d in zip((mn, k), shape, stride):
        for i, (si, di) in enumerate(zip(s, d)):
            last = i == len(s) - 1
            part = coord if last else _urem(coord, si)
            coord = coord if last else _udiv(coord, si)
            a = a + part * di
    if fields.swizzle == "none" or not swizzled:
        return a
    mask = WIDTH[fields.swizzle] - 1
    return a ^ (((_lshr(a, 7) - fields.base_offset) & mask) << 4)


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
           arch: str = WGMMA) -> Encoded:
    """The descriptor whose canonical layout equals a declared shared layout over ``tile``, or the
    reason none does.

    ``layout`` maps the tile's ``(mn, k)`` to element offsets (tilecheck's ``Sw`` on element offsets
    when swizzled), ``offset`` is added before the swizzle and ``address`` is the tensor's byte address
    (where its swizzle pattern starts).  The swizzle mode is the one whose ``Sw`` the layout declares;
    start, LBO and SBO are read off the layout at the canonical form's unit coordinates (every canonical
    layout is fixed by those and the mode), so when the descriptor they give does not read the layout
    at every element, no descriptor does: the reason names the first element where they differ."""
    e = element_log2(elem_bits)
    mode = mode_of(layout.swizzle, elem_bits)  # the layout's swizzle decides the mode
    if mode is None:
        return Encoded(None, f"the layout's swizzle {layout.swizzle} is no descriptor mode for {elem_bits}-bit elements "
                             f"(Sw<B,{4 - e},3> with B = 1, 2, 3, or none)")
    try:
        check_tile(major, mode, elem_bits, tile)
    except ValueError as err:
        return Encoded(None, str(err))
    mn, _ = tile
    plain = Layout(layout.shape, layout.stride)

    def u(i, j):  # the unswizzled byte offset from the pattern's start
        return (offset + plain((i, j))[""]) << e

    first, lbo, sbo = read_off(u, major, mode, elem_bits, mn)
    start = address + first
    base_offset = 0
    if mode != "none" and address % REPEAT[mode]:
        base_offset = (address >> 7) & 7
    for name, v in (("start address", start), ("LBO", lbo), ("SBO", sbo)):
        if v % 16 or not 0 <= v < 1 << ADDRESS_BITS:
            return Encoded(None, f"the layout needs {name} = {v} bytes, which a descriptor cannot hold "
                                 f"(a multiple of 16 in [0, 2^{ADDRESS_BITS}))")
    fields = Fields(start, lbo, sbo, base_offset, mode, arch)
    got = first_difference(fields, major, elem_bits, tile, layout, address, offset)
    if got is not None:
        (i, j), mine, theirs = got
        return Encoded(None, f"no descriptor reads this layout: the only candidate ({describe(fields)}) reads "
                             f"element ({i},{j}) at byte {theirs}, the layout has it at byte {mine}")
    return Encoded(fields)


def read_off(u, major: str, mode: str, elem_bits: int, mn: int):
    """``(start, LBO, SBO)`` read off an unswizzled byte-offset function ``u(mn, k)`` (ints or Z3 terms)
    at the canonical form's unit coordinates: ``(0,0)``; the next 8-row group ``(8,0)`` (K-major) or
    the next 16-byte chunk / atom along MN; the second K chunk ``(0,T)`` or K-row group ``(0,8)``.  An
    offset the tile does not use is CUTLASS's default (LBO 16 B, "assumed 1", for K-major swizzled) or 0.
    ``encode`` uses it; ``tests/test_smem_descriptor.py`` proves it inverts ``canonical_modes`` for every
    field value."""
    T = 16 >> element_log2(elem_bits)
    W = WIDTH[mode]
    if major == "K":
        sbo = u(8, 0) - u(0, 0) if mn > 8 else 0
        lbo = u(0, T) - u(0, 0) if mode == "none" else 16
    elif mode == "none":
        sbo = u(T, 0) - u(0, 0) if mn > T else 0
        lbo = u(0, 8) - u(0, 0)
    else:
        lbo = u(T * W, 0) - u(0, 0) if mn > T * W else 0
        sbo = u(0, 8) - u(0, 0)
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
    """None when ``M x N`` is a dense tcgen05.mma shape of ``cta_group`` (PTX ISA 9.0, tcgen05 "Matrix
    shape"), else the reason.  cta_group::1: M = 64 with N a multiple of 8 in [8, 256], M = 128 with N a
    multiple of 16 in [16, 256]; cta_group::2: M = 128 or 256 with N a multiple of 16 in [16, 256]."""
    ms = {1: (64, 128), 2: (128, 256)}[cta_group]
    if m not in ms:
        return f"M = {m} is not a tcgen05.mma.cta_group::{cta_group} M (one of {', '.join(map(str, ms))})"
    step = 8 if m == 64 else 16
    if not (step <= n <= 256 and n % step == 0):
        return f"N = {n} with M = {m}: N must be a multiple of {step} in [{step}, 256]"
    return None


def with_start(fields: Fields, start) -> Fields:
    return replace(fields, start=start)
