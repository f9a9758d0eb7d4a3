"""A planted failure, to show a HypoFuzz campaign's finding replaying on another worker.

Not part of the test suite (``testpaths = ["tests"]``).  The property is the concrete differential
one of ``tests/test_fuzz.py`` plus a planted "bug": it fails on any drawn check whose CTA has at
least 64 threads and whose first application is refuted on ``disjoint`` -- rare enough that a
worker must search for it.  ``conftest.py`` here loads ``tilecheck.fuzz.hypofuzz_keys`` so that plain
pytest reads the database keys HypoFuzz writes; ``PLANTED_REPLAY=1`` runs only the explicit and
database-replay phases.  docs/fuzzing.md has the commands and what they printed;
tests/test_hypofuzz_replay.py runs them.
"""
import os

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.database import DirectoryBasedExampleDatabase

import tilecheck
from tilecheck.fuzz.differential import compare
from tilecheck.strategies import checks

DB = os.environ.get("TILECHECK_FUZZ_DB", ".hypothesis/planted")
settings.register_profile("planted", database=DirectoryBasedExampleDatabase(DB), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile("planted")


# PLANTED_REPLAY=1: only the explicit examples and the database (no generation, no shrinking),
# to show that what another worker saved replays here.
PHASES = [Phase.explicit, Phase.reuse] if os.environ.get("PLANTED_REPLAY") else list(Phase)


@settings(max_examples=int(os.environ.get("PLANTED_EXAMPLES", "100")), phases=PHASES)
@given(checks())
def test_planted_race(data):
    r = compare(data)
    assert r.ok
    check = tilecheck.from_dict(data)
    statuses = r.statuses[0] if r.statuses else {}
    assert not (check.threads >= 64 and statuses.get("disjoint") == "refuted"), "planted: a CTA-wide race"
