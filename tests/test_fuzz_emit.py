"""Properties of drawn checks past the proof: every proved check emits PTX that ptxas accepts with
one memory instruction per repeat; on a GPU (``gpu`` marker) every proved check's kernel equals
numpy bit for bit, and a refuted alignment faults.

The emitter and ptxas (the ``test`` extra) are required: an import error of tilecheck's own
modules fails them.  The GPU ones skip, saying why, where pycuda or a device is missing.  Proved checks that hit a known emitter bug
(tests/regressions/known_bugs.py) are left out; its strict xfail keeps it in view.
"""
import os
import re
import subprocess

import pytest
from hypothesis import HealthCheck, assume, given, settings

import tilecheck
from tilecheck import emit
from tilecheck.emit import sass
from tilecheck.gpu import runner
from tilecheck.strategies import checks, to_toml

from regressions.known_bugs import known_emit
from conftest import require_gpu

PROPERTY = settings(max_examples=int(os.environ.get("TILECHECK_FUZZ_EMIT", "40")), deadline=None,
                    derandomize=True, database=None, suppress_health_check=list(HealthCheck))
SHARED_LIMIT = "static shared memory"  # the test kernel's ABI copies shared tensors into a static array


def proved(data):
    check = tilecheck.from_dict(data)
    report = tilecheck.prove(check)
    assume(report.verdict == "proved")
    return check, report


def memory_lines(body):
    return [ln for ln in body if ln.split()[0].lstrip("@").startswith(("ld.", "st.")) or
            (len(ln.split()) > 1 and ln.split()[0].startswith("@") and ln.split()[1].startswith(("ld.", "st.")))]


_ASSEMBLED = []  # how many drawn checks the property below took through ptxas


@PROPERTY
@given(checks(max_points=256))
def _emits_one_memory_instruction_per_repeat_and_ptxas_accepts_it(data):
    check, report = proved(data)
    try:
        for i, a in enumerate(report.applies):
            body = emit.fragment(report.plan, i).body
            if a.apply.opcode.kind in ("ld", "st") and not a.apply.guard:
                assert len(memory_lines(body)) == len(body) == a.instructions, to_toml(data)
                assert all(a.apply.opcode.text in ln for ln in body)
            else:  # a guarded row whose guard is never true has no instruction (emit/fragment.py); cp.async,
                # ldmatrix and stmatrix bodies also hold their braces, register moves and the like
                issued = [ln for ln in body if a.apply.opcode.text in ln]
                assert (len(issued) <= a.instructions if a.apply.guard else len(issued) == a.instructions), \
                    to_toml(data)
        ptx = emit.kernel(report.plan)
    except Exception as e:  # noqa: BLE001 - an EmitError for the harness's limit, or a known bug: left out
        assume(not known_emit(f"{type(e).__name__}: {e}") and SHARED_LIMIT not in str(e))
        raise
    try:
        asm = sass.assemble(ptx, check.arch)
    except FileNotFoundError as e:
        pytest.skip(str(e))
    except subprocess.CalledProcessError as e:
        raise AssertionError(f"ptxas rejects the kernel: {e.stderr or e.stdout}\n{to_toml(data)}") from None
    _ASSEMBLED.append(check.arch)
    if any(a.apply.opcode.kind not in ("ld", "st") or a.apply.guard for a in report.applies):
        # ptxas accepted it; the counts below compare ld/st lines only: a cp.async is no ld/st line, and the
        # harness's loads of a guarded-out atom's registers are dead code that ptxas drops
        return
    want, got = sass.ptx_memory(ptx), asm.memory()
    least = sass.ptx_memory(_one_load_per_address(ptx))  # ptxas may merge loads of one address (a stride 0)
    if asm.spills:
        for c in ("LDL", "STL"):
            want.pop(c, None), got.pop(c, None), least.pop(c, None)
    assert set(got) == set(want) and all(least[c] <= got[c] <= want[c] for c in want), \
        f"SASS memory instructions {dict(got)} != PTX ld/st {dict(want)} (at least {dict(least)})\n{to_toml(data)}"


