"""Malformed input never gives a traceback: mutated check files give exit 2 with one line (or,
when the mutation left a valid file, a verdict); mutated fields and arbitrary layout, operand,
opcode and fact strings load or raise InputError.

Inputs that only hit a known, not yet fixed bug (tests/regressions/known_bugs.py) are skipped
here; their strict xfails in test_fuzz_regressions.py keep them in view."""
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tilecheck
from tilecheck.fuzz.malformed import (BASES, judge_dict, judge_file, mutated_dicts, run_malformed,
                                      run_prove_in_process)
from tilecheck.strategies import checks, malformed_texts, to_toml

from regressions.known_bugs import known_malformed

PROPERTY = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture
def mutated_file(tmp_path):
    path = tmp_path / "mutated.toml"

    def run(text, *extra):
        path.write_text(text)
        return judge_file(*run_prove_in_process(str(path), ["--timeout", "2", *extra]), as_json="--json" in extra)
    return run


@pytest.mark.parametrize("base", range(len(BASES)))
def test_mutated_check_files(base, tmp_path):
    path = tmp_path / "mutated.toml"

    @PROPERTY
    @given(malformed_texts(BASES[base]), st.booleans())
    def prop(text, as_json):
        path.write_text(text)
        extra = ["--timeout", "2"] + (["--json"] if as_json else [])
        why = judge_file(*run_prove_in_process(str(path), extra), as_json=as_json)
        assume(not (why and known_malformed(why)))
        assert why is None, f"{why}\n--- file ---\n{text}"
    prop()


@settings(PROPERTY, max_examples=100)
@given(checks(max_points=64).flatmap(lambda d: malformed_texts(to_toml(d))))
def test_mutated_drawn_check_files(mutated_file, text):
    why = mutated_file(text)
    assume(not (why and known_malformed(why)))
    assert why is None, f"{why}\n--- file ---\n{text}"


@settings(PROPERTY, max_examples=300)
@given(mutated_dicts())
def test_mutated_fields_load_or_raise_input_error(data):
    why = judge_dict(data)
    assume(not (why and known_malformed(why)))
    assert why is None, f"{why}\n{data!r}"


_WORDS = st.sampled_from(["(", ")", ",", ":", "@", "laneid", "tid", "warpid", "lane", "4", "8", "-1", "0", "n", "k",
                          "*", "//", "%", "+", " ", "(4,8)", "1@laneid", "->", "=", "[", "]", "A", "R", "i", "j",
                          "v", "(i=2 j)", "ld", "st", ".", "global", "v4", "b32", "b33", "L2::cache_hint", "nc",
                          ">=", "<", "==", "n+1", "9" * 30, "((", "))", "e3", "1.5", "\\", "'"])
STRINGS = st.one_of(st.lists(_WORDS, max_size=12).map("".join), st.text(max_size=20))

SEED = {"symbols": {"n": {"min": 1, "max": 64}},
        "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [8, 4], "layout": "(8,4):(4,1)",
                          "align": 16},
                    "R": {"dtype": "float32", "scope": "register", "shape": [8, 4]}},
        "apply": [{"opcode": "ld.global.v4.b32", "dst": "R: i v -> i v", "src": "A[0:8, :]: i v -> i v"}]}


@settings(PROPERTY, max_examples=400)
@given(st.sampled_from(["layout", "reg_layout", "shape", "offset", "opcode", "dst", "src", "assume"]), STRINGS)
def test_arbitrary_strings_in_every_parsed_field(field, text):
    import copy
    data = copy.deepcopy(SEED)
    if field == "layout":
        data["tensors"]["A"]["layout"] = text
    elif field == "reg_layout":
        data["tensors"]["R"]["layout"] = text
    elif field == "shape":
        data["tensors"]["A"]["shape"] = [text, 4]
        del data["tensors"]["A"]["layout"]
    elif field == "offset":
        data["tensors"]["A"]["offset"] = text
    elif field == "assume":
        data["assume"] = [text]
    else:
        data["apply"][0][field] = text
    try:
        check = tilecheck.from_dict(data)
    except tilecheck.InputError as e:
        assert "\n" not in str(e)
        return
    tilecheck.prove(check, timeout=2)  # a string that happened to be valid: it must also prove without raising


def test_malformed_runner_counts_and_judges(tmp_path):
    stats = run_malformed(40, seed=1, out=str(tmp_path))
    assert stats.files + stats.dicts == 40
    assert stats.exit2 > 0
    assert all(known_malformed(why) for _, _, why in stats.failures), stats.summary()
