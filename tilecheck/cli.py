"""The command line: ``tilecheck prove FILE...``, ``tilecheck emit FILE``."""
from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import traceback
from pathlib import Path

from . import ci_format
from .check import load_check
from .errors import InputError
from .report import error_json, exit_status, prove
from .timeout import positive_seconds
from .verdict import Verdict
from .proofs import smt2  # smt2.cvc5_version: looked up at the call (a test replaces it)


# Front ends beyond `prove`: each module has add_arguments(parser) and main(args) -> exit status.
# A module is imported only when its command runs, so one front end cannot break another.
SUBCOMMANDS = {
    "emit": ("tilecheck.emit.cli", "write the PTX of a proved check file"),
    "run": ("tilecheck.gpu.cli", "prove, emit and run a check file on the GPU against numpy"),
    "fuzz": ("tilecheck.fuzz.cli", "property-based fuzzing: Z3 against an independent decider"),
    "examples": ("tilecheck.bundled", "copy the shipped example check files to DIR (default ./examples)"),
    "tirx": ("tilecheck.frontends.tirx", "extract the T.cuda.tile.apply ld/st of TIRx kernels and prove each"),
    "cute": ("tilecheck.frontends.cute", "trace the cute.copy calls of CuTe Python DSL kernels and prove each"),
    "suggest": ("tilecheck.suggest", "search a conflict-free swizzle and the widest legal vectors; -o writes the file"),
    "draw": ("tilecheck.draw_cli", "an SVG picture of each operand's elements, threads, atoms and counterexample"),
    "completion": ("tilecheck.completion", "print a shell completion script: tilecheck completion bash|zsh|tcsh"),
}


class _Parser(argparse.ArgumentParser):
    json = False  # --json among the arguments: a bad argument is a JSON error too

    def error(self, message):  # one line, exit 2, like every other input error
        if _Parser.json:
            print(json.dumps(error_json(None, message, "arguments"), indent=1))
            self.exit(2)
        self.exit(2, f"tilecheck: error: {message} (see tilecheck --help)\n")


class _Version(argparse.Action):  # argparse's "version" action, the version read only when asked
    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__  # computed on first use (importlib.metadata: ~20 ms a command)
        sys.stdout.write(f"tilecheck {__version__}\n")
        parser.exit()


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    p = _Parser(prog="tilecheck", description="Prove the layout contract of PTX ld/st instructions, then emit PTX.")
    p.add_argument("--version", action=_Version, nargs=0, help="show program's version number and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    pr = sub.add_parser("prove", help="prove or refute every obligation of each check file")
    pr.add_argument("files", nargs="+", metavar="FILE", help="check files; - reads standard input")
    pr.add_argument("--json", action="store_true", help="one JSON object per file (a list for several files)")
    pr.add_argument("--format", choices=("text", "json", "sarif", "github"), default=None,
                    help="text (default), json (= --json), sarif (one SARIF 2.1.0 log), github (GitHub Actions "
                    "annotations at the line of each failing [[apply]])")
    pr.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS", help="bound on each query (default 10)")
    pr.add_argument("--arch", help="override the file's arch, e.g. sm_100a")
    pr.add_argument("--smt2", metavar="DIR", help="write every query Z3 decides as SMT-LIB 2, "
                    "DIR/<file-stem>/apply<i>-<obligation>.smt2")
    pr.add_argument("--recheck", action="store_true", help="let cvc5 decide every query's SMT-LIB text too; "
                    "a disagreement is an internal error (exit 4)")
    for name, (module, help) in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help)
        if name == command:
            importlib.import_module(module).add_arguments(sp)
            if "--json" not in sp._option_string_actions:  # every command: its errors as JSON
                sp.add_argument("--json", action="store_true",
                                help="an error as one JSON object on standard output (as prove --json prints it)")
    return p


