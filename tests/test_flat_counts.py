"""banks and sectors of a concrete check count each repeat axis over its period (``warp.repeat_coords``):
the warp-instruction at ``repeat_k + p`` moves every lane by a whole number of sectors (32 bytes) or bank
rows (128 bytes), so it counts as the one at ``repeat_k``.  Held here to the enumeration of every repeat
(``repeat_coords`` replaced by the whole repeat shape) on drawn checks: the same status, count, message
and counterexample (the first worst warp-instruction); and the table stays small for a long tile."""
from unittest import mock

from hypothesis import HealthCheck, find, given, settings, strategies as st

from tilecheck import strategies
from tilecheck.check import from_dict
from tilecheck.proofs import warp
from tilecheck.report import prove

QUIET = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
COUNTED = ("banks", "sectors")


def _outcomes(check):
    return [(o.name, o.status, o.count, o.message, o.counterexample)
            for a in prove(check).applies for o in a.obligations if o.name in COUNTED]


def _every_repeat(check, apply, view, shift, env=None):
    return [range(n) for n in warp.repeat_shape(check, apply, view)]


def _both(check):
    """(periodic, every repeat) outcomes of ``check``'s counted obligations."""
    fast = _outcomes(check)
    with mock.patch.object(warp, "repeat_coords", _every_repeat):
        slow = _outcomes(check)
    return fast, slow


@st.composite
def long_tiles(draw):
    """One apply reading a ``[R1, R2, V]`` tile (thread scope) or ``[32, R1, R2, V]`` (warp scope, lane
    stride ``l``) of any strides, often swizzled in shared memory, with up to 600 repeats on the first
    axis: periods of 1 to 256 repeats, shorter and longer than the tile.  Guarded (``guard = true``),
    the tile is a slice at a corner of a tensor whose extents may end inside it (or start past it)."""
    scope = draw(st.sampled_from(["thread", "warp"]))
    dtype, esize = draw(st.sampled_from([("float16", 2), ("float32", 4), ("float64", 8)]))
    v = draw(st.sampled_from([x for x in (1, 2, 4) if x * esize <= 16]))
    r1, r2 = draw(st.integers(1, 600)), draw(st.integers(1, 3))
    stride = st.one_of(st.integers(0, 70), st.sampled_from([128, 256, 1000, 2**20]))
    s1, s2, lane = draw(stride), draw(stride), draw(stride)
    space = draw(st.sampled_from(["global", "shared"]))
    view = [32, r1, r2, v] if scope == "warp" else [r1, r2, v]
    guard = draw(st.booleans())
    corner = [draw(st.integers(0, 3)) if guard and e != v else 0 for e in view[:-1]] + [0]
    shape = [draw(st.integers(1, c + e + 2)) if guard and e != v else e for c, e in zip(corner, view[:-1])] + [v]
    strides = ([lane * v] if scope == "warp" else []) + [s1 * v, s2 * v, 1]
    layout = f"({','.join(map(str, shape))}):({','.join(map(str, strides))})"
    if space == "shared" and draw(st.booleans()):
        b = draw(st.integers(1, 3))
        layout = f"Sw<{b},{draw(st.integers(0, 3))},{draw(st.integers(b, 4))}> o {layout}"
    names = ["l", "i", "j", "v"][4 - len(view):]
    src = "A[" + ", ".join(f"{c}:{c + e}" for c, e in zip(corner, view)) + "]: " + " ".join(names)
    src += " -> " + " ".join(names)
    reg = {"layout": f"(32,{r1},{r2},{v}):(1@laneid,{r2 * v},{v},1)"} if scope == "warp" else {}
    align = draw(st.sampled_from([v * esize, 16, 32, 128]))
    op = f"ld.{space}{'' if v == 1 else f'.v{v}'}.b{8 * esize}"
    apply = {"opcode": op, "scope": scope, "dst": "R", "src": src}
    if guard:
        apply["guard"] = True
    return {"arch": "sm_90", "threads": 32 if scope == "warp" else draw(st.sampled_from([1, 32, 64])),
            "tensors": {"A": {"dtype": dtype, "scope": space, "shape": shape, "layout": layout, "align": align},
                        "R": {"dtype": dtype, "scope": "register", "shape": view, **reg}},
            "apply": [apply]}


@settings(max_examples=400, **QUIET)
@given(long_tiles())
def test_a_long_tile_counts_as_every_repeat_does(data):
    fast, slow = _both(from_dict(data, "<tile>"))
    assert fast == slow


@settings(max_examples=300, **QUIET)
@given(strategies.checks(max_points=4096))
def test_a_drawn_check_counts_as_every_repeat_does(data):
    fast, slow = _both(from_dict(data, "<drawn>"))
    assert fast == slow


@settings(max_examples=150, **QUIET)
@given(strategies.checks(max_points=4096, families=["guard", "cp.async"]))
def test_a_drawn_guarded_check_counts_as_every_repeat_does(data):
    fast, slow = _both(from_dict(data, "<drawn>"))
    assert fast == slow


def test_a_cut_tile_with_a_conflict_reports_the_first_worst_instruction():
    """The comparison above is not vacuous: some drawn tile is cut to its period and refuted, and its
    counterexample (the first worst warp-instruction) is the one every repeat's enumeration finds."""
    def cut_and_refuted(data):
        c = from_dict(data, "<tile>")
        a = c.applies[0]
        cut = list(map(list, warp.repeat_coords(c, a, a.src, warp.SHIFT_BANKS))) != [
            list(r) for r in _every_repeat(c, a, a.src, 0)]
        return cut and any(s == "refuted" and k and k > 1 for _, s, k, _, _ in _outcomes(c))
    data = find(long_tiles(), cut_and_refuted, settings=settings(database=None, derandomize=True, max_examples=500))
    fast, slow = _both(from_dict(data, "<tile>"))
    assert fast == slow


