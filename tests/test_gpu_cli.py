"""`tilecheck run` where no GPU is needed: its errors and refusals (these run in CI too)."""
import sys

import pytest

from tilecheck.cli import main

EX = "examples"


@pytest.fixture
def no_pycuda(monkeypatch):
    """Make `import pycuda` fail, as on a machine without the gpu extra."""
    for name in [m for m in sys.modules if m == "pycuda" or m.startswith("pycuda.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pycuda", None)
    monkeypatch.setitem(sys.modules, "pycuda.driver", None)
    import tilecheck.gpu.runner as runner
    monkeypatch.setattr(runner, "_GPU", None)


def test_pycuda_missing_is_one_line_exit_2(no_pycuda, capsys):
    assert main(["run", f"{EX}/seed.toml", "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "pycuda is not installed" in err and "pip install -e '.[gpu]'" in err
    assert "Traceback" not in err


def test_pycuda_missing_unchecked_exit_2(no_pycuda, capsys):
    assert main(["run", f"{EX}/region_misaligned_refuted.toml", "--unchecked"]) == 2
    assert "pip install -e '.[gpu]'" in capsys.readouterr().err


def test_refuted_file_is_not_run(capsys):
    assert main(["run", f"{EX}/region_misaligned_refuted.toml"]) == 1
    out = capsys.readouterr().out
    assert "alignment" in out and "not run" in out and "--unchecked" in out


def test_unchecked_refuses_a_proved_file(capsys):
    assert main(["run", f"{EX}/seed.toml", "--unchecked"]) == 2
    assert "proved" in capsys.readouterr().err


@pytest.mark.parametrize("args,words", [
    (["--set", "k=12"], "multiple of 8"),
    (["--set", "k"], "NAME=INTEGER"),
    (["--set", "zz=1"], "unknown symbol"),
    (["--set", "c0=8"], "assumption"),
])
def test_bad_symbol_values_exit_2(args, words, capsys):
    assert main(["run", f"{EX}/symbolic_tile.toml", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.strip().count("\n") == 0


def test_missing_file_exit_2(capsys):
    assert main(["run", "no/such/file.toml"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_arch_newer_than_the_device(monkeypatch):
    from tilecheck.gpu import runner

    class FakeGpu(runner.Gpu):
        def __init__(self):
            self.name, self.sm, self.arch = "Fake", 80, "sm_80"

    g = FakeGpu()
    assert "newer than the device" in g.can_run("sm_90")
    assert g.can_run("sm_75") is None and g.can_run("sm_80") is None
    g.sm, g.arch = 90, "sm_90"
    assert g.can_run("sm_90a") is None and "newer" in g.can_run("sm_100a")
    g.sm, g.arch = 100, "sm_100"
    assert "arch-specific" in g.can_run("sm_90a")


def test_link_ptx_merges_entries_and_renames_module_scope_variables():
    from tilecheck.gpu.runner import link_ptx
    a = ".version 7.8\n.target sm_90\n.address_size 64\n.shared .align 16 .b8 buf[64];\n" \
        ".visible .entry ka(.param .u64 A)\n{\n\tmov.u32 %r1, buf;\n\tret;\n}\n"
    b = ".version 8.3\n.target sm_90\n.address_size 64\n.shared .align 16 .b8 buf[32];\n" \
        ".visible .entry kb(.param .u64 A)\n{\n\tmov.u32 %r1, buf;\n\tret;\n}\n"
    m = link_ptx([a, b])
    assert m.startswith(".version 8.3\n.target sm_90\n.address_size 64\n")
    assert m.count(".version") == 1 and "buf_m0[64]" in m and "buf_m1[32]" in m
    assert "ka(" in m and "kb(" in m and "mov.u32 %r1, buf_m1;" in m
    with pytest.raises(ValueError, match="several targets"):
        link_ptx([a, b.replace("sm_90", "sm_80")])
