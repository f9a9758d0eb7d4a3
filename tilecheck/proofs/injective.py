"""An exact lemma for injectivity of affine maps over boxes, proved before the main query.

An offset ``Σ c_k·x_k + r`` that is linear in its coordinate-derived variables ``x_k``
(each in ``[lo_k, hi_k]``; the coefficients ``c_k`` and ``r`` are polynomials in the
symbols) is injective on the box when, in some order of the ``x_k``,

    |c_k| > Σ_{j<k} |c_j|·(hi_j − lo_j)        for every k       (the chain condition)

(the classic mixed-radix argument: the largest differing term cannot be cancelled by the
smaller ones).  The chain is a query over the symbols alone; when Z3 proves it under the
facts, ``off(a) == off(b)`` implies ``x_k(a) == x_k(b)`` for every k, a valid lemma that
``disjoint`` adds to its formula.  What remains (equal digits, different accesses) is
linear and easy.  If the chain is not proved in time, no lemma is added: nothing is lost
but speed.  The order tried is the coefficients' order at the symbols' smallest values.  Across
CTAs (``_across``), a CTA digit's span may be replaced by the two copies' actual difference,
bounded by their facts, with that digit tried at each place in the order.
"""
from __future__ import annotations

import math
from itertools import permutations

import z3
import numpy as np

from ..poly import And, Or, Poly, cmp
from ..expr import to_poly
from ..layout import ThreadStride
from .runner import tactic_solver

CHAIN_MS = 300


def _chain_solver():
    """The chain's queries (nonlinear in the symbols) go to the runner's tactic, not ``z3.Solver()``
    (``runner.tactic_solver`` says why)."""
    return tactic_solver(CHAIN_MS)


def _derived(q, tag: str) -> set[str]:
    """The variables whose values depend on instance ``tag``'s coordinates."""
    ctx = q.ctx
    out = {v for v in ctx.vars if v.startswith(tag + ":") or v.startswith(tag + ".")}
    changed = True
    while changed:
        changed = False
        for e in ctx.eqs:
            vs = e.variables()
            if vs & out and not vs <= out:
                out |= vs
                changed = True
    return out


def _split(q, off: Poly, leaves: set[str]):
    """{leaf: coefficient Poly}, or None when ``off`` is not linear in the leaves."""
    coef: dict[str, dict] = {}
    for m, c in off.terms.items():
        ls = [v for v in m if v in leaves]
        if len(ls) > 1:
            return None
        if ls:
            rest = list(m)
            rest.remove(ls[0])
            coef.setdefault(ls[0], {})
            t = tuple(rest)
            coef[ls[0]][t] = coef[ls[0]].get(t, 0) + c
    return {v: Poly(t) for v, t in coef.items()}


def lemma(q, off_a: Poly, tag_a: str, off_b: Poly, tag_b: str, extra=(frozenset(), frozenset()),
          pairs_out: list | None = None, paired: dict | None = None) -> list:
    """Equalities ``x_k(a) == x_k(b)`` implied by ``off_a == off_b`` (Z3 terms), or [] when the
    chain condition is not proved.  ``extra``: more variables of each side that count as its digits
    (two CTAs: each one's copy of the CTA-bound symbols), over the range the facts prove for them
    (``_proved_range``: a superset of the values the facts allow, so the lemma stays valid).
    ``pairs_out``: when the lemma is those equalities of variables, their pairs ``(x_k(a), x_k(b))``
    are appended to it (``determined`` uses them).  ``paired``: when the digits pair up (one
    coefficient each) but no lemma is made, it gets them: ``pairs`` and a's coefficients ``ca``
    (``differences`` uses them)."""
    out = _lemma(q, off_a, tag_a, off_b, tag_b, extra, paired)
    if isinstance(out, tuple):  # (the pairs' equalities, the pairs)
        if pairs_out is not None:
            pairs_out.extend(out[1])
        return out[0]
    return out


def _equal(q, pairs, strict: bool = False):
    """The lemma of ``pairs``: their equalities and the pairs themselves."""
    zv = q.zv
    return ([zv[v] == zv[w] for v, w in pairs] if strict else [cmp("==", zv[v], zv[w]) for v, w in pairs]), list(pairs)


