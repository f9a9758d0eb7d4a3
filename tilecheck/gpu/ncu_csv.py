"""Run a Python child under Nsight Compute (``ncu``) and read its CSV back, kernel by kernel.

One profiled process for many kernels: the caller writes what the child launches (its kernels
carry their own names), ``profile`` runs ``ncu --csv ... python -m MODULE ARGS`` once and keeps
ncu's raw output in the output folder, and ``parse`` turns the CSV into ``{launch: Row}`` whatever
page ncu printed:

* ``--page details`` (the default): one line per (kernel launch, metric), columns ``ID``,
  ``Kernel Name``, ``Metric Name``, ``Metric Unit``, ``Metric Value`` (among others);
* ``--page raw``: one line per launch, one column per metric, a second header line of units.

Values may carry thousands separators (``"1,024"``); ``n/a`` is kept as None.  Lines that are not
CSV (``==PROF==`` messages, the child's own output) are skipped.
"""
from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

# ncu's LSU ops, the suffix of its per-op counters (``..._op_ld.sum``): loads and stores, whatever
# instruction issues them (the direction ``memory_model.wavefronts`` takes), not a tilecheck family
OPS = LOAD, STORE = ("ld", "st")
SHARED_WAVEFRONTS = {o: f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{o}.sum" for o in OPS}
SHARED_CONFLICTS = {o: f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{o}.sum" for o in OPS}
GLOBAL_SECTORS = {o: f"l1tex__t_sectors_pipe_lsu_mem_global_op_{o}.sum" for o in OPS}
GLOBAL_REQUESTS = {o: f"l1tex__t_requests_pipe_lsu_mem_global_op_{o}.sum" for o in OPS}
SHARED_ALL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"  # every shared-memory wavefront (LDSM/STSM too)
# counters that may name ldmatrix/stmatrix alone (which of them a given ncu knows: ``available``)
MATRIX_METRICS = [SHARED_ALL, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
                  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum",
                  "smsp__inst_executed_op_ldsm.sum", "smsp__inst_executed_op_stsm.sum",
                  "smsp__sass_inst_executed_op_ldsm.sum", "smsp__sass_inst_executed_op_stsm.sum"]
METRICS = [m for d in (SHARED_WAVEFRONTS, SHARED_CONFLICTS, GLOBAL_SECTORS, GLOBAL_REQUESTS) for m in d.values()]


class NcuError(RuntimeError):
    """ncu is missing, failed, or printed nothing we can read (the message says where the raw output is)."""


@dataclass
class Row:
    """One profiled kernel launch."""
    launch: int  # ncu's ID: the launch's index among the profiled ones
    kernel: str  # the kernel's name (arguments and template text stripped)
    metrics: dict = field(default_factory=dict)  # metric name -> number (int where integral) or None
    units: dict = field(default_factory=dict)


def find_ncu() -> str | None:
    """ncu's path: ``$NCU``, ``PATH``, then the CUDA toolkit's usual folders."""
    if os.environ.get("NCU"):
        return os.environ["NCU"]
    found = shutil.which("ncu")
    if found:
        return found
    for root in [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")] + ["/usr/local/cuda"]:
        if root and (Path(root) / "bin" / "ncu").exists():
            return str(Path(root) / "bin" / "ncu")
    nvcc = shutil.which("nvcc")
    if nvcc:
        p = Path(nvcc).resolve().parent / "ncu"
        if p.exists():
            return str(p)
    return None


def under_ncu() -> bool:
    """Whether this process is already being profiled (ncu injects itself through these variables)."""
    return any(k.startswith("NV_NSIGHT") or k == "NSIGHT_COMPUTE_INJECTION" for k in os.environ) or \
        "libTreeLauncherTargetInjection" in os.environ.get("LD_PRELOAD", "") or \
        os.environ.get("TILECHECK_UNDER_NCU") == "1"


def available(candidates: list[str], out: Path | None = None) -> list[str]:
    """The metrics among ``candidates`` that this ncu knows for the present device (``ncu
    --query-metrics``; ``out/ncu_query_metrics.txt`` keeps its shared-memory lines); every candidate
    when ncu cannot be asked."""
    ncu = find_ncu()
    if ncu is None:
        return list(candidates)
    try:
        r = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return list(candidates)
    names = {line.split()[0] for line in r.stdout.splitlines() if line.strip() and "__" in line.split()[0]}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "ncu_query_metrics.txt").write_text(
            "\n".join(ln for ln in r.stdout.splitlines() if "shared" in ln or "ldsm" in ln or "stsm" in ln) + "\n")
    if not names:
        return list(candidates)
    return [m for m in candidates if m.rsplit(".", 1)[0] in names]


def ncu_command(ncu: str, log: Path, child: list[str], kernel_regex: str | None, plain: bool = False,
                metrics: list[str] | None = None) -> list[str]:
    cmd = [ncu, "--csv", "--metrics", ",".join(metrics or METRICS), "--target-processes", "all", "--log-file", str(log)]
    if not plain:
        cmd += ["--print-units", "base"]
    if kernel_regex:
        cmd += ["--kernel-name", f"regex:{kernel_regex}"]
    return cmd + child


def profile(child_args: list[str], out: Path, kernel_regex: str | None = None, timeout: float = 900,
            metrics: list[str] | None = None) -> tuple[str, Path]:
    """Run ``python CHILD_ARGS`` under ncu; returns (ncu's CSV text, its file).  ncu's stdout and
    stderr go to ``out/ncu_stdout.txt`` and ``out/ncu_stderr.txt``, its command line to ``out/ncu_command.txt``.
    When ncu rejects ``--print-units`` (an older ncu), it is run once more without it."""
    ncu = find_ncu()
    if ncu is None:
        raise NcuError("ncu (Nsight Compute) is not on PATH, in $NCU, or in /usr/local/cuda/bin")
    out.mkdir(parents=True, exist_ok=True)
    log = out / "ncu_raw.csv"
    child = [sys.executable] + child_args
    env = {**os.environ, "TILECHECK_UNDER_NCU": "1"}
    for plain in (False, True):
        cmd = ncu_command(ncu, log, child, kernel_regex, plain, metrics)
        (out / "ncu_command.txt").write_text(" ".join(cmd) + "\n")
        if log.exists():
            log.unlink()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise NcuError(f"ncu ran past {timeout:.0f} s; partial output in {out}") from e
        (out / "ncu_stdout.txt").write_text(r.stdout)
        (out / "ncu_stderr.txt").write_text(r.stderr)
        text = log.read_text(errors="replace") if log.exists() else ""
        if r.returncode and not plain and "print-units" in (r.stdout + r.stderr + text):
            continue
        if r.returncode:
            tail = " | ".join((r.stderr or r.stdout or text).strip().splitlines()[-6:])
            raise NcuError(f"ncu exited {r.returncode} (raw output in {out}): {tail[:600]}")
        return text, log
    raise NcuError(f"ncu failed (raw output in {out})")


def _number(text: str):
    s = (text or "").strip().replace(",", "")
    if not s or s.lower() in ("n/a", "nan", "-"):
        return None
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v == int(v) else v


def _kernel_name(text: str) -> str:
    name = text.strip()
    for ch in "(<":
        if ch in name:
            name = name[:name.index(ch)]
    return name.strip().split()[-1] if name.strip() else name


def parse(text: str) -> dict[int, Row]:
    """ncu's CSV (details or raw page) as ``{launch ID: Row}``."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    out: dict[int, Row] = {}
    header = None
    k = 0
    while k < len(rows):
        row = rows[k]
        if row and row[0] == "ID":
            header = row
            k += 1
            if "Metric Name" not in header and k < len(rows) and rows[k] and not rows[k][0].strip().isdigit():
                units = dict(zip(header, rows[k]))  # the raw page's second header line
                k += 1
            else:
                units = {}
            continue
        k += 1
        if header is None or len(row) != len(header):
            continue
        r = dict(zip(header, row))
        try:
            launch = int(r["ID"].replace(",", ""))
        except ValueError:
            continue
        entry = out.setdefault(launch, Row(launch, _kernel_name(r.get("Kernel Name", ""))))
        if "Metric Name" in header:
            entry.metrics[r["Metric Name"]] = _number(r.get("Metric Value", ""))
            entry.units[r["Metric Name"]] = r.get("Metric Unit", "")
        else:
            for col, val in r.items():
                if "__" in col:
                    entry.metrics[col] = _number(val)
                    entry.units[col] = units.get(col, "")
    return out


def by_kernel(rows: dict[int, Row]) -> dict[str, list[Row]]:
    """The rows of each kernel name, in launch order."""
    out: dict[str, list[Row]] = {}
    for launch in sorted(rows):
        out.setdefault(rows[launch].kernel, []).append(rows[launch])
    return out


def scale(value, unit: str):
    """A value in its base unit, should ncu have scaled it (``K``/``M``/``G`` prefixes) despite --print-units base."""
    if value is None:
        return None
    u = (unit or "").strip()
    for prefix, f in (("K", 1e3), ("M", 1e6), ("G", 1e9)):
        if u.startswith(prefix) and len(u) > 1 and u[1:2].islower():
            v = value * f
            return int(round(v)) if abs(v - round(v)) < 1e-6 * max(1, abs(v)) else v
    return value


def metric(row: Row, name: str):
    return scale(row.metrics.get(name), row.units.get(name, ""))
