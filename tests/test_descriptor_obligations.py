"""The descriptor obligations (``tilecheck/proofs/smem_descriptor.py``) on the bugs issue 31 names, each
refuted with its counterexample, and its fixed form proved."""
import z3

from tilecheck import smem_descriptor as sd
from tilecheck.layout import parse_layout
from tilecheck.proofs.smem_descriptor import (OBLIGATIONS, Declaration, Instruction, Operand, decide, decide_instruction)

SW128_K_16 = parse_layout("Sw<3,3,3> o (64,64):(64,1)")  # a 64x64 half tile, 128B-swizzled (what TMA writes)
INTERLEAVED_K_16 = parse_layout("((8,8),(8,2)):((8,64),(1,512))")  # core matrices: 128 B each, K chunks 1024 B apart


def verdicts(decl, **kw):
    return {o.name: o for o in decide(decl, **kw)}


def status(decl):
    return {n: o.status for n, o in verdicts(decl).items()}


def proved(decl) -> bool:
    """Every obligation proved (the K-step one skipped when no advance is declared)."""
    got = status(decl)
    return set(got.values()) == {"proved"} or (got.pop("descriptor-k-advance") == "skipped" and not decl.advance
                                                 and set(got.values()) == {"proved"})


def hand_built_word(start, lbo, sbo, base_offset, code, lbo_shift=4, sbo_shift=4):
    """A descriptor as hand-written kernels build it: unmasked shifts or'ed together."""
    return (start >> 4) | ((lbo >> lbo_shift) << 16) | ((sbo >> sbo_shift) << 32) | (base_offset << 49) | (code << 62)


def test_registry_order():
    assert list(OBLIGATIONS) == ["descriptor-encoding", "descriptor-base", "descriptor-layout", "descriptor-k-advance"]


# tilelang #813 and friends: LBO left unshifted ---------------------------------------------------

def test_wgmma_desc_lbo_unshifted_refuted():
    op = Operand(INTERLEAVED_K_16, 16, 0, name="SA")
    fields = sd.Fields(0, 1024, 128, 0, "none")
    bad = Declaration("DA", op, "K", fields, (64, 16), word=hand_built_word(0, 1024, 128, 0, 0, lbo_shift=0))
    v = verdicts(bad)
    assert v["descriptor-encoding"].status == "refuted"
    assert "LBO field holds 1024 (16384 bytes)" in v["descriptor-encoding"].message
    assert "not shifted right by 4" in v["descriptor-encoding"].message
    assert v["descriptor-layout"].status == "refuted"
    assert v["descriptor-layout"].counterexample["index"] == [0, 8]  # the first element of the second K chunk
    assert v["descriptor-layout"].counterexample["declared_byte"] == 1024
    assert v["descriptor-layout"].counterexample["descriptor_byte"] == 16384
    fixed = Declaration("DA", op, "K", fields, (64, 16), word=hand_built_word(0, 1024, 128, 0, 0))
    assert proved(fixed)


def test_wgmma_desc_sbo_carry_refuted():
    """An SBO of 2^18 bytes does not fit: >> 4 gives 2^14, which carries into reserved bit 46."""
    op = Operand(parse_layout("((8,2),(8,2)):((8,131072),(1,64))"), 16, 0, name="SA")
    fields = sd.Fields(0, 128, 1 << 18, 0, "none")
    bad = Declaration("DA", op, "K", fields, (16, 16), word=hand_built_word(0, 128, 1 << 18, 0, 0))
    v = verdicts(bad)
    assert v["descriptor-encoding"].status == "refuted"
    assert "SBO = 262144 bytes is not below 2^18" in v["descriptor-encoding"].message
    assert v["descriptor-layout"].status == "refuted"  # the hardware reads SBO 0
    # without the hand-built word, PTX's own encoding masks the address to 18 bits: still refuted
    assert status(Declaration("DA", op, "K", fields, (16, 16)))["descriptor-encoding"] == "refuted"


def test_unaligned_start_refuted():
    op = Operand(SW128_K_16, 16, 0, name="SA")
    v = verdicts(Declaration("DA", op, "K", sd.Fields(8, 16, 1024, 0, "128B"), (64, 16)))
    assert v["descriptor-encoding"].status == "refuted"
    assert "start address = 8 bytes is not a multiple of 16" in v["descriptor-encoding"].message


