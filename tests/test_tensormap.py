"""Tensor maps (issue 30): the ``[tensormaps.NAME]`` model, the ``descriptor`` obligation against the
driver's recorded verdicts, and the probe that asks the driver at scale (``gpu/tmap_probe.py``)."""
import json
from pathlib import Path

import pytest

from tilecheck.check import loads
from tilecheck.gpu import tmap_probe
from tilecheck.proofs import descriptor
from tilecheck.report import prove

SAMPLE = Path(__file__).resolve().parent / "data" / "tmap_sweep_sample.json"
# the driver's answers of 2026-12-03 (H200, 580.159.04): the 49 sets of tmap_probe --count 12000 --seed 1
# where tilecheck's old limits disagreed, and the boundary probe (/work/data/tmap_edges.json)
EDGES = Path(__file__).resolve().parent / "data" / "tmap_edges_sample.json"

FILE = '''arch = "sm_90"

[symbols.K]
min = 64
max = 4096
multiple_of = {mult}

[tensors.A]
dtype = "float16"
scope = "global"
shape = ["K", 128]
align = {align}

[tensormaps.A_tiles]
tensor = "A"
dims = ["K", 128]
strides = ["2*K"]
box = [{box0}, 64]
swizzle = "128B"
'''


def _outcome(text):
    check = loads(text)
    report = prove(check)
    ((m, outs),) = report.tensormaps
    return report, outs[0]


def test_a_symbolic_map_that_follows_every_rule_is_proved():
    report, o = _outcome(FILE.format(mult=64, align=16, box0=64))
    assert o.status == "proved" and report.verdict == "proved" and report.exit_status == 0


def test_a_stride_off_16_bytes_is_refuted_at_the_smallest_symbol_value():
    report, o = _outcome(FILE.format(mult=1, align=16, box0=64))
    assert o.status == "refuted" and report.exit_status == 1
    assert o.counterexample["rule"] == "stride_multiple" and o.counterexample["symbols"] == {"K": 65}
    assert "strides[0] = 130 bytes is not a multiple of 16" in o.message


def test_a_box_wider_than_the_swizzle_span_is_refuted_naming_the_rule():
    _, o = _outcome(FILE.format(mult=64, align=16, box0=128))
    assert o.counterexample["rule"] == "swizzle_span"
    assert "256 bytes, is wider than the 128B swizzle's span of 128 bytes" in o.message


def test_the_address_takes_its_alignment_from_the_tensor():
    _, o = _outcome(FILE.format(mult=64, align=8, box0=64))
    assert o.counterexample["rule"] == "address"


def test_a_stride_computed_in_int32_overflows():
    text = FILE.format(mult=64, align=16, box0=64).replace(
        'strides = ["2*K"]', 'strides = ["2*K*K*K"]').replace('swizzle = "128B"', 'swizzle = "128B"\ncomputed_in = "int32"')
    _, o = _outcome(text)
    # 2 * K^3 >= 2^31 first at K = 1024 (multiples of 64): 2 * 1024^3 = 2^31
    assert o.counterexample["rule"] == "computed_in" and o.counterexample["symbols"] == {"K": 1024}


def test_the_report_lists_the_tensor_map_in_text_and_json():
    report, _ = _outcome(FILE.format(mult=1, align=16, box0=64))
    assert "tensormap A_tiles (float16, rank 2, interleave none, swizzle 128B, of A): refuted" in report.to_text()
    j = report.to_json()["tensormaps"][0]
    assert j["name"] == "A_tiles" and j["verdict"] == "refuted" and j["obligations"][0]["name"] == "descriptor"


# --- the driver's recorded answers (a sample of /work/data/tmap_sweep_*.json, H200, driver 580.159.04) ----

def _records():
    return json.loads(SAMPLE.read_text())


def test_the_recorded_sample_has_the_vague_points_on_both_sides():
    recs = _records()
    acc = [r["args"] for r in recs if r["status"] == 0]
    ref = [r["args"] for r in recs if r["status"] == 1]
    assert len(recs) >= 300 and len(acc) >= 100
    assert any(any(b > d for b, d in zip(a["box"], a["dims"])) for a in acc)  # box > dim: accepted
    assert any(a["interleave"] == "32B" and a["swizzle"] != "32B" for a in acc)  # the header says 32B only
    assert any(a["swizzle"].startswith("128B_atom") for a in ref)
    assert not any(a["swizzle"].startswith("128B_atom") or a["dtype"].startswith("16u") for a in acc)


def test_the_descriptor_obligation_agrees_with_every_recorded_driver_verdict():
    """The real obligation (Z3 formula, the runner's verdict), not a predicate: proved exactly where
    the driver accepted."""
    result = tmap_probe.compare(_records())
    assert result["disagreements"] == [] and result["agree"] == result["total"] == len(_records())


