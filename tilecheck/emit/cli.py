"""``tilecheck emit FILE [-o OUT.ptx] [--kernel [--name NAME]] [--base T=%REG ...] [--arch sm_XX] [--timeout S]``.

Proves the file first: a refuted file is refused with exit 1 and its refutations,
an unknown one with exit 3; bad input is exit 2 with one line.  Without
``--kernel`` it writes every application's fragment (default register names:
base addresses ``%base_<tensor>``, symbols ``%sym_<name>``, predicate ``%p``,
cache policy ``%policy``, a TMA copy's tensor map ``%tmap_<map>``; ``--base A=%rd1`` names tensor A's
base register, or map A's, instead); with
it, the whole kernel (see kernel.py for its ABI).  ``--name`` is for ``--kernel`` and
``--base`` for fragments: either on the wrong side is an input error.

A proved file whose PTX would be absurd (more than 131072 registers or 65536 instructions per
thread, see budget.py) is refused with exit 2 unless ``--force``; refuted performance
obligations (``registers``) that the file does not ``require`` are printed to standard error
as warnings and do not block.
"""
from __future__ import annotations

import re
import sys

from ..errors import InputError
from ..timeout import positive_seconds
from ..report import prove
from ..verdict import Verdict
from .budget import too_large
from .fragment import fragment
from .kernel import kernel, version
from ..check import load_check

HELP = "write the PTX of a proved check file (fragments, or --kernel for a whole .entry)"


def add_arguments(p):
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", metavar="OUT.ptx", help="write here instead of standard output")
    p.add_argument("--kernel", action="store_true", help="a complete .entry (the GPU tests' ABI), not fragments")
    p.add_argument("--arch", help="override the file's arch, e.g. sm_100a")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS", help="bound on each query (default 10)")
    p.add_argument("--name", help="the kernel's name (with --kernel; default tilecheck_kernel)")
    p.add_argument("--base", action="append", default=[], metavar="TENSOR=%%REG",
                   help="the register holding a memory tensor's base address in the fragments (default "
                        "%%base_TENSOR), or a tensor map's generic address (default %%tmap_MAP); repeatable; "
                        "not with --kernel")
    p.add_argument("--force", action="store_true",
                   help="emit even when the PTX is absurdly large (over 131072 registers or 65536 instructions "
                        "per thread)")


_REGISTER = re.compile(r"%[A-Za-z_$][A-Za-z0-9_$]*")


def _bases(pairs, check) -> dict:
    """``--base A=%rd1`` pairs as {tensor: register}, checked against the file (raises InputError)."""
    out = {}
    for text in pairs:
        name, eq, reg = (x.strip() for x in text.partition("="))
        if not eq or not name or not _REGISTER.fullmatch(reg):
            raise InputError(f"expected TENSOR=%REGISTER (e.g. A=%rd1), got {text!r}", "--base")
        t = check.tensors.get(name)
        if (t is None or t.scope == "register") and name not in check.tensormaps:
            memory = ", ".join(n for n, t in check.tensors.items() if t.scope != "register") or "none"
            maps = f"; tensor maps: {', '.join(check.tensormaps)}" if check.tensormaps else ""
            raise InputError(f"{name!r} is not a memory tensor of {check.path} (memory tensors: {memory}{maps})",
                             "--base")
        out[name] = reg
    return out


def main(args) -> int:
    if args.name is not None and not args.kernel:
        raise InputError("only with --kernel (fragments have no kernel to name)", "--name")
    if args.base and args.kernel:
        raise InputError("only for fragments (the kernel of --kernel reads its base addresses from its "
                         "parameters)", "--base")
    check = load_check(args.file, args.arch)
    base = _bases(args.base, check)
    report = prove(check, timeout=args.timeout)
    if report.verdict != Verdict.PROVED:
        print(f"tilecheck: {args.file} is {report.verdict}: nothing emitted", file=sys.stderr)
        for a in report.applies:
            for o in a.obligations:
                if o.status in (Verdict.REFUTED, Verdict.UNKNOWN):
                    print(f"  apply[{a.apply.index}] {o.message}", file=sys.stderr)
        return report.exit_status
    if not args.force and (why := too_large(report)):
        raise InputError(why, args.file)
    plan = report.plan
    try:
        text = kernel(plan, name=args.name or "tilecheck_kernel") if args.kernel else fragments(plan, base)
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
    for a in report.applies:  # performance refutations the file does not require: reported, not blocking
        for o in a.obligations:
            if o.status == "refuted":
                print(f"tilecheck: warning: apply[{a.apply.index}] {o.message} (performance, not blocking)",
                      file=sys.stderr)
    return 0


def fragments(plan, base=None) -> str:
    check = plan.check
    major, minor = version(check)
    out = [f"// tilecheck fragments for {check.path}: needs .version {major}.{minor}, .target {check.arch}"]
    for a in check.applies:
        f = fragment(plan, a.index, base=base)
        out += ["", f"// apply[{a.index}]: {len(f.body)} instructions per thread, {a.scope} scope", f.text]
    return "\n".join(out)