def determined(q, pairs: list, xs: list, tags=("a", "b"), extra=(frozenset(), frozenset())) -> bool:
    """True when equal lemma digits (``pairs``, from ``lemma``'s ``pairs_out``) make every ``(x, y)`` of
    ``xs`` equal: each side rewritten through the encoding's defining equations (``Context.eqs``, a
    variable of coefficient +-1 solved for) until it names only its own side's digits and the shared
    variables (symbols, parameters), then b's digits renamed to a's, the two polynomials identical.
    Every step is an equation the query's constraints state, so with ``xs`` the coordinates that two
    distinct accesses differ in, ``determined`` means the violation ("differ, and the same offset")
    has no model: ``disjoint`` is proved without the solver.  False when any step does not go through
    (the solver decides, as before)."""
    if not pairs:
        return False
    la, lb = _derived(q, tags[0]) | set(extra[0]), _derived(q, tags[1]) | set(extra[1])
    leaves_a, leaves_b = {v for v, _ in pairs}, {w for _, w in pairs}
    rename = {w: Poly.var(v) for v, w in pairs}
    fixed = q.ctx.constants(la | lb)
    for x, y in xs:
        ex = _express(q, x, la - leaves_a, fixed)
        ey = _express(q, y, lb - leaves_b, fixed)
        if ex is None or ey is None or ex != ey.subst(rename):
            return False
    return True


EXPRESS_STEPS = 32  # substitutions ``_express`` makes at most


def _express(q, p: Poly, eliminate: set, fixed: dict) -> "Poly | None":
    """``p`` with every variable of ``eliminate`` replaced through a defining equation ``c*u + rest == 0``
    (``c`` = +-1, ``u`` in no other monomial: ``u = -c*rest``), and the one-valued variables by their
    value; None when some variable cannot be replaced within ``EXPRESS_STEPS``."""
    p = p.subst(fixed) if fixed and p.variables() & set(fixed) else p
    for _ in range(EXPRESS_STEPS):
        left = p.variables() & eliminate
        if not left:
            return p
        u = min(left)
        for e in q.ctx.eqs:
            c = e.terms.get((u,))
            if c in (1, -1) and not any(u in m and m != (u,) for m in e.terms):
                p = p.subst({u: (Poly({(u,): c}) - e) * c})
                if fixed and p.variables() & set(fixed):
                    p = p.subst(fixed)
                break
        else:
            return None
    return None


