"""The accesses of an application: one list per ``[[apply]]``, built once from its family's roles.

Every consumer (the obligations, the emitter, the decider, the numpy reference, the memory model's
counts) iterates this list instead of asking the family, or testing its name, what an operand is:

* ``role``: ``dst`` or ``src``; ``kind``: memory or registers; ``space``: the tensor's state space;
* ``mode``: read, write or atomic (a read-modify-write: red's add);
* the address, as a function of (thread, repeat, value): the view's coordinates through ``offset``
  (``crd2idx``), where the thread's atom starts (``start``: its own word 0, or the thread-value
  layout's origin), ``words`` elements per atom, ``bytes`` per atom, ``lanes`` that give one;
* the active predicate: ``guarded`` names the obligations stated of the atoms the guard lets
  through (``guard = true``: the atom is in bounds), empty when the access always executes.

The list is built from data only (``families.Role``): nothing here names a family.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import crd2idx
from .families import ATOMIC, MEMORY, READ, REGISTER, WRITE, Role  # noqa: F401 (re-exported)
from .modes import OFFSET


@dataclass(frozen=True)
class Access:
    """One operand of one application, as the instruction touches it."""
    index: int  # the application's index
    role: str  # "dst" | "src" (or the family's own role names: wgmma's d, a, b)
    kind: str  # MEMORY | REGISTER | DESCRIPTOR
    view: object = field(repr=False)  # the check's View
    tensor: str = ""
    space: str = ""  # the tensor's state space ("register" for a register operand)
    mode: str = READ  # READ | WRITE | ATOMIC
    words: int = 1  # elements per atom (one thread's address)
    esize: int = 1  # bytes per element
    lanes: int = 0  # threads of a warp that give an address (0: every one)
    guarded: tuple[str, ...] = ()  # obligations stated of guarded-in atoms only (the guard: the atom is inside)
    guard: bool = False  # the access executes only where its atom is in bounds (the emitted guard)
    spec: Role = field(default=None, repr=False, compare=False)  # the role's declaration (its layouts)

    @property
    def memory(self) -> bool:
        return self.kind == MEMORY

    @property
    def reads(self) -> bool:
        """The instruction reads the operand (a read, or the read of a read-modify-write)."""
        return self.mode in (READ, ATOMIC)

    @property
    def writes(self) -> bool:
        return self.mode in (WRITE, ATOMIC)

    @property
    def bytes(self) -> int:
        """Bytes of one atom."""
        return self.words * self.esize

    @property
    def crosses(self) -> bool:
        """The atom crosses threads: a thread-value layout says who holds which element."""
        return self.spec is not None and self.spec.values is not None

    @property
    def holds(self):
        return self.spec.holds if self.crosses else None

    @property
    def origin(self):
        return self.spec.origin if self.crosses else None

    def start(self, group: list, lane, dom) -> tuple[list, object]:
        """(group, word) whose element the thread at ``group`` (lane ``lane``) gives the address of:
        its own word 0, or its row's origin (a thread-value layout)."""
        if not self.crosses:
            return group, 0
        g0, w0 = self.spec.origin([lane], dom)
        return list(g0), w0

    def offset(self, tensor, coords, dom):
        """The element offset of view coordinates ``(group, repeat, word)`` (``crd2idx``)."""
        return crd2idx.operand_value(tensor, self.view, coords, dom)[OFFSET]


def role_of(apply, view) -> Role:
    """The declared role (data: ``families.Role``) of the operand ``view`` of ``apply``."""
    return next(r for r in apply.family.roles(apply.opcode) if apply.operand(r.name) is view)


def guarded_role(apply) -> str | None:
    """The role whose accesses the guard predicates (``guard = true``: an atom executes only where it
    is in bounds), None when the application is not guarded."""
    return apply.family.guard_role(apply.opcode) if getattr(apply, "guard", False) else None


def restricted(apply, view) -> tuple[str, ...]:
    """The obligations stated of ``view``'s active (guarded-in) atoms only: empty unless it is guarded."""
    r = guarded_role(apply)
    return tuple(apply.family.guarded) if r is not None and getattr(apply, r) is view else ()


def build(check) -> dict[int, tuple[Access, ...]]:
    """Application index -> its accesses, in the family's role order (dst, src; every declared role)."""
    return {a.index: of(check, a) for a in check.applies}


def of(check, apply) -> tuple[Access, ...]:
    fam, op = apply.family, apply.opcode
    guarded = guarded_role(apply)
    out = []
    for r in fam.roles(op):
        view = apply.operand(r.name)  # a View, or a Descriptor (a DESCRIPTOR role: its tensor is the shared one)
        t = check.tensors.get(view.tensor)
        words = (r.words or op.vector) if r.kind == MEMORY else op.vector
        out.append(Access(apply.index, r.name, r.kind, view, view.tensor, t.scope if t else "", r.access, words,
                          t.esize if t else 1, r.lanes if r.kind == MEMORY else 0,
                          tuple(fam.guarded) if r.name == guarded else (), r.name == guarded, r))
    return tuple(out)


def memory(accesses) -> tuple[Access, ...]:
    return tuple(x for x in accesses if x.kind == MEMORY)


def of_view(accesses, view) -> Access:
    """The access whose operand is ``view`` (by identity)."""
    return next(x for x in accesses if x.view is view)


def guarded(accesses) -> Access | None:
    """The access the guard predicates (None: the application is not guarded)."""
    return next((x for x in accesses if x.guard), None)
