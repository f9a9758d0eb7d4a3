"""The obligations, in their fixed order, with prerequisites (``registry.py`` holds the records).

Each module holds one obligation: a pure function from a ``Query`` to a
``Violation`` (satisfiable exactly when the obligation fails).  ``runner``
turns Z3's answer into proved / refuted-with-counterexample / unknown.
"""
from .. import accesses
from .registry import REGISTRY
from .runner import PROVED, REFUTED, SKIPPED, UNKNOWN, Outcome, decide
from . import facts as _facts

__all__ = ["OBLIGATIONS", "Outcome", "PROVED", "REFUTED", "SKIPPED", "UNKNOWN", "decide", "prerequisites",
           "prove_apply"]

# name -> (module, prerequisites), from the registry; ``disjoint`` of a load also needs ``ownership``
OBLIGATIONS = {o.name: (o.module, o.needs) for o in REGISTRY.values()}


def prerequisites(name: str, is_load: bool) -> tuple[str, ...]:
    return REGISTRY[name].prerequisites(is_load)


def prove_apply(check, apply, timeout_s: float = 10.0, facts=None, minimize: bool = True,
                recorder=None, select=None, stop: bool = False) -> list[Outcome]:
    """Decide every obligation of one application, skipping those whose prerequisites failed.
    ``facts``: the symbols' facts as decided once per check (``proofs.facts.decide``);
    ``recorder``: a ``proofs.smt2.Recorder`` that exports or rechecks every solver query;
    ``select(name, obligation)``: only those it accepts (``tilecheck suggest``: the blocking ones);
    ``stop``: end at the first obligation that is not proved."""
    if facts is None:
        facts = _facts.decide(check, timeout_s)
    results: dict[str, Outcome] = {}
    applies = apply.family.applicable(apply.opcode)
    memory = accesses.memory(check.accesses_of(apply))  # the memory accesses (cp.async has two)
    for name, ob in REGISTRY.items():
        if name not in applies or (ob.guarded_only and accesses.guarded_role(apply) is None):
            continue
        if select is not None and not select(name, ob):
            continue
        roles = ob.roles(check, apply)
        if roles == ():  # restricted to state spaces none of the memory operands is in
            continue
        missing = [p for p in ob.prerequisites(apply.is_load)
                   if (select is None or p in results) and results[p].status != PROVED]
        if missing:
            results[name] = Outcome(name, SKIPPED, 0.0, f"{name} skipped: needs {', '.join(missing)}")
        elif roles is not None and len(memory) > 1:
            results[name] = _first_failure([decide(name, ob.module.violation, check, apply, timeout_s, facts,
                                                   minimize, recorder, role) for role in roles])
        elif ob.per_memory_operand and len(roles := tuple(x.role for x in memory)) > 1:
            results[name] = _first_failure([decide(name, ob.module.violation, check, apply, timeout_s, facts,
                                                   minimize, recorder, role) for role in roles])
        else:
            results[name] = decide(name, ob.module.violation, check, apply, timeout_s, facts, minimize, recorder)
        if stop and results[name].status != PROVED:
            break
    return list(results.values())


def _first_failure(outcomes: list[Outcome]) -> Outcome:
    """One obligation over every memory operand: the first that is not proved, else proved."""
    out = next((o for o in outcomes if o.status != PROVED), outcomes[0])
    out.seconds = sum(o.seconds for o in outcomes)
    return out