def _lemma(q, off_a: Poly, tag_a: str, off_b: Poly, tag_b: str, extra, paired=None):
    ctx = q.ctx
    more = set(extra[0]) | set(extra[1])
    la, lb = _derived(q, tag_a) | set(extra[0]), _derived(q, tag_b) | set(extra[1])
    if la & lb:
        return []
    fixed = ctx.constants(la | lb)
    off_a, off_b = off_a.subst(fixed), off_b.subst(fixed)  # digits with one value are constants
    if off_a.without(la) != off_b.without(lb):  # the same parameter part: the difference is Σ c_k·Δx_k
        return []
    ca, cb = _split(q, off_a, la), _split(q, off_b, lb)
    if ca is None or cb is None:
        return []
    params = (off_a.variables() - la) | (off_b.variables() - lb)
    if params & (la | lb):
        return []
    spans = {}
    for v in (*ca, *cb):
        var = ctx.vars.get(v)
        if var is None or var.lo is None or var.hi is None:
            return []
        lo, hi = _proved_range(q, v, var.lo, var.hi) if v in more else (var.lo, var.hi)
        spans[v] = hi - lo
    live_a = [v for v in ca if spans[v] > 0 and ca[v] != Poly()]
    live_b = [v for v in cb if spans[v] > 0 and cb[v] != Poly()]
    pairs = []
    for v in live_a:  # pair a's digits with b's: the same coefficient and range
        match = [w for w in live_b if cb[w] == ca[v] and spans[w] == spans[v]]
        if len(match) != 1:
            return []
        pairs.append((v, match[0]))
    if len(pairs) != len(live_b):
        return []
    if paired is not None:  # (across CTAs too: each CTA digit over its declared range, a superset)
        paired.update(pairs=list(pairs), ca=ca)
    env = {}
    for p in params:
        var = ctx.vars.get(p)
        if var is None or var.lo is None:
            return []
        env[p] = var.lo
    if any(not ca[v].variables() <= set(env) for v, _ in pairs):
        return []  # a coefficient names a variable with no lower end: no order to try
    zv = q.zv
    def background():  # the facts and the ranges of the parameters (a subset: sound to drop the rest)
        return [q.build(c) for c, vs in q.constraints() if vs and vs <= params | _param_closure(q, params)]

    if not params:  # constant coefficients: the chain condition is arithmetic, decided here exactly
        total, order = 0, sorted(pairs, key=lambda vw: abs(ca[vw[0]].constant))
        for v, _ in order:
            c = abs(ca[v].constant)
            if c <= total:  # (across CTAs: the CTA digits' actual differences may still make it)
                if more & set(ca):
                    return _across(q, order, ca, spans, more, background())
                # no chain: every difference of the digits, tried
                return _equal(q, pairs) if _no_collision(q, pairs, ca, None) else []
            total += c * spans[v]
        return _equal(q, pairs)
    strides = set().union(*(ca[v].variables() for v, _ in pairs))  # the coefficients' parameters
    if len(strides) == 1 and not more and _no_collision(q, pairs, ca, min(strides)):  # one of them: exact
        return _equal(q, pairs)
    facts = background()
    orders = [sorted(pairs, key=lambda vw: abs(ca[vw[0]].eval(env)))]  # at the parameters' lower ends
    at = _at_facts_model(q, params)  # and at a point the facts allow (a fact may push a stride up)
    if at is None:
        first = _chain_solver()
        first.add(*facts)
        if first.check() == z3.sat:
            m = first.model()
            at = {p: m.eval(zv[p], model_completion=True).as_long() for p in params if p in zv}
    if at is not None and all(ca[v].variables() <= set(at) for v, _ in pairs):
        other = sorted(pairs, key=lambda vw: abs(ca[vw[0]].eval(at)))
        if other != orders[0]:
            orders.append(other)
    for order in orders:
        if at is not None and _fails_at(order, ca, spans, at):
            continue  # the chain fails at an allowed point: its query is sat, no need to ask
        if _chain_proved(q, order, ca, spans, facts):
            return _equal(q, pairs, strict=True)
    for order in orders if more else ():  # across CTAs: from each order (the facts' model's too: a
        # stride the facts push up, ``s2 >= 2*n2*s``, is not large at its own lower end)
        found = _across(q, order, ca, spans, more, facts)
        if found:
            return found
    return []


DIFFERENCES = 1 << 16  # difference vectors _no_collision tries, at most
DIFFERENCE_CASES = 1024  # difference vectors ``differences`` states as cases, at most


