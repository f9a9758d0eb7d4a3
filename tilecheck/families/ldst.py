"""ld / st: one thread moves its whole vector between memory and its registers.

A load's source is memory and its destination registers; a store the other way round.  The
issuing thread supplies the address of and holds every word of its atom (``.v2``/``.v4``/``.v8``
words, 1 for a scalar), so the contract is: the atom's memory words are contiguous and aligned,
every register word belongs to the issuing thread, and nothing is written twice.

Below, the spelling (``parse``), its legality per target (``legality``, ``ptx_legality``) and its
version table (``FEATURES``).  Sources: PTX ISA 9.0, "Data Movement and Conversion Instructions: ld, ld.global.nc, st" (syntax,
restrictions, PTX ISA notes, target ISA notes).  Every rule below was then checked against
ptxas 13.0 at ``.version 9.0``, which is the arbiter where the two differ:
``ptx_legality(op, arch) is None`` exactly when ptxas accepts a module holding that one
instruction.  ``legality`` adds tilecheck's own refusal (``.v8`` of 8/16-bit types, which ptxas
accepts but miscompiles).  ``tests/test_target_sweep.py`` re-checks both against ptxas.

ptxas ignores qualifier order (``ld.b32.global`` assembles), so an opcode is judged as the set
of its qualifiers.  Where ptxas is more liberal than the ISA's syntax it wins: an
``.L2::evict_*`` priority combines with a cache operator and with ``.volatile``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..opcodes import Arch, OpcodeError, needs, parse_arch
from . import MEMORY, READ, REGISTER, WRITE, Draw, Family, Role

# --- Vocabulary: every token that may follow ld/st.  Outside it: parse error. -------------
LDST_TYPES = {"b8": 8, "b16": 16, "b32": 32, "b64": 64, "b128": 128,
              "u8": 8, "u16": 16, "u32": 32, "u64": 64,
              "s8": 8, "s16": 16, "s32": 32, "s64": 64, "f32": 32, "f64": 64}
# Real PTX types that ld/st do not take: move .f16 data with .b16, .f16x2 with .b32, ...
OTHER_TYPES = {"f16": 16, "bf16": 16, "f16x2": 32, "bf16x2": 32, "u16x2": 32, "s16x2": 32,
               "tf32": 32, "e4m3": 8, "e5m2": 8, "e4m3x2": 16, "e5m2x2": 16}
TYPES = {**LDST_TYPES, **OTHER_TYPES}

GROUPS = {  # at most one token of each group per opcode
    "state space": ("global", "shared", "shared::cta", "shared::cluster", "local", "const",
                    "param", "param::entry", "param::func"),
    "memory order": ("weak", "volatile", "relaxed", "acquire", "release"),
    "mmio": ("mmio",),                                           # only as .mmio.relaxed.sys
    "scope": ("cta", "cluster", "gpu", "sys"),
    "nc": ("nc",),                                               # only as ld.global.nc
    "cache operator": ("ca", "cg", "cs", "lu", "cv", "wb", "wt"),
    "L1 eviction priority": ("L1::evict_normal", "L1::evict_unchanged", "L1::evict_first",
                             "L1::evict_last", "L1::no_allocate"),
    "L2 eviction priority": ("L2::evict_normal", "L2::evict_first", "L2::evict_last"),
    "cache hint": ("L2::cache_hint",),                  # takes a 64-bit cache-policy operand
    "prefetch size": ("L2::64B", "L2::128B", "L2::256B"),
    "vector": ("v2", "v4", "v8"),
    "unified": ("unified",),                            # PTX spells it on the operand
    "type": tuple(TYPES),
}
GROUP_OF = {tok: g for g, toks in GROUPS.items() for tok in toks}
ONLY = {"ld": {"acquire", "nc", "ca", "lu", "cv", "L2::64B", "L2::128B", "L2::256B",
               "const", "param::entry"},
        "st": {"release", "wb", "wt"}}
GLOBAL_OR_GENERIC = (None, "global")
SYNC_SPACES = (None, "global", "shared", "shared::cta", "shared::cluster")


@dataclass(frozen=True)
class Opcode:
    text: str                    # exactly as spelled by the user
    kind: str                    # "ld" | "st"
    space: str | None            # global/shared/shared::cluster/local/const/param; None=generic
    vector: int                  # 1, 2, 4 or 8
    type: str                    # "b32", "f16", ... (a known token, even where illegal)
    bits: int                    # width of .type in bits
    cache_hint: bool             # has .L2::cache_hint
    qualifiers: tuple[str, ...]  # every token after ld/st, in order, without dots

    def group(self, name: str) -> list[str]:
        return [q for q in self.qualifiers if GROUP_OF[q] == name]

    def first(self, name: str) -> str | None:
        return next(iter(self.group(name)), None)


def parse(text: str) -> Opcode:
    """Split a spelling into qualifiers; raise OpcodeError for a token ld/st lack entirely."""
    kind, *quals = text.strip().split(".")
    if kind not in ("ld", "st"):
        raise OpcodeError(f"unknown instruction '{kind}' in {text!r}: expected ld or st")
    for q in quals:
        if q not in GROUP_OF:
            raise OpcodeError(f"unknown qualifier '.{q}' in {text!r}" if q else
                              f"empty qualifier in {text!r}")
    types = [q for q in quals if GROUP_OF[q] == "type"]
    if not types:
        raise OpcodeError(f"missing type in {text!r} (e.g. .b32)")
    space = next((q for q in quals if GROUP_OF[q] == "state space"), None)
    if space in ("shared::cta", "param::entry", "param::func"):
        space = space.split("::")[0]
    vec = next((q for q in quals if GROUP_OF[q] == "vector"), "v1")
    return Opcode(text=text, kind=kind, space=space, vector=int(vec[1:]), type=types[-1],
                  bits=TYPES[types[-1]], cache_hint="L2::cache_hint" in quals,
                  qualifiers=tuple(quals))



# --- The rules.  Each is (violated?, reason); the first violated one is reported. ---------
def _wide(op: Opcode) -> bool:  # a 256-bit access: .v8 of a 32-bit or .v4 of a 64-bit type
    return op.vector * op.bits == 256 and op.bits in (32, 64)


def _other_kind_only(op: Opcode) -> list[str]:
    return [q for q in op.qualifiers if q in ONLY["st" if op.kind == "ld" else "ld"]]


def _repeated(op: Opcode) -> list[str]:
    return [g for g in GROUPS if len(op.group(g)) > 1]


def _ordered(op: Opcode) -> bool:
    return op.first("memory order") in ("relaxed", "acquire", "release")


def _hints(op: Opcode) -> list[str]:  # L1/L2 eviction priority, cache hint, prefetch size
    return [q for q in op.qualifiers if q.startswith(("L1::", "L2::"))]


RULES = [
    (lambda op: op.group("unified"),
     "'.unified' is no opcode qualifier: PTX writes it on the address, [a].unified"),
    (lambda op: op.type not in LDST_TYPES,
     "ld/st take no .{type}: move the bits as .b{bits}"),
    (lambda op: _repeated(op), "more than one {repeated} qualifier"),
    (lambda op: _other_kind_only(op), "{kind} has no .{other} qualifier"),
    (lambda op: op.group("mmio") and not (op.first("memory order") == "relaxed"
                                          and op.first("scope") == "sys"),
     ".mmio needs .relaxed.sys"),
    (lambda op: _ordered(op) and not op.group("scope"),
     ".{order} needs a scope: .cta, .cluster, .gpu or .sys"),
    (lambda op: op.group("scope") and not _ordered(op),
     "a scope needs .relaxed, .acquire or .release"),
    (lambda op: op.group("nc") and (op.first("state space") != "global"
                                    or op.group("memory order")),
     ".nc exists only as ld.global.nc, without a memory order"),
    (lambda op: op.first("memory order") not in (None, "weak")
     and op.first("state space") not in SYNC_SPACES,
     ".{order} needs .global, .shared or generic addressing (.local: PTX ISA 9.1)"),
    (lambda op: op.first("memory order") not in (None, "weak") and op.group("cache operator"),
     "cache operator .{cop} does not go with .{order}"),
    (lambda op: op.group("mmio") and (op.vector > 1 or _hints(op) or
                                      op.first("state space") not in GLOBAL_OR_GENERIC),
     ".mmio is a scalar .global or generic access without eviction/hint/prefetch"),
    (lambda op: op.first("memory order") == "volatile"
     and (op.group("L1 eviction priority") or op.cache_hint),
     ".volatile takes no .L1::* eviction priority and no .L2::cache_hint"),
    (lambda op: op.kind == "st" and op.first("state space") in ("const", "param::entry"),
     "st cannot write .{ss}"),
    (lambda op: _hints(op) and op.first("state space") not in GLOBAL_OR_GENERIC,
     ".{hint} needs .global or generic addressing"),
    (lambda op: op.group("cache operator") and op.group("L1 eviction priority"),
     "cache operator .{cop} and an .L1::* eviction priority do not combine"),
    (lambda op: op.group("nc") and op.first("cache operator") in ("lu", "cv"),
     "ld.global.nc takes only the .ca, .cg and .cs cache operators"),
    (lambda op: op.vector > 1 and op.bits == 128, ".b128 cannot be a vector"),
    (lambda op: op.vector * op.bits > 128 and not _wide(op),
     ".v{vector} of {bits}-bit exceeds 128 bits (256 only as .v8 of 32-bit, .v4 of 64-bit)"),
    (lambda op: _wide(op) and op.first("state space") not in GLOBAL_OR_GENERIC,
     "256-bit vectors need .global or generic addressing"),
    (lambda op: op.group("L2 eviction priority") and not _wide(op),
     ".L2::evict_* needs a 256-bit vector (.v8 of 32-bit or .v4 of 64-bit)"),
]

# tilecheck's own refusal: ptxas 13.0 accepts these but miscompiles them (st.global.v8.b16
# becomes one 16-bit store; with 16-bit destination registers the load crashes ptxas).
REFUSED = [
    (lambda op: op.vector == 8 and op.bits < 32,
     ".v8 of {bits}-bit is refused (ptxas 13.0 miscompiles it); use .v4 of .b{dbl}"),
]

# Feature -> (present?, lowest sm, lowest .version): the ld/st "Target ISA notes" and "PTX ISA
# notes", each confirmed against ptxas 13.0.  Features older than every target are left out.
FEATURES = [
    ("256-bit vectors", _wide, 100, (8, 8)),
    (".L2::evict_*", lambda op: op.group("L2 eviction priority"), 100, (8, 8)),
    (".shared::cluster", lambda op: op.first("state space") == "shared::cluster", 90, (7, 8)),
    (".shared::cta", lambda op: op.first("state space") == "shared::cta", 0, (7, 8)),
    (".cluster scope", lambda op: op.first("scope") == "cluster", 90, (7, 8)),
    (".L2::cache_hint", lambda op: op.cache_hint, 80, (7, 4)),
    (".L2::256B", lambda op: op.first("prefetch size") == "L2::256B", 80, (7, 4)),
    (".L2::64B/.L2::128B", lambda op: op.group("prefetch size"), 75, (7, 4)),
    (".L1::* eviction priority", lambda op: op.group("L1 eviction priority"), 70, (7, 4)),
    (".mmio", lambda op: op.group("mmio"), 70, (8, 2)),
    (".param::entry/::func", lambda op: op.first("state space") in ("param::entry",
                                                                      "param::func"), 0, (8, 3)),
    (".b128", lambda op: op.bits == 128, 70, (8, 3)),
    (".sys scope on .b128", lambda op: op.bits == 128 and op.first("scope") == "sys", 70, (8, 4)),
]


def _first_violation(op: Opcode, target: Arch, rules) -> str | None:
    fill = dict(kind=op.kind, type=op.type, bits=op.bits, vector=op.vector, dbl=2 * op.bits,
                repeated=" / ".join(_repeated(op)), other=" .".join(_other_kind_only(op)),
                order=op.first("memory order"), cop=op.first("cache operator"),
                ss=op.first("state space"), hint=next(iter(_hints(op)), None))
    for violated, reason in rules:
        if violated(op):
            return f"{op.text}: {reason.format(**fill)}"
    for name, present, sm, _ in FEATURES:
        if present(op) and target.sm < sm:
            return f"{op.text} needs sm_{sm} or newer ({name}), target is {target.name}"
    return None


def ptx_legality(op: Opcode, arch: str | Arch) -> str | None:
    """None exactly when ptxas 13.0 (.version 9.0) accepts ``op`` for ``arch``; else why not."""
    return _first_violation(op, parse_arch(arch), RULES)


def legality(op: Opcode, arch: str | Arch) -> str | None:
    """None if ``op`` is a legal PTX ISA 9.0 form for ``arch`` that tilecheck will emit;
    else a one-line reason."""
    return _first_violation(op, parse_arch(arch), RULES + REFUSED)


def ptx_version(op: Opcode, arch: str | Arch) -> tuple[int, int]:
    """The lowest ``.version`` that both ``op`` and the target need (``op`` assumed legal)."""
    return needs(FEATURES, op, arch)



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

    parse = staticmethod(parse)
    legality = staticmethod(legality)
    ptx_version = staticmethod(ptx_version)
    versions = FEATURES

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

    # --- the strategies' draws (tilecheck/strategies.py) ---
    draws = (Draw("ldst", "plain", 0, "plain ld/st tiles"),)
    tile_kinds = {"ld": 4, "st": 3}  # a guarded tile's kinds, with their weights
    draw_spaces = SPACES  # a drawn tile's memory spaces (``checks(spaces=...)`` restricts them)
    # the spellings drawn: type and space tokens, and now and then cache, eviction, prefetch and
    # ordering qualifiers (some combinations refute ``target``)
    TYPE_TOKENS = {8: ("b8", "u8", "s8"), 16: ("b16", "u16", "s16"), 32: ("b32", "u32", "s32", "f32"),
                   64: ("b64", "u64", "s64", "f64")}
    SPACE_TOKENS = {"global": ("global",), "shared": ("shared", "shared::cta"), "local": ("local",)}
    EXTRA = {"ld": ["nc", "ca", "cg", "cs", "lu", "cv", "L1::evict_last", "L1::no_allocate", "L2::128B", "L2::256B",
                    "L2::cache_hint", "volatile", "relaxed.gpu", "acquire.cta", "weak"],
             "st": ["wb", "cg", "cs", "wt", "L1::evict_first", "L2::cache_hint", "volatile", "relaxed.sys",
                    "release.gpu", "weak"]}

    def draw_kind(self, op):
        return op.kind

    def draw_memory_role(self, kind):
        """The memory operand of a ``kind`` apply (a load reads ``src``, a store writes ``dst``)."""
        return "src" if kind == "ld" else "dst"

    def draw_opcode(self, tools, draw, kind, space=None, bits=None, vector=None):
        """A spelling of ``kind`` (``strategies.opcodes``); unset arguments are drawn."""
        space = space or tools.pick(draw, ["global", "shared", "local"])
        bits = bits or tools.pick(draw, [32, 16, 8, 64])
        vector = vector or tools.pick(draw, [1, 2, 4])
        tokens = self.SPACE_TOKENS.get(space, () if space == "generic" else (space,))
        quals = [tools.pick(draw, tokens, [4, 1][:len(tokens)])] if tokens else []
        if tools.chance(draw, 20):
            quals += draw(tools.lists(tools.sampled_from(self.EXTRA[kind]), min_size=1, max_size=2, unique=True))
        if vector > 1:
            quals.append(f"v{vector}")
        quals.append(tools.pick(draw, self.TYPE_TOKENS[bits]))
        if tools.chance(draw, 5):
            quals = draw(tools.permutations(quals))  # ptxas takes qualifiers in any order
        return ".".join([kind] + ".".join(quals).split("."))

    def draw_keys(self, tools, draw, kind, ap):
        """A plain tile's keys: cache_policy (usually where the spelling has a cache hint, now and then
        where not), pred, preserve_dst (now and then on a store or unpredicated: refuted)."""
        if "L2::cache_hint" in ap["opcode"] and not tools.chance(draw, 10):
            ap["cache_policy"] = True
        elif tools.chance(draw, 2):
            ap["cache_policy"] = True
        if tools.chance(draw, 6):
            ap["pred"] = True
            if kind == "ld" and tools.chance(draw, 50):
                ap["preserve_dst"] = True
        elif tools.chance(draw, 2):
            ap["preserve_dst"] = True

    def draw_tile_atom(self, tools, draw, kind, bits, esize, spaces):
        """A guarded tile's memory space and vector; the spelling is drawn later (``draw_opcode``)."""
        space = tools.among(draw, spaces, ["global", "shared", "local"], [3, 2, 1], "spaces")
        vector = tools.pick(draw, [v for v in (4, 2, 1) if v * bits <= 128])
        return space, vector, None

    def draw_tile_operands(self, tools, draw, kind, t):
        """A guarded tile's register operand (the tile in the group's registers) and keys."""
        rname = t.names.fresh("RS"[t.k] if t.k < 2 else "Q")
        if t.scope == "thread":
            reg_t = {"dtype": t.dtype, "scope": "register", "shape": [t.rep, t.q, t.vector]}
        elif t.scope == "warp":
            reg_t = {"dtype": t.dtype, "scope": "register", "shape": [32, t.rep, t.vector],
                     "layout": f"(32,{t.rep},{t.vector}):(1@laneid,{t.vector},1)"}
        else:
            reg_t = {"dtype": t.dtype, "scope": "register", "shape": [t.threads // 32, 32, t.rep, t.vector],
                     "layout": f"({t.threads // 32},32,{t.rep},{t.vector}):(1@warpid,1@laneid,{t.vector},1)"}
        ap = t.ap
        ap["dst"], ap["src"] = (rname, t.memop) if kind == "ld" else (t.memop, rname)
        if "L2::cache_hint" in ap["opcode"]:
            ap["cache_policy"] = True
        if kind == "ld" and tools.chance(draw, 30):
            ap["preserve_dst"] = True
        return {t.mname: t.mem_t, rname: reg_t}, ap

    # --- SASS (emit/sass.py, gpu/ncu_*.py) and the probe kernel (emit/probe.py) ---
    # the SASS memory instruction class each (instruction, state space) becomes
    sass_classes = {("ld", "global"): "LDG", ("st", "global"): "STG", ("ld", "shared"): "LDS",
                    ("st", "shared"): "STS", ("ld", "local"): "LDL", ("st", "local"): "STL"}

    ncu_traffic = "lanes"

    def mirror(self, a, vector: int, bits: int) -> str:
        """The instruction of the other direction that moves ``a``'s registers through global memory
        (``emit/probe.py``: a load's registers go out by a store, a store's come in by a load)."""
        return f"{'st' if a.is_load else 'ld'}.global{f'.v{vector}' if vector > 1 else ''}.b{bits}"


FAMILY = LdSt()
