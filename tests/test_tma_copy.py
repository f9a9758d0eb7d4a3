"""The TMA copy kernel (tilecheck/gpu/tma_copy.py) and its benchmark (bench/tma_copy.py) without a
GPU: every configuration of the sweep assembles and holds TMA loads and stores in SASS; the tile
schedule that the PTX encodes is replayed here and copies every tile exactly once."""
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

from tilecheck.gpu.tma_copy import Config, copy_ptx, launch_args, maps
from tilecheck.tools import ToolNotFound, find_tool

ROOT = Path(__file__).resolve().parents[1]


def bench():
    spec = importlib.util.spec_from_file_location("bench_tma_copy", ROOT / "bench/tma_copy.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


H200_SHARED = (233472, 232448)  # a SM, a block (opt-in): the H200's attributes


def test_the_sweep_fits_the_h200_and_names_each_kernel_once():
    cs = bench().configs(*H200_SHARED)
    assert len(cs) >= 30
    for c in cs:
        assert c.shared <= H200_SHARED[1] and c.ctas_per_sm * (c.shared + 1024) <= H200_SHARED[0]
        assert c.tile <= 32768 and (512 << 10) % c.tile == 0  # whole tiles of the benchmark's buffer
    assert {c.lag for c in cs} > {1}
    names = {}
    for c in cs:  # one kernel per name: configurations that share a name share the text
        assert names.setdefault(c.name, copy_ptx(c)) == copy_ptx(c)


def test_bad_configurations_are_refused():
    for kw in ({"inner": 24, "rows": 4, "stages": 2}, {"inner": 4096, "rows": 4, "stages": 2},
               {"inner": 1024, "rows": 0, "stages": 2}, {"inner": 1024, "rows": 4, "stages": 1},
               {"inner": 1024, "rows": 4, "stages": 4, "lag": 4}):
        with pytest.raises(ValueError):
            Config(**kw)


def test_every_configuration_assembles_with_tma_loads_and_stores(tmp_path):
    try:
        ptxas, nvdisasm = find_tool("ptxas"), find_tool("nvdisasm")
    except ToolNotFound as e:
        pytest.skip(f"no ptxas/nvdisasm here: {e}")
    cs = list({c.name: c for c in bench().configs(*H200_SHARED)}.values())[::3]
    for c in cs:
        src = tmp_path / f"{c.name}.ptx"
        src.write_text(copy_ptx(c))
        subprocess.run([ptxas, "-arch=sm_90a", "-o", str(src.with_suffix(".cubin")), str(src)], check=True,
                       capture_output=True)
        sass = subprocess.run([nvdisasm, str(src.with_suffix(".cubin"))], check=True, capture_output=True,
                              text=True).stdout
        assert "UTMALDG.2D" in sass and "UTMASTG.2D" in sass and "SYNCS.PHASECHK" in sass, c.name
        assert re.search(r"DEPBAR|UTMACMDFLUSH", sass)


def schedule(text: str, tiles: int, grid: int):
    """Replay the kernel's control flow from its own constants: (tile, stage) of every load and store
    per CTA, and each wait's (stage, parity); raise where a stage is refilled before its store read it
    or a wait does not find the tile it expects."""
    S = int(re.search(r"rem\.u32 \t%r18, %r18, (\d+);", text).group(1))
    D = int(re.search(r"wait_group\.read \t(\d+);", text).group(1))
    assert int(re.search(r"setp\.lt\.u32 \t%p4, %r11, (\d+);", text).group(1)) == D
    assert int(re.search(r"add\.u32 \t%r17, %r11, (\d+);", text).group(1)) == S - D
    stored = []
    for b in range(min(grid, tiles)):
        n = -(-(tiles - b) // grid)
        stage = {s: (b + s * grid, 0) for s in range(min(S, n))}  # the prologue: tile, phase it completes
        phases = {s: 0 for s in range(S)}
        reading = []  # stores not yet known to have read their stage
        for i in range(n):
            s, parity = i % S, (i // S) & 1
            tile, phase = stage[s]
            assert phase == parity == phases[s] and tile == b + i * grid, (b, i, stage[s], parity)
            stored.append(tile)
            reading.append(s)
            if i >= D and i - D + S < n:
                reading = reading[-D:]  # wait_group.read D: all but the newest D have read
                sp = (s + S - D) % S
                assert sp not in reading, "refilled while a store still reads it"
                phases[sp] ^= 1
                stage[sp] = (b + (i - D + S) * grid, phases[sp])
    return stored


@pytest.mark.parametrize("cfg", [Config(1024, 8, 6, lag=1), Config(1024, 8, 6, lag=3), Config(2048, 16, 3, lag=2),
                                 Config(2048, 4, 24, lag=12)])
@pytest.mark.parametrize("tiles, grid", [(1, 132), (5, 2), (100, 7), (1000, 132), (131, 132)])
def test_the_schedule_copies_every_tile_once(cfg, tiles, grid):
    assert sorted(schedule(copy_ptx(cfg), tiles, grid)) == list(range(tiles))


def test_the_maps_describe_the_buffer_as_rows_of_the_box():
    calls = []

    class Ok:
        accepted, status, descriptor = True, 0, bytes(range(128))

    def encode(*args):
        calls.append(args)
        return Ok()

    c = Config(2048, 16, 4, l2="256B")
    assert maps(encode, 0x1000, 0x2000, 524288, c) == [Ok.descriptor] * 2
    assert calls[0] == ("uint64", 0x1000, [256, 524288], [2048], [256, 16], [1, 1], "none", "none", "256B", "none")
    assert calls[1][1] == 0x2000
    assert c.tiles(7 * 16 + 3) == 8
    text = copy_ptx(c)
    assert f".param .align 64 .b8 {c.name}_src[128], .param .align 64 .b8 {c.name}_dst[128]" in text
    assert text.count(f"expect_tx.shared::cta.b64 \t_, [%r") == 4 + 1  # the prologue's stages, the refill
    assert f", {c.tile};" in text


@pytest.mark.gpu
@pytest.mark.parametrize("cfg", [Config(2048, 16, 4, lag=2), Config(1024, 8, 6, ctas_per_sm=2, lag=1)])
def test_the_copy_on_the_device_equals_numpy(cfg):
    """16 MiB and a ragged height (the last tile across the end: zero-filled, then clipped), bit for bit."""
    import numpy as np
    try:
        import pycuda.driver as drv
        drv.init()
        ctx = drv.Device(0).make_context()
    except Exception as e:  # noqa: BLE001 (no pycuda, no driver, no device: skip with the reason)
        pytest.skip(f"GPU test: no CUDA device with pycuda here ({e})")
    try:
        from tilecheck.gpu.tensormap_driver import encode_tiled
        from tilecheck.gpu.tma_copy import THREADS
        nbytes, guard = 16 << 20, 4096
        host = np.random.default_rng(3).integers(0, 2**63, size=nbytes // 8, dtype=np.uint64).view(np.uint8)
        src, dst = drv.to_device(host), drv.mem_alloc(nbytes + guard)
        from tilecheck.gpu.tensormap_driver import Module
        mod = Module(copy_ptx(cfg))  # cuLaunchKernel with kernelParams: pycuda's launch breaks the maps
        mod.set_max_dynamic_shared(cfg.name, cfg.shared)
        sms = drv.Context.get_device().get_attribute(drv.device_attribute.MULTIPROCESSOR_COUNT)
        for height in (nbytes // cfg.inner, 7 * cfg.rows + 3):
            n = height * cfg.inner
            drv.memset_d8(dst, 0xA5, nbytes + guard)
            a, b = maps(encode_tiled, int(src), int(dst), height, cfg)
            tiles = cfg.tiles(height)
            mod.launch(cfg.name, launch_args(a, b, tiles), grid=(min(tiles, sms * cfg.ctas_per_sm),),
                       block=(THREADS,), shared=cfg.shared)
            drv.Context.synchronize()
            got = np.empty(n + guard, dtype=np.uint8)
            drv.memcpy_dtoh(got, dst)
            assert np.array_equal(got[:n], host[:n]) and (got[n:] == 0xA5).all(), height
    finally:
        ctx.pop()
        ctx.detach()


def test_the_launch_arguments_are_the_two_maps_by_value_and_a_u32():
    a, b = bytes(range(128)), bytes(128)
    args = launch_args(a, b, 9)
    assert args[:2] == [a, b] and args[2].value == 9 and __import__("ctypes").sizeof(args[2]) == 4
    with pytest.raises(ValueError, match="128 bytes"):
        launch_args(a[:64], b, 1)


def test_the_bench_launches_through_the_driver_not_pycuda():
    """bench/tma_copy.py's copies of 59 rows differed "first at [0]" through pycuda's launch on the H200:
    it launches through tensormap_driver.Module now (pycuda allocates, copies and times)."""
    text = (ROOT / "bench/tma_copy.py").read_text()
    assert "get_function" not in text and '"V128"' not in text and "tensormap_driver.Module(text)" in text
