"""The emitter's API and the shape of what it writes; ``CASES`` is the catalog every emit test runs.

``test_emit_sim.py`` runs each case's kernel on a PTX interpreter against the numpy
reference; ``test_emit_ptxas.py`` assembles each with ptxas and counts its SASS.
"""
import re
from pathlib import Path

import pytest
import z3

import tilecheck
from tilecheck.emit import EmitError, Fragment, fragment, kernel, version
from tilecheck.errors import InputError
from tilecheck.plan import Plan

EXAMPLES = Path(__file__).parent.parent / "examples"
ARCHS = ("sm_80", "sm_90", "sm_100a")


def check_of(tensors, applies, **top):
    applies = applies if isinstance(applies, list) else [applies]
    return tilecheck.from_dict({**top, "tensors": tensors, "apply": applies}, "<emit-test>")


def plan_of(check) -> Plan:
    report = tilecheck.prove(check)
    assert report.verdict == "proved", report.to_text()
    return report.plan


# the catalog ---------------------------------------------------------------------------------
DTYPES = {8: ("uint8", "int8"), 16: ("float16", "int16"), 32: ("float32", "int32"), 64: ("float64", "uint64")}
SPELL = {8: ("b8", "u8", "s8"), 16: ("b16", "u16", "s16"), 32: ("b32", "f32", "s32"), 64: ("b64", "f64", "u64")}
VECTOR = {8: 4, 16: 2, 32: 4, 64: 2}


