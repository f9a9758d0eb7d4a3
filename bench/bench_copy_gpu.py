"""H200 copy benchmark: tilecheck's copy kernel vs cuMemcpyDtoD vs the peer's (TIRx) kernels.

    python bench/bench_copy_gpu.py [--vectors 1 2 4 8 16] [--reps 20] [--json OUT]

One process, one CUDA context. A 4 GiB float32 tensor of random bits (no zeros) is copied by
every variant; each variant's copy is first checked bit for bit against the source, then timed
with CUDA events (median over rounds that interleave the variants). TB/s counts the bytes read
plus the bytes written (2 x 4 GiB per copy), as for cuMemcpyDtoD.
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from copy_check import THREADS, copy_check  # noqa: E402

N = 2**30  # float32 elements: 4 GiB


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vectors", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()

    import pycuda.autoinit  # noqa: F401
    import pycuda.driver as cuda

    import tilecheck
    from tilecheck.emit import kernel

    dev = pycuda.autoinit.device
    nbytes = N * 4
    rng = np.random.default_rng(20261130)
    t0 = time.perf_counter()
    host = rng.integers(1, 2**32, size=N, dtype=np.uint32)  # never zero
    src = cuda.mem_alloc(nbytes)
    dst = cuda.mem_alloc(nbytes)
    dummy = cuda.mem_alloc(256)
    cuda.memcpy_htod(src, host)
    print(f"device {dev.name()}, 4 GiB of random data ready in {time.perf_counter() - t0:.1f} s", flush=True)

    variants = {}  # name -> launch()
    variants["cuMemcpyDtoD"] = lambda: cuda.memcpy_dtod(dst, src, nbytes)
    for v in args.vectors:
        report = tilecheck.prove(tilecheck.loads(copy_check(v, N), f"copy_v{v}.toml"))
        assert report.verdict == "proved", report.to_text()
        mod = cuda.module_from_buffer(kernel(report.plan, name=f"tc_copy_v{v}").encode())
        fn = mod.get_function(f"tc_copy_v{v}")
        grid = N // (THREADS * 4 * v)
        variants[f"tilecheck v{v}"] = (lambda fn=fn, grid=grid:
                                       fn(src, dst, dummy, block=(THREADS, 1, 1), grid=(grid, 1, 1)))
        peer = HERE / "peer_ptx" / f"copy_v{v}.ptx"
        if peer.exists():
            pmod = cuda.module_from_buffer(peer.read_bytes())
            pfn = pmod.get_function(f"copy_v{v}_kernel")
            variants[f"TIRx v{v}"] = (lambda pfn=pfn, grid=grid:
                                      pfn(src, dst, np.int32(grid), block=(THREADS, 1, 1), grid=(grid, 1, 1)))

    check = np.empty(N, dtype=np.uint32)
    for name, launch in variants.items():  # correctness first: bit for bit, every variant
        cuda.memset_d32(dst, 0, N)
        launch()
        cuda.Context.synchronize()
        cuda.memcpy_dtoh(check, dst)
        ok = np.array_equal(check, host)
        print(f"verify {name}: {'bit-exact' if ok else 'MISMATCH'}", flush=True)
        if not ok:
            raise SystemExit(f"{name} did not copy the 4 GiB exactly")

    times = {name: [] for name in variants}
    start, end = cuda.Event(), cuda.Event()
    for _ in range(args.rounds):
        for name, launch in variants.items():
            launch(), launch()  # warm
            for _ in range(args.reps):
                start.record()
                launch()
                end.record()
                end.synchronize()
                times[name].append(end.time_since(start) / 1e3)
    rows = []
    memcpy = statistics.median(times["cuMemcpyDtoD"])
    best_peer = min((statistics.median(t) for n, t in times.items() if n.startswith("TIRx")), default=None)
    for name, ts in times.items():
        t = statistics.median(ts)
        rows.append({"variant": name, "ms": t * 1e3, "TB/s": 2 * nbytes / t / 1e12, "vs memcpy": memcpy / t,
                     "vs best TIRx": (best_peer / t) if best_peer else None})
    print(f"\n{dev.name()}, 4 GiB float32 copy, median of {args.rounds}x{args.reps} launches\n")
    print("| variant | ms | TB/s | vs cuMemcpyDtoD | vs best TIRx |")
    print("|---|---|---|---|---|")
    for r in rows:
        peer = f"{r['vs best TIRx']:.3f}" if r["vs best TIRx"] else "-"
        print(f"| {r['variant']} | {r['ms']:.3f} | {r['TB/s']:.3f} | {r['vs memcpy']:.3f} | {peer} |")
    if args.json:
        Path(args.json).write_text(json.dumps({"device": dev.name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
