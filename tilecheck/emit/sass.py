"""Check emitted PTX with the real tools: assemble with ptxas, disassemble, count instructions.

Used by the tests and ``bench/bench_emit.py``.  The tools come from
``tilecheck.tools`` (PATH first, then the ``nvidia-cuda-nvcc`` /
``nvidia-cuda-nvdisasm`` wheels); a missing tool raises ``tools.ToolNotFound``.
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .. import tools
from ..families import FAMILIES

# SASS memory instructions by class; the PTX (kind, space) each class comes from (each family's
# ``sass_classes``)
SASS_CLASS = {k: c for f in dict.fromkeys(FAMILIES.values()) for k, c in f.sass_classes.items()}
MEMORY = frozenset(SASS_CLASS.values())
_SASS = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Z0-9_:]+)*)")
_KINDS = "|".join(re.escape(k) for k in dict.fromkeys(k for k, _ in SASS_CLASS))
_SPACES = "|".join(dict.fromkeys(s for _, s in SASS_CLASS))
_PTX_MEM = re.compile(rf"^\s*(?:@!?%\w+\s+)?({_KINDS})\.(?:[\w:]+\.)*?({_SPACES})\b[\w:.]*\s", re.M)
_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


@dataclass
class Assembled:
    arch: str
    sass: str  # nvdisasm's listing of the cubin
    info: str  # ptxas -v

    @property
    def instructions(self) -> list[str]:
        """Every SASS instruction's mnemonic with its modifiers, e.g. 'LDG.E.128'."""
        return [m.group(1) + m.group(2) for m in _SASS.finditer(self.sass)]

    @property
    def spills(self) -> int:
        """Bytes of spill stores plus spill loads."""
        return sum(int(a) + int(b) for a, b in _SPILL.findall(self.info))

    def count(self, mnemonic: str) -> int:
        """How many instructions are exactly ``mnemonic`` (with modifiers, e.g. 'LDG.E.128')."""
        return sum(1 for i in self.instructions if i == mnemonic)

    def memory(self) -> Counter:
        """Memory instructions per class (LDG, STG, LDS, STS, LDL, STL)."""
        return Counter(c for c in (i.split(".")[0] for i in self.instructions) if c in MEMORY)

    def other(self) -> int:
        """Non-memory instructions, without the NOP padding and the final self-branch after EXIT."""
        ins = [i for i in self.instructions if i != "NOP"]
        if len(ins) >= 2 and ins[-1] == "BRA" and ins[-2] == "EXIT":
            ins = ins[:-1]
        return sum(1 for i in ins if i.split(".")[0] not in MEMORY)


class AssemblyError(RuntimeError):
    """ptxas rejected the module; the message is its first error."""


def assemble(ptx: str, arch: str) -> Assembled:
    """ptxas ``ptx`` for ``arch`` and disassemble the cubin with nvdisasm."""
    with tempfile.TemporaryDirectory(prefix="tilecheck-sass-") as d:
        cubin = Path(d) / "k.cubin"
        r = tools.ptxas(ptx, arch, output=cubin, args=("-v",))
        if not r.ok:
            raise AssemblyError(f"ptxas -arch={arch}: {r.summary()}")
        sass = subprocess.run([tools.find_tool("nvdisasm"), "-c", str(cubin)], capture_output=True, text=True,
                              check=True)
        return Assembled(arch, sass.stdout, r.stdout + r.stderr)


def ptx_memory(ptx: str) -> Counter:
    """The PTX text's ld/st instructions per SASS class they become."""
    return Counter(SASS_CLASS[(k, s)] for k, s in _PTX_MEM.findall(ptx))
