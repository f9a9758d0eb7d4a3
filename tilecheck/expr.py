"""Symbolic integer expressions: ``n``, ``2*n``, ``n//4``, ``r0+8``, ``-k``.

An expression is kept as its parsed tree so it can be evaluated exactly for
concrete symbol values (the emitter, the enumerator) and turned into a
polynomial for the proofs.  Concrete values stay plain ``int`` everywhere.
"""
from __future__ import annotations

import ast
import operator

from .errors import InputError
from .poly import Context, Poly

_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_CMP_FN = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
           "==": operator.eq, "!=": operator.ne}


class Expr:
    """A symbolic integer expression over named symbols."""

    __slots__ = ("text", "tree")

    def __init__(self, text: str, tree: ast.AST):
        self.text, self.tree = text, tree

    def __repr__(self):
        return self.text

    def names(self) -> set[str]:
        return {n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name)}

    def eval(self, env: dict[str, int]) -> int:
        return _eval(self.tree, env)

    def poly(self, ctx: Context | None, symbols: dict[str, Poly]) -> Poly:
        return _poly(self.tree, ctx or Context(), symbols)


Value = "int | Expr"


def parse_expr(text, what: str = "expression") -> "int | Expr":
    """An int, or an Expr when the text names symbols.  Raises InputError."""
    if isinstance(text, bool):
        raise InputError(f"{what} must be an integer or an expression, got {text!r}")
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{what} must be an integer or an expression, got {text!r}")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise InputError(f"cannot parse {what} {text!r}") from None
    _validate(tree, text, what)
    if not any(isinstance(n, ast.Name) for n in ast.walk(tree)):
        return _eval(tree, {})
    return Expr(text.strip(), tree)


def parse_fact(text: str, where: str) -> tuple["int | Expr", str, "int | Expr"]:
    """A comparison ``lhs OP rhs`` (one operator) of integer expressions."""
    if not isinstance(text, str):
        raise InputError(f"a fact must be a string like 'n >= 8', got {text!r}", where)
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise InputError(f"cannot parse fact {text!r}", where) from None
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _CMP):
        raise InputError(f"fact {text!r} is not one comparison (<, <=, >, >=, ==, !=)", where)
    parts = []
    for node in (tree.left, tree.comparators[0]):
        seg = ast.get_source_segment(text.strip(), node)
        parts.append(parse_expr(seg, "fact operand"))
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


def show(x) -> str:
    return str(x)


_ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Add, ast.Sub,
            ast.Mult, ast.FloorDiv, ast.Mod, ast.USub, ast.UAdd, ast.Load)


def _validate(tree, text, what):
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise InputError(f"{what} {text!r} may use only integers, symbols, + - * // %")
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool) or not isinstance(node.value, int)):
            raise InputError(f"{what} {text!r} has a non-integer constant {node.value!r}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mod)):
            try:
                d = _eval(node.right, {})
            except KeyError:
                raise InputError(f"{what} {text!r}: divide only by a concrete positive integer") from None
            if d <= 0:
                raise InputError(f"{what} {text!r}: divide only by a concrete positive integer")


def _eval(node, env):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    a, b = _eval(node.left, env), _eval(node.right, env)
    return {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
            ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}[type(node.op)](a, b)


def _poly(node, ctx: Context, symbols: dict[str, Poly]) -> Poly:
    if isinstance(node, ast.Constant):
        return Poly.const(node.value)
    if isinstance(node, ast.Name):
        return symbols[node.id]
    if isinstance(node, ast.UnaryOp):
        v = _poly(node.operand, ctx, symbols)
        return -v if isinstance(node.op, ast.USub) else v
    a, b = _poly(node.left, ctx, symbols), _poly(node.right, ctx, symbols)
    if isinstance(node.op, ast.Add):
        return a + b
    if isinstance(node.op, ast.Sub):
        return a - b
    if isinstance(node.op, ast.Mult):
        return a * b
    q, r = ctx.divmod(a, b.constant, "div")
    return q if isinstance(node.op, ast.FloorDiv) else r
