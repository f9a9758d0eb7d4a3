"""``tilecheck prove --format sarif|github``: the reports as a CI reads them.

Each finding is at the file's line of its application's ``[[apply]]`` header (the model keeps no line
per application, so the line is read back from the file's text with the loader's own key-to-line map,
``check._lines``; standard input has none) or, for bad input, at the line the InputError names.

* ``github``: GitHub Actions workflow commands, one per finding
  (``::error file=F,line=L,title=tilecheck alignment::message``): a refuted contract obligation and bad
  input are errors, a refuted performance obligation and an unknown are warnings; then one line per file
  with its verdict. Proved files print nothing else.
* ``sarif``: one SARIF 2.1.0 log (``tool.driver.rules``: every obligation of ``obligations.RECORDS``,
  ``input`` for bad input and ``unsupported`` for ``tilecheck cute``'s untranslated copies), one
  ``result`` per finding, ``level`` error or warning as above (``note`` for unsupported), the
  counterexample in the result's ``properties``.

``tilecheck cute --format github|sarif`` builds its findings itself (``frontends/cute.py``: each at the
line of its ``cute.copy``) and prints them with ``annotation`` and ``sarif_log``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from .check import _lines
from .obligations import CONTRACT, RECORDS
from .proofs.registry import blocks
from .verdict import Verdict

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass
class Finding:
    file: str
    level: str  # "error" | "warning"
    rule: str  # an obligation's name, or "input"
    message: str
    line: int | None = None
    apply: int | None = None
    counterexample: dict | None = field(default=None)


def _apply_lines(path: str) -> dict[int, int]:
    """Application index -> the line of its ``[[apply]]`` header in the file (empty when unreadable)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError):
        return {}
    return {k[1]: v for k, v in _lines(text).items() if len(k) == 2 and k[0] == "apply" and isinstance(k[1], int)}


def findings(path: str, outcome) -> list[Finding]:
    """The findings of one file: ``outcome`` is its Report, or its error JSON (``report.error_json``)."""
    if isinstance(outcome, dict):  # bad input
        err = outcome.get("error", {})
        where = err.get("where") or ""
        msg = err.get("message", "")
        where = where.removeprefix(str(path)).lstrip(": ")
        if where:
            msg = f"{where}: {msg}"
        return [Finding(path, "error", "input", msg, err.get("line"))]
    lines = _apply_lines(path) if path not in ("-", "<stdin>") else {}
    out = []
    for a in outcome.applies:
        i = a.apply.index
        for o in a.obligations:
            if o.status == Verdict.REFUTED:
                level = "error" if blocks(o.name, a.apply.require) else "warning"
            elif o.status == Verdict.UNKNOWN:
                level = "warning"
            else:
                continue
            said = o.message or ""
            if not said.startswith(o.name):  # a refutation's message names itself ("alignment refuted: ...")
                said = f"{o.name} {o.status}" + (f": {said}" if said else "")
            text = f"apply[{i}] {a.apply.opcode.text}: {said}"
            out.append(Finding(path, level, o.name, text, lines.get(i), i, o.counterexample))
    return out


# ------------------------------------------------------------------------------- github
def _escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def annotation(f: Finding) -> str:
    """One GitHub Actions workflow command."""
    props = [f"file={_escape(f.file, True)}"]
    if f.line is not None:
        props.append(f"line={f.line}")
    props.append(f"title={_escape('tilecheck ' + f.rule, True)}")
    return f"::{f.level} {','.join(props)}::{_escape(f.message)}"


def github(results: list[tuple[str, object, str]]) -> str:
    """``results``: (file, Report or error JSON, verdict) per file."""
    lines = []
    for path, outcome, verdict in results:
        lines += [annotation(f) for f in findings(path, outcome)]
        lines.append(f"{path}: {verdict}")
    return "\n".join(lines)


# -------------------------------------------------------------------------------- sarif
def sarif(results: list[tuple[str, object, str]], version: str) -> dict:
    return sarif_log([f for path, outcome, _ in results for f in findings(path, outcome)], version)


def sarif_log(found: list[Finding], version: str) -> dict:
    """One SARIF 2.1.0 log of these findings."""
    rules = [{"id": name, "shortDescription": {"text": f"{name} ({o.severity})"},
              "fullDescription": {"text": o.doc.replace("`", "")},
              "defaultConfiguration": {"level": "error" if o.severity == CONTRACT else "warning"}}
             for name, o in RECORDS.items()]
    rules.append({"id": "input", "shortDescription": {"text": "bad input: the check file does not load "
                                                               "(tilecheck cute: a kernel the DSL did not trace)"},
                  "defaultConfiguration": {"level": "error"}})
    rules.append({"id": "unsupported", "shortDescription": {"text": "tilecheck cute: a copy not translated "
                                                                     "(the reason says why)"},
                  "defaultConfiguration": {"level": "note"}})
    index = {r["id"]: k for k, r in enumerate(rules)}
    out = []
    for f in found:
        loc = {"artifactLocation": {"uri": f.file}}
        if f.line is not None:
            loc["region"] = {"startLine": f.line}
        r = {"ruleId": f.rule, "ruleIndex": index.get(f.rule, index["input"]), "level": f.level,
             "message": {"text": f.message}, "locations": [{"physicalLocation": loc}]}
        if f.counterexample is not None:
            r["properties"] = {"apply": f.apply, "counterexample": f.counterexample}
        out.append(r)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "tilecheck", "version": version,
                                          "rules": rules}},
                      "results": out}]}


def dumps(results, version: str) -> str:
    return json.dumps(sarif(results, version), indent=1, default=str)


def dumps_log(found: list[Finding], version: str) -> str:
    return json.dumps(sarif_log(found, version), indent=1, default=str)
