"""The pytest plugin: `pytest --tilecheck DIR` proves check files' applications as test items."""
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


ALL = ("-o", "tilecheck_files=*.toml")  # the examples are not named tilecheck_*.toml


def applies(files):
    """The items of the files: one per [[apply]] and [tensormaps.X] of a check file (its [descriptors.X]
    are its wgmma applies' operands), one per [descriptors.X] and [idesc.X] of a descriptor check file
    (no [[apply]], examples/descriptors/)."""
    return sum(sum(len(d.get(k, ())) for k in ("apply", "tensormaps", "descriptors", "idesc")
                   if k in ("apply", "tensormaps") or "apply" not in d)
               for d in (tomllib.loads(f.read_text()) for f in files))


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
    r = examples.runpytest(*PLUGIN, *ALL, "--tilecheck", "examples", "--tilecheck-expect-names", "-v")
    r.assert_outcomes(passed=applies(EXAMPLES.rglob("*.toml")))
    in_order(r.stdout.str(), "examples/descriptors/wgmma_desc_k_advance.toml::descriptor[DA] PASSED",
             "examples/region_misaligned_refuted.toml::apply[0]:ld.global.v4.b32 PASSED",
             "examples/seed.toml::apply[0]:ld.global.v4.b32 PASSED",
             "examples/tma_stride_1022_refuted.toml::tensormap[B_tiles] PASSED")


def test_refuted_files_fail_with_their_messages(examples):
    r = examples.runpytest(*PLUGIN, *ALL, "--tilecheck", "examples")
    # one refuted application, tensor map or descriptor each; an apply that declares its refutation
    # (`refutes = [...]`, the TMA copies) passes when exactly those obligations refute (README)
    declared = [f for f in EXAMPLES.rglob("*refuted*.toml")
                if any("refutes" in a for a in tomllib.loads(f.read_text()).get("apply", ()))]
    refuted = len(list(EXAMPLES.rglob("*refuted*.toml"))) - len(declared)
    r.assert_outcomes(passed=applies(EXAMPLES.rglob("*.toml")) - refuted, failed=refuted)
    in_order(r.stdout.str(),
             "\ncta_lane_stride2_refuted.toml apply[0] st.shared.v4.b32: refuted, expected proved\n"
             "  ownership refuted: (warp=0, lane=1)",
             "not to the issuing thread",
             "\nregion_misaligned_refuted.toml apply[0] ld.global.v4.b32: refuted, expected proved\n"
             "  alignment refuted: repeat (axis0=0), word 0 reads A[0,1] at byte offset 4, not a multiple of 16\n",
             "\ntma_stride_1022_refuted.toml tensormap B_tiles: refuted, expected proved\n"
             "  descriptor refuted: tensormaps.B_tiles: stride_multiple: strides[0] = 1022 bytes is not a multiple "
             "of 16\n")
    in_order(r.stdout.str(), "\nwgmma_desc_k_advance_past_atom_refuted.toml descriptor DA: refuted, expected proved\n"
             "  descriptor-k-advance refuted: K step 4:")
    assert "Traceback" not in r.stdout.str()


def test_expected_refutation_that_proves_fails(examples):
    shutil.copy(EXAMPLES / "seed.toml", examples.path / "examples" / "seed_refuted.toml")
    r = examples.runpytest(*PLUGIN, "--tilecheck", "examples/seed_refuted.toml", "--tilecheck-expect-names")
    r.assert_outcomes(failed=1)
    in_order(r.stdout.str(), "seed_refuted.toml apply[0] ld.global.v4.b32: proved (the file is proved), "
             "expected the file refuted (its name contains 'refuted')")


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
    in_order(r.stdout.str(), "\nseed.toml apply[0] ld.global.v4.b32: unknown, expected proved\n"
             "  overflow unknown: timed out after 2 s\n")


def test_nothing_without_the_option(examples):
    examples.makepyfile(test_plain="def test_one():\n    pass\n")
    r = examples.runpytest(*PLUGIN, "examples", "test_plain.py")
    r.assert_outcomes(passed=1)
    assert "toml" not in r.stdout.str()


def test_missing_path_is_a_usage_error(pytester):
    r = pytester.runpytest(*PLUGIN, "--tilecheck", "nowhere")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*--tilecheck *nowhere: no such file or directory*"])


