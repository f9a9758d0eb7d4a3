"""The one evaluator of views and layouts (CuTe's ``crd2idx``), generic over a *domain*.

An operand's value at coordinates is computed in three steps, each written once here:

1. ``elements``: each view-axis coordinate split into its elementary axes' digits (row-major);
2. ``logical``: the tensor's logical index, each axis a row-major number of elementary digits
   plus the slice start;
3. ``layout_value``: the layout at that index, a nested mode split colexicographically (first
   sub-mode fastest), each leaf times its stride summed into the element offset (``""``) or a
   thread component (``laneid``, ``warpid``, ``tid``).

The domain supplies the arithmetic: ``Ints`` (Python ints and numpy integer arrays: exact floor
division, elementwise, never in place), ``Polys`` (exact polynomials: digits and divisions through
fresh variables, the proofs' encoding) and ``Divisions`` (polynomials whose every digit is a
``Context.divmod``, which the emitter computes with division instructions).  The check model
(``Layout.__call__``, ``View.index``), the proofs (``encode.py``) and the emitter
(``emit/operand.py``) call this module; the brute-force decider and the numpy reference do not —
they state the semantics again on their own (``oracle.py``), so that they stay independent.
"""
from __future__ import annotations

from .errors import InputError
from .expr import concrete, evaluate, to_poly
from .layout import OFFSET, THREAD_AXES, ThreadStride, _leaves, product
from .poly import Context, Poly


class Ints:
    """Concrete values: Python ints or numpy integer arrays (elementwise, inputs never mutated)."""

    def __init__(self, env: dict[str, int] | None = None):
        self.env = env or {}

    zero = 0

    def value(self, x):
        """A layout entry, a stride or a slice start (int or Expr) in this domain."""
        return evaluate(x, self.env)

    def extent(self, x) -> int:
        return evaluate(x, self.env)

    def divmod(self, c, d: int, stem: str):
        return c // d, c % d

    def digits(self, c, sizes: list[int], stem: str) -> list:
        """Row-major digits of ``c`` in the mixed radix ``sizes`` (each one reduced)."""
        out = []
        for s in reversed(sizes):
            out.append(c % s)
            c = c // s
        return out[::-1]


class Polys:
    """Exact polynomials over ``ctx``'s variables; the symbols are ``symbols``."""

    def __init__(self, ctx: Context, symbols: dict[str, Poly]):
        self.ctx, self.symbols = ctx, symbols

    @property
    def zero(self) -> Poly:
        return Poly()

    def value(self, x) -> Poly:
        return to_poly(x, self.ctx, self.symbols)

    def extent(self, x) -> int:
        c = concrete(x)
        if c is None:
            raise InputError("a nested mode with a symbolic sub-extent is not supported")
        return c

    def divmod(self, c: Poly, d: int, stem: str):
        exact = exact_divmod(c, d, self.ctx)
        return exact if exact is not None else self.ctx.divmod(c, d, stem)

    def digits(self, c: Poly, sizes: list[int], stem: str) -> list[Poly]:
        """Row-major digits: exact polynomials where ``exact_divmod`` applies at every step, else
        one fresh variable each and one equation (shared per value)."""
        if len(sizes) == 1:
            return [c]
        if c.is_const:
            return [Poly.const(d) for d in Ints().digits(c.constant, sizes, stem)]
        out, rest = [], c
        for s in reversed(sizes[1:]):
            step = exact_divmod(rest, s, self.ctx)
            if step is None:
                break
            rest, r = step
            out.append(r)
        else:
            return [rest, *reversed(out)]
        ctx = self.ctx
        key = ("digits", c, tuple(sizes))
        if key not in ctx.memo:
            ds = [ctx.fresh(f"{stem}#{k}", 0, s - 1) for k, s in enumerate(sizes)]
            ctx.eqs.append(c - row_major(ds, sizes, Poly()))
            ctx.memo[key] = ds
        return ctx.memo[key]


