"""How the hardware serves one warp-instruction: shared-memory wavefronts and global sectors.

This is the *model* the ``banks`` and ``sectors`` obligations count with, stated once in plain
Python over concrete byte addresses.  The hardware is its referee (``ncu`` counters on the GPU
machine: ``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`` and
``l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum``); every rule below is one that the counters
are held to (docs/efficiency.md lists the measurements).

Shared memory (32 banks of 4 bytes):

* a warp-instruction moving ``width`` bytes per lane is served in *phases*: one phase of 32 lanes
  for widths up to 4 bytes, two of 16 lanes (0-15, 16-31) for 8 bytes, four of 8 lanes for 16 bytes;
* in a phase, every active lane touches the 4-byte words ``[addr // 4, (addr + width - 1) // 4]``;
  the bank of word ``w`` is ``w % 32``; lanes touching the same word share it (broadcast);
* a phase takes as many wavefronts as the largest number of *distinct* words in one bank;
  a phase with no active lane takes none; the instruction takes the sum over its phases;
* the ideal is one wavefront per phase that has an active lane.

Global memory: the instruction touches the 32-byte sectors ``[addr // 32, (addr + width - 1) // 32]``
of its active lanes; the count is the number of distinct sectors; the ideal is the fewest sectors
that can hold the distinct bytes moved, ``ceil(bytes / 32)``.
"""
from __future__ import annotations

from collections import defaultdict

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


def phases(addresses: dict[int, int], width: int) -> list[dict[int, int]]:
    """The active lanes' ``{lane: byte address}`` split into phases (empty phases dropped)."""
    n = phase_lanes(width)
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


def wavefronts(addresses: dict[int, int], width: int) -> int:
    """Wavefronts of one shared-memory warp-instruction: ``addresses`` maps each active lane
    (0-31) to the byte address it accesses, ``width`` bytes (1, 2, 4, 8 or 16)."""
    return sum(phase_wavefronts(p, width) for p in phases(addresses, width))


def ideal_wavefronts(addresses: dict[int, int], width: int) -> int:
    return len(phases(addresses, width))


def conflict(addresses: dict[int, int], width: int):
    """Two lanes of one phase that touch distinct words of one bank: ``(lane, lane, bank)``, or None."""
    for p in phases(addresses, width):
        seen = {}
        for lane in sorted(p):
            for w in words(p[lane], width):
                other = seen.setdefault(w % BANKS, (lane, w))
                if other[1] != w:
                    return other[0], lane, w % BANKS
    return None


def sectors(addresses: dict[int, int], width: int) -> int:
    """32-byte sectors one global warp-instruction touches."""
    return len({s for a in addresses.values() for s in range(a // SECTOR, (a + width - 1) // SECTOR + 1)})


def ideal_sectors(addresses: dict[int, int], width: int) -> int:
    moved = {b for a in addresses.values() for b in range(a, a + width)}
    return -(-len(moved) // SECTOR)
