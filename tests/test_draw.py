"""tilecheck draw: the SVG's structure (cells, colours, atoms, highlights), the CLI, the committed pictures."""
import xml.etree.ElementTree as ET
from math import prod
from pathlib import Path

import pytest

import tilecheck
from tilecheck import draw
from tilecheck.cli import main

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
NS = "{http://www.w3.org/2000/svg}"


def parse(text):
    return ET.fromstring(text)


def panels(root):
    return {p.get("data-role"): p for p in root.iter(f"{NS}g") if p.get("class") == "panel"}


def cells(panel):
    return [r for r in panel.iter(f"{NS}rect") if r.get("class", "").split()[0] == "cell"]


def marked(panel):
    return [r for r in cells(panel) if "hl" in r.get("class").split()]


def index(cell):
    return [int(x) for x in cell.get("data-index").split(",")]


def picture(check, **kw):
    report = tilecheck.prove(check)
    return report, parse(draw.svg(check, report, **kw))


def group_size(check, apply):
    return prod(check.group_shape(apply.scope))


# every element drawn once: the examples whose family has disjoint (red adds many times to one address)
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.toml") if not p.name.startswith("red_")))
def test_example_cells_and_colours(name):
    check = tilecheck.load(EXAMPLES / name)
    report = tilecheck.prove(check)
    for a in report.applies:  # each apply's picture (a staged tile has a writer and a reader)
        check_apply_picture(check, a, parse(draw.svg(check, report, apply=a.apply.index)))


def check_apply_picture(check, a, root):
    ps = panels(root)
    (g,) = [e for e in root.iter(f"{NS}g") if e.get("class") == "apply"]
    if not a.apply.family.pictured:  # a TMA copy: the title, the notes and one line saying it is not drawn
        assert g.get("data-drawn") == "false" and not ps
        assert [t.text for t in g.findall(f"{NS}text[@class='note']")][-1] == draw.not_drawn(a.apply)
        return
    assert g.get("data-drawn") is None  # drawn: the attribute only marks the exception
    assert set(ps) == {"dst", "src"}
    n = group_size(check, a.apply) * a.instructions * a.apply.opcode.vector  # every element, once
    if n > draw.LIMIT:  # a 64x128 f32 epilogue: the first LIMIT accesses of each operand, and the caption says so
        for p in ps.values():
            assert p.get("data-truncated") == "true" and int(p.get("data-total")) == n
            assert len(cells(p)) == int(p.get("data-elements")) == draw.LIMIT
            assert len(p.findall(f"{NS}text[@class='label']")) == draw.LIMIT
        return
    # guard = true: the guarded operand's tile may leave its tensor; only its elements inside are drawn
    guarded = a.apply.family.guard_role(a.apply.opcode) if a.apply.guard else None
    for role, p in ps.items():
        assert len(cells(p)) == int(p.get("data-elements"))
        if role == guarded:
            assert 0 < len(cells(p)) <= n
        elif a.verdict == "proved" or p.get("data-kind") == "memory":  # a refuted ownership can merge registers
            assert len(cells(p)) == n
        assert p.get("data-truncated") == "false"
        assert len(p.findall(f"{NS}text[@class='label']")) == len(cells(p))
    mem = ps["src" if a.apply.is_load else "dst"]
    if guarded:
        return
    threads = {c.get("data-thread") for c in cells(mem)}
    assert len(threads) == group_size(check, a.apply)
    assert len({c.get("fill") for c in cells(mem)}) == len(threads)  # one colour per issuing thread
    # one atom outline per instruction when atoms are contiguous and do not wrap (every proved example)
    atoms = [r for r in mem.iter(f"{NS}rect") if r.get("class") == "atom"]
    crosses = any(r.holds is not None for r in a.apply.family.roles(a.apply.opcode))
    if a.verdict == "proved" and not crosses:  # ldmatrix's rows are gathered across lanes: not outlined as rows
        assert len(atoms) == group_size(check, a.apply) * a.instructions
        assert all(float(r.get("width")) == draw.CELL_W * a.apply.opcode.vector for r in atoms)
        assert not marked(mem)


