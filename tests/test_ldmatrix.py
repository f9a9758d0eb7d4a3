"""The ldmatrix / stmatrix family (families/ldmatrix.py): spelling held to a ptxas 13.0 sweep; the
fragment map in the proofs, the decider and the numpy reference (each its own code); emission
(the PTX interpreter of test_emit_sim.py runs the warp-collective against the reference)."""
import itertools
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import tilecheck
from tilecheck import decide
from tilecheck.emit import fragment, kernel
from tilecheck.families.ldmatrix import VERSIONS, legality, parse, ptx_version
from tilecheck.gpu.reference import reference
from tilecheck.opcodes import OpcodeError
from tilecheck.tools import ToolNotFound, find_tool, ptxas
from test_target_sweep import minimum_problems, unchecked_rows

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARCHS = ("sm_80", "sm_90", "sm_100a")
CACHE = Path(__file__).resolve().parent / "regressions" / "ldmatrix_sweep.json"


def spellings():
    """kind x shape x num x trans x space x type: 2 * 5 * 4 * 2 * 3 * 3 = 720 spellings."""
    out = []
    for kind, shape, num, trans, space, typ in itertools.product(
            ["ldmatrix", "stmatrix"], ["m8n8", "m16n16", "m16n8", "m8n16", ""], ["x1", "x2", "x4", ""],
            [False, True], ["shared", "shared::cta", ""], ["b16", "b8", ""]):
        quals = ["sync", "aligned", shape, num, "trans" if trans else "", space, typ]
        out.append(".".join([kind, *(q for q in quals if q)]))
    return out


def registers(text):
    num = next((int(q[1:]) for q in text.split(".") if q in ("x1", "x2", "x4")), 4)
    n = num * (2 if ".m16n16." in text else 1)
    return "{" + ", ".join(f"%r{i}" for i in range(n)) + "}"


def module(text, arch, version=(9, 0)):
    regs = registers(text)
    line = f"{text} {regs}, [%r9];" if text.startswith("ldmatrix") else f"{text} [%r9], {regs};"
    return (f".version {version[0]}.{version[1]}\n.target {arch}\n.address_size 64\n"
            ".visible .entry k()\n{\n\t.reg .b32 %r<10>;\n\t.shared .align 16 .b8 s[512];\n"
            "\tmov.u32 %r9, s;\n\tmov.u32 %r0, 0;\n\tmov.u32 %r1, 0;\n\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 0;\n"
            "\tmov.u32 %r4, 0;\n\tmov.u32 %r5, 0;\n\tmov.u32 %r6, 0;\n\tmov.u32 %r7, 0;\n"
            f"\t{line}\n\tst.shared.v4.b32 [%r9], {{%r0, %r1, %r2, %r3}};\n\tret;\n}}\n")


def ours(text, arch):
    try:
        return legality(parse(text), arch) is None
    except OpcodeError:
        return False


@pytest.fixture(scope="module")
def swept():
    """ptxas's verdict on every (spelling, arch), cached in tests/regressions (delete it to re-run)."""
    cases = [(s, a) for s in spellings() for a in ARCHS]
    if CACHE.exists():
        data = json.loads(CACHE.read_text())
        if data.get("cases") == len(cases):
            return {(s, a): ok for s, a, ok in data["results"]}
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    with ThreadPoolExecutor(2) as ex:
        ok = list(ex.map(lambda c: ptxas(module(*c), c[1]).ok, cases))
    CACHE.write_text(json.dumps({"cases": len(cases), "results": [[s, a, k] for (s, a), k in zip(cases, ok)]}))
    return dict(zip(cases, ok))


