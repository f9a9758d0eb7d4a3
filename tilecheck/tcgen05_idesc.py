"""tcgen05's instruction descriptor (the 32-bit ``idesc`` of ``tcgen05.mma .kind::{f16,tf32,f8f6f4,i8}``).

The model only: the bit fields, packing and unpacking for Python ints and Z3 bit-vectors alike (so
the round trip is proved for every field value), ``encode`` from an instruction's meaning (``Idesc``)
and ``decode`` back, and ``problems``: every rule the ISA states on the fields, as (field, message)
pairs.  The obligations (``proofs/tcgen05_idesc.py``) state the same rules as Z3 formulas.

Sources (held to in ``tests/test_tcgen05_idesc.py``):

- PTX ISA 9.0, tcgen05 "Instruction descriptor", Table 42 (``.kind::tf32``, ``.kind::f16``,
  ``.kind::f8f6f4``, ``.kind::i8``): bits 0-1 sparsity selector, 2 sparsity, 3 saturate (i8 only),
  4-5 D type, 6 reserved, 7-9 A type, 10-12 B type, 13/14 negate A/B (not i8), 15/16 transpose A/B,
  17-22 ``N >> 3``, 23 reserved, 24-28 ``M >> 4``, 29 reserved, 30-31 the maximum shift of ``.ws``'s
  B reuse.  Type codes per kind: tf32 D F32 = 1, A/B TF32 = 2; f16 D F16 = 0 / F32 = 1, A/B F16 = 0 /
  BF16 = 1; f8f6f4 D F16 = 0 / F32 = 1, A/B E4M3 = 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5; i8 D
  S32 = 2, A/B U8 = 0, S8 = 1.  "For .kind::tf32, the transpose operations on matrices A and B are
  supported only with 128B swizzling mode with 32B swizzle-atomicity."
- PTX ISA 9.0, tcgen05 "Matrix Shape", Table 39 (no ``.ws``): cta_group::1, M = 64 or 128 and N a
  multiple of 8 in [8, 256]; cta_group::2, M = 128 or 256 and N a multiple of 16 in [16, 256] (kinds
  f16, tf32, f8f6f4); .f16 D only with .f16 A/B.
- CUTLASS ``cute/arch/mma_sm100_desc.hpp`` (``UMMA::InstrDescriptor``, ``make_instr_desc``): the same
  bits; a transposed (MN-major) operand "only valid for E4M3, E5M2, INT8 (signed and unsigned), F16,
  BF16 and TF32"; ``cute/arch/mma_sm100_umma.hpp``: kind::i8's N is 8 or a multiple of 16 in [16, 256]
  (cta_group::1, ``SM100_MMA_S8_SS``), a multiple of 32 in [32, 256] (cta_group::2).

tilecheck spells no ``.ws`` and no ``.sp`` form, so it requires the maximum shift 0 and, when the
descriptor says dense, the sparsity selector 0 (CUTLASS asserts the same); a sparse descriptor is
legal by the table but is not read by any spelling here.
"""
from __future__ import annotations

from dataclasses import dataclass

import z3

KINDS = ("f16", "tf32", "f8f6f4", "i8")
CTA_GROUPS = (1, 2)

# (name, first bit, width); bits 6, 23, 29 are reserved 0
BITS = (("sparse_id2", 0, 2), ("sparse", 2, 1), ("saturate", 3, 1), ("d_format", 4, 2), ("a_format", 7, 3),
        ("b_format", 10, 3), ("a_negate", 13, 1), ("b_negate", 14, 1), ("a_major", 15, 1), ("b_major", 16, 1),
        ("n_dim", 17, 6), ("m_dim", 24, 5), ("max_shift", 30, 2))
WIDTHS = {n: w for n, _, w in BITS}
RESERVED_MASK = ~sum(((1 << w) - 1) << lo for _, lo, w in BITS) & 0xFFFFFFFF  # bits 6, 23, 29

# the type codes of each kind (PTX Table 42)
D_FORMATS = {"f16": {"f16": 0, "f32": 1}, "tf32": {"f32": 1}, "f8f6f4": {"f16": 0, "f32": 1}, "i8": {"s32": 2}}
AB_FORMATS = {"f16": {"f16": 0, "bf16": 1}, "tf32": {"tf32": 2},
              "f8f6f4": {"e4m3": 0, "e5m2": 1, "e2m3": 3, "e3m2": 4, "e2m1": 5}, "i8": {"u8": 0, "s8": 1}}
TRANSPOSABLE = {"f16", "bf16", "tf32", "e4m3", "e5m2", "u8", "s8"}  # CUTLASS: MN-major only for these
MAJORS = ("K", "MN")


def _z3(x) -> bool:
    return hasattr(x, "sort") and not isinstance(x, int)


