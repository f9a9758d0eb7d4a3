"""The brute-force decider (tilecheck.decide) on its own: the issue's cases, the skip table,
counterexample replay, and the concrete semantics it stands on, checked against independent
re-implementations (numpy for views, CuTe's colexicographic rule for layouts)."""
from itertools import product
from math import prod
from pathlib import Path

import numpy as np
import pytest

import tilecheck.decide as decide_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tilecheck
from tilecheck.decide import ORDER, assignments, decide, violation_at
from tilecheck.layout import ThreadStride, _leaves, parse_layout
from tilecheck.strategies import checks, layouts, register_layouts, seed_layouts

EXAMPLES = Path(__file__).parent.parent / "examples"


def build(tensors, apply, **top):
    return tilecheck.from_dict({**top, "tensors": tensors, "apply": apply if isinstance(apply, list) else [apply]})


def mem(shape, dtype="float32", scope="global", **kw):
    return {"dtype": dtype, "scope": scope, "shape": list(shape), **kw}


def reg(shape, dtype="float32", **kw):
    return {"dtype": dtype, "scope": "register", "shape": list(shape), **kw}


def statuses(check, i=0, values=None):
    """Each obligation's status but the counted ones (banks, sectors: tests/test_banks.py)."""
    return {k: v[0] for k, v in decide(check, values)[i].items() if k not in ("banks", "sectors")}


def only(*refuted, skipped=()):
    return {n: "refuted" if n in refuted else "skipped" if n in skipped else "proved" for n in ORDER
            if n not in ("banks", "sectors", "guard")  # guard: only applications with guard = true
            and n not in decide_module.FAMILY_RULES}  # a family's own obligations (TMA's): not ld/st's


# --- the examples and the named cases ----------------------------------------------------
@pytest.mark.parametrize("name,refuted", [("seed.toml", ("registers",)), ("cta_shared_store.toml", ()),
                                          ("cta_lane_stride2_refuted.toml", ("ownership",)),
                                          ("region_misaligned_refuted.toml", ("alignment",)),
                                          ("symbolic_tile.toml", ())])
def test_examples(name, refuted):
    check = tilecheck.load(EXAMPLES / name)
    assert statuses(check) == only(*refuted)


def test_interleaved_and_reversed_register_slots_are_disjoint_and_collisions_are_not():
    for layout, offset, refuted in [("(3,2):(2,3)", 0, ()), ("(3,2):(2,-1)", 1, ()), ("(3,2):(1,1)", 0, ("disjoint",))]:
        c = build({"A": mem((3, 2), align=8), "R": reg((3, 2), layout=layout, offset=offset)},
                  {"opcode": "ld.global.v2.b32", "dst": "R", "src": "A"})
        assert statuses(c) == only(*refuted)
    w = decide(c)[0]["disjoint"][1]
    assert w["slot"] == 1 and {w["repeat"] + (w["word"],), w["other"][0] + (w["other"][1],)} == {(0, 1), (1, 0)}


def test_stores_race_across_threads_warps_and_repeats():
    tile = {"A": mem((6, 4), align=16), "R": reg((6, 4))}
    st_ = {"opcode": "st.global.v4.b32", "dst": "A", "src": "R"}
    assert statuses(build(tile, st_)) == only()
    assert statuses(build(tile, st_, threads=64)) == only("disjoint")  # every thread stores the same tile
    w = decide(build(tile, st_, threads=64))[0]["disjoint"][1]
    assert w["thread"] == 1 and w["other"][0] == 0
    assert statuses(build(tile, {**st_, "opcode": "ld.global.v4.b32", "dst": "R", "src": "A"}, threads=64)) == only()
    warp = {"A": mem((32, 4), align=16), "R": reg((32, 4), layout="(32,4):(1@laneid,1)")}
    wst = {"opcode": "st.global.v4.b32", "scope": "warp", "dst": "A", "src": "R"}
    assert statuses(build(warp, wst, threads=32)) == only()
    assert statuses(build(warp, wst, threads=64)) == only("disjoint")
    cta = {"S": mem((4, 32, 3, 4), align=16, layout="(4,32,3,4):(0,0,4,1)"),
           "R": reg((4, 32, 3, 4), layout="(4,32,3,4):(1@warpid,1@laneid,4,1)")}
    assert statuses(build(cta, {"opcode": "st.global.v4.b32", "scope": "cta", "dst": "S", "src": "R"},
                          threads=128)) == only("disjoint")  # 128 threads on the same 48 bytes


