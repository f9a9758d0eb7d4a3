"""The numpy reference of tilecheck.gpu (pure numpy: runs without a GPU)."""
import itertools

import numpy as np
import pytest

import tilecheck
from tilecheck.errors import InputError
from tilecheck.expr import evaluate
from tilecheck.gpu.reference import (SENTINEL, ReferenceUndefined, bind_symbols, compare, random_bits,
                                     reference, storage)
from tilecheck.layout import OFFSET

from conftest import build, mem, reg

EXAMPLES = "examples"


def flat(shape, *idx):
    return int(np.ravel_multi_index(idx, shape))


# gathers and scatters against hand-written formulas -------------------------

def test_seed_example_is_a_gather():
    c = tilecheck.load(f"{EXAMPLES}/seed.toml")
    case = reference(c, {}, seed=7)
    A, R = case.inputs["A"], case.expected["R"]
    for i, b, j, d in itertools.product(range(15), range(2), range(7), range(2)):
        assert R[flat((15, 2, 7, 2), i, b, j, d)] == A[4 * i + b + 60 * j + 2 * d]
    assert (case.expected["A"] == A).all()  # a load leaves memory alone
    assert case.written["R"].all() and not case.written["A"].any()


def test_cta_shared_store_is_a_scatter():
    c = tilecheck.load(f"{EXAMPLES}/cta_shared_store.toml")
    case = reference(c, {}, seed=3)
    S, R = case.expected["S"], case.inputs["R"]
    for w, l, r, d in itertools.product(range(4), range(32), range(3), range(4)):
        assert S[384 * w + 12 * l + 4 * r + d] == R[flat((4, 32, 3, 4), w, l, r, d)]
    assert (case.expected["R"] == R).all()


@pytest.mark.parametrize("n,k,r0,c0", [(8, 8, 0, 0), (64, 128, 16, 40), (4096, 4096, 4088, 4088)])
def test_symbolic_tile_at_several_values(n, k, r0, c0):
    c = tilecheck.load(f"{EXAMPLES}/symbolic_tile.toml")
    env = bind_symbols(c, {"n": n, "k": k, "r0": r0, "c0": c0})
    case = reference(c, env, seed=1)
    X, R = case.inputs["X"], case.expected["R"]
    assert X.size == n * k and X.dtype == np.uint16
    for r, col in itertools.product(range(8), range(8)):
        assert R[8 * r + col] == X[(r0 + r) * k + c0 + col]