def test_register_cells_coloured_by_owner():
    check = tilecheck.load(EXAMPLES / "cta_shared_store.toml")
    _, root = picture(check)
    reg = panels(root)["src"]
    assert len({c.get("data-thread") for c in cells(reg)}) == 128
    assert len({c.get("fill") for c in cells(reg)}) == 128
    # the same thread has the same colour in both panels
    mem = panels(root)["dst"]
    fill = {c.get("data-thread"): c.get("fill") for c in cells(reg)}
    assert all(fill[c.get("data-thread")] == c.get("fill") for c in cells(mem))


def test_shared_tile_banks():
    check = tilecheck.load(EXAMPLES / "cta_shared_store.toml")
    report = tilecheck.prove(check)
    root = parse(draw.svg(check, report, color="bank"))
    mem = panels(root)["dst"]
    for c in cells(mem):
        assert int(c.get("data-bank")) == (4 * int(c.get("data-offset")) // 4) % 32
    assert len({c.get("fill") for c in cells(mem)}) == 32
    banks = [t.text for t in mem.findall(f"{NS}text[@class='bank']")]
    assert banks == [str(b) for b in range(32)]


def test_thread_colours_are_distinct():
    assert len({draw.thread_colour(t) for t in range(1024)}) == 1024


def test_misaligned_atom_is_highlighted():
    check = tilecheck.load(EXAMPLES / "region_misaligned_refuted.toml")
    report, root = picture(check)
    cex = report.applies[0].obligation("alignment").counterexample
    hl = marked(panels(root)["src"])
    assert len(hl) == 4  # the whole atom
    assert index(hl[0]) == cex["index"] and int(hl[0].get("data-offset")) == cex["offset"]
    assert [int(c.get("data-offset")) for c in hl] == [cex["offset"] + w for w in range(4)]
    assert not marked(panels(root)["dst"])
    assert "alignment refuted" in root.find(f".//{NS}text[@class='note']").text


def test_foreign_slot_is_highlighted():
    check = tilecheck.load(EXAMPLES / "cta_lane_stride2_refuted.toml")
    report, root = picture(check)
    cex = report.applies[0].obligation("ownership").counterexample
    # lane l of warp w owns-by-layout thread 32w + 2l: 80 distinct even threads, 12 slots each
    assert len(cells(panels(root)["src"])) == 80 * 12
    assert {int(c.get("data-thread")) for c in cells(panels(root)["src"])} == set(range(0, 160, 2))
    (reg,) = marked(panels(root)["src"])
    assert index(reg) == cex["index"] and int(reg.get("data-slot")) == cex["slot"]
    assert int(reg.get("data-thread")) == 32 * cex["warpid"] + cex["laneid"] + cex["tid"]
    (mem,) = marked(panels(root)["dst"])
    g = cex["group"]
    assert int(mem.get("data-thread")) == 32 * g["warp"] + g["lane"]


STORE_COLLIDES = {
    "threads": 32,
    "tensors": {"S": {"dtype": "float32", "scope": "shared", "shape": [32, 4], "layout": "(32,4):(0,1)", "align": 16},
                "R": {"dtype": "float32", "scope": "register", "shape": [32, 4], "layout": "(32,4):(1@laneid,1)"}},
    "apply": [{"opcode": "st.shared.v4.b32", "scope": "warp", "dst": "S", "src": "R"}],
}


def test_colliding_store_highlights_one_element_and_two_threads():
    check = tilecheck.from_dict(STORE_COLLIDES)
    report, root = picture(check)
    cex = report.applies[0].obligation("disjoint").counterexample
    mem, reg = panels(root)["dst"], panels(root)["src"]
    assert len(cells(mem)) == 4  # 32 lanes store onto the same 4 elements
    (m,) = marked(mem)
    assert int(m.get("data-offset")) == cex["offset"]  # one cell per offset: every lane's S[l, w] lands here
    assert sorted(map(int, m.get("data-threads").split(","))) == list(range(32))
    threads = {int(c.get("data-thread")) for c in marked(reg)}
    assert threads == {cex["first"]["thread"], cex["second"]["thread"]}


def test_colliding_load_highlights_one_slot_and_two_elements():
    check = tilecheck.from_dict({
        "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [2, 4], "align": 16},
                    "R": {"dtype": "float32", "scope": "register", "shape": [2, 4], "layout": "(2,4):(0,1)"}},
        "apply": [{"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"}]})
    report, root = picture(check)
    cex = report.applies[0].obligation("disjoint").counterexample
    (r,) = marked(panels(root)["dst"])
    assert int(r.get("data-slot")) == cex["slot"]
    assert sorted(index(c) for c in marked(panels(root)["src"])) == sorted([cex["first"]["index"],
                                                                            cex["second"]["index"]])


