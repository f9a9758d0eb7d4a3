"""Calibrate ``tilecheck.memory_model`` against the hardware's counters with PTX microkernels.

    python -m tilecheck.gpu.ncu_probe --out DIR             # build, run all under ncu, compare (GPU machine)
    python -m tilecheck.gpu.ncu_probe --out DIR --build-only # write the kernels and predictions only
    python -m tilecheck.gpu.ncu_probe --parse DIR            # compare a saved run again (no GPU)

Rounds (``--round``): 1, the calibration set; 2, lane sharing in 8- and 16-byte shared accesses; 3,
``ldmatrix``/``stmatrix`` (``probes_round3``: every lane gives a row address, no inactive lane;
LDSM counts in the shared-load counters, STSM in the shared-store ones).

Every probe kernel executes exactly one *profiled* memory instruction kind: one ``ld`` or ``st`` of
shared or global memory, of one type (``u8``, ``u16``, ``u32``, ``b64``, ``v2.b32``, ``v4.b32``,
``v2.b64``), ``repeats`` times, at per-thread byte offsets chosen by the probe's pattern.  A thread
finds its offset in a chain of ``selp`` on ``%tid.x`` (no memory access); ``0xffffffff - tid`` marks an
inactive thread (the access is predicated off).  Its other traffic is kept in the other space, whose
counters are not compared: a shared load's value goes to a global sink, a global load's to a shared
sink, a shared store is read back (a shared *load*) and sent to the global sink.  So the compared
counter of each kernel counts the profiled instruction alone:

* shared: ``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`` against
  ``memory_model.wavefronts`` summed over warps and repeats (and the bank-conflict counter against
  wavefronts less the ideal, shown but not judged);
* global: ``l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum`` against ``memory_model.sectors``
  (and requests against the number of warp-instructions with an active lane, shown but not judged).

The shared array is aligned to 1024 bytes and repeats are 8192 bytes apart, the global buffer is
aligned to 256 bytes and repeats 65536 bytes apart: the bank of a word and the sector of a byte do not
depend on either.  ``DIR`` receives ``probes.json`` (each probe: its offsets and predictions), the
PTX, ncu's raw CSV and output, and ``table.txt``.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from .. import families, memory_model as mm, tools
from ..emit.sass import SASS_CLASS
from . import ncu_csv, runner
from .ncu_csv import LOAD, STORE

INACTIVE = 0xFFFFFFFF
INACTIVE_FROM = 0x80000000  # an offset at or above it marks an inactive thread
# (the kernel compares with its parameter ``limit``, given this value: ptxas cannot fold a table of
# inactive threads alone into a constant predicate and remove the access)
TYPES = {  # PTX type of the access -> (bytes per thread, registers, register width)
    "u8": (1, 1, 32), "u16": (2, 1, 32), "u32": (4, 1, 32), "b64": (8, 1, 64),
    "v2.b32": (8, 2, 32), "v4.b32": (16, 4, 32), "v2.b64": (16, 2, 64),
}
SHARED_REPEAT = 8192
GLOBAL_REPEAT = 65536
SHARED_LIMIT = 48 * 1024
GLOBAL_BYTES = 1 << 20
PREFIX = "tcprobe_"
# the family of round 3 (ldmatrix/stmatrix): the one whose applies give row addresses ("rows")
ROWS = next(f for f in dict.fromkeys(families.FAMILIES.values()) if f.ncu_traffic == "rows")


def _row_op(op: str, ptype: str):
    """The parsed round-3 instruction of ncu op ``op`` and probe type ``ptype`` (``x4``, ``x4.trans``)."""
    return families.parse(ROWS.probe_instruction(op == LOAD, ptype))


def _row_sass(op: str) -> str:
    """The SASS instruction of a round-3 probe of ncu op ``op`` (LDSM, STSM)."""
    return ROWS.sass(_row_op(op, "x1"), "shared")


@cache
def _matrices(ptype: str) -> int:
    """The matrices of a round-3 probe type (its family's ``matrices``), 0 for an ld/st type (``TYPES``)."""
    return 0 if ptype in TYPES else ROWS.matrices(_row_op(LOAD, ptype))


def _row_bytes() -> int:
    """Bytes of one row of a round-3 probe: its memory role's ``words`` elements, one lane's address."""
    op = _row_op(LOAD, "x1")
    return ROWS.role(op, ROWS.memory_role(op)).words * op.bits // 8


ROW_BYTES = _row_bytes()


@dataclass
class Probe:
    name: str
    space: str  # "shared" or "global"
    op: str  # "ld" or "st"
    ptype: str  # a key of TYPES
    offsets: list  # per thread: a byte offset, or None (inactive)
    repeats: int = 1
    note: str = ""
    predicted: dict = field(default_factory=dict)

    @property
    def matrix(self) -> int:
        """Matrices of an ldmatrix (op "ld") / stmatrix (op "st") probe, 0 for an ld/st probe."""
        return _matrices(self.ptype)

    @property
    def width(self) -> int:
        return ROW_BYTES if self.matrix else TYPES[self.ptype][0]

    @property
    def instruction(self) -> str:
        if self.matrix:
            return ROWS.probe_instruction(self.op == LOAD, self.ptype)
        return f"{self.op}.{self.space}.{self.ptype}"

    @property
    def threads(self) -> int:
        return len(self.offsets)

    def warps(self, every_lane: bool = False) -> list[dict[int, int]]:
        """The active lanes' ``{lane: offset}`` of each warp (of a matrix probe: the lanes whose row
        address the instruction uses, ``8 * matrices`` of them, unless ``every_lane``)."""
        used = 8 * self.matrix if self.matrix and not every_lane else 32
        return [{lane: o for lane, o in enumerate(self.offsets[w:w + 32]) if o is not None and lane < used}
                for w in range(0, self.threads, 32)]

    def predict(self) -> dict:
        ws = self.warps()
        executed = sum(1 for w in ws if w) * self.repeats
        if self.matrix:  # the model under test, and two alternatives it is told apart from
            wf = sum(mm.matrix_wavefronts(w, self.matrix) for w in ws) * self.repeats
            ideal = sum(mm.ideal_wavefronts(w, ROW_BYTES) for w in ws) * self.repeats
            self.predicted = {
                "wavefronts": wf, "ideal": ideal, "conflicts": wf - ideal, "instructions": executed,
                "alt_pairs_merge": sum(mm.wavefronts(w, ROW_BYTES, LOAD) for w in ws) * self.repeats,
                "alt_every_lane": sum(mm.wavefronts(w, ROW_BYTES, STORE) for w in self.warps(True)) * self.repeats}
        elif self.space == "shared":
            wf = sum(mm.wavefronts(w, self.width, self.op) for w in ws) * self.repeats
            ideal = sum(mm.ideal_wavefronts(w, self.width, self.op) for w in ws) * self.repeats
            self.predicted = {"wavefronts": wf, "ideal": ideal, "conflicts": wf - ideal, "instructions": executed}
        else:
            sec = sum(mm.sectors(w, self.width) for w in ws) * self.repeats
            ideal = sum(mm.ideal_sectors(w, self.width) for w in ws) * self.repeats
            self.predicted = {"sectors": sec, "ideal": ideal, "requests": executed, "instructions": executed}
        return self.predicted

    @property
    def main_metric(self) -> str:
        return (ncu_csv.SHARED_WAVEFRONTS if self.space == "shared" else ncu_csv.GLOBAL_SECTORS)[self.op]

    @property
    def main_key(self) -> str:
        return "wavefronts" if self.space == "shared" else "sectors"


# patterns -------------------------------------------------------------------

def lanes(f, mask=None, threads: int = 32) -> list:
    """Offsets ``f(lane)`` (``f(tid)`` past the first warp), None where ``mask(lane)`` is false."""
    return [f(t) if mask is None or mask(t % 32) else None for t in range(threads)]


MASKS = {
    "lo16": lambda l: l < 16, "hi16": lambda l: l >= 16, "even": lambda l: l % 2 == 0,
    "one5": lambda l: l == 5, "q0q3": lambda l: l < 8 or l >= 24, "none": lambda l: False,
}


def probes() -> list[Probe]:
    """The calibration set (about 400 kernels: 300 shared, 120 global)."""
    out: list[Probe] = []

    def add(space, op, ptype, name, offs, repeats=1, note=""):
        out.append(Probe(f"{PREFIX}{len(out):03d}_{space[0]}{op}_{ptype.replace('.', '')}_{name}",
                         space, op, ptype, offs, repeats, note))

    rng = random.Random(12)
    for op in ncu_csv.OPS:
        for ptype, (w, _, _) in TYPES.items():
            g = max(w, 4)
            if ptype in ("u32", "b64", "v4.b32"):  # every conflict degree 1..32
                strides = sorted({w} | {4 << k for k in range(6 if w == 4 else 7) if (4 << k) % w == 0})
            else:
                strides = sorted({w} | {s for s in (4, 16, 128) if s % w == 0})
            for s in strides:
                add("shared", op, ptype, f"stride{s}", lanes(lambda l, s=s: l * s), note=f"lane*{s}")
            add("shared", op, ptype, "bcast", lanes(lambda l: 0), note="every lane one address")
            add("shared", op, ptype, "pairs", lanes(lambda l: (l // 2) * w), note="lanes 2j, 2j+1 one address")
            if w < 4:
                k = 4 // w
                add("shared", op, ptype, "subword_rows", lanes(lambda l, k=k: (l // k) * 128 + (l % k) * w),
                    note=f"{k} lanes share a word; the words in bank 0")
            add("shared", op, ptype, "half_partner", lanes(lambda l: (l % 16) * w + (l // 16) * 128),
                note="lane i and i+16: one bank, two words")
            add("shared", op, ptype, "neighbour", lanes(lambda l: (l % 2) * 128 + (l // 2) * w),
                note="lanes 2j and 2j+1: one bank, two words")
            add("shared", op, ptype, "quarter_partner", lanes(lambda l: (l % 8) * w + (l // 8) * 128),
                note="lanes i, i+8, i+16, i+24: one bank, four words")
            add("shared", op, ptype, "quarter_same", lanes(lambda l: (l % 8) * w),
                note="lanes i, i+8, i+16, i+24: one address")
            add("shared", op, ptype, "half_same", lanes(lambda l: (l % 16) * w), note="lane i and i+16: one address")
            add("shared", op, ptype, "half_bcast", lanes(lambda l: (l // 16) * 128), note="each half one address, one bank")
            for shift in sorted({w, 64}):
                add("shared", op, ptype, f"shift{shift}", lanes(lambda l, sh=shift: sh + l * w),
                    note=f"contiguous from byte {shift}")
            if ptype in ("u8", "u32", "b64", "v4.b32"):
                for m in ("lo16", "hi16", "even", "one5") + (("q0q3",) if w == 16 else ()):
                    add("shared", op, ptype, f"contig_{m}", lanes(lambda l: l * w, MASKS[m]), note=f"lane*{w}, {m}")
                    add("shared", op, ptype, f"row_{m}", lanes(lambda l: l * 128, MASKS[m]), note=f"lane*128, {m}")
            slots = list(range(0, 4096, g))
            add("shared", op, ptype, "random", lanes(lambda l, c=[rng.choice(slots) for _ in range(32)]: c[l]),
                note="random offsets")
        add("shared", op, "u32", "none", lanes(lambda l: 0, MASKS["none"]), note="no active lane")
        add("shared", op, "u32", "4warps_stride", lanes(lambda t: (t % 32) * (4 << (t // 32)), threads=128),
            note="warp k: lane*(4<<k)")
        add("shared", op, "v4.b32", "repeat3", lanes(lambda l: l * 16), 3, note="lane*16, 3 times")
        add("shared", op, "b64", "4warps_rows", lanes(lambda t: (t % 32) * 128 + (t // 32) * 8, threads=128),
            note="lane*128 + warp*8")

        for ptype in ("u8", "u16", "u32", "b64", "v4.b32"):
            w = TYPES[ptype][0]
            add("global", op, ptype, "contig", lanes(lambda l: l * w), note=f"lane*{w}")
            for s in (32, 64, 128):
                add("global", op, ptype, f"stride{s}", lanes(lambda l, s=s: l * s), note=f"lane*{s}")
            for shift in [sh for sh in (4, 8, 16) if sh % w == 0]:
                add("global", op, ptype, f"shift{shift}", lanes(lambda l, sh=shift: sh + l * w),
                    note=f"contiguous from byte {shift}")
            add("global", op, ptype, "bcast", lanes(lambda l: 0), note="every lane one address")
            for m in ("lo16", "even", "one5"):
                add("global", op, ptype, f"contig_{m}", lanes(lambda l: l * w, MASKS[m]), note=f"lane*{w}, {m}")
            add("global", op, ptype, "random",
                lanes(lambda l, c=[rng.randrange(0, 8192, w) for _ in range(32)]: c[l]), note="random offsets")
        add("global", op, "u32", "none", lanes(lambda l: 0, MASKS["none"]), note="no active lane")
        add("global", op, "u32", "4warps", lanes(lambda t: t * 4, threads=128), note="tid*4, 4 warps")
        add("global", op, "v4.b32", "repeat2", lanes(lambda l: l * 16 + 4096), 2, note="lane*16, 2 times")
    for p in out:
        p.predict()
    return out


def probes_round2() -> list[Probe]:
    """The second calibration round: 8- and 16-byte shared accesses whose lanes share addresses in
    every arrangement (aligned pairs, odd pairs, quads, pairs in one half only, pairs with one lane
    inactive, random addresses with random sharing), to pin down when lanes are merged."""
    out: list[Probe] = []
    rng = random.Random(2026)

    def add(space, op, ptype, name, offs, repeats=1, note=""):
        out.append(Probe(f"{PREFIX}r2_{len(out):03d}_{space[0]}{op}_{ptype.replace('.', '')}_{name}",
                         space, op, ptype, offs, repeats, note))

    for op in ncu_csv.OPS:
        for ptype in ("u32", "b64", "v2.b32", "v4.b32", "v2.b64", "u16"):
            w = TYPES[ptype][0]
            g = max(w, 4)
            slots = list(range(0, 4096, g))
            add("shared", op, ptype, "pairs_half0", lanes(lambda l: (l // 2) * w if l < 16 else l * w),
                note="aligned pairs share in lanes 0-15 only")
            add("shared", op, ptype, "pairs_half1", lanes(lambda l: (l // 2) * w + 512 if l >= 16 else l * w),
                note="aligned pairs share in lanes 16-31 only")
            add("shared", op, ptype, "odd_pairs", lanes(lambda l: ((l + 1) // 2) * w),
                note="lanes 2j+1, 2j+2 share an address")
            add("shared", op, ptype, "quads", lanes(lambda l: (l // 4) * w), note="lanes 4j..4j+3 share")
            add("shared", op, ptype, "octets", lanes(lambda l: (l // 8) * w), note="lanes 8j..8j+7 share")
            add("shared", op, ptype, "pairs_stride128", lanes(lambda l: (l // 2) * 128),
                note="aligned pairs share, pairs 128 B apart (one bank)")
            add("shared", op, ptype, "pairs_stride2w", lanes(lambda l: (l // 2) * 2 * w),
                note="aligned pairs share, pairs 2w apart")
            add("shared", op, ptype, "pairs_but_one", lanes(lambda l: (l // 2) * w + (64 * w if l == 31 else 0)),
                note="aligned pairs share except lane 31")
            add("shared", op, ptype, "pairs_odd_active", lanes(lambda l: (l // 2) * w, MASKS["even"]),
                note="pairs, only even lanes")
            add("shared", op, ptype, "pair_swap", lanes(lambda l: (l ^ 1) * w), note="lane l reads (l^1)*w")
            add("shared", op, ptype, "lo16_pairs", lanes(lambda l: (l // 2) * w, MASKS["lo16"]),
                note="pairs, lanes 0-15 only")
            add("shared", op, ptype, "half_swap", lanes(lambda l: (l ^ 16) * w), note="lane l at (l^16)*w")
            for k in range(10):
                base = [rng.choice(slots) for _ in range(16)]
                add("shared", op, ptype, f"rand_pairs{k}", lanes(lambda l, b=base: b[l // 2]),
                    note="random, aligned pairs share")
            for k in range(4):
                base = [rng.choice(slots[:64]) for _ in range(32)]
                add("shared", op, ptype, f"rand_dense{k}", lanes(lambda l, b=base: b[l]),
                    note="random in 256 B: much sharing")
            for k in range(4):
                base = [rng.choice(slots) for _ in range(16)]
                add("shared", op, ptype, f"rand_mixed{k}",
                    lanes(lambda l, b=base: b[l // 2] + (g * 64 if (l % 2 and l // 2 in (3, 9)) else 0)),
                    note="random pairs, two pairs split")
    for p in out:
        p.predict()
    return out


def probes_round3() -> list[Probe]:
    """The third round: ``ldmatrix``/``stmatrix`` ``.m8n8.x{1,2,4}`` (and ``.trans``), every lane giving
    a 16-byte row address (lanes ``8i..8i+7``: matrix ``i``).  Row patterns: contiguous, row pitches
    that put 1 to 8 rows of a matrix in one bank, padded and XOR-swizzled tiles (CuTe's ``Sw<3,4,3>``
    on 128-byte rows), broadcast and shared rows, matrices that collide with each other but not
    within, unused lanes (past ``8 * num``) at conflicting addresses, random rows, several warps and
    repeats.  The model under test is ``memory_model.matrix_wavefronts`` (one phase per matrix);
    ``alt_pairs_merge`` (the 16-byte load pair rule) and ``alt_every_lane`` (unused lanes counted)
    are predicted too, to tell the candidates apart."""
    out: list[Probe] = []
    rng = random.Random(75)

    def add(op, num, name, offs, repeats=1, note="", trans=False):
        ptype = f"x{num}" + (".trans" if trans else "")
        out.append(Probe(f"{PREFIX}r3_{len(out):03d}_{_row_sass(op).lower()}_{ptype.replace('.', '')}"
                         f"_{name}", "shared", op, ptype, offs, repeats, note))

    R = ROW_BYTES
    swz = lambda o: o ^ (((o >> 7) & 7) << 4)  # noqa: E731  Sw<3,4,3> on bytes: row r's 16-byte chunk ^= r % 8
    for op in ncu_csv.OPS:
        for num in (1, 2, 4):
            add(op, num, "contig", lanes(lambda l: l * R), note="rows contiguous: 128 B per matrix")
            for pitch in (32, 48, 64, 80, 128, 144, 256, 272, 1024):
                add(op, num, f"pitch{pitch}", lanes(lambda l, p=pitch: (l % 8) * p + (l // 8) * 8 * p),
                    note=f"row pitch {pitch} B")
            add(op, num, "tile_col", lanes(lambda l: (l % 8) * 128 + (l // 8) * 16),
                note="8x8 blocks side by side in a 64-wide half tile (row pitch 128): 8 rows, one bank")
            add(op, num, "tile_col_swz", lanes(lambda l: swz((l % 8) * 128 + (l // 8) * 16)),
                note="the same, Sw<3,4,3>")
            add(op, num, "tile_row_swz", lanes(lambda l: swz(l * 128)), note="rows 128 B apart, Sw<3,4,3>")
            add(op, num, "bcast", lanes(lambda l: 0), note="every lane one row")
            add(op, num, "pairs", lanes(lambda l: (l // 2) * R), note="lanes 2j, 2j+1 one row")
            add(op, num, "pairs128", lanes(lambda l: (l // 2) * 128), note="lanes 2j, 2j+1 one row; rows 128 B apart")
            add(op, num, "same_matrices", lanes(lambda l: (l % 8) * R), note="every matrix the same rows")
            add(op, num, "cross_bank", lanes(lambda l: (l % 8) * R + (l // 8) * 128),
                note="matrix i at 128*i: matrices share banks, rows do not")
            add(op, num, "half_conflict", lanes(lambda l: (l % 4) * R + ((l % 8) // 4) * 128 + (l // 8) * 512),
                note="rows r and r+4 of a matrix: one bank")
            add(op, num, "unused_lanes", lanes(lambda l: l * R if l < 8 * num else (l % 8) * 128),
                note="lanes past 8*num at conflicting rows")
            for k in range(4):
                c = [rng.randrange(0, 4096, R) for _ in range(32)]
                add(op, num, f"random{k}", lanes(lambda l, c=c: c[l]), note="random rows in 4 KB")
            for k in range(2):
                c = [rng.randrange(0, 512, R) for _ in range(32)]
                add(op, num, f"dense{k}", lanes(lambda l, c=c: c[l]), note="random rows in 512 B: much sharing")
        add(op, 4, "contig_trans", lanes(lambda l: l * R), note="contiguous, .trans", trans=True)
        add(op, 4, "tile_col_trans", lanes(lambda l: (l % 8) * 128 + (l // 8) * 16), note="tile_col, .trans",
            trans=True)
        add(op, 2, "tile_col_swz_trans", lanes(lambda l: swz((l % 8) * 128 + (l // 8) * 16)),
            note="tile_col_swz, .trans", trans=True)
        add(op, 4, "4warps", lanes(lambda t: (t % 8) * (16 << (t // 32)) + ((t % 32) // 8) * 1024, threads=128),
            note="warp k: row pitch 16<<k")
        add(op, 4, "repeat3", lanes(lambda l: (l % 8) * 128 + (l // 8) * 16), 3, note="tile_col, 3 times")
    for p in out:
        p.predict()
    return out


def _pext(lane: int, keep: int) -> int:
    """The bits of ``lane`` that ``keep`` selects, packed to the low end (x86's PEXT)."""
    out, k = 0, 0
    for b in range(5):
        if keep >> b & 1:
            out |= (lane >> b & 1) << k
            k += 1
    return out


def probes_round4() -> list[Probe]:
    """The fourth round: 8- and 16-byte shared accesses in which the address does not depend on some
    lane bits other than bit 0 -- lanes ``l`` and ``l ^ 2`` (``^ 4``, ``^ 8``, ``^ 16``, and sets of such
    bits) share an address while the aligned pairs ``(2j, 2j+1)`` do not -- with the shared units
    ``u`` (the lane with those bits cleared, packed) at strides that do and do not conflict and at
    random slots; the sharing in one half of the warp only, or in some pairs only; inactive lanes.
    Controls: bit 0 (the pair rule of round 1) and bits 0-1 (quads)."""
    out: list[Probe] = []
    rng = random.Random(2028)

    def add(op, ptype, name, offs, note=""):
        out.append(Probe(f"{PREFIX}r4_{len(out):03d}_s{op}_{ptype.replace('.', '')}_{name}",
                         "shared", op, ptype, offs, 1, note))

    free_bits = (1, 2, 4, 8, 16, 3, 6, 10, 12, 18, 24, 20)
    for op in ncu_csv.OPS:
        for ptype in ("b64", "v2.b32", "v4.b32", "v2.b64"):
            w = TYPES[ptype][0]
            main = ptype in ("b64", "v4.b32")
            for f in free_bits if main else (1, 2, 4, 16, 6):
                keep = 31 & ~f

                def unit(l, keep=keep):
                    return _pext(l % 32, keep)
                for s in ((w, 2 * w, 64, 128, 3 * w) if main else (w, 128)):
                    add(op, ptype, f"free{f}_stride{s}", lanes(lambda l, s=s, u=unit: u(l) * s),
                        note=f"address = unit*{s}, lane bits {f:#x} free")
                for r in range(2 if main else 1):
                    slots = rng.sample(range(0, 4096, w), 32)
                    add(op, ptype, f"free{f}_random{r}", lanes(lambda l, c=slots, u=unit: c[u(l)]),
                        note=f"random slots, lane bits {f:#x} free")
            if not main:
                continue
            # lanes l and l^2 share in lanes 0-15 only (the other half: distinct, conflict-free)
            add(op, ptype, "xor2_half0", lanes(lambda l: _pext(l, 29) * w if l < 16 else 1024 + l * w),
                note="l and l^2 share in lanes 0-15 only")
            add(op, ptype, "xor2_half1", lanes(lambda l: _pext(l, 29) * w + 2048 if l >= 16 else l * w),
                note="l and l^2 share in lanes 16-31 only")
            # l^2 sharing in every quad but one
            add(op, ptype, "xor2_but_one", lanes(lambda l: _pext(l, 29) * w + (2048 if l == 30 else 0)),
                note="l and l^2 share except lane 30")
            # l^2 sharing with conflicting units: unit u at u*128 (all in one bank)
            add(op, ptype, "xor2_one_bank_half", lanes(lambda l: _pext(l, 29) * 128 if l < 16 else l * w + 2048),
                note="l^2 share, units 128 B apart, lanes 0-15; lanes 16-31 contiguous")
            # inactive lanes: lanes with bit 1 set inactive (their partners alone)
            add(op, ptype, "xor2_bit1_inactive", lanes(lambda l: _pext(l, 29) * 128, lambda l: not l & 2),
                note="units 128 B apart, lanes with bit 1 set inactive")
            add(op, ptype, "xor2_lo16_active", lanes(lambda l: _pext(l, 29) * 128, MASKS["lo16"]),
                note="l^2 share, units 128 B apart, lanes 0-15 active")
            # l^2 sharing and l^1 sharing with different groupings in the two halves
            add(op, ptype, "xor2_then_pairs", lanes(lambda l: _pext(l, 29) * 128 if l < 16 else (l // 2) * 128),
                note="l^2 share in lanes 0-15, aligned pairs in 16-31, 128 B apart")
            # random sharing: a random set of free bits per probe, random slots, random conflicts
            for r in range(4):
                f = rng.choice((2, 4, 8, 16, 6, 10, 12, 20, 24, 18))
                slots = [rng.randrange(0, 4096, 128) + rng.choice((0, w)) for _ in range(32)]
                add(op, ptype, f"free{f}_rowslots{r}", lanes(lambda l, c=slots, k=31 & ~f: c[_pext(l, k)]),
                    note=f"lane bits {f:#x} free, units in few banks")
    for p in out:
        p.predict()
    return out


ROUNDS = {1: probes, 2: probes_round2, 3: probes_round3, 4: probes_round4}


# PTX --------------------------------------------------------------------------

def _selp_table(offsets: list) -> list[str]:
    """``%r1`` = the thread's offset, from ``%r0`` = ``%tid.x``: a chain of ``selp``, no memory access."""
    vals = [INACTIVE - t if o is None else o for t, o in enumerate(offsets)]  # distinct: ptxas cannot fold
    # a table of inactive lanes alone into a constant predicate
    default = max(vals, key=vals.count)  # the most common offset; on a tie, the first thread's
    lines = [f"\tmov.u32 \t%r1, {default};"]
    for t, v in enumerate(vals):
        if v != default:
            lines += [f"\tsetp.eq.u32 \t%p3, %r0, {t};", f"\tselp.b32 \t%r1, {v}, %r1, %p3;"]
    return lines


def _regs(ptype: str, first: int) -> tuple[str, list[str]]:
    """The register operand of an access of ``ptype`` and its registers (%r / %rd from ``first``)."""
    _, n, bits = TYPES[ptype]
    names = [f"%{'rd' if bits == 64 else 'r'}{first + k}" for k in range(n)]
    return (names[0] if n == 1 else "{" + ", ".join(names) + "}"), names


def _fold(names: list[str]) -> list[str]:
    """XOR every register into %r9 (the value sent to a sink)."""
    lines = ["\tmov.u32 \t%r9, 0;"]
    for n in names:
        if n.startswith("%rd"):
            lines += [f"\tcvt.u32.u64 \t%r8, {n};", "\txor.b32 \t%r9, %r9, %r8;",
                      f"\tshr.u64 \t{n}, {n}, 32;", f"\tcvt.u32.u64 \t%r8, {n};", "\txor.b32 \t%r9, %r9, %r8;"]
        else:
            lines.append(f"\txor.b32 \t%r9, %r9, {n};")
    return lines


def kernel_ptx(p: Probe) -> str:
    """One module holding the probe's kernel (entry ``p.name``; parameters: the global buffer, the sink, the limit)."""
    if p.matrix:
        return matrix_ptx(p)
    w = p.width
    active = [o for o in p.offsets if o is not None]
    assert all(o % w == 0 for o in active), f"{p.name}: an offset is not a multiple of {w}"
    assert all(0 <= o < INACTIVE_FROM for o in active)
    smem = f"smem_{p.name}"
    space_repeat = SHARED_REPEAT if p.space == "shared" else GLOBAL_REPEAT
    top = max(active, default=0) + w + (p.repeats - 1) * space_repeat
    if p.space == "shared":
        assert top <= SHARED_LIMIT, f"{p.name}: {top} bytes of shared memory"
        size = -(-top // 1024) * 1024
    else:
        assert top <= GLOBAL_BYTES, f"{p.name}: {top} bytes of global memory"
        size = 4 * p.threads  # the shared sink
    size = max(size, 4 * p.threads)
    operand, names = _regs(p.ptype, 10)
    L = [".version 8.0", ".target sm_90", ".address_size 64", "",
         f".shared .align 1024 .b8 {smem}[{size}];", "",
         f".visible .entry {p.name}(.param .u64 {p.name}_buf, .param .u64 {p.name}_sink, "
         f".param .u32 {p.name}_limit)",
         f".maxntid {p.threads}, 1, 1", "{",
         "\t.reg .pred \t%p<4>;", "\t.reg .b32 \t%r<16>;", "\t.reg .b64 \t%rd<16>;", "",
         "\tmov.u32 \t%r0, %tid.x;"]
    L += _selp_table(p.offsets)
    L += [f"\tld.param.u32 \t%r5, [{p.name}_limit];", "\tsetp.lt.u32 \t%p0, %r1, %r5;",
          f"\tld.param.u64 \t%rd0, [{p.name}_buf];", "\tcvta.to.global.u64 \t%rd0, %rd0;",
          f"\tld.param.u64 \t%rd1, [{p.name}_sink];", "\tcvta.to.global.u64 \t%rd1, %rd1;",
          f"\tmov.u32 \t%r2, {smem};",
          "\tmul.wide.u32 \t%rd2, %r0, 4;", "\tadd.s64 \t%rd3, %rd1, %rd2;",  # global sink: sink + 4*tid
          "\tshl.b32 \t%r3, %r0, 2;", "\tadd.u32 \t%r3, %r2, %r3;"]  # shared sink: smem + 4*tid
    if p.space == "shared":
        L.append("\tadd.u32 \t%r4, %r2, %r1;")
        addr = lambda r: f"[%r4+{r * SHARED_REPEAT}]"
    else:
        L += ["\tcvt.u64.u32 \t%rd4, %r1;", "\tadd.s64 \t%rd4, %rd0, %rd4;"]
        addr = lambda r: f"[%rd4+{r * GLOBAL_REPEAT}]"
    if p.op == STORE:
        for k, n in enumerate(names):
            L.append(f"\tcvt.u64.u32 \t{n}, %r0;" if n.startswith("%rd") else f"\tadd.u32 \t{n}, %r0, {k + 1};")
    mem = f"{p.op}.{p.space}.{p.ptype}"
    for r in range(p.repeats):
        if p.op == LOAD:
            L.append(f"\t@%p0 {mem} \t{operand}, {addr(r)};")
            L += _fold(names)
            L.append("\t@%p0 st.global.u32 \t[%rd3], %r9;" if p.space == "shared" else
                     "\t@%p0 st.shared.u32 \t[%r3], %r9;")
        else:
            L.append(f"\t@%p0 {mem} \t{addr(r)}, {operand};")
    if p.op == STORE and p.space == "shared":  # read the stores back (shared loads: not compared)
        L.append("\tbar.sync \t0;")
        for r in range(p.repeats):
            L.append(f"\t@%p0 ld.shared.{p.ptype} \t{operand}, {addr(r)};")
            L += _fold(names)
            L.append("\t@%p0 st.global.u32 \t[%rd3], %r9;")
    L += ["\tret;", "}", ""]
    return "\n".join(L)


def matrix_ptx(p: Probe) -> str:
    """An ldmatrix probe sends its registers to the global sink; a stmatrix probe stores values made
    from ``%tid.x`` and reads nothing back: either way the profiled instruction is the kernel's only
    shared-memory access (``ncu_csv.SHARED_ALL`` counts it alone).  ``.sync.aligned``: every lane
    executes it (no inactive lanes)."""
    assert all(o is not None and o % ROW_BYTES == 0 and 0 <= o for o in p.offsets), f"{p.name}: bad row"
    assert p.threads <= 128 and p.repeats <= 8, f"{p.name}: the sink holds 8 repeats of 128 threads"
    smem = f"smem_{p.name}"
    top = max(p.offsets) + ROW_BYTES + (p.repeats - 1) * SHARED_REPEAT
    assert top <= SHARED_LIMIT, f"{p.name}: {top} bytes of shared memory"
    size = -(-top // 1024) * 1024
    names = [f"%r{10 + k}" for k in range(p.matrix)]
    regs = "{" + ", ".join(names) + "}"
    L = [".version 8.0", ".target sm_90", ".address_size 64", "",
         f".shared .align 1024 .b8 {smem}[{size}];", "",
         f".visible .entry {p.name}(.param .u64 {p.name}_buf, .param .u64 {p.name}_sink, "
         f".param .u32 {p.name}_limit)",
         f".maxntid {p.threads}, 1, 1", "{",
         "\t.reg .pred \t%p<4>;", "\t.reg .b32 \t%r<16>;", "\t.reg .b64 \t%rd<16>;", "",
         "\tmov.u32 \t%r0, %tid.x;"]
    L += _selp_table(p.offsets)
    L += [f"\tld.param.u64 \t%rd1, [{p.name}_sink];", "\tcvta.to.global.u64 \t%rd1, %rd1;",
          "\tmul.wide.u32 \t%rd2, %r0, 4;", "\tadd.s64 \t%rd3, %rd1, %rd2;",
          f"\tmov.u32 \t%r2, {smem};", "\tadd.u32 \t%r4, %r2, %r1;"]
    if p.op == STORE:
        L += [f"\tadd.u32 \t{n}, %r0, {k + 1};" for k, n in enumerate(names)]
    for r in range(p.repeats):
        addr = f"[%r4+{r * SHARED_REPEAT}]"
        if p.op == LOAD:
            L.append(f"\t{p.instruction} \t{regs}, {addr};")
            L += _fold(names)
            L.append(f"\tst.global.u32 \t[%rd3+{r * 512}], %r9;")  # a sink slot per repeat: no load is dead
        else:
            L.append(f"\t{p.instruction} \t{addr}, {regs};")
    L += ["\tret;", "}", ""]
    return "\n".join(L)


# building, launching, comparing -------------------------------------------------

def build(out: Path, only: str | None = None, round_: int = 1) -> list[Probe]:
    ps = [p for p in ROUNDS[round_]() if not only or re.search(only, p.name)]
    out.mkdir(parents=True, exist_ok=True)
    (out / "ptx").mkdir(exist_ok=True)
    for p in ps:
        (out / "ptx" / f"{p.name}.ptx").write_text(kernel_ptx(p))
    (out / "probes.json").write_text(json.dumps([asdict(p) for p in ps], indent=0))
    return ps


SASS_OP = {(sp, o): SASS_CLASS[(o, sp)] for sp in ("shared", "global") for o in ncu_csv.OPS}


def sass_counts(sass: str) -> dict[str, dict[str, int]]:
    """Per function of ``nvdisasm``/``cuobjdump -sass`` output: how many LDS/STS/LDG/STG/LD/ST/ATOM* it holds."""
    out: dict[str, dict[str, int]] = {}
    current = None
    for line in sass.splitlines():
        m = re.search(r"(?:\.text\.|Function : )([A-Za-z_$][\w$]*)", line)
        if m:
            current = out.setdefault(m.group(1), {})
            continue
        if current is None:
            continue
        ins = re.search(r"(?:^|[;}/]\s*|\s)(?:@!?U?P\w+\s+)?(LDS|STS|LDG|STG|LDL|STL|LD|ST|ATOMS?|ATOMG|RED|LDSM|STSM|LDGSTS)\b[.\w]*\s",
                        line)
        if ins and "/*" in line:
            current[ins.group(1)] = current.get(ins.group(1), 0) + 1
    return out


def expected_sass(p: Probe) -> dict[str, int]:
    """The memory instructions each probe's SASS must hold: the profiled one ``repeats`` times, and its sink."""
    want = {k: 0 for k in ("LDS", "STS", "LDG", "STG")}
    if p.matrix:
        want[_row_sass(p.op)] = p.repeats
        want["STG"] += p.repeats if p.op == LOAD else 0
        return want
    want[SASS_OP[p.space, p.op]] += p.repeats
    if p.op == LOAD:
        want["STG" if p.space == "shared" else "STS"] += p.repeats
    elif p.space == "shared":
        want["LDS"] += p.repeats
        want["STG"] += p.repeats
    return want


def assemble(ps: list[Probe], out: Path) -> Path:
    """All probes linked into one module and assembled by ptxas for sm_90: ``out/probes.cubin``
    (the child under ncu loads it as it is, so that no ptxas runs under the profiler)."""
    cubin = runner.ptxas(runner.link_ptx([kernel_ptx(p) for p in ps]), "sm_90")
    (out / "probes.cubin").write_bytes(cubin)
    return out / "probes.cubin"


def check_sass(ps: list[Probe], out: Path) -> list[str]:
    """The probes whose memory instructions in ``out/probes.cubin`` (disassembled by nvdisasm, kept in
    ``out/probes.sass``) are not ``expected_sass``: ptxas merged, split or removed one.  Empty when no
    nvdisasm is found (a note is printed)."""
    try:
        nvdisasm = tools.find_tool("nvdisasm")
    except tools.ToolNotFound as e:
        print(f"note: SASS not checked: {e}", flush=True)
        return []
    r = subprocess.run([nvdisasm, "-c", str(out / "probes.cubin")], capture_output=True, text=True)
    (out / "probes.sass").write_text(r.stdout + r.stderr)
    counts = sass_counts(r.stdout)
    bad = []
    for p in ps:
        got = {k: v for k, v in counts.get(p.name, {}).items() if v}
        want = {k: v for k, v in expected_sass(p).items() if v}
        if got != want:
            bad.append(f"{p.name}: SASS memory instructions {got}, expected {want}")
    return bad


def load_probes(out: Path) -> list[Probe]:
    return [Probe(**d) for d in json.loads((out / "probes.json").read_text())]


def launch(out: Path) -> int:
    """The child that ncu profiles: load every probe's kernel, launch each once, in order."""
    ps = load_probes(out)
    g = runner.gpu()
    print(f"device: {g.name} ({g.arch})", flush=True)
    drv = g.drv
    if g.arch == "sm_90" and (out / "probes.cubin").exists():
        module = drv.module_from_buffer((out / "probes.cubin").read_bytes())
        functions = [module.get_function(p.name) for p in ps]
    else:  # another device: assemble for it (ptxas then runs under ncu too; harmless, only slower)
        modules = runner.load_modules([(out / "ptx" / f"{p.name}.ptx").read_text() for p in ps])
        functions = [m.module.get_function(p.name) for p, m in zip(ps, modules)]
    buf = drv.mem_alloc(GLOBAL_BYTES + 256)
    base = -(-int(buf) // 256) * 256
    sink = drv.mem_alloc(4 * 1024 + 256)
    drv.memset_d8(int(buf), 0, GLOBAL_BYTES + 256)
    done = 0
    for p, f in zip(ps, functions):
        try:
            f(np.uintp(base), np.uintp(int(sink)), np.uint32(INACTIVE_FROM), block=(p.threads, 1, 1), grid=(1, 1))
            drv.Context.synchronize()
            done += 1
        except drv.Error as e:
            print(f"launch failed: {p.name}: {' '.join(str(e).split())}", flush=True)
            raise
    print(f"launched {done} kernels (global buffer at {base:#x})", flush=True)
    return 0


@dataclass
class Compared:
    probe: Probe
    measured: dict  # wavefronts/conflicts or sectors/requests, and "other": every counter of the row
    ok: bool


def compare(ps: list[Probe], rows: dict) -> tuple[list[Compared], list[str]]:
    """Each probe against its ncu row (matched by kernel name); and the probes ncu printed no row for."""
    named = ncu_csv.by_kernel(rows)
    out, missing = [], []
    for p in ps:
        got = named.get(p.name)
        if not got:
            missing.append(p.name)
            continue
        row = got[0]
        if p.space == "shared":  # LDSM is counted with the loads (op_ld), STSM with the stores (op_st)
            m = {"wavefronts": ncu_csv.metric(row, ncu_csv.SHARED_WAVEFRONTS[p.op]),
                 "conflicts": ncu_csv.metric(row, ncu_csv.SHARED_CONFLICTS[p.op])}
        else:
            m = {"sectors": ncu_csv.metric(row, ncu_csv.GLOBAL_SECTORS[p.op]),
                 "requests": ncu_csv.metric(row, ncu_csv.GLOBAL_REQUESTS[p.op])}
        m["all"] = {k: ncu_csv.metric(row, k) for k in row.metrics}
        out.append(Compared(p, m, m[p.main_key] == p.predicted[p.main_key]))
    return out, missing


def table(results: list[Compared], missing: list[str]) -> str:
    lines = [f"{'kernel':<44} {'kind':<22} {'predicted':>9} {'measured':>9}  "
             f"{'2nd pred':>8} {'2nd meas':>8}  note"]
    for c in results:
        p = c.probe
        second = "conflicts" if p.space == "shared" else "requests"
        lines.append(f"{p.name[len(PREFIX):]:<44} {p.instruction[:22]:<22} "
                     f"{p.predicted[p.main_key]:>9} {str(c.measured[p.main_key]):>9}  "
                     f"{p.predicted[second]:>8} {str(c.measured[second]):>8}  "
                     f"{'' if c.ok else 'MISMATCH '}{p.note}")
    bad = [c for c in results if not c.ok]
    sh = [c for c in results if c.probe.space == "shared"]
    gl = [c for c in results if c.probe.space == "global"]
    second_bad = [c for c in results
                  if c.measured["conflicts" if c.probe.space == "shared" else "requests"]
                  != c.probe.predicted["conflicts" if c.probe.space == "shared" else "requests"]]
    lines += ["", f"mismatches ({len(bad)}):"]
    lines += [f"  {c.probe.name}: {c.probe.instruction} {c.probe.note}: predicted "
              f"{c.probe.predicted[c.probe.main_key]} {c.probe.main_key}, measured {c.measured[c.probe.main_key]}; "
              f"offsets {c.probe.offsets[:32]}" for c in bad] or ["  none"]
    lines += [f"second counter (conflicts / requests) differs for {len(second_bad)}: "
              + ", ".join(c.probe.name[len(PREFIX):] for c in second_bad[:40])]
    if missing:
        lines.append(f"no ncu row for {len(missing)} kernels: {', '.join(missing[:20])}")
    mx = [c for c in results if c.probe.matrix]
    if mx:  # the alternatives a matrix round tells apart
        for alt in ("wavefronts", "alt_pairs_merge", "alt_every_lane"):
            hit = sum(c.measured["wavefronts"] == c.probe.predicted[alt] for c in mx)
            lines.append(f"{'/'.join(ROWS.instructions)} model {alt}: {hit}/{len(mx)} probes equal")
    lines.append(f"predicted == measured: {sum(c.ok for c in sh)}/{len(sh)} shared, "
                 f"{sum(c.ok for c in gl)}/{len(gl)} global")
    return "\n".join(lines)


def report(out: Path) -> int:
    ps = load_probes(out)
    text = (out / "ncu_raw.csv").read_text(errors="replace")
    results, missing = compare(ps, ncu_csv.parse(text))
    t = table(results, missing)
    (out / "table.txt").write_text(t + "\n")
    (out / "results.json").write_text(json.dumps(
        [{"name": c.probe.name, "predicted": c.probe.predicted, "measured": c.measured, "ok": c.ok}
         for c in results], indent=0))
    print(t)
    return 0 if results and not missing and all(c.ok for c in results) else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tilecheck.gpu.ncu_probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="folder for the kernels, predictions, ncu's raw CSV and the table")
    ap.add_argument("--build-only", action="store_true", help="write kernels and predictions; run nothing")
    ap.add_argument("--only", metavar="REGEX", help="only the probes whose name matches")
    ap.add_argument("--round", type=int, choices=sorted(ROUNDS), default=1,
                    help="1: the calibration set; 2: the lane-sharing set for 8- and 16-byte shared accesses; "
                         f"3: {'/'.join(ROWS.instructions)}; 4: 8/16-byte shared accesses whose lanes l and l^2 (^4, "
                         "...) share")
    ap.add_argument("--no-sass", action="store_true", help="skip the ptxas + nvdisasm check of the kernels")
    ap.add_argument("--parse", type=Path, metavar="DIR", help="compare a saved run in DIR again")
    ap.add_argument("--launch", type=Path, metavar="DIR", help=argparse.SUPPRESS)  # the child under ncu
    a = ap.parse_args(argv)
    if a.launch:
        return launch(a.launch)
    if a.parse:
        return report(a.parse)
    if not a.out:
        ap.error("give --out DIR (or --parse DIR)")
    ps = build(a.out, a.only, a.round)
    if not ps:
        print(f"ncu_probe: error: no probe of round {a.round} matches --only {a.only!r}", file=sys.stderr)
        return 2
    sh = sum(p.space == "shared" for p in ps)
    print(f"{len(ps)} probe kernels ({sh} shared, {len(ps) - sh} global) in {a.out}", flush=True)
    assemble(ps, a.out)
    if not a.no_sass:
        bad = check_sass(ps, a.out)
        for b in bad:
            print(f"warning: {b}", flush=True)
        if bad:
            print(f"warning: {len(bad)} probes do not hold exactly their one profiled instruction (see "
                  f"{a.out / 'probes.sass'}); their counters are still compared", flush=True)
    if a.build_only:
        return 0
    try:
        metrics = None
        if any(p.matrix for p in ps):
            metrics = ncu_csv.METRICS + ncu_csv.available(ncu_csv.MATRIX_METRICS, a.out)
            print(f"metrics: {', '.join(metrics)}", flush=True)
        ncu_csv.profile(["-m", "tilecheck.gpu.ncu_probe", "--launch", str(a.out)], a.out, f"^{PREFIX}",
                        metrics=metrics)
    except ncu_csv.NcuError as e:
        print(f"ncu_probe: error: {e}", file=sys.stderr)
        return 2
    return report(a.out)


if __name__ == "__main__":
    sys.exit(main())
