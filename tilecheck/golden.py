"""The golden files: every example's emitted PTX (``emit/``) and proof certificate (``proofs/``).

``python -m tilecheck.golden write`` regenerates them from ``examples/*.toml``;
``python -m tilecheck.golden check`` regenerates them in memory and exits 1 listing every file
that is stale, missing or no longer produced (0 when all match).  ``tests/test_golden.py`` runs
the check, so a change in emitted code or in a proof shows in review as a diff of these files.

For each example ``X`` (labelled ``examples/X.toml``, as ``tilecheck`` run from the repository
root labels it):

* ``proofs/X.json``: ``tilecheck prove --json examples/X.toml`` without its timing fields
  (``seconds``), so that it is deterministic; refuted examples keep their (minimal)
  counterexamples.  ``proofs/X/`` holds each obligation's query as SMT-LIB 2
  (``prove --smt2``), compared only under the z3 release that wrote them (``proofs/Z3_VERSION``).
* for a proved example, ``emit/X.fragment.ptx`` (``tilecheck emit examples/X.toml``),
  ``emit/X.kernel.ptx`` (``tilecheck emit examples/X.toml --kernel``) and ``emit/X.sass.json``:
  the SASS memory instructions (by mnemonic) of the kernel that ptxas makes for each of
  ``ARCHS`` on which the example is proved (its ``target`` obligation says where it is not).

One process proves each example once (per arch for the SASS counts) and runs ptxas
concurrently; the SASS needs ptxas and nvdisasm (``tilecheck.tools``), pinned to CUDA 13.0.
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
import z3
from . import tools
from .check import loads
from .emit.cli import fragments
from .errors import InputError
from .emit.kernel import kernel
from .emit.sass import MEMORY, assemble
from .report import prove
from .tools import ToolNotFound

ROOT = Path(__file__).resolve().parent.parent
ARCHS = ("sm_80", "sm_90", "sm_100a")
DIRS = ("emit", "proofs")

README = {
    "emit/README.md": """# Golden PTX (generated: do not edit)

For every proved example `examples/X.toml`: `X.fragment.ptx` (`tilecheck emit examples/X.toml`),
`X.kernel.ptx` (`tilecheck emit examples/X.toml --kernel`) and `X.sass.json` (the SASS memory
instructions, by mnemonic, that ptxas makes of the kernel for each arch where the example is proved).

Regenerate with `python -m tilecheck.golden write`; `python -m tilecheck.golden check` (and
`tests/test_golden.py`) fails when these files are stale.
""",
    "proofs/README.md": """# Proof certificates (generated: do not edit)

For every example `examples/X.toml`: `X.json` is `tilecheck prove --json examples/X.toml` without
its timing fields (refuted examples carry their minimal counterexamples). `X/` holds each
obligation's query as SMT-LIB 2 (`tilecheck prove --smt2`): z3's printing, so they are compared
only under the z3 release named in `Z3_VERSION` (another release compares the rest).

