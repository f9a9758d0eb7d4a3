"""The driver's own tensor-map encoder, ``cuTensorMapEncodeTiled``, called through ctypes.

The driver is the referee for tensor-map descriptors (issue 30): tilecheck's ``descriptor``
obligation must accept exactly the argument sets this function accepts.  ``encode_tiled`` needs
``libcuda.so.1`` and a current context (the caller's, or device 0's primary context); it imports nothing else
from tilecheck, so a probe can compare the prover with it.

The enum values are ``cuda.h``'s (CUDA 13.0): data types ``DATA_TYPES``, ``INTERLEAVES``,
``SWIZZLES``, ``L2_PROMOTIONS``, ``OOB_FILLS`` map names to values.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass

DATA_TYPES = {
    "uint8": 0, "uint16": 1, "uint32": 2, "int32": 3, "uint64": 4, "int64": 5, "float16": 6,
    "float32": 7, "float64": 8, "bfloat16": 9, "float32_ftz": 10, "tfloat32": 11,
    "tfloat32_ftz": 12, "16u4_align8b": 13, "16u4_align16b": 14, "16u6_align16b": 15,
}
INTERLEAVES = {"none": 0, "16B": 1, "32B": 2}
SWIZZLES = {"none": 0, "32B": 1, "64B": 2, "128B": 3, "128B_atom_32B": 4,
            "128B_atom_32B_flip_8B": 5, "128B_atom_64B": 6}
L2_PROMOTIONS = {"none": 0, "64B": 1, "128B": 2, "256B": 3}
OOB_FILLS = {"none": 0, "nan": 1}

CUDA_SUCCESS = 0
CUDA_ERROR_INVALID_VALUE = 1

_lib = None


class DriverUnavailable(Exception):
    """No ``libcuda.so.1`` on this machine."""


def _cuda():
    global _lib
    if _lib is None:
        try:
            _lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise DriverUnavailable(f"libcuda.so.1 not loadable: {e}") from None
        _lib.cuInit(0)
        _current_context(_lib)
        f = _lib.cuTensorMapEncodeTiled
        f.restype = ctypes.c_int
        f.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32, ctypes.c_void_p,
                      ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64),
                      ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32),
                      ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
    return _lib


def _current_context(lib):
    """The driver refuses to encode without a current context (CUDA_ERROR_INVALID_CONTEXT, 201):
    keep the caller's (pycuda's) or make device 0's primary context current."""
    ctx = ctypes.c_void_p()
    lib.cuCtxGetCurrent(ctypes.byref(ctx))
    if ctx.value:
        return
    dev = ctypes.c_int()
    if lib.cuDeviceGet(ctypes.byref(dev), 0) != 0:
        raise DriverUnavailable("no CUDA device 0")
    lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev)
    lib.cuCtxSetCurrent(ctx)


@dataclass(frozen=True)
class Encoded:
    status: int  # CUresult: 0 accepted, 1 (CUDA_ERROR_INVALID_VALUE) refused
    descriptor: bytes  # the 128-byte CUtensorMap (zeros when refused)

    @property
    def accepted(self) -> bool:
        return self.status == CUDA_SUCCESS


def encode_tiled(dtype: str, address: int, dims, strides, box, element_strides,
                 interleave: str = "none", swizzle: str = "none", l2: str = "none",
                 oob: str = "none") -> Encoded:
    """Call ``cuTensorMapEncodeTiled``.  ``dims``/``box``/``element_strides`` have one entry per
    dimension (innermost first, as the driver takes them); ``strides`` are the byte strides of
    dimensions 1..rank-1 (rank-1 entries).  ``address`` is the global address as an integer (the
    driver checks only its alignment: no memory is touched)."""
    lib = _cuda()
    rank = len(dims)
    out = (ctypes.c_uint64 * 16)()
    d = (ctypes.c_uint64 * max(rank, 1))(*dims)
    s = (ctypes.c_uint64 * max(rank - 1, 1))(*(list(strides) or [0]))
    b = (ctypes.c_uint32 * max(rank, 1))(*box)
    e = (ctypes.c_uint32 * max(rank, 1))(*element_strides)
    status = lib.cuTensorMapEncodeTiled(
        ctypes.byref(out), DATA_TYPES[dtype], rank, ctypes.c_void_p(address), d, s, b, e,
        INTERLEAVES[interleave], SWIZZLES[swizzle], L2_PROMOTIONS[l2], OOB_FILLS[oob])
    return Encoded(status, bytes(out))
