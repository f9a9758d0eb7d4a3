"""Symbolic integer expressions: ``n``, ``2*n``, ``n//4``, ``r0+8``, ``-k``.

An expression is kept as its parsed tree so it can be evaluated exactly for
concrete symbol values (the emitter, the enumerator) and turned into a
polynomial for the proofs.  Concrete values stay plain ``int`` everywhere.

Nothing here recurses over a tree: an expression of 10,000 terms is parsed,
checked, evaluated and turned into a polynomial with explicit stacks, so the
only limits are the ones below (text length, size of values), each an
``InputError``.
"""
from __future__ import annotations

import ast
import bisect
import functools
import operator
import re

from .errors import InputError
from .poly import Context, Poly

_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_CMP_FN = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
           "==": operator.eq, "!=": operator.ne}
_BIN_FN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}

MAX_TEXT = 100_000  # characters in one expression, layout side or fact
MAX_BITS = 256  # magnitude of any constant or coefficient an expression can produce
MAX_DEGREE = 32  # total degree of an expression's polynomial
MAX_PARENS = 200  # nesting of parentheses (Python's own parser stops there too)


class Expr:
    """A symbolic integer expression over named symbols."""

    __slots__ = ("text", "tree", "_code", "_names")

    def __init__(self, text: str, tree: ast.AST):
        self.text, self.tree, self._code, self._names = text, tree, None, None

    def __repr__(self):
        return self.text

    def names(self) -> set[str]:
        if self._names is None:  # computed once (an Expr is shared: parse_expr makes one per text)
            self._names = frozenset(n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name))
        return set(self._names)

    def code(self) -> list:
        """The tree in postfix order (computed once)."""
        if self._code is None:
            self._code = _postfix(self.tree)
        return self._code

    def eval(self, env: dict[str, int]) -> int:
        return _run_eval(self.code(), env)

    def poly(self, ctx: Context | None, symbols: dict[str, Poly]) -> Poly:
        return _run_poly(self.code(), ctx or Context(), symbols)


def brief(text, limit: int = 60) -> str:
    """``repr(text)``, shortened for an error message."""
    r = repr(text)
    n = len(text) if isinstance(text, str) else len(r)
    return r if len(r) <= limit else f"{r[:limit - 12]}...{r[-8:]} ({n} characters)"


def flat(text: str) -> str:
    """``text`` stripped, every whitespace character (newline, tab, ...) a space: whitespace
    separates tokens and never means anything else.  Positions in the stripped text are kept."""
    return re.sub(r"\s", " ", text).strip()


def parse_tree(text: str, what: str = "expression") -> ast.AST:
    """The Python expression tree of ``text`` (already ``flat``), at any depth.

    Raises SyntaxError when the text is not an expression, InputError when it is too long or too
    deeply nested.  Python's parser gives up (RecursionError, MemoryError) on a few thousand
    terms; such a text is parsed by ``_deep_parse``, which accepts the subset the check file uses
    (integers, names, + - * // % @, unary + -, comparisons, parentheses, tuples) and builds the
    same tree."""
    if len(text) > MAX_TEXT:
        raise InputError(f"{what} {brief(text)} is too long (at most {MAX_TEXT:,} characters)")
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError as e:
        if "too many nested parentheses" in str(e):
            raise InputError(f"{what} {brief(text)} is too deeply nested "
                             f"(at most {MAX_PARENS} parentheses)") from None
        raise
    except (RecursionError, MemoryError):
        pass
    tree = _deep_parse(text)
    if tree is None:
        raise InputError(f"{what} {brief(text)} is too deeply nested to parse")
    return tree


_DECIMAL = re.compile(r"\s*[+-]?(0|[1-9][0-9]{0,59})\s*\Z")  # a plain decimal (far below MAX_BITS)


def parse_expr(text, what: str = "expression", bits: int | None = MAX_BITS) -> "int | Expr":
    """An int, or an Expr when the text names symbols.  Raises InputError.  ``bits``: the largest
    constant or coefficient allowed (None: any, for facts, which ``check`` decides when they are wide)."""
    if isinstance(text, bool):
        raise InputError(f"{what} must be an integer or an expression, got {text!r}")
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{what} must be an integer or an expression, got {brief(text)}")
    if _DECIMAL.match(text):  # what the parser below makes of it, without the parser
        return int(text)
    return _parse_text(text, what, bits)


