"""The emitted kernel's ``.version``: every proved plan assembles at the version its kernel declares.

The spelling sweeps (test_target_sweep, test_ldmatrix, test_cp_async, test_red) assemble one
instruction per line at a high ``.version``; the ``.version`` the emitter writes (``emit.kernel.version``:
the maximum of each application's ``family.ptx_version``) is under test here.  For every family,
each legal spelling x sm_80/sm_90/sm_100a gets a small check that proves (a warp, one instruction per
thread: ld/st and red ``(32, v)`` tiles, cp.async one atom per thread, ldmatrix/stmatrix the fragment
of one ``.x1``/``.x2``/``.x4`` tile); its *kernel* is emitted (``tilecheck.emit.kernel``) and assembled at
the version it declares, and ptxas must accept every one.

The set: every spelling tilecheck's ``legality`` takes for the target whose check can prove, which
is all of them except what the ``space`` and ``width`` obligations refute whatever the layouts
(ld/st of ``.const``/``.param``/``.shared::cluster`` or generic addressing, ``.b128``: no 128-bit
dtype); ld/st from test_target_sweep's spellings (every qualifier, alone and in pairs), ldmatrix,
cp.async and red from their own sweeps.  No sample: all of them, batched ~100 kernels to a module (one
module per target and declared version, entries renamed), ptxas in parallel.  The exact minimum of each
spelling's version (accepted at it, refused one release lower) is the families' own sweeps'.
2,293 kernels, 15-25 s on a 2-core machine (about half proving and emitting, half ptxas).
"""
import re
import sys
import time
from pathlib import Path

import pytest

import tilecheck
import test_cp_async
import test_ldmatrix
import test_red
import test_target_sweep
from tilecheck.emit import kernel
from tilecheck.families import FAMILIES, parse
from tilecheck.families.ldst import legality
from tilecheck.opcodes import OpcodeError
from tilecheck.tools import ToolNotFound, find_tool, ptxas
from test_target_sweep import parallel, verdicts

ARCHS = ("sm_80", "sm_90", "sm_100a")
BATCH = 100  # kernels per module

LDST_DTYPE = {"b8": "uint8", "u8": "uint8", "s8": "int8", "b16": "uint16", "u16": "uint16", "s16": "int16",
              "b32": "uint32", "u32": "uint32", "s32": "int32", "f32": "float32", "b64": "uint64",
              "u64": "uint64", "s64": "int64", "f64": "float64"}
RED_DTYPE = {"f32": "float32", "u32": "uint32", "s32": "int32", "u64": "uint64", "f64": "float64",
             "f16": "float16", "bf16": "bfloat16", "f16x2": "uint32", "bf16x2": "uint32"}

TILE = """arch = "{arch}"
threads = 32
[tensors.M]
dtype = "{dtype}"
scope = "{scope}"
shape = [32, {v}]
layout = "(32,{v}):({v},1)"
align = {align}
[tensors.R]
dtype = "{rtype}"
scope = "{rscope}"
shape = [32, {v}]
layout = "(32,{v}):({rstride},1)"
{ralign}
[[apply]]
opcode = "{opcode}"
scope = "warp"
dst = "{dst}"
src = "{src}"
{extra}
"""

# ldmatrix/stmatrix: .x{n} moves n 8x8 matrices; lane 4g+q holds row g, columns 2q, 2q+1 of each (.trans:
# row 2q+j, column g), word 2i+j of matrix i
MATRIX = """arch = "{arch}"
threads = 32
[tensors.S]
dtype = "uint16"
scope = "shared"
shape = [{rows}, 8]
align = 16
[tensors.R]
dtype = "uint16"
scope = "register"
shape = [{rows}, 8]
layout = "{layout}"
[[apply]]
opcode = "{opcode}"
scope = "warp"
{mem} = "S: {view}"
{reg} = "R: {view}"
"""


