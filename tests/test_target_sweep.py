"""Sweep thousands of ld/st spellings through ptxas 13.0 and hold ld/st's spelling (tilecheck/families/ldst.py) to it.

For each target, ``legality(op, arch) is None`` exactly when ptxas accepts a module holding
that one instruction, except ``.v8`` of 8/16-bit types: ptxas accepts (and miscompiles) those
and tilecheck refutes them.  ``ptx_legality`` (legality without that refusal) must match
ptxas everywhere.

Speed: the instructions go to ptxas ~400 to a module, in parallel.  ptxas reports errors by
line, so a module's errors map back to spellings; the rest is re-assembled without them until
a module assembles cleanly (a fatal syntax error stops ptxas reading the lines after it; a
module that fails with no line-numbered error is bisected).  ``test_batching_matches_single``
re-checks a sample one instruction per module.
"""
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tilecheck.families.ldst import FEATURES, legality, parse, ptx_legality, ptx_version
from tilecheck.opcodes import ARCH_PTX, RELEASES, OpcodeError, parse_arch, previous
from tilecheck.tools import ToolNotFound, find_tool, ptxas

ARCHS = ("sm_80", "sm_90", "sm_100a")
CHUNK = 400

# --- the spellings -------------------------------------------------------------------------
KINDS = ("ld", "st")
SPACES = ("", "global", "shared", "shared::cta", "shared::cluster", "local", "const", "param",
          "param::entry", "param::func")
VECTORS = ("", "v2", "v4", "v8")
TYPES = ("b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32",
         "s64", "f32", "f64", "f16", "bf16", "f16x2")
QUALIFIERS = ("weak", "volatile", "relaxed.cta", "relaxed.cluster", "acquire.gpu",
              "release.sys", "mmio.relaxed.sys", "relaxed", "gpu", "nc", "ca", "cg", "cs",
              "lu", "cv", "wb", "wt", "L1::evict_normal", "L1::evict_unchanged",
              "L1::evict_first", "L1::evict_last", "L1::no_allocate", "L2::evict_normal",
              "L2::evict_first", "L2::evict_last", "L2::cache_hint", "L2::64B", "L2::128B",
              "L2::256B")
SHAPES = ("b32", "v4.b32", "v8.b32", "v4.b64", "b128", "v8.b16", "v2.u8", "v4.f64")
PAIRS = (("nc", "L1::no_allocate"), ("nc", "ca"), ("nc", "lu"), ("nc", "L2::cache_hint"),
         ("nc", "L2::evict_last"), ("cg", "L1::evict_last"), ("cg", "L2::cache_hint"),
         ("cs", "L2::evict_first"), ("wb", "L2::evict_last"), ("cg", "L2::128B"),
         ("volatile", "L2::128B"), ("volatile", "L1::evict_first"), ("volatile", "cs"),
         ("volatile", "L2::evict_normal"), ("relaxed.gpu", "L2::cache_hint"),
         ("relaxed.gpu", "L1::evict_last"), ("acquire.cta", "cg"), ("weak", "nc"),
         ("mmio.relaxed.sys", "L2::cache_hint"), ("release.gpu", "L2::evict_first"),
         ("L1::evict_last", "L2::evict_last"), ("L2::cache_hint", "L2::256B"),
         ("L1::evict_first", "L2::cache_hint"), ("L1::evict_last", "L1::evict_first"),
         ("weak", "volatile"), ("relaxed.gpu", "sys"), ("ca", "cg"), ("v2", "v4"),
         ("global", "shared"), ("b32", "u32"))
# ".unified" belongs on the address ([a].unified); in the opcode it is a fatal syntax error,
# which stops ptxas reading the module (and costs a re-run), so only a few of those.
ODD = ("ld.global.unified.b32", "ld.unified.v4.b32", "st.global.unified.b32",
       "ld.global.b33", "ld.global.v3.b32", "ld.global.L1::bogus.b32", "st.shared.s128",
       "ld.global.L2::evict_unchanged.v8.b32", "st.global.L1::evict_all.b32")


def spellings() -> list[str]:
    """A deterministic, systematic set of distinct ld/st spellings."""
    def j(*toks):
        return ".".join(t for t in toks if t)
    out = [j(k, s, v, t) for k in KINDS for s in SPACES for v in VECTORS for t in TYPES]
    out += [j(k, s, q, shape) for k in KINDS for s in SPACES for q in QUALIFIERS
            for shape in SHAPES]
    out += [j(k, s, a, b, shape) for k in KINDS for s in ("", "global", "shared", "local")
            for a, b in PAIRS for shape in ("b32", "v8.b32", "v4.b64")]
    # ptxas ignores qualifier order: a sample written back to front
    out += [".".join([k] + j(s, q, shape).split(".")[::-1]) for k in KINDS
            for s in ("global", "shared") for q in QUALIFIERS[::3] for shape in SHAPES[:4]]
    out += list(ODD)
    return sorted(set(out))


