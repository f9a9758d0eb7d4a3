"""Hardware confirmation of refutations: run a plan that is NOT proved, in a child process.

``tilecheck run FILE --unchecked`` lands here.  The parent (``confirm``) proves the
file once (or takes the caller's report), refuses a proved one, predicts from the refuted
obligations what the hardware will do, and emits the refuted kernel through the one escape
hatch, ``tilecheck.emit.kernel_unchecked(report)``.  Then it starts ``python -m
tilecheck.gpu.unchecked`` — a separate process, because a fault such as "misaligned address"
leaves the CUDA context unusable — and hands it that PTX on stdin.  The child proves and emits
nothing: it loads the given PTX, runs it once on the check's buffers (at the given symbol values
and placements), and prints one JSON line saying what happened.

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
from pathlib import Path
import numpy as np
from . import runner
from .. import emit
from ..check import load
from ..crd2idx import Ints
from ..emit.kernel import unplaceable
from ..errors import InputError
from ..layout import OFFSET
from ..proofs.registry import REGISTRY
from ..report import prove
from .batch import misaligned_placement
from .reference import BufferTooLarge, _coords, _cta_values, _evaluate_layout, _index, bind_symbols, case_bytes

CHILD_TIMEOUT = 300


NAME = "tilecheck_unchecked"  # the entry of every unchecked kernel


def unchecked_kernel(report, placement: dict | None = None) -> str:
    """The PTX of a refuted ``report``'s kernel, for the child to run: ``emit.kernel_unchecked`` (which
    raises for anything but a refuted Report), with the shared and local arrays of ``placement`` at
    exactly their declared alignment.  Called in the parent, never in the child."""
    return emit.kernel_unchecked(report, name=NAME, placement=placement)


@dataclass
class Prediction:
    refuted: list  # (apply index, obligation, message)
    expect: str  # what the hardware should do, in words
    fault: str | None  # the CUDA error text expected, when a fault is the prediction


def predict(report) -> Prediction:
    refuted = [(a.apply.index, o.name, o.message) for a in report.applies for o in a.obligations
               if o.status == "refuted"]
    records = [REGISTRY[n] for n in REGISTRY if any(n == name for _, name, _ in refuted)]
    if records:  # the most decisive prediction among the refuted obligations' records
        r = min(records, key=lambda r: r.rank)
        return Prediction(refuted, r.hardware, r.fault)
    return Prediction(refuted, "nothing is refuted (unknown): no prediction", None)


# Which refutation to run, most readily confirmed first: a misaligned access faults every time; an
# out-of-bounds access faults or lands in the guard bytes; a race or a wrong slot only changes data.
CONFIRMABLE = ("alignment", "bounds", "overflow", "disjoint", "ownership")
MAX_CHOICE_BYTES = 1 << 33  # a counterexample whose buffers exceed this is passed over for a smaller one


@dataclass
class Choice:
    """The symbol values and buffer placements of an unchecked run, and why (one line)."""
    symbols: dict
    why: str
    placement: dict = field(default_factory=dict)  # tensor -> (residue, modulus) of its base address
    source: tuple | None = None  # (apply index, obligation) whose counterexample gave the values


def counterexample_symbols(cex: dict | None) -> dict | None:
    """The symbol values of a refuted obligation's counterexample (``first`` for ``disjoint``)."""
    if not cex:
        return None
    syms = cex.get("symbols")
    if syms is None and isinstance(cex.get("first"), dict):
        syms = cex["first"].get("symbols")
    return dict(syms) if syms else None


def align_blamed(report, symbols: dict | None = None) -> dict:
    """Tensor -> (residue, modulus) for every refutation that blames the declared ``align`` of a base
    pointer (alignment refuted with ``align`` in its counterexample), in any state space: a global
    buffer is placed so by the runner's arena, a shared or local array by the kernel's declaration
    (``emit.kernel_unchecked``).  The base is placed at a
    multiple of ``align`` that is not a multiple of the vector's bytes — ``align`` mod ``2*vector`` unless
    another such residue misaligns more of the application's vectors at these symbol values (an array
    whose vectors all start 12 bytes in is aligned at base 4 mod 16: it is placed at 8) — so that the
    misaligned-address fault can show (``batch.misaligned_placement``)."""
    check = report.check
    env = bind_symbols(check) if symbols is None else symbols
    out: dict = {}
    for a in report.applies:
        for o in a.obligations:
            cex = o.counterexample or {}
            if not (o.name == "alignment" and o.status == "refuted" and "align" in cex):
                continue
            t, v, al = cex["tensor"], int(cex["vector_bytes"]), int(cex["align"])
            if t in out and out[t][1] >= 2 * v:
                continue
            r, m = misaligned_placement(al, v)
            starts = vector_starts(check, a.apply, env)
            if starts is not None:
                r = best_residue(al, v, starts)
            out[t] = (r, m)
    return out