def ldst_check(text, arch):
    op = parse(text)
    dtype = LDST_DTYPE.get(op.type)
    if dtype is None or op.space not in ("global", "shared", "local"):
        return None  # refuted on width (.b128) or space whatever the layouts
    dst, src = ("R", "M") if op.kind == "ld" else ("M", "R")
    return TILE.format(arch=arch, dtype=dtype, scope=op.space, v=op.vector, align=op.vector * op.bits // 8,
                       rtype=dtype, rscope="register", rstride="1@laneid", ralign="", opcode=text, dst=dst, src=src,
                       extra="cache_policy = true" if op.cache_hint else "")


def red_check(text, arch):
    op = parse(text)
    return TILE.format(arch=arch, dtype=RED_DTYPE[op.type], scope="global", v=op.vector,
                       align=op.vector * op.bits // 8, rtype=RED_DTYPE[op.type], rscope="register",
                       rstride="1@laneid", ralign="", opcode=text, dst="M", src="R", extra="")


def cp_async_check(key, arch):
    text, size = key
    v = size // 4
    return TILE.format(arch=arch, dtype="uint32", scope="shared", v=v, align=size, rtype="uint32", rscope="global",
                       rstride=v, ralign=f"align = {size}", opcode=text, dst="M", src="R", extra=f"cp_size = {size}")


def matrix_check(text, arch):
    op = parse(text)
    n = op.num
    if op.trans:
        view, layout = f"(i={n} q=4 j=2) (g=8) -> (g q) (i j)", f"((2,4,{n}),8):((1,1@laneid,2),4@laneid)"
    else:
        view, layout = f"(i={n} g=8) (q=4 j=2) -> (g q) (i j)", f"((8,{n}),(2,4)):((4@laneid,2),(1,1@laneid))"
    mem, reg = ("src", "dst") if op.kind == "ldmatrix" else ("dst", "src")
    return MATRIX.format(arch=arch, rows=8 * n, layout=layout, opcode=text, mem=mem, reg=reg, view=view)


def cases():
    """(family, key, arch, check text) for every legal spelling x target whose check can prove."""
    out = []
    for text in test_target_sweep.spellings():
        try:
            op = parse(text)
        except OpcodeError:
            continue
        for a in ARCHS:
            if legality(op, a) is None:
                check = ldst_check(text, a)
                if check is not None:
                    out.append(("ld/st", text, a, check))
    for a in ARCHS:
        out += [("red", s, a, red_check(s, a)) for s in test_red.spellings() if test_red.ours(s, a)]
        out += [("cp.async", (s, z), a, cp_async_check((s, z), a))
                for s, z in test_cp_async.spellings() if test_cp_async.ours(s, z, a)]
        out += [("ldmatrix", s, a, matrix_check(s, a)) for s in test_ldmatrix.spellings() if test_ldmatrix.ours(s, a)]
    return out


def emitted(case, index):
    """(declared .version, the kernel's text) of a case's proved plan, its entry named k<index>."""
    family, key, arch, text = case
    report = tilecheck.prove(tilecheck.loads(text, f"<{family} {key} {arch}>"))
    assert report.verdict == "proved", (family, key, arch, report.verdict,
                                        [(o.name, o.message) for a in report.applies for o in a.obligations
                                         if o.status != "proved"])
    ptx = kernel(report.plan, f"k{index}")
    line = next(ln for ln in ptx.splitlines() if ln.startswith(".version "))
    major, minor = line.split()[1].split(".")
    return (int(major), int(minor)), ptx


def batch(kernels, version):
    """One module of many kernels at ``version``: the first one's header, every kernel's entry.
    Returns a ``build`` for ``verdicts``: group -> (ptx, line -> item)."""
    def build(group):
        lines = [f".version {version[0]}.{version[1]}", f".target {group[0][1]}", ".address_size 64", ""]
        owner = {}
        for item in group:
            text = kernels[item]
            body = text[text.index(".visible .entry"):].splitlines()
            assert f".version {version[0]}.{version[1]}\n" in text  # the version this kernel declares
            owner.update({len(lines) + 1 + i: item for i in range(len(body))})
            lines += body + [""]
        return "\n".join(lines) + "\n", owner
    return build


