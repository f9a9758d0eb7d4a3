"""Instruction families: one declaration each (``ldst.py``, ...), found by their file.

A family declares its contract on top of the one operand model (``encode.py``): which operand
role is memory and which registers (per instruction), the state spaces each may live in, the
issuing group, who holds which element of one instruction's atom, the atom's size, the
``[[apply]]`` keys it takes, the obligations that apply (``proofs/registry.py`` names them), its
PTX spelling rules and the emit hook.  Everything else (the check model, the proofs, the
emitter, the numpy reference) reads the declaration; adding a family is a new file here.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from ..layout import Layout
from ..machine import WARP
from ..opcodes import OpcodeError
from . import tv

MEMORY, REGISTER = "memory", "register"
DESCRIPTOR = "descriptor"  # a shared-memory operand read through a matrix descriptor (``[descriptors.NAME]``):
# no thread gives an address of its own; the descriptor says where the whole tile is


READ, WRITE, ATOMIC = "read", "write", "atomic"  # what an access does to its operand


@dataclass(frozen=True)
class Role:
    """One operand of an instruction: ``dst``, ``src`` (or the family's own ``operands``), memory, registers or
    a descriptor of shared memory (``DESCRIPTOR``: wgmma's A and B), where it may live, what
    the instruction does to it (``access``: read, write, or an atomic read-modify-write), and, for a
    memory role whose atom crosses threads, its thread-value layout as data (CuTe's ``Copy_Traits``).

    A memory role's atom is the run of ``words`` contiguous elements one thread gives the address
    of.  The default (``values`` None) is ld/st's: the issuing thread holds its whole vector,
    ``(group, word) -> (group, word)``, ``words`` = the opcode's vector, every thread of the group
    gives an address.  Otherwise ``values`` is a ``Layout`` ``(thread, value) -> view coordinates``
    (mode 0: the threads that give an address, ``threads``, a layout onto the group's lanes; mode 1:
    the position in the atom; a stride ``k@laneid`` moves the view's lane, a plain one its word):
    ldmatrix's fragment map (``families/ldmatrix.py``).  ``words`` and ``lanes`` are its modes'
    sizes, and the solver's ``holds``/``origin`` are derived from it (``families/tv.py``)."""
    name: str
    kind: str  # MEMORY | REGISTER | DESCRIPTOR
    spaces: tuple[str, ...]
    access: str = READ  # READ | WRITE | ATOMIC
    values: Layout | None = None  # (thread, value) -> view (lane, word); None: the issuing thread's own vector
    threads: Layout | None = None  # mode 0's threads -> lanes of the group (None: every thread of the group)
    group_threads: int = WARP  # threads of the issuing group (a thread past ``threads`` wraps around)
    tag: str = ""  # names the solver's fresh variables of the derived maps
    guard: bool = False  # ``guard = true`` predicates this role's atoms (each runs only where it is in bounds)
    tile: tuple = ()  # a DESCRIPTOR role: the (MN, K) one instruction reads; a register role with ``values``
    #                   over a tile (wgmma's accumulator): its (rows, columns), a value ``v`` is ``(v % rows, v // rows)``

    @property
    def words(self) -> int:
        """Elements per atom (0: the opcode's vector)."""
        return 0 if self.values is None else tv.size(self.values.shape[1])

    @property
    def lanes(self) -> int:
        """Threads of the group that give an address (0: every one)."""
        return 0 if self.threads is None else self.threads.size()

    @cached_property
    def holds(self) -> Callable | None:
        """``(group, word, dom) -> (group', position)``: the thread whose atom holds the view element."""
        return None if self.values is None else tv.holds(self.values, self.tag)

    @cached_property
    def origin(self) -> Callable | None:
        """``(group', dom) -> (group, word)``: the view coordinates of position 0 of a thread's atom."""
        return None if self.values is None else tv.origin(self.values, self.tag, self.group_threads)

    @property
    def writes(self) -> bool:
        return self.access != READ


class Family:
    """The base declaration; a family module defines one subclass instance named ``FAMILY``."""
    name = ""
    instructions: tuple[str, ...] = ()  # the PTX instruction names it parses ("ld", "st")
    groups = ("thread", "warp", "cta")  # issuing groups (scopes); warpgroup has room here
    keys: dict[str, object] = {}  # [[apply]] keys beyond opcode/scope/dst/src, with defaults
    # the [[apply]] keys that name its operands, one per role (``roles``): a view of a tensor for a memory or
    # register role, a ``[descriptors.NAME]`` for a descriptor role
    operands: tuple[str, ...] = ("dst", "src")
    obligations: tuple[str, ...] = ()  # names in proofs/registry.py that apply
    verbs = ("reads", "writes")  # how a message says the memory operand is read / written
    updates_memory = False  # a write reads the old value too (read-modify-write): memory is an input

    def roles(self, op) -> tuple[Role, ...]:
        """Every operand of an instruction ``op``, one role per name of ``operands``: (dst, src) for most."""
        raise NotImplementedError

    def memory_role(self, op) -> str:
        return next(r.name for r in self.roles(op) if r.kind == MEMORY)

    def role(self, op, name: str) -> Role:
        return next(r for r in self.roles(op) if r.name == name)

    def memory_roles(self, op) -> tuple[str, ...]:
        """Every memory operand's role (cp.async has two); the per-operand obligations iterate it."""
        return tuple(r.name for r in self.roles(op) if r.kind == MEMORY)

    # ``guard = true`` (proofs/guard.py): the operand whose atoms are guarded, and the per-atom
    # obligations stated on that operand's guarded-in atoms only (the rest hold for every atom)
    guarded: tuple[str, ...] = ()

    def guard_role(self, op) -> str:
        """The role whose atoms ``guard = true`` predicates (the role declaring ``guard``)."""
        return next((r.name for r in self.roles(op) if r.guard), None) or self.memory_role(op)

    def narrower(self, op, esize: int, width: int) -> str:
        """The same instruction spelled with ``width``-word atoms (``guard``'s hint); default: the
        vector qualifier replaced."""
        text = op.text
        for v in (".v8", ".v4", ".v2"):
            text = text.replace(v, "" if width == 1 else f".v{width}")
        return text

    def read_only(self, op) -> bool:
        """The instruction reads through a path that needs its memory read-only for the whole kernel
        (``space``: no application of the check may store to it)."""
        return False

    def keeps_registers(self, apply) -> bool:
        """The register destination keeps its old values where the instruction does not write it (a
        predicated-off or guarded-out load with ``preserve_dst``): the registers are an input too."""
        return False

    def zeroes(self, apply) -> bool:
        """A guarded-out atom's register destination is zeroed (``guard = true`` on a load without
        ``preserve_dst``): the emitter writes 0 first, the reference expects 0."""
        return False

    def uses(self, apply) -> tuple[str, ...]:
        """Kernel-wide operands the emit hook takes: "predicate" (the ``%p`` of ``pred = true``),
        "policy" (an L2 cache policy register)."""
        return ()

    def guard_operand(self, op):
        """``(in, out)``: the values the emit hook's guard operand takes where the guarded atom is in
        bounds and where it is not (cp.async's src-size: cp-size, 0), selected per atom; None: the
        guard is the atom's predicate register itself (ld/st's ``@p``)."""
        return None

    # the word format (``smem_descriptor.ARCHES``) the instruction reads a DESCRIPTOR role's descriptor in
    descriptor_arch = "sm_90"

    form = ""  # the spelling tilecheck models, for messages (``space``: a family of memory operands only)

    # what the kernel emits after every application's body, before shared memory is read back
    # (cp.async: wait for the copies); lines without a tab
    drain: tuple[str, ...] = ()

    def bind(self, op, spec, tensors, views):
        """The opcode as the ``[[apply]]`` table completes it (cp.async: its cp_size); InputError."""
        return op

    def applicable(self, op) -> tuple[str, ...]:
        """The obligations decided of an application of ``op``: ``obligations``, or fewer where one does
        not apply to this form (the TMA family's ``tma_multicast`` without ``.multicast::cluster``)."""
        return self.obligations

    def check_applies(self, applies: list, symbols: dict) -> list:
        """The check's applications once all are bound (a rule across applications: the mbarrier phases
        of ``families/mbarrier.py``), completed where the rule says (InputError, placed by apply)."""
        return applies

    def atom(self, op) -> int:
        """Words per thread and instruction (the view's last axis)."""
        return op.vector

    def parse(self, text: str):
        raise NotImplementedError

    def legality(self, op, arch) -> str | None:
        raise NotImplementedError

    # the family's version table: rows (name, present(op), ..., lowest .version); ``ptx_version`` is
    # the maximum of the target's minimum and every present row's (``opcodes.needs``)
    versions: tuple = ()

    def ptx_version(self, op, arch) -> tuple[int, int]:
        raise NotImplementedError

    def operand_problem(self, apply) -> str | None:
        """The ``operands`` obligation: the family's own keys agree with the opcode."""
        return None

    def operand_facts(self, apply) -> dict:
        return {k: getattr(apply, k) for k in self.keys}

    # True when ``instruction`` only places ``regs`` and ``addr`` in its text, each once and
    # verbatim: the emitter then spells one row and fills in the rest (fast for 10^5 repeats)
    verbatim = False

    packs = False  # the emit hook takes ``packed``: the register tile holds 32-bit pairs of 16-bit words

    # False when the family has no emitter yet: ``instruction`` raises InputError (one line), so a proved
    # check using it is not emitted, assembled or run; tests ask this flag, not a list of examples
    emits = True

    def unemitted(self, apply, check=None) -> str:
        """Why this application is not emitted (one line), or ``""``: a family without an emitter
        (``emits``), or an application outside what its emitter spells (a TMA multicast; with ``check``,
        the application's place among the others: a phase whose copies other applications separate).
        Tests and the golden files ask this, not a list of examples."""
        return "" if self.emits else f"tilecheck does not emit {self.name} applications yet"
    # True when an application is one instruction whatever its view's repeats (a bulk copy's 16-byte atoms
    # are the engine's): the report's "instructions per thread" is then 1
    one_instruction = False
    # False when ``tilecheck draw`` cannot picture an application (a whole-box engine copy has no
    # per-thread elements): the picture says so in one line instead of drawing its panels
    pictured = True
    unpictured = ""  # why not, in one line (``tilecheck draw``; empty: the TMA copies' reason)

    def instruction(self, apply, regs: str, addr: str, pred: str, policy: str) -> str:
        """The emit hook: one instruction's text (a tab, the line, no newline)."""
        raise NotImplementedError

    # an engine copy (a TMA copy): one instruction for a whole box that a tensor map places, issued by
    # one thread and completed on a barrier; its views do not say where each element goes
    def tensormaps(self, apply) -> tuple[str, ...]:
        """The tensor maps (``[tensormaps.NAME]``) the application reads: the kernel takes each by value
        (``.param .align 64 .b8 NAME[128]``) and the runner encodes it from its proved arguments."""
        return ()

    def lower(self, apply, emitter) -> "Lowered | None":
        """The whole application's PTX, for a family that is not one ``instruction`` per repeat of its
        views: ``emitter`` offers the symbols' arithmetic, a tensor's start address, a tensor map's
        address, scratch shared variables, labels and the one issuing thread (``emit.engine.Services``).
        None (the default): the emitter spells ``instruction`` per repeat."""
        return None

    def moves(self, check, apply, env: dict) -> "Moves | None":
        """The numpy reference of an application its views do not describe (an engine copy): which
        element of the source each element of the destination takes, at symbol values ``env``.  None
        (the default): the reference gathers and scatters over the views."""
        return None

    def reference(self, apply, memory, off, threads, values):
        """The numpy reference of ``apply`` writing ``values`` at element offsets ``off`` of ``memory``
        (``gpu/reference.py``'s ``_Memory``; ``threads``: (replicas, coordinates) thread ids)."""
        memory.scatter(off, threads, values)

    def inputs(self, apply, tensor, n: int, rng):
        """The reference's input values for a tensor this family uses (None: random bits)."""
        return None

    # the decider's restatement of the obligations this family adds (``proofs/`` holds the proofs):
    # name -> rule(check, apply, env) -> witness dict or None, and name -> its prerequisites, restated;
    # ``decide.py`` iterates them (written apart from the proofs, sharing no evaluation code)
    rules: dict = {}
    rule_needs: dict = {}
    # name -> rule(check, apply, env, others) -> witness or None: an obligation across the CTAs of one launch
    # (``others``: the assignments of the other CTAs, the CTA-bound symbols differing, the rest ``env``'s);
    # ``rules`` holds the same name, decided at one assignment (usually nothing to find there)
    cta_rules: dict = {}

    # --- the tools' hooks: what tilecheck/strategies.py, gpu/ncu_*.py and emit/sass.py need to know ---

    # the strategies (``tilecheck/strategies.py``): the ``checks(families=...)`` draws this family
    # offers (``Draw`` records) and, where its apply is a guarded tile (``guard = true``), each
    # instruction's weight among the tiles' kinds
    draws: tuple = ()
    tile_kinds: dict[str, int] = {}

    def draw_kind(self, op) -> str | None:
        """Which of ``checks(kinds=...)``'s kinds (the plain family's instructions) an apply of ``op``
        counts as: its direction (None: neither, e.g. a copy from memory to memory)."""
        return None

    # SASS (``emit/sass.py``): (instruction, state space) -> the SASS memory instruction class it
    # becomes, for the instructions whose class ``Assembled.memory`` counts
    sass_classes: dict[tuple[str, str], str] = {}

    # ncu (``gpu/ncu_compare.py``, ``gpu/ncu_probe.py``): how an apply's memory traffic is predicted:
    # "lanes" (each executing thread gives its atom's address), "rows" (the memory role's ``lanes``
    # give one row each, at its ``origin``: ``memory_model.matrix_wavefronts`` over ``matrices``),
    # "copy" (memory to memory: the global side is read as global loads, the shared side is written by
    # the family's own instruction, which ncu counts apart), None (not predicted)
    ncu_traffic: str | None = None
    # extra (space, draw name, scope) cells ``ncu_compare prepare --matrix`` draws ("rows" families)
    ncu_cells: tuple = ()

    def sass(self, op, space: str) -> str:
        """The SASS memory instruction an apply of ``op`` with its memory in ``space`` becomes."""
        return self.sass_classes[(op.kind, space)]

    def matrices(self, op) -> int:
        """A "rows" apply's matrices (``memory_model.matrix_wavefronts``)."""
        raise NotImplementedError

    def mirror(self, a, vector: int, bits: int) -> str:
        """``emit/probe.py``'s mirror instruction for apply ``a`` (families whose applies it probes)."""
        raise NotImplementedError(f"emit.probe does not probe {self.name}")

    def draw_apply(self, tools, draw, name, **context):
        """A ``Draw(how="hook")``'s application: (tensors, apply table), or None when the restrictions
        leave no such draw.  ``tools``: the strategies' helpers (``strategies.TOOLS``), so that this
        package does not import Hypothesis; ``context``: k, threads, symbolic, syms, max_points,
        names, dtypes, swizzled."""
        raise NotImplementedError


@dataclass(frozen=True)
class Lowered:
    """A family's own lowering of one application (``Family.lower``): ``prologue``, the lines every
    thread runs once after the kernel fills its shared arrays and before its first barrier (an
    mbarrier's initialisation); ``body``, the application's lines, run by every thread in its place."""
    prologue: tuple[str, ...]
    body: tuple[str, ...]


@dataclass(frozen=True)
class Moves:
    """What an application does to memory element by element (``Family.moves``, the numpy reference):
    the destination's element ``dst[k]`` (an element offset of its buffer) takes the source's element
    ``src[k]`` where ``read[k]``; elsewhere it takes ``fill``: an unsigned bit pattern, ``"nan"`` (a NaN
    of the element's type, any payload), or None: it is not written.  Arrays of one length."""
    dst: object
    src: object
    read: object
    fill: object = None


@dataclass(frozen=True)
class Draw:
    """One name ``checks(families=...)`` and ``tilecheck fuzz --families`` take (``strategies.FAMILIES``).

    ``how``: "plain" (the plain tiles: memory and registers, every key drawn), "tile" (a guarded tile
    of the family's ``tile_kinds``, guarded or not) or "hook" (``Family.draw_apply``).  ``rank``: its
    place in ``strategies.FAMILIES``; ``staging``: its weight among the applications a default
    check draws now and then (0: never), ``staging_rank`` its place among them (the draws' order is
    what makes a seed's draws reproducible); ``warp``: it needs a whole warp (scope warp, threads a
    multiple of 32); ``help``: what ``--families`` says of it."""
    name: str
    how: str
    rank: int
    help: str
    staging: int = 0
    staging_rank: int = 0
    warp: bool = False


FAMILIES: dict[str, Family] = {}  # instruction name -> family


def _discover():
    for info in pkgutil.iter_modules(__path__):
        fam = getattr(importlib.import_module(f"{__name__}.{info.name}"), "FAMILY", None)
        if fam is not None:
            for ins in fam.instructions:
                FAMILIES[ins] = fam


_discover()


def _family_draws() -> list:
    fams = list(dict.fromkeys(FAMILIES.values()))
    return sorted(((d, f) for f in fams for d in f.draws), key=lambda x: x[0].rank)


def tile_kinds() -> list[tuple[str, int, Family]]:
    """The guarded tiles' kinds (instruction, weight, family), in the order of their families' draws."""
    fams = list(dict.fromkeys(f for _, f in _family_draws() if f.tile_kinds))
    return [(k, w, f) for f in fams for k, w in f.tile_kinds.items()]


def draws() -> dict[str, tuple[Draw, Family | None]]:
    """Every family's ``Draw`` records by name, in rank order, with the family that draws each; and
    ``guard``: a guarded tile of any family with ``tile_kinds`` (family None).  The strategies
    (``strategies.FAMILIES``) and ``tilecheck fuzz --families`` read it."""
    guard = Draw("guard", "guard", 1, f"guarded {'/'.join(k for k, _, _ in tile_kinds())} tiles", staging=6)
    out = _family_draws() + [(guard, None)]
    return {d.name: (d, f) for d, f in sorted(out, key=lambda x: x[0].rank)}


def check_applies(applies: list, symbols: dict) -> list:
    """Every family's ``check_applies`` over the check's applications, in the families' order."""
    for fam in dict.fromkeys(FAMILIES.values()):
        applies = fam.check_applies(applies, symbols)
    return applies


def of(op) -> Family:
    """The family of a parsed opcode."""
    return FAMILIES[op.kind]


def parse(text: str):
    """Parse an opcode spelling with its family's rules; ValueError (one line) if none takes it."""
    kind = text.strip().split(".")[0]
    kind = max((k for k in FAMILIES if "." in k and text.strip().startswith(k + ".")), key=len, default=kind)
    if kind not in FAMILIES:
        names = sorted(FAMILIES, key=lambda k: (k not in ("ld", "st"), k))
        expected = " or ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
        raise OpcodeError(f"unknown instruction '{kind}' in {text!r}: expected {expected}")
    return FAMILIES[kind].parse(text)
