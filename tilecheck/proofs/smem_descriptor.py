"""The shared-memory matrix descriptor obligations (issue 31): a descriptor reads exactly the declared tile.

Each obligation is a pure function from a ``Declaration`` (the descriptor as the code builds it, the
shared tensor it is meant to read, the K steps' start-address advances) to a ``Violation``: a Z3
bit-vector formula satisfiable exactly when the obligation fails, and an ``explain`` that replays a
model on the concrete semantics (``tilecheck.smem_descriptor``) and says what is wrong in the user's
words, or None when it does not replay (then the verdict is unknown, never a proof).  ``decide`` runs
them; ``OBLIGATIONS`` is their registry (name -> function, its docs line), in the order they are decided.

They are not in ``tilecheck/obligations.py``'s per-apply ``RECORDS`` (every apply of every family
decides those): a descriptor is not an apply of today's families, and the wgmma family that declares
descriptors comes later.  Until then they are called from Python (``decide``).

Fields, addresses, LBO and SBO may be Z3 terms (64-bit bit-vectors) constrained by ``assume``; the
tile, the element width, the major-ness and the swizzle mode are concrete, as in the instruction.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable

import z3

from .. import smem_descriptor as sd
from ..layout import Layout
from ..modes import _leaves
from ..verdict import Verdict
from .runner import Outcome

BV = 64


@dataclass(frozen=True)
class Operand:
    """The declared shared tensor a descriptor reads: ``layout`` over ``(MN, K)`` in element offsets
    (concrete, swizzled or not; K may span several instructions), the byte ``address`` where it (and
    its swizzle pattern) starts, ``offset`` in elements added before the swizzle."""
    layout: Layout
    elem_bits: int
    address: object = 0
    offset: int = 0
    name: str = "A"


@dataclass(frozen=True)
class Declaration:
    """One descriptor as the code builds it.  ``fields``: the intended byte values (ints or Z3
    terms); ``word``: the 64-bit word the code actually packs (default: PTX's exact encoding of
    ``fields``); ``tile``: one instruction's ``(MN, K)``; ``advance``: the byte advance of the start
    address at K steps 1, 2, ... (step 0 reads at ``fields.start``); ``assume``: Z3 facts on the symbols."""
    name: str
    operand: Operand
    major: str
    fields: sd.Fields
    tile: tuple
    word: object = None
    advance: tuple = ()
    assume: tuple = ()

    def packed(self):
        return sd.pack(self.fields) if self.word is None else self.word


@dataclass
class Violation:
    formula: object
    explain: Callable[[dict], "tuple[str, dict] | None"]  # symbol values -> (message, counterexample)
    unknown: str | None = None
    skipped: str | None = None  # the obligation does not apply to this declaration: why


def _bv(x):
    if isinstance(x, int):
        return z3.BitVecVal(x, BV)
    return sd._word(x, BV)


def _ult(a, b):
    return z3.ULT(_bv(a), _bv(b))


def _concrete(x, env: dict):
    """``x`` (an int or a Z3 term) at the symbols' values ``env`` (name -> int)."""
    if isinstance(x, int):
        return x
    subs = [(z3.BitVec(n, v[1]), z3.BitVecVal(v[0], v[1])) for n, v in env.items()]
    out = z3.simplify(z3.substitute(_bv(x), *subs) if subs else _bv(x))
    if not z3.is_bv_value(out):
        raise ValueError(f"{x} is not determined by the symbols' values")
    return out.as_long()


def _symbols(*terms) -> dict:
    """The bit-vector constants (name -> size) the terms read."""
    out, seen = {}, set()

    def walk(t):
        if t.get_id() in seen:
            return
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out[t.decl().name()] = t.size()
        for c in t.children():
            walk(c)
    for t in terms:
        if not isinstance(t, int) and t is not None:
            walk(t)
    return out


