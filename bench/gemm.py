"""H200 GEMM benchmark: the proved mainloop (``tilecheck/mainloop.py``, emitted by ``tilecheck/emit/mainloop.py``)
next to ``torch.matmul`` (cuBLAS) on the same shapes, in one run (issue 31, item 5).

    python bench/gemm.py [--shapes 4096x4096x4096,...] [--reps 20] [--json FILE]   # JSON default: $OUT/gemm.json

One process, torch's CUDA context: torch allocates and times (CUDA events on its current stream); the
mainloop's module (assembled by ptxas for sm_90a) is loaded into the same context and launched by
``tensormap_driver.Module`` (cuLaunchKernel with kernelParams: the tensor maps by value) on torch's stream.
For every shape, input type and kernel configuration (tile 64 x bn, stages, swizzle): the spec is proved
(no plan, no run), the product of small integers (-3..3) is checked against torch's float32 ``A @ B.T``
exactly (e4m3 past 2^14: within the runner's stated tolerance, ``gpu/mainloop.tolerance``), then both are timed (median of ``--reps`` launches after 3 warm-up launches, interleaved for
``--rounds`` rounds).  cuBLAS: ``torch.matmul(A, B.T)`` for f16/bf16 (fp32 accumulation, 16-bit output,
as torch runs it) and ``torch._scaled_mm`` with unit scales and float32 output for e4m3 (where torch has it).
TFLOP/s counts 2*M*N*K.
"""
import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tilecheck import mainloop as ml  # noqa: E402
from tilecheck.emit import mainloop as emit  # noqa: E402
from tilecheck.gpu import mainloop as mlrun, tensormap_driver as td  # noqa: E402
from tilecheck.gpu.runner import ptxas  # noqa: E402

# (bn, stages, swizzle, warpgroups, overlap, producer, raster): the simple kernel, then two warpgroups (128-row
# tiles) with one K tile's wgmmas in flight, then with a producer warp, then in groups of 8 M tiles
CONFIGS = [(128, 4, "128B", 1, False, False, 0), (256, 4, "128B", 1, True, False, 0),
           (256, 4, "128B", 2, True, False, 0), (128, 4, "128B", 2, True, True, 0), (256, 4, "128B", 2, True, True, 0),
           (256, 4, "128B", 2, True, True, 8)]
