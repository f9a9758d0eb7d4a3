"""operands: cache_policy exactly with .L2::cache_hint; preserve_dst only on a predicated load."""
from .runner import static


def violation(q):
    a = q.apply
    op = a.opcode
    problem = None
    if a.cache_policy and not op.cache_hint:
        problem = f"cache_policy is given but {op.text} has no .L2::cache_hint"
    elif op.cache_hint and not a.cache_policy:
        problem = f"{op.text} has .L2::cache_hint and needs cache_policy = true"
    elif a.preserve_dst and not (a.pred and a.is_load):
        problem = "preserve_dst needs a predicated load (pred = true on an ld)"
    return static(problem is None, problem or "",
                  {"cache_policy": a.cache_policy, "cache_hint": op.cache_hint,
                   "pred": a.pred, "preserve_dst": a.preserve_dst})