@functools.lru_cache(maxsize=1 << 14)
def _parse_text(text: str, what: str, bits: int | None = MAX_BITS) -> "int | Expr":
    """``parse_expr`` of a text, once per text (an Expr is never changed once made)."""
    text = flat(text)
    try:
        tree = parse_tree(text, what)
    except SyntaxError:
        raise InputError(f"cannot parse {what} {brief(text)}") from None
    _validate(tree, text, what)
    if not any(isinstance(n, ast.Name) for n in ast.walk(tree)):
        value = _run_eval(_postfix(tree), {})
        if bits is not None and value.bit_length() > bits:
            raise InputError(f"{what} {brief(text)} is out of range (more than {bits} bits)")
        return value
    e = Expr(text, tree)
    if len(text) > 64:  # a shorter text cannot reach the limits below
        _check_size(e, what, bits)
    return e


def parse_fact(text: str, where: str, bits: int | None = MAX_BITS) -> tuple["int | Expr", str, "int | Expr"]:
    """A comparison ``lhs OP rhs`` (one operator) of integer expressions (constants of at most
    ``bits`` bits; None: any, see ``wide``)."""
    if not isinstance(text, str):
        raise InputError(f"a fact must be a string like 'n >= 8', got {brief(text)}", where)
    text = flat(text)
    try:
        tree = parse_tree(text, "fact")
    except SyntaxError:
        raise InputError(f"cannot parse fact {brief(text)}", where) from None
    except InputError as e:
        raise InputError(e.message, where) from None
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _CMP):
        raise InputError(f"fact {brief(text)} is not one comparison (<, <=, >, >=, ==, !=)", where)
    parts = []
    for node in (tree.left, tree.comparators[0]):
        seg = ast.get_source_segment(text, node)
        try:
            parts.append(parse_expr(seg, "fact operand", bits))
        except InputError as e:
            raise InputError(e.message, where) from None
    return parts[0], _CMP[type(tree.ops[0])], parts[1]


def holds(op: str, a: int, b: int) -> bool:
    return _CMP_FN[op](a, b)


def names_of(x) -> set[str]:
    return x.names() if isinstance(x, Expr) else set()


def evaluate(x, env: dict[str, int]) -> int:
    return x.eval(env) if isinstance(x, Expr) else int(x)


def to_poly(x, ctx: Context | None, symbols: dict[str, Poly]) -> Poly:
    return x.poly(ctx, symbols) if isinstance(x, Expr) else Poly.const(int(x))


def concrete(x) -> int | None:
    """The integer value of ``x`` when it does not depend on symbols."""
    if isinstance(x, Expr):
        p = x.poly(Context(), {n: Poly.var(n) for n in x.names()})
        return p.constant if p.is_const else None
    return int(x)


def wide(x) -> bool:
    """Whether ``x`` has a constant or a coefficient over ``MAX_BITS`` bits (``parse_expr(..., bits=None)``
    lets one through): the proofs do not encode such an expression."""
    if not isinstance(x, Expr):
        return int(x).bit_length() > MAX_BITS
    if any(op == "c" and arg.bit_length() > MAX_BITS for op, arg in x.code()):
        return True
    p = x.poly(Context(), {n: Poly.var(n) for n in x.names()})
    return any(c.bit_length() > MAX_BITS for c in p.terms.values())


def interval(x, box: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """Bounds ``(lo, hi)`` of ``x``'s values when each symbol ranges over ``box[name]`` (interval
    arithmetic: every value is inside, not every bound is reached)."""
    if not isinstance(x, Expr):
        return int(x), int(x)
    vals = []
    for op, arg in x.code():
        if op == "c":
            vals.append((arg, arg))
        elif op == "n":
            vals.append(box[arg])
        elif op == "u":
            if arg:
                lo, hi = vals[-1]
                vals[-1] = (-hi, -lo)
        else:
            (c, d) = vals.pop()
            (a, b) = vals[-1]
            if arg is ast.Add:
                vals[-1] = (a + c, b + d)
            elif arg is ast.Sub:
                vals[-1] = (a - d, b - c)
            elif arg is ast.Mult:
                ps = (a * c, a * d, b * c, b * d)
                vals[-1] = (min(ps), max(ps))
            elif arg is ast.FloorDiv:  # by a concrete positive divisor (_validate): monotone
                vals[-1] = (a // c, b // c)
            else:
                vals[-1] = (a % c, b % c) if b - a < c and a % c <= b % c else (0, c - 1)
    return vals[0]


def decided(lhs, op: str, rhs, box: dict[str, tuple[int, int]]) -> bool | None:
    """``lhs op rhs`` for every value of the symbols in ``box`` (True), for none (False), or neither
    as far as intervals tell (None)."""
    (a, b), (c, d) = interval(lhs, box), interval(rhs, box)
    always = {"<": b < c, "<=": b <= c, ">": a > d, ">=": a >= d, "==": a == b == c == d, "!=": b < c or d < a}
    never = {"<": a >= d, "<=": a > d, ">": b <= c, ">=": b < c, "==": b < c or d < a, "!=": a == b == c == d}
    return True if always[op] else False if never[op] else None


_ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Add, ast.Sub,
            ast.Mult, ast.FloorDiv, ast.Mod, ast.USub, ast.UAdd, ast.Load)


def _validate(tree, text, what):
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise InputError(f"{what} {brief(text)} may use only integers, symbols, + - * // %")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool) or not isinstance(node.value, int)):
            raise InputError(f"{what} {brief(text)} has a non-integer constant {brief(node.value)}")
    for node in ast.walk(tree):  # every node is allowed now: divisors can be evaluated
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mod)):
            symbolic = any(isinstance(n, ast.Name) for n in ast.walk(node.right))
            if symbolic or _run_eval(_postfix(node.right), {}) <= 0:
                raise InputError(f"{what} {brief(text)}: divide only by a concrete positive integer")


