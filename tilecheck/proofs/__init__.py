"""The obligations of the ld/st contract, in their fixed order, with prerequisites.

Each module holds one obligation: a pure function from a ``Query`` to a
``Violation`` (satisfiable exactly when the obligation fails).  ``runner``
turns Z3's answer into proved / refuted-with-counterexample / unknown.
"""
from . import (alignment, bounds, contiguity, disjoint, operands, overflow, ownership, shape, space,
               target, width)
from .runner import PROVED, REFUTED, SKIPPED, UNKNOWN, Outcome, decide

__all__ = ["OBLIGATIONS", "Outcome", "PROVED", "REFUTED", "SKIPPED", "UNKNOWN", "decide", "prerequisites",
           "prove_apply"]

# name -> (module, prerequisites); ``disjoint`` of a load also needs ``ownership``
OBLIGATIONS = {
    "target": (target, ()),
    "space": (space, ()),
    "shape": (shape, ()),
    "width": (width, ()),
    "operands": (operands, ()),
    "contiguity": (contiguity, ("shape", "space")),
    "alignment": (alignment, ("shape", "space", "width", "contiguity")),
    "ownership": (ownership, ("shape", "space")),
    "disjoint": (disjoint, ("shape", "space")),
    "bounds": (bounds, ("shape", "space")),
    "overflow": (overflow, ("shape", "space", "bounds")),
}


def prerequisites(name: str, is_load: bool) -> tuple[str, ...]:
    pre = OBLIGATIONS[name][1]
    return pre + ("ownership",) if name == "disjoint" and is_load else pre


def prove_apply(check, apply, timeout_s: float = 10.0, facts=None, minimize: bool = True,
                recorder=None) -> list[Outcome]:
    """Decide every obligation of one application, skipping those whose prerequisites failed.
    ``facts``: the symbols' facts as decided once per check (``proofs.facts.decide``);
    ``recorder``: a ``proofs.smt2.Recorder`` that exports or rechecks every solver query."""
    if facts is None:
        from . import facts as _facts
        facts = _facts.decide(check, timeout_s)
    results: dict[str, Outcome] = {}
    for name, (module, _) in OBLIGATIONS.items():
        missing = [p for p in prerequisites(name, apply.is_load) if results[p].status != PROVED]
        if missing:
            results[name] = Outcome(name, SKIPPED, 0.0, f"{name} skipped: needs {', '.join(missing)}")
        else:
            results[name] = decide(name, module.violation, check, apply, timeout_s, facts, minimize, recorder)
    return list(results.values())