# MatmulTutorial #14: the TMA's swizzle and the descriptor's disagree ----------------------------

def test_wgmma_desc_swizzle_mismatch_refuted():
    op = Operand(SW128_K_16, 16, 0, name="SA")  # TMA wrote SWIZZLE_128B
    bad = verdicts(Declaration("DA", op, "K", sd.Fields(0, 16, 1024, 0, "64B"), (64, 16)))
    assert bad["descriptor-layout"].status == "refuted"
    cex = bad["descriptor-layout"].counterexample
    assert cex["index"] == [1, 0]  # row 0 is unswizzled in both; row 1's first chunk moves
    assert cex["declared_byte"] == 144 and cex["descriptor_byte"] == 64  # 64B rows: row 1 starts at byte 64
    ok = Declaration("DA", op, "K", sd.Fields(0, 16, 1024, 0, "128B"), (64, 16))
    assert proved(ok)
    # how much of the tile it reads from the wrong byte: 7 in 8 elements (MatmulTutorial #14 saw 87% of a product wrong)
    wrong = sum(sd.declared_address(SW128_K_16, 16, 0, 0, i, j)
                != sd.hardware_address(sd.Fields(0, 16, 1024, 0, "64B"), "K", 16, (64, 16), i, j)
                for i in range(64) for j in range(16))
    assert wrong == 64 * 16 * 7 // 8


# a descriptor advanced along K past the swizzle atom --------------------------------------------

