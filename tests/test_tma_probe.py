"""The TMA landing probe without a GPU: its cases, its kernels through ptxas, and its comparison
held to a device simulated by the brute-force restatement of tests/test_tma_landing.py (so a probe
that says "model == hardware" on the H200 compares what it claims to)."""
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from test_tma_landing import brute
from tilecheck.gpu import tma_probe as tp
from tilecheck.tools import ToolNotFound, find_tool

CASES = tp.cases()
MAIN = [c for c in CASES if c.group == "main"]
ROOT = Path(__file__).resolve().parents[1]


def test_the_cases_cover_the_brief():
    loads = [c for c in MAIN if c.kind == "load"]
    assert {(c.swizzle, c.esize) for c in loads} == {(s, e) for s in ("none", "32B", "64B", "128B")
                                                    for e in (1, 2, 4, 8)}
    assert {c.rank for c in loads} == {1, 2, 3}
    assert any(c.es[1] > 1 for c in loads) and any(c.es[0] > 1 for c in loads)
    for sw, span in (("32B", 32), ("64B", 64), ("128B", 128)):
        widths = {c.box[0] * c.esize for c in loads if c.swizzle == sw}
        assert min(widths) == 16 and max(widths) == span
        repeat = 2 * span * 8 // 2
        dsts = {c.dst_offset % repeat for c in loads if c.swizzle == sw}
        assert 0 in dsts and dsts - {0} and all(d % 128 == 0 for d in dsts)
    assert {c.edge for c in loads} == {"", "hi", "lo", "out", "neg"}
    assert any(c.oob == "nan" for c in loads) and all(c.dtype in tp.FLOATS for c in loads if c.oob == "nan")
    assert any(c.kind == "store" and c.note.startswith("clipped") for c in MAIN)
    for c in MAIN:  # the main set keeps to the rules: 16-byte inner coordinate, 128-byte destination
        assert (c.start[0] * c.esize) % 16 == 0 and c.dst_offset % 128 == 0, c.name
        assert c.nbytes == c.model().nbytes and c.shared_size <= 48 * 1024
    assert len({c.name for c in CASES}) == len(CASES) > 600


def test_kernels_name_their_box_bytes_and_take_the_map_by_value():
    for c in CASES[::37]:
        text = tp.kernel_ptx(c)
        assert f".param .align 64 .b8 {c.name}_tmap[128]" in text
        assert f"cp.async.bulk.tensor.{c.rank}d." in text
        if c.kind == "load":
            assert f"expect_tx.shared::cta.b64 \t_, [%r2], {c.nbytes};" in text
            assert "mbarrier.try_wait.parity" in text and f"{tp.SPIN_LIMIT}" in text
        else:
            assert ".global.shared::cta.bulk_group" in text and "cp.async.bulk.wait_group \t0" in text


def test_every_kernel_assembles(tmp_path):
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"no ptxas here: {e}")
    files = tp.assemble(CASES, tmp_path)
    assert sum(f.read_text().count(".visible .entry") for f in files) == len(CASES)
    assert all(f.with_suffix(".cubin").stat().st_size > 0 for f in files)


def simulate_load(c, array, gbytes, nan=False, anchor_at_dst=False):
    """What the device's shared array holds after the load, by the brute-force restatement."""
    img = tp.sentinel(c.shared_size)
    dst = array + c.dst_offset
    placed = brute(c.esize, c.box, c.es, c.swizzle, 0 if anchor_at_dst else dst, c.start)
    for k, (addr, coords) in placed.items():
        addr = (addr + dst if anchor_at_dst else addr) - array
        inside = all(0 <= x < d for x, d in zip(coords, c.dims))
        if inside:
            g = c.goff + coords[0] * c.esize + sum(x * s for x, s in zip(coords[1:], c.strides))
            img[addr:addr + c.esize] = gbytes[g:g + c.esize]
        else:
            img[addr:addr + c.esize] = 0xFF if nan else 0
    return img


GBYTES = tp.source_bytes(tp.GLOBAL_BYTES, 30)
SAMPLE = [c for c in MAIN if c.kind == "load" and c.nbytes <= 4096][::9]


