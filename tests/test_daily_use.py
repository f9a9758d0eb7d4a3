"""Daily use from a plain install: declared dependencies, --version, shipped examples, the tools."""
import json
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

import tilecheck
from tilecheck import tools
from tilecheck.bundled import examples
from tilecheck.cli import main

ROOT = Path(__file__).parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

# Every module of the package must import with only the main dependencies (and theirs) present,
# as after `pip install tilecheck` with no extras; only the GPU runner's pycuda is an extra, and it
# is imported when a kernel runs, not when a module is imported.  Two modules run elsewhere by
# design: the TIRx extractor in the peer's own environment, the pytest plugin inside pytest.
ELSEWHERE = ("tilecheck.frontends.tirx_extract", "tilecheck.pytest_plugin")
_IMPORT_ALL = textwrap.dedent("""
    import importlib, importlib.metadata as md, pkgutil, re, sys

    def requirement_names(dist):
        out = []
        for r in md.requires(dist) or []:
            if "extra ==" in r:
                continue
            out.append(re.split(r"[\\s<>=!~;\\[(]", r, maxsplit=1)[0])
        return out

    allowed_dists, todo = set(), [d for d in sys.argv[1:]]
    while todo:
        d = todo.pop().lower().replace("_", "-")
        if d in allowed_dists:
            continue
        allowed_dists.add(d)
        try:
            todo += requirement_names(d)
        except md.PackageNotFoundError:
            pass
    allowed = set(sys.stdlib_module_names) | {"tilecheck", "_distutils_hack"}
    for top, dists in md.packages_distributions().items():
        if any(x.lower().replace("_", "-") in allowed_dists for x in dists):
            allowed.add(top)

    class Block:
        def find_spec(self, name, path=None, target=None):
            top = name.split(".")[0]
            if top not in allowed and not top.startswith("_"):
                raise ModuleNotFoundError(f"No module named {top!r} (not a main dependency)", name=top)
            return None

    sys.meta_path.insert(0, Block())
    import tilecheck
    failed = []
    for m in pkgutil.walk_packages(tilecheck.__path__, "tilecheck."):
        if m.name.endswith("__main__") or m.name in ELSEWHERE:  # runs the CLI; runs elsewhere
            continue
        try:
            importlib.import_module(m.name)
        except ImportError as e:
            failed.append(f"{m.name}: {e}")
    print("\\n".join(failed))
""").replace("ELSEWHERE", repr(ELSEWHERE))


def _main_dependencies():
    return [__import__("re").split(r"[\s<>=!~;\[]", r, maxsplit=1)[0] for r in PYPROJECT["project"]["dependencies"]]


# Hypothesis loads the plugins installed here (e.g. hypofuzz's entry point): a plain install has none
PLAIN = {**ENV, "HYPOTHESIS_NO_PLUGINS": "1"}