def test_wgmma_desc_k_advance_past_atom_refuted():
    """A 64x128 half tile of two 128B atoms along K (tile_to_shape(Layout_K_SW128_Atom, (64,128))):
    eight K=16 steps.  Inside an atom the start advances 32 B a step (CUTLASS's DescriptorIterator
    adds the k-block's offset to the start field); the fifth step is in the second atom, 8 KiB away."""
    tile = parse_layout("Sw<3,3,3> o ((8,8),(64,2)):((64,512),(1,4096))")
    op = Operand(tile, 16, 0, name="SA")
    f = sd.Fields(0, 16, 1024, 0, "128B")
    bad = verdicts(Declaration("DA", op, "K", f, (64, 16), advance=tuple(32 * j for j in range(1, 8))))
    assert bad["descriptor-layout"].status == "proved"
    assert bad["descriptor-k-advance"].status == "refuted"
    cex = bad["descriptor-k-advance"].counterexample
    assert cex["k_step"] == 4 and cex["index"] == [0, 64] and cex["advance"] == 128
    assert cex["declared_byte"] == 8192 and cex["descriptor_byte"] == 144
    good = tuple((j % 4) * 32 + (j // 4) * 8192 for j in range(1, 8))
    assert proved(Declaration("DA", op, "K", f, (64, 16), advance=good))


def test_k_advance_off_the_16_byte_grid_refuted():
    op = Operand(SW128_K_16, 16, 0, name="SA")
    v = verdicts(Declaration("DA", op, "K", sd.Fields(0, 16, 1024, 0, "128B"), (64, 16), advance=(24,)))
    assert v["descriptor-k-advance"].status == "refuted"
    assert "not a multiple of 16" in v["descriptor-k-advance"].message


def test_k_steps_past_the_tensor_refuted():
    op = Operand(SW128_K_16, 16, 0, name="SA")
    v = verdicts(Declaration("DA", op, "K", sd.Fields(0, 16, 1024, 0, "128B"), (64, 16), advance=(32, 64, 96, 128)))
    assert v["descriptor-k-advance"].status == "refuted"
    assert "K step 4 reads K columns [64, 80), past SA's K extent 64" in v["descriptor-k-advance"].message


# the base offset ---------------------------------------------------------------------------------

def test_swizzle_pattern_off_its_repeat_needs_the_base_offset():
    op = Operand(SW128_K_16, 16, 384, name="SA")  # the pattern starts 384 B past a 1024 B boundary
    bad = verdicts(Declaration("DA", op, "K", sd.Fields(384, 16, 1024, 0, "128B"), (64, 16)))
    assert bad["descriptor-base"].status == "refuted"
    assert bad["descriptor-base"].counterexample["expected"] == 3
    assert bad["descriptor-layout"].status == "refuted"  # the model: the pattern's rows are out of phase
    good = Declaration("DA", op, "K", sd.Fields(384, 16, 1024, 3, "128B"), (64, 16))
    assert proved(good)
    assert sd.encode(SW128_K_16, "K", 16, (64, 16), address=384).fields == good.fields


def test_symbolic_start_address():
    a = z3.BitVec("a", 64)
    op = Operand(SW128_K_16, 16, a, name="SA")
    f = sd.Fields(a, 16, 1024, 0, "128B")
    on_repeat = (z3.ULT(a, 1 << 17), z3.URem(a, 1024) == 0)
    decl = Declaration("DA", op, "K", f, (64, 16), advance=(32, 64, 96), assume=on_repeat)
    assert proved(decl)
    # only 128-byte aligned: the smallest counterexample is a = 128
    decl = Declaration("DA", op, "K", f, (64, 16), assume=(z3.ULT(a, 1 << 17), z3.URem(a, 128) == 0))
    v = verdicts(decl)
    assert v["descriptor-base"].status == "refuted" and v["descriptor-base"].counterexample["symbols"] == {"a": 128}
    # the start may run past 2^18
    decl = Declaration("DA", op, "K", f, (64, 16), assume=(z3.URem(a, 1024) == 0,))
    v = verdicts(decl)
    assert v["descriptor-encoding"].status == "refuted"
    assert v["descriptor-encoding"].counterexample["symbols"] == {"a": 1 << 18}


def test_symbolic_sbo():
    s = z3.BitVec("s", 64)
    op = Operand(INTERLEAVED_K_16, 16, 0, name="SA")
    decl = Declaration("DA", op, "K", sd.Fields(0, 1024, s, 0, "none"), (64, 16),
                       assume=(z3.ULT(s, 4096), s & 15 == 0))
    v = verdicts(decl)
    assert v["descriptor-layout"].status == "refuted"
    assert v["descriptor-layout"].counterexample["symbols"] == {"s": 0}
    decl = Declaration("DA", op, "K", sd.Fields(0, 1024, s, 0, "none"), (64, 16), assume=(s == 128,))
    assert proved(decl)


def test_mn_major_operand():
    # B stored N-major (transposed): a 64 (N) x 16 (K) half tile of 128B MN-major atoms, Layout_MN_SW128_Atom
    lay = parse_layout("Sw<3,3,3> o (64,16):(1,64)")
    op = Operand(lay, 16, 0, name="SB")
    enc = sd.encode(lay, "MN", 16, (64, 16))
    assert enc.fields is not None and enc.fields.sbo == 1024
    assert proved(Declaration("DB", op, "MN", enc.fields, (64, 16)))
    # read as K-major, it is refuted
    v = verdicts(Declaration("DB", op, "K", enc.fields, (64, 16)))
    assert v["descriptor-layout"].status == "refuted"


# tcgen05 ------------------------------------------------------------------------------------------

def test_tcgen05_descriptor_fixed_bits_and_layout_types():
    op = Operand(SW128_K_16, 16, 0, name="SA")
    f = sd.Fields(0, 16, 1024, 0, "128B", "sm_100")
    assert proved(Declaration("DA", op, "K", f, (64, 16)))
    assert sd.pack(f) >> 46 & 7 == 1 and sd.pack(f) >> 61 == 2
    # a Hopper-style word (no version bit, 2-bit layout type at 62) handed to tcgen05
    hopper = sd.pack(sd.Fields(0, 16, 1024, 0, "128B"))
    v = verdicts(Declaration("DA", op, "K", f, (64, 16), word=hopper))
    assert v["descriptor-encoding"].status == "refuted"
    assert "fixed field fixed holds 0, sm_100 requires 1" in v["descriptor-encoding"].message
    # layout type 3 names no mode
    bad = sd.pack_raw({"start": 0, "lbo": 1, "sbo": 64, "layout_type": 3}, "sm_100")
    v = verdicts(Declaration("DA", op, "K", f, (64, 16), word=bad))
    assert v["descriptor-encoding"].status == "refuted"
    assert "layout type 3 is invalid on sm_100" in v["descriptor-encoding"].message
    # the tensor core reads no layout through an invalid type: refuted with the value, not unknown
    assert v["descriptor-layout"].status == "refuted" and "layout type 3 is invalid" in v["descriptor-layout"].message
    for code in (5, 7):
        bad = sd.pack_raw({"start": 0, "lbo": 1, "sbo": 64, "layout_type": code}, "sm_100")
        v = verdicts(Declaration("DA", op, "K", f, (64, 16), word=bad))
        assert all(v[n].status == "refuted" and f"layout type {code} is invalid" in v[n].message
                   for n in ("descriptor-encoding", "descriptor-base", "descriptor-layout"))


def test_tcgen05_instruction_descriptor():
    assert decide_instruction(Instruction("I", 128, 256)).status == "proved"
    assert decide_instruction(Instruction("I", 128, 8)).status == "proved"  # PTX Table 39: N steps of 8 for M = 128
    out = decide_instruction(Instruction("I", 128, 8, cta_group=2))
    assert out.status == "refuted" and "multiple of 16" in out.message
    n = z3.BitVec("n", 64)
    out = decide_instruction(Instruction("I", 64, n, assume=(z3.ULE(n, 256), z3.UGE(n, 8))))
    assert out.status == "refuted" and out.counterexample["symbols"] == {"n": 9}
    out = decide_instruction(Instruction("I", 64, n, assume=(z3.ULE(n, 256), z3.UGE(n, 8), n & 7 == 0)))
    assert out.status == "proved"
    # M written unshifted into m_dim: 128 << 24 lands in bit 31
    out = decide_instruction(Instruction("I", 128, 256, word=(128 << 24) | (32 << 17)))
    assert out.status == "refuted" and "m_dim = 0" in out.message


def test_docs_list_every_obligation():
    from pathlib import Path
    text = (Path(__file__).parent.parent / "docs" / "wgmma.md").read_text()
    from tilecheck.proofs.tcgen05_idesc import OBLIGATIONS as IDESC
    for name in [*OBLIGATIONS, "tcgen05-instruction", *IDESC]:
        assert f"| `{name}` |" in text, name


def test_reserved_bits_refuted():
    op = Operand(SW128_K_16, 16, 0, name="SA")
    f = sd.Fields(0, 16, 1024, 0, "128B")
    v = verdicts(Declaration("DA", op, "K", f, (64, 16), word=sd.pack(f) | (1 << 30)))
    assert v["descriptor-encoding"].status == "refuted"
    assert "reserved bits 0x0000000040000000 are set" in v["descriptor-encoding"].message
    assert v["descriptor-layout"].status == "proved"  # the hardware ignores them in this model: the encoding catches it


def test_the_layout_obligation_agrees_with_enumeration_on_random_declarations():
    """Z3's verdict on ``descriptor-layout`` equals a brute-force comparison of every element (the model's
    ``first_difference``) on random pairs of a declared canonical tile and a descriptor, agreeing or not."""
    import random
    rng = random.Random(2026)
    counts = {"proved": 0, "refuted": 0}
    for _ in range(120):
        major, bits = rng.choice([("K", 8), ("K", 16), ("K", 32), ("MN", 16)])
        mode = rng.choice(list(sd.WIDTH))
        T = 16 // (bits // 8)
        step = 8 if major == "K" else T * sd.WIDTH[mode]
        tile = (step * rng.choice([1, 2, 4]), sd.instruction_k(bits))
        address = 1024 * rng.randrange(4) + 128 * rng.choice([0, 0, 3])
        truth = sd.Fields(address, 16 * rng.choice([8, 64, 128]), 16 * rng.choice([8, 64, 128]),
                          (address >> 7) & 7 if mode != "none" else 0, mode)
        d = sd.decode(truth, major, bits, tile)
        if rng.random() < 0.5:  # a descriptor that differs in one field
            which = rng.choice(["lbo", "sbo", "swizzle", "start", "base_offset"])
            other = {"lbo": {"lbo": truth.lbo + 16}, "sbo": {"sbo": truth.sbo * 2},
                     "swizzle": {"swizzle": rng.choice([m for m in sd.WIDTH if m != mode])},
                     "start": {"start": truth.start + 16}, "base_offset": {"base_offset": (truth.base_offset + 1) & 7}}
            desc = sd.Fields(**{**truth.__dict__, **other[which]})
            if desc.swizzle == "none":
                desc = sd.Fields(**{**desc.__dict__, "base_offset": 0})
        else:
            desc = truth
        try:
            sd.check_tile(major, desc.swizzle, bits, tile)
        except ValueError:
            continue
        op = Operand(d.layout, bits, d.origin, d.offset, "A")
        got = verdicts(Declaration("D", op, major, desc, tile))["descriptor-layout"]
        brute = sd.first_difference(desc, major, bits, tile, d.layout, d.origin, d.offset)
        assert got.status == ("proved" if brute is None else "refuted"), (major, bits, tile, truth, desc)
        if brute is not None:
            assert got.counterexample["index"] == list(brute[0])
        counts[got.status] += 1
    assert counts["proved"] > 30 and counts["refuted"] > 20, counts  # 82 and 38 at this seed


def test_the_layout_obligation_agrees_with_enumeration_on_tcgen05_modes():
    """As above, for tcgen05's own operands: MN-major 8-bit (every 16-byte-atom mode), MN-major tf32
    (128B with 32-byte atoms) and K-major 128B in the absolute LBO mode (a K slice that crosses start's
    128-byte row into another atom, or fits), each against a descriptor that agrees or differs in one
    field (the LBO mode among them)."""
    import random
    from tilecheck.layout import Layout
    rng = random.Random(100)
    counts = {"proved": 0, "refuted": 0}
    for _ in range(90):
        case = rng.choice(["mn8", "atom32", "absolute"])
        origin = 1024 * rng.randrange(4)
        if case == "absolute":
            major, bits = "K", rng.choice([8, 16, 32])
            e, es = {8: 0, 16: 1, 32: 2}[bits], bits // 8
            tile = (8 * rng.choice([1, 2, 4]), 32 // es)
            crosses = rng.random() < 0.5
            start = origin + (112 if crosses else 32 * rng.randrange(4))
            lbo = origin + 1024 * rng.randrange(8, 12)
            sbo = 1024
            truth = sd.Fields(start, lbo, sbo, 0, "128B", "sm_100", 1)
            split = 16 // es if crosses else tile[1]
            k_mode = ((split, 2), (1, (lbo - start) // es)) if crosses else (tile[1], 1)
            lay = Layout(((8, tile[0] // 8), k_mode[0]), ((128 // es, sbo // es), k_mode[1]), sd.swizzle_of("128B", bits))
            op = Operand(lay, bits, origin, (start - origin) // es, "A")
        else:
            major, bits = "MN", (8 if case == "mn8" else 32)
            mode = rng.choice(list(sd.WIDTH)) if case == "mn8" else sd.ATOM32
            T, W = 16 // (bits // 8), sd.mode_width(mode)
            tile = (T * W * rng.choice([1, 2, 4]), sd.instruction_k(bits))
            address = origin + 128 * rng.choice([0, 0, 3])
            truth = sd.Fields(address, 16 * rng.choice([64, 128]), 16 * rng.choice([64, 128]),
                              (address >> 7) & 7 if mode != "none" else 0, mode, "sm_100")
            d = sd.decode(truth, major, bits, tile, "sm_100")
            op = Operand(d.layout, bits, d.origin, d.offset, "A")
        if rng.random() < 0.5:
            which = rng.choice(["lbo", "sbo", "start", "lbo_mode"])
            other = {"lbo": {"lbo": truth.lbo + 16}, "sbo": {"sbo": truth.sbo * 2},
                     "start": {"start": truth.start + 16}, "lbo_mode": {"lbo_mode": 1 - truth.lbo_mode}}[which]
            desc = sd.Fields(**{**truth.__dict__, **other})
        else:
            desc = truth
        if sd.absolute_problem(desc, major) is not None:
            continue  # the absolute mode on an MN-major or 32-byte-atom operand: the encoding's to refute
        got = verdicts(Declaration("D", op, major, desc, tile))["descriptor-layout"]
        brute = sd.first_difference(desc, major, bits, tile, op.layout, op.address, op.offset)
        assert got.status == ("proved" if brute is None else "refuted"), (case, tile, truth, desc, got.message)
        if brute is not None:
            assert got.counterexample["index"] == list(brute[0])
        counts[got.status] += 1
    assert counts["proved"] > 25 and counts["refuted"] > 15, counts  # 64 and 19 at this seed
