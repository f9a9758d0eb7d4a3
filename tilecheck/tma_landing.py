"""Where a TMA tile-mode load writes its box in shared memory, as a tilecheck layout (issue 30, item 4).

A ``cp.async.bulk.tensor`` load in tile mode (interleave none) with a tensor map of element size ``e``
bytes, box ``box`` and element strides ``es`` (innermost dimension first, as the driver takes them),
started at tensor coordinates ``c`` and written to the shared address ``dst``:

* **What it visits.** Dimension 0 visits ``box[0]`` coordinates ``c[0], c[0]+1, ...``: its element
  stride is ignored (cuda.h, ``cuTensorMapEncodeTiled``: "the first element of this array is ignored
  since TMA doesn't support the stride for dimension zero").  Dimension ``i >= 1`` visits
  ``ceil(box[i] / es[i])`` coordinates ``c[i] + es[i]*k``.  ``shape`` is those counts.
* **Rows of the swizzle's span, dimension 0 fastest.** Visited element ``k = (k0, k1, ...)`` has the
  byte offset ``e*k0 + pitch*(k1 + n1*(k2 + ...))`` from ``dst`` before the swizzle.  Without a
  swizzle ``pitch = e*n0`` (dense).  With a swizzle every inner row takes the swizzle's span in
  shared memory: ``pitch = span`` (32, 64, 128 bytes), so a box whose inner rows are narrower than
  the span is **padded**: its row ``j`` starts ``j*span`` bytes after ``dst`` and the bytes between
  rows are not written.  (The H200, 2026-12-03, ``tilecheck/gpu/tma_probe.py --only float16``: the
  dense model matched 79/166 cases, every one with the inner box equal to the span or no swizzle;
  the narrow boxes matched padded rows, or faulted where the probe's buffer, sized for dense rows,
  was too small for them.)  ``footprint = pitch * n1 * n2 * ...`` is the shared bytes the box
  spans from ``dst`` (what the shared tensor must hold); ``nbytes = e * prod(shape)`` is what the
  copy delivers (the ``expect_tx`` count, elements outside the tensor included): the box's
  elements, not the padding.
* **The swizzle acts on the shared address.** 32B, 64B and 128B XOR the ``B = 1, 2, 3`` address bits
  from bit 7 into the bits from bit 4 (16-byte chunks; CuTe's ``Swizzle<B,4,3>`` on byte addresses):
  ``a -> a ^ (((a >> 7) & (2^B - 1)) << 4)``.  The pattern repeats every ``2^(7+B)`` bytes (256, 512,
  1024: ``repeat``) and is anchored at shared address 0, not at ``dst``: a destination that is not a
  multiple of ``repeat`` (it must be one of 128) starts in the middle of the pattern.
* **Out of the tensor.** An element with a coordinate ``< 0`` or ``>= dims[i]`` is not read: its bytes
  are the fill (zero; with NaN fill a NaN, float types only), still delivered and counted.

``TmaBox.layout()`` is that map as a tilecheck ``Layout`` in elements, modes innermost first:
``Sw<B, 4 - log2(e), 3> o (n0, n1, ...):(1, p, p*n1, ...)`` with ``p = pitch / e`` (``n0`` without
a swizzle; ``span / e`` with one); with ``anchor(dst) = (base, offset)``
the shared byte address of box element ``k`` is ``base + e * L(k, offset=offset)``: ``base`` is
``dst`` rounded down to ``repeat`` and ``offset`` the elements from there to ``dst`` (a tilecheck
tensor's ``offset``, added before the swizzle as in CuTe).  Without a swizzle, ``base = dst``,
``offset = 0``.  The 128B_ATOM_* modes (32-byte and 64-byte chunks, sm_100) are not modelled:
``tilecheck/gpu/tma_probe.py`` tries candidate patterns for them on the device.

This module is pure and imports nothing of tilecheck at load time (``layout()`` imports
``tilecheck.layout`` when called), so the GPU probe uses it without z3.  ``address`` and ``source``
take Python ints or numpy integer arrays alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod

SWIZZLE_BITS = {"none": 0, "32B": 1, "64B": 2, "128B": 3}  # B of Swizzle<B,4,3> on byte addresses
ATOM_SWIZZLES = ("128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B")  # not modelled
ELEMENT_SIZES = (1, 2, 4, 8)
CHUNK_BITS = 4  # the swizzle moves 16-byte chunks
ROW_BITS = 7  # ... by the address bits from bit 7 (128-byte rows)


class NotModelled(ValueError):
    """A TMA configuration this model does not describe (a 128B_ATOM_* swizzle, interleave)."""


def swizzle_bits(swizzle: str) -> int:
    if swizzle in ATOM_SWIZZLES:
        raise NotModelled(f"swizzle {swizzle!r}: the 128B_ATOM_* modes are not modelled (sm_100; "
                          "tilecheck/gpu/tma_probe.py tries candidate patterns on the device)")
    if swizzle not in SWIZZLE_BITS:
        raise ValueError(f"unknown swizzle {swizzle!r} (one of {', '.join(SWIZZLE_BITS)})")
    return SWIZZLE_BITS[swizzle]


def swizzle_address(a, swizzle: str):
    """The shared byte address where the swizzle ``swizzle`` puts unswizzled address ``a``."""
    b = swizzle_bits(swizzle)
    if not b:
        return a
    return a ^ (((a >> ROW_BITS) & ((1 << b) - 1)) << CHUNK_BITS)


@dataclass(frozen=True)
class TmaBox:
    """One tensor map's box as a TMA load writes it (interleave none, tile mode)."""
    esize: int  # bytes per element: 1, 2, 4, 8
    box: tuple  # boxDim, innermost first
    element_strides: tuple | None = None  # elementStrides (default all 1)
    swizzle: str = "none"  # "none", "32B", "64B", "128B"

    def __post_init__(self):
        box = tuple(self.box)
        es = tuple(self.element_strides) if self.element_strides is not None else (1,) * len(box)
        object.__setattr__(self, "box", box)
        object.__setattr__(self, "element_strides", es)
        if self.esize not in ELEMENT_SIZES:
            raise ValueError(f"element size {self.esize}: one of {ELEMENT_SIZES} bytes")
        if not 1 <= len(box) <= 5 or len(es) != len(box):
            raise ValueError(f"box {box} and element strides {es}: rank 1..5, one entry per dimension each")
        if not all(isinstance(b, int) and 1 <= b <= 256 for b in box):
            raise ValueError(f"box {box}: every entry in 1..256")
        if not all(isinstance(s, int) and 1 <= s <= 8 for s in es):
            raise ValueError(f"element strides {es}: every entry in 1..8")
        inner = box[0] * self.esize
        if inner % 16:
            raise ValueError(f"box {box}: the inner box is {inner} bytes, not a multiple of 16")
        b = swizzle_bits(self.swizzle)
        if b and inner > self.span:
            raise ValueError(f"box {box}: the inner box is {inner} bytes, more than the {self.swizzle} swizzle's span")

    @property
    def rank(self) -> int:
        return len(self.box)

    @property
    def bits(self) -> int:
        return swizzle_bits(self.swizzle)

    @property
    def span(self) -> int:
        """The swizzle's span in bytes (16 << B: 32, 64, 128); 0 without a swizzle."""
        return (1 << (CHUNK_BITS + self.bits)) if self.bits else 0

    @property
    def repeat(self) -> int:
        """Bytes after which the swizzle pattern repeats (2^(7+B): 256, 512, 1024); 1 without one."""
        return (1 << (ROW_BITS + self.bits)) if self.bits else 1

    @property
    def shape(self) -> tuple:
        """Elements visited per dimension: ``box[0]``, then ``ceil(box[i] / es[i])``."""
        return (self.box[0],) + tuple(-(-b // s) for b, s in zip(self.box[1:], self.element_strides[1:]))

    @property
    def elements(self) -> int:
        return prod(self.shape)

    @property
    def nbytes(self) -> int:
        """The bytes one load delivers (and completes on its mbarrier), out-of-tensor elements included."""
        return self.esize * self.elements

    @property
    def pitch(self) -> int:
        """Shared bytes from one inner row of the box to the next: the span with a swizzle, else the row's bytes."""
        return self.span if self.bits else self.esize * self.shape[0]

    @property
    def footprint(self) -> int:
        """Shared bytes the box spans from its destination (before the swizzle): ``pitch`` times the rows."""
        return self.pitch * prod(self.shape[1:])

    def visit_strides(self) -> tuple:
        """The coordinate step of each dimension: 1 for dimension 0, ``es[i]`` after it."""
        return (1,) + self.element_strides[1:]

    def offset(self, k):
        """The unswizzled byte offset from the destination of visited element ``k`` (ints or arrays):
        ``e*k0 + pitch*(k1 + n1*(k2 + ...))``."""
        off, scale = k[0] * self.esize, self.pitch
        for ki, n in zip(k[1:], self.shape[1:]):
            off = off + ki * scale
            scale *= n
        return off

    def address(self, dst: int, k):
        """The shared byte address that visited element ``k`` lands at, for a load to ``dst``."""
        return swizzle_address(dst + self.offset(k), self.swizzle)

    def source(self, start, k) -> tuple:
        """The tensor coordinates element ``k`` is read from, for a load at ``start`` (may be out of the tensor)."""
        return tuple(c + s * ki for c, s, ki in zip(start, self.visit_strides(), k))

    def anchor(self, dst: int) -> tuple[int, int]:
        """``(base, offset)``: ``dst`` rounded down to the pattern's repeat, and the elements from there to ``dst``."""
        rest = dst % self.repeat
        if rest % self.esize:
            raise ValueError(f"destination {dst} is not a multiple of the element size {self.esize}")
        return dst - rest, rest // self.esize

    def layout(self):
        """The landing as a tilecheck ``Layout`` in elements, modes innermost first (see the module's doc)."""
        from .layout import Layout, Swizzle
        shape, p = self.shape, self.pitch // self.esize
        stride = (1,) + tuple(p * prod(shape[1:i]) for i in range(1, len(shape)))
        sw = None
        if self.bits:
            sw = Swizzle(self.bits, CHUNK_BITS - (self.esize.bit_length() - 1), ROW_BITS - CHUNK_BITS)
        return Layout(shape, stride, sw)

    def __str__(self):
        es = "" if all(s == 1 for s in self.element_strides) else f" es={list(self.element_strides)}"
        return f"{self.esize}B box={list(self.box)}{es} swizzle={self.swizzle}"
