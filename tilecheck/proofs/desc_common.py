"""What the descriptor operands' obligations (``desc_*.py``) share: each ``[descriptors.NAME]`` an apply's
descriptor role names, as ``proofs/smem_descriptor.Declaration`` against the shared tensor it names, and
that module's obligation decided on it (its own bit-vector solver, ``smem_descriptor.decide``).

The model: every symbol an unsigned 64-bit bit-vector under its ``min``/``max``/``multiple_of`` (``assume``
is not read: a proof holds under fewer facts); a shared tensor's name its byte address, a multiple of its
``align`` whose tensor ends inside sm_90's 227 KB of shared memory per CTA (``SHARED_BYTES``).  The tile
is the instruction's (the role's ``tile``), the word format the family's ``descriptor_arch``."""
from __future__ import annotations

import ast

import numpy as np
import z3

from .. import crd2idx, smem_descriptor as sd
from ..expr import concrete
from ..families import DESCRIPTOR
from ..layout import OFFSET
from . import smem_descriptor as obligations
from .runner import Violation, static

TIMEOUT_S = 10.0  # per descriptor and obligation, where the query carries no timeout (a Query made outside the runner)
SHARED_BYTES = 227 * 1024  # the most shared memory a CTA may have on sm_90 (cudaFuncSetAttribute's limit)
NAMES = {"desc_encoding": "descriptor-encoding", "desc_base": "descriptor-base", "desc_layout": "descriptor-layout",
         "desc_k_advance": "descriptor-k-advance"}
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.FloorDiv: z3.UDiv, ast.Mod: z3.URem, ast.LShift: lambda a, b: a << b, ast.RShift: z3.LShR,
        ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b}


def operands(q) -> list:
    """(access, Descriptor) of each descriptor role of the apply, in role order."""
    return [(x, x.view) for x in q.check.accesses_of(q.apply) if x.kind == DESCRIPTOR]


def term(x, env: dict):
    """A descriptor field (an int or an expression's text) as an int or a Z3 64-bit term."""
    if x is None or isinstance(x, int):
        return x

    def walk(node):
        if isinstance(node, ast.Constant):
            return z3.BitVecVal(node.value, 64)
        if isinstance(node, ast.Name):
            return env[node.id]
        return _OPS[type(node.op)](walk(node.left), walk(node.right))
    out = z3.simplify(walk(ast.parse(x, mode="eval").body))
    return out.as_long() if z3.is_bv_value(out) else out


def footprint(t) -> int:
    """Bytes from the tensor's base to the end of its last element."""
    index = [a.reshape(-1) for a in np.indices(tuple(concrete(s) for s in t.shape), dtype=np.int64)]
    return t.esize * (int(np.max(crd2idx.layout_value(t.layout, index, crd2idx.Ints({}), t.offset)[OFFSET])) + 1)


def declaration(q, access, d) -> obligations.Declaration:
    check = q.check
    used = set().union(*d.names().values())
    env, facts = {}, []
    for n in sorted(used):
        x = env[n] = z3.BitVec(n, 64)
        s = check.symbols.get(n)
        if s is not None:
            facts += [z3.UGE(x, max(s.min, 0)), z3.ULE(x, s.max)] + ([z3.URem(x, s.multiple_of) == 0]
                                                                     if s.multiple_of > 1 else [])
    t = check.tensors[d.tensor]
    address = env.get(t.name, z3.BitVec(t.name, 64))
    facts += [z3.URem(address, t.align) == 0, z3.ULE(address, SHARED_BYTES - footprint(t))]
    for n in sorted(used - set(check.symbols)):  # the other shared tensors named: their addresses
        other = check.tensors[n]
        facts += [z3.URem(env[n], other.align) == 0, z3.ULE(env[n], SHARED_BYTES - footprint(other))]
    fields = sd.Fields(*(term(getattr(d, k), env) for k in ("start", "lbo", "sbo", "base_offset")), d.swizzle,
                       q.apply.family.descriptor_arch)
    operand = obligations.Operand(t.layout, t.bits, address, concrete(t.offset), t.name)
    return obligations.Declaration(d.name, operand, d.major, fields, access.spec.tile, term(d.word, env),
                                   tuple(term(a, env) for a in d.advance), tuple(facts))


def decide(q, name: str, precondition=None) -> Violation:
    """``proofs/smem_descriptor``'s obligation ``NAMES[name]`` of every descriptor operand: the first
    refutation (or unknown), each message naming the operand and its descriptor; skipped when it is
    skipped for every one.  ``precondition(access, descriptor)``: a refutation stated without the solver."""
    skipped = []
    for access, d in operands(q):
        who = f"operand {access.role.upper()} (descriptor {d.name})"
        problem = precondition(access, d) if precondition is not None else None
        if problem is not None:
            return static(False, f"{who}: {problem}", {"operand": access.role, "descriptor": d.name})
        (o,) = obligations.decide(declaration(q, access, d), [NAMES[name]], getattr(q, "timeout_s", TIMEOUT_S))
        text = (o.message or "").split(" refuted: ", 1)[-1].split(" unknown: ", 1)[-1]
        if o.status == "refuted":
            cex = dict(o.counterexample or {})
            names = cex.pop("symbols", {})  # the check's symbols, and the shared tensors' addresses apart
            symbols = {n: v for n, v in names.items() if n in q.check.symbols}
            addresses = {n: v for n, v in names.items() if n not in q.check.symbols}
            return static(False, f"{who}: {text}", {"operand": access.role, **cex, "symbols": symbols,
                                                    **({"addresses": addresses} if addresses else {})})
        if o.status == "unknown":
            return Violation(z3.BoolVal(False), lambda w: None, unknown=f"{name} unknown: {who}: {text}")
        if o.status == "skipped":
            skipped.append(f"{who}: {text}")
    if skipped and len(skipped) == len(operands(q)):
        return Violation(z3.BoolVal(False), lambda w: None, skipped=f"{name} skipped: {'; '.join(skipped)}")
    return static(True, "")
