"""``pytest --tilecheck PATH``: check files as test items.

Registered through the ``pytest11`` entry point (``tilecheck = "tilecheck.pytest_plugin"``);
without ``--tilecheck`` it does nothing.  Each ``*.toml`` under a ``--tilecheck PATH`` (a
directory, searched recursively, or one file; the option may be repeated) is one test item,
marked ``tilecheck``:

* proved passes;
* refuted fails with the refutation messages; unknown fails (never a proof);
* bad input fails with tilecheck's one-line error.

With ``--tilecheck-expect-names``, a file whose name contains ``refuted`` is expected to refute:
it passes when refuted and fails when proved or unknown (so ``pytest --tilecheck examples
--tilecheck-expect-names`` passes on tilecheck's own examples).  ``--tilecheck-timeout SECONDS``
bounds each query (default 10).

The PATHs are added to what pytest collects; the usual tests (``testpaths`` or the positional
arguments) still run.  To run only the check files: ``pytest --tilecheck checks -m tilecheck``.
"""
from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("tilecheck", "proving tilecheck check files")
    group.addoption("--tilecheck", action="append", default=[], metavar="PATH",
                    help="collect the *.toml check files under PATH as tests (repeatable)")
    group.addoption("--tilecheck-expect-names", action="store_true",
                    help="a check file whose name contains 'refuted' passes when refuted")
    group.addoption("--tilecheck-timeout", type=float, default=10.0, metavar="SECONDS",
                    help="bound on each solver query (default 10)")


def _roots(config) -> list[Path]:
    return [Path(p).resolve() for p in config.getoption("tilecheck") or []]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    roots = _roots(config)
    if not roots:
        return
    config.addinivalue_line("markers", "tilecheck: a tilecheck check file proved as a test (--tilecheck)")
    for r in roots:
        if not r.exists():
            raise pytest.UsageError(f"--tilecheck {r}: no such file or directory")
    given = [Path(a.split("::")[0]).resolve() for a in config.args]
    for r in roots:  # collect the check files too, unless an argument already covers them
        if not any(r == g or g in r.parents for g in given):
            config.args.append(str(r))


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".toml":
        return None
    roots = _roots(parent.config)
    p = file_path.resolve()
    if any(p == r or r in p.parents for r in roots):
        return CheckFile.from_parent(parent, path=file_path)
    return None


class CheckFailure(Exception):
    """A check file that did not meet its expectation: the message is the whole report."""


class CheckFile(pytest.File):
    def collect(self):
        yield CheckItem.from_parent(self, name=self.path.name)


class CheckItem(pytest.Item):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.add_marker("tilecheck")

    def runtest(self):
        from .check import load
        from .errors import InputError
        from .report import prove
        config = self.config
        try:
            check = load(self.path)
        except InputError as e:
            raise CheckFailure(f"tilecheck: error: {e}") from None
        report = prove(check, timeout=config.getoption("tilecheck_timeout"))
        expect = "refuted" if config.getoption("tilecheck_expect_names") and "refuted" in self.path.name else "proved"
        if report.verdict == expect:
            return
        lines = [f"{self.path.name}: {report.verdict}, expected {expect}"
                 + (" (its name contains 'refuted')" if expect == "refuted" else "")]
        for a in report.applies:
            for o in a.obligations:
                if o.status in ("refuted", "unknown"):
                    lines.append(f"  apply[{a.apply.index}] {o.message}")
        raise CheckFailure("\n".join(lines))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"tilecheck {self.path.name}"
