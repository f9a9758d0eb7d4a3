"""wgmma as an [[apply]] family (issues 29 and 31): operands by role name, descriptors declared in the check
file, the accumulator's fragment over the warpgroup, and the chain TMA -> wgmma -> epilogue in one file,
proved, with its refuted variants; the decider (families/wgmma.py RULES) agrees with the prover."""
from pathlib import Path

import pytest

import tilecheck
from tilecheck import decide
from tilecheck.check import loads
from tilecheck.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CHAIN = (EXAMPLES / "wgmma_chain.toml").read_text()

# file -> {obligation refuted: words of its message}
VARIANTS = {
    "wgmma_chain.toml": {},
    "wgmma_chain_swizzle_mismatch_refuted.toml": {
        "desc_layout": "operand A (descriptor DA): element (1,0) of SA is at byte 144, descriptor DA reads it at byte 64",
        "desc_k_advance": "K step 1: element (1,16) of SA"},
    "wgmma_chain_lbo_sbo_unshifted_refuted.toml": {
        "desc_encoding": "the LBO field holds 16 (256 bytes), the intended value encodes as 1 (16 bytes) (the byte "
                         "value was not shifted right by 4)",
        "desc_layout": "element (8,0) of SA is at byte 1024, descriptor DA reads it at byte 16384"},
    "wgmma_chain_k_advance_past_atom_refuted.toml": {
        "desc_k_advance": "operand B (descriptor DB): K step 4 reads K columns [64, 80), past SB's K extent 64"},
}


def _verdicts(report):
    return {o.name: o for o in report.applies[2].obligations}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_chain_and_its_bugs(name):
    report = tilecheck.prove(tilecheck.load(EXAMPLES / name))
    assert [a.verdict for a in report.applies] == ["proved", "proved",
                                                   "refuted" if VARIANTS[name] else "proved", "proved"]
    wg = _verdicts(report)
    assert {n for n, o in wg.items() if o.status == "refuted"} == set(VARIANTS[name])
    assert not [o for a in report.applies for o in a.obligations if o.status == "unknown"]
    for n, words in VARIANTS[name].items():
        assert words in wg[n].message and wg[n].counterexample, (n, wg[n].message)
    assert report.check.applies[2].refutes == tuple(VARIANTS[name])  # what the pytest plugin expects


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_decider_agrees_on_the_chain(name):
    check = tilecheck.load(EXAMPLES / name)
    got = decide.decide(check, limit=2)[2]
    assert {n for n, (status, _) in got.items() if status == "refuted"} == set(VARIANTS[name])
    assert all(status in ("proved", "refuted") for status, _ in got.values())


def test_operands_are_taken_by_role_and_dst_src_stay_as_they_were():
    check = tilecheck.load(EXAMPLES / "wgmma_chain.toml")
    wg, st = check.applies[2], check.applies[3]
    assert wg.operand("a") is check.descriptors["DA"] and wg.operand("b") is check.descriptors["DB"]
    assert wg.operand("d") is wg.dst is wg.src and wg.register is wg.operand("d") and wg.is_load
    assert [(x.role, x.kind, x.space, x.tensor) for x in check.accesses_of(wg)] == [
        ("d", "register", "register", "D"), ("a", "descriptor", "shared", "SA"), ("b", "descriptor", "shared", "SB")]
    assert check.accesses_of(wg) is check.accesses[2]  # the check's own list, not rebuilt
    assert (st.operands, st.operand("dst"), st.operand("src")) == ((), st.dst, st.src)
    d = check.descriptors["DA"]
    assert (d.tensor, d.major, d.swizzle, d.start, d.lbo, d.sbo, d.advance) == ("SA", "K", "128B", "SA", 16, 1024,
                                                                                 (32, 64, 96))


def _variant(old, new, count=1):
    assert old in CHAIN
    return loads(CHAIN.replace(old, new, count), "variant.toml")


