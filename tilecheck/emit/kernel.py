"""A whole kernel for a proved plan: the module the GPU tests run against numpy.

ABI (``tilecheck.gpu`` depends on exactly this):

* parameters, in order: ``.param .u64 <tensor>`` for every tensor of the check
  (file order), then ``.param .s64 <symbol>`` for every symbol not bound to
  ``%ctaid`` (``from = "ctaid.x"`` symbols are read from ``%ctaid.x`` instead, ``from = "ctarank"`` ones
  from ``%cluster_ctarank``), then
  ``.param .align 64 .b8 <map>[128]`` for every tensor map an application reads
  (``Family.tensormaps``; file order): the 128-byte ``CUtensorMap`` by value, which the
  runner encodes from the map's arguments at the run's symbol values for the global
  tensor's buffer (``tensormap_params``); a TMA load's wait gives up after ``PATIENCE`` tries
  (its elements then stay unwritten: a failed comparison, not a hung GPU);
* a memory tensor's buffer holds its element offsets [0, cosize) (a global one
  [0, extent): its declared extent, ``Layout.extent``, not rounded up to a swizzle's
  block); global tensors are used in place; a shared tensor is a ``.shared`` array that all threads fill
  from the buffer (``bar.sync 0``), then the applications run, then ``bar.sync 0``
  and all threads copy it back; a local tensor is a per-thread ``.local`` array
  that every thread fills from the buffer and thread 0 alone copies back;
* a register tensor's buffer is its logical shape, row-major: when its first use
  is a store (or a load with ``preserve_dst``) every thread first reads the
  elements it holds (its coordinates of that application) into their registers;
  after all applications, every thread writes each element it loaded (its
  coordinates of every loading application) back to the buffer, unless the
  tensor's last use is a store's source (a copy: the data went to memory);
* launch: block (threads, 1, 1); grid (1, 1, 1) unless symbols are bound to
  ``%ctaid``.  (No ``.reqntid``: with it ptxas trades registers for occupancy — 64
  registers for one thread — and the documentation example spills 2.4x more.  Above
  256 threads, ``.maxntid threads, 1, 1`` makes ptxas keep to 65536/threads registers:
  without it a kernel using up to 255 would be refused at launch, "too many
  resources requested");
* registers: slot s of a register tensor is ``%r<s>`` (32-bit), ``%rs<s>``
  (8/16-bit, .b16), ``%rl<s>`` (64-bit); a packed 16-bit tile (ldmatrix/stmatrix only)
  holds slots 2m, 2m+1 in the halves of ``%rp<m>`` (.b32), see registers.py; the emitter's own
  registers are ``%rd`` (.b64 addresses and integers), ``%ra`` (.b32), ``%rh``
  (.b16) and ``%p`` (.pred);
* a predicated application's predicate ``%p1`` is true (``pred=False``: false) for
  every thread, computed at run time (the first tensor's buffer pointer is
  non-null) so that ptxas keeps the predicated form; ``.L2::cache_hint`` takes a
  policy made once by ``createpolicy.fractional.L2::evict_last.b64 %rd, 1.0``;
* a guarded application (``guard = true``, ``emit/guard.py``) has one ``%p`` per repeat, from
  ``setp`` over ``%tid.x``, the repeat and the symbols: a guarded-out load leaves zeros in its
  destination registers (unless ``preserve_dst``), a store writes nothing, and a ``cp.async`` runs
  with src-size 0 (zero-filling its destination).

Shared tensors whose size depends on a symbol live in *dynamic* shared memory,
``.extern .shared .align A .b8 smem_dynamic[]``: in file order, each at the
previous one's end rounded up to its alignment, with offsets and element counts
computed at run time from the symbols; the launch passes ``dynamic_shared_bytes``
(the same arithmetic on the host) as its shared-memory bytes.

Shared/local fill and copy-back loops carry ``.pragma "nounroll"``, so each
contributes exactly one load and one store to the disassembly.  A shared or local
array's address is ``smem_<T> + %tid.y`` (``lmem_``; %tid.y is 0 in this launch):
knowing the array's address, ptxas would keep a small local array in registers
and merge adjacent shared accesses into wider ones (two ``ld.shared.v2.b32`` into
one ``LDS.128``), and the applications' instructions would not reach the hardware
as spelled.
"""
from __future__ import annotations

