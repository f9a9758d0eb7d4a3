"""A fuzzing campaign: Hypothesis draws checks, ``differential.compare`` judges each, and every
new problem is shrunk by Hypothesis to a small check.

The campaign is cut into *chunks*: chunk ``k`` of a campaign with seed ``S`` draws its cases
from the fixed seed ``(S, k)``, so the whole campaign is reproducible, chunks can run in
parallel processes, and a time budget is checked between chunks.  Each case is one draw by
Hypothesis's provider from that seeded ``Random``; a check drawn twice in a chunk is judged once.
A case with a problem not seen before goes to Hypothesis's shrinker (``_shrink``: its choice
sequence replayed from an in-memory example database, then shrunk; the last failing call is the
minimal case), and the chunk draws on, ignoring the problems already found.  (With a Hypothesis
too old for that, the chunk runs inside ``@given`` and resumes with the next sub-seed after a
finding.)
"""
from __future__ import annotations

import hashlib
import time
from random import Random
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, Phase, Verbosity, assume, given, seed as hseed, settings
from hypothesis.errors import Unsatisfiable, UnsatisfiedAssumption
from hypothesis.strategies import integers, one_of

from ..check import from_dict
from ..strategies import checks, symbolic_checks, to_toml
from .differential import CRASH, UNKNOWN, compare
from .whole import WHOLE, strategy


@dataclass
class Finding:
    data: dict  # the shrunk check
    problems: list  # [str]
    signatures: list  # [tuple]
    symbolic: bool


@dataclass
class Tally:
    """Counts of one or more chunks."""
    cases: int = 0
    distinct: set = field(default_factory=set)
    verdicts: Counter = field(default_factory=Counter)  # (kind, verdict) -> n; kind concrete|symbolic
    obligations: Counter = field(default_factory=Counter)  # (name, status) -> n
    problems: Counter = field(default_factory=Counter)  # kind -> cases with that kind of problem
    unknown_cases: Counter = field(default_factory=Counter)  # kind -> cases with an unknown obligation
    seconds: Counter = field(default_factory=Counter)  # z3, enumerator (cvc5 with recheck) of the counted cases;
    # and where a worker's time went: draw (Hypothesis drawing cases), judge (``compare`` of the counted
    # cases: the Z3 and enumerator above and the rest), shrink (after a finding: Hypothesis's shrinker)
    shrink_calls: int = 0  # cases the shrinker judged
    recheck: Counter = field(default_factory=Counter)  # with recheck: proofs.smt2.Recheck.counts() summed
    findings: list = field(default_factory=list)
    unknown_samples: list = field(default_factory=list)  # a few symbolic checks Z3 left unknown
    proved: list = field(default_factory=list)  # with keep=True: proved concrete checks (for the GPU)
    misaligned: list = field(default_factory=list)  # with keep=True: checks refuted on alignment alone
    slowest: tuple = (0.0, "", None)  # (Z3 seconds of the slowest case, its kind, its check)
    slow: list = field(default_factory=list)  # (seconds, kind, "apply[i] name status", check): obligations > 1 s

    def add(self, other: "Tally"):
        self.cases += other.cases
        self.shrink_calls += other.shrink_calls
        self.distinct |= other.distinct
        for a in ("verdicts", "obligations", "problems", "unknown_cases", "seconds", "recheck"):
            getattr(self, a).update(getattr(other, a))
        self.findings += other.findings
        self.unknown_samples = (self.unknown_samples + other.unknown_samples)[:20]
        self.proved += other.proved
        self.misaligned += other.misaligned
        self.slowest = max(self.slowest, other.slowest, key=lambda x: x[0])
        self.slow = sorted(self.slow + other.slow, key=lambda x: -x[0])[:20]

    def count(self, data: dict, result, symbolic: bool, text: str | None = None):
        kind = "symbolic" if symbolic else "concrete"
        self.cases += 1
        self.distinct.add(hashlib.sha1((to_toml(data) if text is None else text).encode()).hexdigest()[:16])
        self.verdicts[(kind, result.verdict)] += 1
        for st in [*result.statuses, *result.others]:  # the applies', then the tensor maps' and descriptors'
            for name, status in st.items():
                self.obligations[(name, status)] += 1
        for k in {p.kind for p in result.problems}:
            self.problems[k] += 1
        if result.unknown:
            self.unknown_cases[kind] += 1
            if len(self.unknown_samples) < 5:
                self.unknown_samples.append(data)
        self.seconds.update(result.seconds)
        self.recheck.update(result.recheck)
        z3s = result.seconds.get("z3", 0.0)
        if z3s > self.slowest[0]:
            self.slowest = (z3s, kind, data)
        for i, name, status, sec in result.slow:
            if len(self.slow) < 20:
                self.slow.append((sec, kind, f"apply[{i}] {name} {status}", data))


class _Found(Exception):
    pass


