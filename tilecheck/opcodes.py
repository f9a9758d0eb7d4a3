"""What every family's spelling shares: its one-line errors, the targets (``.target``) ptxas 13.0
knows with the lowest ``.version`` of each, the PTX ISA releases, and ``needs`` (a family's lowest
``.version`` from its version table).  Each family's own spelling (parse, legality, its version
table) is in its file of ``tilecheck/families/``: ld/st's is ``families/ldst.py``.
"""
from __future__ import annotations

import re
from typing import NamedTuple


class OpcodeError(ValueError):
    """Bad input (unknown token, missing type, junk target). The message is one line."""


class ArchError(OpcodeError):
    """A target name that is malformed or unknown to ptxas 13.0."""


# --- Targets: lowest .version for each .target (PTX ISA; ptxas 13.0 lets sm_88 in at 7.3) --
class Arch(NamedTuple):
    name: str                 # "sm_90a"
    sm: int                   # 90
    suffix: str               # "", "a" (arch-specific) or "f" (family)
    min_ptx: tuple[int, int]  # lowest .version that accepts this .target


ARCH_PTX = {"sm_75": (6, 3), "sm_80": (7, 0), "sm_86": (7, 1), "sm_87": (7, 4),
            "sm_88": (9, 0), "sm_89": (7, 8), "sm_90": (7, 8), "sm_90a": (8, 0),
            "sm_100": (8, 6), "sm_100a": (8, 6), "sm_100f": (8, 8), "sm_103": (8, 8),
            "sm_103a": (8, 8), "sm_103f": (8, 8), "sm_110": (9, 0), "sm_110a": (9, 0),
            "sm_110f": (9, 0), "sm_120": (8, 7), "sm_120a": (8, 7), "sm_120f": (8, 8),
            "sm_121": (8, 8), "sm_121a": (8, 8), "sm_121f": (8, 8)}  # sm_101 is now sm_110


def parse_arch(arch: str | Arch) -> Arch:
    if isinstance(arch, Arch):
        return arch
    m = re.fullmatch(r"sm_(\d+)([af]?)", str(arch))
    if not m:
        raise ArchError(f"bad target {arch!r}: expected sm_<number>[a|f], e.g. sm_90a")
    if arch not in ARCH_PTX:
        raise ArchError(f"target {arch!r} is unknown to ptxas 13.0 (known: {', '.join(ARCH_PTX)})")
    return Arch(arch, int(m.group(1)), m.group(2), ARCH_PTX[arch])


# --- PTX ISA releases: the .version numbers ptxas 13.0 takes (6.6, 7.9, 8.9 never existed) -
RELEASES = ((6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (7, 0), (7, 1), (7, 2), (7, 3), (7, 4),
            (7, 5), (7, 6), (7, 7), (7, 8), (8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 6),
            (8, 7), (8, 8), (9, 0))


def previous(version: tuple[int, int]) -> tuple[int, int]:
    """The PTX ISA release just before ``version`` (one of RELEASES, not the first)."""
    return RELEASES[RELEASES.index(version) - 1]


def needs(table, op, arch: str | Arch) -> tuple[int, int]:
    """The lowest ``.version`` for ``op`` on ``arch``: the target's own minimum and that of every
    row of a family's version table (``(name, present(op), ..., version)``) present in ``op``."""
    return max([parse_arch(arch).min_ptx] + [row[-1] for row in table if row[1](op)])