# --- one module for many instructions ------------------------------------------------------
HEADER = """.version {major}.{minor}
.target {arch}
.address_size 64
.visible .func sweep(.param .b64 pa, .param .b64 pp)
{{
  .reg .b32 %r<9>;
  .reg .b64 %rd<9>;
  .reg .b64 %ra, %rp;
  ld.param.b64 %ra, [pa];
  ld.param.b64 %rp, [pp];
"""
FIRST_LINE = HEADER.count("\n") + 1
WIDTH = {"b128": 128, "b64": 64, "u64": 64, "s64": 64, "f64": 64}


def instruction(text: str) -> str:
    """``text`` with operands: registers of the type's width (8/16/32-bit data in .b32
    registers: ptxas takes wider registers, and 16-bit ones crash it on ld.v8.b16), the
    address in %ra and, with .L2::cache_hint, the 64-bit cache policy in %rp.  .b128 registers
    are declared on the instruction's own line (a block), so that below PTX 8.3 the error is
    that line's, not the header's."""
    toks = text.split(".")
    vec = next((int(t[1:]) for t in toks if re.fullmatch(r"v\d+", t)), 1)
    width = next((WIDTH.get(t, 32) for t in reversed(toks) if re.fullmatch(r"[bsuef]\w+", t)), 32)
    reg = {128: "%q", 64: "%rd"}.get(width, "%r")
    data = ",".join(f"{reg}{i}" for i in range(1, vec + 1))
    data = "{" + data + "}" if vec > 1 else data
    policy = ", %rp" if "L2::cache_hint" in toks else ""
    line = f"{text} {data}, [%ra]{policy};" if toks[0] == "ld" else f"{text} [%ra], {data}{policy};"
    return f"{{ .reg .b128 %q<9>; {line} }}" if width == 128 else line


def module(lines: list[str], arch: str, version=(9, 0)) -> str:
    return (HEADER.format(arch=arch, major=version[0], minor=version[1])
            + "".join(f"  {ln}\n" for ln in lines) + "  ret;\n}\n")


