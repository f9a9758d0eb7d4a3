"""The cp.async family (families/cp_async.py): spelling held to a ptxas 13.0 sweep, two memory
operands (contiguity, alignment and overflow on both sides, disjoint's store rule on the shared
destination), the decider's own rules, emission (commit_group / wait_all / bar.sync) and the numpy
reference (a copy); on a GPU (marked gpu) the proved example against it."""
import itertools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import tilecheck
from tilecheck import decide
from tilecheck.emit import fragment, kernel
from tilecheck.errors import InputError
from tilecheck.families import FAMILIES
from tilecheck.families.cp_async import FAMILY as CP, VERSIONS, legality, parse, ptx_version
from tilecheck.gpu.reference import reference
from tilecheck.opcodes import OpcodeError
from tilecheck.tools import ToolNotFound, find_tool, ptxas
from test_target_sweep import minimum_problems, unchecked_rows
from conftest import require_gpu

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARCHS = ("sm_80", "sm_90", "sm_100a")
TILE = (EXAMPLES / "cp_async_tile.toml").read_text()


def spellings():
    """cache x state space x prefetch x cp-size: 4 * 4 * 4 * 5 = 320 spellings."""
    out = []
    for c, sp, pf, size in itertools.product(["ca", "cg", "cs", ""], ["shared", "shared::cta", "shared::cluster", ""],
                                             ["", "L2::64B", "L2::128B", "L2::256B"], [4, 8, 16, 2, 32]):
        out.append((".".join(["cp", "async", *([c] if c else []), *([sp] if sp else []), "global",
                              *([pf] if pf else [])]), size))
    return out


def module(text, size, arch, version=(9, 0)):
    return (f".version {version[0]}.{version[1]}\n.target {arch}\n.address_size 64\n"
            ".visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
            "\t.shared .align 16 .b8 s[64];\n\tld.param.u64 %rd0, [p];\n\tmov.u32 %r0, s;\n"
            f"\t{text} [%r0], [%rd0], {size};\n\tcp.async.commit_group;\n\tcp.async.wait_all;\n\tret;\n}}\n")


def ours(text, size, arch):
    try:
        op = parse(text)
    except OpcodeError:
        return False
    from dataclasses import replace
    return legality(replace(op, cp_size=size), arch) is None


@pytest.fixture(scope="module")
def swept():
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    cases = [(s, z, a) for s, z in spellings() for a in ARCHS]
    with ThreadPoolExecutor(2) as ex:
        ok = list(ex.map(lambda c: ptxas(module(*c), c[2]).ok, cases))
    return dict(zip(cases, ok))


def test_legality_matches_the_ptxas_sweep(swept):
    """960 (spelling, arch) cases; ptxas 13.0 accepts 32 per arch: .ca with 4/8/16, .cg with 16 only."""
    wrong = [(c, ok) for c, ok in swept.items() if ok != ours(*c)]
    assert not wrong, wrong[:10]
    assert len(swept) == 960
    accepted = {a: sum(ok for (s, z, b), ok in swept.items() if b == a) for a in ARCHS}
    assert accepted == {"sm_80": 32, "sm_90": 32, "sm_100a": 32}
    assert not swept[("cp.async.cg.shared.global", 8, "sm_80")] and swept[("cp.async.ca.shared.global", 8, "sm_80")]


def test_ptx_version_is_the_exact_minimum(swept):
    """Every (spelling, cp-size) tilecheck takes x sm_80/sm_90/sm_100a: ptxas accepts it at
    ``ptx_version`` and refuses it one release lower for a feature of that version (the prefetch
    sizes, 7.4 on sm_80), or the target's minimum binds (.shared::cta needs no more than 7.0)."""
    declared = {((s, z), a): ptx_version(parse(s), a) for (s, z, a), ok in swept.items() if ours(s, z, a)}
    assert len(declared) == 3 * 32
    def judge(keys, arch, v):
        return {k: (lambda r: None if r.ok else r.summary())(ptxas(module(*k, arch, v), arch)) for k in keys}
    problems, both = minimum_problems(declared, judge)
    assert not problems, problems[:10]
    assert not unchecked_rows(VERSIONS, both, declared, lambda k: parse(k[0]))
    assert (("cp.async.ca.shared::cta.global", 16), "sm_80") in declared
    assert legality(parse("cp.async.ca.shared.global"), "sm_75") is not None  # and cp_size 0 unbound


