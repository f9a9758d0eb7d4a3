"""The command line: ``tilecheck prove FILE...``, ``tilecheck emit FILE``."""
from __future__ import annotations

import argparse
import json
import sys

from .check import load
from .errors import InputError
from .report import error_json, exit_status, prove


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other input error
        self.exit(2, f"tilecheck: error: {message} (see tilecheck --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tilecheck", description="Prove the layout contract of PTX ld/st instructions, then emit PTX.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    pr = sub.add_parser("prove", help="prove or refute every obligation of each check file")
    pr.add_argument("files", nargs="+", metavar="FILE")
    pr.add_argument("--json", action="store_true", help="one JSON object per file (a list for several files)")
    pr.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="bound on each query (default 10)")
    pr.add_argument("--arch", help="override the file's arch, e.g. sm_100a")
    em = sub.add_parser("emit", help="write the PTX of a proved check file")
    em.add_argument("file", metavar="FILE")
    em.add_argument("-o", "--output", metavar="OUT.ptx", help="write here instead of standard output")
    em.add_argument("--kernel", action="store_true", help="a complete .entry kernel instead of fragments")
    em.add_argument("--arch", help="override the file's arch, e.g. sm_100a")
    em.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS")
    return p


def _load(path, arch):
    check = load(path)
    return check.with_arch(arch) if arch else check


def cmd_prove(args) -> int:
    outs, verdicts = [], []
    for path in args.files:
        try:
            report = prove(_load(path, args.arch), timeout=args.timeout)
        except InputError as e:
            outs.append(error_json(path, e.message, e.where))
            verdicts.append("error")
            if not args.json:
                print(f"tilecheck: error: {e}", file=sys.stderr)
            continue
        verdicts.append(report.verdict)
        outs.append(report.to_json())
        if not args.json:
            print(report.to_text())
    if args.json:
        print(json.dumps(outs[0] if len(outs) == 1 else outs, indent=1))
    return exit_status(verdicts)


def cmd_emit(args) -> int:
    from .emit import cli_emit
    return cli_emit(args)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        return {"prove": cmd_prove, "emit": cmd_emit}[args.command](args)
    except InputError as e:
        print(f"tilecheck: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