import re

from .. import opcodes
from ..check import Check, Tensor, cta_grid
from ..poly import Poly
from ..verdict import Verdict
from .address import addresses
from .arith import Arith, Regs
from .engine import Services, indent
from .errors import EmitError
from .fragment import Names, address_text, copies, lower, register_names, require_plan
from .operand import TID
from .registers import REG_BITS, packable, register_copies, slots, tiles
from ..expr import to_poly
from ..layout import ThreadStride, _leaves
from ..plan import unchecked
from ..report import Report

STATIC_SHARED = 48 * 1024  # bytes of static .shared memory a kernel may declare
DYNAMIC = "smem_dynamic"  # the one .extern .shared array; symbolic-size shared tensors are placed in it
MAXNTID_ABOVE = 256  # blocks of more threads declare .maxntid: 256 x 255 registers is the 64K register file
# tries of a barrier wait (each suspended up to 1 us) before the kernel gives up: ~0.2 s on the H200
# (gpu/tma_probe.py's bound), so that a copy that never completes fails its comparison, not the GPU run
PATIENCE = 200_000
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_$]*\Z")


def kernel(plan, name: str = "tilecheck_kernel", *, pred: bool = True) -> str:
    """The PTX module (.version, .target, one .entry) running every application of ``plan`` in order."""
    check = require_plan(plan).check
    if not _IDENT.match(name):
        raise ValueError(f"kernel name {name!r} is not a PTX identifier")
    cta_grid(check)  # a CTA-bound symbol must cover every CTA index of the launch
    return _Kernel(plan, name, pred).text()


def kernel_unchecked(report, name: str = "tilecheck_unchecked", *, pred: bool = True,
                     placement: dict | None = None) -> str:
    """ESCAPE HATCH: the kernel of a *refuted* report, only to watch the hardware fail
    (``tilecheck run --unchecked`` runs it in a separate process).  Never for proved or
    unknown reports: those go through ``kernel(report.plan)`` or nowhere.  ``placement``: tensor ->
    ``(residue, modulus)`` of a shared or local array's address (a refutation that blames its declared
    ``align``): the array is declared ``.align modulus`` with ``residue`` bytes before the tensor, so its
    base is exactly as aligned as declared and no better (``unplaceable`` says which cannot be)."""
    if not isinstance(report, Report) or report.verdict != Verdict.REFUTED:
        raise PermissionError("kernel_unchecked takes only a refuted Report "
                              f"(got {getattr(report, 'verdict', type(report).__name__)})")
    if not _IDENT.match(name):
        raise ValueError(f"kernel name {name!r} is not a PTX identifier")
    bad = unplaceable(report.check, placement or {})
    if bad:
        raise EmitError(bad)
    return _Kernel(unchecked(report.check), name, pred, placement).text()


def unplaceable(check: Check, placement: dict) -> str | None:
    """Why ``placement`` cannot be honoured for a shared or local tensor (None when it can): a tensor
    in dynamic shared memory sits where the launch puts the dynamic array, after the others."""
    dynamic = {t.name for t in dynamic_tensors(check)}
    for name in placement:
        if name in dynamic:
            return (f"shared tensor {name} has a symbolic size: it lives in dynamic shared memory, whose "
                    f"placement the kernel does not choose, so its base cannot be put at exactly its declared "
                    f"align")
    return None


def _pow2_align(t: Tensor) -> int:
    return max(t.align & -t.align, t.esize)  # the largest power of two dividing align, at least the element


def dynamic_tensors(check: Check) -> list[Tensor]:
    """The shared tensors that some application accesses and whose size depends on a symbol, in file
    order: they are placed in dynamic shared memory."""
    used = {a.memory.tensor for a in check.applies}
    out = []
    for t in check.tensors.values():
        if t.scope == "shared" and t.name in used:
            if t.layout.symbols(t.offset):
                out.append(t)
    return out


def dynamic_alignment(check: Check) -> int:
    """The ``.align`` of the dynamic shared array (at least 16, what CUDA guarantees)."""
    return max([16] + [_pow2_align(t) for t in dynamic_tensors(check)])


