"""Find and run the NVIDIA command-line tools (ptxas, nvdisasm, cuobjdump).

This is the only place tilecheck looks for them (``emit.sass``, ``gpu.runner``, the tests and the
benchmarks all call ``find_tool``).  Lookup order: ``PATH``, then the pinned wheels' folder
``nvidia/cu13/bin/`` (``nvidia-cuda-nvcc==13.0.*``, the ptxas that the families' spellings are
calibrated against) in every ``site-packages`` on ``sys.path``, then ``$CUDA_HOME/bin``, ``$CUDA_PATH/bin``,
``$CUDA_ROOT/bin`` and ``/usr/local/cuda/bin``.  Other wheel folders (``cu12``-era ``cuda_nvcc/``,
a later ``cu14/``) are never picked: one finder, one CUDA version.

From a shell, ``python -m tilecheck.tools ptxas -arch=sm_90 seed.ptx -o seed.cubin`` runs the
tool found that way (a pip-only machine has the wheel's ptxas, which is not on ``PATH``) with
the arguments given, and exits with its status; ``python -m tilecheck.tools --which ptxas``
prints where it is.
"""
from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

# tool -> pip package that ships it
TOOLS = {
    "ptxas": "nvidia-cuda-nvcc==13.0.*",
    "nvdisasm": "nvidia-cuda-nvdisasm",
    "cuobjdump": "nvidia-cuda-cuobjdump",
}
WHEEL_BIN = "cu13/bin"  # under nvidia/: the folder of the CUDA 13 wheels that pyproject pins


class ToolNotFound(RuntimeError):
    """An NVIDIA tool is neither on PATH nor in an installed wheel."""


def _site_dirs() -> list[Path]:
    dirs = [Path(p) for p in sys.path if p and p.endswith(("site-packages", "dist-packages"))]
    try:
        dirs += [Path(p) for p in site.getsitepackages()]
    except AttributeError:  # some virtualenvs lack it
        pass
    dirs.append(Path(site.getusersitepackages()))
    return list(dict.fromkeys(dirs))


def _nvidia_roots() -> list[Path]:
    roots = [d / "nvidia" for d in _site_dirs()]
    try:
        import nvidia  # the wheels' namespace package, wherever it was installed
        roots += [Path(p) for p in nvidia.__path__]
    except ImportError:
        pass
    return [r for r in dict.fromkeys(roots) if r.is_dir()]


def candidates(name: str) -> list[Path]:
    """Every place find_tool looks after PATH, in order."""
    out = [root / WHEEL_BIN / name for root in _nvidia_roots()]
    homes = [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")] + ["/usr/local/cuda"]
    out += [Path(h) / "bin" / name for h in homes if h]
    return out


def find_tool(name: str) -> str:
    """Absolute path of ``name`` ("ptxas", "nvdisasm" or "cuobjdump"); raise ToolNotFound."""
    if name not in TOOLS:
        raise ValueError(f"unknown tool {name!r}: expected one of {', '.join(TOOLS)}")
    found = shutil.which(name)
    if found:
        return found
    for path in candidates(name):
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    raise ToolNotFound(f"{name} not found on PATH or in site-packages: "
                       f"pip install '{TOOLS[name]}' (or put the CUDA toolkit's bin/ on PATH)")


_DIAG = re.compile(r"^ptxas\S* [^,]*, line (\d+); (error|warning|fatal)\s*: (.*)$")


@dataclass(frozen=True)
class PtxasResult:
    ok: bool            # ptxas exited 0
    returncode: int     # negative: killed by that signal (ptxas crashed)
    stdout: str
    stderr: str
    cmd: tuple[str, ...]

    @property
    def crashed(self) -> bool:
        return self.returncode < 0

    def diagnostics(self) -> list[tuple[int, str, str]]:
        """(line number in the PTX text, "error"/"warning"/"fatal", message) per diagnostic."""
        out = []
        for line in self.stderr.splitlines():
            m = _DIAG.match(line.strip())
            if m:
                out.append((int(m.group(1)), m.group(2), m.group(3).strip()))
        return out

    def errors_by_line(self) -> dict[int, list[str]]:
        """Error and fatal messages keyed by PTX line number (1-based)."""
        out: dict[int, list[str]] = {}
        for line, level, msg in self.diagnostics():
            if level != "warning":
                out.setdefault(line, []).append(msg)
        return out

    def summary(self) -> str:
        """One line: the first error, or why ptxas gave none."""
        if self.ok:
            return "ok"
        errs = [msg for _, level, msg in self.diagnostics() if level != "warning"]
        if errs:
            return errs[0]
        if self.crashed:
            return f"ptxas crashed (signal {-self.returncode})"
        return (self.stderr.strip().splitlines() or [f"ptxas exited {self.returncode}"])[-1]


def ptxas(ptx_text: str, arch: str, *, output: str | os.PathLike | None = None,
          args: tuple[str, ...] | list[str] = (), timeout: float = 120) -> PtxasResult:
    """Assemble ``ptx_text`` for ``arch`` (e.g. "sm_90a"). ``output``: where the cubin goes
    (default: discarded). ``args``: extra ptxas options, e.g. ("-v",) or ("-O0",)."""
    exe = find_tool("ptxas")
    with tempfile.TemporaryDirectory(prefix="tilecheck-ptxas-") as tmp:
        src = Path(tmp) / "module.ptx"
        src.write_text(ptx_text)
        out = str(output) if output is not None else str(Path(tmp) / "module.cubin")
        cmd = (exe, f"-arch={arch}", *args, str(src), "-o", out)
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return PtxasResult(proc.returncode == 0, proc.returncode, proc.stdout, proc.stderr, cmd)


def main(argv=None) -> int:
    """``python -m tilecheck.tools [--which] TOOL [ARGS...]``: run (or locate) a found tool."""
    argv = sys.argv[1:] if argv is None else list(argv)
    which = bool(argv) and argv[0] == "--which"
    argv = argv[1:] if which else argv
    usage = f"usage: python -m tilecheck.tools [--which] {{{','.join(TOOLS)}}} [ARGS...]"
    if not argv or argv[0] not in TOOLS:
        got = f"unknown tool {argv[0]!r}; " if argv else ""
        print(f"tilecheck.tools: error: {got}{usage}", file=sys.stderr)
        return 2
    try:
        exe = find_tool(argv[0])
    except ToolNotFound as e:
        print(f"tilecheck.tools: error: {e}", file=sys.stderr)
        return 2
    if which:
        print(exe)
        return 0
    return subprocess.run([exe, *argv[1:]]).returncode


if __name__ == "__main__":
    raise SystemExit(main())
