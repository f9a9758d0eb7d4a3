"""``from = "warpid"``: a symbol that is the issuing thread's warp (tid.x / 32), for per-warp offsets.

The prover (each thread of a store at its own warp's value), the decider, the numpy reference and
the emitted kernel (on the PTX interpreter of test_emit_sim) agree on it; misuse is an input error."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tilecheck
from tilecheck import check as C, decide
from tilecheck.errors import InputError
from tilecheck.gpu.reference import ReferenceUndefined, bind_symbols, reference

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "stmatrix_x4_per_warp.toml"


def data(rows=64, start="16*w", symbol=None, scope="warp", extra=None):
    d = {
        "arch": "sm_90", "threads": 128,
        "symbols": {"w": symbol if symbol is not None else {"from": "warpid"}},
        "tensors": {
            "S": {"dtype": "bfloat16", "scope": "shared", "shape": [rows, 16], "align": 16},
            "R": {"dtype": "bfloat16", "scope": "register", "shape": [16, 16],
                  "layout": "((8,2),(2,4,2)):((4@laneid,2),(1,1@laneid,4))"},
        },
        "apply": [{"opcode": "stmatrix.sync.aligned.m8n8.x4.shared.b16", "scope": scope,
                   "dst": f"S[{start}:{start}+16, :]: (ia=2 g=8) (ib=2 q=4 j=2) -> (g q) (ib ia j)",
                   "src": "R: (ia=2 g=8) (ib=2 q=4 j=2) -> (g q) (ib ia j)"}],
    }
    for k, v in (extra or {}).items():
        d[k] = v
    return d


def verdicts(report):
    return {o.name: o.status for o in report.applies[0].obligations}


def test_the_symbol_takes_every_warp_id():
    s = C.from_dict(data()).symbols["w"]
    assert (s.min, s.max, s.multiple_of, s.source, s.warp, s.cta) == (0, 3, 1, "warpid", True, False)


def test_each_warps_slice_is_proved_and_the_decider_agrees():
    check = C.load(EXAMPLE)
    rep = tilecheck.prove(check)
    v = verdicts(rep)
    assert v["disjoint"] == v["bounds"] == "proved" and rep.verdict == "proved"
    assert decide.decide(check)[0]["disjoint"][0] == "proved"


def test_overlapping_warps_are_refuted_with_two_threads_of_two_warps():
    check = C.from_dict(data(rows=40, start="8*w"))
    rep = tilecheck.prove(check)
    ob = next(o for o in rep.applies[0].obligations if o.name == "disjoint")
    assert ob.status == "refuted"
    first, second = ob.counterexample["first"], ob.counterexample["second"]
    assert first["thread"] // 32 != second["thread"] // 32
    assert first["symbols"]["w"] == first["thread"] // 32 and second["symbols"]["w"] == second["thread"] // 32
    assert decide.violation_at(check, 0, "disjoint", ob.counterexample) is None  # a real violation
    d = decide.decide(check)[0]["disjoint"]
    assert d[0] == "refuted" and d[1]["thread"] // 32 != d[1]["other"][0] // 32


def test_a_counterexample_with_a_wrong_warp_does_not_replay():
    check = C.from_dict(data(rows=40, start="8*w"))
    cex = {"first": {"symbols": {"w": 0}, "thread": 0, "group": {"lane": 0}, "repeat": {}, "word": 2},
           "second": {"symbols": {"w": 1}, "thread": 32, "group": {"lane": 0}, "repeat": {}, "word": 0}}
    assert decide.violation_at(check, 0, "disjoint", cex) is None
    cex["second"]["symbols"]["w"] = 2  # thread 32 is warp 1
    assert "warp" in decide.violation_at(check, 0, "disjoint", cex)


def test_the_last_warp_out_of_bounds_is_refuted_at_that_warp():
    rep = tilecheck.prove(C.from_dict(data(rows=56)))
    ob = next(o for o in rep.applies[0].obligations if o.name == "bounds")
    assert ob.status == "refuted" and "w=3" in ob.message


def test_without_the_symbol_every_warp_stores_the_same_rows():
    rep = tilecheck.prove(C.from_dict(data(start="0")))  # the hand-free form the symbol replaces
    assert verdicts(rep)["disjoint"] == "refuted"


def test_the_reference_runs_each_warp_at_its_own_rows():
    check = C.load(EXAMPLE)
    case = reference(check, bind_symbols(check))
    assert case.params() == ["S", "R"]  # no kernel parameter for the warp id
    S = case.expected["S"].reshape(64, 16)
    R = case.inputs["R"].reshape(16, 16)
    for w in range(4):
        assert (S[16 * w:16 * w + 16] == R).all()
    with pytest.raises(ReferenceUndefined, match="two warps"):
        reference(C.from_dict(data(rows=40, start="8*w")), {})


def test_the_emitted_kernel_reads_the_warp_from_tid_and_matches_the_reference():
    from test_emit_sim import run_kernel
    from tilecheck.emit import kernel
    check = C.load(EXAMPLE)
    ptx = kernel(tilecheck.prove(check).plan)
    assert "%warpid" not in ptx and "shr.u32" in ptx and ".param .s64" not in ptx
    case, out = run_kernel(check)
    for t in check.tensors:
        assert np.array_equal(out[t], case.expected[t]), t


@pytest.mark.parametrize("change, where, words", [
    ({"symbol": {"from": "warpid", "max": 3}}, "symbols.w.max", "not allowed"),
    ({"extra": {"assume": ["w < 2"]}}, "assume[0]", "no fact"),
    ({"start": "16*w", "rows": "64 + 0*w"}, "tensors.S.shape", "shape"),
])
def test_misuse_is_an_input_error(change, where, words):
    kw = dict(change)
    d = data(**{k: v for k, v in kw.items() if k != "rows"})
    if "rows" in kw:
        d["tensors"]["S"]["shape"][0] = kw["rows"]
    with pytest.raises(InputError) as e:
        C.from_dict(d)
    assert words in e.value.message and where in str(e.value)


def test_a_cta_scope_apply_has_the_warp_in_its_group():
    d = {"threads": 64, "symbols": {"w": {"from": "warpid"}},
         "tensors": {"S": {"dtype": "float32", "scope": "shared", "shape": [128]},
                     "R": {"dtype": "float32", "scope": "register", "shape": [2, 32],
                           "layout": "(2,32):(1@warpid,1@laneid)"}},
         "apply": [{"opcode": "st.shared.b32", "scope": "cta", "dst": "S[64*w:64*w+64]: (a=2 b=32 o=1) -> a b o",
                    "src": "R: a b -> a b ()"}]}
    with pytest.raises(InputError) as e:
        C.from_dict(d)
    assert "cta-scope" in e.value.message and "apply[0].dst" in str(e.value)


def test_a_memory_tensor_offset_may_be_per_warp_but_a_kernel_refuses_it():
    from tilecheck.emit import fragment, kernel
    from tilecheck.emit.errors import EmitError
    d = data(start="0")
    d["tensors"]["S"]["offset"] = "256*w"  # warp w's 16x16 tile: the same stores as S[16*w : ...]
    check = C.from_dict(d)
    rep = tilecheck.prove(check)
    assert verdicts(rep)["disjoint"] == "proved" and rep.verdict == "proved"
    assert decide.decide(check)[0]["disjoint"][0] == "proved"
    d["tensors"]["S"]["offset"] = "128*w"  # warps 8 rows apart: warp 0's rows 8..15 are warp 1's 0..7
    bad = C.from_dict(d)
    assert verdicts(tilecheck.prove(bad))["disjoint"] == "refuted"
    with pytest.raises(ReferenceUndefined, match="two warps"):
        reference(bad, {})
    frag = fragment(rep.plan, 0).text  # the fragment computes the offset from tid.x
    assert "stmatrix" in frag and "shr.u32" in frag
    with pytest.raises(EmitError, match="warp-id symbol w"):
        kernel(rep.plan)  # its shared array would have one size per warp


def test_a_register_tensor_offset_may_not_be_per_warp():
    d = data()
    d["tensors"]["R"]["offset"] = "w"
    with pytest.raises(InputError) as e:
        C.from_dict(d)
    assert "register tensor's offset" in e.value.message and "tensors.R.offset" in str(e.value)


def test_misuse_from_the_command_line_exits_2(tmp_path):
    f = tmp_path / "w.toml"
    f.write_text(EXAMPLE.read_text().replace('\nfrom = "warpid"', '\nfrom = "warpid"\nmin = 0'))
    r = subprocess.run([sys.executable, "-m", "tilecheck", "prove", str(f)], capture_output=True, text=True,
                       cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "min is not allowed with from = \"warpid\"" in r.stderr and len(r.stderr.strip().splitlines()) == 1
