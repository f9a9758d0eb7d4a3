"""Reports: per application the obligations' outcomes; verdicts, JSON, text, exit status."""
from __future__ import annotations

import time
from dataclasses import dataclass

from .check import Apply, Check
from .encode import instructions
from .proofs import PROVED, REFUTED, SKIPPED, UNKNOWN, Outcome, prove_apply

EXIT = {"proved": 0, "refuted": 1, "error": 2, "unknown": 3}
_RANK = {"proved": 0, "unknown": 1, "refuted": 2, "error": 3}


def worst(verdicts) -> str:
    return max(verdicts, key=lambda v: _RANK[v], default="proved")


def exit_status(verdicts) -> int:
    """The exit status of the worst verdict: error 2, refuted 1, unknown 3, proved 0."""
    return EXIT[worst(verdicts)]


@dataclass
class ApplyReport:
    apply: Apply
    instructions: int
    obligations: list[Outcome]

    @property
    def verdict(self) -> str:
        """refuted if a contract obligation is (a performance one is reported, never blocks)."""
        from .proofs.registry import blocks
        st = [o.status for o in self.obligations if blocks(o.name)]
        return REFUTED if REFUTED in st else UNKNOWN if UNKNOWN in st else PROVED

    def obligation(self, name: str) -> Outcome:
        return next(o for o in self.obligations if o.name == name)

    def to_json(self) -> dict:
        return {"index": self.apply.index, "opcode": self.apply.opcode.text, "scope": self.apply.scope,
                "verdict": self.verdict, "instructions": self.instructions,
                "obligations": [o.to_json() for o in self.obligations]}


@dataclass
class Report:
    check: Check
    applies: list[ApplyReport]
    seconds: float = 0.0

    @property
    def verdict(self) -> str:
        return worst(a.verdict for a in self.applies)

    @property
    def exit_status(self) -> int:
        return EXIT[self.verdict]

    @property
    def plan(self):
        """The emitter's input; only a proved report hands one out."""
        from .plan import Plan, _TOKEN
        if self.verdict != PROVED:
            raise PermissionError(f"{self.check.path} is {self.verdict}, not proved: there is no plan to emit")
        return Plan(_TOKEN, self.check)

    def to_json(self) -> dict:
        return {"file": self.check.path, "verdict": self.verdict, "arch": self.check.arch,
                "seconds": round(self.seconds, 6), "applies": [a.to_json() for a in self.applies]}

    def to_text(self) -> str:
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
                    lines.append(f"    - {o.message}")
        return "\n".join(lines)


def prove(check: Check, timeout: float = 10.0, minimize: bool = True) -> Report:
    """Prove or refute every obligation of every application of ``check``.

    The symbols' facts are decided first: facts that cannot all hold raise ``InputError``
    naming them (every proof would be vacuous); facts not shown satisfiable make every
    obligation that mentions a symbol ``unknown``.  ``minimize``: shrink counterexamples to
    the smallest symbol values, then coordinates."""
    from .proofs import facts as _facts
    from .timeout import seconds
    timeout = seconds(timeout)  # InputError unless a finite positive number of seconds
    start = time.perf_counter()
    facts = _facts.decide(check, timeout)
    out = [ApplyReport(a, instructions(check, a), prove_apply(check, a, timeout, facts, minimize))
           for a in check.applies]
    return Report(check, out, time.perf_counter() - start)


def error_json(path: str, message: str, where: str) -> dict:
    return {"file": path, "verdict": "error", "error": {"message": message, "where": where}}