def _hardware_fields(decl: Declaration):
    """The fields the hardware reads from the packed word (Z3 terms), or the unknown's reason."""
    raw = sd.unpack_raw(_bv(decl.packed()), decl.fields.arch)
    code = z3.simplify(raw["layout_type"])
    if not z3.is_bv_value(code):
        code = _one_value(raw["layout_type"], decl.assume)
    if code is None:
        return None, "the descriptor's layout type is symbolic: the swizzle mode must be concrete"
    names = {c: n for n, c in sd.CODES[decl.fields.arch].items()}
    if code.as_long() not in names or names[code.as_long()] not in sd.MODES[decl.fields.arch]:
        return None, f"layout type {code.as_long()} has no canonical layout modelled here"
    lbo_mode = raw.get("lbo_mode", z3.BitVecVal(0, BV))
    mode = z3.simplify(lbo_mode)
    if not z3.is_bv_value(mode):
        mode = _one_value(lbo_mode, decl.assume)  # the facts may fix it
    if mode is None:
        return None, "the descriptor's LBO mode (bit 52) is symbolic: it must be concrete"
    lbo_mode = mode
    return sd.Fields(raw["start"] << 4, raw["lbo"] << 4, raw["sbo"] << 4, raw["base_offset"], names[code.as_long()],
                     decl.fields.arch, lbo_mode.as_long()), None


def _invalid_code(decl: Declaration):
    """A static refutation when the packed word's layout type is one the arch calls invalid (tcgen05's
    3, 5, 7): the tensor core reads no layout through it.  None otherwise."""
    raw = sd.unpack_raw(_bv(decl.packed()), decl.fields.arch)
    code = z3.simplify(raw["layout_type"])
    if z3.is_bv_value(code) and code.as_long() in sd.INVALID_CODES[decl.fields.arch]:
        return _static(f"descriptor {decl.name}: layout type {code.as_long()} is invalid on {decl.fields.arch} "
                       f"(3, 5 and 7 name no swizzle mode): the tensor core reads no layout through it", decl)
    return None


def _one_value(term, facts, timeout_ms: int = 2000):
    """The value ``term`` takes for every symbol value the facts allow, when it takes exactly one (a word
    whose layout-type bits hold a symbol's high bits, bounded by its ``max``), else None."""
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*facts)
    if s.check() != z3.sat:
        return None
    v = s.model().eval(term, model_completion=True)
    s.add(term != v)
    return v if s.check() == z3.unsat else None


def _layout_z3(layout: Layout, coords):
    """The unswizzled element offset of a concrete layout at Z3 coordinates (one per top-level mode)."""
    total = z3.BitVecVal(0, BV)
    for c, s, d in zip(coords, layout.shape, layout.stride):
        shapes, strides = list(_leaves(s)), list(_leaves(d))
        if not all(isinstance(x, int) for x in shapes + strides):
            raise ValueError(f"layout {layout}: descriptor obligations need a concrete layout")
        for i, (si, di) in enumerate(zip(shapes, strides)):
            last = i == len(shapes) - 1
            part = c if last else z3.URem(c, si)
            c = c if last else z3.UDiv(c, si)
            total = total + part * di
    return total


