"""contiguity: each atom's memory words are at element offsets base, base+1, ..., base+V-1.

An atom is what one thread gives the address of: its own vector (ld/st), or a row the memory
role's ``holds`` gathers from several lanes (ldmatrix: ``_rows``)."""
from dataclasses import replace

import z3

from .. import crd2idx
from ..encode import Coords, element, verb
from ..layout import OFFSET
from ..poly import And, Poly, cmp
from . import swizzle
from .guard import guarded, inside_words, restricts
from .runner import Violation


def role_of(q):
    """The access of the memory operand ``q.memory`` (``accesses.Access``: its words, its layout's
    ``holds``/``origin`` where the atom crosses threads)."""
    return q.access


def violation(q):
    view = q.memory
    t = q.tensor(view)
    if role_of(q).holds is not None:
        return _rows(q, view, t, role_of(q))
    c = q.coords("a")
    base = Coords("a", c.group, c.repeat, Poly.const(0))
    shortcut = _swizzle_shortcut(q, view, t, c, base, c.word, lambda bad: guarded(q, "contiguity", view, c, bad))
    gap = q.value(view, c)[OFFSET] - q.value(view, base)[OFFSET] - c.word

    def explain(w):
        g, r, word = co = w.coords("a")
        o, o0 = w.value(view, co)[OFFSET], w.value(view, (g, r, 0))[OFFSET]
        if o == o0 + word:
            return None
        idx = w.index(view, co)
        return (f"{w.where(co)} {verb(q.apply, view)} {element(t, idx)} at element offset {o}, but the atom starts at {o0}, "
                f"so word {word} should be at {o0 + word}",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "offset": o,
                 "base_offset": o0, "expected_offset": o0 + word})

    lemma = _atom_lemma(q, view, t, c, base, gap)
    bad = And(cmp("!=", q.z(gap), 0), *lemma) if lemma else cmp("!=", q.z(gap), 0)
    inside = None
    if restricts(q, "contiguity", view):  # stated of guarded-in atoms: the point found must be one

        def inside(w):
            return not inside_words(w, view, t, w.coords("a"))[1]
    def candidates(symbols, full):  # explain's test at every point at once (the same crd2idx, on arrays)
        *gr, word = full
        dom = crd2idx.Ints(symbols)
        o = crd2idx.operand_value(t, view, (*gr, word), dom)[OFFSET]
        o0 = crd2idx.operand_value(t, view, (*gr, word * 0), dom)[OFFSET]
        return o != o0 + word

    witness = _witness(q, shortcut, c.all, swizzle.smallest_at_facts_model(
        q, c.all, explain, inside, candidates=candidates), inside is None)
    return Violation(guarded(q, "contiguity", view, c, bad), explain, shortcut=shortcut, witness=witness)


def row_of(role, group, word, dom):
    """(supplier, position, origin group, origin word) of the element at (group, word)."""
    supplier, pos = role.holds(list(group), word, dom)
    g0, w0 = role.origin(supplier, dom)
    return supplier, pos, g0, w0


