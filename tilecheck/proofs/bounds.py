"""bounds: every extent of an operand's tensor is positive, every slice lies inside its tensor and
every accessed offset lies in [0, extent): the *declared* extent, 1 + the largest unswizzled offset
(``Layout.extent``), the elements a buffer the user allocates holds.  A swizzled layout's cosize
(rounded up to ``2^(M+B)``) is what tilecheck allocates for its own arrays; a global tensor (and
any tensor of an emitted fragment) is the user's buffer, so a swizzled offset in
``[extent, cosize)`` is past it (issue 32: ``Sw<1,1,2> o (n):(1)`` at n = 9 moves index 8 to 10).

A swizzled offset is compared through its plain one (``Query.plain``: the swizzle keeps
``o // 2^(M+B)``) where the extent is a multiple of ``2^(M+B)`` (a concrete one, or a polynomial
whose every coefficient is): the same violations, without the swizzle's digits.  Otherwise the
swizzled offset itself is compared with the extent (a polynomial in the symbols; a term
``(s-1)*d`` whose sign the ranges leave open as ``max(., 0)``), only where the plain offset is in
the extent's partial last block, which is first tried without the digits (``_unreachable``).

A symbolic extent that can be 0 or negative under the facts (``n - 8`` with ``n >= 8``) is a
``bounds`` refutation: the tensor is empty there and any access to it is out of bounds.

An index inside the tensor's shape has a plain offset at most the layout's largest, so
once the slices are inside, ``plain offset < extent`` holds by the definition of the extent;
it is still asserted directly whenever the layout is concrete.

With ``guard = true`` (``guard.py``) the guarded operand's slice may leave its tensor: only its
guarded-in atoms (every word's index in ``[0, extent)``) must be in bounds, offsets included."""
import z3

from ..poly import And, Or, cmp

from ..encode import element
from ..expr import concrete, evaluate
from ..layout import OFFSET, ThreadStride, _leaves
from .guard import atom_inside, inside_words, role as guarded_role
from .runner import Violation, fast_solver, relevant

NEAR_S = 0.5  # seconds to show no accessed plain offset is in the extent's last block (then no digits)


def _extent(t):
    if t.layout.symbols(t.offset):
        return None  # symbolic: implied by the slice conditions (unswizzled), else ``_symbolic_extent``
    return t.layout.extent({}, t.offset)


def extent_terms(q, t):
    """A tensor's declared extent, ``offset + 1 + sum((shape_i - 1) * stride_i)`` over its memory modes, as
    ``(top, mixed)``: ``top`` the polynomial of the terms the symbols' ranges keep non-negative, ``mixed``
    the terms whose sign they leave open (each counts as ``max(term, 0)``; a term never positive is
    dropped).  The obligations that bound what a tensor holds use it."""
    top, mixed = q.poly(t.offset) + 1, []
    for s, d in zip(_leaves(t.layout.shape), _leaves(t.layout.stride)):
        if isinstance(d, ThreadStride):
            continue
        term = (q.poly(s) - 1) * q.poly(d)
        lo, hi = q.ctx.interval(term)
        if lo is not None and lo >= 0:
            top = top + term
        elif hi is None or hi > 0:
            mixed.append(term)  # max(term, 0): its sign is open under the ranges
    return top, mixed


def _symbolic_extent(q, t, block: int):
    """The declared extent of a symbolic swizzled layout as a Z3 term, or None when it is a multiple
    of ``block`` for all symbol values (every coefficient is): the plain offset's bound then holds of
    the swizzled one too."""
    top, mixed = extent_terms(q, t)
    if not mixed and all(c % block == 0 for c in top.terms.values()):
        return None
    mixed = [q.z(m) for m in mixed]
    return z3.Sum(q.z(top), *[z3.If(m > 0, m, 0) for m in mixed]) if mixed else q.z(top)


def _unreachable(q, premise) -> bool:
    """``premise`` has no model under the query's constraints (unsat within ``NEAR_S``; else False)."""
    s = fast_solver(NEAR_S, NEAR_S)
    s.add(premise)
    s.add(*[q.build(k) for k, _ in relevant(set(q.zv), q.constraints())])
    return s.check() == z3.unsat


