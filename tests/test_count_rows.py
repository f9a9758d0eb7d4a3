"""``memory_model.count_rows`` (the wavefront and sector rules on numpy arrays, for the proofs' tables)
held to the scalar rules the brute-force decider counts with, on drawn warp-instructions: equal
addresses, aligned pairs of a load that merge, misaligned words that span two banks or two sectors,
addresses far apart (past int64 products), any number of lanes up to 32."""
import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from tilecheck import memory_model as mm

QUIET = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@st.composite
def instructions(draw):
    kind = draw(st.sampled_from(["banks", "sectors"]))
    width = draw(st.sampled_from([1, 2, 4, 8, 16] if kind == "banks" else [1, 2, 4, 8, 16, 32]))
    lanes = draw(st.integers(1, 32))
    rows = []
    for _ in range(draw(st.integers(1, 4))):
        base = draw(st.integers(-2**40, 2**40))
        step = draw(st.sampled_from([0, 1, width, 4, 32, 128, 2**35]))
        row = [base + step * draw(st.integers(0, 40)) for _ in range(lanes)]
        if draw(st.booleans()):  # pairs (2j, 2j+1) at one address: a load of 8 or 16 bytes merges them
            row = [row[i - i % 2] for i in range(lanes)]
        rows.append(row)
    return kind, width, draw(st.sampled_from(["ld", "st"])), rows


def _scalar(kind, row, width, op):
    a = dict(enumerate(row))
    if kind == "banks":
        return mm.wavefronts(a, width, op), mm.ideal_wavefronts(a, width, op)
    return mm.sectors(a, width), mm.ideal_sectors(a, width)


@settings(max_examples=600, **QUIET)
@given(instructions())
def test_the_arrays_count_what_the_scalar_rules_count(case):
    kind, width, op, rows = case
    counts, ideals = mm.count_rows(kind, np.array(rows, dtype=object), width, op)
    assert [(int(c), int(i)) for c, i in zip(counts, ideals)] == [_scalar(kind, r, width, op) for r in rows]


def test_a_merged_load_and_a_conflict_are_counted_as_the_hardware_does():
    """Fixed points of the model: 32 lanes 128 bytes apart, 4-byte stores: 32 wavefronts (ideal 1);
    16-byte loads with every pair at one address: 16 requests in two phases of 8, no conflict: 2."""
    far = [[128 * lane for lane in range(32)]]
    assert [int(x[0]) for x in mm.count_rows("banks", np.array(far), 4, "st")] == [32, 1]
    pairs = [[16 * (lane // 2) for lane in range(32)]]
    assert [int(x[0]) for x in mm.count_rows("banks", np.array(pairs), 16, "ld")] == [2, 2]
    assert [int(x[0]) for x in mm.count_rows("banks", np.array(pairs), 16, "st")] == [4, 4]


def test_addresses_past_the_arrays_are_left_to_the_scalar_rules():
    assert mm.count_rows("banks", np.array([[0, 2**70]], dtype=object), 4, "st") is None


def test_compacted_lane_constants_count_as_the_originals():
    """warp._compact (lanes far apart, past int64 after the lift: fuzz seed 20261211) keeps every count:
    forced on constants that int64 still holds, each row counts as the original row."""
    import random
    from tilecheck.proofs import warp
    from tilecheck.proofs.banks import Banks
    from tilecheck.proofs.sectors import Sectors
    rng = random.Random(7)
    for rule in (Banks(), Sectors()):
        for _ in range(200):
            m = rng.choice((4, 32, 64, 256, 1024))
            wd = rng.choice((1, 2, 4, 8, 16))
            cs = [rng.choice((0, rng.randrange(64), rng.randrange(1 << 20), rng.randrange(1 << 36))) * rng.choice((1, 3))
                  for _ in range(32)]
            old = warp.COMPACT_ABOVE
            warp.COMPACT_ABOVE = -1
            try:
                new = warp._compact(cs, m)
            finally:
                warp.COMPACT_ABOVE = old
            assert [c % m for c in new] == [c % m for c in cs]
            for e in (1, 2, 4):
                a = np.array([[e * c for c in cs]], dtype=np.int64)
                b = np.array([[e * c for c in new]], dtype=np.int64)
                op = rng.choice(("ld", "st"))
                assert warp.per_row(a, rule, wd, op).tolist() == warp.per_row(b, rule, wd, op).tolist(), (cs, new, e, wd)
