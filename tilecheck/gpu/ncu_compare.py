"""tilecheck's wavefront and sector counts against ncu's counters, on emitted kernels.

    python -m tilecheck.gpu.ncu_compare prepare --out DIR [--shared 560 --global 240 --matrix 0 --seed 1]
    python -m tilecheck.gpu.ncu_compare measure DIR        # on the GPU machine: one process under ncu
    python -m tilecheck.gpu.ncu_compare report DIR         # compare a saved run again (no GPU)

``prepare`` (no GPU) draws concrete check files from ``tilecheck.strategies`` (one ld or st apply of
shared or global memory, warp or cta scope, sm_90), proves them, emits each proved one with
``tilecheck.emit.kernel``, links all kernels into one module assembled by ptxas (``kernels.cubin``),
checks with nvdisasm that every kernel holds the SASS memory instructions its PTX spells (else it is
dropped, and counted), and writes ``cases.json``: per kernel its launch (threads, parameter buffer
sizes) and its *prediction*.

The prediction of a kernel is ``tilecheck.memory_model`` summed over every warp-instruction of the
kernel that touches shared or global memory — not only the apply: the emitted kernel also fills each
shared array from its buffer and copies it back (cooperative scalar loops), reads a register tile
from its buffer before a store and writes a loaded one back (``tilecheck/emit/kernel.py``).  Each
source of traffic is enumerated at concrete addresses (the reference's evaluation of the views and
layouts, ``tilecheck.gpu.reference``), each shared array at a multiple of 128 bytes and each global
buffer at a multiple of 4096 (the launch places them so), and the four counters are predicted:
shared wavefronts (ld, st) and global sectors (ld, st).  A kernel is judged on the counter its apply
falls in (its apply plus the loop of the same kind); the other three are compared too and reported.

``measure`` runs ``python -m tilecheck.gpu.ncu_compare child DIR`` under ``ncu`` (one process, every
kernel launched once, ``ncu_csv.profile``), matches rows to kernels by name, prints the table and
ends with ``predicted == measured: N/N shared, M/M global``.  The peer, ``tensor-layouts``
(``bank_conflicts`` max_ways per warp-instruction, ``segment_analysis`` 32-byte segments), is
evaluated in ``prepare`` where its layouts can express the access (see ``peer_numbers``), and
``measure`` prints how often its number equals the counter next to ours.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import accesses, families, memory_model as mm, tools
from ..check import from_dict
from ..crd2idx import Ints
from ..emit import kernel
from ..emit.kernel import _pow2_align, dynamic_shared_bytes, dynamic_tensors
from ..emit.operand import copies
from ..emit.registers import register_copies
from ..emit.sass import SASS_CLASS
from ..expr import evaluate
from ..layout import OFFSET as _OFF
from ..report import prove
from . import ncu_csv, runner
from .ncu_csv import LOAD, STORE
from .ncu_probe import sass_counts
from .reference import (_coords, _cta_values, _evaluate_layout, _index, _inside, _issuers, bind_symbols, buffer_sizes,
                        ctaid_symbols)

PREFIX = "tcnc_"
GLOBAL_ALIGN = 4096  # every parameter buffer starts at a multiple of this
COUNTERS = {(sp, o): (ncu_csv.SHARED_WAVEFRONTS if sp == "shared" else ncu_csv.GLOBAL_SECTORS)[o]
            for sp in ("shared", "global") for o in ncu_csv.OPS}
KEYS = [f"{s}_{o}" for s, o in COUNTERS]  # shared_ld, shared_st, global_ld, global_st
# the SASS instruction of a load or store (the kernel's fill and copy-back loops, register copies)
SASS = {(sp, o): SASS_CLASS[(o, sp)] for sp, o in COUNTERS}


class Unpredictable(Exception):
    """The kernel holds traffic this module does not model (cp.async, atomics, ...)."""


@dataclass
class Traffic:
    """One source of memory traffic of a kernel: its warp-instructions' ``{lane: byte address}``."""
    source: str  # "apply[0]", "fill A", "copy-back A", "register fill R", "register write-back R"
    space: str
    op: str
    width: int
    warps: list = field(default_factory=list)  # one {lane: address} per warp-instruction
    per_thread: int = 0  # static instructions per thread (the SASS count it should give)
    matrix: int = 0  # a "rows" apply's matrices (families' ncu_traffic): lanes 8i..8i+7 give matrix i's rows
    sass: str = ""  # its SASS instruction, when not SASS[space, op] nor op.upper() (LDSM, STSM)
    issues: bool = True  # False: a copy's global side, issued by its shared side's instruction

    @property
    def key(self) -> str:
        return f"{self.space}_{self.op}"

    @property
    def judged(self) -> bool:
        """Counted by one of the four compared counters (ncu counts cp.async's LDGSTS apart)."""
        return self.key in KEYS

    def count(self) -> int:
        if self.matrix:
            return sum(mm.matrix_wavefronts(w, self.matrix) for w in self.warps)
        if self.space == "shared":
            return sum(mm.wavefronts(w, self.width, self.op if self.op in ncu_csv.OPS else STORE) for w in self.warps)
        return sum(mm.sectors(w, self.width) for w in self.warps)

    def ideal(self) -> int:
        if self.matrix:
            return self.matrix * len(self.warps)
        if self.space == "shared":
            return sum(mm.ideal_wavefronts(w, self.width, self.op) for w in self.warps)
        return sum(mm.ideal_sectors(w, self.width) for w in self.warps)


