#!/usr/bin/env python3
"""The peer's side of the H200 copy benchmark: TIRx copy kernels -> CUDA C -> PTX in bench/peer_ptx/.

  python bench/peer_copy_ptx.py                 # V = 1 2 4 8 16
  python bench/peer_copy_ptx.py --vectors 1,4

For each V (vectors per thread) bench/peer_tirx.py builds, in the peer's venv, the copy written in TIRx
(two T.cuda.tile.apply calls at CTA scope, 256 threads, tile start from blockIdx.x):
    ld.global.v4.b32  A-tile -> registers,  then  st.global.v4.b32  registers -> B-tile
and tvm_tirx.tirx.compile (target {"kind": "cuda", "arch": "sm_90"}) generates its CUDA C. Here
`nvcc -arch=sm_90 -ptx` turns that into bench/peer_ptx/copy_v{V}.ptx (the .cu is kept beside it), and
`ptxas -arch=sm_90 -v` checks it and reports registers and spills. bench/peer_ptx/README.md gets the
kernel signature and launch configuration of each. Needs nvcc (CUDA 12.8+; made with 13.0).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BENCH, ROOT, machine, table  # noqa: E402
from bench_peer import peer_python, peer_run  # noqa: E402
from tilecheck.tools import ToolNotFound, find_tool  # noqa: E402

OUT = os.path.join(BENCH, "peer_ptx")
TOTAL_BYTES = 4 << 30  # the 4 GiB float32 tensor of the GPU benchmark


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vectors", default="1,2,4,8,16")
    ap.add_argument("--peer-python")
    a = ap.parse_args(argv)
    nvcc = shutil.which("nvcc")
    try:
        ptxas = find_tool("ptxas")
    except ToolNotFound:
        ptxas = None
    if not nvcc:
        sys.exit("peer_copy_ptx: nvcc not found")
    nvcc_v = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-2]
    py = peer_python(a.peer_python)
    tirx_v = subprocess.run([py, "-c", "import importlib.metadata as m; print(m.version('apache-tvm-tirx'))"],
                            capture_output=True, text=True).stdout.strip()
    os.makedirs(OUT, exist_ok=True)
    rows, sigs = [], []
    for V in (int(v) for v in a.vectors.split(",")):
        cu = os.path.join(OUT, f"copy_v{V}.cu")
        ptx = os.path.join(OUT, f"copy_v{V}.ptx")
        _, (res,) = peer_run(py, "copy", str(V), "--cuda", cu)
        if res["verdict"] != "accepted":
            sys.exit(f"TIRx rejected copy_v{V}: {res['message']}")
        sigs.append(res["kernels"][0])
        p = subprocess.run([nvcc, "-arch=sm_90", "-ptx", "-diag-suppress", "177", cu, "-o", ptx],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"nvcc failed on {cu}:\n{p.stderr}")
        text = open(ptx).read()
        entry = re.search(r"\.entry (\w+)\(([^)]*)\)", text)
        params = re.findall(r"\.param \.(\w+) \w+", entry.group(2))
        ld = len(re.findall(r"\bld\.global\.v4\.b32\b", text))
        st = len(re.findall(r"\bst\.global\.v4\.b32\b", text))
        info = "—"
        if ptxas:
            q = subprocess.run([ptxas, "-arch=sm_90", "-v", ptx, "-o", os.devnull], capture_output=True, text=True)
            if q.returncode:
                sys.exit(f"ptxas failed on {ptx}:\n{q.stderr}")
            regs = re.search(r"Used (\d+) registers", q.stderr)
            spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", q.stderr)
            info = f"{regs.group(1) if regs else '?'} regs, spills {spill.group(1)}/{spill.group(2)} B" if spill else "?"
        grid = TOTAL_BYTES // (16 * 256 * V)
        rows.append([f"`{os.path.relpath(ptx, ROOT)}`", V, f"`{entry.group(1)}({', '.join(params)})`",
                     f"grid ({grid},), block (256,)", f"{ld} / {st}", info, f"{res['compile_s'] * 1000:.0f} ms"])
        print(json.dumps({"V": V, "ptx": ptx, "entry": entry.group(1), "params": params, "grid": grid,
                          "ld": ld, "st": st, "ptxas": info}), file=sys.stderr)
    t = table(["PTX", "V", "entry (params)", "launch for 4 GiB", "ld/st.global.v4.b32", "ptxas -v sm_90",
               "TIRx compile"], rows)
    m = machine()
    sig = re.sub(r"copy_v\d+_kernel", "copy_v{V}_kernel", sigs[0])
    readme = f"""# The peer's copy kernels (TVM TIRx {tirx_v}), PTX for sm_90

Made by `python bench/peer_copy_ptx.py` on {m['date']} ({nvcc_v}); do not edit by hand.
Source: `build_copy(V)` in `bench/peer_tirx.py` -- the copy written in TIRx as two
`T.cuda.tile.apply` calls at CTA scope (256 threads, 8 warps), the tile start taken from `blockIdx.x`:

    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg, Av[8*bx:8*bx+8, :, :, :], scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Bv[8*bx:8*bx+8, :, :, :], Rg, scope="cta")

`copy_v{{V}}.cu` is TIRx's CUDA C (`exe.mod.imports[0].inspect_source("")`), `copy_v{{V}}.ptx` is
`nvcc -arch=sm_90 -ptx` of it.

## How to run each kernel

Signature (every V, from TIRx's CUDA C): `extern "C" __global__ void __launch_bounds__(256)
{sig}`; PTX params `(.u64, .u64, .u32)`: the source A, the destination B (device pointers) and a
32-bit int `nb`, the TIRx shape symbol, unused by the body but part of the signature (pass the grid size).

- block = (256, 1, 1), no dynamic shared memory; grid = (nb, 1, 1) with nb = N / (1024 * V) for N float32
  elements (N must be a multiple of 1024 * V; for the 4 GiB tensor N = 2^30).
- CTA b copies elements [b*1024*V, (b+1)*1024*V): repeat v of warp w, lane l moves the 16 bytes at
  element b*1024*V + v*1024 + w*128 + l*4, so each repeat is one coalesced 4 KiB sweep by the CTA.
  All V loads are issued before the V stores.
- Index arithmetic is 32-bit `int` in TIRx's CUDA C: fine for N <= 2^31 - 1 elements (the 4 GiB
  tensor is 2^30), wrong beyond.
- Both pointers must be 16-byte aligned (TIRx was told align=16).
- The PTX says `.version 9.0` (nvcc 13.0's default). A driver older than CUDA 13 will not JIT it; the
  kernels use nothing newer than PTX 7.8 (the minimum for sm_90), so
  `sed 's/^\\.version 9\\.0/.version 7.8/'` makes them loadable there (checked with ptxas).

{t}
"""
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write(readme)
    print(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
