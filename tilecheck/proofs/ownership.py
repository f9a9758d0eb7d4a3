"""ownership: every register slot an instruction names belongs to the issuing thread."""
import z3

from ..encode import element
from ..machine import GROUP_NAMES
from .runner import Violation


def owner_ok(scope, group, lane, warp, tid):
    """The rule, shared by the encoding (Z3 terms) and the replay (ints)."""
    coords = GROUP_NAMES[scope]
    if not coords:  # one thread: its own registers
        return [lane == 0, warp == 0, tid == 0]
    if len(coords) == 1:  # a warp: the lane
        return [lane == group[0], warp == 0, tid == 0]
    return [32 * warp + lane + tid == 32 * group[0] + group[1]]  # (warp, lane) of the group


def violation(q):
    a = q.apply
    view = a.register
    t = q.tensor(view)
    c = q.coords("a")
    v = q.value(view, c)
    ok = owner_ok(a.scope, [q.z(g) for g in c.group], q.z(v["laneid"]), q.z(v["warpid"]), q.z(v["tid"]))

    def explain(w):
        co = w.coords("a")
        val = w.value(view, co)
        if all(owner_ok(a.scope, co[0], val["laneid"], val["warpid"], val["tid"])):
            return None
        idx = w.index(view, co)
        if any(x.crosses and x.memory for x in q.check.accesses_of(a)):  # a fragment: the lane that receives it
            mem = w.index(a.memory, co)
            moves = "gives" if a.is_load else "takes"
            return (f"{a.opcode.text} {moves} {element(q.tensor(a.memory), mem)} "
                    f"{'to' if a.is_load else 'from'} lane {co[0][0]} (word {co[2]} of its fragment) as "
                    f"{element(t, idx)}, but {t.name}'s layout puts {element(t, idx)} in laneid {val['laneid']}"
                    + (f", warpid {val['warpid']}, tid {val['tid']}" if val['warpid'] or val['tid'] else ""),
                    {**w.describe(co), "tensor": t.name, "index": list(idx), "slot": val[""],
                     "laneid": val["laneid"], "warpid": val["warpid"], "tid": val["tid"],
                     "memory_index": list(mem), "receiving_lane": co[0][0]})
        return (f"{w.where(co)} names {element(t, idx)}, which belongs to laneid {val['laneid']}, "
                f"warpid {val['warpid']}, tid {val['tid']}, not to the issuing thread",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "slot": val[""],
                 "laneid": val["laneid"], "warpid": val["warpid"], "tid": val["tid"]})

    return Violation(z3.Not(z3.And(*ok)), explain)
