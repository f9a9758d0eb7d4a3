"""The copy kernel as a tilecheck check file: a CTA-scope ld.global.v4.b32 of a tile into
registers, then st.global.v4.b32 of it, the tile start a symbol bound to %ctaid.x.

    python bench/copy_check.py V [N]      # prints the check file (V vectors per thread)
"""
import sys

THREADS = 256


def copy_check(vectors: int, elements: int = 2**30) -> str:
    tile = THREADS * 4 * vectors  # float32 elements per CTA
    assert elements % tile == 0
    ctas = elements // tile
    view = f"[b*{tile}:b*{tile}+{tile}]: (r={vectors} w=8 l=32 v) -> w l r v"
    return f'''# Copy {elements} float32 elements, {vectors} vector(s) of 16 bytes per thread, one CTA per tile.
arch = "sm_90"
threads = {THREADS}

[symbols.b]
min = 0
max = {ctas - 1}
from = "ctaid.x"

[tensors.A]
dtype = "float32"
scope = "global"
shape = [{elements}]
align = 16

[tensors.B]
dtype = "float32"
scope = "global"
shape = [{elements}]
align = 16

[tensors.R]
dtype = "float32"
scope = "register"
shape = [8, 32, {vectors}, 4]
layout = "(8,32,{vectors},4):(1@warpid,1@laneid,4,1)"

[[apply]]
opcode = "ld.global.v4.b32"
scope = "cta"
dst = "R"
src = "A{view}"

[[apply]]
opcode = "st.global.v4.b32"
scope = "cta"
dst = "B{view}"
src = "R"
'''


if __name__ == "__main__":
    print(copy_check(int(sys.argv[1]), *(int(a) for a in sys.argv[2:3])), end="")
