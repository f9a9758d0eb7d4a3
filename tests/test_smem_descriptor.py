"""Shared-memory matrix descriptors (issue 31): the bit fields proved to round-trip for every value,
``decode`` held to an independent decoder, ``encode`` to CuTe's canonical atoms."""
import random

import pytest
import z3

from tilecheck import decide, smem_descriptor as sd
from tilecheck.layout import Layout, parse_layout


def _proved(claim) -> bool:
    s = z3.Solver()
    s.add(z3.Not(claim))
    return s.check() == z3.unsat


# the round trip, proved over every field value ---------------------------------------------------

@pytest.mark.parametrize("arch", sd.ARCHES)
def test_raw_fields_round_trip_for_every_value(arch):
    raw = {n: z3.BitVec(n, w) for n, _, w in sd.BITS[arch] if n not in sd.FIXED[arch]}
    back = sd.unpack_raw(sd.pack_raw(raw, arch), arch)
    assert _proved(z3.And([z3.Extract(w - 1, 0, back[n]) == raw[n] for n, _, w in sd.BITS[arch] if n in raw]))
    assert _proved(z3.And([back[n] == v for n, v in sd.FIXED[arch].items()]))


@pytest.mark.parametrize("arch", sd.ARCHES)
def test_every_well_formed_word_round_trips(arch):
    w = z3.BitVec("w", 64)
    raw = sd.unpack_raw(w, arch)
    well_formed = z3.And(w & sd.reserved_mask(arch) == 0, *[raw[n] == v for n, v in sd.FIXED[arch].items()])
    again = sd.pack_raw({n: v for n, v in raw.items()}, arch)
    assert _proved(z3.Implies(well_formed, again == w))
    # and a word with a reserved bit set does not: the encoding obligation's reserved-bit check is needed
    assert not _proved(again == w)


@pytest.mark.parametrize("arch", sd.ARCHES)
def test_byte_fields_round_trip_exactly_when_encodable(arch):
    start, lbo, sbo, b = (z3.BitVec(n, 64) for n in ("start", "lbo", "sbo", "b"))
    for mode in (m for m in sd.CODES[arch]):
        f = sd.Fields(start, lbo, sbo, b, mode, arch)
        raw = sd.unpack_raw(sd.pack(f), arch)
        encodable = z3.And([z3.And(x & 15 == 0, z3.ULT(x, 1 << 18)) for x in (start, lbo, sbo)] + [z3.ULT(b, 8)])
        back = z3.And(raw["start"] << 4 == start, raw["lbo"] << 4 == lbo, raw["sbo"] << 4 == sbo,
                      raw["base_offset"] == b, raw["layout_type"] == sd.CODES[arch][mode])
        assert _proved(z3.Implies(encodable, back)), mode
        assert not _proved(back)  # an unencodable value does not come back: a test that can fail


def test_the_hardware_reads_the_intended_fields_through_every_packed_word():
    """The fields the obligations read off a packed word (Z3 terms) are the intended ones for every
    encodable start/LBO/SBO/base offset, per arch and mode: so the layout read through the word is the
    fields' layout (``hardware_address`` is a function of the fields)."""
    from tilecheck.proofs.smem_descriptor import Declaration, Operand, _hardware_fields
    start, lbo, sbo, b = (z3.BitVec(n, 64) for n in ("start", "lbo", "sbo", "b"))
    encodable = z3.And([z3.And(x & 15 == 0, z3.ULT(x, 1 << 18)) for x in (start, lbo, sbo)] + [z3.ULT(b, 8)])
    cases = 0
    for arch in sd.ARCHES:
        for mode in sd.WIDTH:
            f = sd.Fields(start, lbo, sbo, b, mode, arch)
            hw, why = _hardware_fields(Declaration("D", Operand(Layout((1,), (1,)), 16), "K", f, (64, 16)))
            assert why is None and hw.swizzle == mode
            same = z3.And(hw.start == start, hw.lbo == lbo, hw.sbo == sbo, hw.base_offset == b)
            assert _proved(z3.Implies(encodable, same))
            cases += 1
    assert cases == 8


