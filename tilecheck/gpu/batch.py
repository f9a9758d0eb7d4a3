"""Run many loaded kernels with one upload, one synchronisation and one download.

A kernel's own work is microseconds; what costs is the host side of every run (an
allocation, a copy each way and a synchronisation per buffer).  ``launch_batch``
places the buffers of every case of a batch in one device *arena*, each at an
address aligned to exactly its declared ``align`` (as ``runner._Buffer`` does for
one run) with at least ``GUARD`` guard bytes between neighbours, uploads the arena
once, launches every kernel on one stream (so they run one after another, never
concurrently), synchronises once and downloads the arena once.

A stray write lands in a guard gap (blamed on both neighbours) or, past it, in
another case's buffer (that case then differs).  Either way the batch reports a
failure; ``runner.run_checks`` re-runs every failed case alone to say which it was.
A launch that the driver refuses (too many registers for the block, say) fails
that case alone; a fault during the batch (the context is then unusable) raises.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from math import lcm

import numpy as np
from ..emit.kernel import dynamic_shared_bytes, dynamic_tensors, tensormap_params
from . import tensormap_driver
from .reference import _cta_values

GUARD = 256  # at least this many guard bytes before, between and after the buffers
GUARD_BYTE = 0x5A
MAX_EXACT_ALIGN = 4096  # larger alignments are honoured, but not made exact


def place(cursor: int, align: int, modulus: int | None = None) -> int:
    """The first address ``>= cursor + GUARD`` that is ``align`` mod ``modulus`` (default ``2*align``:
    exactly aligned); alignments above MAX_EXACT_ALIGN are only honoured.  Addresses are relative to
    an arena base aligned to ``2*MAX_EXACT_ALIGN`` (and to ``modulus``)."""
    p = cursor + GUARD
    if modulus is None:
        if align > MAX_EXACT_ALIGN:
            return -(-p // align) * align
        a = max(1, align)
        modulus, align = 2 * a, a
    return p + (align - p) % modulus


def misaligned_placement(align: int, vector_bytes: int) -> tuple[int, int]:
    """``(residue, modulus)`` for a buffer whose declared ``align`` is smaller than the vector that
    reads it: the base address is ``align`` mod ``2*vector_bytes`` — a multiple of ``align`` but not of
    ``vector_bytes`` — so that an access at a vector-aligned offset faults ("misaligned address")."""
    if not 0 < align < vector_bytes or vector_bytes % align:
        raise ValueError(f"align {align} must be a proper divisor of the vector's {vector_bytes} bytes")
    return align, 2 * vector_bytes


def base_alignment(buffers) -> int:
    """The arena base's alignment: a multiple of every buffer's modulus, so that offsets in the arena
    keep their residues as addresses."""
    return lcm(2 * MAX_EXACT_ALIGN, *[2 * b[3] if len(b) < 5 else b[4] for b in buffers])


@dataclass
class Slot:
    case: int  # index of the case in the batch
    tensor: str
    start: int  # byte offset in the arena
    nbytes: int
    dtype: np.dtype


class Arena:
    """One device allocation holding many buffers at exact alignments, with guard gaps."""

    def __init__(self, drv, buffers: list[tuple]):
        """``buffers``: (case, tensor, initial data, alignment[, modulus]) in arena order; a modulus
        places the buffer at ``alignment`` mod ``modulus`` instead of exactly at its alignment."""
        self.drv = drv
        self.slots, cursor = [], 0
        for case, tensor, data, align, *mod in buffers:
            start = place(cursor, align, *mod)
            self.slots.append(Slot(case, tensor, start, data.nbytes, data.dtype))
            cursor = start + data.nbytes
        self.size = cursor + GUARD
        self.base_align = base_alignment(buffers)
        self.mem = drv.mem_alloc(self.size + self.base_align)  # slack: the base is rounded up
        self.base = -(-int(self.mem) // self.base_align) * self.base_align
        self.host = np.full(self.size, GUARD_BYTE, dtype=np.uint8)
        for s, (_, _, data, *_) in zip(self.slots, buffers):
            self.host[s.start:s.start + s.nbytes] = data.reshape(-1).view(np.uint8)

    def pointer(self, k: int) -> int:
        return self.base + self.slots[k].start

    def upload(self):
        self.drv.memcpy_htod(self.base, self.host)

    def download(self) -> np.ndarray:
        out = np.empty_like(self.host)
        self.drv.memcpy_dtoh(out, self.base)
        return out

    def read(self, host: np.ndarray, k: int) -> np.ndarray:
        s = self.slots[k]
        return host[s.start:s.start + s.nbytes].copy().view(s.dtype)

    def damaged_guards(self, host: np.ndarray) -> set[int]:
        """Indices of the slots next to a guard gap that is no longer intact."""
        bad, prev = set(), 0
        for k, s in enumerate(self.slots + [Slot(-1, "", self.size, 0, np.uint8)]):
            if (host[prev:s.start] != GUARD_BYTE).any():
                bad |= {j for j in (k - 1, k) if 0 <= j < len(self.slots)}
            prev = s.start + s.nbytes
        return bad

    def free(self):
        try:
            self.mem.free()
        except Exception:  # noqa: BLE001 - after a fault the context may be gone
            pass


DEFAULT_SHARED = 48 * 1024  # dynamic shared bytes a launch may ask for without the function attribute


def launch_shared(case) -> int:
    """Bytes of dynamic shared memory the case's launch passes (symbolic-size shared tensors; the
    largest over the CTAs when a symbol is bound to %ctaid)."""
    if not dynamic_tensors(case.check):
        return 0
    return max(dynamic_shared_bytes(case.check, {**case.symbols, **cta})
               for cta in _cta_values(case.check, case.symbols))


class TensorMapRefused(Exception):
    """The driver's ``cuTensorMapEncodeTiled`` refused a kernel's tensor map (the launch is refused)."""


def tensormap_arguments(case, pointer) -> list[bytes]:
    """The 128-byte tensor maps the case's kernel takes after its symbols (``kernel.tensormap_params``),
    each encoded by the driver from the map's arguments at the case's symbol values, for the global
    tensor's buffer at ``pointer(tensor)`` plus the tensor's ``offset`` elements."""
    out = []
    for name in tensormap_params(case.check):
        m = case.check.tensormaps[name]
        a = m.at(case.symbols)
        enc = tensormap_driver.encode_tiled(a["dtype"], pointer(m.tensor) + a["address_offset"], a["dims"],
                                            a["strides"], a["box"], a["element_strides"], m.interleave, m.swizzle,
                                            a["l2"], a["oob"])
        if not enc.accepted:
            raise TensorMapRefused(f"cuTensorMapEncodeTiled refused tensormaps.{name} (CUresult {enc.status}) "
                                   f"at {', '.join(f'{k}={v}' for k, v in case.symbols.items()) or 'no symbols'}")
        out.append(enc.descriptor)
    return out


@dataclass
class BatchTimes:
    upload: float = 0.0
    launch: float = 0.0  # every launch and the one synchronisation
    download: float = 0.0
    compare: float = 0.0


def launch_batch(drv, entries, times: BatchTimes | None = None) -> list:
    """Run every ``(function, case, block)`` once; returns per entry ``(outputs, damaged tensors, refusal)``:
    the downloaded buffers by tensor name, the tensors whose guard bytes changed, and the driver's
    one-line reason when it refused the launch (then outputs is None)."""
    times = times if times is not None else BatchTimes()
    buffers, args_of = [], []
    for i, (_, case, _) in enumerate(entries):
        check = case.check
        first = len(buffers)
        for name, t in check.tensors.items():
            align = t.esize if t.is_register else t.align
            placed = case.placement.get(name)  # (residue, modulus): an unchecked run's misaligned base
            buffers.append((i, name, case.inputs[name], *(placed or (align,))))
        args_of.append((first, len(buffers)))
    arena = Arena(drv, buffers)
    try:
        t = time.perf_counter()
        arena.upload()
        times.upload += time.perf_counter() - t
        t = time.perf_counter()
        refused = {}
        for i, (func, case, block) in enumerate(entries):
            a, b = args_of[i]
            params = [np.uintp(arena.pointer(k)) for k in range(a, b)]
            params += [np.int64(case.symbols[s]) for s in case.params()[b - a:]]
            shared = launch_shared(case)
            kw = {"shared": shared} if shared else {}
            try:
                slot = {arena.slots[k].tensor: k for k in range(a, b)}
                params += tensormap_arguments(case, lambda t: arena.pointer(slot[t]))  # by value, last
                if shared > DEFAULT_SHARED:  # opt in to more than 48 KiB of dynamic shared memory
                    func.set_attribute(drv.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, shared)
                func(*params, grid=(case.grid, 1), block=(block, 1, 1), **kw)
            except TensorMapRefused as e:
                refused[i] = str(e)
            except (drv.Error, tensormap_driver.CudaError) as e:
                drv.Context.synchronize()  # an earlier kernel's fault raises here: the batch is lost
                refused[i] = " ".join(str(e).split())  # else the driver refused this launch alone
        drv.Context.synchronize()
        times.launch += time.perf_counter() - t
        t = time.perf_counter()
        host = arena.download()
        times.download += time.perf_counter() - t
        damaged = arena.damaged_guards(host)
        out = []
        for i, (_, case, _) in enumerate(entries):
            a, b = args_of[i]
            if i in refused:
                out.append((None, [], refused[i]))
                continue
            outputs = {arena.slots[k].tensor: arena.read(host, k) for k in range(a, b)}
            out.append((outputs, [arena.slots[k].tensor for k in range(a, b) if k in damaged], None))
        return out
    finally:
        arena.free()
