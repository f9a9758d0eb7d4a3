"""A Hopper GEMM mainloop built only from proved pieces (issue 31, items 4-5): TMA -> swizzled shared
memory -> wgmma -> registers -> global.  The model layer: no GPU, no emitter.

``Mainloop`` is the problem and the kernel's choices: ``C[M, N] = A[M, K] . B[N, K]^T`` in f32, A row-major
(K contiguous), B K-major (K contiguous), tiles of 64 x ``bn`` (one warpgroup, one ``m64n{bn}k{16|32}``
accumulator), ``stages`` shared buffers, a swizzle mode (none, 32B, 64B, 128B) and an input type (f16,
bf16, e4m3).  M, N, K need not be multiples of the tile: the boxes over the edge are TMA's (zero fill,
counted in the transaction bytes), the stores of the edge tiles are guarded.

``prove(spec)`` builds every piece from the spec and proves each with tilecheck's existing obligations,
nothing restated here:

* **the tensor maps** (A: dims ``[K, M]``, B: ``[K, N]``, element strides 1, the box ``[BK, 64]`` /
  ``[BK, bn]``; swizzle none: a 3-D map ``[T, M, K/T]`` whose box lands 16-byte core matrices):
  ``proofs/descriptor.py``, the driver's rules;
* **each stage's two TMA loads** as ``[[apply]]`` copies of the TMA family (``tma_map``, ``tma_inner``,
  ``tma_smem``: the stage's shared address, ``tma_landing``: where the box lands (``tma_landing.TmaBox``,
  padded rows, the swizzle anchored at shared address 0), ``tma_tx``: each copy's bytes, the whole box);
* **the phase's byte count** (``phase-tx``): ``mbarrier.arrive.expect_tx`` of a stage is the sum of its two
  copies' proved counts, below the mbarrier's 2^20 - 1;
* **the descriptors**, one per operand and stage, *encoded from the landed layout*
  (``smem_descriptor.encode``: a layout no descriptor reads is a refutation, with encode's reason) and
  proved by ``proofs/smem_descriptor.decide`` for a symbolic shared base (a multiple of 1024 with the ring
  below 2^18, the descriptor's address space: the kernel rounds its base up to 1024 bytes and traps past 2^18) with the word as the kernel computes it (the constant fields plus
  ``(base + start) >> 4``) and every K step of the stage (the start advanced as the kernel advances it);
* **the instruction's operands** (``families/wgmma.Wgmma.operand_problems``: A 64 x K, B bn x K tiles);
* **the accumulator and the epilogue**: ``families/wgmma.fragment`` (owned, disjoint, covers) and the
  family's epilogue (``families/wgmma.epilogue``) into the M x N C at every tile corner with ``guard = true``,
  proved by ``tilecheck.prove`` (``guard``: the guard is exact and no column pair straddles C's edge, so an
  odd N is refuted; ownership, alignment and contiguity of the pairs, disjoint, bounds under the guard);
* **the shared budget** (``shared-budget``): the ring, its barriers and the 1024 bytes of slack that let the
  kernel round its base up to 1024 fit the block's 227 KiB.

``prove`` returns a ``Result``: each piece's verdict (``Piece``) and, when every one is proved, a ``Plan``
(the only input ``tilecheck.emit.mainloop`` takes).  Any refutation or unknown: no plan, and the result
says which piece and why.  ``unchecked_swizzle`` / ``unchecked_base_offset`` force the descriptors'
swizzle mode or base offset to a value the proof refutes: the refutation is kept in the result and the
plan is marked ``unchecked`` (the confirmation run: the hardware's product must then be wrong).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import z3

from . import smem_descriptor as sd
from .check import from_dict
from .families import tma as tma_family, wgmma as wg
from .families.mbarrier import MAX_TX  # the mbarrier's transaction count
from .proofs import smem_descriptor as sdp
from .report import prove as prove_check
from .layout import Layout
from .mma_spelling import WGMMA_K, WGMMA_N
from .tma_landing import TmaBox

M_TILE = 64  # rows of one warpgroup's accumulator
THREADS = 128
SWIZZLES = ("none", "32B", "64B", "128B")
SPAN = {"none": 128, "32B": 32, "64B": 64, "128B": 128}  # bytes of K a stage holds per row
DTYPES = {"f16": ("float16", "float16", 16), "bf16": ("bfloat16", "bfloat16", 16), "e4m3": ("uint8", "uint8", 8)}
# dtype -> (tensor dtype of the check file, CUtensorMapDataType name, element bits)
SHARED_LIMIT = 232448  # dynamic shared memory a block may opt in to on sm_90 (227 KiB)
SMEM_SPACE = 1 << 18  # descriptor start addresses: 18 bits
BAR_BYTES = 8
ALIGN_SLACK = 1024  # dynamic shared bytes past the ring: the kernel rounds its base up to 1024 bytes


class SpecError(ValueError):
    """A spec this kernel does not take (one line naming the field)."""


@dataclass(frozen=True)
class Mainloop:
    m: int
    n: int
    k: int
    bn: int = 128
    stages: int = 3
    swizzle: str = "128B"
    dtype: str = "f16"
    pad: int = 0  # bytes of shared memory before the ring (0: the ring starts on the 1024-byte boundary)
    unchecked_swizzle: str | None = None  # force the descriptors' swizzle mode (a refuted plan, marked unchecked)
    unchecked_base_offset: int | None = None  # force the descriptors' base offset
    wgs: int = 1  # consumer warpgroups a CTA: the tile is 64*wgs x bn, each warpgroup 64 rows of it
    overlap: bool = False  # keep one K tile's wgmmas in flight (wait_group 1), refill the stage before it
    producer: bool = False  # a producer warp issues the loads; the consumers release each stage on an mbarrier
    raster: int = 0  # 0: CTA (x, y) computes tile (x, y); G > 0: a 1-D grid walking G M-tiles at a time along N

    def __post_init__(self):
        for name in ("m", "n", "k"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 2**31 - 1:
                raise SpecError(f"{name} = {v!r}: a positive integer below 2^31")
        if self.bn not in WGMMA_N:
            raise SpecError(f"bn = {self.bn!r}: a multiple of 8 in [8, 256] (the wgmma N)")
        if isinstance(self.stages, bool) or not isinstance(self.stages, int) or not 1 <= self.stages <= 16:
            raise SpecError(f"stages = {self.stages!r}: 1..16")
        if self.swizzle not in SWIZZLES:
            raise SpecError(f"swizzle = {self.swizzle!r}: one of {', '.join(SWIZZLES)}")
        if self.dtype not in DTYPES:
            raise SpecError(f"dtype = {self.dtype!r}: one of {', '.join(DTYPES)}")
        if isinstance(self.pad, bool) or not isinstance(self.pad, int) or not 0 <= self.pad < 4096:
            raise SpecError(f"pad = {self.pad!r}: 0..4095 bytes")
        if self.unchecked_swizzle is not None and self.unchecked_swizzle not in SWIZZLES:
            raise SpecError(f"unchecked_swizzle = {self.unchecked_swizzle!r}: one of {', '.join(SWIZZLES)}")
        if self.unchecked_base_offset is not None and self.unchecked_base_offset not in range(8):
            raise SpecError(f"unchecked_base_offset = {self.unchecked_base_offset!r}: 0..7")
        if self.wgs not in (1, 2):
            raise SpecError(f"wgs = {self.wgs!r}: 1 or 2 warpgroups")
        if not isinstance(self.overlap, bool):
            raise SpecError(f"overlap = {self.overlap!r}: a bool")
        if not isinstance(self.producer, bool):
            raise SpecError(f"producer = {self.producer!r}: a bool")
        if isinstance(self.raster, bool) or not isinstance(self.raster, int) or not 0 <= self.raster <= 64:
            raise SpecError(f"raster = {self.raster!r}: 0 (a 2-D grid) or a group of 1..64 M-tiles")
        if self.overlap and self.stages < 2:
            raise SpecError("overlap needs stages >= 2 (the stage being refilled is the one before the tile in flight)")

    # derived sizes ---------------------------------------------------------------------------
    @property
    def elem_bits(self) -> int:
        return DTYPES[self.dtype][2]

    @property
    def esize(self) -> int:
        return self.elem_bits // 8

    @property
    def ik(self) -> int:
        """K of one wgmma (16 for f16/bf16, 32 for e4m3)."""
        return WGMMA_K[self.dtype]

    @property
    def bk(self) -> int:
        """K of one stage, in elements: one swizzle row (the span), 128 bytes without a swizzle."""
        return SPAN[self.swizzle] // self.esize

    @property
    def chunk(self) -> int:
        """Elements of a 16-byte chunk (T): a core matrix row."""
        return 16 // self.esize

    @property
    def ksteps(self) -> int:
        return self.bk // self.ik

    @property
    def rows(self) -> int:
        """Rows of C a CTA computes: 64 a warpgroup."""
        return M_TILE * self.wgs

    @property
    def consumers(self) -> int:
        """Threads that issue wgmma: one warpgroup each."""
        return THREADS * self.wgs

    @property
    def threads(self) -> int:
        """The consumers, then (``producer``) one producer warp."""
        return self.consumers + (32 if self.producer else 0)

    @property
    def barriers(self) -> int:
        """mbarriers: a stage's 'full' one, and with ``producer`` its 'empty' one."""
        return self.stages * (2 if self.producer else 1)

    @property
    def mtiles(self) -> int:
        return -(-self.m // self.rows)

    @property
    def ntiles(self) -> int:
        return -(-self.n // self.bn)

    @property
    def ktiles(self) -> int:
        return -(-self.k // self.bk)

    @property
    def unchecked(self) -> bool:
        return self.unchecked_swizzle is not None or self.unchecked_base_offset is not None

    def box(self, operand: str) -> TmaBox:
        rows = self.rows if operand == "A" else self.bn
        if self.swizzle == "none":  # core matrices: [T, rows, BK/T], 16-byte rows
            return TmaBox(self.esize, (self.chunk, rows, self.bk // self.chunk), None, "none")
        return TmaBox(self.esize, (self.bk, rows), None, self.swizzle)

    @property
    def a_bytes(self) -> int:
        return self.box("A").footprint

    @property
    def b_bytes(self) -> int:
        return self.box("B").footprint

    @property
    def stage_bytes(self) -> int:
        return self.a_bytes + self.b_bytes

    @property
    def bar_offset(self) -> int:
        return -(-(self.pad + self.stages * self.stage_bytes) // BAR_BYTES) * BAR_BYTES

    @property
    def shared_bytes(self) -> int:
        """Bytes from the (1024-aligned) base: the ring, then its barriers."""
        return self.bar_offset + BAR_BYTES * self.barriers

    @property
    def launch_bytes(self) -> int:
        """The dynamic shared memory to launch with: ``shared_bytes`` and the slack to round the base up to 1024."""
        return self.shared_bytes + ALIGN_SLACK

    def operand_offset(self, operand: str, stage: int) -> int:
        """Bytes from the (1024-aligned) shared base to the operand's buffer of ``stage``."""
        return self.pad + stage * self.stage_bytes + (0 if operand == "A" else self.a_bytes)

    @property
    def flops(self) -> int:
        return 2 * self.m * self.n * self.k

    def __str__(self):
        return (f"M={self.m} N={self.n} K={self.k} tile {self.rows}x{self.bn}x{self.bk} stages={self.stages} "
                f"swizzle={self.swizzle} dtype={self.dtype}" + (f" pad={self.pad}" if self.pad else "")
                + (f" wgs={self.wgs}" if self.wgs > 1 else "") + (" overlap" if self.overlap else "")
                + (" producer" if self.producer else "") + (f" raster={self.raster}" if self.raster else ""))


@dataclass(frozen=True)
class Piece:
    """One proved piece: ``name`` (e.g. ``tma A stage 0``, ``descriptor B stage 1``), ``verdict`` (proved,
    refuted, unknown), the obligations' names and the first refutation's or unknown's message."""
    name: str
    verdict: str
    obligations: tuple = ()
    message: str = ""


@dataclass(frozen=True)
class OperandPlan:
    """What the kernel needs of one operand, from its proved pieces."""
    name: str  # A | B
    tmap: dict  # cuTensorMapEncodeTiled's arguments (dtype, dims, strides, box, swizzle) but the address
    box_bytes: int
    dst: tuple  # per stage: bytes from the shared base to the box's destination
    desc_const: int  # the descriptor word with start field 0 (LBO, SBO, base offset, mode)
    start: tuple  # per stage: the start address's bytes from the shared base (warpgroup 0's)
    advance: tuple  # K steps 1..: bytes added to the start
    wg_step: int = 0  # bytes from one warpgroup's start to the next's (A: 64 rows on; B: 0, shared)


_TOKEN = object()


@dataclass(frozen=True)
class Plan:
    """The emitter's input; only ``prove`` makes one (a proved spec, or an unchecked one marked so)."""
    token: object = field(repr=False)
    spec: Mainloop
    a: OperandPlan
    b: OperandPlan
    tx: int
    unchecked: bool
    refutations: tuple = ()  # the unchecked plan's refuted pieces' messages

    def __post_init__(self):
        if self.token is not _TOKEN:
            raise PermissionError("a mainloop Plan comes from tilecheck.mainloop.prove only")


@dataclass
class Result:
    spec: Mainloop
    pieces: list
    plan: Plan | None = None
    reason: str = ""  # why no plan (the first refuted or unknown piece)

    @property
    def verdict(self) -> str:
        vs = {p.verdict for p in self.pieces}
        return "refuted" if "refuted" in vs else "unknown" if "unknown" in vs else "proved"

    def to_text(self) -> str:
        lines = [f"mainloop {self.spec}: {self.verdict}" + (" (plan unchecked)" if self.plan and self.plan.unchecked
                                                              else "")]
        for p in self.pieces:
            lines.append(f"  {p.name:<28} {p.verdict}")
        for p in self.pieces:
            if p.verdict != "proved":
                lines.append(f"  - {p.name}: {p.message}")
        return "\n".join(lines)


# the pieces ------------------------------------------------------------------------------------

def tensormap_args(spec: Mainloop, operand: str) -> dict:
    """``cuTensorMapEncodeTiled``'s arguments for operand A (``[M, K]``) or B (``[N, K]``), but the address."""
    rows = spec.m if operand == "A" else spec.n
    box = spec.box(operand)
    dtype = DTYPES[spec.dtype][1]
    row_bytes = spec.k * spec.esize
    if spec.swizzle == "none":  # [T, rows, K/T]: a 16-byte chunk, the rows, the chunks along K
        return {"dtype": dtype, "dims": [spec.chunk, rows, -(-spec.k // spec.chunk)], "strides": [row_bytes, 16],
                "box": list(box.box), "element_strides": [1, 1, 1], "swizzle": "none"}
    return {"dtype": dtype, "dims": [spec.k, rows], "strides": [row_bytes], "box": list(box.box),
            "element_strides": [1, 1], "swizzle": spec.swizzle}


def landed(spec: Mainloop, operand: str) -> Layout:
    """Where the box lands, as a layout over the shared tensor's index (outermost first)."""
    L = spec.box(operand).layout()
    return Layout(tuple(reversed(L.shape)), tuple(reversed(L.stride)), L.swizzle)


def operand_layout(spec: Mainloop, operand: str, wg: int = 0) -> tuple[Layout, int]:
    """The landed box as the ``(MN, K)`` layout warpgroup ``wg``'s descriptor reads, and its offset in elements
    from the box: the same offsets re-indexed (2-D box ``(BK, rows)``: MN is dimension 1, K dimension 0; the
    3-D box ``(T, rows, BK/T)``: K is ``(dim 0, dim 2)``), A's rows ``[64 wg, 64 wg + 64)`` (B: all of them)."""
    L = spec.box(operand).layout()  # modes innermost first
    rows = M_TILE if operand == "A" else spec.bn
    start = wg * M_TILE * L.stride[1] if operand == "A" else 0  # rows are one mode: 64 wg rows on
    if len(L.shape) == 2:
        return Layout((rows, L.shape[0]), (L.stride[1], L.stride[0]), L.swizzle), start
    return Layout((rows, (L.shape[0], L.shape[2])), (L.stride[1], (L.stride[0], L.stride[2])), L.swizzle), start


def _tma_check(spec: Mainloop) -> dict:
    """The tensor maps and every stage's two loads as a check (``check.from_dict``'s form)."""
    tdtype = DTYPES[spec.dtype][0]
    rank = len(spec.box("A").box)
    symbols = {"mt": {"min": 0, "max": spec.mtiles - 1}, "nt": {"min": 0, "max": spec.ntiles - 1},
               "kt": {"min": 0, "max": spec.ktiles - 1}}
    tensors = {"A": {"dtype": tdtype, "scope": "global", "shape": [spec.m, spec.k], "align": 256},
               "B": {"dtype": tdtype, "scope": "global", "shape": [spec.n, spec.k], "align": 256}}
    tensormaps, applies = {}, []
    opcode = tma_family.load_spelling(rank)
    idx = "i j" if rank == 2 else "i j l"
    for op in ("A", "B"):
        args = tensormap_args(spec, op)
        tensormaps[f"T{op}"] = {"tensor": op, "dtype": args["dtype"], "dims": args["dims"], "strides": args["strides"],
                                "box": args["box"], "swizzle": args["swizzle"]}
        row = f"{spec.rows}*mt" if op == "A" else f"{spec.bn}*nt"
        coords = [f"{spec.bk}*kt", row] if rank == 2 else [0, row, f"{spec.bk // spec.chunk}*kt"]
        L = landed(spec, op)
        for s in range(spec.stages):
            name = f"S{op}{s}"
            off = spec.operand_offset(op, s)
            if off % spec.esize:
                raise SpecError(f"pad = {spec.pad}: the stage buffers must start on whole elements")
            tensors[name] = {"dtype": tdtype, "scope": "shared", "shape": list(L.shape), "layout": str(L),
                             "align": 1024, "offset": off // spec.esize}
            applies.append({"opcode": opcode, "dst": f"{name}: {idx} -> ({idx})", "src": f"{op}[{', '.join(['0:1'] * 2)}]",
                            "tensormap": f"T{op}", "coords": coords, "expect_tx": spec.box(op).nbytes})
    return {"arch": "sm_90", "symbols": symbols, "tensors": tensors, "tensormaps": tensormaps, "apply": applies}


def _tma_pieces(spec: Mainloop, timeout: float) -> list[Piece]:
    check = from_dict(_tma_check(spec), f"<mainloop {spec}>")
    report = prove_check(check, timeout=timeout)
    out = []
    for m, outs in report.tensormaps:
        bad = [o for o in outs if o.status != "proved"]
        out.append(Piece(f"tensor map {m.tensor}", bad[0].status if bad else "proved", tuple(o.name for o in outs),
                         bad[0].message if bad else ""))
    for a in report.applies:
        name = a.apply.dst.tensor if hasattr(a.apply.dst, "tensor") else str(a.apply.dst)
        op, stage = name[1], name[2:]
        blocking = [o for o in a.obligations if o.status in ("refuted", "unknown") and a.verdict != "proved"]
        bad = [o for o in blocking if o.status == a.verdict] if a.verdict != "proved" else []
        out.append(Piece(f"tma {op} stage {stage}", a.verdict, tuple(o.name for o in a.obligations),
                         bad[0].message if bad else ""))
    return out


def _phase_tx(spec: Mainloop) -> tuple[Piece, int]:
    a, b = spec.box("A").nbytes, spec.box("B").nbytes
    tx = a + b
    ok = tx <= MAX_TX
    return Piece("phase-tx", "proved" if ok else "refuted", ("phase-tx",),
                 "" if ok else f"phase-tx refuted: the stage's two boxes deliver {tx} bytes, over the mbarrier's "
                               f"transaction count 2^20 - 1"), tx


def _budget(spec: Mainloop) -> Piece:
    ok = spec.launch_bytes <= SHARED_LIMIT
    return Piece("shared-budget", "proved" if ok else "refuted", ("shared-budget",),
                 "" if ok else f"shared-budget refuted: {spec.stages} stages of {spec.stage_bytes} bytes and their "
                               f"barriers need {spec.shared_bytes} bytes of shared memory ({spec.launch_bytes} with the "
                               f"{ALIGN_SLACK} to align the base), over the {SHARED_LIMIT} a block may use")


def _descriptor(spec: Mainloop, op: str, stage: int, timeout: float, group: int = 0):
    """(Piece, fields at base 0 or None, advance): warpgroup ``group``'s descriptor of the operand in ``stage``,
    encoded from the landed layout and proved for a symbolic 1024-aligned shared base."""
    name = f"descriptor {op} stage {stage}" + (f" wg {group}" if op == "A" and spec.wgs > 1 else "")
    rows = M_TILE if op == "A" else spec.bn
    tile = (rows, spec.ik)
    lay, first = operand_layout(spec, op, group)
    off = spec.operand_offset(op, stage) // spec.esize + first
    enc = sd.encode(lay, "K", spec.elem_bits, tile, 0, off)
    if enc.fields is None:
        return Piece(name, "refuted", ("descriptor-encode",),
                     f"descriptor-encode refuted: the landed layout {lay} of S{op}{stage}: {enc.reason}"), None, ()
    f0 = enc.fields
    if spec.unchecked_swizzle is not None:
        f0 = replace(f0, swizzle=spec.unchecked_swizzle)
    if spec.unchecked_base_offset is not None:
        f0 = replace(f0, base_offset=spec.unchecked_base_offset)
    plain = Layout(lay.shape, lay.stride)
    u = lambda i, j: (off + plain((i, j))[""]) * spec.esize  # noqa: E731  unswizzled bytes from the base
    advance = tuple(u(0, j * spec.ik) - u(0, 0) for j in range(1, spec.ksteps))
    base = z3.BitVec("smem", 64)
    # the kernel rounds its base up to 1024 bytes and traps unless the ring ends below 2^18 (emit/mainloop.py)
    facts = (z3.URem(base, 1024) == 0, z3.ULE(base, SMEM_SPACE - spec.shared_bytes))
    const = sd.pack(replace(f0, start=0))
    # as the kernel computes it: the constant fields, or the 14-bit start field ((base + start) >> 4) & 0x3FFF
    word = z3.BitVecVal(const, 64) | z3.ZeroExt(50, z3.Extract(13, 0, z3.LShR(base + f0.start, 4)))
    fields = replace(f0, start=base + f0.start)
    operand = sdp.Operand(lay, spec.elem_bits, base, off, f"S{op}{stage}")
    decl = sdp.Declaration(f"{op}{stage}" + (f"w{group}" if name.endswith(f"wg {group}") else ""), operand, "K", fields, tile, word, advance, facts)
    problems = wg.DECLARATION.operand_problems(_opcode(spec), **{op.lower(): decl}) if spec.elem_bits == 16 else []
    outs = sdp.decide(decl, timeout_s=timeout)
    bad = [o for o in outs if o.status in ("refuted", "unknown")]
    if problems:
        return Piece(name, "refuted", ("operand",), f"operand refuted: {problems[0]}"), f0, advance
    verdict = "refuted" if any(o.status == "refuted" for o in bad) else "unknown" if bad else "proved"
    first = next((o for o in bad if o.status == verdict), None)
    return Piece(name, verdict, tuple(o.name for o in outs), first.message if first else ""), f0, advance


def _opcode(spec: Mainloop):
    return wg.parse(f"wgmma.mma_async.sync.aligned.m64n{spec.bn}k16.f32.{spec.dtype}.{spec.dtype}")


def _epilogue(spec: Mainloop, timeout: float) -> list[Piece]:
    out = []
    frag = wg.fragment(spec.bn)
    bad = [v for v in frag if not v.proved]
    out.append(Piece("fragment", "refuted" if bad else "proved", tuple(v.name for v in frag),
                     f"{bad[0].name} refuted: {bad[0].message}" if bad else ""))
    report = prove_check(from_dict(epilogue_check(spec), f"<epilogue m64n{spec.bn} of C[{spec.m}, {spec.n}]>"),
                         timeout=timeout)
    a = report.applies[0]
    bad = [o for o in a.obligations if o.status == a.verdict] if a.verdict != "proved" else []
    out.append(Piece("epilogue", a.verdict, tuple(o.name for o in a.obligations), bad[0].message if bad else ""))
    return out


def epilogue_check(spec: Mainloop) -> dict:
    """A warpgroup's guarded epilogue as a check: the family's (``wgmma.epilogue``: D in its fragment, stored
    with ``st.global.v2.f32``) into the M x N float32 C at the tile's corner ``(r0, c0)`` -- every corner a
    warpgroup's 64 rows and the CTA's ``bn`` columns take -- with ``guard = true``: each column pair is stored
    where it lies inside C (the ``guard`` obligation: exact, and no pair straddles C's edge).  C's align is 256,
    as the runtime's allocations."""
    d = wg.epilogue(spec.bn)
    d["symbols"] = {"r0": {"min": 0, "max": M_TILE * ((spec.m - 1) // M_TILE), "multiple_of": M_TILE},
                    "c0": {"min": 0, "max": spec.bn * (spec.ntiles - 1), "multiple_of": spec.bn}}
    d["tensors"]["C"].update(shape=[spec.m, spec.n], align=256)
    a = d["apply"][0]
    a["guard"] = True
    a["dst"] = f"C[r0:r0+{M_TILE}, c0:c0+{spec.bn}]: " + a["dst"].split(": ", 1)[1]
    return d


def prove(spec: Mainloop, timeout: float = 10.0) -> Result:
    """Every piece of the mainloop of ``spec`` built and proved; a ``Plan`` when all are (or when the spec
    forces an unchecked descriptor: then marked ``unchecked``)."""
    pieces = _tma_pieces(spec, timeout)
    tx_piece, tx = _phase_tx(spec)
    pieces += [tx_piece, _budget(spec)]
    ops = {}
    for op in ("A", "B"):
        fs, advs = [], None
        for s in range(spec.stages):
            for g in range(spec.wgs if op == "A" else 1):
                piece, f0, adv = _descriptor(spec, op, s, timeout, g)
                pieces.append(piece)
                fs.append((s, g, f0))
                advs = adv
        ops[op] = (fs, advs)
    pieces += _epilogue(spec, timeout)
    result = Result(spec, pieces)
    failed = [p for p in pieces if p.verdict != "proved"]
    forced = {p.name for p in failed if p.name.startswith("descriptor ") and p.verdict == "refuted"}
    if failed and not (spec.unchecked and all(p.name in forced for p in failed)):
        result.reason = f"{failed[0].name}: {failed[0].message}"
        return result
    if spec.unchecked and not failed:
        result.reason = "the forced descriptor is not refuted: nothing to confirm"
        return result
    plans = {}
    for op in ("A", "B"):
        fs, advs = ops[op]
        consts = {sd.pack(replace(f, start=0)) for _, _, f in fs}
        start = {(s, g): f.start for s, g, f in fs}
        step = start[(0, 1)] - start[(0, 0)] if (0, 1) in start else 0
        if len(consts) != 1 or any(v != start[(0, 0)] + s * spec.stage_bytes + g * step for (s, g), v in start.items()):
            result.reason = (f"descriptor {op}: the descriptors of the stages and warpgroups differ in more than an "
                             f"affine start address (the kernel computes each word from the first)")
            return result
        box = spec.box(op)
        plans[op] = OperandPlan(op, tensormap_args(spec, op), box.nbytes,
                                tuple(spec.operand_offset(op, s) for s in range(spec.stages)), consts.pop(),
                                tuple(start[(s, 0)] for s in range(spec.stages)), advs, step)
    result.plan = Plan(_TOKEN, spec, plans["A"], plans["B"], tx, spec.unchecked,
                       tuple(p.message for p in failed))
    return result


def supported() -> list[Mainloop]:
    """The configurations the tests sweep (each proved, emitted and assembled): every swizzle mode and input
    type at tile widths 64, 128, 256, and with two warpgroups and one K tile in flight (with and without a
    producer warp and the grouped CTA order), with M, N and K ragged (K = 3.5 stages' K: the last box half over
    the edge; 4 K tiles through 3 stages: the refill runs)."""
    out = []
    for dtype in DTYPES:
        for sw in SWIZZLES:
            bk = SPAN[sw] // (DTYPES[dtype][2] // 8)
            for bn in (64, 128, 256):
                out.append(Mainloop(200, 2 * bn + 24, 3 * bk + bk // 2, bn, 3 if bn < 256 else 2, sw, dtype))
            # two warpgroups (a 128-row tile), one K tile's wgmmas in flight; and with a producer warp
            out.append(Mainloop(300, 280, 3 * bk + bk // 2, 128, 3, sw, dtype, wgs=2, overlap=True))
            out.append(Mainloop(300, 280, 3 * bk + bk // 2, 128, 3, sw, dtype, wgs=2, overlap=True, producer=True,
                                raster=2))
    return out


__all__ = ["Mainloop", "Piece", "Plan", "Result", "SpecError", "prove", "supported", "tensormap_args",
           "operand_layout", "landed"]
