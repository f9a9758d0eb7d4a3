"""Non-tensor bulk copies, ``cp.async.bulk``: one thread gives the copy engine two addresses and a byte
count; the engine moves ``size`` contiguous bytes (docs/tma.md, "Bulk copies").

Global -> shared (a load): ``cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.L2::cache_hint}
[dst], [src], size, [mbar]{, policy}``: the bytes complete on the mbarrier's transaction count
(``expect_tx``, summed over its ``phase`` as a TMA load's: ``families/mbarrier.py``).  Shared -> global
(a store): ``cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint} [dst], [src], size{, policy}``.
PTX ISA 8.0 (sm_90; ``.version`` 8.0); ptxas 13.0 takes the qualifiers in any order but the two
spaces' (destination first), refuses an immediate size that is not a multiple of 16, and the
``.shared::cta`` destination of a load below PTX 8.6 (not modelled: refused); ``.multicast::cluster``
is not modelled (``tests/test_bulk_family.py`` holds the legal set and the ``.version`` to ptxas).

An ``[[apply]]`` names the opcode, ``dst`` and ``src`` (memory views of shape ``(repeat, word)``, the
word 16 bytes of elements: the copy as 16-byte atoms, so that ``contiguity``, ``alignment``, ``bounds``
and ``overflow`` are the ones every copy shares: both ends 16-byte aligned, both operands inside their
tensors), ``size`` (the bytes the instruction gets, an expression of the symbols) and a load's
``expect_tx`` (and ``phase``).  ``bulk_copy`` holds ``size`` to a positive multiple of 16 that is the
views' bytes and the views' atoms to one contiguous run (the copy's ``[addr, addr + size)``);
``bulk_tx`` holds ``expect_tx`` to the bytes of the load's phase.  One thread issues the copy (scope
``thread``).  The decider's restatement of the two is ``RULES`` below, apart from ``proofs/bulk_*.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import oracle  # the oracles' evaluator of views and layouts (the decider's rules below; not crd2idx)
from ..errors import InputError
from ..expr import evaluate, names_of, parse_expr
from ..opcodes import OpcodeError, needs
from . import MEMORY, READ, WRITE, Family, Role, mbarrier

LOAD_COMPLETION, STORE_COMPLETION = "mbarrier::complete_tx::bytes", "bulk_group"
GROUPS = {"space": ("shared::cluster", "shared::cta", "global"), "completion": (LOAD_COMPLETION, STORE_COMPLETION),
          "hint": ("L2::cache_hint",)}
GROUP_OF = {q: g for g, qs in GROUPS.items() for q in qs}
VERSIONS = (("cp.async.bulk", lambda op: True, (8, 0)),)
ATOM = 16  # bytes: the alignment of both ends and the granule of size
NOT_MODELLED = ("multicast::cluster", "prefetch", "commit_group", "wait_group", "wait_group.read", "read",
                "cp_mask", "ignore_oob")


@dataclass(frozen=True)
class BulkOpcode:
    text: str
    kind: str  # "cp.async.bulk"
    space: str | None  # the destination's state space ("shared" for shared::cluster, "global")
    qualifiers: tuple[str, ...]
    load: bool = True  # global -> shared (else shared -> global)
    # bound from the [[apply]] table (FAMILY.bind)
    size: object = None  # bytes, an expression of the symbols
    expect_tx: object = None
    phase: str | None = None
    bits: int = 0
    vector: int = 1  # words per 16-byte atom
    cache_hint: bool = False
    fan_in: int = 1  # no multicast: each copy completes on its own CTA's barrier

    def first(self, group):
        return next((q for q in self.qualifiers if GROUP_OF.get(q) == group), None)


def parse(text: str) -> BulkOpcode:
    parts = text.strip().split(".")
    if parts[:3] != ["cp", "async", "bulk"]:
        raise OpcodeError(f"{text!r} is not a cp.async.bulk instruction")
    quals = tuple(parts[3:])
    for q in quals:
        if q in NOT_MODELLED or q.startswith("prefetch"):
            raise OpcodeError(f"{text!r}: tilecheck's bulk family models the copies global -> shared::cluster and "
                              f"shared::cta -> global only (.{q})")
        if q not in GROUP_OF:
            raise OpcodeError(f"unknown qualifier '.{q}' in {text!r}" if q else f"empty qualifier in {text!r}")
    spaces = [q for q in quals if GROUP_OF[q] == "space"]
    load = bool(spaces) and spaces[0] != "global"
    space = ("shared" if spaces[0].startswith("shared") else spaces[0]) if spaces else None
    return BulkOpcode(text.strip(), "cp.async.bulk", space, quals, load, cache_hint="L2::cache_hint" in quals)


def legality(op, arch) -> str | None:
    return mbarrier.copy_problem(op, arch, GROUP_OF, GROUPS, spaces_note=", at PTX 8.0")


def ptx_version(op, arch) -> tuple[int, int]:
    return needs(VERSIONS, op, arch)


def _expr(x, where):
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise InputError(f"must be an integer or an expression of the symbols, got {x!r}", where)
    try:
        return parse_expr(x, where)
    except InputError as e:  # placed at the key, not only the apply
        raise InputError(e.message, where) from None


class Bulk(Family):
    name = "cp.async.bulk"
    instructions = ("cp.async.bulk",)
    groups = ("thread",)  # one thread issues a copy
    keys = {"size": None, "expect_tx": None, "phase": None}
    obligations = ("target", "space", "shape", "width", "contiguity", "alignment", "disjoint", "bounds", "overflow",
                   "bulk_copy", "bulk_tx")  # no ownership (no registers); disjoint: a store's run against
    # another CTA's (its atoms are one run: within one copy they never meet)
    verbs = ("reads", "copies to")
    form = "cp.async.bulk (global -> shared::cluster, shared::cta -> global)"
    one_instruction = True  # its atoms are the engine's: one instruction per copy
    pictured = False  # the engine's copy: no thread's elements to draw (tilecheck draw writes one line)
    unpictured = ("tilecheck does not draw bulk copies yet (the bytes are the engine's copy of one contiguous "
                  "run, not elements of threads; docs/tma.md)")

    def roles(self, op):
        if op.load:
            return Role("dst", MEMORY, ("shared",), WRITE), Role("src", MEMORY, ("global",), READ)
        return Role("dst", MEMORY, ("global",), WRITE), Role("src", MEMORY, ("shared",), READ)

    parse = staticmethod(parse)
    legality = staticmethod(legality)
    ptx_version = staticmethod(ptx_version)
    versions = VERSIONS

    def applicable(self, op):
        """``bulk_tx`` is a load's (a store completes with .bulk_group); ``disjoint`` a store's (a load's
        shared destination is its own CTA's, written by one thread)."""
        drop = ("disjoint",) if op.load else ("bulk_tx",)
        return tuple(n for n in self.obligations if n not in drop)

    def bind(self, op, spec, tensors, views):
        """The opcode with the apply's ``size``, ``expect_tx``, ``phase`` and the copied element width."""
        if "size" not in spec:
            raise InputError("a bulk copy needs size: the bytes the instruction copies (a multiple of 16)", "size")
        size = _expr(spec["size"], "size")
        tx = spec.get("expect_tx")
        if op.load and tx is None and spec.get("phase") is None:
            raise InputError("a bulk load needs expect_tx: the bytes the kernel's mbarrier.arrive.expect_tx declares "
                             "for the phase the copy completes on", "expect_tx")
        if not op.load and tx is not None:
            raise InputError("expect_tx is a load's (an mbarrier's byte count); a store completes with .bulk_group",
                             "expect_tx")
        t = tensors.get(views["src"].tensor)
        bits = t.bits if t else 8
        return replace(op, size=size, expect_tx=None if tx is None else _expr(tx, "expect_tx"),
                       phase=mbarrier.phase_key(spec, op.load), bits=bits, vector=max(1, 8 * ATOM // bits))

    def check_applies(self, applies, symbols):
        """Each bulk copy's ``size`` and ``expect_tx`` name declared symbols only (``bind`` sees none)."""
        for a in applies:
            if a.family is self:
                for key in ("size", "expect_tx"):
                    x = getattr(a.opcode, key)
                    bad = sorted(names_of(x) - set(symbols)) if x is not None else []
                    if bad:
                        raise InputError(f"undeclared symbol {bad[0]!r} (declare it under [symbols.{bad[0]}])",
                                         f"apply[{a.index}].{key}")
        return applies

    def operand_facts(self, a):
        op = a.opcode
        return {"size": str(op.size), "expect_tx": None if op.expect_tx is None else str(op.expect_tx),
                **({"phase": op.phase} if op.phase is not None else {})}

    @staticmethod
    def spelling(load: bool = True) -> str:
        """The opcode of a copy global -> shared (a load completing on an mbarrier) or shared -> global (a
        store completing on a bulk group): ``tmap_strategies`` draws them."""
        if load:
            return f"cp.async.bulk.shared::cluster.global.{LOAD_COMPLETION}"
        return f"cp.async.bulk.global.shared::cta.{STORE_COMPLETION}"

    @staticmethod
    def spell(op, dst: str, src: str, size: str, mbar: str = "", policy: str = "") -> str:
        """One copy's PTX line from its operands: ``dst``/``src`` addresses (a load's destination and a
        store's source .b32 shared, the global side .b64), ``size`` (.b32 or an immediate), ``mbar`` (a
        load's mbarrier, .b32 shared), ``policy`` (.b64 with .L2::cache_hint).  ``tests/test_bulk_family.py``
        holds it to ptxas."""
        operands = [f"[{dst}]", f"[{src}]", size] + ([f"[{mbar}]"] if op.load else [])
        return f"\t{op.text} " + ", ".join(operands + ([policy] if op.cache_hint else [])) + ";"

    def uses(self, a):
        return ("policy",) if a.opcode.cache_hint else ()

    def unemitted(self, apply, check=None) -> str:
        """The copies of a ``phase`` are emitted only as consecutive applications (``mbarrier.separated``)."""
        return mbarrier.separated(check, apply)

    def lower(self, a, k):
        """``mbarrier.lower_copy`` (as a TMA copy's): one thread issues the copy from the address of the
        source view's first atom to the destination view's (``bulk_copy`` proved each view one contiguous
        run of ``size`` bytes from there), ``size`` an immediate or a register of the symbols."""
        op = a.opcode
        why = self.unemitted(a, k.check)
        if why:
            raise InputError(f"{op.text}: {why}", f"apply[{a.index}]")
        dst, src, size = k.address(a, "dst"), k.address(a, "src"), k.value(op.size)
        policy = k.policy if op.cache_hint else ""
        return mbarrier.lower_copy(a, k, lambda mbar: self.spell(op, dst, src, size, mbar, policy=policy), "bulk")


# --- the decider's restatement (tilecheck/decide.py reads RULES): at one symbol assignment, apart from
# proofs/bulk_*.py; a rule returns a witness dict or None ---

def tx_bytes(check, apply, env):
    """The bytes one copy delivers to its barrier: its size."""
    return evaluate(apply.opcode.size, env)


def decide_copy(check, apply, env):
    """``size``: positive, a multiple of 16, the views' bytes; each view's atoms one contiguous run."""
    op = apply.opcode
    size = evaluate(op.size, env)
    if size <= 0 or size % ATOM:
        return {"symbols": dict(env), "size": size}
    for role in ("dst", "src"):
        view = getattr(apply, role)
        t = check.tensors[view.tensor]
        repeats = [evaluate(e, env) for e in view.shape[:-1]]
        atoms = 1
        for e in repeats:
            atoms *= e
        if atoms * ATOM != size:
            return {"symbols": dict(env), "size": size, role: atoms * ATOM}
        first = None
        for n in range(atoms):
            r, k = [], n
            for e in reversed(repeats):
                r.insert(0, k % e)
                k //= e
            idx = oracle.view_index(view, (*r, 0), env)
            o = oracle.layout_value(t.layout, idx, env, t.offset)[""]
            first = o if first is None else first
            if o != first + n * op.vector:
                return {"symbols": dict(env), role: list(r), "offset": o, "expected": first + n * op.vector}
    return None


RULE_NEEDS = {"bulk_copy": ("shape", "space"), "bulk_tx": ("bulk_copy",)}
RULES = {"bulk_copy": decide_copy, "bulk_tx": mbarrier.decide_tx}


FAMILY = Bulk()
FAMILY.rules, FAMILY.rule_needs = RULES, RULE_NEEDS
FAMILY.tx_bytes = tx_bytes  # the decider's: an mbarrier phase sums its copies' (decide_tx)