def test_every_module_imports_with_the_main_dependencies_alone():
    out = subprocess.run([sys.executable, "-c", _IMPORT_ALL, *_main_dependencies()], env=PLAIN,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_the_import_check_catches_an_undeclared_dependency():
    # the same check with hypothesis left out of the declared dependencies must fail on the strategies
    deps = [d for d in _main_dependencies() if d != "hypothesis"]
    out = subprocess.run([sys.executable, "-c", _IMPORT_ALL, *deps], env=PLAIN,
                         capture_output=True, text=True, timeout=120)
    assert "tilecheck.strategies: No module named 'hypothesis'" in out.stdout


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"tilecheck {tilecheck.__version__}\n"
    assert tilecheck.__version__ == PYPROJECT["project"]["version"]


def test_the_shipped_examples_are_the_top_level_ones():
    shipped = examples()
    assert shipped and shipped == {p.name: p.read_text() for p in (ROOT / "examples").glob("*.toml")}


def test_examples_command_copies_them_and_never_overwrites_a_different_file(tmp_path, capsys):
    dest = tmp_path / "ex"
    assert main(["examples", str(dest)]) == 0
    assert {p.name: p.read_text() for p in dest.iterdir()} == examples()
    assert f"next: tilecheck prove {dest / 'seed.toml'}" in capsys.readouterr().out
    assert main(["prove", str(dest / "seed.toml")]) == 0
    assert main(["examples", str(dest)]) == 0  # identical files: nothing to refuse
    (dest / "seed.toml").write_text("# mine\n")
    capsys.readouterr()
    assert main(["examples", str(dest)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seed.toml exists and differs" in err
    assert (dest / "seed.toml").read_text() == "# mine\n"
    (tmp_path / "file").write_text("")
    assert main(["examples", str(tmp_path / "file")]) == 2


def test_tools_module_reports_an_unknown_tool_in_one_line(capsys):
    assert tools.main(["nvcc", "--version"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown tool 'nvcc'" in err
    assert tools.main([]) == 2


def _wheel_ptxas():
    for path in tools.candidates("ptxas"):
        if "site-packages" in str(path) and path.is_file():
            return path
    return None


@pytest.mark.skipif(_wheel_ptxas() is None, reason="the nvidia-cuda-nvcc wheel is not installed")
def test_tools_module_runs_the_wheels_ptxas_when_none_is_on_path(tmp_path):
    # a pip-only machine: no ptxas on PATH, no CUDA_HOME; only the wheel's
    env = {**ENV, "PATH": str(Path(sys.executable).parent)}
    env.pop("CUDA_HOME", None), env.pop("CUDA_PATH", None)
    where = subprocess.run([sys.executable, "-m", "tilecheck.tools", "--which", "ptxas"], env=env,
                           capture_output=True, text=True, timeout=60)
    assert where.returncode == 0 and "site-packages" in where.stdout
    ptx = tmp_path / "seed.ptx"
    assert main(["emit", str(ROOT / "examples" / "seed.toml"), "--kernel", "-o", str(ptx)]) == 0
    run = subprocess.run([sys.executable, "-m", "tilecheck.tools", "ptxas", "-arch=sm_90", str(ptx),
                          "-o", str(tmp_path / "seed.cubin")], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "seed.cubin").stat().st_size > 0
    bad = subprocess.run([sys.executable, "-m", "tilecheck.tools", "ptxas", "-arch=sm_90", str(tmp_path / "none.ptx")],
                         env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0  # ptxas's own status comes back


class _NoPycuda:
    """A meta path finder that records every attempt to import pycuda."""
    def __init__(self):
        self.tried = []

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "pycuda":
            self.tried.append(name)
            raise ModuleNotFoundError("No module named 'pycuda'", name="pycuda")
        return None


@pytest.mark.parametrize("bad, where", [
    ('[tensors.A]\ndtype = "float33"\nscope = "global"\nshape = [4]\n', "tensors.A"),
    ("arch = [", None),
])
def test_run_json_gives_proves_error_object_before_any_pycuda_import(tmp_path, capsys, monkeypatch, bad, where):
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    finder = _NoPycuda()
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    assert main(["prove", "--json", str(path)]) == 2
    want = json.loads(capsys.readouterr().out)
    assert main(["run", "--json", str(path)]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out) == want and out.err == ""
    assert want["verdict"] == "error" and (where is None or where in want["error"]["where"])
    assert finder.tried == []
    assert main(["run", str(path)]) == 2  # without --json: the one line on stderr, as before
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and out.err.startswith("tilecheck: error: ")


def test_run_json_bad_set_and_refuted_file_are_json(capsys):
    seed = str(ROOT / "examples" / "seed.toml")
    assert main(["run", "--json", seed, "--set", "q=1"]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert err["where"] == "--set" and "unknown symbol 'q'" in err["message"]
    refuted = str(ROOT / "examples" / "region_misaligned_refuted.toml")
    assert main(["run", "--json", refuted]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "refuted" and out["result"] == "not run"
    assert out["applies"][0]["obligations"][6]["name"] == "alignment"


def test_emit_base_names_the_fragments_base_register(capsys):
    sym = str(ROOT / "examples" / "symbolic_tile.toml")
    assert main(["emit", sym]) == 0
    default = capsys.readouterr().out
    assert "%base_X" in default
    assert main(["emit", sym, "--base", "X=%rd7"]) == 0
    out = capsys.readouterr().out
    assert "%base_X" not in out and out == default.replace("%base_X", "%rd7")


@pytest.mark.parametrize("argv, message", [
    (["--name", "k"], "--name: only with --kernel"),
    (["--kernel", "--base", "A=%rd1"], "--base: only for fragments"),
    (["--base", "R=%rd1"], "'R' is not a memory tensor"),
    (["--base", "Z=%rd1"], "'Z' is not a memory tensor"),
    (["--base", "A=rd1"], "expected TENSOR=%REGISTER"),
    (["--base", "A"], "expected TENSOR=%REGISTER"),
])
def test_emit_name_and_base_on_the_wrong_side_are_one_line_errors(capsys, argv, message):
    assert main(["emit", str(ROOT / "examples" / "seed.toml"), *argv]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and message in out.err


def _scalar(dst, src, shape=(4, 8), a_shape=(4, 8), opcode="ld.global.b32"):
    return {"tensors": {"A": {"dtype": "float32", "scope": "global", "shape": list(a_shape)},
                        "R": {"dtype": "float32", "scope": "register", "shape": list(shape)}},
            "apply": [{"opcode": opcode, "dst": dst, "src": src}]}


def test_unit_axis_is_a_size_one_word_axis():
    v = tilecheck.parse_operand("A: i j -> j i ()", {"A": (4, 8)})
    assert v.shape == (8, 4, 1)
    assert v.index((5, 3, 0)) == (3, 5)
    assert tilecheck.parse_operand("A: i j -> () i j", {"A": (4, 8)}).shape == (1, 4, 8)


@pytest.mark.parametrize("bad, message", [
    ("A: () j -> j", "empty parentheses"),
    ("A: i j -> i (j ())", "nested parentheses"),
    ("A: i j -> i j (", "unbalanced"),
])
def test_unit_axis_only_on_the_right(bad, message):
    with pytest.raises(tilecheck.InputError, match=message):
        tilecheck.parse_operand(bad, {"A": (4, 8)})


def test_unit_axis_spelling_proves_and_emits_like_the_split_spelling(capsys):
    from tilecheck.emit import fragment
    from tilecheck.fuzz.differential import compare
    unit = _scalar("R: i j -> j i ()", "A: i j -> j i ()")
    split = _scalar("R: i (j w=1) -> j i w", "A: i (j w=1) -> j i w")
    texts = []
    for data in (unit, split):
        result = compare(data)
        assert result.ok and result.verdict == "proved", result.problems
        texts.append(fragment(tilecheck.prove(tilecheck.from_dict(data)).plan, 0).text)
    assert texts[0] == texts[1] and texts[0].count("ld.global.b32 ") == 32


def test_unit_axis_in_a_refutation_agrees_with_the_enumerator():
    data = _scalar("R: i j -> j i ()", "A[1:5, :]: i j -> j i ()")  # one row past the end
    from tilecheck.fuzz.differential import compare
    result = compare(data)
    assert result.ok, result.problems
    report = tilecheck.prove(tilecheck.from_dict(data))
    assert report.applies[0].obligation("bounds").status == "refuted"


@pytest.mark.parametrize("n, k, r0, c0", [(8, 8, 0, 0), (40, 64, 24, 56), (9, 24, 0, 16)])
def test_half_packed_example_moves_the_float16_tile(n, k, r0, c0):
    # docs/check-file.md: word j of a row holds halves 2j (low 16 bits) and 2j+1; the register
    # tile of words, read back as halves, is the float16 tile X[r0:r0+8, c0:c0+8]
    from tilecheck.gpu.reference import reference
    check = tilecheck.load(ROOT / "examples" / "half_packed_v4_b32.toml")
    case = reference(check, {"n": n, "k": k, "r0": r0, "c0": c0}, seed=7)
    halves = case.inputs["X"].astype("<u4").view("<u2").reshape(n, k)
    regs = case.expected["R"].astype("<u4").view("<u2").reshape(8, 8)
    assert (regs == halves[r0:r0 + 8, c0:c0 + 8]).all()
    assert case.written["R"].all()


@pytest.mark.parametrize("dst, transposed", [("R: j i -> j i ()", False), ("R: i j -> j i ()", True)])
def test_axis_names_are_per_operand_and_pair_by_position(dst, transposed):
    # docs/check-file.md's pitfall: the same names in dst and src do not pair axes; positions do
    from tilecheck.gpu.reference import reference
    check = tilecheck.from_dict({
        "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [4, 4]},
                    "R": {"dtype": "float32", "scope": "register", "shape": [4, 4]}},
        "apply": [{"opcode": "ld.global.b32", "dst": dst, "src": "A: i j -> i j ()"}]})
    assert tilecheck.prove(check).verdict == "proved"  # both are valid copies
    case = reference(check, {}, seed=3)
    a, r = case.inputs["A"].reshape(4, 4), case.expected["R"].reshape(4, 4)
    assert (r == (a.T if transposed else a)).all() and not (r == (a if transposed else a.T)).all()


def test_documented_fragment_call():
    from tilecheck.emit import fragment
    report = tilecheck.prove(tilecheck.load(ROOT / "examples" / "symbolic_tile.toml"))
    frag = fragment(report.plan, 0, base={"X": "%rd1"}, symbols={"k": "%rd2"}, registers="%f")
    assert "%base_X" not in frag.text and "%rd1" in frag.text
    assert "%rd2" in frag.text and "%f0" in frag.text and "%sym_k" not in frag.text


@pytest.mark.parametrize("by", ["ctaid.y", "ctaid.z"])
def test_ctaid_y_and_z_symbols_are_read_from_the_cta_index(by, capsys, tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(textwrap.dedent(f"""
        threads = 32
        [symbols.b]
        from = "{by}"
        min = 0
        max = 15
        [tensors.A]
        dtype = "float32"
        scope = "global"
        shape = [16, 32]
        [tensors.R]
        dtype = "float32"
        scope = "register"
        shape = [32]
        layout = "32:1@laneid"
        [[apply]]
        opcode = "ld.global.b32"
        scope = "warp"
        dst = "R: l -> l ()"
        src = "A[b:b+1, :]: o l -> l (o)"
    """))
    assert main(["emit", str(path), "--kernel"]) == 0
    ptx = capsys.readouterr().out
    assert f"%{by}" in ptx and ".param .s64" not in ptx
