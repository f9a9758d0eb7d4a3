"""The register budget (``registers``, a performance obligation), ``require`` and emit's hard limits."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tilecheck
from tilecheck import decide
from tilecheck.check import from_dict
from tilecheck.cli import main
from tilecheck.errors import InputError
from tilecheck.proofs import registers
from tilecheck.proofs.registry import PERFORMANCE, REGISTRY

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def data(rows, dtype="float32", threads=1, layout=None, require=None, top_require=None, scope="thread",
         vec=4):
    """A [rows, vec] tile loaded from global memory with ld.global.v{vec} at ``scope``."""
    bits = {"float32": "b32", "float64": "b64", "uint32": "b32", "float16": "b16"}[dtype]
    reg = {"dtype": dtype, "scope": "register", "shape": [rows, vec]}
    if layout:
        reg["layout"] = layout
    apply = {"opcode": f"ld.global.v{vec}.{bits}", "dst": "R: i w -> i w", "src": "A: i w -> i w"}
    if scope != "thread":
        apply.update(scope=scope, dst="R: (g i) w -> g i w" if scope == "warp" else "R: (v g i) w -> v g i w",
                     src="A: (g i) w -> g i w" if scope == "warp" else "A: (v g i) w -> v g i w")
    out = {"threads": threads,
           "tensors": {"A": {"dtype": dtype, "scope": "global", "shape": [rows, vec], "align": 16}, "R": reg},
           "apply": [apply]}
    if require is not None:
        apply["require"] = require
    if top_require is not None:
        out["require"] = top_require
    return out


def outcome(d):
    report = tilecheck.prove(from_dict(d))
    return report, report.applies[0].obligation("registers")


def test_registers_is_a_registered_performance_obligation():
    assert REGISTRY["registers"].severity == PERFORMANCE
    assert "registers" in decide.RULES


def test_a_256_by_4_float32_tile_is_refuted_with_the_number_and_still_proved():
    report, o = outcome(data(256))
    assert o.status == "refuted"
    assert "1024 registers per thread" in o.message and "over 255 per thread" in o.message
    assert o.counterexample["registers"] == 1024 and o.counterexample["cta_share"] == 255
    assert report.verdict == "proved" and report.plan is not None  # performance: reported, not blocking
    assert decide.decide(from_dict(data(256)))[0]["registers"][0] == "refuted"


def test_a_million_row_tile_is_refuted_quickly_with_the_exact_number():
    report, o = outcome(data(1_000_000))
    assert o.status == "refuted" and o.counterexample["registers"] == 4_000_000
    assert "4000000 registers per thread" in o.message


def test_the_documentation_example_is_proved_with_the_number():
    report = tilecheck.prove(tilecheck.load(EXAMPLES / "half_packed_v4_b32.toml"))
    o = report.applies[0].obligation("registers")
    assert o.status == "proved"
    assert o.message.startswith("32 registers per thread") and "within 255 and the CTA's share 255" in o.message
    assert "- registers: 32 registers per thread" in report.to_text()


def test_the_seed_example_is_420_registers_reported_but_proved():
    report = tilecheck.prove(tilecheck.load(EXAMPLES / "seed.toml"))
    o = report.applies[0].obligation("registers")
    assert o.status == "refuted" and o.counterexample["registers"] == 420  # 15*2*7*2 gapped slots, cosize 839
    assert report.verdict == "proved"
    assert "not blocking" in report.to_text()


@pytest.mark.parametrize("threads,share", [(1, 255), (32, 255), (256, 255), (288, 224), (512, 128),
                                           (640, 96), (1024, 64)])
def test_the_ctas_share_is_the_hardware_allocation(threads, share):
    assert registers.share(threads) == share
    warps = -(-threads // 32)  # the allocation fits: warps * 32 threads * share registers <= 65536
    assert warps * 32 * share <= 65536 and (share == 255 or warps * 32 * (share + 8) > 65536)


def test_the_ctas_share_refutes_below_255():
    # 1024 threads (share 64), each holding 20 rows of 4 words: 80 registers, under 255 but over 64
    shape = [32, 32, 20, 4]
    d = {"threads": 1024,
         "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": shape, "align": 16},
                     "R": {"dtype": "float32", "scope": "register", "shape": shape,
                           "layout": "(32,32,20,4):(1@warpid,1@laneid,4,1)"}},
         "apply": [{"opcode": "ld.global.v4.b32", "scope": "cta", "dst": "R: v g i w -> v g i w",
                    "src": "A: v g i w -> v g i w"}]}
    report, o = outcome(d)
    assert report.applies[0].obligation("ownership").status == "proved"
    assert o.status == "refuted" and o.counterexample["registers"] == 80 and o.counterexample["cta_share"] == 64
    assert "over the CTA's share 64" in o.message and "over 255" not in o.message
    d["threads"] = 512  # 16 warps: share 128, 80 fits
    d["tensors"]["R"]["layout"] = "(16,32,20,4):(1@warpid,1@laneid,4,1)"
    d["tensors"]["R"]["shape"] = d["tensors"]["A"]["shape"] = [16, 32, 20, 4]
    assert outcome(d)[1].status == "proved"


@pytest.mark.parametrize("layout,slots", [("(4,4):(8,1)", 16), ("(4,4):(0,1)", 4), ("(4,4):(1,1)", 7),
                                          ("(4,4):(-4,1)", 16), ("(4,4):(2,1)", 10)])
def test_distinct_slots_not_cosize(layout, slots):
    d = data(4, layout=layout)
    d["tensors"]["R"]["offset"] = 12  # negative strides stay inside; the count ignores the offset
    assert registers.slots(from_dict(d).tensors["R"]) == (slots, True)


@pytest.mark.parametrize("dtype,per", [("float64", 2), ("float16", 1), ("float32", 1)])
def test_64_bit_slots_count_two(dtype, per):
    vec = 2 if dtype == "float64" else 4
    _, o = outcome(data(100, dtype=dtype, vec=vec))
    assert o.counterexample["registers"] == 100 * vec * per
    assert o.status == ("refuted" if 100 * vec * per > 255 else "proved")


def test_every_named_register_tile_counts_and_unnamed_ones_do_not():
    d = data(40)
    d["tensors"]["S"] = {"dtype": "float32", "scope": "register", "shape": [40, 4]}
    d["tensors"]["U"] = {"dtype": "float32", "scope": "register", "shape": [1000, 4]}  # named by no apply
    d["apply"].append({"opcode": "st.global.v4.b32", "dst": "A: i w -> i w", "src": "S: i w -> i w"})
    report = tilecheck.prove(from_dict(d))
    o = report.applies[0].obligation("registers")
    assert o.counterexample["registers"] == 320 and set(o.counterexample["tiles"]) == {"R", "S"}


def test_require_makes_registers_block_per_apply_and_at_the_top():
    assert outcome(data(256, require=["registers"]))[0].verdict == "refuted"
    assert outcome(data(256, top_require=["registers"]))[0].verdict == "refuted"
    report, _ = outcome(data(256, require=["registers"]))
    with pytest.raises(PermissionError):
        report.plan
    assert outcome(data(8, require=["registers"]))[0].verdict == "proved"


@pytest.mark.parametrize("value,message", [
    ("registers", "require must be a list of performance obligation names"),
    (["alignment"], "'alignment' is a contract obligation already"),
    (["bank"], "unknown obligation 'bank'"),
    ([3], "require must be a list"),
])
@pytest.mark.parametrize("where", ["apply", "top"])
def test_require_input_errors(value, message, where):
    d = data(8, require=value) if where == "apply" else data(8, top_require=value)
    with pytest.raises(InputError) as e:
        from_dict(d)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert ("apply[0]" in str(e.value)) == (where == "apply")


def test_require_cli_exit_status(tmp_path, capsys):
    f = tmp_path / "bad.toml"
    f.write_text('require = ["disjoint"]\n' + (EXAMPLES / "half_packed_v4_b32.toml").read_text())
    assert main(["prove", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'disjoint' is a contract obligation already" in err


HUGE = """
[tensors.A]
dtype = "float32"
scope = "global"
shape = [{rows}, 4]
align = 16

