"""Shared helpers for the bench/ scripts: machine facts, check-file generation, timing, tables."""
from __future__ import annotations

import datetime
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")


def tile_check(R: int, arch: str = "sm_90") -> str:
    """The check file for a contiguous (R, 4) float32 tile read with R x ld.global.v4.b32."""
    return f"""arch = "{arch}"
[tensors.A]
dtype = "float32"
scope = "global"
shape = [{R}, 4]
align = 16
[tensors.R]
dtype = "float32"
scope = "register"
shape = [{R}, 4]
[[apply]]
opcode = "ld.global.v4.b32"
dst = "R"
src = "A"
"""


def env():
    """Environment for our CLI: the working tree's tilecheck first on the path."""
    e = dict(os.environ)
    e["PYTHONPATH"] = ROOT + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return e


def timed(cmd, **kw):
    """Run cmd; return (wall seconds, CompletedProcess)."""
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return time.perf_counter() - t, p


def ours(*args):
    return [sys.executable, "-m", "tilecheck", *args]


def emit_available() -> bool:
    """Whether `tilecheck emit` exists yet (the emitter is being written concurrently)."""
    _, p = timed(ours("emit", "--help"), cwd=ROOT, env=env())
    return p.returncode == 0


def median(xs):
    return statistics.median(xs) if xs else None


def machine() -> dict:
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""
    try:
        import z3
        z3v = z3.get_version_string()
    except Exception:  # noqa: BLE001
        z3v = "?"
    model = sh("lscpu | grep 'Model name'").split(":", 1)[-1].strip()
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "nproc": sh("nproc"), "cpu": model, "python": platform.python_version(), "z3": z3v,
            "commit": sh(f"git -C {ROOT} rev-parse --short HEAD"),
            "load": "%.2f %.2f %.2f" % os.getloadavg()}


def table(header, rows) -> str:
    """A GitHub markdown table."""
    esc = lambda c: "" if c is None else str(c).replace("|", "\\|")  # noqa: E731
    cells = [[esc(c) for c in header]] + [[esc(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"  # noqa: E731
    return "\n".join([line(cells[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
                     + [line(r) for r in cells[1:]])


def fmt_s(x):
    """A duration with its unit: ms below one second."""
    if x is None:
        return "—"
    return f"{x:.2f} s" if x >= 1 else (f"{x * 1000:.1f} ms" if x >= 0.001 else f"{x * 1000:.2f} ms")


def fmt_ratio(x):
    return "—" if x is None else (f"{x:.0f}x" if x >= 100 else f"{x:.1f}x")


def draw(n: int, seed: int, strategy) -> list:
    """The first ``n`` values Hypothesis draws from ``strategy`` with ``seed`` (``strategies.sample``)."""
    from tilecheck.strategies import sample
    return sample(n, seed, strategy)
