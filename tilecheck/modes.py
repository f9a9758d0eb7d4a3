"""The vocabulary of a layout's modes, below both the layout model (``layout.py``) and its one
evaluator (``crd2idx.py``): the thread axes a stride can send a coordinate to (``ThreadStride``),
the element-offset component's key (``OFFSET``), a nested mode's leaves and the product of
values (ints or Exprs).  ``layout.py`` re-exports every name, where callers import them from."""
from __future__ import annotations

from dataclasses import dataclass
from math import prod

from .expr import Expr, parse_expr

THREAD_AXES = ("laneid", "warpid", "tid")
OFFSET = ""  # the component of the element offset / register slot


@dataclass(frozen=True)
class ThreadStride:
    coef: int
    axis: str  # one of THREAD_AXES

    def __str__(self):
        return f"{self.coef}@{self.axis}"


def mul(a, b):
    """Product of two values (int or Expr), kept an int when both are."""
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    return parse_expr(f"({a})*({b})")


def product(values) -> "int | Expr":
    """Product of values (int or Expr), an int when all are; one flat product, so that many
    symbolic factors do not nest parentheses."""
    values = list(values)
    if all(isinstance(v, int) for v in values):
        return prod(values)
    return parse_expr("*".join(f"({v})" for v in values))


def _leaves(x):
    if isinstance(x, tuple):
        return [leaf for e in x for leaf in _leaves(e)]
    return [x]