def pack_raw(raw: dict):
    """The 32-bit word holding raw field values (name -> value; missing fields 0).  Each value is masked
    to its width, as a C bit-field assignment does (a too-wide value is the obligations' to refute).
    Ints give an int; a Z3 term gives a 32-bit term."""
    unknown = set(raw) - set(WIDTHS)
    if unknown:
        raise ValueError(f"instruction descriptor fields {sorted(unknown)} are unknown (fields: {', '.join(WIDTHS)})")
    zterm = any(_z3(v) for v in raw.values())
    word = z3.BitVecVal(0, 32) if zterm else 0
    for name, lo, width in BITS:
        v = raw.get(name, 0)
        if zterm:
            v = _bv32(v)
        word = word | ((v & ((1 << width) - 1)) << lo)
    return word


def unpack_raw(word) -> dict:
    """The raw field values of a 32-bit word (an int, or a 32-bit Z3 term)."""
    if _z3(word):
        return {name: z3.LShR(word, lo) & ((1 << width) - 1) for name, lo, width in BITS}
    return {name: (word >> lo) & ((1 << width) - 1) for name, lo, width in BITS}


def _bv32(v):
    if not _z3(v):
        return z3.BitVecVal(v, 32)
    size = v.size()
    return z3.ZeroExt(32 - size, v) if size < 32 else (z3.Extract(31, 0, v) if size > 32 else v)


@dataclass(frozen=True)
class Idesc:
    """What an instruction descriptor means: the kind (not in the word: the instruction's
    ``.kind::``), M and N, the D/A/B types by name, the operands' major-ness (``"K"``, or ``"MN"``:
    transposed), negation, saturation, sparsity and the ``.ws`` maximum shift code."""
    kind: str
    m: int
    n: int
    d: str
    a: str
    b: str
    a_major: str = "K"
    b_major: str = "K"
    a_negate: int = 0
    b_negate: int = 0
    saturate: int = 0
    sparse: int = 0
    sparse_id2: int = 0
    max_shift: int = 0

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind {self.kind!r}: tcgen05.mma kinds with this descriptor are {', '.join(KINDS)}")
        if self.d not in D_FORMATS[self.kind]:
            raise ValueError(f"D type {self.d!r}: kind::{self.kind} takes {', '.join(D_FORMATS[self.kind])}")
        for which, t in (("A", self.a), ("B", self.b)):
            if t not in AB_FORMATS[self.kind]:
                raise ValueError(f"{which} type {t!r}: kind::{self.kind} takes {', '.join(AB_FORMATS[self.kind])}")
        for which, mj in (("A", self.a_major), ("B", self.b_major)):
            if mj not in MAJORS:
                raise ValueError(f"{which} major {mj!r}: 'K' or 'MN'")

    def raw(self) -> dict:
        """The raw fields of the word that encodes this meaning (``n_dim = N >> 3``, ``m_dim = M >> 4``)."""
        return {"sparse_id2": self.sparse_id2, "sparse": self.sparse, "saturate": self.saturate,
                "d_format": D_FORMATS[self.kind][self.d], "a_format": AB_FORMATS[self.kind][self.a],
                "b_format": AB_FORMATS[self.kind][self.b], "a_negate": self.a_negate, "b_negate": self.b_negate,
                "a_major": MAJORS.index(self.a_major), "b_major": MAJORS.index(self.b_major),
                "n_dim": self.n >> 3, "m_dim": self.m >> 4, "max_shift": self.max_shift}


def encode(idesc: Idesc) -> int:
    """The 32-bit word of an instruction descriptor (exact when ``problems`` finds none)."""
    return pack_raw(idesc.raw())


def decode(word: int, kind: str) -> Idesc:
    """The meaning of a concrete word for ``kind``; a type code the kind does not have, or a reserved
    bit set, is a ValueError naming the field."""
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: one of {', '.join(KINDS)}")
    if not 0 <= word < 1 << 32:
        raise ValueError(f"instruction descriptor {word:#x} is not a 32-bit word")
    if word & RESERVED_MASK:
        raise ValueError(f"instruction descriptor {word:#010x}: reserved bits {word & RESERVED_MASK:#010x} are set")
    r = unpack_raw(word)
    names = {}
    for field, table in (("d_format", D_FORMATS[kind]), ("a_format", AB_FORMATS[kind]), ("b_format", AB_FORMATS[kind])):
        back = {c: n for n, c in table.items()}
        if r[field] not in back:
            raise ValueError(f"instruction descriptor {word:#010x}: {field} {r[field]} is no kind::{kind} type "
                             f"({', '.join(f'{n} = {c}' for n, c in table.items())})")
        names[field] = back[r[field]]
    return Idesc(kind, r["m_dim"] << 4, r["n_dim"] << 3, names["d_format"], names["a_format"], names["b_format"],
                 MAJORS[r["a_major"]], MAJORS[r["b_major"]], r["a_negate"], r["b_negate"], r["saturate"],
                 r["sparse"], r["sparse_id2"], r["max_shift"])