def cmd_prove(args) -> int:
    fmt = args.format or ("json" if args.json else "text")
    if args.json and fmt != "json":
        raise InputError(f"--json and --format {fmt} ask for two outputs", "--format")
    args.json = fmt == "json"
    quiet = fmt in ("sarif", "github")  # the text reports would break the SARIF log / duplicate the annotations
    outs, verdicts, results = [], [], []
    if args.recheck:
        if smt2.cvc5_version() is None:
            raise InputError("needs the cvc5 package (pip install cvc5, or tilecheck[recheck])", "--recheck")
    if args.smt2 is not None:
        try:
            Path(args.smt2).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"cannot create the directory {args.smt2!r}: {e.strerror or e}", "--smt2") from None
    for path in args.files:
        try:
            report = prove(load_check(path, args.arch), timeout=args.timeout, recheck=args.recheck,
                           smt2=args.smt2)
        except InputError as e:
            if e.file is None and not e.where.startswith(str(path)):  # the facts', the solver's: still this file's
                e = e.in_file(path, None)
            outs.append(error_json(path, e.message, e.where, e.line))
            verdicts.append(Verdict.ERROR)
            results.append((str(path), outs[-1], Verdict.ERROR))
            if not args.json:
                print(one_line(f"tilecheck: error: {e}"), file=sys.stderr)
            continue
        verdicts.append(report.status)
        outs.append(report.to_json())
        results.append((str(path), report, report.status))
        if not args.json and not quiet:
            print(report.to_text())
    if args.json:
        print(json.dumps(outs[0] if len(outs) == 1 else outs, indent=1))
    elif quiet:
        from . import __version__
        print(ci_format.dumps(results, __version__) if fmt == "sarif" else ci_format.github(results))
    return exit_status(verdicts)


REPORT = "a bug in tilecheck: please report it with the command and its input"


def one_line(text: str, limit: int = 2000) -> str:
    """``text`` as one line of at most about ``limit`` characters (the middle elided)."""
    text = re.sub(r"\s*\n\s*", " ", text)
    return text if len(text) <= limit else f"{text[:limit - 200]} ... {text[-150:]} ({len(text)} characters)"


class _Stdout:
    """Standard output that a closed pipe does not break (``tilecheck prove F | head -1``): once the
    reader has gone, the rest of the output goes to /dev/null and the command runs on to its exit
    status (the verdict, which ``set -o pipefail`` sees), instead of dying of BrokenPipeError."""

    def __init__(self, stream):
        self._stream = stream

    def _gone(self):
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):  # no descriptor (a test's capture): drop the output
            self._stream = open(os.devnull, "w")

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    stdout = sys.stdout
    sys.stdout = _Stdout(stdout)
    try:
        status = _main(argv)
        sys.stdout.flush()
        return status
    finally:
        sys.stdout = stdout


def _main(argv) -> int:
    command = next((a for a in argv if not a.startswith("-")), None)
    _Parser.json = "--json" in argv
    try:
        parser = _parser(command)
    except ModuleNotFoundError as e:
        print(f"tilecheck: error: '{command}' is not available in this installation ({e})", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        if args.command == "prove":
            return cmd_prove(args)
        return importlib.import_module(SUBCOMMANDS[args.command][0]).main(args)
    except InputError as e:
        if getattr(args, "json", False):
            print(json.dumps(error_json(_file(args, e), e.message, e.where, e.line), indent=1))
        else:
            print(one_line(f"tilecheck: error: {e}"), file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - a bug: one line and exit 4, never a traceback (nor exit 1, "refuted")
        if os.environ.get("TILECHECK_TRACEBACK"):
            traceback.print_exc()
        what = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        if getattr(args, "json", False):
            print(json.dumps({"file": _file(args), "verdict": Verdict.INTERNAL,
                              "error": {"message": one_line(what, 500), "where": "", "report": REPORT}}, indent=1))
        print(one_line(f"tilecheck: internal error: {one_line(what, 500)} ({REPORT}; TILECHECK_TRACEBACK=1 "
                       f"shows the traceback)"), file=sys.stderr)
        return 4


def _file(args, e: InputError | None = None):
    """The file an error is about, for its JSON."""
    if e is not None and e.file:
        return e.file
    files = getattr(args, "files", None)
    return getattr(args, "file", None) or (files[0] if files and len(files) == 1 else None)