def exact_divmod(p: Poly, d: int, ctx: Context):
    """``(p // d, p % d)`` as polynomials, without fresh variables, when that is exact: write
    ``p = d*A + B`` with every coefficient of ``B`` in ``[0, d)``; if ``B`` lies in ``[0, d)`` for
    every value the variables' ranges allow, then ``p // d = A`` and ``p % d = B``.  None otherwise.
    (``8*l + 2*i + v`` with ``v`` in ``[0, 1]``, divided by 2, is ``(4*l + i, v)``: the layout's
    digits are the view's own, and the proofs' polynomials cancel instead of asking the solver.)"""
    if d <= 1:
        return (p, Poly()) if d == 1 else None
    a = Poly({m: c // d for m, c in p.terms.items()})
    b = Poly({m: c % d for m, c in p.terms.items()})
    lo, hi = ctx.interval(b)
    if lo is None or hi is None or lo < 0 or hi >= d:
        return None
    return a, b


class Divisions(Polys):
    """Polynomials whose digits are exact divisions (``Context.divmod``): what code computes."""

    def divmod(self, c: Poly, d: int, stem: str):
        return self.ctx.divmod(c, d, stem)

    def digits(self, c: Poly, sizes: list[int], stem: str) -> list[Poly]:
        out = []
        for s in reversed(sizes[1:]):
            c, r = self.ctx.divmod(c, s, "digit")
            out.append(r)
        out.append(c)
        return out[::-1]


# the evaluator ---------------------------------------------------------------

def row_major(vals, sizes, zero):
    acc = zero
    for v, s in zip(vals, sizes):
        acc = acc * s + v
    return acc


def elements(view, coords, dom, stem: str = "") -> dict:
    """Each elementary axis's digit of the view coordinates ``coords`` (one per view axis)."""
    elem = {}
    for c, names in zip(coords, view.axes):
        sizes = [view.size[n] for n in names]
        elem.update(zip(names, dom.digits(c, sizes, f"{stem}.{view.tensor}.{'.'.join(names)}")))
    return elem


def logical(view, elem: dict, dom) -> list:
    """The tensor's logical index from elementary digits: row-major per axis, plus its start."""
    return [dom.value(start) + row_major([elem[n] for n in names], [view.size[n] for n in names], dom.zero)
            for start, names in zip(view.starts, view.left)]


def view_index(view, coords, dom, stem: str = "") -> list:
    """The tensor's logical index of the view element at ``coords``."""
    return logical(view, elements(view, coords, dom, stem), dom)


def layout_value(layout, index, dom, offset=0) -> dict:
    """The layout's components at ``index``: ``""`` (element offset / slot) and thread axes used."""
    out = {OFFSET: dom.value(offset)}
    for coord, shp, std in zip(index, layout.shape, layout.stride):
        for c, d in _split(coord, shp, std, dom):
            key, factor = (d.axis, d.coef) if isinstance(d, ThreadStride) else (OFFSET, d)
            out[key] = out.get(key, dom.zero) + c * dom.value(factor)
    return out


def components(comps: dict, dom) -> dict:
    """``comps`` with every component present (an absent one is zero)."""
    for a in (OFFSET, *THREAD_AXES):
        comps.setdefault(a, dom.zero)
    return comps


def operand_value(tensor, view, coords, dom, stem: str = "") -> dict:
    """Offset (memory) or slot and thread components (registers) of ``view`` at ``coords``."""
    return components(layout_value(tensor.layout, view_index(view, coords, dom, stem), dom, tensor.offset), dom)


def _split(coord, shape, stride, dom) -> list:
    """(coordinate, stride) leaves of one mode: colexicographic, the last sub-mode takes the rest."""
    if not isinstance(shape, tuple):
        return [(coord, stride)]
    out = []
    subs = list(zip(shape, stride))
    for i, (s, d) in enumerate(subs):
        if i == len(subs) - 1:  # the last sub-mode takes what is left, as in CuTe
            return out + _split(coord, s, d, dom)
        coord, rem = dom.divmod(coord, dom.extent(product(_leaves(s))), "sub")
        out += _split(rem, s, d, dom)
    return out
