"""One application as PTX lines for the user's own kernel: ``fragment(plan, 0, base={"A": "%rd1"})``.

The fragment holds the declarations of the registers it introduces, the
address arithmetic computed once per thread (``setup``), and the body: one
memory instruction per repeat, spelled exactly as the check file spells it,
its register operands bound directly to the tile's slots::

    ld.global.v4.b32 {%r0, %r2, %r4, %r6}, [%rd1+240];

Conventions of the surrounding kernel: a one-dimensional CTA of the check's
``threads`` (``%tid.x`` is the thread index); ``base[T]`` holds memory tensor
T's base address — a .b64 *global* address (after ``cvta.to.global``) for
global tensors, a .b32 shared or local window address (``mov.u32 %r, array;``)
for shared and local ones; ``symbols[n]`` a .s64 register with symbol n's value
(symbols bound to ``%ctaid.x``/``.y``/``.z`` are read from there when not given).
A TMA copy's fragment takes its tensor map's generic address in ``%tmap_<map>`` (a .b64
register, ``base[map]`` names another: the address of a ``.param .align 64 .b8 map[128]`` after
``cvta.param``), declares its mbarrier (``.shared .align 8 .b64 mbar<apply>``) and puts its
initialisation (one thread, ``%tid.x == 0``) at the end of ``setup``; the body is every thread's:
the issuing thread copies, all wait (kernel.py's module doc).  A load of a ``phase`` of several
engine copies completes on the barrier of the phase's first copy: that copy's
fragment declares and initialises it and declares the phase's bytes, a later one names it, and only
the last one's body waits -- the fragments go into the kernel in the applications' order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import accesses
from ..check import Apply, Check
from ..plan import Plan
from .address import addresses
from .arith import Arith, Regs
from .engine import Services, indent
from .errors import EmitError
from .guard import predicates
from .operand import copies
from .registers import REG_BITS, Tile, naming, packable, slots, tiles

SPACE_BITS = {"global": 64, "shared": 32, "local": 32}


@dataclass(frozen=True)
class Fragment:
    apply: Apply
    version: tuple[int, int]  # the lowest .version the opcode and target need
    declarations: tuple[str, ...]
    setup: tuple[str, ...]  # thread- and symbol-dependent address arithmetic, once
    body: tuple[str, ...]  # one memory instruction per repeat

    @property
    def text(self) -> str:
        return "\n".join((*self.declarations, *self.setup, *self.body)) + "\n"

    def __str__(self):
        return self.text


def require_plan(plan) -> Plan:
    if not isinstance(plan, Plan):
        raise TypeError(f"the emitter takes the Plan of a proved report (tilecheck.prove(check).plan), "
                        f"not {type(plan).__name__}: an unproved check cannot be emitted")
    return plan


def fragment(plan: Plan, apply: int = 0, *, base=None, symbols=None, registers=None,
             pred: str = "%p", policy: str = "%policy", scratch: str = "%tc") -> Fragment:
    """The PTX of application ``apply`` of a proved plan.

    base: memory tensor name -> register with its base address (default ``%base_<name>``);
    symbols: symbol name -> .s64 register with its value (default ``%sym_<name>``);
    registers: the register tile's names — None for the default (%r<slot>, see registers.py;
    the fragment then declares them), a prefix such as ``"%f"``, a mapping slot -> name, or a
    function of the slot (then you declare them);
    pred / policy: the .pred register guarding a predicated application and the .b64
    cache-policy register of ``.L2::cache_hint``; scratch: prefix of the registers the
    fragment declares for its address arithmetic (``%tcd<n>`` .b64, ``%tcw<n>`` .b32, ...).
    """
    check = require_plan(plan).check
    a = check.applies[apply]
    base = dict(base or {})
    symbols = dict(symbols or {})
    model = plan.operands.fork()  # the plan's operand model; this emission's arithmetic stays private
    ops = model.applies[a.index]
    regs = Regs(b64=f"{scratch}d", b32=f"{scratch}w", b16=f"{scratch}h", pred=f"{scratch}p")
    arith = Arith(model.ctx, lambda n: _symbol(check, n, symbols, arith), regs)
    shared, labels = [], iter(range(1, 1 << 30))
    services = Services(check, arith, model, lambda t: base.get(t, f"%base_{t}"),
                        lambda m: base.get(m, f"%tmap_{m}"), shared, lambda: next(labels), policy)
    lowered = a.family.lower(a, services)
    if lowered is not None:  # an engine copy (Family.lower): its prologue runs once, before the body
        return Fragment(a, a.family.ptx_version(a.opcode, check.arch), tuple(regs.declarations() + shared),
                        tuple(arith.lines + indent(lowered.prologue)), tuple(indent(lowered.body)))
    if copies(a):  # two memory operands (cp.async): no register tile
        bases = {v.tensor: base.get(v.tensor, f"%base_{v.tensor}") for v in (a.dst, a.src)}
        body = lower(check, a, arith, ops, bases, None, pred, policy)
        decls = regs.declarations()
        return Fragment(a, a.family.ptx_version(a.opcode, check.arch), tuple(decls), tuple(arith.lines),
                        tuple(body))
    mem = check.tensors[a.memory.tensor]
    tile = tiles(check, packable(check, model.applies) if registers is None else ())[a.register.tensor]
    body = lower(check, a, arith, ops, base.get(mem.name, f"%base_{mem.name}"),
                 naming(tile, registers), pred, policy)
    decls = regs.declarations() + ([tile.declaration] if registers is None else [])
    return Fragment(a, a.family.ptx_version(a.opcode, check.arch), tuple(decls), tuple(arith.lines), tuple(body))


def lower(check: Check, a: Apply, arith: Arith, ops: dict, base, name, pred: str, policy: str) -> list[str]:
    """The body of one application: one memory instruction per repeat (setup goes to ``arith``).
    ``ops``: the application's operands from the plan (role -> Operand, ``Operands.applies``);
    ``base``: the memory operand's base register, or for a copy a dict tensor -> base register."""
    if copies(a):
        where = {}
        for role in ("dst", "src"):
            view = getattr(a, role)
            t = check.tensors[view.tensor]
            if t.scope not in SPACE_BITS:
                raise EmitError(f"apply[{a.index}]: no memory space for tensor {t.name} ({t.scope})")
            w = addresses(ops[role], arith, base[view.tensor], SPACE_BITS[t.scope])
            where[role] = address_text(w.registers, w.which[:, 0], w.imm[:, 0])
        line = a.family.instruction  # the family's emit hook: (regs, addr) = (src address, dst address)
        guarded = accesses.guarded(check.accesses_of(a))
        if guarded is not None:  # the guard's operand (cp.async's src-size) per atom: in where inside, out where not
            on, off = a.family.guard_operand(a.opcode)
            sizes = [None if g is True else str(off) if g is False else arith.op(32, "selp.u32", on, off, g)
                     for g in predicates(ops[guarded.role], arith)]
            return [line(a, s, d, z, policy) for d, s, z in zip(where["dst"], where["src"], sizes)]
        return [line(a, s, d, pred, policy) for d, s in zip(where["dst"], where["src"])]
    mem = check.tensors[a.memory.tensor]
    if mem.scope not in SPACE_BITS:
        raise EmitError(f"apply[{a.index}]: no memory space for tensor {mem.name} ({mem.scope})")
    where = addresses(ops["memory"], arith, base, SPACE_BITS[mem.scope])
    guards = predicates(ops["memory"], arith) if accesses.guarded(check.accesses_of(a)) else None
    bits = REG_BITS[check.tensors[a.register.tensor].bits]
    return instructions(a, where, slots(ops["register"]), name, pred, policy, guards, bits)


