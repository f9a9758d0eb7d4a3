"""Exact integer polynomials over named variables, and the context that bounds them.

Offsets are built as polynomials so that identical nonlinear terms (a symbolic
stride times a coordinate) cancel *before* Z3 sees them: ``off(w) - off(0) - w``
of a contiguous atom is the zero polynomial even when the row stride is a
symbol.  Division and remainder by a concrete positive integer introduce fresh
variables with exact defining constraints, so every encoding stays exact.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd, prod

import z3

Monomial = tuple[str, ...]  # sorted variable names, repeated for powers


class Poly:
    """An immutable polynomial with integer coefficients."""

    __slots__ = ("terms",)

    def __init__(self, terms: dict[Monomial, int] | None = None):
        self.terms = {m: c for m, c in (terms or {}).items() if c}

    @staticmethod
    def _clean(terms: dict) -> "Poly":
        """A polynomial of ``terms``, which has no zero coefficient (not checked)."""
        p = object.__new__(Poly)
        p.terms = terms
        return p

    @staticmethod
    def const(c: int) -> "Poly":
        return Poly._clean({(): c} if c else {})

    @staticmethod
    def var(name: str) -> "Poly":
        return Poly._clean({(name,): 1})

    @staticmethod
    def of(x: "Poly | int") -> "Poly":
        return x if isinstance(x, Poly) else Poly.const(int(x))

    # arithmetic -------------------------------------------------------------
    def __add__(self, other):
        terms = dict(self.terms)
        if not isinstance(other, Poly):  # a constant
            c = terms.get((), 0) + int(other)
            if c:
                terms[()] = c
            else:
                terms.pop((), None)
            return Poly._clean(terms)
        for m, c in other.terms.items():
            terms[m] = terms.get(m, 0) + c
        return Poly(terms)

    __radd__ = __add__

    def __neg__(self):
        return Poly._clean({m: -c for m, c in self.terms.items()})

    def __sub__(self, other):
        return self + (-Poly.of(other))

    def __rsub__(self, other):
        return Poly.of(other) - self

    def __mul__(self, other):
        if not isinstance(other, Poly):  # a constant: every coefficient scaled
            k = int(other)
            return Poly._clean({m: c * k for m, c in self.terms.items()} if k else {})
        terms: dict[Monomial, int] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in other.terms.items():
                m = tuple(sorted(m1 + m2))
                terms[m] = terms.get(m, 0) + c1 * c2
        return Poly(terms)

    __rmul__ = __mul__

    # inspection -------------------------------------------------------------
    @property
    def is_const(self) -> bool:
        return all(not m for m in self.terms)

    @property
    def constant(self) -> int:
        return self.terms.get((), 0)

    def variables(self) -> set[str]:
        return {v for m in self.terms for v in m}

    def coefficient(self, name: str) -> int | None:
        """The coefficient of ``name`` if the polynomial is linear in it, else None."""
        c = 0
        for m, k in self.terms.items():
            if name in m:
                if m != (name,):
                    return None
                c = k
        return c

    def without(self, names: set[str]) -> "Poly":
        """The terms that mention none of ``names``."""
        return Poly({m: c for m, c in self.terms.items() if not names.intersection(m)})

    def content(self) -> int:
        """gcd of the non-constant coefficients (0 for a constant)."""
        g = 0
        for m, c in self.terms.items():
            if m:
                g = gcd(g, c)
        return g

    def mod(self, modulus: int) -> "Poly":
        """A polynomial congruent to this one modulo ``modulus`` for all integer values:
        every coefficient reduced into ``[0, modulus)``."""
        return Poly({m: c % modulus for m, c in self.terms.items()})

    def eval(self, env: dict[str, int]) -> int:
        return sum(c * prod(env[v] for v in m) for m, c in self.terms.items())

    def subst(self, env: dict[str, "Poly | int"]) -> "Poly":
        out = Poly()
        for m, c in self.terms.items():
            t = Poly.const(c)
            for v in m:
                t = t * (Poly.of(env[v]) if v in env else Poly.var(v))
            out = out + t
        return out

    def z3(self, vars: dict[str, z3.ArithRef]) -> z3.ArithRef:
        """The same term as ``Sum(c * Product(vars))``, made through Z3's C API directly (the
        Python wrappers' coercions cost more than Z3 itself on small queries)."""
        parts = []
        for m, c in sorted(self.terms.items()):
            factors = [vars[v] for v in m]
            if not factors:
                parts.append(_int(c))
                continue
            if c != 1:
                factors.insert(0, _int(c))
            parts.append(factors[0] if len(factors) == 1 else _app(z3.Z3_mk_mul, factors))
        if not parts:
            return _int(0)
        return parts[0] if len(parts) == 1 else _app(z3.Z3_mk_add, parts)

    def __eq__(self, other):
        return isinstance(other, (Poly, int)) and self.terms == Poly.of(other).terms

    def __hash__(self):
        return hash(frozenset(self.terms.items()))

    def __repr__(self):
        if not self.terms:
            return "0"
        parts = []
        for m, c in sorted(self.terms.items(), key=lambda t: (len(t[0]), t[0])):
            body = "*".join(m)
            parts.append(str(c) if not m else (body if c == 1 else f"-{body}" if c == -1 else f"{c}*{body}"))
        return " + ".join(parts).replace("+ -", "- ")


