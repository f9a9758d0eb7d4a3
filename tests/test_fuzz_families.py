"""The staging families in the strategies and the campaign (issue 13, item 6): ``checks()`` draws
ldmatrix/stmatrix applies and cp.async with or without a guard, ``checks(families=...)`` and
``tilecheck fuzz --families`` restrict a campaign to them, and Z3 agrees with the brute-force
decider on them."""
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings

import tilecheck
from tilecheck.cli import main
from tilecheck.fuzz import compare
from tilecheck.fuzz.campaign import run_chunk
from tilecheck.strategies import FAMILIES, checks, symbolic_checks, to_toml

QUIET = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
STAGING = ["cp.async", "ldmatrix", "stmatrix", "guard"]


def _family(ap) -> str:
    op = ap["opcode"]
    if ap.get("guard"):
        return "guard"
    return op.split(".")[0] if op.startswith(("cp.", "ldmatrix", "stmatrix")) else "ldst"


def _tensor(operand: str) -> str:
    return operand.split(":")[0].split("[")[0].strip()


def _draws(strategy, n):
    out = []

    @settings(max_examples=n, **QUIET)
    @given(strategy)
    def collect(data):
        out.append(data)

    collect()
    return out


def test_restricted_draws_cover_every_staging_family_and_their_variants():
    draws = _draws(checks(families=STAGING), 200)
    applies = [a for d in draws for a in d["apply"]]
    kinds = Counter(_family(a) for a in applies)
    assert set(kinds) == {"cp", "ldmatrix", "stmatrix", "guard"}, kinds  # no plain ld/st
    assert min(kinds.values()) >= 5, kinds
    matrix = [a["opcode"] for a in applies if "matrix" in a["opcode"]]
    assert {f".x{n}." for n in (1, 2, 4)} <= {f".x{o.split('.x')[1].split('.')[0]}." for o in matrix}
    assert any(".trans." in o for o in matrix) and any(".trans." not in o for o in matrix)
    tensors = [t for d in draws for t in d["tensors"].values()]
    b16 = {d["tensors"][_tensor(a[k])]["dtype"] for d in draws for a in d["apply"] if "matrix" in a["opcode"]
           for k in ("dst", "src")}
    assert b16 <= {"float16", "bfloat16", "uint16", "int16"} and len(b16) >= 3, b16
    assert any(t["scope"] == "shared" and t.get("layout", "").startswith("Sw<") for t in tensors)
    assert any(not a.get("guard") for a in applies if a["opcode"].startswith("cp.async"))
    for d in draws[:40]:  # valid input
        tilecheck.from_dict(d)


def test_matrix_draws_prove_and_refute_on_several_obligations():
    draws = _draws(checks(families=["ldmatrix", "stmatrix"]), 80)
    assert all(a["opcode"].split(".")[0] in ("ldmatrix", "stmatrix") for d in draws for a in d["apply"])
    verdicts, refuted = Counter(), Counter()
    for d in draws:
        r = compare(d)
        assert r.problems == [], "\n".join(map(str, r.problems)) + "\n\n" + to_toml(d)
        verdicts[r.verdict] += 1
        refuted.update(k for s in r.statuses for k, v in s.items() if v == "refuted")
    assert verdicts["proved"] >= 10 and verdicts["refuted"] >= 10, verdicts
    assert {"alignment", "contiguity"} <= set(refuted), refuted


def test_matrix_draws_include_register_layouts_that_are_not_the_fragment_map():
    def not_fragment(d):
        r = compare(d)
        return not r.problems and any(s.get("ownership") == "refuted" for s in r.statuses)
    d = find(checks(families=["ldmatrix", "stmatrix"]), not_fragment,
             settings=settings(max_examples=400, deadline=None, database=None, phases=[Phase.generate],
                               suppress_health_check=list(HealthCheck)))  # no shrinking: a compare per step
    assert not_fragment(d)


def test_default_draws_include_the_staging_families():
    for strat in (checks(), symbolic_checks()):
        seen = set()

        def all_seen(d):  # find() stops at the first draw after which every family was seen
            seen.update(_family(a) for a in d["apply"])
            return {"ldmatrix", "stmatrix", "cp", "guard", "ldst"} <= seen
        find(strat, all_seen, settings=settings(max_examples=3000, database=None,
                                                suppress_health_check=list(HealthCheck)))
        assert {"ldmatrix", "stmatrix", "cp", "guard", "ldst"} <= seen


def test_symbolic_matrix_draws_have_symbols_and_agree_one_way():
    draws = _draws(symbolic_checks(families=["ldmatrix", "stmatrix"]), 25)
    assert all(d["symbols"] for d in draws)
    for d in draws:
        assert compare(d, timeout=5).problems == [], to_toml(d)


def test_an_unknown_family_is_a_value_error():
    with pytest.raises(ValueError, match="families"):
        find(checks(families=["ldmatrix", "wgmma"]), lambda d: True)
    assert "ldst" in FAMILIES


def test_a_campaign_chunk_restricted_to_ldmatrix_draws_only_it_and_finds_nothing():
    tally = run_chunk(seed=5, index=0, cases=30, symbolic=False, families=("ldmatrix",))
    assert tally.cases == 30 and not tally.findings and sum(tally.problems.values()) == 0
    assert sum(n for (name, _), n in tally.obligations.items() if name == "target") >= 30  # an apply or two per case
    assert tally.obligations[("registers", "proved")] >= 30  # every apply has a register tile (no cp.async)


def test_fuzz_families_option(tmp_path, capsys):
    assert main(["fuzz", "--families", "ldmatrix,stmatrix", "--cases", "10", "--symbolic-cases", "2", "--seed", "4",
                 "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "12 cases" in out and "disagreements 0" in out


@pytest.mark.parametrize("families", ["ldmatrix,wgmma", "", ",", "LDMATRIX"])
def test_fuzz_families_unknown_exits_2_with_one_line(families, capsys):
    rc = main(["fuzz", "--families", families, "--cases", "1"])
    assert rc == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--families" in err and "Traceback" not in err
