"""The brute-force decider: every obligation by enumeration, without Z3.

This is the test oracle of the differential properties (``tests/test_fuzz*.py``,
``tilecheck fuzz``).  It restates each obligation of the ld/st contract from the
check-file specification in the plainest code: loops over every thread or group,
every repeat coordinate and every word, evaluated with the *concrete* semantics of
views and layouts as ``oracle.py`` restates them (and a tensor's declared extent, ``Operands.extent``).  It never
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

import ast
import functools
import itertools
from math import prod

import numpy as np

from . import accesses, families, memory_model, oracle
from .families import MEMORY
from .expr import evaluate, holds, names_of
from .verdict import Verdict
from .layout import ThreadStride, _leaves, parse_layout


def _flat(x) -> list:
    """A nested shape or stride's leaves, in order."""
    return [leaf for e in x for leaf in _flat(e)] if isinstance(x, tuple) else [x]


PROVED, REFUTED, SKIPPED = Verdict.PROVED, Verdict.REFUTED, Verdict.SKIPPED
TABLE_LIMIT = 1 << 20  # points per view evaluated at once (``Operands._table``)
EXACT_INT64 = 1 << 62  # a table whose every value is provably below this in magnitude is computed on numpy
# int64 (exact: no value wraps); any other on numpy arrays of Python ints (``fits_int64``)


def fits_int64(layout, bounds, env, offset) -> bool:
    """Whether ``oracle.layout_value`` of ``layout`` at indices with ``|index_k| <= bounds[k]`` is exact on numpy
    int64: every extent it divides by is at least 1 (no division by zero, which Python ints raise), a mode's
    sub-coordinates are at most its coordinate in magnitude, so every partial sum is at most
    ``|offset| + sum_k bounds[k] * sum |stride|`` over the mode's leaves (a thread stride's coefficient
    included), and the swizzle's XOR adds at most its mask: all below ``EXACT_INT64``.  False when anything
    does not evaluate (the Python-int path decides, as before)."""
    try:
        total = abs(int(evaluate(offset, env)))
        for b, shape, stride in zip(bounds, layout.shape, layout.stride):
            if any(int(evaluate(e, env)) < 1 for e in _leaves(shape)):
                return False
            for d in _leaves(stride):
                total += b * abs(int(d.coef if isinstance(d, ThreadStride) else evaluate(d, env)))
        sw = getattr(layout, "swizzle", None)
        if sw is not None:
            total += 1 << (sw.base + sw.bits)
    except Exception:  # noqa: BLE001
        return False
    return max(bounds, default=0) < EXACT_INT64 and total < EXACT_INT64


# The table, restated: obligation -> prerequisites (a load's disjoint also needs ownership).
ORDER = ("target", "space", "shape", "width", "operands", "guard", "contiguity", "alignment", "ownership",
         "disjoint", "bounds", "overflow", "registers", "banks", "sectors")
NEEDS = {"banks": ("shape", "space", "width", "contiguity", "alignment", "bounds"),
         "sectors": ("shape", "space", "width", "contiguity", "alignment", "bounds"),
         "target": (), "space": (), "shape": (), "width": (), "operands": (), "guard": ("shape", "space"),
         "contiguity": ("shape", "space"), "alignment": ("shape", "space", "width", "contiguity"),
         "ownership": ("shape", "space"), "disjoint": ("shape", "space"), "bounds": ("shape", "space"),
         "overflow": ("shape", "space", "bounds"), "registers": ()}
ADDRESS_LIMIT = {"global": 2**64, "shared": 2**32, "local": 2**32}
SPACE_OF_OPCODE = {"global": "global", "shared": "shared", "local": "local"}  # shared::cta parses as shared
# guard = true (docs/check-file.md, "Guards"): the guarded operand and the rules stated only of its
# guarded-in atoms (an atom is in when every word's logical index is inside the tensor), as the
# application's accesses declare them (accesses.py: the access the guard predicates, its rules)


def guarded_view(apply):
    """The guarded operand's view, None when ``apply`` has no guard."""
    role = accesses.guarded_role(apply)
    return None if role is None else getattr(apply, role)


def _skips(ops, name, view, point) -> bool:
    """``name`` need not hold at ``point`` of ``view``: a guarded-out atom of a guarded rule."""
    return (view is guarded_view(ops.apply) and name in accesses.restricted(ops.apply, view)
            and not ops.atom_in(point[0], point[1]))


def memory_views(apply) -> tuple:
    """The memory operands: both of a copy (cp.async), else the one memory operand (the accesses)."""
    return tuple(getattr(apply, r.name) for r in apply.family.roles(apply.opcode) if r.kind == MEMORY)


def needs(name: str, is_load: bool) -> tuple[str, ...]:
    return NEEDS[name] + (("ownership",) if name == "disjoint" and is_load else ())


# --- symbol values ----------------------------------------------------------------------
# The facts' meaning, stated again on purpose: ``domain.py`` states it for the model's users (the
# prover among them); the oracle the prover is compared with keeps its own copy, so that a bug in one
# does not reach both sides of the comparison (tests/test_single_source.py holds the two equal).

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


def assignments(check, per_end: int | None = None, limit: int = 64, largest: bool = True) -> list[dict[str, int]]:
    """Every combination of each symbol's ``per_end`` smallest and largest allowed values
    that satisfies the facts (``per_end`` defaults to the most that keeps at most ``limit``
    combinations; ``largest=False``: the smallest only), in lexicographic order."""
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
        high = [v for v in range(last, last - per_end * s.multiple_of, -s.multiple_of) if v >= first] \
            if largest else []
        ranges.append(sorted(set(low + high)))
    out = []
    for values in itertools.product(*ranges):
        env = dict(zip((s.name for s in syms), values))
        if allowed(check, env):
            out.append(env)
    return out


# --- the concrete operand model -----------------------------------------------------------

