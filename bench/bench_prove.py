#!/usr/bin/env python3
"""Proof time against repeat count: contiguous float32 tiles of 10^2 .. 10^6 repeats and the documentation example.

  python bench/bench_prove.py                      # table, about 30 s
  python bench/bench_prove.py --sizes 1e2,1e6 --json bench/results/prove.json

For each tile (an (R, 4) float32 global tensor read into (R, 4) registers with R x ld.global.v4.b32):
  * in process: tilecheck.loads(text) (parse) and tilecheck.prove(check) -- one warm-up call, then the
    median of --repeats calls (the first, cold call is shown too);
  * CLI: wall time of `python -m tilecheck prove FILE` (median of --cli-repeats runs), the number a user
    sees, interpreter start and imports included;
  * CLI check + emit: `python -m tilecheck emit FILE --kernel -o OUT.ptx`, once the emitter exists.
Targets (issues 2 and 6): checking flat in the repeat count, 10^6 repeats in <= 0.5 s, 10x the repeats
costing at most 2x the time; check + emit of 10^5 repeats under 1 s.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, emit_available, env, fmt_s, machine, median, ours, table, tile_check, timed  # noqa: E402

sys.path.insert(0, ROOT)
import tilecheck  # noqa: E402


def in_process(text, reps):
    t = time.perf_counter()
    check = tilecheck.loads(text)
    parse = time.perf_counter() - t
    t = time.perf_counter()
    report = tilecheck.prove(check)
    cold = time.perf_counter() - t
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        report = tilecheck.prove(check)
        times.append(time.perf_counter() - t)
    slowest = max(report.applies[0].obligations, key=lambda o: o.seconds)
    return {"parse_s": parse, "prove_cold_s": cold, "prove_s": median(times), "verdict": report.verdict,
            "instructions": sum(a.instructions for a in report.applies),
            "slowest_obligation": f"{slowest.name} {slowest.seconds * 1000:.1f} ms"}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e2,1e3,1e4,1e5,1e6")
    ap.add_argument("--repeats", type=int, default=5, help="in-process prove calls per size (median)")
    ap.add_argument("--cli-repeats", type=int, default=3, help="CLI runs per size (median)")
    ap.add_argument("--json", help="also write the raw results here")
    a = ap.parse_args(argv)
    info = machine()
    print(f"# tilecheck proof time vs repeat count — {info['date']}, {info['nproc']} x {info['cpu']}, "
          f"Python {info['python']}, z3 {info['z3']}, commit {info['commit']}, load average {info['load']}\n")
    has_emit = emit_available()
    if not has_emit:
        print("`tilecheck emit` does not exist yet: the check + emit column is skipped.\n")
    items = [(f"{int(float(s)):.0e}".replace("e+0", "e"), int(float(s)), tile_check(int(float(s))))
             for s in a.sizes.split(",")]
    items.append(("seed", None, open(os.path.join(ROOT, "examples/seed.toml")).read()))
    rows, raw = [], []
    with tempfile.TemporaryDirectory(prefix="bench_prove_") as tmp:
        for label, R, text in items:
            print(f"  {label} ...", file=sys.stderr, flush=True)
            r = {"case": label} | in_process(text, a.repeats)
            path = os.path.join(tmp, f"{label}.toml")
            with open(path, "w") as f:
                f.write(text)
            walls = []
            for _ in range(a.cli_repeats):
                w, p = timed(ours("prove", path), cwd=ROOT, env=env())
                walls.append(w)
            r["cli_prove_s"], r["cli_exit"] = median(walls), p.returncode
            r["cli_emit_s"] = None
            if has_emit:
                walls = []
                for _ in range(a.cli_repeats):
                    w, p = timed(ours("emit", path, "--kernel", "-o", os.path.join(tmp, label + ".ptx")),
                                 cwd=ROOT, env=env())
                    walls.append(w)
                r["cli_emit_s"] = median(walls) if p.returncode == 0 else None
                r["cli_emit_exit"] = p.returncode
            raw.append(r)
            rows.append([label, r["instructions"], r["verdict"], fmt_s(r["parse_s"]), fmt_s(r["prove_cold_s"]),
                         fmt_s(r["prove_s"]), r["slowest_obligation"], fmt_s(r["cli_prove_s"]),
                         fmt_s(r["cli_emit_s"]) if has_emit else "not built"])
    print(table(["tile", "repeats", "verdict", "parse", "prove (cold)", "prove (warm median)",
                 "slowest obligation", "CLI prove", "CLI emit --kernel"], rows))
    by = {r["case"]: r for r in raw}
    notes = []
    if "1e6" in by:
        notes.append(f"10^6 repeats: in-process prove {by['1e6']['prove_s']:.3f} s, CLI {by['1e6']['cli_prove_s']:.3f} s "
                     f"(target <= 0.5 s: {'met' if by['1e6']['prove_s'] <= 0.5 else 'NOT met'} in process, "
                     f"{'met' if by['1e6']['cli_prove_s'] <= 0.5 else 'NOT met'} in the CLI)")
    tiles = [r for r in raw if r["case"] != "seed"]
    for lo, hi in zip(tiles, tiles[1:]):
        notes.append(f"{hi['case']} / {lo['case']}: prove x{hi['prove_s'] / lo['prove_s']:.2f}, "
                     f"CLI x{hi['cli_prove_s'] / lo['cli_prove_s']:.2f} (target <= 2x per 10x)")
    if has_emit and "1e5" in by and by["1e5"]["cli_emit_s"]:
        notes.append(f"check + emit of 10^5 repeats (CLI): {by['1e5']['cli_emit_s']:.3f} s (target < 1 s)")
    print("\n" + "\n".join(f"- {n}" for n in notes))
    print(f"\nload average at the end: {'%.2f %.2f %.2f' % os.getloadavg()}")
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump({"machine": info, "emit_available": has_emit, "rows": raw}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
