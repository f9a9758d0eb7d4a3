"""``pytest --tilecheck PATH``: check files as test items, one per application.

Registered through the ``pytest11`` entry point (``tilecheck = "tilecheck.pytest_plugin"``);
without ``--tilecheck`` it does nothing.  Under a ``--tilecheck PATH`` (a directory, searched
recursively, or one file; the option may be repeated) the check files are the ``*.toml`` files
whose name matches a glob of the ``tilecheck_files`` ini option (default ``tilecheck_*.toml``;
several globs separated by spaces), so ``pytest --tilecheck .`` leaves ``pyproject.toml`` alone.
The globs may also be set in a ``[tool.tilecheck]`` table of the rootdir's ``pyproject.toml``
(``files = ["checks/*.toml"]`` style globs match the file name; the ini option wins).  A file
named directly (``--tilecheck checks/seed.toml``) is collected whatever its name.

Each ``[[apply]]`` of a check file is one test item, marked ``tilecheck``, with the id
``FILE::apply[K]:OPCODE`` (``...:refutes=OBLIGATION,...`` when it expects refutations):

* an application passes when every blocking obligation is proved, or, when it declares
  ``refutes = ["alignment"]`` (an obligation name or a list), when exactly those obligations
  refute and no blocking obligation is unknown;
* otherwise it fails with the refutation messages; unknown always fails (never a proof);
* a file that does not load is one failing item with tilecheck's one-line error.

Each ``[tensormaps.NAME]`` of a check file is an item ``FILE::tensormap[NAME]`` too, passing when
every obligation of the tensor map is proved.  A descriptor check file (a top-level
``[descriptors.NAME]`` or ``[idesc.NAME]`` table and no ``[[apply]]``: ``tilecheck/descriptor_file.py``'s
form, docs/wgmma.md) is collected as such: an item ``FILE::descriptor[NAME]`` per descriptor, passing when
every obligation of ``proofs/smem_descriptor.py`` is proved (a skipped one is not blocking), and
``FILE::idesc[NAME]`` per tcgen05 instruction descriptor (``proofs/tcgen05_idesc.py``).

With ``--tilecheck-expect-names``, the applications of a file whose name contains ``refuted``
and that declares no ``refutes`` pass when the file is refuted (and they are not unknown): the
old name-based rule, for check files written before ``refutes``.  ``--tilecheck-timeout
SECONDS`` bounds each query (default 10).

The PATHs are added to what pytest collects; the usual tests (``testpaths`` or the positional
arguments) still run.  To run only the check files: ``pytest --tilecheck checks -m tilecheck``.
"""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest
from . import descriptor_file
from .check import load
from .errors import InputError
from .proofs import PROVED, REFUTED, UNKNOWN
from .proofs.registry import blocks
from . import report as report_module  # report_module.prove: looked up at the call (a test replaces it)

DEFAULT_FILES = "tilecheck_*.toml"


def pytest_addoption(parser):
    group = parser.getgroup("tilecheck", "proving tilecheck check files")
    group.addoption("--tilecheck", action="append", default=[], metavar="PATH",
                    help="collect the check files under PATH as tests, one per [[apply]] (repeatable)")
    group.addoption("--tilecheck-expect-names", action="store_true",
                    help="a check file whose name contains 'refuted' (and no 'refutes' key) passes when refuted")
    group.addoption("--tilecheck-timeout", type=float, default=10.0, metavar="SECONDS",
                    help="bound on each solver query (default 10)")
    parser.addini("tilecheck_files", type="args", default=None,
                  help=f"globs of the check files' names under --tilecheck PATHs (default {DEFAULT_FILES})")


def _roots(config) -> list[Path]:
    return [Path(p).resolve() for p in config.getoption("tilecheck") or []]


