"""operands: the family's own [[apply]] keys agree with the opcode (ld/st: cache_policy exactly with
.L2::cache_hint; preserve_dst only on a predicated load); the rules live in the family."""
from .runner import static


def violation(q):
    a = q.apply
    problem = a.family.operand_problem(a)
    return static(problem is None, problem or "", a.family.operand_facts(a))
