"""One finder for the NVIDIA tools (tilecheck.tools.find_tool): PATH first, then the pinned CUDA 13
wheel's nvidia/cu13/bin, never another wheel's folder; every caller goes through it."""
import stat
from pathlib import Path

import pytest

from tilecheck import tools
from tilecheck.gpu import runner

ROOT = Path(__file__).parent.parent


def _exe(path: Path, body="#!/bin/sh\nexit 0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def wheels(tmp_path, monkeypatch):
    """A site-packages nvidia/ holding a CUDA 12 layout, the pinned cu13 and a newer cu14; no PATH tool."""
    root = tmp_path / "site-packages" / "nvidia"
    for sub in ("cuda_nvcc/bin", "cu12/bin", "cu13/bin", "cu14/bin"):
        _exe(root / sub / "ptxas")
    monkeypatch.setattr(tools, "_nvidia_roots", lambda: [root])
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        monkeypatch.delenv(v, raising=False)
    return root


def test_the_pinned_cu13_wheel_is_picked_not_the_oldest_or_newest(wheels):
    assert tools.find_tool("ptxas") == str(wheels / "cu13" / "bin" / "ptxas")
    assert tools.candidates("ptxas")[0] == wheels / "cu13" / "bin" / "ptxas"
    assert not any(p.parent.parent.name in ("cu12", "cu14", "cuda_nvcc") for p in tools.candidates("ptxas"))


def test_path_comes_before_the_wheel(wheels, tmp_path, monkeypatch):
    mine = _exe(tmp_path / "bin" / "ptxas")
    monkeypatch.setenv("PATH", str(mine.parent))
    assert tools.find_tool("ptxas") == str(mine)


def test_without_the_pinned_wheel_no_other_wheel_is_used(wheels):
    (wheels / "cu13" / "bin" / "ptxas").unlink()
    try:
        found = tools.find_tool("ptxas")
    except tools.ToolNotFound as e:
        assert "nvidia-cuda-nvcc==13.0.*" in str(e)
    else:  # a CUDA toolkit at /usr/local/cuda on this machine: fine, but no other wheel's
        assert str(wheels) not in found


def test_the_gpu_runner_assembles_with_find_tools_ptxas(tmp_path, monkeypatch):
    log = tmp_path / "calls"
    fake = _exe(tmp_path / "fake" / "ptxas",
                f'#!/bin/sh\necho "$0 $@" >> {log}\nfor a; do case "$prev" in -o) : > "$a";; esac; prev="$a"; done\n'
                'echo "fake ptxas"\n')
    monkeypatch.setattr(tools, "find_tool", lambda name: str(fake))
    monkeypatch.setenv("TILECHECK_CACHE", "off")
    cubins, cached = runner.ptxas_many([".version 9.0\n.target sm_90\n"], "sm_90")
    assert cubins == [b""] and not cached
    assert log.read_text().startswith(str(fake))


def test_the_gpu_runner_reports_a_missing_ptxas_as_gpu_unavailable(monkeypatch):
    def missing(name):
        raise tools.ToolNotFound("ptxas not found")
    monkeypatch.setattr(tools, "find_tool", missing)
    with pytest.raises(runner.GpuUnavailable, match="ptxas not found"):
        runner.ptxas_many(["x"], "sm_90")


def test_no_other_module_looks_for_the_tools_itself():
    """The finder is single-sourced: nothing else asks PATH or the wheels for ptxas/nvdisasm/cuobjdump."""
    offenders = []
    for d in ("tilecheck", "bench", "tests"):
        for p in (ROOT / d).rglob("*.py"):
            if p.name in ("tools.py", "test_tools_finder.py"):
                continue
            text = p.read_text()
            for needle in ('which("ptxas")', 'which("nvdisasm")', 'which("cuobjdump")', "bin/ptxas",
                           'glob("cu'):
                if needle in text:
                    offenders.append(f"{p.relative_to(ROOT)}: {needle}")
    assert not offenders, offenders