def _globs(config) -> list[str]:
    """The ini option, else ``[tool.tilecheck] files`` in the rootdir's pyproject.toml, else the default."""
    globs = config.getini("tilecheck_files")
    if globs:
        return list(globs)
    pyproject = Path(config.rootpath) / "pyproject.toml"
    if pyproject.is_file():
        try:
            table = tomllib.loads(pyproject.read_text()).get("tool", {}).get("tilecheck", {})
        except (ValueError, OSError) as e:
            raise pytest.UsageError(f"{pyproject}: {e}") from None
        files = table.get("files") if isinstance(table, dict) else None
        if isinstance(files, str):
            files = files.split()
        if files is not None:
            if not isinstance(files, list) or not all(isinstance(g, str) for g in files):
                raise pytest.UsageError(f"{pyproject}: [tool.tilecheck] files must be a glob or a list of globs, "
                                        f"got {files!r}")
            return files
    return [DEFAULT_FILES]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    roots = _roots(config)
    if not roots:
        return
    config.addinivalue_line("markers", "tilecheck: a tilecheck check file's application proved as a test")
    for r in roots:
        if not r.exists():
            raise pytest.UsageError(f"--tilecheck {r}: no such file or directory")
    config._tilecheck_globs = _globs(config)
    given = [Path(a.split("::")[0]).resolve() for a in config.args]
    for r in roots:  # collect the check files too, unless an argument already covers them
        if not any(r == g or g in r.parents for g in given):
            config.args.append(str(r))


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".toml":
        return None
    roots = _roots(parent.config)
    p = file_path.resolve()
    if p in roots or (any(r in p.parents for r in roots) and any(fnmatch.fnmatch(p.name, g)
                                                                 for g in parent.config._tilecheck_globs)):
        kind = DescriptorFile if _is_descriptor_file(p) else CheckFile
        return kind.from_parent(parent, path=file_path)
    return None


def _is_descriptor_file(path: Path) -> bool:
    """A top-level ``descriptors`` table and no ``[[apply]]``: descriptor_file.py's form (a file that is not
    TOML is a check file's error to report; a check file may declare descriptors for its wgmma applies)."""
    try:
        data = tomllib.loads(path.read_text())
        return "apply" not in data and (isinstance(data.get("descriptors"), dict)
                                        or isinstance(data.get("idesc"), dict))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


class CheckFailure(Exception):
    """A check file that did not meet its expectation: the message is the whole report."""


class CheckFile(pytest.File):
    """One check file: an item per application (proved together, once)."""

    _report = None

    def collect(self):
        try:
            check = load(self.path)
        except InputError as e:
            yield CheckItem.from_parent(self, name=self.path.name, error=f"tilecheck: error: {e}")
            return
        self.check = check
        by_name = (self.config.getoption("tilecheck_expect_names") and "refuted" in self.path.name
                   and not any(a.refutes for a in check.applies))
        for a in check.applies:
            name = f"apply[{a.index}]:{a.opcode.text}" + (f":refutes={','.join(a.refutes)}" if a.refutes else "")
            yield CheckItem.from_parent(self, name=name, apply_index=a.index, by_name=by_name)
        by_name = self.config.getoption("tilecheck_expect_names") and "refuted" in self.path.name
        for name in check.tensormaps:
            yield TensorMapItem.from_parent(self, name=f"tensormap[{name}]", map_name=name, by_name=by_name)

    def report(self):
        if self._report is None:
            self._report = report_module.prove(self.check, timeout=self.config.getoption("tilecheck_timeout"))
        return self._report


class CheckItem(pytest.Item):
    def __init__(self, *, apply_index=None, by_name=False, error=None, **kw):
        super().__init__(**kw)
        self.apply_index, self.by_name, self.error = apply_index, by_name, error
        self.add_marker("tilecheck")

    def runtest(self):
        if self.error is not None:
            raise CheckFailure(self.error)
        report = self.parent.report()
        a = report.applies[self.apply_index]
        where = f"{self.path.name} apply[{a.apply.index}] {a.apply.opcode.text}"
        blocking = [o for o in a.obligations if blocks(o.name, a.apply.require)]
        unknown = [o.name for o in blocking if o.status == UNKNOWN]
        refuted = {o.name for o in a.obligations if o.status == REFUTED}
        expected = set(a.apply.refutes)
        if self.by_name:
            ok = not unknown and report.verdict == REFUTED
            head = f"{where}: {a.verdict} (the file is {report.verdict}), expected the file refuted " \
                   f"(its name contains 'refuted')"
        elif expected:
            ok = not unknown and expected <= refuted and {o.name for o in blocking if o.status == REFUTED} <= expected
            head = f"{where}: {a.verdict}, expected {', '.join(a.apply.refutes)} refuted " \
                   f"(refuted: {', '.join(sorted(refuted)) or 'none'})"
        else:
            ok = a.verdict == PROVED
            head = f"{where}: {a.verdict}, expected proved"
        if ok:
            return
        lines = [head]
        for o in a.obligations:
            if o.status in (REFUTED, UNKNOWN) and o.name not in expected:
                lines.append(f"  {o.message}")
        raise CheckFailure("\n".join(lines))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"tilecheck {self.path.name}::{self.name}"


