"""banks and sectors: the encodings agree with memory_model on hand-made warp-instructions, the
decider agrees, expect makes them contracts, the report carries the count."""
import json

import pytest

import tilecheck
from tilecheck import decide, memory_model
from tilecheck.check import from_dict
from tilecheck.errors import InputError
from tilecheck.report import prove


def shared(layout, shape, dtype="uint32", opcode="ld.shared.b32", pattern="S: l j -> l j ()", reg=None,
           threads=32, scope="warp", symbols=None, expect=None, space="shared", align=128):
    reg_shape = reg or ([32, shape[1]] if scope != "thread" else shape)
    data = {"arch": "sm_90", "threads": threads,
            "tensors": {"S": {"dtype": dtype, "scope": space, "shape": shape, "layout": layout, "align": align},
                        "R": {"dtype": dtype, "scope": "register", "shape": reg_shape,
                              "layout": f"({reg_shape[0]},{reg_shape[1]}):(1@laneid,1)" if scope != "thread"
                              else f"({reg_shape[0]},{reg_shape[1]}):({reg_shape[1]},1)"}},
            "apply": [{"opcode": opcode, "scope": scope, "dst": "R: " + pattern.split(": ", 1)[1], "src": pattern}]}
    if opcode.startswith("st"):
        a = data["apply"][0]
        a["dst"], a["src"] = a["src"], a["dst"]
    if symbols:
        data["symbols"] = symbols
    if expect:
        data["apply"][0]["expect"] = expect
    return from_dict(data, "<test>")


def outcome(check, name):
    (a,) = prove(check).applies
    return a, next(o for o in a.obligations if o.name == name)


def model(addresses, width):
    return memory_model.wavefronts(addresses, width)


