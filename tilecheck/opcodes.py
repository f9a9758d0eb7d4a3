"""The PTX ``ld``/``st`` contract: parse an opcode spelling and judge it for a target.

Sources: PTX ISA 9.0, sections "Data Movement and Conversion Instructions: ld, ld.global.nc,
st"; every rule below was then checked against ptxas 13.0 (``.version 9.0``), which is the
arbiter: ``legality(op, arch) is None`` exactly when ptxas accepts a module holding that one
instruction, with one deliberate exception (``.v8`` of 8/16-bit types, see ``_RULES``).
``tests/test_target_sweep.py`` re-checks the table against ptxas on every run.

ptxas does not care about qualifier order (``ld.b32.global`` assembles), so neither do we:
an opcode is judged as the set of its qualifiers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple


class OpcodeError(ValueError):
    """Bad input (unknown token, missing type, junk target). The message is one line."""


class ArchError(OpcodeError):
    """A target name that is not one ptxas 13.0 knows."""


# ---------------------------------------------------------------------------------------
# Vocabulary: every token that may follow ``ld``/``st``, by group.  A token outside this
# table is a parse error; a token inside it is judged by ``legality``.
# ---------------------------------------------------------------------------------------
LDST_TYPES = {"b8": 8, "b16": 16, "b32": 32, "b64": 64, "b128": 128,
              "u8": 8, "u16": 16, "u32": 32, "u64": 64,
              "s8": 8, "s16": 16, "s32": 32, "s64": 64, "f32": 32, "f64": 64}
# Real PTX types that ld/st do not take (load .f16 data with .b16, .f16x2 with .b32).
OTHER_TYPES = {"f16": 16, "bf16": 16, "f16x2": 32, "bf16x2": 32, "u16x2": 32, "s16x2": 32,
               "tf32": 32, "e4m3": 8, "e5m2": 8, "e4m3x2": 16, "e5m2x2": 16}
TYPES = {**LDST_TYPES, **OTHER_TYPES}

GROUPS = {  # group -> tokens; at most one token of each group per opcode
    "space": ("global", "shared", "shared::cta", "shared::cluster", "local", "const",
              "param", "param::entry", "param::func"),
    "sem": ("weak", "volatile", "relaxed", "acquire", "release"),   # memory order
    "mmio": ("mmio",),                                             # with .relaxed.sys
    "scope": ("cta", "cluster", "gpu", "sys"),
    "nc": ("nc",),                                                 # ld.global.nc only
    "cop": ("ca", "cg", "cs", "lu", "cv", "wb", "wt"),             # cache operators
    "L1": ("L1::evict_normal", "L1::evict_unchanged", "L1::evict_first",
           "L1::evict_last", "L1::no_allocate"),
    "L2": ("L2::evict_normal", "L2::evict_first", "L2::evict_last"),
    "hint": ("L2::cache_hint",),                                   # extra .b64 operand
    "prefetch": ("L2::64B", "L2::128B", "L2::256B"),
    "vec": ("v2", "v4", "v8"),
    "unified": ("unified",),                 # PTX spells it on the operand: [a].unified
    "type": tuple(TYPES),
}
GROUP_OF = {tok: g for g, toks in GROUPS.items() for tok in toks}

ONLY = {  # tokens that exist for one of the two instructions only
    "ld": {"acquire", "nc", "ca", "lu", "cv", "L2::64B", "L2::128B", "L2::256B",
           "const", "param::entry"},
    "st": {"release", "wb", "wt"},
}
GLOBAL_OR_GENERIC = (None, "global")
SYNC_SPACES = (None, "global", "shared", "shared::cluster")   # .volatile/.relaxed/...


@dataclass(frozen=True)
class Opcode:
    text: str                   # exactly as spelled by the user
    kind: str                   # "ld" | "st"
    space: str | None           # global/shared/shared::cluster/local/const/param; None=generic
    vector: int                 # 1, 2, 4 or 8
    type: str                   # "b32", "f16", ... (known token, even where illegal)
    bits: int                   # width of .type in bits
    cache_hint: bool            # has .L2::cache_hint (takes a 64-bit cache-policy operand)
    qualifiers: tuple[str, ...]  # every token after ld/st, in order, without dots


def parse(text: str) -> Opcode:
    """Split a spelling into its qualifiers; raise OpcodeError for tokens PTX lacks."""
    kind, *quals = text.strip().split(".")
    if kind not in ("ld", "st"):
        raise OpcodeError(f"unknown instruction '{kind}' in {text!r}: expected ld or st")
    for q in quals:
        if q not in GROUP_OF:
            bad = f"'.{q}'" if q else "an empty qualifier"
            raise OpcodeError(f"unknown qualifier {bad} in {text!r}")
    types = [q for q in quals if GROUP_OF[q] == "type"]
    if not types:
        raise OpcodeError(f"missing type in {text!r} (e.g. .b32)")
    spaces = [q for q in quals if GROUP_OF[q] == "space"]
    vecs = [q for q in quals if GROUP_OF[q] == "vec"]
    space = spaces[0].split("::")[0] if spaces else None
    if spaces and spaces[0] == "shared::cluster":
        space = "shared::cluster"
    return Opcode(text=text, kind=kind, space=space, vector=int(vecs[0][1:]) if vecs else 1,
                  type=types[-1], bits=TYPES[types[-1]], cache_hint="L2::cache_hint" in quals,
                  qualifiers=tuple(quals))


# ---------------------------------------------------------------------------------------
# Targets: name -> lowest .version that accepts ``.target name`` (PTX ISA release notes;
# ptxas 13.0 itself lets sm_88 through from 7.3, the ISA says 9.0).  sm_101 became sm_110.
# ---------------------------------------------------------------------------------------
class Arch(NamedTuple):
    name: str       # "sm_90a"
    sm: int         # 90
    suffix: str     # "", "a" (arch-specific) or "f" (family)
    min_ptx: tuple[int, int]


_ARCH_PTX = {"sm_75": (6, 3), "sm_80": (7, 0), "sm_86": (7, 1), "sm_87": (7, 4),
             "sm_88": (9, 0), "sm_89": (7, 8), "sm_90": (7, 8), "sm_90a": (8, 0),
             "sm_100": (8, 6), "sm_100a": (8, 6), "sm_100f": (8, 8), "sm_103": (8, 8),
             "sm_103a": (8, 8), "sm_103f": (8, 8), "sm_110": (9, 0), "sm_110a": (9, 0),
             "sm_110f": (9, 0), "sm_120": (8, 7), "sm_120a": (8, 7), "sm_120f": (8, 8),
             "sm_121": (8, 8), "sm_121a": (8, 8), "sm_121f": (8, 8)}
NEWEST_PTX = (9, 0)   # the newest .version ptxas 13.0 takes


def parse_arch(arch: str | Arch) -> Arch:
    if isinstance(arch, Arch):
        return arch
    m = re.fullmatch(r"sm_(\d+)([af]?)", str(arch))
    if not m:
        raise ArchError(f"bad target {arch!r}: expected sm_<number>[a|f], e.g. sm_90a")
    if arch not in _ARCH_PTX:
        known = ", ".join(_ARCH_PTX)
        raise ArchError(f"unknown target {arch!r} for ptxas 13.0 (known: {known})")
    return Arch(arch, int(m.group(1)), m.group(2), _ARCH_PTX[arch])


# ---------------------------------------------------------------------------------------
# Rules.  Each rule is (violated?, reason); legality() reports the first one violated.
# ---------------------------------------------------------------------------------------
def _has(op: Opcode, *toks: str) -> bool:
    return any(t in op.qualifiers for t in toks)


def _group(op: Opcode, g: str) -> list[str]:
    return [q for q in op.qualifiers if GROUP_OF[q] == g]


def _space(op: Opcode) -> str | None:   # the space token itself (shared::cta, param::entry)
    return (_group(op, "space") or [None])[0]


def _sem(op: Opcode) -> str | None:
    return (_group(op, "sem") or [None])[0]


def _wide(op: Opcode) -> bool:           # a 256-bit access: .v8 of 32-bit or .v4 of 64-bit
    return op.vector * op.bits == 256 and op.bits in (32, 64)


_RULES = [
    (lambda op: _has(op, "unified"),
     "'.unified' is not an opcode qualifier: PTX writes it on the address, [a].unified"),
    (lambda op: op.type not in LDST_TYPES,
     "ld/st take no .{type} type: move the bits with .b{bits} of the same width"),
    (lambda op: any(len(_group(op, g)) > 1 for g in GROUPS) or
     len(set(op.qualifiers)) < len(op.qualifiers),
     "more than one qualifier of a kind (state space, order, scope, vector, type, ...)"),
    (lambda op: _has(op, *ONLY["st" if op.kind == "ld" else "ld"]),
     "{kind} has no .{bad} qualifier"),
    (lambda op: _has(op, "mmio") and not (_sem(op) == "relaxed" and _has(op, "sys")),
     ".mmio needs .relaxed.sys"),
    (lambda op: _sem(op) in ("relaxed", "acquire", "release") and not _group(op, "scope"),
     ".{sem} needs a scope (.cta, .cluster, .gpu or .sys)"),
    (lambda op: _group(op, "scope") and _sem(op) not in ("relaxed", "acquire", "release"),
     "a scope needs .relaxed, .acquire or .release"),
    (lambda op: _has(op, "nc") and (_space(op) != "global" or _sem(op)),
     ".nc is only ld.global.nc, without .weak/.volatile/.relaxed/.acquire"),
    (lambda op: _sem(op) not in (None, "weak") and _space(op) not in SYNC_SPACES + ("shared::cta",),
     ".{sem} needs .global, .shared or generic addressing (.local needs PTX ISA 9.1)"),
    (lambda op: _sem(op) not in (None, "weak") and _group(op, "cop"),
     "cache operators (.{cop}) do not go with .{sem}"),
    (lambda op: _has(op, "mmio") and (_space(op) not in GLOBAL_OR_GENERIC or op.vector > 1 or
                                      _group(op, "L1") or _group(op, "L2") or
                                      _group(op, "hint") or _group(op, "prefetch")),
     ".mmio is a scalar .global/generic access without eviction, hint or prefetch qualifiers"),
    (lambda op: _sem(op) == "volatile" and (_group(op, "L1") or op.cache_hint),
     ".volatile takes no .L1::* eviction priority or .L2::cache_hint"),
    (lambda op: op.kind == "st" and _space(op) in ("const", "param::entry"),
     "st cannot write .{space}"),
    (lambda op: (_group(op, "L1") or _group(op, "L2") or op.cache_hint or _group(op, "prefetch"))
     and _space(op) not in GLOBAL_OR_GENERIC,
     "eviction priorities, .L2::cache_hint and prefetch sizes need .global or generic addressing"),
    (lambda op: _group(op, "cop") and _group(op, "L1"),
     "a cache operator (.{cop}) and an .L1::* eviction priority do not combine"),
    (lambda op: _has(op, "nc") and _has(op, "lu", "cv"),
     "ld.global.nc takes only the .ca, .cg and .cs cache operators"),
    (lambda op: op.vector > 1 and op.bits == 128, ".b128 cannot be a vector"),
    (lambda op: op.vector * op.bits > 128 and not _wide(op),
     "{vector} x {bits} bits exceeds the 128-bit (256-bit: .v8 of 32-bit, .v4 of 64-bit) limit"),
    (lambda op: _wide(op) and _space(op) not in GLOBAL_OR_GENERIC,
     "256-bit vectors need .global or generic addressing"),
    (lambda op: _group(op, "L2") and not _wide(op),
     ".L2::evict_* needs a 256-bit vector (.v8 of 32-bit or .v4 of 64-bit)"),
    # ptxas 13.0 accepts these but miscompiles them (st.global.v8.b16 stores 16 bits; the
    # ld form crashes ptxas with 16-bit destinations), so tilecheck refutes them everywhere.
    (lambda op: op.vector == 8 and op.bits < 32,
     ".v8 of {bits}-bit types is refuted: ptxas 13.0 miscompiles it; use .v{half} of .b{dbl}"),
]

# Feature -> (present?, lowest sm, lowest PTX ISA version).  Both from the ISA's "PTX ISA
# notes" / "Target ISA notes" of ld/st, checked against ptxas 13.0.
FEATURES = [
    ("256-bit vectors", _wide, 100, (8, 8)),
    (".L2::evict_* eviction priority", lambda op: bool(_group(op, "L2")), 100, (8, 8)),
    (".shared::cluster", lambda op: _space(op) == "shared::cluster", 90, (7, 8)),
    (".shared::cta", lambda op: _space(op) == "shared::cta", 0, (7, 8)),
    (".cluster scope", lambda op: _has(op, "cluster"), 90, (7, 8)),
    (".L2::cache_hint", lambda op: op.cache_hint, 80, (7, 4)),
    (".L2::256B prefetch", lambda op: _has(op, "L2::256B"), 80, (7, 4)),
    ("prefetch size", lambda op: bool(_group(op, "prefetch")), 75, (7, 4)),
    (".L1::* eviction priority", lambda op: bool(_group(op, "L1")), 70, (7, 4)),
    (".mmio", lambda op: _has(op, "mmio"), 70, (8, 2)),
    (".param::entry/.param::func", lambda op: _space(op) in ("param::entry", "param::func"),
     0, (8, 3)),
    (".b128", lambda op: op.bits == 128, 70, (8, 3)),
    (".sys scope on .b128", lambda op: op.bits == 128 and _has(op, "sys"), 70, (8, 4)),
]


def legality(op: Opcode, arch: str | Arch) -> str | None:
    """None if ``op`` is a legal PTX ISA 9.0 form for ``arch``; else a one-line reason."""
    target = parse_arch(arch)
    cop, sem, space = _group(op, "cop"), _sem(op), _space(op)
    bad = [q for q in op.qualifiers if q in ONLY["st" if op.kind == "ld" else "ld"]]
    fill = dict(kind=op.kind, type=op.type, bits=op.bits, vector=op.vector, sem=sem,
                space=space, cop=cop[0] if cop else "", bad=bad[0] if bad else "",
                half=op.vector // 2, dbl=op.bits * 2)
    for violated, reason in _RULES:
        if violated(op):
            return f"{op.text}: {reason.format(**fill)}"
    for name, present, sm, _ in FEATURES:
        if present(op) and target.sm < sm:
            return f"{op.text} needs sm_{sm} or newer ({name}), target is {target.name}"
    return None


def ptx_version(op: Opcode, arch: str | Arch) -> tuple[int, int]:
    """The lowest ``.version`` that both ``op`` and the target need (``op`` assumed legal)."""
    need = [parse_arch(arch).min_ptx]
    need += [v for _, present, _, v in FEATURES if present(op)]
    return max(need)