SETTINGS = dict(database=None, deadline=None, suppress_health_check=list(HealthCheck),
                phases=(Phase.generate, Phase.shrink), verbosity=Verbosity.quiet,
                report_multiple_bugs=False, print_blob=False)


def chunk_seed(seed: int, symbolic: bool, index: int, attempt: int = 0) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/{symbolic}/{index}/{attempt}".encode()).digest()[:8], "big")


def strategy_of(symbolic: bool, extra: dict):
    """What a chunk draws: ``checks``/``symbolic_checks`` (``extra``: their restrictions), or with
    ``families`` naming ``WHOLE`` draws, those (and the rest's checks), each with the same weight."""
    families = extra.get("families")
    whole = [f for f in families or () if f in WHOLE]  # the whole files' draws (``whole.WHOLE``)
    if not whole:
        return symbolic_checks(**extra) if symbolic else checks(**extra)
    rest = tuple(f for f in families if f not in WHOLE)
    out = [strategy(f, symbolic) for f in whole]
    if rest:
        kept = {**extra, "families": rest}
        out.insert(0, symbolic_checks(**kept) if symbolic else checks(**kept))
    return one_of(*out) if len(out) > 1 else out[0]


def run_chunk(seed: int, index: int, cases: int, symbolic: bool, timeout: float = 10.0,
              known: frozenset = frozenset(), limit: int = 64, on_case=None, shrink: bool = True,
              max_points: int | None = None, keep: bool = False, recheck: bool = False,
              swizzled: bool | None = None, families: tuple | None = None) -> Tally:
    """``cases`` drawn checks (Hypothesis seed derived from ``seed`` and ``index``; ``swizzled`` and
    ``families``: as ``strategies.checks`` takes them)."""
    tally = Tally()
    known = set(known)
    extra = {} if max_points is None else {"max_points": max_points}
    if swizzled is not None:
        extra["swizzled"] = swizzled
    if families is not None:
        extra["families"] = tuple(families)
    strategy = strategy_of(symbolic, extra)
    judge = dict(timeout=timeout, limit=limit, recheck=recheck)
    if _FAST is not None:
        return _fast_chunk(tally, known, strategy, seed, index, cases, symbolic, judge, on_case, shrink, keep)
    attempt = 0
    seen: set = set()  # Hypothesis draws some checks more than once: each is judged once per chunk
    while tally.cases < cases:
        state = {"failing": None, "counting": True}
        before = tally.cases

        @settings(max_examples=cases - tally.cases,
                  **{**SETTINGS, **({} if shrink else {"phases": (Phase.generate,)})})
        @hseed(chunk_seed(seed, symbolic, index, attempt))
        @given(strategy)
        def body(data):
            if state["counting"]:
                text = to_toml(data)
                assume(text not in seen)
                seen.add(text)
            t = time.perf_counter()
            result = compare(data, **judge)
            tally.seconds["judge" if state["counting"] else "shrink"] += time.perf_counter() - t
            tally.shrink_calls += not state["counting"]
            new = _new(result, known, symbolic)
            if state["counting"]:
                _count(tally, data, result, symbolic, keep, on_case, text)
            if new:
                state["counting"] = False
                state["failing"] = (data, new)
                raise _Found(new[0].signature)

        t = time.perf_counter()
        judged = tally.seconds["judge"] + tally.seconds["shrink"]
        try:
            body()
        except Unsatisfiable:
            break
        except Exception as e:  # noqa: BLE001 - _Found, or Hypothesis's own complaint
            if state["failing"] is None:
                tally.findings.append(Finding({}, [f"{CRASH}: the campaign itself raised {type(e).__name__}: {e}"],
                                              [(CRASH, "campaign")], symbolic))
                break
            data, new = state["failing"]
            tally.findings.append(Finding(data, [str(p) for p in new], [p.signature for p in new], symbolic))
            known |= {p.signature for p in new}
        finally:  # the engine's own time: drawing (and replaying while it shrinks)
            tally.seconds["draw"] += time.perf_counter() - t - (tally.seconds["judge"] + tally.seconds["shrink"] - judged)
        if tally.cases == before:  # Hypothesis found nothing more to draw
            break
        attempt += 1
    return tally


def _count(tally, data, result, symbolic, keep, on_case, text=None):
    tally.count(data, result, symbolic, text)
    if keep and not symbolic and not result.problems and "apply" in data and _emitted(data):  # a check file
        # whose every application the emitter takes (not a descriptor file's, nor a multicast TMA copy's)
        st = result.statuses
        if result.verdict == "proved":
            tally.proved.append(data)
        elif len(st) == 1 and {k for k, v in st[0].items() if v not in ("proved", "skipped")} == {"alignment"} \
                and not data["apply"][0].get("guard"):  # a guarded-out atom may never be issued (no fault)
            tally.misaligned.append(data)
    if on_case:
        on_case(result)


