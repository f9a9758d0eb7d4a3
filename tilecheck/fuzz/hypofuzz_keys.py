"""Give plain pytest the example-database keys HypoFuzz uses, so a HypoFuzz finding replays.

Hypothesis files a test's failures under ``function_digest(inner_test)``; its pytest plugin mixes
the pytest node id into that digest only for a parametrized test.  HypoFuzz 25.11 (its collection
step, ``hypofuzz/collection.py``) mixes the node id in for *every* test.  So for an ordinary,
unparametrized ``@given`` test the two key their entries differently: HypoFuzz saves its shrunk
failure under its key (``key + b""``, where Hypothesis's replay would look), but plain pytest
reads another key and never sees it.

This pytest plugin does at collection what HypoFuzz does: it mixes each Hypothesis test's node
id into its database key, so plain pytest reads (and writes) the entries HypoFuzz wrote.  Use it
with ``pytest -p tilecheck.fuzz.hypofuzz_keys ...``, or import the hook into a ``conftest.py``
(``bench/hypofuzz_demo/conftest.py`` does).  Node ids are relative to pytest's rootdir, so every
worker must run from a checkout with the same layout, as HypoFuzz already requires.

``_hypothesis_internal_add_digest`` is the attribute both Hypothesis's pytest plugin and HypoFuzz
set for this purpose; it is not public API, so ``tests/test_hypofuzz_replay.py`` checks the key
against the one a real HypoFuzz run wrote.
"""
from __future__ import annotations


def _inner_test(item):
    """The ``@given`` inner test behind a pytest item, or None for a non-Hypothesis item."""
    obj = getattr(item, "obj", None)
    handle = getattr(obj, "hypothesis", None)
    return getattr(handle, "inner_test", None)


def pytest_collection_modifyitems(session, config, items):
    for item in items:
        inner = _inner_test(item)
        if inner is not None:
            inner._hypothesis_internal_add_digest = item.nodeid.encode()


def database_key(test, nodeid: str) -> bytes:
    """The key HypoFuzz (and, with this plugin, plain pytest) files ``test``'s examples under."""
    from hypothesis.internal.reflection import function_digest

    inner = test.hypothesis.inner_test
    old = getattr(inner, "_hypothesis_internal_add_digest", None)
    inner._hypothesis_internal_add_digest = nodeid.encode()
    try:
        return function_digest(inner)
    finally:
        if old is None:
            del inner._hypothesis_internal_add_digest
        else:
            inner._hypothesis_internal_add_digest = old
