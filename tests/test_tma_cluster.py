"""Issue 30 item 3, the parts that span CTAs and copies: the cluster rank (``from = "ctarank"``), the
multicast's disjoint destinations (``tma_multicast``) and mbarrier phases (``phase``: ``tma_tx`` over
the sum of a phase's loads).  Each proof is held to the decider's restatement too."""
import copy
import shutil
import subprocess
from pathlib import Path

import pytest

from tilecheck import decide
from tilecheck.check import from_dict, load
from tilecheck.emit.errors import EmitError
from tilecheck.emit.kernel import kernel
from tilecheck.errors import InputError
from tilecheck.gpu.reference import _cta_values, buffer_sizes
from tilecheck.report import prove

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
MULTICAST = LOAD + ".multicast::cluster"


def multicast(offset="4096*r", mask=3, rank_max=1, rank=True, coords=("64*k", "128*m + 64*r")):
    """A 2-CTA multicast of a 128 x 64 float16 tile: CTA r loads rows 64*r.. to both CTAs, at ``offset``."""
    d = {"arch": "sm_90", "assume": ["64*k + 64 <= K", "128*m + 128 <= M"],
         "symbols": {"M": {"min": 128, "max": 4096, "multiple_of": 128},
                     "K": {"min": 64, "max": 4096, "multiple_of": 64},
                     "m": {"min": 0, "max": 31}, "k": {"min": 0, "max": 63}},
         "tensors": {"A": {"dtype": "float16", "scope": "global", "shape": ["M", "K"], "align": 256},
                     "S": {"dtype": "float16", "scope": "shared", "shape": [64, 64],
                           "layout": "Sw<3,3,3> o (64,64):(64,1)", "align": 1024, "offset": offset}},
         "tensormaps": {"TA": {"tensor": "A", "dims": ["K", "M"], "strides": ["2*K"], "box": [64, 64],
                               "swizzle": "128B"}},
         "apply": [{"opcode": MULTICAST, "dst": "S: i j -> (i j)", "src": "A[0:1, 0:1]", "tensormap": "TA",
                    "coords": list(coords), "cta_mask": mask, "expect_tx": 8192 * bin(mask).count("1")}]}
    if rank:
        d["symbols"] = {"r": {"from": "ctarank", "max": rank_max}, **d["symbols"]}
    return d


def outcome(d, name, apply=0):
    c = d if not isinstance(d, dict) else from_dict(copy.deepcopy(d))
    o = prove(c).applies[apply].obligation(name)
    want = decide.decide(c)[apply].get(name)
    if o is not None and o.status in ("proved", "refuted"):  # the decider's restatement agrees, and replays
        assert want is not None and want[0] == o.status, (name, o.status, want)
        if o.status == "refuted":
            assert decide.violation_at(c, apply, name, o.counterexample) is None, o.message
    return o


# --- the cluster rank ---

def test_a_ctarank_symbol_takes_every_rank_of_the_cluster():
    c = from_dict(multicast(rank_max=3, mask=0b1111))
    r = c.symbols["r"]
    assert (r.min, r.max, r.multiple_of, r.source, r.rank, r.per_cta, r.register) == \
        (0, 3, 1, "ctarank", True, True, "%cluster_ctarank")
    for bad, words in (({"from": "ctarank"}, "needs max"), ({"from": "ctarank", "max": 16}, "0..15"),
                       ({"from": "ctarank", "min": 1, "max": 3}, "from 0"),
                       ({"from": "ctarank", "max": 3, "multiple_of": 2}, "multiple_of is not allowed")):
        d = multicast()
        d["symbols"]["r"] = bad
        with pytest.raises(InputError, match=words):
            from_dict(d)


def _store(start):
    return {"arch": "sm_90", "threads": 32, "symbols": {"r": {"from": "ctarank", "max": 3}},
            "tensors": {"G": {"dtype": "float32", "scope": "global", "shape": [128], "align": 16},
                        "R": {"dtype": "float32", "scope": "register", "shape": [32], "layout": "(32):(1@laneid)"}},
            "apply": [{"opcode": "st.global.b32", "scope": "warp", "dst": f"G[{start}:{start}+32]: l -> l ()",
                       "src": "R: l -> l ()"}]}


