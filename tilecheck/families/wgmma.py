"""wgmma (sm_90a): a warpgroup's ``wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}``, its accumulator
fragment and operands as a declaration on the access model (issue 31, item 2's register side and item 4's
first step).  Not yet an ``[[apply]]`` family: this module defines no ``FAMILY`` (so
``families._discover`` does not register it) until the check model can carry three operands; what it
needs is at the end of this docstring and in docs/wgmma.md, "The wgmma family".

**The accumulator.**  ``m64nNk16`` with ``.f32`` accumulators: each of the 128 threads of the warpgroup
(``machine.GROUPS["warpgroup"]``: warp ``w`` of the group, lane ``l``) holds ``N / 2`` f32 registers
``d0 .. d{N/2-1}``; register ``i`` of thread ``(w, l)`` is element

    row = 16*w + l//4 + 8*((i % 4) // 2),   column = 8*(i // 4) + 2*(l % 4) + (i % 2)

of the 64 x N tile D (PTX ISA 9.0, 9.7.15.5.1.1.1 "Matrix Fragments for wgmma.mma_async.m64nNk16", Figure
149, accumulator D: the 64 x 8 core pattern of four warps repeated ``N / 8`` times along N).  As a thread-value layout (``accumulator``): ``(thread,
value) -> m + 64*n``, thread ``t = 32*w + l`` split ``(l%4, l//4, w)``, value ``i`` split ``(i%2,
(i%4)//2, i//4)`` -- CUTLASS's ``CLayout_64xN`` (``cute/atom/mma_traits_sm90_gmma.hpp``):
``((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))``.  The same map declared as a *register tensor* of a
check file (``register_layout``: ``(row, column) -> slot`` with ``@laneid``/``@warpid`` strides for
the holding thread) is what an epilogue stores from with the ordinary families
(``examples/wgmma_epilogue_st_global.toml``).

**The fragment's obligations** (``fragment``), exact for each N (every thread and value enumerated):

* ``fragment-owned``: the register tensor puts element ``TV(t, i)`` in thread ``t``'s slot ``i``
  (the register the instruction writes is the one the code reads); refuted with the element, the
  thread and slot the instruction uses and the ones the declaration names;
* ``fragment-disjoint``: no element is in two threads' fragments (two (thread, register) pairs
  named); ``fragment-covers``: every element of the 64 x N tile is in some fragment (the missed
  element named).  Disjoint and covering together: the fragments partition the tile.

The epilogue's stores are then the existing families' contract (ownership: the store's thread holds
the element it stores, disjoint, bounds, alignment, contiguity of the ``.v2`` column pairs).

**The operands** (``Wgmma.operand_roles``): D, the accumulator (registers, read and written: ``D = A*B
+ D``), and A, B (shared memory, read through 64-bit matrix descriptors: ``smem_descriptor.decode`` is
the layout each descriptor makes the tensor core read, ``proofs/smem_descriptor.py`` the obligations).
What the check model lacks to make this an ``[[apply]]`` family: ``check.Apply`` has two operand
views (``dst``, ``src``), ``Family.roles`` returns ``(dst, src)``, ``accesses.of`` iterates exactly
those, and every memory operand is an address each thread gives for its own atom (``Role.values``
maps a thread's atom onto one group coordinate, the lane).  A wgmma apply needs (1) a third operand
key (``a``, ``b``, ``d``, or ``operands = {...}``) in ``check.Apply`` and its loader, (2) an operand
role whose address is a descriptor, not a per-thread address: an access kind ``DESCRIPTOR`` whose
obligations are ``proofs/smem_descriptor.OBLIGATIONS`` (encoding, base, layout against the named
shared tensor, K advance) plus "uniform across the warpgroup", (3) a thread-value layout over the
two coordinates ``(warp, lane)`` of the warpgroup (``tv.origin``/``tv.holds`` read one, the lane),
(4) ``warpgroup`` in the decider's and the numpy reference's scopes (``machine.APPLY_SCOPES``).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from .. import mma_spelling, oracle, smem_descriptor
from ..expr import evaluate
from ..layout import Layout, parse_layout
from ..machine import GROUPS, WARP
from ..errors import InputError
from ..opcodes import OpcodeError, parse_arch
from . import ATOMIC, DESCRIPTOR, MEMORY, READ, REGISTER, Family, Role

M = 64  # rows of D: one warpgroup, four warps of 16 rows
K = 16  # .f16 / .bf16
NS = mma_spelling.WGMMA_N  # 8, 16, ..., 256
GROUP = "warpgroup"
THREADS = GROUPS[GROUP].span(GROUPS[GROUP].multiple)  # 128
INPUTS = ("f16", "bf16")
FENCE = "wgmma.fence.sync.aligned;"
COMMIT = "wgmma.commit_group.sync.aligned;"
WAIT = "wgmma.wait_group.sync.aligned 0;"


def _n(n: int) -> int:
    if n not in NS:
        raise ValueError(f"wgmma N = {n}: a multiple of 8 in [8, 256]")
    return n


def accumulator(n: int) -> Layout:
    """The accumulator's thread-value layout ``(thread, register) -> row + 64*column`` of the 64 x n
    tile (CUTLASS's ``CLayout_64xN``): thread ``32*w + l`` as ``(l%4, l//4, w)``, register ``i`` as
    ``(i%2, (i%4)//2, i//4)``."""
    return parse_layout(f"((4,8,4),(2,2,{_n(n) // 8})):((128,1,16),(64,8,512))")


def register_layout(n: int) -> Layout:
    """The same fragment as a register tensor of shape ``(64, n)``: element ``(row, column)`` is slot
    ``j + 2h + 4c`` of lane ``4g + q`` of warp ``w`` (row ``g + 8h + 16w``, column ``j + 2q + 8c``)."""
    return parse_layout(f"((8,2,4),(2,4,{_n(n) // 8})):((4@laneid,2,1@warpid),(1,1@laneid,4))")


def epilogue_view(n: int) -> str:
    """The view an epilogue stores the fragment with, ``.v2`` (a thread's two adjacent columns per
    instruction): group ``(w, (g q))``, repeats ``c``, ``h``, word ``j``."""
    return f"(w=4 h=2 g=8) (c={_n(n) // 8} q=4 j=2) -> w (g q) c h j"


def epilogue(n: int, space: str = "global") -> dict:
    """The epilogue of ``m64n{n}k16`` as a check (``check.from_dict``'s form): one warpgroup (128 threads,
    ``cta`` scope: ``(warp, lane)``) stores D, declared with ``register_layout(n)``, to a row-major
    64 x n f32 tile in ``space`` with ``st.{space}.v2.f32``, through ``epilogue_view(n)``."""
    view = epilogue_view(n)
    return {"arch": "sm_90", "threads": THREADS,
            "tensors": {"C": {"dtype": "float32", "scope": space, "shape": [M, n], "align": 16},
                        "D": {"dtype": "float32", "scope": "register", "shape": [M, n],
                              "layout": str(register_layout(n))}},
            "apply": [{"opcode": f"st.{space}.v2.f32", "scope": "cta", "dst": f"C: {view}", "src": f"D: {view}"}]}


def elements(values: Layout, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(row, column)`` of every ``(thread, register)``, as ``[thread, register]`` arrays."""
    idx = np.asarray(values(np.arange(THREADS * (n // 2)))).reshape(n // 2, THREADS).T
    return idx % M, idx // M


def holders(registers: Layout, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(thread, slot) a register tensor's layout puts each element ``(rows, cols)`` in."""
    v = registers((rows, cols))
    thread = sum(np.asarray(v.get(a, 0)) * w for a, w in (("laneid", 1), ("warpid", WARP), ("tid", 1)))
    return np.broadcast_to(thread, rows.shape), np.broadcast_to(np.asarray(v[""]), rows.shape)


@dataclass(frozen=True)
class Verdict:
    name: str
    proved: bool
    message: str = ""  # the refutation (empty when proved)
    counterexample: dict | None = None


def fragment(n: int, values: Layout | None = None, registers: Layout | None = None) -> list[Verdict]:
    """The fragment's obligations for ``m64n{n}k16`` (exact: every thread and register enumerated):
    ``values`` the thread-value layout the instruction writes with (default ``accumulator(n)``),
    ``registers`` the register tensor's declared layout (default ``register_layout(n)``)."""
    values = accumulator(n) if values is None else values
    registers = register_layout(n) if registers is None else registers
    if values.size() != THREADS * (n // 2):
        raise ValueError(f"values layout {values}: {values.size()} (thread, register) pairs, expected "
                         f"{THREADS} x {n // 2}")
    rows, cols = elements(values, n)
    out = []
    inside = (rows >= 0) & (rows < M) & (cols >= 0) & (cols < n)
    t_idx, i_idx = np.nonzero(~inside)
    # owned: the declared register tensor names the thread and slot the instruction writes
    th, sl = holders(registers, rows, cols)
    want_t = np.arange(THREADS)[:, None]
    want_i = np.arange(n // 2)[None, :]
    bad = np.argwhere((th != want_t) | (sl != want_i))
    if len(bad):
        t, i = map(int, bad[0])
        r, c = int(rows[t, i]), int(cols[t, i])
        out.append(Verdict("fragment-owned", False,
                           f"wgmma m64n{n}k16 writes D[{r},{c}] to thread {t} (warp {t // WARP}, lane {t % WARP}) "
                           f"register d{i}, but the register tensor's layout puts it in thread {int(th[t, i])} "
                           f"slot {int(sl[t, i])}",
                           {"row": r, "column": c, "thread": t, "register": i, "declared_thread": int(th[t, i]),
                            "declared_slot": int(sl[t, i])}))
    else:
        out.append(Verdict("fragment-owned", True))
    # disjoint: no element in two fragments
    flat = np.where(inside, rows + M * cols, -1 - np.arange(rows.size).reshape(rows.shape))
    order = np.argsort(flat, axis=None, kind="stable")
    sorted_ = flat.reshape(-1)[order]
    dup = np.nonzero(sorted_[1:] == sorted_[:-1])[0]
    if len(dup):
        a, b = (divmod(int(order[k]), n // 2) for k in (dup[0], dup[0] + 1))
        r, c = int(rows[a]), int(cols[a])
        out.append(Verdict("fragment-disjoint", False,
                           f"D[{r},{c}] is in two fragments: thread {a[0]} register d{a[1]} and thread {b[0]} "
                           f"register d{b[1]}",
                           {"row": r, "column": c, "threads": [a[0], b[0]], "registers": [a[1], b[1]]}))
    else:
        out.append(Verdict("fragment-disjoint", True))
    # covers: every element of the 64 x n tile is in some fragment
    hit = np.zeros(M * n, dtype=bool)
    hit[flat[inside]] = True
    if len(t_idx) or not hit.all():
        if not hit.all():
            e = int(np.nonzero(~hit)[0][0])
            msg, ce = (f"D[{e % M},{e // M}] of the 64x{n} tile is in no thread's fragment",
                       {"row": e % M, "column": e // M})
        else:
            t, i = int(t_idx[0]), int(i_idx[0])
            msg, ce = (f"thread {t} register d{i} is D[{int(rows[t, i])},{int(cols[t, i])}], outside the 64x{n} tile",
                       {"thread": t, "register": i})
        out.append(Verdict("fragment-covers", False, msg, ce))
    else:
        out.append(Verdict("fragment-covers", True))
    return out


# --- the instruction: spelling, operands, emission -------------------------------------------------

SPELLING = re.compile(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.(f16|bf16)\.(f16|bf16)")


@dataclass(frozen=True)
class WgmmaOpcode:
    text: str
    kind: str  # "wgmma"
    n: int
    ab: str  # f16 | bf16

    @property
    def vector(self) -> int:
        """f32 accumulator registers per thread."""
        return self.n // 2

    @property
    def space(self) -> str:
        return "shared"

    @property
    def bits(self) -> int:
        """The A and B elements' width (``.f16``, ``.bf16``)."""
        return 16


def parse(text: str) -> WgmmaOpcode:
    t = text.strip()
    m = SPELLING.fullmatch(t)
    if not m:
        raise OpcodeError(f"{t!r}: tilecheck models wgmma.mma_async.sync.aligned.m64nNk16.f32.{{f16,bf16}}.{{f16,bf16}} "
                          "(both operands from descriptors)")
    n, a, b = int(m.group(1)), m.group(2), m.group(3)
    if a != b:
        raise OpcodeError(f"{t!r}: A and B must have one type (.{a}.{b})")
    if n not in NS:
        raise OpcodeError(f"{t!r}: N = {n}, a multiple of 8 in [8, 256]")
    return WgmmaOpcode(t, "wgmma", n, a)


class Wgmma(Family):
    """The family: ``[[apply]]`` with ``d`` (the accumulator's view), ``a`` and ``b`` (``[descriptors.NAME]``)."""
    name = "wgmma"
    instructions = ("wgmma",)
    groups = (GROUP,)
    operands = ("d", "a", "b")
    verbs = ("reads", "accumulates into")
    # fragment-owned: ownership (the issuing thread holds each register) and fragment (register i of thread t
    # is element TV(t, i)); fragment-disjoint: disjoint (a thread's registers are distinct) and fragment;
    # fragment-covers: fragment (TV is a bijection onto the 64 x N tile D declares); the descriptors: desc_*
    obligations = ("target", "space", "shape", "ownership", "disjoint", "fragment", "desc_encoding", "desc_base",
                   "desc_layout", "desc_k_advance", "desc_uniform", "registers")
    emits = False  # instruction() raises: the GEMM's emitter is tilecheck/emit/mainloop.py's (branch mainloop)
    pictured = False  # the product of two shared tiles, read through descriptors: no thread's atom to draw
    unpictured = ("tilecheck does not draw wgmma applications yet (the product of two shared tiles read "
                  "through descriptors, not elements of threads' atoms; docs/wgmma.md)")

    def operand_roles(self, op) -> tuple[Role, Role, Role]:
        """D (the accumulator: registers, read and written, its thread-value layout over the
        warpgroup's 128 threads), A and B (shared memory through descriptors).  D's ``values`` maps
        ``(thread, register)`` to ``row + 64*column`` of the tile (CuTe's C layout), not to a memory
        view's ``(lane, word)`` as ldmatrix's does: ``Role.holds`` inverts it (element -> thread and
        register); ``Role.origin`` has no meaning for it (no thread gives an address)."""
        d = Role("d", REGISTER, ("register",), ATOMIC, values=accumulator(op.n), group_threads=THREADS,
                 tag="wgmma")
        return (d, Role("a", MEMORY, ("shared",), READ), Role("b", MEMORY, ("shared",), READ))

    def roles(self, op):
        """The ``[[apply]]``'s operands: ``d`` (the accumulator's view: registers, read and written, with its
        thread-value layout over the 64 x N tile), ``a`` and ``b`` (descriptors of shared tensors, their
        ``(MN, K)`` tiles)."""
        d, _, _ = self.operand_roles(op)
        tiles = self.tiles(op)
        return (replace(d, tile=(M, op.n)), Role("a", DESCRIPTOR, ("shared",), READ, tile=tiles["a"]),
                Role("b", DESCRIPTOR, ("shared",), READ, tile=tiles["b"]))

    def instruction(self, apply, regs, addr, pred, policy):
        raise InputError(f"{apply.opcode.text}: tilecheck does not emit wgmma applications (the mainloop's emitter "
                         "is another module's; docs/wgmma.md)", f"apply[{apply.index}]")

    def tiles(self, op) -> dict[str, tuple[int, int]]:
        """Each descriptor operand's ``(MN, K)`` tile of one instruction: A is 64 x 16, B is N x 16."""
        return {"a": (M, K), "b": (op.n, K)}

    def operand_problems(self, op, a=None, b=None) -> list[str]:
        """What is wrong with descriptor declarations ``a``, ``b`` (``proofs/smem_descriptor.Declaration``,
        read by their fields only: this package does not import the proofs) as the operands of ``op``,
        one line each (empty: they fit; their own obligations are ``proofs/smem_descriptor.decide``'s)."""
        out = []
        for role, decl in (("a", a), ("b", b)):
            if decl is None:
                continue
            where = f"{op.text}: operand {role.upper()} (descriptor {decl.name})"
            want = self.tiles(op)[role]
            if tuple(decl.tile) != want:
                out.append(f"{where}: tile {tuple(decl.tile)}, the instruction reads {want} (MN, K)")
            if decl.operand.elem_bits != 16:
                out.append(f"{where}: {decl.operand.elem_bits}-bit elements, .{op.ab} is 16-bit")
            if decl.fields.arch != "sm_90":
                out.append(f"{where}: a {decl.fields.arch} descriptor word, wgmma reads sm_90's")
            if decl.major not in ("K", "MN"):
                out.append(f"{where}: major {decl.major!r}, K or MN")
        return out

    @staticmethod
    def trans(decl) -> int:
        """``imm-trans`` for an operand: 1 when its descriptor is MN-major (16-bit types only)."""
        return int(decl is not None and decl.major == "MN")

    parse = staticmethod(parse)

    def legality(self, op, arch) -> str | None:
        if parse_arch(arch).name != mma_spelling.WGMMA_TARGET:
            return f"{op.text} needs {mma_spelling.WGMMA_TARGET} (wgmma is sm_90a only), target is {arch}"
        return None

    def ptx_version(self, op, arch) -> tuple[int, int]:
        return tuple(int(x) for x in mma_spelling.WGMMA_VERSION.split("."))  # PTX ISA 8.0

    # emission: the instruction between the fence and the commit/wait (``lines``)
    prologue = (FENCE,)
    drain = (COMMIT, WAIT)

    def text(self, op, regs: list[str], a: str, b: str, scale_d: str, trans_a: int = 0, trans_b: int = 0) -> str:
        """One wgmma's text: ``regs`` the ``N / 2`` accumulator registers in fragment order (register
        ``i`` is ``accumulator(n)``'s value ``i``)."""
        if len(regs) != op.vector:
            raise ValueError(f"{op.text}: {op.vector} accumulator registers, got {len(regs)}")
        line = mma_spelling.wgmma(op.n, op.ab, "%__acc", a, b, scale_d, trans_a, trans_b)
        return line.replace(", ".join(f"%__acc{i}" for i in range(op.vector)), ", ".join(regs))

    def lines(self, op, regs: list[str], a: str, b: str, scale_d: str, trans_a: int = 0,
              trans_b: int = 0) -> list[str]:
        """The instruction issued as the warpgroup must: fence, mma, commit, wait (``trans_*``: ``trans``
        of each operand's descriptor)."""
        return [*self.prologue, self.text(op, regs, a, b, scale_d, trans_a, trans_b), *self.drain]


DECLARATION = FAMILY = Wgmma()


def issue_and_store(op: WgmmaOpcode) -> list[str]:
    """The warpgroup's lines from the wgmma to the stored fragment: ``%t`` the thread, the fence, the
    wgmma of ``op`` into ``%d0 .. %d{N/2-1}`` (descriptors ``%desc_a``, ``%desc_b``, ``%scale_d``), commit,
    wait, then each thread's fragment stored to the row-major 64 x N f32 tile at ``%c`` (a global address)
    at the fragment map's addresses: ``st.global.v2.f32`` of registers ``4c + 2h``, ``+1`` at row
    ``16w + l/4 + 8h``, column ``8c + 2(l%4)``.  Registers: ``.b32 %t, %w, %l, %g, %q, %row, %off``,
    ``.b64 %c, %a``, ``.f32 %d<N/2>``."""
    n = op.n
    body = [
        "mov.u32 %t, %tid.x;", "shr.u32 %w, %t, 5;", "and.b32 %l, %t, 31;",
        "shr.u32 %g, %l, 2;", "and.b32 %q, %l, 3;",
        "shl.b32 %row, %w, 4;", "add.u32 %row, %row, %g;",        # 16w + l/4
        f"mul.lo.u32 %off, %row, {n};", "shl.b32 %q, %q, 1;", "add.u32 %off, %off, %q;",  # + 2(l%4)
        "mul.wide.u32 %a, %off, 4;", "add.u64 %a, %a, %c;",
        *DECLARATION.lines(op, [f"%d{i}" for i in range(op.vector)], "%desc_a", "%desc_b", "%scale_d"),
    ]
    for c in range(n // 8):
        for h in range(2):
            i = 4 * c + 2 * h
            body.append(f"st.global.v2.f32 [%a+{4 * (8 * h * n + 8 * c)}], {{%d{i}, %d{i + 1}}};")
    return body


def kernel(op: WgmmaOpcode, version: str = mma_spelling.WGMMA_VERSION) -> str:
    """A one-warpgroup kernel for ptxas: the descriptors from the parameters, then ``issue_and_store``."""
    n = op.n
    return "\n".join([
        f".version {version}", f".target {mma_spelling.WGMMA_TARGET}", ".address_size 64", "",
        f".visible .entry wgmma_m64n{n}k16_{op.ab}(.param .u64 p_a, .param .u64 p_b, .param .u64 p_c)",
        "{", "  .reg .b64 %desc_a, %desc_b, %c, %a;", "  .reg .b32 %t, %w, %l, %g, %q, %row, %off;",
        "  .reg .pred %scale_d;", f"  .reg .f32 %d<{op.vector}>;",
        "  ld.param.u64 %desc_a, [p_a];", "  ld.param.u64 %desc_b, [p_b];", "  ld.param.u64 %c, [p_c];",
        "  cvta.to.global.u64 %c, %c;", "  setp.ne.b64 %scale_d, %desc_a, 0;",
        *(f"  {x}" for x in issue_and_store(op)), "  ret;", "}", ""])



# --- the decider's restatement (tilecheck/decide.py reads RULES): each rule at one symbol assignment, by
# enumeration, written apart from proofs/fragment.py and proofs/desc_*.py (no Z3, no evaluation code of the
# prover's: the views and declared layouts through ``oracle``, the accumulator from the PTX figure, the
# descriptor's reads through ``smem_descriptor``'s integer semantics); a rule returns a witness dict or None ---

MASK64 = 2**64 - 1
SHARED_BYTES = 227 * 1024  # a CTA's shared memory on sm_90: a descriptor's tensor ends inside it
ADDRESSES = 4  # the tensor addresses tried per assignment: the first multiples of its align
_INT_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
            ast.FloorDiv: lambda a, b: a // b if b else 0, ast.Mod: lambda a, b: a % b if b else a,
            ast.LShift: lambda a, b: a << b if b < 64 else 0, ast.RShift: lambda a, b: a >> b,
            ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b}


def _value(x, env: dict) -> int | None:
    """A descriptor field at the names' values (unsigned 64-bit arithmetic)."""
    if x is None or isinstance(x, int):
        return x

    def walk(node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env[node.id]
        return _INT_OPS[type(node.op)](walk(node.left), walk(node.right)) & MASK64
    return walk(ast.parse(x, mode="eval").body)


def _descriptors(check, apply):
    return [(role, apply.operand(role)) for role in ("a", "b")]


def _declared(check, t, env, mn, k):
    index = (np.asarray(mn), np.asarray(k))
    return t.esize * np.asarray(oracle.layout_value(t.layout, index, env, t.offset)[""])


def _cases(check, apply, env):
    """(role, descriptor, tensor, tile, names' values, hardware fields or the word's problem), over the
    first ``ADDRESSES`` allowed addresses of the descriptor's tensor (every other named tensor at its first)."""
    for role, d in _descriptors(check, apply):
        t = check.tensors[d.tensor]
        tile = DECLARATION.tiles(apply.opcode)[role]
        size = t.esize * (max(int(np.max(_declared(check, t, {}, *np.indices(tuple(int(e) for e in t.shape)))))
                              // t.esize, 0) + 1)
        for j in range(ADDRESSES):
            address = j * t.align
            if address + size > SHARED_BYTES:
                break
            names = {**env, **{n: 0 for n, x in check.tensors.items() if x.scope == "shared"}, t.name: address}
            yield role, d, t, tile, names


def _intended(d, names):
    return [_value(getattr(d, k), names) for k in ("start", "lbo", "sbo", "base_offset")]


def _hardware(d, names):
    start, lbo, sbo, base = _intended(d, names)
    if d.word is None:
        return smem_descriptor.Fields(start, lbo, sbo, base, d.swizzle, DECLARATION.descriptor_arch)
    try:
        return smem_descriptor.unpack(_value(d.word, names), DECLARATION.descriptor_arch)
    except ValueError:
        return None


def decide_encoding(check, apply, env):
    for role, d, t, tile, names in _cases(check, apply, env):
        start, lbo, sbo, base = _intended(d, names)
        bad = [k for k, v in (("start", start), ("lbo", lbo), ("sbo", sbo)) if v % 16 or v >= 1 << 18]
        if bad or base >= 8 or (d.swizzle == "none" and base):
            return {"operand": role, "descriptor": d.name, "field": (bad or ["base_offset"])[0], "names": names}
        if d.word is not None:
            exact = smem_descriptor.pack(smem_descriptor.Fields(start, lbo, sbo, base, d.swizzle,
                                                                DECLARATION.descriptor_arch))
            if _value(d.word, names) != exact:
                return {"operand": role, "descriptor": d.name, "word": _value(d.word, names), "exact": exact}
    return None


def decide_base(check, apply, env):
    for role, d, t, tile, names in _cases(check, apply, env):
        hw = _hardware(d, names)
        if hw is None or hw.swizzle == "none":
            continue
        a = names[t.name]
        want = 0 if a % smem_descriptor.REPEAT[hw.swizzle] == 0 else (a >> 7) & 7
        if hw.base_offset != want:
            return {"operand": role, "descriptor": d.name, "address": a, "base_offset": hw.base_offset,
                    "expected": want}
    return None


def _reads(check, apply, env, steps):
    for role, d, t, tile, names in _cases(check, apply, env):
        if d.tile is not None and tuple(d.tile) != tile or t.bits != apply.opcode.bits:
            return {"operand": role, "descriptor": d.name, "tile": d.tile, "bits": t.bits}
        try:
            smem_descriptor.check_tile(d.major, d.swizzle, t.bits, tile)
        except ValueError as e:
            return {"operand": role, "descriptor": d.name, "reason": str(e)}
        used = set().union(*d.names().values()) | {t.name}
        w = _read(d, t, tile, tuple(sorted((n, v) for n, v in names.items() if n in used)), tuple(steps(d, names)))
        if w is not None:
            return {"operand": role, "descriptor": d.name, **w}
    return None


@lru_cache(maxsize=4096)
def _read(d, t, tile, names, steps):
    """The first element a descriptor reads from another byte than the declared layout puts it at (the
    values of the names it reads: ``names``), element by element; None when none does."""
    names = dict(names)
    hw = _hardware(d, names)
    if hw is None:
        return {"word": _value(d.word, names)}
    for j, adv in steps:
        if (j + 1) * tile[1] > int(t.shape[1]) or tile[0] > int(t.shape[0]):
            return {"k_step": j, "extent": [int(e) for e in t.shape]}
        f = replace(hw, start=hw.start + adv)
        if j and (f.start % 16 or f.start >= 1 << 18):
            return {"k_step": j, "start": f.start}
        for mn in range(tile[0]):
            for k in range(tile[1]):
                mine = names[t.name] + t.esize * oracle.layout_value(t.layout, (mn, k + j * tile[1]), {}, t.offset)[""]
                theirs = smem_descriptor.hardware_address(f, d.major, t.bits, tile, mn, k)
                if mine != theirs:
                    return {"k_step": j, "element": [mn, k + j * tile[1]], "declared_byte": mine,
                            "descriptor_byte": theirs}
    return None


def decide_layout(check, apply, env):
    return _reads(check, apply, env, lambda d, names: [(0, 0)])


def decide_k_advance(check, apply, env):
    return _reads(check, apply, env, lambda d, names: [(j + 1, _value(a, names)) for j, a in enumerate(d.advance)])


def decide_uniform(check, apply, env):
    for role, d in _descriptors(check, apply):
        for field, names in d.names().items():
            warp = sorted(n for n in names if n in check.symbols and check.symbols[n].source == "warpid")
            if warp:
                return {"operand": role, "descriptor": d.name, "field": field, "symbol": warp[0]}
    return None


def decide_fragment(check, apply, env):
    """The PTX figure, restated: register ``i`` of lane ``l`` of warp ``w`` is D[16w + l/4 + 8((i%4)/2),
    8(i/4) + 2(l%4) + i%2]; the view must name it there, and D be 64 x N."""
    n, view = apply.opcode.n, apply.operand("d")
    t = check.tensors[view.tensor]
    if tuple(evaluate(e, env) for e in t.shape) != (M, n):
        return {"tensor": t.name, "shape": list(t.shape)}
    w, lane, i = (a.reshape(-1) for a in np.indices((4, 32, n // 2)))
    rows, cols = 16 * w + lane // 4 + 8 * ((i % 4) // 2), 8 * (i // 4) + 2 * (lane % 4) + i % 2
    extra = [np.zeros_like(i)] * (len(view.shape) - 3)
    got = oracle.view_index(view, (w, lane, *extra, i), env)
    bad = np.flatnonzero((np.asarray(got[0]) != rows) | (np.asarray(got[1]) != cols))
    if bad.size:
        k = int(bad[0])
        return {"thread": int(32 * w[k] + lane[k]), "register": int(i[k]), "element": [int(rows[k]), int(cols[k])],
                "view_element": [int(np.asarray(got[0])[k]), int(np.asarray(got[1])[k])]}
    return None


RULE_NEEDS = {"fragment": ("shape", "space"), "desc_encoding": ("space",), "desc_base": ("space",),
              "desc_layout": ("space",), "desc_k_advance": ("space",), "desc_uniform": ("space",)}
RULES = {"fragment": decide_fragment, "desc_encoding": decide_encoding, "desc_base": decide_base,
         "desc_layout": decide_layout, "desc_k_advance": decide_k_advance, "desc_uniform": decide_uniform}
FAMILY.rules, FAMILY.rule_needs = RULES, RULE_NEEDS
