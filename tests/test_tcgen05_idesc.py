"""tcgen05's instruction descriptor (issue 31 item 6): the fields round-trip for every value (Z3),
encode/decode are inverse on every legal descriptor, the obligations (Z3) agree with the model's
plain-Python rules on random words, and the rules are PTX ISA Tables 39 and 42's."""
import itertools
import random

import z3

from tilecheck import tcgen05_idesc as td
from tilecheck.proofs import tcgen05_idesc as pi


def _proved(claim) -> bool:
    s = z3.Solver()
    s.add(z3.Not(claim))
    return s.check() == z3.unsat


def test_fields_round_trip_for_every_value():
    raw = {n: z3.BitVec(n, w) for n, _, w in td.BITS}
    back = td.unpack_raw(td.pack_raw(raw))
    assert _proved(z3.And([z3.Extract(w - 1, 0, back[n]) == raw[n] for n, _, w in td.BITS]))
    w = z3.BitVec("w", 32)
    again = td.pack_raw(td.unpack_raw(w))
    assert _proved(z3.Implies(w & td.RESERVED_MASK == 0, again == w))
    assert not _proved(again == w)  # a reserved bit does not survive: idesc-fields' check is needed
    assert td.RESERVED_MASK == (1 << 6) | (1 << 23) | (1 << 29)


def test_the_bits_are_the_ptx_tables():
    # PTX Table 42 positions: D type 4-5, A 7-9, B 10-12, transpose A/B 15/16, N >> 3 at 17-22, M >> 4 at 24-28
    got = td.encode(td.Idesc("f16", 128, 256, "f32", "bf16", "bf16"))
    assert got == (1 << 4) | (1 << 7) | (1 << 10) | (32 << 17) | (8 << 24) == 0x08400490
    got = td.encode(td.Idesc("tf32", 64, 8, "f32", "tf32", "tf32", a_major="MN", b_major="MN", a_negate=1))
    assert got == (1 << 4) | (2 << 7) | (2 << 10) | (1 << 13) | (1 << 15) | (1 << 16) | (1 << 17) | (4 << 24)
    got = td.encode(td.Idesc("i8", 128, 16, "s32", "s8", "u8", saturate=1))
    assert got == (1 << 3) | (2 << 4) | (1 << 7) | (0 << 10) | (2 << 17) | (8 << 24)
    got = td.encode(td.Idesc("f8f6f4", 256, 256, "f32", "e2m1", "e3m2"))
    assert td.unpack_raw(got)["a_format"] == 5 and td.unpack_raw(got)["b_format"] == 4


def _legal_meanings():
    for kind in td.KINDS:
        for group in td.CTA_GROUPS:
            for m in (32, 64, 128, 256):
                for n in range(8, 257, 8):
                    if td.shape_problem(kind, m, n, group) is not None:
                        continue
                    for d, a, b, am, bm in itertools.product(td.D_FORMATS[kind], td.AB_FORMATS[kind],
                                                             td.AB_FORMATS[kind], td.MAJORS, td.MAJORS):
                        yield group, td.Idesc(kind, m, n, d, a, b, am, bm)


def test_encode_decode_round_trip_on_every_legal_descriptor():
    legal = illegal = 0
    for group, x in _legal_meanings():
        word = td.encode(x)
        if td.problems(word, x.kind, group, x.m, x.n):
            illegal += 1  # a .f16 D with bf16, a transposed fp6/fp4 operand: encodable, refuted
            continue
        assert td.decode(word, x.kind) == x
        legal += 1
    # shapes: 96 for f16/tf32/f8f6f4 (64 + 32), 50 for i8 (34 + 16).  Per shape: f16 20 legal of 32
    # (D f32 with any A, B; D f16 with f16 A, B only; x 4 majors), tf32 4, f8f6f4 98 of 200 (2 D x 7 x 7:
    # a transposed operand is e4m3/e5m2 of 5 types), i8 16.  Legal: 96 (20 + 4 + 98) + 50 * 16 = 12,512;
    # illegal: 96 (12 + 102) = 10,944.
    assert legal == 12_512 and illegal == 10_944, (legal, illegal)


