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
