"""Input edges (issue 10, item 8): every one gives exit 2 and one line, or a verdict; never a
traceback.  Deep expressions (1,000 and 10,000 terms) everywhere an expression is allowed,
files that are not UTF-8, time limits that are not finite positive numbers, and whitespace
that must not change what a layout or an operand means."""
import ast
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import tilecheck
from tilecheck.cli import main
from tilecheck.errors import InputError
from tilecheck.expr import MAX_TEXT, _deep_parse, concrete, evaluate, names_of, parse_expr, parse_fact, to_poly
from tilecheck.fuzz.malformed import BASES, edge_texts, judge_file, judge_spaced, run_prove_in_process, spaced_texts
from tilecheck.layout import parse_layout
from tilecheck.poly import Context, Poly
from tilecheck.view import parse_operand

ROOT = Path(__file__).resolve().parents[1]
SYMBOLIC = (ROOT / "examples" / "symbolic_tile.toml").read_text()
SEED = str(ROOT / "examples" / "seed.toml")


def sum_of(n: int, term: str = "n") -> str:
    return "+".join([term] * n)


def with_offset(expr: str) -> str:
    return SYMBOLIC.replace('shape = ["n", "k"]\n', f'shape = ["n", "k"]\noffset = "{expr}"\n', 1)


def cli(*argv):
    """``python -m tilecheck ARGV`` in a fresh interpreter (its own default recursion limit)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "tilecheck", *argv], capture_output=True, text=True, env=env,
                          timeout=300)


# --- 1. deep expressions -------------------------------------------------------------------------

@pytest.mark.parametrize("terms", [1000, 10000])
def test_deep_sum_parses_evaluates_and_becomes_a_polynomial(terms):
    e = parse_expr(sum_of(terms))
    assert names_of(e) == {"n"}
    assert evaluate(e, {"n": 3}) == 3 * terms
    assert to_poly(e, Context(), {"n": Poly.var("n")}) == Poly.var("n") * terms
    assert concrete(e) is None
    assert concrete(parse_expr(sum_of(terms) + "-" + "-".join(["n"] * terms))) == 0
    assert parse_expr(sum_of(terms, "1")) == terms  # a constant expression is an int


def test_deep_unary_chain_and_mixed_precedence():
    assert evaluate(parse_expr("-" * 10000 + "n"), {"n": 5}) == 5
    assert evaluate(parse_expr("-" * 9999 + "n"), {"n": 5}) == -5
    terms = [f"{k % 5}*n//{1 + k % 3}-{k % 7}%{2 + k % 4}" for k in range(3000)]
    env = {"n": 11}
    want = sum(eval(t, {}, env) for t in terms)  # noqa: S307 - the reference, term by term (Python cannot compile the sum)
    assert evaluate(parse_expr("+".join(terms)), env) == want


def _random_expr(rng, depth=0):
    r = rng.random()
    if depth > 6 or r < 0.3:
        return rng.choice(["n", "k", "3", "0", "12", "0x1f", "1_0"])
    if r < 0.4:
        return rng.choice(["-", "+", "- "]) + _random_expr(rng, depth + 1)
    if r < 0.5:
        return "(" + _random_expr(rng, depth + 1) + ")"
    if r < 0.55:
        k = rng.randint(0, 3)
        items = ", ".join(_random_expr(rng, depth + 1) for _ in range(k))
        return "(" + items + ("," if k == 1 else rng.choice(["", ","]) if k else "") + ")"
    if r < 0.6:
        return _random_expr(rng, depth + 1) + rng.choice(["<", "<=", "==", " != "]) + _random_expr(rng, depth + 1)
    return _random_expr(rng, depth + 1) + rng.choice([" + ", "-", "*", " // ", "%", "@"]) + _random_expr(rng, depth + 1)


def test_deep_parser_builds_pythons_tree():
    """The parser used past Python's limits gives the same tree, positions included."""
    rng = random.Random(10)
    for _ in range(3000):
        text = _random_expr(rng) + (", " + _random_expr(rng) if rng.random() < 0.2 else "")
        ref = ast.dump(ast.parse(text, mode="eval").body, include_attributes=True)
        mine = _deep_parse(text)
        assert mine is not None and ast.dump(mine, include_attributes=True) == ref, text
    for bad in ["n +", "(n", "n)", "f(n)", "n ** 2", "1.5", "n k", "", ",", "(,)", "n <", "- "]:
        assert _deep_parse(bad) is None, bad


