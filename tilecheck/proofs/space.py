"""space: the memory operand lives in the opcode's state space; the other operand is registers;
a ``.nc`` load reads a tensor that no application of the check stores to (PTX: data read through
the non-coherent path must be read-only for the whole kernel).  ``.nc`` on a store
(``st.global.nc``, illegal) is ``target``'s refutation alone: a store reads nothing."""
from ..families import MEMORY, REGISTER
from .runner import static

MODELLED = ("global", "shared", "local")


def violation(q):
    a = q.apply
    acc = q.check.accesses_of(a)
    if not any(x.kind == REGISTER for x in acc) or not any(x.kind == MEMORY for x in acc):
        return _memory_only(q)
    op, mem, reg = a.opcode, q.tensor(a.memory), q.tensor(a.register)
    role = "source" if a.is_load else "destination"
    problem = None
    if op.space is None:
        problem = f"{op.text} has no state space (generic addressing); tilecheck needs .global, .shared or .local"
    elif op.space not in MODELLED:
        problem = f"{op.text} accesses .{op.space} memory, which tilecheck does not model (use .global, .shared or .local)"
    elif mem.scope != op.space:
        problem = f"the {role} {mem.name} is {mem.scope} memory but {op.text} accesses .{op.space}"
    elif not reg.is_register:
        other = "destination" if a.is_load else "source"
        problem = f"the {other} {reg.name} must be a register tensor, it is {reg.scope} memory"
    elif a.family.read_only(op) and a.is_load:  # (a store's .nc is target's: it reads nothing)
        writer = next((b for b in q.check.applies if not b.is_load and b.memory.tensor == mem.name), None)
        if writer is not None:
            problem = (f"{op.text} reads {mem.name} through the non-coherent path, but apply[{writer.index}] "
                       f"({writer.opcode.text}) stores to {mem.name}: .nc data must be read-only for the whole kernel")
    return static(problem is None, problem or "",
                  {"opcode": op.text, "memory": mem.name, "memory_scope": mem.scope,
                   "register": reg.name, "register_scope": reg.scope})


def _memory_only(q):
    """A family of memory operands only (cp.async), or of registers and descriptors (wgmma): each operand lives
    in the state space its role declares."""
    a = q.apply
    op, problem = a.opcode, None
    facts = {"opcode": op.text}
    acc = q.check.accesses_of(a)
    for x in acc:
        t = q.tensor(x.view)
        facts.update({x.role: t.name, f"{x.role}_scope": t.scope})
        if problem is None and t.scope not in x.spec.spaces:
            word = {"src": "source", "dst": "destination"}.get(x.role, f"{x.role} operand")
            problem = f"the {word} {t.name} is {t.scope} memory but {op.text} needs .{' or .'.join(x.spec.spaces)}"
    if problem is None and all(x.memory for x in acc) and op.space not in acc[0].spec.spaces:
        problem = (f"{op.text} has no .shared destination (tilecheck models {a.family.form})"
                   if op.space is None else f"{op.text} copies to .{op.space}, which tilecheck does not model "
                   "(use .shared or .shared::cta)")
    return static(problem is None, problem or "", facts)
