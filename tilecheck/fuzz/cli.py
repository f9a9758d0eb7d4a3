"""``tilecheck fuzz``: a campaign of drawn checks, Z3 against the brute-force enumerator.

    tilecheck fuzz --cases 10000 --symbolic-cases 1000 --seed 1 --out fuzz-out --jobs 2
    tilecheck fuzz --time 600 --out fuzz-out          # as many as fit in 10 minutes
    tilecheck fuzz --replay fuzz-out/*.toml            # re-judge saved cases
    tilecheck fuzz --malformed 10000                   # mutated check files: exit 2, one line

Every disagreement, counterexample that does not replay, ``unknown`` on a concrete
check, or crash is shrunk and written to ``--out`` as a check file (its header says
what was found); ``tilecheck prove FILE`` shows Z3's side and ``tilecheck fuzz
--replay FILE`` the whole comparison.  The summary's ``time`` line says where the wall time
went (``time_line``): drawing, judging (Z3, the enumerator, the rest), shrinking after a finding,
writing, the GPU stage.  Exit status: 0 nothing found, 1 something found, 2 bad arguments.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from collections import Counter
import multiprocessing as mp
import os
import threading
import tomllib
import z3

from ..timeout import positive_seconds
from ..check import load
from ..check_toml import to_toml
from ..descriptor_file import load as load_descriptors
from ..errors import InputError
from ..families import draws
from ..gpu import runner
from ..proofs import facts
from ..proofs.registry import NAMES as names
from ..proofs import smt2  # smt2.cvc5_version: looked up at the call (a test replaces it)
from .differential import compare
from .whole import WHOLE
from ..progress import Line

HELP = "property-based fuzzing: Z3's verdicts against an independent brute-force decider"

DEFAULT_CASES = 1000
CHUNK = 50  # cases per Hypothesis run (a unit of parallel work and of progress)


def add_arguments(p):
    g = p.add_mutually_exclusive_group()
    g.add_argument("--cases", type=int, metavar="N", help=f"concrete cases (default {DEFAULT_CASES})")
    g.add_argument("--time", type=positive_seconds, metavar="SECONDS", help="run until this much time has passed")
    p.add_argument("--symbolic-cases", type=int, metavar="N", default=None,
                   help="symbolic cases (default: a tenth of --cases; with --time, a tenth of the cases run)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="campaign seed (default 0): same seed, same cases")
    p.add_argument("--out", metavar="DIR", default="fuzz-out",
                   help="where shrunk failing cases are written (default fuzz-out)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS", help="Z3 bound per query (default 10)")
    p.add_argument("--symbolic-timeout", type=positive_seconds, default=2.0, metavar="SECONDS",
                   help="Z3 bound per query on symbolic cases (default 2; unknown is allowed there)")
    p.add_argument("--gpu", action="store_true",
                   help="also run every proved concrete case on the GPU against numpy (in batches, with --jobs workers "
                        "preparing them), and up to 40 cases whose atoms are refuted on alignment unchecked, "
                        "expecting a fault; with --families descriptor, 200 drawn descriptor pairs through one "
                        "wgmma each against the model's numpy prediction (needs pycuda and a device; sm_90a)")
    p.add_argument("--recheck", action="store_true",
                   help="also let cvc5 decide every query Z3 decides on the symbolic cases (their SMT-LIB 2 text); "
                        "a disagreement is a finding (needs the cvc5 package)")
    p.add_argument("--replay", nargs="+", metavar="FILE", help="judge these check files instead of drawing cases")
    p.add_argument("--malformed", type=int, metavar="N",
                   help="instead: N mutated check files through `tilecheck prove`; each must exit 2 with one "
                        "line on stderr (or be valid), never a traceback")
    p.add_argument("--swizzled", action="store_true",
                   help="swizzle every drawn memory tensor (Sw<B,M,S> o ...; by default some shared ones are)")
    p.add_argument("--families", metavar="LIST", default=None, help=_families_help())
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def main(args) -> int:
    for name in ("cases", "symbolic_cases", "jobs", "malformed"):
        v = getattr(args, name, None)
        if v is not None and v < (1 if name == "jobs" else 0):
            raise InputError(f"must be at least 1, got {v}" if name == "jobs" else f"must not be negative, got {v}",
                             f"--{name.replace('_', '-')}")
    if getattr(args, "families", None) is not None:
        args.families = _families(args.families)
    if args.time is not None and args.time <= 0:
        raise InputError(f"must be positive, got {args.time}", "--time")
    if getattr(args, "recheck", False):
        if smt2.cvc5_version() is None:
            raise InputError("needs the cvc5 package (pip install cvc5, or tilecheck[recheck])", "--recheck")
    if args.replay:
        return _replay(args)
    if args.malformed is not None:
        return _malformed(args)
    if args.gpu:
        try:
            runner.gpu()
        except Exception as e:  # noqa: BLE001 - no pycuda, no device: an input error of this run
            raise InputError(f"no usable GPU: {str(e).splitlines()[0] if str(e) else type(e).__name__}", "--gpu") \
                from None
    return _campaign(args)


def _families_help():
    """``--families``' help: each draw (``families.draws()``) with what it draws; the example names
    the families' own draws, then the guarded tiles."""
    ds = draws()
    names = ", ".join(f"{n} ({d.help})" if d.help else n for n, (d, _) in ds.items())
    example = [n for n, (d, f) in ds.items() if f is not None and d.how != "plain"] + \
        [n for n, (d, f) in ds.items() if f is None]
    whole = ", ".join(f"{n} ({h})" for n, (_, _, h) in WHOLE.items())
    return (f"draw only applications of these families, comma-separated: {names}; e.g. --families "
            f"{','.join(example)} (default: all, the staging ones in about 1 application in 6); and whole files: "
            f"{whole}")