def test_legality_agrees_with_the_ptxas_sweep(swept):
    """2,160 (spelling, arch) cases.  tilecheck never accepts what ptxas refuses; what ptxas accepts
    and tilecheck refuses is exactly the forms it does not model (generic addressing, the sm_100a
    .m16n16/.m16n8 .b8 forms), each refused with a reason that says so."""
    assert len(swept) == 2160
    unsound = [c for c, ok in swept.items() if ours(*c) and not ok]
    assert not unsound, unsound[:10]
    missed = [c for c, ok in swept.items() if ok and not ours(*c)]
    for text, arch in missed:
        reason = legality(parse(text), arch)
        assert "not modelled" in reason or "models" in reason, (text, arch, reason)
        assert ".shared" not in text or ".b16" not in text or ".m8n8." not in text, (text, arch)
    accepted = {a: sum(ours(s, b) for (s, b) in swept if b == a) for a in ARCHS}
    # .x1/.x2/.x4 x .trans x .shared/.shared::cta: 12 ldmatrix (sm_75+) and 12 stmatrix (sm_90+)
    assert accepted == {"sm_80": 12, "sm_90": 24, "sm_100a": 24}
    assert sum(swept.values()) > sum(accepted.values())


def test_ptx_version_is_the_exact_minimum():
    """Every spelling tilecheck takes x sm_75/sm_80/sm_90/sm_100a: ptxas accepts it at ``ptx_version``
    and refuses it one release lower for a feature of that version (ldmatrix 6.5 on sm_75,
    .shared::cta 7.8 on sm_80), or the target's minimum binds; every VERSIONS row is held so."""
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    declared = {(s, a): ptx_version(parse(s), a) for s in spellings() for a in ("sm_75",) + ARCHS if ours(s, a)}
    assert len(declared) == 12 + 12 + 24 + 24
    def judge(keys, arch, v):
        return {k: (lambda r: None if r.ok else r.summary())(ptxas(module(k, arch, v), arch)) for k in keys}
    problems, both = minimum_problems(declared, judge)
    assert not problems, problems[:10]
    assert not unchecked_rows(VERSIONS, both, declared, parse)
    assert ("ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16", "sm_80") in both  # issue 32: was 7.0


def test_spelling_errors_are_one_line():
    with pytest.raises(OpcodeError, match="unknown qualifier '.x8'"):
        parse("ldmatrix.sync.aligned.m8n8.x8.shared.b16")
    assert "sm_90" in legality(parse("stmatrix.sync.aligned.m8n8.x4.shared.b16"), "sm_80")
    assert "generic" in legality(parse("ldmatrix.sync.aligned.m8n8.x4.b16"), "sm_80")


def test_decider_agrees_with_the_proofs_on_the_examples():
    for path in sorted(EXAMPLES.glob("*matrix*.toml")):
        check = tilecheck.load(path)
        report = tilecheck.prove(check)
        mine = {o.name: o.status for o in report.applies[0].obligations}
        theirs = {n: str(s) for n, (s, _) in decide.decide(check)[0].items()}
        assert mine == theirs, path.name


def test_contiguity_counterexample_names_the_row_lane():
    text = (EXAMPLES / "ldmatrix_x4_trans.toml").read_text().replace("x4.trans", "x4")
    report = tilecheck.prove(tilecheck.loads(text))
    o = report.applies[0].obligation("contiguity")
    assert o.status == "refuted"
    assert "lane 0 gives" in o.message and o.counterexample["expected_offset"] != o.counterexample["offset"]
    assert decide.violation_at(tilecheck.loads(text), 0, "contiguity", o.counterexample) is None


def test_ownership_counterexample_names_both_lanes():
    report = tilecheck.prove(tilecheck.load(EXAMPLES / "ldmatrix_not_fragment_refuted.toml"))
    o = report.applies[0].obligation("ownership")
    assert o.status == "refuted"
    cex = o.counterexample
    assert cex["receiving_lane"] != cex["laneid"]
    assert f"to lane {cex['receiving_lane']}" in o.message and f"laneid {cex['laneid']}" in o.message


def test_alignment_counterexample_replays():
    check = tilecheck.load(EXAMPLES / "ldmatrix_misaligned_row_refuted.toml")
    o = tilecheck.prove(check).applies[0].obligation("alignment")
    assert o.status == "refuted" and o.counterexample["byte_offset"] % 16
    assert decide.violation_at(check, 0, "alignment", o.counterexample) is None