@pytest.mark.parametrize("row,expected", [(32, 32), (33, 1), (16, 16), (64, 32), (1, 1), (2, 2), (8, 8)])
def test_column_read_wavefronts_equal_the_model(row, expected):
    """Lane l reads word l*row: the count is gcd-driven; concrete and symbolic agree with the model."""
    assert model({lane: 4 * lane * row for lane in range(32)}, 4) == expected
    a, o = outcome(shared(f"(32,4):({row},1)", [32, 4]), "banks")
    assert o.count == expected
    assert o.status == ("proved" if expected == 1 else "refuted")
    if expected > 1:
        assert o.counterexample["lanes"] == [0, 32 // expected if expected < 32 else 1]
        assert o.counterexample["bank"] == 0
    sym = shared("(32,4):(n,1)", [32, 4], symbols={"n": {"min": row, "max": row}})
    _, s = outcome(sym, "banks")
    assert s.status == o.status
    if expected > 1:
        assert s.counterexample["count"] == expected


def test_broadcast_is_one_wavefront():
    """Every lane reads the same word (stride 0): a broadcast, proved."""
    _, o = outcome(shared("(32,4):(0,1)", [32, 4]), "banks")
    assert o.status == "proved" and o.count == 1
    assert model({lane: 0 for lane in range(32)}, 4) == 1


def test_thread_scope_is_a_broadcast():
    c = shared("(4,32):(32,1)", [4, 32], scope="thread", pattern="S: i j -> i j ()", threads=64)
    _, o = outcome(c, "banks")
    assert o.status == "proved" and o.count == 1


@pytest.mark.parametrize("vec,row,expected", [(2, 2, 2), (2, 32, 32), (4, 4, 4), (4, 32, 32), (4, 8, 8), (2, 4, 4)])
def test_8_and_16_byte_phases(vec, row, expected):
    """v2 (16-lane phases) and v4 (8-lane phases) of 32-bit words, lane l at word l*row."""
    addresses = {lane: 4 * lane * row for lane in range(32)}
    assert model(addresses, 4 * vec) == expected
    c = shared(f"(32,{row}):({row},1)", [32, row], opcode=f"ld.shared.v{vec}.b32",
               pattern=f"S[0:32, 0:{vec}]: l (j w={vec}) -> l j w", reg=[32, vec])
    _, o = outcome(c, "banks")
    assert o.count == expected
    ideal = 32 // memory_model.phase_lanes(4 * vec)
    assert o.status == ("proved" if expected == ideal else "refuted")


def test_partial_warp_in_thread_scope_and_decider():
    c = shared("(4,32):(32,1)", [4, 32], scope="thread", pattern="S: i j -> i j ()", threads=40)
    assert decide.decide(c)[0]["banks"][0] == "proved"


def test_32_way_store_and_the_decider_agree():
    c = shared("(32,4):(32,1)", [32, 4], opcode="st.shared.b32")
    a, o = outcome(c, "banks")
    d = decide.decide(c)[0]["banks"]
    assert o.status == d[0] == "refuted" and o.count == d[1]["count"] == 32


def test_expect_blocks_emission_and_bounds():
    free = shared("(32,4):(2,1)", [32, 4])  # 2-way conflict
    assert prove(free).verdict == "proved"  # performance: not blocking
    assert prove(shared("(32,4):(2,1)", [32, 4], expect={"banks": "conflict-free"})).verdict == "refuted"
    assert prove(shared("(32,4):(2,1)", [32, 4], expect={"banks": 2})).verdict == "proved"
    r = prove(shared("(32,4):(2,1)", [32, 4], expect={"banks": 1}))
    assert r.verdict == "refuted"
    with pytest.raises(PermissionError):
        r.plan


@pytest.mark.parametrize("expect,where", [({"banks": "minimal"}, "expect.banks"), ({"banks": 0}, "expect.banks"),
                                          ({"bank": 1}, "expect.bank"), ({"sectors": "minimal"}, "expect.sectors")])
def test_expect_input_errors(expect, where):
    with pytest.raises(InputError) as e:
        shared("(32,4):(2,1)", [32, 4], expect=expect)
    assert e.value.where.endswith(where) or where in str(e.value)


def test_json_carries_count_and_counterexample():
    r = prove(tilecheck.load("examples/banks_conflict_refuted.toml"))
    o = next(o for o in r.to_json()["applies"][0]["obligations"] if o["name"] == "banks")
    json.dumps(o)
    assert o["status"] == "refuted" and o["count"] == 32
    assert o["counterexample"]["lanes"] == [0, 1] and o["counterexample"]["byte_addresses"] == [0, 128]


@pytest.mark.parametrize("row,expected", [(1, 4), (8, 32), (2, 8)])
def test_sectors_global_column_and_row(row, expected):
    """Lane l reads the 4-byte word l*row: sectors = distinct 32-byte sectors; ideal 4."""
    addresses = {lane: 4 * lane * row for lane in range(32)}
    assert memory_model.sectors(addresses, 4) == expected
    c = shared(f"(32,8):({row},{32 * row})", [32, 8], opcode="ld.global.b32", space="global")
    _, o = outcome(c, "sectors")
    assert o.count == expected and o.status == ("proved" if expected == 4 else "refuted")
    d = decide.decide(c)[0]["sectors"]
    assert d[0] == o.status
    sym = shared("(32,8):(n,32*n)", [32, 8], opcode="ld.global.b32", space="global",
                 symbols={"n": {"min": row, "max": row}})
    _, s = outcome(sym, "sectors")
    assert s.status == o.status


def test_sectors_base_alignment_counts():
    """align 16 lets the base sit 16 bytes past a sector: 32 lanes x 4 bytes take 5 sectors."""
    c = shared("(32,8):(1,32)", [32, 8], opcode="ld.global.b32", space="global", align=16)
    _, o = outcome(c, "sectors")
    assert o.status == "refuted" and o.count == 5 and o.counterexample["base"] == 16


# --- the load pair rule (memory_model.pairs_merge): 8- and 16-byte loads whose aligned lane pairs share
# an address are served per pair; stores never are

V2 = dict(pattern="S[0:32, 0:2]: l (j w=2) -> l j w", reg=[32, 2])
V4 = dict(pattern="S[0:32, 0:4]: l (j w=4) -> l j w", reg=[32, 4])


@pytest.mark.parametrize("layout,vec,lane_word,ld,st", [
    ("(32,2):(0,1)", 2, lambda l: 0, 1, 2),  # broadcast: one pair-served phase; a store's two phases
    ("((2,16),2):((0,4),1)", 2, lambda l: 4 * (l // 2), 2, 2),  # pairs 16 B apart: pair j and j+8 share a bank
    ("((2,16),2):((0,2),1)", 2, lambda l: 2 * (l // 2), 1, 2),  # pairs contiguous
    ("((16,2),2):((2,0),1)", 2, lambda l: 2 * (l % 16), 2, 2),  # half_same: lane i and i+16, no pairs
    ("(32,4):(0,1)", 4, lambda l: 0, 2, 4),  # 16 bytes: pairs in two phases of 8 pairs
    ("((2,16),4):((0,4),1)", 4, lambda l: 4 * (l // 2), 2, 4),
    ("((2,16),4):((0,8),1)", 4, lambda l: 8 * (l // 2), 4, 4),  # pair j and j+4 share a bank
    # issue 32: lanes l and l^2 share (lane bit 1 has stride 0), aligned pairs do not: served per pair
    # (l, l^2) like the aligned pairs (ncu_probe --round 4 on the H200: 440 kernels, all equal; without
    # this rule 49 missed, e.g. 4 predicted where the H200 measured 2)
    ("((2,2,8),2):((2,0,4),1)", 2, lambda l: 2 * (l % 2) + 4 * (l // 4), 1, 2),  # units contiguous
    ("((2,2,8),2):((2,0,32),1)", 2, lambda l: 2 * (l % 2) + 32 * (l // 4), 8, 8),  # units 128 B apart
    ("((2,2,8),2):((2,0,16),1)", 2, lambda l: 2 * (l % 2) + 16 * (l // 4), 4, 4),
    ("((2,2,8),4):((4,0,8),1)", 4, lambda l: 4 * (l % 2) + 8 * (l // 4), 2, 4),  # 16 bytes: two phases
    ("((2,2,8),4):((4,0,32),1)", 4, lambda l: 4 * (l % 2) + 32 * (l // 4), 8, 8),
])
def test_load_pair_rule(layout, vec, lane_word, ld, st):
    """The hand-computed count of a load and of a store, from memory_model, Z3 (concrete and symbolic
    at one value) and the decider."""
    extra = V2 if vec == 2 else V4
    for op, expected in (("ld", ld), ("st", st)):
        addresses = {lane: 4 * lane_word(lane) for lane in range(32)}
        assert memory_model.wavefronts(addresses, 4 * vec, op) == expected
        ideal = memory_model.ideal_wavefronts(addresses, 4 * vec, op)
        c = shared(layout, [32, vec], opcode=f"{op}.shared.v{vec}.b32", **extra)
        _, o = outcome(c, "banks")
        assert o.count == expected
        assert o.status == ("proved" if expected == ideal else "refuted")
        d = decide.decide(c)[0]["banks"]
        assert d[0] == o.status and (d[1] is None or d[1]["count"] == expected)
        sym = shared(layout.replace(":((0,", ":((n,").replace(":(0,", ":(n,").replace(",0,", ",n,"), [32, vec],
                     opcode=f"{op}.shared.v{vec}.b32", symbols={"n": {"min": 0, "max": 0}}, **extra)
        _, s = outcome(sym, "banks")
        assert s.status == o.status
        if s.status == "refuted":
            assert s.counterexample["count"] == expected


def sym_pairs(lo, hi, op="ld"):
    """Lane 2j reads word 4j, lane 2j+1 word 4j + n: the pairs share an address only at n = 0."""
    return shared("((2,16),2):((n,4),1)", [32, 2], opcode=f"{op}.shared.v2.b32",
                  symbols={"n": {"min": lo, "max": hi, "multiple_of": 2}}, **V2)


@pytest.mark.parametrize("n", [0, 2, 4, 6])
def test_symbolic_pairs_agree_with_the_decider_at_each_value(n):
    for op in ("ld", "st"):
        _, o = outcome(sym_pairs(n, n, op), "banks")
        d = decide.decide(sym_pairs(n, n, op), {"n": n})[0]["banks"]
        assert o.status == d[0]
        addresses = {lane: 4 * (4 * (lane // 2) + n * (lane % 2)) for lane in range(32)}
        count, ideal = memory_model.wavefronts(addresses, 8, op), memory_model.ideal_wavefronts(addresses, 8, op)
        assert count == (ideal if o.status == "proved" else o.counterexample["count"])
        if d[0] == "refuted":
            assert o.counterexample["count"] == d[1]["count"]


def test_symbolic_pairs_merge_only_at_some_values():
    """n in {0, 2}: at n = 2 the load takes 2 wavefronts in 2 phases (ideal); at n = 0 its pairs merge
    and take 2 wavefronts in the one phase (ideal 1): refuted there, and only as a load."""
    _, o = outcome(sym_pairs(0, 2), "banks")
    assert o.status == "refuted" and o.counterexample["symbols"] == {"n": 0}
    assert o.counterexample["count"] == 2 and o.counterexample["ideal"] == 1
    assert decide.decide(sym_pairs(0, 2))[0]["banks"][0] == "refuted"
    _, s = outcome(sym_pairs(0, 2, "st"), "banks")
    assert s.status == "proved" and decide.decide(sym_pairs(0, 2, "st"))[0]["banks"][0] == "proved"
    _, p = outcome(sym_pairs(2, 2), "banks")
    assert p.status == "proved"


def test_symbolic_pairs_with_an_expected_count():
    """expect = { banks = N } decides with the count term (If(merged, per pair, per lane)), not the
    two-lane form: the merged load at n = 0 takes 2 wavefronts, above 1; a store takes 2 too."""
    def check(op, bound):
        return shared("((2,16),2):((n,4),1)", [32, 2], opcode=f"{op}.shared.v2.b32",
                      symbols={"n": {"min": 0, "max": 2, "multiple_of": 2}}, expect={"banks": bound}, **V2)
    assert outcome(check("ld", 1), "banks")[1].status == "refuted"
    assert outcome(check("ld", 2), "banks")[1].status == "proved"
    assert outcome(check("st", 2), "banks")[1].status == "proved"
    assert outcome(check("st", 1), "banks")[1].status == "refuted"


def test_a_search_out_of_budget_stays_refuted_with_at_least(monkeypatch):
    """A refutation at the ideal is a fact: with no time for the maximum search, banks is still
    refuted, with "at least N" where N is the worst warp-instruction at the counterexample's symbol
    values (enumerated); with the time, the count is exact."""
    from tilecheck.proofs import warp
    sym = shared("(32,4):(n,1)", [32, 4], symbols={"n": {"min": 1, "max": 48}})  # n = 48: 16, n = 32: 32
    _, exact = outcome(sym, "banks")
    assert exact.status == "refuted" and exact.counterexample["exact"] is True and exact.count == 32
    monkeypatch.setattr(warp, "MAXIMUM_SEARCH_S", 0.0)
    _, small = outcome(sym, "banks")  # 48 assignments: every one enumerated, exact without a search
    assert small.status == "refuted" and small.count == 32 and small.counterexample["exact"] is True
    monkeypatch.setattr(warp, "_decide_small", lambda *a: None)  # as for a domain too large to enumerate
    _, o = outcome(sym, "banks")
    assert o.status == "refuted" and o.count is None and o.counterexample["exact"] is False
    n = o.counterexample["symbols"]["n"]
    at = {lane: 4 * lane * n for lane in range(32)}
    assert o.counterexample["count"] == memory_model.wavefronts(at, 4) > 1
    assert f"at least {o.counterexample['count']} wavefronts" in o.message


def test_32_byte_shared_access_is_skipped_with_its_reason_unless_required():
    c = shared("(32,8):(8,1)", [32, 8], opcode="ld.shared.v8.b32", pattern="S[0:32, 0:8]: l (j w=8) -> l j w",
               reg=[32, 8])
    _, o = outcome(c, "banks")
    assert o.status == "skipped" and "32-byte" in o.message
    assert decide.decide(c)[0]["banks"][0] == "skipped"
    r = shared("(32,8):(8,1)", [32, 8], opcode="ld.shared.v8.b32", pattern="S[0:32, 0:8]: l (j w=8) -> l j w",
               reg=[32, 8], expect={"banks": 4})
    _, o = outcome(r, "banks")
    assert o.status == "unknown" and "32-byte" in o.message


def test_a_refutation_over_few_symbol_values_is_counted_exactly_without_the_search(monkeypatch):
    """Symbols with few allowed values (here 48): every one is enumerated, so the maximum is exact
    and needs no solver search; the same layout over a huge range still searches (and stays
    refuted, "at least" when the search does not end)."""
    from tilecheck.proofs import warp
    calls = []

    def search(*args):
        calls.append(args)
        return args[3], False, None  # the search gives up at once: "at least" its lower bound
    monkeypatch.setattr(warp, "_maximum", search)
    few = shared("(32,4):(n,1)", [32, 4], symbols={"n": {"min": 1, "max": 48}})
    _, o = outcome(few, "banks")
    worst = max(model({lane: 4 * lane * n for lane in range(32)}, 4) for n in range(1, 49))
    assert o.status == "refuted" and o.counterexample["exact"] is True and o.count == worst == 32
    assert o.counterexample["symbols"]["n"] % 32 == 0 and not calls
    many = shared("(32,4):(n,1)", [32, 4], symbols={"n": {"min": 1, "max": 100_000}})
    _, o = outcome(many, "banks")
    assert o.status == "refuted" and calls
    assert o.counterexample["exact"] is False or o.count == 32


def _swizzled_symbolic(offset_expr, layout="Sw<3,2,3> o (32,32):(32,1)", assume=None, rows=False):
    data = {"arch": "sm_90", "threads": 32,
            "symbols": {"o": {"min": 0, "max": 4096}},
            "tensors": {"S": {"dtype": "uint32", "scope": "shared", "shape": [64, 64], "layout": layout.replace(
                "(32,32):(32,1)", "(64,64):(64,1)"), "offset": offset_expr, "align": 4},
                "R": {"dtype": "uint32", "scope": "register", "shape": [32, 8], "layout": "(32,8):(1@laneid,1)"}},
            "apply": [{"opcode": "ld.shared.b32", "scope": "warp", "dst": "R: l j -> l j ()",
                       "src": "S[0:32, 0:8]: l j -> l j ()"}]}
    if rows:  # lane l reads element (j, l): 32 consecutive words a row
        data["apply"][0]["src"] = "S[0:8, 0:32]: j l -> l j ()"
    if assume:
        data["assume"] = assume
    return from_dict(data, "<test>")


@pytest.mark.parametrize("assume,status", [(["o % 64 == 0"], "refuted"), (None, "refuted")])
def test_swizzled_symbolic_offset_decided_by_residue(assume, status):
    """A swizzled tile read column-wise at a symbolic element offset ``o``: the lanes are ``o`` plus
    constants before the swizzle, so the count is a function of ``o``'s residue (warp._by_residue):
    decided without the count encoding, and the refutation replays at the solver's ``o``."""
    c = _swizzled_symbolic("o", assume=assume)
    a, o = outcome(c, "banks")
    assert o.status == status
    if status == "refuted":
        env = o.counterexample["symbols"]
        d = decide.decide(c, [env])[0]["banks"]
        assert d[0] == "refuted" and d[1]["count"] == o.counterexample["wavefronts"]


def test_by_residue_agrees_with_the_decider_on_every_residue(monkeypatch):
    """Column reads of a swizzled 64x64 u32 tile (Sw<3,2,3>: 4 bank groups) at a symbolic offset:
    for each allowed residue class the prover's verdict equals the decider's at that offset.  (The
    verdicts, not the time: the performance budget is raised, as a loaded test machine can take
    more than its 1 s on the proofs' 0.3-0.7 s.)"""
    from tilecheck.proofs import warp
    monkeypatch.setattr(warp, "PERFORMANCE_BUDGET_S", 10.0)
    seen = set()
    for rows in (False, True):
        for r in range(0, 64, 4):
            c = _swizzled_symbolic("o", assume=[f"o % 64 == {r}"], rows=rows)
            _, o = outcome(c, "banks")
            d = decide.decide(c, [{"o": r + k} for k in (0, 64, 128, 192)])  # every class mod 256
            want = "refuted" if any(x["banks"][0] == "refuted" for x in d) else "proved"
            assert o.status == want, (rows, r)
            seen.add(want)
    assert seen == {"proved", "refuted"} and warp.RESIDUE_LIMIT >= 64


def test_a_conflict_away_from_the_ends_is_found_on_the_grid_of_small_values():
    """No conflict at o = 0 (the facts' model) or o = 64; the grid of small values finds o = 1, the
    smallest, by enumeration (the solver, before, reported o = 1, 2 or 7 depending on its time)."""
    from pathlib import Path
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "grid_offset.toml")
    (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
    assert o.status == "refuted", o.message
    assert o.counterexample["symbols"] == {"n": 8, "o": 1}
    assert decide.violation_at(check, 0, "banks", o.counterexample) is None
    at0 = decide.decide(check, [{"n": 8, "o": 0}, {"n": 8, "o": 64}])[0]["banks"]
    assert at0[0] == "proved", at0


def test_an_unswizzled_operand_is_decided_by_its_base_residue(monkeypatch):
    """The residue decision holds for the identity swizzle too (m = the rule's modulus): proved with
    no solver call, and the decider agrees at its assignments."""
    from pathlib import Path

    from tilecheck.proofs import banks, runner
    from tilecheck.proofs import facts as _facts
    check = tilecheck.load(Path(__file__).parent / "data" / "banks" / "residue_unswizzled.toml")

    def no_solver(*a, **k):
        raise AssertionError("the solver was asked")
    with monkeypatch.context() as m:
        m.setattr(runner, "fast_solver", no_solver)
        m.setattr(runner, "general_solver", no_solver)
        o = runner.decide("banks", banks.violation, check, check.applies[0], 10.0, _facts.decide(check, 10))
    assert o.status == "proved", o.message
    assert decide.decide(check)[0]["banks"][0] == "proved"


@pytest.mark.parametrize("stride", [16, 17, 18, 32, 33, 64])
@pytest.mark.parametrize("dtype", ["uint8", "float16", "uint32", "uint64"])
def test_the_unswizzled_residue_decision_agrees_with_the_decider(stride, dtype):
    """Column reads at a symbolic offset o, for each residue of o mod 8: the prover's verdict
    (by residue, no solver) equals the decider's at that offset."""
    for r in range(8):
        data = {"threads": 32, "assume": [f"o % 8 == {r}"],
                "symbols": {"o": {"min": 0, "max": 4096}},
                "tensors": {"A": {"dtype": dtype, "scope": "shared", "shape": [32, stride],
                                  "layout": f"(32,{stride}):({stride},1)", "offset": "o"},
                            "R": {"dtype": dtype, "scope": "register", "shape": [32, 1],
                                  "layout": "(32,1):(1@laneid,1)"}},
                "apply": [{"opcode": f"ld.shared.b{ {'uint8': 8, 'float16': 16, 'uint32': 32, 'uint64': 64}[dtype]}",
                           "scope": "warp", "dst": "R", "src": "A[:, 0:1]: l w -> l w"}]}
        check = from_dict(data, "<residue>")
        (o,) = [o for o in prove(check, timeout=10).applies[0].obligations if o.name == "banks"]
        d = decide.decide(check, [{"o": r + 8 * k} for k in range(4)])[0]["banks"]
        assert o.status in ("proved", "refuted") and o.status == d[0], (stride, dtype, r, o.message, d)
