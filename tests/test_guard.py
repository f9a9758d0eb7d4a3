"""guard = true: exact per-atom guards for boundary tiles (proofs/guard.py, emit/guard.py).

The proofs, the brute-force decider, the emitted PTX (run by the PTX interpreter of
``test_emit_sim``, and checked by ptxas) and the numpy reference's zero-fill; ``CASES`` (ragged
sizes: tensors whose extents are not multiples of the tile) also run on a GPU in ``test_gpu.py``.
"""
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import tilecheck
from tilecheck import decide, strategies
from tilecheck.cli import main
from tilecheck.emit import kernel
from tilecheck.errors import InputError
from tilecheck.fuzz.differential import compare
from tilecheck.gpu.reference import reference

EXAMPLES = Path(__file__).parent.parent / "examples"


def load(name):
    return tilecheck.load(EXAMPLES / name)


def check(tensors, apply, threads=32, symbols=None):
    return tilecheck.from_dict({"threads": threads, "symbols": symbols or {}, "tensors": tensors,
                                "apply": [apply]}, "<guard>")


def statuses(c):
    """The contract obligations' statuses (banks/sectors are performance, judged in test_banks)."""
    return {o.name: o.status for o in tilecheck.prove(c).applies[0].obligations
            if o.name not in ("banks", "sectors")}


# 1-D: a warp reads 64 fp32 words from X[c0:c0+64] of a vector of length k, 2 words per lane
ROW = {"X": {"dtype": "float32", "scope": "global", "shape": ["k"], "align": 8},
       "R": {"dtype": "float32", "scope": "register", "shape": [32, 2], "layout": "(32,2):(1@laneid,1)"}}
ROW_SYMBOLS = {"k": {"min": 1, "max": 4096}, "c0": {"min": 0, "max": 4032, "multiple_of": 64}}
ROW_LD = {"opcode": "ld.global.v2.f32", "scope": "warp", "guard": True, "dst": "R",
          "src": "X[c0:c0+64]: (l w=2) -> l w"}


def row(k_multiple=2, **apply):
    syms = {**ROW_SYMBOLS, "k": {**ROW_SYMBOLS["k"], "min": k_multiple, "multiple_of": k_multiple}}
    return check(ROW, {**ROW_LD, **apply}, symbols=syms)


# --- the proofs ---------------------------------------------------------------------------------------

def test_without_a_guard_the_ragged_tile_is_out_of_bounds_and_with_it_proved():
    assert statuses(row(guard=False))["bounds"] == "refuted"
    s = statuses(row())
    assert set(s.values()) == {"proved"} and "guard" in s
    assert "guard" not in statuses(row(guard=False))  # only guarded applications have the obligation


def test_a_straddling_atom_is_refuted_with_its_words_and_a_re_proved_narrower_vector():
    report = tilecheck.prove(row(k_multiple=1))
    (g,) = [o for o in report.applies[0].obligations if o.name == "guard"]
    assert g.status == "refuted"
    cex = g.counterexample
    assert cex["inside"] and cex["outside"] and cex["narrower"] == 1
    assert sorted(cex["inside"] + cex["outside"]) == [0, 1]
    k, c0, lane = cex["symbols"]["k"], cex["symbols"]["c0"], cex["group"]["lane"]
    first = c0 + 2 * lane
    assert first < k <= first + 1  # word 0 in bounds, word 1 out: a real straddle
    assert "ld.global.f32" in g.message and "re-proved" in g.message
    # the suggestion holds: scalar loads of the same words are exact
    scalar = check(ROW, {**ROW_LD, "opcode": "ld.global.f32", "src": "X[c0:c0+64]: (l r=2 w=1) -> l r w",
                         "dst": "R: l (r w=1) -> l r w"}, symbols={**ROW_SYMBOLS, "k": {"min": 1, "max": 4096}})
    assert statuses(scalar)["guard"] == "proved"


def test_the_straddle_example_suggests_v2_and_v2_is_proved():
    report = tilecheck.prove(load("guard_straddle_v4_refuted.toml"))
    (g,) = [o for o in report.applies[0].obligations if o.name == "guard"]
    assert g.counterexample["narrower"] == 2 and "ld.global.v2.f32" in g.message


def test_guarded_out_atoms_need_no_alignment_but_guarded_in_ones_do():
    # rows of k = 4m + 2 words: row 1 is misaligned for .v4; with n = 1 it is always guarded out
    t = {"X": {"dtype": "float32", "scope": "global", "shape": ["n", 6], "align": 16},
         "R": {"dtype": "float32", "scope": "register", "shape": [32, 4], "layout": "(32,4):(1@laneid,1)"}}
    a = {"opcode": "ld.global.v4.f32", "scope": "warp", "guard": True, "dst": "R",
         "src": "X[0:32, 0:4]: l (q w=4) -> l (q w)"}
    assert statuses(check(t, a, symbols={"n": {"min": 1, "max": 1}}))["alignment"] == "proved"
    assert statuses(check(t, a, symbols={"n": {"min": 1, "max": 2}}))["alignment"] == "refuted"
    assert statuses(check(t, {**a, "guard": False}, symbols={"n": {"min": 32, "max": 32}}))["alignment"] == "refuted"


