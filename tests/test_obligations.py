"""Every obligation proved and refuted across memories, directions, scopes, widths and vectors."""
import pytest

from conftest import mem, reg, statuses

ALL = ["target", "space", "shape", "width", "operands", "contiguity", "alignment", "ownership",
       "disjoint", "bounds", "overflow", "registers"]


def only(*refuted, skipped=()):
    """Expected statuses: the named obligations refuted/skipped, every other proved."""
    return {n: "refuted" if n in refuted else "skipped" if n in skipped else "proved" for n in ALL}


def ld(space, op, dtype, shape, mem_kw=None, reg_kw=None, **apply):
    m, r = mem(shape, dtype, space, **(mem_kw or {})), reg(shape, dtype, **(reg_kw or {}))
    return {"A": m, "R": r}, {"opcode": op, "dst": "R", "src": "A", **apply}


def st(space, op, dtype, shape, mem_kw=None, reg_kw=None, **apply):
    m, r = mem(shape, dtype, space, **(mem_kw or {})), reg(shape, dtype, **(reg_kw or {}))
    return {"A": m, "R": r}, {"opcode": op, "dst": "A", "src": "R", **apply}


# --- contiguity, alignment, width: memories x directions x widths -------------------
SPACES = ["global", "shared", "local"]
FORMS = [  # (dtype, type, vector)
    ("uint8", "b8", 1), ("uint8", "b8", 4), ("float16", "b16", 2), ("float16", "b16", 4),
    ("float32", "b32", 1), ("float32", "b32", 2), ("int32", "s32", 4), ("float64", "b64", 2),
    ("uint64", "u64", 1),
]


@pytest.mark.parametrize("space", SPACES)
@pytest.mark.parametrize("dtype,ty,vec", FORMS)
@pytest.mark.parametrize("make,kind", [(ld, "ld"), (st, "st")])
def test_contiguous_tile_proves(prove, space, dtype, ty, vec, make, kind):
    v = f".v{vec}" if vec > 1 else ""
    esize = {"b8": 1, "b16": 2, "b32": 4, "s32": 4, "b64": 8, "u64": 8}[ty]
    tensors, apply = make(space, f"{kind}.{space}{v}.{ty}", dtype, (6, vec), mem_kw={"align": esize * vec})
    assert statuses(prove(tensors, apply)) == only()


@pytest.mark.parametrize("space", SPACES)
@pytest.mark.parametrize("make,kind", [(ld, "ld"), (st, "st")])
def test_gapped_words_refute_contiguity(prove, space, make, kind):
    tensors, apply = make(space, f"{kind}.{space}.v4.b32", "float32", (6, 4),
                          mem_kw={"align": 16, "layout": "(6,4):(8,2)"})
    r = prove(tensors, apply)
    assert statuses(r) == only("contiguity", skipped=("alignment",))
    cex = r.applies[0].obligation("contiguity").counterexample
    assert cex["offset"] != cex["expected_offset"] and cex["word"] > 0


@pytest.mark.parametrize("space", SPACES)
@pytest.mark.parametrize("make,kind", [(ld, "ld"), (st, "st")])
def test_shifted_atoms_refute_alignment(prove, space, make, kind):
    tensors, apply = make(space, f"{kind}.{space}.v2.b64", "float64", (3, 2),
                          mem_kw={"align": 16, "layout": "(3,2):(3,1)", "offset": 1})
    r = prove(tensors, apply)
    assert statuses(r) == only("alignment")
    cex = r.applies[0].obligation("alignment").counterexample
    assert cex["byte_offset"] % 16 == 8


def test_underaligned_base_pointer_refutes_alignment(prove):
    tensors, apply = ld("global", "ld.global.v4.b32", "float32", (6, 4), mem_kw={"align": 8})
    r = prove(tensors, apply)
    assert statuses(r) == only("alignment")
    assert "8-byte aligned" in r.applies[0].obligation("alignment").message


