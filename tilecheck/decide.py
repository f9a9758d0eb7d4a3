"""The brute-force decider: every obligation by enumeration, without Z3.

This is the test oracle of the differential properties (``tests/test_fuzz*.py``,
``tilecheck fuzz``).  It restates each obligation of the ld/st contract from the
check-file specification in the plainest code: loops over every thread or group,
every repeat coordinate and every word, evaluated with the *concrete* semantics of
views and layouts as ``oracle.py`` restates them (and ``Layout.cosize``).  It never
touches the Z3 encoding (``encode``, ``poly``, ``proofs``), so a disagreement between
the two is a bug in one of them.

Symbolic checks are decided over a small range: for each symbol, the few smallest
and largest values allowed by ``min``/``max``/``multiple_of``, every combination of
them that satisfies the file's ``assume`` facts.  A verdict on that range is not a
proof for all values; the differential properties only use it one way (Z3 proved
implies no violation in range) and replay Z3's counterexamples with ``violation_at``.

    decide(check)  ->  [{obligation: (status, witness)} per apply]

status is ``"proved"``, ``"refuted"`` or ``"skipped"``; the witness of a refutation
is a dict with the symbol values and the coordinates (``group``, ``repeat``, ``word``,
``thread``) of one violation.
"""
from __future__ import annotations

import itertools
from math import prod

import numpy as np

from . import memory_model, oracle
from .expr import evaluate, holds, names_of
from .verdict import Verdict

PROVED, REFUTED, SKIPPED = Verdict.PROVED, Verdict.REFUTED, Verdict.SKIPPED
TABLE_LIMIT = 1 << 20  # points per view evaluated at once (``Operands._table``)

# The table, restated: obligation -> prerequisites (a load's disjoint also needs ownership).
ORDER = ("target", "space", "shape", "width", "operands", "contiguity", "alignment", "ownership",
         "disjoint", "bounds", "overflow", "registers", "banks", "sectors")
NEEDS = {"banks": ("shape", "space", "width", "contiguity", "alignment", "bounds"),
         "sectors": ("shape", "space", "width", "contiguity", "alignment", "bounds"),
         "target": (), "space": (), "shape": (), "width": (), "operands": (),
         "contiguity": ("shape", "space"), "alignment": ("shape", "space", "width", "contiguity"),
         "ownership": ("shape", "space"), "disjoint": ("shape", "space"), "bounds": ("shape", "space"),
         "overflow": ("shape", "space", "bounds"), "registers": ()}
ADDRESS_LIMIT = {"global": 2**64, "shared": 2**32, "local": 2**32}
SPACE_OF_OPCODE = {"global": "global", "shared": "shared", "local": "local"}  # shared::cta parses as shared
# cp.async (PTX ISA, "cp.async"): two memory operands, [dst] in .shared and [src] in .global, no registers
COPY_SPACES = {"cp.async": {"dst": "shared", "src": "global"}}


def memory_views(apply) -> tuple:
    """The memory operands: both of a copy (cp.async), else the one memory operand."""
    if apply.opcode.kind in COPY_SPACES:
        return (apply.dst, apply.src)
    return (apply.memory,)


def needs(name: str, is_load: bool) -> tuple[str, ...]:
    return NEEDS[name] + (("ownership",) if name == "disjoint" and is_load else ())


# --- symbol values ----------------------------------------------------------------------

def allowed(check, env: dict[str, int]) -> bool:
    """``env`` gives every symbol a value allowed by its min/max/multiple_of and the facts."""
    for s in check.symbols.values():
        v = env.get(s.name)
        if v is None or not (s.min <= v <= s.max) or v % s.multiple_of:
            return False
    sources = {}
    for s in check.symbols.values():  # two symbols read from one %ctaid component are one value
        if s.source and sources.setdefault(s.source, env[s.name]) != env[s.name]:
            return False
    return all(holds(op, evaluate(lhs, env), evaluate(rhs, env)) for _, lhs, op, rhs in check.assume)


