"""GPU fuzz throughput: the batched stage of ``tilecheck fuzz --gpu`` against the one-case-at-a-time
baseline, on the same drawn cases, in the same run (needs pycuda and a CUDA device).

    python bench/bench_gpu_fuzz.py [--cases 3000] [--jobs 15] [--baseline 300] [--seed 0]

Cases are drawn and judged by the campaign first (not timed), keeping the proved concrete ones.

* **stage** — ``tilecheck.fuzz.gpu_stage.run``: ``--jobs`` workers prove for the device, emit and
  compute references; batches of kernels loaded by parallel ptxas, one arena upload, one
  synchronisation, one download per batch.  Timed from start to the last comparison.
* **baseline** — the previous design, on the first ``--baseline`` of the same cases: prove, emit and
  reference one after another in this process, the same parallel load, then ``runner.launch`` per
  case (its own allocation, upload, synchronisation and download).  It runs second, so its cubins
  come from the cache the stage filled: the ratio is, if anything, in the baseline's favour.

Prints one JSON object: cases run and cases/s of each, and their ratio.
"""
import argparse
import json
import re
import time
from types import SimpleNamespace


def draw(cases, seed, jobs):
    import multiprocessing as mp
    from tilecheck.fuzz.campaign import Tally, _worker
    chunks = [dict(seed=seed, index=k, cases=min(50, cases - 50 * k), symbolic=False, keep=True, shrink=False)
              for k in range(-(-cases // 50))]
    tally = Tally()
    with mp.get_context("spawn").Pool(jobs) as pool:
        for t in pool.imap_unordered(_worker, chunks):
            tally.add(t)
    return tally


def stage(proved, seed, jobs):
    from tilecheck.fuzz import gpu_stage
    tally = SimpleNamespace(proved=proved, misaligned=[], findings=[])
    t = time.perf_counter()
    lines = gpu_stage.run(tally, seed=seed, timeout=10.0, jobs=jobs, out="bench-gpu-fuzz-out")
    seconds = time.perf_counter() - t
    ran = int(re.search(r"(\d+) proved cases run", lines[0]).group(1))
    differ = int(re.search(r"(\d+) differ from numpy", lines[0]).group(1))
    return {"ran": ran, "differ": differ, "seconds": round(seconds, 2), "cases_per_s": round(ran / seconds, 1),
            "findings": len(tally.findings), "summary": lines}


def baseline(proved, seed):
    from tilecheck.fuzz.gpu_stage import _prepare
    from tilecheck.gpu.runner import gpu, launch, load_modules
    g = gpu()
    t = time.perf_counter()
    ready = [r for r in (_prepare((k, d, g.arch, seed + k, 10.0)) for k, d in enumerate(proved)) if r[0] == "ok"]
    loaded = load_modules([ptx for _, _, ptx, _ in ready])
    results = [launch(m.module, name, case, ptx) for m, (_, name, ptx, case) in zip(loaded, ready)]
    seconds = time.perf_counter() - t
    ran = sum(1 for r in results if not r.refused)
    return {"ran": ran, "differ": sum(1 for r in results if not r.refused and not r.ok),
            "seconds": round(seconds, 2), "cases_per_s": round(ran / seconds, 1)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=3000, help="drawn concrete cases (about 40%% prove)")
    ap.add_argument("--jobs", type=int, default=15)
    ap.add_argument("--baseline", type=int, default=300, help="proved cases the baseline runs")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from tilecheck.gpu.runner import gpu
    g = gpu()
    tally = draw(args.cases, args.seed, args.jobs)
    new = stage(tally.proved, args.seed, args.jobs)
    old = baseline(tally.proved[:args.baseline], args.seed)
    print(json.dumps({"date": time.strftime("%Y-%m-%d"), "device": g.name, "drawn": tally.cases,
                      "proved": len(tally.proved), "jobs": args.jobs, "stage": new, "baseline": old,
                      "ratio": round(new["cases_per_s"] / old["cases_per_s"], 1)}, indent=1))


if __name__ == "__main__":
    main()
