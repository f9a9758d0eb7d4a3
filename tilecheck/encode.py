"""The one operand model every obligation is stated on.

A ``Query`` holds the variables of one obligation: the symbols (with their
min/max/multiple_of facts and the file's assumptions) and, per *instance*
(a tag such as ``a`` or ``b`` when two accesses are compared), the canonical
coordinates ``(*group, *repeat, word)``.  ``value`` evaluates an operand's
view and layout at an instance's coordinates as exact polynomials; ``Witness``
reads a Z3 model back into the user's vocabulary and replays it on the
concrete semantics.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import prod
import z3

from .check import Apply, Check, Tensor
from . import accesses, crd2idx
from .expr import to_poly
from .layout import OFFSET
from .machine import CTA, GROUP_NAMES, GROUPS, group_of
from .poly import Context, Poly, cmp as poly_cmp, nonnegative
from .view import View



TIGHTEN_ROUNDS = 4  # rounds of interval propagation over the linear facts (Query._tighten)


@dataclass
class Coords:
    tag: str
    group: list[Poly]
    repeat: list[Poly]
    word: Poly
    symbols: dict | None = None  # another CTA's copy of the CTA-bound symbols (None: the query's)

    @property
    def all(self) -> list[Poly]:
        return [*self.group, *self.repeat, self.word]


class Query:
    def __init__(self, check: Check, apply: Apply, role: str | None = None):
        self.check, self.apply = check, apply
        # the memory operand the per-operand obligations are stated on (a family may have several)
        self.memory: View = getattr(apply, role) if role else apply.memory
        self.access = accesses.of_view(check.accesses_of(apply), self.memory)  # its access (accesses.py)
        self.ctx = Context()
        self.zv = _Z3Vars()
        self.nonlinear: set = set()
        self.symbols: dict[str, Poly] = {}
        for s in check.symbols.values():
            self.symbols[s.name] = self._symbol(s, "")
        self._facts(self.symbols)
        self._tighten()
        self.fact_vars: set = set(self.ctx.vars)  # the symbols' variables and their facts' division digits
        self.cta_copies: dict[str, dict[str, Poly]] = {}
        self.group_shape = check.group_shape(apply.scope)
        mem = apply.memory
        self.repeat_shape = mem.shape[len(self.group_shape):-1]
        self.vector = apply.opcode.vector

    def _symbol(self, s, suffix: str) -> Poly:
        m = s.multiple_of
        if m > 1:  # n = m * n' keeps divisibility visible to every polynomial
            return m * self.ctx.var(s.name + "'" + suffix, -(-s.min // m), s.max // m)
        return self.ctx.var(s.name + suffix, s.min, s.max)

    def _facts(self, symbols: dict[str, Poly]):
        for _, lhs, op, rhs in self.check.assume:
            self.ctx.rels.append((to_poly(lhs, self.ctx, symbols) - to_poly(rhs, self.ctx, symbols), op))
        by_source: dict = {}
        for s in self.check.symbols.values():
            if s.source:
                by_source.setdefault(s.source, []).append(symbols[s.name])
        for same in by_source.values():  # symbols bound to one CTA index are equal
            for other in same[1:]:
                self.ctx.rels.append((same[0] - other, "=="))

    def _tighten(self, rounds: int = TIGHTEN_ROUNDS):
        """The bounds the linear facts imply for their variables, by interval propagation (sound: each
        new bound follows from a fact and the other variables' bounds, so no query changes its answer;
        the solver and the residue and bit-vector rules then see the narrower ranges, e.g. ``s2 >= 72*s``
        with ``s2 <= 65`` gives ``s <= 0``).  A few rounds; a bound that would empty a range is not taken
        (the facts have a model: ``proofs.facts`` decided that first)."""
        ctx = self.ctx
        facts = []
        for p, op in ctx.rels:
            if not any(len(m) > 1 for m in p.terms):
                facts += nonnegative(p, op)  # each f >= 0
        for _ in range(rounds if facts else 0):
            changed = False
            for f in facts:  # f >= 0: a*x >= -(f - a*x) >= -max(f - a*x)
                for m, a in f.terms.items():
                    if not m:
                        continue
                    (x,) = m
                    var = ctx.vars.get(x)
                    if var is None:
                        continue
                    top = ctx.interval(f - Poly({m: a}))[1]
                    if top is None:
                        continue
                    if a > 0:
                        lo = -(top // a)  # ceil(-top / a)
                        if (var.lo is None or lo > var.lo) and (var.hi is None or lo <= var.hi):
                            var.lo, changed = lo, True
                    else:
                        hi = top // -a  # floor(top / -a)
                        if (var.hi is None or hi < var.hi) and (var.lo is None or hi >= var.lo):
                            var.hi, changed = hi, True
            if not changed:
                break

    @property
    def cta_bound(self) -> list[str]:
        """The symbols the kernel reads from ``%ctaid`` or ``%cluster_ctarank``: they differ between CTAs."""
        return [s.name for s in self.check.symbols.values() if s.per_cta]

    @property
    def warp_bound(self) -> list[str]:
        """The symbols the kernel reads from the warp id (``from = "warpid"``): they differ between warps."""
        return [s.name for s in self.check.symbols.values() if s.warp]

    def other_cta(self, tag: str) -> dict[str, Poly]:
        """The symbols as another CTA sees them: fresh CTA-bound symbols under the same facts."""
        if tag not in self.cta_copies:
            before = set(self.ctx.vars)
            sym = dict(self.symbols)
            for name in self.cta_bound:
                sym[name] = self._symbol(self.check.symbols[name], "@" + tag)
            self._facts(sym)
            self.fact_vars |= set(self.ctx.vars) - before
            self.cta_copies[tag] = sym
        return self.cta_copies[tag]

    def symbol_vars(self) -> set[str]:
        """The solver variables that stand for symbols (every CTA copy included)."""
        out = set()
        for sym in (self.symbols, *self.cta_copies.values()):
            for p in sym.values():
                out |= p.variables()
        return out

    def z(self, p: Poly):
        """``p`` as a Z3 term; its nonlinear monomials get interval hints in the background."""
        for m in p.terms:
            if len(m) > 1:
                self.nonlinear.add(m)
        return p.z3(self.zv)

    def constraints(self) -> list[tuple[tuple, frozenset]]:
        """Every constraint of the encoding as (description, the variables it mentions);
        ``build`` makes one a Z3 formula.  Cheap: slicing by variables
        (``runner.relevant``) happens before any Z3 term is made."""
        ctx = self.ctx
        out: list = []
        for v in ctx.vars.values():
            s = frozenset((v.name,))
            if v.lo is not None:
                out.append((("ge", Poly.var(v.name), v.lo), s))
            if v.hi is not None:
                out.append((("le", Poly.var(v.name), v.hi), s))
        out += [(("eq", e, 0), frozenset(e.variables())) for e in ctx.eqs]
        out += [(("ge", g, 0), frozenset(g.variables())) for g in ctx.ges]
        out += [((op, p, 0), frozenset(p.variables())) for p, op in ctx.rels]
        nonlinear = set(self.nonlinear)
        for p in (*ctx.eqs, *(p for p, _ in ctx.rels)):
            nonlinear.update(m for m in p.terms if len(m) > 1)
        for m in sorted(nonlinear):  # interval hints for nonlinear monomials
            term = Poly({m: 1})
            lo, hi = ctx.interval(term)
            if lo is not None:
                out.append((("ge", term, lo), frozenset(m)))
            if hi is not None:
                out.append((("le", term, hi), frozenset(m)))
        return out

    def build(self, c: tuple):
        """One constraint of ``constraints`` as a Z3 formula."""
        op, p, k = c
        return poly_cmp(op, self.z(p), k)

    def poly(self, x) -> Poly:
        return to_poly(x, self.ctx, self.symbols)

    def tensor(self, view: View) -> Tensor:
        return self.check.tensors[view.tensor]

    def coords(self, tag: str, word: bool = True, thread: bool = False, symbols: dict | None = None) -> Coords:
        """Fresh canonical coordinates.  ``word=False`` pins the word to 0 (the atom's base);
        ``thread=True`` derives the group from one thread id over the whole CTA, and the warp-id
        symbols (``from = "warpid"``) from it too: ``t // 32`` of this instance's thread (without a
        thread they stay the query's one variable: any warp, the same for every instance).
        ``symbols``: the instance's symbols (another CTA's copy), default the query's."""
        ctx = self.ctx
        if thread and self.warp_bound:
            t = ctx.var(f"{tag}:thread", 0, self.check.threads - 1)
            warp = ctx.divmod(t, 32, f"{tag}:lane")[0]
            symbols = {**(symbols or self.symbols), **{n: warp for n in self.warp_bound}}
        if thread:
            t = ctx.var(f"{tag}:thread", 0, self.check.threads - 1)
            g = GROUPS[self.apply.scope]
            if g.warps == CTA:  # (warp, lane) of the CTA
                group = crd2idx.Polys(ctx, self.symbols).digits(t, list(self.group_shape), f"{tag}:tid")
            elif g.coords:  # the thread's place in its group: t modulo the group's span
                inner = ctx.divmod(t, g.span(self.check.threads), f"{tag}:lane")[1]
                group = (crd2idx.Polys(ctx, self.symbols).digits(inner, list(self.group_shape), f"{tag}:tid")
                         if len(g.coords) > 1 else [inner])
            else:
                group = []
        else:
            group = [ctx.var(f"{tag}:{n}", 0, e - 1) for n, e in zip(GROUP_NAMES[self.apply.scope], self.group_shape)]
        repeat = [ctx.var(f"{tag}:repeat{k}", 0, e - 1) for k, e in enumerate(self.repeat_shape)]
        w = ctx.var(f"{tag}:word", 0, self.vector - 1) if word else Poly.const(0)
        return Coords(tag, group, repeat, w, symbols)

    def with_repeat(self, c: Coords, tag: str) -> Coords:
        """Same group, fresh repeat and word (another access of the same thread)."""
        d = self.coords(tag)
        return Coords(tag, c.group, d.repeat, d.word, c.symbols)

    def domain(self, c: Coords) -> crd2idx.Polys:
        return crd2idx.Polys(self.ctx, c.symbols or self.symbols)

    def index(self, view: View, c: Coords) -> list[Poly]:
        return crd2idx.view_index(view, c.all, self.domain(c), c.tag)

    def value(self, view: View, c: Coords) -> dict[str, Poly]:
        """Offset (memory) or slot and thread components (register) of ``view`` at ``c``."""
        return crd2idx.operand_value(self.tensor(view), view, c.all, self.domain(c), c.tag)

    def plain(self, view: View, c: Coords) -> tuple[Poly, int]:
        """``(offset before the swizzle, block)``: ``Sw<B,M,S>`` changes only the bits ``M .. M+B-1`` of an
        offset, so it keeps ``o // 2^(M+B)`` (the sign included): the swizzled offset is below 0, or at
        least a multiple ``C`` of the block ``2^(M+B)``, exactly when the plain one is -- comparisons the
        solver can then make without the swizzle's digits.  An unswizzled tensor: its offset, block 1."""
        t = self.tensor(view)
        sw = t.layout.swizzle
        if sw is None or sw.bits == 0:
            return self.value(view, c)[OFFSET], 1
        plain = replace(t, layout=replace(t.layout, swizzle=None))
        return crd2idx.operand_value(plain, view, c.all, self.domain(c), c.tag)[OFFSET], 1 << (sw.base + sw.bits)


_OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
        "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "ge": lambda a, b: a >= b, "le": lambda a, b: a <= b,
        "eq": lambda a, b: a == b}


class _Z3Vars(dict):
    def __missing__(self, name):
        v = self[name] = z3.Int(name)
        return v


class Witness:
    """A Z3 model in the user's terms, with the concrete semantics to replay it."""

    def __init__(self, query: Query, env: dict[str, int]):
        self.q, self.env = query, env
        self.symbols = {n: p.eval(env) for n, p in query.symbols.items()}
        self.cta_symbols = {tag: {n: p.eval(env) for n, p in sym.items()} for tag, sym in query.cta_copies.items()}

    def coords(self, tag: str, thread: bool = False) -> tuple[tuple, tuple, int]:
        q, env = self.q, self.env
        if thread:
            t = env[f"{tag}:thread"]
            group = group_of(q.apply.scope, t)
        else:
            group = tuple(env[f"{tag}:{n}"] for n in GROUP_NAMES[q.apply.scope])
        repeat = tuple(env[f"{tag}:repeat{k}"] for k in range(len(q.repeat_shape)))
        return group, repeat, env.get(f"{tag}:word", 0)

    def thread_id(self, tag: str) -> int | None:
        return self.env.get(f"{tag}:thread")

    def instance_symbols(self, tag: str, symbols: dict | None = None) -> dict[str, int]:
        """The symbols as instance ``tag`` sees them (``symbols``: another CTA's, default the query's):
        the warp-id symbols are its thread's warp when the instance has a thread."""
        out = dict(self.symbols if symbols is None else symbols)
        t = self.thread_id(tag)
        if t is not None:
            out.update({n: t // 32 for n in self.q.warp_bound})
        return out

    def index(self, view: View, coords, symbols: dict | None = None) -> tuple:
        group, repeat, word = coords
        return tuple(crd2idx.view_index(view, (*group, *repeat, word), crd2idx.Ints(symbols or self.symbols)))

    def value(self, view: View, coords, symbols: dict | None = None) -> dict[str, int]:
        group, repeat, word = coords
        return crd2idx.operand_value(self.q.tensor(view), view, (*group, *repeat, word),
                                     crd2idx.Ints(symbols or self.symbols))

    # words -----------------------------------------------------------------
    def describe(self, coords, tag: str | None = None) -> dict:
        """The coordinates as a JSON-able dict (group by name, repeat by axis name, word)."""
        group, repeat, word = coords
        q = self.q
        out = {}
        if self.symbols:
            out["symbols"] = self.instance_symbols(tag) if tag is not None else dict(self.symbols)
        if tag is not None and self.thread_id(tag) is not None:
            out["thread"] = self.thread_id(tag)
        if group:
            out["group"] = dict(zip(GROUP_NAMES[q.apply.scope], group))
        out["repeat"] = dict(zip(repeat_names(q), repeat))
        out["word"] = word
        return out

    def where(self, coords, tag: str | None = None, symbols: bool = True) -> str:
        d = self.describe(coords, tag)
        parts = []
        if "symbols" in d and symbols:
            parts.append("symbols (" + ", ".join(f"{k}={v}" for k, v in d["symbols"].items()) + ")")
        if "thread" in d:
            parts.append(f"thread {d['thread']}")
        if "group" in d:
            parts.append("(" + ", ".join(f"{k}={v}" for k, v in d["group"].items()) + ")")
        if d["repeat"]:
            parts.append("repeat (" + ", ".join(f"{k}={v}" for k, v in d["repeat"].items()) + ")")
        parts.append(f"word {d['word']}")
        return ", ".join(parts)


def repeat_names(q: Query) -> list[str]:
    """Names of the repeat axes as the memory operand's pattern spells them."""
    axes = q.apply.memory.axes[len(q.group_shape):-1]
    out = []
    for k, names in enumerate(axes):
        user = [n for n in names if not n.startswith("_")]
        if len(user) == len(names):
            out.append(names[0] if len(names) == 1 else "(" + " ".join(names) + ")")
        else:
            out.append(f"axis{k}")
    return out


def element(t: Tensor, index) -> str:
    return f"{t.name}[{','.join(map(str, index))}]"


def instructions(check: Check, apply: Apply) -> int:
    if apply.family.one_instruction:
        return 1
    g = len(check.group_shape(apply.scope))
    shape = apply.memory.shape
    return prod(shape[g:-1]) if len(shape) > g else 0


def verb(apply: Apply, view: View | None = None) -> str:
    """How a message says the memory operand ``view`` (default: the memory operand) is accessed
    (the family's words): a source is read, a destination written."""
    read, write = apply.family.verbs
    return read if (apply.memory if view is None else view) is apply.src else write