def _check_size(e: Expr, what: str, bits: int | None = MAX_BITS):
    """Bound the degree and the coefficients of a long expression's polynomial."""
    degree = []
    for op, arg in e.code():
        if op == "c":
            degree.append(0)
        elif op == "n":
            degree.append(1)
        elif op == "u":
            pass
        else:
            b = degree.pop()
            a = degree.pop()
            degree.append(a + b if arg is ast.Mult else a if arg in (ast.Add, ast.Sub) else 1)
            if degree[-1] > MAX_DEGREE:
                raise InputError(f"{what} {brief(e.text)} has degree more than {MAX_DEGREE}")
    if bits is None:
        return
    p = e.poly(Context(), {n: Poly.var(n) for n in e.names()})
    if any(c.bit_length() > bits for c in p.terms.values()):
        raise InputError(f"{what} {brief(e.text)} is out of range (a coefficient of more than {bits} bits)")


# postfix code and its two interpreters ------------------------------------------------------------

def _postfix(tree) -> list:
    """[(op, arg)] in postfix order: ("c", int), ("n", name), ("u", negate?), ("b", ast op class)."""
    out, stack = [], [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if isinstance(node, ast.Constant):
            out.append(("c", node.value))
        elif isinstance(node, ast.Name):
            out.append(("n", node.id))
        elif isinstance(node, ast.UnaryOp):
            if expanded:
                out.append(("u", isinstance(node.op, ast.USub)))
            else:
                stack += [(node, True), (node.operand, False)]
        elif expanded:
            out.append(("b", type(node.op)))
        else:
            stack += [(node, True), (node.right, False), (node.left, False)]
    return out


def _run_eval(code, env):
    vals = []
    for op, arg in code:
        if op == "c":
            vals.append(arg)
        elif op == "n":
            vals.append(env[arg])
        elif op == "u":
            if arg:
                vals[-1] = -vals[-1]
        else:
            b = vals.pop()
            vals[-1] = _BIN_FN[arg](vals[-1], b)
    return vals[0]


def fold(code, const, name, div):
    """Interpret postfix ``code`` (``Expr.code()``) over any values: ``const(c)`` of a constant,
    ``name(n)`` of a symbol, ``+ - *`` and unary minus of the values themselves, and ``div(a, b, floor)``
    of ``a // b`` (``floor``) or ``a % b`` (the parser allows a concrete divisor only).  The polynomial
    interpreter below and the descriptor obligation's Z3 terms (``proofs/descriptor.term``) are this
    with their own leaves and division."""
    vals = []
    for op, arg in code:
        if op == "c":
            vals.append(const(arg))
        elif op == "n":
            vals.append(name(arg))
        elif op == "u":
            if arg:
                vals[-1] = -vals[-1]
        else:
            b = vals.pop()
            a = vals[-1]
            if arg is ast.Add:
                vals[-1] = a + b
            elif arg is ast.Sub:
                vals[-1] = a - b
            elif arg is ast.Mult:
                vals[-1] = a * b
            else:
                vals[-1] = div(a, b, arg is ast.FloorDiv)
    return vals[0]


def _run_poly(code, ctx: Context, symbols: dict[str, Poly]) -> Poly:
    def div(a, b, floor):
        q, r = ctx.divmod(a, b.constant, "div")
        return q if floor else r
    return fold(code, Poly.const, symbols.__getitem__, div)


# a parser for texts too deep for Python's ----------------------------------------------------------

_TOKENS = re.compile(r" *(?:([0-9][0-9A-Za-z_]*)|([A-Za-z_][A-Za-z_0-9]*)|(//|<=|>=|==|!=|[-+*%@<>(),]))")
_PREC = {"<": 1, "<=": 1, ">": 1, ">=": 1, "==": 1, "!=": 1, "+": 2, "-": 2, "*": 3, "//": 3, "%": 3, "@": 3}
_BIN_NODE = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod, "@": ast.MatMult}
_CMP_NODE = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}


