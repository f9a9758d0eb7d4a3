"""Fuzz throughput on the CPU: drawn concrete checks per second, check only and check + emit + ptxas.

    python bench/bench_fuzz.py [--cases 300] [--seed 0]

The checks are drawn once (Hypothesis, fixed seed) before timing; drawing is not timed. *check* is
``tilecheck.prove``; *check + emit + ptxas* adds ``tilecheck.emit.kernel`` for every proved check
and one ptxas run per module, the kernels batched ~50 to a module as the GPU runner does. The
campaign's own rate (Z3 and the brute-force decider on every case) is ``tilecheck fuzz``'s summary.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import draw as common_draw  # noqa: E402

import tilecheck  # noqa: E402
from tilecheck.emit import kernel
from tilecheck.emit.errors import EmitError
from tilecheck.strategies import checks
from tilecheck.tools import ptxas


def draw(n, seed):
    return common_draw(n, seed, checks(max_points=256))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cases = [tilecheck.from_dict(d, f"<case {k}>") for k, d in enumerate(draw(args.cases, args.seed))]

    t0 = time.perf_counter()
    reports = [tilecheck.prove(c) for c in cases]
    t_check = time.perf_counter() - t0
    proved = [r for r in reports if r.verdict == "proved"]

    t0 = time.perf_counter()
    by_arch: dict[str, list[str]] = {}
    emitted = 0
    for k, r in enumerate(proved):
        try:
            ptx = kernel(r.plan, name=f"k{k}")
        except EmitError:
            continue  # the test ABI's limits (e.g. static shared memory)
        emitted += 1
        by_arch.setdefault(r.check.arch, []).append(ptx)
    modules = rejected = 0
    for arch, ptxs in by_arch.items():
        for i in range(0, len(ptxs), 50):
            group = ptxs[i:i + 50]
            head = group[0].split(".entry")[0]
            text = head + "\n".join(".entry" + p.split(".entry", 1)[1] for p in group)
            res = ptxas(_max_version(group, text), arch)
            modules += 1
            rejected += not res.ok
    t_emit = time.perf_counter() - t0
    n = len(cases)
    print(f"{n} drawn concrete checks (seed {args.seed}): {len(proved)} proved, {emitted} emitted, "
          f"{modules} ptxas modules, {rejected} rejected")
    print("| mode | seconds | cases/s |\n|---|---|---|")
    print(f"| check only | {t_check:.2f} | {n / t_check:.0f} |")
    print(f"| check + emit + ptxas | {t_check + t_emit:.2f} | {n / (t_check + t_emit):.0f} |")


def _max_version(group, text):
    """The module takes the highest .version its kernels need."""
    import re
    versions = [tuple(map(int, re.search(r"\.version (\d+)\.(\d+)", p).groups())) for p in group]
    hi = max(versions)
    return re.sub(r"\.version \d+\.\d+", f".version {hi[0]}.{hi[1]}", text, count=1)


if __name__ == "__main__":
    main()
