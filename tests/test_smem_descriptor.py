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
    with pytest.raises(ValueError, match="absolute LBO"):
        sd.decode(sd.Fields(0, 16, 1024, 0, "128B", "sm_100", 1), "K", 16, (64, 16))


# tcgen05's instruction descriptor ----------------------------------------------------------------

def test_instruction_descriptor_fields_round_trip_for_every_value():
    raw = {n: z3.BitVec(n, w) for n, _, w in sd.IDESC_BITS}
    back = sd.unpack_idesc(sd.pack_idesc(raw))
    assert _proved(z3.And([z3.Extract(w - 1, 0, back[n]) == raw[n] for n, _, w in sd.IDESC_BITS]))
    assert sd.pack_idesc({"m_dim": 128 >> 4, "n_dim": 256 >> 3}) == (8 << 24) | (32 << 17)


def test_instruction_shapes():
    ok = [(m, n) for m in (32, 64, 128, 256) for n in range(0, 264, 8) if sd.idesc_shape_ok(m, n) is None]
    assert len(ok) == 32 + 16 and (64, 8) in ok and (128, 8) not in ok and (256, 256) not in ok
    assert sd.idesc_shape_ok(256, 256, cta_group=2) is None
