"""The one evaluator of views and layouts (CuTe's ``crd2idx``), generic over a *domain*.

An operand's value at coordinates is computed in three steps, each written once here:

1. ``elements``: each view-axis coordinate split into its elementary axes' digits (row-major);
2. ``logical``: the tensor's logical index, each axis a row-major number of elementary digits
   plus the slice start;
3. ``layout_value``: the layout at that index, a nested mode split colexicographically (first
   sub-mode fastest), each leaf times its stride summed into the element offset (``""``) or a
   thread component (``laneid``, ``warpid``, ``tid``); a swizzled layout then XORs the element
   offset's bits (``Swizzle``; each domain's ``swizzle``).

The domain supplies the arithmetic: ``Ints`` (Python ints and numpy integer arrays: exact floor
division, elementwise, never in place; a sum or product that could pass int64 is taken on object
arrays, ``Ints.add``/``Ints.mul``), ``Polys`` (exact polynomials: digits and divisions through
fresh variables, the proofs' encoding) and ``Divisions`` (polynomials whose every digit is a
``Context.divmod``, which the emitter computes with division instructions).  The check model
(``Layout.__call__``, ``View.index``), the proofs (``encode.py``) and the emitter
(``emit/operand.py``) call this module; the brute-force decider and the numpy reference do not —
they state the semantics again on their own (``oracle.py``), so that they stay independent.
"""
from __future__ import annotations

from .errors import InputError
from .expr import concrete, evaluate, to_poly
from .modes import OFFSET, THREAD_AXES, ThreadStride, _leaves, product
from .poly import Context, Digits, Poly, Swizzled


INT64 = 2**63  # a numpy integer array's values and results stay within (-INT64, INT64), else object


def _magnitude(x) -> int:
    """The largest ``|x|`` (an int or a numpy array); 0 for an object array (exact already)."""
    if not hasattr(x, "dtype"):
        return abs(int(x))
    if x.dtype == object or x.size == 0:
        return 0
    return max(-int(x.min()), int(x.max()))


def _exact(x):
    return x.astype(object) if hasattr(x, "dtype") and x.dtype != object else x


class Ints:
    """Concrete values: Python ints or numpy integer arrays (elementwise, inputs never mutated).

    Exact like Python ints: a sum or product whose magnitude could reach 2^63 is taken on object
    arrays (a stride of a mode of extent 1, ``4*n*n2+n`` at large symbols, times coordinate 0 is
    no int64; nor is a sum of such terms)."""

    def __init__(self, env: dict[str, int] | None = None):
        self.env = env or {}

    zero = 0

    def add(self, a, b):
        x, y = _magnitude(a), _magnitude(b)
        if x + y >= INT64:
            a, b = _exact(a), _exact(b)
        return a + b

    def mul(self, a, b):
        x, y = _magnitude(a), _magnitude(b)
        if max(x, y, x * y) >= INT64:  # (an operand past int64, times an array of zeros, is no int64 either)
            a, b = _exact(a), _exact(b)
        return a * b

    def value(self, x):
        """A layout entry, a stride or a slice start (int or Expr) in this domain."""
        return evaluate(x, self.env)

    def extent(self, x) -> int:
        return evaluate(x, self.env)

    def divmod(self, c, d: int, stem: str):
        return c // d, c % d

    def swizzle(self, o, sw):
        """``sw(o)``: CuTe's XOR of the offset's bits (ints and numpy arrays alike)."""
        return sw(o)

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

    @staticmethod
    def add(a, b):
        return a + b

    @staticmethod
    def mul(a, b):
        return a * b

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

    def swizzle(self, o: Poly, sw) -> Poly:
        """``sw(o)`` exactly: ``o``'s bits split into fresh digits, the XOR of two bits ``z``, ``y``
        as ``z + y - 2*t`` with ``t = z AND y`` (``swizzle_poly``)."""
        return swizzle_poly(o, sw, self.ctx)

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
            ctx.memo[key] = Digits(c, tuple(sizes), tuple(ds))
        return list(ctx.memo[key].digits)


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


