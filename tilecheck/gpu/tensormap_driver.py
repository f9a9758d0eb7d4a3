"""The driver's own tensor-map encoder, ``cuTensorMapEncodeTiled``, called through ctypes.

The driver is the referee for tensor-map descriptors (issue 30): tilecheck's ``descriptor``
obligation must accept exactly the argument sets this function accepts.  ``encode_tiled`` needs
``libcuda.so.1`` and a current context (the caller's, or device 0's primary context); it imports nothing else
from tilecheck, so a probe can compare the prover with it.

The enum values are ``cuda.h``'s (CUDA 13.0): data types ``DATA_TYPES``, ``INTERLEAVES``,
``SWIZZLES``, ``L2_PROMOTIONS``, ``OOB_FILLS`` map names to values.

``Module`` launches the kernels that take a tensor map: a 128-byte ``CUtensorMap`` is a by-value
kernel parameter, and pycuda's launch (``fn(np.frombuffer(desc, "V128")[0], ...)``, one packed
argument buffer) makes every such kernel fault with "illegal instruction" on the H200 (driver
580.159.04, 2026-12-03: the probe's PTX, ``.align 128``, ``.version 9.0`` and an nvcc-compiled
``__grid_constant__`` kernel alike), while ``cuLaunchKernel`` with a ``kernelParams`` array -- one
pointer to each argument's bytes -- runs them correctly.  So the module is loaded with
``cuModuleLoadData`` into the current (pycuda's) context and launched that way; pycuda stays for
memory.  Every CUresult is checked: a failure raises ``CudaError`` with ``cuGetErrorName``'s name.
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


# --- launching kernels with kernelParams (a tensor map by value) ----------------------------------------

CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8


class CudaError(RuntimeError):
    """A driver call that did not return CUDA_SUCCESS (its name and code in the message)."""


def check(lib, rc: int, what: str) -> None:
    """Raise ``CudaError`` naming the driver's error (``cuGetErrorName``) unless ``rc`` is CUDA_SUCCESS."""
    if rc == CUDA_SUCCESS:
        return
    name = ctypes.c_char_p()
    if lib.cuGetErrorName(rc, ctypes.byref(name)) == CUDA_SUCCESS and name.value:
        text = name.value.decode()
    else:
        text = "unknown CUresult"
    raise CudaError(f"{what}: {text} ({rc})")


def param(value) -> ctypes.Array:
    """One kernel argument's bytes in a buffer of its own (8-byte aligned): ``bytes`` as they are (a
    128-byte tensor map), a numpy scalar (``np.uint32(n)``, ``np.uintp(ptr)``) as its bytes, a ctypes
    scalar as its value.  A bare int is refused: its width would be a guess."""
    if isinstance(value, (bytes, bytearray)):
        data = bytes(value)
    elif isinstance(value, ctypes._SimpleCData):
        data = ctypes.string_at(ctypes.addressof(value), ctypes.sizeof(value))
    elif hasattr(value, "tobytes") and hasattr(value, "dtype"):  # a numpy scalar or 0-d array
        data = value.tobytes()
    else:
        raise TypeError(f"a kernel argument must be bytes, a numpy scalar or a ctypes scalar, not "
                        f"{type(value).__name__} (give np.uint32(x), np.uintp(ptr), ...)")
    if not data:
        raise TypeError("an empty kernel argument")
    buf = (ctypes.c_uint64 * (-(-len(data) // 8)))()
    ctypes.memmove(buf, data, len(data))
    return buf


def params(args) -> tuple[ctypes.Array, list]:
    """``kernelParams``: an array of pointers, entry ``i`` pointing to argument ``i``'s bytes; with the
    buffers it points into (keep them alive until the launch returns)."""
    bufs = [param(a) for a in args]
    return (ctypes.c_void_p * max(len(bufs), 1))(*[ctypes.addressof(b) for b in bufs]), bufs


class Module:
    """A module image (PTX text, NUL-terminated here, or a cubin) loaded by ``cuModuleLoadData`` into
    the current context; ``launch`` runs one of its kernels by ``cuLaunchKernel`` with ``kernelParams``.
    ``lib``: the driver (``libcuda.so.1`` by default; the tests pass a stand-in)."""

    def __init__(self, image: "bytes | str", lib=None):
        self.lib = lib if lib is not None else _launch_lib()
        if isinstance(image, str):
            image = image.encode()
        if not image.endswith(b"\0") and not image.startswith(b"\x7fELF"):
            image += b"\0"  # PTX is read as a C string
        self._image = ctypes.create_string_buffer(image, len(image))
        self.handle = ctypes.c_void_p()
        check(self.lib, self.lib.cuModuleLoadData(ctypes.byref(self.handle), self._image), "cuModuleLoadData")
        self._functions: dict[str, ctypes.c_void_p] = {}

    def function(self, name: str) -> ctypes.c_void_p:
        if name not in self._functions:
            f = ctypes.c_void_p()
            check(self.lib, self.lib.cuModuleGetFunction(ctypes.byref(f), self.handle, name.encode()),
                  f"cuModuleGetFunction({name})")
            self._functions[name] = f
        return self._functions[name]

    def set_max_dynamic_shared(self, name: str, nbytes: int) -> None:
        """Allow ``nbytes`` of dynamic shared memory (over 48 KiB needs it)."""
        check(self.lib, self.lib.cuFuncSetAttribute(self.function(name), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                    int(nbytes)), f"cuFuncSetAttribute({name}, max dynamic shared)")

    def launch(self, name: str, args, grid=(1, 1, 1), block=(1, 1, 1), shared: int = 0, stream=None) -> None:
        """``cuLaunchKernel`` of kernel ``name`` with ``args`` (see ``param``) on ``stream`` (a CUstream
        handle as an int, or None: the legacy default stream)."""
        self.launcher(name, args, grid, block, shared, stream)()

    def launcher(self, name: str, args, grid=(1, 1, 1), block=(1, 1, 1), shared: int = 0, stream=None):
        """``launch`` with its arguments marshalled once: a function of no arguments that launches
        (for timing loops; the argument buffers live as long as it does)."""
        grid, block = (tuple(grid) + (1, 1))[:3], (tuple(block) + (1, 1))[:3]
        kp, bufs = params(args)
        f, lib = self.function(name), self.lib
        dims = [ctypes.c_uint(x) for x in (*grid, *block, shared)]
        hstream = ctypes.c_void_p(stream)

        def go():
            check(lib, lib.cuLaunchKernel(f, *dims, hstream, kp, None), f"cuLaunchKernel({name})")
        go.buffers = bufs  # kept alive with the launcher
        return go

    def unload(self) -> None:
        if self.handle:
            check(self.lib, self.lib.cuModuleUnload(self.handle), "cuModuleUnload")
            self.handle = ctypes.c_void_p()


def _launch_lib():
    lib = _cuda()
    lib.cuLaunchKernel.restype = ctypes.c_int
    lib.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p, ctypes.c_void_p,
                                                                             ctypes.c_void_p]
    lib.cuModuleLoadData.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.cuModuleGetFunction.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]
    lib.cuFuncSetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    lib.cuModuleUnload.argtypes = [ctypes.c_void_p]
    lib.cuGetErrorName.argtypes = [ctypes.c_int, ctypes.c_void_p]
    return lib
