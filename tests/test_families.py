"""Instruction families are declarations: ld/st's roles, keys, atom and emit hook drive the model."""
import pytest

from tilecheck import families
from tilecheck.check import from_dict
from tilecheck.errors import InputError
from tilecheck.families import MEMORY, REGISTER
from tilecheck.families.ldst import FAMILY as LDST
from tilecheck.families.ldst import parse


def check(opcode, **more):
    load = opcode.startswith("ld")
    return from_dict({"tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [8], "align": 16},
                                  "R": {"dtype": "float32", "scope": "register", "shape": [8]}},
                      "apply": [{"opcode": opcode, "dst": "R: (i w=4) -> i w" if load else "A: (i w=4) -> i w",
                                 "src": "A: (i w=4) -> i w" if load else "R: (i w=4) -> i w", **more}]})


@pytest.mark.parametrize("op,memory", [("ld.global.v4.b32", "src"), ("st.global.v4.b32", "dst")])
def test_ldst_roles_say_which_operand_is_memory(op, memory):
    dst, src = LDST.roles(parse(op))
    assert {r.name: r.kind for r in (dst, src)}[memory] == MEMORY
    assert {dst.kind, src.kind} == {MEMORY, REGISTER}
    a = check(op).applies[0]
    assert a.family is LDST and a.memory is getattr(a, memory) and a.is_load == (memory == "src")


def test_the_issuing_thread_holds_its_whole_vector():
    for role in LDST.roles(parse("ld.global.v4.b32")):
        assert role.holds is None and role.origin is None and role.words == 0  # ld/st: its own vector
    assert LDST.atom(parse("st.shared.v2.b64")) == 2


@pytest.mark.parametrize("text", ["ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                                  "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
                                  "stmatrix.sync.aligned.m8n8.x1.shared.b16"])
def test_ldmatrix_rows_cross_lanes(text):
    """Each (lane, word) is one element of one row; every row of every matrix is held 8 times, once
    per column; ``origin`` of a row's lane is where its column 0 is held."""
    from tilecheck.crd2idx import Ints
    from tilecheck.families import FAMILIES
    op = families.parse(text)
    fam = FAMILIES[op.kind]
    mem = next(r for r in fam.roles(op) if r.holds is not None)
    dom, seen = Ints(), set()
    for t in range(32):
        for k in range(op.vector):
            (lane,), col = mem.holds([t], k, dom)
            assert 0 <= lane < 8 * op.num and 0 <= col < 8
            seen.add((lane, col))
            (t0,), k0 = mem.origin([lane], dom)
            assert mem.holds([t0], k0, dom) == ([lane], 0)
    assert len(seen) == 64 * op.num


def test_family_keys_become_apply_options_and_are_validated():
    a = check("ld.global.L2::cache_hint.v4.b32", pred=True, cache_policy=True).applies[0]
    assert (a.pred, a.cache_policy, a.preserve_dst) == (True, True, False)
    with pytest.raises(InputError, match="pred: must be true or false"):
        check("ld.global.v4.b32", pred=1)
    with pytest.raises(InputError, match="unknown key 'bogus'"):
        check("ld.global.v4.b32", bogus=True)


def test_the_operands_rule_is_the_family_s():
    a = check("st.global.v4.b32", pred=True, preserve_dst=True).applies[0]
    assert LDST.operand_problem(a) == "preserve_dst needs a predicated or guarded load (pred = true or guard = true on an ld)"
    assert LDST.operand_problem(check("ld.global.v4.b32", pred=True, preserve_dst=True).applies[0]) is None


def test_emit_hook_spells_loads_and_stores():
    ld = check("ld.global.v4.b32", pred=True).applies[0]
    st = check("st.global.L2::cache_hint.v4.b32", cache_policy=True).applies[0]
    assert LDST.instruction(ld, "{%r0}", "[%rd1]", "%p", "%q") == "\t@%p ld.global.v4.b32 {%r0}, [%rd1];"
    assert LDST.instruction(st, "{%r0}", "[%rd1]", "%p", "%q") == "\tst.global.L2::cache_hint.v4.b32 [%rd1], {%r0}, %q;"


def test_unknown_instruction_names_the_families():
    with pytest.raises(ValueError, match=r"unknown instruction 'mov' in 'mov\.b32': expected ld(,| or) st"):
        families.parse("mov.b32")