def _trivial(o: Poly, sw, ctx: Context):
    """``sw(o)`` when no digit is needed: B = 0, a constant, or an offset whose ``y`` bits are 0
    over its whole range; else None."""
    if sw.bits == 0:
        return o
    if o.is_const:
        return Poly.const(sw(o.constant))
    lo, hi = ctx.interval(o)
    top = sw.base + sw.shift
    if lo is not None and hi is not None and lo >> top == hi >> top and not lo & sw.yyy_mask:
        return o  # every value shares the bits from M+S up, and the y bits among them are 0
    return None


def swizzle_poly(o: Poly, sw, ctx: Context) -> Poly:
    """CuTe's ``Swizzle<B,M,S>`` of the polynomial ``o``, exact: one equation splits ``o`` into

        o = h*2^(M+S+B) + sum_i y_i*2^(M+S+i) + g*2^(M+B) + sum_i z_i*2^(M+i) + r

    (``r`` in [0, 2^M), ``g`` in [0, 2^(S-B)), bits ``y_i``, ``z_i`` in {0, 1}, ``h`` bounded by
    ``o``'s range), and ``swz(o) = o + sum_i 2^(M+i) * ((z_i XOR y_i) - z_i)`` with
    ``z XOR y = z + y - 2*t`` and ``t = z AND y`` stated linearly (``t <= z``, ``t <= y``,
    ``t >= z + y - 1``).  Every integer value of ``o`` has exactly one such split, so the
    polynomial equals ``swz(o)`` at every model.  The same ``o`` gets the same digits (memo)."""
    easy = _trivial(o, sw, ctx)
    if easy is not None:
        return easy
    key = ("swizzle", o, sw.bits, sw.base, sw.shift)
    if key in ctx.memo:
        return ctx.memo[key].value
    B, M, S = sw.bits, sw.base, sw.shift
    top = M + S + B
    lo, hi = ctx.interval(o)
    h = ctx.fresh("swz.h", None if lo is None else lo >> top, None if hi is None else hi >> top)
    r = ctx.fresh("swz.r", 0, (1 << M) - 1) if M else Poly()
    g = ctx.fresh("swz.g", 0, (1 << (S - B)) - 1) if S > B else Poly()
    z = [ctx.fresh(f"swz.z{i}", 0, 1) for i in range(B)]
    y = [ctx.fresh(f"swz.y{i}", 0, 1) for i in range(B)]
    split = h * (1 << top) + g * (1 << (M + B)) + r
    for i in range(B):
        split = split + y[i] * (1 << (M + S + i)) + z[i] * (1 << (M + i))
    ctx.eqs.append(o - split)
    out = o
    for i in range(B):
        t = ctx.fresh(f"swz.t{i}", 0, 1)
        ctx.ges += [z[i] - t, y[i] - t, t - z[i] - y[i] + 1]
        out = out + (y[i] - 2 * t) * (1 << (M + i))  # (z + y - 2t) - z
    ctx.memo[key] = Swizzled(o, sw.bits, sw.base, sw.shift, out)
    return out


class Divisions(Polys):
    """Polynomials whose digits are exact divisions (``Context.divmod``): what code computes."""

    def swizzle(self, o: Poly, sw) -> Poly:
        """One fresh variable per swizzled value, defined by its ``Swizzled`` entry in ``ctx.memo``:
        the emitter computes it with shift, and, xor (``emit/arith.py``)."""
        easy = _trivial(o, sw, self.ctx)
        if easy is not None:
            return easy
        ctx, key = self.ctx, ("swizzle", o, sw.bits, sw.base, sw.shift)
        if key not in ctx.memo:
            lo, hi = ctx.interval(o)
            mask = sw.block - 1  # swz(o) keeps every bit from M+B up
            v = ctx.fresh("swz", None if lo is None else lo & ~mask, None if hi is None else hi | mask)
            ctx.memo[key] = Swizzled(o, sw.bits, sw.base, sw.shift, v)
        return ctx.memo[key].value

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
    return [dom.add(dom.value(start), row_major([elem[n] for n in names], [view.size[n] for n in names], dom.zero))
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
            out[key] = dom.add(out.get(key, dom.zero), dom.mul(c, dom.value(factor)))
    if layout.swizzle is not None:  # ComposedLayout<Swizzle, offset, L>: the swizzle sees offset + L(i)
        out[OFFSET] = dom.swizzle(out[OFFSET], layout.swizzle)
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
