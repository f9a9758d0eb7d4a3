"""The hardware confirms what the proof says (issue 10, item 7), on a real GPU (marker ``gpu``):
a symbolic alignment refutation faults at the counterexample's values, an align-blamed base pointer
faults where it is placed, a shared tile sized by a symbol runs in dynamic shared memory, and a
global buffer past 4 GiB is read near its end."""
import pytest

import tilecheck

from test_gpu import SEED, _gpu
from test_gpu_confirm import SYM_ALIGN, big_global, sym_shared

pytestmark = pytest.mark.gpu


def test_symbolic_alignment_refutation_is_confirmed_at_the_counterexample(tmp_path, capsys):
    _gpu()
    from tilecheck.gpu.unchecked import choose, confirm
    report = tilecheck.prove(tilecheck.from_dict(SYM_ALIGN, "<sym align>"))
    c = choose(report)
    assert c.symbols["k"] % 4 == 2
    path = tmp_path / "sym_align.toml"
    path.write_text('assume = ["c0 + 4 <= k"]\n[symbols.k]\nmin = 8\nmax = 1024\nmultiple_of = 2\n'
                    '[symbols.c0]\nmin = 0\nmax = 1020\nmultiple_of = 4\n'
                    '[tensors.A]\ndtype = "float32"\nscope = "global"\nshape = [4, "k"]\nalign = 16\n'
                    '[tensors.R]\ndtype = "float32"\nscope = "register"\nshape = [4, 4]\n'
                    '[[apply]]\nopcode = "ld.global.v4.b32"\ndst = "R"\nsrc = "A[0:4, c0:c0+4]"\n')
    out = confirm(tilecheck.load(path), c.symbols, SEED, str(path), report=tilecheck.prove(tilecheck.load(path)))
    assert out.status == "fault" and "misaligned address" in out.detail, (out.status, out.detail)
    assert out.confirmed
    from tilecheck.cli import main
    assert main(["run", str(path), "--unchecked", "--seed", str(SEED)]) == 0
    text = capsys.readouterr().out
    assert "from the alignment counterexample of apply[0]" in text and "CONFIRMED" in text
    # at the smallest values (k = 8) every row is 16-byte aligned: the old behaviour, not confirmed
    assert main(["run", str(path), "--unchecked", "--seed", str(SEED), "--set", "k=8"]) == 1
    assert "NOT CONFIRMED" in capsys.readouterr().out


def test_align_blamed_refutation_faults(tmp_path):
    _gpu()
    from tilecheck.gpu.unchecked import confirm
    path = tmp_path / "align4.toml"
    path.write_text('[tensors.A]\ndtype = "float32"\nscope = "global"\nshape = [4, 4]\noffset = 3\nalign = 4\n'
                    '[tensors.R]\ndtype = "float32"\nscope = "register"\nshape = [4, 4]\n'
                    '[[apply]]\nopcode = "ld.global.v4.b32"\ndst = "R"\nsrc = "A"\n')
    check = tilecheck.load(path)
    report = tilecheck.prove(check)
    out = confirm(check, {}, SEED, str(path), report=report)  # placement: align_blamed, A at 8 mod 32
    assert out.status == "fault" and "misaligned address" in out.detail, (out.status, out.detail)
    assert out.confirmed


@pytest.mark.parametrize("scope, op", [("shared", "ld"), ("shared", "st"), ("local", "ld"), ("local", "st")])
def test_align_blamed_shared_and_local_arrays_fault_where_placed(tmp_path, scope, op):
    """Issue 32 item 5: a shared or local array whose declared align (8) is less than its 16-byte vectors
    is declared at exactly that alignment in the unchecked kernel, so the misaligned-address fault shows
    (it used to land 16-byte aligned and run without a fault: neither confirmed nor classified)."""
    _gpu()
    from tilecheck.gpu.unchecked import confirm
    mem, reg = ("src", "dst") if op == "ld" else ("dst", "src")
    path = tmp_path / f"base_{scope}_{op}.toml"
    path.write_text(f'arch = "sm_90"\nthreads = 32\n[tensors.A]\ndtype = "float32"\nscope = "{scope}"\n'
                    'shape = [1, 32, 4]\nlayout = "(1,32,4):(128,4,1)"\nalign = 8\n'
                    '[tensors.R]\ndtype = "float32"\nscope = "register"\nshape = [1, 32, 4]\n'
                    'layout = "(1,32,4):(1@warpid,1@laneid,1)"\n'
                    f'[[apply]]\nopcode = "{op}.{scope}.v4.b32"\nscope = "cta"\n{mem} = "A"\n{reg} = "R"\n')
    check = tilecheck.load(path)
    report = tilecheck.prove(check)
    out = confirm(check, {}, SEED, str(path), report=report)
    assert out.status == "fault" and "misaligned address" in out.detail, (out.status, out.detail)
    assert out.confirmed


