"""The wgmma declaration (``tilecheck/families/wgmma.py``): the m64nNk16 .f32 accumulator's fragment map
against an independent restatement of the PTX ISA's figure, its obligations proved and refuted, the
epilogue examples, the operand roles and the emitted lines assembled by ptxas (issue 31)."""
import tomllib
from pathlib import Path

import pytest

import tilecheck
from tilecheck.check import from_dict
from tilecheck.families import FAMILIES, wgmma
from tilecheck.layout import parse_layout
from tilecheck.opcodes import OpcodeError

EXAMPLES = Path(__file__).parent.parent / "examples"
NS = list(range(8, 257, 8))


def ptx_d_fragment(n):
    """The PTX ISA's D fragment of ``wgmma .m64nNk16`` with ``.f32`` accumulators, restated from its figure
    (no tilecheck code): thread ``32*warp + lane`` holds ``d{i}`` for ``i < n/2`` at row ``16*warp +
    lane//4 + 8*((i % 4)//2)`` (row ``groupID`` of the warp's 16-row slice for ``d0, d1``, ``+ 8`` for
    ``d2, d3``), column ``8*(i//4) + 2*(lane % 4) + i % 2`` (two adjacent columns per 8-column block)."""
    out = {}
    for t in range(128):
        warp, lane = divmod(t, 32)
        for i in range(n // 2):
            out[(t, i)] = (16 * warp + lane // 4 + 8 * ((i % 4) // 2), 8 * (i // 4) + 2 * (lane % 4) + i % 2)
    return out


@pytest.mark.parametrize("n", NS)
def test_thread_value_layout_is_the_ptx_fragment(n):
    want = ptx_d_fragment(n)
    tv = wgmma.accumulator(n)
    assert tv.size() == 128 * (n // 2)
    for (t, i), (r, c) in want.items():
        assert tv(t + 128 * i) == r + 64 * c  # (thread, value) colexicographic: thread fastest
    rows, cols = wgmma.elements(tv, n)
    assert {(t, i): (int(rows[t, i]), int(cols[t, i])) for t in range(128) for i in range(n // 2)} == want
    # the register tensor's layout names, for each element, the thread and register that hold it
    reg = wgmma.register_layout(n)
    for (t, i), (r, c) in want.items():
        v = reg((r, c))
        assert (32 * v.get("warpid", 0) + v["laneid"], v[""]) == (t, i)


@pytest.mark.parametrize("n", NS)
def test_fragment_obligations_prove_for_every_n(n):
    verdicts = wgmma.fragment(n)
    assert [v.name for v in verdicts] == ["fragment-owned", "fragment-disjoint", "fragment-covers"]
    assert all(v.proved for v in verdicts), [v.message for v in verdicts if not v.proved]


def _by_name(verdicts):
    return {v.name: v for v in verdicts}


def test_owned_refuted_when_the_register_tensor_swaps_the_column_pairing():
    # lane 4g + q declared to hold columns q and q + 4 (not 2q and 2q + 1)
    bad = parse_layout("((8,2,4),(4,2,2)):((4@laneid,2,1@warpid),(1@laneid,1,4))")
    v = _by_name(wgmma.fragment(16, registers=bad))
    assert v["fragment-disjoint"].proved and v["fragment-covers"].proved  # the instruction's map is fine
    o = v["fragment-owned"]
    assert not o.proved
    ce = o.counterexample
    assert ptx_d_fragment(16)[(ce["thread"], ce["register"])] == (ce["row"], ce["column"])
    assert (ce["declared_thread"], ce["declared_slot"]) != (ce["thread"], ce["register"])
    assert "D[0,1]" in o.message and "thread 0" in o.message and "thread 1 slot 0" in o.message


def test_disjoint_and_covers_refuted_name_two_threads_and_the_missed_element():
    # rows 8 apart confused with warps: h (stride 8) and w (stride 16) swapped in the thread-value layout
    bad = parse_layout("((4,8,4),(2,2,2)):((128,1,8),(64,16,512))")
    v = _by_name(wgmma.fragment(16, values=bad))
    d, c = v["fragment-disjoint"], v["fragment-covers"]
    assert not d.proved and not c.proved
    (t0, t1), (i0, i1) = d.counterexample["threads"], d.counterexample["registers"]
    assert t0 != t1
    rows, cols = wgmma.elements(bad, 16)
    for t, i in ((t0, i0), (t1, i1)):  # replayed: both pairs are the named element
        assert (rows[t, i], cols[t, i]) == (d.counterexample["row"], d.counterexample["column"])
    missed = (c.counterexample["row"], c.counterexample["column"])
    assert missed not in set(zip(rows.ravel().tolist(), cols.ravel().tolist()))
    assert missed == (48, 0)  # warps 2 and 3 land on warps 1 and 2's rows: rows 48.. are never written


def test_covers_refuted_when_a_fragment_leaves_the_tile():
    bad = parse_layout("((4,8,4),(2,2,2)):((128,1,16),(64,8,1024))")  # the second 8-column block 16 columns on
    v = _by_name(wgmma.fragment(16, values=bad))
    assert v["fragment-disjoint"].proved and not v["fragment-covers"].proved
    assert v["fragment-covers"].counterexample == {"row": 0, "column": 8}


def test_fragment_rejects_a_layout_of_the_wrong_size():
    with pytest.raises(ValueError, match="128 x 8"):
        wgmma.fragment(16, values=wgmma.accumulator(8))
    with pytest.raises(ValueError, match="multiple of 8"):
        wgmma.accumulator(12)


# --- the epilogue: the fragment stored with the existing families -----------------------------------

EPILOGUES = {  # example -> (verdict, refuted obligations)
    "wgmma_epilogue_st_global.toml": ("proved", set()),
    "wgmma_epilogue_st_shared.toml": ("proved", set()),
    "wgmma_epilogue_pairing_refuted.toml": ("refuted", {"ownership", "contiguity"}),
    "wgmma_epilogue_rows_refuted.toml": ("refuted", {"ownership"}),
}


@pytest.mark.parametrize("name", sorted(EPILOGUES))
def test_epilogue_examples_declare_the_fragment_and_prove_or_refute(name):
    verdict, refuted = EPILOGUES[name]
    text = (EXAMPLES / name).read_text()
    d = tomllib.loads(text)["tensors"]["D"]
    assert parse_layout(d["layout"]) == wgmma.register_layout(128)  # the accumulator's own declaration
    report = tilecheck.prove(tilecheck.load(EXAMPLES / name))
    assert report.verdict == verdict
    obligations = report.applies[0].obligations
    assert {o.name for o in obligations if o.status == "refuted"} == refuted
    assert not [o for o in obligations if o.status == "unknown"]
    if verdict == "proved":
        apply = tomllib.loads(text)["apply"][0]
        assert apply["src"].split(": ")[1] == wgmma.epilogue_view(128)
    else:  # the refutation names an element the fragment map puts in another lane
        own = next(o for o in obligations if o.name == "ownership")
        ce = own.counterexample
        r, c = ce["index"]
        holder = next(t for (t, _), e in ptx_d_fragment(128).items() if e == (r, c))
        assert holder == 32 * ce["warpid"] + ce["laneid"] and holder != 32 * ce["group"]["warp"] + ce["group"]["lane"]


@pytest.mark.parametrize("n", NS)
def test_epilogue_proves_for_every_n(n):
    """The epilogue of ``m64n{n}k16`` (``wgmma.epilogue``: D declared with the fragment map, stored with
    st.global.v2.f32) proves with the existing families' obligations, ownership and disjoint among them."""
    report = tilecheck.prove(from_dict(wgmma.epilogue(n)))
    assert report.verdict == "proved"
    (a,) = report.applies
    assert a.instructions == n // 4
    assert {o.name for o in a.obligations if o.status == "proved"} >= {"ownership", "disjoint", "contiguity", "bounds"}


def test_epilogue_to_shared_proves():
    report = tilecheck.prove(from_dict(wgmma.epilogue(64, "shared")))
    assert report.verdict == "proved"


# --- the operands and the instruction --------------------------------------------------------------

def test_wgmma_is_an_apply_family_with_three_operands():
    assert FAMILIES["wgmma"] is wgmma.FAMILY is wgmma.DECLARATION  # [[apply]] takes d, a, b (docs/wgmma.md)
    op = wgmma.parse("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16")
    assert (op.n, op.ab, op.vector) == (64, "bf16", 32)
    d, a, b = wgmma.DECLARATION.operand_roles(op)
    assert (d.kind, d.access, d.group_threads) == ("register", "atomic", 128)
    assert d.values == wgmma.accumulator(64) and d.words == 32
    rd, ra, rb = wgmma.DECLARATION.roles(op)
    assert wgmma.FAMILY.operands == tuple(r.name for r in (rd, ra, rb)) == ("d", "a", "b")
    assert (rd.kind, rd.values, rd.tile) == ("register", d.values, (64, 64))
    assert (ra.kind, ra.spaces, ra.tile, rb.kind, rb.tile) == ("descriptor", ("shared",), (64, 16), "descriptor",
                                                                 (64, 16))
    assert wgmma.DECLARATION.groups == ("warpgroup",)
    # the role's derived inverse: element m + 64 n -> (thread, register), as the PTX figure says
    want = ptx_d_fragment(64)
    holds = d.holds

    class Ints:
        @staticmethod
        def divmod(x, n, _stem):
            return divmod(x, n)
    for (t, i), (r, c) in list(want.items())[::97]:
        (thread,), pos = holds([0], r + 64 * c, Ints)
        assert (thread, pos) == (t, i)


@pytest.mark.parametrize("text, message", [
    ("wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16", "multiple of 8"),
    ("wgmma.mma_async.sync.aligned.m64n264k16.f32.f16.f16", "multiple of 8"),
    ("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.bf16", "one type"),
    ("wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3", "tilecheck models"),
])
def test_parse_refuses_what_is_not_modelled(text, message):
    with pytest.raises(OpcodeError, match=message):
        wgmma.parse(text)


def test_legality_and_version():
    op = wgmma.parse("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16")
    assert wgmma.DECLARATION.legality(op, "sm_90a") is None
    assert "sm_90a" in wgmma.DECLARATION.legality(op, "sm_90")
    assert wgmma.DECLARATION.ptx_version(op, "sm_90a") == (8, 0)


def test_emitted_lines():
    op = wgmma.parse("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16")
    regs = [f"%f{i}" for i in range(8)]
    assert wgmma.DECLARATION.lines(op, regs, "%da", "%db", "%p") == [
        "wgmma.fence.sync.aligned;",
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, %da, %db, "
        "%p, 1, 1, 0, 0;",
        "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0;"]
    with pytest.raises(ValueError, match="8 accumulator registers"):
        wgmma.DECLARATION.text(op, regs[:4], "%da", "%db", "%p")


def test_kernel_stores_each_register_at_its_fragment_element():
    """The emitted epilogue's address of register i: (row 16w + l/4 + 8h, column 8c + 2(l%4)), as the figure."""
    import re
    n = 24
    text = wgmma.kernel(wgmma.parse(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16"))
    stores = re.findall(r"st\.global\.v2\.f32 \[%a\+(\d+)\], \{%d(\d+), %d(\d+)\}", text)
    assert len(stores) == n // 4
    frag = ptx_d_fragment(n)
    for off, i, i1 in stores:
        i, i1 = int(i), int(i1)
        assert i1 == i + 1
        for t in (0, 37, 127):  # the thread's base (row 16w + l/4, column 2(l%4)) plus the immediate
            r0, c0 = 16 * (t // 32) + (t % 32) // 4, 2 * (t % 4)
            assert (r0 * n + c0) * 4 + int(off) == (frag[(t, i)][0] * n + frag[(t, i)][1]) * 4
            assert frag[(t, i1)] == (frag[(t, i)][0], frag[(t, i)][1] + 1)


@pytest.fixture
def _ptxas():
    from tilecheck.tools import ToolNotFound, find_tool
    try:
        find_tool("ptxas")
    except ToolNotFound:
        pytest.skip("ptxas not found")


@pytest.mark.parametrize("ab", wgmma.INPUTS)
def test_emitted_kernel_assembles_for_sm_90a(_ptxas, ab):
    from tilecheck.tools import ptxas
    for n in NS:
        r = ptxas(wgmma.kernel(wgmma.parse(f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ab}.{ab}")), "sm_90a")
        assert r.ok, (n, r.summary())
    op = wgmma.parse(f"wgmma.mma_async.sync.aligned.m64n64k16.f32.{ab}.{ab}")
    low = ptxas(wgmma.kernel(op, "7.8"), "sm_90a")
    assert not low.ok and "requires PTX ISA .version 8.0" in low.summary()
    plain = ptxas(wgmma.kernel(op).replace(".target sm_90a", ".target sm_90"), "sm_90")
    assert not plain.ok and "wgmma" in plain.summary()


def test_proved_epilogue_emits_the_registers_wgmma_writes():
    """The existing emitter's code for the proved epilogue (golden ``emit/``) stores register slot ``i`` of
    D where the family's wgmma kernel stores ``d{i}``: the same (immediate, register pair) for all 32 stores."""
    import re
    root = Path(__file__).parent.parent
    emitted = (root / "emit" / "wgmma_epilogue_st_global.fragment.ptx").read_text()
    ours = wgmma.kernel(wgmma.parse("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"))
    pat = r"st\.global\.v2\.f32 \[%\w+(?:\+(\d+))?\], \{%[rd](\d+), %[rd](\d+)\}"
    a = sorted((int(o or 0), int(i), int(j)) for o, i, j in re.findall(pat, emitted))
    b = sorted((int(o or 0), int(i), int(j)) for o, i, j in re.findall(pat, ours))
    assert len(a) == 32 and a == b


def test_docs_list_the_fragment_obligations_and_examples():
    text = (Path(__file__).parent.parent / "docs" / "wgmma.md").read_text()
    for v in wgmma.fragment(8):
        assert f"| `{v.name}` |" in text, v.name
    for name in EPILOGUES:
        assert f"| `{name}` |" in text, name


# --- the operands A and B through descriptors (the existing descriptor obligations) ------------------

def _descriptor(name):
    from tilecheck import descriptor_file
    (decl,) = descriptor_file.load(tomllib.loads((EXAMPLES / "descriptors" / f"{name}.toml").read_text()))
    return decl


def test_operands_through_descriptors_fit_and_prove():
    """m64n128k16: A a K-major 128B tile (64 x 16), B an N-major 128B tile (128 x 16): the declarations fit
    the instruction's operands and every descriptor obligation of each is proved; B's MN-major descriptor
    sets ``imm-trans-b``."""
    from tilecheck.proofs.smem_descriptor import decide
    op = wgmma.parse("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16")
    a, b = _descriptor("wgmma_desc_swizzle_128b"), _descriptor("wgmma_desc_mn_major")
    assert wgmma.DECLARATION.operand_problems(op, a, b) == []
    for decl in (a, b):
        assert {o.status.value for o in decide(decl)} <= {"proved", "skipped"}
    line = wgmma.DECLARATION.lines(op, [f"%f{i}" for i in range(64)], "%da", "%db", "%p",
                                   wgmma.DECLARATION.trans(a), wgmma.DECLARATION.trans(b))[1]
    assert line.endswith("%da, %db, %p, 1, 1, 0, 1;")


def test_operands_refuted():
    from tilecheck.proofs.smem_descriptor import decide
    op64 = wgmma.parse("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16")
    b = _descriptor("wgmma_desc_mn_major")  # a 128 x 16 tile is not m64n64k16's B
    (p,) = wgmma.DECLARATION.operand_problems(op64, None, b)
    assert "operand B (descriptor DB): tile (128, 16), the instruction reads (64, 16)" in p
    tile, word = wgmma.DECLARATION.operand_problems(op64, _descriptor("tcgen05_desc"))  # tcgen05's M = 128
    assert "operand A (descriptor DA): tile (128, 16), the instruction reads (64, 16)" in tile
    assert "a sm_100 descriptor word, wgmma reads sm_90's" in word
    # the shapes fit, the descriptor does not read what the TMA wrote: the descriptor obligation refutes it
    a = _descriptor("wgmma_desc_swizzle_mismatch_refuted")
    assert wgmma.DECLARATION.operand_problems(op64, a) == []
    refuted = {o.name for o in decide(a) if o.status.value == "refuted"}
    assert "descriptor-layout" in refuted


def test_the_descriptor_queries_take_the_runners_timeout(monkeypatch):
    """``prove --timeout`` reaches the descriptors' bit-vector queries (their own solver, smem_descriptor.decide)."""
    from tilecheck.proofs import smem_descriptor
    seen = []
    real = smem_descriptor.decide

    def spy(decl, names=None, timeout_s=10.0):
        seen.append(timeout_s)
        return real(decl, names, timeout_s)
    monkeypatch.setattr(smem_descriptor, "decide", spy)
    from tilecheck.check import load as load_check
    from tilecheck.report import prove as prove_check
    report = prove_check(load_check(Path(__file__).resolve().parent.parent / "examples" / "wgmma_chain.toml"), timeout=3.5)
    assert report.verdict == "proved" and seen and set(seen) == {3.5}
