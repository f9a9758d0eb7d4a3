"""Property-based fuzzing: Z3's verdicts against the brute-force decider (``tilecheck.decide``).

``differential.compare`` runs one check through both and lists every problem
(disagreement, counterexample that does not replay, unknown on a concrete check,
crash); ``campaign`` drives Hypothesis over ``tilecheck.strategies`` and shrinks what
it finds; ``cli`` is ``tilecheck fuzz``.
"""
from .differential import CaseResult, Problem, compare

__all__ = ["CaseResult", "Problem", "compare"]
