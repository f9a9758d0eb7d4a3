"""descriptor: every rule of ``cuTensorMapEncodeTiled`` holds for a tensor map, for all symbol values the
facts allow -- the driver would accept the arguments at every one of them.

The rules are the CUDA 13.0 header's (``cuda.h``, the doc comment of ``cuTensorMapEncodeTiled``),
fitted to what the H200's driver (580.159.04) answers where the header is vague or wrong: 40,000
recorded argument sets agree with them (docs/tma.md lists each decision and the driver's answer).
Each rule is stated once, over an algebra (``_Z3`` or ``_INT``): the violation formula is the
disjunction of the rules' failures over Z3 integers; a model is replayed on Python integers (the
concrete semantics), which also names the first rule that fails.  The decider restates the rules
independently (``decide.tensormap``).

``violation(check, tmap) -> Violation``; ``prove(check, tmap, timeout_s, facts) -> Outcome``.
"""
from __future__ import annotations

import time

import z3

from ..expr import concrete, fold
from ..opcodes import parse_arch
from ..tensormap import BITS, FLOATS, HOST_TYPES, PACKED, TensorMap
from . import facts as _facts
from .runner import PROVED, REFUTED, UNKNOWN, Outcome, Violation, lowest, tactic_solver

NAME = "descriptor"
# box bytes: esize * prod(box[i] // elementStrides[i]) at most this on sm_90 (asked of the H200's driver on
# 2026-12-03: 233,466 and 233,472 accepted, 233,478 and every probed count up to 233,523 refused; 228 KiB)
BOX_BYTES = 233472
# the global address must be below this (the same day: 0x1fffffffffffff0 accepted, 0x200000000000000 refused)
ADDRESS_END = 2**57
SPAN = {"32B": 32, "64B": 64, "128B": 128, "128B_atom_32B": 128, "128B_atom_32B_flip_8B": 128, "128B_atom_64B": 128}
ATOMS = ("128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B")
PACKED16 = ("16u4_align16b", "16u6_align16b")
# the swizzles a packed type takes (sm_100: the header's, not asked of a driver here)
PACKED_SWIZZLES = {"16u6_align16b": ("none", "128B", "128B_atom_32B", "128B_atom_64B"),
                   "16u4_align16b": ("none", "128B", "128B_atom_32B"), "16u4_align8b": None}


class _INT:
    """Concrete semantics: Python integers and booleans."""
    @staticmethod
    def all(xs):
        return all(xs)

    @staticmethod
    def any(xs):
        return any(xs)

    @staticmethod
    def div(a, b):  # only where the rule's guard holds (b >= 1)
        return a // b if b >= 1 else 0


class _Z3:
    """Symbolic semantics: Z3 integers (a concrete part stays a Python value)."""
    @staticmethod
    def all(xs):
        xs = list(xs)
        if all(isinstance(x, bool) for x in xs):
            return all(xs)
        return z3.And(*[z3.BoolVal(x) if isinstance(x, bool) else x for x in xs])

    @staticmethod
    def any(xs):
        xs = list(xs)
        if all(isinstance(x, bool) for x in xs):
            return any(xs)
        return z3.Or(*[z3.BoolVal(x) if isinstance(x, bool) else x for x in xs])

    @staticmethod
    def div(a, b):  # floor division of a non-negative a by b >= 1 (the rule guards b)
        if isinstance(a, int) and isinstance(b, int):
            return a // b if b >= 1 else 0
        return a / b  # Z3's integer division: the floor for b > 0


def term(x, env=None):
    """An int or an expression as a Z3 term over its symbols (``env``: Python values instead)."""
    if isinstance(x, int):
        return x
    c = concrete(x)
    if c is not None:
        return c

    def div(a, b, floor):  # a concrete divisor (the expression parser allows no other)
        if env is not None:
            return a // b if floor else a % b
        q = a / b if b > 0 else (-a) / (-b)  # Z3 divides by b > 0 as floor does
        return q if floor else a - b * q
    return fold(x.code(), lambda c: c, z3.Int if env is None else env.__getitem__, div)


