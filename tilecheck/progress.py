"""A progress line on standard error for long runs: ``prove`` (per application), ``fuzz`` campaigns
and ``run`` on a GPU (per stage).

Only when standard error is a terminal, and never on standard output (``--json`` and ``--format``
output stay machine-readable; the callers do not make a line then).  With rich installed
(``pip install tilecheck[progress]``) it is rich's live line -- a spinner, the bar when the total is
known, the counts and the elapsed time -- cleared when the run ends; without rich, ``Line.rich`` is
False and the callers keep their plain output (``fuzz``'s own bar; ``prove`` and ``run`` print none).
"""
from __future__ import annotations

import sys

_UNLOADED = object()
_rich = _UNLOADED  # rich.progress once a terminal asks for it (imported then: a pipe never pays for it)


def _load():
    """rich.progress, or None without rich (an optional dependency: the [progress] extra)."""
    global _rich
    if _rich is _UNLOADED:
        try:
            import rich.progress as mod
        except ImportError:  # pragma: no cover - depends on the environment
            mod = None
        _rich = mod
    return _rich


def on_terminal(stream=None) -> bool:
    """Whether ``stream`` (default standard error) is a terminal."""
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed, or no file at all
        return False


class Line:
    """One live progress line: ``with Line("prove f.toml", total=3) as line: line.update(1, "apply[1]")``.

    Inactive (every method does nothing) when standard error is no terminal or rich is missing;
    ``active`` says which.  ``update(done, text)``: ``done`` units of ``total`` finished, ``text`` what
    runs now (either may be left out)."""

    def __init__(self, what: str, total: int | None = None, stream=None):
        self.what, self.total = what, total
        self.stream = sys.stderr if stream is None else stream
        self.active = on_terminal(self.stream) and _load() is not None
        self._bar = self._task = None

    def __enter__(self) -> "Line":
        if self.active:
            from rich.console import Console
            _rich = _load()
            cols = [_rich.SpinnerColumn(), _rich.TextColumn("{task.description}")]
            if self.total:
                cols += [_rich.BarColumn(), _rich.MofNCompleteColumn()]
            cols += [_rich.TextColumn("{task.fields[now]}"), _rich.TimeElapsedColumn()]
            self._bar = _rich.Progress(*cols, console=Console(file=self.stream), transient=True,
                                       redirect_stdout=False, redirect_stderr=False)
            self._bar.start()
            self._task = self._bar.add_task(self.what, total=self.total, now="")
        return self

    def update(self, done: int | None = None, text: str | None = None, **_):
        if self._bar is None:
            return
        fields = {} if text is None else {"now": text}
        if done is not None:
            fields["completed"] = done
        self._bar.update(self._task, **fields)

    def close(self):
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __exit__(self, *exc):
        self.close()
        return False


def rich_available() -> bool:
    """Whether rich is importable (the live line; else the plain output)."""
    return _load() is not None
