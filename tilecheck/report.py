"""Reports: per application the obligations' outcomes; verdicts, JSON, text, exit status."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .check import Apply, Check
from .encode import instructions
from .proofs import Outcome, PROVED, REFUTED, SKIPPED, UNKNOWN, facts as _facts, prove_apply
from .verdict import Verdict
from .plan import Plan, _TOKEN
from .proofs.registry import TENSORMAP_REGISTRY, blocks
from .proofs.smt2 import Recorder
from .timeout import seconds

ERROR, INTERNAL = Verdict.ERROR, Verdict.INTERNAL
EXIT = {PROVED: 0, REFUTED: 1, ERROR: 2, UNKNOWN: 3, INTERNAL: 4}
_RANK = {PROVED: 0, UNKNOWN: 1, REFUTED: 2, ERROR: 3, INTERNAL: 4}


def worst(verdicts) -> Verdict:
    return Verdict(max(verdicts, key=lambda v: _RANK[v], default=PROVED))


def exit_status(verdicts) -> int:
    """The exit status of the worst verdict: internal 4 (z3 and cvc5 disagree), error 2, refuted 1,
    unknown 3, proved 0."""
    return EXIT[worst(verdicts)]


@dataclass
class ApplyReport:
    """One application's outcome: the obligations' statuses and messages (``obligation(name)``),
    its verdict and the instructions per thread."""
    apply: Apply
    instructions: int
    obligations: list[Outcome]

    @property
    def verdict(self) -> str:
        """refuted if a contract obligation is (a performance one is reported and blocks only when the
        check file requires it: ``require``)."""
        st = [o.status for o in self.obligations if blocks(o.name, self.apply.require)]
        return REFUTED if REFUTED in st else UNKNOWN if UNKNOWN in st else PROVED

    def obligation(self, name: str) -> Outcome:
        return next(o for o in self.obligations if o.name == name)

    def to_json(self) -> dict:
        return {"index": self.apply.index, "opcode": self.apply.opcode.text, "scope": self.apply.scope,
                "verdict": self.verdict, "instructions": self.instructions,
                "obligations": [o.to_json() for o in self.obligations]}


@dataclass
class Report:
    """What ``prove`` returns: per application an ``ApplyReport``; ``verdict`` (the worst
    application's: proved, refuted or unknown), ``to_text()``, ``to_json()``, ``exit_status``, and
    ``plan`` (only when proved) for ``tilecheck.emit``."""
    check: Check
    applies: list[ApplyReport]
    seconds: float = 0.0
    recheck: object = None  # smt2.Recheck with --smt2 / --recheck: the exported queries, cvc5's answers
    tensormaps: list = field(default_factory=list)  # [(TensorMap, [Outcome])]: each [tensormaps.NAME]'s obligations

    @property
    def verdict(self) -> str:
        return worst([*(a.verdict for a in self.applies), *(o.status for _, outs in self.tensormaps for o in outs)])

    @property
    def disagreements(self) -> list:
        """Queries on which z3 and cvc5 disagree (an internal error, never a verdict)."""
        return self.recheck.disagreements if self.recheck is not None else []

    @property
    def status(self) -> str:
        """The verdict, or ``internal`` when the second solver disagrees with z3."""
        return INTERNAL if self.disagreements else self.verdict

    @property
    def exit_status(self) -> int:
        return EXIT[self.status]

    @property
    def plan(self):
        """The emitter's input; only a proved report hands one out."""
        if self.disagreements:
            raise PermissionError(f"{self.check.path}: z3 and cvc5 disagree: there is no plan to emit")
        if self.verdict != PROVED:
            raise PermissionError(f"{self.check.path} is {self.verdict}, not proved: there is no plan to emit")
        return Plan(_TOKEN, self.check, [a.obligations for a in self.applies])

    def to_json(self) -> dict:
        """The report as a JSON-able dict (what ``prove --json`` prints for one file): file, verdict,
        arch, seconds and per application its obligations, each with status, message and counterexample."""
        out = {"file": self.check.path, "verdict": self.verdict, "arch": self.check.arch,
               "seconds": round(self.seconds, 6), "applies": [a.to_json() for a in self.applies]}
        if self.tensormaps:
            out["tensormaps"] = [{"name": m.name, "tensor": m.tensor, "verdict": worst(o.status for o in outs),
                                  "obligations": [o.to_json() for o in outs]} for m, outs in self.tensormaps]
        if self.recheck is not None:
            out["recheck"] = self.recheck.to_json()
        return out

    def to_text(self) -> str:
        """The report as ``tilecheck prove`` prints it: the file's verdict, then per application each
        obligation's status and time, and the message of each one not proved."""
        lines = [f"{self.check.path}: {self.verdict} ({self.check.arch}, threads={self.check.threads}, "
                 f"{self.seconds * 1000:.0f} ms)"]
        for a in self.applies:
            lines.append(f"  apply[{a.apply.index}] {a.apply.opcode.text} ({a.apply.scope} scope): {a.verdict}, "
                         f"{a.instructions} instructions per thread")
            for o in a.obligations:
                t = f"{o.seconds * 1000:7.1f} ms" if o.status != SKIPPED else " " * 10
                lines.append(f"    {o.name:<11} {o.status:<8} {t}")
            for o in a.obligations:
                if o.status in (REFUTED, UNKNOWN):
                    tail = ""
                    if o.status == REFUTED and not blocks(o.name, a.apply.require):
                        tail = f" (performance: reported, not blocking; require = [\"{o.name}\"] makes it block)"
                    lines.append(f"    - {o.message}{tail}")
                elif o.status == PROVED and o.message:
                    lines.append(f"    - {o.name}: {o.message}")
        for m, outs in self.tensormaps:
            lines.append(f"  tensormap {m.name} ({m.dtype}, rank {m.rank}, interleave {m.interleave}, swizzle "
                         f"{m.swizzle}, of {m.tensor}): {worst(o.status for o in outs)}")
            for o in outs:
                lines.append(f"    {o.name:<11} {o.status:<8} {o.seconds * 1000:7.1f} ms")
            for o in outs:
                if o.status in (REFUTED, UNKNOWN):
                    lines.append(f"    - {o.message}")
        if self.recheck is not None and (text := self.recheck.to_text()):
            lines.append(text)
        return "\n".join(lines)


def prove(check: Check, timeout: float = 10.0, minimize: bool = True, recheck: bool = False, smt2=None,
          recorder=None, facts=None, progress=None) -> Report:
    """Prove or refute every obligation of every application of ``check``.

    The symbols' facts are decided first: facts that cannot all hold raise ``InputError``
    naming them (every proof would be vacuous); facts not shown satisfiable make every
    obligation that mentions a symbol ``unknown``.  ``minimize``: shrink counterexamples to
    the smallest symbol values, then coordinates.

    ``smt2=DIR`` writes every query Z3 decides to ``DIR/<file-stem>/apply<i>-<obligation>.smt2``;
    ``recheck=True`` lets cvc5 decide each query's SMT-LIB text too (``report.disagreements``,
    exit status 4 when the solvers disagree).  ``recorder`` (a ``proofs.smt2.Recorder``) does both.
    ``facts``: the symbols' facts already decided (``proofs.facts.decide`` of a check with the same
    symbols and ``assume``: ``tilecheck suggest`` decides them once for all its variants).
    ``progress(k, apply)`` is called before application ``k`` is proved (``tilecheck.progress.Line``).
    """
    timeout = seconds(timeout)  # InputError unless a finite positive number of seconds
    if recorder is None and (recheck or smt2 is not None):
        recorder = Recorder(export=smt2, recheck=recheck, timeout=timeout)
    start = time.perf_counter()
    facts = _facts.decide(check, timeout) if facts is None else facts
    maps = [(m, [module.prove(check, m, timeout, facts, minimize, recorder) for module in TENSORMAP_REGISTRY.values()])
            for m in check.tensormaps.values()]
    out = []
    for k, a in enumerate(check.applies):
        if progress is not None:
            progress(k, a)
        out.append(ApplyReport(a, instructions(check, a), prove_apply(check, a, timeout, facts, minimize, recorder)))
    report = Report(check, out, time.perf_counter() - start, tensormaps=maps)
    if recorder is not None:
        report.recheck = recorder.for_file(check.path)
    return report


def error_json(path: str, message: str, where: str, line: int | None = None) -> dict:
    """Bad input as JSON; ``line``: the check file's line of the place, where it was found."""
    error = {"message": message, "where": where}
    if line is not None:
        error["line"] = line
    return {"file": path, "verdict": ERROR, "error": error}
