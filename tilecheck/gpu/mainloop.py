"""Run the proved Hopper GEMM mainloop (``tilecheck/mainloop.py``, ``tilecheck/emit/mainloop.py``) on the GPU
and compare it with numpy.

    python -m tilecheck.gpu.mainloop --m 200 --n 280 --k 296 --bn 128 --swizzle 128B --dtype f16
    python -m tilecheck.gpu.mainloop --m 256 --n 256 --k 512 --swizzle 128B,64B,32B,none --dtype f16,bf16,e4m3
    python -m tilecheck.gpu.mainloop --m 256 --n 256 --k 512 --unchecked-swizzle 64B     # a refuted descriptor, forced
    python -m tilecheck.gpu.mainloop --m 200 --n 280 --k 296 --prove-only --ptx out/      # the proofs only (no GPU)

Each option takes a comma-separated list; every combination is one run and prints one line.  A run proves
the spec (``mainloop.prove``), emits the kernel from the plan, assembles it (``ptxas -arch=sm_90a``),
encodes the two tensor maps with the driver (``tensormap_driver.encode_tiled``) from the proved arguments,
launches through ``tensormap_driver.Module`` (``cuLaunchKernel`` with ``kernelParams``: pycuda's own
launch makes kernels with a by-value tensor map fault) and compares C with numpy's ``A @ B.T`` in float32:

* ``--data int`` (default): small integers (-3..3), every product and sum exact in f32 (and in e4m3):
  C must equal numpy **exactly**;
* ``--data normal``: standard-normal inputs rounded to the input type; the reference is numpy's f32
  product of the rounded inputs, and the stated tolerance is ``|C - ref| <= tol * (|A| @ |B|^T)`` elementwise
  with ``tol = K * 2^-22`` for f16/bf16 (f32 accumulation) and ``K * 2^-13`` for e4m3 (the tensor cores keep
  about 14 bits when they accumulate 8-bit products: DeepSeek-V3's report).

C is allocated with a guard after it, filled with NaN bytes: an element not stored stays NaN (a mismatch),
and a store past C's end is reported.  ``--unchecked-swizzle MODE`` / ``--unchecked-base-offset B`` force
the descriptors' swizzle mode / base offset to a value the proof refutes: the run reports how many
elements differ -- the refutation is confirmed when the product is wrong (exit 0 then, 1 if it is right).
Exit status: 0 every run as expected, 1 a product differs (or a forced one does not), 2 bad input, 3 a spec
that does not prove (its refutation printed).
"""
from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import mainloop as ml
from ..emit import mainloop as emit
from . import tensormap_driver as td
from .runner import GpuUnavailable, gpu, ptxas

GUARD = 4096  # bytes after C that must stay untouched
NAN_BYTE = 0xFF


# inputs: small integers or normals in the input type, as the device's bits and numpy's float32 ---------

def e4m3_values() -> np.ndarray:
    """The 256 float8 e4m3 (OCP FN) values by bit pattern (NaN at 0x7F, 0xFF)."""
    out = np.empty(256, dtype=np.float32)
    for b in range(256):
        sign = -1.0 if b & 0x80 else 1.0
        e, m = (b >> 3) & 0xF, b & 7
        if e == 15 and m == 7:
            out[b] = np.nan
        elif e == 0:
            out[b] = sign * m / 8 * 2.0 ** -6
        else:
            out[b] = sign * (1 + m / 8) * 2.0 ** (e - 7)
    return out