def vector_starts(check, apply, env: dict):
    """The byte offsets (from the tensor's base) of the first word of every vector ``apply`` accesses,
    at symbol values ``env`` (the reference's semantics), or None where the layouts leave them undefined."""
    t = check.tensors[apply.memory.tensor]
    try:
        env = {**env, **_cta_values(check, env)[0]}
        coords = _coords(apply.memory.shape)
        off = _evaluate_layout(t, _index(apply.memory, coords, env), env)[OFFSET]
    except Exception:  # noqa: BLE001 - a refuted plan's layouts may be out of range: no preference then
        return None
    if not len(coords):
        return None
    fam, op = apply.family, apply.opcode
    role = next(fam.role(op, r) for r in fam.memory_roles(op) if getattr(apply, r) is apply.memory)
    if role.origin is None:
        return np.unique(off[coords[-1] == 0] * t.esize)
    # rows that cross lanes (ldmatrix/stmatrix): a row starts at the element its address lane's origin
    # names, (group, word) = role.origin(lane), not at word 0 of each lane's registers
    first = np.zeros(coords[0].shape, dtype=bool)
    for lane in range(role.lanes or 32):
        g, w = role.origin([lane], Ints())
        first |= (coords[0] == int(g[0])) & (coords[-1] == int(w))
    return np.unique(off[first] * t.esize)


def best_residue(align: int, vector_bytes: int, starts) -> int:
    """The base residue mod ``2*vector_bytes`` -- a multiple of ``align`` -- that misaligns the most
    vectors starting at byte offsets ``starts``; on ties one that is not a multiple of the vector (the
    base as aligned as declared, no better), then the smallest.  A multiple of the vector can win: where
    every vector starts ``align`` bytes in (offsets 4 mod 8 with align 4), only a base that *is* a
    multiple of the vector misaligns them (seen on the H200, fuzz seed 20261203)."""
    starts = np.asarray(starts, dtype=np.int64)
    best, score = align, -1
    for r in sorted(range(0, 2 * vector_bytes, align), key=lambda r: (r % vector_bytes == 0, r)):
        n = int(((starts + r) % vector_bytes != 0).sum())
        if n > score:
            best, score = r, n
    return best


def choose(report, given: dict | None = None, max_bytes: int = MAX_CHOICE_BYTES) -> Choice:
    """The symbol values to run a refuted ``report`` at: those of the counterexample that the hardware
    confirms most readily (``CONFIRMABLE`` order, then application order), with ``given`` (``--set``)
    winning over them, and the smallest allowed values for symbols neither names.  Raises InputError
    when ``given`` breaks the symbols' facts."""
    check = report.check
    given = dict(given or {})
    base = bind_symbols(check, given)  # the --set values are checked here, as a plain run checks them
    choice = _choose(report, given, base, max_bytes)
    choice.placement = align_blamed(report, choice.symbols)
    if choice.placement:
        choice.why += "; " + ", ".join(f"{t}'s base placed at {r} mod {m} (a multiple of its declared align "
                                       f"{check.tensors[t].align}{', not of the vector' if r % (m // 2) else ', where the vectors start off it'})"
                                       for t, (r, m) in choice.placement.items())
    return choice


def _choose(report, given: dict, base: dict, max_bytes: int) -> Choice:
    check = report.check
    placed, placement = "", {}
    free = [n for n, s in check.symbols.items() if not s.source]
    if not free:
        return Choice(base, "no symbols to choose" + placed, placement)
    rank = {n: k for k, n in enumerate(CONFIRMABLE)}
    cands = []
    for a in report.applies:
        for o in a.obligations:
            syms = counterexample_symbols(o.counterexample) if o.status == "refuted" else None
            if syms is not None:
                cands.append((rank.get(o.name, len(rank)), a.apply.index, o.name, syms))
    passed = []
    for _, index, name, syms in sorted(cands, key=lambda c: c[:2]):
        wanted = {n: v for n, v in syms.items() if n in free}
        if set(wanted) <= set(given):
            continue  # --set names every value this counterexample would choose
        try:
            values = bind_symbols(check, {**wanted, **given})
        except InputError:
            passed.append(f"{name} of apply[{index}] (its values break the facts with --set)")
            continue
        if case_bytes(check, values) > max_bytes:
            passed.append(f"{name} of apply[{index}] (more than {max_bytes >> 30} GiB of buffers)")
            continue
        taken = ", ".join(f"{n}={values[n]}" for n in wanted if n not in given)
        setv = ", ".join(f"{n}={values[n]}" + (f" (the counterexample has {syms[n]})" if n in syms and syms[n] != values[n]
                                               else "") for n in given)
        why = (f"{taken} from the {name} counterexample of apply[{index}]"
               + (f"; {setv} from --set" if setv else "")
               + (f"; passed over: {', '.join(passed)}" if passed else ""))
        rest = [n for n in free if n not in wanted and n not in given]
        if rest:
            why += f"; {', '.join(f'{n}={values[n]}' for n in rest)} smallest allowed"
        return Choice(values, why + placed, placement, (index, name))
    if given:
        why = "as given with --set" + ("" if set(given) >= set(free) else ", the rest at their smallest allowed values")
    elif cands:
        why = "the smallest allowed values (" + ("; ".join(passed) or "no counterexample applies") + ")"
    else:
        why = "the smallest allowed values (no refuted obligation depends on a symbol)"
    return Choice(base, why + placed, placement)


