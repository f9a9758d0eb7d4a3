"""One warp-instruction of a memory operand: its lanes, its byte addresses, and how it is counted.

The hardware executes the 32 threads of a warp together, whatever the apply's scope; the
``banks`` and ``sectors`` obligations count what one *warp-instruction* costs
(``tilecheck/memory_model.py``).  A warp-instruction is one warp at one repeat coordinate
(every lane of a warp is at the same repeat: the threads run the same program):

* ``thread`` scope: every thread issues the application's instructions on its own, and its
  address does not depend on the thread (a memory layout has no thread axes); the lanes of a
  warp are its threads, ``min(32, threads)`` of them in the fullest warp, all at one address;
* ``warp`` scope: lane ``l`` is group ``(l,)``; every warp of the CTA issues the same
  addresses, so one warp stands for all;
* ``cta`` scope: warp ``w``'s lane ``l`` is group ``(w, l)``: every warp is counted.

A lane's byte address is the tensor's base plus ``esize * offset`` at ``(group, repeat, word 0)``
(a family whose rows cross lanes, ``ldmatrix``/``stmatrix``, declares it in its memory role: lane
``L`` gives the address of its row, the coordinates ``role.origin(L)``; only the first
``role.lanes`` lanes give one, each of ``role.words`` elements);
the base is any multiple of the tensor's ``align`` (the counts are maximised over it): only
its residue modulo ``modulus`` matters (4 for banks: a shift by whole words renames the banks;
32 for sectors), so ``bases`` lists those residues.  A lane's atom is contiguous and aligned
(``contiguity`` and ``alignment`` are prerequisites), so its bytes are ``[addr, addr + width)``.
"""
from __future__ import annotations

import itertools
import sys
import time
from dataclasses import replace
from math import ceil, gcd, lcm, prod
from itertools import product

import numpy as np
import z3

from .. import accesses, crd2idx, memory_model
from ..accesses import READ
from ..domain import allowed, assignments
from ..expr import evaluate, names_of
from ..layout import OFFSET
from ..machine import GROUP_NAMES, WARP
from ..poly import And, Context, Division, Or, Poly, cmp
from ..encode import Coords, verb
from .facts import NEIGHBOURS, small_values
from .guard import atom_inside
from .runner import Violation, _complete, fast_solver, lowest, relevant, static, tactic_solver


def role_of(apply, view):
    """The family's role of the memory operand ``view``."""
    return accesses.role_of(apply, view)


def width(apply, tensor, view=None) -> int:
    """Bytes one lane moves: the atom (``vector`` words of the tensor's element; an ldmatrix row)."""
    words = role_of(apply, view).words if view is not None else 0
    return (words or apply.opcode.vector) * tensor.esize


def lanes(check, apply, view=None) -> int:
    """Active lanes of the fullest warp (a partial warp's lanes are a subset: it costs no more);
    of a role that declares ``lanes``, those that give an address."""
    if view is not None and role_of(apply, view).lanes:
        return role_of(apply, view).lanes
    return min(WARP, check.threads) if not GROUP_NAMES[apply.scope] else WARP


def start(apply, view, scope_group: list, lane, dom) -> tuple[list, object]:
    """(group, word) whose offset is ``lane``'s address: its own word 0, or its row's origin."""
    role = role_of(apply, view)
    if role.origin is None:
        return scope_group, 0
    g0, w0 = role.origin([lane], dom)
    return list(g0), w0


def counted_op(apply, view) -> str:
    """How the model serves the operand (``memory_model``'s mode): read (a load's pairs may merge) or
    written; an atom that crosses lanes (a thread-value layout: ldmatrix's rows, one phase per
    matrix) is never merged."""
    role = role_of(apply, view)
    return memory_model.READ if role.access == READ and role.values is None else memory_model.WRITE


def warps(check, apply) -> int:
    """Warps whose instructions differ: each warp in cta scope, one otherwise."""
    shape = check.group_shape(apply.scope)
    return shape[0] if len(shape) == 2 else 1


def group(scope: str, warp, lane) -> list:
    """The group coordinates of ``lane`` of ``warp`` (ints, arrays or polynomials)."""
    return [{"warp": warp, "lane": lane}[n] for n in GROUP_NAMES[scope]]  # machine.py's table


def bases(align: int, modulus: int) -> list[int]:
    """The residues modulo ``modulus`` a base pointer aligned to ``align`` bytes may have."""
    return list(range(0, modulus, align)) if align < modulus else [0]


def repeat_shape(check, apply, view) -> tuple[int, ...]:
    return tuple(view.shape[len(check.group_shape(apply.scope)):-1])


def _affine(p: Poly, names: list[str]) -> list[int] | None:
    """The coefficients of ``names`` in ``p`` when each enters it alone and linearly (``p`` is the rest
    plus ``sum_k c_k * names[k]``), else None."""
    out = [0] * len(names)
    where_ = {n: k for k, n in enumerate(names)}
    for m, c in p.terms.items():
        hit = [v for v in m if v in where_]
        if hit:
            if len(m) != 1:
                return None
            out[where_[hit[0]]] = c
    return out


def repeat_strides(check, apply, view, env: dict | None = None) -> tuple[list[int], list | None] | None:
    """``(strides, moves)`` when the repeats enter the operand affinely, else None (a repeat axis split
    into digits of a nested mode, a product with the lane, ...).  By ``crd2idx`` on polynomials over the
    whole ranges of the warp, lane and repeat coordinates (every monomial with a repeat coordinate is that
    coordinate alone, and no digit of one is needed): ``strides[k]``, the element offset before the
    swizzle moves by ``strides[k] * repeat_k``; ``moves`` (a guarded operand only, else None): per tensor
    axis ``(k, b)``, its logical index moves by ``b * repeat_k`` and with no other repeat axis (``k`` None:
    with none) -- None when one moves with two."""
    t = check.tensors[view.tensor]
    reps = repeat_shape(check, apply, view)
    ctx = Context()
    dom = crd2idx.Polys(ctx, {k: Poly.const(v) for k, v in (env or {}).items()})
    w, lane = ctx.var("w", 0, warps(check, apply) - 1), ctx.var("lane", 0, lanes(check, apply, view) - 1)
    names = [f"r{k}" for k in range(len(reps))]
    rep = [ctx.var(n, 0, e - 1) for n, e in zip(names, reps)]
    try:  # (a construct the polynomial evaluator does not take: None, every repeat enumerated)
        g, word = start(apply, view, group(apply.scope, w, lane), lane, dom)
        plain = replace(t, layout=replace(t.layout, swizzle=None))
        off = crd2idx.operand_value(plain, view, (*g, *rep, word if isinstance(word, Poly) else Poly.const(word)),
                                    dom)[OFFSET]
        index = None
        if guarded(apply, view):  # ``inside``'s coordinates: the lane's group, each of its words
            k = ctx.var("word", 0, apply.opcode.vector - 1)
            index = crd2idx.view_index(view, (*group(apply.scope, w, lane), *rep, k), dom)
    except Exception:  # noqa: BLE001 -- enumeration stays exact whatever failed here
        return None
    for p in (*ctx.eqs, *ctx.ges, *(r for r, _ in ctx.rels)):
        if any(v in names for m in p.terms for v in m):
            return None
    strides = _affine(off, names)
    if strides is None:
        return None
    if index is None:
        return strides, None
    moves = []
    for p in index:
        b = _affine(p, names)
        if b is None or sum(1 for x in b if x) > 1:
            return None
        moves.append(next(((k, x) for k, x in enumerate(b) if x), (None, 0)))
    return strides, moves


ENUMERATION_LIMIT = 1 << 21  # warp-instructions x base residues a concrete count enumerates, at most (about
# 6 s and 0.5 GB for a guarded tile): beyond it the count is unknown (a guarded tile of 2 million repeats
# whose repeats move two tensor axes at once, say)
PROGRESS_ROWS = 1 << 20  # ... and from this many on, a line on stderr says what is being counted


