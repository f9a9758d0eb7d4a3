"""overflow: every accessed byte's offset fits the state space's address width.  A swizzled offset is
stated through its plain one (``Query.plain``), which leaves ``[0, limit / esize)`` exactly when it does."""
from ..poly import Or, cmp

from ..encode import element
from ..layout import OFFSET
from ..machine import ADDRESS_LIMIT
from .guard import guarded
from .runner import Violation, static



def violation(q):
    view = q.memory
    t = q.tensor(view)
    limit = ADDRESS_LIMIT[t.scope]
    c = q.coords("a")
    off, block = q.plain(view, c)  # a swizzled offset through its plain one (Query.plain): the byte range
    if limit % (t.esize * block):  # [esize*o, esize*o + esize) leaves [0, limit) exactly when o leaves
        off = q.value(view, c)[OFFSET]  # [0, limit/esize), a multiple of the block here
    first = t.esize * off
    last = first + (t.esize - 1)
    lo, hi = q.ctx.interval(first)
    if lo is not None and hi is not None and lo >= 0 and hi + t.esize - 1 < limit:
        return static(True, "")  # the variables' ranges alone keep every byte inside: an exact proof

    def explain(w):
        co = w.coords("a")
        b = t.esize * w.value(view, co)[OFFSET]
        if 0 <= b and b + t.esize - 1 < limit:
            return None
        idx = w.index(view, co)
        return (f"{w.where(co)} accesses {element(t, idx)} at bytes [{b}, {b + t.esize}), outside [0, 2^{limit.bit_length() - 1})",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "byte_offset": b, "limit": limit})

    return Violation(guarded(q, "overflow", view, c, Or(cmp("<", q.z(first), 0), cmp(">=", q.z(last), limit))), explain)