def test_encode_reads_back_the_fields_of_every_canonical_layout_for_every_field_value():
    """``read_off`` (what ``encode`` reads a declared layout with) applied to the canonical layout of
    symbolic fields gives back start, LBO and SBO, for every value (those the tile uses: a one-atom
    tile has no SBO, a K-major swizzled layout no LBO)."""
    start, lbo, sbo = (z3.BitVec(n, 64) for n in ("start", "lbo", "sbo"))
    cases = 0
    for mode in sd.WIDTH:
        for major, bits in (("K", 8), ("K", 16), ("K", 32), ("MN", 16)):
            T = 16 // (bits // 8)
            for mn in (64, 256):
                tile = (mn, sd.instruction_k(bits))
                f = sd.Fields(start, lbo, sbo, 0, mode)
                got = sd.read_off(lambda i, j: sd.hardware_address(f, major, bits, tile, i, j, swizzled=False),
                                  major, mode, bits, mn)
                want_lbo = 16 if major == "K" and mode != "none" else lbo
                want_sbo = sbo
                if major == "MN" and mode != "none" and mn <= T * sd.WIDTH[mode]:
                    want_lbo = 0  # one atom along MN: no LBO
                assert _proved(z3.And(got[0] == start, got[1] == want_lbo, got[2] == want_sbo)), (mode, major, bits, mn)
                cases += 1
    assert cases == 32


# an independent decoder: the brute-force decider's (tilecheck/decide.py, plain Python over ints from the
# PTX ISA's core matrices, no code shared with smem_descriptor.py) -----------------------------------------

independent_address = decide.independent_address


def _random_word(rng, arch):
    mode = rng.choice(["none", "32B", "64B", "128B"])
    f = sd.Fields(16 * rng.randrange(1 << 14), 16 * rng.randrange(1 << 14), 16 * rng.randrange(1 << 14),
                  rng.randrange(8) if mode != "none" else 0, mode, arch)
    return sd.pack(f)


