"""disjoint: a load's register slots are distinct per thread; a store's memory words are distinct
over every access that can race with it, as PTX's state spaces define them:

* ``.local`` is private to each thread: only one thread's own (repeat, word) accesses are compared;
* ``.shared`` is private to each CTA: every thread, repeat and word of the CTA;
* ``.global`` is shared by the grid: when a symbol is bound to ``%ctaid``, also the accesses of
  another CTA (the CTA-bound symbols take other values under the same facts)."""
import z3

from ..encode import element
from ..layout import OFFSET
from ..poly import And, Or, Poly, cmp
from . import injective
from .guard import atom_inside, restricts
from .runner import Violation, static


def violation(q):
    return _load(q) if q.apply.is_load else _store(q)


def across_applies(check, apply, tensor: str) -> str:
    """Why a global store of ``tensor`` in a grid cannot be proved race-free (one line), or ``""``: with a
    symbol bound to ``%ctaid``/``%cluster_ctarank``, CTAs run this application and the others at once, and
    an obligation compares one application's accesses across CTAs, not two applications' -- another
    application reading or writing ``tensor`` is left unknown rather than proved (docs/check-file.md,
    "Symbols bound to the CTA index").  The decider says the same (``decide.across_applies``)."""
    if check.tensors[tensor].scope != "global" or not any(s.per_cta for s in check.symbols.values()):
        return ""
    other = next((a for a in check.applies if a.index != apply.index and tensor in (a.dst.tensor, a.src.tensor)),
                 None)
    if other is None:
        return ""
    return (f"apply[{other.index}] also reads or writes {tensor}, and with a CTA-bound symbol two CTAs may run "
            f"apply[{apply.index}] and apply[{other.index}] at once: tilecheck compares one application's stores "
            "across CTAs, not two applications'")


def across_unknown(q, name: str, tensor: str):
    """``across_applies`` as obligation ``name``'s unknown (a Violation), or None."""
    why = across_applies(q.check, q.apply, tensor)
    return Violation(z3.BoolVal(False), lambda w: None, unknown=f"{name} unknown: {why}") if why else None


def _coordinates(q, a, b, thread=False, cta=()) -> list:
    """The pairs of polynomials two accesses differ in when they are distinct accesses: repeat and
    word, the thread (``thread``), and another CTA's CTA-bound symbols (``cta``)."""
    pairs = list(zip(a.repeat, b.repeat)) + [(a.word, b.word)]
    if thread:
        pairs.append((Poly.var(f"{a.tag}:thread"), Poly.var(f"{b.tag}:thread")))
    for name in cta:  # another CTA: some CTA-bound symbol differs
        pairs.append((q.symbols[name], b.symbols[name]))
    return pairs


def _differ(q, a, b, thread=False, cta=()):
    return Or(*[cmp("!=", q.z(x), q.z(y)) for x, y in _coordinates(q, a, b, thread, cta)])


def _shortcuts(q) -> bool:
    """Whether the query may be decided or narrowed without stating the whole formula: not when it is
    exported (--smt2 / --recheck: the whole formula, for the solvers), nor for a Query made outside the
    runner (no ``exporting`` set)."""
    return getattr(q, "exporting", True) is False


def _determined(q, pairs: list, coordinates: list, extra=(frozenset(), frozenset())) -> bool:
    """The lemma's digits fix every coordinate (``injective.determined``): no two distinct accesses
    share an offset, proved without the solver (``_shortcuts``)."""
    return _shortcuts(q) and injective.determined(q, pairs, coordinates, extra=extra)


def _proved():
    """``disjoint`` proved by the lemma (``_determined``): no formula left."""
    return static(True, "")


def _load(q):
    view = q.apply.register
    t = q.tensor(view)
    a = q.coords("a")
    b = q.with_repeat(a, "b")
    slot_a, slot_b = q.value(view, a)[OFFSET], q.value(view, b)[OFFSET]
    if _shortcuts(q):  # one thread's slots: the lemma's digits fix the access (the group is shared)
        pairs: list = []
        injective.lemma(q, slot_a, "a", slot_b, "b", pairs_out=pairs)
        if _determined(q, pairs, _coordinates(q, a, b)):
            return _proved()
    same = cmp("==", q.z(slot_a), q.z(slot_b))

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

    return Violation(And(_differ(q, a, b), same), explain)


