"""The bad-input corpus (issue 32 item 6, issue 33 item 3): every input below is exit 2 with one line
on standard error that names the file, the line of the offending key (where the file has it), the
place and the problem, never a traceback; and the exit status of a pipeline keeps the verdict.

The corpus is generated from tables: each case is one edit of a good check file (``BASE``), and the
line the error must name is the first line the edit changed, unless the case says otherwise."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tilecheck.cli import main

ROOT = Path(__file__).resolve().parents[1]

BASE = '''arch = "sm_90"
threads = 1
assume = ["n >= 8"]

[symbols.n]
min = 8
max = 1024

[tensors.A]
dtype = "float32"
scope = "global"
shape = [15, 2, 7, 2]
layout = "(15,2,7,2):(4,1,60,2)"
align = 16
offset = 0

[tensors.R]
dtype = "float32"
scope = "register"
shape = [15, 2, 7, 2]
layout = "(15,2,7,2):(8,2,120,4)"

[[apply]]
opcode = "ld.global.v4.b32"
scope = "thread"
dst = "R: i b j d -> j i (d b)"
src = "A: i b j d -> j i (d b)"
'''
BIG = "9" * 400
LONG = "x" * 80_000

# --- A. every integer key against values no integer key takes (TOML's and PTX's 64 bits included) ---
INT_KEYS = {  # key line in BASE -> (its text with {} for the value, the place the error must name)
    "threads = 1": ("threads = {}", "threads"),
    "min = 8": ("min = {}", "symbols.n"),
    "max = 1024": ("max = {}", "symbols.n"),
    "align = 16": ("align = {}", "align"),
    "offset = 0": ("offset = {}", "offset"),
    "shape = [15, 2, 7, 2]\nlayout = \"(15,2,7,2):(4,1,60,2)\"": ("shape = [{}, 2, 7, 2]", "shape"),
}
BAD_INTS = {
    "past 64 bits": "18446744073709551616",
    "-2**64": "-18446744073709551616",
    "2**70": "1180591620717411303424",
    "hex past 64 bits": "0x7fffffffffffffffffff",
    "float": "1.5",
    "exponent": "1e26",
    "bool": "true",
    "array": "[]",
    "inline table": "{ a = 1 }",
    "date": "1979-05-27",
    "400 digits": BIG,
}
# a layout string is an expression too: its strides and shapes are PTX's 64-bit integers
BAD_LAYOUT_INTS = ["18446744073709551616", "-18446744073709551616", BIG]
# a symbol is a .s64 kernel parameter: 2**63 is a u64 but not one of its values
S64_CASES = {"min below -2**63": ("min = 8", "min = -9223372036854775809", "symbols.n.min"),
             "min 2**63": ("min = 8", "min = 9223372036854775808", "symbols.n.min"),
             "max 2**63": ("max = 1024", "max = 9223372036854775808", "symbols.n.max"),
             "multiple_of 2**63": ("max = 1024", "max = 1024\nmultiple_of = 9223372036854775808",
                                   "symbols.n.multiple_of")}

# --- B. every string key against values it cannot take ---
STR_KEYS = {
    'arch = "sm_90"': ('arch = {}', "arch"),
    'dtype = "float32"': ('dtype = {}', "dtype"),
    'scope = "global"': ('scope = {}', "scope"),
    'layout = "(15,2,7,2):(4,1,60,2)"': ('layout = {}', "layout"),
    'opcode = "ld.global.v4.b32"': ('opcode = {}', "opcode"),
    'scope = "thread"': ('scope = {}', "scope"),
    'dst = "R: i b j d -> j i (d b)"': ('dst = {}', "dst"),
    'src = "A: i b j d -> j i (d b)"': ('src = {}', "src"),
}
BAD_STRS = {
    "empty": '""',
    "question mark": '"?"',
    "80 KB": f'"{LONG}"',
    "integer": "1",
    "array": '["a"]',
    "inline table": "{ a = 1 }",
    "non-ASCII": '"\u00e9\u00e9"',
}

# --- C. one case each: (old, new, words the line must contain[, the line when not the first changed]) ---
ONE = {
    "unknown top key": ("threads = 1", "threads = 1\nthread = 2", "unknown key 'thread'"),
    "unknown symbol key": ("max = 1024", "max = 1024\nmaximum = 4", "unknown key 'maximum'"),
    "unknown tensor key": ("align = 16", "align = 16\nalignment = 4", "unknown key 'alignment'"),
    "unknown apply key": ('scope = "thread"', 'scope = "thread"\nscop = 1', "unknown key 'scop'"),
    "missing dtype": ('dtype = "float32"\nscope = "global"', 'scope = "global"', "missing key 'dtype'", 9),
    "missing scope": ('scope = "global"\n', '', "missing key 'scope'", 9),
    "missing shape": ('shape = [15, 2, 7, 2]\nlayout = "(15,2,7,2):(4', 'layout = "(15,2,7,2):(4', "missing key 'shape'", 9),
    "missing opcode": ('opcode = "ld.global.v4.b32"\n', '', "missing key 'opcode'", 23),
    "missing dst": ('dst = "R: i b j d -> j i (d b)"\n', '', "missing key 'dst'", 23),
    "missing src": ('src = "A: i b j d -> j i (d b)"\n', '', "missing key 'src'", 23),
    "version 2": ('arch = "sm_90"', 'version = 2\narch = "sm_90"', "unsupported check file version"),
    "threads 0": ("threads = 1", "threads = 0", "1..1024"),
    "threads 2048": ("threads = 1", "threads = 2048", "1..1024"),
    "warp scope, 1 thread": ('scope = "thread"', 'scope = "warp"', "multiple of 32"),
    "min over max": ("min = 8", "min = 2000", "min = 2000 is greater than max = 1024", 5),
    "no multiple in range": ("max = 1024", "max = 9\nmultiple_of = 16", "no value in [8, 9] is a multiple of 16", 5),
    "multiple_of 0": ("max = 1024", "max = 1024\nmultiple_of = 0", "multiple_of must be positive"),
    "warpid with max": ("max = 1024", 'max = 1024\n\n[symbols.w]\nfrom = "warpid"\nmax = 3',
                        'max is not allowed with from = "warpid"', 11),
    "warpid in a fact": ('assume = ["n >= 8"]', 'assume = ["n >= 8", "w < 2"]\n\n[symbols.w]\nfrom = "warpid"',
                         "no fact may restrict it"),
    "tv on a global tensor": ('layout = "(15,2,7,2):(4,1,60,2)"', 'tv = "(4,8):(1,4)"',
                              "tv (a thread-value layout) is for register tensors"),
    "tv broadcast": ('layout = "(15,2,7,2):(8,2,120,4)"', 'tv = "(2,2):(1,0)"',
                     "gives one element to several values"),
    "symbol name": ("[symbols.n]", "[symbols.\"n-1\"]", "not an identifier"),
    "symbol from": ("max = 1024", 'max = 1024\nfrom = "ctaid.w"', "unknown source"),
    "align 0": ("align = 16", "align = 0", "align must be positive"),
    "align on a register": ('layout = "(15,2,7,2):(8,2,120,4)"', 'layout = "(15,2,7,2):(8,2,120,4)"\nalign = 4',
                            "memory tensors only"),
    "shape empty": ("shape = [15, 2, 7, 2]", "shape = []", "non-empty list"),
    "shape zero": ("shape = [15, 2, 7, 2]\nlayout = \"(15,2,7,2):(4", "shape = [0, 2, 7, 2]\nlayout = \"(0,2,7,2):(4",
                   "positive"),
    "undeclared symbol in shape": ("shape = [15, 2, 7, 2]\nlayout = \"(15,2,7,2):(4",
                                   "shape = [\"m\", 2, 7, 2]\nlayout = \"(m,2,7,2):(4", "undeclared symbol 'm'"),
    "register symbolic shape": ('shape = [15, 2, 7, 2]\nlayout = "(15,2,7,2):(8',
                                'shape = ["n", 2, 7, 2]\nlayout = "(n,2,7,2):(8', "must be concrete"),
    "layout rank": ('layout = "(15,2,7,2):(4,1,60,2)"', 'layout = "(15,2,7):(4,1,60)"', "3 modes"),
    "layout extent": ('layout = "(15,2,7,2):(4,1,60,2)"', 'layout = "(15,2,7,3):(4,1,60,2)"', "extent 3"),
    "layout without colon": ('layout = "(15,2,7,2):(4,1,60,2)"', 'layout = "(15,2,7,2)(4,1,60,2)"', "layout"),
    "thread stride on memory": ('layout = "(15,2,7,2):(4,1,60,2)"', 'layout = "(15,2,7,2):(4,1,60,1@laneid)"',
                                "only for register tensors"),
    "unknown thread axis": ('(8,2,120,4)"', '(8,2,120,1@lane)"', "unknown thread axis"),
    "offset undeclared": ("offset = 0", 'offset = "q"', "undeclared symbol 'q'"),
    "offset division by zero": ("offset = 0", 'offset = "n // 0"', "divide only by a concrete positive integer"),
    "offset division by a symbol": ("offset = 0", 'offset = "8 // n"', "divide only by a concrete positive integer"),
    "offset power": ("offset = 0", 'offset = "n ** 2"', "may use only integers"),
    "offset float": ("offset = 0", 'offset = "n + 0.5"', "non-integer constant"),
    "offset call": ("offset = 0", 'offset = "abs(n)"', "may use only integers"),
    "offset too long": ("offset = 0", 'offset = "' + "n+" * 50_001 + 'n"', "too long"),
    "offset too deep": ("offset = 0", 'offset = "' + "(" * 300 + "n" + ")" * 300 + '"', "too deeply nested"),
    "offset degree 40": ("offset = 0", 'offset = "' + "*".join(["n"] * 40) + '"', "degree"),
    "offset 300 bits": ("offset = 0", f'offset = "n + {BIG}"', "out of range"),
    "offset past 64 bits": ("offset = 0", 'offset = "18446744073709551616 + 1"', "out of range"),
    "fact not a comparison": ('assume = ["n >= 8"]', 'assume = ["n + 1"]', "one comparison"),
    "fact chained": ('assume = ["n >= 8"]', 'assume = ["8 <= n <= 9"]', "one comparison"),
    "fact not a string": ('assume = ["n >= 8"]', 'assume = [8]', "a fact must be a string"),
    "fact undeclared": ('assume = ["n >= 8"]', 'assume = ["m >= 8"]', "undeclared symbol 'm'"),
    "assume not a list": ('assume = ["n >= 8"]', 'assume = "n >= 8"', "assume must be a list"),
    "facts contradict": ('assume = ["n >= 8"]', 'assume = ["n >= 2000"]', "cannot all hold", None),
    "wide fact false": ('assume = ["n >= 8"]', f'assume = ["n > {BIG}"]', "holds for no value"),
    "wide fact undecided": ('assume = ["n >= 8"]', f'assume = ["n * {BIG} > {BIG} * 100"]',
                            "cannot encode it exactly"),
    "fact syntax": ('assume = ["n >= 8"]', 'assume = ["n >>= 8"]', "cannot parse fact"),
    "unknown opcode": ('opcode = "ld.global.v4.b32"', 'opcode = "ld.global.v4.b33"', ".b33"),
    "bad vector": ('opcode = "ld.global.v4.b32"', 'opcode = "ld.global.v3.b32"', ".v3"),
    "not a memory instruction": ('opcode = "ld.global.v4.b32"', 'opcode = "add.f32"', "opcode"),
    "cache qualifier": ('opcode = "ld.global.v4.b32"', 'opcode = "ld.global.L1::bogus.v4.b32"', "L1::bogus"),
    "view names": ('src = "A: i b j d -> j i (d b)"', 'src = "A: i b j d -> j i (d c)"', "not named on the left"),
    "view axes": ('src = "A: i b j d -> j i (d b)"', 'src = "A: i b j -> j i b"', "names 3 axes"),
    "view split": ('src = "A: i b j d -> j i (d b)"', 'src = "A: (x=4 y) b j d -> x y j (d b)"', "do not divide"),
    "view unknown tensor": ('src = "A: i b j d -> j i (d b)"', 'src = "B: i b j d -> j i (d b)"', "B"),
    "slice not concrete": ('src = "A: i b j d -> j i (d b)"', 'src = "A[0:n, :, :, :]: i b j d -> j i (d b)"',
                           "no concrete extent"),
    "register slice symbolic": ('dst = "R: i b j d -> j i (d b)"', 'dst = "R[n:n+15, :, :, :]: i b j d -> j i (d b)"',
                                "must be concrete"),
    "unknown arch": ('arch = "sm_90"', 'arch = "sm_9000"', "sm_9000"),
    "require contract": ('threads = 1', 'threads = 1\nrequire = ["alignment"]', "contract obligation already"),
    "require unknown": ('threads = 1', 'threads = 1\nrequire = ["speed"]', "unknown obligation 'speed'"),
    "require not a list": ('threads = 1', 'threads = 1\nrequire = "registers"', "require must be a list"),
    "expect unknown": ('scope = "thread"', 'scope = "thread"\nexpect = { speed = 1 }', "unknown expect key 'speed'"),
    "expect on registers only": ('scope = "thread"', 'scope = "thread"\nexpect = { banks = 4 }', "banks"),
    "expect zero": ('scope = "thread"', 'scope = "thread"\nexpect = { sectors = 0 }', "positive integer"),
    "expect not a table": ('scope = "thread"', 'scope = "thread"\nexpect = 3', "expect must be a table"),
    "pred not a bool": ('scope = "thread"', 'scope = "thread"\npred = 1', "true or false"),
    "guard not a bool": ('scope = "thread"', 'scope = "thread"\nguard = "yes"', "true or false"),
    "symbols not a table": ('[symbols.n]\nmin = 8\nmax = 1024\n', 'symbols = 3\n', "must be a table"),
    "tensors not a table": ('[tensors.R]\ndtype = "float32"', 'tensors = 1\n[tensor.R]\ndtype = "float32"',
                            "unknown key 'tensor'", 18),
    "apply not a list": ('[[apply]]\nopcode', '[apply]\nopcode', "at least one [[apply]]"),
    "no apply": ('[[apply]]\nopcode = "ld.global.v4.b32"\nscope = "thread"\ndst = "R: i b j d -> j i (d b)"\n'
                 'src = "A: i b j d -> j i (d b)"\n', '', "at least one [[apply]]", None),
    "invalid TOML": ("[tensors.A]", "[tensors.A", "invalid TOML"),
    "duplicate key": ("align = 16", "align = 16\nalign = 8", "invalid TOML"),
    "bad escape": ('dtype = "float32"', 'dtype = "float\\q32"', "invalid TOML"),
    "control character": ('dtype = "float32"', 'dtype = "float\x0132"', "invalid TOML"),
    "byte-order mark inside": ("threads = 1", "\ufeffthreads = 1", "invalid TOML"),
    "unclosed string": ('dtype = "float32"', 'dtype = "float32', "invalid TOML"),
    "unclosed array": ("shape = [15, 2, 7, 2]", "shape = [15, 2, 7, 2", "invalid TOML", 13),  # TOML's own line
    "nested arrays 600": ("offset = 0", "offset = " + "[" * 600 + "]" * 600, "nested too deeply"),
    "nested tables 600": ("offset = 0", "offset = " + "{a=" * 600 + "1" + "}" * 600, "nested too deeply"),
    "nested arrays 100": ("offset = 0", "offset = " + "[" * 100 + "]" * 100, "offset"),
    "nested shape 300": ("shape = [15, 2, 7, 2]", "shape = [" + "[" * 300 + "]" * 300 + ", 2, 7, 2]", "shape"),
    "empty file": (BASE, "", "at least one [[apply]]", None),
    "only a comment": (BASE, "# nothing\n", "at least one [[apply]]", None),
}


# --- [tensormaps.M] (issue 30): one bad field of a good table, inserted before [[apply]] (line 23) ---------
TENSORMAP = {"tensor": '"A"', "dims": "[4, 30]", "strides": "[16]", "box": "[4, 2]"}
BAD_TENSORMAP = {  # case -> (key, its bad text, words of the error; None: the key is added last)
    "tensormap unknown tensor": ("tensor", '"B"', "unknown tensor 'B'"),
    "tensormap of a register tensor": ("tensor", '"R"', "a tensor map describes a global tensor"),
    "tensormap unknown dtype": ("dtype", '"float31"', "unknown dtype 'float31'"),
    "tensormap dtype of another width": ("dtype", '"float16"', "float16 has 16 bits"),
    "tensormap box not a list": ("box", "4", "box must be a list"),
    "tensormap box too short": ("box", "[4]", "box has 1 entries, dims has 2"),
    "tensormap strides too long": ("strides", "[16, 32]", "strides has 2 entries"),
    "tensormap undeclared symbol": ("dims", '["m", 30]', "undeclared symbol 'm'"),
    "tensormap bool entry": ("box", "[true, 2]", "must be an integer or an expression"),
    "tensormap unknown swizzle": ("swizzle", '"256B"', "unknown swizzle '256B'"),
    "tensormap unknown interleave": ("interleave", '"64B"', "unknown interleave '64B'"),
    "tensormap unknown oob_fill": ("oob_fill", '"zero"', "unknown oob_fill 'zero'"),
    "tensormap unknown computed_in": ("computed_in", '"int16"', "unknown computed_in 'int16'"),
    "tensormap unknown key": ("boxes", "[1]", "unknown key 'boxes'"),
    "tensormap rank 7": ("dims", "[1, 1, 1, 1, 1, 1, 1]", "a tensor map has rank 1..5"),
    "tensormap bad expression": ("dims", '["n +* 2", 30]', "cannot parse"),
}


# --- issue 30 item 3: the cluster rank (from = "ctarank"), mbarrier phases and bulk copies ---------------
RANK = 'max = 1024\n\n[symbols.r]\nfrom = "ctarank"'  # a second symbol after n (its header: line 9)
APPLY = ('[[apply]]\nopcode = "ld.global.v4.b32"\nscope = "thread"\ndst = "R: i b j d -> j i (d b)"\n'
         'src = "A: i b j d -> j i (d b)"\n')
BULK_LOAD = ('[[apply]]\nopcode = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"\n'
             'dst = "S: (r w=4) -> r w"\nsrc = "A: i b j d -> (i j) (b d)"\n')
BULK_STORE = ('[[apply]]\nopcode = "cp.async.bulk.global.shared::cta.bulk_group"\n'
              'dst = "A: i b j d -> (i j) (b d)"\nsrc = "S: (r w=4) -> r w"\n')
SHARED = '[tensors.S]\ndtype = "float32"\nscope = "shared"\nshape = [420]\nalign = 128\n\n'


def _bulk_case(applies: str, words: str, key: str, nth: int = 1):
    """The ld apply replaced by ``applies`` (bulk copies of the shared tensor S): the error's line is the
    ``nth`` line starting with ``key``."""
    text = BASE.replace(APPLY, SHARED + applies, 1)
    line = [k for k, ln in enumerate(text.splitlines(), 1) if ln.startswith(key)][nth - 1]
    return (APPLY, SHARED + applies, words, line)


CLUSTER_CASES = {
    "ctarank without max": ("max = 1024", RANK, 'needs max = the cluster', 9),
    "ctarank max 16": ("max = 1024", RANK + "\nmax = 16", "in 0..15, got 16", 11),
    "ctarank max not an integer": ("max = 1024", RANK + '\nmax = "2"', "must be an integer", 11),
    "ctarank multiple_of": ("max = 1024", RANK + "\nmax = 1\nmultiple_of = 2",
                            'multiple_of is not allowed with from = "ctarank"', 12),
    "ctarank min 1": ("max = 1024", RANK + "\nmin = 1\nmax = 3", "takes every rank of the cluster from 0", 11),
    "ctarank in a fact": ('assume = ["n >= 8"]', 'assume = ["n >= 8", "r < 1"]\n\n[symbols.r]\nfrom = "ctarank"'
                          '\nmax = 1', "no fact may restrict it"),
    "phase not a string": _bulk_case(BULK_LOAD + "size = 1680\nexpect_tx = 1680\nphase = 3\n",
                                     "phase must be the name of an mbarrier phase", "phase"),
    "phase empty": _bulk_case(BULK_LOAD + 'size = 1680\nexpect_tx = 1680\nphase = ""\n',
                              "phase must be the name of an mbarrier phase", "phase"),
    "phase on a store": _bulk_case(BULK_STORE + 'size = 1680\nphase = "p"\n', "phase is a load's", "phase"),
    "phase without expect_tx": _bulk_case(BULK_LOAD + 'size = 1680\nphase = "p"\n\n' + BULK_LOAD
                                          + 'size = 1680\nphase = "p"\n', "phase 'p' has no expect_tx", "phase"),
    "phase of two counts": _bulk_case(BULK_LOAD + 'size = 1680\nexpect_tx = 3360\nphase = "p"\n\n' + BULK_LOAD
                                      + 'size = 1680\nexpect_tx = 1680\nphase = "p"\n',
                                      "one phase has one byte count", "expect_tx", 2),
    "bulk size missing": _bulk_case(BULK_LOAD + "expect_tx = 1680\n", "a bulk copy needs size", "[[apply]]"),
    "bulk size a float": _bulk_case(BULK_LOAD + "size = 16.5\nexpect_tx = 1680\n",
                                    "must be an integer or an expression", "size"),
    "bulk size undeclared": _bulk_case(BULK_LOAD + 'size = "16*q"\nexpect_tx = 1680\n', "undeclared symbol 'q'",
                                       "size"),
    "bulk size bad expression": _bulk_case(BULK_LOAD + 'size = "16 +* n"\nexpect_tx = 1680\n', "cannot parse",
                                           "size"),
    "bulk load without expect_tx": _bulk_case(BULK_LOAD + "size = 1680\n", "a bulk load needs expect_tx",
                                              "[[apply]]"),
    "bulk store with expect_tx": _bulk_case(BULK_STORE + "size = 1680\nexpect_tx = 1680\n",
                                            "expect_tx is a load's", "expect_tx"),
    "bulk multicast": _bulk_case(BULK_LOAD.replace("::bytes", "::bytes.multicast::cluster") + "size = 1680\n"
                                 "expect_tx = 1680\n", "(.multicast::cluster)", "opcode"),
}


def _tensormap_case(key, text, words):
    fields = dict(TENSORMAP)
    fields[key] = text
    body = "".join(f"{k} = {v}\n" for k, v in fields.items())
    line = 23 + 1 + list(fields).index(key)  # the header is line 23, the keys follow in order
    return ("[[apply]]\nopcode", f"[tensormaps.M]\n{body}\n[[apply]]\nopcode", words, line)


def _cases():
    out = {}
    for old, (pattern, where) in INT_KEYS.items():
        for name, value in BAD_INTS.items():
            key = pattern.split(" =")[0]
            out[f"{key} {name}"] = (old, pattern.format(value), where)
    for value in BAD_LAYOUT_INTS:
        out[f"layout stride {value[:8]}"] = ('layout = "(15,2,7,2):(4,1,60,2)"',
                                            f'layout = "(15,2,7,2):(4,1,60,{value})"', "layout")
        out[f"layout shape {value[:8]}"] = ('shape = [15, 2, 7, 2]\nlayout = "(15,2,7,2):(4,1,60,2)"',
                                           f'shape = [15, 2, 7, "{value}"]\nlayout = "(15,2,7,{value}):(4,1,60,2)"',
                                           "shape")
    for old, (pattern, where) in STR_KEYS.items():
        for name, value in BAD_STRS.items():
            out[f"{old.split(' =')[0]} ({old.split('= ')[1][:12]}) {name}"] = (old, pattern.format(value), where)
    out.update(S64_CASES)
    for name, case in ONE.items():
        out[name] = case
    for name, (key, text, words) in BAD_TENSORMAP.items():
        out[name] = _tensormap_case(key, text, words)
    out.update(CLUSTER_CASES)
    return out


CASES = _cases()


def _first_changed_line(a: str, b: str) -> int:
    for k, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return k
    return min(len(a.splitlines()), len(b.splitlines())) + 1


def case_text(name):
    old, new, *_ = CASES[name]
    assert old in BASE, name
    return BASE.replace(old, new, 1)


def expected_line(name):
    case = CASES[name]
    if len(case) > 3:
        return case[3]
    return _first_changed_line(BASE, case_text(name))


def test_the_corpus_is_large_and_its_base_proves(tmp_path, capsys):
    assert len(CASES) >= 140
    f = tmp_path / "base.toml"
    f.write_text(BASE)
    assert main(["prove", str(f)]) == 0
    good = BASE.replace(*_tensormap_case("tensor", '"A"', "")[:2])  # the tensor-map cases' good table
    f.write_text(good)
    assert main(["prove", str(f)]) == 0 and "tensormap M (float32, rank 2" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_exit_2_one_line_with_file_line_place_and_problem(tmp_path, capsys, name):
    f = tmp_path / "case.toml"
    f.write_text(case_text(name), encoding="utf-8")
    assert main(["prove", str(f)]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 1 and err.endswith("\n"), err[:2000]
    line = lines[0]
    assert line.startswith(f"tilecheck: error: {f}") and "Traceback" not in line and len(line) < 2500, line[:3000]
    where_or_words = CASES[name][2]
    assert where_or_words in line, line
    want = expected_line(name)
    if want is not None:
        assert line.startswith(f"tilecheck: error: {f}:{want}: "), (want, line)
    # the same error as JSON: its line where the text has one
    assert main(["prove", "--json", str(f)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error.get("line") == want and error["message"] in line


# --- the exit status through a pipe, internal errors, stdin, the byte-order mark, --json everywhere ---------

def cli(*argv, stdin=None, shell=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if shell is not None:
        return subprocess.run(["bash", "-c", shell], capture_output=True, text=True, env=env, timeout=300,
                              cwd=ROOT)
    return subprocess.run([sys.executable, "-m", "tilecheck", *argv], capture_output=True, text=True, env=env,
                          timeout=300, input=stdin)


def test_a_closed_pipe_keeps_the_verdict_in_the_exit_status():
    """``prove refuted.toml | head -1`` under pipefail: exit 1 (refuted), not 0 (main mapped the
    BrokenPipeError to 0); a proved file stays 0; nothing on standard error."""
    py = sys.executable
    refuted = "examples/region_misaligned_refuted.toml"
    # many files, so that the output is more than the pipe holds and the writer sees the reader gone
    r = cli(shell=f"set -o pipefail; {py} -m tilecheck prove {' '.join([refuted] * 40)} | head -1")
    assert r.returncode == 1 and r.stdout.startswith(refuted) and r.stderr == "", r
    r = cli(shell=f"set -o pipefail; {py} -m tilecheck prove {' '.join(['examples/seed.toml'] * 40)} | head -1")
    assert r.returncode == 0 and r.stderr == "", r
    r = cli(shell=f"set -o pipefail; {py} -m tilecheck prove --json {' '.join([refuted] * 40)} | head -c 10")
    assert r.returncode == 1 and r.stderr == "", r


def test_an_internal_error_is_exit_4_with_one_line_and_a_hint_to_report(tmp_path, capsys, monkeypatch):
    from tilecheck import cli as cli_module

    def broken(*a, **k):
        raise KeyError("boom")
    monkeypatch.setattr(cli_module, "prove", broken)
    assert main(["prove", str(ROOT / "examples" / "seed.toml")]) == 4
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("tilecheck: internal error: KeyError: 'boom'") and "please report it" in err
    assert main(["prove", "--json", str(ROOT / "examples" / "seed.toml")]) == 4
    out, err = capsys.readouterr()
    assert json.loads(out)["verdict"] == "internal" and len(err.splitlines()) == 1


def test_deep_nesting_in_a_fresh_interpreter_is_exit_2_one_line(tmp_path):
    f = tmp_path / "deep.toml"
    f.write_text("a = " + "[" * 500 + "]" * 500 + "\n")
    r = cli("prove", str(f))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr[:3000]
    assert f"{f}:1: invalid TOML: arrays or inline tables nested too deeply" in r.stderr


def test_dash_reads_standard_input_and_a_byte_order_mark_is_skipped():
    text = (ROOT / "examples" / "seed.toml").read_text()
    r = cli("prove", "-", stdin="\ufeff" + text)
    assert r.returncode == 0 and r.stdout.startswith("<stdin>: proved"), r
    r = cli("prove", "-", stdin=text.replace('dtype = "float32"', 'dtype = "float31"', 1))
    assert r.returncode == 2 and r.stderr.startswith("tilecheck: error: <stdin>:9: tensors.A: dtype: unknown dtype")


@pytest.mark.parametrize("command", [["emit"], ["draw"], ["suggest"], ["emit", "--kernel"], ["prove"], ["run"]])
def test_every_command_gives_its_input_error_as_json(tmp_path, capsys, command):
    f = tmp_path / "bad.toml"
    f.write_text(BASE.replace("align = 16", "align = 0"))
    assert main([*command, "--json", str(f)]) == 2
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert got["verdict"] == "error" and got["file"] == str(f) and err == ""
    assert got["error"]["line"] == 14 and "align must be positive" in got["error"]["message"]


def test_fuzz_errors_as_json_and_jobs_0_says_at_least_1(capsys):
    assert main(["fuzz", "--jobs", "0"]) == 2
    assert capsys.readouterr().err == "tilecheck: error: --jobs: must be at least 1, got 0\n"
    assert main(["fuzz", "--json", "--replay", "/nonexistent/x.toml"]) == 2
    assert json.loads(capsys.readouterr().out)["verdict"] == "error"


def test_a_wide_fact_is_decided_over_the_symbols_ranges(tmp_path, capsys):
    """A 400-digit bound that every value meets is no reason to refuse the file (main: 'more than
    256 bits'); one no value meets is contradictory facts; one that cancels is assumed exactly."""
    from tilecheck import loads
    c = loads(BASE.replace('assume = ["n >= 8"]', f'assume = ["n < {BIG}", "-{BIG} < n"]'))
    assert c.assume == ()  # true for every n in [8, 1024]: nothing to assume
    c = loads(BASE.replace('assume = ["n >= 8"]', f'assume = ["n + {BIG} <= {BIG} + 100"]'))
    (_, lhs, op, rhs), = c.assume
    assert op == "<=" and rhs == 0 and lhs.eval({"n": 100}) == 0 and lhs.eval({"n": 101}) == 1
    f = tmp_path / "wide.toml"
    f.write_text(BASE.replace('assume = ["n >= 8"]', f'assume = ["n < {BIG}"]'))
    assert main(["prove", str(f)]) == 0


SAMPLE = sorted(CASES)[::12]  # a slice of the corpus through every command that reads a check file


@pytest.mark.parametrize("command", [["emit"], ["emit", "--kernel"], ["draw"], ["run"], ["suggest"],
                                     ["fuzz", "--replay"]])
def test_the_corpus_is_exit_2_one_line_in_every_command(tmp_path, capsys, command):
    for name in SAMPLE:
        f = tmp_path / "case.toml"
        f.write_text(case_text(name), encoding="utf-8")
        assert main([*command, str(f)]) == 2, name
        out, err = capsys.readouterr()
        assert len(err.splitlines()) == 1 and err.startswith(f"tilecheck: error: {f}") and CASES[name][2] in err, \
            (name, err[:3000])


def test_a_bad_argument_under_json_is_a_json_error(capsys):
    with pytest.raises(SystemExit) as e:  # argparse's errors exit from parse_args
        main(["prove", "--json", "--timeout", "0", str(ROOT / "examples" / "seed.toml")])
    assert e.value.code == 2
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["verdict"] == "error" and "--timeout" in doc["error"]["message"] and err == ""


# --- wgmma (issue 29/31): operands by role name and [descriptors.NAME] tables in a check file -------------
WG_BASE = '''arch = "sm_90a"
threads = 128

[tensors.SA]
dtype = "float16"
scope = "shared"
shape = [64, 64]
layout = "Sw<3,3,3> o (64,64):(64,1)"
align = 1024

[tensors.D]
dtype = "float32"
scope = "register"
shape = [64, 8]
layout = "((8,2,4),(2,4,1)):((4@laneid,2,1@warpid),(1,1@laneid,4))"

[descriptors.DA]
tensor = "SA"
major = "K"
swizzle = "128B"
start = "SA"
lbo = 16
sbo = 1024

[[apply]]
opcode = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"
scope = "warpgroup"
d = "D: (w=4 h=2 g=8) (c=1 q=4 j=2) -> w (g q) (c h j)"
a = "DA"
b = "DA"
'''
WG_CASES = {  # case -> (old text of WG_BASE, new text, words of the error, the line it names)
    "wgmma missing operand b": ('b = "DA"\n', "", "apply[0]: b: missing key 'b'", 25),  # the [[apply]]'s line
    "wgmma dst instead of d": ('d = "D:', 'dst = "D:', "apply[0]: d: missing key 'd'", 25),
    "wgmma operand names no descriptor": ('a = "DA"', 'a = "DX"', "must name a [descriptors.NAME] table", 29),
    "wgmma operand not a string": ('a = "DA"', "a = 3", "must name a [descriptors.NAME] table", 29),
    "descriptor unknown key": ("lbo = 16", "lbo = 16\nlbos = 16", "descriptors.DA: unknown key 'lbos'", 23),
    "descriptor missing sbo": ("sbo = 1024\n", "", "descriptors.DA: sbo: missing key 'sbo'", 17),
    "descriptor unknown tensor": ('tensor = "SA"', 'tensor = "SB"', "unknown tensor 'SB'", 18),
    "descriptor of a register tensor": ('tensor = "SA"', 'tensor = "D"', "D is a register tensor", 18),
    "descriptor unknown swizzle": ('swizzle = "128B"', 'swizzle = "256B"', "swizzle '256B'", 20),
    "descriptor unknown major": ('major = "K"', 'major = "M"', "major 'M'", 19),
    "descriptor unknown name": ('start = "SA"', 'start = "SA + a"', "unknown name 'a'", 21),
    "descriptor bad operator": ('start = "SA"', 'start = "SA ** 2"', "only integers, names", 21),
    "descriptor unparsable": ('start = "SA"', 'start = "SA +"', "cannot parse", 21),
    "descriptor negative": ("lbo = 16", "lbo = -16", "not an unsigned 64-bit integer", 22),
    "descriptor advance not a list": ("lbo = 16", "lbo = 16\nadvance = 32", "advance must be a list", 23),
    "descriptor bad tile": ("lbo = 16", "lbo = 16\ntile = [64]", "tile must be [MN, K]", 23),
    "descriptor not a table": ("[descriptors.DA]\n", "[descriptors]\nDA = 3\n[descriptors.DB]\n",
                               "descriptors.DA: must be a table", 18),
}


def test_the_wgmma_base_proves(tmp_path):
    f = tmp_path / "wg.toml"
    f.write_text(WG_BASE)
    assert main(["prove", str(f)]) == 0


@pytest.mark.parametrize("name", sorted(WG_CASES))
def test_a_bad_wgmma_apply_or_descriptor_is_exit_2_one_line_with_its_line(tmp_path, capsys, name):
    old, new, words, want = WG_CASES[name]
    assert old in WG_BASE, name
    f = tmp_path / "case.toml"
    f.write_text(WG_BASE.replace(old, new, 1))
    assert main(["prove", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith(f"tilecheck: error: {f}:{want}: ") and words in err, err
