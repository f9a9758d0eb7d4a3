"""How the hardware serves one warp-instruction: shared-memory wavefronts and global sectors.

This is the *model* the ``banks`` and ``sectors`` obligations count with, stated once in plain
Python over concrete byte addresses.  The hardware is its referee (``ncu`` counters on the GPU
machine: ``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`` and
``l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum``); every rule below is one that the counters
are held to (docs/efficiency.md lists the measurements).

Shared memory (32 banks of 4 bytes):

* a warp-instruction moving ``width`` bytes per lane is served in *phases*: one phase of 32 lanes
  for widths up to 4 bytes, two of 16 lanes (0-15, 16-31) for 8 bytes, four of 8 lanes for 16 bytes;
* except that an 8- or 16-byte *load* in which every aligned lane pair ``(2j, 2j+1)`` reads one address
  (an inactive lane agrees with its partner) is served as 16 requests, one per pair, in phases of 16
  (8 bytes: one phase) or 8 (16 bytes: two phases of lanes 0-15 and 16-31) requests; and so is one in
  which, the aligned pairs not sharing, every lane ``l`` reads the address of ``l ^ 2`` (pairs
  ``(l, l^2)``, request ``unit(l, 1)``; ``merge_bit``).  Stores are never merged, nor are loads whose
  lanes share only across bit 2, 3 or 4 (``l ^ 4``, ``l ^ 8``, ``l ^ 16``: measured, served per lane).  (Measured on the H200: 654 probe kernels, ``python -m tilecheck.gpu.ncu_probe --round 1``
  and ``--round 2``; a model without the pair rule missed 10 + 41 of them, every other candidate
  tried — merging equal addresses anywhere, per phase — missed some too; ``--round 4``, 440 kernels
  whose lanes ``l`` and ``l ^ 2`` (``^ 4``, ``^ 8``, ``^ 16``, sets of such bits) share: the ``l ^ 2`` rule
  makes all 1,094 shared ld/st kernels of rounds 1, 2 and 4 equal, without it 49 of round 4 missed);
* in a phase, every active lane touches the 4-byte words ``[addr // 4, (addr + width - 1) // 4]``;
  the bank of word ``w`` is ``w % 32``; lanes touching the same word share it (broadcast);
* a phase takes as many wavefronts as the largest number of *distinct* words in one bank;
  a phase with no active lane takes none; the instruction takes the sum over its phases;
* the ideal is one wavefront per phase that has an active lane.

``ldmatrix``/``stmatrix`` ``.m8n8.x{num}`` (``matrix_wavefronts``): lanes ``8i..8i+7`` give the 16-byte
rows of matrix ``i``; the instruction is served as ``num`` phases, one per matrix, each counted as above
(16 bytes a lane); the lanes past ``8 * num`` give no address and count for nothing; no pair merging
(measured: 166 probe kernels, ``--round 3``, all equal; the load pair rule missed 8 of them, counting
every lane 106).  ncu counts LDSM with the shared loads and STSM with the shared stores.

Global memory: the instruction touches the 32-byte sectors ``[addr // 32, (addr + width - 1) // 32]``
of its active lanes; the count is the number of distinct sectors; the ideal is the fewest sectors
that can hold the distinct bytes moved, ``ceil(bytes / 32)``.
"""
from __future__ import annotations

from collections import defaultdict
import numpy as np

BANKS = 32
WORD = 4
SECTOR = 32
LANES = 32


def phase_lanes(width: int) -> int:
    """Lanes per phase for an access of ``width`` bytes per lane."""
    if width <= 4:
        return LANES
    if width == 8:
        return 16
    if width == 16:
        return 8
    raise ValueError(f"no shared-memory phase rule for {width}-byte accesses")


# an access's mode (``accesses.Access.mode``'s read/write; an atomic is counted as a write): only a
# read's lane pairs may merge.  The ncu tools (gpu/ncu_*.py) still spell a read "ld"; any other
# spelling is served as a write, as before
READ, WRITE = "read", "write"
_READS = (READ, "ld")


def reads(op: str) -> bool:
    return op in _READS


MERGE_BITS = (0, 1)  # lane bits whose partners a load may be merged across (bit 0 first): measured


def merge_bit(addresses: dict[int, int], width: int, op: str) -> int | None:
    """The lane bit ``b`` across which an 8- or 16-byte *load* is served per pair: every lane ``l``
    reads the address of ``l ^ 2^b`` (an inactive lane agrees with its partner) -- ``b = 0`` (aligned
    pairs ``2j, 2j+1``) first, else ``b = 1`` (``l, l ^ 2``); None when neither (or a store)."""
    if not reads(op) or width not in (8, 16):
        return None
    for b in MERGE_BITS:
        k = 1 << b
        if all(addresses.get(l, addresses.get(l ^ k)) == addresses.get(l ^ k, addresses.get(l))
               for l in range(LANES) if not l & k):
            return b
    return None


