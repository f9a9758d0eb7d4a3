"""The red family (families/red.py): spelling held to a ptxas 13.0 sweep, proofs, emission, the
numpy reference (numpy.add.at), and on a GPU (marked gpu) the split-K example against it."""
import itertools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import tilecheck
from tilecheck import decide
from tilecheck.emit import fragment, kernel
from tilecheck.families import FAMILIES
from tilecheck.families.red import FAMILY as RED, VERSIONS, legality, parse, ptx_version
from tilecheck.gpu.reference import reference
from tilecheck.opcodes import OpcodeError
from tilecheck.tools import ToolNotFound, find_tool, ptxas
from test_target_sweep import minimum_problems, unchecked_rows
from conftest import require_gpu

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARCHS = ("sm_80", "sm_90", "sm_100a")
BITS = {"f32": 32, "u32": 32, "s32": 32, "u64": 64, "s64": 64, "f64": 64, "f16": 16, "bf16": 16,
        "f16x2": 32, "bf16x2": 32, "b32": 32}


def spellings():
    """Space x type x vector x .noftz, with the vector and type after .add and (ptxas takes it) before."""
    out = []
    for sp, ty, vec, nf in itertools.product(["global", "shared", ""], BITS, ["", "v2", "v4", "v8"], ["", "noftz"]):
        head = ["red"] + ([sp] if sp else [])
        tail = ([vec] if vec else []) + [ty]
        out.append(".".join(head + ["add"] + ([nf] if nf else []) + tail))
        if vec:
            out.append(".".join(head + tail + ["add"] + ([nf] if nf else [])))
    for sem in ("relaxed.gpu", "release.cta", "relaxed", "gpu", "relaxed.sys", "relaxed.cluster", "cluster"):
        out += [f"red.{sem}.global.add.f32", f"red.{sem}.global.add.v4.f32"]
    return out


def module(text, arch, version=(9, 0)):
    ty = next(t for t in sorted(BITS, key=len, reverse=True) if text.split(".").count(t))
    n = next((int(q[1:]) for q in text.split(".") if q in ("v2", "v4", "v8")), 1)
    b = "{" + ", ".join(f"%r{i}" for i in range(n)) + "}" if n > 1 else "%r0"
    return (f".version {version[0]}.{version[1]}\n.target {arch}\n.address_size 64\n"
            f".visible .entry k(.param .u64 p)\n{{\n\t.reg .b{BITS[ty]} %r<9>;\n\t.reg .b64 %rd<2>;\n"
            f"\tld.param.u64 %rd0, [p];\n" + "".join(f"\tmov.b{BITS[ty]} %r{i}, 0;\n" for i in range(n))
            + f"\t{text} [%rd0], {b};\n\tret;\n}}\n")


@pytest.fixture(scope="module")
def swept():
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    cases = [(s, a) for s in spellings() for a in ARCHS]
    with ThreadPoolExecutor(2) as ex:
        ok = list(ex.map(lambda c: ptxas(module(*c), c[1]).ok, cases))
    return dict(zip(cases, ok))


def ours(text, arch):
    """tilecheck's verdict: legal, except the forms it refuses on purpose (not .global)."""
    try:
        op = parse(text)
    except OpcodeError:
        return False
    return legality(op, arch) is None


def test_legality_matches_the_ptxas_sweep(swept):
    wrong = [(s, a, ok) for (s, a), ok in swept.items()
             if ok != ours(s, a) and not (ok and "global" not in s.split("."))]  # .global only: refused
    assert not wrong, wrong[:10]
    accepted = {a: sum(ok for (s, b), ok in swept.items() if b == a and ours(s, a)) for a in ARCHS}
    assert accepted["sm_80"] < accepted["sm_90"] == accepted["sm_100a"]  # vectors and bf16 need sm_90
    assert ours("red.global.add.v4.f32", "sm_90") and not ours("red.global.add.v4.f32", "sm_80")


def test_ptx_version_is_the_exact_minimum(swept):
    """Every spelling tilecheck takes x sm_80/sm_90/sm_100a: ptxas accepts it at ``ptx_version`` and
    refuses it one release lower for a feature of that version (vectors: 8.1 on sm_90), or the
    target's minimum binds (bf16 and the .cluster scope need sm_90, whose own minimum is 7.8)."""
    declared = {(s, a): ptx_version(parse(s), a) for (s, a), ok in swept.items() if ours(s, a)}
    def judge(keys, arch, v):
        return {k: (lambda r: None if r.ok else r.summary())(ptxas(module(k, arch, v), arch)) for k in keys}
    problems, both = minimum_problems(declared, judge)
    assert not problems, problems[:10]
    assert not unchecked_rows(VERSIONS, both, declared, parse)
    assert ("red.global.add.v4.f32", "sm_90") in both and declared[("red.global.add.v4.f32", "sm_90")] == (8, 1)


def test_red_is_registered_and_is_not_disjoint():
    assert FAMILIES["red"] is RED and "disjoint" not in RED.obligations
    assert not parse("red.global.add.v4.f32").cache_hint
    with pytest.raises(OpcodeError, match="models .add only"):
        parse("red.global.max.u32")
    with pytest.raises(OpcodeError, match="needs .add and a type"):
        parse("red.global.add")