[tensors.R]
dtype = "float32"
scope = "register"
shape = [{rows}, 4]

[[apply]]
opcode = "ld.global.v4.b32"
dst = "R: i w -> i w"
src = "A: i w -> i w"
"""


def _emit(tmp_path, rows, *extra):
    f = tmp_path / f"t{rows}.toml"
    f.write_text(HUGE.format(rows=rows))
    return subprocess.run([sys.executable, "-m", "tilecheck", "emit", str(f), *extra], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_emit_refuses_an_absurd_tile_in_one_line(tmp_path):
    r = _emit(tmp_path, 1_000_000)
    assert r.returncode == 2 and r.stdout == ""
    (line,) = r.stderr.strip().splitlines()
    assert "4000000 registers per thread" in line and "1000000 instructions per thread" in line
    assert "--force" in line


def test_emit_refuses_many_instructions_even_with_few_registers(tmp_path):
    f = tmp_path / "zero.toml"  # a stride-0 register tile: 4 registers, 70000 loads
    f.write_text(HUGE.format(rows=70000).replace('shape = [70000, 4]\n\n[[apply]]',
                                                 'shape = [70000, 4]\nlayout = "(70000,4):(0,1)"\n\n[[apply]]'))
    report = tilecheck.prove(tilecheck.load(f))
    from tilecheck.emit.budget import too_large
    why = too_large(report)
    assert why is not None and "70000 instructions per thread" in why and "registers" not in why
    assert report.applies[0].obligation("registers").message.startswith("4 registers per thread")


def test_emit_writes_a_spilling_tile_with_a_warning_and_force_overrides(tmp_path):
    r = _emit(tmp_path, 256)
    assert r.returncode == 0 and r.stdout.count("ld.global.v4.b32") == 256
    assert "warning" in r.stderr and "1024 registers per thread" in r.stderr
    r = _emit(tmp_path, 70000, "--force")  # over the instruction limit: --force emits it anyway
    assert r.returncode == 0 and r.stdout.count("ld.global.v4.b32") == 70000


def test_decider_and_z3_agree_on_registers_around_the_budget():
    for rows in (1, 63, 64, 65):  # 4 slots a row: 252, 256 around 255
        for layout in (None, "(%d,4):(0,1)" % rows, "(%d,4):(1,1)" % rows):
            d = data(rows, layout=layout)
            _, o = outcome(d)
            assert decide.decide(from_dict(d))[0]["registers"][0] == o.status, (rows, layout)
            if o.status == "refuted":
                assert decide.violation_at(from_dict(d), 0, "registers", o.counterexample) is None


def test_a_symbolic_register_stride_counts_each_coordinate_in_both_deciders():
    d = data(80)
    d["symbols"] = {"n": {"min": 0, "max": 8}}
    d["tensors"]["R"]["layout"] = "(80,4):(4*n,1)"  # n = 0 would give 4 slots; the model counts 320
    check = from_dict(d)
    assert registers.slots(check.tensors["R"]) == (320, True)
    o = tilecheck.prove(check).applies[0].obligation("registers")
    assert o.status == "refuted" and o.counterexample["registers"] == 320
    assert decide.decide(check)[0]["registers"][0] == "refuted"
    d["tensors"]["R"]["layout"] = "(80,4):(0*n,1)"  # names a symbol: counted per coordinate by both (320)
    c2 = from_dict(d)
    assert registers.slots(c2.tensors["R"]) == (320, True)
    assert tilecheck.prove(c2).applies[0].obligation("registers").status == "refuted"
    assert decide.decide(c2)[0]["registers"][0] == "refuted"


def test_an_ldmatrix_tile_counts_packed_pairs():
    """ldmatrix/stmatrix registers hold two 16-bit elements: 128 float16 slots are 64 registers."""
    check = tilecheck.load(EXAMPLES / "ldmatrix_x4.toml")
    o = tilecheck.prove(check).applies[0].obligation("registers")
    total, exact, tiles = registers.count(check)
    assert (total, exact, tiles["R"]["slots"]) == (64, True, 128)
    assert o.message.startswith("64 registers per thread (R: 128 float16 slots, packed in pairs = 64)")
    assert registers.packed(check, "R")


def ldmatrix_with(extra_apply=None, layout=None, rows=255, offset=None):
    """ldmatrix_x4.toml's tile, its register layout replaced and another apply added."""
    import tomllib
    d = tomllib.loads((EXAMPLES / "ldmatrix_x4.toml").read_text())
    if layout is not None:
        d["tensors"]["R"]["layout"] = layout
    if offset is not None:
        d["tensors"]["R"]["offset"] = offset
    if extra_apply is not None:
        d["tensors"]["G"] = {"dtype": "float16", "scope": "global", "shape": [rows, 8], "align": 16}
        d["tensors"]["Q"] = {"dtype": "float16", "scope": "register", "shape": [rows, 8]}
        d["apply"].append(extra_apply)
    return d


