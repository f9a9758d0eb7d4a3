#!/usr/bin/env python3
"""Extract the ld/st tile applications of TIRx kernels as JSON (runs where ``tvm_tirx`` imports).

  python tirx_extract.py FILE.py [--arch sm_90] [--compile]

This script imports only the standard library and ``tvm_tirx`` (apache-tvm-tirx 0.1.0a4), never
tilecheck, so it runs in the peer's own virtual environment (``bash bench/peer_env.sh``); tilecheck's
``tilecheck tirx`` runs it through a subprocess there and translates its output
(``tilecheck/frontends/tirx.py``). It prints one JSON object:

  {"extractor": 1, "tirx_version", "file", "source_sites": [line, ...],   # `tile.apply(` calls in FILE
   "kernels": [{"name", "line", "arch", "grid": [e, e, e], "block": [e, e, e],
                "symbols": {name: {"kind": "dynamic"|"param"|"ctaid.x"|"ctaid.y"|"ctaid.z"|"loop",
                                   "begin"?, "end"?, "line"?}},
                "assume": [expr, ...], "assume_skipped": [text, ...],
                "tensors": {name: {"dtype", "scope", "shape": [e], "dims": [[[extent, stride, axis], ...], ...],
                                   "replica": [...], "offset": {axis: e}, "align", "line"}},
                "applies": [{"line", "col", "file"? (when not FILE), "opcode", "scope", "operands": [{"tensor", "region": [[begin, extent]]}],
                             "options": {name: text}, "conditions": [text], "unsupported"?: reason}],
                "tirx": {"verdict": "accepted"|"rejected", "message"}?}],         # with --compile
   "errors": [{"kernel", "line"?, "message"}]}

An expression ``e`` is an int or a string over symbol names with + - * // % (TIRx's floordiv and
floormod), already parenthesised. Kernels are the module's TIRx functions: top-level ``@T.function``
objects, IRModules' functions, and the values of top-level dicts that are functions or
``(arch, function-or-zero-argument-builder)`` pairs (as bench/peer_tirx.py's CASES).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import runpy
import sys

import tvm_tirx
from tvm_tirx.tirx.function import Function

BIN = {"Add": "+", "Sub": "-", "Mul": "*", "FloorDiv": "//", "FloorMod": "%"}
CMP = {"GE": ">=", "GT": ">", "LE": "<=", "LT": "<", "EQ": "==", "NE": None}
SCOPES = {"cuda.thread": "thread", "cuda.warp": "warp", "cuda.cta": "cta"}


class Unsupported(Exception):
    pass


def _seq(v):
    if hasattr(v, "fields"):
        return list(v.fields)
    return list(v) if type(v).__name__ in ("Array", "list", "tuple") else [v]


def _source(node):
    """The file of a node's source location (a builder may live in another module)."""
    loc = str(getattr(node, "loc", "") or "")
    if "SourceName(" not in loc:
        return None
    return loc.split("SourceName(", 1)[1].rsplit(",", 1)[0].split(",")[0].strip() or None


def _line(node):
    loc = getattr(node, "loc", None)
    if loc is None:
        return None, None
    parts = str(loc).rsplit(")", 1)[0].split(",")
    try:
        return int(parts[-4]), int(parts[-3])
    except (ValueError, IndexError):
        return None, None