def test_the_comparison_passes_the_simulated_device():
    """Every main load case: the device simulated by the restatement equals the model's prediction."""
    nan_cases = 0
    for c in MAIN:
        if c.kind != "load":
            continue
        got = simulate_load(c, 1024 + 1024 * (c.dst_offset % 3), GBYTES, nan=c.oob == "nan")
        r = tp.judge_load(c, 1024 + 1024 * (c.dst_offset % 3), GBYTES, got)
        assert r["ok"], (c.name, r)
        if c.oob == "nan" and c.edge:
            assert r["nan_fill"]["nan"] == r["nan_fill"]["elements"] > 0
            nan_cases += 1
    assert nan_cases >= 30


def test_the_comparison_catches_a_wrong_landing():
    [c] = [c for c in MAIN if c.kind == "load" and c.swizzle == "128B" and c.dst_offset == 384 and c.esize == 2
           and c.rank == 2][:1]
    got = simulate_load(c, 1024, GBYTES, anchor_at_dst=True)  # a device that anchors at the destination
    r = tp.judge_load(c, 1024, GBYTES, got)
    assert not r["ok"] and r["first_diff"]["count"] > 0
    o = tp._verdict(c, 1024, {}, lambda how: tp.judge_load(c, 1024, GBYTES, got, how))
    assert o.status == "differs" and o.matches == ["at_dst"]
    zero_for_nan = simulate_load(next(x for x in SAMPLE if x.oob == "nan" and x.edge == "hi"), 1024, GBYTES)
    bad = tp.judge_load(next(x for x in SAMPLE if x.oob == "nan" and x.edge == "hi"), 1024, GBYTES, zero_for_nan)
    assert not bad["ok"] and "not NaN" in bad["why"]
    stray = simulate_load(SAMPLE[0], 1024, GBYTES)
    stray[-1] ^= 0x80  # one byte written past the box
    assert not tp.judge_load(SAMPLE[0], 1024, GBYTES, stray)["ok"]


def test_the_shared_array_holds_the_padded_rows():
    """The H200 (2026-12-03): with dense-sized arrays, 128B boxes of narrow rows overran them and
    faulted.  Every case's array now holds the padded footprint, which the restatement confirms."""
    for c in CASES:
        if c.group == "atom":
            continue
        addrs = [a for a, _ in brute(c.esize, c.box, c.es, c.swizzle, c.dst_offset, c.start).values()]
        assert max(addrs) + c.esize <= c.dst_offset - c.dst_offset % 1024 + c.footprint + 1024
        assert c.dst_offset + c.footprint <= c.shared_size - tp.SLACK, c.name
    [c] = [c for c in MAIN if c.name.endswith("_load_float16_64B_r2_8x8")]
    assert (c.nbytes, c.footprint) == (128, 512) and c.shared_size >= 512


def test_a_dense_device_is_told_apart_and_its_bytes_recorded():
    """A device that wrote dense rows (the model before 2026-12-03) differs, matches ``dense``, and
    the verdict carries the device's bytes for study without the device."""
    [c] = [c for c in MAIN if c.name.endswith("_load_float16_64B_r2_8x9_d128")]
    img = tp.sentinel(c.shared_size)
    dst = 1024 + c.dst_offset
    for k in np.ndindex(*reversed(c.model().shape)):
        k = tuple(reversed(k))
        coords = tuple(s + x for s, x in zip(c.start, k))
        a = dst + k[0] * 2 + k[1] * 16
        a ^= ((a >> 7) & 3) << 4  # the 64B swizzle on the dense address
        g = c.goff + coords[0] * 2 + coords[1] * c.strides[0]
        img[a - 1024:a - 1024 + 2] = GBYTES[g:g + 2]
    o = tp._verdict(c, 1024, {}, lambda how: tp.judge_load(c, 1024, GBYTES, img, how), img)
    assert o.status == "differs" and o.matches == ["dense"]
    assert (tp.unpack(o.detail["got"]) == img).all() and len(o.detail["got"]) < len(img)


def test_a_store_is_judged_against_the_same_landing():
    """Every main store case: the global tensor the restatement writes equals the probe's expectation."""
    stores = [c for c in MAIN if c.kind == "store"]
    assert len(stores) > 50 and {c.edge for c in stores} == {"", "hi", "lo"}
    for c in stores:
        image = tp.source_bytes(c.shared_size, 7)
        before = tp.sentinel(c.extent)
        after = before.copy()
        for k, (addr, coords) in brute(c.esize, c.box, c.es, c.swizzle, 2048 + c.dst_offset, c.start).items():
            if all(0 <= x < d for x, d in zip(coords, c.dims)):
                g = coords[0] * c.esize + sum(x * s for x, s in zip(coords[1:], c.strides))
                after[g:g + c.esize] = image[addr - 2048:addr - 2048 + c.esize]
        assert (tp.expect_store(c, 2048, image, before) == after).all(), c.name
        assert (after != before).any()


