"""ld / st: one thread moves its whole vector between memory and its registers.

A load's source is memory and its destination registers; a store the other way round.  The
issuing thread supplies the address of and holds every word of its atom (``.v2``/``.v4``/``.v8``
words, 1 for a scalar), so the contract is: the atom's memory words are contiguous and aligned,
every register word belongs to the issuing thread, and nothing is written twice.  Spelling and
legality per target are ``opcodes.py``'s (a ptxas sweep, ``tests/test_target_sweep.py``).
"""
from .. import opcodes
from ..errors import InputError
from . import MEMORY, READ, REGISTER, WRITE, Draw, Family, Role

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