SHAPES = "4096x4096x4096,8192x8192x8192,1000x1000x1000"  # one command stays well inside the device's 10 minutes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default=SHAPES, help="MxNxK,... (default %(default)s)")
    ap.add_argument("--dtypes", default="f16,bf16,e4m3")
    ap.add_argument("--configs", default=",".join(f"{b}/{s}/{w}/{g}/{int(o)}/{int(p)}/{r}"
                                                  for b, s, w, g, o, p, r in CONFIGS),
                    help="bn/stages/swizzle/warpgroups/overlap/producer/raster,... (default %(default)s)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", default=str(Path(os.environ.get("OUT", ".")) / "gemm.json"))
    args = ap.parse_args()

    import torch
    dev = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False  # the float32 reference: exact on small integers anyway
    torch.zeros(1, device=dev)  # torch's (primary) context, current: the module loads into it
    name = torch.cuda.get_device_name(dev)
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    configs = [(int(b), int(s), w, int(g), o == "1", p == "1", int(r))
               for b, s, w, g, o, p, r in (c.split("/") for c in args.configs.split(","))]
    tdt = {"f16": torch.float16, "bf16": torch.bfloat16, "e4m3": getattr(torch, "float8_e4m3fn", None)}
    stream = torch.cuda.current_stream()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def time_it(fn):
        for _ in range(3):
            fn()
        ts = []
        for _ in range(args.reps):
            start.record(stream)
            fn()
            end.record(stream)
            end.synchronize()
            ts.append(start.elapsed_time(end) / 1e3)
        return ts

    rows = []
    print(f"device {name}; torch {torch.__version__}; {len(shapes)} shapes x {args.dtypes} x {len(configs)} configs",
          flush=True)
    try:
        for (m, n, k) in shapes:
            for dtype in args.dtypes.split(","):
                if tdt[dtype] is None:
                    print(f"  {dtype}: this torch has no float8_e4m3fn", flush=True)
                    continue
                g = torch.Generator(device="cpu").manual_seed(m * 7 + n * 3 + k)
                a32 = torch.randint(-3, 4, (m, k), generator=g).float()
                b32 = torch.randint(-3, 4, (n, k), generator=g).float()
                a, b = a32.to(dev).to(tdt[dtype]), b32.to(dev).to(tdt[dtype])
                ref = (a32.to(dev) @ b32.to(dev).T)
                absprod = a32.abs().to(dev) @ b32.abs().to(dev).T
                if dtype == "e4m3":
                    one = torch.ones((), device=dev)
                    if not hasattr(torch, "_scaled_mm"):
                        blas = None
                    else:
                        def blas(a=a, b=b, one=one):
                            return torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=torch.float32)
                else:
                    def blas(a=a, b=b):
                        return torch.matmul(a, b.T)
                blas_ok = None
                if blas is not None:
                    try:
                        blas_ok = bool(torch.equal(blas().float(), ref))
                    except Exception as e:  # noqa: BLE001  (a torch without this kernel: reported, not timed)
                        print(f"  cuBLAS {dtype} {m}x{n}x{k}: {e}".splitlines()[0], flush=True)
                        blas = None
                c = torch.empty((m, n), dtype=torch.float32, device=dev)
                variants = {}
                for bn, stages, sw, wgs, overlap, producer, raster in configs:
                    spec = ml.Mainloop(m, n, k, bn, stages, sw, dtype, wgs=wgs, overlap=overlap, producer=producer,
                                       raster=raster)
                    result = ml.prove(spec)
                    if result.plan is None:
                        print(f"  {spec}: {result.verdict}, not run: {result.reason}", flush=True)
                        continue
                    mod = td.Module(ptxas(emit.ptx(result.plan), "sm_90a"))
                    if spec.launch_bytes > 48 * 1024:
                        mod.set_max_dynamic_shared(emit.NAME, spec.launch_bytes)
                    maps = []
                    for op, t in ((result.plan.a, a), (result.plan.b, b)):
                        tm = op.tmap
                        e = td.encode_tiled(tm["dtype"], t.data_ptr(), tm["dims"], tm["strides"], tm["box"],
                                            tm["element_strides"], "none", tm["swizzle"], "none", "none")
                        assert e.accepted, (spec, tm, e.status)
                        maps.append(e.descriptor)
                    launch = mod.launcher(emit.NAME, [maps[0], maps[1], np.uintp(c.data_ptr())], grid=emit.grid(result.plan),
                                          block=(spec.threads, 1, 1), shared=spec.launch_bytes, stream=stream.cuda_stream)
                    c.fill_(float("nan"))
                    launch()
                    torch.cuda.synchronize()
                    equal = bool(torch.equal(c, ref))
                    if equal:
                        how = "equal to torch's f32 product"
                    else:  # e4m3 sums past 2^14 may round in the tensor cores' accumulator: the runner's stated bound
                        tol = mlrun.tolerance(spec)
                        err = (c - ref).abs()
                        bound = tol * absprod
                        equal = bool(torch.all(err <= bound))  # NaN (an element not stored) fails
                        how = (f"within |C - ref| <= {tol:.3g} * (|A| @ |B|^T) (max error {err.max().item():.3g})" if equal
                               else f"DIFFERS from torch's f32 product ({int((~(err <= bound)).sum())} elements)")
                    print(f"  {spec}: proved; {how}", flush=True)
                    if equal:
                        variants[f"mainloop {spec.rows}x{bn} stages={stages} {sw}{' overlap' if overlap else ''}"
                                 f"{' producer' if producer else ''}{f' raster={raster}' if raster else ''}"] = \
                            (launch, spec, mod)
                if blas is not None:
                    variants["cuBLAS"] = (blas, None, None)
                times = {v: [] for v in variants}
                for _ in range(args.rounds):
                    for v, (fn, _, _) in variants.items():
                        times[v] += time_it(fn)
                flops = 2 * m * n * k
                for v, ts in times.items():
                    med = statistics.median(ts)
                    rows.append({"shape": f"{m}x{n}x{k}", "dtype": dtype, "variant": v, "ms": med * 1e3,
                                 "TFLOP/s": flops / med / 1e12,
                                 "equal_to_f32_product": True if v != "cuBLAS" else blas_ok})
    except (td.CudaError, RuntimeError) as e:  # a kernel that traps loses the context: report what was measured
        print(f"  stopped: {e} (the CUDA context is lost after a failed launch; the rows so far follow)", flush=True)

    print(f"\n{name}, median of {args.rounds}x{args.reps} launches, interleaved; C = A . B^T, A row-major M x K, "
          "B N x K (K-major); the mainloop writes f32\n")
    print("| shape | type | variant | ms | TFLOP/s | / cuBLAS |")
    print("|---|---|---|---|---|---|")
    best = {}
    for r in rows:
        key = (r["shape"], r["dtype"])
        blas = next((x for x in rows if (x["shape"], x["dtype"]) == key and x["variant"] == "cuBLAS"), None)
        ratio = f"{r['TFLOP/s'] / blas['TFLOP/s']:.3f}" if blas else "n/a"
        print(f"| {r['shape']} | {r['dtype']} | {r['variant']} | {r['ms']:.3f} | {r['TFLOP/s']:.1f} | {ratio} |")
        if r["variant"] != "cuBLAS" and r["TFLOP/s"] > best.get(key, (0,))[0]:
            best[key] = (r["TFLOP/s"], r["variant"], blas["TFLOP/s"] if blas else None)
    print()
    for (shape, dtype), (tf, v, bl) in best.items():
        print(f"gemm {shape} {dtype}: best proved mainloop {tf:.1f} TFLOP/s ({v})"
              + (f", cuBLAS {bl:.1f} TFLOP/s: {tf / bl:.3f} x" if bl else ", cuBLAS n/a"))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"device": name, "torch": torch.__version__, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