def test_a_view_that_is_not_the_accumulator_refutes_fragment_alone():
    """Registers h and j swapped: every register still belongs to its thread (ownership, disjoint proved),
    but register 1 of thread 0 is D[0,1] for the instruction, D[8,0] for the view."""
    check = _variant("-> w (g q) (c h j)", "-> w (g q) (c j h)")
    wg = _verdicts(tilecheck.prove(check))
    assert (wg["ownership"].status, wg["disjoint"].status, wg["fragment"].status) == ("proved", "proved", "refuted")
    assert "writes D[0,1] to register 1 of thread 0 (warp 0, lane 0), but the view" in wg["fragment"].message
    assert wg["fragment"].counterexample == {"thread": 0, "register": 1, "element": [0, 1], "view_element": [8, 0],
                                             "tensor": "D"}
    assert {n for n, (s, _) in decide.decide(check, limit=1)[2].items() if s == "refuted"} == {"fragment"}


def test_rows_eight_apart_refute_ownership_over_the_warpgroup():
    check = _variant("d = \"D: (w=4 h=2 g=8) (c=16 q=4 j=2) -> w (g q) (c h j)\"",
                     "d = \"D: (w=4 g=8 h=2) (c=16 q=4 j=2) -> w (g q) (c h j)\"")
    wg = _verdicts(tilecheck.prove(check))
    assert wg["ownership"].status == "refuted" and "not to the issuing thread" in wg["ownership"].message
    assert decide.decide(check, limit=1)[2]["ownership"][0] == "refuted"


def test_a_descriptor_that_depends_on_the_warp_is_not_uniform():
    text = CHAIN.replace('[symbols.M]', '[symbols.w]\nfrom = "warpid"\n\n[symbols.M]').replace(
        'start = "SA"                      # a shared', 'start = "SA + 1024 * w"           # a shared')
    check = loads(text, "w.toml")
    assert check.descriptors["DA"].start == "SA + 1024 * w"
    wg = _verdicts(tilecheck.prove(check))
    assert wg["desc_uniform"].status == "refuted"
    assert "operand A (descriptor DA): its start uses 'w', the warp id" in wg["desc_uniform"].message
    assert decide.decide(check, limit=1)[2]["desc_uniform"][0] == "refuted"


def test_a_tile_off_its_repeat_needs_the_base_offset():
    text = CHAIN.replace("align = 1024\n\n[tensors.SB]", "align = 128\n\n[tensors.SB]")
    wg = _verdicts(tilecheck.prove(loads(text, "base.toml")))
    assert wg["desc_base"].status == "refuted"
    assert "SA's 128B swizzle pattern starts at byte 128, 128 past its 1024-byte repeat" in wg["desc_base"].message
    text = text.replace('start = "SA"                      # a shared tensor\'s name is its byte address',
                        'start = "SA"\nbase_offset = "(SA >> 7) & 7"')
    assert _verdicts(tilecheck.prove(loads(text, "base.toml")))["desc_base"].status == "proved"


def test_a_descriptor_of_another_width_or_tile_refutes_layout():
    text = CHAIN.replace("advance = [32, 64, 96]            # K steps", "tile = [64, 32]\nadvance = [32, 64, 96]  #")
    wg = _verdicts(tilecheck.prove(loads(text, "tile.toml")))
    assert "operand A (descriptor DA): tile (64, 32), wgmma.mma_async" in wg["desc_layout"].message


def test_emit_refuses_a_wgmma_apply(capsys):
    assert main(["emit", str(EXAMPLES / "wgmma_chain.toml")]) == 2
    assert "does not emit" in capsys.readouterr().err


def test_a_check_file_with_descriptors_and_no_apply_is_still_a_descriptor_check_file():
    with pytest.raises(tilecheck.InputError, match="a descriptor check file"):
        loads('[descriptors.DA]\ntensor = "SA"\n', "d.toml")


def test_the_scope_defaults_to_the_familys_group():
    check = _variant('scope = "warpgroup"\n', "")
    assert check.applies[2].scope == "warpgroup" and check.applies[3].scope == "cta"
    with pytest.raises(tilecheck.InputError, match="unknown scope 'warp' \\(one of warpgroup\\)"):
        _variant('scope = "warpgroup"\n', 'scope = "warp"\n')