def test_decode_agrees_with_an_independent_decoder_on_random_descriptors():
    rng = random.Random(31)
    descriptors = elements = 0
    for _ in range(300):
        arch = rng.choice(sd.ARCHES)
        word = _random_word(rng, arch)
        major, bits = rng.choice([("K", 8), ("K", 16), ("K", 32), ("MN", 16)])
        mode = sd.unpack(word, arch).swizzle
        step = 8 if major == "K" else (16 // (bits // 8)) * sd.WIDTH[mode]
        mn = step * rng.randrange(1, max(2, 128 // step + 1))
        tile = (mn, sd.instruction_k(bits))
        d = sd.decode(word, major, bits, tile, arch)
        for i in range(tile[0]):
            for j in range(tile[1]):
                assert d.address(i, j) == independent_address(word, arch, major, bits, i, j), (hex(word), major, bits, i, j)
                elements += 1
        descriptors += 1
    assert descriptors == 300 and elements > 300_000  # 382,848 at this seed


def test_decode_prints_cutes_canonical_atoms():
    # K-major 128B, 16-bit: CuTe's Layout_K_SW128_Atom<half_t> is Sw<3,4,3> o smem_ptr[16b] o (_8,_64):(_64,_1);
    # the swizzle on element offsets is Sw<3,3,3>.  One instruction (K = 16) of a 64-row tile:
    d = sd.decode(sd.Fields(0, 16, 1024, 0, "128B"), "K", 16, (64, 16))
    assert str(d.layout) == "Sw<3,3,3> o ((8,8),(8,2)):((64,512),(1,8))"
    atom = parse_layout("Sw<3,3,3> o (8,64):(64,1)")
    assert all(d.layout((i, j))[""] == atom((i, j))[""] for i in range(8) for j in range(16))
    d = sd.decode(sd.Fields(0, 16, 256, 0, "32B"), "K", 8, (16, 32))  # Sw<1,4,3> on bytes: 8-bit elements
    assert str(d.layout) == "Sw<1,4,3> o ((8,2),(16,2)):((32,256),(1,16))"
    d = sd.decode(sd.Fields(0, 128, 256, 0, "none"), "K", 32, (16, 8))  # tf32 core matrices
    assert str(d.layout) == "((8,2),(4,2)):((4,64),(1,32))"


# encode ------------------------------------------------------------------------------------------

def _tiled_atom(major, mode, bits, mn):
    """CuTe's tile_to_shape(Layout_{major}_{mode}_Atom<T>, (MN, K)) for one instruction's K (atoms
    stacked along MN), in element offsets with tilecheck's swizzle."""
    e = {8: 0, 16: 1, 32: 2}[bits]
    T, W = 16 >> e, sd.WIDTH[mode]
    k = sd.instruction_k(bits)
    sw = sd.swizzle_of(mode, bits)
    if major == "K":
        row = T * W  # elements per swizzle row
        lay = Layout(((8, mn // 8), k), ((row, 8 * row), 1), sw) if mode != "none" else \
            Layout(((8, mn // 8), (T, 2)), ((T, 8 * T), (1, mn * T)), None)
    else:
        atom = T * W
        if mode == "none":
            lay = Layout(((T, mn // T), (8, 2)), ((1, 8 * T), (T, mn * 8)), None)
        else:
            lay = Layout(((atom, max(1, mn // atom)), (8, 2)), ((1, atom * 8), (atom, atom * 8 * max(1, mn // atom))), sw)
    return lay


@pytest.mark.parametrize("arch", sd.ARCHES)
def test_encode_reads_every_canonical_atom_and_decode_gives_it_back(arch):
    count = 0
    for mode in sd.WIDTH:
        for major, bits in (("K", 8), ("K", 16), ("K", 32), ("MN", 16)):
            step = 8 if major == "K" else (16 // (bits // 8)) * sd.WIDTH[mode]
            for mn in sorted({step, 2 * step, 128}):
                tile = (mn, sd.instruction_k(bits))
                lay = _tiled_atom(major, mode, bits, mn)
                for address in (0, 3072):
                    got = sd.encode(lay, major, bits, tile, address=address, arch=arch)
                    assert got.fields is not None, (mode, major, bits, mn, got.reason)
                    assert got.fields.swizzle == mode
                    d = sd.decode(sd.pack(got.fields), major, bits, tile, arch)
                    assert all(d.address(i, j) == sd.declared_address(lay, bits, address, 0, i, j)
                               for i in range(mn) for j in range(tile[1]))
                    again = sd.encode(Layout(d.layout.shape, d.layout.stride, d.layout.swizzle), major, bits, tile,
                                      address=d.origin, offset=d.offset, arch=arch)
                    assert again.fields == got.fields or mn <= step  # LBO/SBO unused by a one-atom tile
                    count += 1
    assert count == 94  # 4 modes x 4 (major, width) x 2 or 3 tile heights x 2 addresses


def test_encode_says_why_no_descriptor_reads_a_layout():
    row_major = parse_layout("(64,16):(16,1)")  # 32-byte rows: not 16-byte core-matrix rows
    got = sd.encode(row_major, "K", 16, (64, 16))
    assert got.fields is None and "element (1,0)" in got.reason and "byte 32" in got.reason
    got = sd.encode(parse_layout("Sw<3,4,3> o (64,64):(64,1)"), "K", 16, (64, 16))  # CuTe's byte swizzle, as elements
    assert got.fields is None and "no descriptor mode for 16-bit" in got.reason
    got = sd.encode(parse_layout("Sw<3,3,3> o (64,64):(64,1)"), "K", 16, (64, 16), address=8)
    assert got.fields is None and "start address = 8" in got.reason
    got = sd.encode(parse_layout("(64,32):(32,1)"), "MN", 8, (64, 32))
    assert got.fields is None and "16-bit only" in got.reason


def test_decode_refuses_what_it_does_not_model():
    with pytest.raises(ValueError, match="invalid on sm_100"):
        sd.unpack(3 << 61, "sm_100")
    with pytest.raises(ValueError, match="K = 16"):
        sd.decode(sd.Fields(0, 16, 1024, 0, "128B"), "K", 16, (64, 32))
    # the absolute LBO mode's restrictions (PTX ISA): 128B swizzle with 16-byte atoms, K-major, base offset 0
    with pytest.raises(ValueError, match="needs the 128B swizzle"):
        sd.decode(sd.Fields(0, 16, 1024, 0, "64B", "sm_100", 1), "K", 16, (64, 16))
    with pytest.raises(ValueError, match="K-major only"):
        sd.decode(sd.Fields(0, 16, 1024, 0, "128B", "sm_100", 1), "MN", 16, (64, 16))
    with pytest.raises(ValueError, match="base offset 0"):
        sd.decode(sd.Fields(0, 16, 1024, 2, "128B", "sm_100", 1), "K", 16, (64, 16))
    # tcgen05's valid combinations of major-ness, swizzle and width
    with pytest.raises(ValueError, match="no K-major layout"):
        sd.decode(sd.Fields(0, 16, 1024, 0, "128B_base32B", "sm_100"), "K", 32, (64, 8))
    with pytest.raises(ValueError, match="only the 128B swizzle with 32-byte atoms"):
        sd.decode(sd.Fields(0, 16, 1024, 0, "128B", "sm_100"), "MN", 32, (64, 8))
    with pytest.raises(ValueError, match="16-bit only"):  # wgmma: no MN-major 8-bit
        sd.decode(sd.Fields(0, 16, 1024, 0, "128B"), "MN", 8, (128, 32))


# tcgen05's instruction descriptor ----------------------------------------------------------------

def test_instruction_descriptor_fields_round_trip_for_every_value():
    raw = {n: z3.BitVec(n, w) for n, _, w in sd.IDESC_BITS}
    back = sd.unpack_idesc(sd.pack_idesc(raw))
    assert _proved(z3.And([z3.Extract(w - 1, 0, back[n]) == raw[n] for n, _, w in sd.IDESC_BITS]))
    assert sd.pack_idesc({"m_dim": 128 >> 4, "n_dim": 256 >> 3}) == (8 << 24) | (32 << 17)


def test_instruction_shapes():
    # PTX ISA Table 39 (A and B from descriptors): cta_group::1 N steps of 8 for M = 64 and 128 alike
    # (CUTLASS's SM100_MMA_F16BF16_SS); M = 128 with N a multiple of 16 is the A-from-tensor-memory form's rule
    ok = [(m, n) for m in (32, 64, 128, 256) for n in range(0, 264, 8) if sd.idesc_shape_ok(m, n) is None]
    assert len(ok) == 32 + 32 and (64, 8) in ok and (128, 8) in ok and (256, 256) not in ok
    ok2 = [(m, n) for m in (64, 128, 256) for n in range(0, 264, 8) if sd.idesc_shape_ok(m, n, 2) is None]
    assert len(ok2) == 16 + 16 and (128, 8) not in ok2
    assert sd.idesc_shape_ok(256, 256, cta_group=2) is None


# tcgen05's own modes: 128B with 32-byte atoms, the absolute LBO mode, MN-major 8-bit -------------

def test_tcgen05_lbo_mode_round_trips_for_every_value():
    start, lbo, sbo, b, m = (z3.BitVec(n, 64) for n in ("start", "lbo", "sbo", "b", "m"))
    for mode in sd.CODES["sm_100"]:
        raw = sd.unpack_raw(sd.pack(sd.Fields(start, lbo, sbo, b, mode, "sm_100", m)), "sm_100")
        assert _proved(z3.Implies(z3.ULT(m, 2), raw["lbo_mode"] == m))
        assert not _proved(raw["lbo_mode"] == m)  # a value past one bit is lost: the encoding obligation refutes it


def test_the_hardware_reads_the_intended_fields_of_tcgen05_words():
    """As the test above, for tcgen05's 128B-with-32-byte-atoms mode and both LBO modes."""
    from tilecheck.proofs.smem_descriptor import Declaration, Operand, _hardware_fields
    start, lbo, sbo, b = (z3.BitVec(n, 64) for n in ("start", "lbo", "sbo", "b"))
    encodable = z3.And([z3.And(x & 15 == 0, z3.ULT(x, 1 << 18)) for x in (start, lbo, sbo)] + [z3.ULT(b, 8)])
    for mode, lbo_mode in [(m, 0) for m in sd.MODES["sm_100"]] + [("128B", 1)]:
        f = sd.Fields(start, lbo, sbo, b, mode, "sm_100", lbo_mode)
        hw, why = _hardware_fields(Declaration("D", Operand(Layout((1,), (1,)), 32), "MN", f, (64, 8)))
        assert why is None and hw.swizzle == mode and hw.lbo_mode == lbo_mode
        assert _proved(z3.Implies(encodable, z3.And(hw.start == start, hw.lbo == lbo, hw.sbo == sbo,
                                                    hw.base_offset == b)))


def test_encode_reads_back_tcgen05_fields_for_every_field_value():
    """``read_off`` inverts the canonical layouts tcgen05 adds (MN-major 8-bit in every 16-byte-atom
    mode, MN-major tf32 in 128B with 32-byte atoms), for every start, LBO and SBO (Z3); and in the
    absolute LBO mode, the start, SBO and the address where K continues are read back for every
    16-byte-aligned start, LBO and SBO."""
    start, lbo, sbo = (z3.BitVec(n, 64) for n in ("start", "lbo", "sbo"))
    cases = 0
    for mode, bits in [(m, 8) for m in sd.WIDTH] + [(sd.ATOM32, 32)]:
        T, W = 16 // (bits // 8), sd.mode_width(mode)
        for mn in (T * W, 4 * T * W):
            tile = (mn, sd.instruction_k(bits))
            f = sd.Fields(start, lbo, sbo, 0, mode, "sm_100")
            got = sd.read_off(lambda i, j: sd.hardware_address(f, "MN", bits, tile, i, j, swizzled=False),
                              "MN", mode, bits, mn)
            want_lbo = 0 if mode != "none" and mn <= T * W else lbo
            want_sbo = 0 if mode == "none" and mn <= T else sbo
            assert _proved(z3.And(got[0] == start, got[1] == want_lbo, got[2] == want_sbo)), (mode, bits, mn)
            cases += 1
    for bits in (8, 16, 32):
        for kbytes in (32, 48):
            e = {8: 0, 16: 1, 32: 2}[bits]
            tile = (64, kbytes >> e)
            f = sd.Fields(start, lbo, sbo, 0, "128B", "sm_100", 1)
            u = lambda i, j: sd.hardware_address(f, "K", bits, tile, i, j, swizzled=False)
            split = z3.LShR(128 - (start & 127), e)  # K elements before start's 128-byte boundary
            claim = z3.And(u(0, 0) == start, u(8, 0) - u(0, 0) == sbo,
                           z3.Implies(z3.ULT(split, tile[1]), u(0, split) == lbo))
            assert _proved(z3.Implies(start & 15 == 0, claim)), (bits, kbytes)
            cases += 1
    assert cases == 10 + 6


def _random_tcgen05(rng):
    """A random tcgen05 descriptor and the operand it reads: (word, major, bits, tile)."""
    kind = rng.choice(["mn8", "atom32", "absolute"])
    r16 = lambda: 16 * rng.randrange(1 << 14)
    if kind == "mn8":
        mode = rng.choice(list(sd.WIDTH))
        f = sd.Fields(r16(), r16(), r16(), rng.randrange(8) if mode != "none" else 0, mode, "sm_100")
        step = 16 * sd.WIDTH[mode]
        return sd.pack(f), "MN", 8, (step * rng.randrange(1, 5), 32)
    if kind == "atom32":
        f = sd.Fields(r16(), r16(), r16(), rng.randrange(8), sd.ATOM32, "sm_100")
        return sd.pack(f), "MN", 32, (32 * rng.randrange(1, 5), 8)
    bits = rng.choice([8, 16, 32])
    kbytes = rng.choice([32, 48])
    f = sd.Fields(r16(), r16(), r16(), 0, "128B", "sm_100", 1)
    return sd.pack(f), "K", bits, (8 * rng.randrange(1, 17), kbytes // (bits // 8))


def test_decode_agrees_with_an_independent_decoder_on_tcgen05_modes():
    rng = random.Random(100)
    counts, elements = {}, 0
    for _ in range(300):
        word, major, bits, tile = _random_tcgen05(rng)
        d = sd.decode(word, major, bits, tile, "sm_100")
        for i in range(tile[0]):
            for j in range(tile[1]):
                assert d.address(i, j) == independent_address(word, "sm_100", major, bits, i, j), \
                    (hex(word), major, bits, tile, i, j)
                elements += 1
        key = "absolute" if (word >> 52) & 1 else sd.unpack(word, "sm_100").swizzle
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == {*sd.MODES["sm_100"], "absolute"} and elements > 150_000, (counts, elements)


def test_128b_with_32_byte_atoms_is_the_ptx_figure_and_cutes_atom():
    """One atom of tf32 MN-major (32 x 4 elements, 512 bytes): the 16-byte cell each (MN chunk, K row)
    is read from is PTX ISA Figure 219's (K row k's cells XOR 2k: 32-byte units swapped), and every
    element is where CuTe's ``Layout_MN_SW128_32B_Atom<tf32>`` (``Swizzle<2,5,2>`` on bytes,
    ``(32,4):(1,32)``) puts it."""
    d = sd.decode(sd.Fields(0, 0, 512, 0, sd.ATOM32, "sm_100"), "MN", 32, (32, 8))
    cells = [[d.address(4 * r, k) // 16 for k in range(4)] for r in range(8)]
    assert cells == [[0, 10, 20, 30], [1, 11, 21, 31], [2, 8, 22, 28], [3, 9, 23, 29],
                     [4, 14, 16, 26], [5, 15, 17, 27], [6, 12, 18, 24], [7, 13, 19, 25]]
    atom = parse_layout("Sw<2,3,2> o (32,8):(1,32)")  # CuTe's atom, two of them along K, on tf32 offsets
    assert all(d.address(i, j) == 4 * atom((i, j))[""] for i in range(32) for j in range(8))
    assert str(d.layout) == "Sw<2,3,2> o ((4,8,1),(4,2)):((1,4,0),(32,128))"


def test_encode_reads_tcgen05_tiles_and_decode_gives_them_back():
    """``encode`` finds the descriptor of CuTe's tcgen05 tiles -- MN-major tf32 atoms of 128B with
    32-byte atoms stacked along MN then K, MN-major 8-bit atoms, and a K-major 128B tile whose K slice
    crosses into the next atom (the absolute LBO mode: relative, no descriptor reads it)."""
    count = 0
    for mn in (32, 64, 128):  # tf32: atoms of 32 x 4 elements, MN first (LBO 512 B), then K (SBO)
        n = mn // 32
        lay = Layout(((32, n), (4, 2)), ((1, 128), (32, 128 * n)), sd.swizzle_of(sd.ATOM32, 32))
        got = sd.encode(lay, "MN", 32, (mn, 8), address=2048, arch="sm_100")
        assert got.fields is not None and got.fields.swizzle == sd.ATOM32, got.reason
        assert got.fields.sbo == 512 * n and got.fields.lbo == (512 if n > 1 else 0)
        d = sd.decode(sd.pack(got.fields), "MN", 32, (mn, 8), "sm_100")
        assert all(d.address(i, j) == sd.declared_address(lay, 32, 2048, 0, i, j) for i in range(mn) for j in range(8))
        assert sd.encode(lay, "MN", 32, (mn, 8), address=2048).fields is None  # no such mode on sm_90
        count += 1
    for mode in sd.WIDTH:  # 8-bit MN-major: 16 x W elements an atom row, 8 rows, K = 32 rows
        T, W = 16, sd.WIDTH[mode]
        mn = 2 * T * W
        lay = Layout(((T * W, 2), (8, 4)), ((1, T * W * 8), (T * W, T * W * 8 * 2)), sd.swizzle_of(mode, 8)) \
            if mode != "none" else Layout(((T, 2), (8, 4)), ((1, 8 * T), (T, 16 * T)), None)
        got = sd.encode(lay, "MN", 8, (mn, 32), arch="sm_100")
        assert got.fields is not None, (mode, got.reason)
        d = sd.decode(sd.pack(got.fields), "MN", 8, (mn, 32), "sm_100")
        assert all(d.address(i, j) == sd.declared_address(lay, 8, 0, 0, i, j) for i in range(mn) for j in range(32))
        assert "16-bit only" in sd.encode(lay, "MN", 8, (mn, 32)).reason  # wgmma has no MN-major 8-bit
        count += 1
    # K-major f16, 128B: two atoms along K 8192 B apart; the K step starting at column 56 crosses
    lay = parse_layout("Sw<3,3,3> o (64,(8,2)):(64,(1,4040))")
    got = sd.encode(lay, "K", 16, (64, 16), offset=56, arch="sm_100", lbo_mode=1)
    assert got.fields == sd.Fields(112, 8192, 1024, 0, "128B", "sm_100", 1)
    d = sd.decode(sd.pack(got.fields), "K", 16, (64, 16), "sm_100")
    assert d.split == 8 and all(d.address(i, j) == sd.declared_address(lay, 16, 0, 56, i, j)
                                for i in range(64) for j in range(16))
    relative = sd.encode(lay, "K", 16, (64, 16), offset=56, arch="sm_100")
    assert relative.fields is None and "element (0,8) at byte 144" in relative.reason
    assert "base offset 0" in sd.encode(lay, "K", 16, (64, 16), address=128, offset=56, arch="sm_100",
                                        lbo_mode=1).reason
    assert count == 7
