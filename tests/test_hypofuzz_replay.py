"""Two workers sharing a directory database: what a HypoFuzz worker finds replays on the other.

Worker 1 is a real HypoFuzz run (``hypothesis fuzz -n 1 --no-dashboard``) on the planted failure of
``bench/hypofuzz_demo/test_planted.py``; worker 2 is a separate plain-pytest process that shares
only the database directory and runs with ``phases=[Phase.explicit, Phase.reuse]`` (no generation,
no shrinking), so a failure there can only come from the database.  docs/fuzzing.md has the
commands and why ``tilecheck.fuzz.hypofuzz_keys`` is needed.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.internal.reflection import function_digest

from tilecheck.fuzz.hypofuzz_keys import database_key

FAILING = re.compile(r"Falsifying example|Failing test case")  # Hypothesis before / since 6.16x

ROOT = Path(__file__).resolve().parent.parent
DEMO = "bench/hypofuzz_demo/test_planted.py"
NODEID = f"{DEMO}::test_planted_race"
PLANTED_LINE = next(i for i, line in enumerate((ROOT / DEMO).read_text().splitlines(), 1)
                    if "planted: a CTA-wide race" in line)
FIND_WITHIN_S = 300  # 7 to 28 s on the quiet 2-core development machine, 2 min when loaded


def _env(db: Path, **extra) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["TILECHECK_FUZZ_DB"] = str(db)
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    env.update(extra)
    return env


def _planted_key(db: Path) -> bytes:
    """The key HypoFuzz files the planted test under, computed by tilecheck.fuzz.hypofuzz_keys."""
    code = ("import sys; sys.path.insert(0, 'bench/hypofuzz_demo'); import test_planted; "
            "from tilecheck.fuzz.hypofuzz_keys import database_key; "
            f"print(database_key(test_planted.test_planted_race, {NODEID!r}).hex())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(db), check=True,
                         capture_output=True, text=True, timeout=60)
    return bytes.fromhex(out.stdout.strip())


def _shrunk(hdb, key: bytes):
    """HypoFuzz's shrunk failures for ``key`` with their observations (the failing example)."""
    found = []
    from hypofuzz.database import FailureState

    for choices in hdb.failures(state=FailureState.SHRUNK).fetch(key):
        obs = hdb.failure_observations(state=FailureState.SHRUNK).fetch(key, choices)
        if obs is not None:
            found.append((choices, obs))
    return found


def _replay(db: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts=", "-q",
         *extra, DEMO],
        cwd=ROOT, env=_env(db, PLANTED_REPLAY="1"), capture_output=True, text=True, timeout=120,
        check=False)


def _flat(text: str) -> str:
    """``text`` without pytest's ``E`` line markers and without whitespace."""
    return re.sub(r"\s", "", "".join(re.sub(r"^E\s", "", line) for line in text.splitlines()))


def _hypothesis_cli() -> str:
    exe = Path(sys.executable).with_name("hypothesis")
    if exe.exists():
        return str(exe)
    found = shutil.which("hypothesis")
    if found is None:
        pytest.skip("the `hypothesis` console script (hypothesis fuzz) is not on PATH")
    return found


SMALL = """
import os
from hypothesis import given, settings, strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase


@settings(database=DirectoryBasedExampleDatabase(os.environ["SMALL_DB"]), derandomize=False)
@given(st.integers())
def test_small(x):
    assert x < 1000
"""