def differences(q, pairs: list, ca: dict):
    """Where no lemma is made: the equal-offset condition as cases of the digits' differences, a Z3
    formula implied by ``off_a == off_b`` over the digits' ranges (so a valid conjunct of the
    violation: equisatisfiable, and each case linear in the coordinates), or None.  With
    ``off_a - off_b = Σ c_k·Δ_k`` (``Δ_k = x_k(a) - x_k(b)``, ``c_k`` polynomials in the symbols: ``ca``),
    every difference vector of the digits' box whose sum ``Σ c_k·Δ_k`` can be 0 over the coefficients'
    ranges (interval arithmetic: a superset) is one case ``Δ(a, b) = Δ ∧ Σ c_k·Δ_k = 0``; the vector 0
    included.  Two stride symbols (``2*s3`` per lane, ``s`` per warp, with ``s3 >= n*s2`` a fact): the
    solver no longer meets products of symbols and coordinates.  None past ``DIFFERENCES`` vectors or
    ``DIFFERENCE_CASES`` cases, or a digit or coefficient without bounds where it matters."""

    ctx = q.ctx
    ranges = []
    for v, w in pairs:
        a, b = ctx.vars[v], ctx.vars[w]
        if None in (a.lo, a.hi, b.lo, b.hi):
            return None
        ranges.append((a.lo - b.hi, a.hi - b.lo))
    if not pairs or math.prod(r1 - r0 + 1 for r0, r1 in ranges) > DIFFERENCES:
        return None
    axes = np.meshgrid(*(np.arange(r0, r1 + 1, dtype=np.int64) for r0, r1 in ranges), indexing="ij")
    d = np.stack([x.ravel() for x in axes], axis=1)
    # Σ c_k·Δ_k = Σ_m C_m(Δ)·m over the coefficients' monomials m (C_m(Δ) = Σ_k coef(c_k, m)·Δ_k, exact):
    # its [min, max] over each monomial's interval (a constant's is itself), the monomials' shared
    # parameters kept together (``2*s3*Δl + s*Δw``: one term per symbol), exactly: in int64 where
    # the values fit, else in Python's integers (object arrays); flags where a monomial has no end
    monos = sorted(set().union(*(ca[v].terms for v, _ in pairs)))
    reach = max(max(abs(r0), abs(r1)) for r0, r1 in ranges)
    cols = []
    for m in monos:
        coef = [ca[v].terms.get(m, 0) for v, _ in pairs]
        lo, hi = (1, 1) if not m else ctx.interval(Poly({m: 1}))
        cols.append((coef, lo, hi))
    top = max([abs(x) for coef, lo, hi in cols for x in (*coef, lo, hi) if x is not None], default=1)
    kind = np.int64 if (top + 1) ** 2 * reach * len(pairs) * len(cols) < 1 << 62 else object
    d = d.astype(kind)
    lo_sum = np.zeros(len(d), dtype=np.int64).astype(kind)
    hi_sum = np.zeros(len(d), dtype=np.int64).astype(kind)
    lo_inf = np.zeros(len(d), dtype=bool)
    hi_inf = np.zeros(len(d), dtype=bool)
    for coef, lo, hi in cols:
        dk = d @ np.array(coef, dtype=kind)  # C_m(Δ) (a coefficient of 2^63 is no int64: object)
        pos, neg = dk > 0, dk < 0
        if lo is None:  # C_m·m unbounded below where C_m > 0, above where C_m < 0
            lo_inf |= pos
            hi_inf |= neg
        if hi is None:
            hi_inf |= pos
            lo_inf |= neg
        a = dk * (0 if lo is None else lo)
        b = dk * (0 if hi is None else hi)
        lo_sum += np.where(pos, a if lo is not None else 0, np.where(neg, b if hi is not None else 0, 0))
        hi_sum += np.where(pos, b if hi is not None else 0, np.where(neg, a if lo is not None else 0, 0))
    keep = d[(lo_inf | (lo_sum <= 0)) & (hi_inf | (hi_sum >= 0))]
    if len(keep) > DIFFERENCE_CASES:
        return None
    zv = q.zv
    cases = []
    for row in keep.tolist():
        total = Poly()
        for (v, _), x in zip(pairs, row):
            total = total + ca[v] * x
        cases.append(And(*[cmp("==", q.z(Poly.var(v) - Poly.var(w)), x) for (v, w), x in zip(pairs, row)],
                         cmp("==", q.z(total), 0)))
    return Or(*cases)


