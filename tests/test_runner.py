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
    # disjoint: the lemma's digits (constant strides, decided arithmetically) fix every register slot
    assert statuses["disjoint"] == "proved"
    exact = static + ("ownership", "bounds", "overflow", "disjoint")
    assert all(statuses[n] in ("unknown", "skipped") for n in statuses if n not in exact)
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


def _names_by_z3py(f) -> set:
    """The same walk as ``runner._names`` through z3py's objects (the reference it replaced)."""
    seen, out, todo = set(), set(), [f]
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(e.decl().name())
        else:
            todo.extend(e.children())
    return out


def test_names_walks_the_term_as_z3py_does():
    """``runner._names`` (Z3's C API) finds the constants z3py's own walk finds: through shared
    subterms, numerals, Booleans, if-then-else, div/mod and quantifiers (bound variables are none)."""
    x, y, z = z3.Ints("x y z")
    flag = z3.Bool("flag")
    shared = x * y + 3
    terms = [z3.And(x % 7 == y, z3.Or(flag, shared > 3), z3.If(z > 0, x, y) == 2, shared < z / 2),
             z3.BoolVal(True), x + 1 > 0, z3.ForAll([x], x + y > z), z3.Exists([x], z3.And(x > y, flag)),
             z3.Distinct(x, y, z3.IntVal(4))]
    for f in terms:
        assert runner._names(f) == _names_by_z3py(f), f
    assert runner._names(terms[0]) == {"x", "y", "z", "flag"}


def test_the_runners_tuning_is_one_documented_table():
    """Issue 29: the solver tactics' budget is ``runner.TUNING`` (a frozen ``Tuning``), every field with a
    comment saying what it tunes; no other numeric constant at the runner's module level."""
    import ast
    import dataclasses
    source = Path(runner.__file__).read_text()
    tree = ast.parse(source)
    loose = [t.id for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Constant, ast.BinOp))
             for t in node.targets if isinstance(t, ast.Name) and t.id.isupper()
             and isinstance(getattr(node.value, "value", 0), (int, float))]
    assert not loose, f"tuning constants outside runner.Tuning: {loose}"
    fields = dataclasses.fields(runner.Tuning)
    assert len(fields) >= 20 and dataclasses.is_dataclass(runner.TUNING) and runner.Tuning.__dataclass_params__.frozen
    lines = source.splitlines()
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tuning")
    undocumented = [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign)
                    and "#" not in lines[s.lineno - 1] and "#" not in lines[s.lineno]]
    assert not undocumented, f"fields of runner.Tuning without a comment: {undocumented}"
