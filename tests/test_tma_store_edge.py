"""tma_store_edge (a TMA store starts inside the tensor and writes whole 16-byte chunks only inside it: the
H200's tma_probe 0434/0435/0695/0696) and tma_region (the map's bytes inside its global tensor): the
prover and the decider's restatement (families/tma.py RULES) agree on the examples and on drawn cases."""
from pathlib import Path

import pytest

import tilecheck
from tilecheck import decide
from tilecheck.check import from_dict
from tilecheck.report import prove

from test_tma_family import STORE, base

EXAMPLES = Path(__file__).parent.parent / "examples"
STORES = {"apply/0/opcode": STORE, "apply/0/dst": "A[0:1, 0:1]", "apply/0/src": "S: i j -> (i j)",
          "apply/0/expect_tx": None}


def outcome(check, name):
    return prove(check).applies[0].obligation(name)


def agree(check, name, limit=10**3):
    """The prover's status of ``name`` (first apply); a refutation replays on the decider, and the decider
    over its own assignments reaches the same verdict."""
    o = outcome(check, name)
    want = decide.decide(check, limit=limit)[0][name][0]
    assert o.status == want, (name, o.status, want, o.message)
    if o.status == "refuted":
        assert decide.violation_at(check, 0, name, o.counterexample) is None, o.message
    return o


@pytest.mark.parametrize("name, status", [("tma_store_far_edge_unaligned_refuted.toml", "refuted"),
                                          ("tma_store_negative_coord_refuted.toml", "refuted"),
                                          ("tma_store_ragged_rows.toml", "proved")])
def test_store_edge_examples_prover_and_decider_agree(name, status):
    c = tilecheck.load(EXAMPLES / name)
    assert agree(c, "tma_store_edge").status == status


def test_the_messages_name_the_measurement():
    o = outcome(tilecheck.load(EXAMPLES / "tma_store_far_edge_unaligned_refuted.toml"), "tma_store_edge")
    assert "bytes 2..15 of row 0" in o.message and "tma_probe 0434/0695" in o.message
    assert o.counterexample["symbols"]["N"] == 1 and o.counterexample["bytes"] == [2, 15]
    o = outcome(tilecheck.load(EXAMPLES / "tma_store_negative_coord_refuted.toml"), "tma_store_edge")
    assert "coords[0] = 64*n - 8 = -8" in o.message and "tma_probe 0435/0696" in o.message


def test_loads_do_not_have_it_and_the_proved_store_keeps_its_verdict():
    assert "tma_store_edge" not in {o.name for o in prove(from_dict(base())).applies[0].obligations}
    assert agree(from_dict(base(**STORES)), "tma_store_edge").status == "proved"


@pytest.mark.parametrize("coords, status", [(["64*k", "128*m - 1"], "refuted"),  # dimension 1 only
                                            (["64*k - 8", "128*m"], "refuted"),  # dimension 0 only
                                            (["64*k + 64", "128*m"], "proved")])  # inside (K >= 64*k + 128)
def test_negative_coordinates_in_any_dimension(coords, status):
    d = base(**STORES, **{"apply/0/coords": coords, "assume": ["64*k + 128 <= K", "128*m + 128 <= M"]})
    assert agree(from_dict(d), "tma_store_edge").status == status


@pytest.mark.parametrize("multiple, status", [(8, "proved"), (4, "refuted"), (1, "refuted")])
def test_symbolic_inner_extent(multiple, status):
    """A store box that may reach past a symbolic dims[0] = K (the rows 2*L bytes apart): proved exactly
    when K float16 are whole 16-byte chunks for every K the facts allow."""
    d = base(**STORES, **{"assume": ["64*k < K", "K <= L", "128*m + 128 <= M"],
                          "symbols/K": {"min": 1, "max": 4096, "multiple_of": multiple},
                          "symbols/L": {"min": 64, "max": 4096, "multiple_of": 64},
                          "tensors/A/shape": ["M", "L"], "tensormaps/TA/strides": ["2*L"]})
    o = agree(from_dict(d), "tma_store_edge")
    assert o.status == status
    if status == "refuted":
        k = o.counterexample["symbols"]["K"]
        assert (2 * k) % 16 and o.counterexample["bytes"] == [2 * k, -(-2 * k // 16) * 16 - 1]


# --- tma_region -----------------------------------------------------------------------------------

@pytest.mark.parametrize("over, status", [
    ({}, "proved"),
    ({"tensormaps/TA/dims": ["2*K", "M"]}, "refuted"),  # dims[0] in bytes
    ({"tensormaps/TA/dims": ["K", "M + 1"]}, "refuted"),  # one row too many
    ({"tensormaps/TA/strides": ["4*K"]}, "refuted"),  # a stride of two rows
    ({"tensors/A/offset": "K"}, "proved"),  # the map's address moves with the tensor's offset, and its buffer
    ({"apply/0/opcode": STORE, "apply/0/dst": "A[0:1, 0:1]", "apply/0/src": "S: i j -> (i j)",
      "apply/0/expect_tx": None, "tensormaps/TA/dims": ["K + 8", "M"]}, "refuted"),  # a store too
])
def test_region_prover_and_decider_agree(over, status):
    assert agree(from_dict(base(**over)), "tma_region").status == status


def test_region_example_names_the_bytes():
    c = tilecheck.load(EXAMPLES / "tma_map_past_tensor_refuted.toml")
    o = agree(c, "tma_region")
    assert o.status == "refuted" and o.counterexample["last_byte"] == 16511 and o.counterexample["tensor_bytes"] == 16384
    assert "tensormaps.TA reaches bytes 0 .. 16511 of A" in o.message


def test_region_holds_on_every_proved_tma_example():
    for f in sorted(EXAMPLES.glob("tma_*.toml")):
        c = tilecheck.load(f)
        for k, a in enumerate(c.applies):
            if "tma_region" in a.family.applicable(a.opcode) and f.name != "tma_map_past_tensor_refuted.toml":
                o = prove(c).applies[k].obligation("tma_region")
                assert o.status == "proved", (f.name, o.message)


def test_a_map_over_the_whole_batch_on_one_matrix():
    """A strided batch: the tensor is matrix b of the batch (``offset = b*M*K``), its buffer the matrices up
    to b; a map over one matrix is inside it, a map over all B matrices (dims [K, B*M]) reaches past it
    for every b < B - 1."""
    over = {"symbols/b": {"min": 0, "max": 3}, "symbols/B": {"min": 1, "max": 4}, "tensors/A/offset": "b*M*K",
            "assume": ["64*k + 64 <= K", "128*m + 128 <= M", "b < B"]}
    assert agree(from_dict(base(**over)), "tma_region", limit=200).status == "proved"
    o = agree(from_dict(base(**over, **{"tensormaps/TA/dims": ["K", "B*M"]})), "tma_region", limit=200)
    assert o.status == "refuted" and o.counterexample["symbols"]["B"] > 1