def test_a_16_bit_tile_other_instructions_name_is_not_packed():
    d = ldmatrix_with({"opcode": "ld.global.v4.b32", "dst": "Q: i (w p=2) -> i w p",
                       "src": "G: i (w p=2) -> i w p"})
    o = outcome(d)[1]
    assert o.status == "refuted"
    assert o.counterexample["tiles"]["R"]["registers"] == 64
    assert o.counterexample["tiles"]["Q"]["registers"] == 255 * 8  # ld/st .b16 pairs are not packed
    assert decide.decide(from_dict(d))[0]["registers"][0] == "refuted"


@pytest.mark.parametrize("layout, offset, regs", [
    (None, None, 64),
    ("((8,2,4),(2,4,2,4)):((4@laneid,4,64),(2,1@laneid,8,16))", None, 128),  # gapped: one slot per register
    (None, 1, 65),  # odd offset: slots 1..128 straddle 65 registers
])
def test_the_packed_count_and_the_deciders(layout, offset, regs):
    """Packed pairs are slots 2m and 2m+1 (offset included); the decider restates it: over the
    budget of 64 registers (1024 threads) exactly when the count is over 64."""
    d = ldmatrix_with(layout=layout, offset=offset)
    assert registers.count(from_dict(d))[0] == regs
    assert decide.decide(from_dict(d))[0]["registers"][0] == "proved"
    d["threads"] = 1024  # share 64
    d["apply"][0]["require"] = ["registers"]
    assert outcome(d)[1].status == ("proved" if regs <= 64 else "refuted")
    assert decide.decide(from_dict(d))[0]["registers"][0] == ("proved" if regs <= 64 else "refuted")