def test_guarded_stores_need_distinct_words_only_when_guarded_in():
    # every row of X at the same address (row stride 0): two lanes' stores collide exactly when
    # two rows are inside, i.e. when n >= 2
    t = {"X": {"dtype": "float32", "scope": "global", "shape": ["n", 4], "layout": "(n,4):(0,1)", "align": 16},
         "R": {"dtype": "float32", "scope": "register", "shape": [32, 4], "layout": "(32,4):(1@laneid,1)"}}
    a = {"opcode": "st.global.v4.f32", "scope": "warp", "guard": True, "src": "R: l (q w=4) -> l q w",
         "dst": "X[0:32, :]: l (q w=4) -> l q w"}
    assert statuses(check(t, a, symbols={"n": {"min": 1, "max": 1}}))["disjoint"] == "proved"
    assert statuses(check(t, a, symbols={"n": {"min": 1, "max": 2}}))["disjoint"] == "refuted"


def test_cp_async_guards_the_source_and_keeps_the_destination_obligations():
    c = load("cp_async_guard_zfill.toml")
    assert set(statuses(c).values()) == {"proved"}
    # the destination is zero-filled by guarded-out copies too: it must be in bounds for every atom
    data = {"arch": "sm_80", "threads": 32, "symbols": {"n": {"min": 1, "max": 64}},
            "tensors": {"A": {"dtype": "float16", "scope": "global", "shape": ["n", 8], "align": 16},
                        "S": {"dtype": "float16", "scope": "shared", "shape": ["n", 8], "align": 16}},
            "apply": [{"opcode": "cp.async.cg.shared.global", "cp_size": 16, "scope": "warp", "guard": True,
                       "dst": "S[0:32, :]: l (r w=8) -> l r w", "src": "A[0:32, :]: l (r w=8) -> l r w"}]}
    s = statuses(tilecheck.from_dict(data, "<cp.async>"))
    assert s["guard"] == "proved" and s["bounds"] == "refuted"
    data["tensors"]["S"]["shape"] = [32, 8]
    assert set(statuses(tilecheck.from_dict(data, "<cp.async>")).values()) == {"proved"}


def test_guard_and_pred_exclude_each_other_exit_2(tmp_path, capsys):
    with pytest.raises(InputError, match="exclude each other"):
        row(pred=True)
    text = (EXAMPLES / "guard_ragged_v4.toml").read_text().replace("\nguard = true\n", "\nguard = true\npred = true\n")
    (tmp_path / "bad.toml").write_text(text)
    assert main(["prove", str(tmp_path / "bad.toml")]) == 2
    err = capsys.readouterr().err
    assert "apply[0]" in err and "guard" in err and len(err.strip().splitlines()) == 1


def test_preserve_dst_is_allowed_on_a_guarded_load():
    assert statuses(row(preserve_dst=True))["operands"] == "proved"


# --- the decider and the differential comparison ----------------------------------------------------

@pytest.mark.parametrize("k", [1, 2, 3, 63, 64, 65, 130])
def test_decider_agrees_at_concrete_ragged_sizes(k):
    for multiple in (1, 2):
        c = row(k_multiple=multiple)
        values = {"k": k, "c0": 0 if k < 64 else 64}
        if k % multiple:
            continue
        d = decide.decide(c, values)[0]
        assert d["guard"][0] == ("refuted" if k % 2 else "proved")
        if k % 2:
            w = d["guard"][1]
            assert w["inside"] == [0] and w["outside"] == [1]
        assert d["bounds"][0] == "proved"


def test_differential_on_the_examples_and_on_concrete_instances():
    for name in ("guard_ragged_v4.toml", "guard_straddle_v4_refuted.toml", "cp_async_guard_zfill.toml"):
        assert compare(load(name)).problems == []
    for k in (1, 5, 64, 67):  # odd k below the tile's end (64) puts lane k//2's atom across the edge
        data = {"threads": 32, "tensors": {**ROW, "X": {**ROW["X"], "shape": [k]}},
                "apply": [{**ROW_LD, "src": "X[0:64]: (l w=2) -> l w"}]}
        r = compare(data)
        assert r.problems == [], r.problems
        assert r.statuses[0]["guard"] == ("refuted" if k % 2 and k < 64 else "proved")


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(strategies.checks())
def test_strategies_draw_guarded_applications_the_two_deciders_agree_on(data):
    if not any(a.get("guard") for a in data["apply"]):
        return
    assert compare(data).problems == []