def test_out_of_bounds_elements_are_highlighted():
    check = tilecheck.from_dict({
        "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [6, 4], "align": 16},
                    "R": {"dtype": "float32", "scope": "register", "shape": [4, 4]}},
        "apply": [{"opcode": "ld.global.v4.b32", "dst": "R", "src": "A[4:8, :]"}]})
    report, root = picture(check)
    cex = report.applies[0].obligation("bounds").counterexample
    assert cex["axis"] == 0 and cex["extent"] == 6
    hl = marked(panels(root)["src"])
    assert sorted(index(c) for c in hl) == [[i, j] for i in (6, 7) for j in range(4)]


SYMBOLIC = (EXAMPLES / "symbolic_tile.toml").read_text()


def test_symbolic_drawn_at_smallest_values():
    check = tilecheck.loads(SYMBOLIC, "sym.toml")
    _, root = picture(check)
    note = root.find(f".//{NS}text[@class='note']").text
    assert note == "symbols n=8, k=8, r0=0, c0=0 (at the smallest allowed values)"
    assert sorted(int(c.get("data-offset")) for c in cells(panels(root)["src"])) == list(range(64))


def test_symbolic_refutation_drawn_at_its_values():
    check = tilecheck.loads(SYMBOLIC.replace("multiple_of = 8\n\n[symbols.c0]", "multiple_of = 1\n\n[symbols.c0]")
                            .replace("max = 65528\nmultiple_of = 8", "max = 65528"), "sym.toml")
    report, root = picture(check)
    o = report.applies[0].obligation("alignment")
    assert o.status == "refuted"
    cex = o.counterexample
    note = root.find(f".//{NS}text[@class='note']").text
    assert note.startswith("symbols " + ", ".join(f"{k}={v}" for k, v in cex["symbols"].items()))
    hl = marked(panels(root)["src"])
    assert len(hl) == 4 and index(hl[0]) == cex["index"]


def test_large_tile_is_truncated_and_says_so():
    check = tilecheck.from_dict({
        "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": [100000, 4], "align": 16},
                    "R": {"dtype": "float32", "scope": "register", "shape": [100000, 4]}},
        "apply": [{"opcode": "ld.global.v4.b32", "dst": "R", "src": "A"}]})
    root = parse(draw.svg(check))  # no report: nothing highlighted, no verdict
    for p in panels(root).values():
        assert p.get("data-truncated") == "true" and len(cells(p)) == draw.LIMIT
        assert "truncated: drew 4096 of 400000 accesses" in p.find(f"{NS}text[@class='caption']").text


def test_cli_writes_svg(tmp_path, capsys):
    out = tmp_path / "seed.svg"
    assert main(["draw", str(EXAMPLES / "seed.toml"), "-o", str(out)]) == 0
    assert len(cells(panels(parse(out.read_text()))["src"])) == 420
    assert main(["draw", str(EXAMPLES / "region_misaligned_refuted.toml"), "--apply", "0"]) == 0  # a picture, not a verdict
    assert parse(capsys.readouterr().out).tag == f"{NS}svg"


