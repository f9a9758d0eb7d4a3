"""``tilecheck run FILE [--set n=4096 ...] [--seed S] [--unchecked] [--profile]``: prove, emit, run, compare.

``--profile`` then launches the kernel once more under ncu and prints predicted against measured
shared wavefronts and global sectors (``tilecheck.gpu.ncu_compare.profile``, docs/efficiency.md);
a counter that differs makes the exit status 1, a missing ncu 2.

Exit status: 0 the kernel's buffers equal the numpy reference bit for bit (with
``--unchecked``: the hardware confirmed the refutation); 1 they differ, or the
file is refuted (with ``--unchecked``: the hardware did not confirm it); 2 an
error (the input, pycuda missing, no CUDA device, a target the device cannot
run); 3 the file is unknown.
"""
from __future__ import annotations

import json
import secrets
import sys

from ..timeout import positive_seconds
from . import runner
from ..check import load_check
from ..errors import InputError
from ..proofs import facts
from ..report import error_json, prove
from .ncu_compare import profile
from .reference import BufferTooLarge, ReferenceUndefined, bind_symbols
from .unchecked import choose, confirm
from ..progress import Line

HELP = "prove, emit and run a check file on the GPU; compare with numpy bit for bit"


def add_arguments(p):
    p.add_argument("file", metavar="FILE")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a symbol's value for this run (checked against its facts); repeatable. "
                        "Unset symbols take their smallest allowed value")
    p.add_argument("--seed", type=int, help="seed of the random inputs (default: a fresh one, printed)")
    p.add_argument("--unchecked", action="store_true",
                   help="run a REFUTED plan anyway, in a separate process, and report whether the hardware "
                        "confirmed the refutation (e.g. a 'misaligned address' fault)")
    p.add_argument("--arch", help="override the file's arch, e.g. sm_90a")
    p.add_argument("--load", choices=("cubin", "ptx"), default=None,
                   help="load the module through ptxas (cubin, the default) or the driver's PTX JIT")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS", help="bound on each proof query")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--profile", action="store_true",
                   help="after the run, launch the kernel once under ncu and print, per apply and per fill/"
                        "copy-back, the predicted shared wavefronts and global sectors against ncu's counters "
                        "(docs/efficiency.md)")


def _symbols(pairs) -> dict:
    out = {}
    for text in pairs:
        name, eq, value = text.partition("=")
        try:
            out[name.strip()] = int(value.strip(), 0)
        except ValueError:
            raise InputError(f"expected NAME=INTEGER, got {text!r}", "--set") from None
        if not eq or not name.strip():
            raise InputError(f"expected NAME=INTEGER, got {text!r}", "--set")
    return out


def _err(args, msg: str, where: str = "", error=None) -> int:
    """An error of this run (exit 2): one line on stderr, or with --json the JSON error object
    that ``tilecheck prove --json`` prints for a file it cannot read (``error``: the InputError, whose
    line is kept)."""
    line = getattr(error, "line", None)
    if getattr(args, "json", False):
        print(json.dumps(error_json(args.file, msg, where, line), indent=1))
    else:
        text = str(error) if error is not None else f"{where}: {msg}" if where else msg
        print(f"tilecheck: error: {text}", file=sys.stderr)
    return 2


def main(args) -> int:
    try:
        return _main(args)
    except InputError as e:  # the file, --set, --arch: before any pycuda import
        return _err(args, e.message, e.where, e)


class _Off:
    """No terminal: the progress line stays off (``run --json``)."""

    def isatty(self):
        return False


_OFF = _Off()


def _main(args) -> int:

    check = load_check(args.file, args.arch)  # InputError: exit 2 in tilecheck.cli
    facts.decide(check, args.timeout)  # facts that contradict each other: InputError before any value
    given = _symbols(args.set)
    symbols = bind_symbols(check, given)
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    if getattr(args, "profile", False) and (args.unchecked or args.json):
        raise InputError("--profile prints a table: not with --unchecked or --json", "--profile")
    # a live line on a terminal's standard error while it proves and runs (not with --json)
    with Line(f"run {args.file}", stream=_OFF if args.json else None) as line:
        line.update(text="proving")
        report = prove(check, timeout=args.timeout)
    if args.unchecked:
        return _unchecked(args, check, given, seed, report)
    if report.verdict != "proved":
        if args.json:
            print(json.dumps({**report.to_json(), "result": "not run"}, indent=1))
            return report.exit_status
        print(report.to_text())
        print(f"not run: {args.file} is {report.verdict}; only proved plans run "
              f"(--unchecked runs a refuted one in a separate process to see what the hardware does)")
        return report.exit_status
    try:
        how = args.load or runner.DEFAULT_LOAD
        g = runner.gpu()
        reason = g.can_run(check.arch)
        if reason:
            return _err(args, reason, args.file)
        with Line(f"run {args.file}", stream=_OFF if args.json else None) as line:
            line.update(text=f"on the GPU ({how})")
            result = runner.run_check(check, symbols, seed, plan=report.plan, how=how, timeout=args.timeout)
        result.seconds["prove"] = report.seconds
    except runner.GpuUnavailable as e:
        return _err(args, str(e))
    except (RuntimeError, ReferenceUndefined, BufferTooLarge) as e:  # ptxas/JIT rejected the module; no reference
        return _err(args, str(e), args.file)
    except runner._driver().Error as e:  # a proved plan faulted: the proof and the hardware disagree
        print(f"FAIL: {args.file} (seed {seed}): the proved kernel failed on the GPU: {' '.join(str(e).split())}")
        return 1
    if args.json:
        print(json.dumps(_json(args.file, report, result, g, how), indent=1))
        return 0 if result.ok else 1
    _print(args.file, report, result, g, how)
    status = 0 if result.ok else 1
    if getattr(args, "profile", False):
        status = max(status, profile(check, report.plan, symbols, args.file))
    return status


