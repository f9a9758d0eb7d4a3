"""Bad input: exit 2, one line naming the file, the place and the problem, never a traceback."""
import json
from pathlib import Path

import pytest

from tilecheck.cli import main
from tilecheck.fuzz.malformed import SEED_TEXT

GOOD = SEED_TEXT  # the documentation example, which the malformed-input fuzzer mutates too

SYM = "\n[symbols.n]\nmin = 1\n"

CASES = {  # name -> (replace old, new) in GOOD or full text, expected place, expected words
    "invalid toml": (("[tensors.A]", "[tensors.A"), "", "invalid TOML"),
    "unknown key": (('align = 16', 'align = 16\nalignment = 4'), "tensors.A", "unknown key 'alignment'"),
    "unknown top key": (('threads = 1', 'threads = 1\nthread = 2'), "file", "unknown key 'thread'"),
    "unknown dtype": (('dtype = "float32"', 'dtype = "float31"'), "tensors.A: dtype", "unknown dtype"),
    "unknown scope": (('scope = "global"', 'scope = "texture"'), "tensors.A: scope", "unknown scope"),
    "unknown apply scope": (('opcode = "ld.global.v4.b32"', 'opcode = "ld.global.v4.b32"\nscope = "grid"'),
                            "apply[0]: scope", "unknown scope"),
    "unknown thread axis": (('(8,2,120,4)"', '(8,2,120,1@lane)"'), "tensors.R: layout", "unknown thread axis"),
    "unparsable layout": (('"(15,2,7,2):(4,1,60,2)"', '"(15,2,7,2)(4,1,60,2)"'), "tensors.A: layout", "shape:stride"),
    "layout shape differs": (('"(15,2,7,2):(4,1,60,2)"', '"(15,2,7,3):(4,1,60,2)"'), "tensors.A: layout", "extent 3"),
    "layout rank differs": (('"(15,2,7,2):(4,1,60,2)"', '"(15,2,7):(4,1,60)"'), "tensors.A: layout", "3 modes"),
    "view names mismatch": (('src = "A: i b j d -> j i (d b)"', 'src = "A: i b j d -> j i (d c)"'),
                            "apply[0]: src", "not named on the left"),
    "view axis count": (('src = "A: i b j d -> j i (d b)"', 'src = "A: i b j -> j i b"'), "apply[0]: src", "names 3 axes"),
    "split does not divide": (('src = "A: i b j d -> j i (d b)"', 'src = "A: (x=4 y) b j d -> x y j (d b)"'),
                              "apply[0]: src", "do not divide"),
    "undeclared symbol": (('shape = [15, 2, 7, 2]\nlayout = "(15,2,7,2):(4,1,60,2)"', 'shape = ["m", 2, 7, 2]'),
                          "tensors.A: shape", "undeclared symbol 'm'"),
    "register symbolic shape": (None, "tensors.R: shape", "must be concrete"),
    "slice extent not concrete": (('src = "A: i b j d -> j i (d b)"', 'src = "A[0:n, :, :, :]: i b j d -> j i (d b)"'),
                                  "apply[0]: src", "no concrete extent"),
    "unknown opcode qualifier": (('opcode = "ld.global.v4.b32"', 'opcode = "ld.global.v4.b33"'), "apply[0]: opcode", ".b33"),
    "bogus cache qualifier": (('opcode = "ld.global.v4.b32"', 'opcode = "ld.global.L1::bogus.v4.b32"'),
                              "apply[0]: opcode", "L1::bogus"),
    "bad vector": (('opcode = "ld.global.v4.b32"', 'opcode = "ld.global.v3.b32"'), "apply[0]: opcode", ".v3"),
    "not ld/st": (('opcode = "ld.global.v4.b32"', 'opcode = "add.f32"'), "apply[0]: opcode", ""),
    "threads for warp scope": (('threads = 1', 'threads = 48'), "apply[0]: scope", "multiple of 32"),
    "threads out of range": (('threads = 1', 'threads = 2048'), "threads", "1..1024"),
    "unknown arch": (('arch = "sm_90"', 'arch = "sm_9000"'), "arch", ""),
    "missing apply": (None, "apply", "at least one"),
    "bad symbol range": (None, "symbols.n", "no value"),
    "bad fact": (None, "assume[0]", "comparison"),
}


def text_for(name):
    rep = CASES[name][0]
    if name == "missing apply":
        return GOOD[:GOOD.index("[[apply]]")]
    if name == "bad symbol range":
        return GOOD + '\n[symbols.n]\nmin = 5\nmax = 7\nmultiple_of = 8\n'
    if name == "bad fact":
        return 'assume = ["n + 1"]\n' + GOOD + SYM
    if name == "threads for warp scope":
        return GOOD.replace('threads = 1', 'threads = 48').replace(
            'opcode = "ld.global.v4.b32"', 'opcode = "ld.global.v4.b32"\nscope = "warp"')
    if name == "register symbolic shape":
        return GOOD.replace('scope = "register"\nshape = [15, 2, 7, 2]', 'scope = "register"\nshape = ["n", 2, 7, 2]') + SYM
    if name == "slice extent not concrete":
        return GOOD.replace(*rep) + SYM
    assert rep[0] in GOOD, name
    return GOOD.replace(*rep)


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, name):
    f = tmp_path / "case.toml"
    f.write_text(text_for(name))
    assert main(["prove", str(f)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and str(f) in lines[0]
    _, where, words = CASES[name]
    assert where in lines[0] and words in lines[0], lines[0]


def test_bad_input_json(tmp_path, capsys):
    f = tmp_path / "case.toml"
    f.write_text(text_for("unknown dtype"))
    assert main(["prove", "--json", str(f)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "error" and "unknown dtype" in out["error"]["message"]
    assert "tensors.A" in out["error"]["where"]


def test_missing_file_and_bad_flags(tmp_path, capsys):
    assert main(["prove", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["prove"])
    assert e.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_worst_status_over_files(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("x = [")
    ex = Path(__file__).parent.parent / "examples"
    assert main(["prove", str(ex / "seed.toml"), str(ex / "region_misaligned_refuted.toml"), str(bad)]) == 2
    assert main(["prove", str(ex / "seed.toml"), str(ex / "region_misaligned_refuted.toml")]) == 1


def test_register_operand_with_symbolic_slice_start(tmp_path, capsys):
    f = tmp_path / "case.toml"
    f.write_text(GOOD.replace('dst = "R: i b j d -> j i (d b)"', 'dst = "R[n:n+15, :, :, :]: i b j d -> j i (d b)"') + SYM)
    assert main(["prove", str(f)]) == 2
    err = capsys.readouterr().err
    assert "apply[0]: dst" in err and "registers statically" in err and len(err.strip().splitlines()) == 1


def test_integer_too_long_for_python(tmp_path, capsys):
    f = tmp_path / "case.toml"
    f.write_text(GOOD.replace("threads = 1", "threads = " + "9" * 5000))
    assert main(["prove", str(f)]) == 2
    err = capsys.readouterr().err
    assert "invalid TOML" in err and len(err.strip().splitlines()) == 1
