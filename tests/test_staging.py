"""The staging path (issue 13 item 5): global -> cp.async (guarded) -> swizzled shared -> ldmatrix
x4 / x4.trans -> the mma fragment, for ``examples/staging_*.toml`` at ragged sizes.

On every machine: both files prove, their kernels pass ptxas with one LDGSTS and one LDSM per
repeat, run in the PTX interpreter (``test_emit_sim``) bit-exact against the numpy reference at
ragged sizes, and the reference's fragment is the matrix's zero-padded tile (numpy slicing, no
layout).  With a GPU (``gpu`` marker): ``python -m tilecheck.gpu.staging`` passes every size.
"""
from types import SimpleNamespace

import numpy as np
import pytest

import tilecheck
from tilecheck.emit import kernel
from tilecheck.emit.sass import assemble
from tilecheck.gpu import staging
from tilecheck.gpu.reference import bind_symbols, reference

from test_emit_sim import run_kernel

FILES = [f for f, _, _ in staging.STAGING]
RAGGED = [(45, 72, 32, 64), (17, 8, 0, 0), (45, 72, 64, 0)]  # of staging.SIZES: rows, columns not tile multiples


def _check(f):
    return tilecheck.load(staging.EXAMPLES / f)


def _syms(f, size):
    [(rows, cols)] = [names for g, _, names in staging.STAGING if g == f]
    nr, nc, r0, c0 = size
    return {rows: nr, cols: nc, "r0": r0, "c0": c0}


def test_the_sizes_are_ragged_and_allowed():
    assert set(RAGGED) <= set(staging.SIZES)
    assert any(nr % 32 and nc % 64 for nr, nc, _, _ in staging.SIZES)
    assert any(r0 + 32 > nr and c0 + 64 > nc for nr, nc, r0, c0 in staging.SIZES)  # a corner across both edges
    for f in FILES:
        for size in staging.SIZES:
            bind_symbols(_check(f), _syms(f, size))  # InputError if a size breaks a symbol's facts


@pytest.mark.parametrize("f", FILES)
def test_staging_example_is_proved_with_both_applies(f):
    report = tilecheck.prove(_check(f))
    assert report.verdict == "proved"
    ops = [a.apply.opcode.text for a in report.applies]
    assert ops[0] == "cp.async.cg.shared.global" and ops[1].startswith("ldmatrix.sync.aligned.m8n8.x4")
    assert ("trans" in ops[1]) == ("trans" in f)
    assert [a.instructions for a in report.applies] == [8, 8]


@pytest.mark.parametrize("f", FILES)
def test_staging_kernel_passes_ptxas_and_waits_for_the_copies(f):
    check = _check(f)
    ptx = kernel(tilecheck.prove(check).plan)
    sass = assemble(ptx, check.arch).instructions  # AssemblyError if ptxas refuses it
    ldsm = "LDSM.16.MT88.4" if "trans" in f else "LDSM.16.M88.4"
    assert sass.count(ldsm) == 8 and sass.count("LDGSTS.E.BYPASS.128") == 8  # one per repeat of each apply
    lines = [line.strip() for line in ptx.splitlines()]
    first_ld = next(i for i, line in enumerate(lines) if line.startswith("ldmatrix"))
    last_cp = max(i for i, line in enumerate(lines) if line.startswith("cp.async.cg"))
    between = lines[last_cp:first_ld]
    assert any("cp.async.wait_all" in line for line in between) and any("bar.sync" in line for line in between)
    assert any(line.startswith("cp.async.cg") and line.rstrip(";").count(",") == 3 for line in lines)  # src-size


@pytest.mark.parametrize("size", RAGGED)
@pytest.mark.parametrize("f", FILES)
def test_staging_kernel_runs_bit_exact_in_the_interpreter(f, size):
    check = _check(f)
    syms = _syms(f, size)
    case, out = run_kernel(check, syms, seed=sum(size))
    for t in check.tensors:
        bad = np.flatnonzero(out[t] != case.expected[t])
        assert not bad.size, f"{f} {syms}: {t} differs at elements {bad[:8].tolist()}"
    assert np.array_equal(out["R"].reshape(32, 64), staging.tile_of(case))


@pytest.mark.parametrize("f", FILES)
def test_the_reference_fragment_is_the_zero_padded_tile_at_every_size(f):
    check = _check(f)
    for size in staging.SIZES:
        case = reference(check, bind_symbols(check, _syms(f, size)), seed=7)
        assert staging.fragment_is_tile(case), size
        nr, nc, r0, c0 = size
        inside = max(0, min(32, nr - r0)) * max(0, min(64, nc - c0))
        tile = staging.tile_of(case)
        assert np.count_nonzero(tile[:max(0, nr - r0), :max(0, nc - c0)]) <= inside
        assert not tile[max(0, nr - r0):].any() and not tile[:, max(0, nc - c0):].any()


def test_summary_counts_a_differing_run():
    check = _check(FILES[0])
    case = reference(check, bind_symbols(check, _syms(FILES[0], (45, 72, 32, 64))), seed=1)
    good, bad = SimpleNamespace(ok=True, case=case), SimpleNamespace(ok=False, case=case)
    line, n = staging.summary(["fp16 x4", "fp16 x4"], [good, bad])
    assert n == 1 and line.startswith("staging: 2 runs, 1 differ (fp16 x4; sizes 45x72@(32,64);")
    line, n = staging.summary(["fp16 x4", "bf16 x4.trans"], [good, good])
    assert n == 0 and line.startswith("staging: 2 runs, 0 differ (fp16 x4, bf16 x4.trans; sizes ")
    case.expected["R"] = case.expected["R"] + 1  # a reference whose fragment is not the tile counts too
    assert staging.summary(["fp16 x4"], [good])[1] == 1


@pytest.mark.gpu
def test_staging_on_the_gpu(capsys):
    from test_gpu import _gpu
    _gpu()
    assert staging.main([]) == 0
    out = capsys.readouterr().out
    n = len(staging.SIZES) * len(staging.STAGING)
    assert f"staging: {n} runs, 0 differ (fp16 x4, bf16 x4.trans; sizes " in out