def _print(path, report, result, g, how):
    case = result.case
    check = case.check
    syms = ", ".join(f"{k}={v}" for k, v in case.symbols.items()) or "none"
    print(f"{path}: proved ({check.arch}, threads={check.threads}); seed {case.seed}; symbols: {syms}")
    for a in report.applies:
        print(f"  apply[{a.apply.index}] {a.apply.opcode.text} ({a.apply.scope} scope): "
              f"{a.instructions} per thread")
    s = result.seconds
    grid = f", grid {case.grid}" if case.grid > 1 else ""
    print(f"  ran on {g.name} ({g.arch}){grid}: module loaded via {how} in {s.get('load', 0) * 1e3:.0f} ms, "
          f"kernel + sync {s.get('run', 0) * 1e3:.2f} ms")
    for name, want in case.expected.items():
        t = check.tensors[name]
        n_w = int(case.written[name].sum())
        role = f"{n_w} written" if n_w else "unchanged"
        print(f"  {name:<8} {t.scope:<8} {t.dtype:<8} {want.size:>9} elements, {role}: "
              f"{result.comparison.mismatches[name]} differ")
    if result.ok:
        print(f"PASS: {result.summary()}")
    else:
        print(f"FAIL: {result.summary()}")
        for m in result.comparison.first[1:]:
            print(f"  {m}")
        print(f"  (replay: tilecheck run {path} --seed {case.seed}"
              + "".join(f" --set {k}={v}" for k, v in case.symbols.items()) + ")")


def _json(path, report, result, g, how) -> dict:
    case = result.case
    return {"file": path, "verdict": report.verdict, "result": "pass" if result.ok else "fail",
            "seed": case.seed, "symbols": case.symbols, "device": g.name, "device_arch": g.arch,
            "load": how, "seconds": {k: round(v, 6) for k, v in result.seconds.items()},
            "buffers": {n: {"elements": int(case.expected[n].size), "written": int(case.written[n].sum()),
                            "differ": result.comparison.mismatches[n]} for n in case.expected},
            "guard_violations": result.guard, "summary": result.summary(),
            "mismatches": [str(m) for m in result.comparison.first]}


def _unchecked(args, check, given, seed, report) -> int:
    if report.verdict == "proved":
        return _err(args, "proved: --unchecked is only for refuted or unknown plans; run it without --unchecked",
                    args.file)
    choice = choose(report, given)  # the counterexample's symbol values; --set wins
    symbols = choice.symbols
    try:
        import pycuda  # noqa: F401  (the child needs it; say so here, once)
    except ImportError:
        return _err(args, "pycuda is not installed: pip install -e '.[gpu]' (see docs/gpu.md)")
    out = confirm(check, symbols, seed, args.file, args.arch, args.load, report=report,
                  placement=choice.placement)
    if out.status == "unavailable":
        return _err(args, out.detail)
    if args.json:
        print(json.dumps({"file": args.file, "verdict": report.verdict, "seed": seed, "symbols": symbols,
                          "symbols_why": choice.why,
                          "placement": {t: {"residue": r, "modulus": m} for t, (r, m) in choice.placement.items()},
                          "refuted": [{"apply": i, "obligation": n, "message": m} for i, n, m in out.prediction.refuted],
                          "predicted": out.prediction.expect, "status": out.status, "detail": out.detail,
                          "confirmed": out.confirmed}, indent=1))
        return 0 if out.confirmed else 1
    syms = ", ".join(f"{k}={v}" for k, v in symbols.items()) or "none"
    print(f"{args.file}: {report.verdict} ({check.arch}, threads={check.threads}); UNCHECKED run in a separate "
          f"process; seed {seed}; symbols: {syms}")
    print(f"  values:    {choice.why}")
    for i, name, msg in out.prediction.refuted:
        print(f"  apply[{i}] " + (msg if msg and msg.startswith(f"{name} refuted") else f"{name} refuted: {msg}"))
    print(f"  predicted: {out.prediction.expect}")
    print(f"  hardware:  {out.status}: {out.detail}")
    if out.confirmed:
        print("CONFIRMED: the hardware confirmed the refutation")
        return 0
    print("NOT CONFIRMED: the hardware did not do what the refutation predicts")
    return 1