def test_a_swizzled_read_past_the_declared_extent_is_classified(capsys):
    """Issue 32 item 2: ``Sw<1,1,2> o (n):(1)`` at n = 9 reads element 10 of a 9-element global buffer
    (the buffer is the declared extent now, not the rounded cosize); forced, the run reads past it."""
    _gpu()
    from tilecheck.cli import main
    from test_gpu import EXAMPLES
    code = main(["run", str(EXAMPLES / "guard_swizzled_global_refuted.toml"), "--unchecked", "--set", "n=9",
                 "--seed", str(SEED)])
    out = capsys.readouterr().out
    # a read past the buffer does not fault (the arena's guard bytes) and the reference is undefined there:
    # classified with that reason (seen on the H200, 2026-12-03), not silently "not confirmed"
    assert code == 1 and "outside [0, 9)" in out and "classified: the kernel reads past the buffer" in out, out


@pytest.mark.parametrize("n, second", [(64, False), (4096, False), (8192, True)])
def test_shared_tile_sized_by_a_symbol_runs_in_dynamic_shared_memory(n, second):
    _gpu()
    from tilecheck.emit.kernel import dynamic_shared_bytes
    from tilecheck.gpu.runner import run_check
    c = sym_shared(second=second)
    syms = {"n": n, "r0": n - 32}
    assert dynamic_shared_bytes(c, syms) >= n * 16  # 8192 rows: 128 KiB, past the 48 KiB default
    r = run_check(c, syms, SEED)
    assert r.ok, r.summary()


def test_shared_tile_larger_than_a_block_may_have_is_exit_2(tmp_path, capsys):
    _gpu()
    from tilecheck.cli import main
    path = tmp_path / "s.toml"
    path.write_text('threads = 32\nassume = ["r0 + 32 <= n"]\n[symbols.n]\nmin = 32\nmax = 65536\nmultiple_of = 32\n'
                    '[symbols.r0]\nmin = 0\nmax = 65504\nmultiple_of = 32\n'
                    '[tensors.S]\ndtype = "float32"\nscope = "shared"\nshape = ["n", 4]\nalign = 16\n'
                    '[tensors.R]\ndtype = "float32"\nscope = "register"\nshape = [32, 4]\nlayout = "(32,4):(1@laneid,1)"\n'
                    '[[apply]]\nopcode = "ld.shared.v4.b32"\nscope = "warp"\ndst = "R"\nsrc = "S[r0:r0+32, 0:4]"\n')
    assert main(["run", str(path), "--set", "n=65536", "--set", "r0=0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "dynamic shared memory" in err and err.count("\n") == 0


def test_global_buffer_past_4_gib_read_near_its_end():
    g = _gpu()
    free, _ = g.drv.mem_get_info()
    if free < 6 << 30:
        pytest.skip(f"GPU test: needs more than 6 GiB of free device memory, {free / 2**30:.1f} GiB free")
    from tilecheck.gpu.runner import run_check
    n = (1 << 28) + 64  # 4 GiB + 1 KiB of float32 rows of 4
    r = run_check(big_global(), {"n": n, "r0": n - 4}, SEED)
    assert r.ok, r.summary()
    assert r.case.inputs["A"].nbytes > 1 << 32


def test_buffers_beyond_free_device_memory_are_exit_2(tmp_path, capsys):
    g = _gpu()
    from tilecheck.cli import main
    free, total = g.drv.mem_get_info()
    rows = (total // 16) + 64  # more than the whole device
    path = tmp_path / "big.toml"
    path.write_text(f'assume = ["r0 + 4 <= n"]\n[symbols.n]\nmin = 4\nmax = {1 << 40}\n'
                    f'[symbols.r0]\nmin = 0\nmax = {1 << 40}\n'
                    '[tensors.A]\ndtype = "float32"\nscope = "global"\nshape = ["n", 4]\nalign = 16\n'
                    '[tensors.R]\ndtype = "float32"\nscope = "register"\nshape = [4, 4]\n'
                    '[[apply]]\nopcode = "ld.global.v4.b32"\ndst = "R"\nsrc = "A[r0:r0+4, :]"\n')
    assert main(["run", str(path), "--set", f"n={rows}", "--set", f"r0={rows - 4}"]) == 2
    err = capsys.readouterr().err.strip()
    assert "memory" in err and "GiB" in err and err.count("\n") == 0 and "Traceback" not in err
