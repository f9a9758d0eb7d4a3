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


ROUND_TRIP = {  # two register tiles, a fill and write-backs: every role of the operand model
    "threads": 32,
    "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [32, 2, 2], "align": 8},
                "S": {"dtype": "float32", "scope": "shared", "shape": [32, 2, 2],
                      "layout": "(32,2,2):(2,64,1)", "align": 8},
                "R": {"dtype": "float32", "scope": "register", "shape": [32, 2, 2],
                      "layout": "(32,2,2):(1@laneid,2,1)"},
                "Q": {"dtype": "float32", "scope": "register", "shape": [32, 2, 2],
                      "layout": "(32,2,2):(1@laneid,1,2)"}},
    "apply": [{"opcode": "ld.global.v2.b32", "scope": "warp", "dst": "R", "src": "A"},
              {"opcode": "st.shared.v2.b32", "scope": "warp", "dst": "S", "src": "R"},
              {"opcode": "ld.shared.v2.b32", "scope": "warp", "dst": "Q", "src": "S"}],
}


@pytest.fixture
def counted(monkeypatch):
    """Counts calls of the operand-model builder and every Operand constructed inside and outside it."""
    from tilecheck.emit import operand
    calls = {"build": 0, "inside": 0, "outside": 0}
    build, init, depth = operand.build, operand.Operand.__init__, [0]

    def counting_build(check):
        calls["build"] += 1
        depth[0] += 1
        try:
            return build(check)
        finally:
            depth[0] -= 1

    def counting_init(self, *a, **k):
        calls["inside" if depth[0] else "outside"] += 1
        init(self, *a, **k)

    monkeypatch.setattr(operand, "build", counting_build)
    monkeypatch.setattr(operand.Operand, "__init__", counting_init)
    return calls


@pytest.mark.parametrize("source", ["seed", "cp_async_tile", "round_trip"])
def test_the_emitter_reads_the_plans_operand_model_and_builds_none(counted, source):
    from tilecheck.emit import fragment, kernel
    check = (tilecheck.from_dict(ROUND_TRIP, "<round-trip>") if source == "round_trip"
             else load_check(ROOT / f"examples/{source}.toml"))
    plan = tilecheck.prove(check).plan
    first = [fragment(plan, i).text for i in range(len(check.applies))]
    ptx = kernel(plan)
    assert counted["build"] == 1 and counted["inside"] >= 2 * len(check.applies)
    assert counted["outside"] == 0  # no emitter entry point built an Operand of its own
    model = plan.operands
    for a, ops in zip(check.applies, model.applies):
        roles = set(ops) - {"buffer"}
        assert roles == ({"dst", "src"} if source == "cp_async_tile" else {"memory", "register"})
    if source == "round_trip":  # no fill (R's first use is a load); Q, loaded last, is written back
        assert [("buffer" in ops) for ops in model.applies] == [False, False, True]
    # emission works on a private fork: the plan's model is unchanged, a second emission identical
    vars_, memo = dict(model.ctx.vars), dict(model.ctx.memo)
    assert kernel(plan) == ptx and [fragment(plan, i).text for i in range(len(check.applies))] == first
    assert model.ctx.vars == vars_ and model.ctx.memo == memo and plan.operands is model
    assert counted["build"] == 1 and counted["outside"] == 0


def test_kernel_unchecked_takes_its_operand_model_from_plan_code_not_a_plan(counted):
    from tilecheck.emit import fragment, kernel, kernel_unchecked
    from tilecheck.plan import Plan, unchecked
    report = tilecheck.prove(load_check(ROOT / "examples/region_misaligned_refuted.toml"))
    ptx = kernel_unchecked(report)
    assert ".entry tilecheck_unchecked(" in ptx
    assert counted["build"] == 1 and counted["outside"] == 0
    like = unchecked(report.check)
    assert not isinstance(like, Plan)
    with pytest.raises(TypeError):
        kernel(like)
    with pytest.raises(TypeError):
        fragment(like, 0)
