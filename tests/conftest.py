import pytest

import tilecheck


def build(tensors, apply, **top):
    """A Check from Python data (the same dict a TOML check file gives)."""
    applies = apply if isinstance(apply, list) else [apply]
    return tilecheck.from_dict({**top, "tensors": tensors, "apply": applies}, "<test>")


COUNTED = ("banks", "sectors")  # counted per state space; tests/test_banks.py holds them


def statuses(report, index=0, counted=False):
    """Each obligation's status (``banks``/``sectors`` only with ``counted``)."""
    return {o.name: o.status for o in report.applies[index].obligations if counted or o.name not in COUNTED}


def mem(shape, dtype="float32", scope="global", **kw):
    return {"dtype": dtype, "scope": scope, "shape": list(shape), **kw}


def reg(shape, dtype="float32", **kw):
    return {"dtype": dtype, "scope": "register", "shape": list(shape), **kw}


def big_block(threads: int, n: int = 24):
    """A CTA load of ``n`` v4 vectors per thread, all live at once (~4n registers unconstrained)."""
    return tilecheck.from_dict({"threads": threads, "tensors": {
        "A": {"dtype": "float32", "scope": "global", "shape": [threads, n, 4],
              "layout": f"({threads},{n},4):({4 * n},4,1)", "align": 16},
        "R": {"dtype": "float32", "scope": "register", "shape": [threads // 32, 32, n, 4],
              "layout": f"({threads // 32},32,{n},4):(1@warpid,1@laneid,4,1)"}},
        "apply": [{"opcode": "ld.global.v4.b32", "scope": "cta", "dst": "R",
                   "src": "A: (w l=32) r v -> w l r v"}]}, f"<big block {threads}>")


@pytest.fixture
def prove():
    def run(tensors, apply, **top):
        return tilecheck.prove(build(tensors, apply, **top))
    return run


def require_gpu(arch: str | None = None):
    """The device (``tilecheck.gpu.runner.gpu()``), or the test skipped with its reason: no pycuda (e.g.
    CI), no CUDA device, or (``arch``) a device that cannot run that target.  Every GPU test asks here."""
    try:
        import pycuda.driver  # noqa: F401
    except ImportError:
        pytest.skip("GPU test: pycuda is not installed (pip install -e '.[gpu]'); no GPU run here, e.g. CI")
    from tilecheck.gpu import runner
    try:
        g = runner.gpu()
    except runner.GpuUnavailable as e:
        pytest.skip(f"GPU test: no CUDA device here ({e}); e.g. CI has no GPU")
    why = g.can_run(arch) if arch else ""
    if why:
        pytest.skip(f"GPU test: {why}")
    return g
