"""The symbols' facts, decided once per check before any obligation.

Every obligation is proved *under* the facts (each symbol's ``min``, ``max`` and
``multiple_of``, the file's ``assume`` list, and the rule that symbols bound to the
same CTA index are equal).  If the facts cannot all hold, every obligation would be
vacuously proved; so they are decided first, on an encoding of their own (the symbol
itself, not the ``m*n'`` substitution the obligations use):

* unsat: the check is contradictory input; ``InputError`` names a minimal set of
  conflicting facts (an unsat core, shrunk by deletion);
* unknown: the facts are not known to have a model, and every obligation that mentions
  a symbol is ``unknown`` (``Facts.ok`` is False);
* sat: obligations are decided with the facts that share variables with them.
"""
from __future__ import annotations


import z3

from ..domain import assignments
from ..errors import InputError
from ..expr import to_poly
from ..poly import Context, Poly
from .runner import lowest, tactic_solver as solver


NEIGHBOURS = 2  # next values per symbol (Facts.neighbours)
NEAR_MS = 200  # each query of a neighbour's completion


class Facts:
    """The outcome of deciding the facts: ``ok`` when they have a model.

    A first attempt gets at most ``QUICK`` seconds (half to the runner's tactic, half to
    ``z3.Solver()`` as the last resort); if that is not enough, the rest of the
    budget is spent only when an obligation that mentions a symbol asks (``ok``), so hard
    facts about symbols that no query uses cost no more than that first second."""

    def __init__(self, status: str, reason: str = "", formulas=(), timeout_ms: int = 1000, retry=None):
        self.status, self.reason = status, reason  # "sat" | "unknown" | "pending" (retry decides)
        self._formulas, self._ms, self._model, self._retry = list(formulas), timeout_ms, None, retry
        self._lows: dict[str, int] = {}
        self._steps: dict[str, int] = {}  # each symbol's multiple_of
        self._near: list | None = None

    @property
    def ok(self) -> bool:
        if self.status == "pending":
            done = self._retry()  # may raise InputError: the facts contradict each other after all
            self.status, self.reason, self._formulas, self._ms = done.status, done.reason, done._formulas, done._ms
            self._lows, self._steps = done._lows, done._steps
        return self.status == "sat"

    @property
    def model(self) -> dict[str, int]:
        """Symbol values that satisfy every fact, each as small as the solver finds in time
        (lexicographically, in declaration order); empty when the facts were not decided sat."""
        if self._model is None:
            self._model = _smallest(self._formulas, self._ms, self._lows) if self.ok and self._formulas else {}
        return self._model

    def neighbours(self, points: int = 4) -> list[dict[str, int]]:
        """Allowed symbol values near the model, in lexicographic order: for each symbol in turn, its
        next ``NEIGHBOURS`` allowed values above the model's (the symbols before it kept at the model's
        values), each completed by the smallest values of the symbols after it that satisfy every fact;
        the first ``points`` of them (made as far as asked, once).  Where a refutation needs a larger
        symbol than the smallest model, it is most often at one of these (a collision at s = 32,
        s2 = 2*s: ``runner``; an odd start offset: ``swizzle.smallest_at_facts_model``)."""
        if self._near is None:
            self._near, self._next = [], self._neighbour_values()
        while len(self._near) < points:
            near = next(self._next, None)
            if near is None:
                break
            self._near.append(near)
        return self._near[:points]

    def each_neighbour(self, points: int):
        """``neighbours(points)`` one at a time, each made only when the caller asks for it."""
        for k in range(points):
            near = self.neighbours(k + 1)
            if len(near) <= k:
                return
            yield near[k]

    def completion(self, pinned: dict[str, int]) -> dict[str, int] | None:
        """Every symbol's value with those of ``pinned`` fixed and each other as small as the facts
        allow (lexicographically, in declaration order), or None when no value of the others satisfies
        every fact with them (or the solver does not find one in time)."""
        if not self.ok or not self._formulas:
            return None
        names = self._formulas[-1][1]
        pins = [z3.Int(n) == v for n, v in pinned.items() if n in names]
        found = _smallest(self._formulas[:-1] + [("@pins", z3.And(*pins)), self._formulas[-1]],
                          min(self._ms, NEAR_MS), self._lows)
        return found or None

    def _neighbour_values(self):
        model = self.model
        names = self._formulas[-1][1] if self._formulas and model else []  # no model found: no point
        for i, name in enumerate(names):
            step = max(1, self._steps.get(name, 1))
            for k in range(1, NEIGHBOURS + 1):
                near = self.completion({**{n: model[n] for n in names[:i]}, name: model[name] + k * step})
                if near:
                    yield near


