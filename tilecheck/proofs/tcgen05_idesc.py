"""tcgen05's instruction descriptor obligations (issue 31 item 6): the 32-bit ``idesc`` a
``tcgen05.mma .kind::{f16,tf32,f8f6f4,i8}`` reads is legal for its kind and cta_group and encodes the
intended M and N.

Each obligation is a pure function from an ``Instruction`` (the word as the code builds it, possibly
a Z3 term over symbols, the kind, the cta_group, the intended M and N) to a ``Violation`` of
``proofs/smem_descriptor.py``: a Z3 formula satisfiable exactly when it fails.  A model is replayed on
the model's own rules (``tilecheck.tcgen05_idesc.problems``, plain Python, a second statement of the
ISA's tables): the refutation is that replay's message, naming the field; a witness the replay does
not confirm is unknown, never a proof.  ``decide`` runs the three; ``OBLIGATIONS`` is their registry.
"""
from __future__ import annotations

from dataclasses import dataclass

import z3

from .. import tcgen05_idesc as td
from . import smem_descriptor as base
from .smem_descriptor import Record, Violation


@dataclass(frozen=True)
class Instruction:
    """One instruction descriptor as the code builds it: ``word`` an int or a Z3 bit-vector (at most
    64 bits: its low 32 are the word), ``m``/``n`` the intended shape (ints, Z3 terms, or None when the
    code means none in particular), ``assume`` Z3 facts on the symbols."""
    name: str
    kind: str
    word: object
    cta_group: int = 1
    m: object = None
    n: object = None
    assume: tuple = ()


def _w32(x):
    if isinstance(x, int):
        return z3.BitVecVal(x & 0xFFFFFFFF, 32)
    return td._bv32(x)


def _bv64(x):
    return base._bv(x)


def _raw(ins: Instruction) -> dict:
    return td.unpack_raw(_w32(ins.word))


def _violation(ins: Instruction, fields: tuple, failures) -> Violation:
    """A violation whose formula is the disjunction of ``failures`` (Z3 formulas) and whose witness is
    replayed on ``td.problems``: the first problem on one of ``fields`` is the refutation."""
    formula = z3.And(*ins.assume, z3.Or(failures) if failures else z3.BoolVal(False))

    def explain(env):
        word = base._concrete(_bv64(ins.word) if not isinstance(ins.word, int) else ins.word, env) & 0xFFFFFFFF
        m = None if ins.m is None else base._concrete(ins.m, env)
        n = None if ins.n is None else base._concrete(ins.n, env)
        for field, message in td.problems(word, ins.kind, ins.cta_group, m, n):
            if field in fields:
                syms = {k: v for k, (v, _) in env.items()}
                return (f"{ins.name} (kind::{ins.kind}, cta_group::{ins.cta_group}, word {word:#010x}): {message}",
                        {"instruction": ins.name, "field": field, "word": word, "symbols": syms})
        return None
    return Violation(formula, explain)


def fields(ins: Instruction) -> Violation:
    """Reserved bits 6, 23, 29 are 0; the sparsity selector is 0 in a dense descriptor; saturate only for
    kind::i8; no negation for kind::i8; the ``.ws`` maximum shift 0 (tilecheck spells no ``.ws``)."""
    w = _w32(ins.word)
    r = td.unpack_raw(w)
    fails = [w & td.RESERVED_MASK != 0, z3.And(r["sparse"] == 0, r["sparse_id2"] != 0), r["max_shift"] != 0]
    if ins.kind != "i8":
        fails.append(r["saturate"] != 0)
    else:
        fails += [r["a_negate"] != 0, r["b_negate"] != 0]
    return _violation(ins, ("reserved", "sparse_id2", "saturate", "a_negate", "b_negate", "max_shift"), fails)


def formats(ins: Instruction) -> Violation:
    """D, A and B are types of the kind (PTX Table 42); a .f16 D takes .f16 A and B (Table 39); a
    transposed (MN-major) operand is of a transposable type (CUTLASS: E4M3, E5M2, INT8, F16, BF16, TF32)."""
    r = _raw(ins)
    k = ins.kind
    fails = []
    for field, table in (("d_format", td.D_FORMATS[k]), ("a_format", td.AB_FORMATS[k]), ("b_format", td.AB_FORMATS[k])):
        fails.append(z3.And([r[field] != c for c in table.values()]))
    if k == "f16":
        bf = td.AB_FORMATS["f16"]["bf16"]
        fails.append(z3.And(r["d_format"] == td.D_FORMATS["f16"]["f16"], z3.Or(r["a_format"] == bf, r["b_format"] == bf)))
    odd = [c for t, c in td.AB_FORMATS[k].items() if t not in td.TRANSPOSABLE]
    for major, fmt in (("a_major", "a_format"), ("b_major", "b_format")):
        if odd:
            fails.append(z3.And(r[major] != 0, z3.Or([r[fmt] == c for c in odd])))
    return _violation(ins, ("d_format", "a_format", "b_format", "a_major", "b_major"), fails)


def shape(ins: Instruction) -> Violation:
    """M and N are a dense shape of the kind and cta_group (PTX Table 39; CUTLASS for kind::i8), and the
    word's ``m_dim``/``n_dim`` are exactly the intended ``M >> 4`` and ``N >> 3`` (M a multiple of 16,
    N of 8: nothing dropped by the shift, nothing overflowing the 5- and 6-bit fields)."""
    r = _raw(ins)
    m, n = r["m_dim"] << 4, r["n_dim"] << 3  # 32-bit terms: the fields are 5 and 6 bits wide
    legal = []
    for mm in {1: (64, 128), 2: (128, 256)}[ins.cta_group]:
        step, low = td.shape_rule(ins.kind, ins.cta_group, mm)
        ok_n = z3.And(z3.URem(n, step) == 0, z3.UGE(n, low), z3.ULE(n, 256))
        if ins.kind == "i8" and ins.cta_group == 1:
            ok_n = z3.Or(ok_n, n == 8)
        legal.append(z3.And(m == mm, ok_n))
    fails = [z3.Not(z3.Or(legal))]
    for want, got, unit in ((ins.m, r["m_dim"], 4), (ins.n, r["n_dim"], 3)):
        if want is None:
            continue
        w = _bv64(want)
        fails.append(z3.Or(w & ((1 << unit) - 1) != 0, z3.ZeroExt(32, got) != z3.LShR(w, unit)))
    return _violation(ins, ("m_dim", "n_dim"), fails)


OBLIGATIONS: dict[str, Record] = {r.name: r for r in (
    Record("idesc-fields", fields,
           "reserved bits 0, the sparsity selector 0 when dense, saturate and no negation only as kind::i8 allows, "
           "the .ws maximum shift 0"),
    Record("idesc-formats", formats,
           "the D, A and B type codes are the kind's, a .f16 D with .f16 A and B, a transposed operand of a "
           "transposable type"),
    Record("idesc-shape", shape,
           "M and N are a dense shape of the kind and cta_group, encoded exactly as M >> 4 and N >> 3"),
)}


def decide(ins: Instruction, names=None, timeout_s: float = 10.0) -> list:
    """Decide the instruction descriptor obligations of ``ins`` (all, or ``names``)."""
    return [base._decide_one(name, OBLIGATIONS[name].function(ins), timeout_s) for name in names or OBLIGATIONS]
