"""CPU milliseconds per fuzz case of one job (``tilecheck.fuzz.campaign.run_chunk``, as a worker of
``tilecheck fuzz`` runs it), for this tree and optionally another (``--before DIR``: an export of an
older commit), measured alternately in fresh processes so that both see the same machine load.

    python bench/bench_fuzz_cpu.py [--cases 600] [--symbolic-cases 150] [--rounds 3] [--before DIR]

CPU time (``time.process_time``, the worker's own) rather than wall time: the development machine is
shared.  Each round runs every tree once (the order alternates); the table gives the minimum and
the median over rounds.  The chunks are the campaign's (50 concrete or 25 symbolic cases, seed 1,
indices 0, 1, ...), so each tree judges the cases its own campaign would draw.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, machine  # noqa: E402

CHILD = r"""
import json, sys, time
from tilecheck.fuzz.campaign import run_chunk
cases, symbolic, size = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
run_chunk(seed=99, index=0, cases=3, symbolic=symbolic, timeout=2.0 if symbolic else 10.0)  # imports, caches
t0, n, k, findings = time.process_time(), 0, 0, 0
while n < cases:
    t = run_chunk(seed=1, index=k, cases=min(size, cases - n), symbolic=symbolic, timeout=2.0 if symbolic else 10.0)
    n, k, findings = n + t.cases, k + 1, findings + len(t.findings)
print(json.dumps({"cases": n, "cpu": time.process_time() - t0, "findings": findings}))
"""


def run(tree, cases, symbolic):
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-c", CHILD, str(cases), "1" if symbolic else "0", "25" if symbolic else "50"],
                         env=env, capture_output=True, text=True, cwd=tree, check=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return 1000 * r["cpu"] / r["cases"], r["findings"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=600)
    ap.add_argument("--symbolic-cases", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--before", help="another tree (e.g. `git archive COMMIT | tar -x -C DIR`)")
    args = ap.parse_args()
    trees = ([("before", os.path.abspath(args.before))] if args.before else []) + [("after", ROOT)]
    ms = {(name, kind): [] for name, _ in trees for kind in ("concrete", "symbolic")}
    for r in range(args.rounds):
        for name, tree in (trees if r % 2 == 0 else trees[::-1]):
            for kind, n in (("concrete", args.cases), ("symbolic", args.symbolic_cases)):
                if n:
                    v, findings = run(tree, n, kind == "symbolic")
                    ms[(name, kind)].append(v)
                    print(f"round {r}: {name} {kind} {v:.2f} ms/case (findings {findings})", flush=True)
    print(json.dumps(machine()))
    for (name, kind), vs in ms.items():
        if vs:
            print(f"{name:6} {kind:8} min {min(vs):6.2f}  median {statistics.median(vs):6.2f} ms/case  ({len(vs)} rounds)")


if __name__ == "__main__":
    main()
