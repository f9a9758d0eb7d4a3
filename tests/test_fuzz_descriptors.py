"""Descriptor check files and TMA copies in the fuzzing campaign (issue 31 item 7, issue 30 item 6):
the strategies draw agreeing and mismatched descriptors (``desc_strategies``) and whole TMA check files
(``tmap_strategies.tma_checks``); the decider decides both by enumeration (``decide.descriptors``, the
TMA family's ``RULES``); ``tilecheck fuzz --families descriptor,tma`` holds Z3 to it."""
import copy
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tilecheck import decide
from tilecheck.cli import main
from tilecheck.desc_strategies import MUTATIONS, descriptor_checks
from tilecheck.fuzz import compare, differential
from tilecheck.fuzz.campaign import run_chunk
from tilecheck.strategies import sample, to_toml
from tilecheck.tmap_strategies import tma_checks

QUIET = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
EXAMPLES = Path(__file__).parent.parent / "examples" / "descriptors"


def explain(r, data):
    return "\n".join(map(str, r.problems)) + "\n\n" + to_toml(data)


# --- the decider's descriptors: the examples, both sides ---------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.toml")
                                         if "[descriptors." in p.read_text()))  # not the [idesc.*]-only files
def test_the_decider_and_z3_agree_on_the_descriptor_examples(name):
    data = tomllib.loads((EXAMPLES / name).read_text())
    r = differential.compare_descriptors(data, limit=256)  # the two slow ones: 3 + 3 values of their symbol
    assert r.ok and r.unknown == 0, explain(r, data)
    assert ("refuted" in r.verdict) == ("refuted" in name)


def test_the_decider_refutes_what_the_examples_name():
    data = tomllib.loads((EXAMPLES / "wgmma_desc_k_advance_past_atom_refuted.toml").read_text())
    got = decide.descriptors(data)["DA"]
    assert {o: s for o, (s, _) in got.items()} == {"descriptor-encoding": "proved", "descriptor-base": "proved",
                                                   "descriptor-layout": "proved", "descriptor-k-advance": "refuted"}
    w = got["descriptor-k-advance"][1]
    assert w["k_step"] == 4 and w["index"] == [0, 64] and w["declared_byte"] == 8192 and w["descriptor_byte"] == 144


def test_a_counterexample_that_is_no_violation_does_not_replay():
    data = tomllib.loads((EXAMPLES / "wgmma_desc_base_offset_refuted.toml").read_text())
    assert decide.desc_violation_at(data, "DA", "descriptor-base", {"symbols": {"a": 128}}) is None
    assert "proved" in decide.desc_violation_at(data, "DA", "descriptor-base", {"symbols": {"a": 1024}})
    assert "not allowed" in decide.desc_violation_at(data, "DA", "descriptor-base", {"symbols": {"a": 100}})


def test_the_decider_imports_nothing_of_the_model_it_checks():
    src = Path(decide.__file__).read_text()
    assert "smem_descriptor" not in src.split("# --- shared-memory matrix descriptors")[1].replace(
        "smem_descriptor.py", "")


# --- the strategies ------------------------------------------------------------------------------------------

def test_descriptor_draws_agree_and_carry_every_bug():
    files = sample(60, 7, descriptor_checks())
    verdicts, refuted = Counter(), Counter()
    for data in files:
        assert tomllib.loads(to_toml(data)) == data
        r = compare(data)
        assert r.ok and r.unknown == 0, explain(r, data)
        verdicts[r.verdict] += 1
        refuted.update(k for s in r.others for k, v in s.items() if v == "refuted")
    assert verdicts["proved"] >= 15 and verdicts["refuted"] >= 15, verdicts
    for bug in MUTATIONS:  # each bug alone is drawn and judged
        data = sample(1, 3, descriptor_checks(mutate=True, mutations=[bug]))[0]
        r = compare(data)
        assert r.ok and r.unknown == 0, explain(r, data)
        refuted.update(k for s in r.others for k, v in s.items() if v == "refuted")
    assert set(refuted) == set(decide.DESC_ORDER), refuted


@settings(max_examples=25, **QUIET)
@given(descriptor_checks(symbolic=True))
def test_z3_and_the_decider_agree_on_symbolic_descriptor_files(data):
    r = compare(data, timeout=5)
    assert data["symbols"] and r.ok and r.unknown == 0, explain(r, data)


def test_tma_draws_agree_and_refute_every_tma_obligation():
    refuted, unknown, phases, bulk = Counter(), 0, 0, 0
    for symbolic, n in ((False, 120), (True, 40)):
        for data in sample(n, 11, tma_checks(symbolic=symbolic)):
            bulk += len(data["apply"]) > 1  # a non-tensor bulk copy after the TMA copy
            phases += any("phase" in a for a in data["apply"])  # in the TMA load's mbarrier phase
            assert tomllib.loads(to_toml(data)) == data and bool(data.get("symbols")) >= symbolic
            r = compare(data, timeout=5)
            assert r.ok, explain(r, data)
            unknown += r.unknown
            refuted.update(k for s in r.statuses + r.others for k, v in s.items() if v == "refuted")
    assert unknown == 0 and bulk >= 20 and phases >= 8, (bulk, phases)
    want = {"tma_map", "tma_inner", "tma_smem", "tma_landing", "tma_tx", "tma_box", "descriptor"}
    assert want <= set(refuted) and set(refuted) & {"bulk_copy", "bulk_tx"}, refuted