@pytest.fixture(scope="module")
def swept():
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.fail(f"the emitted-kernel sweep cannot run: {e}", pytrace=False)
    start = time.perf_counter()
    all_cases = cases()
    kernels, groups = {}, {}
    for i, case in enumerate(all_cases):
        version, ptx = emitted(case, i)
        item = (i, case[2])  # (index, arch)
        kernels[item] = ptx
        groups.setdefault((case[2], version), []).append(item)
    emit_s = time.perf_counter() - start
    jobs = [(arch, v, items[k:k + BATCH]) for (arch, v), items in groups.items() for k in range(0, len(items), BATCH)]
    parts = parallel([lambda j=j: verdicts(j[2], j[0], j[1], build=batch(kernels, j[1])) for j in jobs])
    results = {item: err for part in parts for item, err in part.items()}
    return {"cases": all_cases, "results": results, "groups": groups, "emit_s": emit_s,
            "seconds": time.perf_counter() - start}


def test_every_proved_plan_assembles_at_its_declared_version(swept, capsys):
    cases_, results = swept["cases"], swept["results"]
    assert len(results) == len(cases_)
    rejected = [(cases_[i][0], cases_[i][1], arch, results[(i, arch)]) for i, arch in results
                if results[(i, arch)] is not None]
    per = {}
    for family, _, arch, _ in cases_:
        per.setdefault(family, {}).setdefault(arch, 0)
        per[family][arch] += 1
    versions = sorted({v for _, v in swept["groups"]})
    with capsys.disabled():
        print(f"\n[emitted-kernel sweep] {len(cases_)} proved kernels (spelling x arch: "
              + "; ".join(f"{f} " + "/".join(str(per[f].get(a, 0)) for a in ARCHS) for f in per)
              + f" on {'/'.join(ARCHS)}) at .version " + ", ".join(f"{a}.{b}" for a, b in versions)
              + f": {len(rejected)} rejected; prove+emit {swept['emit_s']:.1f}s, total {swept['seconds']:.1f}s",
              file=sys.stderr)
    assert not rejected, f"{len(rejected)} proved kernels ptxas rejects at their .version:\n" + "\n".join(
        f"  {f} {k} on {a}: {e}" for f, k, a, e in rejected[:30])
    assert set(per) == {"ld/st", "red", "cp.async", "ldmatrix"}
    assert all(per[f].get(a) for f in per for a in ARCHS)


def test_the_issue_32_kernel_declares_7_8():
    """ldmatrix with .shared::cta on sm_80: the emitter wrote .version 7.0, which ptxas refuses
    ("Feature '::cta' requires PTX ISA .version 7.8 or later")."""
    case = ("ldmatrix", "ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16", "sm_80",
            matrix_check("ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16", "sm_80"))
    version, ptx = emitted(case, 0)
    assert version == (7, 8) and ".version 7.8\n.target sm_80\n" in ptx
    try:
        assert ptxas(ptx, "sm_80").ok
    except ToolNotFound:
        pytest.skip("ptxas not found")


def test_the_docs_table_states_each_familys_versions():
    """docs/check-file.md's table of lowest versions names, per family, exactly its table's versions."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "check-file.md").read_text()
    rows = re.findall(r"^\| (ld/st|ldmatrix / stmatrix|cp\.async|red) \|(.*)$", doc, re.M)
    named = {"ld/st": "ld", "ldmatrix / stmatrix": "ldmatrix", "cp.async": "cp.async", "red": "red"}
    stated = {}
    for family, rest in rows:
        stated.setdefault(named[family], set()).update(re.findall(r"\b(\d\.\d)\b", rest))
    for ins, versions in stated.items():
        assert versions == {f"{v[0]}.{v[1]}" for *_, v in FAMILIES[ins].versions}, ins
    assert set(stated) == {"ld", "ldmatrix", "cp.async", "red"}
