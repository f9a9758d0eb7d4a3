"""tma_smem: a TMA copy's shared address is 128-byte aligned (the shared tensor's base is a multiple of
its ``align``, plus ``offset`` elements), and with a swizzled map the base is a multiple of the
pattern's repeat (256, 512, 1024 bytes for 32B, 64B, 128B): the swizzle is anchored at shared address
0, so only then is it known where in the pattern the box starts (the ``offset`` says where:
``tma_landing`` holds the declared layout to it).  A destination 16 bytes past 1024 faults on the H200;
a 128B-swizzled buffer 128- but not 1024-aligned lands somewhere the consumer does not read (tilelang
#2379, triton #10474)."""
from ..expr import evaluate
from .runner import Violation, static
from .tma_common import parts, swizzle_bits, z


def violation(q):
    _, m, s, _ = parts(q)
    b = swizzle_bits(m)
    repeat = 1 << (7 + b) if b else 1
    if s.align % 128:
        return static(False, f"{s.name}'s align = {s.align}: a TMA copy's shared address must be 128-byte aligned",
                      {"tensor": s.name, "align": s.align})
    if s.align % repeat:
        return static(False, f"{s.name}'s align = {s.align}: the {m.swizzle} swizzle's pattern repeats every "
                             f"{repeat} bytes from shared address 0, so where {s.name}'s box starts in it is not "
                             f"known (align it to {repeat}; the offset then says where)",
                      {"tensor": s.name, "align": s.align, "repeat": repeat})
    off = q.poly(s.offset)
    formula = (z(q, off) * s.esize) % 128 != 0

    def explain(w):
        o = evaluate(s.offset, w.symbols) * s.esize
        if o % 128 == 0:
            return None
        at = ", ".join(f"{k} = {v}" for k, v in w.symbols.items())
        return (f"{s.name}'s offset is {o} bytes past a {s.align}-byte boundary, not a multiple of 128"
                + (f" (at {at})" if at else ""), {"symbols": dict(w.symbols), "offset_bytes": o})
    return Violation(formula, explain)
