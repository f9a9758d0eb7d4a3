"""The progress line of long runs (tilecheck.progress): rich's live line on a terminal's standard
error, nothing when standard error is no terminal or the output is --json / --format, and the plain
output when rich is missing."""
import io
import pathlib

import pytest

from tilecheck import progress
from tilecheck.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = str(ROOT / "examples" / "seed.toml")


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_no_terminal_no_line():
    out = io.StringIO()
    with progress.Line("prove x", total=3, stream=out) as line:
        line.update(1, "apply[1]")
    assert not line.active and out.getvalue() == ""


def test_a_terminal_gets_rich_s_line():
    out = Terminal()
    with progress.Line("prove x.toml", total=3, stream=out) as line:
        line.update(2, "apply[2] ld.global.b32")
    assert line.active and "prove x.toml" in out.getvalue() and "apply[2] ld.global.b32" in out.getvalue()


def test_without_rich_the_line_is_off(monkeypatch):
    monkeypatch.setattr(progress, "_rich", None)
    out = Terminal()
    with progress.Line("prove x", stream=out) as line:
        line.update(1)
    assert not line.active and out.getvalue() == "" and not progress.rich_available()


@pytest.mark.parametrize("argv, shown", [
    (["prove", SEED], True),
    (["prove", "--json", SEED], False),
    (["prove", "--format", "sarif", SEED], False),
    (["prove", "--format", "github", SEED], False),
])
def test_prove_shows_the_line_only_in_text_mode_on_a_terminal(monkeypatch, capsys, argv, shown):
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert (SEED in err.getvalue()) == shown
    assert "\x1b" not in out  # the output itself never carries the line


def test_prove_in_a_pipe_prints_no_line(monkeypatch, capsys):
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert main(["prove", SEED]) == 0
    assert err.getvalue() == ""


def _campaign_line(monkeypatch, rich):
    from tilecheck.fuzz.campaign import Tally
    from tilecheck.fuzz.cli import _Progress
    if not rich:
        monkeypatch.setattr(progress, "_rich", None)
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    p = _Progress(10, None)
    t = Tally()
    t.cases = 4
    p.update(t)
    p.finish(t)
    return p, err.getvalue()


def test_a_campaign_uses_rich_on_a_terminal(monkeypatch):
    p, text = _campaign_line(monkeypatch, rich=True)
    assert p.live.active and p.live._bar is None  # rich's line, closed
    assert "fuzz" in text and "4 cases" in text and "[###" not in text


def test_a_campaign_without_rich_keeps_the_plain_bar(monkeypatch):
    p, text = _campaign_line(monkeypatch, rich=False)
    assert text.startswith("\r[############") and "4/10 cases" in text