def test_targets_and_widths():
    t = {"A": mem((2, 8), align=32), "R": reg((2, 8))}
    a = {"opcode": "ld.global.v8.b32", "dst": "R", "src": "A"}
    assert statuses(build(t, a)) == only("target")
    assert statuses(build(t, a, arch="sm_100a")) == only()
    t16 = {"A": mem((2, 8), "float16", align=16), "R": reg((2, 8), "float16")}
    assert statuses(build(t16, {**a, "opcode": "ld.global.v8.b16"}, arch="sm_100a"))["target"] == "refuted"
    assert statuses(build(t, {**a, "opcode": "ld.global.v8.b16"}))["width"] == "refuted"


def test_shared_offsets_overflow_at_2_to_32():
    for stride, refuted in [(2**30, ("overflow",)), (2**30 - 4, ())]:
        c = build({"A": mem((2, 4), scope="shared", align=16, layout=f"(2,4):({stride},1)"), "R": reg((2, 4))},
                  {"opcode": "ld.shared.v4.b32", "dst": "R", "src": "A"})
        assert statuses(c) == only(*refuted)


def test_slices_bounds_and_negative_strides():
    t = {"A": mem((8, 5), align=16), "R": reg((8, 4))}
    c = build(t, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A[:, 2:6]"})
    assert statuses(c) == only("bounds", "alignment", skipped=("overflow",))
    w = decide(c)[0]["bounds"][1]
    assert (w["start"], w["stop"], w["extent"]) == (2, 6, 5)
    for offset, refuted in [(0, ("bounds",)), (12, ())]:
        c = build({"A": mem((4, 4), align=16, layout="(4,4):(-4,1)", offset=offset), "R": reg((4, 4))},
                  {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
        assert statuses(c) == (only(*refuted, skipped=("overflow",)) if refuted else only())


# --- the prerequisite table ----------------------------------------------------------------------
def test_skips_follow_the_table():
    t = {"A": mem((2, 4), scope="shared", align=16), "R": reg((2, 4))}
    c = build(t, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert statuses(c) == only("space", skipped=("contiguity", "alignment", "ownership", "disjoint", "bounds",
                                                  "overflow"))
    c = build({"A": mem((6, 4), align=16, layout="(6,4):(8,2)"), "R": reg((6, 4))},
              {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert statuses(c) == only("contiguity", skipped=("alignment",))
    lane = {"A": mem((4, 4), align=16), "R": reg((4, 4), layout="(4,4):(1@laneid,1)")}
    assert statuses(build(lane, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})) == \
        only("ownership", skipped=("disjoint",))
    assert statuses(build(lane, {"opcode": "st.global.v4.b32", "dst": "A", "src": "R"})) == only("ownership")


# --- symbols --------------------------------------------------------------------------------------
def test_assignments_take_both_ends_and_respect_the_facts():
    c = tilecheck.load(EXAMPLES / "symbolic_tile.toml")
    envs = assignments(c)
    assert envs and all(e["r0"] + 8 <= e["n"] and e["c0"] + 8 <= e["k"] and e["k"] % 8 == 0 for e in envs)
    assert {e["k"] for e in envs} >= {8, 65536}
    one = build({"A": mem(("n", 4), align=16), "R": reg((2, 4))}, {"opcode": "ld.global.v4.b32", "dst": "R",
                                                                   "src": "A[0:2, :]"},
                symbols={"n": {"min": 3, "max": 100, "multiple_of": 2}})
    assert [e["n"] for e in assignments(one)] == [4, 6, 8, 96, 98, 100]


def test_symbolic_refutation_names_its_symbols():
    c = build({"X": mem(("n", "k"), "float16", align=16), "R": reg((8, 8), "float16")},
              {"opcode": "ld.global.v4.b16", "dst": "R: r (v=2 w) -> r v w",
               "src": "X[0:8, 0:8]: r (v=2 w) -> r v w"},
              symbols={"n": {"min": 8, "max": 64}, "k": {"min": 8, "max": 64, "multiple_of": 2}})
    st_, w = decide(c)[0]["alignment"]
    assert st_ == "refuted" and w["symbols"]["k"] % 4 == 2
    assert statuses(c, values={"n": 8, "k": 8}) == only()


# --- replaying counterexamples ------------------------------------------------------------------
def test_violation_at_accepts_real_counterexamples_and_rejects_others():
    c = build({"A": mem((6, 4), align=16, layout="(6,4):(8,2)"), "R": reg((6, 4))},
              {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    cex = tilecheck.prove(c).applies[0].obligation("contiguity").counterexample
    assert violation_at(c, 0, "contiguity", cex) is None
    assert "holds" in violation_at(c, 0, "contiguity", {**cex, "word": 0})
    assert "outside" in violation_at(c, 0, "contiguity", {**cex, "word": 9})
    s = build({"A": mem((6, 4), align=16), "R": reg((6, 4))},
              {"opcode": "st.global.v4.b32", "dst": "A", "src": "R"}, threads=64)
    cex = tilecheck.prove(s).applies[0].obligation("disjoint").counterexample
    assert violation_at(s, 0, "disjoint", cex) is None
    assert violation_at(s, 0, "disjoint", {**cex, "second": cex["first"]}) is not None


# --- the concrete semantics, against independent re-implementations -------------------------------
def _cute(layout, index):
    """CuTe: each top-level coordinate split colexicographically over its mode's leaves."""
    off = 0
    for c, shape, stride in zip(index, layout.shape, layout.stride):
        shapes = [int(s) for s in _leaves(shape)]
        strides = _leaves(stride)
        for k, (s, d) in enumerate(zip(shapes, strides)):
            digit = c // prod(shapes[:k]) % s if k < len(shapes) - 1 else c // prod(shapes[:k])
            off += digit * (0 if isinstance(d, ThreadStride) else int(d))
    return off


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.one_of(layouts(), register_layouts("thread"), register_layouts("warp"), register_layouts("cta", 64),
                 seed_layouts().map(lambda t: ((15, 2, 7, 2), t))))
def test_layout_evaluation_and_cosize_match_cute(shape_and_text):
    shape, text = shape_and_text
    lay = parse_layout(text)
    offsets = [_cute(lay, idx) for idx in product(*(range(s) for s in shape))]
    assert [lay(idx)[""] for idx in product(*(range(s) for s in shape))] == offsets
    assert lay.cosize() == max(offsets) + 1


def _numpy_view(view, tensor_shape):
    """The view's logical indices by numpy reshape/transpose (einops semantics)."""
    grids = np.meshgrid(*[np.arange(e) + s for e, s in zip(view.extents, view.starts)], indexing="ij")
    names = [n for group in view.left for n in group]
    sizes = [view.size[n] for n in names]
    order = [names.index(n) for group in view.axes for n in group]
    return [g.reshape(sizes).transpose(order).reshape(view.shape) for g in grids]


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(checks(max_points=256))
def test_view_index_matches_numpy_rearrange(data):
    check = tilecheck.from_dict(data)
    for a in check.applies:
        for view in (a.dst, a.src):
            if any(not isinstance(s, int) for s in view.starts):
                continue
            ref = _numpy_view(view, check.tensors[view.tensor].shape)
            for coords in product(*(range(e) for e in view.shape)):
                assert view.index(coords) == tuple(int(g[coords]) for g in ref)
