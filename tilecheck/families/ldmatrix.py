"""ldmatrix / stmatrix: a warp moves 8x8 matrices of 16-bit elements between shared memory and the
registers, each lane holding a fragment of every matrix (PTX ISA, "ldmatrix", "stmatrix").

Both operands are viewed at the *register* coordinates ``(lane t, *repeat, word k)`` with ``2*num``
words per lane (``.x1``/``.x2``/``.x4``: ``num`` matrices): word ``k`` is element ``k % 2`` of the
lane's ``k // 2``-th 32-bit register, so the memory view names, for each register element, the
shared-memory element it comes from (ldmatrix) or goes to (stmatrix) -- the same coordinates, as
for ld/st.  What crosses lanes is who supplies the addresses, the memory role's ``holds``: matrix
``i = k // 2``'s row ``r`` is 16 contiguous bytes whose address lane ``8*i + r`` gives, and lane
``t`` holds, per matrix, row ``t // 4``, columns ``2*(t % 4)`` and ``+1`` (``.trans``: row
``2*(t % 4) + k % 2``, column ``t // 4``).  So ``contiguity`` and ``alignment`` are stated per
row (8 elements, 16 bytes) across the lanes that hold it, ``ownership`` is the ld/st rule on the
register view (word ``k`` of lane ``t`` is in lane ``t``'s registers: a layout that is not the
fragment map is refuted with the element and both lanes), ``disjoint`` the store rule over the
CTA's shared memory for stmatrix.  (CuTe's ``SM75_U32x4_LDSM_N``: ``SrcLayout`` is ``origin``,
``DstLayout`` is ``holds`` inverted.)

Spelling: ``ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared{::cta}.b16`` (sm_75, PTX 6.5) and
``stmatrix...`` (sm_90, PTX 7.8); ``.shared::cta`` needs PTX 7.8 (``VERSIONS``).  The legal set and
each spelling's lowest ``.version`` are ptxas 13.0 sweeps (``tests/test_ldmatrix.py``).
Not modelled: generic addressing (no ``.shared``), the sm_100a forms ``.m16n16``/``.m8n16``
(``.b8``, ``.b8x16.b6x16_p32``, ``.b8x16.b4x16_p64``) and ``stmatrix.m16n8.b8``: ptxas takes
them, tilecheck's ``target`` refuses them as not modelled.
"""
from dataclasses import dataclass

from ..opcodes import OpcodeError, needs, parse_arch
from ..layout import Layout, parse_layout
from . import MEMORY, READ, REGISTER, WRITE, Family, Role

GROUPS = {"sync": ("sync",), "aligned": ("aligned",), "shape": ("m8n8", "m16n16", "m8n16", "m16n8"),
          "num": ("x1", "x2", "x4"), "trans": ("trans",),
          "space": ("shared", "shared::cta", "shared::cluster", "global", "local"),
          "type": ("b16", "b8", "b8x16", "b6x16_p32", "b4x16_p64")}
GROUP_OF = {q: g for g, qs in GROUPS.items() for q in qs}
ROW_WORDS = 8  # one row: 8 elements of 16 bits, 16 bytes, one lane's address
NEED = {"ldmatrix": 75, "stmatrix": 90}  # the lowest sm
# qualifier -> lowest .version, each checked against ptxas 13.0 (tests/test_ldmatrix.py)
VERSIONS = (("ldmatrix", lambda op: op.kind == "ldmatrix", (6, 5)),
            ("stmatrix", lambda op: op.kind == "stmatrix", (7, 8)),
            (".shared::cta", lambda op: op.first("space") == "shared::cta", (7, 8)))


@dataclass(frozen=True)
class MatrixOpcode:
    text: str
    kind: str  # "ldmatrix" | "stmatrix"
    space: str | None
    qualifiers: tuple[str, ...]
    num: int = 1  # matrices: .x1, .x2, .x4
    trans: bool = False
    bits: int = 16
    cache_hint: bool = False

    @property
    def vector(self) -> int:
        """Words per lane: two 16-bit elements (one 32-bit register) per matrix."""
        return 2 * self.num

    def first(self, group):
        return next((q for q in self.qualifiers if GROUP_OF[q] == group), None)


def parse(text: str) -> MatrixOpcode:
    kind, *quals = text.strip().split(".")
    if kind not in NEED:
        raise OpcodeError(f"{text!r} is not an ldmatrix or stmatrix instruction")
    for q in quals:
        if q not in GROUP_OF:
            raise OpcodeError(f"unknown qualifier '.{q}' in {text!r}" if q else f"empty qualifier in {text!r}")
    space = next((q for q in quals if GROUP_OF[q] == "space"), None)
    num = next((int(q[1:]) for q in quals if GROUP_OF[q] == "num"), 1)
    return MatrixOpcode(text.strip(), kind, "shared" if space == "shared::cta" else space, tuple(quals), num,
                        "trans" in quals)


