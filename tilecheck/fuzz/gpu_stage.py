"""``tilecheck fuzz --gpu``: the campaign's proved cases on the hardware, and its refuted-alignment
cases forced onto it.

Throughput comes from doing each kind of work where it is cheap:

* proving for the device's target, emitting and computing the numpy reference are
  per-case CPU work: ``jobs`` worker processes do it (``_prepare``), streaming
  results back in order;
* loading: a batch's kernels are linked into a few modules that ptxas assembles in
  parallel (``runner.load_modules``);
* running: one arena upload, every kernel launched on one stream, one
  synchronisation, one download per batch (``runner.launch_loaded``).

Refuted-alignment cases run unchecked, each in its own child process (a fault kills
the CUDA context), several at a time.  Only *atom* misalignments are expected to
fault: when the refutation is the declared base alignment alone, whether the
hardware faults depends on where the array happens to land, so those are counted
but not tried.
"""
from __future__ import annotations

import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
import multiprocessing as mp
import tempfile

from .campaign import Finding
from .. import emit
from ..check import from_dict
from ..check_toml import to_toml
from ..decide import alignment_base
from ..emit.kernel import tensormap_params, unplaceable
from ..gpu.reference import ReferenceUndefined, bind_symbols, buffer_size, reference
from ..gpu import runner, unchecked  # runner.gpu, unchecked.confirm: looked up at the call (the tests replace them)
from ..gpu.runner import BatchTimes, cannot_run, launch_loaded, load_modules
from ..gpu.unchecked import align_blamed
from ..report import prove

BATCH = 500  # kernels per load and launch
BATCH_BYTES = 1 << 28  # ... or fewer, so that one arena stays under this many bytes
CASE_BYTES = 1 << 24  # a case whose buffers need more is not run (huge strides or offsets)
ALIGNMENT_CASES = 40  # refuted-alignment cases run unchecked
ALIGNMENT_PARALLEL = 8  # child processes at a time


def _prepare(item):
    """Worker: (index, data, device arch, seed, timeout) -> ("ok", name, ptx, case) | ("skip", why)
    | ("crash", why); a crash is a finding, never the end of the stage."""
    try:
        return _prepare_case(*item)
    except Exception as e:  # noqa: BLE001
        return ("crash", f"prepare: raised {type(e).__name__}: {e}"[:300])


def _prepare_case(k, data, arch, seed, timeout):
    check = from_dict(data, f"<fuzz gpu {k}>")
    if cannot_run(check.arch, arch):  # proved for a newer target: run it for the device's, if it proves there
        check = check.with_arch(arch)
    report = prove(check, timeout=timeout)
    if report.verdict != "proved":
        return ("skip", "not proved for the device's target")
    name = f"tilecheck_f{k}"
    try:
        ptx = emit.kernel(report.plan, name=name)
    except emit.EmitError as e:  # numbers out, so that equal reasons count together
        return ("skip", "cannot emit: " + re.sub(r"\d+", "N", str(e))[:70])
    except Exception as e:  # noqa: BLE001 - the emitter crashed on a proved plan: a finding
        return ("crash", f"emit: kernel() raised {type(e).__name__}: {e}"[:300])
    symbols = bind_symbols(check)
    if _too_large(check, symbols):
        return ("skip", f"buffers over {CASE_BYTES >> 20} MiB")
    try:
        case = reference(check, symbols, seed)
    except ReferenceUndefined as e:
        return ("skip", f"no reference: {str(e).split(':')[-1].strip()[:60]}")
    except Exception as e:  # noqa: BLE001 - the reference crashed on a proved check: a finding
        return ("crash", f"reference: raised {type(e).__name__}: {e}"[:300])
    return ("ok", name, ptx, case)


def _too_large(check, symbols: dict) -> bool:
    """More than CASE_BYTES of buffers (local tensors: one copy per thread, in the reference)."""
    return sum(buffer_size(t, symbols) * t.esize * (check.threads if t.scope == "local" else 1)
               for t in check.tensors.values()) > CASE_BYTES


@dataclass
class Stage:
    ran: int = 0
    mismatched: int = 0
    skipped: Counter = field(default_factory=Counter)
    refused: Counter = field(default_factory=Counter)
    seconds: Counter = field(default_factory=Counter)  # wait (for the workers), load (the batch runs: BatchTimes)
    batches: int = 0