def dynamic_shared_bytes(check: Check, env: dict) -> int:
    """Bytes of dynamic shared memory a launch at symbol values ``env`` needs: the kernel's own
    run-time arithmetic (``_Kernel.dynamic_base``), on the host."""
    end = 0
    for t in dynamic_tensors(check):
        a = _pow2_align(t)
        end = -(-end // a) * a + t.layout.cosize(env, t.offset) * t.esize
    return end


def tensormap_params(check: Check) -> list[str]:
    """The tensor maps the kernel takes by value, after the symbols: every map an application reads
    (``Family.tensormaps``), in file order."""
    used = {m for a in check.applies for m in a.family.tensormaps(a)}
    return [n for n in check.tensormaps if n in used]
CLUSTER_RANK_PTX = (7, 8)  # %cluster_ctarank (a symbol with from = "ctarank"): PTX ISA 7.8, sm_90


def version(check: Check) -> tuple[int, int]:
    """The lowest .version every application's opcode and the target need: the maximum over the module
    of each family's ``ptx_version`` (its ``versions`` table, held to ptxas by the spelling sweeps;
    ``tests/test_kernel_version.py`` assembles every legal spelling's kernel at it)."""
    lowest = max((a.family.ptx_version(a.opcode, check.arch) for a in check.applies),
                 default=opcodes.parse_arch(check.arch).min_ptx)  # a file of tensor maps only: the target's
    return max(lowest, CLUSTER_RANK_PTX) if any(s.rank for s in check.symbols.values()) else lowest


class _Kernel:
    def __init__(self, plan, name: str, pred: bool, placement: dict | None = None):
        """``plan``: a Plan, or for ``kernel_unchecked`` the plan-like object of ``plan.unchecked``;
        its operand model (``plan.operands``) is the only one this kernel uses."""
        check = plan.check
        for t in check.tensors.values():  # the kernel sizes and copies each buffer once, for every warp
            warp = [n for n in t.layout.symbols(t.offset) if check.symbols[n].warp]
            if warp:
                raise EmitError(f"{t.scope} tensor {t.name}: its offset depends on the warp-id symbol {warp[0]}, so "
                                "its size would differ between warps; a kernel needs one size (start the "
                                "operands' slices at the symbol instead; the fragments need no size)")
        rank = next((s.name for s in check.symbols.values() if s.rank), None)
        if rank is not None and opcodes.parse_arch(check.arch).sm < 90:
            raise EmitError(f"symbol {rank} is read from %cluster_ctarank, which needs sm_90 or newer; the target "
                            f"is {check.arch}")
        self.check, self.name, self.pred_value = check, name, pred
        self.model = plan.operands.fork()  # this emission's arithmetic never changes the plan's model
        self.ctx, self.sym = self.model.ctx, self.model.symbols
        self.regs = Regs()
        self.arith = Arith(self.ctx, self._symbol, self.regs)
        self.params = _param_names(check)
        self.tiles = tiles(check, packable(check, self.model.applies))
        self._raw, self._buffers, self._bases, self._names = {}, {}, {}, {}
        self.dynamic = {t.name: t for t in dynamic_tensors(check)}
        self._counts: dict[str, str] = {}  # dynamic tensor -> register holding its element count
        self.arrays: list[str] = []
        self.placement = {t: rm for t, rm in (placement or {}).items() if check.tensors[t].scope != "global"}
        self.module_scope: list[str] = []  # the .extern dynamic shared array (PTX allows it only there)
        self.labels = 0
        self._maps: dict[str, str] = {}  # tensor map -> the register holding its generic address
        for name in tensormap_params(check):
            ctaid = sorted(n for n in check.tensormaps[name].names() if check.symbols[n].source)
            if ctaid:
                raise EmitError(f"tensormaps.{name}: its arguments depend on symbol {ctaid[0]}, bound to "
                                f"%{check.symbols[ctaid[0]].source}; a tensor map is one kernel parameter for "
                                "every CTA")

    # operands ----------------------------------------------------------------
    def raw(self, tensor: str) -> str:
        """The buffer pointer parameter, as passed."""
        if tensor not in self._raw:
            self._raw[tensor] = self.arith.op(64, "ld.param.u64", f"[{self.params[tensor]}]")
        return self._raw[tensor]

    def buffer(self, tensor: str) -> str:
        """The buffer's global address."""
        if tensor not in self._buffers:
            self._buffers[tensor] = self.arith.op(64, "cvta.to.global.u64", self.raw(tensor))
        return self._buffers[tensor]

    def base(self, tensor: str) -> str:
        """The memory tensor's base address in its own state space."""
        t = self.check.tensors[tensor]
        if t.scope == "global":
            return self.buffer(tensor)
        if tensor in self.dynamic:
            return self.dynamic_base(tensor)
        if tensor not in self._bases:
            array = f"{'smem' if t.scope == 'shared' else 'lmem'}_{self.params[tensor]}"
            align = t.align & -t.align  # the largest power of two dividing align
            residue, modulus = self.placement.get(tensor, (0, max(align, t.esize)))
            self.arrays.append(f".{t.scope} .align {modulus} .b8 {array}[{residue + self.cosize(t)}];")
            self._bases[tensor] = self.arith.op(32, "mov.u32", array)
            if residue:  # an unchecked run's base at exactly its declared align (kernel_unchecked)
                self._bases[tensor] = self.arith.op(32, "add.u32", self._bases[tensor], residue)
            # + %tid.y (0): an address ptxas cannot resolve, see the module doc
            self._bases[tensor] = self.arith.op(32, "add.u32", self._bases[tensor], self._tid_y())
        return self._bases[tensor]

    def dynamic_base(self, tensor: str) -> str:
        """The address of a symbolic-size shared tensor in the dynamic array: every dynamic tensor's
        offset (the previous one's end, rounded up to its alignment) is computed once, in file order."""
        if not self._bases.keys() & self.dynamic.keys():
            self.module_scope.append(f".extern .shared .align {dynamic_alignment(self.check)} .b8 {DYNAMIC}[];")
            start = self.arith.op(32, "mov.u32", DYNAMIC)
            start = self.arith.op(32, "add.u32", start, self._tid_y())  # see the module doc
            end = "0"
            for t in self.dynamic.values():
                a = _pow2_align(t)
                off = end if end == "0" or a == 1 else self.arith.op(
                    64, "and.b64", self.arith.op(64, "add.s64", end, a - 1), -a)
                n = self.count(t)
                off32 = off if off == "0" else self.arith.op(32, "cvt.u32.u64", off)
                self._bases[t.name] = start if off32 == "0" else self.arith.op(32, "add.u32", start, off32)
                nbytes = self.arith.op(64, "mul.lo.s64", n, t.esize)
                end = nbytes if off == "0" else self.arith.op(64, "add.s64", off, nbytes)
        return self._bases[tensor]

    def count(self, t: Tensor) -> str:
        """A 64-bit register holding ``t``'s cosize in elements, at run time:
        offset + sum over modes of max((shape - 1) * stride, 0), + 1 (``Layout.cosize``; swizzled:
        rounded up to a multiple of the swizzle's block)."""
        if t.name not in self._counts:
            acc = self.arith.value(to_poly(t.offset, self.ctx, self.sym) + 1, 64)
            acc = acc if not acc.lstrip("-").isdigit() else self.arith.op(64, "mov.s64", acc)
            for shp, std in zip(_leaves(t.layout.shape), _leaves(t.layout.stride)):
                if isinstance(std, ThreadStride):
                    continue
                term = (to_poly(shp, self.ctx, self.sym) - 1) * to_poly(std, self.ctx, self.sym)
                if term.is_const:
                    if term.constant > 0:
                        acc = self.arith.op(64, "add.s64", acc, term.constant)
                    continue
                r = self.arith.op(64, "max.s64", self.arith.value(term, 64), 0)
                acc = self.arith.op(64, "add.s64", acc, r)
            if t.layout.swizzle is not None:  # rounded up to the swizzle's block, as Layout.cosize
                block = t.layout.swizzle.block
                acc = self.arith.op(64, "and.b64", self.arith.op(64, "add.s64", acc, block - 1), -block)
            self._counts[t.name] = acc
        return self._counts[t.name]

    def tensormap(self, name: str) -> str:
        """The generic address of tensor map ``name``, a by-value kernel parameter."""
        if name not in self._maps:
            p = self.arith.op(64, "mov.b64", self.params[f"tensormaps.{name}"])
            self._maps[name] = self.arith.op(64, "cvta.param.u64", p)
        return self._maps[name]

    def label(self) -> int:
        self.labels += 1
        return self.labels

    def _tid_y(self) -> str:
        if "%tid.y" not in self._raw:
            self._raw["%tid.y"] = self.arith.op(32, "mov.u32", "%tid.y")
        return self._raw["%tid.y"]

    def cosize(self, t: Tensor, bytes: bool = True) -> int:
        symbols = t.layout.symbols(t.offset)
        if symbols:
            raise EmitError(f"{t.scope} tensor {t.name}: its size depends on symbol {symbols[0]}; a {t.scope} "
                            f"array needs a concrete size")
        n = t.layout.cosize({}, t.offset)
        return n * t.esize if bytes else n

    def _symbol(self, n: str) -> tuple[str, int]:
        src = self.check.symbols[n].source
        if src:
            return self.arith.op(32, "mov.u32", self.check.symbols[n].register), 32
        return self.arith.op(64, "ld.param.s64", f"[{self.params[n]}]"), 64

    # the kernel --------------------------------------------------------------
    def text(self) -> str:
        check, arith = self.check, self.arith
        applies = check.applies
        pred = policy = None
        if any("predicate" in a.family.uses(a) for a in applies):
            pred = self.regs.new("pred")
            cmp = "ne" if self.pred_value else "eq"
            arith.emit(f"setp.{cmp}.u64 {pred}, {self.raw(next(iter(check.tensors)))}, 0;")
        if any("policy" in a.family.uses(a) for a in applies):
            policy = arith.op(64, "createpolicy.fractional.L2::evict_last.b64", "1.0")
        services = Services(check, arith, self.model, self.base, self.tensormap, self.arrays, self.label, policy)
        services.patience = PATIENCE
        bodies, own = [], []  # own: the prologues of the families that lower an application whole
        for a in applies:
            lowered = a.family.lower(a, services)
            if lowered is not None:  # an engine copy (Family.lower): its own lines, and a prologue
                bodies.append(indent(lowered.body))
                own += indent(lowered.prologue)
                continue
            if copies(a):  # cp.async: both operands memory; wait for the copies before anything reads them
                bases = {v.tensor: self.base(v.tensor) for v in (a.dst, a.src)}
                bodies.append(lower(check, a, arith, self.model.applies[a.index], bases, None, pred, policy))
                continue
            tile = self.tiles[a.register.tensor]
            bodies.append(lower(check, a, arith, self.model.applies[a.index], self.base(a.memory.tensor),
                                self.names(a.register.tensor, tile.size), pred, policy))
        filled, written = register_copies(check)
        fills, writes = [], []
        for a in filled:
            fills += self.register_copy(a, load=True, seen=None)
        loaded = [a.register.tensor for a in written]
        seen = {t: set() for t in loaded if loaded.count(t) > 1}  # one tensor loaded twice: write once
        for a in written:
            writes += self.register_copy(a, load=False, seen=seen.get(a.register.tensor))
        shared = [t for t in check.tensors.values() if t.scope == "shared" and t.name in self._bases]
        local = [t for t in check.tensors.values() if t.scope == "local" and t.name in self._bases]
        static = sum(self.cosize(t) + self.placement.get(t.name, (0, 0))[0] for t in shared if t.name not in self.dynamic)
        if static > STATIC_SHARED:
            raise EmitError(f"the shared tensors need {static} bytes, more than "
                            f"the {STATIC_SHARED} bytes of static shared memory")
        prologue = []
        for t in shared:
            prologue += self.copy_loop(t, into=True, cooperative=True)
        for t in local:
            prologue += self.copy_loop(t, into=True, cooperative=False)
        epilogue = []
        for t in shared:
            epilogue += self.copy_loop(t, into=False, cooperative=True)
        for t in local:
            epilogue += self.copy_loop(t, into=False, cooperative=False, thread0=True)

        body = [*arith.lines, *prologue, *fills, *own]
        if shared or own:
            body.append("\tbar.sync 0;")
        for k, (a, lines) in enumerate(zip(applies, bodies)):
            if k and self._conflict(applies[k - 1], a):
                body.append("\tbar.sync 0;")
            body.append(f"\t// apply[{a.index}]: {len(lines)} instructions per thread, {a.scope} scope")
            body += lines
            body += [f"\t{line}" for line in a.family.drain]  # (cp.async: the copies complete first)
        if shared:
            body.append("\tbar.sync 0;")
        body += epilogue + writes + ["\tret;"]
        return "\n".join(self.header() + self.declarations() + body + ["}", ""])

    def header(self) -> list[str]:
        check = self.check
        major, minor = version(check)
        params = [f"\t.param .u64 {self.params[n]}" for n in check.tensors]
        params += [f"\t.param .s64 {self.params[s.name]}" for s in check.symbols.values() if not s.source]
        params += [f"\t.param .align 64 .b8 {self.params[f'tensormaps.{m}']}[128]"  # by value: the CUtensorMap
                   for m in tensormap_params(check)]
        return [f"// tilecheck kernel for {check.path}: {len(check.applies)} application(s)",
                f".version {major}.{minor}", f".target {check.arch}", ".address_size 64", "",
                *([*self.module_scope, ""] if self.module_scope else []),
                f".visible .entry {self.name}(", ",\n".join(params), ")",
                *([f".maxntid {check.threads}, 1, 1"] if check.threads > MAXNTID_ABOVE else []),
                "{"]

    def declarations(self) -> list[str]:
        used = {a.register.tensor for a in self.check.applies}
        tiles = [t.declaration for n, t in self.tiles.items() if n in used]
        return ["\t" + d for d in (*self.regs.declarations(), *tiles, *self.arrays)]

    def _conflict(self, a, b) -> bool:
        """Two consecutive applications need a barrier when threads may see each other's stores."""
        if self.check.threads == 1 or a.memory.tensor != b.memory.tensor:
            return False
        scope = self.check.tensors[a.memory.tensor].scope
        return scope in ("global", "shared") and not (a.is_load and b.is_load)

    # register tiles <-> their buffers ------------------------------------------
    def names(self, tensor: str, n: int) -> list[str]:
        """The default names of register tensor ``tensor``'s slots below (at least) ``n``, built once
        per kernel: the applications and the register copies of a tile share them."""
        names = self._names.get(tensor)
        if names is None or len(names) < n:
            names = self._names[tensor] = Names(register_names(self.tiles[tensor].name, max(n, self.tiles[tensor].size)))
            names.packed = self.tiles[tensor].packed
        return names

    def register_copy(self, a, load: bool, seen: set | None) -> list[str]:
        """Every element this thread holds in ``a``'s register operand, read from (``load``) or
        written to its row-major place in the register tensor's buffer (skipping those in ``seen``)."""
        t = self.check.tensors[a.register.tensor]
        ops = self.model.applies[a.index]  # "buffer": the register operand over its row-major buffer
        where = addresses(ops["buffer"], self.arith, self.buffer(t.name), 64)
        slot = slots(ops["register"])
        names = self.names(t.name, int(slot.max()) + 1)
        what = "read from" if load else "written to"
        out = [f"\t// {t.name}: the elements this thread holds, {what} its buffer"]
        b = t.bits  # a property: read once, not per element
        if seen is None and len(where.registers) == 1 and slot.size and not self.tiles[t.name].packed:
            # the common case in one pass: no intermediate lists of operands (10^5-repeat tiles)
            head = f"\tld.global.b{b} " if load else f"\tst.global.b{b} [{where.registers[0]}"
            r, imm, sl = where.registers[0], where.imm.ravel().tolist(), slot.ravel().tolist()
            if load:
                out += [f"{head}{names[s]}, [{r}+{i}];" if i else f"{head}{names[s]}, [{r}];"
                        for i, s in zip(imm, sl)]
            else:
                out += [f"{head}+{i}], {names[s]};" if i else f"{head}], {names[s]};" for i, s in zip(imm, sl)]
            return out
        addr = address_text(where.registers, where.which.ravel(), where.imm.ravel())
        if self.tiles[t.name].packed:
            return self.packed_copy(t, addr, slot.ravel().tolist(), names, load, seen)
        regs = [names[s] for s in slot.ravel().tolist()]
        if seen is not None:
            keep = [(m, r) not in seen for m, r in zip(addr, regs)]
            seen.update(zip(addr, regs))
            addr = [m for m, k in zip(addr, keep) if k]
            regs = [r for r, k in zip(regs, keep) if k]
        if not addr:
            return []
        if load:
            out += [f"\tld.global.b{b} {r}, {m};" for m, r in zip(addr, regs)]
        else:
            out += [f"\tst.global.b{b} {m}, {r};" for m, r in zip(addr, regs)]
        return out

    def packed_copy(self, t: Tensor, addr: list, slot: list, names: list, load: bool, seen: set | None) -> list[str]:
        """register_copy of a packed tile: each 32-bit register's two halves (slots 2m, 2m+1, the
        words 2i, 2i+1 of one instruction) from or to their two places in the buffer."""
        lo, hi = self.regs.new(16), self.regs.new(16)
        out = []
        for k in range(0, len(slot), 2):
            key = (addr[k], addr[k + 1], slot[k])
            if seen is not None:
                if key in seen:
                    continue
                seen.add(key)
            r = names[slot[k]]
            if load:
                out += [f"\tld.global.b16 {lo}, {addr[k]};", f"\tld.global.b16 {hi}, {addr[k + 1]};",
                        f"\tmov.b32 {r}, {{{lo}, {hi}}};"]
            else:
                out += [f"\tmov.b32 {{{lo}, {hi}}}, {r};", f"\tst.global.b16 {addr[k]}, {lo};",
                        f"\tst.global.b16 {addr[k + 1]}, {hi};"]
        if not out:
            return []
        what = "read from" if load else "written to"
        return [f"\t// {t.name}: the elements this thread holds (32-bit pairs), {what} its buffer", *out]

    # shared and local arrays <-> their buffers ----------------------------------
    def copy_loop(self, t: Tensor, into: bool, cooperative: bool, thread0: bool = False) -> list[str]:
        """A scalar loop over the elements [0, cosize) of ``t``: buffer -> array (``into``) or back."""
        regs, e = self.regs, t.esize
        n = self.arith.op(32, "cvt.u32.u64", self.count(t)) if t.name in self.dynamic else self.cosize(t, bytes=False)
        tid = self.arith.value(Poly.var(TID), 32)
        self.labels += 1
        top, end = f"$copy{self.labels}", f"$copy{self.labels}_end"
        i, p, off, g, s = regs.new(32), regs.new("pred"), regs.new(64), regs.new(64), regs.new(32)
        v = regs.new(REG_BITS[t.bits] if t.bits < 64 else 64)
        b = f"b{t.bits}"
        move = ([f"ld.global.{b} {v}, [{g}];", f"st.{t.scope}.{b} [{s}], {v};"] if into else
                [f"ld.{t.scope}.{b} {v}, [{s}];", f"st.global.{b} [{g}], {v};"])
        who = "all threads" if cooperative else ("thread 0" if thread0 else "every thread, its own copy")
        size = f"{n} elements" if t.name not in self.dynamic else "its size from the symbols"
        lines = [f"// {t.scope} {t.name} ({size}) {'from' if into else 'to'} its buffer: {who}"]
        if thread0:
            lines += [f"setp.ne.u32 {p}, {tid}, 0;", f"@{p} bra {end};"]
        lines += [f"mov.u32 {i}, {tid if cooperative else 0};", f"{top}:", '.pragma "nounroll";',
                  f"setp.ge.u32 {p}, {i}, {n};", f"@{p} bra {end};",
                  f"mul.wide.u32 {off}, {i}, {e};", f"add.s64 {g}, {self.buffer(t.name)}, {off};",
                  f"mad.lo.s32 {s}, {i}, {e}, {self.base(t.name)};", *move,
                  f"add.u32 {i}, {i}, {self.check.threads if cooperative else 1};", f"bra.uni {top};", f"{end}:"]
        return ["\t" + x if not x.endswith(":") else x for x in lines]


def _param_names(check: Check) -> dict[str, str]:
    """PTX parameter names: the tensor's or symbol's own name where it is a fresh identifier."""
    out, used = {}, set()
    names = list(check.tensors) + [s.name for s in check.symbols.values() if not s.source]
    maps = tensormap_params(check)
    keys = names + [f"tensormaps.{m}" for m in maps]  # a map's name may also be a tensor's
    for k, (key, n) in enumerate(zip(keys, names + maps)):
        p = n if _IDENT.match(n) and n not in used else f"param{k}"
        used.add(p)
        out[key] = p
    return out