@pytest.mark.parametrize("plugin", [True, False])
def test_the_plugin_files_a_failure_under_the_node_id_key(tmp_path, monkeypatch, plugin):
    """Without the plugin plain pytest keys an unparametrized test by its digest alone; with it,
    by the digest with the node id mixed in (the key HypoFuzz uses; the slow test checks that)."""
    (tmp_path / "test_small.py").write_text(SMALL)
    db = tmp_path / "db"
    env = _env(db, SMALL_DB=str(db))
    args = ["-p", "tilecheck.fuzz.hypofuzz_keys"] if plugin else []
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "-o", "addopts=", "--rootdir", str(tmp_path), *args, "test_small.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
                         check=False)
    assert run.returncode == 1 and FAILING.search(run.stdout), run.stdout[-2000:]

    monkeypatch.setenv("SMALL_DB", str(db))
    spec = importlib.util.spec_from_file_location("test_small_copy", tmp_path / "test_small.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    node_key = database_key(module.test_small, "test_small.py::test_small")
    plain_key = function_digest(module.test_small.hypothesis.inner_test)
    assert node_key != plain_key
    saved = DirectoryBasedExampleDatabase(db)
    assert bool(list(saved.fetch(node_key))) is plugin
    assert bool(list(saved.fetch(plain_key))) is not plugin


@pytest.mark.slow
def test_hypofuzz_finding_replays_on_another_worker(tmp_path):
    try:  # hypofuzz is optional (the `fuzz` extra); only its absence skips
        from hypofuzz.database import HypofuzzDatabase, test_keys_key
    except ModuleNotFoundError as e:
        if e.name != "hypofuzz":
            raise
        pytest.skip("hypofuzz is not installed (pip install -e '.[fuzz]')")

    db = tmp_path / "shared-db"
    key = _planted_key(db)
    hdb = HypofuzzDatabase(DirectoryBasedExampleDatabase(db))

    # worker 1: HypoFuzz, one fuzz process, until it has saved a shrunk failure.  HypoFuzz's hub
    # stops at its 60-s check if its fuzz process has not finished a first round of 100 cases yet
    # (on a loaded machine it may not have); then worker 1 is started again, and resumes from the
    # database (its corpus, and any unshrunk failure first).
    log_path = tmp_path / "worker1.log"
    starts = 0
    start = time.monotonic()
    with open(log_path, "w") as log:
        while not _shrunk(hdb, key):
            assert time.monotonic() - start < FIND_WITHIN_S, (
                f"HypoFuzz found nothing in {FIND_WITHIN_S} s ({starts} starts); see {log_path}")
            starts += 1
            worker1 = subprocess.Popen(
                [_hypothesis_cli(), "fuzz", "-n", "1", "--no-dashboard", "--",
                 "-p", "no:cacheprovider", DEMO],
                cwd=ROOT, env=_env(db), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
            try:
                while not _shrunk(hdb, key) and worker1.poll() is None:
                    if time.monotonic() - start > FIND_WITHIN_S:
                        break
                    time.sleep(1)
            finally:
                # the hub and its fuzz process are worker1's own process group (own session)
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.killpg(worker1.pid, sig)
                    except ProcessLookupError:
                        break
                    time.sleep(1)
                worker1.wait(timeout=30)
    found = _shrunk(hdb, key)
    assert found, f"HypoFuzz ended without a shrunk failure: {log_path.read_text()[-2000:]}"
    # the key computed here is the one HypoFuzz itself registered for the test
    assert key in set(hdb.fetch(test_keys_key))
    _, obs = found[0]
    assert obs.status.value == "failed"
    assert obs.status_reason.endswith(f"test_planted.py:{PLANTED_LINE}")  # the planted assert
    assert obs.representation.startswith("test_planted_race(")

    # worker 2 without the key plugin (plain Hypothesis keys): it never sees HypoFuzz's entry
    plain = _replay(db, "--noconftest")
    assert plain.returncode == 0, plain.stdout[-3000:]
    assert not FAILING.search(plain.stdout)

    # worker 2 with bench/hypofuzz_demo/conftest.py (HypoFuzz's keys): replays exactly that example
    replay = _replay(db)
    assert replay.returncode == 1, replay.stdout[-3000:]
    assert "planted: a CTA-wide race" in replay.stdout
    assert "Falsifyingexample:" + _flat(obs.representation) in _flat(replay.stdout)