def test_registered_with_two_memory_operands_and_no_ownership():
    assert FAMILIES["cp.async"] is CP and "ownership" not in CP.obligations and "disjoint" in CP.obligations
    assert CP.memory_roles(parse("cp.async.cg.shared.global")) == ("dst", "src")
    with pytest.raises(OpcodeError, match="unknown qualifier"):
        parse("cp.async.cg.shared.global.v4")
    with pytest.raises(OpcodeError, match="models the copy"):
        parse("cp.async.wait_all")


def test_tile_is_proved_and_the_decider_agrees():
    r = tilecheck.prove(tilecheck.loads(TILE))
    assert r.verdict == "proved"
    unguarded = [n for n in CP.obligations if n != "guard"]  # guard: only with guard = true
    assert [o.name for o in r.applies[0].obligations] == unguarded
    got = decide.decide(r.check)[0]
    assert {n: got[n] for n in unguarded if n != "sectors"} == {n: ("proved", None) for n in unguarded if n != "sectors"}
    # sectors (performance) over every base the 16-byte align allows: 16 past a sector costs 20, not 16
    assert got["sectors"][0] == "refuted" and got["sectors"][1]["count"] == 20
    assert {o.name: o.status for o in r.applies[0].obligations}["sectors"] == "refuted"


def test_cg_8_is_refuted_on_target_and_ptxas_refuses_it():
    r = tilecheck.prove(tilecheck.load(EXAMPLES / "cp_async_cg_8_refuted.toml"))
    assert r.verdict == "refuted"
    bad = {o.name: o.message for o in r.applies[0].obligations
           if o.status == "refuted" and o.name not in decide.COUNTED}  # sectors: performance, reported
    assert set(bad) == {"target"} and "copies 16 bytes only, cp-size is 8" in bad["target"]
    assert decide.decide(r.check)[0]["target"][0] == "refuted"
    try:
        assert not ptxas(module("cp.async.cg.shared.global", 8, "sm_80"), "sm_80").ok
    except ToolNotFound:
        pass


def _obligations(text):
    r = tilecheck.prove(tilecheck.loads(text))
    return {o.name: o for o in r.applies[0].obligations}, decide.decide(r.check)[0]


def test_a_misaligned_source_is_refuted_on_the_source_side():
    obs, dec = _obligations(TILE.replace('(1024,(8,256),4096,1)"', '(1024,(8,256),4096,1)"\noffset = 4'))
    assert obs["alignment"].status == "refuted" and dec["alignment"][0] == "refuted"
    assert "reads A[0,0,0,0] at byte offset 8, not a multiple of 16" in obs["alignment"].message
    assert obs["contiguity"].status == "proved"


def test_a_strided_destination_is_refuted_on_contiguity_and_disjoint():
    obs, dec = _obligations(TILE.replace("(256,8,1024,1)", "(256,8,1024,2)"))
    assert obs["contiguity"].status == "refuted" and "copies to S[0,0,0,1]" in obs["contiguity"].message
    assert obs["disjoint"].status == "refuted" and dec["disjoint"][0] == "refuted"


def test_overlapping_shared_destinations_are_refuted_but_sources_may_overlap():
    # every thread reads the same 16 global bytes: allowed; every thread writes the same shared bytes: refuted
    src_shared = TILE.replace('layout = "(4,(8,4),4,8):(1024,(8,256),4096,1)"', 'layout = "(4,32,4,8):(0,0,0,1)"')
    obs, dec = _obligations(src_shared)
    assert all(o.status == "proved" for o in obs.values()) and dec["disjoint"][0] == "proved"
    dst_shared = TILE.replace('layout = "(4,32,4,8):(256,8,1024,1)"', 'layout = "(4,32,4,8):(0,0,0,1)"')
    obs, dec = _obligations(dst_shared)
    assert obs["disjoint"].status == "refuted" and dec["disjoint"][0] == "refuted"