def test_the_file_runs_without_the_package(tmp_path):
    """``python tilecheck/gpu/tma_probe.py`` loads the two pure modules by path: no tilecheck package, no z3."""
    code = ("import runpy, sys\n"
            f"sys.argv = ['tma_probe.py', '--build-only', '--only', '_0001_', '--out', {str(tmp_path)!r}]\n"
            "try:\n"
            f"    runpy.run_path({str(ROOT / 'tilecheck/gpu/tma_probe.py')!r}, run_name='__main__')\n"
            "except SystemExit as e:\n"
            "    assert not e.code, e.code\n"
            "print(sorted(m for m in sys.modules if m == 'z3' or m.startswith('tilecheck')))\n")
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"no ptxas here: {e}")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                       env={"PATH": str(Path(find_tool("ptxas")).parent) + ":/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"
    assert "1 kernels in 1 modules" in r.stdout


@pytest.mark.gpu
def test_the_probe_on_the_device(tmp_path):
    try:
        import pycuda.driver as drv
        drv.init()
        assert drv.Device.count() > 0
    except Exception as e:  # noqa: BLE001 (no pycuda, no driver, no device: skip with the reason)
        pytest.skip(f"GPU test: no CUDA device with pycuda here ({e})")
    assert tp.main(["--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "tma_probe.json").read_text())
    assert re.search(r"model == hardware: (\d+)/\1 ", data["summary"]), data["summary"]


def test_a_fault_ends_one_child_and_a_new_one_takes_the_rest(monkeypatch):
    """The parent never touches the device: children answer one JSON line per case; the case a child
    died on is a fault, and the cases after it run in a new child."""
    cs = MAIN[:5]
    index = {c.name: k for k, c in enumerate(CASES)}
    calls = []

    class Done:
        def __init__(self, out, code):
            self.stdout, self.stderr, self.returncode = out, "CUDA_ERROR_ILLEGAL_INSTRUCTION", code

    def fake(cmd, **kw):
        ks = [int(k) for k in cmd[cmd.index("--child") + 1].split(",")]
        calls.append(ks)
        lines = []
        for k in ks:
            if k == index[cs[2].name] and len(calls) == 1:
                return Done("\n".join(lines), 1)  # dies on the third case
            lines.append(json.dumps({"name": CASES[k].name, "status": "ok", "detail": {}, "matches": []}))
        return Done("\n".join(lines), 0)

    monkeypatch.setattr(tp.subprocess, "run", fake)
    outs = tp.run_children(cs)
    assert [o.status for o in outs] == ["ok", "ok", "fault", "ok", "ok"]
    assert "ILLEGAL_INSTRUCTION" in outs[2].detail["message"]
    assert calls == [[index[c.name] for c in cs], [index[c.name] for c in cs[3:]]]
    line = tp.summary(outs)
    assert line.startswith("tma_probe: model == hardware: 4/5 (loads 4/5, stores 0/0") and "(fault)" in line


def test_a_case_that_faults_first_in_its_child_does_not_stop_the_rest(monkeypatch):
    """The first H200 run: every child died on its first case, and after two such children the probe
    marked the remaining 866 cases "not run".  A child that loaded its module (its ``ready`` line) and
    dies is a fault of the case it was on; the next child starts after it."""
    cs = MAIN[:4]
    calls = []

    class Done:
        def __init__(self, out):
            self.stdout, self.stderr, self.returncode = out, "CUDA_ERROR_ILLEGAL_INSTRUCTION", 1

    def fake(cmd, **kw):
        calls.append(cmd[cmd.index("--child") + 1])
        return Done(json.dumps({"ready": True}))  # loaded, then the first case faults

    monkeypatch.setattr(tp.subprocess, "run", fake)
    outs = tp.run_children(cs)
    assert [o.status for o in outs] == ["fault"] * 4 and len(calls) == 4


def test_children_that_never_start_leave_the_rest_not_run(monkeypatch):
    """No ready line twice (no module, no device): the rest is "not run", not a fault per case."""
    class Done:
        stdout, stderr, returncode = "", "cuInit failed", 1

    calls = []
    monkeypatch.setattr(tp.subprocess, "run", lambda cmd, **kw: calls.append(cmd) or Done())
    outs = tp.run_children(MAIN[:4])
    assert [o.status for o in outs] == ["not run"] * 4 and len(calls) == 2


# --- the launcher: cuLaunchKernel with kernelParams (pycuda's launch breaks the by-value map) ---------------

class FakeDriver:
    """A stand-in libcuda: records what the launcher hands the driver, reading each kernelParams pointer."""
    SIZES = {"k_load": (128, 8), "k_store": (128, 8, 8)}

    def __init__(self):
        self.launches, self.attrs = [], []

    def cuModuleLoadData(self, ref, image):
        self.image = ref._obj.value, image.raw
        ref._obj.value = 0x1000
        return 0

    def cuModuleGetFunction(self, ref, module, name):
        if name.decode() not in self.SIZES:
            return 500  # CUDA_ERROR_NOT_FOUND
        ref._obj.value = 0x2000 + len(name)
        return 0

    def cuFuncSetAttribute(self, f, attr, value):
        self.attrs.append((f.value, attr, value))
        return 0

    def cuLaunchKernel(self, f, gx, gy, gz, bx, by, bz, shared, stream, kp, extra):
        name = "k_load" if f.value == 0x2000 + 6 else "k_store"
        ptrs = [kp[k] for k in range(len(self.SIZES[name]))]
        self.launches.append({"f": f.value, "grid": (gx.value, gy.value, gz.value),
                              "block": (bx.value, by.value, bz.value), "shared": shared.value,
                              "stream": stream.value, "extra": extra, "ptrs": ptrs,
                              "args": [__import__("ctypes").string_at(p, n)
                                       for p, n in zip(ptrs, self.SIZES[name])]})
        return 0

    def cuGetErrorName(self, rc, ref):
        ref._obj.value = {500: b"CUDA_ERROR_NOT_FOUND", 715: b"CUDA_ERROR_ILLEGAL_INSTRUCTION"}[rc]
        return 0


def test_the_launcher_passes_a_pointer_to_each_arguments_bytes():
    """kernelParams[i] points to argument i's bytes: the 128-byte map itself (by value), then each
    scalar at its width; grid, block, shared memory and stream as given."""
    import ctypes
    from tilecheck.gpu import tensormap_driver as td
    lib = FakeDriver()
    mod = td.Module(".version 8.0\n.target sm_90\n", lib=lib)
    assert lib.image[1].endswith(b".target sm_90\n\0")  # PTX as a C string
    desc = bytes(range(128))
    mod.launch("k_load", [desc, np.uintp(0xDEADBEEF00)], block=(128,))
    mod.launch("k_store", [desc[::-1], np.uintp(7), ctypes.c_uint64(2**40 + 5)], grid=(3, 2), block=(32, 1, 1),
               shared=4096, stream=0x77)
    a, b = lib.launches
    assert a["args"] == [desc, (0xDEADBEEF00).to_bytes(8, "little")]
    assert a["grid"] == (1, 1, 1) and a["block"] == (128, 1, 1) and a["shared"] == 0 and a["stream"] is None
    assert a["extra"] is None and len(set(a["ptrs"])) == 2 and all(p % 8 == 0 for p in a["ptrs"])
    assert b["args"] == [desc[::-1], (7).to_bytes(8, "little"), (2**40 + 5).to_bytes(8, "little")]
    assert b["grid"] == (3, 2, 1) and b["block"] == (32, 1, 1) and b["shared"] == 4096 and b["stream"] == 0x77
    go = mod.launcher("k_load", [desc, np.uint64(1)], block=(128,))  # marshalled once, launched twice
    go(), go()
    assert lib.launches[-1]["args"] == lib.launches[-2]["args"] == [desc, (1).to_bytes(8, "little")]
    mod.set_max_dynamic_shared("k_store", 200 * 1024)
    assert lib.attrs == [(0x2000 + 7, td.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 204800)]


def test_the_launcher_names_the_drivers_error_and_refuses_a_bare_int():
    from tilecheck.gpu import tensormap_driver as td
    lib = FakeDriver()
    mod = td.Module(b"ptx", lib=lib)
    with pytest.raises(td.CudaError, match=r"cuModuleGetFunction\(nope\): CUDA_ERROR_NOT_FOUND \(500\)"):
        mod.launch("nope", [])
    lib.cuLaunchKernel = lambda *a: 715
    with pytest.raises(td.CudaError, match=r"cuLaunchKernel\(k_load\): CUDA_ERROR_ILLEGAL_INSTRUCTION \(715\)"):
        mod.launch("k_load", [bytes(128), np.uintp(0)])
    with pytest.raises(TypeError, match="np.uint32"):
        mod.launch("k_load", [bytes(128), 5])


def test_the_probe_launches_through_the_driver_not_pycuda():
    """pycuda stays for memory; no kernel is called through pycuda's packed-argument launch."""
    text = (ROOT / "tilecheck/gpu/tma_probe.py").read_text()
    assert "get_function" not in text and '"V128"' not in text and "mod.launch(c.name, [enc.descriptor" in text


def test_the_store_edge_group_and_its_predictions():
    """``--only store_edge``: float16/float32 x swizzle none/128B x the near edge in dimension 0, 1 or both
    and the far edge, each with dims[0] * size whole 16-byte chunks and not; tma_store_edge's verdict of
    each (``store_edge_rule``) and the bytes a device writing whole chunks past dims[0] leaves (``chunk16``):
    the unaligned far edge's rows end 10 or 4 bytes before a chunk's end, so rows x those bytes differ from
    the model there and nowhere else."""
    edge = [c for c in CASES if c.group == "store_edge"]
    assert edge == [c for c in CASES if "store_edge" in c.name]  # what --only store_edge selects
    assert {(c.dtype, c.swizzle, c.edge) for c in edge} == {
        (d, s, f"{e}_{a}") for d in ("float16", "float32") for s in ("none", "128B")
        for e in ("neg0", "neg1", "neg01", "hi") for a in ("a16", "u16")}
    for c in edge:
        assert c.kind == "store" and (c.start[0] * c.esize) % 16 == 0 and c.strides[0] % 16 == 0
        assert ((c.dims[0] * c.esize) % 16 == 0) == c.edge.endswith("a16")
        rule = tp.store_edge_rule(c)
        assert rule == ("fault" if c.edge.startswith("neg") else "exact" if c.edge.endswith("a16") else "chunks")
        image = tp.source_bytes(c.shared_size, 7)
        before = tp.sentinel(c.extent)
        model = tp.expect_store(c, 2048, image, before)
        chunks = tp.expect_store(c, 2048, image, before, "chunk16")
        past = -(-c.dims[0] * c.esize // 16) * 16 - c.dims[0] * c.esize
        rows = min(c.box[1], c.dims[1] - c.start[1]) if c.start[0] + c.box[0] > c.dims[0] else 0
        assert int((model != chunks).sum()) == (rows * past if rule == "chunks" else 0), c.name
        # the verdict against each thing a device may do
        o = tp.Outcome(c, "ok")
        assert tp.store_edge_verdict(o) == ("agrees" if rule == "exact" else "conservative")
        other = {"exact": "UNSOUND", "fault": "agrees", "chunks": "other"}
        assert tp.store_edge_verdict(tp.Outcome(c, "fault")) == other[rule]
        assert tp.store_edge_verdict(tp.Outcome(c, "differs", matches=["chunk16"])) == \
            {"exact": "UNSOUND", "fault": "other", "chunks": "agrees"}[rule]
    line = tp.store_edge_summary([tp.Outcome(c, "fault" if c.edge.startswith("neg") else "ok") for c in edge])
    assert line.startswith("store_edge: tma_store_edge == hardware 28/32 (4 conservative, 0 other, 0 UNSOUND)")
    # only dimension 0's near edge faults: dimension 1's negative starts are refuted, the device exact
    line = tp.store_edge_summary([tp.Outcome(c, "fault" if c.edge.startswith(("neg0_", "neg01")) else "ok")
                                  for c in edge])
    assert "20/32 (12 conservative, 0 other, 0 UNSOUND)" in line and "float16 none neg1_a16: ok [conservative]" in line


def test_the_measured_store_cases_are_chunk16():
    """The two far-edge stores that differed on the H200 (tma_probe 0434/0695, /work/data/tma_probe.json:
    20 bytes, 2 rows x 10) differ from the model by exactly what ``chunk16`` adds."""
    for name in ("0434_store_float16_64B_r2_32x5_hi", "0695_store_bfloat16_128B_r2_64x5_hi"):
        c = next(c for c in CASES if c.name == tp.PREFIX + name)
        image = tp.source_bytes(c.shared_size, 7)
        before = tp.sentinel(c.extent)
        assert int((tp.expect_store(c, 2048, image, before) != tp.expect_store(c, 2048, image, before, "chunk16"))
                   .sum()) == 20
        assert tp.store_edge_rule(c) == "chunks"
