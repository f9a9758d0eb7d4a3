"""The emitter's one error: a proved plan that this emitter cannot turn into PTX."""
from __future__ import annotations

from ..errors import InputError


class EmitError(InputError):
    """A proved plan outside what PTX (or this emitter) can express, e.g. a shared tensor whose
    size is symbolic.  An ``InputError``, so the CLI reports it in one line with exit status 2."""
