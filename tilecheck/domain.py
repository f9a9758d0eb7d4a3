"""The symbols' domain: which symbol values a check's facts allow.

The meaning of a check file's ``[symbols]`` (``min``, ``max``, ``multiple_of``, ``source``) and its
``assume`` facts at concrete values, for the model's users: the prover's enumerations
(``proofs/facts.py``, ``proofs/warp.py``, ``proofs/swizzle.py``, ``proofs/runner.py``).  It reads only
the check and evaluates expressions (``expr.py``).

The brute-force decider (``decide.py``) states the same meaning again in its own code, on purpose:
it is the fuzz oracle the prover is compared with, so it shares no code with the prover's side
(``tests/test_single_source.py`` holds the two to each other and to the import rule).
"""
from __future__ import annotations

import itertools

from .expr import evaluate, holds


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
    return [env for values in itertools.product(*ranges)
            if allowed(check, env := dict(zip((s.name for s in syms), values)))]