Regenerate with `python -m tilecheck.golden write`; `python -m tilecheck.golden check` (and
`tests/test_golden.py`) fails when these files are stale.
""",
}


def _untimed(obj):
    """The report's JSON without its timing fields (``seconds``), which differ on every run."""
    if isinstance(obj, dict):
        return {k: _untimed(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [_untimed(v) for v in obj]
    return obj


def _dump(obj) -> str:
    return json.dumps(obj, indent=1) + "\n"


def _ptxas_release() -> str:
    out = subprocess.run([tools.find_tool("ptxas"), "--version"], capture_output=True, text=True).stdout
    for word in out.replace(",", " ").split():
        if word[:1].isdigit() and "." in word:  # "release 13.0, V13.0.88" -> 13.0
            return word
    return out.strip().splitlines()[-1] if out.strip() else "unknown"


def _queries(label: str) -> dict[str, str]:
    """``proofs/X/*.smt2``: every obligation's query of ``label``, exported by ``tilecheck prove --smt2``
    in a fresh process.  z3 prints a query with ``let`` bindings for the subterms it shares with
    whatever the process built before, so only a fresh process prints the same text every time."""
    with tempfile.TemporaryDirectory(prefix="tilecheck-smt2-") as d:
        subprocess.run([sys.executable, "-m", "tilecheck", "prove", "--smt2", d, label], cwd=ROOT,
                       capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        return {f"proofs/{p.relative_to(d)}": p.read_text() for p in sorted(Path(d).rglob("*.smt2"))}


def _sass(kernel_ptx: str, arch: str) -> dict:
    asm = assemble(kernel_ptx, arch)
    counts: dict[str, int] = {}
    for i in asm.instructions:
        if i.split(".")[0] in MEMORY:
            counts[i] = counts.get(i, 0) + 1
    return {"memory": dict(sorted(counts.items())), "spill_bytes": asm.spills}


def expected(examples: Path | None = None) -> dict[str, str]:
    """Every golden file's path (relative to the repository root) and its text."""

    examples = examples or ROOT / "examples"
    out = dict(README)
    sass_jobs = []  # (stem, arch, kernel PTX) or (stem, arch, why not proved there)
    smt2_jobs = []  # examples whose queries are exported, each in a fresh process (see _queries)
    for path in sorted(examples.glob("*.toml")):
        stem, label = path.stem, f"examples/{path.name}"
        check = loads(path.read_text(), label)
        report = prove(check)
        out[f"proofs/{stem}.json"] = _dump(_untimed(report.to_json()))
        smt2_jobs.append(label)
        if report.verdict != "proved" or not check.applies:  # tensor maps only: no instruction to emit
            continue
        try:
            emitted = fragments(report.plan), kernel(report.plan, name="tilecheck_kernel")
        except InputError:  # proved, but outside what the emitter spells (EmitError: docs/gpu.md)
            continue
        out[f"emit/{stem}.fragment.ptx"], out[f"emit/{stem}.kernel.ptx"] = emitted
        for arch in ARCHS:
            r = report if arch == check.arch else prove(check.with_arch(arch))
            if r.verdict == "proved":
                sass_jobs.append((stem, arch, kernel(r.plan, name="tilecheck_kernel"), None))
            else:
                why = [o.message for a in r.applies for o in a.obligations if o.status != "proved" and o.message]
                sass_jobs.append((stem, arch, None, f"{r.verdict}: {why[0] if why else r.verdict}"))
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        done = list(pool.map(lambda j: _sass(j[2], j[1]) if j[2] is not None else {"not_proved": j[3]}, sass_jobs))
        for queries in pool.map(_queries, smt2_jobs):
            out.update(queries)
    release = _ptxas_release() if sass_jobs else None
    per_stem: dict[str, dict] = {}
    for (stem, arch, _, _), result in zip(sass_jobs, done):
        per_stem.setdefault(stem, {"ptxas": release, "archs": {}})["archs"][arch] = result
    for stem, data in per_stem.items():
        out[f"emit/{stem}.sass.json"] = _dump(data)
    out[Z3_FILE] = z3.get_version_string() + "\n"
    return dict(sorted(out.items()))


def on_disk(root: Path = ROOT) -> dict[str, str]:
    out = {}
    for d in DIRS:
        for p in sorted((root / d).rglob("*")):
            if p.is_file():
                out[str(p.relative_to(root))] = p.read_text()
    return out


Z3_FILE = "proofs/Z3_VERSION"


def comparable(want: dict[str, str], have: dict[str, str]) -> tuple[dict, dict, str | None]:
    """The SMT-LIB queries are z3's own printing, which may change between z3 releases: they are
    compared only when the running z3 is the release that wrote them (``proofs/Z3_VERSION``)."""
    if want.get(Z3_FILE) == have.get(Z3_FILE):
        return want, have, None
    keep = lambda d: {k: v for k, v in d.items() if not k.endswith(".smt2") and k != Z3_FILE}  # noqa: E731
    return keep(want), keep(have), (f"note: the SMT-LIB queries were written by z3 {have.get(Z3_FILE, '?').strip()}, "
                                    f"this is z3 {want.get(Z3_FILE, '?').strip()}: compared without them")


def stale(want: dict[str, str], have: dict[str, str]) -> list[str]:
    """One line per golden file that differs: ``stale``, ``missing`` or ``unexpected``."""
    lines = []
    for path in sorted(set(want) | set(have)):
        if path not in have:
            lines.append(f"missing     {path}")
        elif path not in want:
            lines.append(f"unexpected  {path}")
        elif want[path] != have[path]:
            lines.append(f"stale       {path}")
    return lines


def write(want: dict[str, str], root: Path = ROOT) -> list[str]:
    """Write ``want`` under ``root`` and remove golden files no longer produced; the changes."""
    changes = stale(want, on_disk(root))
    for path, text in want.items():
        p = root / path
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
    for line in changes:
        if line.startswith("unexpected"):
            p = root / line.split(None, 1)[1]
            p.unlink()
            with contextlib.suppress(OSError):
                p.parent.rmdir()  # a per-example query folder left empty
    return changes


def check(want: dict[str, str], root: Path = ROOT, out=None) -> int:
    """0 when the golden files under ``root`` are ``want``; else 1, listing each that is not."""
    out = out or sys.stderr
    want, have, note = comparable(want, on_disk(root))
    if note:
        print(note, file=out)
    lines = stale(want, have)
    if lines:
        print(f"{len(lines)} golden file(s) out of date (run `python -m tilecheck.golden write` and review "
              "the diff):", file=out)
        print("\n".join(f"  {line}" for line in lines), file=out)
        return 1
    print(f"{len(want)} golden files up to date", file=out)
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv not in (["write"], ["check"]):
        print("usage: python -m tilecheck.golden {write|check}", file=sys.stderr)
        return 2
    if not (ROOT / "examples").is_dir() or not all((ROOT / d).is_dir() or argv == ["write"] for d in DIRS):
        print(f"tilecheck.golden: error: {ROOT} is not a tilecheck source tree (no examples/, emit/, proofs/)",
              file=sys.stderr)
        return 2
    try:
        want = expected()
    except ToolNotFound as e:
        print(f"tilecheck.golden: error: {e}", file=sys.stderr)
        return 2
    if argv == ["write"]:
        changes = write(want)
        print("\n".join(changes) if changes else "golden files up to date")
        return 0
    return check(want)


if __name__ == "__main__":
    raise SystemExit(main())
