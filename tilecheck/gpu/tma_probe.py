"""Where TMA's bytes land, byte for byte on the device: the landing model (``tilecheck/tma_landing.py``)
against the hardware's shared memory (issue 30, items 4 and 5).

    python -m tilecheck.gpu.tma_probe                      # GPU machine: build, run, compare; JSON into $OUT (or .)
    python -m tilecheck.gpu.tma_probe --build-only --out D # write and ptxas-assemble the kernels only (no GPU)
    python tilecheck/gpu/tma_probe.py ...                  # the same without importing the tilecheck package (no z3)

Every case is one hand-written PTX kernel (a measurement tool, like ``ncu_probe``; no proof is involved).
A **load** case: 128 threads fill a 1024-aligned static shared array with a sentinel (``0x41 + i % 62``,
bit 6 set), ``fence.proxy.async``; one thread ``mbarrier.init``s, ``arrive.expect_tx``s the box's bytes
and issues ``cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes`` to
``array + dst_offset``; every thread spins on ``mbarrier.try_wait.parity`` (bounded: a count that never
arrives is reported as ``timeout``, not a hang), then the block copies the whole array, byte for byte,
to a global output after a 16-byte header (status, the array's shared address, spins).  A **store**
case (the reverse path): the block fills the array from a random image, ``fence.proxy.async``, one
thread issues ``cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group`` from ``array + dst_offset``,
``commit_group``, ``wait_group 0``; the global tensor (a sentinel before) is compared.

The tensor map is the kernel's first parameter (``.param .align 64 .b8 tmap[128]``), the 128 bytes
``cuTensorMapEncodeTiled`` (``tensormap_driver.encode_tiled``) made for the device's real buffer,
passed by value.  The global tensor holds random bytes with bit 6 clear and never 0: every float
reading of it is finite and nonzero, so zero and NaN fill are told apart from data, and no data byte
equals the sentinel.

Groups: ``main`` (swizzle none/32B/64B/128B x element size 1/2/4/8 x boxes: inner box bytes 16 up to
the span, outer dims, element strides > 1, rank 1 to 3, destinations on the pattern's repeat and off
it by multiples of 128 bytes, boxes across the tensor's edges and wholly outside it, zero and NaN
fill; loads and stores) is compared with the model: ``model == hardware: N/N``.  ``atom`` (the
128B_ATOM_* swizzles, sm_100 modes) tries candidate patterns where the driver encodes them.
``risky`` (an innermost coordinate not a multiple of 16 bytes; a destination 16 but not 128 bytes
aligned) runs each case in a child process, since a fault ends a CUDA context; so does ``store_edge``
(``--only store_edge``: stores whose box starts before the tensor in dimension 0, 1 or both, and over the
far edge, with ``dims[0] * size`` a multiple of 16 bytes and not; float16 and float32, swizzle none and
128B), each case held to the model, to ``chunk16`` (whole 16-byte chunks written past ``dims[0]``) and
to what ``tma_store_edge`` says of it (``store_edge_rule``): the summary's ``store_edge:`` part.  Where a case differs
from the model, the alternatives it matches are named (the swizzle anchored at the destination
rather than the address, dense rows not padded to the swizzle span, dimension 0's element stride
applied).  Each case's shared array holds the model's footprint (rows padded to the swizzle span)
plus slack.

Output: ``$OUT/tma_probe.json`` (every case: its parameters, status, the first differing byte, the
alternatives it matches, the NaN patterns seen, and for a differing case the bytes the device left,
zlib-compressed and base64-encoded: ``unpack(detail["got"])``) and one summary line; exit 0 when
every main case equals the model and no ``store_edge`` case proved by tma_store_edge faulted or wrote
other bytes, 1 otherwise, 2 without pycuda or a device.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import time
import zlib
from dataclasses import asdict, dataclass, field
from math import prod
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a file: load the pure modules by path, not the package (z3)
    import importlib.util

    def _by_path(name, path):
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod

    _here = Path(__file__).resolve().parent
    landing = _by_path("tma_landing", _here.parent / "tma_landing.py")
    tensormap_driver = _by_path("tensormap_driver", _here / "tensormap_driver.py")
    find_tool = _by_path("tools_finder", _here.parent / "tools.py").find_tool  # stdlib only
else:
    from .. import tma_landing as landing
    from ..tools import find_tool
    from . import tensormap_driver

TmaBox = landing.TmaBox

ESIZE = {"uint8": 1, "uint16": 2, "float16": 2, "bfloat16": 2, "uint32": 4, "int32": 4, "float32": 4,
         "uint64": 8, "int64": 8, "float64": 8}
FLOATS = {"float16": (5, 10), "bfloat16": (8, 7), "float32": (8, 23), "float64": (11, 52)}  # exponent, mantissa
SPANS = {"none": 0, "32B": 32, "64B": 64, "128B": 128, "128B_atom_32B": 128, "128B_atom_32B_flip_8B": 128,
         "128B_atom_64B": 128}
THREADS = 128
HEADER = 16
SLACK = 256  # sentinel bytes past the box's last 128-byte row: a stray write shows there
GLOBAL_BYTES = 16 << 20
SPIN_LIMIT = 200_000  # try_wait rounds of at most SUSPEND_NS each: a count that never arrives ends in ~0.2 s
SUSPEND_NS = 1000
PREFIX = "tma_probe_"


@dataclass
class Case:
    name: str
    kind: str  # "load" (global -> shared) or "store" (shared -> global)
    dtype: str  # a key of tensormap_driver.DATA_TYPES
    dims: list  # globalDim, innermost first
    strides: list  # globalStrides in bytes, dimensions 1..rank-1
    box: list
    es: list  # elementStrides
    swizzle: str
    start: list  # the instruction's tensor coordinates
    dst_offset: int  # bytes from the 1024-aligned shared array to the copy's shared address
    goff: int = 0  # the tensor's byte offset in the global buffer (16-byte aligned)
    oob: str = "none"  # "none" (zero fill) or "nan"
    group: str = "main"  # "main", "atom", "risky"
    note: str = ""
    edge: str = ""  # "hi"/"lo": across the far/near edges; "out"/"neg": wholly past the end / before the start

    @property
    def esize(self) -> int:
        return ESIZE[self.dtype]

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def nbytes(self) -> int:
        """Bytes the copy delivers: the whole box, as the model counts it (dimension 0 unstrided)."""
        n = (self.box[0],) + tuple(-(-b // s) for b, s in zip(self.box[1:], self.es[1:]))
        return self.esize * prod(n)

    @property
    def footprint(self) -> int:
        """Shared bytes the box spans from its destination: the model's (rows padded to the swizzle
        span); for the unmodelled 128B_ATOM_* modes the same padding to their 128-byte span."""
        try:
            return self.model().footprint
        except landing.NotModelled:
            pitch = max(self.box[0] * self.esize, SPANS[self.swizzle])
            return pitch * prod(-(-b // s) for b, s in zip(self.box[1:], self.es[1:]))

    @property
    def shared_size(self) -> int:
        return -(-(self.dst_offset + self.footprint) // 128) * 128 + SLACK

    @property
    def extent(self) -> int:
        """Bytes of the global tensor from its start."""
        return self.strides[-1] * self.dims[-1] if self.rank > 1 else self.dims[0] * self.esize

    def model(self):
        return TmaBox(self.esize, tuple(self.box), tuple(self.es), self.swizzle)


# the cases ------------------------------------------------------------------------

DTYPES = {1: ("uint8",), 2: ("float16", "uint16", "bfloat16"), 4: ("float32", "uint32"), 8: ("float64", "uint64")}
OFFSETS = {"none": (128, 384), "32B": (128,), "64B": (128, 256, 384), "128B": (128, 256, 384, 512, 640, 768, 896,
                                                                                 1024 + 384)}


def _widths(swizzle: str, e: int) -> list[int]:
    span = SPANS[swizzle]
    ws = [16, 32, 48, 64, 96, 128] if span else [16, 48, 128, 256, 512, 2048]
    return [w for w in ws if (not span or w <= span) and w % e == 0 and w // e <= 256]


def _tensor(box, es, e, k):
    """Global dims and byte strides around a box: dimension 0 not a multiple of 16 bytes, padded rows."""
    dims = [2 * box[0] + 3] + [b * s * 2 + 5 for b, s in zip(box[1:], es[1:])]
    strides, pitch = [], -(-dims[0] * e // 16) * 16 + 16 * (k % 3)
    for i in range(1, len(box)):
        strides.append(pitch)
        pitch = pitch * dims[i] + 32 * (k % 2)
    return dims, strides


def cases() -> list[Case]:
    out: list[Case] = []

    def add(kind, dtype, box, es, swizzle, dst=0, start=None, edge="", oob="none", group="main", note="",
            dims=None, strides=None):
        k = len(out)
        e = ESIZE[dtype]
        if dims is None:
            dims, strides = _tensor(box, es, e, k)
        if start is None:
            start = [(16 // e if e < 16 else 1) * (k % 2)] + [k % 3 for _ in box[1:]]
            if edge == "hi":  # across the far edges of dimensions 0 and 1 (or the last)
                start = [-(-(dims[0] - box[0] // 2) * e // 16) * 16 // e] + \
                        [d - 2 for d in dims[1:]]
            elif edge == "lo":  # across the near edges: negative coordinates
                start = [-(16 // e)] + [-1 for _ in box[1:]]
            elif edge == "out":  # wholly past the end of the outermost dimension
                start = start[:-1] + [dims[-1] + 3] if len(box) > 1 else [dims[0] + 16]
            elif edge == "neg":  # wholly before the start
                start = [-(box[0] + 16 // e * 2)] + [-b * s - 1 for b, s in zip(box[1:], es[1:])]
        goff = 16 * (k % 7) + 4096 * (k % 5)
        name = f"{PREFIX}{k:04d}_{'store_edge' if group == 'store_edge' else kind}_{dtype}_{swizzle}_r{len(box)}_" \
               f"{'x'.join(map(str, box))}" + \
               (f"_es{''.join(map(str, es))}" if any(s != 1 for s in es) else "") + \
               (f"_d{dst}" if dst else "") + (f"_{edge}" if edge else "") + ("_nan" if oob == "nan" else "")
        c = Case(name, kind, dtype, list(dims), list(strides), list(box), list(es), swizzle, list(start), dst,
                 goff, oob, group, note, edge)
        assert c.goff + c.extent <= GLOBAL_BYTES and c.shared_size <= 48 * 1024, c.name
        out.append(c)

    for swizzle in ("none", "32B", "64B", "128B"):
        for e in (1, 2, 4, 8):
            ws = _widths(swizzle, e)
            for wi, w in enumerate(ws):
                dt = DTYPES[e][wi % len(DTYPES[e])]
                b0 = w // e
                rows = max(1, min(9, (8192 // w)))
                add("load", dt, [b0, 8], [1, 1], swizzle)
                if wi in (0, len(ws) - 1) or w == 48:
                    for d in OFFSETS[swizzle]:
                        add("load", dt, [b0, rows], [1, 1], swizzle, dst=d)
                add("load", dt, [b0, 7], [1, 3], swizzle, note="element stride 3 in dimension 1")
                add("load", dt, [b0, 4], [2, 2], swizzle, note="dimension 0's element stride 2 (ignored)")
                add("load", dt, [b0, 3, 4], [1, 1, 2], swizzle, dst=OFFSETS[swizzle][0] if wi % 2 else 0)
                if swizzle == "none" or w == SPANS[swizzle]:
                    add("load", dt, [b0], [1], swizzle, note="rank 1")
                fl = DTYPES[e][0] if DTYPES[e][0] in FLOATS else None
                for edge in ("hi", "lo"):
                    add("load", dt, [b0, 5], [1, 1], swizzle, edge=edge)
                    if fl:
                        add("load", fl, [b0, 5], [1, 2], swizzle, edge=edge, oob="nan")
                if wi == len(ws) - 1:
                    add("load", dt, [b0, 6], [1, 1], swizzle, edge="out", note="wholly past the end: all fill")
                    add("load", dt, [b0, 2, 3], [1, 1, 1], swizzle, edge="neg", note="wholly before the start")
                    if fl:
                        add("load", fl, [b0, 6], [1, 1], swizzle, edge="out", oob="nan")
                # the reverse path: shared -> global
                add("store", dt, [b0, 6], [1, 1], swizzle, dst=OFFSETS[swizzle][-1] if wi % 2 else 0)
                if wi == len(ws) - 1:
                    add("store", dt, [b0, 5], [1, 1], swizzle, edge="hi", note="clipped at the far edges")
                    add("store", dt, [b0, 5], [1, 1], swizzle, edge="lo", note="clipped at the near edges")
                    add("store", dt, [b0, 3, 2], [1, 1, 1], swizzle)
    for sw in landing.ATOM_SWIZZLES:  # sm_100 modes: tried where the driver encodes them
        for e in (1, 2, 4):
            add("load", DTYPES[e][0], [128 // e, 8], [1, 1], sw, group="atom")
            add("load", DTYPES[e][0], [64 // e, 8], [1, 1], sw, dst=384, group="atom")
    for dt, s0 in (("uint8", 3), ("float32", 1), ("float16", 4)):  # 1..15 bytes in: "illegal instruction"?
        e = ESIZE[dt]
        add("load", dt, [32 // e, 4], [1, 1], "none", start=[s0, 1], group="risky",
            note=f"innermost coordinate {s0} ({s0 * e} bytes, not a multiple of 16)")
    add("load", "uint8", [32, 4], [1, 1], "128B", start=[5, 1], group="risky", note="unaligned inner coordinate, 128B")
    add("store", "uint8", [32, 4], [1, 1], "none", start=[3, 1], group="risky", note="store, inner coordinate 3 bytes")
    for d in (16, 48):
        add("load", "uint8", [32, 4], [1, 1], "none", dst=d, group="risky", note=f"destination {d} bytes past 1024")
    # stores at the tensor's edges (tma_store_edge; --only store_edge), each in its own child: which near
    # edge faults (dimension 0, 1 or both) with dims[0] * size whole 16-byte chunks or not, and the far
    # edge's 16-byte chunks; the rows 16 bytes of padding apart, so a chunk written past dims[0] shows
    for dt in ("float16", "float32"):
        e = ESIZE[dt]
        for swizzle in ("none", "128B"):
            b0 = (128 if swizzle == "128B" else 64) // e
            for aligned in (True, False):
                d0 = 2 * b0 + (16 // e if aligned else 3)  # 2*b0*e + 16 bytes, or + 6 / 12 bytes
                dims = [d0, 15]
                strides = [-(-d0 * e // 16) * 16 + 16]
                tag = "a16" if aligned else "u16"
                for edge, start in (("neg0", [-(16 // e), 2]), ("neg1", [0, -1]), ("neg01", [-(16 // e), -1]),
                                    ("hi", [-(-(d0 - b0 // 2) * e // 16) * 16 // e, 13])):
                    add("store", dt, [b0, 5], [1, 1], swizzle, start=start, edge=f"{edge}_{tag}", dims=dims,
                        strides=strides, group="store_edge",
                        note=f"{edge}: start {start}, dims[0] * size = {d0 * e} bytes"
                             f"{'' if aligned else ' (not a multiple of 16)'}")
    return out


def store_edge_rule(c: Case) -> str:
    """What tma_store_edge (proofs/tma_store_edge.py, families/tma.py's decide_store_edge) says of a store
    case, restated here for the probe's report: "fault" (a start coordinate below 0: refuted), "chunks"
    (the box past dims[0] with dims[0] * size not whole 16-byte chunks: refuted) or "exact" (proved)."""
    if any(x < 0 for x in c.start):
        return "fault"
    if c.start[0] + c.box[0] > c.dims[0] and (c.dims[0] * c.esize) % 16:
        return "chunks"
    return "exact"


# PTX ------------------------------------------------------------------------------

def _coords(c: Case) -> tuple[list[str], str]:
    lines = [f"\tmov.u32 \t%r{10 + i}, {v};" for i, v in enumerate(c.start)]
    return lines, "{" + ", ".join(f"%r{10 + i}" for i in range(c.rank)) + "}"


def _head(c: Case, params: str) -> list[str]:
    n = c.name
    return [".version 8.0", ".target sm_90", ".address_size 64", "",
            f".shared .align 1024 .b8 {n}_smem[{c.shared_size}];",
            f".shared .align 8 .b64 {n}_mbar;", "",
            f".visible .entry {n}(.param .align 64 .b8 {n}_tmap[128], {params})",
            f".maxntid {THREADS}, 1, 1", "{",
            "\t.reg .pred \t%p<8>;", "\t.reg .b32 \t%r<24>;", "\t.reg .b64 \t%rd<8>;", "",
            "\tmov.u32 \t%r0, %tid.x;", f"\tmov.u32 \t%r1, {n}_smem;", f"\tmov.u32 \t%r2, {n}_mbar;",
            "\tsetp.ne.u32 \t%p1, %r0, 0;",
            f"\tmov.b64 \t%rd1, {n}_tmap;", "\tcvta.param.u64 \t%rd1, %rd1;",
            f"\tadd.u32 \t%r6, %r1, {c.dst_offset};"]


def _loop(label: str, size: int, body: list[str]) -> list[str]:
    """``for (%r3 = tid; %r3 < size; %r3 += THREADS) body`` (``%r5`` = the shared address smem + %r3)."""
    return [f"\tmov.u32 \t%r3, %r0;", f"{label}:", f"\tsetp.ge.u32 \t%p0, %r3, {size};", f"\t@%p0 bra \t{label}_END;",
            "\tadd.u32 \t%r5, %r1, %r3;", "\tcvt.u64.u32 \t%rd2, %r3;", *body,
            f"\tadd.u32 \t%r3, %r3, {THREADS};", f"\tbra \t{label};", f"{label}_END:"]


def load_ptx(c: Case) -> str:
    """The load case's kernel: parameters (tmap, out)."""
    n, size = c.name, c.shared_size
    coord_lines, coords = _coords(c)
    L = _head(c, f".param .u64 {n}_out")
    L += [f"\tld.param.u64 \t%rd0, [{n}_out];", "\tcvta.to.global.u64 \t%rd0, %rd0;"]
    L += _loop("FILL", size, ["\trem.u32 \t%r4, %r3, 62;", "\tadd.u32 \t%r4, %r4, 65;",
                              "\tst.shared.u8 \t[%r5], %r4;"])
    L += ["\t@%p1 bra \tINITED;", "\tmbarrier.init.shared::cta.b64 \t[%r2], 1;", "INITED:",
          "\tfence.proxy.async.shared::cta;", "\tbar.sync \t0;", "\t@%p1 bra \tISSUED;",
          f"\tmbarrier.arrive.expect_tx.shared::cta.b64 \t_, [%r2], {c.nbytes};", *coord_lines,
          f"\tcp.async.bulk.tensor.{c.rank}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
          f"\t[%r6], [%rd1, {coords}], [%r2];",
          "ISSUED:", "\tmov.u32 \t%r7, 0;", "WAIT:", f"\tmbarrier.try_wait.parity.shared::cta.b64 \t%p2, [%r2], 0, {SUSPEND_NS};",
          "\t@%p2 bra \tDONE;", "\tadd.u32 \t%r7, %r7, 1;", f"\tsetp.lt.u32 \t%p3, %r7, {SPIN_LIMIT};",
          "\t@%p3 bra \tWAIT;", "DONE:", "\tselp.u32 \t%r8, 1, 2, %p2;", "\tbar.sync \t0;",
          "\t@%p1 bra \tHEADED;", "\tst.global.u32 \t[%rd0], %r8;", "\tst.global.u32 \t[%rd0+4], %r1;",
          "\tst.global.u32 \t[%rd0+8], %r7;", "\tst.global.u32 \t[%rd0+12], %r2;", "HEADED:"]
    L += _loop("COPY", size, ["\tld.shared.u8 \t%r4, [%r5];", "\tadd.s64 \t%rd3, %rd0, %rd2;",
                              f"\tst.global.u8 \t[%rd3+{HEADER}], %r4;"])
    L += ["\tret;", "}", ""]
    return "\n".join(L)


def store_ptx(c: Case) -> str:
    """The store case's kernel: parameters (tmap, image, out)."""
    n, size = c.name, c.shared_size
    coord_lines, coords = _coords(c)
    L = _head(c, f".param .u64 {n}_image, .param .u64 {n}_out")
    L += [f"\tld.param.u64 \t%rd0, [{n}_out];", "\tcvta.to.global.u64 \t%rd0, %rd0;",
          f"\tld.param.u64 \t%rd4, [{n}_image];", "\tcvta.to.global.u64 \t%rd4, %rd4;"]
    L += _loop("FILL", size, ["\tadd.s64 \t%rd3, %rd4, %rd2;", "\tld.global.u8 \t%r4, [%rd3];",
                              "\tst.shared.u8 \t[%r5], %r4;"])
    L += ["\tfence.proxy.async.shared::cta;", "\tbar.sync \t0;", "\t@%p1 bra \tDONE;", *coord_lines,
          f"\tcp.async.bulk.tensor.{c.rank}d.global.shared::cta.bulk_group \t[%rd1, {coords}], [%r6];",
          "\tcp.async.bulk.commit_group;", "\tcp.async.bulk.wait_group \t0;",
          "\tst.global.u32 \t[%rd0], 1;", "\tst.global.u32 \t[%rd0+4], %r1;", "DONE:", "\tret;", "}", ""]
    return "\n".join(L)


def kernel_ptx(c: Case) -> str:
    return load_ptx(c) if c.kind == "load" else store_ptx(c)


def link(texts: list[str]) -> str:
    """One module of many single-entry modules (module-scope names are already unique per case)."""
    body = [t.split(".address_size 64\n", 1)[1] for t in texts]
    return ".version 8.0\n.target sm_90\n.address_size 64\n" + "\n".join(body)


def _ptxas() -> str:
    return find_tool("ptxas")


def assemble(cs: list[Case], out: Path, chunk: int = 80) -> list[Path]:
    """Write the kernels (linked ``chunk`` to a module) and assemble each module with ptxas (sm_90a),
    in parallel; raises with ptxas's message when one is rejected.  Returns the PTX files."""
    out.mkdir(parents=True, exist_ok=True)
    exe, files, procs = _ptxas(), [], []
    for i in range(0, len(cs), chunk):
        f = out / f"tma_probe_{i // chunk:02d}.ptx"
        f.write_text(link([kernel_ptx(c) for c in cs[i:i + chunk]]))
        files.append(f)
        procs.append((f, subprocess.Popen([exe, "-arch=sm_90a", "-o", str(f.with_suffix(".cubin")), str(f)],
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    for f, p in procs:
        _, err = p.communicate()
        if p.returncode:
            raise RuntimeError(f"ptxas rejected {f}: {' '.join(err.split())[:600]}")
    return files


# the model's prediction, and the alternatives a difference is held against ----------------

def source_bytes(size: int, seed: int):
    """Random bytes with bit 6 clear and never 0 (every float view finite and nonzero; no sentinel)."""
    rng = np.random.default_rng(seed)
    b = rng.integers(1, 256, size=size, dtype=np.uint8) & np.uint8(0xBF)
    b[b == 0] = 0x11
    return b


def sentinel(size: int):
    return (0x41 + np.arange(size) % 62).astype(np.uint8)


def _grid(shape):
    idx = np.indices(tuple(reversed(shape))).reshape(len(shape), -1)[::-1]
    return [idx[i].astype(np.int64) for i in range(len(shape))]


def placement(c: Case, array: int, how: str = "model"):
    """(shared byte offsets from the array, tensor coordinates) of every box element, by the model or
    an alternative: ``at_dst`` (the swizzle anchored at the destination), ``dense`` (rows not padded
    to the swizzle span: the model before the H200's answer of 2026-12-03), ``es0`` (dimension 0's
    element stride applied); ``atom:<name>`` a candidate pattern.  The alternatives pad rows to the
    span as the model does, except ``dense``."""
    e, dst = c.esize, array + c.dst_offset
    if how == "model":
        t = c.model()
        k = _grid(t.shape)
        return t.address(dst, k) - array, t.source(c.start, k)
    span = SPANS[c.swizzle]
    es0 = how == "es0"
    shape = [-(-c.box[0] // c.es[0]) if es0 else c.box[0]] + [-(-b // s) for b, s in zip(c.box[1:], c.es[1:])]
    k = _grid(shape)
    steps = [c.es[0] if es0 else 1] + list(c.es[1:])
    coords = tuple(s0 + st * ki for s0, st, ki in zip(c.start, steps, k))
    pitch = shape[0] * e if how == "dense" else max(shape[0] * e, span)
    off, scale = k[0] * e, pitch
    for ki, n in zip(k[1:], shape[1:]):
        off, scale = off + ki * scale, scale * n
    if how.startswith("atom:"):
        return ATOM_CANDIDATES[how[5:]](dst + off) - array, coords
    swz = (lambda a: landing.swizzle_address(a, c.swizzle)) if c.swizzle in landing.SWIZZLE_BITS else None
    if swz is None:
        raise ValueError(f"{c.name}: no alternative '{how}' for swizzle {c.swizzle}")
    return (dst + swz(off) if how == "at_dst" else swz(dst + off)) - array, coords


def _sw(b, m, s):
    return lambda a: a ^ ((a & (((1 << b) - 1) << (m + s))) >> s)


ATOM_CANDIDATES = {  # 128B_ATOM_*: unverified guesses, each a function of the shared byte address
    "32B_chunks_rows4": _sw(2, 5, 2),  # 32-byte chunks XOR the row (128 B) mod 4
    "32B_chunks_rows8": _sw(2, 5, 3),  # ... XOR rows 2..3 of 8 (the 1024-byte repeat)
    "32B_flip8_rows4": lambda a: _sw(2, 5, 2)(a) ^ (((a >> 7) & 1) << 3),  # and 8-byte halves on odd rows
    "32B_flip8_rows8": lambda a: _sw(2, 5, 3)(a) ^ (((a >> 7) & 1) << 3),
    "64B_chunks_rows2": _sw(1, 6, 1),
    "64B_chunks_rows8": _sw(1, 6, 3),
    "16B_chunks": _sw(3, 4, 3),  # as 128B
}
ALTERNATIVES = ("at_dst", "dense", "es0")
STORE_ALTERNATIVES = ("chunk16",)  # a store writing whole 16-byte chunks past dims[0] (tma_probe 0434/0695)


def _global_offsets(c: Case, coords, chunks: bool = False):
    """(inside the tensor, byte offset) of each element; ``chunks``: dimension 0 reaches the end of its
    last 16-byte chunk (the bytes a store past dims[0] writes on the H200)."""
    inb = np.ones(coords[0].shape, dtype=bool)
    off = coords[0] * c.esize
    for i, x in enumerate(coords):
        d = -(-c.dims[0] * c.esize // 16) * 16 // c.esize if chunks and i == 0 else c.dims[i]
        inb &= (x >= 0) & (x < d)
        if i:
            off = off + x * c.strides[i - 1]
    return inb, off


def _bytes_at(offs, e):
    return (offs[:, None] + np.arange(e)[None, :]).reshape(-1)


def expect_load(c: Case, array: int, gbytes, how: str = "model"):
    """The shared array after the load: (bytes, nan_elements) where nan_elements are the shared
    offsets of out-of-tensor elements whose fill must be a NaN (NaN fill), else None."""
    addr, coords = placement(c, array, how)
    inb, goff = _global_offsets(c, coords)
    img = sentinel(c.shared_size)
    e = c.esize
    if addr.min() < 0 or addr.max() + e > c.shared_size:
        return None, None
    data = gbytes[_bytes_at(c.goff + np.where(inb, goff, 0), e)].reshape(-1, e)
    data[~inb] = 0
    img[_bytes_at(addr, e)] = data.reshape(-1)
    nan_at = addr[~inb] if c.oob == "nan" else None
    return img, nan_at


def expect_store(c: Case, array: int, image, before, how: str = "model"):
    """The global tensor's bytes (from ``goff``, ``before`` as they were) after the store (``chunk16``: the
    model's placement, dimension 0 written up to the end of its last 16-byte chunk)."""
    addr, coords = placement(c, array, "model" if how == "chunk16" else how)
    inb, goff = _global_offsets(c, coords, chunks=how == "chunk16")
    e = c.esize
    out = before.copy()
    out[_bytes_at(goff[inb], e)] = image[_bytes_at(addr[inb], e)]
    return out


def is_nan(raw, dtype: str):
    """Which elements (rows of ``e`` little-endian bytes) are NaNs of ``dtype``."""
    ebits, mbits = FLOATS[dtype]
    v = np.zeros(raw.shape[0], dtype=np.uint64)
    for b in range(raw.shape[1]):
        v |= raw[:, b].astype(np.uint64) << np.uint64(8 * b)
    exp = (v >> np.uint64(mbits)) & np.uint64((1 << ebits) - 1)
    man = v & np.uint64((1 << mbits) - 1)
    return (exp == (1 << ebits) - 1) & (man != 0), v


def judge_load(c: Case, array: int, gbytes, got, how: str = "model") -> dict:
    """Compare the array the device wrote with a prediction: ok, the first differing byte, NaN patterns."""
    want, nan_at = expect_load(c, array, gbytes, how)
    if want is None:
        return {"ok": False, "why": "the prediction leaves the shared array"}
    res: dict = {}
    mask = np.ones(len(want), dtype=bool)
    if nan_at is not None and len(nan_at):
        rows = _bytes_at(nan_at, c.esize)
        mask[rows] = False
        nan, bits = is_nan(got[rows].reshape(-1, c.esize), c.dtype)
        res["nan_fill"] = {"elements": int(len(nan_at)), "nan": int(nan.sum()),
                           "patterns": sorted({f"{int(x):#0{2 + 2 * c.esize}x}" for x in bits})[:4]}
        if not nan.all():
            res.update(ok=False, why=f"{int((~nan).sum())} out-of-tensor elements are not NaN")
            return res
    bad = np.flatnonzero((want != got) & mask)
    res["ok"] = not len(bad)
    if len(bad):
        i = int(bad[0])
        res["first_diff"] = {"byte": i, "want": int(want[i]), "got": int(got[i]), "count": int(len(bad))}
    return res


# the run -------------------------------------------------------------------------------

@dataclass
class Outcome:
    case: Case
    status: str  # "ok", "differs", "timeout", "refused" (the driver's encode), "fault", "not run"
    detail: dict = field(default_factory=dict)
    matches: list = field(default_factory=list)  # alternatives / candidates that equal the hardware


def _encode(c: Case, address: int):
    return tensormap_driver.encode_tiled(c.dtype, address, c.dims, c.strides, c.box, c.es, "none", c.swizzle,
                                         "none", c.oob)


def run(cs: list[Case], seed: int = 30, report=None, ready=None) -> list[Outcome]:
    """Run the cases in this process: pycuda's context and memory, one module loaded and each kernel
    launched by ``tensormap_driver.Module`` (``cuLaunchKernel`` with ``kernelParams``: pycuda's own
    launch breaks the by-value tensor map), one launch and synchronisation each.  ``ready()`` is called
    once the module is loaded, ``report(outcome)`` after each case (the child prints both: a fault ends
    the process)."""
    import pycuda.driver as drv
    drv.init()
    ctx = drv.Device(0).make_context()
    try:
        mod = tensormap_driver.Module(link([kernel_ptx(c) for c in cs]))
        gbytes = source_bytes(GLOBAL_BYTES, seed)
        gbuf = drv.mem_alloc(GLOBAL_BYTES)
        drv.memcpy_htod(gbuf, gbytes)
        if ready:
            ready()
        out = []
        for c in cs:
            out.append(_run_one(drv, mod, c, int(gbuf), gbytes, seed))
            if report:
                report(out[-1])
        return out
    finally:
        ctx.pop()
        ctx.detach()


def _run_one(drv, mod, c: Case, gbase: int, gbytes, seed: int) -> Outcome:
    if c.kind == "load":
        enc = _encode(c, gbase + c.goff)
        if not enc.accepted:
            return Outcome(c, "refused", {"cuTensorMapEncodeTiled": enc.status})
        res = drv.mem_alloc(HEADER + c.shared_size)
        drv.memset_d8(res, 0, HEADER + c.shared_size)
        mod.launch(c.name, [enc.descriptor, np.uintp(int(res))], block=(THREADS,))
        drv.Context.synchronize()
        got = np.empty(HEADER + c.shared_size, dtype=np.uint8)
        drv.memcpy_dtoh(got, res)
        res.free()
        status, array, spins = (int(x) for x in got[:12].view(np.uint32))
        if status != 1:
            return Outcome(c, "timeout", {"spins": spins, "array": array})
        body = got[HEADER:]
        return _verdict(c, array, {"array": array, "spins": spins},
                        lambda how: judge_load(c, array, gbytes, body, how), body)
    # store: the global tensor lives in its own buffer (a sentinel before), the image is random
    size = c.goff + c.extent + SLACK
    before = sentinel(size)
    gout = drv.mem_alloc(size)
    drv.memcpy_htod(gout, before)
    enc = _encode(c, int(gout) + c.goff)
    if not enc.accepted:
        return Outcome(c, "refused", {"cuTensorMapEncodeTiled": enc.status})
    image = source_bytes(c.shared_size, seed + 1 + len(c.name))
    ibuf, res = drv.to_device(image), drv.mem_alloc(HEADER)
    drv.memset_d8(res, 0, HEADER)
    mod.launch(c.name, [enc.descriptor, np.uintp(int(ibuf)), np.uintp(int(res))], block=(THREADS,))
    drv.Context.synchronize()
    head = np.empty(HEADER, dtype=np.uint8)
    drv.memcpy_dtoh(head, res)
    got = np.empty(size, dtype=np.uint8)
    drv.memcpy_dtoh(got, gout)
    for b in (gout, ibuf, res):
        b.free()
    status, array = (int(x) for x in head[:8].view(np.uint32))
    if status != 1:
        return Outcome(c, "timeout", {})

    def judge(how):
        want = expect_store(c, array, image, before[c.goff:c.goff + c.extent], how)
        full = before.copy()
        full[c.goff:c.goff + c.extent] = want
        bad = np.flatnonzero(full != got)
        r = {"ok": not len(bad)}
        if len(bad):
            r["first_diff"] = {"byte": int(bad[0]), "want": int(full[bad[0]]), "got": int(got[bad[0]]),
                               "count": int(len(bad))}
        return r
    return _verdict(c, array, {"array": array}, judge, got)


def pack(got) -> str:
    """Bytes as compact text for the JSON (zlib, then base64); ``unpack`` undoes it."""
    return base64.b64encode(zlib.compress(np.asarray(got, dtype=np.uint8).tobytes(), 9)).decode()


def unpack(text: str):
    return np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype=np.uint8)


def _verdict(c: Case, array: int, detail: dict, judge, got=None) -> Outcome:
    """ok / differs (and the alternatives that match); a differing case records the bytes the device
    left (``detail["got"]``, ``pack``ed: the shared array for a load, the global buffer for a store)
    so a difference can be studied without the device."""
    if c.group == "atom":
        matches = [n for n in ATOM_CANDIDATES if judge(f"atom:{n}").get("ok")]
        if not matches and got is not None:
            detail["got"] = pack(got)
        return Outcome(c, "ok" if matches else "differs", detail, matches)
    r = judge("model")
    detail.update(r)
    if r.get("ok"):
        return Outcome(c, "ok", detail)
    if got is not None:
        detail["got"] = pack(got)
    matches = []
    for how in ALTERNATIVES + (STORE_ALTERNATIVES if c.kind == "store" else ()):
        try:
            if judge(how).get("ok"):
                matches.append(how)
        except ValueError:
            pass
    return Outcome(c, "differs", detail, matches)


def run_children(cs: list[Case], seed: int = 30, alone: bool = False, timeout: float = 900) -> list[Outcome]:
    """Run the cases in child processes (this process never touches the device): a fault ends the
    child's CUDA context, so the case it ran is recorded as ``fault`` and a new child takes the rest.
    ``alone``: one child per case (the risky groups)."""
    cmd = ([sys.executable, "-m", "tilecheck.gpu.tma_probe"] if __package__ else [sys.executable, __file__])
    by_name = {c.name: c for c in cs}
    index = {c.name: k for k, c in enumerate(cases())}  # the child finds its cases by their index
    done: dict[str, Outcome] = {}
    todo = [c.name for c in cs]
    silent = 0  # children in a row that did not start (no module, no device): then the rest is not run
    while todo:
        batch = todo[:1] if alone else todo
        try:
            p = subprocess.run(cmd + ["--child", ",".join(str(index[n]) for n in batch), "--seed", str(seed)],
                               capture_output=True,
                               text=True, timeout=timeout)
            out, err, code = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err, code = f"no answer in {timeout:.0f} s", -1
        started = False
        for line in out.splitlines():
            if line.startswith("{"):
                d = json.loads(line)
                if d.get("ready"):  # the child loaded the module: what ends it now is a case's fault
                    started = True
                    continue
                done[d["name"]] = Outcome(by_name[d["name"]], d["status"], d["detail"], d["matches"])
                started = True
        left = [n for n in batch if n not in done]
        tail = " ".join((err or "").split())[-400:]
        if left and (started or alone):  # the first unanswered case ended the child; the next child goes on
            done[left[0]] = Outcome(by_name[left[0]], "fault", {"exit": code, "message": tail})
        silent = 0 if started else silent + 1
        if silent >= 2 and not alone:
            for n in todo:
                done.setdefault(n, Outcome(by_name[n], "not run", {"message": tail}))
        todo = [n for n in todo if n not in done]
    return [done[c.name] for c in cs]


def summary(outs: list[Outcome]) -> str:
    refused = [o for o in outs if o.case.group == "main" and o.status == "refused"]
    main = [o for o in outs if o.case.group == "main" and o.status != "refused"]  # the driver encoded its map
    ok = sum(o.status == "ok" for o in main)
    loads = [o for o in main if o.case.kind == "load"]
    stores = [o for o in main if o.case.kind == "store"]
    oob = [o for o in main if o.case.edge or o.case.oob == "nan"]
    nan = [o for o in main if o.case.oob == "nan"]
    parts = [f"model == hardware: {ok}/{len(main)} "
             f"(loads {sum(o.status == 'ok' for o in loads)}/{len(loads)}, "
             f"stores {sum(o.status == 'ok' for o in stores)}/{len(stores)}; "
             f"across the tensor's edges {sum(o.status == 'ok' for o in oob)}/{len(oob)}, "
             f"NaN fill {sum(o.status == 'ok' for o in nan)}/{len(nan)})"]
    if refused:
        parts.append(f"the driver refused {len(refused)} maps (not run): "
                     + ", ".join(o.case.name[len(PREFIX):] for o in refused[:6]))
    bad = [o for o in main if o.status != "ok"]
    if bad:
        parts.append("differ: " + ", ".join(f"{o.case.name[len(PREFIX):]} ({o.status}"
                                           f"{'; matches ' + '/'.join(o.matches) if o.matches else ''})"
                                           for o in bad[:6]))
    atom = [o for o in outs if o.case.group == "atom"]
    if atom:
        by = {}
        for o in atom:
            by.setdefault(o.case.swizzle, []).append(o)
        parts.append("atom: " + "; ".join(
            f"{sw}: " + ("driver refuses" if all(o.status == "refused" for o in os_) else
                         ", ".join(sorted({'/'.join(o.matches) or o.status for o in os_})))
            for sw, os_ in by.items()))
    edge = [o for o in outs if o.case.group == "store_edge"]
    if edge:
        parts.append(store_edge_summary(edge))
    risky = [o for o in outs if o.case.group == "risky"]
    if risky:
        parts.append("risky: " + ", ".join(f"{o.case.note}: {o.status}" for o in risky))
    return "tma_probe: " + "; ".join(parts)


def store_edge_verdict(o: Outcome) -> str:
    """How tma_store_edge's verdict (``store_edge_rule``) meets what the device did: "agrees"; "conservative"
    (refuted, the device wrote exactly the model's bytes); "other" (refuted, but the device did something
    else than the refutation says: faulted where it says chunks, wrote where it says a fault); "UNSOUND"
    (proved, the device faulted or wrote other bytes than the model's)."""
    rule = store_edge_rule(o.case)
    did = ("fault" if o.status == "fault" else "exact" if o.status == "ok" else
           "chunks" if "chunk16" in o.matches else o.status)
    if rule == did:
        return "agrees"
    if rule == "exact":
        return "UNSOUND"
    return "conservative" if did == "exact" else "other"


def store_edge_summary(outs: list[Outcome]) -> str:
    """``store_edge: tma_store_edge == hardware N/M (C conservative, O other, U UNSOUND): <case>, ...``,
    each case as ``<dtype> <swizzle> <edge>_<a16|u16>: <status>[=chunk16]``."""
    vs = [store_edge_verdict(o) for o in outs]
    cells = [f"{o.case.dtype} {o.case.swizzle} {o.case.edge}: {o.status}"
             f"{'=' + '/'.join(o.matches) if o.matches else ''}{'' if v == 'agrees' else ' [' + v + ']'}"
             for o, v in zip(outs, vs)]
    return (f"store_edge: tma_store_edge == hardware {vs.count('agrees')}/{len(vs)} "
            f"({vs.count('conservative')} conservative, {vs.count('other')} other, {vs.count('UNSOUND')} UNSOUND): "
            + ", ".join(cells))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tilecheck.gpu.tma_probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", ".")),
                    help="folder for tma_probe.json and the kernels (default: $OUT, else .)")
    ap.add_argument("--build-only", action="store_true", help="write and ptxas-assemble the kernels; run nothing")
    ap.add_argument("--only", metavar="TEXT", help="only the cases whose name contains TEXT")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--child", help=argparse.SUPPRESS)  # the child: these case indices, one JSON line each
    a = ap.parse_args(argv)
    cs = cases()
    if a.child:
        run([cs[int(k)] for k in a.child.split(",")], a.seed, lambda o: print(json.dumps(
            {"name": o.case.name, "status": o.status, "detail": o.detail, "matches": o.matches}), flush=True),
            lambda: print(json.dumps({"ready": True}), flush=True))
        return 0
    if a.only:
        cs = [c for c in cs if a.only in c.name]
    if a.build_only:
        files = assemble(cs, a.out / "tma_probe_ptx")
        print(f"tma_probe: {len(cs)} kernels in {len(files)} modules, assembled by ptxas (sm_90a) in "
              f"{a.out / 'tma_probe_ptx'}")
        return 0
    try:
        import pycuda.driver as drv
        drv.init()
        if not drv.Device.count():
            raise RuntimeError("the driver sees no device")
    except ImportError as e:
        print(f"tma_probe: error: pycuda is not installed ({e}); see docs/gpu.md", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 (pycuda's driver errors: no driver, no device)
        print(f"tma_probe: error: no CUDA device ({' '.join(str(e).split())})", file=sys.stderr)
        return 2
    t = time.perf_counter()
    main_cs = [c for c in cs if c.group == "main"]
    outs = run_children(main_cs, a.seed) if main_cs else []
    outs += run_children([c for c in cs if c.group != "main"], a.seed, alone=True)  # atom, risky: a fault each
    line = summary(outs)
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "tma_probe.json").write_text(json.dumps({
        "summary": line, "seconds": round(time.perf_counter() - t, 2),
        "cases": [{**asdict(o.case), "status": o.status, "detail": o.detail, "matches": o.matches}
                  for o in outs]}, indent=0))
    print(line)
    main_ok = all(o.status in ("ok", "refused") for o in outs if o.case.group == "main")
    sound = all(store_edge_verdict(o) != "UNSOUND" for o in outs if o.case.group == "store_edge")
    return 0 if main_ok and sound else 1


if __name__ == "__main__":
    sys.exit(main())
