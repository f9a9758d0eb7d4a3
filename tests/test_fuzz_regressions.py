"""Every case the fuzzers found, kept as a check file in tests/regressions/ (its header says what
was found and what is expected).

A file named in ``EXPECT`` must meet its own expectation (an input error in one located line, a
proof, an emitted kernel); any other file must behave on the command line and Z3 must agree with
the enumerator on it.  A file named in ``BUGS`` is a bug not fixed yet: its test is a strict
xfail, so fixing the bug turns it into a failure (XPASS) that asks to drop it from ``BUGS`` (and
its matcher from regressions/known_bugs.py, which keeps the property tests clear of it).
"""
from pathlib import Path

import pytest

import tilecheck
from tilecheck import emit
from tilecheck.fuzz import compare
from tilecheck.fuzz.malformed import judge_file, run_prove_in_process

HERE = Path(__file__).parent / "regressions"
FILES = sorted(p.name for p in HERE.glob("*.toml"))


def behaves_on_the_command_line(path):
    rc, out, err, exc = run_prove_in_process(str(path))
    why = judge_file(rc, out, err, exc)
    assert why is None, why
    return rc, err


def exit_2_located(name, where):
    rc, err = behaves_on_the_command_line(HERE / name)
    assert rc == 2 and name in err and where in err, err


def proves_without_raising(name):
    try:
        check = tilecheck.load(HERE / name)
    except tilecheck.InputError as e:  # rejecting it when loading, with its place, is fine too
        assert "tensors.A" in e.where
        return
    report = tilecheck.prove(check)
    assert report.verdict == "proved"
    assert compare(check).ok


def loads_and_proves(name):
    report = tilecheck.prove(tilecheck.load(HERE / name))
    assert report.verdict == "proved" and report.applies[0].instructions == 3


def emits(name):
    report = tilecheck.prove(tilecheck.load(HERE / name))
    assert report.verdict == "proved"
    body = emit.fragment(report.plan, 0).body
    assert len(body) == report.applies[0].instructions
    emit.kernel(report.plan)


def emits_or_refuses_in_one_line(name):
    report = tilecheck.prove(tilecheck.load(HERE / name))
    assert report.verdict == "proved"
    try:
        emit.kernel(report.plan)
    except emit.EmitError as e:
        assert "\n" not in str(e)


def proves_and_agrees(name):
    rc, _ = behaves_on_the_command_line(HERE / name)
    check = tilecheck.load(HERE / name)
    assert rc == 0 and tilecheck.prove(check).verdict == "proved"
    r = compare(check)
    assert r.ok, "\n".join(map(str, r.problems))


def rejected_or_agrees(name):
    try:
        check = tilecheck.load(HERE / name)
    except tilecheck.InputError as e:
        assert "tensors.A" in e.where and "layout" in e.where
        return
    r = compare(check)
    assert r.ok, "\n".join(map(str, r.problems))


def descriptor_file_decided_and_agrees(name, verdict="refuted"):
    """A descriptor check file (docs/wgmma.md): Z3 decides every obligation (no unknown) and the decider agrees."""
    import tomllib
    from tilecheck.fuzz.differential import compare_descriptors
    r = compare_descriptors(tomllib.loads((HERE / name).read_text()))
    assert r.ok and r.unknown == 0 and r.verdict == verdict, "\n".join(map(str, r.problems)) + f" unknown {r.unknown}"


EXPECT = {  # file -> what must hold (files not named here: the CLI behaves and Z3 agrees with the enumerator)
    "dtype_not_a_string.toml": lambda n: exit_2_located(n, "tensors.A: dtype"),
    "split_size_too_many_digits.toml": lambda n: exit_2_located(n, "apply[0]: src"),
    "nested_symbolic_sub_extent.toml": proves_without_raising,
    "rank1_nested_layout.toml": loads_and_proves,
    "shape_division_mismatch.toml": rejected_or_agrees,
    "emit_nested_lane_slot_register.toml": emits,
    "emit_offset_near_2_64.toml": emits_or_refuses_in_one_line,
    "toml_integer_too_many_digits.toml": lambda n: exit_2_located(n, ""),
    "stride_past_int64_unit_mode.toml": proves_and_agrees,
    "descriptor_layout_type_fixed_by_facts.toml": descriptor_file_decided_and_agrees,
    "descriptor_tcgen05_absolute_lbo.toml": lambda n: descriptor_file_decided_and_agrees(n, "proved"),
}

BUGS = {}  # file -> why it does not hold yet (a strict xfail: fixing the bug makes it XPASS, then drop it here)


def agrees(name):
    behaves_on_the_command_line(HERE / name)
    r = compare(tilecheck.load(HERE / name))
    assert r.ok, "\n".join(map(str, r.problems))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=BUGS[n]))
                                  if n in BUGS else n for n in FILES])
def test_regression(name):
    EXPECT.get(name, agrees)(name)


def test_every_named_file_exists():
    assert set(BUGS) <= set(EXPECT) <= set(FILES)