def test_the_solver_agrees_with_the_driver_where_every_number_is_a_symbol():
    """The same sets with each number a symbol pinned to it (``check_of(symbolic=True)``): the violation
    formula goes to Z3, which must give the driver's verdict (a constant formula would only be simplified)."""
    recs = _records()[::3]
    result = tmap_probe.compare(recs, symbolic=True)
    assert result["disagreements"] == [] and result["agree"] == len(recs) > 200
    check = __import__("tilecheck.check", fromlist=["from_dict"]).from_dict(
        tmap_probe.check_of(recs[0]["args"], symbolic=True))
    assert check.symbols and check.tensormaps["M"].names()


def test_the_compare_mode_prints_the_agreement(capsys):
    assert tmap_probe.main(["--compare", str(SAMPLE), "--limit", "40"]) == 0
    assert "tilecheck == driver: 40/40" in capsys.readouterr().out


def test_a_disagreement_is_listed_and_fails_the_compare(tmp_path, capsys):
    recs = _records()[:5]
    recs[0] = {**recs[0], "status": 1 - recs[0]["status"]}  # a driver that answered otherwise
    f = tmp_path / "r.json"
    f.write_text(json.dumps(recs))
    assert tmap_probe.main(["--compare", str(f)]) == 1
    out = capsys.readouterr().out
    assert "tilecheck == driver: 4/5" in out and out.count("DIFFERS") == 1


def test_values_past_the_drivers_types_are_compared_as_the_driver_saw_them():
    # a stride past 2^64 reached the driver as 2^64 less: 590295810358705651712 = 32 * 2^64 + 0
    a = tmap_probe.as_driver_saw({"dims": [2**64 + 3], "strides": [590295810358705651712], "box": [2**32 + 16],
                                  "element_strides": [1]})
    assert a["dims"] == [3] and a["strides"] == [0] and a["box"] == [16]


def test_the_obligation_agrees_with_the_drivers_edges_of_address_and_box_bytes():
    """Each of the 49 sets the first probe run disagreed on, and every boundary probe: the address below
    2^57, the box at most 233,472 bytes (tilecheck refuted 232,449..233,472 and proved 2^63 before)."""
    recs = json.loads(EDGES.read_text())
    assert {r["family"] for r in recs} >= {"box_bytes", "address_value", "address_edge", "box_bytes_edge"}
    result = tmap_probe.compare(recs)
    assert result["disagreements"] == [] and result["agree"] == len(recs) == 159
    sym = tmap_probe.compare(recs[::2], symbolic=True)
    assert sym["disagreements"] == [], sym["disagreements"][:2]


def _edge(address=tmap_probe.BASE, box=(256, 228, 4, 1, 1), es=(1, 1, 1, 1, 1)):
    return {"dtype": "uint8", "address": address, "dims": [4096, 256, 256, 256, 256],
            "strides": [4096, 1048576, 268435456, 68719476736], "box": list(box), "element_strides": list(es),
            "interleave": "none", "swizzle": "none", "l2": "none", "oob": "none"}


@pytest.mark.parametrize("args,want", [
    (_edge(address=2**57 - 16), ("proved", None)),  # one alignment unit either side of 2^57
    (_edge(address=2**57), ("refuted", "address_range")),
    (_edge(address=2**57 + 16), ("refuted", "address_range")),
    (_edge(address=2**57 - 4096 + 16), ("proved", None)),
    (_edge(address=2**63), ("refuted", "address_range")),
    (_edge(address=2**64 - 256), ("refuted", "address_range")),
    # box bytes: 233,472 = 256 * 228 * 4; 233,471 and 233,473 are no box's count (their prime factors
    # are over 256), so the neighbours are the driver's: 233,466 (32/5 * 233 * 167) and 233,478
    (_edge(), ("proved", None)),
    (_edge(box=(32, 233, 167, 1, 1), es=(5, 1, 1, 1, 1)), ("proved", None)),
    (_edge(box=(256, 218, 21, 1, 1), es=(5, 1, 1, 1, 1)), ("refuted", "box_bytes")),  # 51 * 218 * 21 = 233,478
    (_edge(box=(256, 114, 8, 1, 1)), ("proved", None)),  # 233,472 again, another shape
    (_edge(box=(256, 229, 4, 1, 1)), ("refuted", "box_bytes")),  # 234,496: one row more
])
def test_the_limits_at_their_edges(args, want):
    assert tmap_probe.prove(args) == want
    assert tmap_probe.prove(args, symbolic=True) == want


def test_a_check_file_offset_past_2_57_is_refuted_naming_the_range():
    """The offset (2^56 float16 elements + K) puts the address at 2^57 + 2K bytes past the base; 8,192
    elements less stays below 2^57 for every K up to 4096."""
    text = FILE.format(mult=64, align=16, box0=64).replace('align = 16', 'align = 16\noffset = "72057594037927936 + K"')
    report, out = _outcome(text)
    assert out.status == "refuted" and out.counterexample["rule"] == "address_range"
    assert "not below 2^57" in out.message
    ok = FILE.format(mult=64, align=16, box0=64).replace('align = 16', 'align = 16\noffset = "72057594037919744 + K"')
    assert _outcome(ok)[1].status == "proved"


# --- the probe's draw --------------------------------------------------------------------------------------