def _emitted(data: dict) -> bool:
    """Every application of the check is one its family emits (``Family.unemitted``: the GPU stage can run it)."""
    try:
        check = from_dict(data)
    except Exception:  # noqa: BLE001 - a check that does not load: the stage skips it with its reason
        return True
    return not any(a.family.unemitted(a, check) for a in check.applies)


def _new(result, known, symbolic) -> list:
    """The problems of ``result`` not found before (an unknown is no problem on a symbolic check)."""
    return [p for p in result.problems if p.signature not in known and not (p.kind == UNKNOWN and symbolic)]


# --- drawing without the engine -----------------------------------------------------------------------
# Hypothesis's engine costs as much as the draws themselves (it calls the test about twice per
# counted case: its mutations mostly repeat checks already judged).  Here each case is one draw by
# Hypothesis's own provider from a seeded ``Random`` (``ConjectureData``), and only a case with a
# new problem goes to the engine: its choice sequence is put in an in-memory example database, and
# ``@given`` with the reuse and shrink phases replays it and shrinks it.  A Hypothesis without these
# (before the choice-sequence database, 6.1xx) runs the chunk inside ``@given`` as before.

def _fast_api():
    try:
        from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
        from hypothesis.errors import StopTest
        from hypothesis.control import BuildContext
        from hypothesis.internal.conjecture.data import ConjectureData
        def context(data):  # what @given gives a draw (assume, note, event)
            return BuildContext(data, is_final=False, wrapped_test=run_chunk)
        probe = ConjectureData(random=Random(0))
        with context(probe):
            probe.draw(integers(0, 9))
        choices_to_bytes(probe.choices)
    except Exception:  # noqa: BLE001 - any missing piece: the engine path
        return None
    return ConjectureData, StopTest, InMemoryExampleDatabase, choices_to_bytes, context


_FAST = _fast_api()


def _fast_chunk(tally, known, strategy, seed, index, cases, symbolic, judge, on_case, shrink, keep) -> Tally:
    ConjectureData, StopTest, _, _, context = _FAST
    rnd = Random(chunk_seed(seed, symbolic, index))
    seen: set = set()  # a check drawn again is judged once per chunk
    draws = 0
    while tally.cases < cases and draws < 10 * cases + 100:  # Hypothesis's own limit on rejected draws
        draws += 1
        cd = ConjectureData(random=rnd)
        t = time.perf_counter()
        try:
            with context(cd):
                data = cd.draw(strategy)
        except (StopTest, UnsatisfiedAssumption):  # the strategy rejected this draw (a filter, assume, reject):
            continue  # Hypothesis would draw again too
        except Exception as e:  # noqa: BLE001 - a bug of the strategies is a finding of the campaign
            tally.findings.append(Finding({}, [f"{CRASH}: the campaign itself raised {type(e).__name__}: {e}"],
                                          [(CRASH, "campaign")], symbolic))
            break
        finally:
            tally.seconds["draw"] += time.perf_counter() - t
        text = to_toml(data)
        if text in seen:
            continue
        seen.add(text)
        t = time.perf_counter()
        result = compare(data, **judge)
        tally.seconds["judge"] += time.perf_counter() - t
        _count(tally, data, result, symbolic, keep, on_case, text)
        new = _new(result, known, symbolic)
        if new:
            if shrink:
                t = time.perf_counter()
                data, new = _shrink(strategy, cd.choices, chunk_seed(seed, symbolic, index, draws), known,
                                    symbolic, judge, (data, new), tally)
                tally.seconds["shrink"] += time.perf_counter() - t
            tally.findings.append(Finding(data, [str(p) for p in new], [p.signature for p in new], symbolic))
            known |= {p.signature for p in new}
    return tally


def _shrink(strategy, choices, shrink_seed, known, symbolic, judge, found, tally=None):
    """Hypothesis's shrinker on the case drawn by ``choices``: the smallest check it finds with a
    problem not in ``known`` (``found``, the drawn case and its problems, if it finds none smaller)."""
    _, _, InMemoryExampleDatabase, choices_to_bytes, _ = _FAST
    db = InMemoryExampleDatabase()
    state = {"failing": found}

    @settings(**{**SETTINGS, "database": db, "phases": (Phase.reuse, Phase.shrink)})
    @hseed(shrink_seed)
    @given(strategy)
    def body(data):
        if tally is not None:
            tally.shrink_calls += 1
        new = _new(compare(data, **judge), known, symbolic)
        if new:
            state["failing"] = (data, new)
            raise _Found(new[0].signature)

    key = b"tilecheck-fuzz-shrink"
    body._hypothesis_internal_database_key = key
    # the secondary corpus: a failing case not yet shrunk (a primary entry counts as shrunk already)
    db.save(key + b".secondary", choices_to_bytes(choices))
    try:
        body()
    except Exception:  # noqa: BLE001 - _Found: state["failing"] is the last failing call, the shrunk case
        pass  # (Hypothesis replays it last); anything else (a flaky replay): the last failing call
    return state["failing"]


def _worker(job):
    return run_chunk(**job)
