"""Every obligation query as SMT-LIB 2 text, and a second opinion on it from cvc5.

A ``Recorder`` is handed to ``report.prove`` (through ``prove_apply`` and ``decide``); the runner
calls ``Recorder.observe`` right after Z3 answers a query.  The recorder prints the solver's
assertions as SMT-LIB 2 (Z3's own printer, ``Solver.to_smt2``, with symbols that SMT-LIB does not
allow unquoted put between ``|``), optionally writes that text to ``DIR/<file-stem>/apply<i>-
<obligation>.smt2``, and optionally lets cvc5 decide the *text*: cvc5 parses exactly what Z3 was
asked and shares no formula-building code with tilecheck.

Z3 sat and cvc5 unsat, or the reverse, is a disagreement: an internal error of one of the
solvers or of the export, never a verdict.  cvc5 unknown / timeout, or a query cvc5 could not
read, is "not rechecked": it proves nothing and refutes nothing.
"""
from __future__ import annotations

import atexit
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
import select
import subprocess
import sys
import z3

SAT, UNSAT, UNKNOWN, ERROR = "sat", "unsat", "unknown", "error"
MEANING = {SAT: "refuted", UNSAT: "proved", UNKNOWN: "unknown"}

# options that make cvc5 decide the nonlinear integer queries quickly (both on by default in
# cvc5 1.x; set explicitly so that a build with other defaults behaves the same)
CVC5_OPTIONS = {"nl-ext-tplanes": "true", "nl-cov": "true"}


# --- SMT-LIB text ------------------------------------------------------------------------------

_SIMPLE = re.compile(r"[A-Za-z~!@$%^&*_\-+=<>.?/][A-Za-z0-9~!@$%^&*_\-+=<>.?/]*\Z")
_NUMBER = re.compile(r"(\d+(\.\d+)?|#x[0-9A-Fa-f]+|#b[01]+)\Z")
_TOKEN = re.compile(r'\s+|;[^\n]*|\|[^|]*\||"(?:[^"]|"")*"|[()]|[^\s()|";]+')


def quote_symbols(text: str) -> str:
    """Put ``|...|`` around every symbol that SMT-LIB 2 does not allow bare.

    Z3 prints a name such as ``k'`` (a ``multiple_of`` symbol's quotient) unquoted; other solvers
    reject it.  Comments, quoted symbols, strings, numerals and keywords pass unchanged.
    """
    out, pos = [], 0
    for m in _TOKEN.finditer(text):
        if m.start() != pos:
            raise ValueError(f"cannot tokenize the SMT-LIB text at {pos}")
        t = m.group()
        pos = m.end()
        if t[0] in " \t\r\n;|\"()" or t.startswith(":") or _NUMBER.match(t) or _SIMPLE.match(t):
            out.append(t)
        else:
            out.append(f"|{t}|")
    if pos != len(text):
        raise ValueError(f"cannot tokenize the SMT-LIB text at {pos}")
    return "".join(out)


_LET = re.compile(r"(?<![\w|])([?$]x)(\d+)\b")


def stable_lets(text: str) -> str:
    """z3 names its let bindings after term ids (``?x136``, ``$x73``), which depend on everything
    the process built before; renumber them by first appearance so the same query prints the same
    text in any process (one consistent renaming, so the meaning is unchanged)."""
    names: dict[str, str] = {}

    def sub(m):
        return names.setdefault(m.group(0), f"{m.group(1)}{len(names) + 1}")
    return _LET.sub(sub, text)


def to_smtlib(solver, header: list[str], z3_status: str) -> str:
    """The solver's assertions as one self-contained SMT-LIB 2 script ending in ``(check-sat)``."""
    body = [ln for ln in stable_lets(quote_symbols(solver.to_smt2())).splitlines()
            if not ln.startswith("; benchmark generated") and not ln.startswith("(set-info :status")]
    lines = [f"; {h}" for h in header]
    lines += ["(set-logic ALL)", f"(set-info :status {z3_status if z3_status in (SAT, UNSAT) else 'unknown'})"]
    lines += [ln for ln in body if ln.strip()]
    if lines[-1].strip() != "(check-sat)":
        lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


_DECLARED = re.compile(r"^\(declare-fun (\|[^|]*\||[^\s()]+) \(\) (Int|Bool)\)$", re.M)


