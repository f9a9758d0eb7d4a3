"""The emitter's hard limits: a proved plan whose PTX could not sensibly be compiled is refused.

``registers`` is a performance obligation: over the budget (255 per thread, or the CTA's share)
ptxas spills to local memory and the kernel still computes the right thing, so a refutation is
reported and does not block.  Far beyond the budget nothing useful comes out: a ``[1000000, 4]``
float32 tile is 1,000,000 ``ld.v4`` per thread and 82 MB of PTX.  ``tilecheck emit`` refuses
(exit 2, one line naming the numbers) when

* the check's register tiles need more than ``REGISTERS`` = 131072 32-bit registers per thread:
  512 KiB, the most local memory one thread may have, so the spill itself cannot fit; or
* the applications issue more than ``INSTRUCTIONS`` = 65536 memory instructions per thread
  (summed over the applications: a kernel runs them all, the fragments file holds them all);

unless ``--force`` is given.
"""
from __future__ import annotations

from ..proofs import registers

REGISTERS = 512 * 1024 // 4  # 32-bit registers in the 512 KiB of local memory a thread may have
INSTRUCTIONS = 65536


def too_large(report) -> str | None:
    """Why ``report``'s PTX is refused without ``--force`` (one line), or None."""
    regs, exact, _ = registers.count(report.check)
    instructions = sum(a.instructions for a in report.applies)
    over = []
    if regs > REGISTERS:
        over.append(f"{'more than ' if not exact else ''}{regs} registers per thread (over {REGISTERS}: 512 KiB, "
                    "the local memory one thread may spill into)")
    if instructions > INSTRUCTIONS:
        over.append(f"{instructions} instructions per thread (over {INSTRUCTIONS})")
    if not over:
        return None
    return f"refusing to emit {' and '.join(over)}; --force emits it anyway"
