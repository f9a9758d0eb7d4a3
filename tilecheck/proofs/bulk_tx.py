"""bulk_tx: a bulk load's ``expect_tx`` is the bytes its mbarrier phase delivers -- its own ``size``, plus
the other loads of its ``phase`` (a TMA box among them) -- and at most 2^20 - 1, for every symbol value
the facts allow: ``tma_tx``'s statement over the phase (``proofs/tma_tx.py``), of a copy without a box."""
from .runner import static
from .tma_tx import phase_violation


def violation(q):
    if q.apply.opcode.expect_tx is None:
        return static(True, "")
    return phase_violation(q, q.apply.opcode)
