"""Bugs the fuzzers found that are not fixed yet: each has a check file here and a strict xfail
in tests/test_fuzz_regressions.py.  The property tests skip inputs that only hit these (so the
default run stays green); when a bug is fixed its xfail turns into an XPASS failure: then delete
its matcher here and its xfail mark."""

MALFORMED: dict[str, str] = {}  # file -> a text its traceback shows (every one found so far is fixed)

EMIT: dict[str, str] = {}  # file -> a text of the emitter's error (every one found so far is fixed)


def known_malformed(text: str) -> bool:
    return any(m in text for m in MALFORMED.values())


def known_emit(text: str) -> bool:
    return any(m in text for m in EMIT.values())