def test_a_tile_of_a_million_repeats_enumerates_two():
    """A one-thread [10^6, 4] float32 tile (16-byte aligned v4 loads, 16 bytes apart): a repeat moves the
    lane by 16 bytes, so two repeats span a sector; the table counted has 2 rows, not 10^6."""
    sizes = []
    real = warp.table

    def spy(*args, **kw):
        keys, rows = real(*args, **kw)
        sizes.append(len(keys))
        return keys, rows
    data = {"tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [10**6, 4], "align": 16},
                        "R": {"dtype": "float32", "scope": "register", "shape": [10**6, 4]}},
            "apply": [{"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"}]}
    with mock.patch.object(warp, "table", spy):
        o = next(o for o in prove(from_dict(data, "<tile>")).applies[0].obligations if o.name == "sectors")
    assert o.status == "proved" and o.count == 1
    assert sizes == [2]


def test_a_guarded_tile_of_a_million_repeats_enumerates_its_edge_runs():
    """Guarded, the same tile sliced 3 rows past its tensor's end: two runs of one set of active lanes,
    [0, 999997) and [999997, 10^6), each counted over its first two repeats (4 rows); the edge's
    guarded-out instructions touch no sector (0, ideal 0)."""
    sizes = []
    real = warp.table

    def spy(*args, **kw):
        keys, rows = real(*args, **kw)
        sizes.append([k[1][0] for k in keys])
        return keys, rows
    n = 10**6
    data = {"tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [n - 3, 4], "align": 16},
                        "R": {"dtype": "float32", "scope": "register", "shape": [n, 4]}},
            "apply": [{"opcode": "ld.global.v4.b32", "dst": "R", "src": f"A[0:{n}, 0:4]", "guard": True}]}
    with mock.patch.object(warp, "table", spy):
        o = next(o for o in prove(from_dict(data, "<tile>")).applies[0].obligations if o.name == "sectors")
    assert o.status == "proved" and o.count == 1
    assert sizes == [[0, 1, n - 3, n - 2]]


def _merged(rows: int, guard: bool) -> dict:
    """A one-thread tile whose one repeat axis runs over two tensor axes, ``(a b)``: its digits are not a
    stride times the repeat, so every repeat is enumerated."""
    apply = {"opcode": "ld.global.v4.b32", "dst": "R", "src": f"A: a b v -> (a b) v"}
    if guard:
        apply["guard"] = True
    return {"tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [rows, 1024, 4], "align": 16},
                        "R": {"dtype": "float32", "scope": "register", "shape": [rows * 1024, 4]}},
            "apply": [apply]}


def test_past_the_enumeration_limit_the_count_is_unknown():
    """Repeats enumerated one by one, past ``ENUMERATION_LIMIT`` (warp-instructions x base residues):
    the count is unknown with its reason, not a long silent enumeration."""
    rows = warp.ENUMERATION_LIMIT // 2048 + 1  # x 1024 repeats x 2 base residues (16-byte aligned, sectors)
    o = next(o for o in prove(from_dict(_merged(rows, True), "<tile>")).applies[0].obligations
             if o.name == "sectors")
    assert o.status == "unknown"
    assert f"{rows * 2048:,} warp-instructions x base residues" in o.message
    assert "not a stride times the coordinate" in o.message


def test_a_long_enumeration_says_so_on_stderr(capsys):
    rows = warp.PROGRESS_ROWS // 2048  # 2^20 warp-instructions x base residues: a few seconds
    o = next(o for o in prove(from_dict(_merged(rows, False), "<tile>")).applies[0].obligations
             if o.name == "sectors")
    assert o.status == "proved"
    assert f"tilecheck: sectors: counting {rows * 2048:,} warp-instructions" in capsys.readouterr().err


def _store(align: int | None) -> dict:
    a = {"dtype": "float32", "scope": "global", "shape": [32, 1]}
    if align is not None:
        a["align"] = align
    return {"threads": 32, "tensors": {"A": a, "R": {"dtype": "float32", "scope": "register", "shape": [32, 1],
                                                     "layout": "(32,1):(1@laneid,1)"}},
            "apply": [{"opcode": "st.global.f32", "scope": "warp", "dst": "A", "src": "R"}]}


def test_a_count_at_a_base_past_a_sector_names_the_align_default():
    """A contiguous 4-byte warp store: 5 sectors at the default align (4: a base 4 bytes past a sector),
    and the message says which align allows that base, that it is the default, and what to declare;
    at align = 32 the 4 sectors ncu measures on an aligned buffer (proved)."""
    o = next(o for o in prove(from_dict(_store(None), "<store>")).applies[0].obligations if o.name == "sectors")
    assert (o.status, o.count) == ("refuted", 5)
    assert ("base address = 4 mod 32 (A's align = 4 allows a base 4 bytes past a sector; align defaults to the "
            "element size: declare align = 32 or more to count at a sector-aligned base)") in o.message
    o = next(o for o in prove(from_dict(_store(32), "<store>")).applies[0].obligations if o.name == "sectors")
    assert o.status == "proved"
