"""One differential case: the same check through Z3 (``tilecheck.prove``) and the enumerator.

Concrete checks must agree on every obligation's status; a symbolic check only one way
(Z3 ``proved`` implies no violation on the enumerated symbol values).  Every Z3
counterexample must replay as a real violation (``decide.violation_at``), and Z3 must
not answer ``unknown`` on a concrete check.
"""
from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass, field

from .. import decide as enumerator, descriptor_file
from ..check import from_dict
from ..errors import InputError
from ..proofs import smem_descriptor as descriptor_obligations
from ..report import prove

DISAGREEMENT, REPLAY, UNKNOWN, CRASH, INVALID = "disagreement", "replay", "unknown", "crash", "invalid"
SOLVERS = "solvers"  # with recheck: z3 and cvc5 disagree on a query, or cvc5 cannot read the exported text
SLOW = 1.0  # seconds: an obligation that takes longer is reported by the campaign


@dataclass
class Problem:
    kind: str  # disagreement | replay | unknown | crash | invalid | solvers
    detail: str  # one line
    apply: int | None = None
    obligation: str | None = None
    statuses: tuple = ()  # (z3, enumerator) for a disagreement

    @property
    def signature(self) -> tuple:
        """What makes two problems the same bug (for de-duplication in a campaign)."""
        if self.kind == CRASH:
            return (CRASH, self.detail.split(":")[0])
        return (self.kind, self.obligation, *self.statuses)

    def __str__(self):
        where = (f"apply[{self.apply}] " if self.apply is not None else "") + f"{self.obligation}: " \
            if self.obligation else ""
        return f"{self.kind}: {where}{self.detail}"


@dataclass
class CaseResult:
    symbolic: bool = False
    verdict: str = "error"  # Z3's verdict of the file; "error" when it did not get one
    statuses: list = field(default_factory=list)  # per apply {obligation: Z3 status}
    others: list = field(default_factory=list)  # per tensor map or descriptor {obligation: Z3 status}
    problems: list = field(default_factory=list)
    unknown: int = 0  # obligations Z3 left unknown
    seconds: dict = field(default_factory=dict)  # z3, enumerator (cvc5 with recheck)
    recheck: dict = field(default_factory=dict)  # with recheck: proofs.smt2.Recheck.counts() less seconds
    slow: list = field(default_factory=list)  # (apply, obligation, status, seconds) over SLOW s

    @property
    def ok(self) -> bool:
        return not self.problems


def _crash(what: str, e: BaseException) -> Problem:
    frame = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    at = f" at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else ""
    msg = str(e).splitlines()[0] if str(e) else ""
    return Problem(CRASH, f"{what} raised {type(e).__name__}{at}: {msg}"[:300])