# --- the campaign --------------------------------------------------------------------------------------------

def test_a_campaign_chunk_of_descriptor_files_and_tma_copies_finds_nothing():
    tally = run_chunk(seed=31, index=0, cases=30, symbolic=False, families=("descriptor", "tma"))
    assert tally.cases == 30 and not tally.findings and sum(tally.problems.values()) == 0
    assert tally.obligations[("descriptor-layout", "refuted")] and tally.obligations[("descriptor-layout", "proved")]
    assert sum(n for (name, _), n in tally.obligations.items() if name.startswith("tma_")) >= 6


def test_fuzz_command_with_descriptor_and_tma_families(tmp_path, capsys):
    assert main(["fuzz", "--families", "descriptor,tma", "--cases", "12", "--symbolic-cases", "4", "--seed", "2",
                 "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "16 cases" in out and "disagreements 0" in out and "unknown on concrete 0" in out
    assert "tensor map and descriptor obligations (proved/refuted/skipped/unknown): " in out


def test_fuzz_families_names_the_whole_file_draws_in_its_error(capsys):
    assert main(["fuzz", "--families", "descriptors", "--cases", "1"]) == 2
    err = capsys.readouterr().err
    assert "descriptor" in err and "tma" in err and len(err.strip().splitlines()) == 1


def test_a_broken_decider_is_found_shrunk_written_and_replayed(tmp_path, capsys, monkeypatch):
    """A planted bug in the decider's base-offset rule (it forgets the 64B and 32B repeats) is a
    disagreement the campaign finds, shrinks to a small descriptor file, writes, and --replay shows."""
    real = decide.DESC_RULES["descriptor-base"]

    def broken(c):
        return None if c.mode in ("64B", "32B") else real(c)
    monkeypatch.setitem(decide.DESC_RULES, "descriptor-base", broken)
    rc = main(["fuzz", "--families", "descriptor", "--cases", "60", "--symbolic-cases", "0", "--seed", "5",
               "--out", str(tmp_path), "--quiet"])
    out = capsys.readouterr().out
    assert rc == 1 and "disagreements 0" not in out, out
    written = sorted(tmp_path.glob("disagreement-descriptor-base*.toml"))
    assert written, out
    text = written[0].read_text()
    assert "python -m tilecheck.descriptor_file" in text and "[descriptors.DA]" in text
    assert main(["fuzz", "--replay", str(written[0])]) == 1
    assert "descriptor-base" in capsys.readouterr().out
    monkeypatch.setitem(decide.DESC_RULES, "descriptor-base", real)
    assert main(["fuzz", "--replay", str(written[0])]) == 0
    assert "the enumerator agrees" in capsys.readouterr().out


def test_replay_of_a_descriptor_example(capsys):
    assert main(["fuzz", "--replay", str(EXAMPLES / "wgmma_desc_swizzle_mismatch_refuted.toml")]) == 0
    assert "Z3 refuted; the enumerator agrees" in capsys.readouterr().out


def test_a_tensor_maps_descriptor_disagreement_is_reported(monkeypatch):
    """The tensor maps of a check file are compared too: a decider that accepts every map disagrees with
    Z3 on a map the driver refuses."""
    data = next(d for d in sample(20, 4, tma_checks()) if not d.get("symbols"))  # (a grid's symbol: replayed apart)
    data = copy.deepcopy(data)
    data["tensormaps"]["T"]["dims"][0] = 2 ** 33  # past the driver's 2^32
    r = compare(data)
    assert r.ok and r.others[0]["descriptor"] == "refuted", explain(r, data)
    monkeypatch.setattr(decide, "tmap_broken", lambda *a: None)
    r = compare(data)
    assert any(p.kind == "disagreement" and "tensormap" in p.obligation for p in r.problems), r.problems


def test_proved_tma_draws_are_emitted_and_referenced_for_the_gpu_stage():
    """``tilecheck fuzz --gpu --families tma``: every proved TMA draw the emitter takes (not a multicast copy:
    ``Family.unemitted``) is kept for the GPU stage, which emits its kernel and computes its numpy reference
    (the CPU half of running it on the H200)."""
    from tilecheck.fuzz import gpu_stage
    from tilecheck.fuzz.campaign import _emitted
    ready = 0
    for k, data in enumerate(sample(60, 9, tma_checks())):
        if compare(data).verdict != "proved":
            continue
        multicast = "multicast" in data["apply"][0]["opcode"]
        assert _emitted(data) != multicast
        if multicast:
            continue
        got = gpu_stage._prepare((k, data, "sm_90", 1, 10))
        assert got[0] == "ok", (got, to_toml(data))
        ready += 1
    assert ready >= 10, ready