@pytest.mark.parametrize("dtype", ["float64", "uint16", "int8"])
def test_type_width_mismatch_refutes_width(prove, dtype):
    tensors, apply = ld("global", "ld.global.v4.b32", dtype, (6, 4), mem_kw={"align": 64})
    assert statuses(prove(tensors, apply)) == only("width", skipped=("alignment",))


# --- ownership -------------------------------------------------------------------------
def warp_ld(reg_layout, threads=32, op="ld.global.v2.b32"):
    tensors = {"A": mem((32, 3, 2), align=8), "R": reg((32, 3, 2), layout=reg_layout)}
    return tensors, {"opcode": op, "scope": "warp", "dst": "R", "src": "A"}


def test_warp_scope_lane_slots_prove(prove):
    tensors, apply = warp_ld("(32,3,2):(1@laneid,2,1)")
    assert statuses(prove(tensors, apply, threads=64)) == only()


@pytest.mark.parametrize("layout", ["(32,3,2):(2,1@laneid,1)", "(32,3,2):(1@warpid,2,1)",
                                    "(32,3,2):(31@laneid,2,1)", "(32,3,2):(6,2,1)"])
def test_warp_scope_foreign_slots_refute_ownership(prove, layout):
    tensors, apply = warp_ld(layout)
    r = prove(tensors, apply, threads=32)
    st_ = statuses(r)
    assert st_["ownership"] == "refuted" and st_["disjoint"] == "skipped"
    cex = r.applies[0].obligation("ownership").counterexample
    assert (cex["laneid"], cex["warpid"], cex["tid"]) != (cex["group"]["lane"], 0, 0)


def test_thread_scope_register_with_lane_axis_refutes_ownership(prove):
    tensors = {"A": mem((4, 4), align=16), "R": reg((4, 4), layout="(4,4):(1@laneid,1)")}
    r = prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert statuses(r)["ownership"] == "refuted"


def cta(reg_layout, threads=128, mem_layout=None, op="st.shared.v4.b32", kind="st", space="shared"):
    w = threads // 32
    tensors = {"S": mem((w, 32, 3, 4), scope=space, align=16, **({"layout": mem_layout} if mem_layout else {})),
               "R": reg((w, 32, 3, 4), layout=reg_layout)}
    ops = {"dst": "S", "src": "R"} if kind == "st" else {"dst": "R", "src": "S"}
    return tensors, {"opcode": op, "scope": "cta", **ops}


@pytest.mark.parametrize("threads", [128, 256])
@pytest.mark.parametrize("kind", ["ld", "st"])
def test_cta_scope_proves(prove, threads, kind):
    w = threads // 32
    tensors, apply = cta(f"({w},32,3,4):(1@warpid,1@laneid,4,1)", threads,
                         op=f"{kind}.global.v4.b32", kind=kind, space="global")
    assert statuses(prove(tensors, apply, threads=threads)) == only()


def test_cta_scope_tid_axis_proves_and_swapped_axes_refute(prove):
    tensors, apply = cta("(4,32,3,4):(32@tid,1@tid,4,1)")
    assert statuses(prove(tensors, apply, threads=128))["ownership"] == "proved"
    tensors, apply = cta("(4,32,3,4):(1@laneid,1@warpid,4,1)")
    assert statuses(prove(tensors, apply, threads=128))["ownership"] == "refuted"


# --- disjoint -------------------------------------------------------------------------
def test_injective_interleaved_register_layout_proves_disjoint(prove):
    # slots 0,2,4,3,5,7: not a stride-ordered layout, but injective
    tensors = {"A": mem((3, 2), align=8), "R": reg((3, 2), layout="(3,2):(2,3)")}
    r = prove(tensors, {"opcode": "ld.global.v2.b32", "dst": "R", "src": "A"})
    assert statuses(r) == only()


