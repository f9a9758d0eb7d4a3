"""The TMA copy kernel (tilecheck/gpu/tma_copy.py) and its benchmark (bench/tma_copy.py) without a
GPU: every configuration of the sweep assembles and holds TMA loads and stores in SASS; the tile
schedule that the PTX encodes is replayed here and copies every tile exactly once."""
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

from tilecheck.gpu.tma_copy import Config, copy_ptx, launch_args, maps
from tilecheck.emit.sass import assemble
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


def sass_of(ptx: str) -> str:
    """nvdisasm's listing of ``ptx`` assembled by ptxas for sm_90a (``emit.sass.assemble``); the test is
    skipped where either tool is missing."""
    try:
        find_tool("ptxas"), find_tool("nvdisasm")
    except ToolNotFound as e:
        pytest.skip(f"no ptxas/nvdisasm here: {e}")
    return assemble(ptx, "sm_90a").sass


def test_every_configuration_assembles_with_tma_loads_and_stores():
    cs = list({c.name: c for c in bench().configs(*H200_SHARED)}.values())[::3]
    for c in cs:
        sass = sass_of(copy_ptx(c))
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
    chunk = re.search(r"mul\.lo\.u32 \t%r2, %r2, (\d+);", text)  # a wave: CTA b takes b*K .. b*K+K-1
    if chunk:
        K = int(chunk.group(1))
        assert "\tmov.u32 \t%r3, 1;" in text and f"\tmin.u32 \t%r4, %r4, {K};" in text
        assert grid == -(-tiles // K)
    stored = []
    for b in range(min(grid, tiles)):
        first, step = (b * K, 1) if chunk else (b, grid)
        n = min(K, tiles - first) if chunk else -(-(tiles - b) // grid)
        grid_ = grid
        grid, b = step, first  # the tile of iteration i: b + i * grid
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
        grid = grid_
    return stored


@pytest.mark.parametrize("cfg", [Config(1024, 8, 6, lag=1), Config(1024, 8, 6, lag=3), Config(2048, 16, 3, lag=2),
                                 Config(2048, 4, 24, lag=12)])
@pytest.mark.parametrize("tiles, grid", [(1, 132), (5, 2), (100, 7), (1000, 132), (131, 132)])
def test_the_schedule_copies_every_tile_once(cfg, tiles, grid):
    assert sorted(schedule(copy_ptx(cfg), tiles, grid)) == list(range(tiles))


@pytest.mark.parametrize("cfg", [Config(2048, 4, 1, 8, chunk=1), Config(2048, 4, 2, 4, chunk=2),
                                 Config(2048, 2, 4, 2, chunk=4), Config(2048, 2, 2, 2, lag=1, chunk=4),
                                 Config(1024, 2, 3, 2, lag=2, chunk=7)])
@pytest.mark.parametrize("tiles", [1, 5, 100, 1001])
def test_a_wave_copies_every_tile_once_in_consecutive_chunks(cfg, tiles):
    """A wave's CTA copies its ``chunk`` consecutive tiles (fewer at the end), with a pipeline where its
    stages are fewer than its chunk, and ends once its stores have read shared memory."""
    text = copy_ptx(cfg)
    assert sorted(schedule(text, tiles, cfg.grid(tiles, 132))) == list(range(tiles))
    assert text.rstrip().endswith("cp.async.bulk.wait_group.read \t0;\nEND:\n\tret;\n}")
    assert "wait_group \t0;" not in text and "_c%d" % cfg.chunk in cfg.name


def test_a_wave_pads_shared_memory_to_its_occupancy_and_a_bad_one_is_refused():
    c = Config(2048, 4, 1, 8, chunk=1)
    assert c.dynamic(233472) == 27648 and 8 * (27648 + 1024) <= 233472 < 9 * (27648 + 1024)  # 8 a SM, not 9
    assert c.grid(1000, 132) == 1000 and Config(2048, 4, 2, 4, chunk=2).grid(1001, 132) == 501
    assert Config(2048, 4, 6, 2).grid(1000, 132) == 264 and Config(2048, 4, 6, 2).dynamic(233472) == 6 * 8192 + 48
    for kw in ({"stages": 3, "chunk": 2}, {"stages": 1}, {"stages": 2, "chunk": 4, "lag": 2},
               {"stages": 2, "chunk": 2, "split": True}, {"stages": 2, "chunk": -1}):
        with pytest.raises(ValueError):
            Config(2048, 4, **kw)


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
@pytest.mark.parametrize("cfg", [Config(2048, 16, 4, lag=2), Config(1024, 8, 6, ctas_per_sm=2, lag=1),
                                 Config(2048, 8, 6, lag=3, split=True), Config(2048, 8, 6, lag=1, hint=True),
                                 Config(2048, 16, 4, lag=1, split=True, hint=True), Config(256, 256, 3, lag=1),
                                 Config(2048, 8, 6, lag=3, bulk=True), Config(2048, 4, 1, 8, chunk=1),
                                 Config(2048, 2, 2, 4, lag=1, chunk=4)])
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
        nbytes, guard = 16 << 20, 4096
        host = np.random.default_rng(3).integers(0, 2**63, size=nbytes // 8, dtype=np.uint64).view(np.uint8)
        src, dst = drv.to_device(host), drv.mem_alloc(nbytes + guard)
        from tilecheck.gpu.tensormap_driver import Module
        mod = Module(copy_ptx(cfg))  # cuLaunchKernel with kernelParams: pycuda's launch breaks the maps
        dev = drv.Context.get_device()
        sms = dev.get_attribute(drv.device_attribute.MULTIPROCESSOR_COUNT)
        per_sm = dev.get_attribute(drv.device_attribute.MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
        mod.set_max_dynamic_shared(cfg.name, cfg.dynamic(per_sm))
        for height in (nbytes // cfg.inner, 7 * cfg.rows + 3):
            n = height * cfg.inner
            drv.memset_d8(dst, 0xA5, nbytes + guard)
            tiles = cfg.tiles(height)
            if cfg.bulk:
                from tilecheck.gpu.tma_copy import bulk_args
                args = bulk_args(int(src), int(dst), height, cfg)
            else:
                args = launch_args(*maps(encode_tiled, int(src), int(dst), height, cfg), tiles)
            mod.launch(cfg.name, args, grid=(cfg.grid(tiles, sms),), block=(cfg.threads,),
                       shared=cfg.dynamic(per_sm))
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


# The variants (issue 30's last target): split issue, the L2 evict_first hint, more bytes in flight.

def _bench_families():
    b = bench()
    return b, {(v, q): b.sweep_configs([v], *H200_SHARED, quick=q) for v in b.VARIANTS for q in (True, False)}


def test_the_default_kernel_is_the_one_measured_first():
    """split and hint default off: the default kernel's name and text have neither (no createpolicy, one
    warp, no 'empty' barriers); each flag changes the name, so a module of every family names each once."""
    c = Config(2048, 8, 6, lag=3)
    assert c.name == "tma_copy_i2048_r8_s6_l3" and c.threads == 32 and c.shared == 6 * 16384 + 48
    text = copy_ptx(c)
    assert "cache_hint" not in text and "createpolicy" not in text and "bar.sync" not in text
    names = {Config(2048, 8, 6, lag=3, split=sp, hint=h).name for sp in (False, True) for h in (False, True)}
    assert len(names) == 4
    s = Config(2048, 8, 6, lag=3, split=True)
    assert s.threads == 64 and s.shared == 6 * 16384 + 96 and ".maxntid 64, 1, 1" in copy_ptx(s)


@pytest.mark.parametrize("split", [False, True])
def test_the_hint_puts_an_evict_first_policy_on_every_load_and_store(split):
    c = Config(2048, 8, 6, lag=2, split=split, hint=True)
    text = copy_ptx(c)
    assert text.count("createpolicy.fractional.L2::evict_first.b64 \t%rd3, 1.0;") == 1
    ops = [line for line in text.splitlines() if "cp.async.bulk.tensor" in line]
    assert ops and all(".L2::cache_hint" in line and line.endswith(", %rd3;") for line in ops)
    assert {".global.tile.mbarrier" in line for line in ops} == {True, False}  # loads and stores both


def test_every_variant_assembles_with_tma_loads_and_stores():
    """One kernel of each family and of each big shape: TMA loads and stores in SASS, the cache policy
    (a ``desc[...]`` operand) on both where hinted, a block barrier (the barriers' init) where split."""
    b, fams = _bench_families()
    cs = [fams[(v, True)][k] for v in ("split", "hint", "splithint", "lean", "wave") for k in (0, -1)] + fams[("big", True)]
    for c in cs:
        sass = sass_of(copy_ptx(c))
        tma = [line for line in sass.splitlines() if re.search(r"UTMA(LDG|STG)\.2D", line)]
        assert any("UTMALDG.2D" in t for t in tma) and any("UTMASTG.2D" in t for t in tma), c.name
        assert all(("desc[" in t) == c.hint for t in tma), c.name
        assert ("BAR.SYNC" in sass) == c.split, c.name


def test_the_variant_families_fit_the_h200_and_name_their_configurations():
    b, fams = _bench_families()
    assert set(b.VARIANTS) == {"base", "split", "hint", "splithint", "big", "bulk", "lean", "wave"}
    assert fams[("base", False)] == b.configs(*H200_SHARED) and fams[("base", True)] == b.configs(*H200_SHARED, True)
    for (v, quick), cs in fams.items():
        assert cs and all(b.family_of(c) == v and b.fits(c, *H200_SHARED) for c in cs), (v, quick)
        assert all((512 << 10) % c.tile == 0 for c in cs)  # whole tiles of the benchmark's buffer
    big = fams[("big", True)]
    assert max(c.tile for c in big) == 65536 and max(c.rows for c in big) == 256
    assert {c.split for c in big} == {False, True} and max(c.ctas_per_sm for c in big) == 3
    assert {c.ctas_per_sm for c in fams[("split", True)]} >= {1, 2}
    assert all(c.bulk for c in fams[("bulk", True)]) and not any(c.bulk for v in b.VARIANTS if v != "bulk"
                                                                  for c in fams[(v, True)])
    lean, wave = fams[("lean", False)], fams[("wave", False)]
    assert max(c.stages * c.tile * c.ctas_per_sm for c in lean) <= 64 << 10 < 96 << 10 <= min(
        c.stages * c.tile * c.ctas_per_sm for c in fams[("base", False)])
    assert all(c.chunk and c.stages == c.chunk for c in wave) and {c.chunk for c in wave} == {1, 2, 4}
    assert {c.chunk * c.tile * c.ctas_per_sm >> 10 for c in wave} == {32, 40, 48, 56, 64, 80, 96, 128}
    assert b.Config(2048, 2, 1, 10, chunk=1) in wave  # the H200's best: ten CTAs of one 4 KiB tile a SM
    quick = fams[("wave", True)]
    assert {c.tile for c in quick} == {2048, 4096} and {c.inner for c in quick} == {1024, 2048}
    assert {c.hint for c in quick} == {False, True} and all(c.chunk == 1 for c in quick)
    assert max(c.ctas_per_sm for c in wave) == 32
    every = b.sweep_configs(list(b.VARIANTS), *H200_SHARED, quick=True)
    assert len(every) == len(set(every)) == sum(len(fams[(v, True)]) for v in b.VARIANTS)


def test_variants_are_parsed_and_an_unknown_one_is_refused_in_one_line():
    b = bench()
    assert b.parse_variants("split, hint,split") == ["split", "hint"]
    for bad in ("splt", "", "base,nope"):
        with pytest.raises(ValueError, match="--variants"):
            b.parse_variants(bad)
    r = subprocess.run([__import__("sys").executable, str(ROOT / "bench/tma_copy.py"), "--variants", "base,nope"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "unknown nope" in r.stderr, r.stderr


def split_run(text: str, tiles: int, grid: int, seed: int):
    """Replay the split kernel's two threads from its own constants under a random interleaving of their
    steps, the loads' landings and the stores' reads of shared memory, with mbarrier phase semantics
    (``try_wait.parity P`` passes once the barrier's current phase parity differs from ``P``).  Raise where
    a load overwrites a stage a store still reads or whose tile was not stored yet, a store finds another
    tile than its own, or nothing can move (a hang); return the tiles stored."""
    import random
    S = int(re.search(r"rem\.u32 \t%r18, %r18, (\d+);", text).group(1))
    D = int(re.search(r"wait_group\.read \t(\d+);", text).group(1))
    lskip, sskip = (int(x) for x in re.findall(r"setp\.lt\.u32 \t%p4, %r11, (\d+);", text))
    refill = int(re.search(r"add\.u32 \t%r17, %r11, (\d+);", text).group(1))
    free = int(re.search(r"add\.u32 \t%r18, %r12, (\d+);", text).group(1))
    lpar, spar = (int(x) for x in re.findall(r"mov\.u32 \t%r13, (\d+);", text))
    assert "\tmbarrier.arrive.shared::cta.b64 \t_, [%r20];" in text and "add.u32 \t%r20, %r20, %r7;" in text
    rng = random.Random(seed)
    stored = []
    for b in range(min(grid, tiles)):
        n = -(-(tiles - b) // grid)
        full, empty = [0] * S, [0] * S  # completed phases
        content = [None] * S
        landing = []  # (stage, tile) loads in flight
        reading = []  # stages read by stores in flight, oldest first
        done = set()  # tiles whose store has read its stage
        L = {"j": 0, "par": lpar}
        T = {"i": 0, "par": spar, "stage_wait": None}

        def load_step():
            j, s = L["j"], L["j"] % S
            if j >= lskip and (empty[s] & 1) == L["par"]:
                return False
            assert s not in reading and s not in [x for x, _ in landing], f"stage {s} overwritten"
            assert j < S or b + (j - S) * grid in done, f"tile {j - S}'s stage refilled before its store read it"
            landing.append((s, b + j * grid))
            L["j"] += 1
            if L["j"] % S == 0:
                L["par"] ^= 1
            return True

        def store_step():
            i, s = T["i"], T["i"] % S
            if T["stage_wait"] is None:
                if (full[s] & 1) == T["par"]:
                    return False
                assert content[s] == b + i * grid, f"store {i} found tile {content[s]}"
                stored.append(content[s])
                reading.append((s, content[s]))
                T["stage_wait"] = i >= sskip and i + refill < n
                if not T["stage_wait"]:
                    return advance()
                return True
            if len(reading) > D:  # wait_group.read D
                return False
            empty[(s + free) % S] += 1
            return advance()

        def advance():
            T["i"] += 1
            T["stage_wait"] = None
            if T["i"] % S == 0:
                T["par"] ^= 1
            return True

        while L["j"] < n or T["i"] < n:
            moves = [m for m in ("load", "store", "land", "read")
                     if (m == "load" and L["j"] < n) or (m == "store" and T["i"] < n)
                     or (m == "land" and landing) or (m == "read" and reading)]
            rng.shuffle(moves)
            for m in moves:
                if m == "load" and load_step() or m == "store" and store_step():
                    break
                if m == "land":
                    s, tile = landing.pop(rng.randrange(len(landing)))
                    content[s] = tile
                    full[s] += 1
                    break
                if m == "read":  # groups finish reading in order of commit, the oldest first
                    done.add(reading.pop(0)[1])
                    break
            else:
                raise AssertionError(f"CTA {b}: a hang at load {L['j']}, store {T['i']}")
    return stored


@pytest.mark.parametrize("cfg", [Config(1024, 8, 6, lag=1, split=True), Config(1024, 8, 6, lag=3, split=True),
                                 Config(2048, 16, 3, lag=2, split=True), Config(2048, 16, 2, lag=1, split=True),
                                 Config(2048, 4, 24, lag=12, split=True, hint=True)])
@pytest.mark.parametrize("tiles, grid", [(1, 132), (5, 2), (100, 7), (131, 132), (400, 3)])
def test_the_split_schedule_copies_every_tile_once_under_any_interleaving(cfg, tiles, grid):
    text = copy_ptx(cfg)
    for seed in range(4):
        assert sorted(split_run(text, tiles, grid, seed)) == list(range(tiles))


def test_the_split_replay_catches_a_wrong_parity_and_a_stage_freed_too_early():
    text = copy_ptx(Config(1024, 8, 4, lag=2, split=True))
    ok = split_run(text, 40, 3, 0)
    assert sorted(ok) == list(range(40))
    bad_parity = text.replace("\tmov.u32 \t%r13, 1;", "\tmov.u32 \t%r13, 0;", 1)  # the loader's first parity
    bad_free = text.replace("add.u32 \t%r18, %r12, 2;", "add.u32 \t%r18, %r12, 3;")  # frees stage i-1, not i-2
    for wrong in (bad_parity, bad_free):
        assert wrong != text
        with pytest.raises(AssertionError):
            for seed in range(20):
                split_run(wrong, 40, 3, seed)


def test_the_preflight_drops_a_failing_variant_and_goes_on(monkeypatch, capsys):
    """A child that dies at a configuration (a trap loses the context) drops that one only and the next
    child resumes after it; a second failure of one family and issue scheme drops the rest of it."""
    import types
    b = bench()
    cs = b.sweep_configs(["base", "split", "hint"], *H200_SHARED, quick=True)
    bad = {cs.index(c) for c in cs if c.split} | {cs.index([c for c in cs if c.hint][2])}
    calls = []

    def run(cmd, **kw):
        assert cmd[1].endswith("bench/tma_copy.py") and cmd[cmd.index("--variants") + 1] == "base,split,hint"
        todo = [int(i) for i in cmd[-1].split(",")]
        calls.append(todo)
        out = []
        for i in todo:
            if i in bad:
                return types.SimpleNamespace(stdout="\n".join(out), stderr="Traceback\nCudaError: LAUNCH_FAILED",
                                             returncode=1)
            out.append(f"PREFLIGHT ok {i}")
        return types.SimpleNamespace(stdout="\n".join(out) + "\n", stderr="", returncode=0)

    monkeypatch.setattr(b.subprocess, "run", run)
    args = types.SimpleNamespace(variants="base,split,hint", quick=True)
    kept = b.preflight(cs, args)
    assert kept == [c for i, c in enumerate(cs) if i not in bad]  # every hint configuration but the bad one
    assert len(calls) == 2 + 1 + 1  # two split failures (the rest dropped unchecked), one hint one, the rest
    first_split = min(i for i in bad if cs[i].split)
    assert calls[1][0] == first_split + 1 and not any(cs[i].split for i in calls[2])  # resumed, then skipped
    text = capsys.readouterr().out
    assert text.count("its preflight copy failed: CudaError: LAUNCH_FAILED") == 3
    assert "[split] split issue: failed twice, its other 6 configurations dropped unchecked" in text
    assert f"preflight: {len(kept)} of {len(cs)} configurations" in text


def test_the_bulk_comparison_copies_1d_tiles_with_the_last_one_short():
    """The ``bulk`` variant (a comparison, not the tensor kernel): the same loop with non-tensor
    cp.async.bulk copies of each tile, the last tile's bytes a parameter (expect_tx, load and store
    alike), the same schedule; it assembles to UBLKCP in both directions."""
    from tilecheck.gpu.tma_copy import bulk_args
    c = Config(2048, 8, 6, lag=3, bulk=True)
    for kw in ({"split": True}, {"hint": True}):
        with pytest.raises(ValueError, match="bulk"):
            Config(2048, 8, 6, bulk=True, **kw)
    text = copy_ptx(c)
    assert c.name.endswith("_bulk") and "cp.async.bulk.tensor" not in text and "tensormap" not in text
    assert f".param .u64 {c.name}_src, .param .u64 {c.name}_dst, .param .u32 {c.name}_tiles, " \
           f".param .u32 {c.name}_last)" in text
    assert text.count("selp.b32 \t%r23, %r25, 16384, %q0;") == 6 + 1 + 1  # prologue, refill, store
    assert text.count("expect_tx.shared::cta.b64 \t_, [%r20], %r23;") == 1
    assert text.count("cp.async.bulk.global.shared::cta.bulk_group \t[%rb0], [%r14], %r23;") == 1
    for tiles, grid in ((1, 132), (100, 7), (131, 132)):
        assert sorted(schedule(text, tiles, grid)) == list(range(tiles))
    args = bulk_args(0x1000, 0x2000, 7 * 8 + 3, c)  # 8 tiles, the last of 3 rows
    assert [a.value for a in args] == [0x1000, 0x2000, 8, 3 * 2048]
    assert [a.value for a in bulk_args(0, 0, 16, c)][2:] == [2, 16384]
    with pytest.raises(ValueError):
        bulk_args(0, 0, 16, Config(2048, 8, 6))
    sass = sass_of(text)
    assert "UBLKCP.S.G" in sass and "UBLKCP.G.S" in sass and "UTMALDG" not in sass


def test_the_fastest_wave_copies_what_the_proved_example_states():
    """examples/tma_copy_wave.toml is the copy of the wave the H200 runs fastest (ten CTAs of one 4 KiB
    tile a SM): its maps are the maps the benchmark encodes for that configuration (uint64 rows of 2048
    bytes, a box of 256 x 2, no swizzle), its coordinates the kernel's (column 0, row 2t for CTA t),
    its expect_tx the tile's bytes -- and tilecheck proves it for every height up to 4 GiB."""
    import tomllib

    from tilecheck.check import load
    from tilecheck.report import prove

    path = ROOT / "examples" / "tma_copy_wave.toml"
    spec = tomllib.loads(path.read_text())
    b = bench()
    c = b.Config(2048, 2, 1, 10, chunk=1)
    assert c in b.wave(*H200_SHARED)
    calls = []

    class Ok:
        accepted, status, descriptor = True, 0, bytes(128)

    maps(lambda *a: calls.append(a) or Ok(), 0x1000, 0x2000, 12345, c)
    for (dtype, _, dims, strides, box, elem, interleave, swizzle, _l2, fill), m in zip(
            calls, (spec["tensormaps"]["TX"], spec["tensormaps"]["TY"])):
        assert dtype == spec["tensors"][m["tensor"]]["dtype"] and box == m["box"] and strides == m["strides"]
        assert dims == [m["dims"][0], 12345] and m["dims"][1] == "H" and swizzle == m.get("swizzle", "none")
        assert elem == [1, 1] and interleave == "none" and fill == "none"
    load_, store = spec["apply"]
    assert load_["coords"] == store["coords"] == [0, "2*t"] and load_["expect_tx"] == c.tile
    text = copy_ptx(c)
    assert f"\tmul.lo.u32 \t%r7, %r7, {c.rows};" in text  # row = (the CTA's tile) * rows
    assert spec["tensors"]["S"]["shape"] == [c.rows, c.inner // 8] and spec["tensors"]["S"]["align"] == 1024
    assert prove(load(path)).verdict == "proved"