def _rows(q, view, t, role):
    """Rows gathered across lanes: the element at ``(group, repeat, word)`` is at the row's start
    plus its position, the start being where the row's position 0 is (``role.origin``)."""
    c = q.coords("a")
    _, pos, g0, w0 = row_of(role, c.group, c.word, q.domain(c))
    base = Coords("a", list(g0), c.repeat, w0)
    shortcut = _swizzle_shortcut(q, view, t, c, base, pos)
    gap = q.value(view, c)[OFFSET] - q.value(view, base)[OFFSET] - pos

    def explain(w):
        g, r, word = co = w.coords("a")
        (lane,), p, h0, k0 = row_of(role, g, word, crd2idx.Ints())
        o, o0 = w.value(view, co)[OFFSET], w.value(view, (tuple(h0), r, k0))[OFFSET]
        if o == o0 + p:
            return None
        idx = w.index(view, co)
        return (f"{w.where(co)} {verb(q.apply, view)} {element(t, idx)} at element offset {o}; it is position {p} "
                f"of the row whose address lane {lane} gives, which starts at {o0} (lane {h0[0]}, word {k0}), "
                f"so it should be at {o0 + p}",
                {**w.describe(co), "tensor": t.name, "index": list(idx), "offset": o, "row_lane": lane,
                 "position": p, "base_offset": o0, "expected_offset": o0 + p})

    def candidates(symbols, full):  # explain's test at every point at once (the same crd2idx, on arrays)
        ng = len(c.group)
        g, r, word = list(full[:ng]), list(full[ng:-1]), full[-1]
        dom = crd2idx.Ints(symbols)
        _, p, h0, k0 = row_of(role, g, word, dom)
        o = crd2idx.operand_value(t, view, (*g, *r, word), dom)[OFFSET]
        o0 = crd2idx.operand_value(t, view, (*h0, *r, k0), dom)[OFFSET]
        return o != o0 + p

    witness = _witness(q, shortcut, c.all, swizzle.smallest_at_facts_model(q, c.all, explain,
                                                                           candidates=candidates))
    return Violation(cmp("!=", q.z(gap), 0), explain, shortcut=shortcut, witness=witness)


def _witness(q, shortcut, coords, search, residues: bool = True):
    """The runner's ``Violation.witness`` for a swizzled tensor (None otherwise): the search at the
    smallest symbol values, then (no solver model given, an unguarded atom) ``swizzle.by_residue``."""
    if shortcut is None:
        return None
    later = swizzle.by_residue(q, shortcut, coords, search) if residues else None

    def witness(at=None):
        found = search(at)
        if found is None and at is None and later is not None:
            found = later()
        return found
    return witness


def _plain_at(q, view, t):
    """The unswizzled element offset ``offset + L(index)`` of ``view`` at coordinates."""
    plain = replace(t, layout=replace(t.layout, swizzle=None))
    return lambda co: crd2idx.operand_value(plain, view, co.all, q.domain(co), co.tag)[OFFSET]


def _swizzle_shortcut(q, view, t, c, base, pos, where=None):
    """``proofs.swizzle``'s exact test for a swizzled tensor (None otherwise): the plain run from
    ``base`` is contiguous and the swizzle keeps every such run contiguous, decided on residues.
    Made before the swizzled values, so that its background has none of their digits."""
    sw = t.layout.swizzle
    if sw is None or sw.bits == 0:
        return None
    at = _plain_at(q, view, t)
    p0 = at(base)
    pgap = at(c) - p0 - pos
    return swizzle.shortcut(q, sw, pgap, p0, pos, where)


def _atom_lemma(q, view, t, c, base, gap: Poly, v: int | None = None, pos=None) -> list:
    """A valid implication that spares the solver the swizzle's digits in the common case: when the
    atom's V words (V a power of two, V <= 2^M) are contiguous before the swizzle and the plain base
    is a multiple of V, the plain words differ only in bits below M, which Sw<B,M,S> neither reads
    (it reads bits from M+S up) nor changes (bits M..M+B-1): the swizzled words are contiguous too.
    Empty for an unswizzled tensor or another V.  ``v``, ``pos``: a gathered row's length and the
    element's position in it (``_rows``: ldmatrix's 8-element rows), else the opcode's vector and
    ``c.word``."""
    sw = t.layout.swizzle
    v = v or q.vector
    if sw is None or v & (v - 1) or v > 1 << sw.base:
        return []
    plain = replace(t, layout=replace(t.layout, swizzle=None))
    at = lambda co: crd2idx.operand_value(plain, view, co.all, q.domain(co), co.tag)[OFFSET]  # noqa: E731
    p0 = at(base)
    pgap = at(c) - p0 - (c.word if pos is None else pos)
    return [z3.Implies(z3.And(q.z(pgap) == 0, q.z(p0) % v == 0), q.z(gap) == 0)]