def to_device_bits(x: np.ndarray, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """(the bits the device reads, the values they hold as float32): ``x`` rounded to nearest."""
    x = np.asarray(x, dtype=np.float32)
    if dtype == "f16":
        h = x.astype(np.float16)
        return h.view(np.uint16), h.astype(np.float32)
    if dtype == "bf16":
        u = x.view(np.uint32).astype(np.uint64)
        bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        return bits, (bits.astype(np.uint32) << 16).view(np.float32)
    if dtype == "e4m3":
        table = e4m3_values()
        finite = np.flatnonzero(np.isfinite(table))
        order = finite[np.argsort(table[finite], kind="stable")]
        vals = table[order]
        i = np.clip(np.searchsorted(vals, x), 1, len(vals) - 1)
        pick = np.where(np.abs(vals[i - 1] - x) <= np.abs(vals[i] - x), i - 1, i)
        bits = order[pick].astype(np.uint8)
        return bits, table[bits]
    raise ValueError(f"dtype {dtype!r}")


def inputs(spec: ml.Mainloop, data: str, seed: int):
    rng = np.random.default_rng(seed)
    if data == "int":
        a, b = rng.integers(-3, 4, (spec.m, spec.k)), rng.integers(-3, 4, (spec.n, spec.k))
    else:
        a, b = rng.standard_normal((spec.m, spec.k)), rng.standard_normal((spec.n, spec.k))
    (abits, af), (bbits, bf) = to_device_bits(a, spec.dtype), to_device_bits(b, spec.dtype)
    return abits, af, bbits, bf


def tolerance(spec: ml.Mainloop) -> float:
    return spec.k * (2.0 ** -13 if spec.dtype == "e4m3" else 2.0 ** -22)


# the kernel on the device ---------------------------------------------------------------------------

@dataclass
class Kernel:
    """A plan's kernel loaded and ready: ``launcher(a, b, c)`` for device pointers (ints)."""
    plan: ml.Plan
    module: object

    def launcher(self, a_ptr: int, b_ptr: int, c_ptr: int):
        maps = []
        for op, ptr in ((self.plan.a, a_ptr), (self.plan.b, b_ptr)):
            t = op.tmap
            e = td.encode_tiled(t["dtype"], int(ptr), t["dims"], t["strides"], t["box"], t["element_strides"],
                                "none", t["swizzle"], "none", "none")
            if not e.accepted:
                raise RuntimeError(f"cuTensorMapEncodeTiled refused the proved map of {op.name} ({t}): status "
                                   f"{e.status} -- the descriptor obligation disagrees with the driver")
            maps.append(e.descriptor)
        s = self.plan.spec
        return self.module.launcher(emit.NAME, [maps[0], maps[1], np.uintp(int(c_ptr))], grid=emit.grid(self.plan),
                                    block=(s.threads, 1, 1), shared=s.launch_bytes)


def load(plan: ml.Plan) -> Kernel:
    gpu()  # pycuda's context, current
    cubin = ptxas(emit.ptx(plan), "sm_90a")
    mod = td.Module(cubin)
    if plan.spec.launch_bytes > 48 * 1024:
        mod.set_max_dynamic_shared(emit.NAME, plan.spec.launch_bytes)
    return Kernel(plan, mod)


@dataclass
class Outcome:
    spec: ml.Mainloop
    line: str
    ok: bool
    differ: int = -1


def run(spec: ml.Mainloop, data: str = "int", seed: int = 0, timeout: float = 10.0) -> Outcome:
    """Prove, emit, run and compare one spec (see the module's docstring)."""
    result = ml.prove(spec, timeout)
    if result.plan is None:
        return Outcome(spec, f"{spec}: {result.verdict}, not run: {result.reason}", False)
    drv = gpu().drv
    kernel = load(result.plan)
    abits, af, bbits, bf = inputs(spec, data, seed)
    a_d, b_d = drv.mem_alloc(abits.nbytes), drv.mem_alloc(bbits.nbytes)
    c_bytes = spec.m * spec.n * 4
    c_d = drv.mem_alloc(c_bytes + GUARD)
    try:
        drv.memcpy_htod(a_d, np.ascontiguousarray(abits))
        drv.memcpy_htod(b_d, np.ascontiguousarray(bbits))
        drv.memset_d8(c_d, NAN_BYTE, c_bytes + GUARD)
        kernel.launcher(int(a_d), int(b_d), int(c_d))()
        drv.Context.synchronize()
        raw = np.empty(c_bytes + GUARD, dtype=np.uint8)
        drv.memcpy_dtoh(raw, c_d)
    finally:
        for x in (a_d, b_d, c_d):
            x.free()
    c = raw[:c_bytes].view(np.float32).reshape(spec.m, spec.n)
    guard_ok = bool((raw[c_bytes:] == NAN_BYTE).all())
    ref = af @ bf.T
    if data == "int":
        bad = ~(c == ref)
        how = "exact (small integers)"
    else:
        bound = tolerance(spec) * (np.abs(af) @ np.abs(bf).T) + 1e-30
        bad = ~(np.abs(c - ref) <= bound)
        how = f"|C - ref| <= {tolerance(spec):.3g} * (|A| @ |B|^T)"
    differ = int(bad.sum())
    tag = f"{spec}{' [' + data + ']' if data != 'int' else ''}"
    guard = "" if guard_ok else "; WROTE PAST C's END"
    if spec.unchecked:
        ok = differ > 0 and guard_ok
        verdict = (f"refutation confirmed: {differ}/{c.size} elements differ from numpy" if differ else
                   "refutation NOT confirmed: the product equals numpy")
        return Outcome(spec, f"{tag}: unchecked ({result.plan.refutations[0]}); {verdict}{guard}", ok, differ)
    if differ == 0 and guard_ok:
        return Outcome(spec, f"{tag}: proved; equal to numpy, {how}, {c.size} elements", True, 0)
    first = np.argwhere(bad)[:3].tolist()
    return Outcome(spec, f"{tag}: proved; {differ}/{c.size} elements DIFFER from numpy ({how}); first {first}"
                         f"{guard}", False, differ)


def _ints(text: str, name: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"--{name} {text!r}: comma-separated integers") from None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tilecheck.gpu.mainloop", description=__doc__.split("\n\n")[0])
    ap.add_argument("--m", required=True)
    ap.add_argument("--n", required=True)
    ap.add_argument("--k", required=True)
    ap.add_argument("--bn", default="128")
    ap.add_argument("--stages", default="3")
    ap.add_argument("--swizzle", default="128B")
    ap.add_argument("--dtype", default="f16")
    ap.add_argument("--pad", default="0", help="bytes of shared memory before the ring")
    ap.add_argument("--wgs", default="1", help="consumer warpgroups a CTA (1, 2): tiles of 64*wgs rows")
    ap.add_argument("--overlap", action="store_true", help="keep one K tile's wgmmas in flight")
    ap.add_argument("--producer", action="store_true", help="a producer warp issues the loads")
    ap.add_argument("--raster", type=int, default=0, help="0: a 2-D grid; G: a 1-D grid in groups of G M-tiles")
    ap.add_argument("--data", default="int", help="int (exact) or normal (stated tolerance); a list too")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--unchecked-swizzle", default=None, metavar="MODE")
    ap.add_argument("--unchecked-base-offset", type=int, default=None, metavar="B")
    ap.add_argument("--prove-only", action="store_true", help="print each spec's pieces and verdicts; no GPU")
    ap.add_argument("--ptx", metavar="DIR", help="with --prove-only: write each plan's PTX to DIR/mainloop-N.ptx")
    args = ap.parse_args(argv)
    try:
        lists = [_ints(args.m, "m"), _ints(args.n, "n"), _ints(args.k, "k"), _ints(args.bn, "bn"),
                 _ints(args.stages, "stages"), args.swizzle.split(","), args.dtype.split(","), _ints(args.pad, "pad"),
                 _ints(args.wgs, "wgs")]
        datas = args.data.split(",")
        for d in datas:
            if d not in ("int", "normal"):
                raise ValueError(f"--data {d!r}: int or normal")
        specs = [ml.Mainloop(m, n, k, bn, st, sw, dt, pad, args.unchecked_swizzle, args.unchecked_base_offset, wgs,
                             args.overlap, args.producer, args.raster)
                 for m, n, k, bn, st, sw, dt, pad, wgs in itertools.product(*lists)]
    except ValueError as e:
        print(f"tilecheck.gpu.mainloop: error: {e}", file=sys.stderr)
        return 2
    status = 0
    if args.prove_only:
        for i, spec in enumerate(specs):
            result = ml.prove(spec)
            print(result.to_text(), flush=True)
            if result.plan is None:
                print(f"  no plan: {result.reason}")
                status = 3
            elif args.ptx:
                path = Path(args.ptx) / f"mainloop-{i}.ptx"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(emit.ptx(result.plan))
                print(f"  PTX: {path}")
        return status
    for spec in specs:
        for data in datas:
            try:
                out = run(spec, data, args.seed)
            except GpuUnavailable as e:
                print(f"tilecheck.gpu.mainloop: error: {e}", file=sys.stderr)
                return 2
            print(out.line, flush=True)
            if not out.ok:
                status = max(status, 3 if out.differ < 0 else 1)
    return status


if __name__ == "__main__":
    sys.exit(main())
