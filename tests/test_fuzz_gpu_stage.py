"""The plumbing of ``tilecheck fuzz --gpu`` on a fake device (no GPU needed): every proved case is
prepared, batched, run and compared; a kernel that is wrong becomes a finding.  The real thing runs
on the H200 (``tests/test_fuzz_emit.py``, ``-m gpu``, and the campaign in BENCHMARKS.md)."""
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from tilecheck.check import from_dict
from tilecheck.fuzz import gpu_stage
from tilecheck.fuzz.campaign import run_chunk
from tilecheck.gpu import runner
from tilecheck.gpu.reference import bind_symbols, reference

from test_gpu_batch import FakeDriver


@pytest.fixture(scope="module")
def drawn():
    tally = run_chunk(seed=11, index=0, cases=400, symbolic=False, keep=True, shrink=False)
    assert len(tally.proved) >= 20, "too few proved cases drawn"
    return tally


def test_prepare_proves_for_the_device_emits_and_computes_the_reference(drawn):
    kinds = {}
    for k, data in enumerate(drawn.proved[:30]):
        out = gpu_stage._prepare((k, data, "sm_90", 100 + k, 10.0))
        kinds[out[0]] = kinds.get(out[0], 0) + 1
        assert out[0] in ("ok", "skip"), out
        if out[0] == "ok":
            _, name, ptx, case = out
            assert re.search(rf"\.entry\s+{name}\b", ptx) and case.expected is not None and case.seed == 100 + k
            assert runner.cannot_run(case.check.arch, "sm_90") is None
    assert kinds.get("ok", 0) >= 10


def test_prepare_retargets_a_newer_target_and_skips_what_does_not_prove_there():
    data = {"arch": "sm_100a", "threads": 32,
            "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [32, 8], "layout": "(32,8):(8,1)",
                              "align": 32},
                        "R": {"dtype": "float32", "scope": "register", "shape": [32, 8],
                              "layout": "(32,8):(1@laneid,1)"}},
            "apply": [{"opcode": "ld.global.v8.b32", "scope": "warp", "dst": "R", "src": "A"}]}
    assert gpu_stage._prepare((0, data, "sm_90", 0, 10.0)) == ("skip", "not proved for the device's target")
    assert gpu_stage._prepare((0, data, "sm_100a", 0, 10.0))[0] == "ok"


def test_prepare_skips_buffers_too_large_to_run_without_allocating_them():
    data = {"arch": "sm_90", "threads": 32,
            "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [32, 4],
                              "layout": "(32,4):(1073741824,1)", "align": 16},
                        "R": {"dtype": "float32", "scope": "register", "shape": [32, 4],
                              "layout": "(32,4):(1@laneid,1)"}},
            "apply": [{"opcode": "ld.global.v4.b32", "scope": "warp", "dst": "R", "src": "A"}]}
    assert gpu_stage._prepare((0, data, "sm_90", 0, 10.0)) == ("skip", "buffers over 16 MiB")


def _fake_device(monkeypatch, proved, seed, broken=()):
    """A device whose kernel ``tilecheck_f{k}`` writes the reference's result of case k (wrong for ``broken``)."""
    drv = FakeDriver()

    def kernel(name):
        k = int(name.rsplit("f", 1)[1])
        check = from_dict(proved[k])
        if runner.cannot_run(check.arch, "sm_90"):
            check = check.with_arch("sm_90")
        case = reference(check, bind_symbols(check), seed + k)

        def run(*params, grid, block):
            for (tname, _), ptr in zip(case.check.tensors.items(), params):
                want = case.expected[tname].copy()
                if k in broken:
                    want.reshape(-1)[0] ^= 1
                drv.write(int(ptr), want)
        return run

    def module_from_buffer(cubin):  # the real ptxas made it (runner.load_modules): a real ELF
        assert cubin[:4] == b"\x7fELF"
        drv.loaded += 1
        return SimpleNamespace(get_function=kernel)

    drv.loaded = 0
    drv.module_from_buffer = module_from_buffer
    device = SimpleNamespace(drv=drv, arch="sm_90", name="FakeGPU", can_run=lambda a: runner.cannot_run(a, "sm_90"))
    monkeypatch.setattr(runner, "gpu", lambda: device)
    monkeypatch.setenv("TILECHECK_CACHE", "off")
    return drv


