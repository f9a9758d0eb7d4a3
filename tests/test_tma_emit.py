"""Emitting and running TMA copies (issue 30, item 5): every proved TMA check emits a kernel that ptxas
assembles (the tensor map a by-value parameter, the coordinates from the symbols, one issuing thread,
the mbarrier or the bulk group); the numpy reference lands the box where the landing model says and
reads and fills it as TMA does; on a GPU (marked ``gpu``) each runs equal to numpy."""
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

import tilecheck
from conftest import require_gpu
from tilecheck.errors import InputError
from tilecheck.families import mbarrier
from tilecheck import tma_landing
from tilecheck.check import from_dict
from tilecheck.emit import fragment, kernel
from tilecheck.emit.kernel import tensormap_params
from tilecheck.emit.sass import assemble
from tilecheck.gpu.reference import SENTINEL, bind_symbols, compare, reference
from tilecheck.tools import ToolNotFound, find_tool

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
LOAD = "cp.async.bulk.tensor.{r}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.{r}d.global.shared::cta.tile.bulk_group"
BITS = {"none": 0, "32B": 1, "64B": 2, "128B": 3}
DTYPE = {1: "uint8", 2: "float16", 4: "float32", 8: "float64"}
FLOAT = {2: "bfloat16", 4: "float32", 8: "float64"}


def tma_examples():
    """The TMA examples with a copy that prove (the refuted ones and the tensor-map-only files aside)."""
    out = []
    for p in sorted(EXAMPLES.glob("tma_*.toml")):
        c = tilecheck.load(p)
        if c.applies and tilecheck.prove(c).verdict == "proved" and not any(a.family.unemitted(a) for a in c.applies):
            out.append(p)
    return out


def test_a_multicast_or_a_separated_phase_is_refused_in_one_line_not_emitted_wrong():
    """A multicast needs a cluster launch; a phase's copies are waited for after its last, so an
    application between two of them would read before the first had landed: refused (Family.unemitted)."""
    c = tilecheck.load(EXAMPLES / "tma_multicast_halves.toml")
    report = tilecheck.prove(c)
    assert report.verdict == "proved"
    with pytest.raises(InputError, match="multicast"):
        kernel(report.plan)
    d = tomllib.loads((EXAMPLES / "tma_phase_ab.toml").read_text())
    between = {"opcode": "ld.shared.b16", "scope": "thread", "dst": "R", "src": "SA[0:1, 0:1]"}
    d["tensors"]["R"] = {"dtype": "float16", "scope": "register", "shape": [1, 1], "layout": "(1,1):(1,1)"}
    d["apply"] = [d["apply"][0], between, d["apply"][1]]
    c = from_dict(d)
    report = tilecheck.prove(c)
    assert report.verdict == "proved"
    why = c.applies[0].family.unemitted(c.applies[0], c)
    assert "consecutive" in why and "apply[0] .. apply[2]" in why and c.applies[0].family.unemitted(c.applies[0]) == ""
    with pytest.raises(InputError, match="consecutive"):
        kernel(report.plan)


def test_a_phase_of_two_loads_inits_one_barrier_declares_its_sum_once_and_waits_after_the_last():
    """tma_phase_ab: A's and B's boxes on one mbarrier, expect_tx 32768 (their sum) before the first copy,
    one wait after the second; each fragment in order: the first declares and initialises mbar0, the
    second names it and waits."""
    c = tilecheck.load(EXAMPLES / "tma_phase_ab.toml")
    plan = tilecheck.prove(c).plan
    ptx = kernel(plan)
    assert ptx.count(".shared .align 8 .b64 mbar0;") == 1 and "mbar1" not in ptx
    assert ptx.count("mbarrier.init.shared::cta.b64") == 1 and ptx.count("mbarrier.arrive.expect_tx") == 1
    assert "], 32768;" in ptx and ptx.count("mbarrier.try_wait.parity") == 1
    copies = [m.start() for m in re.finditer(r"\tcp\.async\.bulk\.tensor\.", ptx)]
    assert len(copies) == 2 and ptx.index("arrive.expect_tx") < copies[0] < copies[1] < ptx.index("try_wait")
    first, second = fragment(plan, 0).text, fragment(plan, 1).text
    assert ".shared .align 8 .b64 mbar0;" in first and "mbarrier.init" in first and "try_wait" not in first
    assert "mbar0" in second and ".shared .align" not in second and "mbarrier.init" not in second
    assert "arrive.expect_tx" not in second and "try_wait" in second