def repeat_coords(check, apply, view, shift: int, env: dict | None = None) -> list:
    """Per repeat axis the coordinates ``table`` enumerates (a sorted list, or ``range(n)``: every one)
    for a count that no shift of every lane by a multiple of ``shift`` bytes changes (``per_row``): each
    axis cut to its period.  When the offsets are affine in the repeats (``repeat_strides``), repeat
    ``k`` moving by ``p`` moves every lane's address by ``esize * p * s_k`` bytes (a swizzle
    ``Sw<B,M,S>`` too when ``p * s_k`` is a multiple of ``2^(M+S+B)`` elements: it changes no bit above
    those); at the smallest ``p`` for which that is a multiple of ``shift``, the warp-instruction at
    ``repeat_k + p`` counts as the one at ``repeat_k``, so the first ``p`` values of each axis hold every
    count, and the first (smallest) warp-instruction reaching each.  A guarded operand's active lanes
    change where a lane's index crosses its tensor axis's ends: each run of repeats between those
    crossings (along the one axis that moves it) has one set of active lanes, and its first ``p``
    values are enumerated.  Every coordinate otherwise."""
    reps = repeat_shape(check, apply, view)
    every = [range(n) for n in reps]
    if not reps:
        return every
    got = repeat_strides(check, apply, view, env)
    if got is None:
        return every
    strides, moves = got
    t = check.tensors[view.tensor]
    sw = t.layout.swizzle
    block = 1 << (sw.bits + sw.base + sw.shift) if sw is not None and sw.bits else 1
    period = [lcm(block // gcd(block, s), shift // gcd(shift, t.esize * s)) for s in strides]
    starts = [{0} for _ in reps]  # where each axis's runs of one set of active lanes begin
    if moves is not None:
        lows = _guard_lows(check, apply, view, env)
        for d, (k, b) in enumerate(moves):
            if k is None:
                continue
            e = evaluate(t.shape[d], env or {})
            for a in lows[d]:  # the lane's index a + b*r is in [0, e) from r = lo to r = hi - 1
                lo, hi = (-(-(-a) // b), -(-(e - a) // b)) if b > 0 else ((a - e) // -b + 1, a // -b + 1)
                starts[k].update(x for x in (lo, hi) if 0 < x < reps[k])
    out = []
    for k, n in enumerate(reps):
        runs = sorted(starts[k]) + [n]
        cut = [r for s, e in zip(runs, runs[1:]) for r in range(s, min(e, s + period[k]))]
        out.append(range(n) if len(cut) == n else cut)
    return out


def _guard_lows(check, apply, view, env) -> list[set]:
    """Per tensor axis, the logical indices of every lane's words at repeat 0 (``inside``'s)."""
    nw, nl, nv = warps(check, apply), lanes(check, apply), apply.opcode.vector
    g = np.indices((nw, nl, nv)).reshape(3, -1).astype(object)
    zero = g[0] * 0
    idx = crd2idx.view_index(view, (*group(apply.scope, g[0], g[1]), *(zero for _ in repeat_shape(check, apply, view)),
                                    g[2]), crd2idx.Ints(env or {}))
    return [set(np.broadcast_to(np.asarray(i, dtype=object), zero.shape).tolist()) for i in idx]


def _grid(nw: int, coords: list, nl: int) -> np.ndarray:
    """``(warp, *repeat, lane)`` of every row of ``table`` (row-major: warp, the repeats, then the lane)."""
    axes = [np.arange(nw), *(np.asarray(c, dtype=np.int64) for c in coords), np.arange(nl)]
    return np.stack(np.meshgrid(*axes, indexing="ij")).reshape(len(axes), -1)


def table(check, apply, view, env: dict | None = None, coords: list | None = None) -> tuple[list, np.ndarray]:
    """Every warp-instruction's lane byte offsets from the base, by ``crd2idx`` on numpy arrays:
    ``(keys, offsets)``, ``keys[i] = (warp, repeat)``, ``offsets[i, lane]``; ``coords``: per repeat
    axis the coordinates enumerated (``repeat_coords``; sorted), every one when None."""
    t = check.tensors[view.tensor]
    coords = [range(n) for n in repeat_shape(check, apply, view)] if coords is None else coords
    nw, nl = warps(check, apply), lanes(check, apply, view)
    big = t.layout.cosize(env or {}, t.offset) * t.esize >= 2**62
    grid = _grid(nw, coords, nl)
    if big:
        grid = grid.astype(object)
    w, rep, lane = grid[0], list(grid[1:-1]), grid[-1]
    dom = crd2idx.Ints(env or {})
    g, word = start(apply, view, group(apply.scope, w, lane), lane, dom)
    cs = (*g, *rep, lane * 0 + word)
    off = crd2idx.operand_value(t, view, cs, dom)[OFFSET]
    off = np.asarray(off)  # (exact: object where int64 would overflow, crd2idx.Ints)
    off = np.broadcast_to(off if off.dtype == object else off.astype(grid.dtype), lane.shape) * t.esize
    keys = [(k[0], tuple(k[1:])) for k in itertools.product(range(nw), *coords)]
    return keys, np.asarray(off).reshape(len(keys), nl)


def guarded(apply, view) -> bool:
    """Whether ``view``'s lanes may be inactive: it is the guarded operand of a ``guard = true`` apply
    (docs/check-file.md, "Guards"): ld/st's memory operand (a guarded-out atom does not execute) or
    cp.async's source (a guarded-out copy reads nothing; its shared destination is still zero-filled,
    so every destination lane is active)."""
    r = accesses.guarded_role(apply)
    return r is not None and getattr(apply, r) is view


def inside(check, apply, view, env, warp, repeat, lane):
    """Whether lane ``lane`` of ``warp`` at ``repeat`` is active: True unless ``view`` is guarded, else
    its atom is guarded in -- every word's logical index in ``[0, extent)`` (the ``guard`` obligation's
    and ``emit/guard.py``'s rule); ints or numpy arrays (elementwise)."""
    if not guarded(apply, view):
        return True
    t, env = check.tensors[view.tensor], env or {}
    dom, ok = crd2idx.Ints(env), True
    for k in range(apply.opcode.vector):
        idx = crd2idx.view_index(view, (*group(apply.scope, warp, lane), *repeat, lane * 0 + k), dom)
        for i, d in zip(idx, t.shape):
            ok = ok & (i >= 0) & (i < evaluate(d, env))
    return ok


def active(check, apply, view, env: dict | None = None, coords: list | None = None):
    """``table``'s rows' active lanes (bool, ``[i, lane]``; ``coords`` as ``table``'s), or None when every
    lane is active."""
    if not guarded(apply, view):
        return None
    coords = [range(n) for n in repeat_shape(check, apply, view)] if coords is None else coords
    nl = lanes(check, apply)
    grid = _grid(warps(check, apply), coords, nl).astype(object)
    ok = inside(check, apply, view, env, grid[0], list(grid[1:-1]), grid[-1])
    return np.broadcast_to(np.asarray(ok, dtype=bool), grid.shape[1:]).reshape(-1, nl)


def symbol_free(check, apply, view) -> bool:
    """``view``'s lane offsets (and, when guarded, its lanes' guards) name no symbol: every
    warp-instruction is the same at every symbol value, so enumeration decides it exactly (a shared
    staging tile written by a guarded cp.async from a symbolic corner, say)."""
    t = check.tensors[view.tensor]
    names = set(t.layout.symbols(t.offset))
    for x in (*view.starts, *view.extents, *(t.shape if guarded(apply, view) else ())):
        names |= names_of(x)
    return not names


def lane_offsets(row, mask=None) -> dict:
    """``{lane: offset}`` of a table row's active lanes (``mask``: that row of ``active``)."""
    return {lane: int(a) for lane, a in enumerate(row) if mask is None or mask[lane]}


def instruction_vars(q, view, tag: str = "i"):
    """(warp or None, [repeat]): the fresh variables of one symbolic warp-instruction, shared by every
    lane (``lane_polys``)."""
    check, apply = q.check, q.apply
    warp = q.ctx.var(f"{tag}:warp", 0, warps(check, apply) - 1) if len(GROUP_NAMES[apply.scope]) == 2 else None
    repeat = [q.ctx.var(f"{tag}:repeat{k}", 0, e - 1) for k, e in enumerate(repeat_shape(check, apply, view))]
    return warp, repeat


def lane_polys(q, view, warp, repeat, tag: str = "i") -> list:
    """The byte offsets (from the base) of the lanes of the warp-instruction ``(warp, repeat)``, each
    lane a constant."""
    check, apply = q.check, q.apply
    t = q.tensor(view)
    out = []
    for lane in range(lanes(check, apply, view)):
        g, word = start(apply, view, group(apply.scope, warp, Poly.const(lane)), lane, crd2idx.Ints())
        g = [Poly.const(x) if isinstance(x, int) else x for x in g]
        c = Coords(tag, g, repeat, Poly.const(word))
        out.append(t.esize * q.value(view, c)[OFFSET])
    return out


def lane_guards(q, view, warp, repeat, tag: str = "i"):
    """Z3: per lane of ``lane_polys``' warp-instruction, the lane is active (its atom guarded in,
    ``guard.atom_inside``); None when every lane is active (``view`` is not guarded)."""
    if not guarded(q.apply, view):
        return None
    return [atom_inside(q, Coords(tag, group(q.apply.scope, warp, Poly.const(lane)), repeat, Poly.const(0)))
            for lane in range(lanes(q.check, q.apply))]


def one(check, apply, view, env: dict, warp: int, repeat: tuple) -> dict:
    """``{lane: byte offset}`` of the active lanes of one warp-instruction (concrete, ``crd2idx``)."""
    t = check.tensors[view.tensor]
    dom = crd2idx.Ints(env)
    out = {}
    for lane in range(lanes(check, apply, view)):
        if not inside(check, apply, view, env, warp, repeat, lane):
            continue
        g, word = start(apply, view, group(apply.scope, warp, lane), lane, dom)
        out[lane] = t.esize * crd2idx.operand_value(t, view, (*g, *repeat, word), dom)[OFFSET]
    return out


VECTOR_ROWS = 256  # per_row counts a table this long at once (numpy); a shorter one row by row (its
# distinct rows are few: a concrete check's warp-instructions, where numpy's fixed costs dominate)


def per_row(rows: np.ndarray, rule, wd: int, op: str, mask=None) -> np.ndarray:
    """``rule.count(dict lane -> address, wd, op)`` of each row, computed once per distinct row (rows
    are first shifted down by whole multiples of ``rule.shift`` bytes, which no count depends on);
    ``mask`` (``active``): only each row's active lanes are in its dict.  A long table with every lane
    active is counted at once when the rule can (``Rule.count_rows``)."""
    nl = rows.shape[1]
    if mask is not None:  # an inactive lane's offset is never read: the row's lowest active one stands in
        low = np.where(mask, rows, rows.max()).min(axis=1, keepdims=True)
        rows = np.concatenate([np.where(mask, rows, low), mask.astype(rows.dtype)], axis=1)
    low = rows[:, :nl].min(axis=1, keepdims=True)
    norm = rows.copy()
    norm[:, :nl] = rows[:, :nl] - (low // rule.shift) * rule.shift
    got = rule.count_rows(norm, wd, op) if mask is None and len(norm) >= VECTOR_ROWS else None
    if got is not None:  # every row at once: no need to find the distinct ones first
        return np.stack(got, axis=1)
    index: dict = {}  # distinct rows as Python tuples (exact at any size; faster than np.unique's axis=0)
    inverse = [index.setdefault(r, len(index)) for r in map(tuple, norm.tolist())]
    counts = np.array([rule.count({lane: a for lane, a in enumerate(row[:nl]) if mask is None or row[nl + lane]},
                                  wd, op)
                       for row in index], dtype=np.int64)
    return counts[np.asarray(inverse, dtype=np.int64)]  # one row (count, ideal) per warp-instruction


def total(terms: list):
    """``z3.Sum`` that never writes a unary or empty ``+`` (SMT-LIB readers such as cvc5 reject them)."""
    terms = list(terms)
    return z3.IntVal(0) if not terms else terms[0] if len(terms) == 1 else z3.Sum(terms)


SHIFT_BANKS = memory_model.WORD * memory_model.BANKS  # 128 bytes: a shift by it keeps every word's bank
SHIFT_SECTORS = memory_model.SECTOR


def _span(ls: list[int]) -> str:
    """``16-31`` for a run of lanes, else the list."""
    if len(ls) > 2 and ls == list(range(ls[0], ls[-1] + 1)):
        return f"{ls[0]}-{ls[-1]}"
    return ", ".join(map(str, ls))


def lanes_text(n: int) -> str:
    return f"lane{'s' if n != 1 else ''}"


def plural(verb: str) -> str:
    """``reads`` -> ``read`` (lanes read), ``copies to`` -> ``copy to``."""
    head, _, tail = verb.partition(" ")
    head = head[:-3] + "y" if head.endswith("ies") else head[:-1] if head.endswith("s") else head
    return f"{head} {tail}".strip()


def where(check, apply, view, symbols: dict, warp, repeat: tuple, base: int, modulus: int,
          boundary: str = "sector") -> tuple[str, dict]:
    """The warp-instruction in words and as a JSON-able dict; a base past a ``boundary`` (one every
    ``modulus`` bytes) names the ``align`` that allows it and its default."""
    names = _repeat_names(check, apply, view)
    parts, d = [], {}
    if symbols:
        parts.append("symbols (" + ", ".join(f"{k}={v}" for k, v in symbols.items()) + ")")
        d["symbols"] = dict(symbols)
    if len(GROUP_NAMES[apply.scope]) == 2:
        parts.append(f"warp {warp}")
        d["warp"] = warp
    d["repeat"] = dict(zip(names, repeat))
    if repeat:
        parts.append("repeat (" + ", ".join(f"{k}={v}" for k, v in d["repeat"].items()) + ")")
    d["base"] = base
    if base:
        align = check.tensors[view.tensor].align
        parts.append(f"base address = {base} mod {modulus} ({view.tensor}'s align = {align} allows a base {base} "
                     f"bytes past a {boundary}; align defaults to the element size: declare align = {modulus} or "
                     f"more to count at a {boundary}-aligned base)")
    return ", ".join(parts), d


def _repeat_names(check, apply, view) -> list[str]:
    g = len(check.group_shape(apply.scope))
    out = []
    for k, names in enumerate(view.axes[g:-1]):
        user = [n for n in names if not n.startswith("_")]
        out.append((names[0] if len(names) == 1 else "(" + " ".join(names) + ")") if len(user) == len(names)
                   else f"axis{k}")
    return out


def repeats(check, apply, view) -> int:
    return prod(repeat_shape(check, apply, view))


# --- the decision, shared by banks and sectors ------------------------------------------------

PERFORMANCE_BUDGET_S = 1.0  # the ideal query of a count the file does not require: unknown after this
COUNT_STEP_S = 2.0  # each step of the symbolic maximum's search (a step it cannot decide: "at least")
MAXIMUM_SEARCH_S = 0.25  # the whole maximum search of a refutation at the ideal, not required
WORST_MINIMIZE_S = 0.05  # the smallest symbols where the maximum's level is reached, at most
MAXIMUM_SEARCH_EXPECT_S = 10.0  # ... when the file requires the count or bounds it (expect = { banks = N })


class Rule:
    """What one counted obligation supplies: ``name``; ``modulus`` (the base residues that matter);
    ``count(addresses, width, op) -> (count, ideal)`` on one warp-instruction (``memory_model``;
    ``op`` is ``memory_model.READ`` when the operand is read, ``WRITE`` when written);
    ``encode(q, addrs, width, tag, op, active) -> (count term, ideal term, side conditions)`` in Z3, a
    lane counting only where its ``active`` term holds (None: every lane);
    ``explain(...) -> (message, counterexample)`` of one warp-instruction; ``unit`` (plural noun)."""
    name = ""
    modulus = 1
    shift = 1
    unit = ""
    boundary = ""  # what begins every ``modulus`` bytes ("sector", "word"): a base's residue is past one
    ideal_word = "ideal"

    def count(self, addresses: dict, width: int, op: str) -> tuple[int, int]:
        raise NotImplementedError

    def count_rows(self, rows, width: int, op: str):
        """``count`` of every row of ``rows`` (lane i's address in column i, every lane active) at once:
        ``(counts, ideals)`` arrays, or None (``per_row`` then calls ``count`` row by row)."""
        return None

    def encode(self, q, addrs: list, width: int, tag: str, op: str, active=None):
        raise NotImplementedError

    def describe(self, addresses: dict, width: int, verb: str, op: str) -> tuple[str, dict]:
        raise NotImplementedError

    def supported(self, width: int) -> str | None:
        return None

    def pair(self, q, view, warp, repeat, base, width, op, addrs, active=None):
        """The violation at the ideal over two symbolic lanes, or None (the per-lane count decides);
        ``addrs`` are the lanes' Z3 byte addresses at the same warp, repeat and base, ``active`` their
        guards (``lane_guards``: None, every lane active)."""
        return None

    def most(self, lanes: int, width: int) -> int:
        """An upper bound of the count of one warp-instruction of ``lanes`` lanes."""
        raise NotImplementedError

    def always_ideal(self, lanes: int, width: int) -> bool:
        """True when every warp-instruction of ``lanes`` lanes of ``width`` bytes is at the ideal,
        whatever its addresses (a theorem of the model: no count is needed)."""
        return False


def expect(apply, name: str):
    """The file's bound on ``name`` for this apply: an int, or None (the ideal)."""
    return dict(getattr(apply, "expect", ()) or ()).get(name)


def decide(q, rule: Rule):
    """``q``'s memory operand's warp-instructions counted by ``rule``: a Violation (runner.py)."""

    check, apply, view = q.check, q.apply, q.memory
    t = q.tensor(view)
    wd = width(apply, t, view)
    op = counted_op(apply, view)
    problem = rule.supported(wd)
    bound = expect(apply, rule.name)
    if problem:  # no rule for this width: skipped (not counted), or unknown when the file requires it
        v = static(True, problem)
        if rule.name in apply.require:
            v.unknown = f"{rule.name} unknown: {problem}"
        else:
            v.skipped = f"{rule.name} skipped: {problem}"
        return v
    v_text = plural(verb(apply, view))

    def over(count, ideal):
        return count > (ideal if bound is None else bound)

    def report(symbols, w, rep, base, offsets, most: int | None, exact: bool = True, worst: dict | None = None):
        addresses = {lane: base + a for lane, a in offsets.items()}  # the active lanes
        count, ideal = rule.count(addresses, wd, op)
        place, d = where(check, apply, view, symbols, w, rep, base, rule.modulus, rule.boundary)
        how, cex = rule.describe(addresses, wd, v_text, op)
        if guarded(apply, view):  # guard = true: the lanes whose atom is guarded out do not count
            out = [lane for lane in range(lanes(check, apply)) if lane not in addresses]
            how += f"; {lanes_text(len(out))} {_span(out)} guarded out" if out else ""
            cex = {**cex, "guarded_out": out}
        n = count if most is None else most
        limit = f"ideal {ideal}" + ("" if bound is None else f", expected at most {bound}")
        head = f"{'' if exact else 'at least '}{n} {rule.unit} per warp-instruction ({limit})"
        at = f"{place}: " if place else ""
        if most is not None and most != count:
            at += f"{count} {rule.unit}, "
        cex = {**d, rule.unit: count, "ideal": ideal, "count": n, "exact": exact, **cex}
        if worst is not None and worst != symbols:  # the maximum is reached at other symbol values
            head += " (reached at " + ", ".join(f"{k}={v}" for k, v in worst.items()) + ")"
            cex["worst_symbols"] = dict(worst)
        if bound is not None:
            cex["expected"] = bound
        return f"{head}: {at}{how}", cex

    facts = getattr(q, "facts", None)
    if not check.symbols or (symbol_free(check, apply, view) and (facts is None or facts.ok)):
        # concrete (or an operand no symbol reaches): every warp-instruction by enumeration, each repeat
        # axis over its period (``repeat_coords``: the same counts, the same first worst one)
        coords = repeat_coords(check, apply, view, rule.shift)
        n = warps(check, apply) * prod(map(len, coords)) * len(bases(t.align, rule.modulus))
        if n > ENUMERATION_LIMIT:
            v = static(True, "")
            v.unknown = (f"{rule.name} unknown: {n:,} warp-instructions x base residues to count, more than "
                         f"the {ENUMERATION_LIMIT:,} enumerated at most (repeats whose offsets are not a stride "
                         f"times the coordinate, or that move two guarded axes at once, are counted one by one)")
            return v
        if n >= PROGRESS_ROWS:
            print(f"tilecheck: {rule.name}: counting {n:,} warp-instructions x base residues of apply "
                  f"{getattr(apply, 'index', '?')} ...", file=sys.stderr, flush=True)
        keys, rows = table(check, apply, view, coords=coords)
        mask = active(check, apply, view, coords=coords)
        best = None
        for base in bases(t.align, rule.modulus):
            got = per_row(rows + base, rule, wd, op, mask)
            for i in range(len(keys)):
                c, ideal = int(got[i, 0]), int(got[i, 1])
                key = (over(c, ideal), c, -i, -base)
                if best is None or key > best[0]:
                    best = (key, i, base, c, ideal)
        (bad, c, _, _), i, base, _, ideal = best
        if not bad:
            v = static(True, "")
            v.note = _proved_note(rule, c, ideal, bound)
            v.count = c
            return v
        offsets = lane_offsets(rows[i], None if mask is None else mask[i])
        message, cex = report({}, keys[i][0], keys[i][1], base, offsets, None)
        if check.symbols:  # an operand no symbol reaches: the same at any allowed values (replay needs some)
            cex = {"symbols": _any_allowed(check, facts), **cex}
        v = static(False, message, cex)
        v.count = c
        return v

    if bound is None and rule.always_ideal(lanes(check, apply, view), wd):  # at the ideal whatever the symbols
        v = static(True, "")
        v.note = _proved_note(rule, None, None, bound)
        return v

    # symbolic: one query at the ideal (or the expected bound) decides; a refutation is a fact, and its
    # count is the worst warp-instruction at the counterexample's symbol values (by enumeration), raised
    # by a maximum search over symbols within a budget ("at least N" when the search does not finish)
    w, rep = instruction_vars(q, view)
    nb = len(bases(t.align, rule.modulus))
    made: dict = {}  # the pointer's residue variable, and the lanes' addresses and the count's formula, made
    # when first needed (after a swizzled operand's residue rule, so that the residue query's background
    # has none of the lanes' digits)

    def pointer():
        """The base pointer's residue index (a variable; None when the alignment allows one residue)."""
        if "beta" not in made:
            made["beta"] = q.ctx.var("i:base", 0, nb - 1) if nb > 1 else None
        return made["beta"]

    def encoding() -> dict:
        if "formula" not in made:
            offs = lane_polys(q, view, w, rep)
            beta = pointer()
            base = t.align * beta if beta is not None else Poly()
            addrs = [q.z(base + o) for o in offs]
            on = lane_guards(q, view, w, rep)  # guard = true: a lane counts only when its atom is guarded in
            count, ideal, side = rule.encode(q, addrs, wd, "i", op, on)
            made.update(base=base, addrs=addrs, on=on, count=count,
                        formula=z3.And(*side, count > (ideal if bound is None else bound)))
        return made
    required = rule.name in apply.require
    search_s = MAXIMUM_SEARCH_S if bound is None and not required else MAXIMUM_SEARCH_EXPECT_S

    def instruction(symbols, at):
        offsets = one(check, apply, view, symbols, at[0], at[1])
        return (*rule.count({lane: at[2] + a for lane, a in offsets.items()}, wd, op), offsets)

    def by_residue(at_least: int | None = None, seconds: float | None = None, counts=None):
        """``_by_residue``: True, a formula or None.  ``at_least``: the formula of the combinations that
        are bad and count at least that; ``seconds``: the separation query's time at most
        (``_by_residue_classes``); ``counts``: a ``Counts`` given to it."""
        ms = None if seconds is None else int(seconds * 1000)
        bad = over if at_least is None else (lambda k, i: over(k, i) and k >= at_least)
        return _by_residue(q, rule, view, t, w, rep, pointer(), wd, op, bad, counts, separation_ms=ms)

    def by_levels(c: int, seconds: float):
        """The largest count of a violating warp-instruction, by the residue rule's levels from the
        top: the combinations counting at least a level are one query each (linear in the residues,
        unlike the lanes' count); the first satisfiable level is the maximum (its model's
        warp-instruction counted by enumeration: exactly the level, or no claim):
        ``maximum_by_levels``'s answer.  The counterexample stays where it was found (its symbols the
        smallest): only the count is raised, with the symbols where it is reached."""
        deadline = time.perf_counter() + seconds
        if "levels" not in made:  # the counts of the bad residue combinations, sorted: they include every
            # violating warp-instruction's count (a function of the combination: ``_by_residue`` says why)
            most = Counts(only=True)
            r = by_residue(seconds=seconds / 2, counts=most)
            made["levels"] = sorted(most) if r is not None and r is not True and most else None
        if made["levels"] is None:
            return None, False

        def decide_level(f, left):
            """The solver on ``f`` (and the constraints): its answer, and its model's count by enumeration
            (None when not over the bound)."""
            solver = fast_solver(min(left, COUNT_STEP_S))
            solver.add(f, *(q.build(k) for k, _ in relevant(set(q.zv), q.constraints())))
            r = solver.check()
            if r != z3.sat:
                return r, None
            model = solver.model()
            # where the level is reached: the smallest symbols (each by binary search, briefly; a step
            # the solver cannot decide in time keeps the last model, which is still one of the level)
            until = time.perf_counter() + min(left / 2, WORST_MINIMIZE_S)
            symbol_vars = q.symbol_vars()
            for n in [n for n in q.ctx.vars if n in symbol_vars and n in q.zv]:
                model = lowest(solver, q.zv[n], q.ctx.vars[n].lo, model, until)
            env = {n: model.eval(var, model_completion=True).as_long() for n, var in q.zv.items()
                   if n in q.ctx.vars}
            _complete(q, env, set(env), facts)
            symbols2 = {n: p.eval(env) for n, p in q.symbols.items()}
            c2, i2, _ = instruction(symbols2, _point(env, w, rep, pointer(), t.align))
            return r, ((c2, symbols2) if over(c2, i2) else None)
        return maximum_by_levels(made["levels"], c, deadline, lambda level, left: by_residue(level, seconds=left),
                                 decide_level)

    def finish(symbols, c, at, offsets, holder):
        """The report of a violation found at ``symbols`` (count ``c`` at instruction ``at``): the worst
        instruction there and at a few nearby symbol values, then the maximum search."""
        start = time.perf_counter()
        hi = rule.most(lanes(check, apply, view), wd)  # (``encoding``'s addresses: one per lane)
        if c < hi and not guarded(apply, view):  # the residue rule's counts: the maximum by levels
            top, exact = by_levels(c, search_s)
            if exact:
                most, worst = top
                holder.count = most
                return report(symbols, at[0], at[1], at[2], offsets, most, True, worst)
            if made["levels"] is not None:
                hi = min(hi, max(made["levels"][-1], c))
        if c < hi:  # few allowed symbol values: every one enumerated is the exact maximum, no search
            whole = _every_instruction(check, apply, view, rule, wd, op, over, search_s, (c, at, offsets, symbols), q)
            if whole is not None:  # (the lanes' Z3 encoding is not needed: not made)
                c, at, offsets, symbols = whole
                holder.count = c
                return report(symbols, at[0], at[1], at[2], offsets, c, True)
        made_at = time.perf_counter()
        e = encoding()  # made outside the search's clock (its time is not the search's)
        start += time.perf_counter() - made_at
        for k, env in enumerate([symbols, *_samples(check, symbols)]):
            if k and (c >= hi or time.perf_counter() - start > search_s / 2):
                break
            worst = _worst_at(check, apply, view, rule, env, wd, op, over)
            if worst is not None and worst[0] > c:
                c, at, offsets = worst[0], worst[1], worst[2]
                symbols = env
        most, exact, env2 = _maximum(q, e["formula"], e["count"], c, hi, search_s - (time.perf_counter() - start))
        if env2 is not None:  # a larger count elsewhere: that instruction, counted by enumeration
            at2 = _point(env2, w, rep, pointer(), t.align)
            symbols2 = {n: p.eval(env2) for n, p in q.symbols.items()}
            c2, i2, offsets2 = instruction(symbols2, at2)
            if over(c2, i2) and c2 >= c:
                symbols, at, offsets, c = symbols2, at2, offsets2, c2
        most = max(most, c)
        holder.count = most if exact else None
        return report(symbols, at[0], at[1], at[2], offsets, most, exact)

    # few allowed symbol assignments: every one enumerated decides exactly, both ways (no solver)
    small = _decide_small(check, apply, view, rule, wd, op, over, q)
    if small is True:
        v = static(True, "")
        v.note = _proved_note(rule, None, None, bound)
        return v
    if small is not None:
        c, at, offsets, env = small
        v = static(False, "")
        v.explain = lambda _w: report(env, at[0], at[1], at[2], offsets, c, True)
        v.count = c
        return v

    # a refutation is a fact wherever it is found: first by enumeration at the smallest and largest
    # allowed symbol values (no solver; a proof still needs the query below)
    # (and last the allowed points next to the facts' model, Facts.neighbours: a count over the bound
    # may need a symbol a step or two larger, a stride's first even value)
    ok = facts is not None and facts.ok and facts.model
    near = (lambda: facts.each_neighbour(NEIGHBOURS * len(check.symbols))) if ok else None  # one at a time:
    found = _refute_by_enumeration(check, apply, view, rule, wd, op, over, REFUTE_FIRST_S,  # within the time
                                   [facts.model] if ok else [], near)
    if found is not None:
        v = static(False, "")
        v.explain = lambda _w: finish(*found, v)
        return v

    def explain(witness):
        symbols = witness.symbols
        at = _point(witness.env, w, rep, pointer(), t.align)
        c, i, offsets = instruction(symbols, at)
        if not over(c, i):
            return None
        return finish(symbols, c, at, offsets, v)

    plain = t.layout.swizzle is None or t.layout.swizzle.bits == 0  # unswizzled: the residue rule only
    # when the formula is not already false (e.g. one aligned access per thread: nothing to count);
    # swizzled: first, and its query's background taken before the lanes' swizzled values are made
    # (each lane's swizzle digits are defined from the same symbols: the solver would get them all)
    def within_bound():  # every residue within the bound: proved, no solver
        v = static(True, "")
        v.note = _proved_note(rule, None, None, bound)
        return v

    residue = None if plain else by_residue()
    if residue is True:
        return within_bound()
    background = None if residue is None else q.constraints()
    e = encoding()
    # at the ideal, a rule may state the violation on two symbolic lanes (far smaller for the solver)
    pair = rule.pair(q, view, w, rep, e["base"], wd, op, e["addrs"], e["on"]) \
        if bound is None and residue is None else None
    if plain and not z3.is_false(z3.simplify(e["formula"])):
        residue = by_residue()
        if residue is True:
            return within_bound()
    v = Violation(e["formula"] if residue is None and pair is None else pair if residue is None else residue,
                  explain, budget=None if required else PERFORMANCE_BUDGET_S, background=background)
    v.note = _proved_note(rule, None, None, bound)
    return v


class Counts(set):
    """The counts of the bad residue combinations (``_by_residue``'s ``most``); ``only``: they are all
    that is wanted (the formula returned is then ``true`` whenever there is a bad combination)."""

    def __init__(self, only: bool = False):
        super().__init__()
        self.only = only


def maximum_by_levels(levels: list, c: int, deadline: float, formula_at, decide_level):
    """The largest count of a violating warp-instruction from the residue rule's ``levels`` (sorted:
    the counts of the bad residue combinations, a superset of the reachable ones), ``c`` one that is
    reached: from the top, ``formula_at(level, seconds)`` is the formula of the combinations counting
    at least ``level`` (True: none, None: no formula) and ``decide_level(formula, seconds)`` the
    solver's answer with its model's count by enumeration and where it is (``(count, where)``, None
    when not over the bound).  The first satisfiable level whose model counts exactly that level is
    the maximum (every level above it unreachable); one that counts otherwise (the rule and the
    enumeration disagree) makes no claim.  ``((maximum, where or None for c's own), True)``, or
    ``(None, False)`` when undecided by ``deadline``."""
    for level in reversed(levels):
        if level <= c:
            return (c, None), True  # every level above c has no reachable combination
        left = deadline - time.perf_counter()
        if left <= 0.001:
            break
        f = formula_at(level, left)
        if f is None:
            break
        if f is True:
            continue
        r, found = decide_level(f, left)
        if r == z3.unsat:
            continue
        if r != z3.sat or found is None or found[0] != level:  # undecided, or not the count the rule
            break  # promised: no claim
        return found, True
    else:  # every level above c unreachable
        return (c, None), True
    return None, False


RESIDUE_LIMIT = 1 << 15  # residues x base residues counted by _by_residue, at most (8 us each: 0.26 s)
REACHABLE_LIMIT = 1 << 16  # variables' residue combinations evaluated (numpy) for the residues polynomials take


def _by_residue(q, rule, view, t, w, rep, beta, wd, op, over, most: set | None = None,
                separation_ms: int = None):
    """An exact decision for an operand (swizzled or not: ``Sw<0,M,S>``, the identity) whose lanes are
    a common base plus constants before the swizzle (``plain_l = P + c_l``: the symbols, warp and repeat move every lane alike).
    ``Sw<B,M,S>`` changes ``x`` by an amount that depends only on ``x mod 2^(M+S+B)``, so the lanes'
    byte addresses ``ptr + esize * swz(P + c_l)`` differ from each other by amounts that depend only
    on ``P mod m`` (``m = max(2^(M+S+B), modulus)``, modulus 4 for banks, 32 for sectors: also where
    the addresses fall in a word or sector) and on the pointer's residue mod ``modulus``; a shift of
    every address by whole words renames the banks, by whole sectors the sectors.  So the count is a
    function of ``(pointer residue, P mod m)``, counted here for every pair by enumeration.
    Returns True when none is over the bound (proved: all residues, a superset of the reachable
    ones), a Z3 formula "the base pointer and ``P mod m`` are a bad pair" equisatisfiable with the
    violation (the solver finds a reachable one, or none), or None when the rule does not apply."""

    sw = t.layout.swizzle
    if guarded(q.apply, view):
        return None
    if sw is None or sw.bits == 0:  # unswizzled: the identity, m = modulus (a shift renames banks/sectors)
        sw, m = (lambda x: x), rule.modulus
    else:
        m = max(1 << (sw.bits + sw.base + sw.shift), rule.modulus)
    ptrs = bases(t.align, rule.modulus)
    if m * len(ptrs) > RESIDUE_LIMIT:
        return None
    plain_t = replace(t, layout=replace(t.layout, swizzle=None))
    plain = []
    for lane in range(lanes(q.check, q.apply, view)):
        g, word = start(q.apply, view, group(q.apply.scope, w, Poly.const(lane)), lane, crd2idx.Ints())
        c = Coords("i", [Poly.const(x) if isinstance(x, int) else x for x in g], rep, Poly.const(word))
        plain.append(crd2idx.operand_value(plain_t, view, c.all, q.domain(c), c.tag)[OFFSET])
    plain = _constants(q, plain)  # (a stride that can take one value only is a constant one)
    diffs = [p - plain[0] for p in plain]
    if not all(d.is_const for d in diffs):  # lanes apart by a symbolic amount (a symbolic stride)
        return _by_residue_classes(q, rule, t, sw, m, ptrs, plain, diffs, beta, wd, op, over, most,
                                   SEPARATION_MS if separation_ms is None else min(separation_ms, SEPARATION_MS))
    return _one_base(q, rule, t, sw, m, ptrs, plain, diffs, q.z(beta) if beta is not None else None, wd, op, over,
                     most=most)

SEPARATION_MS = 300  # the query that two classes of lanes never come close (``_by_residue_classes``)


def _by_residue_classes(q, rule, t, sw, m, ptrs, plain, diffs, beta, wd, op, over, most=None,
                        separation_ms: int = SEPARATION_MS):
    """``_by_residue`` for lanes whose plain offsets differ by polynomials (a symbolic stride between
    lane groups: ``plain_l = P + K_k + c_l``, ``K_k`` the polynomial of lane l's class, ``c_l`` a
    constant; ``P`` and the ``K_k`` in the variables every lane shares: symbols, warp, repeat and
    their digits).  Within a class the lanes' offsets differ by constants, as ``_by_residue`` has
    them.  Across classes, first a query over those variables and their facts: any two lanes of two
    classes are at least ``far`` elements apart (more than two offsets' swizzle moves can differ,
    ``(2^B - 1) * 2^M``, plus the bytes of an access and of a word or sector), so they never share a
    word or a sector.  Then which words (sectors) the lanes share depends only on the class they are
    in and on their constants, and each word's bank (each sector's place) only on the pointer's
    residue mod ``modulus`` and on ``P mod m`` and ``K_k mod m``: ``m`` is made a multiple of what the
    swizzle reads and such that ``esize * m`` bytes is a whole number of ``shift`` (a class moved by
    it keeps every bank).  Every residue combination the variables can give (``_residues``) is
    counted by enumeration, each class placed apart from the others by a multiple of ``esize * m``
    bytes (``_separated``).  When the query fails because one variable ``v`` may be small
    (``_stride_threshold``), ``v >= V0`` is decided so and each value below ``V0`` with the lanes one
    base plus constants (``_one_base``).  Returns True (no combination over the bound), a formula
    "the pointer, ``P mod m`` and the ``K_k mod m`` (or the variables' residues) are a bad
    combination" equisatisfiable with the violation, or None (not separated, too many
    combinations, a formula too long).  ``most`` (``Counts``): every bad combination's count is added
    to it (with a formula returned, they include the count of every violating warp-instruction; a
    superset); ``separation_ms``:
    the separation query's time (``SEPARATION_MS``) when less."""


    classes: dict = {}  # the class polynomial K_k (no constant term) -> its lanes
    for lane, d in enumerate(diffs):
        classes.setdefault(d - Poly.const(d.constant), []).append(lane)
    keys = list(classes)
    e = t.esize
    if (e * m) % rule.shift:  # classes are moved apart by multiples of e * m bytes: whole rows of banks
        m = m * rule.shift // gcd(m, rule.shift)
    # a swizzle changes the B bits at M only: two offsets' moves differ by at most (2^B - 1) * 2^M
    moved = ((1 << sw.bits) - 1) << sw.base if hasattr(sw, "bits") else 0
    far = moved + ceil((wd + rule.modulus) / e)
    fails = []
    for i, j in itertools.combinations(range(len(keys)), 2):
        ci = [diffs[lane].constant for lane in classes[keys[i]]]
        cj = [diffs[lane].constant for lane in classes[keys[j]]]
        lo, hi = min(cj) - max(ci), max(cj) - min(ci)  # lane differences: K_j - K_i + c, c in [lo, hi]
        dk = q.z(keys[j] - keys[i])
        fails.append(And(cmp(">", dk, -far - hi), cmp("<", dk, far - lo)))
    names = set().union(*(k.variables() for k in keys))
    region, small = None, ()  # a stride the facts let be small: its few small values one by one
    split = _stride_threshold(q, keys, classes, diffs, far)
    if split is not None and split[2] is False:  # the stride never reaches the threshold: every value
        separated = False  # of it one by one, no query
    else:
        solver = tactic_solver(max(1, separation_ms))
        solver.add(Or(*fails), *(q.build(c) for c, _ in relevant(names, q.constraints())))
        separated = solver.check() == z3.unsat
    only = None  # the small values' P residues to count: all m, or (too many) those P can take at each value
    if not separated:
        if split is None:
            return None
        v, small, region = split
        if len(small) * m * len(ptrs) > SMALL_STRIDE_LIMIT:
            if len(small) * len(ptrs) > SMALL_STRIDE_LIMIT:  # each value gives one residue at least: over
                return None  # the limit below whatever they are (and 2^k values, one _residues each, hang)
            only = [_residues(q, [plain[0].subst({v: value})], m, REACHABLE_LIMIT) for value in small]
            if any(r is None for r in only) or sum(map(len, only)) * len(ptrs) > SMALL_STRIDE_LIMIT:
                return None
    parts = []
    b = q.z(beta) if beta is not None else None
    if region is not False:  # the separated region (all of it, or v >= V0): by the residues
        part = _separated(q, rule, t, sw, m, ptrs, plain, diffs, classes, keys, b, wd, op, over, most)
        if part is None:
            return None
        if part is not True:
            parts.append(part if region is None else z3.And(cmp(">=", q.z(Poly.var(v)), region), part))
    for k, value in enumerate(small):  # v below V0: each value's lanes are one base plus constants
        # (not pruned when every residue is counted: measured, the pruned disjuncts left the seed-34 case
        # undecided at 1 s, refuted without)
        part = _one_base(q, rule, t, sw, m, ptrs, plain, [d.subst({v: value}) for d in diffs], b, wd, op, over,
                         prune=False, only=None if only is None else sorted(r for (r,) in only[k]), most=most)
        if part is not True:
            parts.append(z3.And(cmp("==", q.z(Poly.var(v)), value), part))
    return z3.Or(*parts) if parts else True


SMALL_STRIDE_LIMIT = 1 << 14  # values below the threshold x residues x base residues counted, at most (each
# value is counted apart: about 6 ms for 128 residues)


def _stride_threshold(q, keys, classes, diffs, far):
    """When every class polynomial is a multiple of one variable ``v`` (``K_k = a_k * v``) whose range
    has a lower end: (v, the values of v below ``V0``, ``V0``), where ``V0`` is the least value from
    which any two lanes of two classes are ``far`` apart (arithmetic: for ``a_j > a_i`` the lanes'
    differences ``(a_j - a_i) * v + c`` are at least ``far`` once ``v >= (far - min c) / (a_j - a_i)``);
    ``region`` is False when ``v`` never reaches ``V0``.  None otherwise."""
    variables = set().union(*(k.variables() for k in keys))
    if len(variables) != 1:
        return None
    (v,) = variables
    if any(set(k.terms) - {(v,)} for k in keys):
        return None
    var = q.ctx.vars.get(v)
    if var is None or var.lo is None:
        return None
    a = [k.terms.get((v,), 0) for k in keys]
    threshold = var.lo
    for i, j in itertools.combinations(range(len(keys)), 2):
        ci = [diffs[lane].constant for lane in classes[keys[i]]]
        cj = [diffs[lane].constant for lane in classes[keys[j]]]
        lo, hi = min(cj) - max(ci), max(cj) - min(ci)
        da = a[j] - a[i]  # nonzero: the classes' polynomials differ
        threshold = max(threshold, ceil((far - lo) / da) if da > 0 else ceil((far + hi) / -da))
    top = threshold if var.hi is None else min(threshold, var.hi + 1)
    return v, range(var.lo, top), (threshold if var.hi is None or var.hi >= threshold else False)


def _one_base(q, rule, t, sw, m, ptrs, plain, diffs, b, wd, op, over, prune: bool = True, only=None, most=None):
    """Lanes one base plus constants (``diffs``: constant polynomials; ``b``: the pointer's residue
    index term or None): every residue of ``P = plain[0]`` modulo m and of the pointer counted by
    enumeration (``only``: those residues of P, a superset of the ones it takes: the others cannot be
    bad); ``prune``: a bad residue ``P`` cannot take (``_residues``, a superset) left out.
    True when none is over the bound, else the formula "the pointer and ``P mod m`` are a bad pair"."""
    cs = np.array(_compact([d.constant for d in diffs], m), dtype=np.int64)
    lift = m * (int(np.abs(cs).max()) // m + 1)  # representatives kept positive
    res = np.arange(m, dtype=np.int64) if only is None else np.array(only, dtype=np.int64)
    x = lift + res[:, None] + cs[None, :]
    rows = np.concatenate([ptr + t.esize * sw(x) for ptr in ptrs])
    got = per_row(rows, rule, wd, op)
    counts = got.tolist()
    bad = [(i // len(res), int(res[i % len(res)])) for i, (c, ideal) in enumerate(counts) if over(c, ideal)]
    if bad and most is not None:  # the counts of the bad pairs (a superset: some may be unreachable)
        most.update(c for c, ideal in counts if over(c, ideal))
        if most.only:
            return z3.BoolVal(True)
    if prune:  # P = c + g * (...), g the gcd of its other coefficients: P mod m is c mod gcd(g, m) (exact,
        # at once; the table below, when not too large, prunes further)
        g, c0 = gcd(plain[0].content(), m), plain[0].constant
        bad = [(k, r) for k, r in bad if (r - c0) % g == 0]
    reachable = _residues(q, [plain[0]], m, REACHABLE_LIMIT) if bad and prune else None
    if reachable is not None:
        bad = [(k, r) for k, r in bad if (r,) in reachable]
    if not bad:
        return True
    res = q.z(plain[0]) % m  # one residue term, placed in each run of consecutive bad residues
    return z3.Or(*[z3.And(*([b == k] if b is not None else []), *_within(res, lo, hi)) for k, lo, hi in _runs(bad)])


def _runs(bad: list) -> list:
    """``(k, lo, hi)``: the pairs ``(k, r)`` of ``bad`` as runs of consecutive residues ``lo..hi`` of
    one pointer residue ``k`` (the same set of pairs: a swizzle's bad residues come in runs, e.g.
    every start whose 32 lanes cross a block, so the formula has a few intervals, not thousands
    of equalities)."""
    out: list = []
    for k, r in sorted(set(bad)):
        if out and out[-1][0] == k and out[-1][2] == r - 1:
            out[-1][2] = r
        else:
            out.append([k, r, r])
    return [tuple(x) for x in out]


def _within(res, lo: int, hi: int) -> list:
    """``lo <= res <= hi`` (``res == lo`` for one value)."""
    return [cmp("==", res, lo)] if lo == hi else [cmp(">=", res, lo), cmp("<=", res, hi)]

def _separated(q, rule, t, sw, m, ptrs, plain, diffs, classes, keys, b, wd, op, over, most=None):
    """The classes far apart: every combination of the residues of ``P`` and of the classes'
    polynomials counted (``_by_residue_classes``); True, a formula, or None (too many)."""
    # the residues (P mod m, K_1 mod m, ...) the variables can give: each variable's residues modulo
    # m / gcd(m, its coefficients) (or its few values, when its range is shorter), all combinations;
    # when P's variables make too many, P's residue is taken as any of m (a superset: sound)
    e = t.esize
    polys = [plain[0], *keys]
    table = inner = _residues(q, polys, m, REACHABLE_LIMIT, preimages=True)
    lead = 0
    if table is None:  # P's residue any of m, the classes' from their variables (counted before made:
        # m * len(inner) may be millions)
        inner, lead = _residues(q, keys, m, REACHABLE_LIMIT, preimages=True), 1
        table = None if inner is None or m * len(inner) * len(ptrs) > RESIDUE_LIMIT else \
            {(r, *ks): None for r in range(m) for ks in inner}
    if table is None or len(table) * len(ptrs) > RESIDUE_LIMIT:
        return None
    combos = list(table)
    klass = {lane: k for k, key in enumerate(keys) for lane in classes[key]}
    cs = np.array(_compact([diffs[lane].constant for lane in range(len(diffs))], m), dtype=np.int64)
    ks = np.array([klass[lane] for lane in range(len(diffs))], dtype=np.int64)
    lift = m * (int(np.abs(cs).max()) // m + 1)  # representatives kept positive
    big = e * m * (2 * lift // m + 4)  # classes this far apart never meet (a multiple of e * m)
    res = np.array(combos, dtype=np.int64)  # (P mod m, K_k mod m ...) per row
    x = lift + res[:, :1] + res[:, 1:][:, ks] + cs[None, :]
    rows = np.concatenate([ptr + e * sw(x) + big * ks[None, :] for ptr in ptrs])
    got = per_row(rows, rule, wd, op)
    counts = got.tolist()
    bad = [(i // len(combos), combos[i % len(combos)]) for i, (c, ideal) in enumerate(counts) if over(c, ideal)]
    if not bad:
        return True
    if most is not None:
        most.update(c for c, ideal in counts if over(c, ideal))
        if most.only:
            return z3.BoolVal(True)
    zs = [q.z(p) % m if not p.is_const else None for p in polys]
    return _bad_formula(q, b, bad, zs, inner, lead)

COMPACT_ABOVE = 1 << 40  # lane constants past this are compacted before they meet int64 arithmetic


def _compact(constants: list[int], m: int) -> list[int]:
    """The lanes' constant offsets with the gaps between them shrunk, counting the same: blocks of
    ``P = lcm(m, 256)`` elements keep each constant's residue mod ``P`` (so its swizzle, bank and sector
    residues: ``P`` is a multiple of ``m`` and ``P * esize`` of 128 bytes), lanes in one block or in
    adjacent blocks keep their distance (a word or sector shared across a block's end stays shared),
    and blocks further apart end up two blocks apart (still more than a sector or a bank row: nothing
    they touch is shared, as before).  Only where some constant passes ``COMPACT_ABOVE``: a stride of
    2^62 elements between lanes is no int64 after the lift (fuzz seed 20261211)."""
    if max(abs(c) for c in constants) <= COMPACT_ABOVE:
        return constants
    period = m * 256 // gcd(m, 256)
    blocks = sorted({c // period for c in constants})
    new, prev = {}, None
    for blk in blocks:
        new[blk] = 0 if prev is None else new[prev] + (1 if blk == prev + 1 else 2)
        prev = blk
    return [new[c // period] * period + c % period for c in constants]


def _constants(q, polys: list) -> list:
    """``polys`` with every variable that has one value in its range replaced by it (``Context.constants``)."""
    fixed = q.ctx.constants(set().union(*(p.variables() for p in polys)))
    return [p.subst(fixed) for p in polys] if fixed else polys


def _congruent(q, v: str, values: range, k: int):
    """``values`` (of variable ``v`` when ``k`` is 0, else of its residue modulo ``k``) less those that
    ``v``'s division digits rule out: a remainder ``v % d`` (``Context.divmod``, e.g. from the fact
    ``s % 16 == 0``) that its range keeps within ``[lo, hi]`` (fewer than ``d`` values) allows only
    ``x`` with ``x mod gcd(d, k)`` among those remainders' (the residue ``v mod k`` has ``v``'s residue
    mod ``gcd(d, k)``; ``v``'s own values: ``x mod d`` itself).  A superset of the values ``v`` can
    take: sound wherever the full range is."""
    kept = values
    for e in q.ctx.defined(Division):
        if e.source != Poly.var(v) or e.d <= 1:
            continue
        d = e.d
        lo, hi = q.ctx.interval(e.r)
        if lo is None or hi is None or hi - lo + 1 >= d:
            continue
        g = gcd(d, k) if k else d
        allowed = {r % g for r in range(lo, hi + 1)}
        kept = [x for x in kept if x % g in allowed]
    return kept


class _Residues(dict):
    """``_residues``: each tuple of residues -> the variables' assignments that give it (``variables``
    in order; ``moduli[i]``: the modulus of variable i's residue, or None where it takes its values)."""
    variables: list
    moduli: list


def _residues(q, polys: list, m: int, limit: int = REACHABLE_LIMIT, preimages: bool = False) -> "_Residues | None":
    """``_residues_of``, kept per query (the maximum's levels ask again; the variables' ranges do not
    change within a query).  The table is shared: callers only read it."""
    memo = q.__dict__.setdefault("_residues_memo", {})
    key = (tuple(polys), m, limit, preimages)
    if key not in memo:
        memo[key] = _residues_of(q, polys, m, limit, preimages)
    return memo[key]


def _residues_of(q, polys: list, m: int, limit: int = REACHABLE_LIMIT, preimages: bool = False) -> "_Residues | None":
    """Every tuple ``(p mod m for p in polys)`` the polynomials' variables can give (a superset of
    the reachable ones): a polynomial's value mod m depends only on each variable's residue modulo
    ``m / gcd(m, the coefficients of the monomials it is in)``; a variable with fewer values in its
    range takes those (one value: a constant, substituted first).  ``preimages``: each tuple's
    assignments are listed (else None).  None when the combinations exceed ``limit``."""
    polys = _constants(q, polys)
    variables = sorted(set().union(*(p.variables() for p in polys)))
    choices, moduli = [], []
    for v in variables:
        g = 0
        for p in polys:
            for mono, c in p.terms.items():
                if v in mono:
                    g = gcd(g, c)
        k = m // gcd(m, g)
        var = q.ctx.vars.get(v)
        if var is not None and var.lo is not None and var.hi is not None and var.hi - var.lo + 1 < k:
            choices.append(_congruent(q, v, range(var.lo, var.hi + 1), 0))
            moduli.append(None)
        else:
            choices.append(_congruent(q, v, range(k), k))
            moduli.append(k)
    n = prod(len(c) for c in choices)
    if n > limit:
        return None
    # every combination at once, modulo m after each product (exact: a polynomial's value mod m is
    # that of its variables' values mod m; int64 never overflows below m = 2^31)
    grid = [g.ravel() for g in np.meshgrid(*[np.array(c, dtype=object) for c in choices], indexing="ij")] \
        if variables else []
    values = {v: (g % m).astype(np.int64) for v, g in zip(variables, grid)}
    cols = []
    for p in polys:
        acc = np.zeros(max(n, 1), dtype=np.int64)
        for mono, c in p.terms.items():
            term = np.full(max(n, 1), c % m, dtype=np.int64)
            for v in mono:
                term = term * values[v] % m
            acc = (acc + term) % m
        cols.append(acc)
    out = _Residues()
    out.variables, out.moduli = variables, moduli
    keys = map(tuple, np.stack(cols, axis=1).tolist())
    if not preimages:
        out.update(dict.fromkeys(keys))
        return out
    at = zip(*(g.tolist() for g in grid)) if variables else iter([()])
    for key, assignment in zip(keys, at):
        out.setdefault(key, []).append(assignment)
    return out


FORMULA_ATOMS = 4096  # comparisons in a bad-residue formula, at most (else no residue decision)


def _bad_formula(q, b, bad, zs, table=None, lead: int = 0):
    """Z3: some ``(k, combo)`` of ``bad`` holds: the pointer's residue index ``b == k`` and each
    term of ``zs`` (a polynomial's residue, None for a constant) equal to combo's entry; or, with
    ``table`` (``_residues`` of the polynomials after the first ``lead``), the first ``lead`` entries
    so and the rest as the assignments of the variables' residues that give them.  Either form may
    put one term's values in runs instead (``_by_runs``: one disjunct per set of that term's bad
    values, each set as runs ``lo <= term <= hi``): the first residue (``P mod m``), or any term of
    the table's form.  The shortest of these; None when even it is over FORMULA_ATOMS."""
    head = (lambda k: [cmp("==", b, k)]) if b is not None else (lambda k: [])
    one = 1 if b is not None else 0
    # the terms (None: a constant's, no equality) and the rows (k, the terms' values), made when needed
    forms = [(len(bad) * (one + sum(z is not None for z in zs)), zs, lambda: bad, None)]
    if zs and zs[0] is not None:  # P mod m in runs
        forms.append((None, zs, forms[0][2], 0))
    if table is not None:
        terms = [*zs[:lead], *(q.z(Poly.var(v)) if k is None else q.z(Poly.var(v)) % k
                               for v, k in zip(table.variables, table.moduli))]

        def by_vars():
            return [(k, (*c[:lead], *a)) for k, c in bad for a in table[c[lead:]]]
        n = sum(len(table[c[lead:]]) for _, c in bad)  # the rows by_vars makes
        size = n * (one + sum(t is not None for t in terms))
        forms.append((size, terms, by_vars, None))
        # a run form of term j has at least n / (term j's values) groups of the other terms' values, each
        # with one atom per other term: a form that cannot be short enough is not made (n may be millions)
        others = one + sum(t is not None for t in terms) - 1
        values = [len({c[j] for _, c in bad}) if j < lead else
                  table.moduli[j - lead] or _range_size(q, table.variables[j - lead]) for j in range(len(terms))]
        forms += [(None, terms, by_vars, j) for j in range(len(terms))
                  if terms[j] is not None and -(-n // max(1, values[j])) * others <= FORMULA_ATOMS]
    made: dict = {}
    best = None
    for atoms, terms, rows, j in forms:
        runs = None
        if j is not None:  # (a run form: its size once its sets are known)
            if rows not in made:
                made[rows] = rows()
            runs = _by_runs(made[rows], j)
            others = one + sum(t is not None for t in terms) - 1
            atoms = sum(len(keys) * others + sum(1 if lo == hi else 2 for lo, hi in rs) for keys, rs in runs)
        if best is None or atoms < best[0]:
            best = (atoms, terms, rows, j, runs)
    atoms, terms, rows, j, runs = best
    if atoms > FORMULA_ATOMS:
        return None

    def equal(k, ts, vals):
        return And(*head(k), *(cmp("==", t, v) for t, v in zip(ts, vals) if t is not None))
    if j is None:
        return Or(*[equal(k, terms, vals) for k, vals in (made[rows] if rows in made else rows())])
    rest = terms[:j] + terms[j + 1:]
    return Or(*[And(Or(*[equal(k, rest, vals) for k, vals in keys]),
                    Or(*[And(*_within(terms[j], lo, hi)) for lo, hi in rs])) for keys, rs in runs])


def _range_size(q, v: str) -> int:
    """How many values variable ``v``'s range holds (a large number when it has no ends)."""
    ctx = getattr(q, "ctx", None)
    var = None if ctx is None else ctx.vars.get(v)
    if var is None or var.lo is None or var.hi is None:
        return 1 << 62
    return max(1, var.hi - var.lo + 1)


def _by_runs(rows: list, j: int) -> list:
    """``rows``: ``(k, values)``, a bad combination each (pointer residue index, the values of the
    formula's terms); ``j``: the term whose values go in runs.  Grouped: for each set of term ``j``'s
    values, the ``(k, the other values)`` whose bad values of it are exactly that set, and the set
    as runs of consecutive values ``(lo, hi)``: ``[(keys, runs), ...]``, the same combinations."""
    firsts: dict = {}
    for k, vals in rows:
        firsts.setdefault((k, vals[:j] + vals[j + 1:]), set()).add(vals[j])
    by_set: dict = {}
    for key, vs in firsts.items():
        by_set.setdefault(frozenset(vs), []).append(key)
    return [(keys, [(lo, hi) for _, lo, hi in _runs([(0, v) for v in vs])]) for vs, keys in by_set.items()]


def _any_allowed(check, facts) -> dict:
    """Symbol values the facts allow: their smallest model, else the first of ``domain.assignments``."""
    first = [facts.model] if facts is not None and facts.ok and facts.model else []
    return next((e for e in [*first, *assignments(check, per_end=1, limit=16)] if allowed(check, e)), {})


REFUTE_FIRST_S = 0.1  # enumeration at the ends of the symbols' ranges before the solver, at most


def _refute_by_enumeration(check, apply, view, rule, wd, op, over, seconds: float, first=(), near=None):
    """``(symbols, count, (warp, repeat, base), offsets)`` of a warp-instruction over the bound at
    allowed symbol values (``first``: the facts' smallest model; then each symbol's smallest and
    largest; then the grid of each symbol's three smallest values, in order: the first found there
    is the smallest on the grid; then ``near()``, the points next to the facts' model), or None."""
    start = time.perf_counter()
    seen = []

    def later():  # made only when nothing before them is over the bound
        yield from (e for e in (near() if near is not None else ()) if allowed(check, e))

    for env in itertools.chain([*(e for e in first if allowed(check, e)),
                                *assignments(check, per_end=1, limit=16)[:16], *small_values(check, 3)[:27]],
                               later()):
        if env in seen:
            continue
        seen.append(env)
        if time.perf_counter() - start > seconds:
            return None
        worst = _worst_at(check, apply, view, rule, env, wd, op, over)
        if worst is not None:
            return env, *worst
    return None


WORST_AT_LIMIT = 4096  # warp-instructions enumerated at a counterexample's symbol values, at most
ENUMERATE_ALL = 256  # allowed symbol assignments (of at most 4x as many combinations) counted exhaustively
ENUMERATE_ALL_INSTRUCTIONS = 1 << 16  # ... and warp-instructions over all of them, at most


def _every_assignment(check, limit: int = ENUMERATE_ALL, q=None) -> list[dict] | None:
    """Every symbol assignment the facts allow (each symbol over its whole range of multiples of
    ``multiple_of``, narrowed to the bounds the linear facts imply when ``q`` is given:
    ``Query._tighten``), or None when there are more than ``limit`` of them (or more than ``4 * limit``
    combinations of the ranges to filter)."""

    names, ranges, combos = [], [], 1
    for s in check.symbols.values():
        lo, hi = s.min, s.max
        p = None if q is None else q.symbols.get(s.name)
        if p is not None and len(p.terms) == 1:  # the symbol is c * v: v's implied range, times c
            ((m, c),) = p.terms.items()
            var = q.ctx.vars.get(m[0]) if len(m) == 1 and c > 0 else None
            if var is not None:
                lo = lo if var.lo is None else max(lo, var.lo * c)
                hi = hi if var.hi is None else min(hi, var.hi * c)
        first = -(-lo // s.multiple_of) * s.multiple_of
        last = hi // s.multiple_of * s.multiple_of
        combos *= max(0, (last - first) // s.multiple_of + 1)
        if combos > 4 * limit:
            return None
        names.append(s.name)
        ranges.append(range(first, last + 1, s.multiple_of))
    out = [env for values in product(*ranges) if allowed(check, env := dict(zip(names, values)))]
    return out if len(out) <= limit else None


SMALL_DOMAIN_S = 0.3  # _decide_small gives up (the solver decides) after this many seconds


def _decide_small(check, apply, view, rule, wd, op, over, q=None):
    """An exact decision by enumeration when the facts allow few symbol assignments
    (``_every_assignment``) and the warp-instructions over all of them are few: True when no
    instruction is over the bound, else ``(count, (warp, repeat, base), offsets, symbols)`` of the
    worst (the exact maximum); None when the domain is too large or it runs past ``SMALL_DOMAIN_S``."""
    start = time.perf_counter()
    n = warps(check, apply) * repeats(check, apply, view)
    if n > WORST_AT_LIMIT:
        return None
    envs = _every_assignment(check, q=q)
    if not envs or n * len(envs) > ENUMERATE_ALL_INSTRUCTIONS:
        return None
    best = None
    for env in envs:
        if time.perf_counter() - start > SMALL_DOMAIN_S:
            return None
        worst = _worst_at(check, apply, view, rule, env, wd, op, over)
        if worst is not None and (best is None or worst[0] > best[0]):
            best = (*worst, env)
    return True if best is None else best


def _every_instruction(check, apply, view, rule, wd, op, over, seconds: float, found, q=None):
    """The exact maximum over every allowed symbol assignment, warp-instruction and base, by
    enumeration (``_worst_at`` at each assignment), when there are few enough of them and it ends
    within ``seconds``: ``(count, (warp, repeat, base), offsets, symbols)`` of the worst (``found``,
    the refutation's own, unless one counts strictly more), or None."""
    start = time.perf_counter()
    n = warps(check, apply) * repeats(check, apply, view)
    if n > WORST_AT_LIMIT:
        return None
    envs = _every_assignment(check, q=q)
    if envs is None or n * len(envs) > ENUMERATE_ALL_INSTRUCTIONS:
        return None
    c, at, offsets, symbols = found
    for env in envs:
        if time.perf_counter() - start > seconds:
            return None
        worst = _worst_at(check, apply, view, rule, env, wd, op, over)
        if worst is not None and worst[0] > c:
            (c, at, offsets), symbols = worst, env
    return c, at, offsets, symbols


def _samples(check, symbols: dict, per_symbol: int = 12):
    """Symbol values near a counterexample's to count at: each symbol in turn at its ends and at
    powers of two (times its ``multiple_of``), smallest first, the others kept; only values the
    facts allow."""
    seen = {tuple(sorted(symbols.items()))}
    for name, s in check.symbols.items():
        values = [s.min, s.max] + [s.multiple_of << i for i in range(62) if s.min <= s.multiple_of << i <= s.max]
        values = sorted(set(values))
        values = values if len(values) <= per_symbol else values[:per_symbol - 1] + [s.max]
        for x in values:
            env = {**symbols, name: x}
            key = tuple(sorted(env.items()))
            if key not in seen and allowed(check, env):
                seen.add(key)
                yield env


def _worst_at(check, apply, view, rule, symbols: dict, wd: int, op: str, over):
    """The worst warp-instruction over the bound at fixed symbol values, by enumeration (``table``):
    ``(count, (warp, repeat, base), offsets)``, or None when there are too many to enumerate."""
    if warps(check, apply) * repeats(check, apply, view) > WORST_AT_LIMIT:
        return None
    keys, rows = table(check, apply, view, symbols)
    mask = active(check, apply, view, symbols)
    best = None
    for b in bases(check.tensors[view.tensor].align, rule.modulus):
        got = per_row(rows + b, rule, wd, op, mask)
        for k in range(len(keys)):
            c, i = int(got[k, 0]), int(got[k, 1])
            if over(c, i) and (best is None or c > best[0]):
                best = (c, (keys[k][0], keys[k][1], b), lane_offsets(rows[k], None if mask is None else mask[k]))
    return best


def _proved_note(rule, count, ideal, bound) -> str:
    if count is None:
        return (f"the ideal number of {rule.unit} for every warp-instruction" if bound is None else
                f"at most {bound} {rule.unit} per warp-instruction (expected at most {bound})")
    tail = "" if bound is None else f", expected at most {bound}"
    unit = rule.unit if count != 1 else rule.unit[:-1]
    return f"{count} {unit} per warp-instruction at most (ideal {ideal}{tail})"


def _point(env: dict, w, rep, beta, align: int):
    """(warp, repeat, base) of a model's environment."""
    value = lambda p: p.eval(env) if p is not None else 0  # noqa: E731
    return value(w), tuple(value(r) for r in rep), align * value(beta)


def _maximum(q, formula, count, lo: int, hi: int, seconds: float):
    """The largest ``count`` that ``formula`` allows, by a search up from ``lo`` (which it allows)
    within ``seconds`` (each step at most ``COUNT_STEP_S``): ``(count, exact, environment of a model
    above lo or None)``; a step the solver cannot decide in time makes the answer a lower bound."""

    deadline = time.perf_counter() + seconds
    if lo >= hi:
        return lo, True, None
    solver = fast_solver(COUNT_STEP_S)
    solver.add(formula)
    solver.add(*(q.build(c) for c, _ in relevant(set(q.zv), q.constraints())))
    exact, model = True, None
    while lo < hi:
        left = deadline - time.perf_counter()
        if left <= 0.001:
            exact = False
            break
        mid = (lo + hi + 1) // 2
        solver.push()
        solver.add(count >= mid)
        solver.set(timeout=max(1, int(min(left, COUNT_STEP_S) * 1000)))
        r = solver.check()
        if r == z3.sat:
            model = solver.model()
            lo = max(mid, model.eval(count, model_completion=True).as_long())
        elif r == z3.unsat:
            hi = mid - 1
        else:
            exact = False
            solver.pop()
            break
        solver.pop()
    if model is None:
        return lo, exact, None
    env = {n: model.eval(var, model_completion=True).as_long() for n, var in q.zv.items() if n in q.ctx.vars}
    return lo, exact, env
