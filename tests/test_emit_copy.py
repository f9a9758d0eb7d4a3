"""A copy (load a tile, store it) with the tile start bound to %ctaid.x: no register write-back."""
import re

import tilecheck
from tilecheck.emit import kernel

COPY = '''
arch = "sm_90"
threads = 256
[symbols.b]
min = 0
max = 1023
from = "ctaid.x"
[tensors.A]
dtype = "float32"
scope = "global"
shape = [2097152]
align = 16
[tensors.B]
dtype = "float32"
scope = "global"
shape = [2097152]
align = 16
[tensors.R]
dtype = "float32"
scope = "register"
shape = [8, 32, 2, 4]
layout = "(8,32,2,4):(1@warpid,1@laneid,4,1)"
[[apply]]
opcode = "ld.global.v4.b32"
scope = "cta"
dst = "R"
src = "A[b*2048:b*2048+2048]: (r=2 w=8 l=32 v) -> w l r v"
[[apply]]
opcode = "st.global.v4.b32"
scope = "cta"
dst = "B[b*2048:b*2048+2048]: (r=2 w=8 l=32 v) -> w l r v"
src = "R"
'''


def test_copy_kernel_is_two_loads_two_stores_from_ctaid():
    report = tilecheck.prove(tilecheck.loads(COPY, "copy.toml"))
    assert report.verdict == "proved"
    ptx = kernel(report.plan)
    mem = re.findall(r"^\s*(ld|st)\.global\S*", ptx, re.M)
    assert len(mem) == 4  # the tile consumed by the store is not written back to R's buffer
    assert "%ctaid.x" in ptx and ".param .s64" not in ptx
    assert re.search(r"st\.global\.v4\.b32 \[%rd\d+\+4096\]", ptx)


def test_copy_past_the_end_is_refuted_on_bounds():
    report = tilecheck.prove(tilecheck.loads(COPY.replace("max = 1023", "max = 1024"), "copy.toml"))
    assert report.applies[0].obligation("bounds").status == "refuted"
    assert report.applies[0].obligation("bounds").counterexample["symbols"]["b"] == 1024