def rules(check, m: TensorMap, v: dict, A) -> list[tuple[str, object]]:
    """Each rule as (name, holds) in the order they are reported; ``v``: the numeric fields
    (``dims``, ``strides``, ``box``, ``element_strides``, ``offset``) as terms of ``A``."""
    arch = parse_arch(check.arch).sm
    r, bits = m.rank, BITS[m.dtype]
    dims, strides, box, es = v["dims"], v["strides"], v["box"], v["element_strides"]
    wide = m.interleave == "32B" or m.dtype in PACKED16  # 32-byte address and strides
    unit = 32 if wide else 16
    out = [("arch", arch >= 90), ("rank", 1 <= r <= 5)]
    out.append(("packed_arch", m.dtype not in PACKED or arch >= 100))
    out.append(("swizzle_arch", m.swizzle not in ATOMS or arch >= 100))
    if not 1 <= r <= 5:
        return out
    out.append(("interleave_rank", m.interleave == "none" or r >= 3))
    out.append(("address", m.align % unit == 0 and A.all([(v["offset"] * m.tensor_bytes) % unit == 0])))
    past = v["offset"] * m.tensor_bytes  # the address at the base taken as 0 (docs/tma.md, address_range)
    out.append(("address_range", A.all([past >= 0, past < ADDRESS_END])))
    out.append(("dims", A.all([A.all([d >= 1, d <= 2**32]) for d in dims])))
    if m.dtype in PACKED16:
        out.append(("packed_dims", A.all([dims[0] % 128 == 0])))
    elif m.dtype == "16u4_align8b":
        out.append(("packed_dims", A.all([dims[0] % 2 == 0])))
    out.append(("stride_multiple", A.all([s % unit == 0 for s in strides])))
    out.append(("stride_max", A.all([A.all([s >= 0, s < 2**40]) for s in strides])))
    out.append(("box", A.all([A.all([b >= 1, b <= 256]) for b in box])))
    out.append(("box_inner", A.all([(box[0] * bits) % 128 == 0])))
    if m.dtype in PACKED16:
        out.append(("packed_box", A.all([box[0] == 128])))
    out.append(("element_strides", A.all([A.all([e >= 1, e <= 8]) for e in es])))
    guards = [A.all([b >= 1, b <= 256]) for b in box] + [A.all([e >= 1, e <= 8]) for e in es]
    count = 1
    for b, e in zip(box, es):
        count = count * A.div(b, e)
    out.append(("box_bytes", A.any([not g if isinstance(g, bool) else z3.Not(g) for g in guards]
                                   + [count * bits <= 8 * BOX_BYTES])))
    if m.interleave == "none" and m.swizzle != "none":
        out.append(("swizzle_span", A.all([box[0] * bits <= 8 * SPAN[m.swizzle]])))
    if m.dtype == "16u6_align16b":
        out.append(("packed_interleave", m.interleave == "none"))
    if PACKED_SWIZZLES.get(m.dtype):
        out.append(("packed_swizzle", m.swizzle in PACKED_SWIZZLES[m.dtype]))
    out.append(("oob_nan", m.oob_fill == "none" or m.dtype in FLOATS))
    lo, hi = HOST_TYPES[m.computed_in]
    if m.computed_in != "uint64":
        out.append(("computed_in", A.all([A.all([x >= lo, x <= hi]) for key in ("dims", "strides", "box",
                                                                                  "element_strides")
                                          for x in v[key]])))
    return out


def _values(m: TensorMap, env=None) -> dict:
    return {"dims": [term(x, env) for x in m.dims], "strides": [term(x, env) for x in m.strides],
            "box": [term(x, env) for x in m.box], "element_strides": [term(x, env) for x in m.element_strides],
            "offset": term(m.offset, env)}


def explain(check, m: TensorMap, env: dict) -> "tuple[str, dict] | None":
    """The first rule that fails at symbol values ``env``, in words, or None when all hold."""
    v = _values(m, env)
    for name, ok in rules(check, m, v, _INT):
        if not ok:
            static = dict(rules(check, m, _values(m), _Z3))[name]  # a rule of the concrete fields alone
            return _say(check, m, name, v, {} if isinstance(static, bool) else env), {"tensormap": m.name, "rule": name, "symbols": dict(env),
                                                  "arguments": m.at(env) if env or not m.names() else None}
    return None