EXAMPLE_PATHS = tma_examples()


def case(kind="load", e=2, swizzle="128B", inner=64, rows=8, es=1, oob="none", stage=0, near=False, rank=2,
         dtype=None, threads=1, hint=False):
    """A proved TMA copy of an R x N (rank 3: D x R x N) tensor of ``e``-byte elements and a box of
    ``inner`` bytes by ``rows`` (element stride ``es`` between rows), at tile (c, r[, d]) of the symbols
    -- ``near``: starting 16 bytes before column 16*c, across the near edge at c = 0 -- landed at
    stage ``stage`` (128-byte steps) of a shared tensor declaring TMA's landing (rows padded to the
    swizzle's span)."""
    n0, visits = inner // e, -(-rows // es)
    b = BITS[swizzle]
    pitch = (16 << b) // e if b else n0
    shape, stride = [visits, n0], f"{pitch},1"
    if rank == 3:
        shape, stride = [2, visits, n0], f"{pitch * visits},{pitch},1"
    layout = f"({','.join(map(str, shape))}):({stride})"
    if b:
        layout = f"Sw<{b},{4 - (e.bit_length() - 1)},3> o {layout}"
    dtype = dtype or DTYPE[e]
    unit = 16 // e  # elements in 16 bytes: the inner coordinate's and the rows' granule
    c0 = f"{n0}*c" + (f" - {unit}" if near else "")
    dims, strides, gshape = ["N", "R"], [f"{e}*N"], ["R", "N"]
    coords, box, ess = [c0, f"{rows}*r"], [n0, rows], [1, es]
    if rank == 3:
        dims, strides, gshape = dims + [5], strides + [f"{e}*N*R"], [5, "R", "N"]
        coords, box, ess = coords + ["2*d"], box + [2], ess + [1]
    d = {"arch": "sm_90", "threads": threads,
         "symbols": {"N": {"min": unit, "max": 4096, "multiple_of": unit}, "R": {"min": 1, "max": 512},
                     "c": {"min": 0, "max": 64}, "r": {"min": 0, "max": 64}, "d": {"min": 0, "max": 2}},
         "tensors": {"G": {"dtype": dtype, "scope": "global", "shape": gshape, "align": 256},
                     "S": {"dtype": dtype, "scope": "shared", "shape": shape, "layout": layout,
                           "align": (128 << b) if b else 128, "offset": stage * 128 // e}},
         "tensormaps": {"T": {"tensor": "G", "dims": dims, "strides": strides, "box": box, "element_strides": ess,
                              "swizzle": swizzle, "oob_fill": oob}},
         "apply": [{"opcode": (LOAD if kind == "load" else STORE).format(r=rank) + (".L2::cache_hint" if hint else ""),
                    "tensormap": "T",
                    "coords": coords}]}
    ap = d["apply"][0]
    shared, glob = "S: " + " ".join("abc"[:rank]) + " -> (" + " ".join("abc"[:rank]) + ")", "G[" + ", ".join(["0:1"] * rank) + "]"
    if kind == "load":
        ap.update(dst=shared, src=glob, expect_tx=e * n0 * visits * (2 if rank == 3 else 1))
    else:
        ap.update(dst=glob, src=shared)
    return d


# (name, case arguments, symbol values): every swizzle and element size, narrow (padded) rows, element
# strides, stages off the pattern's repeat, boxes inside and across the far and near edges, zero and
# NaN fill, stores inside and clipped at the far edges, rank 3
CASES = {}
for sw in ("none", "32B", "64B", "128B"):
    span = 16 << BITS[sw] if BITS[sw] else 128
    for e in (1, 2, 4, 8):
        for inner in sorted({16, span}):
            tag = f"{sw}-e{e}-w{inner}"
            CASES[f"load-{tag}-inside"] = (dict(e=e, swizzle=sw, inner=inner, rows=8),
                                          {"N": 4 * inner // e, "R": 40, "c": 1, "r": 2})
            CASES[f"store-{tag}-inside"] = (dict(kind="store", e=e, swizzle=sw, inner=inner, rows=6),
                                           {"N": 4 * inner // e, "R": 40, "c": 2, "r": 3})
        CASES[f"load-{sw}-e{e}-far-zero"] = (dict(e=e, swizzle=sw, inner=span, rows=8),
                                             {"N": span // e + 16 // e, "R": 11, "c": 1, "r": 1})
        if e in FLOAT:
            CASES[f"load-{sw}-e{e}-far-nan"] = (dict(e=e, swizzle=sw, inner=span, rows=8, oob="nan", dtype=FLOAT[e]),
                                                {"N": span // e + 16 // e, "R": 11, "c": 1, "r": 1})
            CASES[f"load-{sw}-e{e}-near-nan-es2"] = (dict(e=e, swizzle=sw, inner=span, rows=7, es=2, oob="nan",
                                                          dtype=FLOAT[e], near=True), {"N": 64, "R": 30, "c": 0, "r": 0})
        CASES[f"store-{sw}-e{e}-far"] = (dict(kind="store", e=e, swizzle=sw, inner=span, rows=8),
                                         {"N": span // e + 16 // e, "R": 13, "c": 1, "r": 1})
    b = BITS[sw]
    for stage in ((1, 3) if b else (1,)):  # 128-byte steps: off the pattern's repeat (1024 for 128B)
        if stage * 128 < (128 << b) or not b:
            CASES[f"load-{sw}-stage{stage}"] = (dict(swizzle=sw, inner=min(span, 64), rows=8, stage=stage),
                                                {"N": 128, "R": 16, "c": 0, "r": 1})
CASES["load-128B-threads128"] = (dict(swizzle="128B", inner=128, rows=16, threads=128),  # one issues, all wait
                                  {"N": 256, "R": 40, "c": 1, "r": 2})
CASES["store-64B-threads64-far"] = (dict(kind="store", e=4, swizzle="64B", inner=64, rows=8, threads=64),
                                    {"N": 20, "R": 13, "c": 1, "r": 1})
CASES["load-32B-cache_hint"] = (dict(swizzle="32B", inner=32, rows=8, hint=True), {"N": 64, "R": 16, "c": 1, "r": 1})
CASES["store-none-cache_hint"] = (dict(kind="store", swizzle="none", inner=48, rows=3, hint=True),
                                  {"N": 48, "R": 7, "c": 0, "r": 2})
CASES["load-rank3-128B"] = (dict(swizzle="128B", inner=128, rows=4, rank=3), {"N": 128, "R": 9, "c": 0, "r": 2, "d": 1})
CASES["store-rank3-64B-clipped"] = (dict(kind="store", swizzle="64B", inner=64, rows=4, rank=3),
                                    {"N": 64, "R": 6, "c": 0, "r": 1, "d": 2})


def round_trip(swizzle="128B"):
    """Global -> shared -> global through two maps (two by-value parameters, in file order): a load
    across the far edges (zero fill), then a store of the landed tile to another tensor, clipped there."""
    inner = 16 << BITS[swizzle] if BITS[swizzle] else 128
    d = case(swizzle=swizzle, inner=inner, rows=8, threads=32)
    st = case(kind="store", swizzle=swizzle, inner=inner, rows=8)
    d["tensors"]["C"] = {**d["tensors"]["G"], "shape": ["R", "N"]}
    d["tensormaps"]["TC"] = {**st["tensormaps"]["T"], "tensor": "C"}
    d["apply"].append({**st["apply"][0], "tensormap": "TC", "dst": "C[0:1, 0:1]"})
    return d


def grid_store():
    """A grid of 4 CTAs: CTA b (``from = "ctaid.x"``) stores the shared tile to column tile b."""
    d = case(kind="store", e=4, swizzle="64B", inner=64, rows=4, threads=32)
    d["symbols"]["b"] = {"from": "ctaid.x", "min": 0, "max": 3}
    d["apply"][0]["coords"][0] = "16*b"
    return d


CASES["store-grid4-ctaid"] = (dict(builder=grid_store), {"N": 64, "R": 9, "r": 2})
CASES["roundtrip-128B"] = (dict(builder=round_trip), {"N": 72, "R": 11, "c": 1, "r": 1})
CASES["roundtrip-32B"] = (dict(builder=round_trip, swizzle="32B"), {"N": 200, "R": 30, "c": 2, "r": 1})


def build_case(args):
    args = dict(args)
    return args.pop("builder", case)(**args)


def _check(name):
    args, _ = CASES[name]
    return from_dict(build_case(args), f"<tma {name}>")


_PROVED = {}


def proved(name):
    if name not in _PROVED:
        r = tilecheck.prove(_check(name))
        assert r.verdict == "proved", (name, [o.message for a in r.applies for o in a.obligations
                                              if o.status != "proved"])
        _PROVED[name] = r
    return _PROVED[name]


def ptxas(ptx: str, arch: str, tmp_path: Path, name="k"):
    try:
        exe = find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"no ptxas: {e}")
    src = tmp_path / f"{name}.ptx"
    src.write_text(ptx)
    r = subprocess.run([exe, f"-arch={arch}", "-o", str(src.with_suffix(".cubin")), str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"ptxas -arch={arch}: {r.stderr}"


# --- emitting -------------------------------------------------------------------------------------

def test_the_tma_examples_include_loads_stores_and_a_nan_fill():
    stems = {p.stem for p in EXAMPLE_PATHS}
    assert {"tma_swizzle_match", "tma_store_ragged_rows", "tma_edge_nan_fill", "tma_expect_tx_full_box"} <= stems


@pytest.mark.parametrize("path", EXAMPLE_PATHS, ids=lambda p: p.stem)
def test_every_proved_tma_example_emits_a_kernel_ptxas_assembles(path, tmp_path):
    """Each copy of the example (one, or a load then a store: tma_copy_wave) lowered in order by one
    issuing thread, its map a by-value parameter after the pointers."""
    check = tilecheck.load(path)
    plan = tilecheck.prove(check).plan
    ptx = kernel(plan)
    ms = list(dict.fromkeys(a.opcode.tensormap for a in check.applies))
    assert tensormap_params(check) == ms
    assert re.search(rf"\.param \.align 64 \.b8 {ms[-1]}\[128\]\n\)", ptx)  # by value, the last parameters
    assert all(f".param .align 64 .b8 {m}[128]" in ptx for m in ms)
    assert ptx.count("\tcp.async.bulk.tensor.") == len(check.applies) and ptx.count("setp.eq.u32") == 1  # one issuer
    at = 0
    for a in check.applies:
        at = ptx.index("\tcp.async.bulk.tensor.", at) + 1  # the copies in the applies' order
        assert ptx[at:ptx.index("\n", at)].startswith(("cp.async.bulk.tensor.%dd." % a.opcode.rank) +
                                                      ("shared" if a.opcode.load else "global"))
        if a.opcode.load:
            assert f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%ra" in ptx and f"], {a.opcode.expect_tx};" in ptx
            assert "mbarrier.init" in ptx and "fence.mbarrier_init" in ptx and "mbarrier.try_wait.parity" in ptx
        else:
            assert "cp.async.bulk.commit_group;" in ptx and "cp.async.bulk.wait_group 0;" in ptx
            assert ptx.rindex("fence.proxy.async.shared::cta;", 0, at) < at
    for arch in ("sm_90", "sm_90a"):
        ptxas(ptx, arch, tmp_path, f"{path.stem}_{arch}")
    try:
        sass = assemble(ptx, "sm_90a").instructions
    except ToolNotFound as e:
        pytest.skip(f"no nvdisasm: {e}")
    tma = [i for i in sass if i.startswith(("UTMALDG", "UTMASTG"))]  # the TMA unit's own instruction
    assert tma == [f"{'UTMALDG' if a.opcode.load else 'UTMASTG'}.{a.opcode.rank}D" for a in check.applies], tma
    for k, a in enumerate(check.applies):
        m = a.opcode.tensormap
        frag = fragment(plan, k).text
        first = mbarrier.members(check, a)[0] is a  # a phase's barrier is its first copy's
        assert f"[%tmap_{m}, {{" in frag and (".shared .align 8 .b64" in frag) == bool(a.opcode.load and first)


def test_the_copy_takes_the_unswizzled_start_and_the_coordinates_from_the_symbols():
    """Stage 3 of a 64B-swizzled box: the shared address is the array's plus 3*128 bytes (the offset,
    not swizzled: TMA swizzles the address); the coordinates are the symbols' expressions."""
    ptx = kernel(proved("load-64B-stage3").plan)
    copy_line = next(x for x in ptx.splitlines() if x.startswith("\tcp.async.bulk.tensor."))
    smem = re.search(r"\[(%ra\d+)\], \[%rd\d+, \{(%ra\d+), (%ra\d+)\}\]", copy_line)
    assert smem, copy_line
    lines = ptx.splitlines()

    def definition(reg):
        return next(x.strip() for x in lines if re.match(rf"\t\S+ {re.escape(reg)}, ", x))
    start = definition(smem.group(1))
    assert start.startswith("add.s32") and start.endswith(", 384;"), start
    assert definition(smem.group(2)).startswith("mul.lo.s32") and definition(smem.group(2)).endswith(", 32;")  # 32*c
    assert definition(smem.group(3)).startswith("mul.lo.s32") and definition(smem.group(3)).endswith(", 8;")  # 8*r
    assert ".param .u64 G,\n\t.param .u64 S,\n\t.param .s64 N," in ptx


@pytest.mark.parametrize("name", list(CASES))
def test_every_drawn_case_is_proved_and_assembles(name, tmp_path):
    ptx = kernel(proved(name).plan)
    ptxas(ptx, "sm_90a", tmp_path, name.replace("-", "_"))


def test_the_cli_fragment_takes_the_maps_register_from_base(capsys):
    from tilecheck.cli import main
    assert main(["emit", str(EXAMPLES / "tma_swizzle_match.toml"), "--base", "TA=%rd9", "--base", "S=%r5"]) == 0
    out = capsys.readouterr().out
    assert "[%r5], [%rd9, {" in out and "%tmap_TA" not in out
    assert main(["emit", str(EXAMPLES / "tma_swizzle_match.toml"), "--base", "Q=%rd9"]) == 2
    assert "tensor maps: TA" in capsys.readouterr().err


def test_the_cli_emits_a_tma_kernel(tmp_path):
    out = tmp_path / "k.ptx"
    r = subprocess.run([sys.executable, "-m", "tilecheck", "emit", str(EXAMPLES / "tma_store_ragged_rows.toml"),
                        "--kernel", "-o", str(out)], capture_output=True, text=True, cwd=ROOT,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    assert ".param .align 64 .b8 TC[128]" in out.read_text()


# --- the numpy reference --------------------------------------------------------------------------

def _layout_landing(box: tma_landing.TmaBox, dst: int):
    """Where each visited element lands, by the model's *layout* (``TmaBox.layout()`` evaluated by the
    layout evaluator at its anchor): element offsets from the array, dimension 0 fastest."""
    base, off = box.anchor(dst)
    lay = box.layout()
    return np.array([base // box.esize + lay(tuple(reversed(k)), offset=off)[""]
                     for k in np.ndindex(*box.shape[::-1])])


def _eval(layout, coord, offset):
    return layout(tuple(coord), offset=offset)[""]


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("load")][::3] + ["load-rank3-128B"])
def test_the_references_landing_is_the_landing_models_layout(name):
    """The reference's expected shared buffer holds visited element k of the box at the element the
    landing model's layout gives (TmaBox.layout() at its anchor): the global element at k's
    coordinates, or the fill."""
    args, env = CASES[name]
    check = _check(name)
    c = reference(check, bind_symbols(check, env), seed=3)
    m = check.tensormaps["T"]
    s = check.tensors["S"]
    e = s.esize
    box = tma_landing.TmaBox(e, tuple(m.box), tuple(m.element_strides), m.swizzle)
    where = _layout_landing(box, evaluate_offset(s, env) * e)
    got = c.expected["S"][where]
    coords = [np.array([k[len(box.shape) - 1 - i] for k in np.ndindex(*box.shape[::-1])]) for i in range(len(box.shape))]
    start = [tilecheck.expr.evaluate(x, env) for x in check.applies[0].opcode.coords]
    steps = (1,) + tuple(m.element_strides[1:])
    g = [s0 + st * k for s0, st, k in zip(start, steps, coords)]
    dims = [tilecheck.expr.evaluate(x, env) for x in m.dims]
    inside = np.all([(x >= 0) & (x < d) for x, d in zip(g, dims)], axis=0)
    strides = [1] + [tilecheck.expr.evaluate(x, env) // e for x in m.strides]
    flat = sum(x * st for x, st in zip(g, strides))
    assert (got[inside] == c.inputs["G"][flat[inside]]).all()
    if args.get("oob") == "nan":
        assert c.nan["S"][where[~inside]].all() and (~inside).any()
    else:
        assert (got[~inside] == 0).all()
    untouched = np.ones(len(c.expected["S"]), dtype=bool)
    untouched[where] = False  # the padding between narrow rows, the stage before the box: not written
    assert (c.expected["S"][untouched] == SENTINEL[s.dtype]).all()


def evaluate_offset(t, env):
    return tilecheck.expr.evaluate(t.offset, env)


def test_the_store_writes_the_box_inside_the_tensor_only():
    check = tilecheck.load(EXAMPLES / "tma_store_ragged_rows.toml")
    env = bind_symbols(check, {"M": 21, "N": 64, "m": 1, "n": 1})
    c = reference(check, env, seed=5)
    want = np.full((21, 64), SENTINEL["float32"], dtype=np.uint32)
    s = check.tensors["S"].layout  # proved: where TMA reads box element (i, j)
    for i in range(16, 21):  # rows 16..20 of the tile; 21..31 are past M
        for j in range(32):
            want[i, 32 + j] = c.inputs["S"][_eval(s, (i - 16, j), 0)]
    assert (c.expected["C"].reshape(21, 64) == want).all()
    assert (c.expected["S"] == c.inputs["S"]).all()


def test_a_nan_fill_compares_as_any_nan_but_the_poison():
    check = tilecheck.load(EXAMPLES / "tma_edge_nan_fill.toml")
    c = reference(check, bind_symbols(check, {"R": 40, "N": 100, "i": 2, "j": 6}), seed=1)
    nan = c.nan["S"]
    assert nan.sum() == 256 - 8 * 4  # 4 columns x 8 rows inside the tensor
    out = {n: b.copy() for n, b in c.expected.items()}
    assert compare(c, out).ok
    out["S"][nan] = np.uint32(0x7FC00000)  # another payload: still a NaN fill
    assert compare(c, out).ok
    out["S"][np.flatnonzero(nan)[0]] = np.uint32(SENTINEL["float32"])  # the poison: left unwritten
    assert not compare(c, out).ok
    out["S"][nan] = np.uint32(0)  # a zero where NaN fill was asked
    r = compare(c, out)
    assert not r.ok and r.mismatches["S"] == nan.sum()


# --- the runner's arguments, on a fake driver -----------------------------------------------------

def test_the_batch_passes_each_tensor_map_by_value_after_the_symbols(monkeypatch):
    from test_gpu_batch import FakeDriver
    from tilecheck.gpu import batch, tensormap_driver
    check = tilecheck.load(EXAMPLES / "tma_edge_nan_fill.toml")
    env = bind_symbols(check, {"R": 40, "N": 100, "i": 2, "j": 6})
    c = reference(check, env, seed=1)
    asked, called = [], []
    monkeypatch.setattr(tensormap_driver, "encode_tiled", lambda *a: asked.append(a) or
                        tensormap_driver.Encoded(0, bytes(range(128))))
    drv = FakeDriver()

    def fn(*params, grid, block, **kw):
        called.append(params)
    [(outputs, damaged, refused)] = batch.launch_batch(drv, [(fn, c, 1)])
    assert refused is None
    (params,) = called
    assert len(params) == 2 + 4 + 1 and params[-1] == bytes(range(128))
    assert [int(p) for p in params[2:6]] == [40, 100, 2, 6]
    dtype, address, dims, strides, box, es, interleave, swizzle, l2, oob = asked[0]
    assert (dtype, dims, strides, box, es, swizzle, oob) == ("float32", [100, 40], [400], [16, 16], [1, 1], "64B", "nan")
    assert address == int(params[0])  # X's buffer (offset 0), at exactly its align
    monkeypatch.setattr(tensormap_driver, "encode_tiled", lambda *a: tensormap_driver.Encoded(1, bytes(128)))
    [(_, _, refused)] = batch.launch_batch(FakeDriver(), [(fn, c, 1)])
    assert "cuTensorMapEncodeTiled refused tensormaps.TX" in refused


class FakeLib:
    """A stand-in libcuda for ``tensormap_driver.Module``: loads any image, and each launch is a Python
    kernel that reads its kernelParams by the sizes of the PTX's parameter list and writes the numpy
    reference's buffers (at the symbol values it was given) through the pointers it was given."""

    def __init__(self, drv, ptx, seed):
        self.drv, self.seed, self.launches = drv, seed, []
        head = ptx[ptx.index(".entry"):ptx.index(")", ptx.index(".entry"))]
        self.params = re.findall(r"\.param (\.u64|\.s64|\.align 64 \.b8) (\w+)(\[128\])?", head)

    def cuModuleLoadData(self, ref, image):
        ref._obj.value = 0x1000
        return 0

    def cuModuleGetFunction(self, ref, module, name):
        ref._obj.value = 0x2000
        return 0

    def cuLaunchKernel(self, f, gx, gy, gz, bx, by, bz, shared, stream, kp, extra):
        import ctypes
        args = [ctypes.string_at(kp[k], 128 if t.startswith(".align") else 8) for k, (t, _, _) in enumerate(self.params)]
        self.launches.append((args, (bx.value, by.value, bz.value)))
        check = self.check
        tensors, symbols = list(check.tensors), [n for n, v in check.symbols.items() if not v.source]
        env = {n: int.from_bytes(args[len(tensors) + k], "little", signed=True) for k, n in enumerate(symbols)}
        want = reference(check, env, self.seed)
        for k, name in enumerate(tensors):
            self.drv.write(int.from_bytes(args[k], "little"), want.expected[name])
        return 0


def test_run_checks_launches_a_tensor_map_kernel_with_its_parameters_in_the_ptxs_order(monkeypatch):
    """The whole host path without a GPU: run_checks emits, loads through ByValueModule (cuModuleLoadData)
    and launches through cuLaunchKernel with kernelParams in the order and at the sizes of the kernel's
    parameter list -- the tensors' buffers, the symbols, the 128-byte map -- at exactly the tensors'
    alignments; a kernel that writes the reference's buffers then compares equal."""
    from test_gpu_batch import FakeDriver
    from tilecheck.gpu import runner, tensormap_driver
    from tilecheck.gpu.runner import Job
    check = tilecheck.load(EXAMPLES / "tma_edge_nan_fill.toml")
    vals = {"R": 40, "N": 100, "i": 2, "j": 6}
    drv = FakeDriver()
    gpu = type("G", (), {"drv": drv, "arch": "sm_90", "name": "fake", "can_run": lambda self, a: None})()
    monkeypatch.setattr(runner, "gpu", lambda: gpu)
    monkeypatch.setattr(runner, "budget", lambda: (1 << 30, "test"))
    monkeypatch.setattr(runner, "ptxas_many", lambda texts, sm: ([b"\x7fELF" for _ in texts], False))
    monkeypatch.setattr(tensormap_driver, "encode_tiled", lambda *a: tensormap_driver.Encoded(0, bytes(range(128))))
    ptx = kernel(tilecheck.prove(check).plan, name="tma_k")
    lib = FakeLib(drv, ptx, seed=11)
    lib.check = check
    monkeypatch.setattr(tensormap_driver, "_launch_lib", lambda: lib)
    [r] = runner.run_checks([Job(check, vals, 11, name="tma_k")])
    assert r.ok, r.summary()
    assert [t for t, _, _ in lib.params] == [".u64"] * 2 + [".s64"] * 4 + [".align 64 .b8"]
    (args, block), = lib.launches
    assert args[-1] == bytes(range(128)) and block == (1, 1, 1)
    assert [int.from_bytes(a, "little") % 32 for a in args[:1]] == [16]  # X at exactly its align, 16
    assert r.comparison.written["S"] == 256 and r.case.nan["S"].sum() == 224


# --- on the GPU -----------------------------------------------------------------------------------

_gpu = require_gpu


EXAMPLE_VALUES = {  # symbol values per example: the smallest (unset), and others
    "tma_swizzle_match": [{}, {"M": 512, "K": 256, "m": 2, "k": 3}],
    "tma_expect_tx_full_box": [{}, {"M": 300, "K": 192, "m": 2, "R": 44, "k": 1}],
    "tma_inner_coord_aligned": [{}, {"N": 100, "R": 96, "c": 68, "r": 2}],
    "tma_smem_1024_aligned": [{}, {"M": 192, "K": 128, "m": 2, "k": 1}],
    "tma_store_ragged_rows": [{}, {"M": 21, "N": 64, "m": 1, "n": 1}, {"M": 64, "N": 96, "m": 3, "n": 2}],
    "tma_edge_nan_fill": [{}, {"R": 40, "N": 100, "i": 2, "j": 6}, {"R": 33, "N": 48, "i": 1, "j": 1}],
}
GPU_SEED = 20261203


def gpu_jobs():
    """(name, Job, source) of every GPU run: each proved example at its values, each drawn case; the
    source is the example's path or the drawn check's dict (for a run in a child process)."""
    from tilecheck.gpu.runner import Job
    out = []
    for path in EXAMPLE_PATHS:
        for k, vals in enumerate(EXAMPLE_VALUES.get(path.stem, [{}])):
            out.append((f"{path.stem}-{k}", Job(tilecheck.load(path), vals, GPU_SEED + len(out), name=f"tma_{len(out)}"),
                        path))
    for name, (args, vals) in CASES.items():
        out.append((name, Job(_check(name), vals, GPU_SEED + len(out), name=f"tma_{len(out)}"), build_case(args)))
    return out


def test_every_gpu_run_has_a_reference_with_box_elements_to_compare():
    """Here, without a GPU: the values of every run hold the files' facts, and the reference is defined
    (every element it reads is in its buffer) and has the kernel write something."""
    for name, job, _ in gpu_jobs():
        c = reference(job.check, bind_symbols(job.check, job.symbols), job.seed)
        assert sum(int(w.sum()) for w in c.written.values()) > 0, name


def run_alone(name, job, source, tmp: Path) -> dict:
    """One run in a child process (``tilecheck run --json``), where a fault ends only that child's CUDA
    context: the JSON report, or ``{"result": "error", "exit": ..., "stderr": ...}``."""
    import json
    import os
    import tomlkit
    path = source
    if isinstance(source, dict):
        path = tmp / f"{name}.toml"
        path.write_text(tomlkit.dumps(source))
    sets = [x for k, v in job.symbols.items() for x in ("--set", f"{k}={v}")]
    r = subprocess.run([sys.executable, "-m", "tilecheck", "run", str(path), "--seed", str(job.seed), "--json", *sets],
                       capture_output=True, text=True, cwd=ROOT, env=os.environ, timeout=300)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {"result": "error", "exit": r.returncode, "stderr": " ".join(r.stderr.split())[-600:]}


@pytest.fixture(scope="module")
def gpu_results(tmp_path_factory):
    """Every run as one batch (one upload, one synchronisation); a fault ends the batch and this
    process's CUDA context, so then each run goes to a child process of its own."""
    _gpu()
    from tilecheck.gpu.runner import run_checks
    names, jobs, sources = zip(*gpu_jobs())
    try:
        return dict(zip(names, run_checks(list(jobs))))
    except Exception as e:  # noqa: BLE001
        batch = f"the batch failed ({type(e).__name__}: {' '.join(str(e).split())[:300]}); this run alone: "
        tmp = tmp_path_factory.mktemp("tma_alone")
        return {name: (batch, run_alone(name, job, src, tmp)) for name, job, src in zip(names, jobs, sources)}


@pytest.mark.gpu
@pytest.mark.parametrize("name", [f"{p.stem}-{k}" for p in EXAMPLE_PATHS
                                  for k in range(len(EXAMPLE_VALUES.get(p.stem, [{}])))] + list(CASES))
def test_tma_kernel_equals_numpy(gpu_results, name):
    r = gpu_results[name]
    if isinstance(r, tuple):  # run alone in a child process
        batch, report = r
        assert report.get("result") == "pass", batch + str(report if report.get("result") == "error" else
                                                          {k: report.get(k) for k in ("result", "buffers", "symbols")})
        return
    assert r.ok, f"seed {r.case.seed}, symbols {r.case.symbols}: {r.summary()}"
    assert sum(r.comparison.written.values()) > 0


@pytest.mark.gpu
@pytest.mark.parametrize("path", EXAMPLE_PATHS, ids=lambda p: p.stem)
def test_tilecheck_run_on_each_tma_example(path):
    """The command itself, in a process of its own, at the smallest allowed symbol values."""
    _gpu()
    r = subprocess.run([sys.executable, "-m", "tilecheck", "run", str(path), "--seed", "7"], capture_output=True,
                       text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0 and "PASS" in r.stdout, r.stdout + r.stderr


@pytest.mark.gpu
def test_an_unaligned_inner_coordinate_faults_on_the_hardware():
    """tma_inner's refutation confirmed (tilecheck run --unchecked, in a child process): the copy at
    column 1 of a float32 tensor (4 bytes, not a multiple of 16) ends in an illegal-instruction fault."""
    _gpu()
    from tilecheck.gpu.unchecked import choose, confirm
    path = EXAMPLES / "tma_inner_coord_unaligned_refuted.toml"
    check = tilecheck.load(path)
    report = tilecheck.prove(check)
    assert [o.name for a in report.applies for o in a.obligations if o.status == "refuted"] == ["tma_inner"]
    values = choose(report, {}).symbols  # the counterexample's: c = 1
    assert values["c"] == 1
    out = confirm(check, values, GPU_SEED, str(path), report=report)
    assert out.status == "fault" and "illegal instruction" in out.detail.lower(), (out.status, out.detail)
    assert out.confirmed
