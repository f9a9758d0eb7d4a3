"""shape: both operands view as (*group, *repeat, word) with the same repeat extents."""
from .runner import static


def violation(q):
    a = q.apply
    group, vector = q.check.group_shape(a.scope), a.opcode.vector
    g = len(group)
    expected = f"(*group={group}, *repeat, word={vector})"
    problem = None
    for role, view in (("dst", a.dst), ("src", a.src)):
        s = view.shape
        if len(s) < g + 1 or s[:g] != group or s[-1] != vector:
            problem = f"{role} {view.text!r} has shape {s}, expected {expected} for {a.scope} scope and {a.opcode.text}"
            break
    else:
        rd, rs = a.dst.shape[g:-1], a.src.shape[g:-1]
        if rd != rs:
            problem = f"the repeat extents differ: dst {rd}, src {rs}"
    return static(problem is None, problem or "",
                  {"dst": list(a.dst.shape), "src": list(a.src.shape), "group": list(group), "word": vector})
