"""The command line: ``tilecheck prove FILE...``, ``tilecheck emit FILE``."""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from .check import load_check
from .errors import InputError
from .report import error_json, exit_status, prove
from .timeout import positive_seconds
from .verdict import Verdict


# Front ends beyond `prove`: each module has add_arguments(parser) and main(args) -> exit status.
# A module is imported only when its command runs, so one front end cannot break another.
SUBCOMMANDS = {
    "emit": ("tilecheck.emit.cli", "write the PTX of a proved check file"),
    "run": ("tilecheck.gpu.cli", "prove, emit and run a check file on the GPU against numpy"),
    "fuzz": ("tilecheck.fuzz.cli", "property-based fuzzing: Z3 against an independent decider"),
    "examples": ("tilecheck.bundled", "copy the shipped example check files to DIR (default ./examples)"),
    "tirx": ("tilecheck.frontends.tirx", "extract the T.cuda.tile.apply ld/st of TIRx kernels and prove each"),
    "suggest": ("tilecheck.suggest", "search a conflict-free swizzle and the widest legal vectors; -o writes the file"),
    "draw": ("tilecheck.draw_cli", "an SVG picture of each operand's elements, threads, atoms and counterexample"),
    "completion": ("tilecheck.completion", "print a shell completion script: tilecheck completion bash|zsh|tcsh"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other input error
        self.exit(2, f"tilecheck: error: {message} (see tilecheck --help)\n")


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    p = _Parser(prog="tilecheck", description="Prove the layout contract of PTX ld/st instructions, then emit PTX.")
    from . import __version__
    p.add_argument("--version", action="version", version=f"tilecheck {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    pr = sub.add_parser("prove", help="prove or refute every obligation of each check file")
    pr.add_argument("files", nargs="+", metavar="FILE")
    pr.add_argument("--json", action="store_true", help="one JSON object per file (a list for several files)")
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
    return p


def cmd_prove(args) -> int:
    outs, verdicts = [], []
    if args.recheck:
        from .proofs.smt2 import cvc5_version
        if cvc5_version() is None:
            raise InputError("needs the cvc5 package (pip install cvc5, or tilecheck[recheck])", "--recheck")
    if args.smt2 is not None:
        from pathlib import Path
        try:
            Path(args.smt2).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"cannot create the directory {args.smt2!r}: {e.strerror or e}", "--smt2") from None
    for path in args.files:
        try:
            report = prove(load_check(path, args.arch), timeout=args.timeout, recheck=args.recheck,
                           smt2=args.smt2)
        except InputError as e:
            outs.append(error_json(path, e.message, e.where))
            verdicts.append(Verdict.ERROR)
            if not args.json:
                print(f"tilecheck: error: {e}", file=sys.stderr)
            continue
        verdicts.append(report.status)
        outs.append(report.to_json())
        if not args.json:
            print(report.to_text())
    if args.json:
        print(json.dumps(outs[0] if len(outs) == 1 else outs, indent=1))
    return exit_status(verdicts)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
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
        print(f"tilecheck: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
