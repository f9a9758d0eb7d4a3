"""One way to run a refuted plan (issue 11, item 7): the parent proves once and emits the kernel with
``emit.kernel_unchecked(report)``; the child process only loads and runs the PTX it is given.  No GPU
needed: the child runs in-process on a fake device, with every way to prove or emit made to raise."""
import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import tilecheck
import tilecheck.emit
import tilecheck.report
from tilecheck.gpu import runner, unchecked

from test_gpu_batch import FakeDriver

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _forbid_proving_and_emitting(monkeypatch):
    kernel_module = sys.modules["tilecheck.emit.kernel"]  # (tilecheck.emit.kernel is the function)

    def forbidden(*a, **k):
        raise AssertionError("the child proved or emitted")
    for mod, name in [(tilecheck.report, "prove"), (tilecheck, "prove"), (tilecheck.emit, "kernel_unchecked"),
                      (kernel_module, "kernel_unchecked"), (tilecheck.emit, "kernel"),
                      (kernel_module, "kernel"), (kernel_module, "_Kernel"), (runner, "_emit"), (unchecked, "unchecked_kernel")]:
        monkeypatch.setattr(mod, name, forbidden)


def _child_in_process(monkeypatch, kernel_fn=None, fault=None):
    """subprocess.run for ``confirm``: runs the child's entry here, on a fake device, with proving and
    emitting forbidden; returns (the fake, what the child saw)."""
    seen = {}
    drv = FakeDriver()
    device = SimpleNamespace(drv=drv, arch="sm_90", name="FakeGPU", can_run=lambda a: runner.cannot_run(a, "sm_90"))

    def load_module(ptx, how=runner.DEFAULT_LOAD, arch=None):
        seen["ptx"], seen["how"] = ptx, how
        def get_function(name):
            seen["entry"] = name
            return kernel_fn
        return SimpleNamespace(module=SimpleNamespace(get_function=get_function))

    def launch(module, name, case, ptx="", secs=None):
        seen["case"] = case
        if fault:
            module.get_function(name)
            raise drv.Error(fault)
        return real_launch(module, name, case, ptx, secs)

    real_launch = runner.launch

    def fake_run(cmd, input=None, capture_output=False, text=False, timeout=None):
        assert cmd[1:3] == ["-m", "tilecheck.gpu.unchecked"]
        seen["cmd"] = cmd
        with monkeypatch.context() as m:
            _forbid_proving_and_emitting(m)
            m.setattr(runner, "gpu", lambda: device)
            m.setattr(runner, "budget", lambda: (1 << 30, "test"))
            m.setattr(runner, "load_module", load_module)
            m.setattr(runner, "launch", launch)
            m.setattr(sys, "stdin", io.StringIO(input))
            out = unchecked._child(cmd[3:])
        return SimpleNamespace(stdout=json.dumps(out) + "\n", stderr="", returncode=0)

    monkeypatch.setattr(unchecked.subprocess, "run", fake_run)
    return seen


def test_the_child_runs_the_parents_kernel_unchecked_ptx_and_never_proves(monkeypatch):
    path = EXAMPLES / "region_misaligned_refuted.toml"
    check = tilecheck.load(path)
    report = tilecheck.prove(check)
    want = tilecheck.emit.kernel_unchecked(report, name=unchecked.NAME)
    seen = _child_in_process(monkeypatch, fault="misaligned address")
    placement = {"A": (4, 16)}  # a placement the child must pass through unchanged
    out = unchecked.confirm(check, {}, 7, str(path), how="ptx", report=report, placement=placement)
    assert seen["ptx"] == want and seen["how"] == "ptx" and seen["entry"] == unchecked.NAME
    assert seen["case"].placement == placement and seen["case"].seed == 7
    assert "--place" in seen["cmd"] and "A=4:16" in seen["cmd"]
    assert out.status == "fault" and out.confirmed and "misaligned address" in out.detail
    assert out.prediction.fault == "misaligned address"


def test_a_completed_run_whose_output_differs_confirms_an_ownership_refutation(monkeypatch):
    path = EXAMPLES / "cta_lane_stride2_refuted.toml"
    check = tilecheck.load(path)
    report = tilecheck.prove(check)
    assert report.verdict == "refuted"
    want = tilecheck.emit.kernel_unchecked(report, name=unchecked.NAME)
    seen = _child_in_process(monkeypatch, kernel_fn=lambda *params, grid, block: None)  # writes nothing
    out = unchecked.confirm(check, {}, 3, str(path), report=report)
    assert seen["ptx"] == want
    assert out.status == "completed" and out.raw["differs"] and out.confirmed, (out.status, out.detail)


def test_the_symbols_and_placement_of_the_choice_reach_the_child(monkeypatch, tmp_path):
    """``run --unchecked``'s path: the counterexample's values and the align placement, through the child."""
    from test_gpu_confirm import SYM_ALIGN
    check = tilecheck.from_dict(SYM_ALIGN, "<sym align>")
    report = tilecheck.prove(check)
    c = unchecked.choose(report)
    assert c.symbols["k"] % 4 == 2
    seen = _child_in_process(monkeypatch, fault="misaligned address")
    tmp = tmp_path / "sym.toml"
    from tilecheck.strategies import to_toml
    tmp.write_text(to_toml(SYM_ALIGN))
    out = unchecked.confirm(tilecheck.load(tmp), c.symbols, 1, str(tmp), report=report, placement=c.placement)
    assert seen["case"].symbols == c.symbols and out.confirmed


def test_a_plan_the_emitter_cannot_build_is_cannot_emit_without_a_child(monkeypatch):
    path = EXAMPLES / "region_misaligned_refuted.toml"
    report = tilecheck.prove(tilecheck.load(path))

    def no_child(*a, **k):
        raise AssertionError("a child was started")

    def cannot(report, placement=None):
        raise tilecheck.emit.EmitError("no such form")
    monkeypatch.setattr(unchecked.subprocess, "run", no_child)
    monkeypatch.setattr(unchecked, "unchecked_kernel", cannot)
    out = unchecked.confirm(report.check, {}, 0, str(path), report=report)
    assert out.status == "cannot-emit" and "no such form" in out.detail and not out.confirmed

