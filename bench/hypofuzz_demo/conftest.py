# Plain pytest here files examples under HypoFuzz's database keys (tilecheck/fuzz/hypofuzz_keys.py
# says why), so a failure a HypoFuzz worker found replays on any other worker.
from tilecheck.fuzz.hypofuzz_keys import pytest_collection_modifyitems  # noqa: F401
