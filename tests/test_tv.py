"""A register fragment given as CuTe's thread-value layout (``tv = "(T,V):(...)"``), inverted by
``layout.from_tv`` into tilecheck's register layout: held to the hand-inverted layouts of the examples
and, on random bijections, to a brute-force inversion; a TV layout that is no fragment is an input
error saying why."""
import itertools
import pathlib
import random
import subprocess
import sys
import tomllib

import pytest

import tilecheck
from tilecheck import check as C
from tilecheck.errors import InputError
from tilecheck.layout import from_tv, parse_layout

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# (CuTe TV layout, tile, the example's hand-inverted register layout)
HAND = [
    # CuTe's SM80_16x8x16 A fragment (ALayout of the mma atom): stmatrix_x4.toml's R
    ("((4,8),(2,2,2)):((32,1),(16,8,128))", (16, 16), "stmatrix_x4.toml"),
    # the same fragment tiled 4x4 over a 64x64 tile (value modes in the slot order): ldmatrix_x4.toml's R
    ("((4,8),(2,2,2,4,4)):((128,1),(64,8,512,1024,16))", (64, 64), "ldmatrix_x4.toml"),
    # the m16n8 accumulator (SM80 CLayout): lane 4*(m%8) + n/2, slot 2*(m/8) + n%2
    ("((4,8),(2,2)):((32,1),(16,8))", (16, 8), "((8,2),(2,4)):((4@laneid,2),(1,1@laneid))"),
    # two warps, a thread mode that crosses the warp: split into lane and warp
    ("(64,4):(1,64)", (64, 4), "((32,2),4):((1@laneid,1@warpid),1)"),
]


def hand_layout(ref):
    if ref.endswith(".toml"):
        return tomllib.loads((EXAMPLES / ref).read_text())["tensors"]["R"]["layout"]
    return ref


def components(lay, tile):
    return {c: lay(c) for c in itertools.product(*map(range, tile))}


@pytest.mark.parametrize("tv, tile, ref", HAND)
def test_tv_inverts_to_the_hand_layout(tv, tile, ref):
    got, hand = from_tv(tv, tile), parse_layout(hand_layout(ref))
    assert components(got, tile) == components(hand, tile)
    assert str(got) == str(hand)


def _tv_at(tv, t, v):
    """CuTe's TV(t, v): the tile's colexicographic index (evaluated from the parsed layout's leaves)."""
    lay = parse_layout(tv)
    return lay((t, v))[""]


def test_random_bijections_invert_exactly():
    rng = random.Random(33)
    for _ in range(300):
        tile = tuple(rng.choice([1, 2, 4, 8, 16]) for _ in range(rng.choice([1, 2, 3])))
        size = 1
        for e in tile:
            size *= e
        bits = [1 << k for k in range(size.bit_length() - 1)]  # the index's binary digits
        rng.shuffle(bits)
        cut = rng.randint(0, min(len(bits), 6))  # at most 64 threads
        t_modes, v_modes = bits[:cut] or [0], bits[cut:] or [0]
        shape = lambda modes: "(" + ",".join("2" if m else "1" for m in modes) + ")"  # noqa: E731
        stride = lambda modes: "(" + ",".join(str(m) for m in modes) + ")"  # noqa: E731
        tv = f"({shape(t_modes)},{shape(v_modes)}):({stride(t_modes)},{stride(v_modes)})"
        lay = from_tv(tv, tile)
        threads, values = 2 ** (cut if bits[:cut] else 0), size // 2 ** (cut if bits[:cut] else 0)
        seen = set()
        for t in range(threads):
            for v in range(values):
                i = _tv_at(tv, t, v)
                coord, rest = [], i
                for e in tile:  # colexicographic
                    coord.append(rest % e)
                    rest //= e
                got = lay(tuple(coord))
                assert got.get("", 0) == v and got.get("laneid", 0) + 32 * got.get("warpid", 0) == t, (tv, tile, t, v)
                seen.add(i)
        assert len(seen) == size


def test_a_file_with_tv_proves_as_the_hand_layout():
    data = tomllib.loads((EXAMPLES / "ldmatrix_x4.toml").read_text())
    hand = tilecheck.prove(C.from_dict(data))
    del data["tensors"]["R"]["layout"]
    data["tensors"]["R"]["tv"] = HAND[1][0]
    got = tilecheck.prove(C.from_dict(data))
    assert [(o.name, o.status) for o in got.applies[0].obligations] == \
        [(o.name, o.status) for o in hand.applies[0].obligations]
    assert got.verdict == "proved"


@pytest.mark.parametrize("tv, tile, words", [
    ("((4,8),(2,2)):((32,1),(16,0))", (16, 8), "stride 0"),
    ("((4,8),(2,2)):((32,1),(16,8))", (16, 16), "cover 128 elements, the 16x16 tile has 256"),
    ("((4,8),(2,2)):((32,1),(4,8))", (16, 8), "held twice"),
    ("((4,8),(2,2)):((32,1),(16,64))", (16, 8), "held by no thread"),
    ("(32,(3,2)):(1,(32,96))", (48, 4), "crosses a tile axis"),
    ("(4,8,2):(1,4,32)", (8, 8), "two modes"),
])
def test_a_tv_that_is_no_fragment_says_why(tv, tile, words):
    with pytest.raises(InputError) as e:
        from_tv(tv, tile)
    assert words in e.value.message


def _file(tmp_path, r):
    f = tmp_path / "tv.toml"
    text = (EXAMPLES / "stmatrix_x4.toml").read_text()
    old = 'layout = "((8,2),(2,4,2)):((4@laneid,2),(1,1@laneid,4))"'
    assert old in text
    f.write_text(text.replace(old, r))
    return f


@pytest.mark.parametrize("r, words", [
    ('tv = "((4,8),(2,2,2)):((32,1),(16,8,0))"', "tensors.R: tv:"),
    ('tv = "((4,8),(2,2,2)):((32,1),(16,8,128))"\nlayout = "(16,16):(16,1)"', "layout or tv, not both"),
    ('tv = 3', "tv must be a string"),
])
def test_bad_tv_exits_2_with_one_line(tmp_path, r, words):
    p = subprocess.run([sys.executable, "-m", "tilecheck", "prove", str(_file(tmp_path, r))], capture_output=True,
                       text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and words in p.stderr, p.stderr


def test_tv_is_for_register_tensors():
    data = tomllib.loads((EXAMPLES / "stmatrix_x4.toml").read_text())
    data["tensors"]["S"]["tv"] = "(32,8):(1,32)"
    with pytest.raises(InputError) as e:
        C.from_dict(data)
    assert "for register tensors" in e.value.message and "tensors.S" in str(e.value)


def test_the_example_fragment_from_tv_proves_on_the_cli(tmp_path):
    f = _file(tmp_path, 'tv = "((4,8),(2,2,2)):((32,1),(16,8,128))"')
    p = subprocess.run([sys.executable, "-m", "tilecheck", "prove", str(f)], capture_output=True, text=True,
                       cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 0 and "proved" in p.stdout