@pytest.mark.parametrize("terms", [1000, 10000])
def test_deep_expression_in_every_place_loads(terms):
    big = sum_of(terms)
    same_n = f"({big})-({sum_of(terms - 1)})"  # == n
    text = (SYMBOLIC
            .replace('shape = ["n", "k"]', f'shape = ["{same_n}", "k"]\nlayout = "({same_n}, k):(k, 1+0*({big}))"\n'
                                           f'offset = "{same_n} - n"', 1)
            .replace('"r0 + 8 <= n"', f'"r0 + 8 <= {same_n}"')
            .replace("X[r0:r0+8", f"X[r0+({same_n})-n:r0+8"))
    check = tilecheck.loads(text)
    x = check.tensors["X"]
    n = Poly.var("n")
    ctx = Context()
    syms = {s: Poly.var(s) for s in check.symbols}
    assert to_poly(x.shape[0], ctx, syms) == n
    assert to_poly(x.layout.shape[0], ctx, syms) == n and to_poly(x.layout.stride[1], ctx, syms) == Poly.const(1)
    assert to_poly(x.offset, ctx, syms) == Poly()
    assert evaluate(check.assume[0][3], {"n": 7}) == 7
    assert evaluate(check.applies[0].src.starts[0], {"r0": 16, "n": 9}) == 16


def test_deep_fact_and_layout():
    lhs, op, rhs = parse_fact(sum_of(10000) + " >= 8", "assume[0]")
    assert op == ">=" and rhs == 8 and evaluate(lhs, {"n": 2}) == 20000
    lay = parse_layout(f"(({sum_of(10000, '1')}, 4)):((1, {sum_of(10000, 'n')}))")
    assert lay.rank == 1 and lay.shape == ((10000, 4),)
    assert evaluate(lay.stride[0][1], {"n": 1}) == 10000
    view = parse_operand(f"A[{sum_of(10000, '1')}-9999:8, :]", {"A": (8, 4)})
    assert view.starts == (1, 0) and view.extents == (7, 4)