def compare(data, timeout: float = 10.0, limit: int = 64, path: str = "<fuzz>", recheck: bool = False) -> CaseResult:
    """Run one check (a check dict, or a loaded ``Check``) through Z3 and the enumerator; a descriptor
    check file's dict (a ``descriptors`` table) through ``compare_descriptors``.

    ``recheck``: a symbolic check's queries are decided by cvc5 too (``proofs.smt2``); a
    disagreement, or a query cvc5 cannot read, is a ``solvers`` problem."""
    if isinstance(data, dict) and "descriptors" in data and "apply" not in data:  # a descriptor file's
        return compare_descriptors(data, timeout=timeout, path=path)
    out = CaseResult()
    if isinstance(data, dict):
        try:
            check = from_dict(data, path)
        except InputError as e:
            out.problems.append(Problem(INVALID, f"the drawn check does not load: {e}"))
            return out
    else:
        check = data
    out.symbolic = bool(check.symbols)
    t = time.perf_counter()
    try:
        report = prove(check, timeout=timeout, minimize=False,  # every counterexample is replayed below
                       recheck=recheck and out.symbolic)
        json.dumps(report.to_json())
        report.to_text()
    except InputError as e:  # the facts contradict each other: the enumerator must find no assignment
        out.verdict = "error"
        try:
            found = enumerator.assignments(check, limit=limit)
        except Exception as e2:  # noqa: BLE001
            out.problems.append(_crash("assignments", e2))
            return out
        if found:
            out.problems.append(Problem(DISAGREEMENT, f"Z3 says the facts contradict each other ({e.message}), "
                                        f"the enumerator finds {found[0]} allowed"))
        return out
    except Exception as e:  # noqa: BLE001 - any exception is a finding
        out.problems.append(_crash("prove", e))
        return out
    out.seconds["z3"] = time.perf_counter() - t
    if report.recheck is not None:
        counts = report.recheck.counts()
        out.seconds["cvc5"] = counts.pop("seconds")
        out.seconds["z3"] -= out.seconds["cvc5"]
        out.recheck = counts
        for r in report.recheck.records:
            if r.disagrees or r.cvc5 == "error":
                out.problems.append(Problem(SOLVERS, r.line() if r.disagrees else f"cvc5: {r.reason}",
                                            r.apply, r.obligation, (r.z3, r.cvc5)))
    out.verdict = report.verdict
    out.slow = slow(report)
    t = time.perf_counter()
    envs = enumerator.assignments(check, limit=limit)
    if not envs:
        return out  # Z3 found the facts satisfiable; the enumerator's small range holds no model: no data
    _tensormaps(report, check, envs, out)
    try:
        decided = enumerator.decide(check, envs)  # the same assignments, not enumerated twice
    except Exception as e:  # noqa: BLE001
        out.problems.append(_crash("decide", e))
        return out
    out.seconds["enumerator"] = time.perf_counter() - t
    for i, (ar, dec) in enumerate(zip(report.applies, decided)):
        out.statuses.append({o.name: o.status for o in ar.obligations})
        problems = len(out.problems)
        for o in ar.obligations:
            d, witness = dec[o.name]
            if _unknown(out, o, i, o.name):
                continue
            if _differs(o.status, d, not out.symbolic):
                w = f"; enumerator's witness {_short(witness)}" if witness else ""
                z = f"; Z3: {o.message}" if o.message else ""
                out.problems.append(Problem(DISAGREEMENT, f"Z3 {o.status}, enumerator {d}{w}{z}", i, o.name,
                                            (o.status, d)))
            if o.name in enumerator.COUNTED and o.status == d and d != "skipped":
                why = _counts_differ(o, d, witness, out.symbolic, lambda: enumerator.count(check, i, o.name))
                if why:
                    out.problems.append(Problem(DISAGREEMENT, f"{why}; Z3: {o.message}", i, o.name,
                                                ("count", o.status)))
            if o.status == "refuted" and o.counterexample is not None:
                try:
                    why = enumerator.violation_at(check, i, o.name, o.counterexample)
                except Exception as e:  # noqa: BLE001
                    why = f"replaying it raised {type(e).__name__}: {e}"
                if why:
                    out.problems.append(Problem(REPLAY, f"Z3's counterexample is not a violation: {why}; "
                                                        f"{o.message}", i, o.name))
        # an obligation skipped on one side only because a prerequisite disagrees is no news
        differs = {p.obligation for p in out.problems[problems:] if p.kind == DISAGREEMENT}
        out.problems[problems:] = [
            p for p in out.problems[problems:]
            if not (p.kind == DISAGREEMENT and "skipped" in p.statuses and
                    differs & set(enumerator.needs(p.obligation, ar.apply.is_load)))]
    return out


def slow(report) -> list:
    """``(apply, obligation, status, seconds)`` of each obligation over ``SLOW`` seconds of its own: with
    ``--recheck`` an obligation's time includes cvc5's re-decision of its queries (``Record.seconds``, a
    query filed under ``<obligation>`` or ``<obligation>-<suffix>``), which is taken out."""
    cvc5: dict = {}
    for r in report.recheck.records if report.recheck is not None else ():
        key = (r.apply, r.obligation.split("-")[0])
        cvc5[key] = cvc5.get(key, 0.0) + r.seconds
    out = []
    for i, ar in enumerate(report.applies):
        for o in ar.obligations:
            own = o.seconds - cvc5.get((i, o.name), 0.0)
            if own > SLOW:
                out.append((i, o.name, o.status, own))
    return out


def _counts_differ(o, d: str, witness, symbolic: bool, proved_count) -> str | None:
    """banks / sectors: Z3's count against the enumerator's, as far as Z3 claims it.  A refutation's
    count is exact (``o.count``) or a lower bound ("at least N": ``counterexample.count``, exact false);
    the enumerator's count is exact on a concrete check and, on a symbolic one, the largest over the
    symbol values it enumerates (a subset: never above Z3's exact maximum)."""
    if d == "refuted":
        n, claimed = witness["count"], o.counterexample.get("count")
        exact = bool(o.counterexample.get("exact", True))
        if exact and (n > claimed if symbolic else n != claimed):
            return f"Z3 counts {claimed}, the enumerator {n}"
        if not exact and not symbolic and n < claimed:
            return f"Z3 counts at least {claimed}, the enumerator {n}"
        return None
    if not symbolic and o.count != proved_count():  # proved: the concrete count is reported too
        return f"Z3 counts {o.count}, the enumerator {proved_count()}"
    return None


def _unknown(out: CaseResult, o, apply, obligation: str) -> bool:
    """Whether Z3 left ``o`` unknown: counted, and on a concrete case a problem (named ``obligation``)."""
    if o.status != "unknown":
        return False
    out.unknown += 1
    if not out.symbolic:
        out.problems.append(Problem(UNKNOWN, o.message or "", apply, obligation))
    return True