def run(tally, *, seed: int, timeout: float, jobs: int, out: str, quiet: bool = True) -> list[str]:
    """Run ``tally.proved`` on the GPU and ``tally.misaligned`` unchecked; findings go into ``tally``;
    returns the summary lines."""
    g = runner.gpu()
    st, times = Stage(), BatchTimes()
    start = time.perf_counter()
    items = [(k, data, g.arch, seed + k, timeout) for k, data in enumerate(tally.proved)]
    pending, pending_bytes = [], 0
    fault = None

    def flush():
        nonlocal pending, pending_bytes, fault
        if pending and fault is None:
            fault = _run_batch(pending, st, times, tally, out)
            if not quiet:
                el = time.perf_counter() - start
                print(f"gpu: {st.ran} of {len(items)} proved cases run, {st.mismatched} differ, "
                      f"{st.ran / el if el else 0:.0f}/s", file=sys.stderr, flush=True)
        pending, pending_bytes = [], 0

    for k, result in _prepared(items, jobs, st):
        if fault is not None:
            break
        if result[0] == "skip":
            st.skipped[result[1]] += 1
        elif result[0] == "crash":
            st.skipped[result[1].split(":")[0] + " crashed"] += 1
            tally.findings.append(Finding(tally.proved[k], [result[1]], [(result[1].split(":")[0], "crash")], False))
        else:
            _, name, ptx, case = result
            pending.append((tally.proved[k], name, ptx, case))
            pending_bytes += sum(b.nbytes for b in case.inputs.values())
            if len(pending) >= BATCH or pending_bytes >= BATCH_BYTES:
                flush()
    flush()
    total = time.perf_counter() - start
    lines = [f"  gpu ({g.name}): {st.ran} proved cases run in {st.batches} batches, {st.mismatched} differ from "
             f"numpy; {st.ran / total if total else 0:.1f} cases/s over the whole stage ({total:.1f} s, "
             f"{jobs} worker(s) proving, emitting and computing references)",
             f"  gpu: main process wait {st.seconds['wait']:.1f} s, load {st.seconds['load']:.1f} s, "
             f"upload {times.upload:.1f} s, launch {times.launch:.1f} s, download {times.download:.1f} s, "
             f"compare {times.compare:.1f} s"]
    if fault:
        lines.append(f"  gpu: STOPPED: {fault}")
    short = Counter()
    for why, n in st.skipped.items():
        short[why[:70]] += n
    if short:
        lines.append("  gpu: not run: " + ", ".join(f"{n} {why}" for why, n in short.most_common()))
    if st.refused:
        lines.append("  gpu: the driver refused to launch: " + ", ".join(f"{n} {why}" for why, n in st.refused.most_common()))
    lines.append(_alignment(tally, g, seed))
    return lines


def _prepared(items, jobs, st):
    """(index, result) of ``_prepare`` for every item, in order; time spent waiting goes to st."""
    it = iter(items)
    if jobs <= 1:
        pool, results = None, (_prepare(x) for x in it)
    else:
        pool = mp.get_context("spawn").Pool(jobs)
        results = pool.imap(_prepare, it, chunksize=4)
    try:
        for k in range(len(items)):
            t = time.perf_counter()
            r = next(results)
            st.seconds["wait"] += time.perf_counter() - t
            yield k, r
    finally:
        if pool is not None:
            pool.terminate()


def _run_batch(batch, st, times, tally, out) -> str | None:
    """Load and run one batch; None, or what stopped the stage (a fault: the context is gone)."""
    st.batches += 1
    t = time.perf_counter()
    batch, loaded = _load(batch, tally)
    st.seconds["load"] += time.perf_counter() - t
    try:
        results = launch_loaded([(m.module, name, case, ptx, {}) for m, (_, name, ptx, case) in zip(loaded, batch)],
                                times)
    except Exception as e:  # noqa: BLE001 - a fault: some proved kernel of the batch faulted
        return _lost(batch, tally, out, f"a batch of {len(batch)} proved kernels faulted: "
                                        f"{' '.join(str(e).split())[:300]}")
    for (data, _, _, _), res in zip(batch, results):
        if res.refused:
            st.refused[res.refused.split(":")[-1].strip()[:60]] += 1
            continue
        st.ran += 1
        if not res.ok:
            st.mismatched += 1
            tally.findings.append(Finding(data, [f"gpu: the kernel differs from numpy: {res.summary()}"[:400]],
                                          [("gpu", "mismatch")], False))
    return None


def _modules(batch, chunks=None):
    """Each entry's Loaded: the kernels that take a tensor map by value (a TMA copy's) one module each
    through ``runner.load_by_value`` (pycuda's launch makes them fault: "invalid type on parameter"),
    the others linked together (``load_modules``)."""
    by_value = [k for k, (_, _, _, case) in enumerate(batch) if tensormap_params(case.check)]
    plain = [k for k in range(len(batch)) if k not in by_value]
    out = dict(zip(plain, load_modules([batch[k][2] for k in plain], chunks=chunks) if plain else []))
    out |= dict(zip(by_value, runner.load_by_value([batch[k][2] for k in by_value])))
    return [out[k] for k in range(len(batch))]


