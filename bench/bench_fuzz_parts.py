"""Where a fuzz case's time goes: drawing (Hypothesis), Z3 (``tilecheck.prove``) and the
brute-force enumerator, in CPU seconds per case, on the same drawn cases.

    python bench/bench_fuzz_parts.py [--cases 300] [--seed 1] [--symbolic]

CPU time (``time.process_time``) rather than wall time: the development machine is shared, and
CPU time moves much less with the load than wall time does.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import draw as common_draw  # noqa: E402

from tilecheck import decide as enumerator  # noqa: E402
from tilecheck.check import from_dict
from tilecheck.errors import InputError
from tilecheck.report import prove
from tilecheck.strategies import checks, symbolic_checks


def draw(n, seed, symbolic):
    return common_draw(n, seed, symbolic_checks() if symbolic else checks())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--symbolic", action="store_true")
    args = ap.parse_args()
    t = time.process_time()
    data = draw(args.cases, args.seed, args.symbolic)
    t_draw = time.process_time() - t
    cases = [from_dict(d, f"<case {k}>") for k, d in enumerate(data)]
    prove(cases[0])  # warm up imports
    t_z3 = t_enum = 0.0
    slowest = (0.0, None)
    for c in cases:
        t = time.process_time()
        try:
            prove(c, minimize=False)
        except InputError:
            pass
        dt = time.process_time() - t
        t_z3 += dt
        slowest = max(slowest, (dt, c.path))
        t = time.process_time()
        if not c.symbols or enumerator.assignments(c):
            enumerator.decide(c)
        t_enum += time.process_time() - t
    n = len(cases)
    print(f"{n} {'symbolic' if args.symbolic else 'concrete'} cases (seed {args.seed}), CPU ms per case: "
          f"draw {1000 * t_draw / n:.1f} (all Hypothesis draws), prove {1000 * t_z3 / n:.1f}, "
          f"enumerator {1000 * t_enum / n:.1f}; slowest prove {1000 * slowest[0]:.0f} ms ({slowest[1]})")


if __name__ == "__main__":
    main()