def test_both_strategies_draw_guarded_ragged_tiles():
    from hypothesis import find
    for strat in (strategies.checks(), strategies.symbolic_checks()):
        d = find(strat, lambda d: any(a.get("guard") for a in d["apply"]),
                 settings=settings(max_examples=2000, database=None, suppress_health_check=list(HealthCheck)))
        assert any(a.get("guard") for a in d["apply"])


# --- the reference and the emitted kernels --------------------------------------------------------

def _store():
    data = {"threads": 32, "symbols": {"n": {"min": 1, "max": 4096}, "k": {"min": 4, "max": 4096, "multiple_of": 4},
                                       "r0": {"min": 0, "max": 4064, "multiple_of": 32},
                                       "c0": {"min": 0, "max": 4080, "multiple_of": 16}},
            "tensors": {"X": {"dtype": "float32", "scope": "global", "shape": ["n", "k"], "align": 16},
                        "R": {"dtype": "float32", "scope": "register", "shape": [32, 4, 4],
                              "layout": "(32,4,4):(1@laneid,4,1)"}},
            "apply": [{"opcode": "st.global.v4.b32", "scope": "warp", "guard": True, "src": "R",
                       "dst": "X[r0:r0+32, c0:c0+16]: l (q w=4) -> l q w"}]}
    return tilecheck.from_dict(data, "<guarded store>")


def _preserve():
    text = (EXAMPLES / "guard_ragged_v4.toml").read_text().replace("\nguard = true\n", "\nguard = true\npreserve_dst = true\n")
    return tilecheck.loads(text, "<guarded preserve_dst>")


def _row_v2():
    return row(k_multiple=2)


RAGGED_2D = [{"n": 33, "k": 20, "r0": 0, "c0": 16}, {"n": 40, "k": 64, "r0": 32, "c0": 48},
             {"n": 1, "k": 4, "r0": 0, "c0": 0}, {"n": 100, "k": 36, "r0": 64, "c0": 32}]
CASES = {  # name -> (check, symbol values): every one at sizes that are not multiples of the tile
    "guard-ld-v4": (load("guard_ragged_v4.toml"), RAGGED_2D),
    "guard-ld-v4-preserve_dst": (_preserve(), RAGGED_2D[:2]),
    "guard-st-v4": (_store(), RAGGED_2D),
    "guard-ld-v2-row": (_row_v2(), [{"k": 130, "c0": 64}, {"k": 6, "c0": 0}, {"k": 2, "c0": 0}]),
    "guard-cp-async-zfill": (load("cp_async_guard_zfill.toml"),
                             [{"n": 33, "k": 72, "r0": 0, "c0": 64}, {"n": 50, "k": 200, "r0": 32, "c0": 128},
                              {"n": 8, "k": 8, "r0": 0, "c0": 0}]),
}


def test_the_reference_zero_fills_guarded_out_loads_and_copies():
    c = load("guard_ragged_v4.toml")
    case = reference(c, {"n": 33, "k": 20, "r0": 32, "c0": 16}, seed=3)
    R, X = case.expected["R"].reshape(32, 4, 4), case.inputs["X"].reshape(33, 20)
    assert np.array_equal(R[0, 0], X[32, 16:20])  # row 32 < n, columns 16..19 < k: loaded
    assert not R[1:].any() and not R[0, 1:].any()  # everything else is outside: zero
    cp = load("cp_async_guard_zfill.toml")
    case = reference(cp, {"n": 33, "k": 72, "r0": 0, "c0": 64}, seed=4)
    S, A = case.expected["S"].reshape(32, 64), case.inputs["A"].reshape(33, 72)
    assert np.array_equal(S[:, :8], A[:32, 64:72]) and not S[:, 8:].any()


def test_the_reference_keeps_the_destination_with_preserve_dst_and_leaves_memory_for_stores():
    case = reference(_preserve(), {"n": 33, "k": 20, "r0": 32, "c0": 16}, seed=5)
    R, R0 = case.expected["R"].reshape(32, 4, 4), case.inputs["R"].reshape(32, 4, 4)
    assert np.array_equal(R[1:], R0[1:]) and np.array_equal(R[0, 1:], R0[0, 1:])
    case = reference(_store(), {"n": 33, "k": 20, "r0": 32, "c0": 16}, seed=6)
    X, X0 = case.expected["X"].reshape(33, 20), case.inputs["X"].reshape(33, 20)
    changed = np.argwhere(X != X0)
    assert changed.size and {tuple(p) for p in changed} <= {(32, j) for j in range(16, 20)}