def _say(check, m: TensorMap, rule: str, v: dict, env: dict) -> str:
    at = f" (at {', '.join(f'{k} = {x}' for k, x in env.items())})" if env else ""
    bits, r = BITS[m.dtype], m.rank
    unit = 32 if m.interleave == "32B" or m.dtype in PACKED16 else 16
    why = "interleave 32B" if m.interleave == "32B" else m.dtype
    first = lambda xs, bad: next(k for k, x in enumerate(xs) if bad(x))  # noqa: E731
    if rule == "arch":
        text = f"tensor maps need sm_90 or later, the file's arch is {check.arch}"
    elif rule == "rank":
        text = f"rank {r}: the driver takes 1..5 dimensions"
    elif rule == "packed_arch":
        text = f"the packed type {m.dtype} needs sm_100 or later (the sm_90 driver refuses it), arch is {check.arch}"
    elif rule == "swizzle_arch":
        text = f"swizzle {m.swizzle} needs sm_100 or later (the sm_90 driver refuses it), arch is {check.arch}"
    elif rule == "interleave_rank":
        text = f"interleave {m.interleave} needs rank >= 3, the map has rank {r}"
    elif rule == "address":
        off = v["offset"] * m.tensor_bytes
        text = (f"the global address (tensor {m.tensor}'s base, a multiple of align = {m.align}, plus {off} bytes) "
                f"is not {unit}-byte aligned" + (f" ({unit} for {why})" if unit == 32 else ""))
    elif rule == "address_range":
        off = v["offset"] * m.tensor_bytes
        text = (f"the global address (tensor {m.tensor}'s base plus {off} bytes) is "
                + ("below the base" if off < 0 else "not below 2^57 (the driver refuses addresses from 2^57 on)"))
    elif rule == "dims":
        k = first(v["dims"], lambda d: not 1 <= d <= 2**32)
        text = f"dims[{k}] = {v['dims'][k]}, outside 1..2^32"
    elif rule == "packed_dims":
        text = f"dims[0] = {v['dims'][0]} of {m.dtype} is not a multiple of {2 if m.dtype == '16u4_align8b' else 128}"
    elif rule == "stride_multiple":
        k = first(v["strides"], lambda s: s % unit)
        text = f"strides[{k}] = {v['strides'][k]} bytes is not a multiple of {unit}" + (
            f" ({unit} for {why})" if unit == 32 else "")
    elif rule == "stride_max":
        k = first(v["strides"], lambda s: not 0 <= s < 2**40)
        s = v["strides"][k]
        text = (f"strides[{k}] = {s} bytes is negative (the driver reads it as the cuuint64 {s % 2**64}, >= 2^40)"
                if s < 0 else f"strides[{k}] = {s} bytes is not below 2^40")
    elif rule == "box":
        k = first(v["box"], lambda b: not 1 <= b <= 256)
        text = f"box[{k}] = {v['box'][k]}, outside 1..256"
    elif rule == "box_inner":
        text = f"box[0] * element size = {v['box'][0]} * {bits} bits is not a multiple of 16 bytes"
    elif rule == "packed_box":
        text = f"box[0] = {v['box'][0]} of {m.dtype} must be 128"
    elif rule == "element_strides":
        k = first(v["element_strides"], lambda e: not 1 <= e <= 8)
        text = f"element_strides[{k}] = {v['element_strides'][k]}, outside 1..8"
    elif rule == "box_bytes":
        n = 1
        for b, e in zip(v["box"], v["element_strides"]):
            n *= b // e
        text = (f"the box holds {n * bits // 8} bytes (element size * product of box[i] // element_strides[i]), "
                f"over the driver's {BOX_BYTES}")
    elif rule == "swizzle_span":
        text = (f"the inner box, box[0] * element size = {v['box'][0] * bits // 8} bytes, is wider than the "
                f"{m.swizzle} swizzle's span of {SPAN[m.swizzle]} bytes")
    elif rule == "packed_interleave":
        text = f"{m.dtype} needs interleave none, the map has {m.interleave}"
    elif rule == "packed_swizzle":
        text = f"{m.dtype} takes swizzle {', '.join(PACKED_SWIZZLES[m.dtype])}, not {m.swizzle}"
    elif rule == "oob_nan":
        text = f"oob_fill nan needs a floating-point type, {m.dtype} is not one"
    else:  # computed_in
        lo, hi = HOST_TYPES[m.computed_in]
        place, x = next((p, term(e, env)) for p, e in m.fields() if not lo <= term(e, env) <= hi)
        text = f"{place} = {dict(m.fields())[place]} = {x} does not fit the host's {m.computed_in} (computed_in)"
    return f"tensormaps.{m.name}: {rule}: {text}{at}"


