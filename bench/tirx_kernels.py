"""More TIRx kernels for ``tilecheck tirx`` (run in the peer venv; see BENCHMARKS.md section 2b).

The builders of bench/peer_tirx.py that take a size (the tile and copy kernels of the benchmarks),
and kernels whose tile start is a loop variable, in the form the TIRx extractor collects:
a top-level dict of ``(arch, zero-argument builder)``.
"""
from __future__ import annotations

import peer_tirx as P
from tvm_tirx.script import tirx as T


def loop_rows(rows_per_step, steps):
    """A thread loads rows 8*i .. 8*i+8 of a (rows_per_step*steps, 4) float32 tensor, i a loop index."""
    def build():
        @T.function
        def loop_rows(A: T.Tensor((rows_per_step * steps, 4), "float32", align=16),
                      B: T.Tensor((1,), "float32")):
            with T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1)):
                Rg = T.alloc_local((8, 4), "float32", layout=T.TileLayout(T.S[(8, 4):(4, 1)]))
                for i in range(steps):
                    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], Rg, A[8 * i:8 * i + 8, :], scope="thread")
                    B[0] = Rg[7, 3]
        return loop_rows.with_attr("global_symbol", f"loop_rows_{rows_per_step}x{steps}")
    return build


KERNELS = {
    "tile_1": ("sm_90", lambda: P.build_tile(1)),
    "tile_105": ("sm_90", lambda: P.build_tile(105)),
    **{f"copy_v{v}": ("sm_90", (lambda v=v: P.build_copy(v))) for v in (1, 2, 4, 8)},
    "loop_rows_in_bounds": ("sm_90", loop_rows(8, 4)),      # rows 0..31 of 32
    "loop_rows_past_end": ("sm_90", loop_rows(7, 4)),       # the last step reads rows 24..31 of 28
}