@pytest.mark.parametrize("argv, where", [
    (["draw", "examples/seed.toml", "--apply", "3"], "--apply"),
    (["draw", "nope.toml"], "nope.toml"),
    (["draw"], "draw"),
    (["draw", "--all", "examples"], "--all"),
])
def test_cli_bad_input_is_one_line(argv, where, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and where in err and "Traceback" not in err


def test_committed_pictures_are_current(tmp_path, monkeypatch):
    """docs/pictures holds one picture per example, as `tilecheck draw --all examples -o docs/pictures` writes it."""
    monkeypatch.chdir(ROOT)
    assert main(["draw", "--all", "examples", "-o", str(tmp_path)]) == 0
    fresh = {p.name: p.read_text() for p in tmp_path.glob("*.svg")}
    committed = {p.name: p.read_text() for p in (ROOT / "docs" / "pictures").glob("*.svg")}
    assert set(fresh) == {f"{p.stem}.svg" for p in EXAMPLES.glob("*.toml")}
    assert committed == fresh, "run: tilecheck draw --all examples -o docs/pictures"


def test_banks_refutation_marks_the_two_lanes_and_the_bank():
    """Issue 14 item 2: the conflicting lanes' elements in the conflicting bank, and the bank's column."""
    check = tilecheck.load(EXAMPLES / "banks_conflict_refuted.toml")
    report, root = picture(check)
    cex = report.applies[0].obligation("banks").counterexample
    mem = panels(root)["src" if check.applies[0].is_load else "dst"]
    hl = [c for c in marked(mem) if "banks" in c.get("data-highlight").split(",")]
    assert sorted(int(c.get("data-thread")) for c in hl) == sorted(cex["lanes"])
    assert {c.get("data-bank") for c in hl} == {str(cex["bank"])}
    cols = [r for r in mem.iter(f"{NS}rect") if r.get("class") == "bankcol"]
    assert cols and {c.get("data-bank") for c in cols} == {str(cex["bank"])}  # a column per element: 2 a bank
    heads = [t for t in mem.iter(f"{NS}text") if t.get("class") == "bank hl"]
    assert len(heads) == len(cols) and {t.text for t in heads} == {str(cex["bank"])}
    free = tilecheck.load(EXAMPLES / "banks_conflict_free.toml")
    _, root = picture(free)
    assert not [r for r in root.iter(f"{NS}rect") if r.get("class") == "bankcol"]


def test_banks_highlight_only_the_elements_in_the_bank():
    """8-byte atoms: lane l reads words 4l, 4l+1 (16 bytes apart, lanes 0 and 8 share banks 0 and 1 in
    the first phase); only the element of each lane's atom in the reported bank is marked."""
    from tilecheck.check import from_dict
    data = {"arch": "sm_90", "threads": 32,
            "tensors": {"S": {"dtype": "uint32", "scope": "shared", "shape": [32, 4], "layout": "(32,4):(4,1)",
                              "align": 16},
                        "R": {"dtype": "uint32", "scope": "register", "shape": [32, 2],
                              "layout": "(32,2):(1@laneid,1)"}},
            "apply": [{"opcode": "st.shared.v2.b32", "scope": "warp", "dst": "S[0:32, 0:2]: l (j w=2) -> l j w",
                       "src": "R: l (j w=2) -> l j w"}]}
    check = from_dict(data, "<test>")
    report, root = picture(check)
    cex = report.applies[0].obligation("banks").counterexample
    hl = marked(panels(root)["dst"])
    assert len(hl) == 2 and sorted(int(c.get("data-thread")) for c in hl) == sorted(cex["lanes"])
    assert {int(c.get("data-bank")) for c in hl} == {cex["bank"]}
