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