def violation(check, m: TensorMap) -> Violation:
    """The formula that is satisfiable exactly when some rule fails at some symbol values."""
    v = _values(m)
    fails = [z3.BoolVal(not ok) if isinstance(ok, bool) else z3.Not(ok) for _, ok in rules(check, m, v, _Z3)]
    return Violation(z3.Or(*fails), lambda w: explain(check, m, w))


def _observe(recorder, check, m: TensorMap, solver, result, model=None) -> None:
    """Show the recorder (--smt2 / --recheck) the query as decided: the violation and the symbols' facts."""
    if recorder is not None:
        recorder.observe(NAME, None, check, solver, result, model, tensormap=m.name)


def prove(check, m: TensorMap, timeout_s: float = 10.0, facts=None, minimize: bool = True,
          recorder=None) -> Outcome:
    """Decide the ``descriptor`` obligation of one tensor map: proved, refuted with the smallest
    symbol values (in declaration order) at which a rule fails, or unknown.  ``recorder`` (a
    ``proofs.smt2.Recorder``) sees the query, also one decided without a search."""
    start = time.perf_counter()
    formula = z3.simplify(violation(check, m).formula)
    if z3.is_false(formula) or not m.names():  # decided without a search: the query is the formula alone
        solver = z3.Solver()
        solver.add(formula)
        _observe(recorder, check, m, solver, z3.unsat if z3.is_false(formula) else z3.sat)
    if z3.is_false(formula):
        return Outcome(NAME, PROVED, time.perf_counter() - start)
    used = sorted(m.names())
    if not used:  # a concrete map: the formula is a constant
        explained = explain(check, m, {})
        if explained is None:
            return Outcome(NAME, UNKNOWN, time.perf_counter() - start,
                           f"{NAME} unknown: the formula and the concrete rules disagree (internal error)")
        message, cex = explained
        return Outcome(NAME, REFUTED, time.perf_counter() - start, f"{NAME} refuted: {message}", cex)
    if facts is None:
        facts = _facts.decide(check, timeout_s)
    if not facts.ok:
        return Outcome(NAME, UNKNOWN, time.perf_counter() - start, f"{NAME} unknown: {facts.reason}")
    solver = tactic_solver(max(1, int(timeout_s * 1000)))
    solver.add(formula, *(f for _, f in _facts.labelled(check)))
    r = solver.check()
    if r == z3.unknown:
        solver = z3.Solver()
        solver.set(timeout=max(1, int(max(0.001, start + timeout_s - time.perf_counter()) * 1000)))
        solver.add(formula, *(f for _, f in _facts.labelled(check)))
        r = solver.check()
    _observe(recorder, check, m, solver, r, solver.model() if r == z3.sat else None)
    if r == z3.unsat:
        return Outcome(NAME, PROVED, time.perf_counter() - start)
    if r == z3.unknown:
        return Outcome(NAME, UNKNOWN, time.perf_counter() - start,
                       f"{NAME} unknown: solver gave up ({solver.reason_unknown()}) after {timeout_s:g} s")
    model = solver.model()
    names = list(check.symbols)  # every symbol (an allowed assignment), the smallest first in declaration order
    if minimize:
        for s in names:
            model = lowest(solver, z3.Int(s), check.symbols[s].min, model, start + timeout_s)
    env = {s: model.eval(z3.Int(s), model_completion=True).as_long() for s in names}
    explained = explain(check, m, env)
    if explained is None:
        return Outcome(NAME, UNKNOWN, time.perf_counter() - start,
                       f"{NAME} unknown: the solver's counterexample did not replay on the concrete semantics "
                       "(internal error, please report)")
    message, cex = explained
    return Outcome(NAME, REFUTED, time.perf_counter() - start, f"{NAME} refuted: {message}", cex)