def test_reversed_word_slots_prove_disjoint(prove):
    tensors = {"A": mem((5, 4), align=16), "R": reg((5, 4), layout="(5,4):(4,-1)", offset=3)}
    r = prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert statuses(r) == only()


def test_colliding_register_slots_refute_disjoint(prove):
    tensors = {"A": mem((3, 2), align=8), "R": reg((3, 2), layout="(3,2):(1,1)")}
    r = prove(tensors, {"opcode": "ld.global.v2.b32", "dst": "R", "src": "A"})
    assert statuses(r) == only("disjoint")
    cex = r.applies[0].obligation("disjoint").counterexample
    assert cex["first"]["index"] != cex["second"]["index"]
    assert sum(cex["first"]["index"]) == sum(cex["second"]["index"])  # slot i+j collides


def test_store_race_of_128_threads_on_48_bytes_refutes_disjoint(prove):
    tensors, apply = cta("(4,32,3,4):(1@warpid,1@laneid,4,1)", mem_layout="(4,32,3,4):(0,0,4,1)",
                         op="st.global.v4.b32", space="global")
    r = prove(tensors, apply, threads=128)
    assert statuses(r) == only("disjoint")
    cex = r.applies[0].obligation("disjoint").counterexample
    assert cex["first"]["thread"] != cex["second"]["thread"] or cex["first"]["repeat"] != cex["second"]["repeat"]


def test_same_tile_loaded_by_all_threads_is_fine_but_stored_is_a_race(prove):
    tensors, apply = ld("global", "ld.global.v4.b32", "float32", (6, 4), mem_kw={"align": 16})
    assert statuses(prove(tensors, apply, threads=64)) == only()
    tensors, apply = st("global", "st.global.v4.b32", "float32", (6, 4), mem_kw={"align": 16})
    assert statuses(prove(tensors, apply, threads=1)) == only()
    r = prove(tensors, apply, threads=64)
    assert statuses(r) == only("disjoint")
    cex = r.applies[0].obligation("disjoint").counterexample
    assert cex["first"]["thread"] != cex["second"]["thread"]


def test_warp_store_with_two_warps_is_a_race(prove):
    tensors = {"A": mem((32, 4), align=16), "R": reg((32, 4), layout="(32,4):(1@laneid,1)")}
    apply = {"opcode": "st.global.v4.b32", "scope": "warp", "dst": "A", "src": "R"}
    assert statuses(prove(tensors, apply, threads=32)) == only()
    assert statuses(prove(tensors, apply, threads=64)) == only("disjoint")


def test_store_that_overwrites_its_own_words_refutes_disjoint(prove):
    tensors = {"A": mem((3, 4), align=16, layout="(3,4):(0,1)"), "R": reg((3, 4))}
    r = prove(tensors, {"opcode": "st.global.v4.b32", "dst": "A", "src": "R"})
    assert statuses(r) == only("disjoint")
    cex = r.applies[0].obligation("disjoint").counterexample
    assert cex["first"]["repeat"] != cex["second"]["repeat"]
    assert prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"}).verdict == "proved"


# --- bounds and overflow -----------------------------------------------------------------
def test_slice_past_the_edge_refutes_bounds(prove):
    tensors = {"A": mem((8, 5), align=16), "R": reg((8, 4))}
    r = prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A[:, 2:6]"})
    assert statuses(r)["bounds"] == "refuted" and statuses(r)["overflow"] == "skipped"
    cex = r.applies[0].obligation("bounds").counterexample
    assert cex["stop"] == 6 and cex["extent"] == 5


def test_negative_stride_needs_an_offset(prove):
    tensors = {"A": mem((4, 4), align=16, layout="(4,4):(-4,1)"), "R": reg((4, 4))}
    r = prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert statuses(r) == only("bounds", skipped=("overflow",))
    assert r.applies[0].obligation("bounds").counterexample["offset"] < 0
    tensors["A"]["offset"] = 12
    assert statuses(prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})) == only()