@pytest.mark.parametrize("text, words", [
    ("(" * 300 + "n" + ")" * 300, "too deeply nested"),
    ("n" + "+n" * (MAX_TEXT // 2), "too long"),
    ("*".join(["2"] * 300), "out of range"),
    ("n*" + "*".join(["3"] * 300), "out of range"),
    ("*".join(["n"] * 40), "degree"),
])
def test_absurd_expressions_are_input_errors(text, words):
    with pytest.raises(InputError) as e:
        parse_expr(text, "offset")
    msg = str(e.value)
    assert words in msg and "\n" not in msg and len(msg) < 300, msg


@pytest.mark.parametrize("terms, status", [(1000, 0), (1001, 1), (10000, 0)])
def test_prove_and_emit_with_a_deep_offset(tmp_path, terms, status):
    """n+...+n elements of float16: 2*terms*n bytes, a multiple of the 8-byte vector iff terms is even."""
    f = tmp_path / "deep.toml"
    f.write_text(with_offset(sum_of(terms)))
    r = cli("prove", str(f))
    assert r.returncode == status and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert ("alignment   refuted" in r.stdout) == (status == 1)
    r = cli("emit", str(f), "--kernel", "-o", str(tmp_path / "out.ptx"))
    if status == 0:
        assert r.returncode == 0 and ".entry" in (tmp_path / "out.ptx").read_text(), r.stderr[-2000:]
    else:
        assert r.returncode == 1 and "nothing emitted" in r.stderr and "Traceback" not in r.stderr


def test_too_deep_file_is_one_line_exit_2(tmp_path, capsys):
    f = tmp_path / "deep.toml"
    f.write_text(with_offset("(" * 300 + "n" + ")" * 300))
    assert main(["prove", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(f) in err[0] and "tensors.X: offset" in err[0] and "too deeply nested" in err[0]


# --- 2. not UTF-8 --------------------------------------------------------------------------------

NOT_UTF8 = [b"\xff\xfe" + SYMBOLIC.encode(), SYMBOLIC.encode().replace(b"float16", b"float\xe916"),
            SYMBOLIC.encode() + b"\n# caf\xe9\n", SYMBOLIC.encode().replace(b'"n"', b'"\xed\xa0\x80"')]


@pytest.mark.parametrize("data", NOT_UTF8)
@pytest.mark.parametrize("argv", [["prove"], ["prove", "--json"], ["emit"], ["run"], ["fuzz", "--replay"]])
def test_not_utf8_file_is_one_line_exit_2(tmp_path, capsys, data, argv):
    f = tmp_path / "latin1.toml"
    f.write_bytes(data)
    assert main([*argv, str(f)]) == 2
    out, err = capsys.readouterr()
    text = out if "--json" in argv else err
    if "--json" in argv:
        import json
        doc = json.loads(out)
        assert doc["verdict"] == "error" and doc["error"]["where"] == str(f)
        text = doc["error"]["message"]
    else:
        assert len(err.strip().splitlines()) == 1 and str(f) in err
    assert "not UTF-8 text" in text and "Traceback" not in out + err


def test_not_utf8_through_the_api(tmp_path):
    f = tmp_path / "x.toml"
    f.write_bytes(NOT_UTF8[0])
    with pytest.raises(InputError, match="not UTF-8 text: byte 0xff at offset 0"):
        tilecheck.load(f)
    with pytest.raises(InputError, match="must be a string"):
        tilecheck.loads(NOT_UTF8[0])


# --- 3. time limits -------------------------------------------------------------------------------

BAD_SECONDS = ["nan", "inf", "-inf", "0", "-1", "1e400", "-0", "1e300", "ten"]
OPTIONS = [["prove", SEED, "--timeout"], ["emit", SEED, "--timeout"], ["run", SEED, "--timeout"],
           ["fuzz", "--timeout"], ["fuzz", "--symbolic-timeout"], ["fuzz", "--time"]]


@pytest.mark.parametrize("value", BAD_SECONDS)
@pytest.mark.parametrize("argv", OPTIONS, ids=lambda a: " ".join(a[::2]).replace(SEED, "FILE"))
def test_bad_timeout_is_one_line_exit_2(capsys, argv, value):
    option = argv[-1]
    with pytest.raises(SystemExit) as e:
        main([*argv[:-1], f"{option}={value}"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"argument {option}" in err[0], err
    assert "finite positive number of seconds" in err[0] and "Traceback" not in err[0]


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 0, -1, 0.0, 10**400, True, "5", None, 1e300])
def test_bad_timeout_through_the_api(value):
    check = tilecheck.load(SEED)
    with pytest.raises(InputError, match="finite positive number of seconds"):
        tilecheck.prove(check, timeout=value)


def test_good_timeouts_still_work(capsys):
    assert main(["prove", SEED, "--timeout", "30"]) == 0
    assert main(["prove", SEED, "--timeout=1e1"]) == 0
    assert tilecheck.prove(tilecheck.load(SEED), timeout=5).verdict == "proved"


# --- 4. whitespace -------------------------------------------------------------------------------

NESTED = ["((4,4)):((1,4))", "( (4,4) ):( (1,4) )", " ((4,4)) : ((1,4)) ", "(\t(4, 4)\n)\n:\n(\n(1,\t4))",
          "((4,4))\r\n:((1,4))", "(( 4 , 4 )):(( 1 , 4 ))", "(\n  (4,4)\n):(\n  (1,4)\n)"]
FLAT = ["(4,4):(1,4)", " ( 4 , 4 ) : ( 1 , 4 ) ", "(4,\n4):\t(1,4)", "4,4:1,4", "4 ,\n4 : 1 , 4"]


@pytest.mark.parametrize("text", NESTED)
def test_whitespace_does_not_change_a_nested_layout(text):
    lay = parse_layout(text)
    assert lay == parse_layout("((4,4)):((1,4))") and lay.rank == 1 and lay.shape == ((4, 4),)


@pytest.mark.parametrize("text", FLAT)
def test_whitespace_does_not_change_a_flat_layout(text):
    lay = parse_layout(text)
    assert lay == parse_layout("(4,4):(1,4)") and lay.rank == 2


def test_whitespace_in_a_symbolic_layout_and_expression():
    assert parse_layout("( (n, 4) ) : ( (4, 1) )").rank == 1
    assert str(parse_layout("((n,4)):((4,1))")) == str(parse_layout("(\t(n ,4 ) )\n:\n( ( 4, 1) )")) == "((n,4)):((4,1))"
    assert evaluate(parse_expr("n\n+ 1"), {"n": 2}) == 3 == evaluate(parse_expr("n+1"), {"n": 2})
    assert parse_fact("n\n>=\t8", "assume[0]")[1] == ">="


OPERANDS = ["A[0:4, 0:8]", "A[ 0 : 4 ,0:8 ]", "\tA [0:4,\n0:8] ", "A[0:4, 0:8]: i j -> i j",
            "A[0:4, 0:8] :\ti  j->i\nj ", "A[0:4, 0:8]: (a=2 b) j -> a b j", "A[0:4, 0:8]:( a = 2\tb ) j->a b j"]


def _view_key(v):
    return v.tensor, v.starts, v.extents, v.sliced, v.left, v.axes, v.size


@pytest.mark.parametrize("text", OPERANDS)
def test_whitespace_does_not_change_an_operand(text):
    shapes = {"A": (16, 32)}
    v = parse_operand(text, shapes)
    assert v.extents == (4, 8) and v.starts == (0, 0)
    squeezed = parse_operand(" ".join(text.split()), shapes)
    assert _view_key(v) == _view_key(squeezed)


def test_empty_brackets_say_so():
    with pytest.raises(InputError, match="slices 0 axes, tensor has 2"):
        parse_operand("A[ ]", {"A": (16, 32)})


def test_whitespace_in_a_check_file_changes_no_verdict(tmp_path):
    base = tmp_path / "base.toml"
    base.write_text(BASES[0])
    spaced = tmp_path / "spaced.toml"
    spaced.write_text(BASES[0].replace('"(15,2,7,2):(4,1,60,2)"', '"( 15 ,\\t2,\\n7 ,2 )\\n: ( 4,1 , 60,2)"')
                      .replace('"A: i b j d -> j i (d b)"', '" A :\\ti b  j d\\n->  j i ( d b ) "'))
    assert judge_spaced(str(base), str(spaced)) is None
    assert main(["prove", str(spaced)]) == 0


# --- 5. the malformed campaign covers these edges -----------------------------------------------

EDGE = settings(max_examples=15, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("base", range(len(BASES)))
def test_edge_mutations_never_give_a_traceback(base, tmp_path):
    path = tmp_path / "edge.toml"

    @EDGE
    @given(edge_texts(BASES[base]))
    def prop(data):
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        why = judge_file(*run_prove_in_process(str(path), ["--timeout", "2"]))
        assert why is None, why
    prop()


@pytest.mark.parametrize("base", range(len(BASES)))
def test_spaced_variants_mean_the_same(base, tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(BASES[base])

    @settings(EDGE, max_examples=10)
    @given(spaced_texts(BASES[base]))
    def prop(text):
        b.write_text(text)
        assert judge_spaced(str(a), str(b)) is None, text
    prop()
