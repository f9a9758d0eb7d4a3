"""Descriptor check files: ``python -m tilecheck.descriptor_file FILE [--json]``.

A small TOML form of its own until the wgmma family brings descriptors into the check file
(``docs/wgmma.md``): symbols, shared tensors with their byte address, and ``[descriptors.NAME]``,
each decided by ``tilecheck/proofs/smem_descriptor.py``.  Exit status as ``tilecheck prove``'s: 0 every
obligation proved, 1 one refuted, 2 bad input (one line naming the place), 3 one unknown.

    arch = "sm_90"                      # sm_90 (wgmma) or sm_100 (tcgen05)
    [symbols.a]                         # unsigned 64-bit; min, max, multiple_of
    multiple_of = 1024
    max = 130048
    [tensors.SA]
    dtype = "float16"                   # float16, bfloat16, tf32, float32, float8_e4m3, float8_e5m2, int8, uint8
    layout = "Sw<3,3,3> o (64,64):(64,1)"   # (MN, K) -> element offset, tilecheck's Sw on element offsets
    address = "a"                       # byte address in shared memory: where the swizzle pattern starts
    [descriptors.DA]
    tensor = "SA"
    major = "K"                         # K or MN
    tile = [64, 16]                     # one instruction's (MN, K)
    swizzle = "128B"                    # none, 32B, 64B, 128B; sm_100 also 128B_base32B
    start = "a"                         # bytes, as the code passes them to matrix-descriptor-encode
    lbo = 16
    sbo = 1024
    base_offset = 0
    word = "..."                        # optional: the 64-bit word as the code computes it
    advance = [32, 64, 96]              # optional: each next K step's start advance, in bytes
    lbo_mode = 0                        # sm_100: 0 relative LBO, 1 absolute (LBO the address of K's rest)

    [idesc.I]                           # tcgen05.mma's 32-bit instruction descriptor (sm_100)
    kind = "f16"                        # f16, tf32, f8f6f4, i8
    cta_group = 1                       # 1 or 2
    m = 128                             # the intended M and N (may be expressions)
    n = "n"
    d = "f32"                           # the meaning, encoded (m_dim = M >> 4, n_dim = N >> 3) ...
    a = "bf16"
    b = "bf16"                          # a_major, b_major ("K"/"MN"), a_negate, b_negate, saturate, sparse, ...
    # word = "..."                      # ... or the 32-bit word as the code computes it

Integers may be expressions over the symbols (``+ - * // % << >> & | ^``, parentheses).
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
import tomllib

import z3

from . import smem_descriptor as sd
from .errors import InputError
from .layout import parse_layout
from . import tcgen05_idesc as idesc_model
from .proofs import smem_descriptor as obligations
from .proofs import tcgen05_idesc as idesc_proofs
from .verdict import Verdict

ELEMENT_BITS = {"float16": 16, "bfloat16": 16, "tf32": 32, "float32": 32, "float8_e4m3": 8, "float8_e5m2": 8,
                "int8": 8, "uint8": 8}
_TOP = {"arch", "symbols", "tensors", "descriptors", "idesc"}
_IDESC = {"kind", "cta_group", "m", "n", "word", "d", "a", "b", "a_major", "b_major", "a_negate", "b_negate", "saturate",
          "sparse", "sparse_id2", "max_shift"}
_SYMBOL = {"min", "max", "multiple_of"}
_TENSOR = {"dtype", "layout", "address", "offset"}
_DESCRIPTOR = {"tensor", "major", "tile", "swizzle", "start", "lbo", "sbo", "base_offset", "word", "advance", "lbo_mode"}
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.FloorDiv: lambda a, b: z3.UDiv(a, b), ast.Mod: lambda a, b: z3.URem(a, b),
        ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: z3.LShR(a, b),
        ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b}


def _keys(spec, allowed, where):
    if not isinstance(spec, dict):
        raise InputError("must be a table", where)
    for k in spec:
        if k not in allowed:
            raise InputError(f"unknown key {k!r} (allowed: {', '.join(sorted(allowed))})", where)


def _int_expr(value, symbols: dict, where: str):
    """An int, or a Z3 64-bit term for an expression over the symbols."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{value!r} is not an integer or an expression", where)
    if isinstance(value, int):
        if not 0 <= value < 2**64:
            raise InputError(f"{value} is not an unsigned 64-bit integer", where)
        return value
    try:
        tree = ast.parse(value, mode="eval").body
    except SyntaxError:
        raise InputError(f"cannot parse the expression {value!r}", where) from None

    def walk(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return z3.BitVecVal(node.value, 64)
        if isinstance(node, ast.Name):
            if node.id not in symbols:
                raise InputError(f"unknown symbol {node.id!r} in {value!r}", where)
            return symbols[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        raise InputError(f"{value!r}: only integers, symbols and + - * // % << >> & | ^ are allowed", where)
    out = z3.simplify(walk(tree))
    return out.as_long() if z3.is_bv_value(out) else out


def load(data: dict, path: str = "<descriptors>") -> list[obligations.Declaration]:
    """The declarations of a descriptor check file's data; InputError names the place of bad input."""
    _keys(data, _TOP, path)
    arch = data.get("arch", "sm_90")
    if arch not in sd.ARCHES:
        raise InputError(f"arch {arch!r}: sm_90 (wgmma) or sm_100 (tcgen05)", f"{path}: arch")
    symbols, facts = _symbols(data, path)
    return _descriptors(data, path, arch, symbols, facts)


def _symbols(data: dict, path: str):
    """The file's symbols (name -> 64-bit Z3 constant) and their facts."""
    symbols, facts = {}, []
    for name, spec in data.get("symbols", {}).items():
        where = f"{path}: symbols.{name}"
        _keys(spec, _SYMBOL, where)
        if not name.isidentifier():
            raise InputError(f"symbol name {name!r} is not an identifier", where)
        x = symbols[name] = z3.BitVec(name, 64)
        for key, fact in (("min", lambda v: z3.UGE(x, v)), ("max", lambda v: z3.ULE(x, v)),
                          ("multiple_of", lambda v: z3.URem(x, v) == 0)):
            if key in spec:
                v = spec[key]
                if isinstance(v, bool) or not isinstance(v, int) or v < (1 if key == "multiple_of" else 0):
                    raise InputError(f"{key} must be a {'positive' if key == 'multiple_of' else 'non-negative'} integer",
                                     f"{where}.{key}")
                facts.append(fact(v))
    s = z3.Solver()
    s.add(*facts)
    if s.check() != z3.sat:
        raise InputError("the symbols' facts cannot all hold", f"{path}: symbols")
    return symbols, facts


def _descriptors(data: dict, path: str, arch: str, symbols: dict, facts: list) -> list:
    tensors = {}
    for name, spec in data.get("tensors", {}).items():
        where = f"{path}: tensors.{name}"
        _keys(spec, _TENSOR, where)
        if spec.get("dtype") not in ELEMENT_BITS:
            raise InputError(f"dtype {spec.get('dtype')!r}: one of {', '.join(ELEMENT_BITS)}", f"{where}.dtype")
        if "layout" not in spec:
            raise InputError("needs a layout", where)
        try:
            lay = parse_layout(spec["layout"])
        except InputError as e:
            raise e.at(f"{where}.layout") from None
        if lay.symbols() or lay.thread_axes() or lay.rank != 2:
            raise InputError(f"layout {lay}: a descriptor's tensor has a concrete (MN, K) layout of two modes "
                             "(the address and the descriptor's fields may be symbolic)", f"{where}.layout")
        offset = spec.get("offset", 0)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InputError("offset must be a non-negative integer (elements)", f"{where}.offset")
        tensors[name] = obligations.Operand(lay, ELEMENT_BITS[spec["dtype"]],
                                            _int_expr(spec.get("address", 0), symbols, f"{where}.address"), offset, name)
    out = []
    for name, spec in data.get("descriptors", {}).items():
        where = f"{path}: descriptors.{name}"
        _keys(spec, _DESCRIPTOR, where)
        for key in ("tensor", "major", "tile", "swizzle", "start", "lbo", "sbo"):
            if key not in spec:
                raise InputError(f"needs {key!r}", where)
        if spec["tensor"] not in tensors:
            raise InputError(f"unknown tensor {spec['tensor']!r}", f"{where}.tensor")
        if spec["major"] not in sd.MAJORS:
            raise InputError(f"major {spec['major']!r}: 'K' or 'MN'", f"{where}.major")
        tile = spec["tile"]
        if not (isinstance(tile, list) and len(tile) == 2 and all(isinstance(t, int) and not isinstance(t, bool)
                                                                 and t > 0 for t in tile)):
            raise InputError("tile must be [MN, K], two positive integers", f"{where}.tile")
        ints = {k: _int_expr(spec.get(k, d), symbols, f"{where}.{k}")
                for k, d in (("start", 0), ("lbo", 0), ("sbo", 0), ("base_offset", 0), ("lbo_mode", 0))}
        try:
            fields = sd.Fields(ints["start"], ints["lbo"], ints["sbo"], ints["base_offset"], spec["swizzle"], arch,
                               ints["lbo_mode"])
        except ValueError as e:
            raise InputError(str(e), f"{where}.swizzle") from None
        op = tensors[spec["tensor"]]
        try:  # an invalid (major, mode, width) combination is the obligations' to refute, not bad input
            if sd.combination_problem(spec["major"], fields.swizzle, op.elem_bits, arch) is None:
                sd.check_tile(spec["major"], fields.swizzle, op.elem_bits, tuple(tile), arch,
                              ints["lbo_mode"] if isinstance(ints["lbo_mode"], int) else 0)
        except ValueError as e:
            raise InputError(str(e), f"{where}.tile") from None
        word = _int_expr(spec["word"], symbols, f"{where}.word") if "word" in spec else None
        advance = spec.get("advance", [])
        if not isinstance(advance, list):
            raise InputError("advance must be a list of byte advances", f"{where}.advance")
        advance = tuple(_int_expr(a, symbols, f"{where}.advance[{k}]") for k, a in enumerate(advance))
        out.append(obligations.Declaration(name, op, spec["major"], fields, tuple(tile), word, advance, tuple(facts)))
    if not out and not data.get("idesc"):
        raise InputError("the file needs at least one [descriptors.NAME] or [idesc.NAME] table", path)
    return out


def load_idesc(data: dict, path: str = "<descriptors>") -> list:
    """The instruction descriptors (``[idesc.NAME]``, tcgen05's 32-bit ``idesc``) of a descriptor check
    file's data, as ``proofs/tcgen05_idesc.Instruction``s: the word as written (``word``, an expression
    over the symbols) or encoded from its meaning (``d``, ``a``, ``b`` type names, majors, flags, ``m``,
    ``n``); ``m``/``n`` are the intended shape either way.  InputError names the place of bad input."""
    _keys(data, _TOP, path)
    symbols, facts = _symbols(data, path)
    out = []
    for name, spec in data.get("idesc", {}).items():
        where = f"{path}: idesc.{name}"
        _keys(spec, _IDESC, where)
        kind = spec.get("kind")
        if kind not in idesc_model.KINDS:
            raise InputError(f"kind {kind!r}: one of {', '.join(idesc_model.KINDS)}", f"{where}.kind")
        group = spec.get("cta_group", 1)
        if group not in idesc_model.CTA_GROUPS or isinstance(group, bool):
            raise InputError(f"cta_group {group!r}: 1 or 2", f"{where}.cta_group")
        m = _int_expr(spec["m"], symbols, f"{where}.m") if "m" in spec else None
        n = _int_expr(spec["n"], symbols, f"{where}.n") if "n" in spec else None
        if "word" in spec:
            extra = sorted(set(spec) & (_IDESC - {"kind", "cta_group", "m", "n", "word"}))
            if extra:
                raise InputError(f"give the word or its meaning, not both ({', '.join(extra)} with word)", where)
            word = _int_expr(spec["word"], symbols, f"{where}.word")
        else:
            if m is None or n is None:
                raise InputError("needs 'word', or the meaning: 'm', 'n', 'd', 'a', 'b'", where)
            word = idesc_model.pack_raw(_idesc_raw(spec, kind, m, n, where))
        out.append(idesc_proofs.Instruction(name, kind, word, group, m, n, tuple(facts)))
    return out


def _idesc_raw(spec: dict, kind: str, m, n, where: str) -> dict:
    raw = {"m_dim": z3.LShR(m, 4) if not isinstance(m, int) else m >> 4,
           "n_dim": z3.LShR(n, 3) if not isinstance(n, int) else n >> 3}
    for key, field, table in (("d", "d_format", idesc_model.D_FORMATS[kind]), ("a", "a_format", idesc_model.AB_FORMATS[kind]),
                              ("b", "b_format", idesc_model.AB_FORMATS[kind])):
        if spec.get(key) not in table:
            raise InputError(f"{key} = {spec.get(key)!r}: kind::{kind} takes {', '.join(table)}", f"{where}.{key}")
        raw[field] = table[spec[key]]
    for key in ("a_major", "b_major"):
        v = spec.get(key, "K")
        if v not in idesc_model.MAJORS:
            raise InputError(f"{key} = {v!r}: 'K' or 'MN'", f"{where}.{key}")
        raw[key] = idesc_model.MAJORS.index(v)
    for key in ("a_negate", "b_negate", "saturate", "sparse", "sparse_id2", "max_shift"):
        v = spec.get(key, 0)
        width = idesc_model.WIDTHS[key]
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 1 << width:
            raise InputError(f"{key} = {v!r}: an integer in [0, {(1 << width) - 1}]", f"{where}.{key}")
        raw[key] = v
    return raw


def prove_file(path: str, timeout_s: float = 10.0) -> dict:
    """``{descriptor name: [Outcome, ...]}`` for a descriptor check file; an instruction descriptor's
    outcomes under ``idesc.NAME``."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", path) from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"not TOML: {e}", path) from None
    out = {d.name: obligations.decide(d, timeout_s=timeout_s) for d in load(data, path)}
    out.update({f"idesc.{i.name}": idesc_proofs.decide(i, timeout_s=timeout_s) for i in load_idesc(data, path)})
    return out


def status(results: dict) -> int:
    verdicts = {o.status for outs in results.values() for o in outs}
    return 1 if Verdict.REFUTED in verdicts else 3 if Verdict.UNKNOWN in verdicts else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tilecheck.descriptor_file",
                                description="prove the shared-memory matrix descriptors of a descriptor check file")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--timeout", type=float, default=10.0)
    args = p.parse_args(argv)
    try:
        results = prove_file(args.file, args.timeout)
    except InputError as e:
        print(json.dumps({"verdict": "error", "error": {"message": e.message, "where": e.where}}) if args.json
              else f"{e}", file=sys.stdout if args.json else sys.stderr)
        return 2
    code = status(results)
    if args.json:
        print(json.dumps({"verdict": {0: "proved", 1: "refuted", 3: "unknown"}[code],
                          "descriptors": {n: [o.to_json() for o in outs] for n, outs in results.items()
                                          if not n.startswith("idesc.")},
                          "idesc": {n[6:]: [o.to_json() for o in outs] for n, outs in results.items()
                                    if n.startswith("idesc.")}}))
        return code
    print(f"{args.file}: {({0: 'proved', 1: 'refuted', 3: 'unknown'})[code]}")
    for name, outs in results.items():
        print(f"  idesc {name[6:]}:" if name.startswith("idesc.") else f"  descriptor {name}:")
        for o in outs:
            print(f"    {o.name:22s} {o.status}" + (f" ({o.message})" if o.status == Verdict.SKIPPED else ""))
        for o in outs:
            if o.message and o.status in (Verdict.REFUTED, Verdict.UNKNOWN):
                print(f"    - {o.message}")
    return code


if __name__ == "__main__":
    sys.exit(main())