def _families(text):
    """``--families a,b``: a tuple of ``strategies.FAMILIES`` names (the families' draws) and ``whole.WHOLE``
    names (InputError on any other)."""
    known = (*draws(), *WHOLE)
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise InputError((f"unknown family {bad[0]!r}" if bad else "no family given")
                         + f" (one or more of {', '.join(known)}, comma-separated)", "--families")
    return names


# --- the campaign ----------------------------------------------------------------------------------

def _campaign(args) -> int:
    from .campaign import Tally, _worker
    concrete = args.cases if args.cases is not None else (None if args.time else DEFAULT_CASES)
    symbolic = args.symbolic_cases if args.symbolic_cases is not None else (
        None if concrete is None else concrete // 10)

    def plan(kind_symbolic, total):
        k, size = 0, CHUNK // 2 if kind_symbolic else CHUNK  # symbolic cases are slower: smaller chunks
        while total is None or k * size < total:
            n = size if total is None else min(size, total - k * size)
            yield dict(seed=args.seed, index=k, cases=n, symbolic=kind_symbolic, keep=args.gpu, recheck=args.recheck,
                       timeout=args.symbolic_timeout if kind_symbolic else args.timeout,
                       **({"swizzled": True} if getattr(args, "swizzled", False) else {}),
                       **({"families": args.families} if getattr(args, "families", None) else {}))
            k += 1

    # interleave: the symbolic chunks spread evenly among the concrete ones, so that the campaign ends on
    # concrete chunks (short: the workers finish together); with --time, one after every ten concrete
    conc, sym = plan(False, concrete), plan(True, symbolic)
    total = None if concrete is None else concrete + (symbolic or 0)

    def schedule():
        if concrete is not None and symbolic is not None:
            for kind in interleave(-(-concrete // CHUNK), -(-symbolic // (CHUNK // 2))):
                yield next(sym) if kind else next(conc)
            return
        k = 0
        for job in conc:
            yield job
            k += 1
            if k % 10 == 0 and symbolic != 0:
                j = next(sym, None)
                if j is not None:
                    yield j
        yield from sym

    progress = _Progress(total, args.time, quiet=args.quiet)
    tally = Tally()
    start = time.perf_counter()
    deadline = start + args.time if args.time else None

    def done(t):
        tally.add(t)
        progress.update(tally)

    if args.jobs == 1:
        for job in schedule():
            if deadline and time.perf_counter() > deadline:
                break
            live = Tally()
            job = {**job, "known": _known(tally)}  # a problem found in an earlier chunk is not shrunk again

            def on_case(result, live=live):
                live.cases += 1
                progress.update(tally, extra=live.cases, problems=len(result.problems))
            done(_worker({**job, "on_case": on_case}))
    else:
        with _pool(args.jobs) as pool:
            pending = []
            it = iter(schedule())
            exhausted = False
            # a chunk queued ahead for each worker: it starts the next at once, not when this loop looks
            # (with --time, one chunk each: less to finish after the deadline)
            ahead = args.jobs if deadline else 2 * args.jobs
            while True:
                while not exhausted and len(pending) < ahead and not (deadline and time.perf_counter() > deadline):
                    job = next(it, None)
                    if job is None:
                        exhausted = True
                        break
                    pending.append(pool.apply_async(_worker, ({**job, "known": _known(tally)},)))
                if not pending:
                    break
                ready = [p for p in pending if p.ready()]
                for p in ready:
                    pending.remove(p)
                    done(p.get())
                if not ready:
                    time.sleep(0.05)
                if deadline and time.perf_counter() > deadline:
                    exhausted = True
    progress.finish(tally)
    seconds = time.perf_counter() - start
    gpu_lines = []
    after = {}  # main-process seconds after the cases: the GPU stage, writing the findings
    if args.gpu:
        from .gpu_stage import run as gpu_stage
        t = time.perf_counter()
        gpu_lines = gpu_stage(tally, seed=args.seed, timeout=args.timeout, jobs=args.jobs, out=args.out,
                              quiet=args.quiet)
        after["GPU stage"] = time.perf_counter() - t
        if "descriptor" in (getattr(args, "families", None) or ()):  # drawn descriptor pairs through one wgmma
            from .wgmma_stage import run as wgmma_stage
            t = time.perf_counter()
            gpu_lines += wgmma_stage(seed=args.seed, out=args.out)
            after["wgmma stage"] = time.perf_counter() - t
    t = time.perf_counter()
    written = _write(tally, args.out)
    after["writing"] = time.perf_counter() - t
    _summary(tally, seconds, args, written, after)
    if gpu_lines:
        print("\n".join(gpu_lines))
    sys.stdout.flush()
    bad = sum(n for k, n in tally.problems.items())
    return 1 if bad or tally.findings else 0


def _known(tally) -> frozenset:
    """The signatures of the problems found so far: a chunk counts a case with one of them but does
    not shrink it again (shrinking is most of a campaign's time once it finds something)."""
    return frozenset(sig for f in tally.findings for sig in f.signatures)


def interleave(concrete: int, symbolic: int) -> list[bool]:
    """The order of ``concrete`` concrete and ``symbolic`` symbolic chunks (True: a symbolic one): symbolic
    chunk ``i`` after concrete chunk ``floor((i + 1) * C / (S + 1))``, evenly spread, so that a campaign
    with concrete chunks ends on them (a symbolic chunk takes about twice as long: the last ones make
    one worker finish long after the others)."""
    out: list[bool] = []
    k = 0
    for i in range(symbolic):
        while k < (i + 1) * concrete // (symbolic + 1):
            out.append(False)
            k += 1
        out.append(True)
    return out + [False] * (concrete - k)


def _pool(jobs: int):
    """The worker processes: forked from this one when it can be done safely (POSIX, no thread
    running, and Z3's main context not yet made: a forked Z3 context is not safe to use), so that
    each worker starts with the modules this process has already imported (spawned, each worker
    imports Hypothesis, Z3 and numpy again: about 0.6 s before its first case); else spawned."""
    fork = ("fork" in mp.get_all_start_methods() and threading.active_count() == 1
            and getattr(z3.z3, "_main_ctx", "unknown") is None)
    return mp.get_context("fork" if fork else "spawn").Pool(jobs, initializer=limit_memory,
                                                              initargs=(worker_memory(jobs),))


def worker_memory(jobs: int) -> int | None:
    """Bytes of address space each worker may take: the machine's memory shared among the workers
    (None where it is not known).  A case that would take more raises MemoryError in its worker, a
    crash the campaign reports with the case, instead of the system killing the worker, which leaves
    ``multiprocessing.Pool`` waiting for its chunk forever (seen: one swizzled case, 24 GB)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None
    return max(1 << 30, total // max(1, jobs))


def limit_memory(limit: int | None) -> None:
    """The worker's address space limited to ``limit`` bytes (``worker_memory``); nothing where the
    platform has no such limit or it is already lower."""
    if limit is None:
        return
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass


def _write(tally, out) -> list[str]:
    """One file per distinct problem signature: the smallest shrunk case that shows it."""
    best = {}
    for f in tally.findings:
        if not f.data:
            continue
        key = tuple(f.signatures[0])
        text = to_toml(f.data)
        if key not in best or len(text) < len(best[key][0]):
            best[key] = (text, f)
    paths = []
    if tally.unknown_samples:  # not findings (unknown is allowed on symbolic checks): food for the prover
        d = Path(out) / "unknown"
        d.mkdir(parents=True, exist_ok=True)
        for k, data in enumerate(tally.unknown_samples):
            path = d / f"symbolic-unknown-{k}.toml"
            path.write_text(to_toml(data, comment="A symbolic case on which Z3 answered unknown (allowed, "
                                                  "but worth a look): tilecheck prove FILE"))
            paths.append(str(path))
    slow = [("slowest", tally.slowest[2], f"the campaign's slowest case: Z3 {tally.slowest[0]:.2f} s")] \
        if tally.slowest[2] is not None and tally.slowest[0] > 1.0 else []
    slow += [(f"slow-{k}", data, f"an obligation over 1 s: {what} {sec:.2f} s")
             for k, (sec, kind, what, data) in enumerate(tally.slow)]
    if slow:  # not findings either: cases for the decision procedures
        d = Path(out) / "slow"
        d.mkdir(parents=True, exist_ok=True)
        for name, data, why in slow:
            path = d / f"{name}.toml"
            path.write_text(to_toml(data, comment=f"{why}: tilecheck prove FILE"))
            paths.append(str(path))
    if not best:
        return paths
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    for key, (text, f) in sorted(best.items(), key=lambda kv: str(kv[0])):
        name = "-".join(str(k) for k in key if k).replace("::", "_").replace(" ", "_")
        path = d / f"{name}.toml"
        header = ["Found by tilecheck fuzz (" + ("symbolic" if f.symbolic else "concrete") + " case):"]
        header += f.problems
        prove = "python -m tilecheck.descriptor_file" if "descriptors" in f.data and "apply" not in f.data \
            else "tilecheck prove"
        header += ["", f"Reproduce: {prove} {path}   (Z3's side)",
                   f"           tilecheck fuzz --replay {path}   (Z3 against the enumerator)"]
        path.write_text(to_toml(f.data, comment="\n".join(header)))
        paths.append(str(path))
    return paths


def time_line(tally, seconds: float, jobs: int, after: dict | None = None) -> str:
    """Where the campaign's wall time went: the workers' drawing, judging (Z3, the enumerator, the
    rest of ``compare``) and shrinking after a finding (summed over the workers when there are
    several), the rest of the case loop (start-up, waiting, progress), then the main process's GPU
    stage and writing."""
    sec = tally.seconds
    z3, enum, cvc5 = sec.get("z3", 0.0), sec.get("enumerator", 0.0), sec.get("cvc5", 0.0)
    draw, judge, shrink = sec.get("draw", 0.0), sec.get("judge", 0.0), sec.get("shrink", 0.0)
    after = after or {}
    wall = seconds + sum(after.values())
    rest = max(0.0, judge - z3 - enum - cvc5)
    parts = [f"drawing {draw:.1f} s",
             f"judging {judge:.1f} s (Z3 {z3:.1f} s, enumerator {enum:.1f} s"
             + (f", cvc5 {cvc5:.1f} s" if cvc5 else "") + f", the rest {rest:.1f} s)",
             f"shrinking after a finding {shrink:.1f} s ({len(tally.findings)} finding(s), "
             f"{tally.shrink_calls} cases re-judged)"]
    worked = draw + judge + shrink
    if jobs == 1:
        parts.append(f"start-up and progress {max(0.0, seconds - worked):.1f} s")
        head = f"  time (wall {wall:.1f} s): "
    else:
        parts = [f"in {jobs} workers, summed: " + ", ".join(parts) + f"; the case loop's wall {seconds:.1f} s"]
        head = f"  time (wall {wall:.1f} s): "
    parts += [f"{name} {s:.1f} s" for name, s in after.items()]
    return head + ", ".join(parts)


def _summary(tally, seconds, args, written, after=None):
    rate = tally.cases / seconds if seconds else 0.0
    out = [f"tilecheck fuzz: {tally.cases} cases ({len(tally.distinct)} distinct) in {seconds:.1f} s, "
           f"{rate:.1f} cases/s, seed {args.seed}, {args.jobs} job(s)"]
    for kind in ("concrete", "symbolic"):
        v = {verdict: n for (k, verdict), n in tally.verdicts.items() if k == kind}
        n = sum(v.values())
        if n:
            out.append(f"  {kind:<9} {n:>7} cases: proved {v.get('proved', 0)}, refuted {v.get('refuted', 0)}, "
                       f"unknown {v.get('unknown', 0)}, contradictory facts {v.get('error', 0)}; "
                       f"cases with an unknown obligation {tally.unknown_cases.get(kind, 0)}")
    cells = []
    for name in names:
        c = {s: tally.obligations.get((name, s), 0) for s in ("proved", "refuted", "skipped", "unknown")}
        cells.append(f"{name} {c['proved']}/{c['refuted']}/{c['skipped']}/{c['unknown']}")
    out.append("  obligations (proved/refuted/skipped/unknown): " + ", ".join(cells))
    others = sorted({n for n, _ in tally.obligations} - set(names))  # tensor maps' and descriptor files'
    if others:
        cells = [f"{name} " + "/".join(str(tally.obligations.get((name, s), 0))
                                       for s in ("proved", "refuted", "skipped", "unknown")) for name in others]
        out.append("  tensor map and descriptor obligations (proved/refuted/skipped/unknown): " + ", ".join(cells))
    p = tally.problems
    out.append(f"  disagreements {p.get('disagreement', 0)}, "
               + (f"z3/cvc5 problems {p.get('solvers', 0)}, " if getattr(args, "recheck", False) else "")
               + f"counterexamples that do not replay {p.get('replay', 0)}, "
               f"unknown on concrete {p.get('unknown', 0)}, crashes {p.get('crash', 0)}, "
               f"invalid draws {p.get('invalid', 0)}  (cases)")
    if getattr(args, "recheck", False):
        r = tally.recheck
        out.append(f"  recheck (cvc5 {smt2.cvc5_version()}, symbolic cases): {r.get('rechecked', 0)} queries Z3 decided "
                   f"rechecked, agreed {r.get('agreed', 0)}"
                   + (f" ({r['agreed_by_model']} sat by checking Z3's model)" if r.get("agreed_by_model") else "")
                   + f", cvc5 unknown {r.get('cvc5_unknown', 0)}, "
                   f"cvc5 could not read {r.get('cvc5_error', 0)}, disagreements {r.get('disagreements', 0)}; "
                   f"Z3 unknown that cvc5 decided {r.get('z3_unknown_cvc5_decided', 0)} of "
                   f"{r.get('queries', 0) - r.get('rechecked', 0)}")
    if tally.seconds:
        out.append(time_line(tally, seconds, args.jobs, after))
    if tally.slowest[2] is not None:
        out.append(f"  slowest case: Z3 {tally.slowest[0]:.2f} s ({tally.slowest[1]}); obligations over 1 s: "
                   + (", ".join(f"{what} {sec:.2f} s ({kind})" for sec, kind, what, _ in tally.slow) or "none"))
    for w in written:
        out.append(f"  wrote {w}")
    for f in tally.findings:
        for line in f.problems:
            out.append(f"  found: {line[:400]}")
    print("\n".join(out))


class _Progress:
    """The campaign's progress on standard error: rich's live line on a terminal (``progress.Line``),
    else the plain line (``\\r``-rewritten on a terminal without rich, one every 10 s in a log)."""

    def __init__(self, total, seconds, quiet=False):
        self.total, self.seconds, self.quiet = total, seconds, quiet
        self.start = time.perf_counter()
        self.tty = sys.stderr.isatty()
        self.last = 0.0
        self.live = None
        if not quiet:
            self.live = Line("fuzz", total=total or None).__enter__()
            if not self.live.active:
                self.live = None

    def update(self, tally, extra=0, problems=0):
        if self.quiet:
            return
        now = time.perf_counter()
        if now - self.last < (0.2 if self.tty else 10.0):
            return
        self.last = now
        n = tally.cases + extra
        el = now - self.start
        v = _by_verdict(tally.verdicts)
        found = sum(tally.problems.values())
        counts = (f"proved {v['proved']} refuted {v['refuted']} unknown {v['unknown']}  problems {found}  "
                  f"{n / el if el else 0:.1f}/s")
        if self.live is not None:
            self.live.update(n, f"{n} cases  {counts}")
            return
        frac = n / self.total if self.total else min(1.0, el / self.seconds) if self.seconds else 0
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        line = f"[{bar}] {n}{'/' + str(self.total) if self.total else ''} cases  {counts}"
        print(("\r" + line) if self.tty else line, end="" if self.tty else "\n", file=sys.stderr, flush=True)

    def finish(self, tally):
        if self.live is not None:
            self.live.close()
        elif not self.quiet and self.tty:
            print(file=sys.stderr)


def _by_verdict(verdicts):
    c = Counter()
    for (_, verdict), n in verdicts.items():
        c[verdict] += n
    return c


# --- replay ----------------------------------------------------------------------------------------

def _replay(args) -> int:
    bad = 0
    for path in args.replay:
        data = _descriptor_file(path)
        if data is not None:  # a descriptor check file (docs/wgmma.md): its loader's errors, exit 2
            load_descriptors(data, path)
            r = compare(data, timeout=args.symbolic_timeout if data.get("symbols") else args.timeout, path=path)
        else:
            check = load(path)  # InputError: exit 2
            facts.decide(check, args.timeout)  # contradictory facts: InputError, exit 2
            r = compare(check, timeout=args.symbolic_timeout if check.symbols else args.timeout,
                        recheck=getattr(args, "recheck", False))
        if r.ok:
            print(f"{path}: Z3 {r.verdict}; the enumerator agrees" + (" (on its symbol range)" if r.symbolic else ""))
        else:
            bad += 1
            print(f"{path}: Z3 {r.verdict}")
            for p in r.problems:
                print(f"  {p}")
    return 1 if bad else 0


def _descriptor_file(path):
    """A descriptor check file's data (a top-level ``descriptors`` table), else None (a check file, or
    text the check file loader will name the problem of)."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    return data if isinstance(data.get("descriptors"), dict) and "apply" not in data else None


# --- malformed input -----------------------------------------------------------------------------

def _malformed(args) -> int:
    from .malformed import run_malformed
    stats = run_malformed(args.malformed, args.seed, args.out, quiet=args.quiet)
    print(stats.summary())
    return 0 if stats.ok else 1
