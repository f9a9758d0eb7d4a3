"""``tilecheck emit``: writes PTX only for proved files; exit 1 refuted, 3 unknown, 2 bad input."""
from pathlib import Path

import z3

from tilecheck.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples"
SEED = str(EXAMPLES / "seed.toml")


def test_kernel_to_a_file(tmp_path, capsys):
    out = tmp_path / "k.ptx"
    assert main(["emit", SEED, "--kernel", "-o", str(out)]) == 0
    text = out.read_text()
    assert ".version 7.8\n.target sm_90\n.address_size 64" in text and ".visible .entry tilecheck_kernel(" in text
    assert capsys.readouterr().out == ""


def test_fragments_to_stdout_and_arch_override(capsys):
    assert main(["emit", str(EXAMPLES / "symbolic_tile.toml"), "--arch", "sm_100a"]) == 0
    out = capsys.readouterr().out
    assert "needs .version 8.6, .target sm_100a" in out
    assert out.count("\tld.global.nc.v4.b16 ") == 16 and "%base_X" in out and "%sym_k" in out
    assert ".entry" not in out
    assert main(["emit", SEED, "--kernel", "--arch", "sm_80", "--name", "seed"]) == 0
    out = capsys.readouterr().out
    assert ".target sm_80" in out and ".entry seed(" in out


def test_refuted_is_refused_with_exit_1_and_the_refutation(tmp_path, capsys):
    out = tmp_path / "k.ptx"
    assert main(["emit", str(EXAMPLES / "region_misaligned_refuted.toml"), "--kernel", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "refuted: nothing emitted" in err and "alignment refuted" in err
    assert not out.exists()


def test_unknown_is_refused_with_exit_3(monkeypatch, capsys):
    real = z3.Solver.check

    def gives_up(self, *a):
        real(self, *a)
        return z3.unknown
    monkeypatch.setattr(z3.Solver, "check", gives_up)
    assert main(["emit", SEED, "--kernel", "--timeout", "0.5"]) == 3
    captured = capsys.readouterr()
    assert "unknown: nothing emitted" in captured.err and captured.out == ""


def test_bad_input_is_exit_2_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[tensors.A]\ndtype = "float33"\n')
    for argv in (["emit", str(bad)], ["emit", str(tmp_path / "missing.toml")], ["emit", SEED, "--arch", "sm_1"],
                 ["emit", SEED, "--kernel", "--name", "no spaces"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("tilecheck: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_a_proved_plan_the_emitter_cannot_place_is_exit_2(tmp_path, capsys):
    # a local (per-thread) array needs a concrete size; shared ones of symbolic size are dynamic
    f = tmp_path / "sym_local.toml"
    f.write_text('[symbols.n]\nmin = 2\nmax = 64\n'
                 '[tensors.S]\ndtype = "float32"\nscope = "local"\nshape = ["n", 4]\nalign = 16\n'
                 '[tensors.R]\ndtype = "float32"\nscope = "register"\nshape = [2, 4]\n'
                 '[[apply]]\nopcode = "ld.local.v4.b32"\ndst = "R"\nsrc = "S[0:2, :]"\n')
    assert main(["emit", str(f), "--kernel"]) == 2
    err = capsys.readouterr().err
    assert "its size depends on symbol n" in err and err.count("\n") == 1
    assert main(["emit", str(f)]) == 0  # fragments allocate nothing


def test_kernel_unchecked_takes_only_refuted_reports():
    import pytest
    import tilecheck
    from tilecheck.emit import kernel_unchecked
    from pathlib import Path
    ex = Path(__file__).parent.parent / "examples"
    refuted = tilecheck.prove(tilecheck.load(ex / "region_misaligned_refuted.toml"))
    assert kernel_unchecked(refuted).count("ld.global.v4.b32") == 8
    with pytest.raises(PermissionError):
        kernel_unchecked(tilecheck.prove(tilecheck.load(ex / "seed.toml")))
    with pytest.raises(PermissionError):
        kernel_unchecked(refuted.check)
