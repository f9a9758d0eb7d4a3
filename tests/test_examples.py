"""The shipped examples keep their stated expectations."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tilecheck
from tilecheck.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples"

EXPECTED = {  # file -> (verdict, instructions, refuted obligations)
    "seed.toml": ("proved", 105, {"registers"}),
    "staging_fp16_x4.toml": ("proved", 16, {"sectors"}),  # 8 cp.async + 8 ldmatrix.x4; a lane per row: 32 sectors
    "staging_bf16_x4_trans.toml": ("proved", 16, {"sectors"}),  # performance, reported, not blocking
    "cta_shared_store.toml": ("proved", 3, set()),
    "cta_lane_stride2_refuted.toml": ("refuted", 3, {"ownership"}),
    "region_misaligned_refuted.toml": ("refuted", 8, {"alignment"}),
    "symbolic_tile.toml": ("proved", 16, set()),
    "half_packed_v4_b32.toml": ("proved", 8, set()),
    "red_split_k.toml": ("proved", 1, set()),
    "red_misaligned_refuted.toml": ("refuted", 1, {"alignment"}),
    "cp_async_tile.toml": ("proved", 4, {"sectors"}),  # align 16: a base 16 past a sector costs 20, not 16
    "cp_async_cg_8_refuted.toml": ("refuted", 4, {"target", "sectors"}),
    "banks_conflict_refuted.toml": ("refuted", 64, {"banks"}),  # expect = { banks = "conflict-free" }
    "banks_conflict_free.toml": ("proved", 64, set()),
    # banks (performance, reported): the tiles lie row-major, rows 128 / 32 bytes apart (docs/efficiency.md)
    "ldmatrix_x4.toml": ("proved", 16, {"banks"}),
    "ldmatrix_x4_trans.toml": ("proved", 1, {"banks"}),
    "stmatrix_x4.toml": ("proved", 1, {"banks"}),
    "stmatrix_x4_per_warp.toml": ("proved", 1, {"banks"}),
    "staging_unswizzled_banks_refuted.toml": ("refuted", 16, {"banks", "sectors"}),  # banks: the contract
    "ldmatrix_misaligned_row_refuted.toml": ("refuted", 1, {"alignment"}),
    "ldmatrix_not_fragment_refuted.toml": ("refuted", 1, {"ownership", "banks"}),
    "guard_ragged_v4.toml": ("proved", 4, {"sectors"}),  # a lane per row: 32 sectors (ideal 16)
    "guard_straddle_v4_refuted.toml": ("refuted", 1, {"guard", "sectors"}),
    "guard_swizzled_global_refuted.toml": ("refuted", 1, {"bounds"}),  # n=9: lane 8 reads offset 10 of 9
    "cp_async_guard_zfill.toml": ("proved", 8, {"banks", "sectors"}),  # guarded-out lanes inactive; unswizzled
    "swizzle_half_tile.toml": ("proved", 16, set()),
    "swizzle_chunk_split_refuted.toml": ("refuted", 16, {"contiguity"}),
    # tilecheck suggest's demos (docs/efficiency.md): the column read, swizzled; a staged tile (2 applies)
    "banks_column_half_swizzled.toml": ("proved", 64, set()),
    "banks_staged_half_refuted.toml": ("refuted", 32, {"banks"}),
    "banks_staged_half_swizzled.toml": ("proved", 32, set()),
    # the wgmma m64n128k16 accumulator's epilogue (tilecheck/families/wgmma.py; tests/test_wgmma_family.py)
    "wgmma_epilogue_st_global.toml": ("proved", 32, set()),
    "wgmma_epilogue_st_shared.toml": ("proved", 32, set()),  # rows padded to 136 floats: conflict-free
    "wgmma_epilogue_pairing_refuted.toml": ("refuted", 32, {"ownership", "contiguity"}),
    "wgmma_epilogue_rows_refuted.toml": ("refuted", 32, {"ownership"}),
    # TMA copies (issue 30): the users' bugs refuted, their fixes proved; one copy each
    "tma_expect_tx_clamped_box_refuted.toml": ("refuted", 1, {"tma_tx", "tma_box"}),
    "tma_expect_tx_full_box.toml": ("proved", 1, {"tma_box"}),  # the ragged edge: reported, filled, counted
    "tma_inner_coord_unaligned_refuted.toml": ("refuted", 1, {"tma_inner"}),
    "tma_inner_coord_aligned.toml": ("proved", 1, set()),
    "tma_smem_128b_not_1024_aligned_refuted.toml": ("refuted", 1, {"tma_smem"}),
    "tma_smem_1024_aligned.toml": ("proved", 1, set()),
    "tma_swizzle_mismatch_refuted.toml": ("refuted", 1, {"tma_landing"}),
    "tma_swizzle_match.toml": ("proved", 1, set()),
    # the chain (issue 31): two TMA loads, one wgmma through descriptors, the epilogue's 32 stores
    "wgmma_chain.toml": ("proved", 35, set()),
    "wgmma_chain_swizzle_mismatch_refuted.toml": ("refuted", 35, {"desc_layout", "desc_k_advance"}),
    "wgmma_chain_lbo_sbo_unshifted_refuted.toml": ("refuted", 35, {"desc_encoding", "desc_layout"}),
    "wgmma_chain_k_advance_past_atom_refuted.toml": ("refuted", 35, {"desc_k_advance"}),
    "tma_store_ragged_rows.toml": ("proved", 1, {"tma_box"}),  # the rows past M: reported, not written
    # bench/tma_copy.py's fastest copy: a load, then a store, of the rows of CTA t (an odd H: the edge)
    "tma_copy_wave.toml": ("proved", 2, {"tma_box"}),
    # a grid of CTAs storing 2-row tiles: at row t the boxes of CTAs t and t+1 share a row (a race); at 2t not
    "tma_store_ctas_overlap_refuted.toml": ("refuted", 1, {"tma_disjoint"}),
    "tma_store_ctas_disjoint.toml": ("proved", 1, set()),
    "tma_edge_nan_fill.toml": ("proved", 1, {"tma_box"}),  # across both far edges: NaN-filled, counted
    "tma_multicast_halves.toml": ("proved", 1, set()),
    "tma_multicast_same_half_refuted.toml": ("refuted", 1, {"tma_multicast"}),
    "tma_phase_ab.toml": ("proved", 2, set()),
    "tma_phase_ab_one_box_refuted.toml": ("refuted", 2, {"tma_tx"}),  # on both applies of the phase
    # stores at the tensor's edges (the H200: tma_probe 0434/0695 wrote past the row, 0435/0696 faulted)
    "tma_store_far_edge_unaligned_refuted.toml": ("refuted", 1, {"tma_store_edge", "tma_box"}),
    "tma_store_negative_coord_refuted.toml": ("refuted", 1, {"tma_store_edge", "tma_box"}),
    "tma_map_past_tensor_refuted.toml": ("refuted", 1, {"tma_region"}),  # dims[0] in bytes: past the tensor
    "bulk_copy_row.toml": ("proved", 2, set()),  # the load and the store: one instruction each
    "bulk_size_2040_refuted.toml": ("refuted", 1, {"bulk_copy"}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example(name):
    verdict, count, refuted = EXPECTED[name]
    report = tilecheck.prove(tilecheck.load(EXAMPLES / name))
    assert report.verdict == verdict
    assert sum(a.instructions for a in report.applies) == count  # summed over the applies
    obligations = [o for a in report.applies for o in a.obligations]
    assert {o.name for o in obligations if o.status == "refuted"} == refuted
    assert not [o for o in obligations if o.status == "unknown"]


# tensor maps only (issue 30): file -> (verdict, the descriptor rule refuted, its minimal symbol values)
TENSORMAPS = {
    "tma_box_wider_than_swizzle_refuted.toml": ("refuted", "swizzle_span", {"K": 64, "M": 128}),
    "tma_box_within_swizzle.toml": ("proved", None, None),
    "tma_stride_1022_refuted.toml": ("refuted", "stride_multiple", {}),
    "tma_stride_padded.toml": ("proved", None, None),
    # 2*C*W*H first passes 2^31 - 1 at C = 64 (the smallest C), then W = 4096, H = 4096 (their smallest)
    "tma_stride_int32_overflow_refuted.toml": ("refuted", "computed_in", {"C": 64, "W": 4096, "H": 4096, "N": 1}),
    "tma_stride_int64.toml": ("proved", None, None),
}


@pytest.mark.parametrize("name", sorted(TENSORMAPS))
def test_tensormap_example(name):
    verdict, rule, symbols = TENSORMAPS[name]
    report = tilecheck.prove(tilecheck.load(EXAMPLES / name))
    assert report.verdict == verdict and not report.applies
    ((m, (o,)),) = report.tensormaps
    assert o.name == "descriptor" and o.status == verdict
    if rule is not None:
        assert o.counterexample["rule"] == rule and o.counterexample["symbols"] == symbols
        assert f"tensormaps.{m.name}: {rule}: " in o.message


def test_every_example_is_covered():
    assert {p.name for p in EXAMPLES.glob("*.toml")} == set(EXPECTED) | set(TENSORMAPS)


def test_misaligned_region_counterexample_names_the_row():
    report = tilecheck.prove(tilecheck.load(EXAMPLES / "region_misaligned_refuted.toml"))
    o = report.applies[0].obligation("alignment")
    cex = o.counterexample
    row = cex["index"][0]
    assert cex["index"] == [row, 1] and cex["byte_offset"] == 20 * row + 4
    assert cex["byte_offset"] % 16 != 0 and "not a multiple of 16" in o.message


def test_lane_stride_counterexample_is_a_real_foreign_lane():
    report = tilecheck.prove(tilecheck.load(EXAMPLES / "cta_lane_stride2_refuted.toml"))
    cex = report.applies[0].obligation("ownership").counterexample
    g = cex["group"]
    assert cex["laneid"] == 2 * g["lane"] != g["lane"]


def test_cli_json_single_and_many(capsys):
    assert main(["prove", "--json", str(EXAMPLES / "seed.toml")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "proved" and out["applies"][0]["instructions"] == 105
    names = [o["name"] for o in out["applies"][0]["obligations"]]
    assert names == ["target", "space", "shape", "width", "operands", "contiguity", "alignment",
                     "ownership", "disjoint", "bounds", "overflow", "registers", "sectors"]
    files = [str(EXAMPLES / n) for n in ("seed.toml", "region_misaligned_refuted.toml")]
    assert main(["prove", "--json", *files]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [o["verdict"] for o in out] == ["proved", "refuted"]
    refuted = [o for o in out[1]["applies"][0]["obligations"] if o["status"] == "refuted"]
    assert refuted[0]["message"].startswith("alignment refuted:") and "counterexample" in refuted[0]


def test_cli_text_report(capsys):
    assert main(["prove", str(EXAMPLES / "seed.toml")]) == 0
    text = capsys.readouterr().out
    assert "proved" in text and "105 instructions" in text and "contiguity" in text


def test_console_entry_point_runs():
    r = subprocess.run([sys.executable, "-m", "tilecheck", "prove", str(EXAMPLES / "seed.toml")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "105 instructions" in r.stdout