def test_the_probe_draws_over_10000_sets_of_every_family_deterministically():
    sets = tmap_probe.draw(12000, 5)
    assert len(sets) == 12000 and sets[:50] == tmap_probe.draw(12000, 5)[:50]
    fams = {f for f, _ in sets}
    assert fams >= {"valid", "dims", "stride_multiple", "stride_max", "box", "box_inner", "element_strides",
                    "address", "rank", "interleave_swizzle", "interleave_rank", "swizzle_span", "dtype_oob", "l2",
                    "box_bytes", "box_bytes_floor", "box_bytes_interleave", "packed", "stride_small", "stride_order",
                    "address_value", "box_bytes_edge"}
    sizes = [descriptor_bytes(a) for f, a in sets if f == "box_bytes"]
    assert min(sizes) <= tmap_probe.BOX_LOW and max(sizes) >= tmap_probe.BOX_HIGH and len(sizes) > 500
    edge = {descriptor_bytes(a) for f, a in sets if f == "box_bytes_edge"}  # odd counts: element_strides[0] > 1
    assert {233466, 233472, 233478} <= edge and all(abs(n - 233472) <= 48 for n in edge) and len(edge) >= 15
    near = [a["address"] for f, a in sets if f == "address_value" and abs(a["address"] - 2**57) <= 4096]
    assert any(x < 2**57 for x in near) and any(x >= 2**57 for x in near)


def descriptor_bytes(a):
    from math import prod
    return tmap_probe.SIZE[a["dtype"]] * prod(b // e for b, e in zip(a["box"], a["element_strides"]))


def test_every_rule_following_draw_is_proved_and_each_plain_mutation_refuted():
    sets = tmap_probe.draw(1500, 2)
    verdicts = {}
    for fam, a in sets:
        status, rule = tmap_probe.prove(a)
        verdicts.setdefault(fam, []).append((status, rule))
    assert all(s == "proved" for s, _ in verdicts["valid"])
    assert all(s == "refuted" and r == "rank" for s, r in verdicts["rank"])
    assert all(s == "refuted" and r in ("packed_arch", "swizzle_arch") for s, r in verdicts["packed"])
    assert {s for s, _ in verdicts["address"]} == {"proved", "refuted"}  # +16 stays aligned, +1 does not


@pytest.mark.parametrize("rule,args", [
    ("dims", dict(dims=[2**32 + 1])),
    ("box", dict(box=[257])),
    ("element_strides", dict(element_strides=[9])),
    ("oob_nan", dict(dtype="int32", oob="nan")),
    ("swizzle_arch", dict(swizzle="128B_atom_64B")),
])
def test_a_single_rule_mutation_names_its_rule(rule, args):
    a = {"dtype": "float32", "address": tmap_probe.BASE, "dims": [64], "strides": [], "box": [16],
         "element_strides": [1], "interleave": "none", "swizzle": "none", "l2": "none", "oob": "none", **args}
    status, got = tmap_probe.prove(a)
    assert status == "refuted" and got == rule
    assert descriptor.NAME == "descriptor"


def test_the_driver_only_mode_needs_neither_z3_nor_tilecheck(tmp_path):
    """On the GPU machine z3 may be missing: run as a script, the probe loads tensormap_driver.py alone
    (here, without libcuda, it stops with one line; with a driver it writes the records)."""
    import subprocess
    import sys
    out = tmp_path / "r.json"
    code = ("import sys, runpy; sys.modules['z3'] = None; sys.modules['tilecheck'] = None; "
            f"sys.argv = ['tmap_probe.py', '--driver-only', '--count', '5', '--out', {str(out)!r}]; "
            "runpy.run_path('tilecheck/gpu/tmap_probe.py', run_name='__main__')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=SAMPLE.parents[2],
                       timeout=600)
    if r.returncode == 2:
        assert "the driver is not available here" in r.stderr and "Traceback" not in r.stderr
    else:
        assert r.returncode == 0, r.stderr
        assert len(json.loads(out.read_text())) >= 800


def test_the_whole_probe_with_a_stand_in_driver(monkeypatch, capsys, tmp_path):
    """The probe's full mode (draw, ask, prove, compare) with the decider's restatement standing in for
    the driver: every set agrees, and the report has each family and the box-size boundary."""
    from types import SimpleNamespace

    from tilecheck import decide
    from tilecheck.check import from_dict

    def encode_tiled(**a):
        check = from_dict(tmap_probe.check_of(a))
        return SimpleNamespace(status=0 if decide.tmap_broken(check, check.tensormaps["M"], {}) is None else 1)

    monkeypatch.setattr(tmap_probe, "_driver", lambda: SimpleNamespace(encode_tiled=encode_tiled))
    out = tmp_path / "p.json"
    assert tmap_probe.main(["--count", "1200", "--seed", "3", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "tilecheck == driver: 1200/1200" in text and "box bytes: largest accepted 233472" in text
    assert "address: largest accepted 0x1ffffffffffff" in text and "smallest refused 0x200000000000" in text
    assert json.loads(out.read_text())["agree"] == 1200