_INTS: dict = {}


def _int(c: int) -> z3.ArithRef:
    """``z3.IntVal(c)``, made once per value (main context)."""
    v = _INTS.get(c)
    if v is None:
        if len(_INTS) > 4096:
            _INTS.clear()
        v = _INTS[c] = z3.IntVal(c)
    return v


def _app(mk, args: list) -> z3.ArithRef:
    """``mk`` (Z3_mk_add / Z3_mk_mul) of integer terms of the main context."""
    ctx = args[0].ctx
    arr = (z3.Ast * len(args))(*(a.as_ast() for a in args))
    return z3.ArithRef(mk(ctx.ref(), len(args), arr), ctx)


# Z3 terms through the C API: the same terms as z3py's operators and ``z3.And``/``Or``/``Not``/``If``
# (so exported SMT-LIB text is unchanged), without the wrappers' coercions and sort checks, which
# cost more than Z3 itself on tilecheck's small queries.  Arguments are Z3 terms of the main
# context (an ``int`` is accepted where an integer term is expected).

def _term(x, ctx):
    return x if isinstance(x, z3.ExprRef) else _int(x)


def _bools(mk, args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    if not args or not all(isinstance(a, z3.BoolRef) for a in args):
        return None
    ctx = args[0].ctx
    arr = (z3.Ast * len(args))(*(a.as_ast() for a in args))
    return z3.BoolRef(mk(ctx.ref(), len(args), arr), ctx)


def And(*args):
    """``z3.And(*args)``."""
    out = _bools(z3.Z3_mk_and, args)
    return z3.And(*args) if out is None else out


def Or(*args):
    """``z3.Or(*args)``."""
    out = _bools(z3.Z3_mk_or, args)
    return z3.Or(*args) if out is None else out


def Not(a):
    """``z3.Not(a)``."""
    if not isinstance(a, z3.BoolRef):
        return z3.Not(a)
    return z3.BoolRef(z3.Z3_mk_not(a.ctx.ref(), a.as_ast()), a.ctx)


def If(c, a, b):
    """``z3.If(c, a, b)`` of integer terms (or ints)."""
    if not isinstance(c, z3.BoolRef) or not (isinstance(a, z3.ArithRef) or isinstance(b, z3.ArithRef)) \
            or not all(isinstance(x, (int, z3.ArithRef)) and not isinstance(x, bool) for x in (a, b)):
        return z3.If(c, a, b)
    ctx = c.ctx
    return z3.ArithRef(z3.Z3_mk_ite(ctx.ref(), c.as_ast(), _term(a, ctx).as_ast(), _term(b, ctx).as_ast()), ctx)


def _distinct(ctx, a, b):
    arr = (z3.Ast * 2)(a, b)
    return z3.Z3_mk_distinct(ctx, 2, arr)


_CMP = {"<": z3.Z3_mk_lt, "<=": z3.Z3_mk_le, ">": z3.Z3_mk_gt, ">=": z3.Z3_mk_ge, "==": z3.Z3_mk_eq,
        "!=": _distinct, "ge": z3.Z3_mk_ge, "le": z3.Z3_mk_le, "eq": z3.Z3_mk_eq}


def cmp(op: str, a, b):
    """``a OP b`` for an integer term ``a`` and an integer term or int ``b`` (``!=`` is ``distinct``,
    as z3py writes it)."""
    if not isinstance(a, z3.ArithRef) or not isinstance(b, (int, z3.ArithRef)) or isinstance(b, bool):
        return _SLOW[op](a, b)  # (tilecheck makes no real-valued terms: an ArithRef is an integer)
    ctx = a.ctx
    return z3.BoolRef(_CMP[op](ctx.ref(), a.as_ast(), _term(b, ctx).as_ast()), ctx)


_SLOW = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
         "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "ge": lambda a, b: a >= b,
         "le": lambda a, b: a <= b, "eq": lambda a, b: a == b}


def nonnegative(p: Poly, op: str) -> list[Poly]:
    """``p OP 0`` (op ``<``, ``<=``, ``>``, ``>=`` or ``==``) as polynomials that are each ``>= 0``, over
    the integers (``p > 0``: ``p - 1 >= 0``); empty for ``!=``, which is no such conjunction."""
    out = []
    if op in (">=", ">", "=="):
        out.append(p - (1 if op == ">" else 0))
    if op in ("<=", "<", "=="):
        out.append(-p - (1 if op == "<" else 0))
    return out


# --- the context's memo: the fresh variables that decompositions define -----------------------------
# One entry per decomposed value, so that the same value gets the same variables; the proofs and the
# emitter read the definitions back (``Context.defined``) to compute the variables or to emit them.

@dataclass(frozen=True)
class Division:
    """``Context.divmod``: ``source == d*q + r`` with ``r`` in ``[0, d)``, exact floor division."""
    source: "Poly"
    d: int
    q: "Poly"
    r: "Poly"

    @property
    def parts(self) -> tuple:
        return self.q, self.r