def _plain(q, view, c) -> Poly:
    """The element offset of ``view`` at ``c`` before its tensor's swizzle, if any (``Query.plain``): a
    swizzle is an involution of the integers (its source bits, from M+S up, are not among the bits it
    changes), so two accesses share a swizzled offset exactly when they share the plain one; the
    solver is spared the swizzle's digits.  The explanation replays the swizzled offsets."""
    return q.plain(view, c)[0]


def _store(q):
    view = q.apply.memory
    t = q.tensor(view)
    grid_unknown = across_unknown(q, "disjoint", view.tensor)
    if grid_unknown is not None:
        return grid_unknown
    local, grid = t.scope == "local", t.scope == "global" and bool(q.cta_bound)
    cta = q.cta_bound if grid else ()
    a = q.coords("a", thread=True)
    b = q.with_repeat(a, "b") if local else q.coords("b", thread=True, symbols=q.other_cta("b") if grid else None)
    # (.local: one thread's own accesses; the warp-id symbols are each thread's warp: Query.coords)
    off_a, off_b = _plain(q, view, a), _plain(q, view, b)
    same = cmp("==", q.z(off_a), q.z(off_b))
    formula = And(_differ(q, a, b, thread=not local, cta=cta), same)
    # an exact lemma first: same offset, same digits (proofs.injective); across CTAs each CTA's copy
    # of the CTA-bound symbols counts as a digit too, over the range the facts prove for it
    extra = (set().union(*(q.symbols[n].variables() for n in cta)),
             set().union(*(b.symbols[n].variables() for n in cta))) if grid else (set(), set())
    pairs: list = []
    paired: dict = {}
    lemma = injective.lemma(q, off_a, "a", off_b, "b", extra, pairs_out=pairs, paired=paired)
    formula = And(formula, *lemma)
    if _determined(q, pairs, _coordinates(q, a, b, thread=not local, cta=cta), extra):
        return _proved()
    if not lemma and paired and _shortcuts(q):  # no lemma: the equal offsets as
        # cases of the digits' differences, each linear (an implied conjunct; exported queries: as stated)
        cases = injective.differences(q, paired["pairs"], paired["ca"])
        if cases is not None:
            formula = And(formula, cases)
    if restricts(q, "disjoint", view):  # guard = true: only guarded-in atoms store, and for two accesses
        # in bounds, equal offsets mean equal indices when the layout is injective on its domain
        formula = And(formula, atom_inside(q, a), atom_inside(q, b),
                      *injective.in_bounds(q, view, a, b, off_a, off_b))

    def explain(w):
        ca, ta = w.coords("a", thread=True), w.thread_id("a")
        if local:  # b is a's thread (Query.with_repeat): its repeat and word only
            cb, tb, tag_b = (ca[0], *w.coords("b")[1:]), ta, "a"
        else:
            cb, tb, tag_b = w.coords("b", thread=True), w.thread_id("b"), "b"
        sa = w.instance_symbols("a")
        sb = w.instance_symbols(tag_b, w.cta_symbols.get("b", w.symbols) if grid else None)
        oa, ob = w.value(view, ca, sa)[OFFSET], w.value(view, cb, sb)[OFFSET]
        same_cta = all(sa[n] == sb[n] for n in cta)
        if (same_cta and (ta, ca[1:]) == (tb, cb[1:])) or oa != ob:
            return None
        ia = w.index(view, ca, sa)
        first, second = w.describe(ca, "a"), w.describe(cb, tag_b)
        if not same_cta:
            second["symbols"] = dict(sb)
            ctas = " and ".join("CTA (" + ", ".join(f"{n}={s[n]}" for n in cta) + ")" for s in (sa, sb))
            others = ", ".join(f"{k}={v}" for k, v in sa.items() if k not in cta and k not in q.warp_bound)
            return ((f"with symbols ({others}): " if others else "")
                    + f"two CTAs, {ctas}, both store to {element(t, ia)} at element offset {oa}: "
                    f"{w.where(ca, 'a', symbols=False)} of the first and {w.where(cb, tag_b, symbols=False)} "
                    "of the second",
                    {"first": first, "second": second, "tensor": t.name, "index": list(ia), "offset": oa})
        syms = ", ".join(f"{k}={v}" for k, v in w.symbols.items() if k not in q.warp_bound)
        return ((f"with symbols ({syms}): " if syms else "")
                + f"{w.where(ca, 'a', symbols=False)} and {w.where(cb, tag_b, symbols=False)} "
                f"both store to {element(t, ia)} at element offset {oa}",
                {"first": first, "second": second, "tensor": t.name,
                 "index": list(ia), "offset": oa})

    return Violation(formula, explain)