@pytest.mark.parametrize("name", list(CASES))
def test_guarded_kernels_match_the_reference_on_the_ptx_interpreter(name):
    from test_emit_sim import run_kernel
    c, values = CASES[name]
    for env in values:
        case, out = run_kernel(c, env, seed=len(name))
        for t in c.tensors:
            bad = np.flatnonzero(out[t] != case.expected[t])
            assert not bad.size, f"{name} {env}: {t} differs at elements {bad[:8].tolist()}"


def test_the_emitted_guard_is_setp_over_the_thread_repeat_and_symbols():
    text = kernel(tilecheck.prove(load("guard_ragged_v4.toml")).plan)
    assert text.count("setp.ge.s64") >= 4 and "setp.ge.and.s64" in text
    assert text.count("@%p") == 4 and text.count("mov.b32 %r") >= 16  # zero-fill before each load
    cp = kernel(tilecheck.prove(load("cp_async_guard_zfill.toml")).plan)
    assert cp.count("selp.u32") == 8 and cp.count(", 16, %ra") == 8


def test_guarded_kernels_pass_ptxas(tmp_path):
    from tilecheck.tools import ToolNotFound, find_tool
    try:
        ptxas = find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"no ptxas here: {e}")
    for name, (c, _) in CASES.items():
        p = tmp_path / f"{name}.ptx"
        p.write_text(kernel(tilecheck.prove(c).plan))
        r = subprocess.run([str(ptxas), f"-arch={c.arch}", str(p), "-o", str(tmp_path / "k.cubin")],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"{name}: {r.stderr}"


SWIZZLED = (Path(__file__).parent.parent / "examples" / "guard_swizzled_global_refuted.toml").read_text()


def _pinned(text, n):
    return text.replace("min = 1\nmax = 1048576", f"min = {n}\nmax = {n}")


def test_a_swizzled_global_vector_is_bounded_by_its_declared_extent():
    """Issue 32 item 2: ``Sw<1,1,2> o (n):(1)`` read by a guarded warp.  At n = 9 lane 8 is guarded in
    and reads element 8 ^ 2 = 10, past the 9-element buffer the user allocated; bounds was proved
    against the swizzle's rounded size (12).  Refuted at the smallest n, and both oracles agree."""
    check = tilecheck.loads(SWIZZLED)
    o = tilecheck.prove(check).applies[0].obligation("bounds")
    assert o.status == "refuted"
    cex = o.counterexample
    assert cex["symbols"] == {"n": 9} and cex["group"] == {"lane": 8}
    assert cex["index"] == [8] and cex["offset"] == 10 and cex["cosize"] == 9
    assert "X[8] at offset 10, outside [0, 9)" in o.message
    assert decide.violation_at(check, 0, "bounds", cex) is None  # the decider replays it
    for n, status in ((8, "proved"), (9, "refuted"), (10, "refuted"), (12, "proved")):
        pinned = tilecheck.loads(_pinned(SWIZZLED, n))
        assert decide.decide(pinned)[0]["bounds"][0] == status, n  # its own restatement, at each n
        assert tilecheck.prove(pinned).applies[0].obligation("bounds").status == status, n


@pytest.mark.parametrize("fixed", [
    lambda t: t.replace("max = 1048576", "max = 1048576\nmultiple_of = 4"),  # whole 2^(M+B)-element blocks
    lambda t: t.replace('layout = "Sw<1,1,2> o (n):(1)"\n', ""),  # no swizzle
    lambda t: t.replace('shape = ["n"]\nlayout = "Sw<1,1,2> o (n):(1)"',  # a buffer holding the rounded size
                        'shape = ["4*((n+3)//4)"]\nlayout = "Sw<1,1,2> o (4*((n+3)//4)):(1)"'),
])
def test_the_fixed_forms_are_proved(fixed):
    check = tilecheck.loads(fixed(SWIZZLED))
    assert tilecheck.prove(check).applies[0].obligation("bounds").status == "proved"
    assert decide.decide(check)[0]["bounds"][0] == "proved"


def test_the_hardware_buffer_of_a_global_tensor_is_its_declared_extent():
    """The runner's buffers (reference.buffer_sizes) hold a global tensor's declared extent, so a
    forced (--unchecked) run of the refuted plan reads past X (the reference cannot define it); a
    shared tensor's buffer fills the kernel's own array, the rounded cosize."""
    from tilecheck.gpu.reference import ReferenceUndefined, buffer_sizes
    check = tilecheck.loads(_pinned(SWIZZLED, 9))
    assert buffer_sizes(check, {"n": 9}) == {"X": 9, "R": 32}
    with pytest.raises(ReferenceUndefined, match="offset 10 is outside \\[0, 9\\)"):
        reference(check, {"n": 9})
    shared = tilecheck.loads(_pinned(SWIZZLED, 9).replace('scope = "global"', 'scope = "shared"')
                             .replace("ld.global.f32", "ld.shared.f32"))
    assert buffer_sizes(shared, {"n": 9})["X"] == 12
