"""The obligation registry is the one list: the docs table, the decider's rules, the fuzz summary,
the hardware predictions and every family's obligations are held to it."""
import re
from pathlib import Path

import pytest

from tilecheck import decide, families
from tilecheck.check import from_dict
from tilecheck.gpu.unchecked import predict
from tilecheck.proofs import registry
from tilecheck.proofs.registry import REGISTRY
from tilecheck.proofs.runner import PROVED, REFUTED, Outcome
from tilecheck.report import ApplyReport, Report

DOCS = Path(__file__).resolve().parent.parent / "docs" / "check-file.md"


def test_docs_table_rows_are_the_registry_doc_lines():
    text = DOCS.read_text()
    table = text[text.index("## Obligations (in this order)"):]
    rows = [ln for ln in table.splitlines() if re.match(r"\| `\w+` \|", ln)]
    rows = rows[:len(REGISTRY)]
    assert rows == [o.doc_row for o in REGISTRY.values()]


def test_decider_rules_have_the_registry_names():
    assert set(decide.RULES) == set(REGISTRY)
    assert decide.ORDER == tuple(REGISTRY)


def test_decider_restated_prerequisites_agree_with_the_registry():
    for name, o in REGISTRY.items():
        for is_load in (False, True):
            assert set(decide.needs(name, is_load)) == set(o.prerequisites(is_load)), name


def test_every_family_names_registered_obligations_with_their_prerequisites():
    assert {"ld", "st"} <= set(families.FAMILIES)
    for fam in set(families.FAMILIES.values()):
        assert set(fam.obligations) <= set(REGISTRY), fam.name
        for name in fam.obligations:  # a prerequisite that does not apply would skip it forever
            assert set(REGISTRY[name].needs) <= set(fam.obligations), (fam.name, name)


def test_fuzz_summary_lists_every_registered_obligation(capsys):
    from types import SimpleNamespace

    from tilecheck.fuzz import cli
    from tilecheck.fuzz.campaign import Tally
    tally = Tally()
    tally.obligations[("alignment", "refuted")] = 3
    cli._summary(tally, 1.0, SimpleNamespace(seed=0, jobs=1), [])
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "obligations (proved" in ln)
    assert [c.split()[0] for c in line.split(": ", 1)[1].split(", ")] == list(REGISTRY)
    assert "alignment 0/3/0/0" in line


def _report(*refuted):
    check = from_dict({"tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [4]},
                                   "R": {"dtype": "float32", "scope": "register", "shape": [4]}},
                       "apply": [{"opcode": "ld.global.b32", "dst": "R: i -> i ()", "src": "A: i -> i ()"}]})
    outs = [Outcome(n, REFUTED if n in refuted else PROVED) for n in REGISTRY]
    return Report(check, [ApplyReport(check.applies[0], 4, outs)])


@pytest.mark.parametrize("name", list(REGISTRY))
def test_prediction_of_one_refuted_obligation_is_its_record(name):
    p = predict(_report(name))
    assert (p.expect, p.fault) == (REGISTRY[name].hardware, REGISTRY[name].fault)


def test_prediction_takes_the_lowest_rank():
    assert predict(_report("ownership", "bounds", "alignment")).fault == "misaligned address"
    assert predict(_report("ownership", "overflow")).expect == REGISTRY["overflow"].hardware


def test_a_refuted_performance_obligation_does_not_block(monkeypatch):
    r = _report("disjoint")
    assert r.verdict == REFUTED
    perf = registry.Obligation(**{**REGISTRY["disjoint"].__dict__, "severity": registry.PERFORMANCE})
    monkeypatch.setitem(REGISTRY, "disjoint", perf)
    assert r.verdict == PROVED and r.plan is not None
    assert r.applies[0].obligation("disjoint").status == REFUTED  # still reported