class _Item:
    """An operand on the parser's stack: its node, its span in the text, and whether it was
    written in parentheses (which stops a comparison chain)."""
    __slots__ = ("node", "start", "end", "paren")

    def __init__(self, node, start, end, paren=False):
        self.node, self.start, self.end, self.paren = node, start, end, paren


def _deep_parse(text: str):
    """``ast.parse(text, mode="eval").body`` for the check file's subset of Python, with explicit
    stacks (operator precedence, left associativity, Python's spans); None if not in the subset."""
    if not text.isascii():
        return None
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def place(node, start, end):
        ls, le = bisect.bisect_right(line_starts, start) - 1, bisect.bisect_right(line_starts, end) - 1
        node.lineno, node.col_offset = ls + 1, start - line_starts[ls]
        node.end_lineno, node.end_col_offset = le + 1, end - line_starts[le]
        return node

    vals: list[_Item] = []
    ops: list = []  # ("b", op, start) | ("u", op, start) | ["(", start, base, commas]
    bottom = ["(", 0, 0, 0]

    def reduce_one():
        kind, op, start = ops.pop()
        if kind == "u":
            x = vals.pop()
            node = ast.UnaryOp(ast.USub() if op == "-" else ast.UAdd(), x.node)
            vals.append(_Item(place(node, start, x.end), start, x.end))
            return
        b = vals.pop()
        a = vals.pop()
        if op in _CMP_NODE:
            if isinstance(a.node, ast.Compare) and not a.paren:  # a < b < c: one chained node
                a.node.ops.append(_CMP_NODE[op]())
                a.node.comparators.append(b.node)
                node = a.node
            else:
                node = ast.Compare(a.node, [_CMP_NODE[op]()], [b.node])
        else:
            node = ast.BinOp(a.node, _BIN_NODE[op](), b.node)
        vals.append(_Item(place(node, a.start, b.end), a.start, b.end))

    def reduce_to_frame():
        while ops and ops[-1][0] != "(":
            reduce_one()
        return ops[-1] if ops else bottom

    def tuple_of(frame, start, end):
        items = vals[frame[2]:]
        del vals[frame[2]:]
        node = ast.Tuple([x.node for x in items], ast.Load())
        vals.append(_Item(place(node, start, end), start, end, paren=True))

    pos, want, last, depth = 0, True, None, 0  # want: an operand comes next
    while pos < len(text):
        m = _TOKENS.match(text, pos)
        if not m or m.end() == pos:
            return None if text[pos:].strip() else _finish(vals, ops, bottom, want, last, reduce_to_frame, tuple_of, pos)
        start, pos = m.start(m.lastindex), m.end()
        num, name, op = m.groups()
        if num is not None or name is not None:
            if not want:
                return None
            if num is not None:
                try:
                    node = ast.Constant(int(num, 0))
                except ValueError:
                    return None
            else:
                node = ast.Name(name, ast.Load())
            vals.append(_Item(place(node, start, pos), start, pos))
            want = False
        elif op == "(":
            if not want or depth >= MAX_PARENS:
                return None
            depth += 1
            ops.append(["(", start, len(vals), 0])
        elif op == ")":
            if not ops or depth == 0:
                return None
            if want:
                frame = ops[-1]
                if frame[0] != "(" or not (len(vals) == frame[2] and frame[3] == 0 or last == ","):
                    return None
            else:
                frame = reduce_to_frame()
            ops.pop()
            depth -= 1
            if frame[3] or len(vals) == frame[2]:
                tuple_of(frame, frame[1], pos)
            else:
                vals[-1].start, vals[-1].end, vals[-1].paren = frame[1], pos, True
            want = False
        elif op == ",":
            if want:
                return None
            reduce_to_frame()[3] += 1
            want = True
        elif want:
            if op not in "+-":
                return None
            ops.append(("u", op, start))
        else:
            while ops and ops[-1][0] != "(" and (ops[-1][0] == "u" or _PREC[ops[-1][1]] >= _PREC[op]):
                reduce_one()
            ops.append(("b", op, start))
            want = True
        last = op
    return _finish(vals, ops, bottom, want, last, reduce_to_frame, tuple_of, pos)


def _finish(vals, ops, bottom, want, last, reduce_to_frame, tuple_of, end):
    if want and not (last == "," and bottom[3]):
        return None
    if reduce_to_frame() is not bottom:
        return None  # an unclosed parenthesis
    if bottom[3]:
        tuple_of(bottom, vals[0].start, end)
    return vals[0].node if len(vals) == 1 else None