@dataclass
class Outcome:
    """What the child saw, and whether that confirms the refutation."""
    status: str  # fault | completed | refused | rejected | cannot-emit | unplaceable | unavailable | crashed
    detail: str
    confirmed: bool
    prediction: Prediction
    seed: int
    symbols: dict = field(default_factory=dict)
    raw: dict = field(default_factory=dict)


def confirm(check, symbols: dict, seed: int, path: str, arch: str | None = None, how: str | None = None,
            report=None, timeout: float = CHILD_TIMEOUT, placement: dict | None = None,
            ptx: str | None = None) -> Outcome:
    """Run ``check`` unchecked in a child process and judge the outcome against the prediction.
    ``report``: ``check``'s report (proved here when None); ``ptx``: its kernel, as
    ``unchecked_kernel(report)`` emits it (emitted here when None: pass it from a thread that must not
    touch Z3); the child only loads and runs it.  ``placement``: tensor -> (residue, modulus) of its
    buffer's address (default: ``align_blamed``, exactly the declared alignment of every base pointer
    that a refutation blames)."""
    report = report or prove(check)
    if report.verdict == "proved":
        raise ValueError(f"{path} is proved: the unchecked path is only for refuted or unknown plans")
    pred = predict(report)
    placement = align_blamed(report) if placement is None else placement
    why = unplaceable(report.check, placement)
    if why:  # the fault the refutation predicts cannot be provoked: say so, do not run a kernel that hides it
        return Outcome("unplaceable", why, False, pred, seed, symbols)
    if ptx is None:
        try:
            ptx = unchecked_kernel(report, placement)
        except Exception as e:  # noqa: BLE001 - the emitter cannot build this plan at all (or it is unknown)
            return Outcome("cannot-emit", f"{type(e).__name__}: {e}", False, pred, seed, symbols)
    cmd = child_command(path, symbols, seed, placement, arch, how)
    try:
        r = subprocess.run(cmd, input=ptx, capture_output=True, text=True, timeout=timeout)
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
        if not confirmed and names & {"bounds", "overflow"} and raw.get("reference") not in (None, "defined"):
            # a load past its buffer reads the arena's guard bytes without a fault, and the layouts
            # define no value there to compare with: classified, not confirmed
            detail += ("; classified: the kernel reads past the buffer (into the arena's guard bytes, which "
                       "a read does not fault on), where the reference is undefined")
    elif status == "rejected":
        confirmed = "target" in names
    else:
        confirmed = False
    return Outcome(status, detail, confirmed, pred, seed, symbols, raw)


def child_command(path: str, symbols: dict, seed: int, placement: dict, arch: str | None = None,
                  how: str | None = None) -> list[str]:
    """The child's command line; its PTX comes on stdin (``--ptx -``)."""
    cmd = [sys.executable, "-m", "tilecheck.gpu.unchecked", str(path), "--seed", str(seed), "--ptx", "-"]
    for k, v in symbols.items():
        cmd += ["--set", f"{k}={v}"]
    for t, (r, m) in placement.items():
        cmd += ["--place", f"{t}={r}:{m}"]
    if arch:
        cmd += ["--arch", arch]
    if how:
        cmd += ["--load", how]
    return cmd


# the child ----------------------------------------------------------------

def _child(argv) -> dict:
    p = argparse.ArgumentParser(prog="python -m tilecheck.gpu.unchecked")
    p.add_argument("file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--arch")
    p.add_argument("--load", choices=runner.LOAD_PATHS, default=runner.DEFAULT_LOAD)
    p.add_argument("--place", action="append", default=[], metavar="TENSOR=RESIDUE:MODULUS")
    p.add_argument("--ptx", required=True, metavar="PATH",
                   help="the kernel to run (entry %s), as the parent emitted it; - reads stdin" % NAME)
    a = p.parse_args(argv)
    placement = {}
    for text in a.place:
        t, _, rm = text.partition("=")
        r, _, m = rm.partition(":")
        placement[t] = (int(r), int(m))
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
    ptx = sys.stdin.read() if a.ptx == "-" else Path(a.ptx).read_text()
    job = runner.Job(check, symbols, a.seed, name=NAME, ptx=ptx, strict=False, placement=placement)
    try:
        case, ptx, _ = runner.prepare(job, 0)
    except BufferTooLarge as e:
        return {"status": "unavailable", "detail": f"{a.file}: {e}"}
    try:
        loaded = runner.load_module(ptx, a.load, check)
    except (RuntimeError, g.drv.Error) as e:
        return {"status": "rejected", "detail": str(e)}
    try:
        res = runner.launch(loaded.module, job.name, case, ptx)
    except (g.drv.Error, runner.tensormap_driver.CudaError) as e:
        return {"status": "fault", "detail": " ".join(str(e).split())}
    if res.refused:
        return {"status": "refused", "detail": res.summary()}
    cmp = res.comparison
    if case.placement:
        placed = ", ".join(f"{t} at {r} mod {m}" for t, (r, m) in case.placement.items())
        res.note = (res.note + "; " if res.note else "") + f"placed {placed}"
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