class Kernel:
    def __init__(self, func, name, arch, path=""):
        self.func, self.name, self.arch, self.path = func, name, arch, path
        self.symbols, self.names, self.inline = {}, {}, {}
        self.tensors, self.tensor_names = {}, {}
        self.applies, self.assume, self.assume_skipped = [], [], []
        self.grid, self.block = [1, 1, 1], [1, 1, 1]
        self.scalar_params = set()
        for p in func.params:
            if type(p.ty).__name__ != "TensorType":
                self.scalar_params.add(self._key(p))

    @staticmethod
    def _key(var):
        return var.id_ if hasattr(var, "id_") else id(var)

    def _name(self, var, table):
        key = self._key(var)
        if key not in table:
            base = str(getattr(var, "name", "v")) or "v"
            base = "".join(c if c.isalnum() or c == "_" else "_" for c in base)
            if not base[0].isalpha():
                base = "v_" + base
            taken = set(self.names.values()) | set(self.tensor_names.values())
            name, k = base, 1
            while name in taken:
                name, k = f"{base}_{k}", k + 1
            table[key] = name
        return table[key]

    # expressions -------------------------------------------------------------------
    def expr(self, e):
        t = type(e).__name__
        if isinstance(e, bool):
            raise Unsupported("boolean where an integer is expected")
        if isinstance(e, int):
            return e
        if t == "IntImm":
            return int(e.value)
        if t in ("Var", "SizeVar"):
            key = self._key(e)
            if key in self.inline:
                return self.inline[key]
            name = self._name(e, self.names)
            if name not in self.symbols:
                kind = "param" if key in self.scalar_params else "dynamic"
                self.symbols[name] = {"kind": kind}
            return name
        if t in BIN:
            a, b = self.expr(e.a), self.expr(e.b)
            if isinstance(a, int) and isinstance(b, int):
                if BIN[t] in ("//", "%") and b == 0:
                    raise Unsupported(f"{t} by zero")
                return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0, "%": a % b if b else 0}[BIN[t]]
            return f"({a} {BIN[t]} {b})"
        raise Unsupported(f"expression {t} ({e}) is not + - * // % of integers and symbols")

    def fact(self, c):
        t = type(c).__name__
        if t == "And":
            return self.fact(c.a) + self.fact(c.b)
        op = CMP.get(t)
        if op is None:
            raise Unsupported(f"fact {t} ({c}) is not a comparison")
        return [f"{self.expr(c.a)} {op} {self.expr(c.b)}"]

    # statements ---------------------------------------------------------------------
    def walk(self, s, loops=(), conds=()):
        t = type(s).__name__
        if t == "SeqStmt":
            for x in s.seq:
                self.walk(x, loops, conds)
        elif t == "RegionStmt":
            if str(s.op.name if hasattr(s.op, "name") else s.op).endswith("device_entry"):
                args = list(s.args)
                self.grid = [self._safe(a) for a in args[:3]]
                self.block = [self._safe(a) for a in args[3:6]]
            self.walk(s.body, loops, conds)
        elif t == "Bind":
            self.bind(s)
        elif t == "For":
            name = self._name(s.var, self.names)
            ln, _ = _line(s)
            try:
                step = self.expr(s.step) if getattr(s, "step", None) is not None else 1
                self.symbols[name] = {"kind": "loop", "begin": self.expr(s.begin), "end": self.expr(s.end),
                                      "step": step, "line": ln}
            except Unsupported as e:
                self.symbols[name] = {"kind": "loop", "unsupported": str(e), "line": ln}
            self.walk(s.body, loops + (name,), conds)
        elif t == "IfThenElse":
            cond = str(s.condition)
            self.walk(s.then_case, loops, conds + (cond,))
            if getattr(s, "else_case", None) is not None:
                self.walk(s.else_case, loops, conds + (f"not ({cond})",))
        elif t == "Evaluate":
            self.evaluate(s, conds)
        else:
            for k in ("body", "seq", "block"):
                v = getattr(s, k, None)
                if v is not None:
                    for x in _seq(v):
                        self.walk(x, loops, conds)

    def _safe(self, e):
        try:
            return self.expr(e)
        except Unsupported:
            return str(e)

    def bind(self, s):
        v = s.value
        if type(v).__name__ == "Call" and str(getattr(v.op, "name", v.op)).endswith("cuda.block_idx"):
            dim = str(v.args[0].value if hasattr(v.args[0], "value") else v.args[0])
            name = self._name(s.var, self.names)
            self.symbols[name] = {"kind": f"ctaid.{dim}", "line": _line(s)[0]}
        elif type(v).__name__ == "Call" and str(getattr(v.op, "name", v.op)).endswith(("decl_tensor", "alloc_tensor")):
            self._tensor_line = getattr(self, "_tensor_line", {})
            self._tensor_line[self._key(s.var)] = _line(s)[0]
        else:
            try:
                self.inline[self._key(s.var)] = self.expr(v)
            except Unsupported:
                pass  # a binding that never reaches a tile operand does not matter

    def evaluate(self, s, conds):
        c = s.value
        if type(c).__name__ != "Call":
            return
        op = str(getattr(c.op, "name", c.op))
        if op.endswith("assume"):
            try:
                self.assume += self.fact(c.args[0])
            except Unsupported as e:
                self.assume_skipped.append(f"{c.args[0]}: {e}")
            return
        if not op.endswith("cuda.tile.apply"):
            return
        line, col = _line(s)
        rec = {"line": line, "col": col, "conditions": list(conds)}
        src = _source(s)
        if src and os.path.abspath(src) != self.path:
            rec["file"] = os.path.relpath(src)
        try:
            rec["opcode"] = str(c.args[0].value)
            scope = getattr(getattr(c, "attrs", None), "scope", None)
            rec["scope_raw"] = None if scope is None else str(scope)
            rec["operands"] = []
            rec["options"] = {}
            for pair in _seq(c.args[2]):
                k, v = _seq(pair)
                rec["options"][str(k.value if hasattr(k, "value") else k)] = str(v)
            for r in _seq(c.args[1]):
                rec["operands"].append(self.operand(r))
        except Unsupported as e:
            rec["unsupported"] = str(e)
        except Exception as e:  # an IR shape this extractor does not know
            rec["unsupported"] = f"extraction failed: {type(e).__name__}: {e}"
        self.applies.append(rec)

    def operand(self, r):
        if type(r).__name__ != "TensorRegion":
            raise Unsupported(f"operand {type(r).__name__} ({r}) is not a tensor region")
        name = self.tensor(r.source)
        return {"tensor": name, "region": [[self.expr(g.begin), self.expr(g.extent)] for g in r.region]}

    def tensor(self, var):
        name = self._name(var, self.tensor_names)
        if name in self.tensors:
            return name
        ty = var.ty
        layout = ty.layout if ty.layout is not None else ty.effective_layout()
        shape = list(ty.shape)
        grouped, seps = layout.group(shape)
        seps = list(seps)
        shard = list(grouped.shard)
        dims = []
        for k in range(len(shape)):
            dims.append([[self.expr(it.extent), self.expr(it.stride), str(it.axis).rsplit(".", 1)[-1]]
                         for it in shard[int(seps[k]):int(seps[k + 1])]])
        offset = {}
        for k, v in dict(grouped.offset).items():
            offset[str(k).rsplit(".", 1)[-1]] = self.expr(v)
        scope = str(ty.scope)
        self.tensors[name] = {
            "dtype": str(ty.dtype), "scope": scope, "shape": [self.expr(x) for x in shape], "dims": dims,
            "replica": [str(it) for it in grouped.replica], "offset": offset,
            "align": int(ty.data_alignment) if ty.data_alignment is not None else None,
            "line": getattr(self, "_tensor_line", {}).get(self._key(var)),
        }
        return name

    def run(self):
        self.walk(self.func.body)
        for a in self.applies:
            raw = a.pop("scope_raw", None)
            if raw is not None:
                s = raw.split('"')[1] if '"' in raw else raw
                a["scope"] = SCOPES.get(s, s)
        out = {"name": self.name, "line": _line(self.func)[0], "arch": self.arch, "grid": self.grid,
               "block": self.block, "symbols": self.symbols, "assume": self.assume,
               "assume_skipped": self.assume_skipped, "tensors": self.tensors, "applies": self.applies}
        return out


