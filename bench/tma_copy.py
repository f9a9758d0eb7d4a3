"""H200 copy benchmark: the TMA copy kernel (global -> shared -> global through cp.async.bulk.tensor
loads and stores, ``tilecheck/gpu/tma_copy.py``) against cuMemcpyDtoD, in one run (issue 30).

    python bench/tma_copy.py [--quick] [--variants base,wave,lean,split,hint,splithint,big,bulk] [--gib 1]
                             [--reps 20] [--rounds 3] [--json FILE]   # JSON default: $OUT/tma_copy.json

One process, one CUDA context.  A buffer of random bits (1 GiB by default) is copied by every
variant.  Each kernel configuration (box row bytes x rows per tile, stages, CTAs per SM, issue
scheme, cache hint) is first checked bit for bit against the source (numpy ``array_equal``) at a
ragged height (a last tile across the tensor's end: zero-filled on load, clipped on store) with the
bytes after the copy untouched, and the finalists on the whole buffer too; timed: a sweep of every
configuration (median of ``--sweep-reps`` launches), the best three again with L2 promotion 256B, and
the finalists (the best three of all, and the best of each variant family swept) interleaved with
cuMemcpyDtoD (``--rounds`` x ``--reps`` launches each, CUDA events, median).  Before all that a
preflight (``--no-preflight`` skips it) copies every configuration's ragged height in a child process
(4 MiB, its own context): a variant that traps or copies wrong is dropped and reported, and the run
goes on without it (a launch failure loses the context that found it).

``--variants`` picks the families (``VARIANTS``; default ``base,wave``): ``base`` (the kernel measured
first: persistent, one thread issues loads and stores), ``wave`` (short CTAs of 1-4 consecutive tiles
instead of a persistent grid, occupancy set by padded shared memory: the block scheduler keeps the
bytes in flight on one narrow address window -- the family that reaches cuMemcpyDtoD on the H200, with
40 KiB in flight a SM), ``lean`` (the persistent kernel with 32-64 KiB in flight a SM), ``split`` (loads from warp 0, stores from warp 1, a 'full' and an
'empty' mbarrier a stage), ``hint`` and ``splithint`` (the same two with an L2 evict_first cache
policy on every load and store), ``big`` (64 KiB tiles, boxes of 256 rows, 3 CTAs a SM; both issue
schemes), ``bulk`` (a comparison, not the tensor kernel: non-tensor ``cp.async.bulk`` 1-D copies of the
same tiles, its own result line).  TB/s counts the bytes read plus the bytes written, as for cuMemcpyDtoD.  Imports nothing
of the tilecheck package (the kernel's module and the driver's encoder and launcher are loaded by
path): no z3 needed.  pycuda allocates, copies and times; the kernels launch through
``tensormap_driver.Module`` (cuLaunchKernel with kernelParams).
"""
import argparse
import dataclasses
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GUARD = 1 << 16  # bytes after the destination that must stay untouched


def _load(name, rel):
    spec = importlib.util.spec_from_file_location(name, ROOT / rel)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


tma_copy = _load("_tilecheck_tma_copy", "tilecheck/gpu/tma_copy.py")
tensormap_driver = _load("_tilecheck_tensormap_driver", "tilecheck/gpu/tensormap_driver.py")
Config = tma_copy.Config