def test_split_k_is_proved_and_many_threads_add_to_one_address():
    r = tilecheck.prove(tilecheck.load(EXAMPLES / "red_split_k.toml"))
    assert r.verdict == "proved"
    names = list(decide.applicable(r.check.applies[0], r.check))  # banks only with a shared operand
    assert [o.name for o in r.applies[0].obligations] == names
    assert decide.decide(r.check)[0] == {n: ("proved", None) for n in names}


def test_misaligned_red_is_refuted_on_alignment():
    r = tilecheck.prove(tilecheck.load(EXAMPLES / "red_misaligned_refuted.toml"))
    o = r.applies[0].obligation("alignment")
    assert r.verdict == "refuted" and o.status == "refuted" and o.counterexample["byte_offset"] == 4
    assert "adds to" in o.message
    assert decide.decide(r.check)[0]["alignment"][0] == "refuted"


def test_a_store_to_one_address_is_refuted_but_red_is_not():
    text = (EXAMPLES / "red_split_k.toml").read_text()
    st = tilecheck.prove(tilecheck.loads(text.replace("red.global.add.v4.f32", "st.global.v4.b32")))
    assert st.applies[0].obligation("disjoint").status == "refuted"


def test_red_keys_are_its_own():
    text = (EXAMPLES / "red_split_k.toml").read_text() + "pred = true\n"
    with pytest.raises(tilecheck.InputError, match="unknown key 'pred'"):
        tilecheck.loads(text)


def test_emitted_red_assembles():
    plan = tilecheck.prove(tilecheck.load(EXAMPLES / "red_split_k.toml")).plan
    body = fragment(plan, 0, base={"C": "%rd1"}).body
    assert body == ("\tred.global.add.v4.f32 [%rd1], {%r0, %r1, %r2, %r3};",)
    ptx = kernel(plan)
    assert ".version 8.1" in ptx
    try:
        assert ptxas(ptx, "sm_90").ok
    except ToolNotFound:
        pytest.skip("ptxas not found")


@pytest.mark.parametrize("op,dtype", [("red.global.add.v4.f32", "float32"), ("red.global.add.u32", "uint32"),
                                      ("red.global.add.noftz.v2.f16x2", "uint32"),
                                      ("red.global.add.noftz.v4.bf16", "bfloat16"),
                                      ("red.global.add.v2.f32", "float32")])
def test_reference_is_numpy_add_at(op, dtype):
    vec = int(op.split(".v")[1].split(".")[0]) if ".v" in op else 1
    text = (EXAMPLES / "red_split_k.toml").read_text().replace("red.global.add.v4.f32", op)
    text = text.replace('"float32"', f'"{dtype}"').replace("(4,32,4)", f"(4,32,{vec})").replace(
        "[4, 32, 4]", f"[4, 32, {vec}]").replace("align = 16", "align = 16")
    check = tilecheck.loads(text)
    assert tilecheck.prove(check).verdict == "proved"
    case = reference(check, {}, seed=3)
    c, p = case.inputs["C"], case.inputs["P"].reshape(128, vec)
    if dtype == "bfloat16":  # bf16 bits -> float32
        f = lambda x: (x.astype(np.uint32) << 16).view(np.float32)  # noqa: E731
        want = f(c) + f(p).sum(axis=0)
        assert np.array_equal(f(case.expected["C"]), want)
        return
    lane = {"float32": np.float32, "uint32": np.uint32}[dtype] if "x2" not in op else np.float16
    cv, pv = c.view(lane), p.view(lane).reshape(128, -1)
    want = cv.copy()
    np.add.at(want, np.arange(pv.shape[1]), pv.sum(axis=0, dtype=lane) if lane != np.float16 else pv.astype(np.float32).sum(axis=0).astype(np.float16))
    assert np.array_equal(case.expected["C"].view(lane), want)
    assert np.array_equal(case.expected["P"], case.inputs["P"])  # the source tile is not written back
    assert np.all(np.abs(pv.astype(np.float64)) <= 4)  # small integers: sums exact in any order


# --- on the H200 (pytest -m gpu) -------------------------------------------------------------
_gpu = require_gpu


@pytest.mark.gpu
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_split_k_on_the_gpu_equals_numpy_add_at(seed):
    _gpu()
    from tilecheck.gpu.runner import run_check
    r = run_check(tilecheck.load(EXAMPLES / "red_split_k.toml"), None, seed)
    assert r.ok, r.summary()
    assert r.comparison.written["C"] == 4  # 128 threads added to the same four floats


@pytest.mark.gpu
def test_misaligned_red_faults_on_the_gpu():
    _gpu()
    from tilecheck.gpu.unchecked import confirm
    path = EXAMPLES / "red_misaligned_refuted.toml"
    out = confirm(tilecheck.load(path), {}, 0, str(path))
    assert out.status == "fault" and "misaligned address" in out.detail and out.confirmed