def source_sites(path):
    """Lines of the calls ``….tile.apply(…)`` in the file's text."""
    try:
        tree = ast.parse(open(path).read(), path)
    except (OSError, SyntaxError):
        return []
    out = []
    for node in ast.walk(tree):
        f = getattr(node, "func", None)
        if isinstance(node, ast.Call) and isinstance(f, ast.Attribute) and f.attr == "apply" \
                and isinstance(f.value, ast.Attribute) and f.value.attr == "tile":
            out.append(node.lineno)
    return sorted(out)


def collect(ns, arch):
    """(name, arch, function or zero-argument builder) for every kernel in the module namespace."""
    found = []
    for name, v in ns.items():
        if name.startswith("__"):
            continue
        if isinstance(v, Function):
            found.append((name, arch, v))
        elif type(v).__name__ == "IRModule":
            for gv, f in v.functions.items():
                if isinstance(f, Function):
                    found.append((f"{name}.{gv.name_hint}", arch, f))
        elif isinstance(v, dict):
            for k, x in v.items():
                if isinstance(x, Function):
                    found.append((str(k), arch, x))
                elif isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) and x[0].startswith("sm_") \
                        and (isinstance(x[1], Function) or callable(x[1])):
                    found.append((str(k), x[0], x[1]))
    return found


def message(e):
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    keep = [ln for ln in lines if not ln.startswith(("call:", "File ", "Traceback"))]
    return f"{type(e).__name__}: " + " | ".join(keep)[-400:]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--arch", default="sm_90", help="arch of kernels that do not name one (default sm_90)")
    p.add_argument("--compile", action="store_true", help="also record TIRx's own verdict (tvm_tirx.tirx.compile)")
    a = p.parse_args(argv)
    path = os.path.abspath(a.file)
    out = {"extractor": 1, "tirx_version": getattr(tvm_tirx, "__version__", "?"), "file": a.file,
           "source_sites": source_sites(path), "kernels": [], "errors": []}
    sys.path.insert(0, os.path.dirname(path))
    try:
        ns = runpy.run_path(path, run_name="__tilecheck_tirx__")
    except BaseException as e:  # the user's module failed to import: one error, no kernels
        out["errors"].append({"kernel": None, "message": f"cannot run {a.file}: {message(e)}"})
        print(json.dumps(out))
        return 0
    for name, arch, obj in collect(ns, a.arch):
        try:
            func = obj if isinstance(obj, Function) else obj()
        except Exception as e:  # e.g. T.ptx["ld.global.v4.f16"] is refused while the script is built
            out["errors"].append({"kernel": name, "arch": arch, "stage": "build", "message": message(e)})
            continue
        if not isinstance(func, Function):
            continue
        try:
            rec = Kernel(func, name, arch, path).run()
        except Exception as e:
            out["errors"].append({"kernel": name, "arch": arch, "stage": "extract", "message": message(e)})
            continue
        if a.compile:
            try:
                tvm_tirx.tirx.compile(func, target=tvm_tirx.target.Target({"kind": "cuda", "arch": arch}))
                rec["tirx"] = {"verdict": "accepted", "message": ""}
            except Exception as e:
                rec["tirx"] = {"verdict": "rejected", "message": message(e)}
        out["kernels"].append(rec)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
