"""Time the two ways of loading emitted PTX: the driver's JIT (``module_from_buffer`` on PTX)
and ptxas to a cubin first (``module_from_buffer`` on the cubin).

    python -m tilecheck.gpu.loadbench examples/seed.toml ...      # one module per file, and all linked
    python -m tilecheck.gpu.loadbench --tests tests/test_gpu.py    # the GPU tests' batch, linked

Each set is loaded ``--repeat`` times by each path: ``ptx`` (one linked module, the driver's
JIT, whose disk cache ~/.nv/ComputeCache serves repeated loads: run once with
``CUDA_CACHE_DISABLE=1`` for cold numbers); ``cubin`` through one ptxas, through parallel ptxas
processes, and through parallel ptxas with tilecheck's cubin cache (cold, then warm).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from .runner import Job, gpu, load_modules, prepare
import tilecheck


def _modules_from_tests(path: str) -> list[str]:
    spec = importlib.util.spec_from_file_location("gpu_cases", path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(mod)
    out = []
    for i, (c, s, p) in enumerate(mod.CASES.values()):
        out.append(prepare(Job(c, s, 1, name=f"tc_{i}", pred=p), i)[1])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tilecheck.gpu.loadbench")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--tests", help="a test module with CASES (name -> (check, symbols, pred))")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    g = gpu()
    cache = "off" if os.environ.get("CUDA_CACHE_DISABLE") == "1" else "on"
    print(f"device {g.name} ({g.arch}); driver JIT cache {cache}")
    sets = []
    mods = [prepare(Job(tilecheck.load(f), None, 1, name=f"k{i}"), i)[1] for i, f in enumerate(a.files)]
    for f, m in zip(a.files, mods):
        sets.append((f"{f} (1 kernel)", [m]))
    if a.tests:
        t = time.perf_counter()
        tm = _modules_from_tests(a.tests)
        print(f"prove+emit of {len(tm)} test kernels: {time.perf_counter() - t:.2f} s")
        sets.append((f"test batch ({len(tm)} kernels)", tm))
    for label, mods in sets:
        row = []
        for k in range(a.repeat):  # the driver's JIT cache (if on) holds the module from the 2nd load on
            row.append(("ptx", k, load_modules(mods, "ptx")[0].seconds))
        os.environ["TILECHECK_CACHE"] = "off"
        row.append(("cubin serial, no cache", 0, load_modules(mods, "cubin", chunks=1)[0].seconds))
        row.append(("cubin parallel, no cache", 0, load_modules(mods, "cubin")[0].seconds))
        with tempfile.TemporaryDirectory() as d:
            os.environ["TILECHECK_CACHE"] = d
            for k in range(a.repeat):
                row.append(("cubin parallel, cache", k, load_modules(mods, "cubin")[0].seconds))
        os.environ.pop("TILECHECK_CACHE")
        kb = sum(len(m) for m in mods) // 1024
        print(f"{label}, {kb} KiB PTX: " + "; ".join(f"{h}#{k + 1} {x:.3f}" for h, k, x in row) + " s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
