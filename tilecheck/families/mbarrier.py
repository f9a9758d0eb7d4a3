"""mbarrier phases: the copies that complete on one phase of one mbarrier (docs/tma.md, "Phases").

A load of the TMA families (``cp.async.bulk.tensor``, ``families/tma.py``; ``cp.async.bulk``,
``families/bulk.py``) completes its bytes on an mbarrier's transaction count, and the kernel's
``mbarrier.arrive.expect_tx`` declares the count of the whole phase: a GEMM stage's A and B boxes
complete on one barrier, so its ``expect_tx`` is their sum.  ``phase = "NAME"`` on each load groups
them: the phase's ``expect_tx`` is given on at least one of its applies (the same expression on every
one that gives it) and ``tma_tx`` (``bulk_tx``) holds it to the sum of the bytes its copies deliver.
An apply without ``phase`` is a phase of its own.  Here: the loading rule (InputError), run once over
the check's applications by the TMA family's ``check_applies``; no module of this file is a family."""
from __future__ import annotations

from dataclasses import replace

from ..errors import InputError
from ..opcodes import parse_arch
from ..expr import evaluate
from . import Lowered

MAX_TX = 2**20 - 1  # the mbarrier's transaction count (PTX ISA, "mbarrier": tx-count range)


def phase_key(spec, load: bool):
    """The ``phase`` key of an ``[[apply]]`` table: None, or a name (InputError otherwise)."""
    name = spec.get("phase")
    if name is None:
        return None
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"phase must be the name of an mbarrier phase (a non-empty string), got {name!r}", "phase")
    if not load:
        raise InputError("phase is a load's (the mbarrier phase its bytes complete on); a store completes with "
                         ".bulk_group", "phase")
    return name


def check_phases(applies: list, symbols: dict) -> list:
    """Each phase's ``expect_tx``: given on at least one of its applies, the same on each that gives it,
    and filled in on the others (their ``tma_tx`` states the phase's sum too)."""
    groups: dict = {}
    for a in applies:
        name = getattr(a.opcode, "phase", None)
        if name is not None:
            groups.setdefault(name, []).append(a)
    out = list(applies)
    for name, members in groups.items():
        given = [a for a in members if a.opcode.expect_tx is not None]
        if not given:
            raise InputError(f"phase {name!r} has no expect_tx: give the bytes its mbarrier.arrive.expect_tx "
                             "declares on one of its applies", f"apply[{members[0].index}].phase")
        tx = given[0].opcode.expect_tx
        for a in given[1:]:
            if str(a.opcode.expect_tx) != str(tx):
                raise InputError(f"phase {name!r}: expect_tx = {a.opcode.expect_tx} here, {tx} in "
                                 f"apply[{given[0].index}]: one phase has one byte count",
                                 f"apply[{a.index}].expect_tx")
        for a in members:
            if a.opcode.expect_tx is None:
                out[a.index] = replace(a, opcode=replace(a.opcode, expect_tx=tx))
    return out


def members(check, apply) -> list:
    """The applies of ``apply``'s phase, in order (``apply`` alone without a phase)."""
    name = getattr(apply.opcode, "phase", None)
    if name is None:
        return [apply]
    return [a for a in check.applies if getattr(a.opcode, "phase", None) == name]


def decide_tx(check, apply, env):
    """(The decider's ``tma_tx``/``bulk_tx``.)  ``expect_tx`` against the bytes the copies of its phase
    deliver (``Family.tx_bytes``, each family's own restatement; alone: this copy's), at most ``MAX_TX``."""
    op = apply.opcode
    if op.expect_tx is None:
        return None
    parts = [a.family.tx_bytes(check, a, env) for a in members(check, apply)]
    if None in parts:
        return None  # a member's own prerequisite (a TMA copy's tma_map) refutes it
    n, tx = sum(parts), evaluate(op.expect_tx, env)
    return None if tx == n and n <= MAX_TX else {"symbols": dict(env), "expect_tx": tx, "delivered": n}


def separated(check, apply) -> str:
    """Why ``apply``'s phase cannot be emitted (one line), or ``""``: its copies must be consecutive
    applications -- the emitter waits for the phase after its last copy, and an application between two
    of them would run before the bytes of the first had landed."""
    group = members(check, apply) if check is not None else [apply]
    if len(group) > 1 and [a.index for a in group] != list(range(group[0].index, group[-1].index + 1)):
        return (f"tilecheck emits the copies of a phase ({apply.opcode.phase!r}) only as consecutive applications "
                f"(it waits after the last: apply[{group[0].index}] .. apply[{group[-1].index}] has others between)")
    return ""


