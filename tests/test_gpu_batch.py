"""The batch launcher's arena, on a fake driver (no GPU needed): exact alignment, guard gaps that
catch stray writes and blame the right neighbours, refusals that fail one case, faults that raise."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import tilecheck
from tilecheck.gpu import batch
from tilecheck.gpu.reference import bind_symbols, compare, reference

from conftest import build, mem, reg


class FakeDriver:
    """Device memory as one bytearray at a 256-aligned (not more) base; kernels are Python callables."""

    class Error(Exception):
        pass

    BASE = 0x7F00_0000_0100

    def __init__(self):
        self.memory = {}  # base -> bytearray
        self.synced = 0
        self.fault = None
        outer = self

        class Context:
            @staticmethod
            def synchronize():
                outer.synced += 1
                if outer.fault:
                    raise outer.Error(outer.fault)
        self.Context = Context

    def mem_alloc(self, n):
        base = self.BASE + sum(len(m) + 4096 for m in self.memory.values())
        self.memory[base] = bytearray(n)
        drv = self

        class Allocation:
            def __int__(self):
                return base

            def free(self):
                drv.memory.pop(base, None)
        return Allocation()

    def _find(self, ptr, n):
        for base, m in self.memory.items():
            if base <= ptr and ptr + n <= base + len(m):
                return m, ptr - base
        raise self.Error(f"illegal address {ptr:#x}")

    def memcpy_htod(self, dst, host):
        m, off = self._find(int(dst), host.nbytes)
        m[off:off + host.nbytes] = host.tobytes()

    def memcpy_dtoh(self, host, src):
        m, off = self._find(int(src), host.nbytes)
        host[...] = np.frombuffer(bytes(m[off:off + host.nbytes]), dtype=host.dtype).reshape(host.shape)

    def write(self, ptr, data: np.ndarray):
        m, off = self._find(int(ptr), data.nbytes)
        m[off:off + data.nbytes] = data.tobytes()


@given(st.integers(0, 1 << 20), st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]))
def test_place_gives_exactly_the_declared_alignment_after_a_guard(cursor, align):
    p = batch.place(cursor, align)
    assert p >= cursor + batch.GUARD
    assert p % align == 0 and p % (2 * align) == align  # aligned to exactly `align`
    assert p < cursor + batch.GUARD + 2 * align


def test_place_honours_alignments_above_the_exact_limit():
    p = batch.place(100, 8192)
    assert p % 8192 == 0 and p >= 100 + batch.GUARD


def _cases(n):
    """``n`` proved copy-like cases: a load of a global tile into registers (different alignments)."""
    out = []
    for k in range(n):
        v = [1, 2, 4][k % 3]
        check = build({"A": mem((32, 2, v), layout=f"(32,2,{v}):({2 * v},{v},1)", align=4 * v),
                       "R": reg((32, 2, v), layout=f"(32,2,{v}):(1@laneid,{v},1)")},
                      {"opcode": f"ld.global.v{v}.b32" if v > 1 else "ld.global.b32", "scope": "warp",
                       "dst": "R", "src": "A"}, threads=32)
        assert tilecheck.prove(check).verdict == "proved"
        out.append(reference(check, bind_symbols(check), seed=k))
    return out


def _kernel(drv, case, wrong=False, stray=0):
    """A Python 'kernel' writing the reference's expected buffers through the pointers it is given."""
    def run(*params, grid, block):
        assert block == (case.check.threads, 1, 1) and grid == (case.grid, 1)
        for (name, _), ptr in zip(case.check.tensors.items(), params):
            want = case.expected[name].copy()
            if wrong and name == "R":
                want[3] ^= 1
            drv.write(int(ptr), want)
            if stray and name == "R":
                drv.write(int(ptr) + want.nbytes + stray, np.zeros(1, np.uint8))
    return run


def test_a_batch_uploads_once_syncs_once_and_returns_every_case_buffers_at_exact_alignment():
    drv, cases = FakeDriver(), _cases(6)
    seen = []

    def spy(case):
        k = _kernel(drv, case)

        def run(*params, grid, block):
            seen.append([(int(p), case.check.tensors[n].align if not case.check.tensors[n].is_register else
                          case.check.tensors[n].esize) for n, p in zip(case.check.tensors, params)])
            k(*params, grid=grid, block=block)
        return run
    out = batch.launch_batch(drv, [(spy(c), c, c.check.threads) for c in cases])
    assert drv.synced == 1 and not drv.memory  # one synchronisation; the arena was freed
    for ptrs in seen:
        for p, a in ptrs:
            assert p % a == 0 and p % (2 * a) == a
    for case, (outputs, damaged, refusal) in zip(cases, out):
        assert refusal is None and damaged == []
        assert compare(case, outputs).ok


def test_a_wrong_value_fails_only_its_own_case():
    drv, cases = FakeDriver(), _cases(3)
    out = batch.launch_batch(drv, [(_kernel(drv, c, wrong=(k == 1)), c, c.check.threads) for k, c in enumerate(cases)])
    assert [compare(c, o).ok for c, (o, _, _) in zip(cases, out)] == [True, False, True]


def test_a_stray_write_into_a_guard_gap_blames_both_neighbours():
    drv, cases = FakeDriver(), _cases(3)
    # case 1's register buffer is its last: a write just past it lands in the gap before case 2's first buffer
    out = batch.launch_batch(drv, [(_kernel(drv, c, stray=5 if k == 1 else 0), c, c.check.threads)
                                   for k, c in enumerate(cases)])
    assert out[0][1] == []
    assert out[1][1] == ["R"] and out[2][1] == ["A"]


def test_a_refused_launch_fails_that_case_alone():
    drv, cases = FakeDriver(), _cases(3)

    def refuse(*a, **k):
        raise drv.Error("cuLaunchKernel failed: too many resources requested for launch")
    out = batch.launch_batch(drv, [(refuse if k == 0 else _kernel(drv, c), c, c.check.threads)
                                   for k, c in enumerate(cases)])
    assert out[0][0] is None and "too many resources" in out[0][2]
    assert all(compare(c, o).ok for c, (o, _, r) in zip(cases[1:], out[1:]) if r is None)


def test_a_fault_loses_the_batch_and_frees_the_arena():
    drv, cases = FakeDriver(), _cases(2)
    drv.fault = "misaligned address"
    with pytest.raises(FakeDriver.Error, match="misaligned"):
        batch.launch_batch(drv, [(_kernel(drv, c), c, c.check.threads) for c in cases])
    assert not drv.memory