def _no_collision(q, pairs, ca, p: "str | None") -> bool:
    """True when ``Σ c_k·Δ_k = 0`` has no solution with the differences ``Δ_k = x_k(a) - x_k(b)`` of the
    paired digits (each over its two ranges) not all 0, for any value of the parameter ``p`` in its range
    (``c_k = α_k·p + β_k``; ``p`` None: constant coefficients): then equal offsets mean equal digits.
    Exact where the chain condition is only sufficient (``3x + 5y`` over ``[0, 4]^2``; a stride that is
    a multiple of ``n`` next to a constant one, the chain holding only for small ``n``): every difference
    vector is tried (``DIFFERENCES`` at most), and each gives at most one ``p`` (``p = -B/A``).  False
    (no lemma: the solver decides) past the limits or when some value in ``p``'s range collides, even one
    the facts rule out."""

    lo = hi = None
    if p is not None:
        var = q.ctx.vars.get(p)
        if var is None or var.lo is None or var.hi is None:
            return False
        lo, hi = var.lo, var.hi
    alphas, betas, ranges = [], [], []
    for v, w in pairs:
        c = ca[v]
        if any(m not in ((), (p,)) for m in c.terms):
            return False
        a, b = q.ctx.vars[v], q.ctx.vars[w]
        alphas.append(c.terms.get((p,), 0) if p is not None else 0)
        betas.append(c.terms.get((), 0))
        ranges.append((a.lo - b.hi, a.hi - b.lo))
    if math.prod(r1 - r0 + 1 for r0, r1 in ranges) > DIFFERENCES:
        return False
    reach = max(max(abs(r0), abs(r1)) for r0, r1 in ranges) if ranges else 0
    if (sum(map(abs, alphas)) + sum(map(abs, betas))) * reach >= 1 << 62 or \
            (p is not None and max(abs(lo), abs(hi)) >= 1 << 62):
        return False
    axes = np.meshgrid(*(np.arange(r0, r1 + 1, dtype=np.int64) for r0, r1 in ranges), indexing="ij")
    d = np.stack([x.ravel() for x in axes], axis=1)
    d = d[d.any(axis=1)]  # not all 0
    a = d @ np.array(alphas, dtype=np.int64)
    b = d @ np.array(betas, dtype=np.int64)
    if ((a == 0) & (b == 0)).any():  # a collision at every value of p
        return False
    some = a != 0
    a, b = a[some], b[some]
    whole = b % a == 0
    at = -b[whole] // a[whole]  # the one value of p at which this difference collides
    return not bool(((at >= lo) & (at <= hi)).any()) if p is not None else True


def _chain_proved(q, order, ca, spans, facts: list, actual: set = frozenset()) -> bool:
    """The chain condition in ``order`` holds under ``facts``: its failure is unsat.  Each pair's bound
    on ``|Δ|`` is its span, or for a pair whose first digit is in ``actual`` the two digits' actual
    difference (``_across``), which must then also exceed the rest by itself where it is not 0: ``|c·Δ|
    > Σ_{j<k}`` (``|Δ| >= 1`` is all a box digit's condition ``|c| > Σ_{j<k}`` uses)."""
    zv = q.zv
    terms, fails = [], []
    for v, w in order:
        c = ca[v].z3(zv)
        absc = z3.If(c >= 0, c, -c)
        below = z3.Sum(*terms) if terms else z3.IntVal(0)
        if v in actual:  # its own difference, where it is the largest nonzero one: |c*Δ| must exceed the
            d = zv[v] - zv[w]  # rest (so a difference the facts keep a multiple of 8 counts 8 times |c|)
            fails.append(z3.And(d != 0, absc * z3.If(d >= 0, d, -d) <= below))
            terms.append(absc * z3.If(d >= 0, d, -d))
        else:  # a span: an int, or a polynomial in the symbols (in_bounds: an extent less one)
            fails.append(absc <= below)
            terms.append(absc * (spans[v].z3(zv) if isinstance(spans[v], Poly) else spans[v]))
    solver = _chain_solver()
    solver.add(z3.Or(*fails))
    solver.add(*facts)
    return solver.check() == z3.unsat