def labelled(check) -> list[tuple[str, object]]:
    """Every fact of ``check`` as (its name in the file, a Z3 formula over the symbols)."""
    ctx = Context()
    symbols = {n: ctx.var(n, None, None) for n in check.symbols}
    zv: dict = {}

    def z(p: Poly):
        for v in p.variables():
            zv.setdefault(v, z3.Int(v))
        return p.z3(zv)

    out = []
    for s in check.symbols.values():
        n = z(symbols[s.name])
        out.append((f"symbols.{s.name}.min = {s.min}" + (" (the default: min is not given)" if s.min_default else ""),
                    n >= s.min))
        out.append((f"symbols.{s.name}.max = {s.max}", n <= s.max))
        if s.multiple_of > 1:
            out.append((f"symbols.{s.name}.multiple_of = {s.multiple_of}", n % s.multiple_of == 0))
    by_source: dict = {}
    for s in check.symbols.values():
        if s.source:
            by_source.setdefault(s.source, []).append(s.name)
    for src, names in by_source.items():
        for other in names[1:]:
            out.append((f"symbols.{names[0]} and symbols.{other} are both %{src}",
                        z(symbols[names[0]]) == z(symbols[other])))
    for k, (text, lhs, op, rhs) in enumerate(check.assume):
        start = len(ctx.eqs)
        d = to_poly(lhs, ctx, symbols) - to_poly(rhs, ctx, symbols)
        parts = [_REL[op](z(d), 0)]
        for e in ctx.eqs[start:]:  # the fact's own division variables and their ranges
            parts.append(z(e) == 0)
            for v in e.variables():
                var = ctx.vars.get(v)
                if var is not None and var.lo is not None and v not in symbols:
                    parts += [zv[v] >= var.lo, zv[v] <= var.hi] if var.hi is not None else [zv[v] >= var.lo]
        out.append((f"assume[{k}] {text!r}", z3.And(*parts)))
    return out


_REL = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


QUICK = 0.5


def tactic_solver(ms: int):
    return solver(ms)


def decide(check, timeout_s: float, quick: bool = True) -> Facts:
    """Decide the facts; raise InputError naming a minimal conflicting subset if they have no model."""
    if not check.symbols:
        return Facts("sat")
    if quick and timeout_s > QUICK:
        first = decide(check, QUICK, quick=False)
        if first.status != "unknown":
            return first
        return Facts("pending", first.reason, retry=lambda: decide(check, timeout_s - QUICK, quick=False))
    facts = labelled(check)
    ms = max(1, int(timeout_s * 1000))
    solver = tactic_solver(max(1, ms // 2))  # not z3.Solver(): runner.tactic_solver says why
    solver.add(*(f for _, f in facts))
    r = solver.check()
    if r == z3.unknown and ms > 1:  # the default solver as the last resort (its portfolio decides more),
        solver = z3.Solver()  # for the other half: the two together within timeout_s
        solver.set(timeout=ms - ms // 2)
        solver.add(*(f for _, f in facts))
        r = solver.check()
    if r == z3.sat:
        out = Facts("sat", formulas=[(n, f) for n, f in facts] + [("@symbols", list(check.symbols))],
                    timeout_ms=ms)
        out._lows = {s.name: s.min for s in check.symbols.values()}
        out._steps = {s.name: s.multiple_of for s in check.symbols.values()}
        return out
    if r == z3.unknown:
        return Facts("unknown", f"the symbols' facts were not shown to have a model ({solver.reason_unknown()} "
                                f"after {timeout_s:g} s)")
    core = _core(facts, ms)
    names = ", ".join(label for label, _ in core)
    raise InputError(f"the facts about the symbols contradict each other, so every proof would be vacuous: "
                     f"{names} cannot all hold", "symbols/assume")


def _core(facts, ms) -> list:
    """A minimal unsatisfiable subset: deletion of every fact that can be spared (each trial one
    query of the runner's tactic: ``runner.tactic_solver``; a trial it cannot decide keeps the fact)."""
    core = list(range(len(facts)))
    k = 0
    while k < len(core):
        trial = core[:k] + core[k + 1:]
        s = tactic_solver(ms)
        s.add(*(facts[j][1] for j in trial))
        if trial and s.check() == z3.unsat:
            core = trial
        else:
            k += 1
    return [facts[j] for j in core]


def _smallest(items, ms, lows) -> dict[str, int]:
    names = items[-1][1]
    solver = tactic_solver(ms)
    solver.add(*(f for _, f in items[:-1]))
    if solver.check() != z3.sat:
        return {}
    model = solver.model()
    for name in names:
        model = lowest(solver, z3.Int(name), lows[name], model)
    return {n: model.eval(z3.Int(n), model_completion=True).as_long() for n in names}


def small_values(check, k: int) -> list[dict[str, int]]:
    """The allowed assignments of each symbol's ``k`` smallest values (min/max/multiple_of), in
    lexicographic order of the symbols as declared: the first violating one is the smallest on the
    grid (the first symbol, then the next), as ``runner._minimize`` orders them.  Refutations found
    by enumeration try them after the facts' model (``swizzle.smallest_at_facts_model``,
    ``warp._refute_by_enumeration``)."""
    return assignments(check, per_end=k, largest=False)