def _judge(where: str, verdict: str, outcomes, by_name: bool, file_verdict: str):
    """An item of obligations without ``refutes``: proved, or with --tilecheck-expect-names a
    refuted file's (never unknown)."""
    unknown = any(o.status == UNKNOWN for o in outcomes)
    if by_name:
        if not unknown and file_verdict == REFUTED:
            return
        head = f"{where}: {verdict} (the file is {file_verdict}), expected the file refuted (its name contains " \
               f"'refuted')"
    elif verdict == PROVED:
        return
    else:
        head = f"{where}: {verdict}, expected proved"
    raise CheckFailure("\n".join([head] + [f"  {o.message}" for o in outcomes if o.status in (REFUTED, UNKNOWN)]))


def _worst(statuses) -> str:
    """Unknown, else refuted, else any other status than proved or skipped (a skip is not blocking)."""
    statuses = set(statuses)
    other = sorted(str(s) for s in statuses - {PROVED, REFUTED, UNKNOWN, "skipped"})
    return UNKNOWN if UNKNOWN in statuses else REFUTED if REFUTED in statuses else other[0] if other else PROVED


class TensorMapItem(CheckItem):
    """One ``[tensormaps.NAME]`` of a check file: its obligations (proved with the file's report)."""

    def __init__(self, *, map_name, **kw):
        super().__init__(**kw)
        self.map_name = map_name

    def runtest(self):
        report = self.parent.report()
        outs = next(outs for m, outs in report.tensormaps if m.name == self.map_name)
        _judge(f"{self.path.name} tensormap {self.map_name}", _worst(o.status for o in outs), outs, self.by_name,
               report.verdict)


class DescriptorFile(pytest.File):
    """A descriptor check file (``tilecheck/descriptor_file.py``): an item per ``[descriptors.NAME]``."""

    _results = None

    def collect(self):
        try:
            with open(self.path, "rb") as fh:
                data = tomllib.load(fh)
            names = [d.name for d in descriptor_file.load(data, str(self.path))]
            idescs = [i.name for i in descriptor_file.load_idesc(data, str(self.path))]
        except InputError as e:
            yield CheckItem.from_parent(self, name=self.path.name, error=f"tilecheck: error: {e}")
            return
        by_name = self.config.getoption("tilecheck_expect_names") and "refuted" in self.path.name
        for d in names:
            yield DescriptorItem.from_parent(self, name=f"descriptor[{d}]", descriptor=d, by_name=by_name)
        for i in idescs:  # tcgen05's instruction descriptors: results under "idesc.NAME"
            yield DescriptorItem.from_parent(self, name=f"idesc[{i}]", descriptor=f"idesc.{i}", by_name=by_name)

    def results(self) -> dict:
        if self._results is None:
            self._results = descriptor_file.prove_file(str(self.path), self.config.getoption("tilecheck_timeout"))
        return self._results


class DescriptorItem(CheckItem):
    def __init__(self, *, descriptor, **kw):
        super().__init__(**kw)
        self.descriptor = descriptor

    def runtest(self):
        results = self.parent.results()
        outs = results[self.descriptor]
        file_verdict = _worst(o.status for v in results.values() for o in v)
        _judge(f"{self.path.name} descriptor {self.descriptor}", _worst(o.status for o in outs), outs,
               self.by_name, file_verdict)
