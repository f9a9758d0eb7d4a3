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
from math import prod

from ..opcodes import OpcodeError, needs, parse_arch
from ..layout import Layout, parse_layout
from . import MEMORY, READ, REGISTER, WRITE, Draw, Family, Role

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

    # --- the strategies' draws (tilecheck/strategies.py) ---
    draws = (Draw("ldmatrix", "hook", 3, "", staging=3, staging_rank=1, warp=True),
             Draw("stmatrix", "hook", 4, "", staging=2, staging_rank=2, warp=True))
    DTYPES = ("float16", "bfloat16", "uint16", "int16")  # the dtypes drawn: ldmatrix/stmatrix move b16 elements

    def draw_kind(self, op):
        return "ld" if op.kind == "ldmatrix" else "st"

    # --- ncu (gpu/ncu_compare.py, gpu/ncu_probe.py): lanes 8i..8i+7 give matrix i's rows ---
    ncu_traffic = "rows"
    ncu_cells = (("shared", "ldmatrix", "warp"), ("shared", "stmatrix", "warp"))

    def sass(self, op, space):
        return "LDSM" if op.kind == "ldmatrix" else "STSM"

    def matrices(self, op):
        return op.num

    def probe_instruction(self, load: bool, ptype: str) -> str:
        """``gpu/ncu_probe.py``'s round-3 instruction: ``.m8n8.{ptype}`` (``x4``, ``x4.trans``), shared, b16."""
        return f"{'ldmatrix' if load else 'stmatrix'}.sync.aligned.m8n8.{ptype}.shared.b16"

    def draw_apply(self, tools, draw, kind, k, threads, symbolic, syms, max_points, names, dtypes=None,
                   swizzled=None):
        """One warp-scope ``ldmatrix`` / ``stmatrix`` [[apply]] (``kind``) of ``.x1``/``.x2``/``.x4``
        8x8 b16 matrices, ``.trans`` or not, between a slice of a 2-D shared tile and a register tile,
        both viewed at the register coordinates ``(lane (g q), *repeat, words)`` as the examples
        (``examples/ldmatrix_x4.toml``) spell them: per matrix, lane ``4g + q`` holds row ``g``, columns
        ``2q + j`` (``.trans``: rows ``2q + j``, column ``g``).  The matrices are stacked along the
        tile's rows (``ia``) and columns (``ib``), repeated (``mb``, ``kb``).  Drawn around the proved
        case: row strides and slice starts that are not 16-byte multiples, a base alignment or offset
        that breaks the rows' alignment, a column stride of 2, a swizzled tile (``strategies._swizzle``),
        register layouts that are not the fragment map, another arch or state space; with ``symbolic``, a
        symbolic row stride, slice start, column count or offset.  None when the draw cannot be made
        (threads not a multiple of 32, no 16-bit dtype allowed)."""
        dnames = [d for d in self.DTYPES if dtypes is None or d in dtypes]
        if threads % 32 or not dnames:
            return None
        dtype = tools.pick(draw, dnames)
        num = tools.pick(draw, [4, 1, 2], [3, 1, 2])
        trans = tools.chance(draw, 35)
        ia = tools.pick(draw, [d for d in (2, 1, 4) if num % d == 0])
        ib = num // ia
        budget = max(1, max_points // (32 * 2 * num))
        mb = tools.int(draw, 1, min(3, budget))
        kb = tools.int(draw, 1, min(3, budget // mb))
        size = {"mb": mb, "kb": kb, "ia": ia, "ib": ib, "g": 8, "q": 4, "j": 2}
        inner_rows, inner_cols = (["q", "j"], ["g"]) if trans else (["g"], ["q", "j"])
        outer_rows = [n for n in ("mb", "ia") if size[n] > 1]
        outer_cols = [n for n in ("kb", "ib") if size[n] > 1]
        if tools.chance(draw, 30):
            outer_rows.reverse()
        if tools.chance(draw, 30):
            outer_cols.reverse()
        row_names, col_names = outer_rows + inner_rows, outer_cols + inner_cols
        words = [n for n in ("ib", "ia") if size[n] > 1]
        if tools.chance(draw, 40):
            words.reverse()
        words.append("j")
        repeat = [n for n in ("mb", "kb") if size[n] > 1]

        def grp(ns):
            return ns[0] if len(ns) == 1 else "(" + " ".join(ns) + ")"

        left = " ".join(grp([f"{n}={size[n]}" for n in ns]) if len(ns) > 1 else ns[0] for ns in (row_names, col_names))
        pattern = f"{left} -> (g q) " + " ".join(repeat + [grp(words)])
        rows, cols = prod(size[n] for n in row_names), prod(size[n] for n in col_names)

        # the shared tile: [H, W] with the view at [r0:r0+rows, c0:c0+cols], row stride rs (elements)
        padr = tools.pick(draw, [0, 8, 1, 16], [5, 2, 1, 1])
        padc = tools.pick(draw, [0, 8, 16, 4], [5, 3, 1, 1])
        r0 = tools.pick(draw, sorted({0, padr, padr // 2}))
        c0 = tools.pick(draw, sorted({0, padc, padc // 2, min(padc, 8)}))
        if tools.chance(draw, 4):  # a slice that leaves the tile
            c0 = padc + tools.pick(draw, [8, 1])
        h, w = rows + padr, cols + padc
        rs = w + tools.pick(draw, [0, 8, 4, 1, 64], [8, 2, 1, 1, 1])
        cstride = 2 if tools.chance(draw, 3) else 1
        mname = names.fresh("S")
        mem_t = {"dtype": dtype, "scope": "shared", "shape": [h, w]}
        layout = None if rs == w and cstride == 1 else f"({h},{w}):({rs},{cstride})"
        rtext, ctext = str(r0), str(c0)
        offset = tools.P.of(0)
        if symbolic:
            what = set(draw(tools.lists(tools.sampled(("stride", "row", "col", "offset", "width")), min_size=1,
                                        max_size=3, unique=True)))
            if "width" in what:  # a symbolic column count n >= c0 + cols (as a fact, or the minimum)
                n = syms.fresh_symbol("n")
                m = tools.pick(draw, [8, 1, 2, 16], [5, 1, 1, 2])
                syms.declare(n, c0 + cols, draw(tools.maxes(c0 + cols)), m)
                mem_t["shape"] = [h, n]
                w = n
                layout = None if cstride == 1 else f"({h},{n}):({n},{cstride})"
            elif "stride" in what:
                s_ = syms.fresh_symbol("s")
                m = tools.pick(draw, [8, 1, 4, 16], [5, 1, 1, 1])
                lo = w if not tools.chance(draw, 10) else 1
                syms.declare(s_, lo, draw(tools.maxes(lo)), m)
                layout = f"({h},{w}):({s_},{cstride})"
            if "row" in what:
                r = syms.fresh_symbol("r")
                m = tools.pick(draw, [1, 8, 2])
                syms.declare(r, 0, max(0, padr) if not tools.chance(draw, 10) else draw(tools.maxes(0)), m)
                rtext = r
            if "col" in what:
                c = syms.fresh_symbol("c")
                m = tools.pick(draw, [8, 4, 1, 16], [5, 1, 1, 1])
                if isinstance(w, str):
                    syms.declare(c, 0, draw(tools.maxes(0)), m)
                    if not tools.chance(draw, 10):
                        syms.assume(f"{c} + {cols} <= {w}")
                else:
                    syms.declare(c, 0, padc if not tools.chance(draw, 10) else padc + 8, m)
                ctext = c
            if "offset" in what:
                o = syms.fresh_symbol("o")
                m = tools.pick(draw, [8, 4, 1, 64], [4, 1, 1, 2])
                syms.declare(o, 0, draw(tools.maxes(0)), m)
                offset = offset + tools.P.of(o)
        if tools.chance(draw, 8):
            offset = offset + tools.pick(draw, [8, 4, 1, 64])
        if offset.value() != 0:
            mem_t["offset"] = offset.value()
        align = tools.pick(draw, [16, 8, 2, 128], [12, 1, 1, 2])
        if align != 2:
            mem_t["align"] = align
        swz = tools.swizzle(draw, "shared", 8, swizzled)
        if swz:
            layout = f"{swz} o {layout or f'({h},{w}):({w},1)'}"
        if layout:
            mem_t["layout"] = layout
        sliced = padr or padc or rtext != "0" or ctext != "0" or isinstance(w, str)
        memop = f"{mname}[{rtext}:{rtext}+{rows}, {ctext}:{ctext}+{cols}]: {pattern}" if sliced else \
            f"{mname}: {pattern}"

        # the register tile: the view's logical [rows, cols] with the fragment map (lane 4g + q), or
        # the view's own order [32, *repeat, words]
        rname = names.fresh("R")
        if tools.chance(draw, 75):
            lane = {"g": "4@laneid", "q": "1@laneid"}
            if tools.chance(draw, 10):  # not the fragment map
                lane = tools.pick(draw, [{"g": "1@laneid", "q": "8@laneid"}, {"g": "4@laneid", "q": "2@laneid"},
                                    {"g": "1@warpid", "q": "1@laneid"}, {"g": "4@tid", "q": "1@tid"}])
            slots = [n for n in row_names + col_names if n not in lane]
            order = ["j"] + [n for n in slots if n != "j"]
            if tools.chance(draw, 25):
                order = draw(tools.permutations(slots))
            stride, acc = {}, 1
            for n in order:
                stride[n] = str(acc)
                acc *= size[n]
            if tools.chance(draw, 5):  # two slots collide
                stride[tools.draw_sampled(draw, order)] = "0"
            stride.update(lane)

            def mode(ns):
                ns = list(reversed(ns))  # fastest first
                if len(ns) == 1:
                    return str(size[ns[0]]), stride[ns[0]]
                return "(" + ",".join(str(size[n]) for n in ns) + ")", "(" + ",".join(stride[n] for n in ns) + ")"
            (rsh, rsd), (csh, csd) = mode(row_names), mode(col_names)
            reg_t = {"dtype": dtype, "scope": "register", "shape": [rows, cols],
                     "layout": f"({rsh},{csh}):({rsd},{csd})"}
            regop = f"{rname}: {pattern}"
        else:
            shape = [32] + [size[n] for n in repeat] + [2 * num]
            strides, acc = [], 1
            for e in reversed(shape[1:]):
                strides.insert(0, str(acc))
                acc *= e
            reg_t = {"dtype": dtype, "scope": "register", "shape": shape,
                     "layout": "(" + ",".join(map(str, shape)) + "):(" + ",".join(["1@laneid"] + strides) + ")"}
            regop = rname
        space = tools.pick(draw, ["shared", "shared::cta"], [4, 1])
        shape_q, type_q = "m8n8", "b16"
        if tools.chance(draw, 3):  # a spelling the target refuses
            how = tools.pick(draw, ["space", "shape", "sync"])
            if how == "space":
                space = "shared::cluster"
            elif how == "shape":
                shape_q = "m16n16"
        opcode = f"{kind}.sync.aligned.{shape_q}.x{num}{'.trans' if trans else ''}.{space}.{type_q}"
        ap = {"opcode": opcode, "scope": "warp"}
        ap["dst"], ap["src"] = (regop, memop) if kind == "ldmatrix" else (memop, regop)
        return {mname: mem_t, rname: reg_t}, ap


FAMILY = Matrix()