def pin_model(text: str, model) -> str | None:
    """``text`` (``to_smtlib``) with each declared Int or Bool constant pinned to its value in the Z3
    ``model`` (before the ``(check-sat)``): a ground query, which any solver decides by evaluation.
    None when the model gives a constant no value of those sorts."""
    values = {d.name(): model[d] for d in model.decls() if d.arity() == 0}
    pins = []
    for quoted, sort in _DECLARED.findall(text):
        name = quoted[1:-1] if quoted.startswith("|") else quoted
        v = values.get(name)
        if v is None:
            continue
        if sort == "Int" and z3.is_int_value(v):
            n = v.as_long()
            pins.append(f"(assert (= {quoted} {n if n >= 0 else f'(- {-n})'}))")
        elif sort == "Bool" and (z3.is_true(v) or z3.is_false(v)):
            pins.append(f"(assert (= {quoted} {'true' if z3.is_true(v) else 'false'}))")
        else:
            return None
    head, sep, tail = text.rpartition("(check-sat)")
    return head + "; pinned to Z3's model\n" + "\n".join(pins) + "\n" + sep + tail if sep else None


# --- cvc5 --------------------------------------------------------------------------------------

def cvc5_version() -> str | None:
    """cvc5's version, or None when the ``cvc5`` package cannot be imported."""
    try:
        import cvc5
    except ImportError:
        return None
    return getattr(cvc5, "__version__", "?")


def cvc5_decide(text: str, timeout_s: float) -> tuple[str, str | None]:
    """cvc5's answer on an SMT-LIB 2 script: (sat | unsat | unknown | error, reason or None)."""
    import cvc5
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(max(1, int(timeout_s * 1000))))
    for k, v in CVC5_OPTIONS.items():
        try:
            solver.setOption(k, v)
        except RuntimeError:  # not in this build
            pass
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query.smt2")
    result = None
    try:
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            if cmd.getCommandName() == "check-sat":
                if result is not None:
                    return ERROR, "more than one (check-sat)"
                result = solver.checkSat()
            elif cmd.getCommandName() == "set-info":
                pass  # the file's (set-info :status) is z3's answer: cvc5 would check it itself; we compare
            else:
                cmd.invoke(solver, sm)
    except RuntimeError as e:  # a parse error: the export wrote something cvc5 does not read
        return ERROR, f"cvc5 could not read the query: {str(e).strip().splitlines()[0] if str(e).strip() else e}"
    if result is None:
        return ERROR, "no (check-sat) in the query"
    if result.isSat():
        return SAT, None
    if result.isUnsat():
        return UNSAT, None
    why = str(result.getUnknownExplanation())
    return UNKNOWN, ("timed out" if "TIMEOUT" in why.upper() else why)