def test_negative_strides_and_reversed_register_words():
    c = build({"A": mem([3, 4], layout="(3,4):(-8,1)", offset=16, align=16),
               "R": reg([3, 4], layout="(3,4):(4,-1)", offset=3)},
              {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert tilecheck.prove(c).verdict == "proved"
    case = reference(c, {}, seed=5)
    A, R = case.inputs["A"], case.expected["R"]
    assert A.size == 20
    for i, j in itertools.product(range(3), range(4)):
        assert R[4 * i + j] == A[16 - 8 * i + j]


def test_registers_sharing_a_slot_read_the_same_value():
    # two loads into different logical elements that the layout puts in one register slot
    c = build({"A": mem([8]), "R": reg([2, 4], layout="(2,4):(0,1)")},
              [{"opcode": "ld.global.v4.b32", "dst": "R[0:1, :]", "src": "A[0:4]: (o=1 w) -> o w"},
               {"opcode": "ld.global.v4.b32", "dst": "R[1:2, :]", "src": "A[4:8]: (o=1 w) -> o w"}])
    case = reference(c, {}, seed=2)
    R, A = case.expected["R"], case.inputs["A"]
    assert (R[:4] == A[4:]).all() and (R[4:] == A[4:]).all()  # the second load overwrote the shared slots


def test_round_trip_register_first_used_by_a_load():
    c = build({"A": mem([4]), "B": mem([4]), "R": reg([4])},
              [{"opcode": "ld.global.b32", "dst": "R: (o w=1) -> o w", "src": "A: (o w=1) -> o w"},
               {"opcode": "st.global.b32", "dst": "B: (o w=1) -> o w", "src": "R: (o w=1) -> o w"}])
    case = reference(c, {}, seed=4)
    assert (case.inputs["R"] == SENTINEL["float32"]).all()  # loaded into: poisoned, an output
    assert (case.inputs["B"] == SENTINEL["float32"]).all()  # stored to: poisoned
    assert (case.expected["B"] == case.inputs["A"]).all()
    # a tile that a later store consumes (a copy) is not written back: R keeps its poison
    assert (case.expected["R"] == SENTINEL["float32"]).all()


def test_local_store_at_cta_scope_keeps_only_thread_0s_copy():
    c = build({"L": mem([2, 32, 2], scope="local", layout="(2,32,2):(2,4,1)", align=8),
               "R": reg([2, 32, 2], layout="(2,32,2):(1@warpid,1@laneid,1)")},
              {"opcode": "st.local.v2.b32", "scope": "cta", "dst": "L", "src": "R"}, threads=64)
    case = reference(c, {}, seed=9)
    L, R = case.expected["L"], case.inputs["R"]
    assert L.size == 2 + 4 * 31 + 2
    # thread 0 (warp 0, lane 0) wrote offsets 0 and 1; every other offset is poison from the copy-in
    assert (L[:2] == R[:2]).all()
    assert (L[2:] == SENTINEL["float32"]).all()


def test_local_loads_by_every_thread_read_the_same_copy():
    c = build({"L": mem([3, 4], scope="local", align=16), "R": reg([3, 4])},
              {"opcode": "ld.local.v4.b32", "dst": "R", "src": "L"}, threads=64)
    case = reference(c, {}, seed=1)
    assert (case.expected["R"] == case.inputs["L"]).all()


# an independent oracle: scalar Python loops over the concrete semantics ---------

def _scalar_model(check, env):
    """Per-element loops with plain ints (only cta/thread scope, global memory)."""
    mem_, regs = {}, {}
    case = reference(check, env, seed=11)
    for n, t in check.tensors.items():
        (regs if t.is_register else mem_)[n] = case.inputs[n].copy()
    for a in check.applies:
        shape = a.memory.shape
        mt, rt = check.tensors[a.memory.tensor], check.tensors[a.register.tensor]
        rshape = tuple(evaluate(s, env) for s in rt.shape)
        for c in itertools.product(*map(range, shape)):
            off = mt.layout(a.memory.index(c, env), env, mt.offset)[OFFSET]
            ridx = a.register.index(c, env)
            if a.is_load:
                regs[rt.name][np.ravel_multi_index(ridx, rshape)] = mem_[mt.name][off]
            else:
                mem_[mt.name][off] = regs[rt.name][np.ravel_multi_index(ridx, rshape)]
    return case, {**mem_, **regs}


@pytest.mark.parametrize("opcode,threads,scope,mshape,mlayout,rlayout", [
    ("ld.global.v2.b32", 1, "thread", [5, 2], "(5,2):(6,1)", "(5,2):(2,1)"),
    ("st.global.v4.b16", 1, "thread", [3, 4], "(3,4):(-4,1)", "(3,4):(4,1)"),
    ("ld.global.v2.b64", 64, "cta", [2, 32, 3, 2], "(2,32,3,2):(64,2,128,1)", "(2,32,3,2):(1@warpid,1@laneid,2,1)"),
    ("st.global.b8", 128, "cta", [4, 32, 2, 1], "(4,32,2,1):(32,1,128,1)", "(4,32,2,1):(1@warpid,1@laneid,1,1)"),
])
def test_vectorised_reference_equals_scalar_loops(opcode, threads, scope, mshape, mlayout, rlayout):
    bits = int(opcode.rsplit(".b", 1)[1])
    dt = {8: "uint8", 16: "float16", 32: "float32", 64: "float64"}[bits]
    offset = 8 if "-4" in mlayout else 0
    c = build({"M": mem(mshape, dt, layout=mlayout, offset=offset, align=16), "R": reg(mshape, dt, layout=rlayout)},
              {"opcode": opcode, "scope": scope, "dst": "R" if opcode.startswith("ld") else "M",
               "src": "M" if opcode.startswith("ld") else "R"}, threads=threads)
    assert tilecheck.prove(c).verdict == "proved"
    case, model = _scalar_model(c, {})
    for n in c.tensors:
        assert (case.expected[n] == model[n]).all(), n


# inputs and poison -------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_float_inputs_are_random_never_nan_never_poison(dtype):
    t = tilecheck.from_dict({"tensors": {"A": mem([4], dtype), "R": reg([4], dtype)},
                             "apply": [{"opcode": "ld.global.b16", "dst": "R", "src": "A"}]}).tensors["A"]
    x = random_bits(t, 200_000, np.random.default_rng(0))
    f = x.view({"float16": np.float16, "float32": np.float32, "float64": np.float64}.get(dtype, np.uint16))
    if dtype == "bfloat16":
        f = (x.astype(np.uint32) << 16).view(np.float32)
    assert not np.isnan(f).any()
    assert not (x == SENTINEL[dtype]).any()
    assert len(np.unique(x)) > 1000  # not zeros, not a constant
    sentinel = np.array([SENTINEL[dtype]], dtype=storage(t))
    sf = sentinel.view(f.dtype) if dtype != "bfloat16" else (sentinel.astype(np.uint32) << 16).view(np.float32)
    assert np.isnan(sf).all()  # poison for floats is a NaN: no input can equal it


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint64"])
def test_integer_inputs_avoid_the_poison(dtype):
    t = tilecheck.from_dict({"tensors": {"A": mem([4], dtype), "R": reg([4], dtype)},
                             "apply": [{"opcode": "ld.global.b8", "dst": "R", "src": "A"}]}).tensors["A"]
    x = random_bits(t, 100_000, np.random.default_rng(1))
    assert not (x == SENTINEL[dtype]).any()
    assert len(np.unique(x)) > (200 if t.bits == 8 else 10_000)


def test_seeded_deterministic_and_not_an_iota():
    c = tilecheck.load(f"{EXAMPLES}/seed.toml")
    a, b, d = reference(c, {}, 1), reference(c, {}, 1), reference(c, {}, 2)
    assert (a.inputs["A"] == b.inputs["A"]).all()
    assert (a.inputs["A"] != d.inputs["A"]).mean() > 0.99
    A = a.inputs["A"].astype(np.int64)
    assert not (np.diff(A) == 1).all() and (A != 0).mean() > 0.99


def test_outputs_are_poisoned_before_the_run():
    c = tilecheck.load(f"{EXAMPLES}/cta_shared_store.toml")
    case = reference(c, {}, 1)
    assert (case.inputs["S"] == SENTINEL["float32"]).all()
    assert not (case.inputs["R"] == SENTINEL["float32"]).any()


# comparison --------------------------------------------------------------------

def test_compare_names_unwritten_and_wrong_elements():
    c = tilecheck.load(f"{EXAMPLES}/seed.toml")
    case = reference(c, {}, 1)
    out = {n: b.copy() for n, b in case.expected.items()}
    assert compare(case, out).ok
    out["R"][flat((15, 2, 7, 2), 1, 0, 2, 1)] = case.inputs["R"][0]  # poison: left unwritten
    out["R"][0] ^= 1
    res = compare(case, out)
    assert not res.ok and res.mismatches == {"A": 0, "R": 2}
    text = [str(m) for m in res.first]
    assert "R[0,0,0,0]" in text[0] and "wrong value" in text[0]
    assert "R[1,0,2,1]" in text[1] and "unwritten" in text[1]


def test_compare_is_bit_exact_for_floats():
    c = build({"A": mem([4]), "R": reg([4])}, {"opcode": "ld.global.v4.f32", "dst": "R: (o=1 w) -> o w",
                                               "src": "A: (o=1 w) -> o w"})
    case = reference(c, {}, 1)
    out = {n: b.copy() for n, b in case.expected.items()}
    out["R"][0] = np.float32(-0.0).view(np.uint32) if case.expected["R"][0] == 0 else 0  # +0 vs -0 differ
    assert not compare(case, out).ok


# symbols -----------------------------------------------------------------------

def test_bind_symbols_defaults_and_checks():
    c = tilecheck.load(f"{EXAMPLES}/symbolic_tile.toml")
    assert bind_symbols(c) == {"n": 8, "k": 8, "r0": 0, "c0": 0}
    assert bind_symbols(c, {"k": 64, "c0": 56}) == {"n": 8, "k": 64, "r0": 0, "c0": 56}
    with pytest.raises(InputError, match="multiple of 8"):
        bind_symbols(c, {"k": 12})
    with pytest.raises(InputError, match="outside"):
        bind_symbols(c, {"n": 7})
    with pytest.raises(InputError, match="unknown symbol 'm'"):
        bind_symbols(c, {"m": 1})
    with pytest.raises(InputError, match="assumption 'c0 \\+ 8 <= k'"):
        bind_symbols(c, {"c0": 8})


def test_undefined_reference_out_of_bounds():
    # an unproved plan whose offsets leave the buffer has no reference
    bad = build({"A": mem([4, 4], layout="(4,4):(4,1)", offset=-4, align=16), "R": reg([4, 4])},
                {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    assert tilecheck.prove(bad).verdict == "refuted"
    with pytest.raises(ReferenceUndefined, match="outside"):
        reference(bad, {}, 1)
    loose = reference(bad, {}, 1, strict=False)
    assert loose.expected is None and "outside" in loose.undefined and loose.inputs["A"].size > 0


# predicates ---------------------------------------------------------------------

def test_predicated_off_load_with_preserve_dst_keeps_the_buffer():
    c = build({"A": mem([4], align=16), "R": reg([4])},
              {"opcode": "ld.global.v4.b32", "dst": "R: (o=1 w) -> o w", "src": "A: (o=1 w) -> o w",
               "pred": True, "preserve_dst": True})
    on, off = reference(c, {}, 1), reference(c, {}, 1, pred=False)
    assert not (on.inputs["R"] == SENTINEL["float32"]).any()  # filled from the buffer first: random, not poison
    assert (on.expected["R"] == on.inputs["A"]).all()
    assert (off.expected["R"] == off.inputs["R"]).all() and not off.written["R"].any()


def test_predicated_off_load_without_preserve_dst_has_no_reference():
    c = build({"A": mem([4], align=16), "R": reg([4])},
              {"opcode": "ld.global.v4.b32", "dst": "R: (o=1 w) -> o w", "src": "A: (o=1 w) -> o w", "pred": True})
    with pytest.raises(ReferenceUndefined, match="predicate"):
        reference(c, {}, 1, pred=False)


def test_predicated_off_store_leaves_memory_poisoned():
    c = build({"A": mem([4], align=16), "R": reg([4])},
              {"opcode": "st.global.v4.b32", "dst": "A: (o=1 w) -> o w", "src": "R: (o=1 w) -> o w", "pred": True})
    off = reference(c, {}, 1, pred=False)
    assert (off.expected["A"] == SENTINEL["float32"]).all()


def test_buffers_too_large_to_run_are_refused_before_anything_is_allocated():
    from tilecheck.gpu.reference import BufferTooLarge
    check = build({"A": mem((32, 4), layout="(32,4):(1085102592571150095,1)", align=16),
                   "R": reg((32, 4), layout="(32,4):(1@laneid,1)")},
                  {"opcode": "ld.global.v4.b32", "scope": "warp", "dst": "R", "src": "A"}, threads=32)
    with pytest.raises(BufferTooLarge, match=r"^A: its buffer would hold \d+ elements"):
        reference(check, bind_symbols(check), 0)