def configs(per_sm: int, per_block: int, quick: bool = False, **kw) -> list:
    """The sweep: rows of 1024/2048 bytes, tiles of 8/16/32 KiB, 96 or 192 KiB a SM in 1, 2 or 4 CTAs, one
    store or half the stages still reading shared memory when a stage is refilled (``kw``: ``Config``'s
    ``split`` and ``hint``)."""
    out = []
    for inner in ((2048,) if quick else (1024, 2048)):
        for tile in (16384,) if quick else (8192, 16384, 32768):
            for budget in (96 << 10, 192 << 10):
                for ctas in (1, 2, 4):
                    stages = budget // ctas // tile
                    for lag in sorted({1, stages // 2}):
                        c = Config(inner, tile // inner, stages, ctas, lag=lag, **kw) if 1 <= lag < stages else None
                        if c and fits(c, per_sm, per_block) and c not in out:
                            out.append(c)
    return out


def fits(c, per_sm: int, per_block: int) -> bool:
    """``c``'s dynamic shared memory fits a block, and ``ctas_per_sm`` of them (1 KiB reserved each) a SM."""
    d = c.dynamic(per_sm)
    return d <= per_block and c.ctas_per_sm * (d + 1024) <= per_sm and c.ctas_per_sm <= MAX_CTAS_A_SM


def big(per_sm: int, per_block: int, quick: bool = False) -> list:
    """More bytes in flight: 64 KiB tiles (2048 B x 32 rows, 256 B x 256 rows) in 3 stages, boxes of 256 rows
    of 128 B (32 KiB) in 6 stages, 3 CTAs a SM of two 32 KiB stages; each with one thread issuing and split."""
    shapes = [(2048, 32, 3, 1), (256, 256, 3, 1), (128, 256, 6, 1), (2048, 16, 2, 3)]
    out = [Config(i, r, s, k, lag=1, split=sp) for i, r, s, k in shapes for sp in (False, True)]
    return [c for c in out if fits(c, per_sm, per_block)]


def lean(per_sm: int, per_block: int, quick: bool = False) -> list:
    """The persistent kernel with fewer bytes in flight a SM (32, 48, 64 KiB: ``configs`` starts at 96):
    tiles of 4, 8 and 16 KiB (2048-byte rows), 1 or 2 CTAs a SM, lag 1 or half the stages."""
    out = []
    for tile in (8192,) if quick else (4096, 8192, 16384):
        for budget in (32 << 10, 64 << 10) if quick else (32 << 10, 48 << 10, 64 << 10):
            for ctas in (1, 2):
                stages = budget // ctas // tile
                for lag in sorted({1, stages // 2}):
                    if 1 <= lag < stages:
                        c = Config(2048, tile // 2048, stages, ctas, lag=lag)
                        if fits(c, per_sm, per_block) and c not in out:
                            out.append(c)
    return out


MAX_CTAS_A_SM = 32  # Hopper's resident blocks a SM


def wave(per_sm: int, per_block: int, quick: bool = False) -> list:
    """Short CTAs instead of a persistent grid: each loads its ``chunk`` consecutive tiles at once, stores
    each as it lands and ends once the stores have read shared memory; the block scheduler starts CTAs in
    order, so the bytes in flight stay on one narrow address window (as the ld/st copy's CTAs do).  Tiles
    of 2 to 32 KiB (rows of 2048 bytes), chunks of 1, 2 and 4 tiles, occupancy (padded shared memory) for
    32 to 128 KiB in flight a SM (the H200's best: 40 KiB, ten CTAs of one 4 KiB tile).  ``quick``: the neighbourhood of the H200's best (one tile of 2 or 4 KiB
    a CTA, 36-56 KiB in flight a SM; rows of 1024 bytes too; the evict_first hint on two of them)."""
    if quick:
        shapes = ([(2048, 2, k, False) for k in (9, 10, 11, 12, 13, 14)] + [(1024, 4, k, False) for k in (10, 12)]
                  + [(2048, 1, k, False) for k in (18, 20, 22, 24)] + [(2048, 2, k, True) for k in (10, 12)])
        out = [Config(i, r, 1, k, lag=1, hint=h, chunk=1) for i, r, k, h in shapes]
        return [c for c in out if fits(c, per_sm, per_block)]
    out = []
    for tile in (2048, 4096, 8192, 16384, 32768):
        for chunk in (1, 2, 4):
            for budget in (32, 40, 48, 56, 64, 80, 96, 128):
                ctas = (budget << 10) // (chunk * tile)
                if 1 <= ctas <= MAX_CTAS_A_SM and ctas * chunk * tile == budget << 10:
                    c = Config(2048, tile // 2048, chunk, ctas, lag=1, chunk=chunk)
                    if fits(c, per_sm, per_block) and c not in out:
                        out.append(c)
    return out


VARIANTS = {  # family -> its configurations (per_sm, per_block, quick)
    "base": configs,
    "split": lambda *a: configs(*a, split=True),
    "hint": lambda *a: configs(*a, hint=True),
    "splithint": lambda *a: configs(*a, split=True, hint=True),
    "big": big,
    "bulk": lambda *a: configs(*a, bulk=True),  # a comparison: cp.async.bulk 1-D, not the tensor kernel
    "lean": lean,
    "wave": wave,
}


def family_of(c) -> str:
    """The variant family that names ``c`` (``bulk``, then ``big`` by its tile or box, then the issue
    scheme and the hint)."""
    if c.bulk:
        return "bulk"
    if c.chunk:
        return "wave"
    if not c.split and not c.hint and c.stages * c.tile * c.ctas_per_sm < (96 << 10):
        return "lean"
    if c.tile > 32768 or c.rows > 128 or c.ctas_per_sm == 3:
        return "big"
    return {(False, False): "base", (True, False): "split", (False, True): "hint", (True, True): "splithint"}[
        (c.split, c.hint)]


def parse_variants(text: str) -> list:
    """``--variants``' comma-separated families, each known (ValueError naming the unknown one otherwise)."""
    names = [v.strip() for v in text.split(",") if v.strip()]
    bad = [v for v in names if v not in VARIANTS]
    if bad or not names:
        raise ValueError(f"--variants {text!r}: unknown {', '.join(bad) or 'nothing'}; "
                         f"choose from {', '.join(VARIANTS)}")
    return list(dict.fromkeys(names))


def sweep_configs(names: list, per_sm: int, per_block: int, quick: bool = False) -> list:
    """Every configuration of the named families, in order, once each."""
    out = []
    for v in names:
        out += [c for c in VARIANTS[v](per_sm, per_block, quick) if c not in out]
    return out


def preflight(cs: list, args) -> list:
    """Run every configuration's ragged-height copy in a child process (4 MiB buffer, its own context)
    first; a launch failure (a trap, a fault: the context is lost) or a wrong copy ends that child and
    drops that configuration (reported), the next child goes on after it.  A second failure in one
    family and issue scheme drops the rest of it unchecked (a broken scheme costs two children, not one a
    configuration).  Returns the configurations that copied exactly, so one bad variant does not end
    the run."""
    t = time.perf_counter()
    base = [sys.executable, str(Path(__file__).resolve()), "--gib", str(4 / 1024), "--variants",
            ",".join(parse_variants(args.variants)), "--json", ""] + (["--quick"] if args.quick else [])
    ok, todo, failed = set(), list(range(len(cs))), {}
    while todo:
        try:
            r = subprocess.run(base + ["--preflight-child", ",".join(map(str, todo))], capture_output=True,
                               text=True, timeout=120)
            out, err, rc = r.stdout, r.stderr, r.returncode
        except subprocess.TimeoutExpired as e:
            out, err, rc = (e.stdout or b"").decode(), "timed out after 120 s", -1
        ok |= {int(m) for m in re.findall(r"^PREFLIGHT ok (\d+)$", out, re.M)}
        todo = [i for i in todo if i not in ok]
        if rc == 0 or not todo:
            break
        bad, todo = todo[0], todo[1:]
        why = (err.strip().splitlines() or [f"exit status {rc}"])[-1]
        print(f"  [{family_of(cs[bad])}] {cs[bad]}: dropped, its preflight copy failed: {why}", flush=True)
        key = (family_of(cs[bad]), cs[bad].split)
        failed[key] = failed.get(key, 0) + 1
        if failed[key] == 2:
            rest = [i for i in todo if (family_of(cs[i]), cs[i].split) == key]
            todo = [i for i in todo if i not in rest]
            print(f"  [{key[0]}] {'split issue' if key[1] else 'one thread'}: failed twice, its other "
                  f"{len(rest)} configurations dropped unchecked", flush=True)
    print(f"preflight: {len(ok)} of {len(cs)} configurations copied a ragged height exactly, in "
          f"{time.perf_counter() - t:.1f} s", flush=True)
    if cs and not ok:  # no child copied anything: a child's own failure (its context?), not the kernels'
        print("preflight: no child copied anything; the run goes on without it", flush=True)
        return cs
    return [c for i, c in enumerate(cs) if i in ok]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gib", type=float, default=1.0, help="the buffer's size in GiB (default 1)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sweep-reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="a few configurations only")
    ap.add_argument("--variants", default="base,wave",
                    help=f"comma-separated variant families to sweep: {', '.join(VARIANTS)} (default base,wave)")
    ap.add_argument("--no-preflight", action="store_true",
                    help="skip the preflight (every configuration's ragged copy in a child process first)")
    ap.add_argument("--preflight-child", default=None, help=argparse.SUPPRESS)  # indices into the sweep
    ap.add_argument("--json", default=str(Path(os.environ.get("OUT", ".")) / "tma_copy.json"))
    args = ap.parse_args()
    try:
        names = parse_variants(args.variants)
    except ValueError as e:
        ap.exit(2, f"bench/tma_copy.py: {e}\n")

    import pycuda.driver as cuda

    cuda.init()  # the device's attributes need no context: the preflight's children run before this
    dev0 = cuda.Device(0)  # process makes one (a device in exclusive-process mode takes one at a time)
    attr = cuda.device_attribute
    sms = dev0.get_attribute(attr.MULTIPROCESSOR_COUNT)
    per_block = dev0.get_attribute(attr.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
    per_sm = dev0.get_attribute(attr.MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
    cs = sweep_configs(names, per_sm, per_block, args.quick)
    if args.preflight_child is None and not args.no_preflight:
        cs = preflight(cs, args)

    import pycuda.autoinit  # noqa: F401

    dev = pycuda.autoinit.device
    inner_lcm = 2048
    nbytes = int(args.gib * 2**30) // (inner_lcm * 256) * (inner_lcm * 256)  # whole tiles of every config
    t0 = time.perf_counter()
    host = np.random.default_rng(20261203).integers(0, 2**63, size=nbytes // 8, dtype=np.uint64)
    src = cuda.mem_alloc(nbytes)
    dst = cuda.mem_alloc(nbytes + GUARD)
    cuda.memcpy_htod(src, host)
    print(f"device {dev.name()} ({sms} SMs, {per_sm // 1024} KiB shared a SM), {nbytes / 2**30:.3g} GiB of random "
          f"data ready in {time.perf_counter() - t0:.1f} s; {len(cs)} configurations ({','.join(names)})", flush=True)

    t = time.perf_counter()
    kernels = {c.name: c for c in cs}  # configurations that differ only in CTAs a SM share a kernel
    text = ".version 8.0\n.target sm_90\n.address_size 64\n" + "\n".join(
        tma_copy.copy_ptx(c).split(".address_size 64\n", 1)[1] for c in kernels.values())
    # loaded into pycuda's context, launched by cuLaunchKernel with kernelParams: pycuda's own launch
    # breaks the by-value tensor maps (wrong data or illegal instruction on the H200)
    mod = tensormap_driver.Module(text)
    print(f"module of {len(kernels)} kernels loaded (driver JIT) in {time.perf_counter() - t:.1f} s", flush=True)

    def launcher(c, height, s=src, d=dst):
        # a wave's kernel is shared by configurations of other occupancies: the largest any may ask
        mod.set_max_dynamic_shared(c.name, per_block if c.chunk else c.shared)
        tiles = c.tiles(height)
        if c.bulk:  # pointers, no maps
            kargs = tma_copy.bulk_args(int(s), int(d), height, c)
        else:
            m_src, m_dst = tma_copy.maps(tensormap_driver.encode_tiled, int(s), int(d), height, c)
            kargs = tma_copy.launch_args(m_src, m_dst, tiles)
        return mod.launcher(c.name, kargs, grid=(c.grid(tiles, sms),),
                            block=(c.threads,), shared=c.dynamic(per_sm))

    check = np.empty(nbytes // 8 + GUARD // 8, dtype=np.uint64)

    def verify(c, whole=True):
        """Bit for bit: a ragged height (7 tiles and 3 rows), then (``whole``) the whole buffer; the bytes
        after the copy untouched."""
        for height in (7 * c.rows + 3, nbytes // c.inner)[:2 if whole else 1]:
            n = height * c.inner
            cuda.memset_d8(dst, 0xA5, nbytes + GUARD)
            launcher(c, height)()
            cuda.Context.synchronize()
            got = check[:(n + GUARD) // 8]
            cuda.memcpy_dtoh(got, dst)
            got = got.view(np.uint8)
            if not np.array_equal(got[:n], host.view(np.uint8)[:n]) or not (got[n:n + GUARD] == 0xA5).all():
                bad = np.flatnonzero(got[:n] != host.view(np.uint8)[:n])
                raise SystemExit(f"{c}: the copy of {height} rows differs ({len(bad)} bytes, first at {bad[:1]}) "
                                 f"or wrote past its end")
        return True

    if args.preflight_child is not None:  # a child of preflight: the ragged copies of these indices
        for i in map(int, args.preflight_child.split(",")):
            c = cs[i]
            try:
                verify(c, whole=False)
            except ValueError:  # a map the driver refused: the parent reports it
                pass
            print(f"PREFLIGHT ok {i}", flush=True)
        return

    start, end = cuda.Event(), cuda.Event()

    def time_it(launch, reps):
        launch(), launch()  # warm
        ts = []
        for _ in range(reps):
            start.record()
            launch()
            end.record()
            end.synchronize()
            ts.append(end.time_since(start) / 1e3)
        return ts

    memcpy = lambda: cuda.memcpy_dtod(dst, src, nbytes)  # noqa: E731
    ref = statistics.median(time_it(memcpy, args.sweep_reps))
    sweep = []
    for c in cs:
        try:
            verify(c, whole=False)
        except ValueError as e:  # the driver refused a map: reported, not timed
            print(f"  {c}: {e}", flush=True)
            continue
        med = statistics.median(time_it(launcher(c, nbytes // c.inner), args.sweep_reps))
        sweep.append((c, med))
        print(f"  [{family_of(c)}] {c}: verified (ragged); {med * 1e3:.3f} ms, {2 * nbytes / med / 1e12:.3f} TB/s, "
              f"{ref / med:.3f} x cuMemcpyDtoD", flush=True)
    best = [c for c, _ in sorted(sweep, key=lambda x: x[1])[:3]]
    for c in [c for c in best if not c.bulk]:  # (bulk copies have no maps)
        c2 = dataclasses.replace(c, l2="256B")  # the same kernel, other maps
        try:
            verify(c2, whole=False)
        except ValueError as e:
            print(f"  {c2}: {e}", flush=True)
            continue
        med = statistics.median(time_it(launcher(c2, nbytes // c2.inner), args.sweep_reps))
        sweep.append((c2, med))
        print(f"  {c2}: verified; {med * 1e3:.3f} ms, {ref / med:.3f} x cuMemcpyDtoD", flush=True)
    ranked = [c for c, _ in sorted(sweep, key=lambda x: x[1])]
    finalists = ranked[:3]
    for v in names:  # and the best of each family swept
        finalists += [c for c in ranked if family_of(c) == v and c not in finalists][:1]
    for c in finalists:
        verify(c)
        print(f"  finalist {c}: the whole {nbytes / 2**30:.3g} GiB verified bit for bit", flush=True)

    variants = {"cuMemcpyDtoD": memcpy}
    for c in finalists:
        variants[f"TMA [{family_of(c)}] {c}"] = launcher(c, nbytes // c.inner)
    times = {name: [] for name in variants}
    for _ in range(args.rounds):
        for name, launch in variants.items():
            times[name] += time_it(launch, args.reps)
    mc = statistics.median(times["cuMemcpyDtoD"])
    rows = [{"variant": n, "ms": statistics.median(ts) * 1e3, "TB/s": 2 * nbytes / statistics.median(ts) / 1e12,
             "vs memcpy": mc / statistics.median(ts)} for n, ts in times.items()]
    print(f"\n{dev.name()}, {nbytes / 2**30:.3g} GiB copy, median of {args.rounds}x{args.reps} launches, interleaved\n")
    print("| variant | ms | TB/s | / cuMemcpyDtoD |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r['variant']} | {r['ms']:.3f} | {r['TB/s']:.3f} | {r['vs memcpy']:.3f} |")
    tensor = [r for r in rows[1:] if not r["variant"].startswith("TMA [bulk]")]
    if tensor:
        top = max(tensor, key=lambda r: r["vs memcpy"])
        print(f"\ntma_copy: best TMA copy {top['vs memcpy']:.3f} x cuMemcpyDtoD ({top['variant']}); "
              f"{len(sweep)} configurations verified bit for bit against numpy at a ragged height, the "
              f"finalists on the whole buffer")
    bulk_rows = [r for r in rows[1:] if r["variant"].startswith("TMA [bulk]")]
    if bulk_rows:  # the comparison, not counted as the TMA tensor kernel
        top = max(bulk_rows, key=lambda r: r["vs memcpy"])
        print(f"tma_copy: best cp.async.bulk 1-D copy (a comparison, not the tensor kernel) "
              f"{top['vs memcpy']:.3f} x cuMemcpyDtoD ({top['variant']})")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({
            "device": dev.name(), "bytes": nbytes, "rows": rows,
            "variants": names,
            "sweep": [{"family": family_of(c), "config": str(c), "name": c.name, "ms": m * 1e3,
                       "vs memcpy (sweep)": ref / m} for c, m in sweep]}, indent=1))


if __name__ == "__main__":
    main()