def assignments(check, per_end: int | None = None, limit: int = 64) -> list[dict[str, int]]:
    """Every combination of each symbol's ``per_end`` smallest and largest allowed values
    that satisfies the facts (``per_end`` defaults to the most that keeps at most ``limit``
    combinations)."""
    syms = list(check.symbols.values())
    if not syms:
        return [{}]
    if per_end is None:
        per_end = 1
        while (2 * (per_end + 1)) ** len(syms) <= limit and per_end < 3:
            per_end += 1
    ranges = []
    for s in syms:
        first = -(-s.min // s.multiple_of) * s.multiple_of
        last = s.max // s.multiple_of * s.multiple_of
        low = [v for v in range(first, first + per_end * s.multiple_of, s.multiple_of) if v <= last]
        high = [v for v in range(last, last - per_end * s.multiple_of, -s.multiple_of) if v >= first]
        ranges.append(sorted(set(low + high)))
    out = []
    for values in itertools.product(*ranges):
        env = dict(zip((s.name for s in syms), values))
        if allowed(check, env):
            out.append(env)
    return out


# --- the concrete operand model -----------------------------------------------------------

class Operands:
    """One application at one symbol assignment: the coordinate domain and every value."""

    def __init__(self, check, apply, env: dict[str, int]):
        self.check, self.apply, self.env = check, apply, env
        self.group_shape = check.group_shape(apply.scope)
        g = len(self.group_shape)
        self.repeat_shape = apply.memory.shape[g:-1]
        self.vector = apply.opcode.vector
        self.memory = check.tensors[apply.memory.tensor]
        self.register = check.tensors[apply.register.tensor]
        self._cache: dict = {}

    def groups(self):
        return itertools.product(*(range(e) for e in self.group_shape))

    def repeats(self):
        return itertools.product(*(range(e) for e in self.repeat_shape))

    def words(self):
        return range(self.vector)

    def points(self):
        """Every (group, repeat, word) the application touches."""
        for g in self.groups():
            for r in self.repeats():
                for w in self.words():
                    yield g, r, w

    def group_of_thread(self, t: int) -> tuple:
        """The group coordinates of CTA thread ``t`` (thread t is lane t%32 of warp t//32)."""
        return {"thread": (), "warp": (t % 32,), "cta": (t // 32, t % 32)}[self.apply.scope]

    def index(self, view, point) -> tuple:
        g, r, w = point
        return oracle.view_index(view, (*g, *r, w), self.env)

    def value(self, view, point) -> dict[str, int]:
        """The layout's components at ``point``: "" (element offset or slot), laneid, warpid, tid."""
        key = (id(view), point)
        if key not in self._cache and ("table", id(view)) not in self._cache:
            self._table(view)
        if key not in self._cache:
            t = self.check.tensors[view.tensor]
            comps = oracle.layout_value(t.layout, self.index(view, point), self.env, t.offset)
            self._cache[key] = {a: comps.get(a, 0) for a in ("", "laneid", "warpid", "tid")}
        return self._cache[key]

    def _table(self, view) -> None:
        """Every point's components at once: the same ``oracle.view_index`` and ``oracle.layout_value``,
        applied to numpy arrays of Python ints (dtype object: exact, no overflow) instead of one point at a
        time -- the arithmetic (``+``, ``*``, ``%``, ``//``) is elementwise, so each entry is what the
        scalar call gives.  Anything unexpected leaves the table empty and the scalar path decides."""
        self._cache[("table", id(view))] = True
        shape = (*self.group_shape, *self.repeat_shape, self.vector)
        n = prod(shape)
        if not 0 < n <= TABLE_LIMIT or len(view.axes) != len(shape):
            return
        grid = np.indices(shape).reshape(len(shape), n).astype(object)  # row-major: itertools.product order
        try:
            t = self.check.tensors[view.tensor]
            index = oracle.view_index(view, tuple(grid[k].copy() for k in range(len(shape))), self.env)
            comps = oracle.layout_value(t.layout, index, self.env, t.offset)
            cols = []
            for a in ("", "laneid", "warpid", "tid"):
                c = comps.get(a, 0)
                cols.append(c.tolist() if isinstance(c, np.ndarray) and c.shape == (n,) else
                            [int(c)] * n if not isinstance(c, np.ndarray) else None)
        except Exception:  # noqa: BLE001 - the scalar path raises it (or not) point by point
            return
        if any(c is None for c in cols):
            return
        vid = id(view)
        for point, o, lane, warp, tid in zip(self.points(), *cols):
            self._cache[(vid, point)] = {"": o, "laneid": lane, "warpid": warp, "tid": tid}

    def offset(self, view, point) -> int:
        return self.value(view, point)[""]

    def cosize(self, view) -> int:
        """1 + the largest element offset of the view's tensor over its whole domain."""
        key = ("cosize", id(view))
        if key not in self._cache:
            t = self.check.tensors[view.tensor]
            self._cache[key] = t.layout.cosize(self.env, t.offset)
        return self._cache[key]


# --- the obligations, one plain rule each --------------------------------------------------
# A static rule returns a witness dict when violated, else None.  A pointwise rule is a
# function ok(ops, point) -> bool; the decider tries every point; ``violation_at`` tries one.

def target(check, apply, env):
    reason = apply.family.legality(apply.opcode, check.arch)
    return None if reason is None else {"reason": reason}


def space(check, apply, env):
    op = apply.opcode
    if op.kind in COPY_SPACES:
        for role, want in COPY_SPACES[op.kind].items():
            scope = check.tensors[getattr(apply, role).tensor].scope
            if scope != want:
                return {f"{role}_scope": scope, "expected": want}
        return None if op.space == "shared" else {"opcode_space": op.space}
    mem = check.tensors[apply.memory.tensor]
    reg = check.tensors[apply.register.tensor]
    if op.space not in SPACE_OF_OPCODE:
        return {"opcode_space": op.space}
    if mem.scope != SPACE_OF_OPCODE[op.space]:
        return {"memory_scope": mem.scope, "opcode_space": op.space}
    if reg.scope != "register":
        return {"register_scope": reg.scope}
    if "nc" in op.qualifiers:  # read-only for the whole kernel: no application stores to it
        for other in check.applies:
            if not other.is_load and other.memory.tensor == mem.name:
                return {"nc_written_by": other.index}
    return None


def shape(check, apply, env):
    group = tuple(check.group_shape(apply.scope))
    v = apply.opcode.vector
    repeats = []
    for view in (apply.dst, apply.src):
        s = tuple(view.shape)
        if len(s) < len(group) + 1 or s[:len(group)] != group or s[-1] != v:
            return {"view": view.text, "shape": s}
        repeats.append(s[len(group):-1])
    if repeats[0] != repeats[1]:
        return {"dst_repeat": repeats[0], "src_repeat": repeats[1]}
    return None


def width(check, apply, env):
    for view in (apply.dst, apply.src):
        t = check.tensors[view.tensor]
        if t.bits != apply.opcode.bits:
            return {"tensor": t.name, "bits": t.bits, "opcode_bits": apply.opcode.bits}
    return None


def operands(check, apply, env):
    hint = "L2::cache_hint" in apply.opcode.qualifiers
    if apply.cache_policy != hint:
        return {"cache_policy": apply.cache_policy, "cache_hint": hint}
    if apply.preserve_dst and not (apply.pred and apply.opcode.kind == "ld"):
        return {"preserve_dst": True, "pred": apply.pred}
    return None


def contiguity_ok(ops, point):
    g, r, w = point
    return all(ops.offset(view, point) == ops.offset(view, (g, r, 0)) + w for view in memory_views(ops.apply))


def alignment_base(check, apply, env):
    for view in memory_views(apply):
        t = check.tensors[view.tensor]
        vbytes = apply.opcode.vector * t.esize
        if t.align % vbytes:
            return {"align": t.align, "vector_bytes": vbytes}
    return None


def alignment_ok(ops, point):
    g, r, _ = point
    for view in memory_views(ops.apply):
        t = ops.check.tensors[view.tensor]
        if (t.esize * ops.offset(view, (g, r, 0))) % (ops.vector * t.esize):
            return False
    return True


def ownership_ok(ops, point):
    g = point[0]
    c = ops.value(ops.apply.register, point)
    lane, warp, tid = c["laneid"], c["warpid"], c["tid"]
    if ops.apply.scope == "thread":
        return lane == 0 and warp == 0 and tid == 0
    if ops.apply.scope == "warp":
        return lane == g[0] and warp == 0 and tid == 0
    return 32 * warp + lane + tid == 32 * g[0] + g[1]


def bounds_slices(check, apply, env):
    for role, view in (("dst", apply.dst), ("src", apply.src)):  # an empty tensor: nothing is inside
        t = check.tensors[view.tensor]
        for k, dim in enumerate(t.shape):
            if evaluate(dim, env) < 1:
                return {"symbols": dict(env), "operand": role, "axis": k, "extent": evaluate(dim, env)}
    for role, view in (("dst", apply.dst), ("src", apply.src)):
        t = check.tensors[view.tensor]
        for k, (start, ext, dim) in enumerate(zip(view.starts, view.extents, t.shape)):
            s, e, d = evaluate(start, env), evaluate(ext, env), evaluate(dim, env)
            if s < 0 or s + e > d:
                return {"symbols": dict(env), "operand": role, "axis": k, "start": s, "stop": s + e, "extent": d}
    return None


def bounds_ok(ops, point, roles=("dst", "src")):
    for role in roles:
        view = getattr(ops.apply, role)
        if not 0 <= ops.offset(view, point) < ops.cosize(view):
            return False
    return True


def overflow_ok(ops, point):
    for view in memory_views(ops.apply):
        t = ops.check.tensors[view.tensor]
        first = t.esize * ops.offset(view, point)
        if not (0 <= first and first + t.esize - 1 < ADDRESS_LIMIT[t.scope]):
            return False
    return True


def registers(check, apply, env):
    """The register budget (a performance obligation): every register tensor an application names
    is live at once; a thread holds each distinct slot its layout gives over the tensor's whole
    logical domain (thread-stride modes pick the thread, not the slot), 2 registers for a 64-bit
    slot, 1 otherwise; at most 255, and at most 8 * (256 // warps) for the CTA's warps (65536
    registers per SM, 256 per warp per allocation).  A stride naming a symbol counts each of its
    coordinates as another slot.  Enumerates until the budget is exceeded."""
    from .layout import ThreadStride
    warps = (check.threads + 31) // 32
    budget = min(255, 8 * (256 // warps))
    named = {v.tensor for a in check.applies for v in (a.dst, a.src)}
    total = 0
    for name, t in check.tensors.items():
        if t.scope != "register" or name not in named:
            continue
        per_slot = 2 if t.bits == 64 else 1
        leaves = _flat_modes(t.layout.shape, t.layout.stride)
        symbolic = [(s, d) for s, d in leaves if not isinstance(d, ThreadStride) and names_of(d)
                    and evaluate(s, env) > 1]
        if symbolic:  # the model: such a tile has one slot per coordinate of its non-thread modes
            n = 1
            for s, d in leaves:
                if not isinstance(d, ThreadStride) and (names_of(d) or evaluate(d, env) != 0):
                    n *= evaluate(s, env)
            total += per_slot * n
            if total > budget:
                return {"registers": f"at least {total}", "budget": budget, "tensor": name}
            continue
        extents = [evaluate(e, env) for e in t.shape]
        size = prod(extents)
        if 0 < size <= TABLE_LIMIT:  # every index at once: the same oracle on numpy arrays of Python ints
            grid = np.indices(extents).reshape(len(extents), size).astype(object)
            slots = oracle.layout_value(t.layout, tuple(grid[k] for k in range(len(extents))), env, 0)[""]
            distinct = len(set(slots.tolist())) if isinstance(slots, np.ndarray) else 1
            if total + per_slot * distinct > budget:  # the count where slot-by-slot enumeration stops
                k = (budget - total) // per_slot + 1
                return {"registers": f"at least {total + per_slot * k}", "budget": budget, "tensor": name}
            total += per_slot * distinct
            continue
        seen = set()
        for index in itertools.product(*(range(n) for n in extents)):
            slot = oracle.layout_value(t.layout, index, env, 0)[""]
            if slot not in seen:
                seen.add(slot)
                total += per_slot
                if total > budget:
                    return {"registers": f"at least {total}", "budget": budget, "tensor": name}
    return None


def _flat_modes(shape, stride):
    if isinstance(shape, tuple):
        return [m for s, d in zip(shape, stride) for m in _flat_modes(s, d)]
    return [(shape, stride)]


STATIC = {"target": target, "space": space, "shape": shape, "width": width, "operands": operands,
          "registers": registers}
POINTWISE = {"contiguity": contiguity_ok, "alignment": alignment_ok, "ownership": ownership_ok,
             "bounds": bounds_ok, "overflow": overflow_ok}
BEFORE = {"alignment": alignment_base, "bounds": bounds_slices}  # static part of a pointwise rule


def _where(ops, point, **more) -> dict:
    """A witness: the symbol values and the point's coordinates."""
    g, r, w = point
    out = {"symbols": dict(ops.env)} if ops.env else {}
    return {**out, "group": tuple(g), "repeat": tuple(r), "word": w, **more}


def disjoint_load(ops):
    """One thread's destination slots are pairwise distinct over all (repeat, word)."""
    view = ops.apply.register
    for g in ops.groups():
        seen = {}
        for r in ops.repeats():
            for w in ops.words():
                slot = ops.offset(view, (g, r, w))
                if slot in seen:
                    return {**_where(ops, (g, r, w)), "other": seen[slot], "slot": slot}
                seen[slot] = (tuple(r), w)
    return None


def disjoint_store(ops):
    """Memory destinations are pairwise distinct over every thread of the CTA, repeat and word
    (``.local``: over one thread's own repeats and words: each thread has its own window)."""
    view = ops.apply.memory
    local = ops.memory.scope == "local"
    seen = {}
    for t in range(ops.check.threads):
        if local:
            seen = {}
        g = ops.group_of_thread(t)
        for r in ops.repeats():
            for w in ops.words():
                off = ops.offset(view, (g, r, w))
                if off in seen:
                    return {**_where(ops, (g, r, w)), "thread": t, "other": seen[off], "offset": off}
                seen[off] = (t, tuple(r), w)
    return None


def disjoint(ops):
    return disjoint_load(ops) if ops.apply.is_load else disjoint_store(ops)


# --- banks and sectors: every warp-instruction counted with memory_model -------------------------
# A warp-instruction is one warp at one repeat (docs/check-file.md, "Bank conflicts and sectors"):
# thread scope: min(32, threads) lanes, all at the thread's one address; warp scope: lane l is
# group (l,) (every warp alike); cta scope: lane l of warp w is group (w, l), every warp.  A lane's
# byte address is base + esize * offset at word 0, for every base residue the tensor's align allows.
# count(addresses, width, op) and ideal(...): op is "ld" when the operand is read (a load's lane
# pairs may merge, memory_model.pairs_merge), "st" when it is written.
COUNTED = {"banks": ("shared", 4, memory_model.wavefronts, memory_model.ideal_wavefronts),
           "sectors": ("global", 32, lambda a, w, op: memory_model.sectors(a, w),
                       lambda a, w, op: memory_model.ideal_sectors(a, w))}


COUNTED_UNIT = {"banks": "wavefronts", "sectors": "sectors"}


def counted_views(check, apply, name) -> list:
    space = COUNTED[name][0]
    return [v for v in memory_views(apply) if check.tensors[v.tensor].scope == space]


def warp_instructions(ops):
    """(warp, repeat, [group of each lane]) of every warp-instruction."""
    scope, threads = ops.apply.scope, ops.check.threads
    if scope == "thread":
        warps, lanes = [0], [() for _ in range(min(32, threads))]
    for w in range(threads // 32 if scope == "cta" else 1):
        if scope != "thread":
            lanes = [(lane,) if scope == "warp" else (w, lane) for lane in range(32)]
        for r in ops.repeats():
            yield w, tuple(r), lanes


def counts(ops, name):
    """[(count, ideal, warp, repeat, base)] of every warp-instruction and base residue."""
    space, modulus, count, ideal = COUNTED[name]
    out = []
    for view in counted_views(ops.check, ops.apply, name):
        t = ops.check.tensors[view.tensor]
        width = ops.apply.opcode.vector * t.esize
        op = "ld" if view is ops.apply.src else "st"
        seen: dict = {}  # one count per distinct instruction, shifted down by whole 128-byte rows
        for w, r, lanes in warp_instructions(ops):
            offs = [t.esize * ops.offset(view, (g, r, 0)) for g in lanes]
            low = min(offs) // 128 * 128  # 128 = 32 banks of 4 bytes = 4 sectors: no count changes
            for base in range(0, modulus, t.align) if t.align < modulus else [0]:
                key = (base, *(o - low for o in offs))
                if key not in seen:
                    a = {lane: base + o - low for lane, o in enumerate(offs)}
                    seen[key] = (count(a, width, op), ideal(a, width, op))
                out.append((*seen[key], w, r, base))
    return out


def counted(ops, name):
    """The witness of a warp-instruction over its bound (the ideal, or the file's ``expect``), with
    ``count`` the largest count of such an instruction; None if none is."""
    bound = dict(ops.apply.expect).get(name)
    try:
        got = counts(ops, name)
    except ValueError as e:  # no phase rule for this width: the decider has no verdict
        return {"unsupported": str(e)}
    bad = [c for c in got if c[0] > (c[1] if bound is None else bound)]
    if not bad:
        return None
    c, i, w, r, base = max(bad, key=lambda c: c[0])
    out = {"symbols": dict(ops.env)} if ops.env else {}
    return {**out, "warp": w, "repeat": r, "base": base, "count": c, "ideal": i}


def banks(ops):
    return counted(ops, "banks")


def sectors(ops):
    return counted(ops, "sectors")


def count(check, apply_index: int, name: str, env: dict | None = None) -> int:
    """The largest count of any warp-instruction (a concrete check's ``banks``/``sectors`` number)."""
    ops = Operands(check, check.applies[apply_index], env or {})
    return max(c[0] for c in counts(ops, name))


# every rule, under the obligation registry's names (tests/test_registry.py holds the two lists equal)
RULES = {**STATIC, **POINTWISE, "disjoint": disjoint, "banks": banks, "sectors": sectors}


def applicable(apply, check=None) -> tuple[str, ...]:
    """The obligations of ``apply``, in order: those its family declares (``banks``/``sectors`` only
    when a memory operand is in shared/global memory)."""
    return tuple(n for n in ORDER if n in apply.family.obligations
                 and (n not in COUNTED or check is None or counted_views(check, apply, n)))


def _decide_one(check, apply, env) -> dict[str, tuple[str, dict | None]]:
    ops = Operands(check, apply, env)
    out: dict[str, tuple[str, dict | None]] = {}
    for name in applicable(apply, check):
        if any(out[p][0] != PROVED for p in needs(name, apply.is_load)):
            out[name] = (SKIPPED, None)
            continue
        if name in STATIC:
            w = STATIC[name](check, apply, env)
        elif name == "disjoint":
            w = disjoint(ops)
        elif name in COUNTED:
            w = counted(ops, name)
        else:
            w = BEFORE[name](check, apply, env) if name in BEFORE else None
            if w is None:
                ok = POINTWISE[name]
                w = next((_where(ops, p) for p in ops.points() if not ok(ops, p)), None)
        out[name] = (PROVED, None) if w is None else (SKIPPED if "unsupported" in w else REFUTED, w)
    return out


_RANK = {PROVED: 0, SKIPPED: 1, REFUTED: 2}


def decide(check, symbol_values: dict | list | None = None, limit: int = 64) -> list[dict]:
    """Each application's obligations decided by enumeration.

    ``symbol_values``: one assignment (dict), several (list), or None for
    ``assignments(check, limit=limit)``.  Over several assignments an obligation is
    refuted if some assignment refutes it (the witness names the symbols), else skipped
    if some assignment skips it, else proved.
    """
    if symbol_values is None:
        envs = assignments(check, limit=limit)
        if not envs:  # deciding over no assignment would prove everything vacuously
            raise ValueError("no assignment in the enumerator's range satisfies the symbols' facts")
    elif isinstance(symbol_values, dict):
        envs = [symbol_values]
    else:
        envs = list(symbol_values)
    results = []
    for apply in check.applies:
        combined = {name: (PROVED, None) for name in applicable(apply, check)}
        for env in envs:
            for name, (status, w) in _decide_one(check, apply, env).items():
                if _RANK[status] > _RANK[combined[name][0]]:
                    combined[name] = (status, w)
        if "disjoint" in combined and combined["disjoint"][0] == PROVED:
            w = disjoint_grid(check, apply, envs)
            if w is not None:
                combined["disjoint"] = (REFUTED, w)
        results.append(combined)
    return results


def disjoint_grid(check, apply, envs):
    """A global store's words are distinct across CTAs too: two assignments that differ only in
    the symbols bound to ``%ctaid`` are two CTAs of one launch."""
    bound = [n for n, s in check.symbols.items() if s.source]
    mem = check.tensors[apply.memory.tensor]
    if apply.is_load or mem.scope != "global" or not bound:
        return None
    launches: dict = {}
    for env in envs:
        launches.setdefault(tuple(sorted((k, v) for k, v in env.items() if k not in bound)), []).append(env)
    for ctas in launches.values():
        seen = {}
        for env in ctas:
            ops = Operands(check, apply, env)
            cta = tuple(env[n] for n in bound)
            for t in range(check.threads):
                g = ops.group_of_thread(t)
                for r in ops.repeats():
                    for w in ops.words():
                        off = ops.offset(apply.memory, (g, r, w))
                        if off in seen and seen[off][0] != cta:
                            return {**_where(ops, (g, r, w)), "thread": t, "other": seen[off], "offset": off,
                                    "other_symbols": seen[off][1]}
                        seen.setdefault(off, (cta, dict(env)))
    return None


# --- replaying a counterexample --------------------------------------------------------------

def _coords(describe: dict) -> tuple:
    """(group, repeat, word) of a counterexample (its dicts keep the axes in order)."""
    group = tuple(describe.get("group", {}).values())
    repeat = tuple(describe.get("repeat", {}).values())
    return group, repeat, describe.get("word", 0)


def violation_at(check, apply_index: int, name: str, cex: dict) -> str | None:
    """Replay a reported counterexample of ``name``; None if it is a real violation, else why not.

    ``cex`` is the report's counterexample dict (``Witness.describe`` keys: symbols,
    thread, group, repeat, word; ``first``/``second`` for disjoint)."""
    apply = check.applies[apply_index]
    if name in STATIC:  # facts of the input: no symbols, no coordinates
        return None if STATIC[name](check, apply, {}) else f"{name} holds"
    if name == "alignment" and "align" in cex:  # the base pointer's alignment
        return None if alignment_base(check, apply, {}) else "the base pointer is aligned"
    env = dict(cex.get("symbols") or (cex.get("first") or {}).get("symbols") or {})
    if check.symbols and not allowed(check, env):
        return f"symbol values {env} are not allowed by the symbols' ranges and facts"
    ops = Operands(check, apply, env)
    if name in COUNTED:
        bound = dict(apply.expect).get(name)
        at = (cex.get("warp", 0), tuple(cex.get("repeat", {}).values()), cex.get("base", 0))
        for c, i, *where in counts(ops, name):
            if tuple(where) == at:
                return None if c > (i if bound is None else bound) and c == cex.get(COUNTED_UNIT[name]) else (
                    f"{name}: {c} at {at} (ideal {i}), not over the bound or not the reported count")
        return f"{at} is no warp-instruction of this apply"
    if name == "disjoint":
        a, b = cex["first"], cex["second"]
        pa, pb = _coords(a), _coords(b)
        if apply.is_load:
            if pa[0] != pb[0]:
                return "the two accesses are in different groups"
            if (pa[1], pa[2]) == (pb[1], pb[2]):
                return "the two accesses are the same"
            sa, sb = ops.offset(apply.register, pa), ops.offset(apply.register, pb)
            return None if sa == sb else f"slots differ: {sa} != {sb}"
        ta, tb = a.get("thread", 0), b.get("thread", 0)
        env_b = dict(b.get("symbols") or env)
        bound = [n for n, s in check.symbols.items() if s.source]
        other_cta = any(env_b.get(n) != env.get(n) for n in bound)
        if other_cta:
            if check.tensors[apply.memory.tensor].scope != "global":
                return "two CTAs do not share this state space"
            if any(env_b.get(n) != env.get(n) for n in check.symbols if n not in bound) or not allowed(check, env_b):
                return f"the second CTA's symbols {env_b} are not another CTA of the same launch"
        ops_b = Operands(check, apply, env_b)
        for t, p in ((ta, pa), (tb, pb)):
            if not 0 <= t < check.threads or ops.group_of_thread(t) != p[0]:
                return f"thread {t} does not have group {p[0]}"
        if not other_cta and (ta, pa[1], pa[2]) == (tb, pb[1], pb[2]):
            return "the two accesses are the same"
        if check.tensors[apply.memory.tensor].scope == "local" and ta != tb:
            return "two threads' .local windows are distinct"
        oa, ob = ops.offset(apply.memory, pa), ops_b.offset(apply.memory, pb)
        return None if oa == ob else f"offsets differ: {oa} != {ob}"
    if name in BEFORE and BEFORE[name](check, apply, env):
        return None
    if name == "bounds" and "axis" in cex:
        return "the reported slice lies inside the tensor"
    point = _coords(cex)
    if not _inside(ops, point):
        return f"point {point} is outside the domain"
    if name == "bounds":
        ok = bounds_ok(ops, point, (cex["operand"],)) if "operand" in cex else bounds_ok(ops, point)
    else:
        ok = POINTWISE[name](ops, point)
    return f"{name} holds at {point}" if ok else None


def _inside(ops, point) -> bool:
    g, r, w = point
    return (len(g) == len(ops.group_shape) and all(0 <= c < e for c, e in zip(g, ops.group_shape))
            and len(r) == len(ops.repeat_shape) and all(0 <= c < e for c, e in zip(r, ops.repeat_shape))
            and 0 <= w < ops.vector)


def elements(check) -> int:
    """How many (thread or group, repeat, word) points the decider visits per assignment."""
    n = 0
    for a in check.applies:
        g = len(check.group_shape(a.scope))
        rep = prod(a.memory.shape[g:-1]) if len(a.memory.shape) > g else 1
        n += max(check.threads, prod(check.group_shape(a.scope))) * rep * a.opcode.vector
    return n