class _Worker:
    """cvc5 in a child process that is killed at a wall-clock limit.

    ``tlimit-per`` is checked only at cvc5's resource checkpoints, and some nonlinear queries
    run far past it; a query that has not answered after ``2 * timeout + 1`` seconds is
    "unknown (killed)", and the next query starts a fresh child.  A plain subprocess, not
    multiprocessing: the fuzz campaign's pool workers may not have children of their own.
    """

    START_S = 5.0  # allowance for a fresh child's start (importing cvc5)

    def __init__(self):
        self.proc = None
        self.fresh = False

    def _start(self):
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen([sys.executable, "-c", "from tilecheck.proofs.smt2 import _serve; _serve()"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env, text=True)
        self.fresh = True

    def stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def decide(self, text: str, timeout_s: float) -> tuple[str, str | None]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        hard = 2 * timeout_s + 1
        try:
            self.proc.stdin.write(json.dumps({"text": text, "timeout": timeout_s}) + "\n")
            self.proc.stdin.flush()
            ready, _, _ = select.select([self.proc.stdout], [], [], hard + (self.START_S if self.fresh else 0))
            self.fresh = False
            line = self.proc.stdout.readline() if ready else ""
        except OSError as e:
            line, ready = "", [str(e)]
        if not line:
            self.stop()
            return UNKNOWN, (f"killed after {hard:g} s: cvc5 ran past its time limit" if not ready
                             else "the cvc5 process died")
        status, reason = json.loads(line)
        return status, reason


_WORKER = _Worker()
atexit.register(_WORKER.stop)


def _serve():
    """The child's loop: one JSON request per line in, one [status, reason] line out."""
    for line in sys.stdin:
        req = json.loads(line)
        try:
            out = cvc5_decide(req["text"], req["timeout"])
        except Exception as e:  # noqa: BLE001 - reported, not raised
            out = (ERROR, f"cvc5 raised {type(e).__name__}: {e}")
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


def decide_text(text: str, timeout_s: float) -> tuple[str, str | None]:
    """cvc5's answer on an SMT-LIB 2 script, in the child process (see ``_Worker``)."""
    return _WORKER.decide(text, timeout_s)


# --- the recorder ------------------------------------------------------------------------------

@dataclass
class Record:
    file: str
    apply: int
    obligation: str
    z3: str  # sat | unsat | unknown
    path: str | None = None  # the exported .smt2 file
    cvc5: str | None = None  # sat | unsat | unknown | error; None when not asked
    reason: str | None = None  # why cvc5 did not decide
    seconds: float = 0.0  # cvc5's time
    by_model: bool = False  # cvc5's sat is on the query with Z3's model pinned (it could not decide it alone)
    tensormap: str | None = None  # a [tensormaps.NAME]'s obligation (apply is None then)

    @property
    def where(self) -> str:
        return f"{self.obligation} of " + (f"tensormap {self.tensormap}" if self.tensormap is not None
                                           else f"apply[{self.apply}]")

    @property
    def disagrees(self) -> bool:
        return self.z3 in (SAT, UNSAT) and self.cvc5 in (SAT, UNSAT) and self.z3 != self.cvc5

    @property
    def agrees(self) -> bool:
        return self.z3 in (SAT, UNSAT) and self.cvc5 == self.z3

    def line(self) -> str | None:
        """One report line for a record that needs one (None when the solvers agree)."""
        if self.disagrees:
            return (f"internal error: z3 and cvc5 disagree on {self.where}: z3 {self.z3} ({MEANING[self.z3]}), "
                    f"cvc5 {self.cvc5} ({MEANING[self.cvc5]})")
        if self.cvc5 is None or self.agrees:
            return None
        if self.z3 == UNKNOWN:
            return (f"{self.where}: z3 unknown, cvc5 {self.cvc5}" +
                    (f" ({MEANING[self.cvc5]} by cvc5 alone: not a verdict)" if self.cvc5 in MEANING and
                     self.cvc5 != UNKNOWN else f" ({self.reason})" if self.reason else ""))
        return f"{self.where} not rechecked: cvc5 {self.cvc5}" + (f" ({self.reason})" if self.reason else "")

    def to_json(self) -> dict:
        out = ({"apply": self.apply} if self.tensormap is None else {"tensormap": self.tensormap})
        out.update({"obligation": self.obligation, "z3": self.z3})
        if self.path is not None:
            out["smt2"] = self.path
        if self.cvc5 is not None:
            out["cvc5"] = self.cvc5
            out["seconds"] = round(self.seconds, 6)
            if self.by_model:
                out["by_model"] = True
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass
class Recheck:
    """What the recorder saw for one check file."""
    records: list = field(default_factory=list)
    rechecked: bool = False  # cvc5 was asked

    @property
    def disagreements(self) -> list:
        return [r for r in self.records if r.disagrees]

    def counts(self) -> dict:
        decided = [r for r in self.records if r.z3 in (SAT, UNSAT)]
        """queries: all Z3 answered; rechecked: those Z3 decided (sat/unsat), given to cvc5; agreed,
        cvc5_unknown (unknown/timeout), cvc5_error (could not read the text), disagreements: how they
        went (agreed_by_model: of the agreed, sat answers cvc5 confirmed only with Z3's model pinned);
        z3_unknown_cvc5_decided: queries Z3 left unknown that cvc5 decided (information only)."""
        return {"queries": len(self.records), "rechecked": len(decided) if self.rechecked else 0,
                "agreed": sum(r.agrees for r in decided),
                "agreed_by_model": sum(r.agrees and r.by_model for r in decided),
                "cvc5_unknown": sum(r.cvc5 == UNKNOWN for r in decided),
                "cvc5_error": sum(r.cvc5 == ERROR for r in self.records),
                "disagreements": len(self.disagreements),
                "z3_unknown_cvc5_decided": sum(r.z3 == UNKNOWN and r.cvc5 in (SAT, UNSAT) for r in self.records),
                "seconds": sum(r.seconds for r in self.records)}

    def to_text(self) -> str:
        c = self.counts()
        lines = []
        if self.rechecked:
            by_model = f" ({c['agreed_by_model']} sat by checking Z3's model)" if c["agreed_by_model"] else ""
            lines.append(f"  recheck (cvc5 {cvc5_version()}): {c['agreed']} of {c['rechecked']} solver-decided "
                         f"queries agree{by_model}, {c['cvc5_unknown'] + c['cvc5_error']} not rechecked, "
                         f"{c['disagreements']} disagreements ({c['seconds'] * 1000:.0f} ms)")
        paths = [r.path for r in self.records if r.path]
        if paths:
            lines.append(f"  smt2: {len(paths)} queries written to {Path(paths[0]).parent}")
        lines += [f"    - {ln}" for ln in (r.line() for r in self.records) if ln]
        return "\n".join(lines)

    def to_json(self) -> dict:
        out = {"queries": [r.to_json() for r in self.records]}
        if self.rechecked:
            out = {"solver": f"cvc5 {cvc5_version()}", **self.counts(), **out}
            out["seconds"] = round(out["seconds"], 6)
        return out


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "check"


class Recorder:
    """Export (``export=DIR``) and/or recheck with cvc5 (``recheck=True``) every query Z3 decides."""

    def __init__(self, export: str | Path | None = None, recheck: bool = False, timeout: float = 10.0):
        if recheck and cvc5_version() is None:
            raise RuntimeError("--recheck needs the cvc5 package (pip install cvc5)")
        self.export = Path(export) if export is not None else None
        self.recheck = recheck
        self.timeout = timeout
        self.files: dict[str, Recheck] = {}

    def for_file(self, path: str) -> Recheck:
        return self.files.setdefault(path, Recheck(rechecked=self.recheck))

    def observe(self, name: str, apply_index: int | None, check, solver, result, model=None,
                tensormap: str | None = None) -> Record:
        """Called by the runner right after ``result = solver.check()`` (a z3 CheckSatResult).  ``model``:
        Z3's model of a sat query; when cvc5 cannot decide the query alone (unknown), it decides the
        query with that model's values pinned (``pin_model``): sat confirms Z3's answer (``by_model``),
        unsat is a disagreement (the model does not satisfy the text).  ``tensormap``: the query is that
        ``[tensormaps.NAME]``'s (``proofs/descriptor.py``), written to ``tensormap-NAME-<obligation>.smt2``."""
        status = SAT if result == z3.sat else UNSAT if result == z3.unsat else UNKNOWN
        rec = Record(check.path, apply_index, name, status, tensormap=tensormap)
        item = f"apply[{apply_index}]" if tensormap is None else f"tensormap {tensormap}"
        header = [f"tilecheck obligation query: file {check.path}, {item}, obligation {name}",
                  f"z3 {z3.get_version_string()}: {status} ({MEANING[status]})",
                  "sat: the obligation is violated (refuted); unsat: it holds (proved)"]
        text = to_smtlib(solver, header, status)
        if self.export is not None:
            d = self.export / _safe(Path(check.path).stem)
            d.mkdir(parents=True, exist_ok=True)
            stem = f"apply{apply_index}" if tensormap is None else f"tensormap-{_safe(tensormap)}"
            p = d / f"{stem}-{_safe(name)}.smt2"
            p.write_text(text)
            rec.path = str(p)
        if self.recheck:
            t = time.perf_counter()
            rec.cvc5, rec.reason = decide_text(text, self.timeout)
            if rec.cvc5 == UNKNOWN and status == SAT and model is not None:
                pinned = pin_model(text, model)
                if pinned is not None:
                    answer, why = decide_text(pinned, self.timeout)
                    if answer in (SAT, UNSAT):
                        rec.cvc5, rec.by_model = answer, True
                        rec.reason = "with Z3's model pinned" if answer == SAT else \
                            "Z3's model does not satisfy the query (with its values pinned)"
            rec.seconds = time.perf_counter() - t
        self.for_file(check.path).records.append(rec)
        return rec