def test_only_files_matching_the_pattern_are_collected(pytester):
    """``pytest --tilecheck .`` in a kernel repository: pyproject.toml and other TOML are not check files."""
    pytester.makefile(".toml", pyproject='[project]\nname = "kernels"\n', other='[x]\ny = 1\n')
    shutil.copy(EXAMPLES / "seed.toml", pytester.path / "tilecheck_seed.toml")
    r = pytester.runpytest(*PLUGIN, "--tilecheck", ".", "-v")
    r.assert_outcomes(passed=1)
    in_order(r.stdout.str(), "tilecheck_seed.toml::apply[0]:ld.global.v4.b32 PASSED")
    assert "pyproject.toml::" not in r.stdout.str() and "other.toml" not in r.stdout.str()


@pytest.mark.parametrize("config", ['[tool.pytest.ini_options]\ntilecheck_files = "k_*.toml"\n',
                                    '[tool.tilecheck]\nfiles = ["k_*.toml"]\n'])
def test_the_pattern_is_configurable(pytester, config):
    pytester.makefile(".toml", pyproject=config)
    shutil.copy(EXAMPLES / "seed.toml", pytester.path / "k_seed.toml")
    shutil.copy(EXAMPLES / "seed.toml", pytester.path / "tilecheck_seed.toml")
    r = pytester.runpytest(*PLUGIN, "--tilecheck", ".", "-v")
    r.assert_outcomes(passed=1)
    in_order(r.stdout.str(), "\nk_seed.toml::apply[0]:ld.global.v4.b32 PASSED")


def test_a_file_named_directly_is_collected_whatever_its_name(examples):
    r = examples.runpytest(*PLUGIN, "--tilecheck", "examples/seed.toml")
    r.assert_outcomes(passed=1)


def refutes(pytester, source, name, *keys):
    """Copy an example under a tilecheck_ name, adding ``keys`` to each [[apply]]."""
    text = (EXAMPLES / source).read_text()
    for k, key in enumerate(keys):
        at = [i for i in range(len(text)) if text.startswith("[[apply]]", i)][k]; at = text.index("\n", at) + 1
        text = text[:at] + key + "\n" + text[at:]
    (pytester.path / name).write_text(text)


def test_expected_refutation_from_the_refutes_key(pytester):
    refutes(pytester, "region_misaligned_refuted.toml", "tilecheck_a.toml", 'refutes = "alignment"')
    refutes(pytester, "region_misaligned_refuted.toml", "tilecheck_b.toml", 'refutes = ["ownership"]')
    refutes(pytester, "seed.toml", "tilecheck_c.toml", 'refutes = "bounds"')
    refutes(pytester, "staging_unswizzled_banks_refuted.toml", "tilecheck_d.toml", "", 'refutes = "banks"')
    r = pytester.runpytest(*PLUGIN, "--tilecheck", ".", "-v")
    r.assert_outcomes(passed=3, failed=2)
    out = r.stdout.str()
    in_order(out, "tilecheck_a.toml::apply[0]:ld.global.v4.b32:refutes=alignment PASSED",
             "tilecheck_b.toml::apply[0]:ld.global.v4.b32:refutes=ownership FAILED",
             "tilecheck_c.toml::apply[0]:ld.global.v4.b32:refutes=bounds FAILED",
             "tilecheck_d.toml::apply[0]:cp.async.cg.shared.global PASSED",
             "tilecheck_d.toml::apply[1]:ldmatrix.sync.aligned.m8n8.x4.shared.b16:refutes=banks PASSED")
    in_order(out, "\ntilecheck_b.toml apply[0] ld.global.v4.b32: refuted, expected ownership refuted (refuted: alignment)"
             "\n  alignment refuted: repeat (axis0=0)",
             "\ntilecheck_c.toml apply[0] ld.global.v4.b32: proved, expected bounds refuted (refuted: registers)\n")


def test_a_bad_refutes_key_is_a_one_line_error(pytester):
    refutes(pytester, "seed.toml", "tilecheck_a.toml", 'refutes = "alignmnet"')
    r = pytester.runpytest(*PLUGIN, "--tilecheck", ".")
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["tilecheck: error: *tilecheck_a.toml:*: apply[[]0[]]: refutes: unknown obligation "
                            "'alignmnet' for the ld/st family (one of *)"])


def test_prove_sends_a_descriptor_file_to_its_prover(capsys):
    """``tilecheck prove`` does not read the descriptor form: one line naming it and what proves it, status 2."""
    from tilecheck.cli import main
    assert main(["prove", str(EXAMPLES / "descriptors" / "wgmma_desc_k_advance.toml")]) == 2
    err = capsys.readouterr().err
    assert "descriptor check file" in err and "python -m tilecheck.descriptor_file" in err
    assert len(err.strip().splitlines()) == 1
