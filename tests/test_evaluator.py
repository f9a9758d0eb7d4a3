"""One evaluator of views and layouts (crd2idx.py) for ints, numpy arrays and polynomials; the
oracles (decide.py, gpu/reference.py) state the semantics on their own (oracle.py)."""
import ast
from pathlib import Path

import numpy as np
import pytest

from tilecheck import crd2idx, oracle
from tilecheck.check import load_check
from tilecheck.expr import parse_expr
from tilecheck.layout import parse_layout
from tilecheck.poly import Context, Poly
from tilecheck.view import parse_operand

ROOT = Path(__file__).resolve().parents[1]
LAYOUTS = ["(4,8):(8,1)", "((2,4),3):((1,2),8)", "(8,(4,2)):(1@laneid,(2,16@warpid))", "(3,(2,2,3)):(12,(1,6,2))"]


def _oracle_imports(path: Path) -> set[str]:
    mods = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            mods |= {base} | {f"{base}.{a.name}".lstrip(".") for a in node.names}
        elif isinstance(node, ast.Import):
            mods |= {a.name for a in node.names}
    return mods


@pytest.mark.parametrize("path", ["tilecheck/decide.py", "tilecheck/gpu/reference.py"])
def test_oracles_import_nothing_of_the_encoding(path):
    mods = _oracle_imports(ROOT / path)
    shared = ("crd2idx", "encode", "poly", "proofs", "emit")
    assert not [m for m in mods if any(part in shared for part in m.split("."))], mods


def test_oracles_never_call_the_shared_evaluator(monkeypatch):
    """The decider and the reference still work with the shared evaluator broken."""
    from tilecheck.decide import decide
    from tilecheck.gpu.reference import reference
    check = load_check(ROOT / "examples/seed.toml")

    def broken(*a, **k):
        raise AssertionError("an oracle called the shared evaluator")
    for name in ("layout_value", "view_index", "elements", "logical", "operand_value"):
        monkeypatch.setattr(crd2idx, name, broken)
    assert decide(check)  # a verdict per obligation
    assert reference(check, seed=1)


@pytest.mark.parametrize("text", LAYOUTS)
def test_one_evaluator_ints_arrays_polys_and_oracle_agree(text):
    lay = parse_layout(text)
    shape = [int(np.prod(e)) if isinstance(e, tuple) else e for e in lay.extents()]
    grid = np.indices(shape).reshape(len(shape), -1)
    arrays = crd2idx.layout_value(lay, list(grid), crd2idx.Ints(), 5)
    before = grid.copy()
    oracle.layout_value(lay, list(grid), {}, 5)
    assert (grid == before).all()  # neither evaluator changes its inputs
    for k, idx in enumerate(grid.T):
        ints = lay(tuple(int(i) for i in idx), {}, 5)
        assert ints == oracle.layout_value(lay, tuple(int(i) for i in idx), {}, 5)
        assert {a: int(v[k]) for a, v in arrays.items()} == ints
        ctx = Context()
        polys = lay.poly([Poly.const(int(i)) for i in idx], ctx, {}, 5)
        assert {a: p.constant for a, p in polys.items()} == ints


def test_view_index_symbolic_start_agrees():
    view = parse_operand("A[n:n+4, 2:10]: i (j=2 k) -> (i k) j", {"A": (parse_expr("n+4"), 16)})
    env = {"n": 3}
    for c0 in range(16):
        for c1 in range(2):
            got = view.index((c0, c1), env)
            assert got == oracle.view_index(view, (c0, c1), env)
            ctx = Context()
            p = crd2idx.view_index(view, [Poly.const(c0), Poly.const(c1)], crd2idx.Polys(ctx, {"n": Poly.const(3)}))
            assert tuple(q.constant for q in p) == got


def test_ints_on_arrays_are_exact_past_int64():
    """Issue 32 (fuzz seed 20261203): a stride past 2^63 times an int64 array of zeros raised
    OverflowError, and sums of int64 terms near 2^62 would wrap; the numpy domain is exact."""
    big = 2**64 + 5
    lay = parse_layout(f"(4,1):(1,{big})")
    i = np.arange(4, dtype=np.int64)
    out = crd2idx.layout_value(lay, [i, np.zeros(4, dtype=np.int64)], crd2idx.Ints())[""]
    assert [int(v) for v in out] == [0, 1, 2, 3]
    lay = parse_layout(f"(2,2):({2**62},{2**62 + 1})")
    out = crd2idx.layout_value(lay, [np.array([1, 1]), np.array([0, 1])], crd2idx.Ints())[""]
    assert [int(v) for v in out] == [2**62, 2**63 + 1]  # int64 arithmetic would wrap the second