def instructions(a: Apply, where, slot: np.ndarray, name, pred: str, policy: str, guards=None,
                 bits: int = 32) -> list[str]:
    """The text of the memory instructions, one per row of ``slot`` (the family spells each).
    ``guards`` (``guard = true``): per row True, False or the row's .pred register; a guarded
    load without ``preserve_dst`` first zeroes its destination registers (``bits`` wide), and a
    row whose guard is False has no instruction."""
    names = register_names(name, int(slot.max()) + 1)
    cols = [[names[s] for s in col] for col in slot.T.tolist()]  # column by column: no per-row join
    vector = len(cols) > 1
    inner = list(map(", ".join, zip(*cols))) if vector else cols[0]  # a vector's names, braces to come
    addr = address_text(where.registers, where.which[:, 0], where.imm[:, 0])
    line = a.family.instruction  # the family's emit hook
    if a.family.packs:  # the hook spells a packed tile (32-bit pairs) and a 16-bit one differently
        owner = name if isinstance(name, list) else getattr(name, "__self__", None)  # Names or a Tile
        packed = bool(getattr(owner, "packed", False))
        hook = line
        line = lambda *args: hook(*args, packed=packed)  # noqa: E731
    if guards is None and a.family.verbatim:  # the braces go in the one spelling
        out = spelled(line(a, "{\0}" if vector else "\0", "\1", pred, policy), inner, addr)
        if out is not None:
            return out
    regs = [f"{{{r}}}" for r in inner] if vector else inner
    if guards is None:
        return [line(a, r, m, pred, policy) for r, m in zip(regs, addr)]
    out = []
    for row, r, m, g in zip(slot.tolist(), regs, addr, guards):
        if a.family.zeroes(a) and g is not True:
            out += [f"\tmov.b{bits} {names[s]}, 0;" for s in row]
        if g is not False:
            out.append(line(a, r, m, None if g is True else g, policy))
    return out