def test_reference_is_the_tile_copy_and_the_hardware_rows():
    """Proved: R[m, n] == S[m, n] (the layouts' intent).  A refuted-contiguity plan: the reference
    reads each row from its lane's address, as the hardware does: not the intent."""
    for name in ("ldmatrix_x4_trans", "ldmatrix_x4"):
        check = tilecheck.load(EXAMPLES / f"{name}.toml")
        case = reference(check, seed=3)
        assert np.array_equal(case.expected["R"], case.inputs["S"])
    case = reference(tilecheck.load(EXAMPLES / "stmatrix_x4.toml"), seed=3)
    assert np.array_equal(case.expected["S"], case.inputs["R"])
    text = (EXAMPLES / "ldmatrix_x4_trans.toml").read_text().replace("x4.trans", "x4")
    case = reference(tilecheck.loads(text), seed=3)
    S, R = case.inputs["S"].reshape(16, 16), case.expected["R"].reshape(16, 16)
    assert not np.array_equal(S, R)
    assert set(R.reshape(-1).tolist()) <= set(S.reshape(-1).tolist())  # rows of S, from the lanes' addresses
    # lane 0's row (matrix 0, row 0) starts where lane 0's word 0 is, S[0, 0]: words 0, 1 are S[0, 0:2]
    assert R[0, 0] == S[0, 0] and R[1, 0] == S[0, 1]


@pytest.mark.parametrize("name", ["ldmatrix_x4", "ldmatrix_x4_trans", "stmatrix_x4"])
def test_kernel_assembles(name):
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    check = tilecheck.load(EXAMPLES / f"{name}.toml")
    ptx = kernel(tilecheck.prove(check).plan)
    assert ("ldmatrix" if name.startswith("ld") else "stmatrix") in ptx
    r = ptxas(ptx, check.arch)
    assert r.ok, r.stderr


@pytest.mark.parametrize("name", ["ldmatrix_x4", "ldmatrix_x4_trans", "stmatrix_x4"])
def test_kernel_runs_in_the_interpreter(name):
    from test_emit_sim import run_kernel
    check = tilecheck.load(EXAMPLES / f"{name}.toml")
    case, out = run_kernel(check, seed=11)
    for n in check.tensors:
        assert np.array_equal(out[n], case.expected[n]), n


ROWS_CHECK = """
threads = 32
[tensors.S]
dtype = "uint16"
scope = "shared"
shape = [16, 48]
align = 16
layout = "Sw<{b},{m},{s}> o (16,48):({stride},1)"
[tensors.R]
dtype = "uint16"
scope = "register"
shape = [16, 16]
layout = "((8,2),(2,4,2)):((4@laneid,2),(1,1@laneid,4))"
[[apply]]
opcode = "{opcode}"
scope = "warp"
{mem} = "S[0:16, {col}:{col}+16]: (mb=2 g=8) (ib=2 q=4 j=2) -> (g q) mb (ib j)"
{reg} = "R: (mb=2 g=8) (ib=2 q=4 j=2) -> (g q) mb (ib j)"
"""


@pytest.mark.parametrize("b,m,s", [(3, 3, 3), (2, 3, 6), (1, 4, 2), (2, 0, 4), (3, 1, 4), (3, 2, 3)])
@pytest.mark.parametrize("stride,col", [(48, 0), (49, 0), (48, 4)])
@pytest.mark.parametrize("kind", ["ld", "st"])
def test_swizzled_rows_contiguity_agrees_with_the_decider(b, m, s, stride, col, kind):
    """The rows' swizzle lemma (contiguity._atom_lemma with the row's 8 elements, M >= 3) proves
    quickly and never alone: a row whose plain start is not a multiple of 8 (stride 49, column 4)
    or a swizzle with M < 3 is decided as the enumerator decides it."""
    opcode = ("ldmatrix" if kind == "ld" else "stmatrix") + ".sync.aligned.m8n8.x2.shared.b16"
    mem, reg = ("src", "dst") if kind == "ld" else ("dst", "src")
    check = tilecheck.loads(ROWS_CHECK.format(b=b, m=m, s=s, stride=stride, col=col, opcode=opcode, mem=mem, reg=reg))
    o = tilecheck.prove(check, timeout=20).applies[0].obligation("contiguity")
    d, _ = decide.decide(check)[0]["contiguity"]
    assert o.status == str(d)
    if o.status == "refuted":
        assert decide.violation_at(check, 0, "contiguity", o.counterexample) is None
    if m >= 3 and stride == 48 and col == 0:
        assert o.status == "proved"


