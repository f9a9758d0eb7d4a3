"""``tilecheck completion SHELL``: shell completion of every command and option (shtab)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import shtab  # noqa: F401 (the test extra has it: a missing shtab fails, never skips)

ROOT = Path(__file__).resolve().parent.parent


def script(shell):
    r = subprocess.run([sys.executable, "-m", "tilecheck", "completion", shell], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize("line, expected", [("tilecheck su", "suggest"), ("tilecheck suggest --max", "--max-candidates"),
                                            ("tilecheck emit --ker", "--kernel"), ("tilecheck prove --rech", "--recheck")])
def test_bash_completes_commands_and_each_commands_options(tmp_path, line, expected):
    f = tmp_path / "c.bash"
    f.write_text(script("bash"))
    words = line.split()
    probe = (f"source {f}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE='{line}'; "
             f"COMP_POINT=${{#COMP_LINE}}; _shtab_tilecheck; echo \"${{COMPREPLY[@]}}\"")
    r = subprocess.run(["bash", "-c", probe], capture_output=True, text=True)
    assert r.stdout.split() == [expected], r.stdout + r.stderr


def test_zsh_and_an_unknown_shell():
    assert "#compdef tilecheck" in script("zsh")
    r = subprocess.run([sys.executable, "-m", "tilecheck", "completion", "fish"], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "invalid choice: 'fish'" in r.stderr