def _across(q, order, ca, spans, more: set, facts: list) -> list:
    """The chain with each CTA's copy of a CTA-bound digit counted by the two copies' actual
    difference ``|v - w|`` instead of its proved span, under the facts of both copies (their range
    may depend on another symbol: ``r + 1 <= 3*n`` with ``n`` unbounded).  Still the mixed-radix
    argument: for the largest ``k`` with ``Δ_k != 0``, ``|c_k·Δ_k| >= |c_k| > Σ_{j<k} |c_j|·b_j >=
    |Σ_{j<k} c_j·Δ_j|`` where ``b_j`` bounds ``|Δ_j|`` (a box digit's span; a CTA digit's own
    ``|Δ_j|``), so ``off(a) == off(b)`` forces every ``Δ`` to 0; where ``Δ_k`` is a CTA digit's, the
    condition is ``|c_k·Δ_k| > Σ_{j<k}`` itself, so a difference the facts keep large (both copies
    ``r % 8 == 0``: ``|Δ| >= 8``) counts.  [] when not proved or no CTA digit."""
    cta = [vw for vw in order if vw[0] in more]
    if not cta:
        return []
    zv = q.zv
    tries = [order]  # the order given, then each CTA digit moved to every other place (its |Δ| may be
    for vw in cta:  # small where another symbol is: r' <= (3*n - 1)/8 below a digit of 6*n)
        rest = [x for x in order if x != vw]
        tries += [o for o in (rest[:k] + [vw] + rest[k:] for k in range(len(order))) if o not in tries]
    for order in tries[:ACROSS_ORDERS]:
        if _chain_proved(q, order, ca, spans, facts, actual=more):
            return [zv[v] == zv[w] for v, w in order]
    return []


ACROSS_ORDERS = 8  # orders _across tries, at most


def _at_facts_model(q, params: set[str]) -> dict[str, int] | None:
    """The parameters' values at the facts' model (``proofs.facts``: symbol values that satisfy every
    fact, so every constraint over the parameters the chain query states), or None when it is not
    known or some parameter is not a symbol's variable."""
    facts = getattr(q, "facts", None)
    if facts is None or facts.status != "sat":
        return None
    model, at = facts.model, {}
    for name, p in q.symbols.items():
        vs = p.variables()
        if name not in model or len(vs) != 1:
            continue
        (v,) = vs
        c = p.terms.get((v,))
        if c is None or len(p.terms) != 1 or model[name] % c:
            return None
        at[v] = model[name] // c
    return at if params <= set(at) else None


def _fails_at(order, ca, spans, at) -> bool:
    """The chain condition in ``order`` fails at the parameter values ``at`` (exact arithmetic)."""
    total = 0
    for v, _ in order:
        c = abs(ca[v].eval(at))
        if c <= total:
            return True
        total += c * (max(0, spans[v].eval(at)) if isinstance(spans[v], Poly) else spans[v])
    return False


def _param_closure(q, params: set[str]) -> set[str]:
    """Parameters and the fact variables connected to them: the symbols' (and their CTA copies')
    variables and every division digit of their ``assume`` facts, both sides of each digit's defining
    equation (``x = d*q + r``: without ``q`` the equation would be left out, and ``x % d == e`` with it)."""
    return set(params) | q.fact_vars  # (every fact's variables: ``Query._facts`` makes every relation)


def _proved_range(q, v: str, lo: int, hi: int) -> tuple[int, int]:
    """The narrowest ``[lo', hi']`` within ``[lo, hi]`` that the symbols' facts prove for the
    variable ``v`` (a binary search at each end: an end moves only past values the facts exclude,
    each step one unsat answer; a step the solver cannot decide keeps the end)."""
    closure = _param_closure(q, {v})
    facts = [q.build(c) for c, vs in q.constraints() if vs and vs <= closure]
    if not facts:
        return lo, hi
    x = q.z(Poly.var(v))
    solver = _chain_solver()
    solver.add(*facts)

    def excluded(cond) -> bool:
        solver.push()
        solver.add(cond)
        r = solver.check()
        solver.pop()
        return r == z3.unsat

    a, b = lo, hi  # b: a proved upper end
    while a < b:
        mid = (a + b) // 2
        if excluded(x > mid):
            b = mid
        else:
            a = mid + 1
    top = b
    a, b = lo, top  # a: a proved lower end
    while a < b:
        mid = (a + b + 1) // 2
        if excluded(x < mid):
            a = mid
        else:
            b = mid - 1
    return a, top


