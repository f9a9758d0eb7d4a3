import glob
import numpy as np
import pytest
from tilecheck import check
from test_emit_sim import run_kernel

@pytest.mark.parametrize("path", sorted(p for p in glob.glob("examples/*matrix*.toml") if "refuted" not in p))
def test_sim(path):
    c = check.load(path)
    case, out = run_kernel(c, seed=7)
    for n in c.tensors:
        assert np.array_equal(out[n], case.expected[n]), n