def matrix_case(space, kind, scope, bits, k):
    """One ld/st at ``scope`` with layouts that are not plain (gaps, reversed rows, lane strides)."""
    V = VECTOR[bits] if k % 2 == 0 else 1
    dtype = DTYPES[bits][k % 2]
    op = f"{kind}.{space}{f'.v{V}' if V > 1 else ''}.{SPELL[bits][k % 3]}"
    threads = {"thread": 1, "warp": 32, "cta": 64}[scope]
    R = 3 if scope == "thread" else 2
    if scope == "thread":
        shape = [R, V]
        if k % 3 == 1:  # rows reversed in memory (negative stride, negative immediates)
            mlay, moff = f"({R},{V}):({-2 * V},1)", 2 * V * (R - 1)
        else:  # rows with gaps
            mlay, moff = f"({R},{V}):({2 * V},1)", 0
        rlay = f"({R},{V}):({V},1)"
    elif scope == "warp":
        shape = [32, R, V]
        mlay, moff, rlay = f"(32,{R},{V}):({V},{32 * V},1)", 0, f"(32,{R},{V}):(1@laneid,{V},1)"
    else:
        shape = [2, 32, R, V]
        mlay, moff = f"(2,32,{R},{V}):({32 * R * V},{V},{32 * V},1)", 0
        rlay = f"(2,32,{R},{V}):(1@warpid,1@laneid,{V},1)"
    m = {"dtype": dtype, "scope": space, "shape": shape, "layout": mlay, "offset": moff, "align": V * bits // 8}
    r = {"dtype": dtype, "scope": "register", "shape": shape, "layout": rlay}
    apply = {"opcode": op, "scope": scope, "dst": "R" if kind == "ld" else "A", "src": "A" if kind == "ld" else "R"}
    return check_of({"A": m, "R": r}, apply, threads=threads, arch=ARCHS[k % 3])


def _matrix():
    out, k = {}, 0
    for space in ("global", "shared", "local"):
        for kind in ("ld", "st"):
            for scope in ("thread", "warp", "cta"):
                for bits in (8, 16, 32, 64):
                    out[f"{kind}-{space}-{scope}-{bits}"] = (matrix_case(space, kind, scope, bits, k), None)
                    k += 1
    return out


def _one(op, arch="sm_90", dtype="float32", vec=4, rows=3, **apply):
    shape = [rows, vec]
    bits = {"float32": 4, "int64": 8, "float64": 8}[dtype] * 8
    return check_of({"A": {"dtype": dtype, "scope": "global", "shape": shape, "align": vec * bits // 8},
                     "R": {"dtype": dtype, "scope": "register", "shape": shape}},
                    {"opcode": op, "dst": "R" if op.startswith("ld") else "A",
                     "src": "A" if op.startswith("ld") else "R", **apply}, arch=arch)


def _special():
    return {
        # the splits of a nested memory mode see the repeat coordinate: per-repeat evaluation
        "nested-repeat": check_of(
            {"A": {"dtype": "float32", "scope": "global", "shape": [8, 4], "layout": "((2,4),4):((16,4),1)",
                   "align": 16},
             "R": {"dtype": "float32", "scope": "register", "shape": [8, 4]}},
            {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"}),
        # lanes split by a nested mode: div/rem of the thread index, once
        "warp-nested-lanes": check_of(
            {"A": {"dtype": "float32", "scope": "global", "shape": [32, 4, 4],
                   "layout": "((4,8),4,4):((128,4),32,1)", "align": 16},
             "R": {"dtype": "float32", "scope": "register", "shape": [32, 4, 4], "layout": "(32,4,4):(1@laneid,4,1)"}},
            {"opcode": "ld.global.v4.b32", "scope": "warp", "dst": "R", "src": "A"}, threads=32),
        # 96 threads whose index splits by 12: a division by a constant that is not a power of two
        "cta-split-by-12": check_of(
            {"A": {"dtype": "float32", "scope": "global", "shape": [96, 2, 4],
                   "layout": "((12,8),2,4):((64,8),4,1)", "align": 16},
             "R": {"dtype": "float32", "scope": "register", "shape": [3, 32, 2, 4],
                   "layout": "(3,32,2,4):(1@warpid,1@laneid,4,1)"}},
            {"opcode": "ld.global.v4.b32", "scope": "cta", "dst": "R", "src": "A: (w=3 l) r v -> w l r v"},
            threads=96),
        "shared-cta-space": check_of(
            {"S": {"dtype": "int32", "scope": "shared", "shape": [4, 2], "align": 8},
             "R": {"dtype": "int32", "scope": "register", "shape": [4, 2], "layout": "(4,2):(1,4)"}},
            {"opcode": "ld.shared::cta.v2.s32", "dst": "R", "src": "S"}),
        "pred-load": _one("ld.global.v4.b32", pred=True),
        "pred-preserve": _one("ld.global.v4.b32", pred=True, preserve_dst=True),
        "pred-store": _one("st.global.v2.b64", dtype="int64", vec=2, pred=True),
        "cache-hint-ld-sm80": _one("ld.global.L2::cache_hint.v4.b32", arch="sm_80", cache_policy=True),
        "cache-hint-st-sm90": _one("st.global.L1::no_allocate.L2::cache_hint.v2.f64", dtype="float64", vec=2,
                                   cache_policy=True),
        "v8-b32-sm100a": _one("ld.global.v8.b32", arch="sm_100a", vec=8),
        "v4-b64-evict-sm100a": _one("st.global.L2::evict_last.v4.b64", arch="sm_100a", dtype="float64", vec=4),
        "nc-pred-preserve-sm80": _one("ld.global.nc.v2.b64", arch="sm_80", dtype="int64", vec=2, pred=True,
                                      preserve_dst=True),
    }


def _symbolic():
    cta = check_of(  # two warps x 32 lanes over a (4, 128) tile of an (n, k) matrix: stride k per row
        {"X": {"dtype": "float32", "scope": "global", "shape": ["n", "k"], "align": 16},
         "R": {"dtype": "float32", "scope": "register", "shape": [2, 32, 2, 4],
               "layout": "(2,32,2,4):(1@warpid,1@laneid,4,1)"}},
        {"opcode": "ld.global.v4.b32", "scope": "cta", "dst": "R",
         "src": "X[r0:r0+4, 0:128]: (r w=2) (l v=4) -> w l r v"},
        threads=64, arch="sm_80", assume=["r0 + 4 <= n"],
        symbols={"n": {"min": 4, "max": 4096}, "k": {"min": 128, "max": 8192, "multiple_of": 4},
                 "r0": {"min": 0, "max": 4092}})
    grid = check_of(  # one 8-row band per CTA: b = %ctaid.x
        {"X": {"dtype": "float32", "scope": "global", "shape": [32, 8], "align": 16},
         "R": {"dtype": "float32", "scope": "register", "shape": [8, 8]}},
        {"opcode": "st.global.v4.b32", "dst": "X[8*b:8*b+8, :]: r (v=2 w) -> r v w",
         "src": "R: r (v=2 w) -> r v w"},
        symbols={"b": {"min": 0, "max": 3, "from": "ctaid.x"}})
    return {"symbolic-cta-stride": (cta, [{"n": 4, "k": 128, "r0": 0}, {"n": 9, "k": 260, "r0": 5}]),
            "ctaid-band": (grid, None)}


def _round_trip():
    """Two applications sharing a register tile: global -> registers -> shared, then back out."""
    return check_of(
        {"A": {"dtype": "float32", "scope": "global", "shape": [32, 2, 2], "align": 8},
         "S": {"dtype": "float32", "scope": "shared", "shape": [32, 2, 2], "layout": "(32,2,2):(2,64,1)",
               "align": 8},
         "R": {"dtype": "float32", "scope": "register", "shape": [32, 2, 2], "layout": "(32,2,2):(1@laneid,2,1)"},
         "Q": {"dtype": "float32", "scope": "register", "shape": [32, 2, 2],
               "layout": "(32,2,2):(1@laneid,1,2)"}},
        [{"opcode": "ld.global.v2.b32", "scope": "warp", "dst": "R", "src": "A"},
         {"opcode": "st.shared.v2.b32", "scope": "warp", "dst": "S", "src": "R"},
         {"opcode": "ld.shared.v2.b32", "scope": "warp", "dst": "Q", "src": "S"}], threads=32)


def _swizzled():
    """Swizzled tiles: the shipped example (32-bit shr/and/xor) and a symbolic global row band (the
    64-bit forms); test_swizzle.py adds a symbolic-size shared tile (dynamic shared memory)."""
    band = check_of(
        {"X": {"dtype": "float32", "scope": "global", "shape": ["n", 64], "layout": "Sw<2,2,3> o (n,64):(64,1)",
               "align": 16},
         "R": {"dtype": "float32", "scope": "register", "shape": [2, 32, 2, 4],
               "layout": "(2,32,2,4):(1@warpid,1@laneid,4,1)"}},
        {"opcode": "ld.global.v4.b32", "scope": "cta", "dst": "R",
         "src": "X[r0:r0+8, :]: (r w=2 q=2) (c v=4) -> w (q c) r v"},
        threads=64, assume=["r0 + 8 <= n"],
        symbols={"n": {"min": 8, "max": 4096}, "r0": {"min": 0, "max": 4088}})
    return {"swizzle_half_tile": (tilecheck.load(EXAMPLES / "swizzle_half_tile.toml"), None),
            "swizzle-symbolic-band": (band, [{"n": 8, "r0": 0}, {"n": 37, "r0": 29}])}


SYMBOLIC_TILE = [{"n": 8, "k": 8, "r0": 0, "c0": 0}, {"n": 40, "k": 64, "r0": 24, "c0": 56}]
CASES = {
    "seed": (tilecheck.load(EXAMPLES / "seed.toml"), None),
    "symbolic_tile": (tilecheck.load(EXAMPLES / "symbolic_tile.toml"), SYMBOLIC_TILE),
    "cta_shared_store": (tilecheck.load(EXAMPLES / "cta_shared_store.toml"), None),
    **_matrix(),
    **{n: (c, None) for n, c in _special().items()},
    **_symbolic(),
    "round-trip": (_round_trip(), None),
    **_swizzled(),
}


def test_the_catalog_covers_every_dimension():
    checks = [c for c, _ in CASES.values()]
    assert {c.arch for c in checks} >= set(ARCHS)
    applies = [(c, a) for c in checks for a in c.applies]
    assert {c.tensors[a.memory.tensor].scope for c, a in applies} == {"global", "shared", "local"}
    assert {a.scope for _, a in applies} == {"thread", "warp", "cta"}
    assert {a.opcode.bits for _, a in applies} == {8, 16, 32, 64}
    assert {a.is_load for _, a in applies} == {True, False}
    assert any(a.pred and a.preserve_dst for _, a in applies) and any(a.cache_policy for _, a in applies)
    assert any(c.symbols for c in checks)


@pytest.mark.parametrize("name", list(CASES))
def test_every_case_is_proved_and_emits_one_instruction_per_repeat(name):
    check, _ = CASES[name]
    plan = plan_of(check)
    ptx = kernel(plan)
    for a, r in zip(check.applies, tilecheck.prove(check).applies):
        f = fragment(plan, a.index)
        assert len(f.body) == r.instructions
        assert all(re.match(rf"\t(@%p )?{re.escape(a.opcode.text)} ", line) for line in f.body)
    # the kernel holds exactly those instructions, each application's in its own section
    for a in check.applies:
        body = fragment(plan, a.index, pred="%p1", policy=POLICY_OF(ptx)).body
        assert same_but_address_registers(kernel_section(ptx, a.index), body)


def kernel_section(ptx: str, index: int) -> list[str]:
    """The lines of application ``index`` in a kernel."""
    lines = ptx.splitlines()
    start = lines.index(next(l for l in lines if l.startswith(f"\t// apply[{index}]:"))) + 1
    end = next(k for k in range(start, len(lines)) if lines[k].startswith(("\t//", "\tbar", "\tret")))
    return lines[start:end]


def same_but_address_registers(xs, ys) -> bool:
    def norm(lines):
        return [re.sub(r"\[%\w+", "[", line) for line in lines]
    return norm(xs) == norm(ys)


def POLICY_OF(ptx):
    m = re.search(r"createpolicy\S* (%rd\d+)", ptx)
    return m.group(1) if m else None


# refusing what is not proved -----------------------------------------------------------------
def test_a_refuted_plan_cannot_be_had_nor_emitted():
    report = tilecheck.prove(tilecheck.load(EXAMPLES / "region_misaligned_refuted.toml"))
    assert report.verdict == "refuted"
    with pytest.raises(PermissionError):
        report.plan
    for bad in (report, report.check, None, "plan"):
        with pytest.raises(TypeError, match="proved"):
            kernel(bad)
        with pytest.raises(TypeError, match="proved"):
            fragment(bad)
    with pytest.raises(PermissionError):
        Plan(object(), report.check)


def test_an_unknown_plan_cannot_be_had(monkeypatch):
    real = z3.Solver.check

    def gives_up(self, *a):
        real(self, *a)
        return z3.unknown
    monkeypatch.setattr(z3.Solver, "check", gives_up)
    report = tilecheck.prove(tilecheck.load(EXAMPLES / "seed.toml"), timeout=0.5)
    assert report.verdict == "unknown"
    with pytest.raises(PermissionError):
        report.plan


# what the fragment looks like ----------------------------------------------------------------
def test_seed_fragment_is_105_loads_with_immediate_offsets_and_no_arithmetic():
    f = fragment(plan_of(CASES["seed"][0]), 0, base={"A": "%rd1"})
    assert isinstance(f, Fragment) and f.setup == () and len(f.body) == 105
    assert f.body[0] == "\tld.global.v4.b32 {%r0, %r2, %r4, %r6}, [%rd1];"
    pat = re.compile(r"\tld\.global\.v4\.b32 \{(%r\d+), (%r\d+), (%r\d+), (%r\d+)\}, \[%rd1(\+\d+)?\];")
    assert all(pat.fullmatch(line) for line in f.body)
    imms = [int(m.group(5) or 0) for m in map(pat.fullmatch, f.body)]
    assert len(set(imms)) == 105 and all(i % 16 == 0 for i in imms)
    regs = [r for m in map(pat.fullmatch, f.body) for r in m.groups()[:4]]
    assert len(set(regs)) == 420  # every register written once: no intermediate tile, no moves
    assert f.declarations == (".reg .b32 %r<839>;",) and f.version == (7, 8)


def test_symbolic_stride_is_computed_once_and_each_row_costs_one_instruction():
    f = fragment(plan_of(CASES["symbolic_tile"][0]), 0, base={"X": "%x"},
                 symbols={"n": "%n", "k": "%k", "r0": "%r0_", "c0": "%c0"})
    assert sum("%k" in line for line in f.setup) == 1  # the row stride k is read once
    addr = [re.search(r"\[(%\w+)(\+\d+)?\]", line).groups() for line in f.body]
    rows = list(dict.fromkeys(a for a, _ in addr))
    assert len(rows) == 8 and {i for _, i in addr} == {None, "+8"}  # 8 rows x 2 vectors: +0 and +8
    define = {line.split()[1].rstrip(","): line.split()[0] for line in f.setup}
    assert [define[r] for r in rows[1:]] == ["mad.wide.u32"] * 7  # row i+1 = row i + stride: one IMAD.WIDE
    assert len(f.setup) == 14  # 3 cvt (free in SASS), 4 for the corner and the stride, 7 rows


def test_thread_index_arithmetic_is_in_setup_once_without_division_instructions():
    f = fragment(plan_of(CASES["warp-nested-lanes"][0]), 0)
    assert sum("%tid.x" in line for line in f.setup) == 1
    ops = [line.split()[0] for line in f.setup]
    assert "shr.u32" in ops and "and.b32" in ops and not {"div.u32", "rem.u32"} & set(ops)
    assert all("%tid" not in line for line in f.body)
    ops = [line.split()[0] for line in fragment(plan_of(CASES["cta-split-by-12"][0]), 0).setup]
    assert "mul.hi.u32" in ops and not {"div.u32", "rem.u32"} & set(ops)  # ptxas would not do it for us


def test_predicate_policy_and_user_register_names():
    plan = plan_of(CASES["cache-hint-ld-sm80"][0])
    f = fragment(plan, 0, base={"A": "%a"}, policy="%pol", registers="%f")
    assert f.body[0] == "\tld.global.L2::cache_hint.v4.b32 {%f0, %f1, %f2, %f3}, [%a], %pol;"
    assert all(".reg .b32 %r" not in d for d in f.declarations)  # the user declares their own
    f = fragment(plan_of(CASES["pred-store"][0]), 0, base={"A": "%a"}, pred="%q",
                 registers=lambda s: f"%x{10 + s}")
    assert f.body[1] == "\t@%q st.global.v2.b64 [%a+16], {%x12, %x13};"
    f = fragment(plan_of(CASES["pred-store"][0]), 0, base={"A": "%a"}, registers={s: f"%y{s}" for s in range(6)})
    assert f.body[2].endswith("{%y4, %y5};")
    with pytest.raises(KeyError, match="slot 2"):
        fragment(plan_of(CASES["pred-store"][0]), 0, registers={0: "%y", 1: "%z"})


def test_negative_strides_give_negative_immediates():
    f = fragment(plan_of(CASES["ld-global-thread-8"][0]), 0, base={"A": "%a"})  # k=0: gapped rows
    assert [line.split("[")[1] for line in f.body] == ["%a];", "%a+8];", "%a+16];"]
    f = fragment(plan_of(CASES["ld-global-thread-16"][0]), 0, base={"A": "%a"})  # k=1: reversed rows
    assert [line.split("[")[1] for line in f.body] == ["%a+8];", "%a+4];", "%a];"]


def test_register_naming_by_width_and_tensor():
    from tilecheck.emit.registers import tiles
    check = _round_trip()
    t = tiles(check)
    assert t["R"].prefix == "%r" and t["Q"].prefix == "%r3_"
    assert tiles(CASES["ld-global-thread-8"][0])["R"].declaration == ".reg .b16 %rs<12>;"
    assert tiles(CASES["ld-global-thread-64"][0])["R"].prefix == "%rl"


# the kernel ----------------------------------------------------------------------------------
def test_kernel_parameters_tensors_then_unbound_symbols():
    ptx = kernel(plan_of(CASES["symbolic_tile"][0]))
    assert re.findall(r"\.param \.(\w+) (\w+)", ptx) == [
        ("u64", "X"), ("u64", "R"), ("s64", "n"), ("s64", "k"), ("s64", "r0"), ("s64", "c0")]
    ptx = kernel(plan_of(CASES["ctaid-band"][0]), name="band")
    assert re.findall(r"\.param \.(\w+) (\w+)", ptx) == [("u64", "X"), ("u64", "R")]
    assert "mov.u32 %ra1, %ctaid.x;" in ptx and ".entry band(" in ptx


def test_kernel_header_version_and_target():
    def head(name, arch=None):
        check = CASES[name][0]
        ptx = kernel(plan_of(check.with_arch(arch) if arch else check))
        return ptx.splitlines()[1:4]
    assert head("seed") == [".version 7.8", ".target sm_90", ".address_size 64"]
    assert head("seed", "sm_80") == [".version 7.0", ".target sm_80", ".address_size 64"]
    assert head("cache-hint-ld-sm80") == [".version 7.4", ".target sm_80", ".address_size 64"]
    assert head("v8-b32-sm100a") == [".version 8.8", ".target sm_100a", ".address_size 64"]
    assert version(CASES["seed"][0].with_arch("sm_100a")) == (8, 6)


def test_kernel_predicate_is_a_runtime_value_and_preserve_dst_reads_the_destination_first():
    on, off = (kernel(plan_of(CASES["pred-preserve"][0]), pred=p) for p in (True, False))
    assert "setp.ne.u64 %p1, %rd1, 0;" in on and "setp.eq.u64 %p1, %rd1, 0;" in off
    lines = on.splitlines()
    first_fill = next(i for i, l in enumerate(lines) if l.startswith("\tld.global.b32 %r"))
    first_load = next(i for i, l in enumerate(lines) if l.startswith("\t@%p1 ld.global.v4.b32"))
    assert first_fill < first_load  # the destination's previous value is defined: the buffer's
    plain = kernel(plan_of(CASES["pred-load"][0]))
    assert not any(l.startswith("\tld.global.b32 %r") for l in plain.splitlines())


def test_cache_policy_is_made_once():
    ptx = kernel(plan_of(CASES["cache-hint-ld-sm80"][0]))
    assert ptx.count("createpolicy.fractional.L2::evict_last.b64") == 1
    pol = re.search(r"createpolicy\S* (%rd\d+), 1.0;", ptx).group(1)
    assert all(l.endswith(f", {pol};") for l in ptx.splitlines() if "L2::cache_hint" in l)


def test_shared_and_local_copies_and_barriers():
    ptx = kernel(plan_of(CASES["round-trip"][0]))
    assert ".shared .align 8 .b8 smem_S[512];" in ptx
    assert ptx.count("bar.sync 0;") == 3  # after the fill, between the shared store and load, before copy-back
    ptx = kernel(plan_of(CASES["st-local-cta-32"][0]))
    assert ".local .align 16 .b8 lmem_A[" in ptx and "setp.ne.u32" in ptx  # thread 0 copies back


def test_symbolic_local_size_is_refused_with_a_clear_error():
    check = check_of(
        {"S": {"dtype": "float32", "scope": "local", "shape": ["n", 4], "align": 16},
         "R": {"dtype": "float32", "scope": "register", "shape": [2, 4]}},
        {"opcode": "ld.local.v4.b32", "dst": "R", "src": "S[0:2, :]"}, symbols={"n": {"min": 2, "max": 64}})
    with pytest.raises(EmitError, match="local tensor S: its size depends on symbol n"):
        kernel(plan_of(check))
    assert len(fragment(plan_of(check), 0).body) == 2  # the fragment does not allocate: fine


def test_immediates_beyond_32_bits_move_into_a_register():
    check = check_of({"A": {"dtype": "float32", "scope": "global", "shape": [2, 4], "offset": 600_000_000,
                            "align": 16},
                      "R": {"dtype": "float32", "scope": "register", "shape": [2, 4]}},
                     {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"})
    f = fragment(plan_of(check), 0, base={"A": "%a"})
    assert f.setup == ("\tadd.s64 %tcd1, %a, 2147483648;",)
    imms = [int(re.search(r"\+(\d+)\]", line).group(1)) for line in f.body]
    assert [2147483648 + i for i in imms] == [2_400_000_000, 2_400_000_016] and max(imms) < 2**31


# the 10^5-repeat fast paths (bench/bench_emit.py --cli times them) -----------------------------
@pytest.mark.parametrize("name", sorted(CASES))
def test_verbatim_families_spell_each_row_as_the_hook_does(name, monkeypatch):
    """The rows filled in from one spelling of a verbatim family (ld/st, red) are the hook's own,
    kernel and fragment alike (predicates, cache policies, stores with address first)."""
    plan = plan_of(CASES[name][0])
    fast = kernel(plan), fragment(plan, 0, base={"A": "%a"}, registers="%f").text
    fam = type(plan.check.applies[0].family)
    assert fam.verbatim is True
    monkeypatch.setattr(fam, "verbatim", False)  # the hook called once per row
    assert (kernel(plan), fragment(plan, 0, base={"A": "%a"}, registers="%f").text) == fast


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_verbatim_spelling_of_the_examples_is_the_hooks(path, monkeypatch):
    report = tilecheck.prove(tilecheck.load(path))
    if report.verdict != "proved":
        pytest.skip("refuted example: nothing to emit")
    if not all(a.family.emits for a in report.check.applies):  # a family without an emitter (Family.emits)
        with pytest.raises(InputError, match="does not emit") as e:
            kernel(report.plan)
        assert "\n" not in str(e.value)
        return
    families = {type(a.family) for a in report.check.applies}
    fast = kernel(report.plan)
    for fam in families:
        monkeypatch.setattr(fam, "verbatim", False)
    assert kernel(report.plan) == fast


def test_a_template_without_each_operand_once_falls_back_to_the_hook():
    from tilecheck.emit.fragment import spelled
    assert spelled("\tst [\1], \0;", ["{%r0}"], ["[%a]"]) == ["\tst [[%a]], {%r0};"]
    assert spelled("\tld \0, \1, \0;", ["%r0"], ["[%a]"]) is None
    assert spelled("\tld \0;", ["%r0"], ["[%a]"]) is None


def test_the_kernel_builds_a_tiles_register_names_once(monkeypatch):
    """The 10^5-repeat tile's 400,000 names serve the application and the write-back alike."""
    import importlib
    built = []
    for module in ("tilecheck.emit.kernel", "tilecheck.emit.fragment"):  # either may build them
        module = importlib.import_module(module)
        def counted(name, n, real=module.register_names):
            if not isinstance(name, list):  # a list: names already built, handed back as they are
                built.append(n)
            return real(name, n)
        monkeypatch.setattr(module, "register_names", counted)
    plan = plan_of(check_of({"A": {"dtype": "float32", "scope": "global", "shape": [64, 4], "align": 16},
                             "R": {"dtype": "float32", "scope": "register", "shape": [64, 4]}},
                            {"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"}))
    text = kernel(plan)
    assert built == [256]
    assert "\tld.global.v4.b32 {%r252, %r253, %r254, %r255}, [%rd2+1008];" in text
    assert "\tst.global.b32 [%rd4+1020], %r255;" in text