def test_source_past_its_tensor_is_refuted_on_bounds():
    obs, dec = _obligations(TILE.replace('src = "A"', 'src = "A[:, :, 1:4, :]: w l (r=3) v -> w l r v"')
                            .replace('dst = "S"', 'dst = "S[:, :, 0:3, :]: w l (r=3) v -> w l r v"'))
    assert obs["bounds"].status == "proved"  # the slices are inside: sanity of the operand syntax
    obs, dec = _obligations(TILE.replace('align = 16\n\n[tensors.S]', 'align = 16\noffset = -8\n\n[tensors.S]'))
    assert obs["bounds"].status == "refuted" and dec["bounds"][0] == "refuted"


def test_spaces_are_the_roles_own():
    obs, dec = _obligations(TILE.replace('scope = "shared"', 'scope = "global"'))
    assert obs["space"].status == "refuted" and dec["space"][0] == "refuted"
    assert "the destination S is global memory" in obs["space"].message


def test_cp_size_is_required_and_whole_elements():
    with pytest.raises(InputError, match="needs cp_size"):
        tilecheck.loads(TILE.replace("cp_size = 16\n", ""))
    with pytest.raises(InputError, match="must be 4, 8 or 16"):
        tilecheck.loads(TILE.replace("cp_size = 16", "cp_size = 3"))
    with pytest.raises(InputError, match="not a whole number of float64"):
        tilecheck.loads(TILE.replace("float16", "float64").replace("cp_size = 16", "cp_size = 4"))
    with pytest.raises(InputError, match="unknown key 'cp_size'"):
        tilecheck.loads((EXAMPLES / "seed.toml").read_text().replace('opcode = ', 'cp_size = 16\nopcode = ', 1))


@pytest.mark.parametrize("size", [2, 32, 0, -16])
def test_cp_size_outside_4_8_16_is_bad_input(tmp_path, capsys, size):
    """Issue 32: ``cp_size = 2`` was refuted on ``target`` and still reported ``sectors`` (for 2-byte
    copies PTX has no form of); it is an input error: exit 2, one line naming apply[0]'s cp_size."""
    with pytest.raises(InputError, match="4, 8 or 16") as e:
        tilecheck.loads(TILE.replace("cp_size = 16", f"cp_size = {size}"))
    assert e.value.where.endswith("cp_size") and "apply[0]" in e.value.where
    path = tmp_path / "cp.toml"
    path.write_text(TILE.replace("cp_size = 16", f"cp_size = {size}"))
    from tilecheck.cli import main
    assert main(["prove", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apply[0]: cp_size" in err and "4, 8 or 16" in err


def test_emitted_fragment_and_kernel():
    plan = tilecheck.prove(tilecheck.loads(TILE)).plan
    f = fragment(plan, 0)
    assert len(f.body) == 4 and all(x.startswith("\tcp.async.cg.shared.global [%tcw") and x.endswith(", 16;")
                                    for x in f.body)  # [shared .b32 address], [global .b64 address], 16
    assert "%base_S" in "\n".join(f.setup) and "%base_A" in "\n".join(f.setup)
    ptx = kernel(plan)
    lines = [x.strip() for x in ptx.splitlines()]
    last = max(i for i, x in enumerate(lines) if x.startswith("cp.async.cg"))
    assert lines[last + 1:last + 4] == ["cp.async.commit_group;", "cp.async.wait_all;", "bar.sync 0;"]
    try:
        res = ptxas(ptx, "sm_80")
    except ToolNotFound:
        pytest.skip("ptxas not found")
    assert res.ok, res.stderr


def test_reference_is_a_copy():
    case = reference(tilecheck.loads(TILE), seed=3)
    a, s = case.inputs["A"].view(np.uint16), case.expected["S"].view(np.uint16)
    rows = np.concatenate([a, np.zeros(64 * 256 - a.size, a.dtype)]).reshape(64, 256)[:, :64]  # the tile: the first 64 columns of a 64x256 matrix
    assert (s.reshape(64, 64) == rows).all() and case.written["S"].all()


@pytest.mark.gpu
def test_tile_on_the_gpu_equals_numpy():
    """The proved example's kernel, bit-exact against the copy (tests/test_gpu.py runs it in its batch too)."""
    from tilecheck.gpu import runner
    require_gpu()
    (r,) = runner.run_checks([runner.Job(tilecheck.loads(TILE), None, 5, name="cp_async_tile")])
    assert r.ok, r.summary()
    assert r.comparison.written["S"] == 4096