# the issuing groups, restated (machine.py's GROUPS): warps per group, 0 for one thread, -1 for the CTA
WARPS_PER_GROUP = {"thread": 0, "warp": 1, "warpgroup": 4, "cta": -1}


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
        self._shape = (*self.group_shape, *self.repeat_shape, self.vector)  # a table's shape (``_table``)
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
        """The group coordinates of CTA thread ``t`` (thread t is lane t%32 of warp t//32; a group of
        ``k`` warps has the warp modulo k, the CTA every warp)."""
        k = WARPS_PER_GROUP[self.apply.scope]
        return () if k == 0 else (t % 32,) if k == 1 else (t // 32 if k < 0 else t // 32 % k, t % 32)

    def index(self, view, point) -> tuple:
        g, r, w = point
        return oracle.view_index(view, (*g, *r, w), self.env)

    def value(self, view, point) -> dict[str, int]:
        """The layout's components at ``point``: "" (element offset or slot), laneid, warpid, tid."""
        key = (id(view), point)
        if key not in self._cache:
            cols = self.arrays(view)
            i = self._flat(point) if cols is not None else None
            if i is not None:
                self._cache[key] = {a: c.flat[i] for a, c in zip(("", "laneid", "warpid", "tid"), cols)}
            else:
                t = self.check.tensors[view.tensor]
                comps = oracle.layout_value(t.layout, self.index(view, point), self.env, t.offset)
                self._cache[key] = {a: comps.get(a, 0) for a in ("", "laneid", "warpid", "tid")}
        return self._cache[key]

    def _flat(self, point) -> int | None:
        """The row-major position of ``point`` in the table (``itertools.product`` order), None outside it."""
        g, r, w = point
        coords = (*g, *r, w)
        shape = self._shape
        if len(coords) != len(shape):
            return None
        i = 0
        for c, e in zip(coords, shape):
            if not 0 <= c < e:
                return None
            i = i * e + c
        return i

    def arrays(self, view):
        """(offset, laneid, warpid, tid) of every point, numpy object arrays (Python ints) of the shape
        (*group, *repeat, vector); None when the table is not made (the scalar path decides)."""
        key = ("table", id(view))
        if key not in self._cache:
            self._cache[key] = self._table(view)
        return self._cache[key]

    def _table(self, view):
        """Every point's components at once: the same ``oracle.view_index`` and ``oracle.layout_value``,
        applied to numpy arrays of Python ints (dtype object: exact, no overflow) instead of one point at a
        time -- the arithmetic (``+``, ``*``, ``%``, ``//``) is elementwise, so each entry is what the
        scalar call gives.  Anything unexpected leaves no table and the scalar path decides."""
        shape = self._shape
        n = prod(shape)
        if not 0 < n <= TABLE_LIMIT or len(view.axes) != len(shape):
            return None
        try:
            t = self.check.tensors[view.tensor]
            index = self._index(view)
            bounds = self._index_bounds(view)
            if bounds is None or not fits_int64(t.layout, bounds, self.env, t.offset):  # Python ints: exact
                index = tuple(np.asarray(i, dtype=object) for i in index)
            comps = oracle.layout_value(t.layout, index, self.env, t.offset)
            cols = []
            for a in ("", "laneid", "warpid", "tid"):
                c = comps.get(a, 0)
                if isinstance(c, np.ndarray):
                    if c.shape != (n,):
                        return None
                    c = c.astype(object)
                else:
                    c = np.full(n, int(c), dtype=object)
                cols.append(c.reshape(shape))
        except Exception:  # noqa: BLE001 - the scalar path raises it (or not) point by point
            return None
        return tuple(cols)

    def offset(self, view, point) -> int:
        key = ("offsets", id(view))  # straight from the table (what ``value`` gives), as a flat list
        flat = self._cache.get(key, False)
        if flat is False:
            cols = self.arrays(view)
            flat = self._cache[key] = None if cols is None else cols[0].ravel().tolist()
        i = self._flat(point) if flat is not None else None
        return flat[i] if i is not None else self.value(view, point)[""]

    def word_in(self, view, point) -> bool:
        """Every logical index of ``view`` at ``point`` lies in [0, extent) of its tensor."""
        t = self.check.tensors[view.tensor]
        return all(0 <= i < evaluate(d, self.env) for i, d in zip(self.index(view, point), t.shape))

    def inside(self, g, r) -> list[bool]:
        """Per word of the guarded atom at (group g, repeat r): inside the tensor."""
        key = ("inside", tuple(g), tuple(r))
        if key not in self._cache:
            view = guarded_view(self.apply)
            self._cache[key] = [self.word_in(view, (g, r, w)) for w in self.words()]
        return self._cache[key]

    def atom_in(self, g, r) -> bool:
        return all(self.inside(g, r))

    def _index(self, view) -> tuple:
        """``oracle.view_index`` of ``view`` at every point of the table at once (numpy arrays of Python
        ints, row-major: ``itertools.product`` order), made once per view."""
        key = ("index", id(view))
        if key not in self._cache:
            shape = self._shape
            dtype = np.int64 if self._index_bounds(view) is not None else object
            grid = np.indices(shape).reshape(len(shape), prod(shape)).astype(dtype)
            self._cache[key] = oracle.view_index(view, tuple(grid[k].copy() for k in range(len(shape))), self.env)
        return self._cache[key]

    def _index_bounds(self, view) -> "list[int] | None":
        """Bounds ``|index_k| <= b_k`` of ``oracle.view_index`` over the table, when its arithmetic is exact
        on numpy int64 (every elementary size at least 1, every bound below ``EXACT_INT64``); else None:
        the table is made of Python ints."""
        key = ("bounds", id(view))
        if key not in self._cache:
            out = []
            try:
                for start, names in zip(view.starts, view.left):
                    sizes = [view.size[n] for n in names]
                    if any(not isinstance(z, int) or z < 1 for z in sizes):
                        out = None
                        break
                    out.append(abs(int(evaluate(start, self.env))) + prod(sizes))
            except Exception:  # noqa: BLE001 - the Python-int path raises it (or not)
                out = None
            if out is not None and (prod(self._shape) >= EXACT_INT64 or max(out, default=0) >= EXACT_INT64):
                out = None
            self._cache[key] = out
        return self._cache[key]

    def atoms_in(self, view):
        """``atom_in`` at every point of the table at once (the same ``oracle.view_index`` and bounds on
        numpy arrays of Python ints): a boolean array of shape (*group, *repeat, vector)."""
        key = ("atoms_in", id(view))
        if key not in self._cache:
            shape = self._shape
            n = prod(shape)
            index = self._index(view)
            ok = np.ones(n, dtype=bool)
            for i, d in zip(index, self.check.tensors[view.tensor].shape):
                i = np.broadcast_to(np.asarray(i, dtype=object), (n,))
                ok &= np.asarray((i >= 0) & (i < evaluate(d, self.env)), dtype=bool)
            self._cache[key] = np.broadcast_to(ok.reshape(shape).all(axis=-1, keepdims=True), shape)
        return self._cache[key]

    def extent(self, view) -> int:
        """The view's tensor's declared extent: 1 + its largest element offset over its whole domain
        *before* a swizzle (thread strides aside).  Not rounded up to the swizzle's block: a buffer
        the user allocates holds this many elements, and a swizzled offset past it is out of bounds."""
        key = ("extent", id(view))
        if key not in self._cache:
            t = self.check.tensors[view.tensor]
            top = evaluate(t.offset, self.env)
            for s, d in zip(_flat(t.layout.shape), _flat(t.layout.stride)):
                if not isinstance(d, oracle.ThreadStride):
                    top += max((evaluate(s, self.env) - 1) * evaluate(d, self.env), 0)
            self._cache[key] = top + 1
        return self._cache[key]


# --- the obligations, one plain rule each --------------------------------------------------
# A static rule returns a witness dict when violated, else None.  A pointwise rule is a
# function ok(ops, point) -> bool; the decider tries every point; ``violation_at`` tries one.

def target(check, apply, env):
    reason = apply.family.legality(apply.opcode, check.arch)
    return None if reason is None else {"reason": reason}


def space(check, apply, env):
    op = apply.opcode
    roles = apply.family.roles(op)
    memory = [r.kind == MEMORY for r in roles]
    if all(memory) or not any(memory):  # memory operands only (cp.async), or registers and descriptors:
        for r in roles:  # each in its role's one space
            scope = check.tensors[apply.operand(r.name).tensor].scope
            if scope != r.spaces[0]:
                return {f"{r.name}_scope": scope, "expected": r.spaces[0]}
        return None if op.space == roles[0].spaces[0] or not all(memory) else {"opcode_space": op.space}
    mem = check.tensors[apply.memory.tensor]
    reg = check.tensors[apply.register.tensor]
    if op.space not in SPACE_OF_OPCODE:
        return {"opcode_space": op.space}
    if mem.scope != SPACE_OF_OPCODE[op.space]:
        return {"memory_scope": mem.scope, "opcode_space": op.space}
    if reg.scope != "register":
        return {"register_scope": reg.scope}
    if apply.family.read_only(op) and apply.is_load:  # read-only for the whole kernel: no application stores to it
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
    if apply.preserve_dst and not ((apply.pred or getattr(apply, "guard", False)) and apply.opcode.kind == "ld"):
        return {"preserve_dst": True, "pred": apply.pred}
    return None


# ldmatrix / stmatrix (PTX ISA, "ldmatrix"): element (row, col) of matrix i sits in lane
# 4*row + col//2, word 2*i + col%2 (.trans: lane 4*col + row//2, word 2*i + row%2); lane 8*i + row
# gives the address of row ``row``, 8 contiguous 16-bit elements, 16-byte aligned.


def crosses(apply) -> bool:
    """The memory atom crosses lanes (a thread-value layout declared on the role: ldmatrix/stmatrix's
    rows); the rows below are the decider's own statement of that map (PTX ISA), not the layout's."""
    return accesses.role_of(apply, apply.memory).values is not None


@functools.lru_cache(maxsize=None)
def matrix_rows(op) -> dict:
    """(lane, word) -> (matrix, row, column, (lane, word) of that row's column 0)."""
    where = {}
    for i in range(op.num):
        for row in range(8):
            for col in range(8):
                lane, word = (4 * col + row // 2, 2 * i + row % 2) if op.trans else (4 * row + col // 2, 2 * i + col % 2)
                where[(i, row, col)] = (lane, word)
    return {lw: (i, row, col, where[(i, row, 0)]) for (i, row, col), lw in where.items()}


@functools.lru_cache(maxsize=None)
def matrix_origins(op) -> list:
    """[(lane, word) of row r's column 0 of matrix i] for address lane 8*i + r, i < num."""
    where = {(i, row, col): lw for lw, (i, row, col, _) in matrix_rows(op).items()}
    return [where[(lane // 8, lane % 8, 0)] for lane in range(8 * op.num)]


def contiguity_ok(ops, point):
    g, r, w = point
    if crosses(ops.apply):
        _, _, col, (lane0, word0) = matrix_rows(ops.apply.opcode)[(g[0], w)]
        view = ops.apply.memory
        return ops.offset(view, point) == ops.offset(view, ((lane0,), r, word0)) + col
    return all(_skips(ops, "contiguity", view, point) or ops.offset(view, point) == ops.offset(view, (g, r, 0)) + w
               for view in memory_views(ops.apply))


def alignment_base(check, apply, env):
    for view in memory_views(apply):
        t = check.tensors[view.tensor]
        vbytes = (16 if crosses(apply) else apply.opcode.vector * t.esize)
        if t.align % vbytes:
            return {"align": t.align, "vector_bytes": vbytes}
    return None


def alignment_ok(ops, point):
    g, r, w = point
    if crosses(ops.apply):  # the row's first byte: 16-byte aligned
        col = matrix_rows(ops.apply.opcode)[(g[0], w)][2]
        t = ops.memory
        return (t.esize * (ops.offset(ops.apply.memory, point) - col)) % 16 == 0
    for view in memory_views(ops.apply):
        t = ops.check.tensors[view.tensor]
        if _skips(ops, "alignment", view, point):
            continue
        if (t.esize * ops.offset(view, (g, r, 0))) % (ops.vector * t.esize):
            return False
    return True


def ownership_ok(ops, point):
    g = point[0]
    c = ops.value(ops.apply.register, point)
    lane, warp, tid = c["laneid"], c["warpid"], c["tid"]
    if not g:  # one thread
        return lane == 0 and warp == 0 and tid == 0
    if len(g) == 1:  # a warp: lane g
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
        if view is guarded_view(apply):  # its slice may leave the tensor: the guard keeps atoms inside
            continue
        for k, (start, ext, dim) in enumerate(zip(view.starts, view.extents, t.shape)):
            s, e, d = evaluate(start, env), evaluate(ext, env), evaluate(dim, env)
            if s < 0 or s + e > d:
                return {"symbols": dict(env), "operand": role, "axis": k, "start": s, "stop": s + e, "extent": d}
    return None


def bounds_ok(ops, point, roles=("dst", "src")):
    for role in roles:
        view = getattr(ops.apply, role)
        if _skips(ops, "bounds", view, point):
            continue
        if not 0 <= ops.offset(view, point) < ops.extent(view):
            return False
    return True


def overflow_ok(ops, point):
    for view in memory_views(ops.apply):
        t = ops.check.tensors[view.tensor]
        if _skips(ops, "overflow", view, point):
            continue
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
    coordinates as another slot.  A 16-bit tensor that only ldmatrix/stmatrix name is packed: slots
    2m and 2m+1 (offset included) share one 32-bit register.  Enumerates until the budget is exceeded."""
    warps = (check.threads + 31) // 32
    budget = min(255, 8 * (256 // warps))
    named = {v.tensor for a in check.applies for v in (a.dst, a.src)}
    total = 0
    for name, t in check.tensors.items():
        if t.scope != "register" or name not in named:
            continue
        per_slot = 2 if t.bits == 64 else 1
        users = [a for a in check.applies if name in (a.dst.tensor, a.src.tensor)]
        pairs = t.bits == 16 and not names_of(t.offset) and all(a.family.packs for a in users)
        leaves = _flat_modes(t.layout.shape, t.layout.stride)
        symbolic = [(s, d) for s, d in leaves if not isinstance(d, ThreadStride) and names_of(d)
                    and evaluate(s, env) > 1]
        if symbolic:  # the model: such a tile has one slot per coordinate of its non-thread modes
            n = 1
            for s, d in leaves:
                if not isinstance(d, ThreadStride) and (names_of(d) or evaluate(d, env) != 0):
                    n *= evaluate(s, env)
            total += per_slot * (-(-n // 2) if pairs else n)
            if total > budget:
                return {"registers": f"at least {total}", "budget": budget, "tensor": name}
            continue
        extents = [evaluate(e, env) for e in t.shape]
        size = prod(extents)
        if 0 < size <= TABLE_LIMIT:  # every index at once: the same oracle on numpy arrays of Python ints
            exact = all(e >= 1 for e in extents) and fits_int64(t.layout, extents, env, 0)
            grid = np.indices(extents).reshape(len(extents), size).astype(np.int64 if exact else object)
            slots = oracle.layout_value(t.layout, tuple(grid[k] for k in range(len(extents))), env, t.offset)[""]
            values = set(slots.tolist()) if isinstance(slots, np.ndarray) else {slots}
            distinct = len({v // 2 for v in values} if pairs else values)
            if total + per_slot * distinct > budget:  # the count where slot-by-slot enumeration stops
                k = (budget - total) // per_slot + 1
                return {"registers": f"at least {total + per_slot * k}", "budget": budget, "tensor": name}
            total += per_slot * distinct
            continue
        seen = set()
        for index in itertools.product(*(range(n) for n in extents)):
            slot = oracle.layout_value(t.layout, index, env, t.offset)[""]
            slot = slot // 2 if pairs else slot
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


# --- the same pointwise rules over the whole table at once (numpy: exact Python ints, or int64 where
# ``fits_int64`` proves no value can wrap) -------------------------------------------------------------
# Each returns a boolean array over (*group, *repeat, vector), True where the scalar rule is False at
# that point; ``_first_violation`` takes the first in ``Operands.points()`` order.  Without a table
# (``TABLE_LIMIT``, an evaluation the arrays cannot take) the scalar rules decide point by point;
# tests/test_speed.py holds the two paths to the same verdicts and witnesses.

def _words(ops):
    return np.arange(ops.vector, dtype=object)


def _kept(ops, name, view, bad):
    """``bad`` of ``view`` less the points ``_skips`` leaves out (guarded-out atoms of a guarded rule)."""
    if view is guarded_view(ops.apply) and name in accesses.restricted(ops.apply, view):
        return bad & ops.atoms_in(view)
    return bad


@functools.lru_cache(maxsize=None)
def _matrix_maps(op) -> tuple:
    """``matrix_rows`` as three (32, words) arrays: each (lane, word)'s row-origin lane and word, and
    its column in the row."""
    words = 2 * op.num
    lane0, word0, col = (np.zeros((32, words), dtype=np.intp) for _ in range(3))
    for (lane, word), (_, _, c, (l0, w0)) in matrix_rows(op).items():
        lane0[lane, word], word0[lane, word], col[lane, word] = l0, w0, c
    return lane0, word0, col


def _matrix_row_starts(ops, o):
    """(the offset of each point's row origin, each point's column) over a matrix apply's table ``o``
    of shape (32, *repeat, words): ``contiguity_ok``'s and ``alignment_ok``'s matrix cases at every
    point at once."""
    lane0, word0, col = _matrix_maps(ops.apply.opcode)
    if o.shape[0] != 32 or o.shape[-1] != lane0.shape[1]:
        raise ValueError("not a warp's matrix table")  # the scalar rule decides
    moved = np.moveaxis(o, 0, -2)  # (*repeat, 32, words): the origin is a (lane, word) of the same repeat
    return np.moveaxis(moved[..., lane0, word0], -2, 0), col.reshape((32,) + (1,) * (o.ndim - 2) + (-1,))


def contiguity_bad(ops, shape):
    if crosses(ops.apply):  # each row's element at its origin's offset plus its column
        o = ops.arrays(ops.apply.memory)[0]
        start, col = _matrix_row_starts(ops, o)
        return o != start + col
    bad = np.zeros(shape, dtype=bool)
    for view in memory_views(ops.apply):
        o = ops.arrays(view)[0]
        bad |= _kept(ops, "contiguity", view, o != o[..., :1] + _words(ops))
    return bad


def alignment_bad(ops, shape):
    if crosses(ops.apply):  # the row's first byte: 16-byte aligned
        o = ops.arrays(ops.apply.memory)[0]
        _, col = _matrix_row_starts(ops, o)
        return (ops.memory.esize * (o - col)) % 16 != 0
    bad = np.zeros(shape, dtype=bool)
    for view in memory_views(ops.apply):
        t = ops.check.tensors[view.tensor]
        bad |= _kept(ops, "alignment", view, (t.esize * ops.arrays(view)[0][..., :1]) % (ops.vector * t.esize) != 0)
    return bad


def ownership_bad(ops, shape):
    _, lane, warp, tid = ops.arrays(ops.apply.register)
    if not ops.group_shape:
        return (lane != 0) | (warp != 0) | (tid != 0)
    g = np.indices(shape)
    if len(ops.group_shape) == 1:
        return (lane != g[0]) | (warp != 0) | (tid != 0)
    return 32 * warp + lane + tid != 32 * g[0] + g[1]


def bounds_bad(ops, shape):
    bad = np.zeros(shape, dtype=bool)
    for view in (ops.apply.dst, ops.apply.src):
        o = ops.arrays(view)[0]
        bad |= _kept(ops, "bounds", view, (o < 0) | (o >= ops.extent(view)))
    return bad


def overflow_bad(ops, shape):
    bad = np.zeros(shape, dtype=bool)
    for view in memory_views(ops.apply):
        t = ops.check.tensors[view.tensor]
        first = t.esize * ops.arrays(view)[0]
        bad |= _kept(ops, "overflow", view, (first < 0) | (first + t.esize - 1 >= ADDRESS_LIMIT[t.scope]))
    return bad


POINTWISE_TABLE = {"contiguity": contiguity_bad, "alignment": alignment_bad, "ownership": ownership_bad,
                   "bounds": bounds_bad, "overflow": overflow_bad}
_SCALAR = object()  # no table: decide point by point


def _point(ops, i: int) -> tuple:
    """The (group, repeat, word) at row-major position ``i`` of the table."""
    shape = (*ops.group_shape, *ops.repeat_shape, ops.vector)
    coords = [int(c) for c in np.unravel_index(i, shape)]
    g = len(ops.group_shape)
    return tuple(coords[:g]), tuple(coords[g:-1]), coords[-1]


def _first_violation(ops, name):
    """The first point where ``name``'s pointwise rule fails, None if none does, ``_SCALAR`` when
    the arrays cannot decide it."""
    views = (ops.apply.register,) if name == "ownership" else (ops.apply.dst, ops.apply.src, *memory_views(ops.apply))
    if any(ops.arrays(v) is None for v in views):
        return _SCALAR
    shape = (*ops.group_shape, *ops.repeat_shape, ops.vector)
    try:
        bad = np.broadcast_to(POINTWISE_TABLE[name](ops, shape), shape)
    except Exception:  # noqa: BLE001 - the scalar rule raises it (or not) point by point
        return _SCALAR
    found = np.flatnonzero(bad)
    return _point(ops, int(found[0])) if found.size else None


def _first_repeat(values: list) -> tuple[int, int] | None:
    """(i, j): the first position ``i`` whose value occurs at an earlier position, ``j`` the earliest."""
    if len(set(values)) == len(values):
        return None
    seen = {}
    for i, v in enumerate(values):
        if v in seen:
            return i, seen[v]
        seen[v] = i
    return None


def _where(ops, point, **more) -> dict:
    """A witness: the symbol values and the point's coordinates."""
    g, r, w = point
    out = {"symbols": dict(ops.env)} if ops.env else {}
    return {**out, "group": tuple(g), "repeat": tuple(r), "word": w, **more}


def disjoint_load(ops):
    """One thread's destination slots are pairwise distinct over all (repeat, word)."""
    view = ops.apply.register
    cols = ops.arrays(view)
    if cols is not None:  # the same walk over the table's rows (one row per group)
        rows = cols[0].reshape(max(1, prod(ops.group_shape)), -1)
        for g, row in zip(ops.groups(), rows):
            hit = _first_repeat(row.tolist())
            if hit is not None:
                (_, r, w), (_, r0, w0) = _point(ops, hit[0]), _point(ops, hit[1])
                return {**_where(ops, (g, r, w)), "other": (r0, w0), "slot": row[hit[0]]}
        return None
    for g in ops.groups():
        seen = {}
        for r in ops.repeats():
            for w in ops.words():
                slot = ops.offset(view, (g, r, w))
                if slot in seen:
                    return {**_where(ops, (g, r, w)), "other": seen[slot], "slot": slot}
                seen[slot] = (tuple(r), w)
    return None


def _thread_rows(ops, view):
    """Thread t's offsets over (repeat, word), one row per CTA thread, from the table; None when some
    thread's group lies outside it (or there is no table)."""
    cols = ops.arrays(view)
    threads = ops.check.threads
    groups = max(1, prod(ops.group_shape))
    if cols is None or any(ops._flat((ops.group_of_thread(t), (0,) * len(ops.repeat_shape), 0)) is None
                           for t in (0, threads - 1)):
        return None
    t = np.arange(threads)
    row = t % groups  # the group's row-major position (one thread: 0; a warp: the lane; the CTA: t)
    return cols[0].reshape(groups, -1)[row]


def warp_symbols(check) -> list[str]:
    """The symbols read from the warp id (``from = "warpid"``): thread t's value is t // 32."""
    return [n for n, s in check.symbols.items() if s.source == "warpid"]


def cta_symbols(check) -> list[str]:
    """The symbols read from a ``%ctaid`` component or ``%cluster_ctarank``: one value per CTA."""
    return [n for n, s in check.symbols.items() if s.source and (s.source.startswith("ctaid.") or s.source == "ctarank")]


def _thread_ops(ops):
    """Thread t's operands: ``ops`` with the warp-id symbols set to t // 32 (``ops`` itself without them)."""
    warp = warp_symbols(ops.check)
    if not warp:
        return lambda t: ops
    made: dict = {}

    def of(t):
        k = t // 32
        if k not in made:
            made[k] = Operands(ops.check, ops.apply, {**ops.env, **{n: k for n in warp}})
        return made[k]
    return of


def disjoint_store(ops):
    """Memory destinations are pairwise distinct over every thread of the CTA, repeat and word
    (``.local``: over one thread's own repeats and words: each thread has its own window); the
    warp-id symbols are each thread's own warp."""
    view = ops.apply.memory
    local = ops.memory.scope == "local"
    of = _thread_ops(ops)
    rows = None if guarded_view(ops.apply) is view or warp_symbols(ops.check) else _thread_rows(ops, view)
    if rows is not None:  # the same walk, thread by thread, over the table
        per = rows.shape[1]
        for t0, block in ((t, rows[t]) for t in range(len(rows))) if local else ((0, rows.reshape(-1)),):
            hit = _first_repeat(block.tolist())
            if hit is not None:
                (i, j), off = hit, block[hit[0]]
                (_, r, w), (_, r0, w0) = _point(ops, i % per), _point(ops, j % per)
                t, other = t0 + i // per, t0 + j // per
                return {**_where(ops, (ops.group_of_thread(t), r, w)), "thread": t, "other": (other, r0, w0),
                        "offset": off}
        return None
    seen = {}
    for t in range(ops.check.threads):
        if local:
            seen = {}
        g = ops.group_of_thread(t)
        own = of(t)
        for r in ops.repeats():
            for w in ops.words():
                if _skips(own, "disjoint", view, (g, r, w)):
                    continue
                off = own.offset(view, (g, r, w))
                if off in seen:
                    return {**_where(own, (g, r, w)), "thread": t, "other": seen[off], "offset": off}
                seen[off] = (t, tuple(r), w)
    return None


def disjoint(ops):
    return disjoint_load(ops) if ops.apply.is_load else disjoint_store(ops)


def guard(ops):
    """No guarded atom straddles its tensor's edge: its words are all inside or all outside."""
    for g in ops.groups():
        for r in ops.repeats():
            inside = ops.inside(g, r)
            if any(inside) and not all(inside):
                ins = [w for w, ok in enumerate(inside) if ok]
                outs = [w for w, ok in enumerate(inside) if not ok]
                return {**_where(ops, (g, r, outs[0])), "inside": ins, "outside": outs}
    return None


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
    shape, threads = ops.group_shape, ops.check.threads
    if not shape:  # one thread per group: the warp's lanes all at its one address
        _warps, lanes = [0], [() for _ in range(min(32, threads))]
    for w in range(shape[0] if len(shape) == 2 else 1):
        if shape:
            lanes = [(lane,) if len(shape) == 1 else (w, lane) for lane in range(32)]
        for r in ops.repeats():
            yield w, tuple(r), lanes


def counts(ops, name):
    """[(count, ideal, warp, repeat, base)] of every warp-instruction and base residue."""
    space, modulus, count, ideal = COUNTED[name]
    out = []
    matrix = crosses(ops.apply)
    for view in counted_views(ops.check, ops.apply, name):
        t = ops.check.tensors[view.tensor]
        width = 16 if matrix else ops.apply.opcode.vector * t.esize
        op = memory_model.READ if view is ops.apply.src else memory_model.WRITE
        if matrix:  # lanes 8i..8i+7 give matrix i's rows, one phase per matrix (memory_model)
            rows = matrix_origins(ops.apply.opcode)
        # guard = true: a lane whose guarded atom is out is inactive (docs/check-file.md, "Guards": a
        # guarded-out ld/st does not execute, a guarded-out cp.async reads no source but still fills
        # its shared destination) -- the lane is left out of the instruction
        guarded = view is guarded_view(ops.apply)
        # the offsets of a warp-instruction's lanes: a slice of the view's table (``arrays``) when it
        # is made, else point by point (the same values: ``offset`` reads that table)
        col = None if matrix or guarded or ops.arrays(view) is None else ops.arrays(view)[0]
        seen: dict = {}  # one count per distinct instruction, shifted down by whole 128-byte rows
        for w, r, lanes in warp_instructions(ops):
            if matrix:
                offs = {lane: t.esize * ops.offset(view, ((l0,), r, word)) for lane, (l0, word) in enumerate(rows)}
            elif col is not None:
                offs = _lane_offsets(col, len(ops.group_shape), w, r, len(lanes), t.esize)
            else:
                offs = {lane: t.esize * ops.offset(view, (g, r, 0)) for lane, g in enumerate(lanes)
                        if not guarded or ops.atom_in(g, r)}
            low = min(offs.values(), default=0) // 128 * 128  # 128 = 32 banks of 4 bytes = 4 sectors
            for base in range(0, modulus, t.align) if t.align < modulus else [0]:
                key = (base, tuple(offs), tuple(o - low for o in offs.values()))
                if key not in seen:
                    a = {lane: base + o - low for lane, o in offs.items()}
                    seen[key] = ((memory_model.matrix_wavefronts(a, ops.apply.opcode.num), len(rows) // 8) if matrix
                                 else (count(a, width, op), ideal(a, width, op)))
                out.append((*seen[key], w, r, base))
    return out


def _lane_offsets(col, rank: int, w: int, r: tuple, n: int, esize: int) -> dict:
    """``{lane: byte offset}`` of warp ``w``'s instruction at repeat ``r`` from the view's offset
    table ``col`` (shape ``(*group, *repeat, vector)``), by the group's rank: 0 (one thread), every
    lane at the one address; 1 (a warp), group ``(lane,)``; 2, group ``(w, lane)``."""
    if rank == 0:
        o = esize * col[(*r, 0)]
        return dict.fromkeys(range(n), o)
    lanes = col[(slice(None), *r, 0)] if rank == 1 else col[(w, slice(None), *r, 0)]
    return {lane: esize * o for lane, o in enumerate(lanes.tolist()[:n])}


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
# the families' own obligations (TMA's), restated in their family files: appended in the families' order
FAMILY_RULES: dict = {}  # rule(check, apply, env): decided at each assignment, replayed at a witness's symbols
CTA_RULES: dict = {}  # rule(check, apply, env, others): across the CTAs of one launch (Family.cta_rules)
for _fam in dict.fromkeys(families.FAMILIES.values()):
    FAMILY_RULES.update(_fam.rules)
    CTA_RULES.update(_fam.cta_rules)
    STATIC.update(_fam.rules)
    NEEDS.update(_fam.rule_needs)
    ORDER += tuple(n for n in _fam.rules if n not in ORDER)
RULES = {**STATIC, **POINTWISE, "disjoint": disjoint, "banks": banks, "sectors": sectors, "guard": guard}


def applicable(apply, check=None) -> tuple[str, ...]:
    """The obligations of ``apply``, in order: those its family declares (``banks``/``sectors`` only
    when a memory operand is in shared/global memory)."""
    return tuple(n for n in ORDER if n in apply.family.applicable(apply.opcode)
                 and (n not in COUNTED or check is None or counted_views(check, apply, n))
                 and (n != "guard" or getattr(apply, "guard", False)))


def _decide_one(check, apply, env, settled=frozenset()) -> dict[str, tuple[str, dict | None]]:
    """``settled``: obligations already refuted at another assignment (``decide``): nothing here can
    change their combined verdict, so they are decided only as another one's prerequisite."""
    ops = Operands(check, apply, env)
    out: dict[str, tuple[str, dict | None]] = {}
    names = applicable(apply, check)
    wanted = {p for n in names if n not in settled for p in needs(n, apply.is_load)}
    for name in names:
        if name in settled and name not in wanted:
            continue
        if any(out[p][0] != PROVED for p in needs(name, apply.is_load)):
            out[name] = (SKIPPED, None)
            continue
        if name in STATIC:
            w = STATIC[name](check, apply, env)
        elif name == "disjoint":
            w = disjoint(ops)
        elif name in COUNTED:
            w = counted(ops, name)
        elif name == "guard":
            w = guard(ops)
        else:
            w = BEFORE[name](check, apply, env) if name in BEFORE else None
            if w is None:
                p = _first_violation(ops, name)
                if p is _SCALAR:
                    ok = POINTWISE[name]
                    w = next((_where(ops, p) for p in ops.points() if not ok(ops, p)), None)
                else:
                    w = None if p is None else _where(ops, p)
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
            settled = frozenset(n for n, (status, _) in combined.items() if status == REFUTED)
            if len(settled) == len(combined):
                break
            for name, (status, w) in _decide_one(check, apply, env, settled).items():
                if _RANK[status] > _RANK[combined[name][0]]:
                    combined[name] = (status, w)
        why = across_applies(check, apply)
        for name in ("disjoint", *CTA_RULES):
            if why and name in combined and combined[name][0] == PROVED:
                combined[name] = (SKIPPED, {"unsupported": why})  # (the prover: unknown)
        if "disjoint" in combined and combined["disjoint"][0] == PROVED:
            w = disjoint_grid(check, apply, envs)
            if w is not None:
                combined["disjoint"] = (REFUTED, w)
        for name, rule in CTA_RULES.items():
            if name in combined and combined[name][0] == PROVED:
                w = across_ctas(check, apply, envs, rule)
                if w is not None:
                    combined[name] = (REFUTED, w)
        results.append(combined)
    return results


def across_applies(check, apply) -> str:
    """(The decider's restatement of ``proofs/disjoint.across_applies``.)  A store to a global tensor in a
    grid (a symbol bound to ``%ctaid``/``%cluster_ctarank``) that another application also reads or
    writes: not decided (two applications are not compared across CTAs), else ``""``."""
    if apply.is_load or not cta_symbols(check):
        return ""
    t = apply.dst.tensor
    if check.tensors[t].scope != "global":
        return ""
    for a in check.applies:
        if a.index != apply.index and t in (a.dst.tensor, a.src.tensor):
            return f"apply[{a.index}] also reads or writes {t} in a grid: two applications are not compared"
    return ""


def launches(check, envs) -> list[list[dict]]:
    """The assignments grouped by launch: equal in every symbol but the CTA-bound ones (one CTA each)."""
    bound = cta_symbols(check)
    out: dict = {}
    for env in envs:
        out.setdefault(tuple(sorted((k, v) for k, v in env.items() if k not in bound)), []).append(env)
    return list(out.values())


def across_ctas(check, apply, envs, rule):
    """A ``Family.cta_rules`` rule over every CTA of each launch against the others: its first witness."""
    bound = cta_symbols(check)
    if not bound:
        return None
    for ctas in launches(check, envs):
        for env in ctas:
            others = [o for o in ctas if any(o[n] != env[n] for n in bound)]
            w = rule(check, apply, env, others)
            if w is not None:
                return w
    return None


def disjoint_grid(check, apply, envs):
    """A global store's words are distinct across CTAs too: two assignments that differ only in
    the symbols bound to ``%ctaid`` are two CTAs of one launch."""
    bound = cta_symbols(check)
    mem = check.tensors[apply.memory.tensor]
    if apply.is_load or mem.scope != "global" or not bound:
        return None
    for ctas in launches(check, envs):
        seen = {}
        for env in ctas:
            ops = Operands(check, apply, env)
            of = _thread_ops(ops)
            cta = tuple(env[n] for n in bound)
            for t in range(check.threads):
                g = ops.group_of_thread(t)
                own = of(t)
                for r in ops.repeats():
                    for w in ops.words():
                        if _skips(own, "disjoint", apply.memory, (g, r, w)):
                            continue
                        off = own.offset(apply.memory, (g, r, w))
                        if off in seen and seen[off][0] != cta:
                            return {**_where(own, (g, r, w)), "thread": t, "other": seen[off], "offset": off,
                                    "other_symbols": seen[off][1]}
                        seen.setdefault(off, (cta, dict(own.env)))
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
    if name in CTA_RULES and cex.get("other_symbols"):  # two CTAs: each at its own symbols
        env, other = dict(cex.get("symbols") or {}), dict(cex["other_symbols"])
        for e in (env, other):
            if check.symbols and not allowed(check, e):
                return f"symbol values {e} are not allowed by the symbols' ranges and facts"
        if any(env.get(n) != other.get(n) for n in env if n not in cta_symbols(check)):
            return f"{env} and {other} are not two CTAs of one launch (they differ outside the CTA-bound symbols)"
        return None if CTA_RULES[name](check, apply, env, [other]) else f"{name} holds between {env} and {other}"
    if name in FAMILY_RULES:  # at the witness's symbols (a fact of the input: at any allowed ones)
        env = dict(cex.get("symbols") or {}) or (assignments(check, limit=1) or [{}])[0]
        if check.symbols and not allowed(check, env):
            return f"symbol values {env} are not allowed by the symbols' ranges and facts"
        return None if FAMILY_RULES[name](check, apply, env) else f"{name} holds at {env}"
    if name in STATIC:  # facts of the input: no symbols, no coordinates
        return None if STATIC[name](check, apply, {}) else f"{name} holds"
    if name == "alignment" and "align" in cex:  # the base pointer's alignment
        return None if alignment_base(check, apply, {}) else "the base pointer is aligned"
    env = dict(cex.get("symbols") or (cex.get("first") or {}).get("symbols") or {})
    if check.symbols and not allowed(check, env):
        return f"symbol values {env} are not allowed by the symbols' ranges and facts"
    ops = Operands(check, apply, env)
    if name == "guard":
        g, r, _ = point = _coords(cex)
        if not _inside(ops, point):
            return f"point {point} is outside the domain"
        inside = ops.inside(g, r)
        return None if any(inside) and not all(inside) else f"the atom at {point} does not straddle the edge"
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
        bound, warp = cta_symbols(check), warp_symbols(check)
        for t, e in ((ta, env), (tb, env_b)):
            if any(e.get(n) != t // 32 for n in warp):
                return f"thread {t}'s warp-id symbols are not its warp {t // 32}"
        other_cta = any(env_b.get(n) != env.get(n) for n in bound)
        if any(env_b.get(n) != env.get(n) for n in check.symbols if n not in bound and n not in warp):
            return f"the second access's symbols {env_b} are not the first's"
        if other_cta:
            if check.tensors[apply.memory.tensor].scope != "global":
                return "two CTAs do not share this state space"
            if not allowed(check, env_b):
                return f"the second CTA's symbols {env_b} are not another CTA of the same launch"
        ops_b = Operands(check, apply, env_b)
        for t, p in ((ta, pa), (tb, pb)):
            if not 0 <= t < check.threads or ops.group_of_thread(t) != p[0]:
                return f"thread {t} does not have group {p[0]}"
        if not other_cta and (ta, pa[1], pa[2]) == (tb, pb[1], pb[2]):
            return "the two accesses are the same"
        if check.tensors[apply.memory.tensor].scope == "local" and ta != tb:
            return "two threads' .local windows are distinct"
        if _skips(ops, "disjoint", apply.memory, pa) or _skips(ops_b, "disjoint", apply.memory, pb):
            return "a guarded-out atom does not store"
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


# --- tensor maps: cuTensorMapEncodeTiled's rules by enumeration (issue 30) ------------------------------
# Restated from the CUDA 13.0 header and docs/tma.md's table of the H200 driver's answers, apart from
# proofs/descriptor.py: concrete values only, one assignment of the symbols at a time.

TMAP_BITS = {"uint8": 8, "uint16": 16, "uint32": 32, "int32": 32, "uint64": 64, "int64": 64, "float16": 16,
             "float32": 32, "float64": 64, "bfloat16": 16, "float32_ftz": 32, "tfloat32": 32, "tfloat32_ftz": 32,
             "16u4_align8b": 4, "16u4_align16b": 8, "16u6_align16b": 8}
TMAP_BOX_BYTES = 233472  # the sm_90 driver's largest box, in bytes, 228 KiB (docs/tma.md)
TMAP_ADDRESS_END = 1 << 57  # the driver refuses a global address from here on (docs/tma.md)
TMAP_HOST = {"uint64": (0, 2**64 - 1), "int64": (-2**63, 2**63 - 1), "int32": (-2**31, 2**31 - 1),
             "uint32": (0, 2**32 - 1)}


def tmap_broken(check, tmap, env: dict) -> str | None:
    """The first rule of the driver that tensor map ``tmap`` breaks at symbol values ``env``, or None."""
    sm = int(check.arch[3:].rstrip("af"))
    t = tmap.dtype
    bits = TMAP_BITS[t]
    gaps16 = t in ("16u4_align16b", "16u6_align16b")
    dims = [evaluate(x, env) for x in tmap.dims]
    strides = [evaluate(x, env) for x in tmap.strides]
    box = [evaluate(x, env) for x in tmap.box]
    es = [evaluate(x, env) for x in tmap.element_strides]
    rank = len(dims)
    if sm < 90:
        return "arch"
    if rank < 1 or rank > 5:
        return "rank"
    if t.startswith("16u") and sm < 100:
        return "packed_arch"
    if tmap.swizzle.startswith("128B_atom") and sm < 100:
        return "swizzle_arch"
    if tmap.interleave != "none" and rank < 3:
        return "interleave_rank"
    need = 32 if tmap.interleave == "32B" or gaps16 else 16
    if tmap.align % need != 0 or (evaluate(tmap.offset, env) * tmap.tensor_bytes) % need != 0:
        return "address"
    if not 0 <= evaluate(tmap.offset, env) * tmap.tensor_bytes < TMAP_ADDRESS_END:
        return "address_range"
    for d in dims:
        if d < 1 or d > 1 << 32:
            return "dims"
    if gaps16 and dims[0] % 128 != 0:
        return "packed_dims"
    if t == "16u4_align8b" and dims[0] % 2 != 0:
        return "packed_dims"
    for s in strides:
        if s % need != 0:
            return "stride_multiple"
    for s in strides:
        if s < 0 or s >= 1 << 40:
            return "stride_max"
    for b in box:
        if b < 1 or b > 256:
            return "box"
    if box[0] * bits % 128 != 0:
        return "box_inner"
    if gaps16 and box[0] != 128:
        return "packed_box"
    for e in es:
        if e < 1 or e > 8:
            return "element_strides"
    elements = 1
    for b, e in zip(box, es):
        elements *= b // e
    if elements * bits > TMAP_BOX_BYTES * 8:
        return "box_bytes"
    span = {"none": None, "32B": 32, "64B": 64}.get(tmap.swizzle, 128)
    if tmap.interleave == "none" and span is not None and box[0] * bits > span * 8:
        return "swizzle_span"
    if t == "16u6_align16b" and tmap.interleave != "none":
        return "packed_interleave"
    if t == "16u6_align16b" and tmap.swizzle not in ("none", "128B", "128B_atom_32B", "128B_atom_64B"):
        return "packed_swizzle"
    if t == "16u4_align16b" and tmap.swizzle not in ("none", "128B", "128B_atom_32B"):
        return "packed_swizzle"
    if tmap.oob_fill == "nan" and t not in ("float16", "float32", "float64", "bfloat16", "float32_ftz", "tfloat32",
                                            "tfloat32_ftz"):
        return "oob_nan"
    lo, hi = TMAP_HOST[tmap.computed_in]
    if any(not lo <= v <= hi for v in (*dims, *strides, *box, *es)):
        return "computed_in"
    return None


def tensormap(check, name: str, symbol_values: list | None = None, limit: int = 64) -> tuple[str, dict | None]:
    """The ``descriptor`` obligation of ``[tensormaps.NAME]`` by enumeration: ("refuted", {"rule",
    "symbols"}) at the first assignment (``symbol_values``, else ``assignments``) where a rule breaks,
    else ("proved", None) -- over that range only."""
    tmap = check.tensormaps[name]
    for env in symbol_values if symbol_values is not None else assignments(check, limit=limit):
        rule = tmap_broken(check, tmap, env)
        if rule is not None:
            return REFUTED, {"rule": rule, "symbols": dict(env)}
    return PROVED, None


# --- shared-memory matrix descriptors (issue 31): decoded and decided by enumeration -------------------
# Restated from the PTX ISA 9.0 ("Matrix Descriptor Format"; tcgen05 "Shared Memory Descriptor") and the
# core-matrix description of the canonical layouts, apart from smem_descriptor.py and proofs/: plain Python
# over ints, on a descriptor check file's data (docs/wgmma.md), one symbol assignment at a time.  The
# expressions are evaluated as the file means them: unsigned 64-bit words (every result modulo 2^64).

DESC_BITS = {"sm_90": {"start": (0, 14), "lbo": (16, 14), "sbo": (32, 14), "base_offset": (49, 3),
                       "layout_type": (62, 2)},
             "sm_100": {"start": (0, 14), "lbo": (16, 14), "sbo": (32, 14), "fixed": (46, 3), "base_offset": (49, 3),
                        "lbo_mode": (52, 1), "fixed_zero": (53, 8), "layout_type": (61, 3)}}
DESC_FIXED = {"sm_90": {}, "sm_100": {"fixed": 1, "fixed_zero": 0}}
DESC_CODES = {"sm_90": {"none": 0, "128B": 1, "64B": 2, "32B": 3},
              "sm_100": {"none": 0, "128B_base32B": 1, "128B": 2, "64B": 4, "32B": 6}}
DESC_CHUNKS = {"none": 1, "32B": 2, "64B": 4, "128B": 8, "128B_base32B": 8}  # 16-byte chunks per row (128 B: 8)
DESC_BYTES = {"float16": 2, "bfloat16": 2, "tf32": 4, "float32": 4, "float8_e4m3": 1, "float8_e5m2": 1, "int8": 1,
              "uint8": 1}
DESC_ORDER = ("descriptor-encoding", "descriptor-base", "descriptor-layout", "descriptor-k-advance")
_WORD = (1 << 64) - 1


def desc_value(x, env: dict) -> int:
    """A descriptor file's integer or expression (``+ - * // % << >> & | ^`` over the symbols) at ``env``,
    as an unsigned 64-bit word: every operation modulo 2^64, ``x // 0`` all ones and ``x % 0`` x (the
    bit-vector division the file's words are)."""
    if isinstance(x, int):
        return x & _WORD
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.FloorDiv: lambda a, b: a // b if b else _WORD, ast.Mod: lambda a, b: a % b if b else a,
           ast.LShift: lambda a, b: a << b if b < 64 else 0, ast.RShift: lambda a, b: a >> b,
           ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b}

    def walk(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value & _WORD
        if isinstance(node, ast.Name):
            return env[node.id] & _WORD
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](walk(node.left), walk(node.right)) & _WORD
        raise ValueError(f"{x!r}: not a descriptor file expression")
    return walk(ast.parse(x, mode="eval").body)


def desc_assignments(data: dict, limit: int = 4096) -> tuple[list[dict], bool]:
    """The symbol assignments of a descriptor file (each symbol a multiple of ``multiple_of`` in
    ``[min, max]``, unsigned 64-bit): every one when there are at most ``limit`` (then True), else each
    symbol's 3 smallest and 3 largest values combined (False: a range, not every value)."""
    syms = data.get("symbols", {})
    ranges = []
    for s in syms.values():
        m = s.get("multiple_of", 1)
        lo, hi = -(-s.get("min", 0) // m) * m, s.get("max", _WORD) // m * m
        ranges.append((lo, hi, m))
    total = prod(max(0, (hi - lo) // m + 1) for lo, hi, m in ranges)
    every = total <= limit
    values = [range(lo, hi + 1, m) if every else sorted({v for v in (*range(lo, min(hi, lo + 2 * m) + 1, m),
                                                                     *range(max(lo, hi - 2 * m), hi + 1, m))})
              for lo, hi, m in ranges]
    return [dict(zip(syms, vs)) for vs in itertools.product(*values)], every


def desc_allowed(data: dict, env: dict) -> bool:
    for name, s in data.get("symbols", {}).items():
        v = env.get(name)
        if v is None or not (s.get("min", 0) <= v <= s.get("max", _WORD)) or v % s.get("multiple_of", 1):
            return False
    return True


def desc_fields(word: int, arch: str) -> dict:
    """The raw fields of a descriptor word."""
    return {n: (word >> lo) & ((1 << w) - 1) for n, (lo, w) in DESC_BITS[arch].items()}


def desc_word(d: dict, arch: str, env: dict) -> int:
    """The word the code packs: ``word``, else PTX's exact encoding of the declared fields."""
    if "word" in d:
        return desc_value(d["word"], env)
    raw = {n: (desc_value(d.get(n, 0), env) & 0x3FFFF) >> 4 for n in ("start", "lbo", "sbo")}  # (x & 0x3FFFF) >> 4
    raw.update(base_offset=desc_value(d.get("base_offset", 0), env), layout_type=DESC_CODES[arch][d["swizzle"]],
               **DESC_FIXED[arch])
    if arch == "sm_100":
        raw["lbo_mode"] = desc_value(d.get("lbo_mode", 0), env)
    word = 0
    for n, (lo, w) in DESC_BITS[arch].items():
        word |= (raw.get(n, 0) & ((1 << w) - 1)) << lo
    return word


def desc_address(start: int, lbo: int, sbo: int, base: int, mode: str, major: str, esize: int, mn, k,
                 absolute: bool = False):
    """Where the tensor core reads element ``(mn, k)`` of the operand tile: core matrices are 8 rows of
    16 bytes (K-major rows run along K, MN-major rows along MN); a swizzled mode's rows are ``chunks``
    16-byte chunks, its chunk index XORed with the row's phase, counted from the base offset.  tcgen05's
    ``128B_base32B`` (MN-major tf32): 128-byte rows of four 32-byte units, 4 K-rows an atom; its absolute
    LBO mode (``absolute``, K-major 128B): the K bytes past start's 128-byte row come from the LBO address.
    ``mn``, ``k``: ints or numpy arrays."""
    if mode == "128B_base32B":
        atom, rest = divmod(mn, 128 // esize)
        krow_group, krow = divmod(k, 4)
        return _desc_swizzle(start + atom * lbo + krow_group * sbo + krow * 128 + rest * esize, base, 4, 32)
    if absolute:
        group, row = divmod(mn, 8)
        kb = k * esize
        room = 128 - start % 128
        first = np.where(kb < room, start + kb, lbo + kb - room) if isinstance(kb, np.ndarray) else \
            (start + kb if kb < room else lbo + kb - room)
        return _desc_swizzle(first + group * sbo + row * 128, base, 8, 16)
    chunks = DESC_CHUNKS[mode]
    per_chunk = 16 // esize  # elements in 16 bytes
    if major == "K":
        chunk, inside = divmod(k, per_chunk)  # which 16-byte chunk of the row's 32 bytes
        group, row = divmod(mn, 8)
        if chunks == 1:
            addr = start + group * sbo + chunk * lbo + row * 16 + inside * esize
        else:
            addr = start + group * sbo + row * 16 * chunks + chunk * 16 + inside * esize
    else:
        krow_group, krow = divmod(k, 8)
        if chunks == 1:
            block, inside = divmod(mn, per_chunk)
            addr = start + block * sbo + krow_group * lbo + krow * 16 + inside * esize
        else:
            atom, rest = divmod(mn, per_chunk * chunks)
            chunk, inside = divmod(rest, per_chunk)
            addr = start + atom * lbo + krow_group * sbo + krow * 16 * chunks + chunk * 16 + inside * esize
    return _desc_swizzle(addr, base, chunks, 16)


def _desc_swizzle(addr, base: int, units: int, size: int):
    """The unit index (``size`` bytes, ``units`` a row of 128 bytes) XORed with the row's phase from the base
    offset; nothing for one unit a row (no swizzle)."""
    if isinstance(addr, int):
        addr &= _WORD
    if units == 1:
        return addr
    row_phase = ((addr // 128) - base) % units  # the pattern's row, counted from where it starts
    unit = (addr // size) % units
    out = addr - unit * size + (unit ^ row_phase) * size
    return out & _WORD if isinstance(out, int) else out


def desc_combination(major: str, mode: str, bits: int, arch: str) -> str | None:
    """Why no instruction reads this operand (PTX ISA: wgmma's imm-trans is for 16-bit types; tcgen05's
    valid combinations of type size, major-ness and swizzling), or None."""
    if mode == "128B_base32B":
        arch = "sm_100"
    if major == "MN" and arch == "sm_90" and bits != 16:
        return "MN-major on sm_90 is 16-bit only"
    if mode == "128B_base32B" and (major == "K" or bits != 32):
        return "128B with 32-byte atoms is MN-major tf32 only"
    if major == "MN" and arch == "sm_100" and bits == 32 and mode != "128B_base32B":
        return "MN-major tf32 takes only 128B with 32-byte atoms"
    return None


def independent_address(word: int, arch: str, major: str, elem_bits: int, mn: int, k: int) -> int:
    """``desc_address`` of a packed word (a modelled mode)."""
    f = desc_fields(word, arch)
    mode = {c: n for n, c in DESC_CODES[arch].items()}[f["layout_type"]]
    return desc_address(f["start"] << 4, f["lbo"] << 4, f["sbo"] << 4, f["base_offset"], mode, major,
                        elem_bits // 8, mn, k, bool(f.get("lbo_mode")))


class _DescCase:
    """One ``[descriptors.NAME]`` of a descriptor file's data at one symbol assignment."""

    def __init__(self, data: dict, name: str, env: dict):
        self.data, self.name, self.env = data, name, env
        self.arch = {"sm_90a": "sm_90", "sm_100a": "sm_100"}.get(data.get("arch", "sm_90"), data.get("arch", "sm_90"))
        self.d = data["descriptors"][name]
        self.t = data["tensors"][self.d["tensor"]]
        self.esize = DESC_BYTES[self.t["dtype"]]
        self.layout = _desc_layout(self.t["layout"])
        self.address = desc_value(self.t.get("address", 0), env)
        self.offset = self.t.get("offset", 0)
        self.tile = tuple(self.d["tile"])
        self.word = desc_word(self.d, self.arch, env)
        self.raw = desc_fields(self.word, self.arch)
        self.mode = {c: n for n, c in DESC_CODES[self.arch].items()}.get(self.raw["layout_type"])

    def declared(self, mn: int, k: int) -> int:
        """The byte address of element ``(mn, k)`` of the declared tensor (the oracles' layout evaluator)."""
        return (self.address + self.esize * _desc_element(self.layout, self.offset, mn, k)) & _WORD

    @property
    def absolute(self) -> bool:
        return self.arch == "sm_100" and bool(self.raw["lbo_mode"])

    def read(self, start: int, mn, k):
        r = self.raw
        return desc_address(start, r["lbo"] << 4, r["sbo"] << 4, r["base_offset"], self.mode, self.d["major"],
                            self.esize, mn, k, self.absolute)

    def invalid(self) -> bool:
        """The word's layout type is one the arch calls invalid (tcgen05's 3, 5, 7): no layout is read."""
        return self.arch == "sm_100" and self.raw["layout_type"] in (3, 5, 7)

    def unmodelled(self) -> str | None:
        """Why the word's layout type has no canonical form here (the obligations that read it: unknown)."""
        if self.mode is None or self.mode not in DESC_CHUNKS:
            return f"layout type {self.raw['layout_type']} has no canonical layout here"
        return None

    def untiled(self) -> str | None:
        """Why the instruction's tile is none of the mode's (the layout obligations: unknown)."""
        T, W = 16 // self.esize, DESC_CHUNKS[self.mode]
        mn, k = self.tile
        major = self.d["major"]
        step = 8 if major == "K" else T
        if (k != 32 // self.esize and not (self.absolute and k * self.esize == 48)) or mn < 1 or mn % step or \
                (major == "MN" and mn > T * W and mn % (T * W)):
            return f"tile {self.tile} is no {major}-major {self.mode} tile"
        if self.absolute and (self.mode != "128B" or major != "K"):
            return "the absolute LBO mode is K-major 128B only"
        return None


@functools.lru_cache(maxsize=256)
def _desc_layout(text: str):
    return parse_layout(text)  # the file's layout text (the check files' parser)


@functools.lru_cache(maxsize=1 << 16)
def _desc_element(layout, offset: int, mn: int, k: int) -> int:
    """The declared (concrete) layout's swizzled element offset at ``(mn, k)``: the same at every assignment."""
    return oracle.layout_value(layout, (mn, k), {}, offset)[""]


@functools.lru_cache(maxsize=1024)
def _desc_table(layout, offset: int, mn: int, k0: int, k: int):
    """``_desc_element`` over the rows ``< mn`` and the columns ``k0 .. k0 + k`` (a numpy int64 table, or None
    where an offset is past int64)."""
    t = [[_desc_element(layout, offset, i, k0 + j) for j in range(k)] for i in range(mn)]
    return np.array(t, dtype=np.int64) if all(abs(v) < 1 << 62 for row in t for v in row) else None


def desc_encoding(c: _DescCase):
    """start, LBO, SBO multiples of 16 below 2^18; base offset below 8 (0 without a swizzle); on sm_100
    the LBO mode one bit, the absolute mode K-major 128B with base offset 0, the intended operand one the
    instruction reads; the word holds exactly their encoding, the fixed fields, no reserved bit, a valid
    layout type."""
    d, env = c.d, c.env
    for key in ("start", "lbo", "sbo"):
        v = desc_value(d.get(key, 0), env)
        if v % 16 or v >= 1 << 18:
            return {"field": key, "bytes": v, "symbols": dict(env)}
    b = desc_value(d.get("base_offset", 0), env)
    if b >= 8 or (d["swizzle"] == "none" and b):
        return {"field": "base_offset", "value": b, "symbols": dict(env)}
    if c.arch == "sm_100":
        lm = desc_value(d.get("lbo_mode", 0), env)
        if lm >= 2 or (lm and (d["swizzle"] != "128B" or d["major"] != "K" or b)):
            return {"field": "lbo_mode", "value": lm, "symbols": dict(env)}
        why = desc_combination(d["major"], d["swizzle"], 8 * c.esize, "sm_100")
        if why:
            return {"combination": why, "symbols": dict(env)}
    want = {"start": desc_value(d["start"], env) >> 4, "lbo": desc_value(d.get("lbo", 0), env) >> 4,
            "sbo": desc_value(d.get("sbo", 0), env) >> 4, "base_offset": b,
            "layout_type": DESC_CODES[c.arch][d["swizzle"]], **DESC_FIXED[c.arch]}
    if c.arch == "sm_100":
        want["lbo_mode"] = desc_value(d.get("lbo_mode", 0), env) & 1
    for n, v in want.items():
        if c.raw[n] != v:
            return {"field": n, "holds": c.raw[n], "wants": v, "symbols": dict(env)}
    used = 0
    for lo, w in DESC_BITS[c.arch].values():
        used |= ((1 << w) - 1) << lo
    if c.word & ~used & _WORD:
        return {"reserved": c.word & ~used & _WORD, "symbols": dict(env)}
    if c.arch == "sm_100" and c.raw["layout_type"] in (3, 5, 7):
        return {"layout_type": c.raw["layout_type"], "symbols": dict(env)}
    return None


def desc_base(c: _DescCase):
    """A swizzled operand's pattern starts on its repeat (base offset 0) or the word carries ``(address >> 7) & 7``."""
    if c.mode == "none":
        return None
    repeat = 128 * DESC_CHUNKS[c.mode]
    want = 0 if c.address % repeat == 0 else (c.address >> 7) & 7
    return None if c.raw["base_offset"] == want else {"address": c.address, "base_offset": c.raw["base_offset"],
                                                      "expected": want, "symbols": dict(c.env)}


def _desc_steps(c: _DescCase, steps, encodable: bool):
    ext = [_desc_extent(m) for m in c.layout.shape]
    mn_, k_ = c.tile
    if len(ext) != 2:
        return {"static": f"{len(ext)} modes"}
    last = max(j for j, _ in steps)
    if mn_ > ext[0] or (last + 1) * k_ > ext[1]:
        return {"static": "the tile is past the tensor's extent"}
    start0 = c.raw["start"] << 4
    for j, adv in steps:
        a = desc_value(adv, c.env)
        start = (start0 + a) & _WORD
        if encodable and (start % 16 or start >= 1 << 18):
            return {"k_step": j, "start": start, "symbols": dict(c.env)}
        table = _desc_table(c.layout, c.offset, mn_, j * k_, k_)
        if table is not None and start < 1 << 40 and c.address < 1 << 40 and not _desc_differ(c, start, table):
            continue  # every element agrees (numpy, exact: every value below 2^62); else find the first below
        for i in range(mn_):
            for kk in range(k_):
                mine, theirs = c.declared(i, kk + j * k_), c.read(start, i, kk)
                if mine != theirs:
                    return {"k_step": j, "index": [i, kk + j * k_], "declared_byte": mine, "descriptor_byte": theirs,
                            "symbols": dict(c.env)}
    return None


def _desc_differ(c: _DescCase, start: int, table) -> bool:
    """Some element of the tile is read at another byte than declared (numpy over the whole tile)."""
    i, k = np.indices(table.shape, dtype=np.int64)
    reads = c.read(start, i, k)
    return bool(np.any(reads != c.address + c.esize * table))


def _desc_extent(mode) -> int:
    return prod(_leaves(mode)) if isinstance(mode, tuple) else mode


def desc_layout(c: _DescCase):
    """Every element of the instruction's tile is at the same byte both ways."""
    return _desc_steps(c, [(0, 0)], False)


def desc_k_advance(c: _DescCase):
    """Each K step's advanced start reads that K slice, and stays encodable."""
    return _desc_steps(c, [(j + 1, a) for j, a in enumerate(c.d.get("advance", []))], True)


DESC_RULES = {"descriptor-encoding": desc_encoding, "descriptor-base": desc_base, "descriptor-layout": desc_layout,
              "descriptor-k-advance": desc_k_advance}


def desc_rule(data: dict, name: str, obligation: str, env: dict):
    """``(status, witness)`` of one descriptor obligation at one assignment: refuted with its witness,
    proved, skipped (no K steps) or unknown (a layout type or tile the canonical layouts do not cover)."""
    c = _DescCase(data, name, env)
    if obligation == "descriptor-k-advance" and not c.d.get("advance"):
        return SKIPPED, None
    if obligation != "descriptor-encoding":
        if c.invalid():
            return REFUTED, {"static": f"layout type {c.raw['layout_type']} is invalid on {c.arch}"}
        why = c.unmodelled()
        if why is None and obligation != "descriptor-base":
            combination = desc_combination(c.d["major"], c.mode, 8 * c.esize, c.arch)
            if combination:
                return REFUTED, {"static": combination}
            why = c.untiled()
        if why is not None:
            return Verdict.UNKNOWN, {"unmodelled": why}
    w = DESC_RULES[obligation](c)
    return (PROVED, None) if w is None else (REFUTED, w)


def descriptors(data: dict, symbol_values: list | None = None, limit: int = 4096) -> dict:
    """Every descriptor obligation of a descriptor file's data by enumeration: ``{descriptor: {obligation:
    (status, witness)}}`` over ``symbol_values`` (else ``desc_assignments``): refuted where some assignment
    refutes it, else unknown or skipped where one is, else proved."""
    envs = symbol_values if symbol_values is not None else desc_assignments(data, limit)[0]
    rank = {PROVED: 0, SKIPPED: 1, Verdict.UNKNOWN: 2, REFUTED: 3}
    out = {}
    for name in data.get("descriptors", {}):
        got = {o: (PROVED, None) for o in DESC_ORDER}
        for env in envs:
            for o in DESC_ORDER:
                if got[o][0] == REFUTED:
                    continue
                status, w = desc_rule(data, name, o, env)
                if rank[status] > rank[got[o][0]]:
                    got[o] = (status, w)
        out[name] = got
    return out


def desc_violation_at(data: dict, name: str, obligation: str, cex: dict) -> str | None:
    """Replay a refutation's counterexample: None when it is a violation at its symbol values (symbols it
    does not name at their least allowed value), else why not."""
    env = dict(cex.get("symbols") or {})
    for s, spec in data.get("symbols", {}).items():
        if s not in env:
            m = spec.get("multiple_of", 1)
            env[s] = -(-spec.get("min", 0) // m) * m
    if not desc_allowed(data, env):
        return f"symbol values {env} are not allowed by the symbols' ranges"
    status, w = desc_rule(data, name, obligation, env)
    if status != REFUTED:
        return f"{obligation} is {status} at {env}"
    if "index" in cex and "static" not in w:
        c = _DescCase(data, name, env)
        j, (i, kj) = cex.get("k_step", 0), cex["index"]
        adv = 0 if j == 0 else desc_value(c.d["advance"][j - 1], env)
        if not (0 <= i < c.tile[0] and j * c.tile[1] <= kj < (j + 1) * c.tile[1]):
            return f"element {cex['index']} is not in K step {j}'s tile"
        if c.declared(i, kj) == c.read(((c.raw["start"] << 4) + adv) & _WORD, i, kj - j * c.tile[1]):
            return f"element {cex['index']} is read where it is declared"
    return None