def _differs(z3_status: str, decided: str, exact: bool) -> bool:
    """A disagreement: any other status where the enumerator saw every assignment (``exact``), else only a
    proof the enumerator refutes (on a symbolic case it saw some values: Z3 may refute more)."""
    return z3_status != decided if exact else (z3_status == "proved" and decided == "refuted")


def _short(w: dict) -> str:
    return json.dumps(w, default=str)[:300]


def _tensormaps(report, check, envs, out: CaseResult) -> None:
    """Each ``[tensormaps.NAME]``'s ``descriptor`` obligation against the decider's restatement of the
    driver's rules (``decide.tensormap``) at the same assignments: equal on a concrete check, Z3's proof
    never refuted and its counterexample a broken rule on a symbolic one."""
    for m, outcomes in report.tensormaps:
        out.others.append({o.name: o.status for o in outcomes})
        for o in outcomes:
            if _unknown(out, o, None, f"tensormap {m.name} {o.name}"):
                continue
            try:
                d, witness = enumerator.tensormap(check, m.name, envs)
            except Exception as e:  # noqa: BLE001
                out.problems.append(_crash("tensormap", e))
                return
            if _differs(o.status, d, not out.symbolic):
                out.problems.append(Problem(DISAGREEMENT, f"Z3 {o.status}, enumerator {d}; enumerator's witness "
                                            f"{_short(witness or {})}; Z3: {o.message}", None,
                                            f"tensormap {o.name}", (o.status, d)))
            if o.status == "refuted" and o.counterexample is not None:
                named = dict(o.counterexample.get("symbols") or {})  # the map's symbols; the rest: any allowed
                env = next((e for e in envs if all(e.get(k) == v for k, v in named.items())), {**envs[0], **named})
                ranges = all(s.min <= env[s.name] <= s.max and env[s.name] % s.multiple_of == 0
                             for s in check.symbols.values() if s.name in env)
                rule = enumerator.tmap_broken(check, m, env) if ranges else "symbol values out of range"
                if rule != o.counterexample.get("rule"):
                    out.problems.append(Problem(REPLAY, f"Z3's counterexample breaks {o.counterexample.get('rule')}, "
                                                f"the enumerator finds {rule} at {env}; {o.message}", None,
                                                f"tensormap {o.name}"))


def compare_descriptors(data: dict, timeout: float = 10.0, limit: int = 4096, path: str = "<fuzz>") -> CaseResult:
    """A descriptor check file (docs/wgmma.md) through Z3 (``proofs/smem_descriptor.decide``) and the
    decider (``decide.descriptors``).  A concrete file, and a symbolic one whose every symbol value the
    decider enumerates (``decide.desc_assignments``: at most ``limit``), must agree on every obligation;
    a symbolic one with more values one way (Z3 proved implies no violation among those enumerated).
    Every Z3 counterexample must replay (``decide.desc_violation_at``)."""
    out = CaseResult(symbolic=bool(data.get("symbols")))
    try:
        decls = descriptor_file.load(data, path)
    except InputError as e:
        out.problems.append(Problem(INVALID, f"the drawn descriptor file does not load: {e}"))
        return out
    t = time.perf_counter()
    try:
        z3s = {d.name: descriptor_obligations.decide(d, timeout_s=timeout) for d in decls}  # not [idesc.*]
    except Exception as e:  # noqa: BLE001
        out.problems.append(_crash("descriptor obligations", e))
        return out
    out.seconds["z3"] = time.perf_counter() - t
    statuses = [o.status for outs in z3s.values() for o in outs]
    out.verdict = "refuted" if "refuted" in statuses else "unknown" if "unknown" in statuses else "proved"
    t = time.perf_counter()
    try:
        envs, every = enumerator.desc_assignments(data, limit)
        decided = enumerator.descriptors(data, envs)
    except Exception as e:  # noqa: BLE001
        out.problems.append(_crash("decide descriptors", e))
        return out
    out.seconds["enumerator"] = time.perf_counter() - t
    exact = not out.symbolic or every
    for name, outs in z3s.items():
        out.others.append({o.name: o.status for o in outs})
        for o in outs:
            d, witness = decided[name][o.name]
            if _unknown(out, o, None, o.name):
                continue
            if _differs(o.status, d, exact):
                w = f"; enumerator's witness {_short(witness)}" if witness else ""
                out.problems.append(Problem(DISAGREEMENT, f"descriptor {name}: Z3 {o.status}, enumerator {d}{w}; "
                                                          f"Z3: {o.message}", None, o.name, (o.status, d)))
            if o.status == "refuted" and o.counterexample is not None:
                try:
                    why = enumerator.desc_violation_at(data, name, o.name, o.counterexample)
                except Exception as e:  # noqa: BLE001
                    why = f"replaying it raised {type(e).__name__}: {e}"
                if why:
                    out.problems.append(Problem(REPLAY, f"descriptor {name}: Z3's counterexample is not a violation: "
                                                        f"{why}; {o.message}", None, o.name))
    return out
