"""tilecheck suggest: swizzles found and re-proved, none where none exists, widest vectors, the kept file."""
import subprocess
import sys
from pathlib import Path

import pytest

import tilecheck
from tilecheck.layout import Swizzle
from tilecheck.strategies import to_toml
from tilecheck.suggest import family, suggest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "tilecheck", "suggest", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def banks(report, k):
    return report.applies[k].obligation("banks")


@pytest.fixture(scope="module")
def column():
    return suggest(EXAMPLES / "banks_conflict_refuted.toml")


def test_column_demo_finds_a_swizzle_that_is_proved_conflict_free(column):
    before = tilecheck.prove(tilecheck.load(EXAMPLES / "banks_conflict_refuted.toml"))
    assert banks(before, 0).status == "refuted" and banks(before, 0).count == 32
    (t,) = column.tensors
    assert t.targets == [0] and t.swizzle is not None
    assert t.tried <= t.family and column.exit_status == 0
    # independently: the suggested layout, proved by the prover, is at the ideal
    check = tilecheck.loads(to_toml(column.data))
    assert str(check.tensors["S"].layout).startswith(str(t.swizzle))
    report = tilecheck.prove(check)
    assert report.verdict == "proved"
    assert banks(report, 0).status == "proved" and banks(report, 0).count == 1
    # every earlier candidate of the family fails (the search is in order)
    for sw in family(12, 0)[:t.tried - 1][-3:]:
        text = to_toml(column.data).replace(str(t.swizzle), str(sw))
        r = tilecheck.prove(tilecheck.loads(text))
        assert r.verdict != "proved" or banks(r, 0).status != "proved"


def test_column_demo_widest_vector_and_the_next_widths_reason(column):
    (w,) = column.widths
    assert w.current == 1 and w.widest == 2 and w.next_width == 4
    assert w.reason.startswith("contiguity refuted") and "\n" not in w.reason
    assert w.texts["opcode"] == "ld.shared.v2.b16"
    data = to_toml(column.data)
    for key in ("opcode", "dst", "src"):
        old = {"opcode": "ld.shared.b16", "dst": "R: l j -> l j ()", "src": "S[0:32, :]: l j -> l j ()"}[key]
        data = data.replace(f'"{old}"', f'"{w.texts[key]}"')
    a = tilecheck.prove(tilecheck.loads(data)).applies[0]
    assert a.apply.opcode.vector == 2 and a.verdict == "proved" and a.instructions == 32


def test_staged_tile_swizzle_keeps_writer_and_reader_proved():
    s = suggest(EXAMPLES / "banks_staged_half_refuted.toml")
    (t,) = s.tensors
    assert t.applies == [0, 1] and t.targets == [1]
    assert t.swizzle == Swizzle(3, 2, 3)  # 16-byte atoms (M = 2 words) stay whole; the 8 chunks are permuted
    assert s.report.verdict == "proved"
    for k in (0, 1):
        a = s.report.applies[k]
        assert a.verdict == "proved" and a.obligation("contiguity").status == "proved"
        assert a.obligation("alignment").status == "proved" and a.obligation("banks").count == 4
    # v8 would be the next width: ptxas has no 256-bit shared vectors
    assert [(w.widest, w.next_width) for w in s.widths] == [(4, 8), (4, 8)]
    assert all(w.reason.startswith("target refuted") for w in s.widths)


def test_no_swizzle_exists_for_a_word_column_under_16_byte_atoms():
    s = suggest(ROOT / "tests/data/suggest_no_swizzle.toml")
    (t,) = s.tensors
    assert t.swizzle is None and t.tried == t.family and s.exit_status == 1
    assert sum(t.failures.values()) == t.family
    # the best a swizzle can do is 4 wavefronts: 8 banks for 32 rows; the others break the writer's atoms
    best = min(int(w.split(": ")[1].split()[0]) for w in t.failures if w.startswith("banks"))
    assert best == 4
    assert any(w.startswith("contiguity of apply[0]") for w in t.failures)