def declared_z3(op: Operand, mn, k):
    """The byte address of element ``(mn, k)`` of the declared tensor, as a Z3 term."""
    o = _layout_z3(op.layout, (mn, k)) + op.offset
    sw = op.layout.swizzle
    if sw is not None:
        o = o ^ z3.LShR(o & sw.yyy_mask, sw.shift)
    return _bv(op.address) + (op.elem_bits // 8) * o


def _env(model, names: dict) -> dict:
    out = {}
    for n, size in names.items():
        v = model.eval(z3.BitVec(n, size), model_completion=True)
        out[n] = (v.as_long(), size)
    return out


# the obligations --------------------------------------------------------------------------------

def encoding(decl: Declaration) -> Violation:
    """The encoding is exact: start, LBO and SBO are multiples of 16 below 2^18 (``>> 4`` drops
    nothing, no field overflows), the base offset fits 3 bits and is 0 without a swizzle, the packed
    word holds exactly PTX's encoding of the intended fields (no value left unshifted, no carry into
    the next field, reserved bits 0, tcgen05's fixed bits 46-48 = 0b001 and 53-60 = 0, a valid layout type)."""
    f, arch = decl.fields, decl.fields.arch
    word = _bv(decl.packed())
    checks = []  # (formula of the failure, message at symbol values)
    for what, v in (("start address", f.start), ("LBO", f.lbo), ("SBO", f.sbo)):
        checks.append((_bv(v) & 15 != 0, lambda e, what=what, v=v:
                       f"{what} = {_concrete(v, e)} bytes is not a multiple of 16: matrix-descriptor-encode (x >> 4) "
                       f"drops its low bits"))
        checks.append((z3.UGE(_bv(v), 1 << sd.ADDRESS_BITS), lambda e, what=what, v=v:
                       f"{what} = {_concrete(v, e)} bytes is not below 2^18: its 14-bit field cannot hold it"))
    checks.append((z3.UGE(_bv(f.base_offset), 8), lambda e: f"base offset {_concrete(f.base_offset, e)} does not fit 3 bits"))
    if f.swizzle == "none":
        checks.append((_bv(f.base_offset) != 0, lambda e: f"base offset {_concrete(f.base_offset, e)} with no swizzle "
                                                          "(PTX: valid for every mode except no-swizzle; write 0)"))
    raw = sd.unpack_raw(word, arch)
    if sd.INVALID_CODES[arch]:
        bad = z3.Or([raw["layout_type"] == c for c in sd.INVALID_CODES[arch]])
        checks.append((bad, lambda e: f"layout type {_concrete(raw['layout_type'], e)} is invalid on {arch} "
                                      f"(3, 5 and 7 name no swizzle mode)"))
    for name, want in f.raw().items():
        want = _bv(want) & ((1 << dict((n, w) for n, _, w in sd.BITS[arch])[name]) - 1)
        checks.append((raw[name] != want, lambda e, name=name, want=want:
                       _field_message(name, _concrete(raw[name], e), _concrete(want, e))))
    for name, value in sd.FIXED[arch].items():
        checks.append((raw[name] != value, lambda e, name=name, value=value:
                       f"fixed field {name} holds {_concrete(raw[name], e)}, {arch} requires {value}"))
    mask = sd.reserved_mask(arch)
    checks.append((word & mask != 0, lambda e: f"reserved bits 0x{_concrete(word, e) & mask:016x} are set in the word "
                                               f"0x{_concrete(word, e):016x} (a field overflowed into them)"))
    if arch == sd.TCGEN05:
        checks += _tcgen05_checks(decl)
    return _first_of(decl, checks, {"descriptor": decl.name})


def _tcgen05_checks(decl: Declaration) -> list:
    """tcgen05's rules on the intended fields: the LBO mode is one bit; the absolute mode's three
    restrictions (128B swizzle with 16-byte atoms, K-major, base offset 0); the swizzle mode, the
    major-ness and the element width a valid combination (``smem_descriptor.combination_problem``)."""
    f = decl.fields
    mode = _bv(f.lbo_mode)
    out = [(z3.UGE(mode, 2), lambda e: f"LBO mode {_concrete(f.lbo_mode, e)} is not 0 (relative) or 1 (absolute): "
                                       f"bit 52 holds one bit")]
    if f.swizzle != "128B":
        out.append((mode != 0, lambda e: sd.absolute_problem(replace(f, lbo_mode=1, base_offset=0), decl.major)))
    elif decl.major != "K":
        out.append((mode != 0, lambda e: sd.absolute_problem(replace(f, lbo_mode=1, base_offset=0), decl.major)))
    out.append((z3.And(mode != 0, _bv(f.base_offset) != 0), lambda e: sd.absolute_problem(
        replace(f, lbo_mode=1, base_offset=_concrete(f.base_offset, e)), "K")))
    why = sd.combination_problem(decl.major, f.swizzle, decl.operand.elem_bits, sd.TCGEN05)
    if why is not None:
        out.append((z3.BoolVal(True), lambda e: f"descriptor {decl.name}: {why}"))
    return out


def _field_message(name: str, got: int, want: int) -> str:
    unit = {"start": 16, "lbo": 16, "sbo": 16}.get(name)
    label = {"start": "start address", "lbo": "LBO", "sbo": "SBO"}.get(name, name)
    if unit:
        hint = " (the byte value was not shifted right by 4)" if got == want << 4 or got == (want << 4) & 0x3FFF else ""
        return (f"the {label} field holds {got} ({got * unit} bytes), the intended value encodes as {want} "
                f"({want * unit} bytes){hint}")
    return f"the {name} field holds {got}, the intended value is {want}"


def _first_of(decl: Declaration, checks, cex: dict) -> Violation:
    formula = z3.And(*decl.assume, z3.Or([c for c, _ in checks]))

    def explain(env):
        for c, message in checks:
            if z3.is_true(z3.simplify(z3.substitute(c, *[(z3.BitVec(n, s), z3.BitVecVal(v, s))
                                                       for n, (v, s) in env.items()]))):
                return message(env), {**cex, "symbols": {n: v for n, (v, _) in env.items()}}
        return None
    return Violation(formula, explain)


def base(decl: Declaration) -> Violation:
    """A swizzled operand's pattern starts on the mode's repeat (1024 B for 128B, 512 B for 64B,
    256 B for 32B) with base offset 0, or the descriptor carries ``(address >> 7) & 7`` (PTX ISA)."""
    bad = _invalid_code(decl)
    if bad is not None:
        return bad
    hw, why = _hardware_fields(decl)
    if why is not None:
        return Violation(z3.BoolVal(False), lambda e: None, unknown=why)
    if hw.swizzle == "none":
        return Violation(z3.BoolVal(False), lambda e: None)
    addr = _bv(decl.operand.address)
    repeat = sd.REPEAT[hw.swizzle]
    expected = z3.If(z3.URem(addr, repeat) == 0, z3.BitVecVal(0, BV), z3.LShR(addr, 7) & 7)
    formula = z3.And(*decl.assume, hw.base_offset != expected)

    def explain(env):
        a, b = _concrete(decl.operand.address, env), _concrete(hw.base_offset, env)
        want = 0 if a % repeat == 0 else (a >> 7) & 7
        if b == want:
            return None
        where = f"starts on its {repeat}-byte repeat" if a % repeat == 0 else \
            f"starts at byte {a}, {a % repeat} past its {repeat}-byte repeat"
        return (f"{decl.operand.name}'s {hw.swizzle} swizzle pattern {where}: descriptor {decl.name} needs base offset "
                f"{want} ((address >> 7) & 7 or 0 on the repeat), it carries {b}",
                {"descriptor": decl.name, "tensor": decl.operand.name, "address": a, "base_offset": b,
                 "expected": want, "symbols": {n: v for n, (v, _) in env.items()}})
    return Violation(formula, explain)


def layout(decl: Declaration) -> Violation:
    """The declared tensor's layout equals the descriptor's canonical layout over the tile: every
    element ``(mn, k)`` of one instruction's tile is at the same byte address both ways."""
    return _reads(decl, [(0, 0)])


def k_advance(decl: Declaration) -> Violation:
    """Each K step's descriptor (start + ``advance[j-1]``) reads K-slice ``j`` of the declared tensor,
    and its start address is still exactly encodable (a multiple of 16 below 2^18: the advance is
    added to the 14-bit start field, as CUTLASS's ``DescriptorIterator`` does, and must not carry)."""
    if not decl.advance:
        return Violation(z3.BoolVal(False), lambda e: None, skipped="no K steps declared (advance)")
    steps = [(j + 1, a) for j, a in enumerate(decl.advance)]
    return _reads(decl, steps, encodable=True)


def _reads(decl: Declaration, steps, encodable: bool = False) -> Violation:
    bad = _invalid_code(decl)
    if bad is not None:
        return bad
    hw, why = _hardware_fields(decl)
    if why is not None:
        return Violation(z3.BoolVal(False), lambda e: None, unknown=why)
    op, mnK = decl.operand, decl.tile
    why = sd.combination_problem(decl.major, hw.swizzle, op.elem_bits, hw.arch)
    if why is not None:  # the instruction reads no such operand
        return _static(f"descriptor {decl.name}: {why}", decl)
    try:
        sd.check_tile(decl.major, hw.swizzle, op.elem_bits, mnK, hw.arch, hw.lbo_mode)
        if hw.arch == sd.TCGEN05 and hw.lbo_mode:
            why = sd.absolute_problem(replace(hw, base_offset=0), decl.major)
            if why is not None:
                raise ValueError(why)
    except ValueError as e:
        return Violation(z3.BoolVal(False), lambda env: None, unknown=f"descriptor {decl.name}: {e}")
    if not steps:
        return Violation(z3.BoolVal(False), lambda e: None)
    extent = [_extent(m) for m in op.layout.shape]
    if len(extent) != 2:
        return _static(f"{op.name}'s layout has {len(extent)} modes; a descriptor's tile is (MN, K)", decl)
    if mnK[0] > extent[0]:
        return _static(f"the instruction's tile has MN = {mnK[0]}, past {op.name}'s MN extent {extent[0]}", decl)
    last = max(j for j, _ in steps)
    if (last + 1) * mnK[1] > extent[1]:
        return _static(f"K step {last} reads K columns [{last * mnK[1]}, {(last + 1) * mnK[1]}), past {op.name}'s "
                       f"K extent {extent[1]}", decl)
    mn, k = z3.BitVec(f"{decl.name}!mn", BV), z3.BitVec(f"{decl.name}!k", BV)
    cases = []
    for j, adv in steps:
        f = replace(hw, start=_bv(hw.start) + _bv(adv))
        differs = sd.hardware_address(f, decl.major, op.elem_bits, mnK, mn, k) != declared_z3(op, mn, k + j * mnK[1])
        if encodable:
            start = _bv(hw.start) + _bv(adv)
            differs = z3.Or(differs, start & 15 != 0, z3.UGE(start, 1 << sd.ADDRESS_BITS))
        cases.append(differs)
    formula = z3.And(*decl.assume, _ult(mn, mnK[0]), _ult(k, mnK[1]), z3.Or(cases))

    def explain(env):
        env = {n: v for n, v in env.items() if not n.startswith(f"{decl.name}!")}
        for j, adv in steps:
            hwc = sd.Fields(*(_concrete(x, env) for x in (hw.start, hw.lbo, hw.sbo, hw.base_offset)), hw.swizzle,
                            hw.arch, _concrete(hw.lbo_mode, env))
            a = _concrete(adv, env)
            f = replace(hwc, start=hwc.start + a)
            opc = replace(op, address=_concrete(op.address, env))
            syms = {n: v for n, (v, _) in env.items()}
            step = f"K step {j}: " if j else ""
            if encodable and (f.start % 16 or not 0 <= f.start < 1 << sd.ADDRESS_BITS):
                return (f"{step}descriptor {decl.name}'s start address advanced by {a} bytes is {f.start}, not a "
                        f"multiple of 16 below 2^18 (the 14-bit start field cannot hold it)",
                        {"descriptor": decl.name, "k_step": j, "advance": a, "start": f.start, "symbols": syms})
            for i in range(mnK[0]):
                for kk in range(mnK[1]):
                    kj = kk + j * mnK[1]
                    mine = sd.declared_address(opc.layout, op.elem_bits, opc.address, op.offset, i, kj)
                    theirs = sd.hardware_address(f, decl.major, op.elem_bits, mnK, i, kk)
                    if mine != theirs:
                        adv_note = f" (start advanced by {a} bytes)" if j else ""
                        return (f"{step}element ({i},{kj}) of {op.name} is at byte {mine}, descriptor {decl.name}"
                                f"{adv_note} reads it at byte {theirs} ({sd.describe(f)})",
                                {"descriptor": decl.name, "tensor": op.name, "k_step": j, "index": [i, kj],
                                 "declared_byte": mine, "descriptor_byte": theirs, "advance": a, "symbols": syms})
        return None
    return Violation(formula, explain)


def _extent(mode) -> int:
    n = 1
    for x in _leaves(mode):
        if not isinstance(x, int):
            raise ValueError("descriptor obligations need a concrete layout")
        n *= x
    return n


def _static(message: str, decl: Declaration) -> Violation:
    """A fact of the input, refuted without the solver."""
    return Violation(z3.BoolVal(True), lambda e: (message, {"descriptor": decl.name, "tensor": decl.operand.name}))


def _minimise(s: z3.Solver, names: dict) -> None:
    """Push the symbols' values down one by one (sorted by name), each to the least the rest allows:
    the counterexample is the smallest, as tilecheck's others are."""
    for n in sorted(names):
        if "!" in n:
            continue
        x = z3.BitVec(n, names[n])
        hi = s.model().eval(x, model_completion=True).as_long()
        lo = 0
        while lo < hi:
            mid = (lo + hi) // 2
            s.push()
            s.add(z3.ULE(x, mid))
            if s.check() == z3.sat:
                hi = s.model().eval(x, model_completion=True).as_long()
                s.pop()
            else:
                s.pop()
                lo = mid + 1
        s.add(x == hi)
        s.check()


@dataclass(frozen=True)
class Record:
    name: str
    function: Callable[[Declaration], Violation]
    doc: str


OBLIGATIONS: dict[str, Record] = {r.name: r for r in (
    Record("descriptor-encoding", encoding,
           "start, LBO, SBO are multiples of 16 below 2^18, the base offset fits 3 bits (0 without a swizzle), and "
           "the packed word is PTX's exact encoding of them (reserved bits 0, tcgen05's fixed bits, a valid layout type)"),
    Record("descriptor-base", base,
           "a swizzled operand starts on its pattern's repeat (1024/512/256 B) with base offset 0, or the descriptor "
           "carries `(address >> 7) & 7`"),
    Record("descriptor-layout", layout,
           "every element of the instruction's tile is at the same byte address in the declared tensor and through "
           "the descriptor's canonical layout"),
    Record("descriptor-k-advance", k_advance,
           "every K step's advanced descriptor reads that K slice of the declared tensor, and its start stays encodable"),
)}


def decide(decl: Declaration, names=None, timeout_s: float = 10.0) -> list[Outcome]:
    """Decide the descriptor obligations of ``decl`` (all, or ``names``): proved (unsat), refuted with
    a replayed counterexample (sat), or unknown (the solver's unknown, a timeout, a witness that does
    not replay, an input the model does not cover)."""
    return [_decide_one(name, OBLIGATIONS[name].function(decl), timeout_s) for name in names or OBLIGATIONS]


def _decide_one(name: str, v: Violation, timeout_s: float) -> Outcome:
    start = time.perf_counter()
    if v.unknown is not None:
        return Outcome(name, Verdict.UNKNOWN, time.perf_counter() - start, v.unknown)
    if v.skipped is not None:
        return Outcome(name, Verdict.SKIPPED, time.perf_counter() - start, v.skipped)
    s = z3.Solver()
    s.set("timeout", max(1, int(timeout_s * 1000)))
    s.add(v.formula)
    r = s.check()
    if r == z3.unsat:
        return Outcome(name, Verdict.PROVED, time.perf_counter() - start)
    if r != z3.sat:
        return Outcome(name, Verdict.UNKNOWN, time.perf_counter() - start,
                       f"{name}: the solver gave up ({s.reason_unknown()})")
    names = _symbols(v.formula)
    _minimise(s, names)
    got = v.explain(_env(s.model(), names))
    if got is None:
        return Outcome(name, Verdict.UNKNOWN, time.perf_counter() - start,
                       f"{name}: the solver's witness does not replay on the concrete semantics")
    message, cex = got
    return Outcome(name, Verdict.REFUTED, time.perf_counter() - start, f"{name} refuted: {message}", cex)


# tcgen05's instruction descriptor: M and N -------------------------------------------------------

@dataclass(frozen=True)
class Instruction:
    """A tcgen05.mma instruction descriptor as the code builds it: the intended ``m``, ``n`` (ints or
    Z3 terms), the 32-bit ``word`` (default: the exact encoding, ``m_dim = M >> 4``, ``n_dim = N >> 3``)."""
    name: str
    m: object
    n: object
    cta_group: int = 1
    word: object = None
    assume: tuple = ()


def instruction(ins: Instruction) -> Violation:
    """The instruction descriptor's M and N (kind::f16; every field of every kind:
    ``proofs/tcgen05_idesc.py``): a dense tcgen05.mma shape of its cta_group
    (``smem_descriptor.idesc_shape_ok``), encoded exactly (M a multiple of 16, N of 8, the word's
    ``m_dim``/``n_dim`` fields equal to ``M >> 4`` and ``N >> 3``)."""
    m, n = _bv(ins.m), _bv(ins.n)
    word = sd.pack_idesc({"m_dim": z3.LShR(m, 4), "n_dim": z3.LShR(n, 3)}) if ins.word is None else ins.word
    raw = sd.unpack_idesc(sd._word(word, 32) if not isinstance(word, int) else z3.BitVecVal(word, 32))
    ms = {1: (64, 128), 2: (128, 256)}[ins.cta_group]
    step = 8 if ins.cta_group == 1 else 16  # PTX Table 39 (descriptors for A and B); every kind: proofs/tcgen05_idesc.py
    shape_ok = z3.Or([z3.And(m == mm, z3.URem(n, step) == 0, z3.UGE(n, step), z3.ULE(n, 256)) for mm in ms])
    exact = z3.And(z3.ZeroExt(32, raw["m_dim"]) == z3.LShR(m, 4), z3.ZeroExt(32, raw["n_dim"]) == z3.LShR(n, 3))
    formula = z3.And(*ins.assume, z3.Not(z3.And(shape_ok, exact)))

    def explain(env):
        mv, nv = _concrete(ins.m, env), _concrete(ins.n, env)
        wv = _concrete(word, env) & 0xFFFFFFFF
        syms = {k: v for k, (v, _) in env.items()}
        why = sd.idesc_shape_ok(mv, nv, ins.cta_group)
        if why is not None:
            return why, {"instruction": ins.name, "m": mv, "n": nv, "symbols": syms}
        f = sd.unpack_idesc(wv)
        if f["m_dim"] != mv >> 4 or f["n_dim"] != nv >> 3:
            return (f"the word 0x{wv:08x} holds m_dim = {f['m_dim']}, n_dim = {f['n_dim']}; M = {mv}, N = {nv} "
                    f"encode as {mv >> 4} and {nv >> 3}", {"instruction": ins.name, "m": mv, "n": nv, "word": wv,
                                                           "symbols": syms})
        return None
    return Violation(formula, explain)


def decide_instruction(ins: Instruction, timeout_s: float = 10.0) -> Outcome:
    v = instruction(ins)
    return _decide_one("tcgen05-instruction", v, timeout_s)