def lower_copy(a, k, spell, tag: str):
    """The lowering both engine copies share (``Family.lower``; ``k``: ``emit.engine.Services``): one
    thread (``k.issuer()``) issues the copy ``spell(mbar)`` spells (``mbar``: the load's mbarrier
    register, ``""`` for a store), every thread then waits for it.

    A load completes on the mbarrier of its phase (``mbar<i>``, ``i`` the index of the phase's first copy;
    a copy without ``phase`` is a phase of its own): the prologue initialises it once (arrival count 1)
    and fences it (``fence.mbarrier_init``) and the threads' fills of shared memory (``fence.proxy.async``)
    before the kernel's first barrier; in the body the threads' shared writes are fenced again and met at
    a barrier (an earlier application may have written the box's bytes), then the phase's first copy
    declares the phase's proved ``expect_tx`` (``arrive.expect_tx``) and each copy is issued; after the
    phase's last copy every thread spins on ``try_wait.parity`` of phase 0 (in the GPU tests' kernel at
    most ``k.patience`` tries of 1 us: a copy that never lands leaves its elements unwritten).  A store:
    the threads' writes of the shared source are fenced to the async proxy and met at a barrier, then the
    issuing thread copies, commits the bulk group and waits for it (``wait_group 0``: the global writes
    complete, so a later application of the kernel reads them; ``.read`` would only free the source).
    ``tag`` prefixes the labels."""
    op = a.opcode
    one, done = k.issuer(), k.label(f"{tag}_issued")
    fence = ["fence.proxy.async.shared::cta;", "bar.sync 0;"]
    if not op.load:
        return Lowered((), (*fence, f"@!{one} bra {done};", spell("").strip(), "cp.async.bulk.commit_group;",
                            "cp.async.bulk.wait_group 0;", f"{done}:"))
    group = members(k.check, a)
    first, last = group[0] is a, group[-1] is a
    mbar = k.new(32)
    copy = spell(mbar).strip()
    prologue = (f"mov.u32 {mbar}, {k.shared(f'mbar{group[0].index}', declare=first)};",)
    if first:
        prologue += (f"@{one} mbarrier.init.shared::cta.b64 [{mbar}], 1;",
                     "fence.mbarrier_init.release.cluster;", "fence.proxy.async.shared::cta;")
    arm = (f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [{mbar}], {k.value(op.expect_tx)};",) if first else ()
    issue = (*fence, f"@!{one} bra {done};", *arm, copy, f"{done}:")
    if not last:  # the phase's later copies complete it
        return Lowered(prologue, issue)
    ready, wait = k.new("pred"), k.label(f"{tag}_wait")
    if k.patience is None:  # wait for ever
        return Lowered(prologue, (*issue, f"{wait}:", f"mbarrier.try_wait.parity.shared::cta.b64 {ready}, "
                                  f"[{mbar}], 0;", f"@!{ready} bra {wait};"))
    tries, more, landed = k.new(32), k.new("pred"), k.label(f"{tag}_landed")  # the kernel's bounded wait
    return Lowered(prologue, (*issue, f"mov.u32 {tries}, 0;", f"{wait}:",
                              f"mbarrier.try_wait.parity.shared::cta.b64 {ready}, [{mbar}], 0, 1000;",
                              f"@{ready} bra {landed};", f"add.u32 {tries}, {tries}, 1;",
                              f"setp.lt.u32 {more}, {tries}, {k.patience};", f"@{more} bra {wait};",
                              f"{landed}:"))


def copy_problem(op, arch, group_of, groups, before=(), after=(), spaces_note="") -> str | None:
    """The spelling rules the engine copies share (``cp.async.bulk.tensor``, ``cp.async.bulk``): the two
    spaces in the direction's order (a load global -> shared::cluster, a store shared::cta -> global), the
    direction's completion (``mbarrier::complete_tx::bytes`` / ``bulk_group``), no qualifier group twice,
    sm_90 or newer; ``before``/``after``: the family's own ``(bad, reason)`` pairs around them.  The
    first problem in that order, or None."""
    kinds = [group_of[q] for q in op.qualifiers]
    spaces = [q for q in op.qualifiers if group_of[q] == "space"]
    want = ("shared::cluster", "global") if op.load else ("global", "shared::cta")
    completion = "mbarrier::complete_tx::bytes" if op.load else "bulk_group"
    reasons = [
        *before,
        (tuple(spaces) != want, f"the spaces must be .{want[0]}.{want[1]} (global -> shared::cluster loads, "
                                f"shared::cta -> global stores{spaces_note})"),
        (op.first("completion") != completion, f"a {'load' if op.load else 'store'} completes with .{completion}"),
        (any(kinds.count(g) > 1 for g in groups if g != "space"), "a qualifier group given twice"),
        *after,
    ]
    for bad, reason in reasons:
        if bad:
            return f"{op.text}: {reason}"
    if parse_arch(arch).sm < 90:
        return f"{op.text} needs sm_90 or newer, target is {parse_arch(arch).name}"
    return None