def test_register_slot_out_of_range_refutes_bounds(prove):
    tensors = {"A": mem((2, 4), align=16), "R": reg((2, 4), layout="(2,4):(4,-1)")}
    r = prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert statuses(r)["bounds"] == "refuted"


@pytest.mark.parametrize("space,stride,op", [("shared", 2**30, "ld.shared.v4.b32"),
                                              ("local", 2**30, "st.local.v4.b32")])
def test_32_bit_spaces_overflow(prove, space, stride, op):
    make = ld if op.startswith("ld") else st
    tensors, apply = make(space, op, "float32", (2, 4), mem_kw={"align": 16, "layout": f"(2,4):({stride},1)"})
    r = prove(tensors, apply)
    assert statuses(r) == only("overflow")
    assert 2**32 <= r.applies[0].obligation("overflow").counterexample["byte_offset"] < 2**32 + 16
    tensors["A"]["layout"] = f"(2,4):({stride - 4},1)"
    assert statuses(prove(tensors, apply)) == only()


def test_global_overflows_only_at_2_to_64(prove):
    tensors, apply = ld("global", "ld.global.b64", "int64", (2, 1), mem_kw={"layout": f"(2,1):({2**61},1)"})
    assert statuses(prove(tensors, apply)) == only("overflow")
    tensors["A"]["layout"] = f"(2,1):({2**61 - 1},1)"
    assert statuses(prove(tensors, apply)) == only()


# --- target, space, shape, operands ---------------------------------------------------
def test_v8_b32_needs_sm_100(prove):
    tensors, apply = ld("global", "ld.global.v8.b32", "float32", (2, 8), mem_kw={"align": 32})
    assert statuses(prove(tensors, apply, arch="sm_90")) == only("target")
    assert statuses(prove(tensors, apply, arch="sm_100a")) == only()


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100a"])
def test_v8_b16_is_refuted_everywhere(prove, arch):
    tensors, apply = ld("global", "ld.global.v8.b16", "float16", (2, 8), mem_kw={"align": 16})
    assert statuses(prove(tensors, apply, arch=arch))["target"] == "refuted"


@pytest.mark.parametrize("op", ["ld.global.v4.f16", "ld.shared.L2::128B.v4.b32"])
def test_illegal_combinations_refute_target(prove, op):
    tensors, apply = ld("global", op, "float32", (2, 4), mem_kw={"align": 16})
    assert statuses(prove(tensors, apply))["target"] == "refuted"


def test_wrong_space_and_generic_addressing_refute_space(prove):
    tensors, apply = ld("shared", "ld.global.v4.b32", "float32", (2, 4), mem_kw={"align": 16})
    r = prove(tensors, apply)
    assert statuses(r) == only("space", skipped=("contiguity", "alignment", "ownership", "disjoint", "bounds", "overflow"))
    tensors, apply = ld("global", "ld.v4.b32", "float32", (2, 4), mem_kw={"align": 16})
    r = prove(tensors, apply)
    assert statuses(r)["space"] == "refuted" and statuses(r)["target"] == "proved"
    assert "generic" in r.applies[0].obligation("space").message


def test_register_destination_must_be_registers(prove):
    tensors = {"A": mem((2, 4), align=16), "B": mem((2, 4), align=16)}
    r = prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "B", "src": "A"})
    assert statuses(r)["space"] == "refuted"


