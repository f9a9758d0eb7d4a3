"""Proving a check a front end translated (``tilecheck tirx``, ``tilecheck cute``): one place for the
result record both report, so the two front ends cannot drift apart."""
from __future__ import annotations

from ..check import from_dict
from ..errors import InputError
from ..report import prove


def prove_translated(spec: dict, where: str, timeout: float, describe, notes=None) -> dict:
    """The result record of the translated check ``spec`` (its one apply): ``verdict``, ``instructions``,
    each obligation's status, then ``notes(report)``'s fields, and for a refuted or unknown apply the
    obligations that failed, ``describe(bad)``'s fields and the first one's counterexample.  A check
    tilecheck rejects is ``unsupported`` with the reason."""
    try:
        check = from_dict(spec, where)
    except InputError as e:
        return {"verdict": "unsupported", "reason": f"tilecheck rejects the translated check: {e}"}
    rep = prove(check, timeout=timeout).applies[0]
    bad = [o for o in rep.obligations if o.status in ("refuted", "unknown")]
    result = {"verdict": rep.verdict, "instructions": rep.instructions,
              "obligations": {o.name: o.status for o in rep.obligations}}
    if notes is not None:
        result.update(notes(rep))
    if bad:
        result["failed"] = [o.name for o in bad]
        result.update(describe(bad))
        if bad[0].counterexample is not None:
            result["counterexample"] = bad[0].counterexample
    return result