def test_the_fragment_tile_is_emitted_packed():
    """An mma fragment stays in the 32-bit registers ldmatrix writes: no unpacking to 16 bits."""
    check = tilecheck.load(EXAMPLES / "ldmatrix_x4.toml")
    plan = tilecheck.prove(check).plan
    ptx = kernel(plan)
    assert "\t.reg .b32 %rp<64>;" in ptx and ".reg .b16 %rs" not in ptx
    assert "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%rp0, %rp1, %rp2, %rp3}, [%ra19];" in ptx
    assert "mov.b32 {%rs" not in ptx and "%lm" not in ptx
    assert "\tmov.b32 {%rh1, %rh2}, %rp0;" in ptx  # the write-back splits each register into its halves
    frag = fragment(plan, 0)
    assert ".reg .b32 %rp<64>;" in frag.text and "{%rp60, %rp61, %rp62, %rp63}" in frag.text


def test_a_tile_whose_pairs_are_not_adjacent_slots_is_unpacked_and_still_right():
    """Words 2i, 2i+1 in slots s, s+2: no 32-bit register holds the pair; the emitter unpacks."""
    from test_emit_sim import run_kernel
    text = (EXAMPLES / "ldmatrix_x4.toml").read_text().replace(
        'layout = "((8,2,4),(2,4,2,4)):((4@laneid,2,32),(1,1@laneid,4,8))"',
        'layout = "((8,2,4),(2,4,2,4)):((4@laneid,4,64),(2,1@laneid,8,16))"')
    import tomllib
    from tilecheck.check import from_dict
    check = from_dict(tomllib.loads(text), "gapped.toml")
    ptx = kernel(tilecheck.prove(check).plan)
    assert ".reg .b16 %rs<255>;" in ptx and "mov.b32 {%rs0, %rs2}, %lm0;" in ptx
    case, out = run_kernel(check, seed=5)
    for n in check.tensors:
        assert np.array_equal(out[n], case.expected[n]), n


def test_a_stmatrix_tile_whose_word_pairs_share_a_slot_assembles():
    """Fuzz seed 20261205 on the H200 (families, --gpu): a 16-bit tile whose two words of a register are
    one slot (word bit of stride 0) is not packed, but the emit hook took its equal names for a packed
    pair and gave stmatrix 16-bit registers (ptxas: "Arguments mismatch"); the hook is told now."""
    import subprocess
    from tilecheck import emit, loads, prove
    from tilecheck.tools import find_tool
    check = loads('arch = "sm_90"\nthreads = 32\n[tensors.S]\ndtype = "float16"\nscope = "shared"\nshape = [32, 16]\n'
                  'align = 16\n[tensors.R]\ndtype = "float16"\nscope = "register"\nshape = [32, 16]\n'
                  'layout = "((8,2,2),(2,4,2)):((4@laneid,4,2),(0,1@laneid,8))"\n[[apply]]\n'
                  'opcode = "stmatrix.sync.aligned.m8n8.x4.shared::cta.b16"\nscope = "warp"\n'
                  'dst = "S: (mb=2 ia=2 g=8) (ib=2 q=4 j=2) -> (g q) mb (ib ia j)"\n'
                  'src = "R: (mb=2 ia=2 g=8) (ib=2 q=4 j=2) -> (g q) mb (ib ia j)"\n')
    report = prove(check)
    assert report.verdict == "proved"
    ptx = emit.kernel(report.plan)
    assert "mov.b32 %lm0, {%rs" in ptx  # the 16-bit slots packed into 32-bit registers first
    r = subprocess.run([find_tool("ptxas"), "-arch=sm_90", "-", "-o", "/dev/null"], input=ptx, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