def verdicts(spells: list, arch: str, version=(9, 0), build=None) -> dict:
    """spelling -> None if ptxas accepts it, else its error message(s).  ``build(group) ->
    (ptx, owner)`` makes one module of a group of items, ``owner`` mapping a line number to the
    item it belongs to (default: one instruction line per spelling, at ``version``)."""
    build = build or (lambda group: (module([instruction(s) for s in group], arch, version),
                                     {FIRST_LINE + i: s for i, s in enumerate(group)}))
    out: dict = {}
    todo = [list(spells)]
    while todo:
        group = todo.pop()
        text, owner = build(group)
        res = ptxas(text, arch)
        if res.ok:
            out.update(dict.fromkeys(group))
            continue
        bad: dict = {}
        for ln, msgs in sorted(res.errors_by_line().items()):
            if ln in owner:
                bad[owner[ln]] = "; ".join(filter(None, [bad.get(owner[ln]), *msgs]))
        if not bad and len(group) == 1:
            bad = {group[0]: res.summary()}
        if not bad:  # no line to blame (a crash, a module-level error): bisect
            todo += [group[:len(group) // 2], group[len(group) // 2:]]
            continue
        out.update(bad)
        rest = [s for s in group if s not in bad]
        if rest:
            todo.append(rest)
    return out


def parallel(calls: list) -> list:
    """Run zero-argument calls (each one or more ptxas runs) in parallel; their results in order."""
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return list(pool.map(lambda call: call(), calls))


def parallel_verdicts(spells: list[str], archs=ARCHS) -> dict[str, dict[str, str | None]]:
    jobs = [(a, spells[i:i + CHUNK]) for a in archs for i in range(0, len(spells), CHUNK)]
    parts = parallel([lambda a=a, chunk=chunk: (a, verdicts(chunk, a)) for a, chunk in jobs])
    out: dict[str, dict[str, str | None]] = {a: {} for a in archs}
    for arch, part in parts:
        out[arch].update(part)
    return out


# --- the lowest .version of each legal spelling, held to ptxas both ways ----------------------
def minimum_problems(declared: dict, judge, chunk: int = 1) -> tuple[list[str], set]:
    """``declared``: {(key, arch): the .version a family's ``ptx_version`` gives}; ``judge(keys,
    arch, version) -> {key: None or ptxas's error}``.  ptxas must accept each key at its declared
    version and, one PTX ISA release lower, reject it with an error that names the declared version
    ("... requires PTX ISA .version 7.8 or later"): the declared version is exactly the lowest.  Where
    the declared version is the target's own minimum the target binds (one release lower the .target
    itself is refused: ``test_target_minimum_versions``) and only acceptance is checked.  Returns
    the problems and the (key, arch) pairs checked both ways."""
    groups: dict = {}
    for (key, arch), v in declared.items():
        groups.setdefault((arch, v), []).append(key)
        if v > parse_arch(arch).min_ptx:
            groups.setdefault((arch, previous(v)), []).append(key)
    jobs = [(arch, v, keys[i:i + chunk]) for (arch, v), keys in groups.items() for i in range(0, len(keys), chunk)]
    parts = parallel([lambda job=job: (job, judge(job[2], job[0], job[1])) for job in jobs])
    problems, both = [], set()
    for (arch, v, _), got in parts:
        for key, err in got.items():
            want = declared[(key, arch)]
            if v == want and err is not None:
                problems.append(f"{key} on {arch}: declared .version {want[0]}.{want[1]}, ptxas refuses it: {err}")
            elif v != want and f"requires PTX ISA .version {want[0]}.{want[1]} " not in (err or ""):
                problems.append(f"{key} on {arch}: declared .version {want[0]}.{want[1]}, but at {v[0]}.{v[1]} "
                                f"ptxas says {err or 'ok'} (the lowest is lower, or another feature binds)")
            elif v != want:
                both.add((key, arch))
    return problems, both


def unchecked_rows(table, both: set, declared: dict, parse_key) -> list[str]:
    """Rows of a family's version table that the exact minima above do not hold to ptxas: a row is
    held where, for some (key, arch) checked both ways, its feature is present and its version is the
    key's declared one; a row held nowhere must never raise a declared version (on every swept
    target where its feature appears, the target's minimum is at least the row's version)."""
    out = []
    for row in table:
        name, present, v = row[0], row[1], row[-1]
        where = [(k, a) for (k, a) in declared if present(parse_key(k))]
        if not where:
            out.append(f"{name}: no legal swept spelling has it")
        elif not any(present(parse_key(k)) and declared[(k, a)] == v for k, a in both) \
                and any(v > parse_arch(a).min_ptx for _, a in where):
            out.append(f"{name}: .version {v[0]}.{v[1]} is checked by no spelling")
    return out


# --- the sweep, once per session -----------------------------------------------------------
@pytest.fixture(scope="module")
def sweep():
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        return {"missing": str(e)}
    spells = spellings()
    start = time.perf_counter()
    results = parallel_verdicts(spells)
    return {"spellings": spells, "results": results, "seconds": time.perf_counter() - start}


def _need(sweep):
    if "missing" in sweep:
        pytest.fail(f"the ptxas sweep cannot run: {sweep['missing']}", pytrace=False)
    return sweep


def _show(rows, total):
    lines = [f"  {s}\n      ptxas: {p or 'accepted'}\n      tilecheck: {t or 'legal'}"
             for s, p, t in rows[:40]]
    more = f"\n  ... and {len(rows) - 40} more" if len(rows) > 40 else ""
    return f"{len(rows)} of {total} spellings disagree:\n" + "\n".join(lines) + more


def test_sweep_size_and_time(sweep, capsys):
    s = _need(sweep)
    n = len(s["spellings"])
    assert n >= 1000
    assert all(len(s["results"][a]) == n for a in ARCHS)
    with capsys.disabled():
        print(f"\n[target sweep] {n} spellings x {len(ARCHS)} targets ({', '.join(ARCHS)}) = "
              f"{n * len(ARCHS)} ptxas verdicts in {s['seconds']:.1f}s", file=sys.stderr)


@pytest.mark.parametrize("arch", ARCHS)
def test_legality_matches_ptxas(sweep, arch):
    s = _need(sweep)
    rows, narrow, narrow_taken = [], 0, 0
    for text in s["spellings"]:
        err = s["results"][arch][text]
        try:
            op = parse(text)
        except OpcodeError as e:  # tokens ld/st lack entirely: ptxas must reject them too
            if err is None:
                rows.append((text, err, f"parse error: {e}"))
            continue
        mine = legality(op, arch)
        if op.vector == 8 and op.bits < 32:  # refused by tilecheck, whatever ptxas says
            narrow += 1
            narrow_taken += err is None
            if mine is None:
                rows.append((text, err, "legal (must be refused: .v8 of 8/16-bit)"))
            if (ptx_legality(op, arch) is None) != (err is None):
                rows.append((text, err, ptx_legality(op, arch)))
        elif (mine is None) != (err is None):
            rows.append((text, err, mine))
    assert not rows, _show(rows, len(s["spellings"]))
    assert narrow and narrow_taken, "expected ptxas to accept some .v8 of 8/16-bit spellings"


@pytest.mark.parametrize("arch", ARCHS)
def test_operands_are_right_for_legal_baselines(sweep, arch):
    """A rejection in the sweep must be the opcode's fault, not the operands': each legal
    baseline form assembles alone."""
    _need(sweep)
    base = ["ld.global.b8", "ld.global.s16", "ld.global.b32", "ld.global.v2.b64", "ld.b128",
            "st.global.v4.b32", "st.shared.v2.u8", "st.local.v4.b16", "st.param.b128",
            "ld.param.v2.f64", "ld.const.v4.f32", "ld.global.L2::cache_hint.v2.b32",
            "st.global.L2::cache_hint.b64", "ld.global.v8.u16", "st.global.v8.b8"]
    for text in base:
        assert ptx_legality(parse(text), arch) is None, text
        res = ptxas(module([instruction(text)], arch), arch)
        assert res.ok, f"{text} on {arch}: {res.summary()}"


def test_batching_matches_single(sweep):
    """The batched verdicts equal one-instruction-per-module verdicts on a sample."""
    s = _need(sweep)
    sample = s["spellings"][::97]
    def single(job):
        arch, text = job
        return arch, text, ptxas(module([instruction(text)], arch), arch).ok
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        got = list(pool.map(single, [(a, t) for a in ARCHS for t in sample]))
    wrong = [(a, t) for a, t, ok in got if ok != (s["results"][a][t] is None)]
    assert not wrong, f"batched and single verdicts differ for {wrong[:20]}"


# --- .version: each legal spelling's lowest, and the targets' own ---------------------------
MIN_ARCHS = ("sm_75",) + ARCHS


def legal_by_arch(spells, archs=MIN_ARCHS) -> dict:
    """{(spelling, arch): ptx_version} over every spelling tilecheck takes for a target."""
    out = {}
    for text in spells:
        try:
            op = parse(text)
        except OpcodeError:
            continue
        out.update({(text, a): ptx_version(op, a) for a in archs if legality(op, a) is None})
    return out


def test_ptx_version_is_the_exact_minimum(capsys):
    """Every legal spelling of the sweep x sm_75/sm_80/sm_90/sm_100a (all of them, not a sample):
    ptxas accepts it at ``ptx_version`` and refuses it one release lower because of a feature that
    needs that version (or the target's minimum binds).  Every FEATURES row is held to ptxas by
    some spelling, or never raises a version on these targets (.shared::cluster and the .cluster
    scope: 7.8, sm_90's own minimum).  (.L2::evict_* comes only with a 256-bit vector: both 8.8,
    the rejection at 8.7 names the vector.)"""
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.fail(f"the ptxas sweep cannot run: {e}", pytrace=False)
    declared = legal_by_arch(spellings())
    start = time.perf_counter()
    problems, both = minimum_problems(declared, lambda keys, arch, v: verdicts(keys, arch, v), CHUNK)
    with capsys.disabled():
        print(f"\n[ld/st .version] {len(declared)} legal (spelling, arch) at their .version, {len(both)} also one "
              f"release lower, in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    assert not problems, f"{len(problems)} wrong:\n" + "\n".join(problems[:30])
    assert not unchecked_rows(FEATURES, both, declared, parse)
    assert len(both) > 1000


def test_target_minimum_versions():
    """ARCH_PTX[arch] is the lowest release ptxas takes for that .target (one lower: 'does not support
    .target'); sm_88 is the exception, declared at the PTX ISA's 9.0 though ptxas 13.0 takes it at 7.3.
    RELEASES are exactly the .version numbers ptxas knows between 6.0 and 9.0."""
    try:
        find_tool("ptxas")
    except ToolNotFound as e:
        pytest.skip(f"ptxas not found: {e}")
    def empty(arch, v):
        return ptxas(f".version {v[0]}.{v[1]}\n.target {arch}\n.address_size 64\n"
                     ".visible .entry k()\n{\n\tret;\n}\n", arch)
    jobs = [(a, v) for a, m in ARCH_PTX.items() for v in (m, previous(m))]
    jobs += [("sm_75", v) for v in [(6, 6), (7, 9), (8, 9), (9, 1)]]
    got = dict(zip(jobs, parallel([lambda j=j: empty(*j) for j in jobs])))
    for a, m in ARCH_PTX.items():
        assert got[(a, m)].ok, (a, got[(a, m)].summary())
        assert (a == "sm_88") == got[(a, previous(m))].ok, (a, got[(a, previous(m))].summary())
        if a != "sm_88":
            assert "does not support .target" in got[(a, previous(m))].summary(), a
    for v in [(6, 6), (7, 9), (8, 9), (9, 1)]:
        assert "Unsupported .version" in got[("sm_75", v)].summary()
    assert {m for m in ARCH_PTX.values()} <= set(RELEASES) and RELEASES == tuple(sorted(RELEASES))