def pairs_merge(addresses: dict[int, int], width: int, op: str) -> bool:
    """A load of 8 or 16 bytes served per pair of lanes (``merge_bit``: aligned pairs, or ``l, l^2``)."""
    return merge_bit(addresses, width, op) is not None


def unit(lane: int, b: int) -> int:
    """A merged load's request index of ``lane``: the lane with bit ``b`` removed (its pair's index)."""
    return (lane >> (b + 1) << b) | (lane & ((1 << b) - 1))


def phases(addresses: dict[int, int], width: int, op: str = WRITE) -> list[dict[int, int]]:
    """The active lanes' ``{lane: byte address}`` split into phases (empty phases dropped); a merged
    load keeps the lower active lane of each pair, request ``unit(lane)`` in phase ``unit // n``."""
    n = phase_lanes(width)
    b = merge_bit(addresses, width, op)
    if b is not None:
        units = {}
        for lane in sorted(addresses):
            units.setdefault(unit(lane, b), lane)
        out = defaultdict(dict)
        for j, lane in units.items():
            out[j // n][lane] = addresses[lane]
        return [out[k] for k in sorted(out)]
    out = defaultdict(dict)
    for lane, a in addresses.items():
        out[lane // n][lane] = a
    return [out[k] for k in sorted(out)]


def words(address: int, width: int) -> range:
    return range(address // WORD, (address + width - 1) // WORD + 1)


def phase_wavefronts(phase: dict[int, int], width: int) -> int:
    per_bank = defaultdict(set)
    for a in phase.values():
        for w in words(a, width):
            per_bank[w % BANKS].add(w)
    return max((len(s) for s in per_bank.values()), default=0)


def wavefronts(addresses: dict[int, int], width: int, op: str = WRITE) -> int:
    """Wavefronts of one shared-memory warp-instruction: ``addresses`` maps each active lane
    (0-31) to the byte address it accesses, ``width`` bytes (1, 2, 4, 8 or 16); ``op`` READ or WRITE."""
    return sum(phase_wavefronts(p, width) for p in phases(addresses, width, op))


def ideal_wavefronts(addresses: dict[int, int], width: int, op: str = WRITE) -> int:
    """One wavefront per phase: the count when no phase has two distinct words in one bank."""
    return len(phases(addresses, width, op))


def conflict(addresses: dict[int, int], width: int, op: str = WRITE):
    """Two lanes of one phase that touch distinct words of one bank: ``(lane, lane, bank)``, or None."""
    for p in phases(addresses, width, op):
        seen = {}
        for lane in sorted(p):
            for w in words(p[lane], width):
                other = seen.setdefault(w % BANKS, (lane, w))
                if other[1] != w:
                    return other[0], lane, w % BANKS
    return None


def matrix_wavefronts(addresses: dict[int, int], num: int) -> int:
    """Wavefronts of one ``ldmatrix``/``stmatrix`` ``.m8n8.x{num}``: lanes ``8i..8i+7`` give the 16-byte
    rows of matrix ``i`` (the other lanes' addresses are unused); one phase per matrix."""
    return wavefronts({lane: a for lane, a in addresses.items() if lane < 8 * num}, 16, WRITE)


def sectors(addresses: dict[int, int], width: int) -> int:
    """32-byte sectors one global warp-instruction touches."""
    return len({s for a in addresses.values() for s in range(a // SECTOR, (a + width - 1) // SECTOR + 1)})


def ideal_sectors(addresses: dict[int, int], width: int) -> int:
    moved = {b for a in addresses.values() for b in range(a, a + width)}
    return -(-len(moved) // SECTOR)


# --- the same model over many warp-instructions at once (numpy) -----------------------------------
# ``count_rows`` states the rules above again on arrays: row r of ``rows`` is one warp-instruction,
# column i the byte address of lane i, every lane active.  The proofs count tables of thousands of
# instructions with it (``proofs.warp.per_row``); the brute-force decider keeps the functions above,
# and a property test holds the two to each other.
ROW_CHUNK = 4096  # rows counted per step (memory: rows x phases x 32 counters)


def count_rows(kind: str, rows, width: int, op: str = WRITE):
    """``(counts, ideals)`` (int64 arrays, one per row) of ``kind`` "banks" (``wavefronts``,
    ``ideal_wavefronts``) or "sectors" (``sectors``, ``ideal_sectors``) for each row of ``rows``
    (an R x L integer array; L <= 32); None when the addresses do not fit the arrays' arithmetic."""
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] == 0 or rows.shape[1] > LANES:
        return None
    try:
        rows = rows.astype(np.int64)
    except (OverflowError, TypeError):
        return None
    if rows.size and (int(rows.min()) < -(1 << 60) or int(rows.max()) >= 1 << 60):
        return None
    parts = [(_banks_rows if kind == "banks" else _sectors_rows)(rows[i:i + ROW_CHUNK], width, op)
             for i in range(0, max(1, len(rows)), ROW_CHUNK)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _distinct_per_group(rows_index, group, value, valid, groups: int, n_rows: int):
    """For each (row, group): how many distinct ``value`` among the valid entries (an array of
    shape (n_rows, groups)).  Entries are flat arrays of one length."""
    cell = (rows_index * groups + group)[valid]  # (row, group) as one number
    value = value[valid]
    if cell.size == 0:
        return np.zeros((n_rows, groups), dtype=np.int64)
    low, high = int(value.min()), int(value.max())
    if (high - low + 1) * n_rows * groups < 1 << 62:  # one int64 key per entry: one sort
        key = np.sort(cell * (high - low + 1) + (value - low))
        new = np.ones(key.size, dtype=bool)
        new[1:] = key[1:] != key[:-1]
        flat = key[new] // (high - low + 1)
    else:
        order = np.lexsort((value, cell))
        c, v = cell[order], value[order]
        new = np.ones(c.size, dtype=bool)
        new[1:] = (c[1:] != c[:-1]) | (v[1:] != v[:-1])
        flat = c[new]
    return np.bincount(flat, minlength=n_rows * groups).reshape(n_rows, groups)


def _banks_rows(rows, width: int, op: str):
    R, L = rows.shape
    n = phase_lanes(width)
    lane = np.arange(L)
    merged = np.zeros(R, dtype=bool)
    merged1 = np.zeros(R, dtype=bool)
    if reads(op) and width in (8, 16) and L >= 2:
        p = L // 2
        merged = (rows[:, 0:2 * p:2] == rows[:, 1:2 * p:2]).all(axis=1)
        if L >= 4:  # lanes l, l^2 (merge_bit 1): only where the aligned pairs do not merge
            lo = lane[(lane & 2) == 0]
            lo = lo[(lo ^ 2) < L]
            merged1 = ~merged & (rows[:, lo] == rows[:, lo ^ 2]).all(axis=1)
    # a merged load: the pairs' lower lanes (every lane is active), request unit(lane) in phase unit // n
    u0, u1 = lane // 2, (lane >> 2 << 1) | (lane & 1)
    active = np.where(merged[:, None], (lane % 2 == 0)[None, :],
                      np.where(merged1[:, None], ((lane & 2) == 0)[None, :], True))
    phase = np.where(merged[:, None], (u0 // n)[None, :],
                     np.where(merged1[:, None], (u1 // n)[None, :], (lane // n)[None, :]))
    first, last = rows // WORD, (rows + width - 1) // WORD
    span = (width + WORD - 2) // WORD + 1  # the most words one lane can touch
    phases_ = -(-L // n)
    groups = phases_ * BANKS
    words_, valid, grp = [], [], []
    for i in range(span):
        w = first + i
        words_.append(w)
        valid.append(active & (w <= last))
        grp.append(phase * BANKS + w % BANKS)
    w = np.stack(words_, axis=2).reshape(R, -1)
    v = np.stack(valid, axis=2).reshape(R, -1)
    g = np.stack(grp, axis=2).reshape(R, -1)
    r = np.broadcast_to(np.arange(R)[:, None], w.shape)
    per = _distinct_per_group(r.ravel(), g.ravel(), w.ravel(), v.ravel(), groups, R)
    counts = per.reshape(R, phases_, BANKS).max(axis=2).sum(axis=1)
    units = np.where(merged, -(-L // 2), np.where(merged1, int(((lane & 2) == 0).sum()), L))
    ideals = -(-units // n)
    return counts.astype(np.int64), ideals.astype(np.int64)


def _sectors_rows(rows, width: int, op: str):
    R, L = rows.shape
    first, last = rows // SECTOR, (rows + width - 1) // SECTOR
    span = (width + SECTOR - 2) // SECTOR + 1
    s = np.stack([first + i for i in range(span)], axis=2).reshape(R, -1)
    v = np.stack([first + i <= last for i in range(span)], axis=2).reshape(R, -1)
    r = np.broadcast_to(np.arange(R)[:, None], s.shape)
    counts = _distinct_per_group(r.ravel(), np.zeros(s.size, dtype=np.int64), s.ravel(), v.ravel(), 1, R)[:, 0]
    starts = np.sort(rows, axis=1)  # the union of [a, a + width): equal lengths, so sorted gaps bound it
    moved = np.minimum(np.diff(starts, axis=1), width).sum(axis=1) + width
    return counts.astype(np.int64), (-(-moved // SECTOR)).astype(np.int64)
