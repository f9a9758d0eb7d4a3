"""A plan carries, per application, its family, the proved facts and the proved operand model."""
from pathlib import Path

import pytest

import tilecheck
from tilecheck.check import load_check
from tilecheck.poly import Poly
from tilecheck.verdict import Verdict

ROOT = Path(__file__).resolve().parents[1]


def test_plan_carries_family_facts_and_model():
    check = load_check(ROOT / "examples/seed.toml")
    report = tilecheck.prove(check)
    plan = report.plan
    assert len(plan.steps) == len(check.applies)
    step = plan.step(0)
    assert step.apply is check.applies[0] and step.family is check.applies[0].family
    assert step.facts == {o.name: o.status for o in report.applies[0].obligations}
    from tilecheck.proofs.registry import CONTRACT, REGISTRY
    contract = {n: v for n, v in step.facts.items() if REGISTRY[n].severity == CONTRACT}
    assert contract and set(contract.values()) == {Verdict.PROVED}  # performance ones are reported only
    m = step.model
    assert isinstance(m.memory[""], Poly) and set(m.register) == {"", "laneid", "warpid", "tid"}
    coords = [str(v) for v in m.coords]
    assert any("repeat" in c for c in coords) and any("word" in c for c in coords)
    for p in (m.memory[""], m.register[""]):
        assert p.variables() <= set(m.context.vars)


def test_plan_only_from_a_proved_report():
    report = tilecheck.prove(load_check(ROOT / "examples/region_misaligned_refuted.toml"))
    with pytest.raises(PermissionError):
        report.plan
