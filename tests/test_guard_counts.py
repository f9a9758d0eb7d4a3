"""banks and sectors on guarded applies (guard = true): a guarded-out lane is inactive.

ld/st: a lane whose atom is guarded out does not execute and is left out of its warp-instruction;
cp.async: the source's guarded-out lanes are inactive (nothing is read), the shared destination's
are not (zero-fill).  Each count is checked three ways: the prover (enumeration for concrete
checks, the Z3 encoding for symbolic ones), the brute-force decider, and ``memory_model`` by hand,
and against the count every lane would give (which differs)."""
import pytest

from tilecheck import decide, memory_model
from tilecheck.check import from_dict
from tilecheck.gpu import ncu_compare as nc
from tilecheck.gpu.reference import bind_symbols
from tilecheck.report import prove

REG = {"dtype": "float32", "scope": "register", "shape": [32, 1], "layout": "(32,1):(1@laneid,1)"}


def column(rows, space="shared", symbolic=False, expect=None, threads=32, scope="warp"):
    """Lane l of a warp (or thread t of the CTA) reads row l of column 0 of a (rows, 32) float32 tensor
    (stride 128 bytes: one bank, one sector per lane) at rows [0, 32): rows >= ``rows`` are guarded out."""
    op = "ld.shared.f32" if space == "shared" else "ld.global.f32"
    n = threads if scope == "cta" else 32
    view = (f"S[0:{n}, 0:1]: (w=2 l=32) c -> w l c" if scope == "cta" else "S[0:32, 0:1]: l c -> l c")
    reg = ({**REG, "shape": [2, 32, 1], "layout": "(2,32,1):(1@warpid,1@laneid,1)"} if scope == "cta" else REG)
    data = {"arch": "sm_90", "threads": threads,
            "tensors": {"S": {"dtype": "float32", "scope": space, "shape": ["n" if symbolic else rows, 32]},
                        "R": reg},
            "apply": [{"opcode": op, "scope": scope, "guard": True, "dst": "R", "src": view}]}
    if symbolic:
        data["symbols"] = {"n": {"min": 1, "max": rows}}
    if expect:
        data["apply"][0]["expect"] = expect
    return from_dict(data, "<guarded column>")


def outcome(check, name, i=0):
    return next(o for o in prove(check).applies[i].obligations if o.name == name)


def test_half_guarded_warp_counts_its_active_lanes_only():
    """16 rows: lanes 16-31 are guarded out; 16 wavefronts (every lane: 32), prover = decider."""
    c = column(16)
    every = {lane: 128 * lane for lane in range(32)}
    assert memory_model.wavefronts(every, 4) == 32
    assert memory_model.wavefronts({k: v for k, v in every.items() if k < 16}, 4) == 16
    o = outcome(c, "banks")
    assert (o.status, o.count) == ("refuted", 16)
    assert o.counterexample["guarded_out"] == list(range(16, 32))
    assert "lanes 16-31 guarded out" in o.message
    assert decide.count(c, 0, "banks") == 16
    assert decide.decide(c)[0]["banks"][1]["count"] == 16
    assert outcome(column(16, expect={"banks": 16}), "banks").status == "proved"
    o = outcome(column(16, expect={"banks": 15}), "banks")
    assert (o.status, o.counterexample["count"]) == ("refuted", 16)
    assert decide.decide(column(16, expect={"banks": 15}))[0]["banks"][0] == "refuted"


def test_ragged_last_warp_has_half_its_lanes_guarded_out():
    """A CTA of two warps over 48 rows: warp 1's lanes 16-31 are out; the decider counts it 16 sectors,
    warp 0 32; the prover's maximum is 32 and so is the decider's."""
    c = column(48, space="global", threads=64, scope="cta")
    per_warp = {w: n for n, _, w, _, _ in decide.counts(decide.Operands(c, c.applies[0], {}), "sectors")}
    assert per_warp == {0: 32, 1: 16}
    o = outcome(c, "sectors")
    assert (o.status, o.count) == ("refuted", 32)
    assert outcome(column(48, space="global", threads=64, scope="cta", expect={"sectors": 32}),
                   "sectors").status == "proved"


@pytest.mark.parametrize("space,name", [("shared", "banks"), ("global", "sectors")])
def test_symbolic_guarded_counts_are_proved_by_the_encoding(space, name):
    """n <= 16 rows: at most 16 active lanes at any n; Z3 proves ``expect = 16`` (every lane would
    count 32) and refutes 15 with the exact count, which the decider's enumeration confirms."""
    o = outcome(column(16, space, symbolic=True, expect={name: 16}), name)
    assert o.status == "proved", o.message
    c = column(16, space, symbolic=True, expect={name: 15})
    o = outcome(c, name)
    assert o.status == "refuted" and o.counterexample["count"] == 16 and o.counterexample["exact"]
    status, witness = decide.decide(c)[0][name]
    assert status == "refuted" and witness["count"] == 16


