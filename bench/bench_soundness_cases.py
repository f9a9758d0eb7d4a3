"""The soundness issue's measured cases: each decided (never unknown), with its wall time.

    python bench/bench_soundness_cases.py            # prints one line per case

Cases: tests/soundness_cases/*.toml (expected verdict in the name: *refuted* or proved) and the
contradictory-facts spellings (expected: exit 2 naming the facts).  Each case runs in a fresh
process through the CLI, as a user would run it, so the time includes Python's start-up.
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = """arch = "sm_90"
{top}
[symbols.n]
{sym}
[tensors.A]
dtype = "float32"
scope = "global"
shape = ["n", 4]
align = 32
[tensors.R]
dtype = "float32"
scope = "register"
shape = [8]
[[apply]]
opcode = "ld.global.v8.b32"
dst = "R"
src = "A[0:2, 0:4]: a b -> (a b)"
"""
CONTRADICTIONS = {
    "n > 100 with max = 10": ('assume = ["n > 100"]', "max = 10"),
    "n % 4 == 1 with multiple_of = 4": ('assume = ["n % 4 == 1"]', "multiple_of = 4"),
    "n >= 8 and n < 4": ('assume = ["n >= 8", "n < 4"]', ""),
}


def run(args):
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "tilecheck", *args], capture_output=True, text=True, cwd=ROOT)
    return r, time.perf_counter() - t


def main():
    rows = []
    for path in sorted((ROOT / "tests" / "soundness_cases").glob("*.toml")):
        r, s = run(["prove", "--timeout", "10", str(path)])
        verdict = r.stdout.split(":", 2)[1].split("(")[0].strip() if r.returncode in (0, 1, 3) else f"exit {r.returncode}"
        want = "refuted" if "refuted" in path.stem else "proved"
        rows.append((path.stem, want, verdict, s))
    with tempfile.TemporaryDirectory() as d:
        for name, (top, sym) in CONTRADICTIONS.items():
            p = Path(d) / "case.toml"
            p.write_text(BASE.format(top=top, sym=sym))
            r, s = run(["prove", str(p)])
            rows.append((name, "exit 2", f"exit {r.returncode}: {r.stderr.strip().split('vacuous: ')[-1][:60]}", s))
    for name, want, got, s in rows:
        print(f"{name:<34} expected {want:<8} got {got:<70} {s:6.2f} s")


if __name__ == "__main__":
    main()
