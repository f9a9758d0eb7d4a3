"""ld / st: one thread moves its whole vector between memory and its registers.

A load's source is memory and its destination registers; a store the other way round.  The
issuing thread supplies the address of and holds every word of its atom (``.v2``/``.v4``/``.v8``
words, 1 for a scalar), so the contract is: the atom's memory words are contiguous and aligned,
every register word belongs to the issuing thread, and nothing is written twice.  Spelling and
legality per target are ``opcodes.py``'s (a ptxas sweep, ``tests/test_target_sweep.py``).
"""
from .. import opcodes
from ..errors import InputError
from . import MEMORY, READ, REGISTER, WRITE, Family, Role

SPACES = ("global", "shared", "local")


class LdSt(Family):
    name = "ld/st"
    instructions = ("ld", "st")
    keys = {"pred": False, "preserve_dst": False, "cache_policy": False, "guard": False}
    # a guarded-out ld/st does not execute: nothing of its memory atom is needed
    guarded = ("contiguity", "alignment", "bounds", "overflow", "disjoint")
    obligations = ("target", "space", "shape", "width", "operands", "guard", "contiguity", "alignment", "ownership",
                   "disjoint", "bounds", "overflow", "registers", "banks", "sectors")  # every one (proofs/registry.py)

    def roles(self, op):
        if op.kind == "ld":
            return Role("dst", REGISTER, ("register",), WRITE), Role("src", MEMORY, SPACES, READ, guard=True)
        return Role("dst", MEMORY, SPACES, WRITE, guard=True), Role("src", REGISTER, ("register",), READ)

    parse = staticmethod(opcodes.parse)
    legality = staticmethod(opcodes.legality)
    ptx_version = staticmethod(opcodes.ptx_version)
    versions = opcodes.FEATURES

    def operand_problem(self, a):
        op = a.opcode
        if a.cache_policy and not op.cache_hint:
            return f"cache_policy is given but {op.text} has no .L2::cache_hint"
        if op.cache_hint and not a.cache_policy:
            return f"{op.text} has .L2::cache_hint and needs cache_policy = true"
        if a.preserve_dst and not ((a.pred or a.guard) and a.is_load):
            return "preserve_dst needs a predicated or guarded load (pred = true or guard = true on an ld)"
        return None

    def operand_facts(self, a):
        return {"cache_policy": a.cache_policy, "cache_hint": a.opcode.cache_hint,
                "pred": a.pred, "preserve_dst": a.preserve_dst, "guard": a.guard}

    def keeps_registers(self, a):
        return a.preserve_dst

    def zeroes(self, a):
        return a.is_load and not a.preserve_dst

    def uses(self, a):
        return ("predicate",) * a.pred + ("policy",) * a.cache_policy

    def read_only(self, op):
        """``ld.global.nc``: the non-coherent path (a store's ``.nc`` is illegal: ``target``'s)."""
        return "nc" in op.qualifiers

    def bind(self, op, spec, tensors, views):
        if spec.get("guard") is True and spec.get("pred") is True:
            raise InputError("guard = true and pred = true exclude each other (the guard is the predicate)", "guard")
        return op

    verbatim = True

    def instruction(self, a, regs, addr, pred, policy):
        """``pred``: the .pred register (``%p``, or with ``guard`` this atom's guard; None: unguarded)."""
        head = f"\t@{pred} {a.opcode.text} " if (a.pred or a.guard) and pred else f"\t{a.opcode.text} "
        tail = f", {policy};" if a.cache_policy else ";"
        return f"{head}{regs}, {addr}{tail}" if a.is_load else f"{head}{addr}, {regs}{tail}"


FAMILY = LdSt()