def test_disjoint_compares_the_stores_of_two_ranks_of_the_cluster():
    o = outcome(_store("0"), "disjoint")
    assert o.status == "refuted" and "two CTAs" in o.message
    assert outcome(_store("32*r"), "disjoint").status == "proved"


def test_the_kernel_reads_cluster_ctarank_at_ptx_7_8_and_sm_90_only(tmp_path):
    c = from_dict(_store("32*r"))
    text = kernel(prove(c).plan)
    assert "mov.u32" in text and ", %cluster_ctarank;" in text
    assert ".version 7.8" in text
    with pytest.raises(EmitError, match="sm_90 or newer"):
        kernel(prove(from_dict({**_store("32*r"), "arch": "sm_80"})).plan)
    from tilecheck.tools import ToolNotFound, find_tool
    try:
        ptxas = find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    (tmp_path / "k.ptx").write_text(text)
    r = subprocess.run([ptxas, "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (tmp_path / "k.ptx").write_text(text.replace(".version 7.8", ".version 7.7"))
    r = subprocess.run([ptxas, "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert "%cluster_ctarank' requires PTX ISA .version 7.8" in r.stderr


def test_a_run_launches_no_cluster_every_cta_is_rank_0():
    c = from_dict(_store("32*r"))
    assert _cta_values(c, {}) == [{"r": 0}]
    assert buffer_sizes(c, {})["G"] == 128


# --- tma_multicast ---

def test_the_examples_halves_proved_and_the_same_half_refuted_with_ranks_and_byte():
    c = load(EXAMPLES / "tma_multicast_halves.toml")
    assert prove(c).verdict == "proved"
    o = outcome(load(EXAMPLES / "tma_multicast_same_half_refuted.toml"), "tma_multicast")
    assert o.status == "refuted" and o.counterexample["ranks"] in ([0, 1], [1, 0])
    assert o.counterexample["byte"] == 0 and ("CTAs 0 and 1" in o.message or "CTAs 1 and 0" in o.message)


def test_tma_multicast_refutes_overlapping_slices_and_names_the_swizzled_byte():
    assert outcome(multicast(), "tma_multicast").status == "proved"
    o = outcome(multicast(offset="2048*r"), "tma_multicast")  # rank 1's slice starts in rank 0's row 32
    assert o.status == "refuted"
    cex = o.counterexample
    k1, k2 = cex["element"], cex["other_element"]
    # the same unswizzled byte: row*128 + col*2 (+ 4096 for rank 1's slice)
    ra, rb = cex["ranks"]
    assert 4096 * ra + 128 * k1[0] + 2 * k1[1] == 4096 * rb + 128 * k2[0] + 2 * k2[1]
    a = 4096 * ra + 128 * k1[0] + 2 * k1[1]
    assert cex["byte"] == a ^ (((a >> 7) & 7) << 4)  # TMA's 128B swizzle of that address


def test_tma_multicast_without_the_rank_refutes_two_ctas_and_a_single_cta_proves():
    o = outcome(multicast(offset=0, rank=False, coords=("64*k", "128*m")), "tma_multicast")
    assert o.status == "refuted" and sorted(o.counterexample["ranks"]) == [0, 1]
    assert outcome(multicast(offset=0, rank=False, coords=("64*k", "128*m"), mask=0b100),
                   "tma_multicast").status == "proved"


def test_tma_multicast_refutes_a_mask_past_the_cluster():
    o = outcome(multicast(mask=0b101), "tma_multicast")
    assert o.status == "refuted" and "names CTA 2, but the cluster has 2 CTAs" in o.message
    assert outcome(multicast(mask=0b101, rank_max=2, offset="4096*(r//2)"), "tma_multicast").status == "proved"


def test_tma_multicast_is_decided_of_multicast_loads_only():
    d = multicast()
    d["apply"][0].update(opcode=LOAD, expect_tx=8192)
    del d["apply"][0]["cta_mask"]
    r = prove(from_dict(d))
    assert "tma_multicast" not in [o.name for o in r.applies[0].obligations] and r.verdict == "proved"
    assert "tma_multicast" not in decide.decide(from_dict(d))[0]


# --- phases ---

def test_the_phase_examples_sum_a_and_b_boxes():
    c = load(EXAMPLES / "tma_phase_ab.toml")
    assert prove(c).verdict == "proved" and c.applies[1].opcode.expect_tx == c.applies[0].opcode.expect_tx
    c = load(EXAMPLES / "tma_phase_ab_one_box_refuted.toml")
    for k in (0, 1):
        o = outcome(c, "tma_tx", k)
        assert o.status == "refuted" and (o.counterexample["expect_tx"], o.counterexample["delivered"]) == \
            (16384, 32768)
        assert o.counterexample["bytes"] == [16384, 16384] and "16384 (apply[0]) + 16384 (apply[1])" in o.message


def test_a_phase_may_mix_a_box_and_a_bulk_copy():
    d = multicast()
    d["apply"][0].update(phase="p", expect_tx=16384 + 2048)
    d["tensors"]["B"] = {"dtype": "float16", "scope": "global", "shape": [1024], "align": 16}
    d["tensors"]["T"] = {"dtype": "float16", "scope": "shared", "shape": [1024], "align": 128}
    d["apply"].append({"opcode": "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
                       "dst": "T: (r w=8) -> r w", "src": "B: (r w=8) -> r w", "size": 2048, "phase": "p"})
    assert outcome(d, "tma_tx").status == "proved" and outcome(d, "bulk_tx", 1).status == "proved"
    d["apply"][0]["expect_tx"] = 16384
    assert outcome(d, "tma_tx").status == "refuted"
    o = outcome(d, "bulk_tx", 1)
    assert o.status == "refuted" and o.counterexample["delivered"] == 16384 + 2048


def test_tma_multicast_agrees_with_the_decider_on_drawn_slices():
    """Swizzles (none, 64B, 128B with 64-byte rows: padded to 128), rank strides and masks: the prover's
    unswizzled comparison against the decider's enumeration of each rank's bytes."""
    import random
    rng = random.Random(3)
    seen = {"proved": 0, "refuted": 0}
    for _ in range(24):
        rows, swizzle = rng.choice([8, 16]), rng.choice(["none", "64B", "128B"])
        step = rng.choice([0, 256, 512, 1024])  # elements between two ranks' slices
        mask = rng.choice([0b11, 0b101, 0b1010, 0b1111, 0b110])
        d = multicast(offset=f"{step}*r", mask=mask, rank_max=3, coords=("0", f"{rows}*r"))
        d["tensors"]["S"].update(shape=[rows, 32], layout=f"({rows},32):(32,1)")
        d["tensormaps"]["TA"].update(box=[32, rows], swizzle=swizzle)
        d["apply"][0]["expect_tx"] = 64 * rows * bin(mask).count("1")
        d["assume"] = []
        o = outcome(d, "tma_multicast")
        seen[o.status] += 1
        pitch = 128 if swizzle == "128B" else 64
        rs = [i for i in range(4) if mask >> i & 1]
        gap = min(b - a for a, b in zip(rs, rs[1:]))  # the nearest two ranks of the mask
        assert (o.status == "proved") == (2 * step * gap >= pitch * rows), (rows, swizzle, step, mask, o.message)
    assert seen["proved"] and seen["refuted"], seen


def test_a_phase_with_a_broken_member_is_unknown_never_proved():
    d = multicast()
    d["apply"][0].update(phase="p", expect_tx=16384 + 8192)
    d["apply"].append(dict(d["apply"][0], tensormap="NOPE"))
    r = prove(from_dict(d))
    assert r.applies[0].obligation("tma_tx").status == "unknown"
    assert r.applies[1].obligation("tma_map").status == "refuted"
