"""Which applications of a check move data through registers, below the operand model
(``operand.py``) and the register tiles (``registers.py``), which both ask: an application with
memory operands only (``copies``, cp.async) and the applications whose register tile a kernel
fills from or writes back to its buffer (``register_copies``).  ``operand.py`` re-exports
``copies`` and ``registers.py`` ``register_copies``, where callers import them from."""
from __future__ import annotations

from ..check import Apply, Check
from ..families import REGISTER


def copies(a: Apply) -> bool:
    """The application has memory operands only, no register access (cp.async: dst and src are both memory)."""
    return not any(r.kind == REGISTER for r in a.family.roles(a.opcode))


def register_copies(check: Check) -> tuple[list, list]:
    """The applications whose register tile a kernel reads from its buffer before the applications
    run (a tensor's first use, when it is a store or a load with ``preserve_dst``) and those it
    writes back after them (loads of a tensor whose last use is a load), in that order."""
    registered = [a for a in check.applies if not copies(a)]
    fills, first = [], set()
    for a in registered:
        if a.register.tensor not in first:
            first.add(a.register.tensor)
            if not a.is_load or a.family.keeps_registers(a):
                fills.append(a)
    last = {a.register.tensor: a for a in registered}  # a tile a later store consumes is not written back
    return fills, [a for a in registered if a.is_load and last[a.register.tensor].is_load]