@dataclass(frozen=True)
class Digits:
    """``crd2idx.Polys.digits``: ``source`` split into row-major digits, digit k in ``[0, sizes[k])``."""
    source: "Poly"
    sizes: tuple[int, ...]
    digits: tuple

    @property
    def parts(self) -> tuple:
        return self.digits


@dataclass(frozen=True)
class Swizzled:
    """CuTe's ``Swizzle<bits, base, shift>`` of ``source`` (``crd2idx.swizzle_poly``: a polynomial in
    its digits; ``crd2idx.Divisions.swizzle``: one fresh variable that the emitter computes)."""
    source: "Poly"
    bits: int
    base: int
    shift: int
    value: "Poly"

    @property
    def parts(self) -> tuple:
        return (self.value,)


MemoEntry = Division | Digits | Swizzled


@dataclass
class Var:
    name: str
    lo: int | None
    hi: int | None


@dataclass
class Context:
    """The variables of one query family with their bounds and defining constraints."""

    vars: dict[str, Var] = field(default_factory=dict)
    eqs: list[Poly] = field(default_factory=list)  # each == 0
    ges: list[Poly] = field(default_factory=list)  # each >= 0
    rels: list = field(default_factory=list)  # (Poly, op): poly OP 0, op in < <= > >= == !=
    memo: dict[tuple, MemoEntry] = field(default_factory=dict)  # shared decompositions (in the order made):
    # the same digits for the same value; read with ``defined``
    _fresh: int = 0

    def defined(self, *kinds: type) -> list:
        """The memo's entries of the given kinds (``Division``, ``Digits``, ``Swizzled``; every kind when
        none is given), in the order they were made (a nested digit after its source)."""
        return [e for e in self.memo.values() if not kinds or isinstance(e, kinds)]

    def var(self, name: str, lo: int | None, hi: int | None) -> Poly:
        self.vars[name] = Var(name, lo, hi)
        return Poly.var(name)

    def fresh(self, stem: str, lo: int | None, hi: int | None) -> Poly:
        self._fresh += 1
        return self.var(f"{stem}~{self._fresh}", lo, hi)

    def constants(self, names) -> dict[str, int]:
        """The variables among ``names`` that have one value in their range, with that value (the warp
        index of a one-warp CTA, a symbol whose range holds one multiple of its ``multiple_of``, a digit
        of extent 1): substituted, a polynomial keeps its value wherever the bounds hold."""
        return {v: var.lo for v in names
                if (var := self.vars.get(v)) is not None and var.lo is not None and var.lo == var.hi}

    def interval(self, p: Poly) -> tuple[int | None, int | None]:
        """Sound bounds of ``p`` from the variables' bounds (None: unbounded)."""
        lo = hi = 0
        for m, c in p.terms.items():
            tl, th = c, c
            for v in m:
                var = self.vars.get(v) or Var(v, None, None)
                cands = []
                for a in (tl, th):
                    for b in (var.lo, var.hi):
                        if a is None or b is None:
                            cands = None
                            break
                        cands.append(a * b)
                    if cands is None:
                        break
                if cands is None:
                    tl = th = None
                    break
                tl, th = min(cands), max(cands)
            lo = None if lo is None or tl is None else lo + tl
            hi = None if hi is None or th is None else hi + th
        return lo, hi

    def divmod(self, p: Poly, d: int, stem: str = "q") -> tuple[Poly, Poly]:
        """Exact floor division of ``p`` by a concrete ``d > 0`` through fresh variables."""
        if p.is_const:
            return Poly.const(p.constant // d), Poly.const(p.constant % d)
        if d == 1:
            return p, Poly.const(0)
        key = ("divmod", p, d)
        if key in self.memo:
            return self.memo[key].parts
        lo, hi = self.interval(p)
        q = self.fresh(stem, None if lo is None else lo // d, None if hi is None else hi // d)
        r = self.fresh(stem + "r", 0, d - 1)
        self.eqs.append(p - (q * d + r))
        self.memo[key] = Division(p, d, q, r)
        return q, r

    def z3vars(self) -> dict[str, z3.ArithRef]:
        return {name: z3.Int(name) for name in self.vars}

    def background(self, zv: dict[str, z3.ArithRef]) -> list[tuple[z3.BoolRef, frozenset]]:
        """Bounds, defining equations and facts, each with the variables it mentions."""
        out = []
        for v in self.vars.values():
            if v.lo is not None:
                out.append((zv[v.name] >= v.lo, frozenset((v.name,))))
            if v.hi is not None:
                out.append((zv[v.name] <= v.hi, frozenset((v.name,))))
        out += [(e.z3(zv) == 0, frozenset(e.variables())) for e in self.eqs]
        out += [(g.z3(zv) >= 0, frozenset(g.variables())) for g in self.ges]
        for p, op in self.rels:
            out.append((_REL[op](p.z3(zv), 0), frozenset(p.variables())))
        return out


_REL = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