def spelled(template: str, regs: list[str], addr: list[str]) -> list[str] | None:
    """Each row's instruction from the hook's one spelling ``template`` of the row ``("\\0", "\\1")``
    (a ``verbatim`` family: its text holds the registers and the address once each, as given);
    None when the template does not hold each exactly once."""
    if template.count("\0") != 1 or template.count("\1") != 1:
        return None
    first, second = ("\0", "\1") if template.index("\0") < template.index("\1") else ("\1", "\0")
    head, rest = template.split(first)
    mid, tail = rest.split(second)
    if first == "\0":
        return [f"{head}{r}{mid}{m}{tail}" for r, m in zip(regs, addr)]
    return [f"{head}{m}{mid}{r}{tail}" for r, m in zip(regs, addr)]


class Names(list):
    """A register tile's slot names, built once per kernel (``packed``: the tile holds 32-bit pairs)."""
    packed = False


def register_names(name, n: int) -> list[str]:
    """``name(s)`` for every slot below ``n`` (fast for the default naming); ``name`` may also be
    the list of names already built (at least ``n`` long), returned as it is."""
    if isinstance(name, list) and len(name) >= n:
        return name
    prefix = getattr(name, "__self__", None)
    if isinstance(prefix, Tile) and name.__func__ is Tile.name:
        return [f"{prefix.prefix}{s // 2 if prefix.packed else s}" for s in range(n)]
    return [name(s) for s in range(n)]


def address_text(registers: list[str], which: np.ndarray, imm: np.ndarray) -> list[str]:
    """``[reg+imm]`` operands (``[reg]`` for a zero immediate)."""
    if len(registers) == 1:
        r = registers[0]
        return [f"[{r}+{i}]" if i else f"[{r}]" for i in imm.tolist()]
    return [f"[{registers[w]}+{i}]" if i else f"[{registers[w]}]" for w, i in zip(which.tolist(), imm.tolist())]


def _symbol(check: Check, n: str, given: dict, arith: Arith) -> tuple[str, int]:
    if n in given:
        return given[n], 64
    src = check.symbols[n].source
    if src:
        return arith.op(32, "mov.u32", check.symbols[n].register), 32
    return f"%sym_{n}", 64
