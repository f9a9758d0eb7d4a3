"""Malformed input: mutated check files through ``tilecheck prove`` (in-process), and mutated
fields through ``tilecheck.from_dict``.

A mutated file must give exit 2 with exactly one line on stderr, or, when the mutation
left a valid file, a verdict (0, 1 or 3); never a traceback.  A mutated field must load
or raise ``InputError``; any other exception is a finding.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
import json
import sys

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hseed, settings
from hypothesis import strategies as st

from ..strategies import checks, malformed_texts, plain_family, to_toml
from .. import decide, families
from ..check import from_dict, load
from ..cli import main
from ..errors import InputError
from .differential import UNKNOWN, compare

SEED_TEXT = '''arch = "sm_90"
threads = 1

[tensors.A]
dtype = "float32"
scope = "global"
shape = [15, 2, 7, 2]
layout = "(15,2,7,2):(4,1,60,2)"
align = 16

[tensors.R]
dtype = "float32"
scope = "register"
shape = [15, 2, 7, 2]
layout = "(15,2,7,2):(8,2,120,4)"

[[apply]]
opcode = "ld.global.v4.b32"
dst = "R: i b j d -> j i (d b)"
src = "A: i b j d -> j i (d b)"
'''

SYMBOLIC_TEXT = '''arch = "sm_90"
assume = ["r0 + 8 <= n", "c0 + 8 <= k"]

[symbols.n]
min = 8
max = 1048576

[symbols.k]
min = 8
max = 65536
multiple_of = 8

[symbols.r0]
min = 0
max = 1048568
multiple_of = 8

[symbols.c0]
min = 0
max = 65528
multiple_of = 8

[tensors.X]
dtype = "float16"
scope = "global"
shape = ["n", "k"]
align = 16

[tensors.R]
dtype = "float16"
scope = "register"
shape = [8, 8]

[[apply]]
opcode = "ld.global.nc.v4.b16"
dst = "R: r (v=2 w) -> r v w"
src = "X[r0:r0+8, c0:c0+8]: r (v=2 w) -> r v w"
'''

CTA_TEXT = '''threads = 128

[tensors.S]
dtype = "float32"
scope = "shared"
shape = [4, 32, 3, 4]
layout = "(4,32,3,4):(384,12,4,1)"
align = 16

[tensors.R]
dtype = "float32"
scope = "register"
shape = [4, 32, 3, 4]
layout = "(4,32,3,4):(1@warpid,1@laneid,4,1)"

[[apply]]
opcode = "st.shared.v4.b32"
scope = "cta"
dst = "S"
src = "R"
'''

DIVISION_TEXT = '''assume = ["r + 8 <= n//2"]

[symbols.n]
min = 16
max = 4096

[symbols.k]
min = 4
max = 64
multiple_of = 4

[symbols.r]
min = 0
max = 1024
multiple_of = 8

[tensors.A]
dtype = "float32"
scope = "shared"
shape = ["n//2", "2*k"]
layout = "(n//2,2*k):(2*k,1)"
align = 16

[tensors.R]
dtype = "float32"
scope = "register"
shape = [8, 4]

[[apply]]
opcode = "ld.shared.v4.b32"
dst = "R"
src = "A[r:r+8, 0:4]"
'''

BASES = [SEED_TEXT, SYMBOLIC_TEXT, CTA_TEXT, DIVISION_TEXT]


def run_prove_in_process(path: str, extra=()) -> tuple[int | None, str, str, str | None]:
    """``tilecheck prove PATH`` in this process: (exit status, stdout, stderr, escaped exception)."""
    out, err = io.StringIO(), io.StringIO()
    rc, exc = None, None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(["prove", *extra, path])
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 2
        except BaseException as e:  # noqa: BLE001 - a traceback is the finding
            exc = "".join(traceback.format_exception(e))
    return rc, out.getvalue(), err.getvalue(), exc


def judge_file(rc, stdout, stderr, exc, as_json=False) -> str | None:
    """None when the CLI behaved: a verdict, or exit 2 with one line on stderr (with ``--json``: an
    error object with a one-line message on stdout) and no traceback."""
    if exc is not None:
        return "an exception escaped tilecheck.cli.main: " + exc.strip().splitlines()[-1]
    if "Traceback" in stderr or "Traceback" in stdout:
        return "a traceback was printed"
    if rc == 2 and as_json and not stderr:
        try:
            err = json.loads(stdout)["error"]
        except (ValueError, KeyError, TypeError):
            return f"exit 2 with --json but no error object: {stdout[:200]!r}"
        msg = f"{err.get('where', '')}: {err.get('message', '')}"
        return None if err.get("message") and "\n" not in msg else f"bad error object {err!r}"[:300]
    if rc == 2:
        lines = stderr.splitlines()
        if len(lines) != 1 or not lines[0].strip():
            return f"exit 2 with {len(lines)} lines on stderr: {stderr[:200]!r}"
        return None
    if rc in (0, 1, 3):
        return None if not stderr else f"exit {rc} but stderr says {stderr[:200]!r}"
    return f"exit status {rc!r}" + (f": {stderr.strip()[:300]}" if stderr.strip() else "")  # 4: an internal error


# values a mutated field may take (every TOML type, and the strings the parsers see: among them the
# plain family's instruction names)
_TOKENS = list("()[]:,@=->*/%+ 0123456789abnijklvw_.#\"'") + [
    "laneid", "warpid", "tid", *plain_family().instructions, "global", "shared", "v4", "b32", "L2::", "sm_", "->",
    "//"]
_TEXT = st.lists(st.sampled_from(_TOKENS), max_size=20).map("".join)
_VALUE = st.one_of(_TEXT, st.integers(-2**70, 2**70), st.sampled_from([0, -1, 1, 2**31, 2**64, True, False, 1.5]),
                   st.lists(st.one_of(st.integers(-5, 40), _TEXT), max_size=5), st.just({}), st.just([]))


# an apply's keys to mutate: the model's own, every family's (misplaced on another family's apply) and an unknown one
_MUTATED_KEYS = ["opcode", "scope", "dst", "src", *sorted({k for f in families.FAMILIES.values() for k in f.keys}), "x"]


@st.composite
def mutated_dicts(draw):
    """A drawn check with one field (or key) replaced by an arbitrary value."""
    data = draw(checks(max_points=64))
    where = draw(st.sampled_from(["top", "tensor", "apply", "symbol"]))
    if where == "top":
        key = draw(st.sampled_from(["arch", "threads", "assume", "symbols", "tensors", "apply", "version", "bogus"]))
        data[key] = draw(_VALUE)
    elif where == "tensor":
        t = draw(st.sampled_from(sorted(data["tensors"])))
        key = draw(st.sampled_from(["dtype", "scope", "shape", "layout", "offset", "align", "bogus"]))
        data["tensors"][t][key] = draw(_VALUE)
    elif where == "apply":
        key = draw(st.sampled_from(_MUTATED_KEYS))
        data["apply"][0][key] = draw(_VALUE)
    else:
        data.setdefault("symbols", {})["n"] = {draw(st.sampled_from(["min", "max", "multiple_of", "from", "y"])):
                                               draw(_VALUE)}
        if draw(st.booleans()):
            data.setdefault("assume", []).append(draw(_TEXT))
    return data


# --- input edges: deep expressions, non-UTF-8 bytes, whitespace ----------------------------------

_QUOTED = re.compile(r'"([^"\\\n]*)"')
_NUMBER = re.compile(r"(?<![A-Za-z_0-9.=])[0-9]+(?![A-Za-z_0-9.])")
_PUNCT = re.compile(r"->|//|<=|>=|==|!=|[()\[\],:*+%@=<>-]")
_SPACED_KEYS = ("layout", "src", "dst", "shape", "offset", "assume")  # strings whose whitespace is free
_SPACES = [" ", "  ", "\\t", "\\n", " \\n\\t"]  # TOML escapes: a real tab or newline in the value


@st.composite
def edge_texts(draw, base: str):
    """``base`` with one input edge: an integer inside a quoted string (a layout, an operand, a
    shape entry, a fact) rewritten as a deep expression of the same value (``(4+0+0+...)``, up to
    12,000 terms, or up to 400 nested parentheses), or the file's text made not UTF-8.  Returns
    str, or bytes for the encoding edge."""
    how = draw(st.sampled_from(["deep", "deep", "parens", "bytes"]))
    if how == "bytes":
        raw = base.encode()
        i = draw(st.integers(0, len(raw)))
        junk = draw(st.sampled_from([b"\xff", b"\xfe\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\xed\xa0\x80"]))
        return raw[:i] + junk + raw[i:]
    spots = [(m.start(1) + n.start(), m.start(1) + n.end())
             for m in _QUOTED.finditer(base) for n in _NUMBER.finditer(m.group(1))]
    if not spots:
        return base
    a, b = draw(st.sampled_from(spots))
    number = base[a:b]
    if how == "parens":
        k = draw(st.sampled_from([150, 199, 200, 201, 400]))
        new = "(" * k + number + ")" * k
    else:
        k = draw(st.sampled_from([1000, 3000, 12000]))
        op = draw(st.sampled_from(["+0", "-0", "*1", "+1-1"]))
        new = "(" + number + op * k + ")"
    return base[:a] + new + base[b:]


@st.composite
def spaced_texts(draw, base: str):
    """``base`` with whitespace (spaces, tabs, newlines) inserted around the punctuation of its
    quoted strings; the meaning must not change."""
    def spread(m):
        q = m.group(1)
        out = _PUNCT.sub(lambda t: draw(st.sampled_from(["", *_SPACES])) + t.group(0)
                         + draw(st.sampled_from(["", *_SPACES])), q)
        return '"' + draw(st.sampled_from(["", " ", "\\n"])) + out + draw(st.sampled_from(["", " ", "\\t"])) + '"'
    return "\n".join(_QUOTED.sub(spread, line) if line.lstrip().startswith(_SPACED_KEYS) else line
                     for line in base.split("\n"))


def _verdicts(path: str) -> tuple:
    """(exit status, per obligation statuses) of ``tilecheck prove --json PATH``."""
    rc, out, err, exc = run_prove_in_process(path, ["--timeout", "2", "--json"])
    if exc is not None or rc not in (0, 1, 2, 3):
        return rc, exc
    doc = json.loads(out)
    if rc == 2:
        return rc, None
    return rc, tuple((o["name"], o["status"]) for a in doc["applies"] for o in a["obligations"])


def judge_spaced(base_path: str, spaced_path: str) -> str | None:
    """None when the spaced file means what the base file means (same exit status, same statuses)."""
    a, b = _verdicts(base_path), _verdicts(spaced_path)
    if b[0] not in (0, 1, 2, 3) or (b[0] == 2) != (a[0] == 2):
        return f"whitespace changed the answer: exit {a[0]} without, exit {b[0]} with"
    if a[0] != 2 and any(x != y and "unknown" not in (x[1], y[1]) for x, y in zip(a[1], b[1])):
        return f"whitespace changed the verdicts: {a} without, {b} with"[:400]  # (unknown: a timeout)
    return None


def judge_dict(data) -> str | None:
    try:
        from_dict(data, "<mutated>")
    except InputError as e:
        if "\n" in str(e):
            return f"InputError with several lines: {str(e)[:200]!r}"
    except Exception as e:  # noqa: BLE001
        frame = traceback.extract_tb(e.__traceback__)[-1]
        return f"from_dict raised {type(e).__name__} at {Path(frame.filename).name}:{frame.lineno}: {e}"[:300]
    return None


def differential(path: str, budget: int = 50_000) -> str | None:
    """Z3 against the enumerator on a valid file (skipped when the enumeration would be large)."""
    check = load(path)
    envs = decide.assignments(check, limit=16)
    if decide.elements(check) * max(1, len(envs)) > budget:
        return None
    r = compare(check, timeout=2, limit=16)
    problems = [p for p in r.problems if not (p.kind == UNKNOWN and r.symbolic)]
    return "; ".join(map(str, problems))[:400] or None


@dataclass
class MalformedStats:
    files: int = 0
    dicts: int = 0
    exit2: int = 0
    valid: int = 0
    spaced: int = 0  # whitespace variants that meant what their base means
    failures: list = field(default_factory=list)  # (kind, input, why)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary(self) -> str:
        lines = [f"tilecheck fuzz --malformed: {self.files} mutated files ({self.exit2} exit 2 with one line, "
                 f"{self.valid} still valid; {self.spaced} respaced files that mean the same) and {self.dicts} mutated fields in {self.seconds:.1f} s; "
                 f"{len(self.failures)} failures (tracebacks, several lines, wrong exit, or a valid file on which "
                 f"Z3 and the enumerator disagree)"]
        for kind, _, why in self.failures[:20]:
            lines.append(f"  {kind}: {why}")
        return "\n".join(lines)


def run_malformed(n: int, seed: int = 0, out: str | None = None, quiet: bool = True) -> MalformedStats:
    """``n`` mutated inputs: half mutated check files through the CLI (a tenth of ``n`` with an input
    edge, a twentieth respaced), half mutated fields."""
    stats = MalformedStats()
    start = time.perf_counter()
    cfg = settings(database=None, deadline=None, suppress_health_check=list(HealthCheck),
                   phases=(Phase.generate,), verbosity=Verbosity.quiet)
    bases = st.one_of(st.sampled_from(BASES), checks(max_points=64).map(to_toml))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mutated.toml")

        n_edges, n_spaced = n // 10, n // 20  # of the files: input edges, respaced files
        n_files = max(1, (n + 1) // 2 - n_edges - n_spaced)

        @settings(cfg, max_examples=n_files)
        @hseed(seed)
        @given(bases.flatmap(malformed_texts), st.booleans())
        def files(text, as_json):
            Path(path).write_text(text)
            rc, o, e, exc = run_prove_in_process(path, ["--timeout", "2"] + (["--json"] if as_json else []))
            stats.files += 1
            why = judge_file(rc, o, e, exc, as_json)
            if why:
                stats.failures.append(("file", text, why))
            elif rc == 2:
                stats.exit2 += 1
            else:
                stats.valid += 1
                why = differential(path)  # a file the mutation left valid is one more differential case
                if why:
                    stats.failures.append(("differential", text, why))
            if not quiet and stats.files % 500 == 0:
                print(f"  {stats.files} files, {len(stats.failures)} failures", file=sys.stderr)

        @settings(cfg, max_examples=max(1, n // 2))
        @hseed(seed + 1)
        @given(mutated_dicts())
        def dicts(data):
            stats.dicts += 1
            why = judge_dict(data)
            if why:
                stats.failures.append(("field", repr(data), why))

        @settings(cfg, max_examples=max(1, n_edges))
        @hseed(seed + 2)
        @given(st.sampled_from(BASES).flatmap(edge_texts), st.booleans())
        def edges(data, as_json):
            Path(path).write_bytes(data if isinstance(data, bytes) else data.encode())
            rc, o, e, exc = run_prove_in_process(path, ["--timeout", "2"] + (["--json"] if as_json else []))
            stats.files += 1
            why = judge_file(rc, o, e, exc, as_json)
            if why:
                stats.failures.append(("file", data, why))
            elif rc == 2:
                stats.exit2 += 1
            else:
                stats.valid += 1

        base_path = os.path.join(tmp, "base.toml")

        @settings(cfg, max_examples=max(1, n_spaced))
        @hseed(seed + 3)
        @given(bases.flatmap(lambda b: st.tuples(st.just(b), spaced_texts(b))))
        def spaced(pair):
            base, text = pair
            Path(base_path).write_text(base)
            Path(path).write_text(text)
            stats.files += 1
            why = judge_spaced(base_path, path)
            if why:
                stats.failures.append(("spaced", text, why))
            else:
                stats.spaced += 1

        files()
        if n_edges:
            edges()
        if n_spaced:
            spaced()
        dicts()
    stats.seconds = time.perf_counter() - start
    if out and stats.failures:
        d = Path(out)
        d.mkdir(parents=True, exist_ok=True)
        for k, (kind, text, why) in enumerate(stats.failures[:50]):
            head = "".join(f"# {line}\n" for line in why.splitlines()).encode()
            (d / f"malformed-{k}.{'txt' if kind == 'field' else 'toml'}").write_bytes(
                head + (text if isinstance(text, bytes) else text.encode()))
    return stats
