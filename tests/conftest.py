import pytest

import tilecheck


def build(tensors, apply, **top):
    """A Check from Python data (the same dict a TOML check file gives)."""
    applies = apply if isinstance(apply, list) else [apply]
    return tilecheck.from_dict({**top, "tensors": tensors, "apply": applies}, "<test>")


def statuses(report, index=0):
    return {o.name: o.status for o in report.applies[index].obligations}


def mem(shape, dtype="float32", scope="global", **kw):
    return {"dtype": dtype, "scope": scope, "shape": list(shape), **kw}


def reg(shape, dtype="float32", **kw):
    return {"dtype": dtype, "scope": "register", "shape": list(shape), **kw}


@pytest.fixture
def prove():
    def run(tensors, apply, **top):
        return tilecheck.prove(build(tensors, apply, **top))
    return run