def test_the_stage_runs_every_prepared_case_in_batches(drawn, monkeypatch, tmp_path):
    tally = SimpleNamespace(proved=drawn.proved, misaligned=[], findings=[])
    drv = _fake_device(monkeypatch, drawn.proved, seed=9)
    monkeypatch.setattr(gpu_stage, "BATCH", 8)
    lines = gpu_stage.run(tally, seed=9, timeout=10.0, jobs=1, out=str(tmp_path))
    ran = int(re.search(r"(\d+) proved cases run in (\d+) batches, 0 differ", lines[0]).group(1))
    batches = int(re.search(r"in (\d+) batches", lines[0]).group(1))
    assert ran >= 10 and batches == -(-ran // 8) and drv.synced == batches
    prepared = [gpu_stage._prepare((k, d, "sm_90", 0, 10.0)) for k, d in enumerate(drawn.proved[:40])]
    targets = {re.search(r"\.target (\w+)", p[2]).group(1) for p in prepared if p[0] == "ok"}
    assert len(targets) > 1, "the draws should mix targets (only modules of one target link together)"
    assert drv.loaded >= batches
    assert not tally.findings and "cases/s" in lines[0]


def test_a_kernel_that_differs_from_numpy_is_a_finding(drawn, monkeypatch, tmp_path):
    tally = SimpleNamespace(proved=drawn.proved[:12], misaligned=[], findings=[])
    _fake_device(monkeypatch, drawn.proved, seed=9, broken={k for k in range(12)})
    lines = gpu_stage.run(tally, seed=9, timeout=10.0, jobs=1, out=str(tmp_path))
    ran = int(re.search(r"(\d+) proved cases run", lines[0]).group(1))
    assert ran and re.search(rf"{ran} differ from numpy", lines[0])
    assert len(tally.findings) == ran
    assert all("differs from numpy" in f.problems[0] and "fails when run alone too" in f.problems[0]
               for f in tally.findings)


def test_misalignments_are_forced_at_their_declared_alignment_and_each_is_judged(drawn, monkeypatch):
    """Every refuted-alignment case runs unchecked with its report proved beforehand (the child-waiting
    threads never call Z3); a base-pointer refutation (any state space) runs with that base at exactly its
    declared alignment (issue 32: shared and local arrays used to land better aligned and never fault),
    and one whose base cannot be placed is counted with the reason; one not confirmed is a finding."""
    import threading
    from tilecheck.decide import alignment_base
    from tilecheck.emit.kernel import unplaceable
    from tilecheck.gpu import unchecked
    assert drawn.misaligned, "no refuted-alignment case drawn"
    from tilecheck.report import prove

    def runs(check):  # the stage runs a case whose unchecked kernel the emitter can build and place
        report = prove(check)
        placement = unchecked.align_blamed(report)
        if unplaceable(check, placement):
            return False
        try:
            unchecked.unchecked_kernel(report, placement)
            return True
        except Exception:  # noqa: BLE001
            return False
    usable = [d for d in drawn.misaligned
              if not runner.cannot_run(from_dict(d).arch, "sm_90")
              and not gpu_stage._too_large(from_dict(d), bind_symbols(from_dict(d)))]
    ran = [d for d in usable[:gpu_stage.ALIGNMENT_CASES] if runs(from_dict(d))]
    bases = [d for d in ran if alignment_base(from_dict(d), from_dict(d).applies[0], {})]
    calls, placed = [], []

    def fake_confirm(check, symbols, seed, path, report=None, placement=None, **kw):
        assert report is not None and report.verdict == "refuted"
        calls.append(threading.current_thread() is threading.main_thread())
        placed.append(placement)
        ok = len(calls) != 1  # the first one "does not fault"
        return SimpleNamespace(status="fault" if ok else "completed", detail="misaligned address", confirmed=ok)

    monkeypatch.setattr(unchecked, "confirm", fake_confirm)
    tally = SimpleNamespace(proved=[], misaligned=drawn.misaligned, findings=[])
    device = SimpleNamespace(arch="sm_90", can_run=lambda a: runner.cannot_run(a, "sm_90"))
    line = gpu_stage._alignment(tally, device, seed=0)
    n = len(ran)
    assert len(calls) == n and not any(calls)
    assert sum(1 for p in placed if p) >= len(bases)  # every base-pointer refutation is placed
    assert f"({n - 1} of {n}," in line and "base-pointer refutations in dynamic shared memory" in line
    assert len(tally.findings) == 1 and "not confirmed" in tally.findings[0].problems[0]


def test_a_base_pointer_refutation_of_shared_and_local_arrays_is_declared_at_exactly_its_align():
    """Issue 32 item 5: the unchecked kernel declares a placed shared or local array ``.align modulus`` with
    ``residue`` bytes before the tensor, so the base is a multiple of the declared ``align`` and of no more;
    a tensor in dynamic shared memory cannot be placed, and ``confirm`` says so instead of running."""
    from tilecheck.check import loads
    from tilecheck.emit.kernel import unplaceable
    from tilecheck.gpu import unchecked
    from tilecheck.report import prove
    for scope, op in (("shared", "ld.shared.v4.b32"), ("local", "st.local.v4.b32")):
        mem, reg = ("src", "dst") if op.startswith("ld") else ("dst", "src")
        check = loads(f"""
arch = "sm_90"
[tensors.A]
dtype = "float32"
scope = "{scope}"
shape = [2, 4]
align = 8
[tensors.R]
dtype = "float32"
scope = "register"
shape = [2, 4]
[[apply]]
opcode = "{op}"
{mem} = "A"
{reg} = "R"
""")
        report = prove(check)
        assert report.verdict == "refuted"
        placement = unchecked.align_blamed(report)
        assert placement == {"A": (8, 32)}, placement
        ptx = unchecked.unchecked_kernel(report, placement)
        assert f".{scope} .align 32 .b8" in ptx and "[40]" in ptx  # 8 bytes before the 32-byte tensor
        assert re.search(r"add\.u32 %\w+, %\w+, 8;", ptx)  # the base: the array + 8
        assert unplaceable(check, placement) is None
        plain = unchecked.unchecked_kernel(report)
        assert f".{scope} .align 8 .b8" in plain and "[32]" in plain


def test_a_kernel_ptxas_rejects_is_a_finding_and_the_rest_of_its_batch_runs(drawn, monkeypatch, tmp_path):
    real = gpu_stage._prepare_case
    broken = []

    def prepare(k, *a):
        out = real(k, *a)
        if out[0] == "ok" and not broken:  # the first kernel gets an instruction ptxas rejects
            broken.append(k)
            out = (out[0], out[1], out[2].replace("\tret;", "\tnot.an.instruction;\n\tret;"), out[3])
        return out

    monkeypatch.setattr(gpu_stage, "_prepare_case", prepare)
    tally = SimpleNamespace(proved=drawn.proved[:20], misaligned=[], findings=[])
    _fake_device(monkeypatch, drawn.proved, seed=9)
    lines = gpu_stage.run(tally, seed=9, timeout=10.0, jobs=1, out=str(tmp_path))
    ok = sum(1 for k, d in enumerate(drawn.proved[:20]) if real(k, d, "sm_90", 9 + k, 10.0)[0] == "ok")
    assert f"{ok - 1} proved cases run in 1 batches, 0 differ" in lines[0] and "STOPPED" not in "".join(lines)
    assert [f.problems[0].split(":")[1].strip() for f in tally.findings] == ["the kernel of a proved case was rejected"]
    assert tally.findings[0].data is drawn.proved[broken[0]]


def test_forced_cases_are_emitted_once_in_the_main_process_and_the_child_gets_that_ptx(drawn, monkeypatch):
    """Issue 11 item 7: each forced case's kernel is ``emit.kernel_unchecked`` of the report proved here,
    emitted in the main thread and handed to ``confirm``; one the emitter cannot build is counted, not run."""
    import threading
    from tilecheck import emit
    from tilecheck.gpu import unchecked
    emitted, given = [], []
    real = unchecked.unchecked_kernel

    def kernel_of(report, placement=None):
        emitted.append(threading.current_thread() is threading.main_thread())
        if len(emitted) == 1:
            raise emit.EmitError("cannot build the first")
        return real(report, placement)

    def fake_confirm(check, symbols, seed, path, report=None, ptx=None, placement=None, **kw):
        given.append(ptx == emit.kernel_unchecked(report, name=unchecked.NAME, placement=placement))
        return SimpleNamespace(status="fault", detail="misaligned address", confirmed=True)

    monkeypatch.setattr(unchecked, "unchecked_kernel", kernel_of)
    monkeypatch.setattr(unchecked, "confirm", fake_confirm)
    tally = SimpleNamespace(proved=[], misaligned=drawn.misaligned, findings=[])
    device = SimpleNamespace(arch="sm_90", can_run=lambda a: runner.cannot_run(a, "sm_90"))
    line = gpu_stage._alignment(tally, device, seed=0)
    assert len(emitted) >= 2 and all(emitted), "emitted once per chosen case, in the main thread"
    assert len(given) == len(emitted) - 1 and all(given)
    assert "1 not emittable" in line and not tally.findings


def test_a_tma_copy_kernel_is_loaded_to_be_launched_with_its_map_by_value(monkeypatch):
    """The stage's batch loads a kernel that takes a tensor map by value through ``runner.load_by_value``
    (pycuda's launch refused every TMA draw on the H200: "invalid type on parameter #2"), the others
    linked together, each entry keeping its place."""
    from types import SimpleNamespace

    import tilecheck
    from tilecheck.fuzz import gpu_stage
    from tilecheck.gpu import runner

    examples = Path(__file__).resolve().parents[1] / "examples"
    tma = SimpleNamespace(check=tilecheck.load(examples / "tma_swizzle_match.toml"))
    plain = SimpleNamespace(check=tilecheck.load(examples / "seed.toml"))
    calls = []
    monkeypatch.setattr(gpu_stage, "load_modules", lambda ptx, chunks=None: calls.append(("plain", ptx)) or
                        [f"P{p}" for p in ptx])
    monkeypatch.setattr(runner, "load_by_value", lambda ptx: calls.append(("by value", ptx)) or [f"V{p}" for p in ptx])
    batch = [(None, "k0", "a", plain), (None, "k1", "b", tma), (None, "k2", "c", plain)]
    assert gpu_stage._modules(batch) == ["Pa", "Vb", "Pc"]
    assert calls == [("plain", ["a", "c"]), ("by value", ["b"])]
