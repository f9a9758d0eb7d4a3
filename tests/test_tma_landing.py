"""The TMA landing model (tilecheck/tma_landing.py) against an independent brute-force restatement:
nested loops over the box in the driver's order, a running byte counter that skips to the next
swizzle span at the end of each inner row (the H200's padded rows, 2026-12-03), and each swizzle
mode's XOR written out on the byte address from its own table; and its tilecheck ``Layout``
against both."""
import itertools
import random
from math import prod

import pytest

from tilecheck.layout import Layout, parse_layout
from tilecheck.tma_landing import NotModelled, TmaBox

# the swizzle modes restated: (bits XORed in, from bit, into bit) on the byte address
XOR = {"none": None, "32B": (1, 7, 4), "64B": (2, 7, 4), "128B": (3, 7, 4)}
ROW = {"none": None, "32B": 32, "64B": 64, "128B": 128}  # shared bytes an inner row takes with a swizzle


def brute_swizzle(a: int, mode: str) -> int:
    spec = XOR[mode]
    if spec is None:
        return a
    nbits, frm, to = spec
    out = a
    for b in range(nbits):  # one bit at a time
        if (a >> (frm + b)) & 1:
            out ^= 1 << (to + b)
    return out


def brute(esize, box, es, mode, dst, start=None):
    """{box element k: (shared byte address, tensor coordinates)}: the box walked dimension 0 fastest."""
    rank = len(box)
    start = start or [0] * rank
    counts = [box[0]] + [len(range(0, box[i], es[i])) for i in range(1, rank)]
    out, byte = {}, 0
    for k in itertools.product(*[range(n) for n in reversed(counts)]):
        k = tuple(reversed(k))  # dimension 0 fastest
        coords = tuple(start[0] + k[0] if i == 0 else start[i] + es[i] * k[i] for i in range(rank))
        out[k] = (brute_swizzle(dst + byte, mode), coords)
        byte += esize
        if k[0] == counts[0] - 1 and ROW[mode]:  # the row's end: pad to a multiple of the span
            byte = -(-byte // ROW[mode]) * ROW[mode]
    return out


def cases():
    rng = random.Random(30)
    out = []
    for mode, span in (("none", 256), ("32B", 32), ("64B", 64), ("128B", 128)):
        for e in (1, 2, 4, 8):
            inner = [w for w in (16, 32, 48, 64, 96, 128, 256) if w <= span and w // e <= 256]
            for w in inner:
                for rank in (1, 2, 3):
                    box = [w // e] + [rng.choice((1, 2, 3, 5, 8, 9)) for _ in range(rank - 1)]
                    es = [rng.choice((1, 2, 3))] + [rng.choice((1, 2, 3, 8)) for _ in range(rank - 1)]
                    for dst in (0, 128, 384, 1024 + 640):
                        out.append((e, tuple(box), tuple(es), mode, dst))
    return out


CASES = cases()


def test_the_cases_cover_every_mode_size_and_offset():
    assert {(c[0], c[3]) for c in CASES} == {(e, m) for e in (1, 2, 4, 8) for m in XOR}
    assert len(CASES) > 300


@pytest.mark.parametrize("e, box, es, mode, dst", CASES[::3] + CASES[1::7])
def test_model_equals_the_brute_force_restatement(e, box, es, mode, dst):
    t = TmaBox(e, box, es, mode)
    want = brute(e, box, es, mode, dst, start=[5, -2, 7][:len(box)])
    assert t.elements == len(want) and t.nbytes == e * len(want)
    base, off = t.anchor(dst)
    L = t.layout()
    for k, (addr, coords) in want.items():
        assert t.address(dst, k) == addr, (k, t.address(dst, k), addr)
        assert t.source([5, -2, 7][:len(box)], k) == coords
        j = sum(ki * prod(t.shape[:i]) for i, ki in enumerate(k))  # CuTe's L(j), first mode fastest
        assert base + e * L(j, offset=off) == addr
        assert base + e * L(k, offset=off)[""] == addr


def test_every_case_writes_each_byte_once():
    for e, box, es, mode, dst in CASES:
        t = TmaBox(e, box, es, mode)
        addrs = {t.address(dst, k) for k in itertools.product(*[range(n) for n in t.shape])}
        assert len(addrs) == t.elements
        assert min(addrs) >= dst - dst % 1024 and max(addrs) < dst + t.footprint + 1024
        rows = t.elements // t.shape[0]
        assert t.footprint == (ROW[mode] or e * box[0]) * rows >= t.nbytes


def test_narrow_rows_are_padded_to_the_span():
    """The H200 (2026-12-03): a swizzled box whose inner rows are narrower than the span puts each
    row a span apart; the mbarrier count stays the box's bytes."""
    t = TmaBox(2, (8, 8), None, "64B")  # 16-byte rows, 64B swizzle
    assert [t.address(0, (0, r)) for r in range(4)] == [0, 64, 128 + 16, 192 + 16]
    assert (t.pitch, t.footprint, t.nbytes) == (64, 512, 128)
    assert str(t.layout()) == "Sw<2,3,3> o (8,8):(1,32)"
    t = TmaBox(1, (48, 3, 2), None, "128B")
    assert (t.pitch, t.footprint, t.nbytes) == (128, 768, 288)
    assert str(t.layout()) == "Sw<3,4,3> o (48,3,2):(1,128,384)"
    t = TmaBox(2, (8, 8), None, "none")  # no swizzle: dense
    assert (t.pitch, t.footprint, t.nbytes) == (16, 128, 128)


def test_the_layouts_spell_cutes_swizzles():
    assert str(TmaBox(2, (64, 8), None, "128B").layout()) == "Sw<3,3,3> o (64,8):(1,64)"
    assert str(TmaBox(1, (32, 4), None, "32B").layout()) == "Sw<1,4,3> o (32,4):(1,32)"
    assert str(TmaBox(4, (16, 4, 3), (1, 2, 1), "64B").layout()) == "Sw<2,2,3> o (16,2,3):(1,16,32)"
    assert str(TmaBox(8, (2, 5), (1, 2), "none").layout()) == "(2,3):(1,2)"
    assert TmaBox(2, (64, 8), None, "128B").layout() == parse_layout("Sw<3,3,3> o (64,8):(1,64)")


def test_known_placements():
    t = TmaBox(2, (64, 8), None, "128B")  # the canonical 128B tile: 8 rows of 128 bytes
    assert t.address(0, (8, 1)) == 128  # row 1, chunk 1 -> chunk 0
    assert t.address(0, (0, 1)) == 128 + 16
    assert t.address(0, (56, 7)) == 7 * 128  # row 7, chunk 7 -> chunk 0
    # a destination 128 bytes past the repeat: row 0 of the box sits on pattern row 1
    assert t.address(1024 + 128, (0, 0)) == 1024 + 128 + 16
    assert t.anchor(1024 + 128) == (1024, 64)
    # 64-byte rows in the 128B mode: each row takes the 128-byte span (padded), row r on pattern row r
    t = TmaBox(4, (16, 4), None, "128B")
    assert [t.address(0, (0, r)) for r in range(4)] == [0, 128 + 16, 256 + 32, 384 + 48]
    assert TmaBox(1, (16, 5), (1, 2), "none").shape == (16, 3)
    assert TmaBox(1, (32, 2), (4, 1), "none").shape == (32, 2)  # dimension 0's stride is ignored
    assert TmaBox(1, (32, 2), (4, 1), "none").source((3, 0), (5, 1)) == (8, 1)


def test_bad_boxes_are_refused():
    with pytest.raises(ValueError, match="not a multiple of 16"):
        TmaBox(2, (12,))
    with pytest.raises(ValueError, match="more than the 64B swizzle's span"):
        TmaBox(2, (64, 2), None, "64B")
    with pytest.raises(ValueError, match="1..256"):
        TmaBox(1, (16, 257))
    with pytest.raises(ValueError, match="1..8"):
        TmaBox(1, (16, 2), (1, 9))
    with pytest.raises(NotModelled, match="128B_ATOM"):
        TmaBox(1, (16,), None, "128B_atom_32B")
    with pytest.raises(ValueError, match="element size"):
        TmaBox(16, (1,))
    assert isinstance(TmaBox(1, (16,)).layout(), Layout)
