"""The runner never turns a solver 'unknown' into a proof, and replays every counterexample."""
import z3

import tilecheck
from tilecheck.cli import main
from tilecheck.proofs import runner

from conftest import build, mem, reg

from pathlib import Path

SEED = str(Path(__file__).parent.parent / "examples" / "seed.toml")


def test_unknown_is_reported_as_unknown_with_exit_3(monkeypatch, capsys):
    real = z3.Solver.check

    def gives_up(self, *a):
        real(self, *a)
        return z3.unknown

    monkeypatch.setattr(z3.Solver, "check", gives_up)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    report = tilecheck.prove(tilecheck.load(SEED), timeout=0.5)
    assert report.verdict == "unknown"
    statuses = {o.name: o.status for o in report.applies[0].obligations}
    static = ("target", "space", "shape", "width", "operands")  # facts of the input: no solver
    assert all(statuses[n] == "proved" for n in static)
    assert statuses.pop("registers") == "refuted"  # a fact of the input too: 420 registers, performance
    # ownership of a thread-scope tile with no thread strides simplifies to False without the solver
    assert statuses["ownership"] == "proved"
    # bounds and overflow: the variables' ranges keep every offset inside (exact interval bounds, no solver)
    assert statuses["bounds"] == statuses["overflow"] == "proved"
    exact = static + ("ownership", "bounds", "overflow")
    assert all(statuses[n] in ("unknown", "skipped") for n in statuses if n not in exact)
    assert statuses["disjoint"] == "unknown"
    assert statuses["alignment"] == "skipped"  # its prerequisite contiguity was not proved
    msg = report.applies[0].obligation("contiguity").message
    assert "unknown" in msg and "timed out" in msg
    assert main(["prove", SEED, "--timeout", "0.5"]) == 3
    assert "unknown" in capsys.readouterr().out
    monkeypatch.undo()
    assert tilecheck.prove(tilecheck.load(SEED)).verdict == "proved"


def test_a_counterexample_that_does_not_replay_is_not_a_verdict(monkeypatch):
    check = build({"A": mem((3, 4), layout="(3,4):(8,2)", align=16), "R": reg((3, 4))},
                  {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    from tilecheck.proofs import contiguity
    real = contiguity.violation

    def lying(q):
        v = real(q)
        return runner.Violation(v.formula, lambda w: None)

    monkeypatch.setattr(contiguity, "violation", lying)
    out = runner.decide("contiguity", contiguity.violation, check, check.applies[0], 5)
    assert out.status == "unknown" and "did not replay" in out.message