def shape_rule(kind: str, cta_group: int, m: int) -> tuple[int, int] | None:
    """``(step, low)``: N must be a multiple of ``step`` in [``low``, 256] for this kind, cta_group and
    M; None when M is no M of the cta_group.  kind::i8 with cta_group::1 takes N = 8 too (see
    ``shape_problem``)."""
    ms = {1: (64, 128), 2: (128, 256)}[cta_group]
    if m not in ms:
        return None
    if kind == "i8":
        return (16, 16) if cta_group == 1 else (32, 32)
    return (8, 8) if cta_group == 1 else (16, 16)


def shape_problem(kind: str, m: int, n: int, cta_group: int = 1) -> str | None:
    """None when ``M x N`` is a dense shape of ``tcgen05.mma.cta_group::{cta_group}.kind::{kind}``
    without ``.ws`` (PTX Table 39; CUTLASS for kind::i8), else the reason."""
    if cta_group not in CTA_GROUPS:
        raise ValueError(f"cta_group {cta_group}: 1 or 2")
    rule = shape_rule(kind, cta_group, m)
    if rule is None:
        ms = {1: "64 or 128", 2: "128 or 256"}[cta_group]
        return f"M = {m} is no tcgen05.mma.cta_group::{cta_group} M ({ms})"
    step, low = rule
    if kind == "i8" and cta_group == 1 and n == 8:
        return None
    if not (low <= n <= 256 and n % step == 0):
        extra = " (or 8)" if kind == "i8" and cta_group == 1 else ""
        return (f"N = {n} with M = {m}: kind::{kind} cta_group::{cta_group} needs N a multiple of {step} "
                f"in [{low}, 256]{extra}")
    return None


def problems(word: int, kind: str, cta_group: int = 1, m: int | None = None, n: int | None = None) -> list:
    """Every rule a concrete word breaks for ``kind`` and ``cta_group``, as ``(field, message)`` pairs
    in bit order (empty: the word is a legal instruction descriptor).  ``m``, ``n``: the intended
    shape, when the code meant one (then the word must encode exactly it)."""
    out = []
    if word & RESERVED_MASK:
        out.append(("reserved", f"reserved bits {word & RESERVED_MASK:#010x} are set (bits 6, 23 and 29 are 0)"))
    r = unpack_raw(word & 0xFFFFFFFF)
    if not r["sparse"] and r["sparse_id2"]:
        out.append(("sparse_id2", f"sparsity selector {r['sparse_id2']} in a dense descriptor (sparsity 0): write 0"))
    if r["saturate"] and kind != "i8":
        out.append(("saturate", f"saturate is for kind::i8 only, kind::{kind} takes 0"))
    for field, table in (("d_format", D_FORMATS[kind]), ("a_format", AB_FORMATS[kind]), ("b_format", AB_FORMATS[kind])):
        if r[field] not in table.values():
            out.append((field, f"{field} {r[field]} is no kind::{kind} type "
                               f"({', '.join(f'{n} = {c}' for n, c in table.items())})"))
    back = {c: n for n, c in AB_FORMATS[kind].items()}
    a, b = back.get(r["a_format"]), back.get(r["b_format"])
    if kind == "f16" and r["d_format"] == D_FORMATS["f16"]["f16"] and "bf16" in (a, b):
        out.append(("d_format", "a .f16 D takes .f16 A and B only (PTX Table 39): bf16 accumulates in f32"))
    if kind == "i8":
        for field in ("a_negate", "b_negate"):
            if r[field]:
                out.append((field, f"{field} is 0 for kind::i8 (no negation of integers)"))
    for field, t in (("a_major", a), ("b_major", b)):
        if r[field] and t is not None and t not in TRANSPOSABLE:
            out.append((field, f"{field} 1 (MN-major, transposed) with {t}: a transposed operand is E4M3, E5M2, "
                               f"INT8, F16, BF16 or TF32 only"))
    mm, nn = r["m_dim"] << 4, r["n_dim"] << 3
    why = shape_problem(kind, mm, nn, cta_group)
    if why is not None:
        field = "m_dim" if shape_rule(kind, cta_group, mm) is None else "n_dim"
        out.append((field, f"{why} (m_dim = {r['m_dim']}, n_dim = {r['n_dim']})"))
    if m is not None and (m & 15 or m >> 4 != r["m_dim"]):
        out.append(("m_dim", f"m_dim holds {r['m_dim']} (M = {mm}), the intended M = {m} encodes as "
                             f"{m >> 4 if m & 15 == 0 else 'nothing: M is no multiple of 16'}"))
    if n is not None and (n & 7 or n >> 3 != r["n_dim"]):
        out.append(("n_dim", f"n_dim holds {r['n_dim']} (N = {nn}), the intended N = {n} encodes as "
                             f"{n >> 3 if n & 7 == 0 else 'nothing: N is no multiple of 8'}"))
    if r["max_shift"]:
        out.append(("max_shift", f"max_shift {r['max_shift']}: the .ws B-reuse shift; tilecheck spells no .ws form, "
                                 f"write 0"))
    return out
