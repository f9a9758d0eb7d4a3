"""TIRx front end: ``tilecheck tirx FILE.py`` proves every ``T.cuda.tile.apply`` ld/st of TIRx kernels.

Two halves. ``tirx_extract.py`` (next to this file) imports ``tvm_tirx`` (apache-tvm-tirx 0.1.0a4)
and prints the kernels' applications as JSON; it runs in the current interpreter when ``tvm_tirx``
imports here, else in ``--tirx-python PATH`` / ``$TILECHECK_TIRX_PYTHON`` (e.g. bench/.venv-tirx,
made by ``bash bench/peer_env.sh``) through a subprocess. This module is pure: it translates that
JSON into one check (``tilecheck.from_dict`` data) per application, proves it, and reports at the
TIRx source line of the apply. Nothing here imports tvm_tirx, so the translation is tested from
recorded extractions (tests/tirx_cases/).

Translation (TIRx 0.1.0a4 -> check file):
  * a tensor (parameter, ``alloc_*`` or a ``decl_tensor`` view: rearrange/view/permute are already
    resolved by TIRx into a layout) -> ``[tensors.NAME]``; scope global/shared/local -> global/shared/
    register; ``data_alignment`` -> ``align``; the layout's iterators, grouped per dimension
    (row-major, first iterator major), -> a CuTe layout with nested modes (colexicographic, so the
    group is reversed); axis ``m`` is memory, ``laneid``/``warpid``/``tid`` become ``S@axis``.
  * a region ``A[b:b+e, ...]`` -> the operand ``A[b:b+e, ...]`` (no slice when it is all of A);
    operands are (dst, src) as in TIRx.
  * ``threads`` = block.x*block.y*block.z; ``T.cuda.block_idx("x")`` -> a symbol ``from = "ctaid.x"``
    in [0, grid.x); a loop ``for i in range(b, e)`` -> a symbol in [b, e); ``T.dynamic`` shape
    variables -> symbols >= 1; scalar ``T.int32`` parameters -> symbols in the int32 range;
    ``T.assume`` facts -> ``assume`` (TIRx's own tile checks ignore them); every symbolic shape entry,
    extent and stride of an operand's tensor is <= 2^31-1 (TIRx 0.1.0a4 computes them in int32).
Not translated (reported ``unsupported`` with the reason): replicated layouts, thread axes other than
laneid/warpid/tid, non-memory offsets, scopes other than thread/warp/cta, a symbolic block size,
expressions other than + - * // %. An ``if`` around an apply is not used (the check is for all
values), and a view's layout is checked against the view, not against the storage it aliases.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
import importlib.util

from ..check import DTYPES
from ..check_toml import to_toml as write
from ..errors import InputError
from .proving import prove_translated

HERE = Path(__file__).resolve().parent
EXTRACTOR = HERE / "tirx_extract.py"
INT32 = (-(2**31), 2**31 - 1)
SCOPE = {"global": "global", "shared": "shared", "shared.dyn": "shared", "shared::cta": "shared",
         "local": "register"}
THREAD_AXES = ("laneid", "warpid", "tid")
_NAME = re.compile(r"[A-Za-z_]\w*")

HELP = "extract the T.cuda.tile.apply ld/st of TIRx kernels (a .py file) and prove each"


class Unsupported(Exception):
    pass


@dataclass
class Case:
    """One application of one kernel: its check data, or why it has none."""
    file: str
    kernel: str
    index: int  # the apply's position within the kernel
    line: int | None
    opcode: str
    scope: str | None
    check: dict | None = None
    unsupported: str | None = None
    tirx: dict | None = None  # TIRx's own verdict on the kernel, when recorded
    result: dict = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line if self.line is not None else '?'}"


# --------------------------------------------------------------------------- translation
def _names(e) -> set:
    return set(_NAME.findall(e)) if isinstance(e, str) else set()


def _layout(t: dict, name: str) -> tuple[str, object]:
    if t["replica"]:
        raise Unsupported(f"tensor {name}: replicated layout (replica {t['replica']}): tilecheck layouts "
                          "give each element one owner")
    offset = 0
    for axis, v in t["offset"].items():
        if axis == "m":
            offset = v
        elif v != 0:
            raise Unsupported(f"tensor {name}: offset on thread axis {axis!r}")
    shapes, strides = [], []
    for k, dim in enumerate(t["dims"]):
        if not dim:
            raise Unsupported(f"tensor {name}: dimension {k} has no layout iterator")
        ext, st = [], []
        for extent, stride, axis in dim:
            if axis == "m":
                st.append(str(stride))
            elif axis in THREAD_AXES:
                st.append(f"{stride}@{axis}")
            else:
                raise Unsupported(f"tensor {name}: layout axis {axis!r} (tilecheck knows m, {', '.join(THREAD_AXES)})")
            ext.append(str(extent))
        if len(dim) == 1:
            shapes.append(ext[0])
            strides.append(st[0])
        else:  # TIRx groups row-major (first iterator major); a CuTe nested mode is colexicographic
            shapes.append("(" + ",".join(reversed(ext)) + ")")
            strides.append("(" + ",".join(reversed(st)) + ")")
    if len(shapes) == 1 and not shapes[0].startswith("("):
        return f"{shapes[0]}:{strides[0]}", offset
    return "(" + ",".join(shapes) + "):(" + ",".join(strides) + ")", offset


def tensor_spec(t: dict, name: str) -> dict:
    if t["dtype"] not in DTYPES:
        raise Unsupported(f"tensor {name}: dtype {t['dtype']!r} (tilecheck: {', '.join(DTYPES)})")
    scope = SCOPE.get(t["scope"])
    if scope is None:
        raise Unsupported(f"tensor {name}: scope {t['scope']!r} (tilecheck: global, shared, local)")
    layout, offset = _layout(t, name)
    spec = {"dtype": t["dtype"], "scope": scope, "shape": list(t["shape"]), "layout": layout}
    if offset != 0:
        spec["offset"] = offset
    if scope != "register" and t.get("align"):
        spec["align"] = int(t["align"])
    return spec


def symbol_spec(name: str, s: dict, kernel: dict) -> tuple[dict, list[str]]:
    """The [symbols.NAME] table and the facts that bound it."""
    kind = s["kind"]
    if kind == "dynamic":
        return {"min": 1}, []
    if kind == "param":
        return {"min": INT32[0], "max": INT32[1]}, []
    if kind.startswith("ctaid."):
        dim = kind.split(".")[1]
        g = kernel["grid"]["xyz".index(dim)]
        spec = {"min": 0, "from": kind}
        if isinstance(g, int):
            spec["max"] = g - 1
            return spec, []
        return spec, [f"{name} < {g}"]
    if kind == "loop":
        if "unsupported" in s:
            raise Unsupported(f"loop variable {name}: {s['unsupported']}")
        b, e, step = s["begin"], s["end"], s.get("step", 1)
        if step != 1:
            if isinstance(b, int) and b == 0 and isinstance(step, int) and step > 0:
                spec = {"min": 0, "multiple_of": step}
            else:
                raise Unsupported(f"loop variable {name}: step {step} from {b}")
        else:
            spec = {}
        facts = []
        if isinstance(b, int):
            spec["min"] = b
        else:
            spec["min"] = INT32[0]
            facts.append(f"{name} >= {b}")
        if isinstance(e, int):
            spec["max"] = e - 1
            if spec["max"] < spec["min"]:
                raise Unsupported(f"loop variable {name}: empty range [{b}, {e})")
        else:
            facts.append(f"{name} < {e}")
        return spec, facts
    raise Unsupported(f"symbol {name}: unknown kind {kind!r}")


def _operand(op: dict, tensors: dict) -> str:
    name = op["tensor"]
    shape = tensors[name]["shape"]
    region = op["region"]
    if len(region) == len(shape) and all(b == 0 and e == s for (b, e), s in zip(region, shape)):
        return name
    parts = []
    for b, e in region:
        if not isinstance(e, int):
            raise Unsupported(f"operand {name}: region extent {e} is not an integer")
        parts.append(f"{b}:{b}+{e}" if not isinstance(b, int) else f"{b}:{b + e}")
    return f"{name}[{', '.join(parts)}]"


def _flag(v: str) -> bool:
    return v.strip() not in ("T.bool(False)", "False", "0")


def translate_apply(kernel: dict, a: dict) -> dict:
    """The check data (from_dict form) of one extracted application; raises Unsupported."""
    if "unsupported" in a:
        raise Unsupported(a["unsupported"])
    if not re.match(r"(ld|st)(\.|$)", a.get("opcode", "")):
        raise Unsupported(f"{a.get('opcode')!r} is not an ld/st")
    if a.get("scope") not in ("thread", "warp", "cta"):
        raise Unsupported(f"scope {a.get('scope')!r} (tilecheck: thread, warp, cta)")
    if len(a["operands"]) != 2:
        raise Unsupported(f"{len(a['operands'])} operands (an ld/st takes dst, src)")
    block = kernel["block"]
    if not all(isinstance(b, int) for b in block):
        raise Unsupported(f"block {block} is not concrete")
    threads = block[0] * block[1] * block[2]
    names = {op["tensor"] for op in a["operands"]}
    tensors = {n: tensor_spec(kernel["tensors"][n], n) for n in sorted(names)}
    apply = {"opcode": a["opcode"], "scope": a["scope"],
             "dst": _operand(a["operands"][0], kernel["tensors"]),
             "src": _operand(a["operands"][1], kernel["tensors"])}
    for k, v in a.get("options", {}).items():
        if k == "pred":
            apply["pred"] = True
        elif k in ("preserve_dst", "cache_policy"):
            apply[k] = _flag(v)
        else:
            raise Unsupported(f"option {k}={v}")
    used = set()
    for spec in tensors.values():
        for x in spec["shape"] + [spec["layout"], spec.get("offset", 0)]:
            used |= _names(x)
    used |= _names(apply["dst"].split("[", 1)[-1]) if "[" in apply["dst"] else set()
    used |= _names(apply["src"].split("[", 1)[-1]) if "[" in apply["src"] else set()
    used -= set(THREAD_AXES)
    symbols, facts = {}, []
    todo = sorted(used)
    while todo:  # a symbol's bound may name another (grid.x = nb, loop end = n)
        n = todo.pop()
        if n in symbols:
            continue
        if n not in kernel["symbols"]:
            raise Unsupported(f"symbol {n!r} has no known range")
        spec, fs = symbol_spec(n, kernel["symbols"][n], kernel)
        symbols[n] = spec
        facts += fs
        for f in fs:
            todo += sorted(_names(f) - symbols.keys())
    for n in sorted(names):  # TIRx's extents and strides are int32 expressions: each fits in int32
        t = kernel["tensors"][n]
        for e in list(t["shape"]) + [x for dim in t["dims"] for it in dim for x in it[:2]]:
            if _names(e) and f"{e} <= {INT32[1]}" not in facts:
                facts.append(f"{e} <= {INT32[1]}")
    for f in kernel.get("assume", []):  # T.assume facts over the symbols in play
        if _names(f) and _names(f) <= symbols.keys():
            facts.append(f)
    out = {"arch": kernel["arch"], "threads": threads}
    if symbols:
        out["symbols"] = symbols
    if facts:
        out["assume"] = facts
    out["tensors"] = tensors
    out["apply"] = [apply]
    return out


def translate(data: dict, file: str | None = None) -> tuple[list[Case], list[dict]]:
    """Every application of every extracted kernel as a Case; and the kernels TIRx could not build."""
    file = file or data.get("file", "<tirx>")
    cases = []
    for k in data.get("kernels", []):
        for i, a in enumerate(k.get("applies", [])):
            c = Case(a.get("file", file), k["name"], i, a.get("line"), a.get("opcode", "?"), a.get("scope"), tirx=k.get("tirx"))
            try:
                c.check = translate_apply(k, a)
            except Unsupported as e:
                c.unsupported = str(e)
            except (KeyError, TypeError, ValueError) as e:  # a malformed extraction record
                c.unsupported = f"malformed extraction: {type(e).__name__}: {e}"
            cases.append(c)
    return cases, list(data.get("errors", []))


# ------------------------------------------------------------------------------ proving
def prove_case(c: Case, timeout: float = 10.0) -> dict:
    """Prove one case; the result dict is also stored on the case."""
    if c.check is None:
        c.result = {"verdict": "unsupported", "reason": c.unsupported}
        return c.result
    c.result = prove_translated(c.check, f"{c.where} ({c.kernel} apply[{c.index}])", timeout,
                                lambda bad: {"message": bad[0].message})
    return c.result


def summary(cases: list[Case], errors: list[dict], sites: list | None = None) -> dict:
    out = {"source_sites": len(sites) if sites is not None else None, "applies": len(cases),
           "build_errors": len(errors)}
    for v in ("proved", "refuted", "unknown", "unsupported"):
        out[v] = sum(c.result.get("verdict") == v for c in cases)
    out["extracted"] = len(cases) - out["unsupported"]
    return out


# ------------------------------------------------------------------------------ TOML out
def to_toml(check: dict, header: str = "") -> str:
    """The check data as a check file (the writer the fuzzer's findings use)."""
    return write(check, comment=header)


# ---------------------------------------------------------------------------- extraction
def tirx_python(option: str | None = None) -> str | None:
    """The interpreter that runs the extractor: --tirx-python, $TILECHECK_TIRX_PYTHON, this one if it
    imports tvm_tirx, else bench/.venv-tirx of a source checkout."""
    for p in (option, os.environ.get("TILECHECK_TIRX_PYTHON")):
        if p:
            return p
    if importlib.util.find_spec("tvm_tirx") is not None:
        return sys.executable
    venv = HERE.parent.parent / "bench" / ".venv-tirx" / "bin" / "python"
    return str(venv) if venv.exists() else None


def extract(path: str, python: str | None = None, arch: str = "sm_90", compile: bool = False,
            timeout: float = 600) -> dict:
    """Run the extractor on a TIRx file; raises InputError when it cannot run."""
    if not os.path.isfile(path):
        raise InputError("no such file", path)
    py = tirx_python(python)
    if py is None:
        raise InputError("tvm_tirx is not importable here; install the extra (pip install 'tilecheck[tirx]') "
                         "or name a Python that has it with --tirx-python PATH or $TILECHECK_TIRX_PYTHON "
                         "(bash bench/peer_env.sh makes one)", "--tirx-python")
    if not (os.path.isfile(py) or shutil.which(py)):
        raise InputError(f"no such interpreter {py!r}", "--tirx-python")
    cmd = [py, str(EXTRACTOR), path, "--arch", arch] + (["--compile"] if compile else [])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise InputError(f"the extractor ran past {timeout:.0f} s", path) from None
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    try:
        data = json.loads(last)
    except ValueError:
        err = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise InputError(f"the TIRx extractor failed ({py}): {err}", path) from None
    data["file"] = path
    return data


def load_extraction(path: str) -> dict:
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", path) from None
    except ValueError as e:
        raise InputError(f"not JSON: {e}", path) from None
    if not isinstance(data, dict) or not isinstance(data.get("kernels"), list):
        raise InputError("not a TIRx extraction (needs a 'kernels' list)", path)
    return data


# ---------------------------------------------------------------------------------- CLI
def add_arguments(p):
    p.add_argument("file", metavar="FILE.py", help="a Python file with TIRx kernels (or, with --from-json, "
                                                     "a recorded extraction)")
    p.add_argument("--tirx-python", metavar="PATH", help="a Python that imports tvm_tirx (default: "
                   "$TILECHECK_TIRX_PYTHON, this one, or bench/.venv-tirx)")
    p.add_argument("--from-json", action="store_true", help="FILE is a recorded extraction (--save-extraction)")
    p.add_argument("--save-extraction", metavar="OUT.json", help="write the raw extraction here")
    p.add_argument("--emit-toml", metavar="DIR", help="write each application's check file into DIR")
    p.add_argument("--compare", action="store_true", help="also compile each kernel with TIRx and show its verdict")
    p.add_argument("--arch", default="sm_90", help="arch of kernels that do not name one (default sm_90)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="bound on each query (default 10)")
    p.add_argument("--json", action="store_true", help="one JSON object: summary, cases, build errors")


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def main(args) -> int:
    if args.from_json:
        data = load_extraction(args.file)
    else:
        data = extract(args.file, args.tirx_python, args.arch, compile=args.compare)
    if args.save_extraction:
        try:
            Path(args.save_extraction).write_text(json.dumps(data, indent=1) + "\n")
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror}", args.save_extraction) from None
    cases, errors = translate(data, data.get("file", args.file))
    for c in cases:
        prove_case(c, args.timeout)
    if args.emit_toml:
        out = Path(args.emit_toml)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for c in cases:
                if c.check is not None:
                    (out / _slug(f"{c.kernel}_apply{c.index}.toml")).write_text(
                        to_toml(c.check, f"extracted by tilecheck tirx from {c.where} ({c.kernel}, apply[{c.index}])"))
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror}", args.emit_toml) from None
    summ = summary(cases, errors, data.get("source_sites"))
    if args.json:
        print(json.dumps({"file": data.get("file", args.file), "tirx_version": data.get("tirx_version"),
                          "summary": summ, "build_errors": errors,
                          "cases": [{"where": c.where, "kernel": c.kernel, "index": c.index, "opcode": c.opcode,
                                     "scope": c.scope, "tirx": c.tirx, **c.result} for c in cases]}, indent=1))
    else:
        for c in cases:
            r = c.result
            head = f"{c.where}: {c.kernel} apply[{c.index}] {c.opcode} ({c.scope or '?'} scope): {r['verdict']}"
            if r["verdict"] in ("refuted", "unknown"):
                head += f" [{', '.join(r['failed'])}]"
            if c.tirx:
                head += f"  (TIRx: {c.tirx['verdict']})"
            print(head)
            if r["verdict"] == "unsupported":
                print(f"    - {r['reason']}")
            elif "message" in r:
                print(f"    - {r['message']}")
        for e in errors:
            print(f"{data.get('file', args.file)}: {e.get('kernel')}: not built by TIRx ({e.get('stage', '?')}): "
                  f"{e['message'][:200]}")
        print(f"{summ['applies']} applies ({summ['source_sites']} apply sites in the source): "
              f"{summ['proved']} proved, {summ['refuted']} refuted, {summ['unknown']} unknown, "
              f"{summ['unsupported']} unsupported; {summ['build_errors']} kernels TIRx did not build")
    verdicts = [c.result["verdict"] for c in cases]
    if "refuted" in verdicts:
        return 1
    if "unknown" in verdicts:
        return 3
    if not cases:
        return 2 if errors else 0
    return 0
