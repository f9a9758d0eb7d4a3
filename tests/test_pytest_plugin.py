"""The pytest plugin: `pytest --tilecheck DIR` proves check files as test items."""
import shutil
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import tilecheck.report
from tilecheck.proofs import UNKNOWN

pytest_plugins = ["pytester"]

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
# Load the plugin by module name unless this installation already registers the entry point.
PLUGIN = [] if any(e.name == "tilecheck" for e in entry_points(group="pytest11")) else ["-p", "tilecheck.pytest_plugin"]


def in_order(text, *parts):
    """Each part occurs in text, after the previous one."""
    at = 0
    for part in parts:
        at = text.find(part, at)
        assert at >= 0, f"{part!r} not found (in order) in:\n{text}"
        at += len(part)


@pytest.fixture
def examples(pytester):
    shutil.copytree(EXAMPLES, pytester.path / "examples")
    return pytester


def test_entry_point_is_declared():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["entry-points"]["pytest11"] == {"tilecheck": "tilecheck.pytest_plugin"}


def test_examples_pass_when_refuted_names_are_expected(examples):
    r = examples.runpytest(*PLUGIN, "--tilecheck", "examples", "--tilecheck-expect-names", "-v")
    r.assert_outcomes(passed=len(list(EXAMPLES.glob("*.toml"))))
    in_order(r.stdout.str(), "examples/region_misaligned_refuted.toml::region_misaligned_refuted.toml PASSED",
             "examples/seed.toml::seed.toml PASSED")


def test_refuted_files_fail_with_their_messages(examples):
    r = examples.runpytest(*PLUGIN, "--tilecheck", "examples")
    refuted = len(list(EXAMPLES.glob("*refuted*.toml")))
    r.assert_outcomes(passed=len(list(EXAMPLES.glob("*.toml"))) - refuted, failed=refuted)
    in_order(r.stdout.str(),
             "\ncta_lane_stride2_refuted.toml: refuted, expected proved\n  apply[0] ownership refuted: (warp=0, lane=1)",
             "not to the issuing thread",
             "\nregion_misaligned_refuted.toml: refuted, expected proved\n  apply[0] alignment refuted: repeat (axis0=0), "
             "word 0 reads A[0,1] at byte offset 4, not a multiple of 16\n")
    assert "Traceback" not in r.stdout.str()


def test_expected_refutation_that_proves_fails(examples):
    shutil.copy(EXAMPLES / "seed.toml", examples.path / "examples" / "seed_refuted.toml")
    r = examples.runpytest(*PLUGIN, "--tilecheck", "examples/seed_refuted.toml", "--tilecheck-expect-names")
    r.assert_outcomes(failed=1)
    in_order(r.stdout.str(), "seed_refuted.toml: proved, expected refuted (its name contains 'refuted')")


def test_bad_input_fails_with_one_line(pytester):
    pytester.makefile(".toml", bad='[tensors.A]\ndtype = "float33"\nscope = "global"\nshape = [4]\n')
    r = pytester.runpytest(*PLUGIN, "--tilecheck", "bad.toml")
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["tilecheck: error: *bad.toml:2: tensors.A: dtype: unknown dtype 'float33' (one of *)"])
    assert "Traceback" not in r.stdout.str() and "InputError" not in r.stdout.str()


def test_unknown_fails(examples, monkeypatch):
    real = tilecheck.report.prove

    def gives_up(check, timeout=10.0):
        report = real(check, timeout)
        o = report.applies[0].obligation("overflow")  # the last contract obligation
        o.status, o.message = UNKNOWN, f"{o.name} unknown: timed out after {timeout:g} s"
        return report

    monkeypatch.setattr(tilecheck.report, "prove", gives_up)
    r = examples.runpytest(*PLUGIN, "--tilecheck", "examples/seed.toml", "--tilecheck-timeout", "2")
    r.assert_outcomes(failed=1)
    in_order(r.stdout.str(), "\nseed.toml: unknown, expected proved\n  apply[0] overflow unknown: timed out after 2 s\n")


def test_nothing_without_the_option(examples):
    examples.makepyfile(test_plain="def test_one():\n    pass\n")
    r = examples.runpytest(*PLUGIN, "examples", "test_plain.py")
    r.assert_outcomes(passed=1)
    assert "toml" not in r.stdout.str()


def test_missing_path_is_a_usage_error(pytester):
    r = pytester.runpytest(*PLUGIN, "--tilecheck", "nowhere")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*--tilecheck *nowhere: no such file or directory*"])
