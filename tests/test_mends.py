"""Issue 11, item 7: the mends, each with a test."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUB_CLIS = ["tilecheck/emit/cli.py", "tilecheck/gpu/cli.py", "tilecheck/fuzz/cli.py", "tilecheck/draw_cli.py",
            "tilecheck/frontends/tirx.py"]


def _imported_modules(path: Path, package: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                out.add(".".join(base + ([node.module] if node.module else [])))
            else:
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


@pytest.mark.parametrize("path", SUB_CLIS)
def test_sub_clis_do_not_import_the_root_cli(path):
    package = ".".join(Path(path).with_suffix("").parts[:-1])
    assert "tilecheck.cli" not in _imported_modules(ROOT / path, package)


def test_verdicts_are_one_enum_reading_as_their_text():
    import json
    from tilecheck import prove
    from tilecheck.check import load_check
    from tilecheck.verdict import Verdict
    report = prove(load_check(ROOT / "examples/region_misaligned_refuted.toml"))
    assert report.verdict is Verdict.REFUTED
    statuses = {o.status for a in report.applies for o in a.obligations}
    assert statuses and all(isinstance(s, Verdict) for s in statuses)
    assert json.loads(json.dumps(report.to_json()))["verdict"] == "refuted"
    assert {"refuted": 1}[Verdict.REFUTED] == 1 and f"{Verdict.PROVED:<8}|" == "proved  |"


def test_concrete_semantics_do_not_mutate_numpy_inputs():
    import numpy as np
    from tilecheck.layout import parse_layout
    from tilecheck.view import parse_operand
    view = parse_operand("A: (i=4 j) k -> j (i k)", {"A": (16, 8)})
    coords = [np.arange(4), np.arange(4) * 7]
    before = [c.copy() for c in coords]
    index = view.index(coords)
    assert all((a == b).all() for a, b in zip(coords, before))
    lay = parse_layout("((4,4),8):((8,1),32)")
    idx = [np.array(i) for i in index]
    kept = [i.copy() for i in idx]
    lay(idx)
    assert all((a == b).all() for a, b in zip(idx, kept))


def test_symbolic_layout_is_said_explicitly():
    from tilecheck.layout import parse_layout
    assert parse_layout("(4,n):(1,4)").symbols() == ["n"]
    from tilecheck.expr import parse_expr
    assert parse_layout("(4,8):(m,1)").symbols(parse_expr("k+1")) == ["k", "m"]
    assert parse_layout("(4,8):(8,1)").symbols() == []


def test_no_keyerror_means_symbolic():
    hits = [p for p in (ROOT / "tilecheck").rglob("*.py") if "except KeyError" in p.read_text()]
    assert [p.relative_to(ROOT).as_posix() for p in hits] == ["tilecheck/emit/registers.py"]  # a user's mapping