def legality(op, arch) -> str | None:
    target = parse_arch(arch)
    groups = [GROUP_OF[q] for q in op.qualifiers]
    order = list(GROUPS)
    reasons = [
        (next((g for g in GROUPS if groups.count(g) > 1), None), "more than one .{} qualifier"),
        ("sync" not in groups or "aligned" not in groups, "needs .sync.aligned"),
        ("shape" not in groups or "num" not in groups or "type" not in groups, "needs a shape, .x1/.x2/.x4 and a type"),
        (op.first("shape") not in (None, "m8n8") or op.first("type") not in (None, "b16"),
         f"tilecheck models {op.kind}.sync.aligned.m8n8.x{{1,2,4}}{{.trans}}.shared.b16 only "
         f"(not .{op.first('shape')} .{op.first('type')})"),
        (op.first("space") is None, "generic addressing (no .shared) is not modelled"),
        (op.first("space") not in (None, "shared", "shared::cta"), "the state space must be .shared or .shared::cta"),
        (groups != sorted(groups, key=order.index),
         f"qualifiers out of order ({op.kind}.sync.aligned.m8n8.x{{1,2,4}}{{.trans}}.shared.b16)"),
    ]
    for bad, reason in reasons:
        if bad:
            return f"{op.text}: {reason.format(bad) if '{}' in reason else reason}"
    sm = NEED[op.kind]
    if target.sm < sm:
        return f"{op.text} needs sm_{sm} or newer, target is {target.name}"
    return None


def ptx_version(op, arch) -> tuple[int, int]:
    return needs(VERSIONS, op, arch)


# the fragment map (PTX ISA, "ldmatrix": matrix fragments) as a thread-value layout ---------------

def fragment(trans: bool, num: int) -> Layout:
    """``(address lane L, position p) -> (lane t, word k)`` of the register view: lane ``L = 8i + r``
    gives row ``r`` of matrix ``i``; lane ``t`` holds, per matrix, row ``t // 4``, columns
    ``2*(t % 4)`` and ``+1`` (word ``2i + j``).  Untransposed, row ``r``'s element ``p`` is
    ``[r][p]``: ``t = 4r + p // 2``, ``k = 2i + p % 2``; ``.trans`` (row ``r = 2q + j``): lane ``t =
    4p + q``, ``k = 2i + j``."""
    if trans:
        return parse_layout(f"(((2,4),{num}),8):(((1,1@laneid),2),4@laneid)")
    return parse_layout(f"((8,{num}),(2,4)):((4@laneid,2),(1,1@laneid))")


class Matrix(Family):
    name = "ldmatrix/stmatrix"
    instructions = ("ldmatrix", "stmatrix")
    groups = ("warp",)
    keys = {}
    obligations = ("target", "space", "shape", "width", "contiguity", "alignment", "ownership", "disjoint",
                   "bounds", "overflow", "registers", "banks")

    def roles(self, op):
        load = op.kind == "ldmatrix"
        mem = Role("src" if load else "dst", MEMORY, ("shared",), READ if load else WRITE,
                   values=fragment(op.trans, op.num), threads=parse_layout(f"({8 * op.num}):(1@laneid)"),
                   tag="ldsm")
        reg = Role("dst" if load else "src", REGISTER, ("register",), WRITE if load else READ)
        return (reg, mem) if op.kind == "ldmatrix" else (mem, reg)

    parse = staticmethod(parse)
    legality = staticmethod(legality)
    ptx_version = staticmethod(ptx_version)
    versions = VERSIONS

    packs = True

    def instruction(self, a, regs, addr, pred, policy, packed: bool = False):
        """The instruction on the tile's 32-bit registers: a ``packed`` tile (both words of a pair name
        one 32-bit register, ``emit/registers.py``) is used as is; otherwise a brace block declares the
        32-bit registers, each packing two 16-bit slots of the tile (word 2i low half, 2i+1 high half;
        the two may be one slot: a layout whose word bit has stride 0 stores one value twice)."""
        names = [r.strip() for r in regs.strip("{}").split(",")]
        pairs = [names[k:k + 2] for k in range(0, len(names), 2)]
        if packed:
            packed = ", ".join(lo for lo, _ in pairs)
            if a.opcode.kind == "ldmatrix":
                return f"\t{a.opcode.text} {{{packed}}}, {addr};"
            return f"\t{a.opcode.text} {addr}, {{{packed}}};"
        packed = ", ".join(f"%lm{i}" for i in range(len(pairs)))
        lines = ["\t{", f"\t.reg .b32 %lm<{len(pairs)}>;"]
        if a.opcode.kind == "ldmatrix":
            lines.append(f"\t{a.opcode.text} {{{packed}}}, {addr};")
            lines += [f"\tmov.b32 {{{lo}, {hi}}}, %lm{i};" for i, (lo, hi) in enumerate(pairs)]
        else:
            lines += [f"\tmov.b32 %lm{i}, {{{lo}, {hi}}};" for i, (lo, hi) in enumerate(pairs)]
            lines.append(f"\t{a.opcode.text} {addr}, {{{packed}}};")
        lines.append("\t}")
        return "\n".join(lines)


FAMILY = Matrix()
