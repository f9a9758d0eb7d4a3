#!/usr/bin/env python3
"""Proof time and peak memory against repeat count, 10^3 .. 10^8: is every obligation flat (issue 32)?

  python bench/bench_prove_flat.py                         # this checkout, sizes 1e3 .. 1e8
  python bench/bench_prove_flat.py --root /work/main       # another tree's tilecheck (before/after)
  python bench/bench_prove_flat.py --sizes 1e3,1e6 --timeout 60 --json bench/results/prove_flat.json

Each size is the benchmark tile (``common.tile_check``: a one-thread (R, 4) float32 global tensor, 16-byte
aligned, read into (R, 4) registers with R x ld.global.v4.b32), proved once in a fresh child process
(``tilecheck.loads`` then ``tilecheck.prove``, imports not timed) under ``--timeout`` seconds: the prove
time, its slowest obligation, and the child's peak resident memory (``ru_maxrss``, imports included).
A size past the timeout is shown as such (the child is killed).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, fmt_s, machine, table, tile_check  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import tilecheck
text = sys.stdin.read()
check = tilecheck.loads(text)
t = time.perf_counter()
report = tilecheck.prove(check)
s = time.perf_counter() - t
obs = report.applies[0].obligations
slowest = max(obs, key=lambda o: o.seconds)
print(json.dumps({"prove_s": s, "verdict": report.verdict, "slowest": f"{slowest.name} {slowest.seconds:.3f} s",
                  "sectors": next((o.status for o in obs if o.name == "sectors"), None),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def one(root: str, rows: int, timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=root)
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, root], input=tile_check(rows), capture_output=True,
                           text=True, timeout=timeout, env=env, cwd=root)
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=ROOT, help="the tree whose tilecheck is imported (default: this checkout)")
    ap.add_argument("--sizes", default="1e3,1e4,1e5,1e6,1e7,1e8")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per size, at most")
    ap.add_argument("--json", help="also write the raw results here")
    a = ap.parse_args(argv)
    info = machine()
    commit = subprocess.run(["git", "-C", a.root, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"# tilecheck prove time and peak memory vs repeat count — {info['date']}, {info['nproc']} x "
          f"{info['cpu']}, Python {info['python']}, z3 {info['z3']}, {a.root} at {commit}, load average "
          f"{info['load']}\n")
    rows, raw = [], []
    for s in a.sizes.split(","):
        n = int(float(s))
        print(f"  {s} ...", file=sys.stderr, flush=True)
        r = {"repeats": n} | one(a.root, n, a.timeout)
        raw.append(r)
        if r.get("timeout"):
            rows.append([s, n, f"> {a.timeout:g} s (killed)", "", "", ""])
        elif "error" in r:
            rows.append([s, n, "error", r["error"], "", ""])
        else:
            rows.append([s, n, fmt_s(r["prove_s"]), r["slowest"], f"{r['peak_mb']:.0f} MB",
                         f"{r['verdict']} (sectors {r['sectors']})"])
    print(table(["tile", "repeats", "prove", "slowest obligation", "peak RSS", "verdict"], rows))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": info, "root": a.root, "commit": commit, "results": raw}, f, indent=1)


if __name__ == "__main__":
    main()
