"""Descriptor check files (``python -m tilecheck.descriptor_file``): the examples named after issue 31's
bugs refute with their counterexamples, their fixed forms prove, bad input is one line and exit 2."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tilecheck import descriptor_file

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples" / "descriptors"

# file -> (exit status, the obligations refuted)
EXPECTED = {
    "wgmma_desc_lbo_unshifted_refuted.toml": (1, {"descriptor-encoding", "descriptor-layout"}),
    "wgmma_desc_lbo_shifted.toml": (0, set()),
    "wgmma_desc_sbo_carry_refuted.toml": (1, {"descriptor-encoding", "descriptor-layout"}),
    "wgmma_desc_swizzle_mismatch_refuted.toml": (1, {"descriptor-layout"}),
    "wgmma_desc_swizzle_128b.toml": (0, set()),
    "wgmma_desc_k_advance_past_atom_refuted.toml": (1, {"descriptor-k-advance"}),
    "wgmma_desc_k_advance.toml": (0, set()),
    "wgmma_desc_base_offset_refuted.toml": (1, {"descriptor-base", "descriptor-layout"}),
    "wgmma_desc_base_offset.toml": (0, set()),
    "tcgen05_desc_hopper_word_refuted.toml": (1, {"descriptor-encoding"}),
    "tcgen05_desc.toml": (0, set()),
    "wgmma_desc_mn_major_lbo_sbo_swapped_refuted.toml": (1, {"descriptor-layout"}),
    "wgmma_desc_mn_major.toml": (0, set()),
    "tcgen05_desc_tf32_mn_major.toml": (0, set()),
    "tcgen05_desc_tf32_mn_major_128b_refuted.toml": (1, {"descriptor-encoding", "descriptor-layout"}),
    "tcgen05_desc_absolute_lbo.toml": (0, set()),
    "tcgen05_desc_absolute_lbo_relative_refuted.toml": (1, {"descriptor-layout"}),
    "tcgen05_desc_layout_type_5_refuted.toml": (1, {"descriptor-encoding", "descriptor-base", "descriptor-layout"}),
    "tcgen05_idesc.toml": (0, set()),
    "tcgen05_idesc_m_unshifted_refuted.toml": (1, {"idesc-fields", "idesc-shape"}),
    "tcgen05_idesc_f16_accumulator_refuted.toml": (1, {"idesc-formats"}),
}


def test_every_example_is_listed():
    assert {p.name for p in EXAMPLES.glob("*.toml")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example(name):
    results = descriptor_file.prove_file(str(EXAMPLES / name))
    code, refuted = EXPECTED[name]
    assert descriptor_file.status(results) == code
    got = {o.name for outs in results.values() for o in outs if o.status == "refuted"}
    assert got == refuted
    assert not {o.name for outs in results.values() for o in outs if o.status == "unknown"}
    if name.endswith("_refuted.toml"):
        fixed = {"wgmma_desc_lbo_unshifted_refuted.toml": "wgmma_desc_lbo_shifted.toml",
                 "wgmma_desc_swizzle_mismatch_refuted.toml": "wgmma_desc_swizzle_128b.toml",
                 "wgmma_desc_k_advance_past_atom_refuted.toml": "wgmma_desc_k_advance.toml",
                 "wgmma_desc_base_offset_refuted.toml": "wgmma_desc_base_offset.toml",
                 "tcgen05_desc_hopper_word_refuted.toml": "tcgen05_desc.toml",
                 "wgmma_desc_mn_major_lbo_sbo_swapped_refuted.toml": "wgmma_desc_mn_major.toml",
                 "tcgen05_desc_tf32_mn_major_128b_refuted.toml": "tcgen05_desc_tf32_mn_major.toml",
                 "tcgen05_desc_absolute_lbo_relative_refuted.toml": "tcgen05_desc_absolute_lbo.toml",
                 "tcgen05_desc_layout_type_5_refuted.toml": "tcgen05_desc.toml",
                 "tcgen05_idesc_m_unshifted_refuted.toml": "tcgen05_idesc.toml",
                 "tcgen05_idesc_f16_accumulator_refuted.toml": "tcgen05_idesc.toml"}.get(name)
        assert fixed is None or EXPECTED[fixed][0] == 0


def test_counterexamples_name_the_first_differing_element():
    out = descriptor_file.prove_file(str(EXAMPLES / "wgmma_desc_k_advance_past_atom_refuted.toml"))["DA"]
    cex = {o.name: o for o in out}["descriptor-k-advance"].counterexample
    assert cex["k_step"] == 4 and cex["index"] == [0, 64] and cex["symbols"] == {"a": 0}
    assert cex["declared_byte"] == 8192 and cex["descriptor_byte"] == 144


def test_tcgen05_refutations_name_the_value_and_the_field():
    out = descriptor_file.prove_file(str(EXAMPLES / "tcgen05_desc_layout_type_5_refuted.toml"))["DA"]
    assert "layout type 5 is invalid on sm_100" in {o.name: o for o in out}["descriptor-encoding"].message
    out = descriptor_file.prove_file(str(EXAMPLES / "tcgen05_desc_absolute_lbo_relative_refuted.toml"))["DA"]
    cex = {o.name: o for o in out}["descriptor-layout"].counterexample
    assert cex["index"] == [0, 8] and cex["declared_byte"] == 8192 and cex["descriptor_byte"] == 144
    out = descriptor_file.prove_file(str(EXAMPLES / "tcgen05_idesc_m_unshifted_refuted.toml"))["idesc.I"]
    by = {o.name: o for o in out}
    assert by["idesc-shape"].counterexample["field"] == "m_dim" and "M = 0" in by["idesc-shape"].message
    assert by["idesc-fields"].counterexample["field"] == "max_shift"
    out = descriptor_file.prove_file(str(EXAMPLES / "tcgen05_idesc_f16_accumulator_refuted.toml"))["idesc.I"]
    assert {o.name: o for o in out}["idesc-formats"].counterexample["field"] == "d_format"


def test_the_command_line():
    run = subprocess.run([sys.executable, "-m", "tilecheck.descriptor_file", "--json",
                          str(EXAMPLES / "wgmma_desc_swizzle_mismatch_refuted.toml")],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert run.returncode == 1
    report = json.loads(run.stdout)
    assert report["verdict"] == "refuted"
    layout = {o["name"]: o for o in report["descriptors"]["DA"]}["descriptor-layout"]
    assert layout["counterexample"]["index"] == [1, 0]


BAD = [
    ('arch = "sm_100"\n[idesc.I]\nkind = "f32"\n', "idesc.I.kind"),
    ('arch = "sm_100"\n[idesc.I]\nkind = "f16"\nm = 128\nn = 64\nd = "f32"\na = "e4m3"\nb = "f16"\n', "idesc.I.a"),
    ('arch = "sm_100"\n[idesc.I]\nkind = "f16"\nm = 128\n', "needs 'word', or the meaning"),
    ('arch = "sm_100"\n[idesc.I]\nkind = "f16"\nword = 0\nd = "f32"\n', "not both"),
    ('arch = "sm_100"\n[idesc.I]\nkind = "f16"\ncta_group = 3\nword = 0\n', "idesc.I.cta_group"),
    ('arch = "sm_80"\n', "arch 'sm_80'"),
    ('[descriptors.D]\ntensor = "S"\n', "needs 'major'"),
    ('[tensors.S]\ndtype = "float16"\nlayout = "(64,16):(16,1)"\n[descriptors.D]\ntensor = "S"\nmajor = "K"\n'
     'tile = [64, 16]\nswizzle = "96B"\nstart = 0\nlbo = 16\nsbo = 16\n', "descriptors.D.swizzle"),
    ('[tensors.S]\ndtype = "float16"\nlayout = "(64,16):(16,1)"\n[descriptors.D]\ntensor = "S"\nmajor = "K"\n'
     'tile = [64, 32]\nswizzle = "none"\nstart = 0\nlbo = 16\nsbo = 16\n', "K = 16"),
    ('[tensors.S]\ndtype = "float16"\nlayout = "(64,16):(16,1)"\n[descriptors.D]\ntensor = "S"\nmajor = "K"\n'
     'tile = [64, 16]\nswizzle = "none"\nstart = "b + 1"\nlbo = 16\nsbo = 16\n', "unknown symbol 'b'"),
    ('[symbols.a]\nmin = 5\nmax = 4\n[tensors.S]\ndtype = "float16"\nlayout = "(64,16):(16,1)"\n[descriptors.D]\n'
     'tensor = "S"\nmajor = "K"\ntile = [64, 16]\nswizzle = "none"\nstart = "a"\nlbo = 16\nsbo = 16\n', "cannot all hold"),
    ('[tensors.S]\ndtype = "float31"\n', "dtype 'float31'"),
    ('arch = \n', "not TOML"),
    ('[tensors.S]\ndtype = "float16"\nlayout = "(64,n):(n,1)"\n', "concrete (MN, K) layout"),
    ('[tensors.S]\ndtype = "float16"\nlayout = "(64,16"\n', "tensors.S.layout"),
]


@pytest.mark.parametrize("text,needle", BAD)
def test_bad_input_is_one_line_and_exit_2(tmp_path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    run = subprocess.run([sys.executable, "-m", "tilecheck.descriptor_file", str(f)], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert run.returncode == 2, run.stderr
    assert needle in run.stderr and len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_tilecheck_prove_names_the_form_of_an_idesc_file(capsys):
    from tilecheck.cli import main
    assert main(["prove", str(EXAMPLES / "tcgen05_idesc.toml")]) == 2
    err = capsys.readouterr().err
    assert "[idesc.X] tables" in err and "python -m tilecheck.descriptor_file" in err and len(err.splitlines()) == 1