def violation(q):
    a = q.apply
    parts, checks = [], []
    guarded = guarded_role(a)
    for role, view in (("dst", a.dst), ("src", a.src)):
        t = q.tensor(view)
        cos = _extent(t)
        inside = []  # the slices inside the tensor (unguarded), or the atom guarded in
        for k, (start, ext, dim) in enumerate(zip(view.starts, view.extents, t.shape)):
            s, e, d = q.poly(start), concrete(ext), q.poly(dim)
            if role == guarded:
                parts.append(cmp("<", q.z(d), 1))
            else:
                parts.append(Or(cmp("<", q.z(s), 0), cmp(">", q.z(s + e), q.z(d)), cmp("<", q.z(d), 1)))
                inside += [cmp(">=", q.z(s), 0), cmp("<=", q.z(s + e), q.z(d))]
        c = q.coords(role)
        if role == guarded:
            inside = [atom_inside(q, c)]
        off, block = q.plain(view, c)  # a swizzled offset compared through its plain one (Query.plain)
        # a side the variables' ranges already exclude (sound interval bounds, as ``overflow`` uses)
        # is left out: the same violations, and often no solver at all; an exported query
        # (--smt2 / --recheck) keeps both sides so that the second solver checks this too
        lo, hi = (None, None) if getattr(q, "exporting", False) else q.ctx.interval(off)
        out = [cmp("<", q.z(off), 0)] if lo is None or lo < 0 else []  # swz(o) < 0 exactly when o < 0
        top = cos if cos is not None else _symbolic_extent(q, t, block) if block > 1 else None
        if block > 1 and top is not None and (cos is None or cos % block):
            # an extent that is no multiple of the block: the swizzled offset itself, past it only
            # where the plain one is in the extent's last block (swz keeps o // block: implied, and
            # it spares the solver the digits elsewhere).  Where no accessed plain offset can be in
            # that block (the slices inside, or the atom guarded in: else another part is violated
            # already), shown without the digits first, the disjunct has no model and is left out
            # only the extent's last *partial* block: E = block*m + rho with rho >= 1 and o >= block*m
            # (a whole last block is permuted onto itself); fresh m, rho stated exactly
            m, rho = z3.Int(f"bounds.m.{role}"), z3.Int(f"bounds.rho.{role}")
            near = And(top == block * m + rho, rho >= 1, rho < block, q.z(off) >= block * m)
            if (cos is None or hi is None or hi > cos - block) and (
                    getattr(q, "exporting", False) or not _unreachable(q, And(*inside, near))):
                out.append(And(near, q.z(q.value(view, c)[OFFSET]) >= top))
        elif cos is not None and (hi is None or hi >= cos):
            out.append(cmp(">=", q.z(off), cos))
        if role == guarded:
            if out:
                parts.append(And(atom_inside(q, c), Or(*out)))
        else:
            parts += out
        checks.append((role, view, t, cos))

    def explain(w):
        syms = (f" with symbols ({', '.join(f'{n}={v}' for n, v in w.symbols.items())})" if w.symbols else "")
        for role, view, t, cos in checks:
            for k, dim in enumerate(t.shape):
                d = evaluate(dim, w.symbols)
                if d < 1:
                    return (f"{role} {view.text!r}: axis {k} of {t.name} has extent {dim} = {d}{syms}: "
                            "the tensor is empty, every access is out of bounds",
                            {"symbols": w.symbols, "operand": role, "tensor": t.name, "axis": k, "extent": d})
        for role, view, t, cos in checks:
            if role == guarded:
                continue
            for k, (start, ext, dim) in enumerate(zip(view.starts, view.extents, t.shape)):
                s, d = evaluate(start, w.symbols), evaluate(dim, w.symbols)
                e = concrete(ext)
                if s < 0 or s + e > d:
                    return (f"{role} {view.text!r}: axis {k} is sliced to [{s}, {s + e}), outside [0, {d})"
                            + (f" with symbols ({', '.join(f'{n}={v}' for n, v in w.symbols.items())})" if w.symbols else ""),
                            {"symbols": w.symbols, "operand": role, "tensor": t.name, "axis": k,
                             "start": s, "stop": s + e, "extent": d})
        for role, view, t, cos in checks:
            co = w.coords(role)
            if role == guarded and inside_words(w, view, t, co)[1]:
                continue  # a guarded-out atom: not executed
            off = w.value(view, co)[OFFSET]
            top = cos if cos is not None else t.layout.extent(w.symbols, t.offset)
            if off < 0 or off >= top:
                idx = w.index(view, co)
                past = (f" ({t.name}'s declared extent: a swizzled offset past it is past the buffer the user "
                        f"allocates, though below the swizzle's rounded size {t.layout.cosize(w.symbols, t.offset)})"
                        if t.layout.swizzle is not None and off >= top else "")
                return (f"{w.where(co)} accesses {element(t, idx)} at offset {off}, outside [0, {top}){past}",
                        {**w.describe(co), "operand": role, "tensor": t.name, "index": list(idx),
                         "offset": off, "cosize": top})
        return None

    return Violation(Or(*parts), explain)
