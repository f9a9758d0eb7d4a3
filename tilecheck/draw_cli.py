"""``tilecheck draw FILE [--apply N] [-o OUT.svg]`` and ``tilecheck draw --all DIR -o OUTDIR``.

Proves the file (so a refutation's counterexample can be highlighted), then writes the
SVG of ``tilecheck.draw.svg``.  An application its family cannot picture yet (a TMA copy) is
one line in the picture and on standard error.  Drawing is not a verdict: the exit status is 0 when a
picture was written, whatever the verdict (the title says it); 2 for bad input.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .draw import COLORS, GRIDS, not_drawn, svg
from .errors import InputError
from .report import prove
from .timeout import positive_seconds
from .check import load_check


def add_arguments(p):
    p.add_argument("file", nargs="?", metavar="FILE")
    p.add_argument("--all", metavar="DIR", help="draw every *.toml in DIR, one OUTDIR/NAME.svg each (needs -o OUTDIR)")
    p.add_argument("--apply", type=int, metavar="N", help="draw only apply N (default: every apply)")
    p.add_argument("-o", "--output", metavar="OUT.svg", help="write here instead of standard output")
    p.add_argument("--grid", choices=GRIDS, default="offset",
                   help="memory tensors by element offset, 128 bytes a row (default), or by logical index")
    p.add_argument("--color", choices=COLORS, default="thread",
                   help="fill by owning thread (default) or, for shared tensors, by bank")
    p.add_argument("--arch", help="override the file's arch, e.g. sm_100a")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS", help="bound on each query (default 10)")


def picture(path, args) -> str:
    check = load_check(path, args.arch)
    for a in check.applies if args.apply is None else check.applies[args.apply:args.apply + 1]:
        if not a.family.pictured:
            print(f"{path}: {not_drawn(a)}", file=sys.stderr)
    return svg(check, prove(check, timeout=args.timeout), args.apply, args.grid, args.color)


def _write(path, text):
    try:
        Path(path).write_text(text)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", str(path)) from None


def main(args) -> int:
    if args.all:
        if args.file or not args.output:
            raise InputError("--all DIR takes no FILE and needs -o OUTDIR", "--all")
        files = sorted(Path(args.all).glob("*.toml"))
        if not files:
            raise InputError("no *.toml files", args.all)
        out = Path(args.output)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"cannot create: {e.strerror}", str(out)) from None
        for f in files:
            _write(out / f"{f.stem}.svg", picture(f, args))
            print(f"{out / f.stem}.svg")
        return 0
    if not args.file:
        raise InputError("give a check FILE (or --all DIR -o OUTDIR)", "draw")
    text = picture(args.file, args)
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
