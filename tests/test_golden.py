"""The golden files (top-level ``emit/`` and ``proofs/``) match what the examples give now.

When this fails, run ``python -m tilecheck.golden write`` and review the diff: a change in the
emitted PTX, its SASS or a proof certificate must be deliberate.  One process computes every
golden file once (each example proved once per arch, ptxas run concurrently).
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tilecheck
from setuptools import find_packages

from tilecheck import golden

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def want():
    return golden.expected()


def test_the_golden_files_are_up_to_date(want):
    w, have, _ = golden.comparable(want, golden.on_disk())  # the SMT-LIB text only under the z3 that wrote it
    lines = golden.stale(w, have)
    assert not lines, ("golden files out of date; run `python -m tilecheck.golden write` and review the "
                       "diff:\n" + "\n".join(lines))


def test_every_example_has_a_certificate_and_every_proved_one_its_ptx(want):
    for path in sorted((ROOT / "examples").glob("*.toml")):
        cert = json.loads(want[f"proofs/{path.stem}.json"])
        assert cert["file"] == f"examples/{path.name}"
        check = tilecheck.load(path)
        proved = (cert["verdict"] == "proved" and bool(cert["applies"])  # tensor maps alone: no instruction to emit
                  and not any(a.family.unemitted(a) for a in check.applies))  # no emitter (wgmma), or none for it (multicast)
        for kind in ("fragment.ptx", "kernel.ptx", "sass.json"):
            assert (f"emit/{path.stem}.{kind}" in want) == proved, (path.stem, kind)
        if proved:
            sass = json.loads(want[f"emit/{path.stem}.sass.json"])
            assert set(sass["archs"]) == set(golden.ARCHS)
            assert ".entry tilecheck_kernel" in want[f"emit/{path.stem}.kernel.ptx"]
        elif cert["verdict"] != "proved":  # a refuted certificate carries its counterexample
            assert any("counterexample" in o for a in cert["applies"] + cert.get("tensormaps", [])
                       for o in a["obligations"])


def test_certificates_have_no_timing(want):
    for path, text in want.items():
        if path.startswith("proofs/") and path.endswith(".json"):
            assert '"seconds"' not in text, path


def test_seed_sass_is_105_LDG_E_128_per_arch(want):
    sass = json.loads(want["emit/seed.sass.json"])
    for arch in golden.ARCHS:
        assert sass["archs"][arch]["memory"]["LDG.E.128"] == 105


def test_check_lists_stale_missing_and_unexpected_files_and_write_mends_them(want, tmp_path, capsys):
    golden.write(want, tmp_path)  # this z3's golden files (the committed ones may be another release's)
    assert golden.check(want, tmp_path) == 0
    (tmp_path / "emit" / "seed.kernel.ptx").write_text("// edited\n")
    (tmp_path / "proofs" / "seed.json").unlink()
    (tmp_path / "proofs" / "gone.json").write_text("{}\n")
    capsys.readouterr()
    assert golden.check(want, tmp_path) == 1
    err = capsys.readouterr().err
    assert "stale       emit/seed.kernel.ptx" in err
    assert "missing     proofs/seed.json" in err
    assert "unexpected  proofs/gone.json" in err
    assert len(golden.write(want, tmp_path)) == 3
    assert golden.check(want, tmp_path) == 0 and not (tmp_path / "proofs" / "gone.json").exists()


def test_the_command_line_refuses_an_unknown_action():
    r = subprocess.run([sys.executable, "-m", "tilecheck.golden", "refresh"], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 2 and "usage" in r.stderr


def test_the_golden_directories_are_data_not_packages():
    """pyproject's `include = ["tilecheck*"]` keeps them out of the wheel; they have no __init__.py."""
    for d in golden.DIRS:
        assert not (ROOT / d / "__init__.py").exists()
    found = find_packages(str(ROOT), include=["tilecheck*"])
    assert "tilecheck" in found and not any(p.split(".")[0] in golden.DIRS for p in found)
    assert 'include = ["tilecheck*"]' in (ROOT / "pyproject.toml").read_text()


def test_every_decided_obligation_has_its_query_and_another_z3_compares_the_rest():
    want = golden.expected()
    seed = sorted(k for k in want if k.startswith("proofs/seed/") and k.endswith(".smt2"))
    n = len(tilecheck.prove(tilecheck.load(golden.ROOT / "examples" / "seed.toml")).applies[0].obligations)
    assert len(seed) == n >= 11 and "proofs/seed/apply0-alignment.smt2" in seed
    other = {**want, golden.Z3_FILE: "0.0.0\n", seed[0]: "(changed by another release)"}
    w, h, note = golden.comparable(want, other)
    assert note and "0.0.0" in note and not any(k.endswith(".smt2") for k in w) and golden.stale(w, h) == []
    w, h, note = golden.comparable(want, {**want, seed[0]: "(stale)"})
    assert note is None and golden.stale(w, h) == [f"stale       {seed[0]}"]
