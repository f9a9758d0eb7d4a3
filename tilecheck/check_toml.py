"""A check as the text of a TOML check file: what ``checks()`` draws, a front end's ``--emit-toml`` and
the fuzzer's findings are written with ``to_toml`` (``tilecheck.strategies.to_toml`` is the same
function).  Plain Python: writing a check file needs no Hypothesis."""
from __future__ import annotations

import json


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):  # an inline table: expect = { banks = "conflict-free" }
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} as a TOML value")


def to_toml(data: dict, comment: str = "") -> str:
    """A check dict (what ``checks()`` draws) as the text of a TOML check file."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    order = ["arch", "threads", "assume"]
    tables = ["symbols", "tensors", "tensormaps", "descriptors"]  # [TABLE.NAME] tables (a descriptor file's too)
    for k in order + [k for k in data if k not in order + tables + ["apply"]]:
        if k in data:
            lines.append(f"{k} = {_toml_value(data[k])}")
    for table in tables:
        for name, spec in data.get(table, {}).items():
            lines += ["", f"[{table}.{name}]"] + [f"{k} = {_toml_value(v)}" for k, v in spec.items()]
    for ap in data.get("apply", []):
        lines += ["", "[[apply]]"] + [f"{k} = {_toml_value(v)}" for k, v in ap.items()]
    return "\n".join(lines) + "\n"