# prediction ------------------------------------------------------------------------

def _grouped(threads, keys, addrs) -> list[dict]:
    """Warp-instructions: (warp, key) -> {lane: address}."""
    out: dict = defaultdict(dict)
    for t, k, a in zip(threads.tolist(), keys.tolist(), addrs.tolist()):
        out[(t // 32, k)][t % 32] = a
    return [out[k] for k in sorted(out)]


def _apply_points(check, a, view, env):
    """(issuing thread, repeat index, word index, logical index of ``view``) of every point of ``a``."""
    shape = tuple(int(x) for x in a.memory.shape)
    coords = _coords(shape)
    g = len(check.group_shape(a.scope))
    issuers = _issuers(check, a, coords[:g])
    n = len(coords[0])
    rep_shape = shape[g:-1]
    rep = np.ravel_multi_index(tuple(coords[g:-1]), rep_shape) if rep_shape else np.zeros(n, dtype=np.int64)
    word = coords[-1]
    idx = _index(view, coords, env)
    thr = np.broadcast_to(issuers, (issuers.shape[0], n))
    r = thr.shape[0]
    return thr.ravel(), np.tile(rep, r), np.tile(word, r), tuple(np.tile(i, r) for i in idx), n


def _how(a) -> str | None:
    """How ``a``'s traffic is predicted: its family's ``ncu_traffic``."""
    return families.of(a.opcode).ncu_traffic


def _direction(a) -> str:
    """ncu's op of ``a``'s memory access: a load when the memory operand is the source."""
    return LOAD if a.is_load else STORE


def _supported(check, a):
    if copies(a):
        if _how(a) != "copy":
            raise Unpredictable(f"apply[{a.index}] copies memory to memory ({a.opcode.text}): not modelled")
        return  # a copy: its traffic is listed, not judged (its shared side has counters of its own)
    if _how(a) not in ("lanes", "rows"):
        raise Unpredictable(f"apply[{a.index}]: {a.opcode.text} is not a plain ld/st")


def traffic(check, env: dict, shared_bases: dict | None = None) -> list[Traffic]:
    """Every shared/global warp-instruction of ``check``'s emitted kernel at symbol values ``env``
    (one CTA per value of the CTA-bound symbols), grouped by source.  ``shared_bases``: each shared
    array's byte address (default 0: a multiple of 128)."""
    for a in check.applies:
        _supported(check, a)
    bases = dict(shared_bases or {})
    end = 0
    for t in dynamic_tensors(check):  # the kernel's placement in the dynamic array
        al = _pow2_align(t)
        end = -(-end // al) * al
        bases.setdefault(t.name, end)
        end += t.layout.cosize(env, t.offset) * t.esize
    out: dict[str, Traffic] = {}

    def add(source, space, op, width, warps, per_thread, **kw):
        tr = out.setdefault(source, Traffic(source, space, op, width, [], per_thread, **kw))
        tr.warps += warps

    used = {a.memory.tensor for a in check.applies}
    T = check.threads
    for cta in _cta_values(check, env):
        e = {**env, **cta}
        for name, t in check.tensors.items():  # the fill and copy-back loops
            if name not in used or t.scope not in ("shared", "local"):
                continue
            n = t.layout.cosize(e, t.offset)
            base = bases.get(name, 0)
            if t.scope == "shared":
                tid = np.arange(T, dtype=np.int64)
                fill_g, fill_s, back_s, back_g = [], [], [], []
                for k in range(-(-n // T)):
                    i = tid + k * T
                    act = tid[i < n]
                    for w in sorted(set((act // 32).tolist())):
                        lanes = act[act // 32 == w]
                        g = {int(l % 32): int((l + k * T) * t.esize) for l in lanes}
                        s = {l: a + base for l, a in g.items()}
                        fill_g.append(g), fill_s.append(s), back_s.append(s), back_g.append(g)
                add(f"fill {name} (ld.global)", "global", LOAD, t.esize, fill_g, 1)
                add(f"fill {name} (st.shared)", "shared", STORE, t.esize, fill_s, 1)
                add(f"copy-back {name} (ld.shared)", "shared", LOAD, t.esize, back_s, 1)
                add(f"copy-back {name} (st.global)", "global", STORE, t.esize, back_g, 1)
            else:  # local: every thread reads the whole buffer; thread 0 writes it back
                warps = -(-T // 32)
                fill = [{l: k * t.esize for l in range(min(32, T - 32 * w))} for k in range(n) for w in range(warps)]
                add(f"fill {name} (ld.global)", "global", LOAD, t.esize, fill, 1)
                add(f"copy-back {name} (st.global)", "global", STORE, t.esize, [{0: k * t.esize} for k in range(n)], 1)
        fills, writes = register_copies(check)
        seen: dict = defaultdict(set)
        for which, a in [("fill", a) for a in fills] + [("write-back", a) for a in writes]:
            t = check.tensors[a.register.tensor]
            thr, rep, word, idx, _ = _apply_points(check, a, a.register, e)
            rshape = tuple(int(evaluate(s, e)) for s in t.shape)
            flat = np.ravel_multi_index(idx, rshape)
            keys = rep * 1024 + word
            groups = defaultdict(dict)
            for th, k, f in zip(thr.tolist(), keys.tolist(), flat.tolist()):
                groups[k][th] = f * t.esize
            kept = []
            for k in sorted(groups):
                sig = tuple(sorted(groups[k].items()))
                if which == "write-back" and sum(b.register.tensor == t.name for b in writes) > 1:
                    if sig in seen[t.name]:
                        continue  # the kernel writes one element once (kernel.register_copy's ``seen``)
                    seen[t.name].add(sig)
                kept.append(groups[k])
            warps = []
            for g in kept:
                per = defaultdict(dict)
                for th, ad in g.items():
                    per[th // 32][th % 32] = ad
                warps += [per[w] for w in sorted(per)]
            add(f"register {which} {t.name} (apply[{a.index}])", "global", LOAD if which == "fill" else STORE,
                t.esize, warps, len(kept))
        for a in check.applies:  # the applications themselves
            if _how(a) == "copy":
                for *side, kw in _copy_traffic(check, a, e, bases):
                    add(*side, **kw)
                continue
            if _how(a) == "rows":
                tr = _matrix_traffic(check, a, e, bases.get(a.memory.tensor, 0))
                out.setdefault(tr.source, tr) if tr.source not in out else out[tr.source].warps.extend(tr.warps)
                continue
            t = check.tensors[a.memory.tensor]
            if t.scope not in ("shared", "global"):
                continue
            thr, rep, word, idx, n = _apply_points(check, a, a.memory, e)
            off = _evaluate_layout(t, idx, e)[_OFF]
            keep = word == 0
            inside = _inside(check, a, _coords(tuple(int(x) for x in a.memory.shape)), e)
            if inside is not None:  # guard = true: a guarded-out atom's lane does not execute (inactive)
                keep = keep & np.tile(inside, len(thr) // n)
            width = int(a.memory.shape[-1]) * t.esize
            addr = off[keep] * t.esize + (bases.get(t.name, 0) if t.scope == "shared" else 0)
            warps = _grouped(thr[keep], rep[keep], addr)
            add(f"apply[{a.index}] {a.opcode.text}", t.scope, _direction(a), width, warps, len(set(rep.tolist())))
    return list(out.values())


def _row_width(a) -> int:
    """Bytes of one row of a "rows" apply: its memory role's ``words`` elements."""
    return a.family.role(a.opcode, a.family.memory_role(a.opcode)).words * a.opcode.bits // 8


def _matrix_traffic(check, a, env: dict, base: int) -> Traffic:
    """A "rows" apply (ldmatrix/stmatrix, PTX ISA "ldmatrix"): each lane the memory role's ``lanes``
    name gives the address of one row, the ``_row_width`` bytes from where the view puts the
    element at the role's ``origin`` of that lane (ldmatrix: lane ``8i + r``, row r of matrix i,
    held by lane ``4r`` word ``2i``); every warp of the CTA issues it at every repeat."""
    t = check.tensors[a.memory.tensor]
    shape = tuple(int(x) for x in a.memory.shape)
    off = _evaluate_layout(t, _index(a.memory, _coords(shape), env), env)[_OFF]
    grid = np.asarray(off).reshape(shape[0], -1, shape[-1])
    op, fam = a.opcode, a.family
    role = fam.role(op, fam.memory_role(op))
    rows = [(g[0], w) for g, w in (role.origin([lane], Ints()) for lane in range(role.lanes))]
    per = [{lane: int(grid[l0, k, w0]) * t.esize + base for lane, (l0, w0) in enumerate(rows)}
           for k in range(grid.shape[1])]
    warps = per * max(1, check.threads // 32)
    return Traffic(f"apply[{a.index}] {op.text}", "shared", _direction(a), _row_width(a), warps,
                   grid.shape[1], matrix=fam.matrices(op), sass=fam.sass(op, "shared"))


def _copy_traffic(check, a, env: dict, bases: dict) -> list:
    """A copy's (cp.async's) two sides: the global source, read as global *load* sectors (judged), and
    the shared destination, listed but not judged (ncu counts LDGSTS's shared writes apart, keyed by
    the family's SASS instruction); a guarded-out copy reads nothing (src-size 0) and still
    zero-fills its destination."""
    out = []
    fam = a.family
    for acc in accesses.memory(check.accesses_of(a)):
        view = acc.view
        t = check.tensors[view.tensor]
        thr, rep, word, idx, n = _apply_points(check, a, view, env)
        off = _evaluate_layout(t, idx, env)[_OFF]
        keep = word == 0
        if acc.guard:  # the guarded side: a guarded-out atom is not accessed
            inside = _inside(check, a, _coords(tuple(int(x) for x in view.shape)), env)
            keep &= np.tile(inside, len(thr) // len(inside))
        addr = off[keep] * t.esize + (bases.get(t.name, 0) if t.scope == "shared" else 0)
        width = int(view.shape[-1]) * t.esize
        # measured on the H200 (tilecheck run --profile, docs/efficiency.md): LDGSTS's global reads are in
        # the global *load* sectors (judged); its shared writes are in none of the four counters (listed)
        sass = fam.sass(a.opcode, t.scope)
        out.append((f"apply[{a.index}] {a.opcode.text} ({t.scope} side)", t.scope,
                    LOAD if t.scope == "global" else sass.lower(), width,
                    _grouped(thr[keep], rep[keep], addr), len(set(rep.tolist())) if t.scope == "shared" else 0,
                    {"issues": False} if t.scope == "global" else {}))
    return out


def issued(ptx: str, a) -> int:
    """The memory instructions per thread the kernel text holds for apply ``a`` (its block after the
    ``// apply[i]: N instructions per thread`` line, less a guarded load's zeroing ``mov``s): a guarded
    repeat whose guard never holds has none (``emit/fragment.instructions``)."""
    lines = ptx.splitlines()
    head = next(i for i, line in enumerate(lines) if line.strip().startswith(f"// apply[{a.index}]:"))
    n = int(lines[head].split(":", 1)[1].split()[0])
    body = [line.strip() for line in lines[head + 1:head + 1 + n]]
    return sum(1 for line in body if line.split()[1 if line.startswith("@") else 0] == a.opcode.text)


def counters(items: list[Traffic]) -> dict[str, int]:
    out = {k: 0 for k in KEYS}
    for tr in items:
        if tr.judged:
            out[tr.key] += tr.count()
    return out


def sass_expected(items: list[Traffic]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for tr in items:
        if not tr.issues:
            continue  # one LDGSTS per copy, counted with its shared side
        out[_sass_op(tr)] += tr.per_thread
    return {k: v for k, v in out.items() if v}


def _sass_op(tr: Traffic) -> str:
    # a side counted apart is keyed by its SASS instruction, lower-cased (a copy's shared side: "ldgsts")
    return tr.sass or SASS.get((tr.space, tr.op)) or tr.op.upper()


def sass_loops(items: list[Traffic]) -> list[str]:
    """The SASS instructions a fill or copy-back *loop* issues: ptxas may unroll a loop, so the kernel
    may hold more of them than the one per loop ``sass_expected`` counts."""
    return sorted({_sass_op(tr) for tr in items if tr.source.startswith(("fill ", "copy-back "))})


# the peer: tensor-layouts -------------------------------------------------------------

def _bit_linear(f: dict) -> list[int] | None:
    """Strides ``s_k`` with ``f(lane) = f(0) + sum bit_k(lane) * s_k`` for lanes 0-31, or None."""
    if set(f) != set(range(32)):
        return None
    s = [f[1 << k] - f[0] for k in range(5)]
    for lane in range(32):
        if f[lane] != f[0] + sum(s[k] for k in range(5) if lane >> k & 1):
            return None
    return s


def peer_numbers(check, env: dict, apply_index: int = 0) -> dict:
    """The peer's count for apply ``apply_index``, summed over its warp-instructions: for shared memory
    ``bank_conflicts(...)['max_ways']``, for global ``segment_analysis(...)['segments']`` (32-byte
    segments; ``coalescing_efficiency``'s 128-byte ``transactions`` are kept beside it).  A
    warp-instruction is given to the peer as the CuTe layout ``((2,2,2,2,2),V):((s0..s4),sv)`` of
    element offsets (thread mode, value mode), which exists when every lane is active, the offsets are
    a sum of per-lane-bit strides and the V elements of a lane are ``sv`` apart; the absolute base is
    dropped (a Layout has none): exact for the peer when it is a multiple of 4 bytes (shared; banks
    are only permuted; Python's floor division keeps negative offsets consistent) — else, and where no
    such layout exists, the peer cannot express it."""
    try:
        from tensor_layouts import Layout
        from tensor_layouts.analysis import bank_conflicts, coalescing_efficiency, segment_analysis
    except ImportError:  # the peer is optional (the test extra installs it)
        return {"expressible": None, "why": "tensor-layouts is not installed (pip install tensor-layouts==0.3.2)"}
    a = check.applies[apply_index]
    if accesses.guarded(check.accesses_of(a)):  # a layout has no inactive lanes
        return {"expressible": False, "why": "a guarded apply: its guarded-out lanes are inactive"}
    t = check.tensors[a.memory.tensor]
    thr, rep, word, idx, _ = _apply_points(check, a, a.memory, env)
    off = _evaluate_layout(t, idx, env)[_OFF]
    V = int(a.memory.shape[-1])
    inst: dict = defaultdict(dict)
    for th, r, w, o in zip(thr.tolist(), rep.tolist(), word.tolist(), off.tolist()):
        inst[(th // 32, r)].setdefault(th % 32, {})[w] = o
    total, lines = 0, 0
    for key in sorted(inst):
        lanes = inst[key]
        f = {l: v[0] for l, v in lanes.items()}
        s = _bit_linear(f)
        if s is None:
            return {"expressible": False, "why": "the lanes' offsets are not a CuTe layout of the lane"}
        sv = (lanes[0][1] - lanes[0][0]) if V > 1 else 1
        if any(v[w] != v[0] + w * sv for v in lanes.values() for w in range(V)):
            return {"expressible": False, "why": "a lane's vector elements are not evenly spaced"}
        base = f[0]
        if t.scope == "shared" and (base * t.esize) % 4:
            return {"expressible": False, "why": "the base offset is not a multiple of 4 bytes"}
        lay = Layout(((2, 2, 2, 2, 2), V), (tuple(s), sv))
        if t.scope == "shared":
            total += bank_conflicts(lay, element_bytes=t.esize)["max_ways"]
        else:
            total += segment_analysis(lay, element_bytes=t.esize)["segments"]
            lines += coalescing_efficiency(lay, element_bytes=t.esize)["transactions"]
    out = {"expressible": True, "apply": total}
    if t.scope == "global":
        out["transactions"] = lines
    return out


# one kernel -----------------------------------------------------------------------------

MAX_BUFFER_BYTES = 1 << 30  # a drawn kernel whose buffers need more is skipped (huge strides prove fine)


def case_record(check, plan, name: str, env: dict, source: str = "") -> dict:
    """Everything ``measure`` needs about one kernel, and its prediction."""
    ptx = kernel(plan, name=name)
    items = traffic(check, env)
    for a in check.applies:  # a guarded apply holds no instruction for a repeat its guard never allows
        if accesses.guarded(check.accesses_of(a)):
            for tr in items:
                if tr.source.startswith(f"apply[{a.index}] "):
                    tr.per_thread = issued(ptx, a)
    sizes = buffer_sizes(check, env)
    params = [["ptr", int(sizes[n]) * check.tensors[n].esize] for n in check.tensors]
    params += [["s64", int(env[s.name])] for s in check.symbols.values() if not s.source]
    # judged: the counter of the last apply that is not a copy (cp.async's LDGSTS is counted apart)
    a = next((b for b in reversed(check.applies) if _how(b) != "copy"), check.applies[0])
    space = check.tensors[a.memory.tensor].scope
    kind = a.family.name if _how(a) == "copy" else _direction(a)  # a copy has no direction: its family's name
    return {"name": name, "source": source, "ptx": ptx, "threads": check.threads,
            "grid": len(_cta_values(check, env)), "ctaid": bool(ctaid_symbols(check)),
            "dynamic_shared": dynamic_shared_bytes(check, env), "params": params,
            "space": space, "op": kind, "scope": a.scope, "opcode": a.opcode.text,
            "width": _row_width(a) if _how(a) == "rows" else
            int(a.memory.shape[-1]) * check.tensors[a.memory.tensor].esize,
            "judged": f"{space}_{kind}", "predicted": counters(items),
            "ideal": {k: sum(tr.ideal() for tr in items if tr.key == k) for k in KEYS},
            "breakdown": [[tr.source, tr.key, tr.width, len(tr.warps), tr.count(), tr.ideal()] for tr in items],
            "sass": sass_expected(items), "sass_loops": sass_loops(items)}


# prepare -------------------------------------------------------------------------------------

# the "rows" families' cells (ldmatrix, stmatrix): (space, draw name, scope)
ROW_CELLS = [c for f in dict.fromkeys(families.FAMILIES.values()) for c in f.ncu_cells]


def cells(matrix: bool = False) -> list[tuple[str, str, str]]:
    """(space, kind, scope) cells, each drawn in equal share; ``matrix``: the ``ROW_CELLS`` too
    (ldmatrix and stmatrix: a separate quota, warp scope)."""
    out = [(sp, k, sc) for sp in ("shared", "global") for k in ncu_csv.OPS for sc in ("warp", "cta")]
    return out + (list(ROW_CELLS) if matrix else [])


def _cell_of(rec: dict) -> tuple[str, str, str]:
    kind = rec["opcode"].split(".")[0]
    return rec["space"], kind if kind in {k for _, k, _ in ROW_CELLS} else rec["op"], rec["scope"]


def prepare(out: Path, shared: int = 560, global_: int = 240, seed: int = 1, timeout: float = 5.0,
            budget_s: float = 1200.0, log=print, matrix: int = 0) -> dict:
    """Draw, prove, emit and predict ``shared`` + ``global_`` kernels into ``out`` (see the module doc)."""
    from ..strategies import checks, sample
    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    want = {"shared": shared, "global": global_}
    records, stats = [], defaultdict(int)
    rng = random.Random(seed)
    widths = defaultdict(int)
    quota = {}
    for sp in want:  # an equal share per (kind, scope) cell
        mine = [c for c in cells() if c[0] == sp]
        for k, c in enumerate(mine):
            quota[c] = want[sp] // len(mine) + (k < want[sp] % len(mine))
    for k, c in enumerate(ROW_CELLS):  # ldmatrix, stmatrix: the matrix quota
        quota[c] = matrix // len(ROW_CELLS) + (k < matrix % len(ROW_CELLS))
    have = defaultdict(int)
    while any(have[c] < quota[c] for c in quota):
        if time.perf_counter() - t0 > budget_s:
            log(f"note: stopped drawing after {budget_s:.0f} s")
            break
        for cell in quota:
            space, kind, scope = cell
            if have[cell] >= quota[cell]:
                continue
            if cell in ROW_CELLS:
                strategy = checks(max_points=512, max_applies=1, scopes=[scope], families=[kind], archs=["sm_90"])
            else:
                strategy = checks(max_points=512, max_applies=1, scopes=[scope], kinds=[kind], spaces=[space],
                                  archs=["sm_90"])
            draws = sample(24, rng.randrange(1 << 30), strategy)
            for data in draws:
                if have[cell] >= quota[cell]:
                    break
                stats["drawn"] += 1
                try:
                    check = from_dict(data)
                    report = prove(check, timeout=timeout)
                except Exception:  # noqa: BLE001  (a draw the loader refuses is simply skipped)
                    stats["not loaded"] += 1
                    continue
                if report.verdict != "proved":
                    stats[report.verdict] += 1
                    continue
                name = f"{PREFIX}{len(records):04d}"
                try:
                    env = bind_symbols(check)
                    rec = case_record(check, report.plan, name, env, source=json.dumps(data))
                    rec["peer"] = peer_numbers(check, env)
                except Unpredictable as e:
                    stats[f"not modelled: {e}"] += 1
                    continue
                except Exception as e:  # noqa: BLE001  (e.g. more than 48 KiB of static shared memory)
                    stats[f"emit/predict error: {type(e).__name__}"] += 1
                    continue
                if _cell_of(rec) != cell:
                    stats["other cell"] += 1
                    continue
                if sum(v for k, v in rec["params"] if k == "ptr") > MAX_BUFFER_BYTES:
                    stats["buffers over MAX_BUFFER_BYTES"] += 1  # proved, but too large to allocate here
                    continue
                records.append(rec)
                have[cell] += 1
                widths[(space, rec["op"], rec["width"])] += 1
    stats["seconds_draw_prove_emit"] = round(time.perf_counter() - t0, 1)
    dropped = assemble(records, out, log)
    stats["dropped_sass"] = len(dropped)
    records = [r for r in records if r["name"] not in dropped]
    if dropped:  # assemble again without them, so that the cubin holds only measured kernels
        assemble(records, out, log)
    (out / "cases.json").write_text(json.dumps({"cases": records, "stats": dict(stats)}, indent=0))
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    sh = sum(r["space"] == "shared" for r in records)
    log(f"{len(records)} kernels ({sh} shared, {len(records) - sh} global) in {out}; "
        f"{stats['drawn']} drawn, {stats['seconds']} s")
    log("widths (space op width: kernels): " + ", ".join(
        f"{s} {o} {w}: {n}" for (s, o, w), n in sorted(widths.items())))
    log("stats: " + json.dumps(dict(stats)))
    return {"cases": records, "stats": dict(stats)}


def assemble(records: list[dict], out: Path, log=print, arch: str = "sm_90") -> set[str]:
    """Link every kernel into ``out/kernels.ptx``, assemble ``out/kernels.cubin`` (sm_90) and return the
    kernels whose SASS memory instructions (nvdisasm) differ from the prediction's (``sass``)."""
    if not records:
        return set()
    ptx = runner.link_ptx([r["ptx"] for r in records])
    (out / "kernels.ptx").write_text(ptx)
    (out / "kernels.cubin").write_bytes(runner.ptxas(ptx, arch))
    try:
        nvdisasm = tools.find_tool("nvdisasm")
    except tools.ToolNotFound as e:
        log(f"note: SASS not checked: {e}")
        return set()
    r = subprocess.run([nvdisasm, "-c", str(out / "kernels.cubin")], capture_output=True, text=True)
    (out / "kernels.sass").write_text(r.stdout + r.stderr)
    counts = sass_counts(r.stdout)
    bad = set()
    for rec in records:
        got = {k: v for k, v in counts.get(rec["name"], {}).items() if v}
        loops = rec.get("sass_loops", [])  # an unrolled loop holds its access several times
        if set(got) != set(rec["sass"]) or any(got[k] != v and not (k in loops and got[k] > v)
                                               for k, v in rec["sass"].items()):
            bad.add(rec["name"])
            log(f"dropped {rec['name']}: SASS memory instructions {got}, the prediction assumes {rec['sass']}")
    return bad


# measure ------------------------------------------------------------------------------------------

def child(out: Path) -> int:
    """The process ncu profiles: load ``kernels.cubin`` and launch every kernel once, in order."""
    cases = json.loads((out / "cases.json").read_text())["cases"]
    g = runner.gpu()
    drv = g.drv
    print(f"device: {g.name} ({g.arch})", flush=True)
    module = drv.module_from_buffer((out / "kernels.cubin").read_bytes())
    need = max((sum(-(-max(p[1], 1) // GLOBAL_ALIGN) * GLOBAL_ALIGN + GLOBAL_ALIGN for p in c["params"]
                    if p[0] == "ptr") for c in cases), default=GLOBAL_ALIGN)
    pool = drv.mem_alloc(need + GLOBAL_ALIGN)
    base = -(-int(pool) // GLOBAL_ALIGN) * GLOBAL_ALIGN
    drv.memset_d8(int(pool), 0, need + GLOBAL_ALIGN)
    for c in cases:
        f = module.get_function(c["name"])
        args, cursor = [], base
        for kind, v in c["params"]:
            if kind == "ptr":
                args.append(np.uintp(cursor))
                cursor += -(-max(v, 1) // GLOBAL_ALIGN) * GLOBAL_ALIGN
            else:
                args.append(np.int64(v))
        f(*args, block=(c["threads"], 1, 1), grid=(c["grid"], 1), shared=c["dynamic_shared"])
        drv.Context.synchronize()
    print(f"launched {len(cases)} kernels", flush=True)
    return 0


def compare_rows(cases: list[dict], rows: dict) -> list[dict]:
    named = ncu_csv.by_kernel(rows)
    out = []
    for c in cases:
        got = named.get(c["name"])
        m = None
        if got:
            m = {k: ncu_csv.metric(got[-1], COUNTERS[tuple(k.split("_"))]) for k in KEYS}
        out.append({"case": c, "measured": m})
    return out


def table(results: list[dict]) -> str:
    lines = [f"{'kernel':<10} {'opcode':<28} {'scope':<5} {'w':>2} {'counter':<10} {'pred':>6} {'meas':>6} "
             f"{'peer':>6}  others"]
    tally = {"shared": [0, 0, 0, 0], "global": [0, 0, 0, 0]}  # ours ok, total, peer ok, peer expressible
    bad, missing, others_bad = [], [], 0
    for r in results:
        c, m = r["case"], r["measured"]
        j = c["judged"]
        if m is None:
            missing.append(c["name"])
            continue
        ok = m[j] == c["predicted"][j]
        others = [k for k in KEYS if k != j and m[k] != c["predicted"][k]]
        others_bad += bool(others)
        peer = c.get("peer", {})
        rest = c["predicted"][j] - next(b[4] for b in c["breakdown"] if b[0].startswith("apply["))
        pv = peer["apply"] + rest if peer.get("expressible") else None
        t = tally[c["space"]]
        t[0] += ok
        t[1] += 1
        if pv is not None:
            t[3] += 1
            t[2] += pv == m[j]
        lines.append(f"{c['name'][len(PREFIX):]:<10} {c['opcode']:<28} {c['scope']:<5} {c['width']:>2} {j:<10} "
                     f"{c['predicted'][j]:>6} {str(m[j]):>6} {'-' if pv is None else pv:>6}  "
                     f"{'ok' if not others else 'differ: ' + ','.join(others)}{'' if ok else '  MISMATCH'}")
        if not ok:
            bad.append(c)
    lines += ["", f"mismatches ({len(bad)}):"]
    lines += [f"  {c['name']}: {c['opcode']} {c['scope']} scope, {c['threads']} threads: predicted "
              f"{c['predicted'][c['judged']]} {c['judged']}, measured "
              f"{next(r['measured'] for r in results if r['case'] is c)[c['judged']]}; breakdown {c['breakdown']}; "
              f"check {c['source']}" for c in bad] or ["  none"]
    if missing:
        lines.append(f"no ncu row for {len(missing)} kernels: {', '.join(missing[:20])}")
    lines.append(f"kernels whose other three counters differ somewhere: {others_bad}")
    for sp in ("shared", "global"):
        t = tally[sp]
        lines.append(f"peer (tensor-layouts) {sp}: equals the counter on {t[2]}/{t[3]} kernels it can express "
                     f"({t[1]} kernels); tilecheck: {t[0]}/{t[1]}")
    lines.append(f"predicted == measured: {tally['shared'][0]}/{tally['shared'][1]} shared, "
                 f"{tally['global'][0]}/{tally['global'][1]} global")
    return "\n".join(lines)


def report(out: Path) -> int:
    data = json.loads((out / "cases.json").read_text())
    rows = ncu_csv.parse((out / "ncu_raw.csv").read_text(errors="replace"))
    results = compare_rows(data["cases"], rows)
    text = table(results)
    (out / "table.txt").write_text(text + "\n")
    (out / "results.json").write_text(json.dumps(
        [{"name": r["case"]["name"], "predicted": r["case"]["predicted"], "measured": r["measured"],
          "peer": r["case"].get("peer")} for r in results], indent=0))
    print(text)
    ok = all(r["measured"] and r["measured"][r["case"]["judged"]] == r["case"]["predicted"][r["case"]["judged"]]
             for r in results)
    return 0 if results and ok else 1


def measure(out: Path) -> int:
    if not (out / "cases.json").exists() or not (out / "kernels.cubin").exists():
        print(f"ncu_compare: error: {out}: no cases.json/kernels.cubin (run prepare first)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        ncu_csv.profile(["-m", "tilecheck.gpu.ncu_compare", "child", str(out)], out, f"^{PREFIX}")
    except ncu_csv.NcuError as e:
        print(f"ncu_compare: error: {e}", file=sys.stderr)
        return 2
    print(f"profiled in {time.perf_counter() - t0:.1f} s", flush=True)
    return report(out)


def profile(check, plan, env: dict, path: str, out: Path | None = None) -> int:
    """``tilecheck run --profile``: the proved kernel launched once under ncu (this process re-runs
    itself as ncu's child unless it is already profiled), printed per source of traffic (each apply,
    each fill and copy-back) with its predicted count, and per counter predicted against measured."""
    out = Path(out or tempfile.mkdtemp(prefix="tilecheck-profile-"))
    out.mkdir(parents=True, exist_ok=True)
    try:
        rec = case_record(check, plan, f"{PREFIX}profile", env, source=path)
    except Unpredictable as e:
        print(f"profile: not predicted: {e}")
        return 2
    (out / "cases.json").write_text(json.dumps({"cases": [rec], "stats": {}}, indent=0))
    try:  # the cubin the child loads must be the device's own (a file for sm_80 runs on an sm_90 via PTX only)
        arch = runner.gpu().arch
    except Exception:  # noqa: BLE001 -- no device here: the file's target
        arch = check.arch
    assemble([rec], out, log=lambda m: print(f"  note: {m}"), arch=arch)
    print(f"  profile ({'already under ncu' if ncu_csv.under_ncu() else 'ncu, one launch'}; files in {out}):")
    print(f"    {'source of traffic':<44} {'counter':<10} {'width':>5} {'warp-instr':>10} {'predicted':>9} {'ideal':>6}")
    for src, key, width, n, count, ideal in rec["breakdown"]:
        print(f"    {src:<44} {key:<10} {width:>5} {n:>10} {count:>9} {ideal:>6}")
    if ncu_csv.under_ncu():
        child(out)
        print("    measured: in the profiling ncu's own output (this process is its child)")
        return 0
    try:
        ncu_csv.profile(["-m", "tilecheck.gpu.ncu_compare", "child", str(out)], out, f"^{PREFIX}")
    except ncu_csv.NcuError as e:
        print(f"tilecheck: error: {e}", file=sys.stderr)
        return 2
    m = compare_rows([rec], ncu_csv.parse((out / "ncu_raw.csv").read_text(errors="replace")))[0]["measured"]
    if m is None:
        print(f"tilecheck: error: ncu printed no row for the kernel (raw output in {out})", file=sys.stderr)
        return 2
    ok = True
    print(f"    {'counter':<10} {'sources':<50} {'predicted':>9} {'measured':>9}")
    for k in KEYS:
        srcs = ", ".join(b[0].split(" (")[0] for b in rec["breakdown"] if b[1] == k) or "none"
        ok &= m[k] == rec["predicted"][k]
        print(f"    {k:<10} {srcs[:50]:<50} {rec['predicted'][k]:>9} {str(m[k]):>9}"
              f"{'' if m[k] == rec['predicted'][k] else '  MISMATCH'}")
    print(f"  profile: predicted {'==' if ok else '!='} measured on every counter")
    return 0 if ok else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tilecheck.gpu.ncu_compare", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare", help="draw, prove, emit and predict the kernels (no GPU)")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--shared", type=int, default=560, help="shared-memory kernels (default 560)")
    p.add_argument("--global", dest="global_", type=int, default=240, help="global-memory kernels (default 240)")
    p.add_argument("--matrix", type=int, default=0,
                   help=f"{'/'.join(k for _, k, _ in ROW_CELLS)} kernels (shared, warp scope; default 0), "
                        f"{'half' if len(ROW_CELLS) == 2 else 'a share'} of each")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=5.0, help="bound on each proof query")
    for name, help in (("measure", "run every kernel under ncu in one process and compare (GPU machine)"),
                       ("report", "compare a saved run again (no GPU)"), ("child", argparse.SUPPRESS)):
        q = sub.add_parser(name, help=help)
        q.add_argument("dir", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "prepare":
        if a.shared < 0 or a.global_ < 0 or a.matrix < 0:
            ap.error("--shared, --global and --matrix take a count >= 0")
        prepare(a.out, a.shared, a.global_, a.seed, a.timeout, matrix=a.matrix)
        return 0
    if a.cmd == "child":
        return child(a.dir)
    if a.cmd == "report":
        return report(a.dir)
    return measure(a.dir)


if __name__ == "__main__":
    sys.exit(main())
