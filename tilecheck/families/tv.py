"""Thread-value layouts: what a role's declared ``Layout`` values say, over any ``crd2idx`` domain.

A role whose atom crosses threads (``ldmatrix``'s rows) declares ``values``: a ``Layout`` of two
top-level modes, ``(thread, value) -> view coordinates``, as CuTe's ``Copy_Traits`` do: mode 0
indexes the threads that give an address (``threads``: which lanes of the group they are), mode 1
the position in that thread's atom; its strides send each coordinate to a component of the view's
coordinates: ``k@laneid`` to the lane (the view's group coordinate), a plain ``k`` to the word.

The solver needs the layout as two functions, and they are derived here from the data alone:

* ``origin(group, dom) -> (group', word)``: where position 0 of thread ``group``'s atom is (the
  layout at ``(thread, 0)``; a thread past the layout's threads is taken modulo them: its address
  is unused);
* ``holds(group, word, dom) -> (group', position)``: the inverse, which thread's atom holds the
  view element at ``(group, word)`` and where (the layout must be compact per component).

``stem`` names the fresh variables a polynomial domain introduces (``.L``: the thread index split
over mode 0's top-level sub-modes, ``.i``: its last one reduced, ``.r``: a nested sub-mode,
``.k``/``.t``: the word/lane split of the inverse).
"""
from __future__ import annotations

from ..layout import Layout
from ..modes import ThreadStride, _leaves, product

LANE = "laneid"
WORD = ""


def _component(stride) -> tuple[str, int]:
    return (stride.axis, stride.coef) if isinstance(stride, ThreadStride) else (WORD, stride)


def _sizes(shape) -> list[int]:
    return [product(_leaves(m)) if isinstance(m, tuple) else m for m in shape]


def _split(dom, c, shape, stem: str, depth: int, reduce: bool) -> list:
    """``c`` split colexicographically over ``shape``'s sub-modes (outer split first, then each
    nested sub-mode), one coordinate per leaf."""
    if not isinstance(shape, tuple):
        return [c]
    sizes = _sizes(shape)
    parts = []
    for s in sizes[:-1]:
        c, r = dom.divmod(c, s, stem + (".L" if depth == 0 else ".r"))
        parts.append(r)
    if reduce:
        c = dom.divmod(c, sizes[-1], stem + ".i")[1]
    parts.append(c)
    out = []
    for sub, p in zip(shape, parts):
        out += _split(dom, p, sub, stem, depth + 1, False)
    return out


def _compose(pairs):
    """sum of ``weight * coordinate`` over ``pairs``, last first (``8*i + 2*q + j``)."""
    acc = None
    for w, x in reversed(pairs):
        term = x if w == 1 else w * x
        acc = term if acc is None else acc + term
    return 0 if acc is None else acc


def _colex(shape) -> list[int]:
    """Each leaf's weight in the colexicographic index of ``shape``."""
    out, w = [], 1
    for s in _leaves(shape):
        out.append(w)
        w *= s
    return out


def origin(values: Layout, stem: str, group_threads: int):
    """(group, dom) -> (group', word): the view coordinates of position 0 of thread ``group``'s atom."""
    tshape, tstride = values.shape[0], values.stride[0]
    reduce = group_threads > product(_leaves(tshape))
    strides = [_component(s) for s in _leaves(tstride)]

    def at(group, dom):
        (t,) = group
        coords = _split(dom, t, tshape, stem, 0, reduce)
        lane = _compose([(k, x) for (axis, k), x in zip(strides, coords) if axis == LANE])
        word = _compose([(k, x) for (axis, k), x in zip(strides, coords) if axis == WORD])
        return [lane], word
    return at


def holds(values: Layout, stem: str):
    """(group, word, dom) -> (group', position): the thread whose atom holds view ``(group, word)``."""
    leaves = list(zip(_leaves(values.shape), [_component(s) for s in _leaves(values.stride)]))
    nthread = len(_leaves(values.shape[0]))
    weights = _colex(values.shape[0]) + _colex(values.shape[1])
    order = {}
    for axis in (WORD, LANE):
        mine = sorted((k, n, i) for i, (n, (a, k)) in enumerate(leaves) if a == axis)
        expect = 1
        for k, n, _ in mine:
            if k != expect:
                raise ValueError(f"values layout {values}: not compact on {axis or 'the word'} (stride {k}, "
                                 f"expected {expect})")
            expect *= n
        order[axis] = mine

    def at(group, word, dom):
        (lane,) = group
        coord = {}
        for axis, c, tag in ((WORD, word, ".k"), (LANE, lane, ".t")):
            mine = order[axis]
            for k, n, i in mine[:-1]:
                c, coord[i] = dom.divmod(c, n, stem + tag)
            if mine:
                coord[mine[-1][2]] = c
        thread = _compose([(weights[i], coord[i]) for i in range(nthread)])
        pos = _compose([(weights[i], coord[i]) for i in range(nthread, len(leaves))])
        return [thread], pos
    return at


def size(mode) -> int:
    return product(_leaves(mode)) if isinstance(mode, tuple) else mode
