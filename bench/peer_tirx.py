#!/usr/bin/env python3
"""The peer, TVM TIRx (apache-tvm-tirx==0.1.0a4), for tilecheck's benchmarks.

Runs inside the peer's own virtual environment (``bash bench/peer_env.sh`` creates
bench/.venv-tirx and prints its python). bench/bench_peer.py drives it through
subprocesses; it can also be run by hand:

  bench/.venv-tirx/bin/python bench/peer_tirx.py tile R       contiguous (R, 4) float32 tile -> registers,
                                                        thread scope, R x ld.global.v4.b32
  bench/.venv-tirx/bin/python bench/peer_tirx.py case NAME    one accept/reject case ('all': every case)
  bench/.venv-tirx/bin/python bench/peer_tirx.py copy V       the H200 copy kernel: CTA scope, 256 threads,
                                                        V x (ld.global.v4.b32 then st.global.v4.b32)
  bench/.venv-tirx/bin/python bench/peer_tirx.py list         the case names

Options: --cuda FILE writes the generated CUDA C (a directory when several cases run).

Each run prints one JSON object per line:
  {"case", "arch", "verdict": "accepted" | "rejected", "stage": "build" | "compile" | null,
   "message", "build_s", "compile_s", "instructions": {"ld.global.v4.b32": 105, ...}, "kernels": [...]}
build_s is the TVMScript construction of the function (T.function), compile_s the call
``tvm_tirx.tirx.compile(func, target={"kind": "cuda", "arch": ARCH})`` alone (lowering, checks and
CUDA C codegen; there is no GPU, nothing is run). The CUDA C is
``exe.mod.imports[0].inspect_source("")``.

TIRx API notes (0.1.0a4) -- what this file relies on:
  * compile is ``tvm_tirx.tirx.compile`` (there is no top-level ``tvm_tirx.compile`` in 0.1.0a4).
  * a kernel is ``@T.function`` with tensor parameters ``A: T.Tensor(shape, dtype, align=16, layout=...)``
    (parameter layouts must be shape-aligned strided ones) and a body
    ``with T.device_entry(launch=T.cuda.LaunchConfig(grid=G, block=B)):``.
  * registers: ``T.alloc_local(shape, dtype, layout=T.TileLayout(T.S[shape:strides] + offset))``; a
    stride ``1 @ T.Axis.get("laneid")`` / ``"warpid"`` maps an axis to a thread.
  * ``T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], dst, src, scope="thread"|"warp"|"cta")``, destination
    first; operand shape (*group, *repeat, word); group is () / (32,) / (warps, 32).
  * views: ``A.rearrange("i b j d -> j i (d b)")`` (einops, concrete shapes only),
    ``A.view(*shape, layout=T.TileLayout(...))`` (no check that the layout stays inside A!),
    slices ``A[8*bx:8*bx+8, :]`` (regions cannot be rearranged; view first, then slice).
  * symbols: ``N = T.dynamic("n")`` in a shape; a scalar that appears only inside a product shape
    (``(N*1024,)``) is not bound to the kernel ABI -- keep it a dimension of its own.
    ``T.assume`` facts are NOT used by the tile checks; only loop and launch ranges are
    (``T.cuda.block_idx("x")`` ranges over [0, grid)).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

import tvm_tirx as tvm
from tvm_tirx.script import tirx as T

LANE = T.Axis.get("laneid")
WARP = T.Axis.get("warpid")


def target(arch):
    return tvm.target.Target({"kind": "cuda", "arch": arch})


# --------------------------------------------------------------------------- kernels
def build_tile(R):
    """(R, 4) float32 global -> (R, 4) registers, R x ld.global.v4.b32 at thread scope."""
    @T.function
    def tile(A: T.Tensor((R, 4), "float32", align=16)):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((R, 4), "float32", layout=T.TileLayout(T.S[(R, 4):(4, 1)]))
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg, A, scope="thread")
    return tile


def build_seed():
    """The documentation example: 105 ld.global.v4.b32 into gapped register slots."""
    @T.function
    def seed(A: T.Tensor((15, 2, 7, 2), "float32", align=16,
                         layout=T.TileLayout(T.S[(15, 2, 7, 2):(4, 1, 60, 2)])),
             B: T.Tensor((1,), "float32")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((15, 2, 7, 2), "float32",
                               layout=T.TileLayout(T.S[(15, 2, 7, 2):(8, 2, 120, 4)]))
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg.rearrange("i b j d -> j i (d b)"),
                              A.rearrange("i b j d -> j i (d b)"), scope="thread")
            B[0] = Rg[14, 1, 6, 1]
    return seed


def build_copy(V):
    """CTA-scope copy, 256 threads, V vectors per thread, tile start from blockIdx.x.

    A and B are (nb, 1024*V) float32; CTA b copies the 1024*V floats of row b. Repeat v of warp w,
    lane l moves elements b*1024*V + v*1024 + w*128 + l*4 + [0, 4): every repeat is one fully
    coalesced 4 KiB sweep of the CTA. Kernel: copy_v{V}_kernel(float* A, float* B, int nb),
    grid (nb,), block (256,).
    """
    NB = T.dynamic("nb")
    lay = T.TileLayout(T.S[(NB, 8, 32, V, 4):(1024 * V, 128, 4, 1024, 1)])
    regs = T.TileLayout(T.S[(8, 32, V, 4):(1 @ WARP, 1 @ LANE, 4, 1)])

    @T.function
    def copy(A: T.Tensor((NB, 1024 * V), "float32", align=16),
             B: T.Tensor((NB, 1024 * V), "float32", align=16)):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=NB, block=256)):
            bx = T.cuda.block_idx("x")
            Av = A.view(NB * 8, 32, V, 4, layout=lay)
            Bv = B.view(NB * 8, 32, V, 4, layout=lay)
            Rg = T.alloc_local((8, 32, V, 4), "float32", layout=regs)
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg, Av[8 * bx:8 * bx + 8, :, :, :], scope="cta")
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Bv[8 * bx:8 * bx + 8, :, :, :], Rg, scope="cta")
    copy = copy.with_attr("global_symbol", f"copy_v{V}")
    return copy


# ------------------------------------------------------------------ accept/reject cases
# Each builder returns the T.function; the matching tilecheck check file is bench/cases/NAME.toml
# or the example named in CASE_FILES in bench_peer.py.
def case_seed():
    return build_seed()


def case_inj_3x2():
    @T.function
    def inj_3x2(A: T.Tensor((3, 2), "float32", align=16), B: T.Tensor((1,), "float32")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((3, 2), "float32", layout=T.TileLayout(T.S[(3, 2):(2, 3)]))
            T.cuda.tile.apply(T.ptx["ld.global.v2.b32"], Rg, A, scope="thread")
            B[0] = Rg[2, 1]
    return inj_3x2


def case_reversed_words():
    @T.function
    def reversed_words(A: T.Tensor((2, 4), "float32", align=16), B: T.Tensor((1,), "float32")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((2, 4), "float32", layout=T.TileLayout(T.S[(2, 4):(4, -1)] + 3))
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg, A, scope="thread")
            B[0] = Rg[1, 3]
    return reversed_words


def case_collide():
    @T.function
    def collide(A: T.Tensor((2, 4), "float32", align=16), B: T.Tensor((1,), "float32")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((2, 4), "float32", layout=T.TileLayout(T.S[(2, 4):(0, 1)]))
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg, A, scope="thread")
            B[0] = Rg[1, 3]
    return collide


def case_race_thread_store():
    @T.function
    def race_thread_store(A: T.Tensor((3, 4), "float32", align=16)):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128)):
            Rg = T.alloc_local((3, 4), "float32", layout=T.TileLayout(T.S[(3, 4):(4, 1)]))
            for i in range(12):
                Rg[i // 4, i % 4] = T.cast(T.cuda.thread_idx("x"), "float32")
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A, Rg, scope="thread")
    return race_thread_store


def case_race_warp_store():
    @T.function
    def race_warp_store(A: T.Tensor((3, 4), "float32", align=16)):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32)):
            Rg = T.alloc_local((32, 3, 4), "float32",
                               layout=T.TileLayout(T.S[(32, 3, 4):(1 @ LANE, 4, 1)]))
            Av = A.view(32, 3, 4, layout=T.TileLayout(T.S[(32, 3, 4):(0, 4, 1)]))
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Av, Rg, scope="warp")
    return race_warp_store


def case_store_self_overwrite():
    @T.function
    def store_self_overwrite(A: T.Tensor((4,), "float32", align=16)):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((2, 4), "float32", layout=T.TileLayout(T.S[(2, 4):(4, 1)]))
            for i in range(8):
                Rg[i // 4, i % 4] = T.float32(i)
            Av = A.view(2, 4, layout=T.TileLayout(T.S[(2, 4):(0, 1)]))
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], Av, Rg, scope="thread")
    return store_self_overwrite


def _v8(name, opcode, dtype):
    def build():
        @T.function
        def v8(A: T.Tensor((2, 8), dtype, align=32), B: T.Tensor((1,), dtype)):
            with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
                Rg = T.alloc_local((2, 8), dtype, layout=T.TileLayout(T.S[(2, 8):(8, 1)]))
                T.cuda.tile.apply(T.ptx[opcode], Rg, A, scope="thread")
                B[0] = Rg[1, 7]
        return v8.with_attr("global_symbol", name)
    return build


def case_symbolic_start():
    # tilecheck's examples/symbolic_tile.toml: free r0, c0 with facts r0 + 8 <= n, c0 + 8 <= k,
    # multiples of 8. T.assume is the only way to state them in TIRx, and its tile checks ignore it.
    N, K = T.dynamic("n"), T.dynamic("k")
    lay = T.TileLayout(T.S[(N, K // 4, 4):(K, 4, 1)])

    @T.function
    def symbolic_start(X: T.Tensor((N, K), "float16", align=16), r0: T.int32, c0: T.int32,
                       B: T.Tensor((1,), "float16")):
        T.assume(r0 >= 0)
        T.assume(r0 + 8 <= N)
        T.assume(c0 >= 0)
        T.assume(c0 + 8 <= K)
        T.assume(r0 % 8 == 0)
        T.assume(c0 % 8 == 0)
        T.assume(K % 8 == 0)
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((8, 8), "float16", layout=T.TileLayout(T.S[(8, 8):(8, 1)]))
            T.cuda.tile.apply(T.ptx["ld.global.nc.v4.b16"], Rg.rearrange("r (v w) -> r v w", v=2),
                              X.view(N, K // 4, 4, layout=lay)[r0:r0 + 8, c0 // 4:c0 // 4 + 2, 0:4],
                              scope="thread")
            B[0] = Rg[7, 7]
    return symbolic_start


def case_symbolic_start_ctaid():
    NT, KT = T.dynamic("nt"), T.dynamic("kt")
    lay = T.TileLayout(T.S[(NT * 8, KT * 2, 4):(KT * 8, 4, 1)])

    @T.function
    def symbolic_start_ctaid(X: T.Tensor((NT * 8, KT * 8), "float16", align=16),
                             B: T.Tensor((1,), "float16")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=(NT, KT), block=1)):
            bx = T.cuda.block_idx("x")
            by = T.cuda.block_idx("y")
            Rg = T.alloc_local((8, 8), "float16", layout=T.TileLayout(T.S[(8, 8):(8, 1)]))
            T.cuda.tile.apply(T.ptx["ld.global.nc.v4.b16"], Rg.rearrange("r (v w) -> r v w", v=2),
                              X.view(NT * 8, KT * 2, 4, layout=lay)[8 * bx:8 * bx + 8, 2 * by:2 * by + 2, 0:4],
                              scope="thread")
            B[0] = Rg[7, 7]
    return symbolic_start_ctaid


def case_misaligned_region():
    @T.function
    def misaligned_region(A: T.Tensor((8, 5), "float32", align=16), B: T.Tensor((1,), "float32")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((8, 4), "float32", layout=T.TileLayout(T.S[(8, 4):(4, 1)]))
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg, A[:, 1:5], scope="thread")
            B[0] = Rg[7, 3]
    return misaligned_region


def _cta_shared_store(name, lane_stride):
    def build():
        @T.function
        def cta(A: T.Tensor((4, 32, 3, 4), "float32", align=16)):
            with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128)):
                S = T.alloc_shared((4, 32, 3, 4), "float32", align=16,
                                   layout=T.TileLayout(T.S[(4, 32, 3, 4):(384, 12, 4, 1)]))
                Rg = T.alloc_local((4, 32, 3, 4), "float32",
                                   layout=T.TileLayout(T.S[(4, 32, 3, 4):(1 @ WARP, lane_stride @ LANE, 4, 1)]))
                T.cuda.tile.apply(T.ptx["st.shared.v4.b32"], S, Rg, scope="cta")
        return cta.with_attr("global_symbol", name)
    return build


def _simple_ld(name, opcode, dtype):
    def build():
        @T.function
        def simple(A: T.Tensor((2, 4), dtype, align=16), B: T.Tensor((1,), dtype)):
            with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
                Rg = T.alloc_local((2, 4), dtype, layout=T.TileLayout(T.S[(2, 4):(4, 1)]))
                T.cuda.tile.apply(T.ptx[opcode], Rg, A, scope="thread")
                B[0] = Rg[1, 3]
        return simple.with_attr("global_symbol", name)
    return build


def case_preserve_dst_store():
    @T.function
    def preserve_dst_store(A: T.Tensor((2, 4), "float32", align=16)):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
            Rg = T.alloc_local((2, 4), "float32", layout=T.TileLayout(T.S[(2, 4):(4, 1)]))
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A, Rg, scope="thread",
                              pred=T.bool(True), preserve_dst=True)
    return preserve_dst_store


# name -> (arch, builder)
CASES = {
    "seed": ("sm_90", case_seed),
    "inj_3x2": ("sm_90", case_inj_3x2),
    "reversed_words": ("sm_90", case_reversed_words),
    "collide": ("sm_90", case_collide),
    "race_thread_store": ("sm_90", case_race_thread_store),
    "race_warp_store": ("sm_90", case_race_warp_store),
    "store_self_overwrite": ("sm_90", case_store_self_overwrite),
    "v8_b32_sm90": ("sm_90", _v8("v8_b32_sm90", "ld.global.v8.b32", "float32")),
    "v8_b32_sm100a": ("sm_100a", _v8("v8_b32_sm100a", "ld.global.v8.b32", "float32")),
    "v8_b16_sm100a": ("sm_100a", _v8("v8_b16_sm100a", "ld.global.v8.b16", "float16")),
    "symbolic_start": ("sm_90", case_symbolic_start),
    "symbolic_start_ctaid": ("sm_90", case_symbolic_start_ctaid),
    "misaligned_region": ("sm_90", case_misaligned_region),
    "cta_shared_store": ("sm_90", _cta_shared_store("cta_shared_store", 1)),
    "cta_lane_stride2": ("sm_90", _cta_shared_store("cta_lane_stride2", 2)),
    "generic_space": ("sm_90", _simple_ld("generic_space", "ld.v4.b32", "float32")),
    "v4_f16": ("sm_90", _simple_ld("v4_f16", "ld.global.v4.f16", "float16")),
    "preserve_dst_store": ("sm_90", case_preserve_dst_store),
}


# ----------------------------------------------------------------------------- driver
_HELPER = re.compile(r'void (tvm_builtin_ptx_\w+)\(.*?asm volatile\("([\w.:]+)', re.S)


def count_instructions(src):
    """Memory instructions per kernel body, by PTX opcode (unrolled: one call per instruction)."""
    opcode = dict(_HELPER.findall(src))
    body = src[src.find('extern "C" __global__'):]
    counts = {}
    for name in re.findall(r"^\s+(tvm_builtin_ptx_\w+)\(", body, re.M):
        op = opcode.get(name, name)
        counts[op] = counts.get(op, 0) + 1
    return counts


def kernels(src):
    return sorted(set(re.findall(r'extern "C" __global__ void (?:__launch_bounds__\(\d+\) )?(\w+\([^)]*\))', src)))


def run(name, arch, build, cuda=None):
    out = {"case": name, "arch": arch, "verdict": None, "stage": None, "message": "",
           "build_s": None, "compile_s": None, "instructions": {}, "kernels": []}
    t0 = time.perf_counter()
    try:
        func = build()
    except Exception as e:  # an opcode TIRx cannot spell is refused while the script is built
        out.update(verdict="rejected", stage="build", message=_message(e))
        out["build_s"] = time.perf_counter() - t0
        return out
    out["build_s"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    try:
        exe = tvm.tirx.compile(func, target=target(arch))
    except Exception as e:
        out["compile_s"] = time.perf_counter() - t1
        out.update(verdict="rejected", stage="compile", message=_message(e))
        return out
    out["compile_s"] = time.perf_counter() - t1
    src = exe.mod.imports[0].inspect_source("")
    out.update(verdict="accepted", instructions=count_instructions(src), kernels=kernels(src))
    if cuda:
        os.makedirs(os.path.dirname(os.path.abspath(cuda)), exist_ok=True)
        with open(cuda, "w") as f:
            f.write(src)
        out["cuda"] = cuda
    return out


def _message(e):
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    # TIRx's lowering errors read "Tensor instruction lowering failed: ... | <reason> | call: ..."
    keep = [ln for ln in lines if not ln.startswith(("call:", "File ", "Traceback"))]
    return f"{type(e).__name__}: " + " | ".join(keep)[-400:]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", choices=["tile", "case", "copy", "seed", "list"])
    p.add_argument("arg", nargs="?")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--cuda", help="write the CUDA C here (a directory for 'case all')")
    a = p.parse_args(argv)
    if a.what == "list":
        print("\n".join(CASES))
        return 0
    if a.what == "tile":
        R = int(float(a.arg))
        jobs = [(f"tile_{R}", a.arch, lambda: build_tile(R), a.cuda)]
    elif a.what == "seed":
        jobs = [("seed", a.arch, build_seed, a.cuda)]
    elif a.what == "copy":
        V = int(a.arg)
        jobs = [(f"copy_v{V}", a.arch, lambda: build_copy(V), a.cuda)]
    else:
        names = list(CASES) if a.arg == "all" else [a.arg]
        if a.arg != "all" and a.arg not in CASES:
            p.error(f"unknown case {a.arg!r}; try 'list'")
        jobs = [(n, CASES[n][0], CASES[n][1],
                 (os.path.join(a.cuda, n + ".cu") if a.arg == "all" else a.cuda) if a.cuda else None)
                for n in names]
    for name, arch, build, cuda in jobs:
        print(json.dumps(run(name, arch, build, cuda)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