def test_shapes_per_kind_and_cta_group():
    def count(kind, group):
        return sum(td.shape_problem(kind, m, n, group) is None for m in (32, 64, 128, 256) for n in range(0, 264, 8))
    # PTX Table 39: cta_group::1 M 64, 128 with N = 8..256 step 8; ::2 M 128, 256 with N = 16..256 step 16
    for kind in ("f16", "tf32", "f8f6f4"):
        assert (count(kind, 1), count(kind, 2)) == (64, 32)
    assert (count("i8", 1), count("i8", 2)) == (2 * 17, 2 * 8)  # CUTLASS: N = 8 or 16k; 32k on cta_group::2
    assert "multiple of 16" in td.shape_problem("f16", 128, 8, 2)
    assert "no tcgen05.mma.cta_group::1 M" in td.shape_problem("f16", 256, 64, 1)


def _random_word(rng):
    """A word near a legal one: a legal meaning's word with 0-2 random bits flipped."""
    kind = rng.choice(td.KINDS)
    x = td.Idesc(kind, rng.choice((64, 128, 256)), 8 * rng.randrange(1, 33), rng.choice(list(td.D_FORMATS[kind])),
                 rng.choice(list(td.AB_FORMATS[kind])), rng.choice(list(td.AB_FORMATS[kind])),
                 rng.choice(td.MAJORS), rng.choice(td.MAJORS))
    word = td.encode(x)
    for _ in range(rng.choice((0, 0, 1, 2))):
        word ^= 1 << rng.randrange(32)
    return kind, word, x.m, x.n


def test_the_obligations_agree_with_the_rules_on_random_words():
    """Z3's verdict on each obligation equals the plain-Python rules (``problems``) on 400 random words
    (each kind and cta_group, legal or a few bits off): refuted exactly when a rule of its fields is
    broken, the refutation naming the rule's first field."""
    rng = random.Random(6)
    verdicts = {"proved": 0, "refuted": 0}
    for _ in range(400):
        kind, word, m, n = _random_word(rng)
        group = rng.choice(td.CTA_GROUPS)
        probs = td.problems(word, kind, group, m, n)
        for out in pi.decide(pi.Instruction("I", kind, word, group, m, n)):
            fields = {f for f, _ in probs if f in _FIELDS[out.name]}
            assert out.status == ("refuted" if fields else "proved"), (kind, hex(word), group, out, probs)
            if fields:
                assert out.counterexample["field"] == next(f for f, _ in probs if f in _FIELDS[out.name])
            verdicts[out.status] += 1
    assert verdicts["proved"] > 300 and verdicts["refuted"] > 200, verdicts


_FIELDS = {"idesc-fields": {"reserved", "sparse_id2", "saturate", "a_negate", "b_negate", "max_shift"},
           "idesc-formats": {"d_format", "a_format", "b_format", "a_major", "b_major"},
           "idesc-shape": {"m_dim", "n_dim"}}


def test_symbolic_shapes():
    n = z3.BitVec("n", 64)
    word = td.pack_raw({"d_format": 1, "a_format": 1, "b_format": 1, "m_dim": 8, "n_dim": z3.LShR(n, 3)})
    facts = (z3.UGE(n, 8), z3.ULE(n, 256), n & 7 == 0)
    assert [o.status for o in pi.decide(pi.Instruction("I", "f16", word, 1, 128, n, facts))] == ["proved"] * 3
    out = pi.decide(pi.Instruction("I", "f16", word, 2, 128, n, facts), ["idesc-shape"])[0]
    assert out.status == "refuted" and out.counterexample["symbols"] == {"n": 8}  # cta_group::2: N steps of 16
    out = pi.decide(pi.Instruction("I", "f16", word, 1, 128, n, (z3.UGE(n, 8), z3.ULE(n, 256))), ["idesc-shape"])[0]
    assert out.status == "refuted" and out.counterexample["symbols"] == {"n": 9}  # n >> 3 drops N's low bits
    assert "encodes as nothing: N is no multiple of 8" in out.message
    m = z3.BitVec("m", 64)  # M = 512 overflows the 5-bit field: m_dim 0
    word = td.pack_raw({"d_format": 1, "m_dim": z3.LShR(m, 4), "n_dim": 8})
    out = pi.decide(pi.Instruction("I", "f16", word, 2, m, 64, (z3.Or(m == 256, m == 512),)), ["idesc-shape"])[0]
    assert out.status == "refuted" and out.counterexample["symbols"] == {"m": 512} and "M = 0" in out.message


def test_decode_names_the_bad_field():
    import pytest
    with pytest.raises(ValueError, match="a_format 2 is no kind::f16 type"):
        td.decode((1 << 4) | (2 << 7), "f16")
    with pytest.raises(ValueError, match="reserved bits 0x00800000"):
        td.decode(1 << 23, "f16")
    with pytest.raises(ValueError, match="d_format 1 is no kind::i8 type"):
        td.decode(1 << 4, "i8")
