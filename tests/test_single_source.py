"""Facts kept in one place: the scope -> group table and the address widths live in
tilecheck/machine.py (the decider and the numpy reference restate them on purpose, as independent
oracles, and must agree); tests skip only for genuinely optional third-party packages."""
import re
from pathlib import Path


from tilecheck import decide, machine
from tilecheck.check import from_dict

ROOT = Path(__file__).parent.parent
ORACLES = {"tilecheck/decide.py", "tilecheck/gpu/reference.py", "tilecheck/machine.py"}
# restatements of the scope table or of the address widths
RESTATED = [r'"warp":\s*[(\[]\s*\(?\s*(32|"l"|t\s*%)', r'"cta":\s*[(\[]', r'\(\s*t\s*//\s*32\s*,\s*t\s*%\s*32\s*\)',
            r'"global":\s*2\s*\*\*\s*64', r'"warp":\s*\("lane"']


def _sources():
    for d in ("tilecheck", "bench"):
        for p in sorted((ROOT / d).rglob("*.py")):
            rel = str(p.relative_to(ROOT))
            if rel not in ORACLES:
                yield rel, p.read_text()


def test_the_scope_table_and_address_widths_are_stated_once():
    found = [f"{rel}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
             for rel, text in _sources() for pat in RESTATED for m in re.finditer(pat, text)]
    assert not found, "restated outside tilecheck/machine.py:\n" + "\n".join(found)


def test_the_pattern_catches_a_restatement():
    sample = 'GROUP = {"thread": (), "warp": (32,), "cta": (threads // 32, 32)}\nL = {"global": 2**64}'
    assert sum(bool(re.search(p, sample)) for p in RESTATED) >= 3


def test_the_deciders_restatement_agrees():
    assert decide.ADDRESS_LIMIT == machine.ADDRESS_LIMIT
    check = from_dict({"threads": 64, "tensors": {
        "A": {"dtype": "float32", "scope": "global", "shape": [64], "layout": "(64):(1)"},
        "R": {"dtype": "float32", "scope": "register", "shape": [2, 32], "layout": "(2,32):(1@warpid,1@laneid)"}},
        "apply": [{"opcode": "ld.global.b32", "scope": "cta", "dst": "R", "src": "A: (w=2 l) -> w l"}]})
    assert check.group_shape("cta") == (2, 32) and check.group_shape("warp") == (32,) == machine.group_shape("warp", 64)
    ops = decide.Operands(check, check.applies[0], {})
    assert sorted(ops.groups()) == sorted(__import__("itertools").product(range(2), range(32)))
    for t in range(64):
        assert ops.group_of_thread(t) == machine.group_of("cta", t)
    for scope in machine.APPLY_SCOPES:
        for t in range(64 if scope == "cta" else 32 if scope == "warp" else 1):
            g = machine.group_of(scope, t)
            assert len(g) == len(machine.GROUP_NAMES[scope]) and machine.thread_of(scope, g) == t


IMPORTORSKIP = re.compile(r"importorskip\(\s*[\"']([\w.]+)")
OPTIONAL = {"pycuda", "cvc5", "tensor_layouts"}  # third-party packages no extra of the test run requires


def test_only_optional_third_party_packages_are_importorskipped():
    """An ImportError of tilecheck's own modules (a broken emitter) must fail, never skip."""
    bad = []
    for p in sorted((ROOT / "tests").rglob("*.py")):
        for m in IMPORTORSKIP.finditer(p.read_text()):
            if m.group(1).split(".")[0] not in OPTIONAL:
                bad.append(f"{p.relative_to(ROOT)}: importorskip({m.group(1)!r})")
    assert not bad, bad
