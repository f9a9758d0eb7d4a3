"""Hardware confirmation of refutations: run a plan that is NOT proved, in a child process.

``tilecheck run FILE --unchecked`` lands here.  The parent (``confirm``) proves the
file, refuses a proved one, predicts from the refuted obligations what the
hardware will do, and starts ``python -m tilecheck.gpu.unchecked`` — a separate
process, because a fault such as "misaligned address" leaves the CUDA context
unusable.  The child emits the kernel through the one escape hatch below, runs
it once, and prints one JSON line saying what happened.

Predictions (each obligation's record in ``proofs/registry.py``: ``hardware``, ``fault``; among
several refuted obligations the lowest ``rank`` wins):

* ``alignment`` refuted: the launch ends in CUDA's "misaligned address" error
  (buffers sit at addresses aligned to exactly their declared ``align``);
* ``bounds``/``overflow`` refuted: an "illegal address" fault, a write into
  the guard bytes around a buffer, or output that differs from the reference;
* anything else (ownership, disjoint, contiguity, ...): output that differs
  from the numpy reference (the layouts' intent), or any fault;
* ``target`` refuted: ptxas or the driver's JIT rejects the module, or the
  output differs (forms that ptxas accepts but miscompiles).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field

CHILD_TIMEOUT = 300


def emit_unchecked(check, name: str = "tilecheck_unchecked") -> str:
    """ESCAPE HATCH — PTX for a check whose plan is NOT proved, for hardware confirmation only.

    The public emitter takes only the Plan of a proved Report.  This builds the kernel of a
    refuted or unknown check anyway, so that the hardware can be watched failing; it refuses a
    proved check (run that with ``runner.run_check``).  Nothing but the ``--unchecked`` child
    process calls it, and its kernels never run in the parent's CUDA context."""
    from .. import emit
    from ..report import prove
    report = prove(check)
    if report.verdict == "proved":
        raise ValueError(f"{check.path} is proved: run it with tilecheck.gpu.runner.run_check, not unchecked")
    return emit.kernel_unchecked(report, name=name)


@dataclass
class Prediction:
    refuted: list  # (apply index, obligation, message)
    expect: str  # what the hardware should do, in words
    fault: str | None  # the CUDA error text expected, when a fault is the prediction


def predict(report) -> Prediction:
    refuted = [(a.apply.index, o.name, o.message) for a in report.applies for o in a.obligations
               if o.status == "refuted"]
    from ..proofs.registry import REGISTRY
    records = [REGISTRY[n] for n in REGISTRY if any(n == name for _, name, _ in refuted)]
    if records:  # the most decisive prediction among the refuted obligations' records
        r = min(records, key=lambda r: r.rank)
        return Prediction(refuted, r.hardware, r.fault)
    return Prediction(refuted, "nothing is refuted (unknown): no prediction", None)


@dataclass
class Outcome:
    """What the child saw, and whether that confirms the refutation."""
    status: str  # fault | completed | refused | rejected | cannot-emit | unavailable | crashed
    detail: str
    confirmed: bool
    prediction: Prediction
    seed: int
    symbols: dict = field(default_factory=dict)
    raw: dict = field(default_factory=dict)


def confirm(check, symbols: dict, seed: int, path: str, arch: str | None = None, how: str | None = None,
            report=None, timeout: float = CHILD_TIMEOUT) -> Outcome:
    """Run ``check`` unchecked in a child process and judge the outcome against the prediction."""
    from ..report import prove
    report = report or prove(check)
    if report.verdict == "proved":
        raise ValueError(f"{path} is proved: the unchecked path is only for refuted or unknown plans")
    pred = predict(report)
    cmd = [sys.executable, "-m", "tilecheck.gpu.unchecked", str(path), "--seed", str(seed)]
    for k, v in symbols.items():
        cmd += ["--set", f"{k}={v}"]
    if arch:
        cmd += ["--arch", arch]
    if how:
        cmd += ["--load", how]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome("crashed", f"the child process ran past {timeout:.0f} s", False, pred, seed, symbols)
    line = next((ln for ln in reversed(r.stdout.splitlines()) if ln.startswith("{")), None)
    if line is None:
        tail = " ".join((r.stderr or r.stdout).split())[-300:]
        return Outcome("crashed", f"the child process exited {r.returncode} without a result: {tail}",
                       False, pred, seed, symbols)
    raw = json.loads(line)
    status, detail = raw["status"], raw.get("detail", "")
    names = {n for _, n, _ in pred.refuted}
    if status == "fault":
        confirmed = pred.fault is None or pred.fault in detail.lower()
    elif status == "completed":
        confirmed = pred.fault is None and bool(raw.get("differs") or raw.get("guard"))
    elif status == "rejected":
        confirmed = "target" in names
    else:
        confirmed = False
    return Outcome(status, detail, confirmed, pred, seed, symbols, raw)


# the child ----------------------------------------------------------------

def _child(argv) -> dict:
    from ..check import load
    from ..errors import InputError
    from . import runner
    from .reference import BufferTooLarge, bind_symbols
    p = argparse.ArgumentParser(prog="python -m tilecheck.gpu.unchecked")
    p.add_argument("file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--arch")
    p.add_argument("--load", choices=runner.LOAD_PATHS, default=runner.DEFAULT_LOAD)
    a = p.parse_args(argv)
    try:
        check = load(a.file)
        if a.arch:
            check = check.with_arch(a.arch)
        symbols = bind_symbols(check, dict(_pair(s) for s in a.set))
    except InputError as e:
        return {"status": "unavailable", "detail": str(e)}
    try:
        g = runner.gpu()
        reason = g.can_run(check.arch)
        if reason:
            return {"status": "unavailable", "detail": reason}
    except runner.GpuUnavailable as e:
        return {"status": "unavailable", "detail": str(e)}
    try:
        ptx = emit_unchecked(check)
    except Exception as e:  # the emitter cannot build this plan at all
        return {"status": "cannot-emit", "detail": f"{type(e).__name__}: {e}"}
    job = runner.Job(check, symbols, a.seed, name="tilecheck_unchecked", ptx=ptx, strict=False)
    try:
        case, ptx, _ = runner.prepare(job, 0)
    except BufferTooLarge as e:
        return {"status": "unavailable", "detail": f"{a.file}: {e}"}
    try:
        loaded = runner.load_module(ptx, a.load)
    except (RuntimeError, g.drv.Error) as e:
        return {"status": "rejected", "detail": str(e)}
    try:
        res = runner.launch(loaded.module, job.name, case, ptx)
    except g.drv.Error as e:
        return {"status": "fault", "detail": " ".join(str(e).split())}
    if res.refused:
        return {"status": "refused", "detail": res.summary()}
    cmp = res.comparison
    return {"status": "completed", "detail": res.summary(), "guard": res.guard,
            "differs": None if cmp is None else not cmp.ok, "reference": case.undefined or "defined"}


def _pair(text: str):
    k, _, v = text.partition("=")
    return k.strip(), int(v)


def main(argv=None):
    try:
        out = _child(sys.argv[1:] if argv is None else argv)
    except Exception as e:
        out = {"status": "crashed", "detail": f"{type(e).__name__}: {' '.join(str(e).split())}"}
    print(json.dumps(out), flush=True)
    sys.stderr.flush()
    os._exit(0)  # skip pycuda's context clean-up: after a fault it can only fail noisily


if __name__ == "__main__":
    main()