def test_cli_writes_a_file_that_proves(tmp_path):
    out = tmp_path / "out.toml"
    r = cli(EXAMPLES / "banks_conflict_refuted.toml", "-o", out)
    assert r.returncode == 0, r.stderr
    assert "swizzle found" in r.stdout and "searched in" in r.stdout
    report = tilecheck.prove(tilecheck.load(out))
    assert report.verdict == "proved"
    assert dict(report.applies[0].apply.expect)["banks"] is None  # conflict-free, required by the kept file
    assert out.read_text() == (EXAMPLES / "banks_column_half_swizzled.toml").read_text()  # the example is this output


def test_cli_exit_1_when_no_swizzle_fixes_it():
    r = cli(ROOT / "tests/data/suggest_no_swizzle.toml")
    assert r.returncode == 1 and "no swizzle in the family works" in r.stdout


def test_nothing_to_improve_exits_0():
    r = cli(EXAMPLES / "banks_conflict_free.toml")
    assert r.returncode == 0 and "banks proved at the ideal already" in r.stdout


@pytest.mark.parametrize("args, what", [
    (["missing.toml"], "cannot read file"),
    (["BAD"], "invalid TOML"),
    (["examples/seed.toml", "--max-candidates", "0"], "positive integer"),
])
def test_bad_input_is_one_line_exit_2(args, what, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("arch = \n")
    r = cli(*[bad if a == "BAD" else a for a in args])
    assert r.returncode == 2 and what in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert r.stdout == ""


def test_cli_output_keeps_the_users_comments_and_formatting(tmp_path):
    """suggest -o changes only the values it suggests: comments (whole-line and after a value),
    blank lines and key order stay as the user wrote them (tomlkit)."""
    src = (EXAMPLES / "banks_conflict_refuted.toml").read_text()
    src = src.replace('expect = { banks = "conflict-free" }\n', "")  # suggest adds it back for the swizzle
    src = src.replace('align = 128\n', 'align = 128               # one swizzle block\n\n# the fragment\n')
    src = src.replace('scope = "warp"\n', 'scope = "warp"   # lane l reads row l\n')
    f, out = tmp_path / "mine.toml", tmp_path / "out.toml"
    f.write_text(src)
    r = cli(f, "-o", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    expected = src.replace('layout = "(64,64):(64,1)"', 'layout = "Sw<5,1,5> o (64,64):(64,1)"')
    expected = expected.replace('src = "S[0:32, :]: l j -> l j ()"\n',
                                'src = "S[0:32, :]: l j -> l j ()"\nexpect = {banks = "conflict-free"}\n')
    head, _, body = text.partition("#\n")
    assert head.startswith("# Suggested by `tilecheck suggest mine.toml` (re-proved: proved).\n")
    assert body == expected
    assert tilecheck.prove(tilecheck.load(out)).verdict == "proved"


def test_candidates_are_the_checked_model_with_the_layout_replaced_and_the_facts_decided_once(monkeypatch):
    """Issue 29: a swizzle candidate is the checked model with the tensor's layout replaced in place
    (no check rebuilt from the file's data per candidate), and the symbols' facts, which no candidate
    changes, are decided once for the whole run (widths included)."""
    import tilecheck.suggest as sg
    from tilecheck.proofs import facts
    built, decided = [], []
    real_build, real_decide = sg.from_dict, facts.decide
    monkeypatch.setattr(sg, "from_dict", lambda *a, **k: built.append(1) or real_build(*a, **k))
    monkeypatch.setattr(facts, "decide", lambda check, timeout_s, quick=True:
                        (decided.append(1) if quick else None) or real_decide(check, timeout_s, quick))
    s = sg.suggest(EXAMPLES / "banks_staged_half_refuted.toml")
    (t,) = s.tensors
    assert t.tried == 15 and t.swizzle == Swizzle(3, 2, 3)  # the candidates the other tests hold
    # the ideal and the tensor's checks, the final one, and one per width tried of each apply
    assert len(built) <= 3 + len(sg.WIDTHS) * len(s.widths)
    assert len(decided) == 1
