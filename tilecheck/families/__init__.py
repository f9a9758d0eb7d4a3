"""Instruction families: one declaration each (``ldst.py``, ...), found by their file.

A family declares its contract on top of the one operand model (``encode.py``): which operand
role is memory and which registers (per instruction), the state spaces each may live in, the
issuing group, who holds which element of one instruction's atom, the atom's size, the
``[[apply]]`` keys it takes, the obligations that apply (``proofs/registry.py`` names them), its
PTX spelling rules and the emit hook.  Everything else (the check model, the proofs, the
emitter, the numpy reference) reads the declaration; adding a family is a new file here.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

MEMORY, REGISTER = "memory", "register"


@dataclass(frozen=True)
class Role:
    """One operand of an instruction: ``dst`` or ``src``, memory or registers, and where it may live.

    A memory role's atom is the run of ``words`` contiguous elements one thread gives the address
    of.  ``holds(group, word, dom) -> (group', position)``: the thread whose atom holds the element
    at view coordinates ``(group, word)`` and its position in that atom; ``origin(group', dom) ->
    (group, word)``: the coordinates of position 0 of thread ``group'``'s atom (``dom`` is a
    ``crd2idx`` domain: ints or polynomials).  The defaults (None) are ld/st's: the issuing thread
    holds its whole vector, ``(group, word) -> (group, word)``, ``words`` = the opcode's vector.
    ldmatrix's rows cross lanes (``families/ldmatrix.py``)."""
    name: str
    kind: str  # MEMORY | REGISTER
    spaces: tuple[str, ...]
    holds: Callable | None = None
    origin: Callable | None = None
    words: int = 0  # elements per atom (0: the opcode's vector)
    lanes: int = 0  # lanes of a warp that give an address (0: every lane; ldmatrix .x1: 8)


class Family:
    """The base declaration; a family module defines one subclass instance named ``FAMILY``."""
    name = ""
    instructions: tuple[str, ...] = ()  # the PTX instruction names it parses ("ld", "st")
    groups = ("thread", "warp", "cta")  # issuing groups (scopes); warpgroup has room here
    keys: dict[str, object] = {}  # [[apply]] keys beyond opcode/scope/dst/src, with defaults
    obligations: tuple[str, ...] = ()  # names in proofs/registry.py that apply
    verbs = ("reads", "writes")  # how a message says the memory operand is read / written
    updates_memory = False  # a write reads the old value too (read-modify-write): memory is an input

    def roles(self, op) -> tuple[Role, Role]:
        """(dst, src) of an instruction ``op``."""
        raise NotImplementedError

    def memory_role(self, op) -> str:
        return next(r.name for r in self.roles(op) if r.kind == MEMORY)

    def role(self, op, name: str) -> Role:
        return next(r for r in self.roles(op) if r.name == name)

    def memory_roles(self, op) -> tuple[str, ...]:
        """Every memory operand's role (cp.async has two); the per-operand obligations iterate it."""
        return tuple(r.name for r in self.roles(op) if r.kind == MEMORY)

    # ``guard = true`` (proofs/guard.py): the operand whose atoms are guarded, and the per-atom
    # obligations stated on that operand's guarded-in atoms only (the rest hold for every atom)
    guarded: tuple[str, ...] = ()

    def guard_role(self, op) -> str:
        return self.memory_role(op)

    def bind(self, op, spec, tensors, views):
        """The opcode as the ``[[apply]]`` table completes it (cp.async: its cp_size); InputError."""
        return op

    def atom(self, op) -> int:
        """Words per thread and instruction (the view's last axis)."""
        return op.vector

    def parse(self, text: str):
        raise NotImplementedError

    def legality(self, op, arch) -> str | None:
        raise NotImplementedError

    # the family's version table: rows (name, present(op), ..., lowest .version); ``ptx_version`` is
    # the maximum of the target's minimum and every present row's (``opcodes.needs``)
    versions: tuple = ()

    def ptx_version(self, op, arch) -> tuple[int, int]:
        raise NotImplementedError

    def operand_problem(self, apply) -> str | None:
        """The ``operands`` obligation: the family's own keys agree with the opcode."""
        return None

    def operand_facts(self, apply) -> dict:
        return {k: getattr(apply, k) for k in self.keys}

    # True when ``instruction`` only places ``regs`` and ``addr`` in its text, each once and
    # verbatim: the emitter then spells one row and fills in the rest (fast for 10^5 repeats)
    verbatim = False

    packs = False  # the emit hook takes ``packed``: the register tile holds 32-bit pairs of 16-bit words

    def instruction(self, apply, regs: str, addr: str, pred: str, policy: str) -> str:
        """The emit hook: one instruction's text (a tab, the line, no newline)."""
        raise NotImplementedError

    def reference(self, apply, memory, off, threads, values):
        """The numpy reference of ``apply`` writing ``values`` at element offsets ``off`` of ``memory``
        (``gpu/reference.py``'s ``_Memory``; ``threads``: (replicas, coordinates) thread ids)."""
        memory.scatter(off, threads, values)

    def inputs(self, apply, tensor, n: int, rng):
        """The reference's input values for a tensor this family uses (None: random bits)."""
        return None


FAMILIES: dict[str, Family] = {}  # instruction name -> family


def _discover():
    for info in pkgutil.iter_modules(__path__):
        fam = getattr(importlib.import_module(f"{__name__}.{info.name}"), "FAMILY", None)
        if fam is not None:
            for ins in fam.instructions:
                FAMILIES[ins] = fam


_discover()


def of(op) -> Family:
    """The family of a parsed opcode."""
    return FAMILIES[op.kind]


def parse(text: str):
    """Parse an opcode spelling with its family's rules; ValueError (one line) if none takes it."""
    from ..opcodes import OpcodeError
    kind = text.strip().split(".")[0]
    kind = next((k for k in FAMILIES if "." in k and text.strip().startswith(k + ".")), kind)
    if kind not in FAMILIES:
        names = sorted(FAMILIES, key=lambda k: (k not in ("ld", "st"), k))
        expected = " or ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
        raise OpcodeError(f"unknown instruction '{kind}' in {text!r}: expected {expected}")
    return FAMILIES[kind].parse(text)
