"""`tilecheck prove --format github|sarif`: annotations at the line of the failing [[apply]] (issue 33, item 3)."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tilecheck import ci_format
from tilecheck.cli import main
from tilecheck.obligations import RECORDS

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"

TWO_APPLIES = """arch = "sm_90"

[tensors.A]
dtype = "float32"
scope = "global"
shape = [8, 8]
align = 16

[tensors.R]
dtype = "float32"
scope = "register"
shape = [8, 4]

# the first application reads aligned 16-byte rows
[[apply]]
opcode = "ld.global.v4.b32"
dst = "R"
src = "A[:, 0:4]"

# the second one starts a column later: refuted on alignment
[[apply]]
opcode = "ld.global.v4.b32"
dst = "R"
src = "A[:, 1:5]"
"""


def header_lines(text):
    return [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "[[apply]]"]


def run(argv, capsys):
    status = main(argv)
    return status, capsys.readouterr()


def test_github_annotation_at_the_failing_apply(tmp_path, capsys):
    f = tmp_path / "two.toml"
    f.write_text(TWO_APPLIES)
    status, out = run(["prove", "--format", "github", str(f)], capsys)
    assert status == 1
    lines = out.out.strip().splitlines()
    errors = [l for l in lines if l.startswith("::error ")]
    assert len(errors) == 1
    second = header_lines(TWO_APPLIES)[1]
    assert errors[0].startswith(f"::error file={f},line={second},title=tilecheck alignment::apply[1] ld.global.v4.b32: ")
    assert "byte offset 4, not a multiple of 16" in errors[0]
    assert lines[-1] == f"{f}: refuted"


def test_github_performance_is_a_warning_and_proved_exits_0(capsys):
    path = "examples/seed.toml"
    status, out = run(["prove", "--format", "github", str(EX / "seed.toml")], capsys)
    assert status == 0
    (warning,) = [l for l in out.out.splitlines() if l.startswith("::")]
    line = header_lines((EX / "seed.toml").read_text())[0]
    assert warning.startswith("::warning ") and f",line={line},title=tilecheck registers::" in warning
    assert path in warning


def test_github_bad_input_at_its_line(tmp_path, capsys):
    f = tmp_path / "bad.toml"
    f.write_text('arch = "sm_90"\n[tensors.A]\ndtype = "float31"\nscope = "global"\nshape = [4]\n')
    status, out = run(["prove", "--format", "github", str(f)], capsys)
    assert status == 2
    (err,) = [l for l in out.out.splitlines() if l.startswith("::")]
    assert err.startswith(f"::error file={f},line=3,title=tilecheck input::tensors.A: dtype: unknown dtype 'float31'")


def test_github_escapes_properties_and_messages():
    assert ci_format._escape("a%b\nc:d,e", prop=True) == "a%25b%0Ac%3Ad%2Ce"
    assert ci_format._escape("50% of 1:2, 3\r\n") == "50%25 of 1:2, 3%0D%0A"


def test_stdin_has_no_line(monkeypatch, capsys):
    text = (EX / "region_misaligned_refuted.toml").read_text()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    status, out = run(["prove", "--format", "github", "-"], capsys)
    assert status == 1
    (err,) = [l for l in out.out.splitlines() if l.startswith("::error")]
    assert ",line=" not in err and "title=tilecheck alignment" in err


def test_sarif_log(tmp_path, capsys):
    f = tmp_path / "two.toml"
    f.write_text(TWO_APPLIES)
    status, out = run(["prove", "--format", "sarif", str(f), str(EX / "seed.toml")], capsys)
    assert status == 1
    log = json.loads(out.out)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run_,) = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [*RECORDS, "input", "unsupported"]
    results = run_["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("alignment", "error"), ("registers", "warning")]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == str(f) and loc["region"]["startLine"] == header_lines(TWO_APPLIES)[1]
    assert results[0]["properties"]["apply"] == 1
    assert results[0]["properties"]["counterexample"]["byte_offset"] == 4


def test_json_and_another_format_is_bad_input(capsys):
    status, out = run(["prove", "--json", "--format", "sarif", str(EX / "seed.toml")], capsys)
    assert status == 2
    assert json.loads(out.out)["error"]["where"] == "--format"


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_format_json_and_text_are_the_old_outputs(fmt, capsys):
    status, out = run(["prove", "--format", fmt, str(EX / "seed.toml")], capsys)
    status2, out2 = run(["prove", *(["--json"] if fmt == "json" else []), str(EX / "seed.toml")], capsys)
    strip = (lambda s: json.loads(s)["verdict"]) if fmt == "json" else (lambda s: s.splitlines()[1])
    assert status == status2 == 0 and strip(out.out) == strip(out2.out)