def _one_load_per_address(ptx):
    """The PTX text with every non-volatile load of an (instruction, address) already loaded left out."""
    seen, out = set(), []
    for ln in ptx.splitlines():
        m = re.match(r"\s*(ld\.[\w:.]+)\s+[^\[]*?(\[[^\]]*\])", ln)
        if m and "volatile" not in m.group(1) and ".param" not in m.group(1):
            if m.groups() in seen:
                continue
            seen.add(m.groups())
        out.append(ln)
    return "\n".join(out)


def test_every_proved_check_emits_one_memory_instruction_per_repeat_and_ptxas_accepts_it():
    _ASSEMBLED.clear()
    _emits_one_memory_instruction_per_repeat_and_ptxas_accepts_it()
    # a property over no case proves nothing: most draws are proved, so some must reach ptxas
    assert len(_ASSEMBLED) >= PROPERTY.max_examples // 4, f"only {len(_ASSEMBLED)} drawn checks were assembled"


# --- on the GPU -----------------------------------------------------------------------------------------
def _device():
    return runner, require_gpu()


def _drawn(n, keep, seed=0):
    """``n`` drawn concrete checks (with their reports) that ``keep(check, report)`` accepts."""
    from hypothesis import seed as hseed
    out = []

    @settings(PROPERTY, max_examples=20 * n)
    @hseed(seed)
    @given(checks(max_points=256))
    def collect(data):
        if len(out) >= n:
            return
        check = tilecheck.from_dict(data, f"<fuzz {len(out)}>")
        report = tilecheck.prove(check)
        if keep(check, report):
            out.append((data, check, report))
    collect()
    return out


@pytest.mark.gpu
def test_proved_checks_equal_numpy_on_the_gpu():
    runner, g = _device()
    n = int(os.environ.get("TILECHECK_FUZZ_GPU", "200"))

    def runnable(check, report):
        if report.verdict != "proved" or g.can_run(check.arch):  # can_run: the reason it cannot, or None
            return False
        if _too_big(check):
            return False
        try:
            emit.kernel(report.plan)
        except Exception as e:  # noqa: BLE001
            why = f"{type(e).__name__}: {e}"
            return not (known_emit(why) or SHARED_LIMIT in why) and pytest.fail(f"{why}\n{check.path}")
        return True

    cases = _drawn(n, runnable)
    # a property over no case proves nothing: the draws must give runnable cases on this device
    assert len(cases) >= min(n, 10), f"only {len(cases)} runnable proved cases drawn (wanted {n})"
    results = runner.run_checks([runner.Job(c, plan=r.plan, seed=k) for k, (_, c, r) in enumerate(cases)])
    assert len(results) == len(cases)
    bad = [(d, res.summary()) for (d, _, _), res in zip(cases, results) if not res.ok]
    assert not bad, "\n\n".join(f"{why}\n{to_toml(d)}" for d, why in bad[:5])


def _too_big(check, limit=1 << 24):
    """Buffers of more than ``limit`` elements (huge strides or offsets) are not worth a GPU run."""
    try:
        return any(t.layout.cosize({}, t.offset) * (check.threads if t.scope == "local" else 1) > limit
                   for t in check.tensors.values())  # local memory: one copy per thread in the reference
    except KeyError:  # symbolic
        return True


@pytest.mark.gpu
def test_refuted_alignment_faults_on_the_gpu(tmp_path):
    _, g = _device()
    from tilecheck.gpu.unchecked import confirm
    n = int(os.environ.get("TILECHECK_FUZZ_GPU_ALIGN", "20"))

    def misaligned(check, report):
        st = {o.name: o.status for o in report.applies[0].obligations}
        return (len(check.applies) == 1 and st["alignment"] == "refuted" and not g.can_run(check.arch)
                and not check.applies[0].guard  # a guarded-out atom (cp.async src-size 0) reads nothing: no fault
                and not _too_big(check) and
                all(s in ("proved", "skipped") for k, s in st.items() if k != "alignment") and
                not tilecheck.decide.alignment_base(check, check.applies[0], {}))  # an atom, not the base

    from tilecheck.strategies import to_toml as dump
    cases = _drawn(n, misaligned, seed=1)
    assert cases, "no refuted-alignment case drawn"
    for k, (data, check, report) in enumerate(cases):
        path = tmp_path / f"misaligned{k}.toml"
        path.write_text(dump(data))
        outcome = confirm(tilecheck.load(path), {}, k, str(path), report=report)
        assert outcome.confirmed, f"{outcome.status}: {outcome.detail}\n{dump(data)}"