@pytest.mark.parametrize("space,name", [("shared", "banks"), ("global", "sectors")])
def test_symbolic_guard_makes_a_column_ideal(space, name):
    """n <= 1: only lane 0 is ever active, so the column is ideal (Z3's two-lane ``pair`` query for
    banks and the sector count, each under the lanes' guards); n <= 2 refutes with 2."""
    assert outcome(column(1, space, symbolic=True), name).status == "proved"
    assert decide.decide(column(1, space, symbolic=True))[0][name][0] == "proved"
    o = outcome(column(2, space, symbolic=True), name)
    assert o.status == "refuted" and o.counterexample["count"] == 2


def pairs(op, symbolic=False, expect=None):
    """Lane 2j reads row j, lane 2j+1 row 16+j of a 16-row (2-column) float32 tensor: the odd lanes
    are always guarded out, so every pair agrees (an inactive lane agrees with its partner)."""
    data = {"arch": "sm_90", "threads": 32,
            "tensors": {"S": {"dtype": "float32", "scope": "shared", "shape": ["n" if symbolic else 16, 2],
                              "align": 8},
                        "R": {**REG, "shape": [32, 2], "layout": "(32,2):(1@laneid,1)"}},
            "apply": [{"opcode": f"{op}.shared.v2.f32", "scope": "warp", "guard": True}]}
    mem, reg = "S[0:32, 0:2]: (b=2 j=16) w -> (j b) w", "R"
    a = data["apply"][0]
    a["dst"], a["src"] = (reg, mem) if op == "ld" else (mem, reg)
    if symbolic:
        data["symbols"] = {"n": {"min": 1, "max": 16}}
    if expect:
        a["expect"] = {"banks": expect}
    return from_dict(data, "<guarded pairs>")


@pytest.mark.parametrize("symbolic", [False, True])
def test_pairs_merge_with_inactive_partners(symbolic):
    """An 8-byte load whose odd lanes are guarded out is served per pair: 1 wavefront (the store, never
    merged, 2 phases of 16 lanes: 2); the memory model says so by hand, the prover and decider agree."""
    active = {2 * j: 8 * j for j in range(16)}
    assert (memory_model.wavefronts(active, 8, "ld"), memory_model.wavefronts(active, 8, "st")) == (1, 2)
    assert outcome(pairs("ld", symbolic, expect=1), "banks").status == "proved"
    assert decide.decide(pairs("ld", symbolic, expect=1))[0]["banks"][0] == "proved"
    o = outcome(pairs("st", symbolic, expect=1), "banks")
    assert o.status == "refuted" and o.counterexample["count"] == 2
    assert decide.decide(pairs("st", symbolic, expect=1))[0]["banks"][0] == "refuted"
    if not symbolic:
        assert decide.count(pairs("ld"), 0, "banks") == 1 and decide.count(pairs("st"), 0, "banks") == 2


def copy(rows):
    """A guarded cp.async of 32 16-byte rows (8 float16) from a (rows, 8) global tensor to a 32x8 shared tile."""
    return from_dict({"arch": "sm_80", "threads": 32,
                      "tensors": {"X": {"dtype": "float16", "scope": "global", "shape": [rows, 8], "align": 256},
                                  "S": {"dtype": "float16", "scope": "shared", "shape": [32, 8], "align": 16}},
                      "apply": [{"opcode": "cp.async.cg.shared.global", "cp_size": 16, "scope": "warp",
                                 "guard": True, "dst": "S: l w -> l w", "src": "X[0:32, 0:8]: l w -> l w"}]},
                     "<guarded copy>")


def test_cp_async_source_lanes_drop_out_the_destination_lanes_do_not():
    """16 of 32 source rows exist: the source reads 256 bytes (8 sectors, every lane would be 16); the
    zero-fill still writes all 512 destination bytes (4 wavefronts in 4 phases, not 2)."""
    c = copy(16)
    s, b = outcome(c, "sectors"), outcome(c, "banks")
    assert (s.status, s.count) == ("proved", 8)
    assert (b.status, b.count) == ("proved", 4)
    assert decide.count(c, 0, "sectors") == 8 and decide.count(c, 0, "banks") == 4
    assert decide.count(copy(32), 0, "sectors") == 16


def test_expect_is_allowed_on_a_guarded_apply():
    c = column(16, expect={"banks": "conflict-free"})
    assert c.applies[0].expect == (("banks", None),) and "banks" in c.applies[0].require


def test_ncu_prediction_counts_active_lanes_of_a_guarded_kernel():
    """The comparison now predicts guarded kernels: the apply's warp-instruction holds its 16 active
    lanes (16 wavefronts, what the prover counts), and the kernel's one predicated load is its SASS."""
    c = column(16)
    report = prove(c)
    assert report.verdict == "proved"
    rec = nc.case_record(c, report.plan, "g0", bind_symbols(c))
    (row,) = [r for r in rec["breakdown"] if r[0].startswith("apply[0]")]
    assert row[1:5] == ["shared_ld", 4, 1, 16]
    assert rec["sass"]["LDS"] == 2  # the apply's one load and the copy-back loop's
    items = nc.traffic(c, bind_symbols(c))
    (apply,) = [t for t in items if t.source.startswith("apply[0]")]
    assert sorted(apply.warps[0]) == list(range(16))