def test_wrong_word_extent_and_repeat_mismatch_refute_shape(prove):
    tensors, apply = ld("global", "ld.global.v2.b32", "float32", (2, 4), mem_kw={"align": 16})
    assert statuses(prove(tensors, apply))["shape"] == "refuted"
    tensors = {"A": mem((2, 4), align=16), "R": reg((3, 4))}
    r = prove(tensors, {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert statuses(r)["shape"] == "refuted" and "repeat" in r.applies[0].obligation("shape").message


def test_warp_scope_needs_a_lane_axis(prove):
    tensors, apply = ld("global", "ld.global.v4.b32", "float32", (2, 4), mem_kw={"align": 16})
    assert statuses(prove(tensors, {**apply, "scope": "warp"}, threads=32))["shape"] == "refuted"


@pytest.mark.parametrize("extra,op,bad", [
    ({}, "ld.global.L2::cache_hint.v4.b32", True),
    ({"cache_policy": True}, "ld.global.L2::cache_hint.v4.b32", False),
    ({"cache_policy": True}, "ld.global.v4.b32", True),
    ({"preserve_dst": True}, "ld.global.v4.b32", True),
    ({"preserve_dst": True, "pred": True}, "ld.global.v4.b32", False),
    ({"pred": True}, "ld.global.v4.b32", False),
])
def test_operands(prove, extra, op, bad):
    tensors, apply = ld("global", op, "float32", (2, 4), mem_kw={"align": 16}, **extra)
    assert statuses(prove(tensors, apply))["operands"] == ("refuted" if bad else "proved")


def test_preserve_dst_on_a_store_is_refuted(prove):
    tensors, apply = st("global", "st.global.v4.b32", "float32", (2, 4), mem_kw={"align": 16},
                        pred=True, preserve_dst=True)
    assert statuses(prove(tensors, apply))["operands"] == "refuted"


# --- symbolic ---------------------------------------------------------------------------
def symbolic(k_multiple, **kw):
    return dict(
        symbols={"n": {"min": 8, "max": 2**20}, "k": {"min": 8, "max": 2**16, "multiple_of": k_multiple},
                 "r0": {"min": 0, "max": 2**20, "multiple_of": 8}, "c0": {"min": 0, "max": 2**16, "multiple_of": 8}},
        assume=["r0 + 8 <= n", "c0 + 8 <= k"], **kw)


def sym_tensors():
    return {"X": mem(("n", "k"), "float16", align=16), "R": reg((8, 8), "float16")}


SYM_APPLY = {"opcode": "ld.global.v4.b16", "dst": "R: r (v=2 w) -> r v w",
             "src": "X[r0:r0+8, c0:c0+8]: r (v=2 w) -> r v w"}


def test_symbolic_row_stride_multiple_of_4_proves(prove):
    assert statuses(prove(sym_tensors(), SYM_APPLY, **symbolic(4))) == only()


def test_symbolic_row_stride_multiple_of_2_refutes_alignment_with_symbols(prove):
    r = prove(sym_tensors(), SYM_APPLY, **symbolic(2))
    assert statuses(r) == only("alignment")
    cex = r.applies[0].obligation("alignment").counterexample
    s = cex["symbols"]
    assert s["k"] % 4 == 2 and cex["byte_offset"] % 8 != 0
    assert cex["byte_offset"] == 2 * (cex["index"][0] * s["k"] + cex["index"][1])


def test_symbolic_start_without_facts_refutes_bounds(prove):
    r = prove(sym_tensors(), SYM_APPLY, **{**symbolic(8), "assume": []})
    assert statuses(r)["bounds"] == "refuted"
    cex = r.applies[0].obligation("bounds").counterexample
    assert cex["stop"] > cex["extent"]


def test_symbolic_shared_stride_can_overflow(prove):
    tensors = {"S": mem((4, "k"), "float32", "shared", align=16), "R": reg((4, 4))}
    apply = {"opcode": "ld.shared.v4.b32", "dst": "R", "src": "S[:, 0:4]"}
    syms = {"k": {"min": 4, "max": 2**31 - 1, "multiple_of": 4}}
    r = prove(tensors, apply, symbols=syms)
    assert statuses(r)["overflow"] == "refuted"
    cex = r.applies[0].obligation("overflow").counterexample
    assert cex["byte_offset"] + 4 > 2**32
    r = prove(tensors, apply, symbols={"k": {**syms["k"], "max": 2**20}})
    assert statuses(r) == only()
