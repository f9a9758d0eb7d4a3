"""bounds: every extent of an operand's tensor is positive, every slice lies inside its tensor and
every accessed offset lies in [0, cosize).  A swizzled offset is compared through its plain one
(``Query.plain``: the swizzle keeps ``o // 2^(M+B)``, and a swizzled cosize is a multiple of
``2^(M+B)``): the same violations, without the swizzle's digits.

A symbolic extent that can be 0 or negative under the facts (``n - 8`` with ``n >= 8``) is a
``bounds`` refutation: the tensor is empty there and any access to it is out of bounds.

An index inside the tensor's shape has an offset at most the layout's largest, so
once the slices are inside, ``offset < cosize`` holds by the definition of cosize;
it is still asserted directly whenever the layout is concrete.

With ``guard = true`` (``guard.py``) the guarded operand's slice may leave its tensor: only its
guarded-in atoms (every word's index in ``[0, extent)``) must be in bounds, offsets included."""
from ..poly import And, Or, cmp

from ..encode import element
from ..expr import concrete, evaluate
from ..layout import OFFSET
from .guard import atom_inside, inside_words, role as guard_role
from .runner import Violation


def _cosize(t):
    if t.layout.symbols(t.offset):
        return None  # symbolic: implied by the slice conditions
    return t.layout.cosize({}, t.offset)


def violation(q):
    a = q.apply
    parts, checks = [], []
    guarded = guard_role(a)
    for role, view in (("dst", a.dst), ("src", a.src)):
        t = q.tensor(view)
        cos = _cosize(t)
        for k, (start, ext, dim) in enumerate(zip(view.starts, view.extents, t.shape)):
            s, e, d = q.poly(start), concrete(ext), q.poly(dim)
            if role == guarded:
                parts.append(cmp("<", q.z(d), 1))
            else:
                parts.append(Or(cmp("<", q.z(s), 0), cmp(">", q.z(s + e), q.z(d)), cmp("<", q.z(d), 1)))
        c = q.coords(role)
        off, block = q.plain(view, c)  # a swizzled offset compared through its plain one (Query.plain)
        if block > 1 and cos is not None and cos % block:
            off = q.value(view, c)[OFFSET]  # (a swizzled cosize is a multiple of the block: not reached)
        # a side the variables' ranges already exclude (sound interval bounds, as ``overflow`` uses)
        # is left out: the same violations, and often no solver at all; an exported query
        # (--smt2 / --recheck) keeps both sides so that the second solver checks this too
        lo, hi = (None, None) if getattr(q, "exporting", False) else q.ctx.interval(off)
        out = ([cmp("<", q.z(off), 0)] if lo is None or lo < 0 else []) \
            + ([cmp(">=", q.z(off), cos)] if cos is not None and (hi is None or hi >= cos) else [])
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
            top = cos if cos is not None else t.layout.cosize(w.symbols, t.offset)
            if off < 0 or off >= top:
                idx = w.index(view, co)
                return (f"{w.where(co)} accesses {element(t, idx)} at offset {off}, outside [0, {top})",
                        {**w.describe(co), "operand": role, "tensor": t.name, "index": list(idx),
                         "offset": off, "cosize": top})
        return None

    return Violation(Or(*parts), explain)
