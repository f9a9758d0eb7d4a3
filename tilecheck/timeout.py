"""The one rule for a time limit (``--timeout``, ``--symbolic-timeout``, ``prove(timeout=...)``):
a finite positive number of seconds, at most what Z3 can take (milliseconds in 32 bits)."""
from __future__ import annotations

import argparse
import math

from .errors import InputError

MAX_SECONDS = 4_294_967  # Z3's timeout is an unsigned 32-bit count of milliseconds


def seconds(value, what: str = "timeout") -> float:
    """``value`` as float seconds; InputError unless finite, positive and at most MAX_SECONDS."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float))
    if ok:
        try:
            x = float(value)
        except OverflowError:  # an int too large for a float
            ok = False
        else:
            ok = math.isfinite(x) and 0 < x <= MAX_SECONDS
    if not ok:
        raise InputError(f"{what} must be a finite positive number of seconds (at most {MAX_SECONDS}), "
                         f"got {value!r}"[:200])
    return x


def positive_seconds(text: str) -> float:
    """argparse ``type=`` for every time-limit option: the same rule, as a usage error (exit 2)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a finite positive number of seconds, got {text!r}") from None
    try:
        return seconds(value)
    except InputError:
        raise argparse.ArgumentTypeError(f"must be a finite positive number of seconds "
                                         f"(at most {MAX_SECONDS}), got {text!r}") from None
