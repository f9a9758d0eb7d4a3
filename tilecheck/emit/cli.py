"""``tilecheck emit FILE [-o OUT.ptx] [--kernel] [--arch sm_XX] [--timeout S]``.

Proves the file first: a refuted file is refused with exit 1 and its refutations,
an unknown one with exit 3; bad input is exit 2 with one line.  Without
``--kernel`` it writes every application's fragment (default register names:
base addresses ``%base_<tensor>``, symbols ``%sym_<name>``, predicate ``%p``,
cache policy ``%policy``); with it, the whole kernel (see kernel.py for its ABI).
"""
from __future__ import annotations

import sys

from ..errors import InputError
from ..timeout import positive_seconds
from ..report import prove
from .fragment import fragment
from .kernel import kernel, version

HELP = "write the PTX of a proved check file (fragments, or --kernel for a whole .entry)"


def add_arguments(p):
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", metavar="OUT.ptx", help="write here instead of standard output")
    p.add_argument("--kernel", action="store_true", help="a complete .entry (the GPU tests' ABI), not fragments")
    p.add_argument("--arch", help="override the file's arch, e.g. sm_100a")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS", help="bound on each query (default 10)")
    p.add_argument("--name", default="tilecheck_kernel", help="the kernel's name (with --kernel)")


def main(args) -> int:
    from ..cli import load_check
    check = load_check(args.file, args.arch)
    report = prove(check, timeout=args.timeout)
    if report.verdict != "proved":
        print(f"tilecheck: {args.file} is {report.verdict}: nothing emitted", file=sys.stderr)
        for a in report.applies:
            for o in a.obligations:
                if o.status in ("refuted", "unknown"):
                    print(f"  apply[{a.apply.index}] {o.message}", file=sys.stderr)
        return report.exit_status
    plan = report.plan
    try:
        text = kernel(plan, name=args.name) if args.kernel else fragments(plan)
    except ValueError as e:  # EmitError is an InputError; a bad --name is a ValueError
        raise e if isinstance(e, InputError) else InputError(str(e), "--name") from None
    if args.output:
        try:
            with open(args.output, "w") as f:
                f.write(text)
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror}", args.output) from None
    else:
        sys.stdout.write(text)
    return 0


def fragments(plan) -> str:
    check = plan.check
    major, minor = version(check)
    out = [f"// tilecheck fragments for {check.path}: needs .version {major}.{minor}, .target {check.arch}"]
    for a in check.applies:
        f = fragment(plan, a.index)
        out += ["", f"// apply[{a.index}]: {len(f.body)} instructions per thread, {a.scope} scope", f.text]
    return "\n".join(out)
