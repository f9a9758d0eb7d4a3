"""Every emitted kernel assembled by ptxas for its target and its SASS counted (nvdisasm).

These need ptxas and nvdisasm (PATH, or the ``nvidia-cuda-nvcc`` / ``nvidia-cuda-nvdisasm``
wheels of the ``test`` extra): a missing tool fails them, it does not skip them.

The counting rule: a kernel's PTX holds the applications' instructions plus scalar fill,
copy-back and register write-back code; each of its ld/st instructions must become exactly
one SASS memory instruction of the matching class (LDG, STG, LDS, STS, LDL, STL) — the
copy loops are ``.pragma "nounroll"`` so they count once — and the applications' sections
hold exactly one instruction per repeat (``test_emit.py``).  Together: the applications
cost one SASS memory instruction per repeat.  Fragments wrapped in a minimal kernel
(``tilecheck.emit.probe``) are counted directly: the application's class holds exactly the
repeat count.  Spills (only the documentation example has any) add LDL/STL, so those two
classes are not compared for a kernel that spills.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tilecheck
from tilecheck.emit import kernel
from tilecheck.emit.probe import probe
from tilecheck.emit.sass import SASS_CLASS, assemble, ptx_memory
from tilecheck.tools import find_tool

from conftest import big_block
from test_emit import ARCHS, CASES, EXAMPLES, plan_of

ROOT = Path(__file__).parent.parent


def test_the_tools_are_installed():
    assert find_tool("ptxas") and find_tool("nvdisasm")


def compare(ptx, asm):
    want, got = ptx_memory(ptx), asm.memory()
    if asm.spills:
        for c in ("LDL", "STL"):
            want.pop(c, None), got.pop(c, None)
    assert got == want, f"SASS memory instructions {dict(got)} != PTX ld/st {dict(want)} ({asm.arch})"


@pytest.mark.parametrize("name", list(CASES))
def test_kernel_assembles_and_every_ld_st_is_one_sass_memory_instruction(name):
    check, _ = CASES[name]
    ptx = kernel(plan_of(check))
    compare(ptx, assemble(ptx, check.arch))


SINGLE = [n for n, (c, _) in CASES.items() if len(c.applies) == 1]


@pytest.mark.parametrize("name", SINGLE)
def test_fragment_in_a_minimal_kernel_is_one_sass_instruction_per_repeat(name):
    check, _ = CASES[name]
    a = check.applies[0]
    repeats = tilecheck.prove(check).applies[0].instructions
    asm = assemble(probe(plan_of(check)), check.arch)
    space = check.tensors[a.memory.tensor].scope
    mine, mirror = SASS_CLASS[(a.opcode.kind, space)], SASS_CLASS[("st" if a.is_load else "ld", "global")]
    got = asm.memory()
    assert got[mine] == repeats and got[mirror] == repeats
    if not asm.spills:
        assert sum(got.values()) == 2 * repeats


def test_documentation_example_is_105_LDG_E_128_on_sm_90_and_spills_whatever_we_do(tmp_path):
    out = tmp_path / "seed.ptx"
    r = subprocess.run([sys.executable, "-m", "tilecheck", "emit", str(EXAMPLES / "seed.toml"), "--kernel",
                        "-o", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    ptx = out.read_text()
    assert sum(line.startswith("\tld.global.v4.b32 ") for line in ptx.splitlines()) == 105
    asm = assemble(ptx, "sm_90")
    assert asm.count("LDG.E.128") == 105
    compare(ptx, asm)
    # 105 x 4 = 420 values live at once (the write-back follows every load): more than the
    # 255-register limit, so ptxas spills to local memory — a property of the tile, not the emitter.
    assert asm.spills > 0


@pytest.mark.parametrize("arch", ARCHS)
def test_the_proved_examples_assemble_for_every_arch(arch):
    for path in sorted(EXAMPLES.glob("*.toml")):
        report = tilecheck.prove(tilecheck.load(path).with_arch(arch))
        if report.verdict != "proved":
            continue
        if not all(a.family.emits for a in report.check.applies):  # a family without an emitter (test_emit.py)
            continue
        ptx = kernel(report.plan)
        assert f".target {arch}" in ptx
        if any(a.family.name == "cp.async" for a in report.check.applies):
            # compare() counts PTX ld/st against SASS loads and stores; cp.async's LDGSTS pairs are not
            # modelled there yet: the kernel must still assemble
            assemble(ptx, arch)
            continue
        compare(ptx, assemble(ptx, arch))


def test_the_special_cases_assemble_for_every_arch():
    """The cases outside the matrix (which rotates its arch already) retargeted to each arch, where
    they are still proved (.v8 and .L2::evict_* need sm_100)."""
    names = [n for n in SINGLE if not n.startswith(("ld-", "st-"))]
    done = 0
    for arch in ARCHS:
        for name in names:
            report = tilecheck.prove(CASES[name][0].with_arch(arch))
            if report.verdict == "proved":
                ptx = kernel(report.plan)
                compare(ptx, assemble(ptx, arch))
                done += 1
    assert done >= 3 * len(names) - 4


@pytest.mark.parametrize("threads", [256, 1024])
def test_big_blocks_keep_within_the_register_file(threads):
    """1024 threads may use 64 registers each: the kernel declares .maxntid and ptxas keeps to it (spilling),
    so the launch is not refused for "too many resources"; 256 threads x 255 fit without it."""
    n = 24  # 24 x 4 values live in each thread: ~100 registers unconstrained
    check = big_block(threads, n)
    report = tilecheck.prove(check)
    assert report.verdict == "proved", report.to_text()
    ptx = kernel(report.plan)
    asm = assemble(ptx, "sm_90")
    regs = int(re.search(r"Used (\d+) registers", asm.info).group(1))
    assert asm.count("LDG.E.128") == n
    if threads > 256:
        assert f".maxntid {threads}, 1, 1" in ptx and regs * threads <= 65536
    else:
        assert ".maxntid" not in ptx and regs > 65536 // 1024  # unconstrained: more than a 1024-block allows
