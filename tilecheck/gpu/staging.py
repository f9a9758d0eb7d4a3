"""``python -m tilecheck.gpu.staging [--seed S]``: the staging path on the GPU, bit for bit.

Each staging example (``examples/staging_*.toml``: global -> 16-byte ``cp.async.cg`` with
``guard = true`` -> ``Sw<3,3,3>``-swizzled shared tile -> ``ldmatrix.x4`` / ``.x4.trans`` -> the
mma fragment registers) is proved, emitted and run with ``tilecheck.gpu.runner`` (one batch, one
module) at every size of ``SIZES`` — ragged ones included: matrix extents that are not multiples of
the 32x64 tile, tile corners at and past the edge — and every buffer is compared with the numpy
reference bit for bit.  The reference is checked too, independently of the layouts: the fragment
tensor ``R`` (logical (row, column) of the tile) must equal the matrix's tile zero-padded past
its edge.  Prints one line per run and the summary

    staging: N runs, 0 differ (fp16 x4, bf16 x4.trans; sizes ...)

Exit status: 0 every run equals the reference; 1 some run differs (or a file is not proved);
2 no GPU / pycuda (the reason on stderr).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from . import runner
from .runner import Job, NotProved
import tilecheck

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"

# the global matrix's (rows, columns) and the tile's corner (r0, c0): the same for both examples
SIZES = [(45, 72, 32, 64),      # ragged rows and columns; the corner tile crosses both edges
         (32, 64, 0, 0),                 # one whole tile
         (17, 8, 0, 0),                  # smaller than the tile
         (1, 8, 0, 0),                   # the smallest allowed matrix
         (100, 200, 64, 192),            # ragged, 4 rows and one 16-byte atom per row in bounds
         (1000, 1000, 992, 960),         # ragged at a large corner
         (45, 72, 64, 0),                # the whole tile below the matrix: all zero-filled
         (4096, 4096, 4064, 4032)]       # the largest: the tile wholly inside
# file, its label, the names of its matrix's (rows, columns) symbols
STAGING = [("staging_fp16_x4.toml", "fp16 x4", ("m", "k")),
           ("staging_bf16_x4_trans.toml", "bf16 x4.trans", ("k", "n"))]


def jobs(seed: int):
    """(label, symbols, Job) for every staging example and size; each example is proved once
    (NotProved when it is not)."""
    out = []
    for f, label, (rows, cols) in STAGING:
        check = tilecheck.load(EXAMPLES / f)
        report = tilecheck.prove(check)
        if report.verdict != "proved":
            raise NotProved(report)
        for nr, nc, r0, c0 in SIZES:
            syms = {rows: nr, cols: nc, "r0": r0, "c0": c0}
            out.append((label, syms, Job(check, syms, seed + len(out), name=f"staging_{len(out)}", plan=report.plan)))
    return out


def tile_of(case) -> np.ndarray:
    """The 32x64 tile at (r0, c0) of the case's global matrix, zero past its edges (numpy only)."""
    check = case.check
    [g] = [n for n, t in check.tensors.items() if t.scope == "global"]
    rows, cols = (case.symbols[str(s)] for s in check.tensors[g].shape)
    a = case.inputs[g].reshape(rows, cols)
    r0, c0 = case.symbols["r0"], case.symbols["c0"]
    out = np.zeros((32, 64), dtype=a.dtype)
    part = a[r0:r0 + 32, c0:c0 + 64]
    out[:part.shape[0], :part.shape[1]] = part
    return out


def fragment_is_tile(case) -> bool:
    """The reference's fragment tensor R holds exactly the tile (logical coordinates agree)."""
    return bool(np.array_equal(case.expected["R"].reshape(32, 64), tile_of(case)))


def summary(labels: list[str], results: list, sizes=SIZES) -> tuple[str, int]:
    """The summary line and how many runs differ (a run differs when its buffers are not the
    reference's or the reference's fragment is not the tile)."""
    bad = sum(1 for r in results if not (r.ok and fragment_is_tile(r.case)))
    names = ", ".join(dict.fromkeys(labels))
    text = "; ".join(f"{nr}x{nc}@({r0},{c0})" for nr, nc, r0, c0 in sizes)
    return f"staging: {len(results)} runs, {bad} differ ({names}; sizes {text})", bad


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tilecheck.gpu.staging", description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=20251130, help="seed of the random inputs (default 20251130)")
    args = p.parse_args(argv)
    try:
        import pycuda  # noqa: F401
    except ImportError:
        print("tilecheck: error: pycuda is not installed: pip install -e '.[gpu]' (see docs/gpu.md)", file=sys.stderr)
        return 2
    try:
        todo = jobs(args.seed)
        results = runner.run_checks([j for _, _, j in todo])
    except runner.GpuUnavailable as e:
        print(f"tilecheck: error: {e}", file=sys.stderr)
        return 2
    except NotProved as e:
        print(f"FAIL: a staging example is not proved: {e}")
        return 1
    for (label, syms, job), r in zip(todo, results):
        s = ", ".join(f"{k}={v}" for k, v in syms.items())
        good = r.ok and fragment_is_tile(r.case)
        extra = "" if fragment_is_tile(r.case) else "; the reference's fragment is not the tile"
        print(f"{'PASS' if good else 'FAIL'}: {label} ({s}; seed {job.seed}): {r.summary()}{extra}")
    line, bad = summary([label for label, _, _ in todo], results)
    print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