def _load(batch, tally):
    """The batch's kernels loaded together; when ptxas or the driver rejects the batch, each kernel
    alone, and every rejected one (a proved plan's kernel!) is a finding.  Returns (batch, loaded)
    for the kernels that loaded."""
    try:
        return batch, _modules(batch)
    except Exception:  # noqa: BLE001 - find the kernels it was
        kept, loaded = [], []
        for entry in batch:
            try:
                loaded += _modules([entry], chunks=1)
                kept.append(entry)
            except Exception as e:  # noqa: BLE001
                tally.findings.append(Finding(entry[0], [f"gpu: the kernel of a proved case was rejected: "
                                                         f"{' '.join(str(e).split())[:300]}"], [("gpu", "load")],
                                              False))
        return kept, loaded


def _lost(batch, tally, out, why) -> str:
    """A batch that could not run: one finding, and every case of it written for replay."""
    d = Path(out) / "gpu-batch"
    d.mkdir(parents=True, exist_ok=True)
    for k, (data, name, _, _) in enumerate(batch):
        (d / f"{name}.toml").write_text(to_toml(data, comment=f"{why}\nOne of its cases: tilecheck run FILE"))
    tally.findings.append(Finding(batch[0][0], [f"gpu: {why} (all {len(batch)} cases in {d})"], [("gpu", "batch")],
                                  False))
    return f"{why}; its cases are in {d}"


def _alignment(tally, g, seed) -> str:
    """Force up to ALIGNMENT_CASES misaligned cases onto the hardware; each must fault.  A refutation that
    blames the declared ``align`` of a base pointer runs with that buffer at exactly its declared
    alignment (``unchecked.align_blamed``: a global buffer placed by the arena, a shared or local array
    by the kernel's declaration); one whose base cannot be placed so (dynamic shared memory) is counted
    with the reason, not run."""
    start = time.perf_counter()
    chosen, unplaced, elsewhere, large = [], 0, 0, 0
    for k, data in enumerate(tally.misaligned):
        check = from_dict(data)
        if g.can_run(check.arch):
            elsewhere += 1
        elif _too_large(check, bind_symbols(check)):
            large += 1
        elif len(chosen) < ALIGNMENT_CASES:
            report = prove(check)
            placement = align_blamed(report)
            if unplaceable(check, placement):
                unplaced += 1
                continue
            try:  # emitted here, once: the child only runs it (and the threads below never touch Z3)
                ptx = unchecked.unchecked_kernel(report, placement)
            except Exception:  # noqa: BLE001 - the emitter cannot build this plan
                ptx = None
            kind = "base" if alignment_base(check, check.applies[0], {}) else "atom"
            space = check.tensors[check.applies[0].memory.tensor].scope
            chosen.append((k, data, (space, kind), check, report, placement, ptx))
    confirmed, tried = Counter(), Counter()
    emitless = sum(1 for *_, ptx in chosen if ptx is None)
    chosen = [c for c in chosen if c[-1] is not None]
    with tempfile.TemporaryDirectory() as tmp:
        for k, data, *_ in chosen:  # the child process reads the case from its file
            (Path(tmp) / f"misaligned{k}.toml").write_text(to_toml(data))

        def one(item):  # the threads only wait for their child processes (Z3 is not thread-safe)
            k, _, _, check, report, placement, ptx = item
            return item, unchecked.confirm(check, {}, seed + k, str(Path(tmp) / f"misaligned{k}.toml"), report=report,
                                 placement=placement, ptx=ptx)

        with ThreadPoolExecutor(ALIGNMENT_PARALLEL) as ex:
            for (k, data, (space, kind), *_), outcome in ex.map(one, chosen):
                tried[space, kind] += 1
                if outcome.confirmed:
                    confirmed[space, kind] += 1
                else:
                    tally.findings.append(Finding(data, [f"gpu: refuted alignment ({space}, {kind}) not confirmed: "
                                                         f"{outcome.status}: {outcome.detail}"[:300]],
                                                  [("gpu", "alignment", space)], False))
    return ("  gpu: refuted alignment confirmed by the hardware in "
            + ", ".join(f"{confirmed[s]} of {tried[s]} {s[0]} {s[1]}" for s in sorted(tried))
            + f" cases ({sum(confirmed.values())} of {sum(tried.values())}, {time.perf_counter() - start:.1f} s); "
            f"not tried: {unplaced} base-pointer refutations in dynamic shared memory (its placement is the "
            f"launch's), {elsewhere} for another target, {large} with buffers over "
            f"{CASE_BYTES >> 20} MiB, {emitless} not emittable")
