"""tma_disjoint (a TMA store's box against another CTA's: no global byte in common) and the generic
``disjoint`` on a bulk store across CTAs: the examples, the decider's restatement (``Family.cta_rules``,
``decide.across_ctas``) and the replay of every counterexample."""
import copy
from pathlib import Path

import pytest

from tilecheck import decide
from tilecheck.check import from_dict, load
from tilecheck.report import prove

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def grid(coord="2*t", source="ctaid.x", top=7, rows=16, box_rows=2, es=1, offset=None, dims_rows=None):
    """CTA t of a grid stores a tile of ``box_rows`` rows of 32 float32 at row ``coord`` of a 16 x 32 C."""
    d = {"arch": "sm_90", "symbols": {"t": {"from": source, "min": 0, "max": top}},
         "tensors": {"C": {"dtype": "float32", "scope": "global", "shape": [rows, 32], "align": 256},
                     "S": {"dtype": "float32", "scope": "shared", "shape": [-(-box_rows // es), 32],
                           "layout": f"({-(-box_rows // es)},32):(32,1)", "align": 1024}},
         "tensormaps": {"TC": {"tensor": "C", "dims": [32, dims_rows or rows], "strides": [128],
                               "box": [32, box_rows], **({"element_strides": [1, es]} if es > 1 else {})}},
         "apply": [{"opcode": STORE, "dst": "C[0:1, 0:1]", "src": "S: i j -> (i j)", "tensormap": "TC",
                    "coords": [0, coord]}]}
    if source == "ctarank":
        d["symbols"]["t"] = {"from": "ctarank", "max": min(top, 15)}
    if offset is not None:
        d["tensors"]["C"]["offset"] = offset
    return d


def verdict(d, name="tma_disjoint"):
    """The prover's and the decider's verdicts agree; a refutation replays on the decider."""
    c = from_dict(copy.deepcopy(d))
    o = prove(c).applies[0].obligation(name)
    want = decide.decide(c)[0][name][0]
    assert o.status == want, (o.status, want, o.message)
    if o.status == "refuted":
        assert decide.violation_at(c, 0, name, o.counterexample) is None, o.counterexample
    return o


def test_the_examples():
    o = prove(load(EXAMPLES / "tma_store_ctas_overlap_refuted.toml")).applies[0].obligation("tma_disjoint")
    assert o.status == "refuted" and "CTA (t=0) and CTA (t=1)" in o.message and "byte 256 of C" in o.message
    assert o.counterexample["symbols"]["t"] != o.counterexample["other_symbols"]["t"]
    assert prove(load(EXAMPLES / "tma_store_ctas_disjoint.toml")).verdict == "proved"


@pytest.mark.parametrize("coord, status", [("2*t", "proved"), ("t", "refuted"), ("3*t", "proved"), ("0", "refuted"),
                                           ("2*t + 1", "proved")])
def test_tiles_apart_are_proved_and_overlapping_ones_refuted(coord, status):
    assert verdict(grid(coord, top=4)).status == status


def test_clipped_rows_do_not_race_but_rows_inside_do():
    """Rows past dims are not written: two CTAs whose boxes meet only past the map's last row do not race."""
    assert verdict(grid("t + 15", top=1, dims_rows=16)).status == "proved"  # CTA 1's box is rows 16, 17: none
    assert verdict(grid("t + 14", top=1, dims_rows=16)).status == "refuted"  # row 15: both


def test_element_strides_interleave_two_ctas_without_a_race():
    """A box of 4 rows with element stride 2 writes rows c, c+2: CTAs at rows t and t+... interleave."""
    assert verdict(grid("4*t", top=3, box_rows=4, es=2)).status == "proved"
    assert verdict(grid("t", top=1, box_rows=4, es=2)).status == "proved"  # rows 0, 2 and 1, 3
    assert verdict(grid("2*t", top=1, box_rows=4, es=2)).status == "refuted"  # rows 0, 2 and 2, 4


def test_cluster_ranks_are_ctas_too():
    assert verdict(grid("2*t", source="ctarank", top=3)).status == "proved"
    assert verdict(grid("t", source="ctarank", top=3)).status == "refuted"


def test_without_a_cta_bound_symbol_there_is_nothing_to_compare():
    d = grid("2*t")
    d["symbols"]["t"] = {"min": 0, "max": 7}
    assert verdict(d).status == "proved"
    d["apply"][0]["coords"] = [0, "t"]  # one CTA: sequential stores of one kernel are not compared
    assert verdict(d).status == "proved"


def test_a_load_is_not_compared():
    d = grid("t")
    d["apply"][0] = {"opcode": "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
                     "dst": "S: i j -> (i j)", "src": "C[0:1, 0:1]", "tensormap": "TC", "coords": [0, "t"],
                     "expect_tx": 256}
    assert "tma_disjoint" not in {o.name for o in prove(from_dict(d)).applies[0].obligations}


def test_a_replay_of_one_cta_or_of_two_launches_is_refused():
    c = load(EXAMPLES / "tma_store_ctas_overlap_refuted.toml")
    assert decide.violation_at(c, 0, "tma_disjoint", {"symbols": {"t": 0}, "other_symbols": {"t": 2}})
    assert decide.violation_at(c, 0, "tma_disjoint", {"symbols": {"t": 3}, "other_symbols": {"t": 4}}) is None


def test_a_bulk_store_is_held_to_disjoint_across_ctas():
    d = {"arch": "sm_90", "symbols": {"q": {"from": "ctaid.x", "min": 0, "max": 3}},
         "tensors": {"H": {"dtype": "float32", "scope": "global", "shape": [128], "align": 16},
                     "B": {"dtype": "float32", "scope": "shared", "shape": [32], "align": 128}},
         "apply": [{"opcode": "cp.async.bulk.global.shared::cta.bulk_group", "dst": "H[32*q:32*q+32]: (r w=4) -> r w",
                    "src": "B: (r w=4) -> r w", "size": 128}]}
    assert verdict(d, "disjoint").status == "proved"
    d["tensors"]["H"]["shape"] = [64]
    d["apply"][0]["dst"] = "H[8*q:8*q+32]: (r w=4) -> r w"
    o = verdict(d, "disjoint")
    assert o.status == "refuted" and "two CTAs" in o.message


def test_two_applications_of_a_grid_on_one_global_tensor_are_unknown_not_proved():
    """Obligations compare one application across CTAs: CTA b's second store (row b+1) and CTA b+1's first
    (row b+1) race, which no per-application obligation sees -- so the stores' disjoint is unknown, naming
    the other application (the decider skips it), and the check is not proved."""
    d = {"threads": 32, "symbols": {"b": {"from": "ctaid.x", "min": 0, "max": 3}},
         "tensors": {"A": {"dtype": "uint16", "scope": "global", "shape": [5, 32, 4], "align": 8},
                     "R": {"dtype": "uint16", "scope": "register", "shape": [32, 4], "layout": "(32,4):(1@laneid,1)"}},
         "apply": [{"opcode": "st.global.v4.b16", "scope": "warp", "dst": f"A[{r}:{r}+1, :, :]: o l (r=1 v) -> (o l) r v",
                    "src": "R: l (r=1 v) -> l r v"} for r in ("b", "b+1")]}
    c = from_dict(copy.deepcopy(d))
    r = prove(c)
    assert r.verdict == "unknown"
    for i, a in enumerate(r.applies):
        o = a.obligation("disjoint")
        assert o.status == "unknown" and f"apply[{1 - i}] also reads or writes A" in o.message
    assert [x["disjoint"][0] for x in decide.decide(c)] == ["skipped", "skipped"]
    d["symbols"]["b"] = {"min": 0, "max": 3}  # one CTA: the two stores run in order
    assert prove(from_dict(d)).applies[0].obligation("disjoint").status == "proved"
    t = grid("2*t")  # a TMA store and a load of the same tensor C in a grid
    t["apply"].append({"opcode": "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
                       "dst": "S: i j -> (i j)", "src": "C[0:1, 0:1]", "tensormap": "TC", "coords": [0, "2*t"],
                       "expect_tx": 256})
    o = prove(from_dict(t)).applies[0].obligation("tma_disjoint")
    assert o.status == "unknown" and "apply[1]" in o.message
