"""Bounds the linear facts imply (``Query._tighten``): interval propagation, sound and a few rounds."""
import itertools
from pathlib import Path

from hypothesis import given, settings, strategies as st

import tilecheck
from tilecheck import decide
from tilecheck.check import loads
from tilecheck.encode import Query
from tilecheck.report import prove

DATA = Path(__file__).parent / "data"


def _check(a: int, b: int, c: int, op: str, lo: tuple, hi: tuple, m: int = 1) -> str:
    """Two symbols x (a multiple of m), y with bounds and one fact ``a*x + b*y OP c``; a trivial apply."""
    return f'''assume = ["{a}*x + {b}*y {op} {c}"]
[symbols.x]
min = {lo[0]}
max = {hi[0]}
multiple_of = {m}
[symbols.y]
min = {lo[1]}
max = {hi[1]}
[tensors.A]
dtype = "float32"
scope = "global"
shape = ["x + y + 64"]
[tensors.R]
dtype = "float32"
scope = "register"
shape = [1]
[[apply]]
opcode = "ld.global.f32"
dst = "R: v -> v"
src = "A[0:1]: v -> v"
'''


@settings(max_examples=150, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(-20, 20), st.sampled_from([">=", ">", "<=", "<", "=="]),
       st.tuples(st.integers(-6, 0), st.integers(-6, 0)), st.tuples(st.integers(0, 6), st.integers(0, 6)),
       st.sampled_from([1, 1, 2, 3]))
def test_tightened_bounds_hold_at_every_allowed_point(a, b, c, op, lo, hi, m):
    """Every point of the box that satisfies the fact lies within the tightened bounds (brute force), and
    the bounds never cross."""
    ok = {">=": lambda v: v >= c, ">": lambda v: v > c, "<=": lambda v: v <= c, "<": lambda v: v < c,
          "==": lambda v: v == c}[op]
    points = [(x, y) for x, y in itertools.product(range(lo[0], hi[0] + 1), range(lo[1], hi[1] + 1))
              if ok(a * x + b * y) and x % m == 0]
    if not points:  # contradictory facts: an input error, decided before any Query
        return
    check = loads(_check(a, b, c, op, lo, hi, m), "<t>")
    q = Query(check, check.applies[0])
    for name, k, step in (("x" if m == 1 else "x'", 0, m), ("y", 1, 1)):
        var = q.ctx.vars[name]  # x = m * x' when m > 1
        assert var.lo <= var.hi
        assert all(var.lo <= p[k] // step <= var.hi for p in points), (name, var, points)


def test_a_symbol_the_facts_pin_is_pinned_and_the_proof_is_immediate():
    """Seed 77: ``s2 >= 72*s`` and ``s2 <= 65`` leave only s = 0; the swizzled contiguity, unknown at the
    campaign's 2 s bound before (proved in 3.1 s at 10 s), is proved at once; the decider agrees."""
    check = tilecheck.load(DATA / "facts_pin_a_symbol.toml")
    q = Query(check, check.applies[0])
    assert (q.ctx.vars["s"].lo, q.ctx.vars["s"].hi) == (0, 0)
    (o,) = [o for o in prove(check, timeout=2).applies[0].obligations if o.name == "contiguity"]
    assert o.status == "proved", o.message
    envs = [{"r": r, "s": 0, "s2": s2} for r in range(4) for s2 in range(2, 66, 2)]
    assert decide.decide(check, envs)[0]["contiguity"][0] == "proved"


def test_a_stride_the_facts_pin_to_zero_lets_the_residue_rule_decide(monkeypatch):
    """Seed 58 (--swizzled): ``s2 >= 8192*s`` with ``s2 <= 65`` pins the stride s to 0; ``sectors`` (unknown
    at its 1 s budget before) is proved, and the decider agrees on a grid of allowed points."""
    from tilecheck.proofs import warp
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)  # the verdict, not the time
    check = tilecheck.load(DATA / "facts_pin_a_stride.toml")
    q = Query(check, check.applies[0])
    assert (q.ctx.vars["s'"].lo, q.ctx.vars["s'"].hi) == (0, 0)
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "sectors"]
    assert o.status == "proved", o.message
    envs = [{"n": n, "r": r, "s": 0, "s2": s2, "o": o_} for n in (8, 16) for r in range(0, 8, 3)
            for s2 in (8, 16, 40, 64) for o_ in (0, 3, 7) if r + 1 <= n]
    assert decide.decide(check, envs)[0]["sectors"][0] == "proved"