def in_bounds(q, view, a, b, off_a: Poly, off_b: Poly) -> list:
    """Equalities ``idx_d(a) == idx_d(b)`` of every axis ``d`` of ``view``'s tensor (Z3 terms), implied
    by ``off_a == off_b`` when both accesses are in bounds (a guarded store: only guarded-in atoms
    store, ``proofs.guard.atom_inside``), or [] when that is not proved.

    The offset of a flat layout is ``base + Σ_d idx_d·s_d`` with ``0 <= idx_d < e_d`` in bounds: the
    mixed-radix argument over the *tensor's* axes, ``|s_k| > Σ_{j<k} |s_j|·(e_j - 1)`` in some order
    (the chain over the whole axis, whatever slice the view takes of it), makes the layout injective
    on its in-bounds domain, so equal offsets mean equal indices.  The chain is a query over the
    symbols alone (``k > k - 1`` for a row-major ``(n, k)``), where the view's own digits may need
    the guard to be injective (a column slice wider than a ragged ``k``).  The decomposition is
    checked, not assumed: both offsets must equal ``base + Σ idx_d·s_d`` as polynomials, with the same
    base, strides and extents on both sides (two CTAs: no CTA-bound symbol among them)."""
    t = q.tensor(view)
    lay = t.layout
    leaves = (*lay.shape, *lay.stride)
    if len(lay.stride) != len(t.shape) or any(isinstance(x, (tuple, ThreadStride)) for x in leaves):
        return []
    sym_a, sym_b = a.symbols or q.symbols, b.symbols or q.symbols
    part = {}
    for tag, c, sym, off in (("a", a, sym_a, off_a), ("b", b, sym_b, off_b)):
        strides = [to_poly(s, q.ctx, sym) for s in lay.stride]
        extents = [to_poly(e, q.ctx, sym) for e in t.shape]
        base = to_poly(t.offset, q.ctx, sym)
        idx = q.index(view, c)
        total = base
        for i, s in zip(idx, strides):
            total = total + i * s
        if total != off:
            return []
        part[tag] = (strides, extents, base, idx)
    (sa, ea, base_a, ia), (sb, eb, base_b, ib) = part["a"], part["b"]
    if sa != sb or ea != eb or base_a != base_b:
        return []
    live = [d for d in range(len(sa)) if not (ea[d].is_const and ea[d].constant <= 1)]  # Δ_d = 0 else
    params = set().union(*(sa[d].variables() | ea[d].variables() for d in live)) if live else set()
    equal = [cmp("==", q.z(x), q.z(y)) for x, y in zip(ia, ib)]
    if not live:
        return equal
    if not params:  # constant strides and extents: exact arithmetic
        order = sorted(live, key=lambda d: abs(sa[d].constant))
        total = 0
        for d in order:
            if abs(sa[d].constant) <= total:
                return []
            total += abs(sa[d].constant) * max(0, ea[d].constant - 1)
        return equal
    env = {}
    for p in params:
        var = q.ctx.vars.get(p)
        if var is None or var.lo is None:
            return []
        env[p] = var.lo
    # the order: by the strides at the symbols' lower ends (ties broken both ways), at the facts' model,
    # then any other (few axes); an order the chain fails at the facts' model is not asked
    at = _at_facts_model(q, params)
    orders = [sorted(live, key=lambda d: (abs(sa[d].eval(env)), k * d)) for k in (1, -1)]
    if at is not None:
        orders.append(sorted(live, key=lambda d: abs(sa[d].eval(at))))
    if len(live) <= 3:
        orders += [list(o) for o in permutations(live)]
    coef, spans = dict(enumerate(sa)), {d: ea[d] - 1 for d in live}  # _chain_proved's terms, axis by axis
    facts = [q.build(c) for c, vs in q.constraints() if vs and vs <= params | _param_closure(q, params)]
    tried = []
    for order in orders:
        if order in tried or len(tried) >= IN_BOUNDS_ORDERS:
            continue
        tried.append(order)
        pairs = [(d, d) for d in order]
        if at is not None and _fails_at(pairs, coef, spans, at):
            continue
        if _chain_proved(q, pairs, coef, spans, facts):
            return equal
    return []


IN_BOUNDS_ORDERS = 6  # orders of a tensor's axes in_bounds asks the solver about, at most
