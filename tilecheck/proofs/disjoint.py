"""disjoint: a load's register slots are distinct per thread; a store's memory words are
distinct over every executing thread, repeat and word of the CTA."""
import z3

from ..encode import element
from ..layout import OFFSET
from .runner import Violation


def violation(q):
    return _load(q) if q.apply.is_load else _store(q)


def _differ(q, a, b, thread=False):
    pairs = list(zip(a.repeat, b.repeat)) + [(a.word, b.word)]
    terms = [q.z(x) != q.z(y) for x, y in pairs]
    if thread:
        terms.append(z3.Int(f"{a.tag}:thread") != z3.Int(f"{b.tag}:thread"))
    return z3.Or(*terms)


def _load(q):
    view = q.apply.register
    t = q.tensor(view)
    a = q.coords("a")
    b = q.with_repeat(a, "b")
    same = q.z(q.value(view, a)[OFFSET]) == q.z(q.value(view, b)[OFFSET])

    def explain(w):
        ca, cb = w.coords("a"), w.coords("b")
        cb = (ca[0], cb[1], cb[2])
        sa, sb = w.value(view, ca)[OFFSET], w.value(view, cb)[OFFSET]
        if ca == cb or sa != sb:
            return None
        ia, ib = w.index(view, ca), w.index(view, cb)
        return (f"{w.where(ca)} and {w.where(cb, symbols=False)} both load into slot {sa} "
                f"({element(t, ia)} and {element(t, ib)})",
                {"first": {**w.describe(ca), "index": list(ia)}, "second": {**w.describe(cb), "index": list(ib)},
                 "tensor": t.name, "slot": sa})

    return Violation(z3.And(_differ(q, a, b), same), explain)


def _store(q):
    view = q.apply.memory
    t = q.tensor(view)
    a, b = q.coords("a", thread=True), q.coords("b", thread=True)
    same = q.z(q.value(view, a)[OFFSET]) == q.z(q.value(view, b)[OFFSET])

    def explain(w):
        ca, cb = w.coords("a", thread=True), w.coords("b", thread=True)
        ta, tb = w.thread_id("a"), w.thread_id("b")
        oa, ob = w.value(view, ca)[OFFSET], w.value(view, cb)[OFFSET]
        if (ta, ca[1:]) == (tb, cb[1:]) or oa != ob:
            return None
        ia = w.index(view, ca)
        syms = ", ".join(f"{k}={v}" for k, v in w.symbols.items())
        return ((f"with symbols ({syms}): " if syms else "")
                + f"{w.where(ca, 'a', symbols=False)} and {w.where(cb, 'b', symbols=False)} "
                f"both store to {element(t, ia)} at element offset {oa}",
                {"first": w.describe(ca, "a"), "second": w.describe(cb, "b"), "tensor": t.name,
                 "index": list(ia), "offset": oa})

    return Violation(z3.And(_differ(q, a, b, thread=True), same), explain)
