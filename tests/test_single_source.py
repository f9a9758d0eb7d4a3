"""Facts kept in one place: the scope -> group table and the address widths live in
tilecheck/machine.py (the decider and the numpy reference restate them on purpose, as independent
oracles, and must agree); tests skip only for genuinely optional third-party packages."""
import re
from pathlib import Path


from tilecheck import decide, machine
from tilecheck.check import from_dict

ROOT = Path(__file__).parent.parent
ORACLES = {"tilecheck/decide.py", "tilecheck/gpu/reference.py", "tilecheck/machine.py"}
# restatements of the scope table or of the address widths
RESTATED = [r'"warp":\s*[(\[]\s*\(?\s*(32|"l"|t\s*%)', r'"cta":\s*[(\[]', r'\(\s*t\s*//\s*32\s*,\s*t\s*%\s*32\s*\)',
            r'"global":\s*2\s*\*\*\s*64', r'"warp":\s*\("lane"']


def _sources():
    for d in ("tilecheck", "bench"):
        for p in sorted((ROOT / d).rglob("*.py")):
            rel = str(p.relative_to(ROOT))
            if rel not in ORACLES:
                yield rel, p.read_text()


def test_the_scope_table_and_address_widths_are_stated_once():
    found = [f"{rel}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
             for rel, text in _sources() for pat in RESTATED for m in re.finditer(pat, text)]
    assert not found, "restated outside tilecheck/machine.py:\n" + "\n".join(found)


def test_the_pattern_catches_a_restatement():
    sample = 'GROUP = {"thread": (), "warp": (32,), "cta": (threads // 32, 32)}\nL = {"global": 2**64}'
    assert sum(bool(re.search(p, sample)) for p in RESTATED) >= 3


def test_the_deciders_restatement_agrees():
    assert decide.ADDRESS_LIMIT == machine.ADDRESS_LIMIT
    check = from_dict({"threads": 64, "tensors": {
        "A": {"dtype": "float32", "scope": "global", "shape": [64], "layout": "(64):(1)"},
        "R": {"dtype": "float32", "scope": "register", "shape": [2, 32], "layout": "(2,32):(1@warpid,1@laneid)"}},
        "apply": [{"opcode": "ld.global.b32", "scope": "cta", "dst": "R", "src": "A: (w=2 l) -> w l"}]})
    assert check.group_shape("cta") == (2, 32) and check.group_shape("warp") == (32,) == machine.group_shape("warp", 64)
    ops = decide.Operands(check, check.applies[0], {})
    assert sorted(ops.groups()) == sorted(__import__("itertools").product(range(2), range(32)))
    for t in range(64):
        assert ops.group_of_thread(t) == machine.group_of("cta", t)
    for scope in machine.APPLY_SCOPES:
        for t in range(64 if scope == "cta" else 32 if scope == "warp" else 1):
            g = machine.group_of(scope, t)
            assert len(g) == len(machine.GROUP_NAMES[scope]) and machine.thread_of(scope, g) == t


IMPORTORSKIP = re.compile(r"importorskip\(\s*[\"']([\w.]+)")
OPTIONAL = {"pycuda", "cvc5", "tensor_layouts"}  # third-party packages no extra of the test run requires


def test_only_optional_third_party_packages_are_importorskipped():
    """An ImportError of tilecheck's own modules (a broken emitter) must fail, never skip."""
    bad = []
    for p in sorted((ROOT / "tests").rglob("*.py")):
        for m in IMPORTORSKIP.finditer(p.read_text()):
            if m.group(1).split(".")[0] not in OPTIONAL:
                bad.append(f"{p.relative_to(ROOT)}: importorskip({m.group(1)!r})")
    assert not bad, bad


# The import graph (issue 29): data flows one way (file -> model -> accesses -> obligations -> report
# -> plan -> PTX -> GPU), and so do imports.  Every import statement counts, module-level or inside
# a function (the rule of /work/shared/hooks/imports.py): a cycle moved into a function-local import
# is still a cycle.  A package's face (its __init__) counts only when a name is taken from it.

def _import_graph(root: Path, pkg: str = "tilecheck") -> dict[str, dict[str, bool]]:
    """module -> {imported module: whether some import of it is module-level}."""
    import ast
    mods = {}
    for f in (root / pkg).rglob("*.py"):
        name = ".".join(f.relative_to(root).with_suffix("").parts)
        mods[name.removesuffix(".__init__")] = f

    def targets(cur, node):
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = cur.split(".")
        if node.level:
            base = base[: len(base) - node.level + (mods[cur].name == "__init__.py")]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        subs = [f"{prefix}.{a.name}" for a in node.names if f"{prefix}.{a.name}" in mods]
        return subs + ([prefix] if len(subs) < len(node.names) else [])

    graph = {m: {} for m in mods}
    for m, f in mods.items():
        tree = ast.parse(f.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for t in targets(m, node):
                    if t in mods and t != m:
                        graph[m][t] = graph[m].get(t, False) or id(node) in top
    return graph


def _cycles(graph: dict[str, dict[str, bool]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while not comp or comp[-1] != v:
                comp.append(stack.pop())
                on.discard(comp[-1])
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    graph = _import_graph(ROOT)
    assert len(graph) > 50 and "tilecheck.proofs.registry" in graph["tilecheck.proofs"]
    lines = []
    for comp in _cycles(graph):
        lines.append(f"cycle of {len(comp)}:")
        lines += [f"  {a} -> {b}{'' if graph[a][b] else ' (inside a function)'}"
                  for a in comp for b in sorted(graph[a]) if b in comp]
    assert not lines, ("import cycles: move what both sides need to the layer below (function-local imports "
                       "only for optional dependencies):\n" + "\n".join(lines))


ORACLE_MODULES = ("tilecheck.decide", "tilecheck.gpu.reference")


def _paths(graph: dict[str, dict[str, bool]], start: str, stop) -> dict[str, list[str]]:
    """For each module ``stop`` accepts that ``start`` reaches through imports (any import statement),
    one path of modules to it."""
    seen, todo, out = {start: [start]}, [start], {}
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v]):
            if w not in seen:
                seen[w] = seen[v] + [w]
                (out.__setitem__(w, seen[w]) if stop(w) else todo.append(w))
    return out


def _oracle_leaks(graph: dict[str, dict[str, bool]]) -> list[str]:
    """Import paths from the prover (tilecheck.proofs) to an oracle and back, function-local imports
    included."""
    prover = [m for m in graph if m == "tilecheck.proofs" or m.startswith("tilecheck.proofs.")]
    leaks = [p for m in prover for p in _paths(graph, m, lambda w: w in ORACLE_MODULES).values()]
    leaks += [p for m in ORACLE_MODULES if m in graph
              for p in _paths(graph, m, lambda w: w == "tilecheck.proofs" or w.startswith("tilecheck.proofs.")).values()]
    return sorted(" -> ".join(p) for p in leaks)


def test_the_prover_and_the_oracles_import_nothing_of_each_other():
    """Issue 29: the brute-force decider and the numpy reference are the oracles the prover is compared
    with, so neither side reaches the other through any import (the facts' meaning is in domain.py)."""
    graph = _import_graph(ROOT)
    assert "tilecheck.proofs.swizzle" in graph and all(m in graph for m in ORACLE_MODULES)
    leaks = _oracle_leaks(graph)
    assert not leaks, "the prover and an oracle import each other:\n" + "\n".join(leaks)


def test_the_oracle_check_finds_a_leak(tmp_path):
    """The check above can fail: a function-local import of the decider two modules away is a leak."""
    pkg = tmp_path / "tilecheck"
    (pkg / "proofs").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "proofs" / "__init__.py").write_text("from .a import f\n")
    (pkg / "proofs" / "a.py").write_text("from ..util import g\n\ndef f():\n    return g()\n")
    (pkg / "util.py").write_text("def g():\n    from .decide import allowed\n    return allowed\n")
    (pkg / "decide.py").write_text("def allowed():\n    return True\n")
    leaks = _oracle_leaks(_import_graph(tmp_path))
    assert "tilecheck.proofs.a -> tilecheck.util -> tilecheck.decide" in leaks and len(leaks) == 2


def test_the_facts_meaning_is_stated_twice_and_agrees():
    """domain.py (the model's) and decide.py (the oracle's own restatement) allow the same values."""
    from tilecheck import domain
    check = from_dict({"threads": 32, "symbols": {"n": {"min": 1, "max": 40, "multiple_of": 4},
                                                  "m": {"min": 0, "max": 9}},
                       "assume": ["n >= 2*m", "m % 3 == 1"], "tensors": {
        "A": {"dtype": "float32", "scope": "global", "shape": [32], "layout": "(32):(1)"},
        "R": {"dtype": "float32", "scope": "register", "shape": [32], "layout": "(32):(1@laneid)"}},
        "apply": [{"opcode": "ld.global.b32", "scope": "warp", "dst": "R", "src": "A"}]})
    for per_end, limit, largest in ((None, 64, True), (1, 16, True), (3, 64, False), (None, 1000, True)):
        assert domain.assignments(check, per_end, limit, largest) == decide.assignments(check, per_end, limit, largest)
    assert domain.assignments(check) == [{"n": 4, "m": 1}, {"n": 8, "m": 1}, {"n": 12, "m": 1}, {"n": 32, "m": 1},
                                         {"n": 32, "m": 7}, {"n": 36, "m": 1}, {"n": 36, "m": 7}, {"n": 40, "m": 1},
                                         {"n": 40, "m": 7}]  # m % 3 == 1 at m in {0,1,2,7,8,9}; n >= 2*m
    for n in range(-4, 48):
        for m in range(-1, 11):
            assert domain.allowed(check, {"n": n, "m": m}) == decide.allowed(check, {"n": n, "m": m})
    assert domain.allowed(check, {"n": 8, "m": 4}) and not domain.allowed(check, {"n": 4, "m": 4})


def test_the_import_graph_finds_a_cycle(tmp_path):
    """The check above can fail: a function-local import that closes a loop is a cycle."""
    pkg = tmp_path / "tilecheck"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("from .sub import b\n\ndef f():\n    return b.g()\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def g():\n    from ..a import f\n    return f\n")
    (pkg / "c.py").write_text("import tilecheck.a\n")
    graph = _import_graph(tmp_path)
    assert graph["tilecheck.a"] == {"tilecheck.sub.b": True} and graph["tilecheck.sub.b"] == {"tilecheck.a": False}
    assert graph["tilecheck"] == {"tilecheck.a": True} and graph["tilecheck.c"] == {"tilecheck.a": True}
    assert _cycles(graph) == [["tilecheck.a", "tilecheck.sub.b"]]


# Family-specific code outside tilecheck/families/ (issue 29): a family is data (families.Role: its
# thread-value layout, spaces, access mode; Family hooks), and every consumer iterates the accesses
# (tilecheck/accesses.py).  Code lines (comments and docstrings excluded) that name a family, test an
# instruction's name, or read a family's own [[apply]] keys are counted per file.
FAMILY_CODE = re.compile(
    r"ldmatrix|stmatrix|cp\.async|cp_async|[\"']red[\"']|[\"'](ld|st)[\"']|\bMATRIX\b|\.copies\b"  # family names
    r"|\bopcode\.kind\b|\bop\.kind\s*(==|!=|in)"  # a test of the instruction's name
    r"|\b(a|apply|ap|writer|self\.apply|ops\.apply|q\.apply)\.(pred|preserve_dst|cache_policy|guard)\b"  # ld/st keys
    r"|[\"'](nc|preserve_dst|cache_policy)[\"']|getattr\([^)]*[\"'](guard|pred)[\"']|guard_role|PACKED_FAMILIES")
# what is left, file -> lines, each with its reason; the lead shrinks this as the branches merge
FAMILY_CODE_LEFT = {
    # ncu's own op names (the suffix of its per-op counters), not a family
    "tilecheck/gpu/ncu_csv.py": 1,
    # the decider's own statement of ld/st's `operands` rule (the oracle restates it on purpose)
    "tilecheck/decide.py": 5,
    # the TIRx frontend's translation of ld/st's keys
    "tilecheck/frontends/tirx.py": 1,
    # the one place the guard flag becomes an access's active predicate
    "tilecheck/accesses.py": 1,
    # the ncu tools' spelling of a read ("ld"), accepted until `tools` merges
    "tilecheck/memory_model.py": 1,
    # front ends translate a foreign copy atom into its PTX opcode (as frontends/tirx.py does); the
    # recorder's `.copies` is its list of traced cute.copy calls, not a family attribute
    "tilecheck/frontends/cute.py": 8, "tilecheck/frontends/cute_extract.py": 6,
    # hand-written measurement kernels (PTX text for the H200, like ncu_probe): not an apply's family
    "tilecheck/gpu/tma_copy.py": 7, "tilecheck/gpu/tma_probe.py": 3,
}


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(line number, code) with comments and docstrings blanked (tokenize)."""
    import io
    import tokenize
    keep = [list(line) for line in text.splitlines()]
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    prev = None
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        doc = (t.type == tokenize.STRING and (prev is None or prev.type in (
            tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT))
            and (nxt is None or nxt.type in (tokenize.NEWLINE, tokenize.NL)))
        if t.type == tokenize.COMMENT or doc:
            (r0, c0), (r1, c1) = t.start, t.end
            for r in range(r0, r1 + 1):
                for c in range(c0 if r == r0 else 0, c1 if r == r1 else len(keep[r - 1])):
                    keep[r - 1][c] = " "
        if t.type not in (tokenize.COMMENT, tokenize.NL):
            prev = t
    return [(n + 1, "".join(line)) for n, line in enumerate(keep)]


def _family_code(root: Path) -> dict[str, list[str]]:
    out = {}
    for p in sorted((root / "tilecheck").rglob("*.py")):
        rel = str(p.relative_to(root))
        if rel.startswith("tilecheck/families/"):
            continue
        hits = [f"{rel}:{n}: {line.strip()}" for n, line in _code_lines(p.read_text()) if FAMILY_CODE.search(line)]
        if hits:
            out[rel] = hits
    return out


def test_no_family_specific_code_outside_families():
    found = _family_code(ROOT)
    over = [line for rel, hits in found.items() if len(hits) > FAMILY_CODE_LEFT.get(rel, 0) for line in hits]
    assert not over, ("family-specific code outside tilecheck/families/ (declare it on the family or its roles, "
                      "and read it through tilecheck/accesses.py):\n" + "\n".join(over))
    stale = {rel: n for rel, n in FAMILY_CODE_LEFT.items() if len(found.get(rel, ())) < n}
    assert not stale, f"fewer family-specific lines than allowed: lower FAMILY_CODE_LEFT to {stale}"


def test_the_family_grep_catches_a_leak():
    sample = ('"""ldmatrix in a docstring is fine"""\n# so is cp.async in a comment\n'
              'if a.opcode.kind in ("ldmatrix", "stmatrix"):\n    pass\nif a.preserve_dst:\n    pass\n'
              'x = a.family.packs\n')
    hits = [n for n, line in _code_lines(sample) if FAMILY_CODE.search(line)]
    assert hits == [3, 5]


def test_a_role_is_data():
    """A role's atom is declared with the project's Layout values, not callables: ldmatrix's fragment
    map is a layout, and the solver's holds/origin are derived from it (PTX ISA, "ldmatrix")."""
    from tilecheck import crd2idx, families
    from tilecheck.layout import Layout
    for fam in set(families.FAMILIES.values()):
        for f in fam.__dataclass_fields__ if hasattr(fam, "__dataclass_fields__") else ():
            assert not callable(getattr(fam, f))
    for trans in (False, True):
        for num in (1, 2, 4):
            op = families.parse(f"ldmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16")
            mem = next(r for r in families.of(op).roles(op) if r.kind == families.MEMORY)
            assert isinstance(mem.values, Layout) and isinstance(mem.threads, Layout)
            assert (mem.words, mem.lanes) == (8, 8 * num)
            dom = crd2idx.Ints({})
            for t in range(32):
                for k in range(2 * num):  # lane t holds row t//4, columns 2(t%4)+j of matrix k//2 (.trans: transposed)
                    i, j = divmod(k, 2)
                    row, col = (2 * (t % 4) + j, t // 4) if trans else (t // 4, 2 * (t % 4) + j)
                    assert mem.holds([t], k, dom) == ([8 * i + row], col)
                    (l0,), w0 = mem.origin([8 * i + row], dom)  # the row's column 0
                    assert ((l0, w0) == (row // 2, 2 * i + row % 2)) if trans else ((l0, w0) == (4 * row, 2 * i))


# The issuing groups are data (machine.GROUPS: coordinates and warps per group); code reads a group's
# rank and extents, never its name, so that a new group (wgmma's warpgroup) is one row of the table.
SCOPE_CODE = re.compile(r"""(?=.*\bscope\b)(?=.*["'](thread|warp|warpgroup|cta)["'])""")
SCOPE_CODE_LEFT = {
    "tilecheck/strategies.py": 1,  # register_layouts(scope="thread"): the public strategy's default, the key's
    "tilecheck/fuzz/malformed.py": 1,  # a seed check file's text (CTA_TEXT: scope = "cta"), data
    "tilecheck/check.py": 1,  # the [[apply]] key's default, scope = "thread"
    "tilecheck/proofs/warp.py": 1,  # the coordinates' names (warp, lane), not a scope
    "tilecheck/frontends/tirx.py": 1,  # the TIRx input's own scope names, translated
    "tilecheck/frontends/cute.py": 6,  # the scope of the check it writes for a traced copy
}


def test_no_scope_names_tested_outside_the_group_table():
    found = {}
    for p in sorted((ROOT / "tilecheck").rglob("*.py")):
        rel = str(p.relative_to(ROOT))
        if rel.startswith("tilecheck/families/") or rel in ORACLES - {"tilecheck/decide.py", "tilecheck/gpu/reference.py"}:
            continue
        hits = [f"{rel}:{n}: {line.strip()}" for n, line in _code_lines(p.read_text()) if SCOPE_CODE.search(line)]
        if hits:
            found[rel] = hits
    over = [line for rel, hits in found.items() if len(hits) > SCOPE_CODE_LEFT.get(rel, 0) for line in hits]
    assert not over, "a scope's name tested outside machine.GROUPS (read the group's data):\n" + "\n".join(over)
    stale = {rel: n for rel, n in SCOPE_CODE_LEFT.items() if len(found.get(rel, ())) < n}
    assert not stale, f"fewer scope-name lines than allowed: lower SCOPE_CODE_LEFT to {stale}"


def test_the_groups_are_data_and_the_restatements_agree():
    from tilecheck.gpu import reference  # noqa: F401 (it reads check.group_shape: machine's table)
    assert decide.WARPS_PER_GROUP == {n: g.warps for n, g in machine.GROUPS.items()}
    wg = machine.GROUPS["warpgroup"]
    assert machine.group_shape("warpgroup", 256) == (4, 32) and wg.span(256) == 128 and wg.multiple == 128
    for t in range(256):
        g = machine.group_of("warpgroup", t)
        assert g == (t // 32 % 4, t % 32) and machine.thread_of("warpgroup", g) == t % 128


def test_the_plan_carries_one_list_of_accesses_per_apply():
    """Built once from the roles (accesses.py): role, space, mode, width, lanes, the active predicate."""
    from tilecheck.check import load
    from tilecheck.report import prove
    plan = prove(load(ROOT / "examples" / "cp_async_guard_zfill.toml")).plan
    dst, src = plan.step(0).accesses
    assert plan.accesses[0] == (dst, src) and plan.check.accesses is plan.accesses  # built once
    assert (dst.role, dst.space, dst.mode, dst.guard) == ("dst", "shared", "write", False)
    assert (src.role, src.space, src.mode, src.guard, src.guarded) == ("src", "global", "read", True,
                                                                        ("bounds", "overflow"))
    assert dst.bytes == src.bytes == 16 and not dst.crosses
    plan = prove(load(ROOT / "examples" / "staging_fp16_x4.toml")).plan
    ldsm = [x for s in plan.steps for x in s.accesses if x.crosses]
    assert ldsm and all((x.lanes, x.words, x.bytes, x.space, x.mode) == (32, 8, 16, "shared", "read") for x in ldsm)


# --- issue 29: a family is one file.  The tools below name no instruction family outside comments
# and docstrings: what they need of a family is its declaration in tilecheck/families/ (draws,
# tile_kinds, draw_*, sass_classes, mirror, ...), and they iterate families.FAMILIES.
TOOL_FILES = ("tilecheck/strategies.py", "tilecheck/gpu/ncu_compare.py", "tilecheck/gpu/ncu_probe.py",
              "tilecheck/gpu/ncu_csv.py", "tilecheck/gpu/staging.py", "tilecheck/draw.py", "tilecheck/fuzz/*.py",
              "tilecheck/emit/sass.py", "tilecheck/emit/probe.py")
FAMILY_NAME = re.compile(r"""ldmatrix|stmatrix|cp\.async|cp_async|\bred\b|"ld"|"st"|'ld'|'st'""")
# (file, the code of the line) -> why it stays; every entry must still match a line
FAMILY_NAMES_ALLOWED = {
    # ncu's own vocabulary: the suffix of its per-op LSU counters (l1tex__..._op_ld.sum), loads and
    # stores whatever instruction issues them (LDSM counts as a load), the direction
    # memory_model.wavefronts takes; stated once here, every tool says LOAD/STORE
    ("tilecheck/gpu/ncu_csv.py", 'OPS = LOAD , STORE = ( "ld" , "st" )'):
        "ncu's op names, not a tilecheck family",
}


def _code_tokens(text: str) -> dict[int, str]:
    """Each line's code: its tokens less comments and docstrings (string statements)."""
    import ast
    import io
    import tokenize
    docs = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            docs.update(range(node.lineno, node.end_lineno + 1))
    out: dict[int, list[str]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            continue
        if tok.type == tokenize.STRING and tok.start[0] in docs:
            continue
        out.setdefault(tok.start[0], []).append(tok.string)
    return {n: " ".join(ts) for n, ts in out.items()}


def _family_names(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, code) of every family name in the tools' code under ``root``."""
    found = []
    for pattern in TOOL_FILES:
        for p in sorted(root.glob(pattern)):
            rel = str(p.relative_to(root))
            for n, code in sorted(_code_tokens(p.read_text()).items()):
                if FAMILY_NAME.search(code):
                    found.append((rel, n, code))
    return found


def test_the_tools_name_no_family():
    found = _family_names(ROOT)
    left = [f"{rel}:{n}: {code}" for rel, n, code in found if (rel, code) not in FAMILY_NAMES_ALLOWED]
    assert not left, ("a family named outside tilecheck/families/ (declare what the tool needs in the family's "
                      "file, or allow it with the reason):\n" + "\n".join(left))
    stale = set(FAMILY_NAMES_ALLOWED) - {(rel, code) for rel, _, code in found}
    assert not stale, f"allowed but gone (drop them from FAMILY_NAMES_ALLOWED): {sorted(stale)}"


def test_the_family_grep_sees_code_and_not_comments(tmp_path):
    (tmp_path / "tilecheck").mkdir()
    (tmp_path / "tilecheck" / "draw.py").write_text(
        '"""Docstrings may say ldmatrix."""\n# so may comments: cp.async\nx = 1  # red\n'
        'def f(op):\n    """Or \'ld\'."""\n    return op.kind == "st" or op.kind in ("ldmatrix",)\n')
    assert [n for _, n, _ in _family_names(tmp_path)] == [6]

# Function-local imports (issue 29): only for an optional or slow third-party package (or a module of
# tilecheck that imports one at its top), or where a module-level import would close a loop through a
# package's __init__; each other one is listed here with its reason.
OPTIONAL_OR_SLOW = {"pycuda", "tomlkit", "rich", "hypothesis", "shtab", "cvc5", "tensor_layouts", "tvm_tirx", "nvidia",
                    "cutlass", "resource"}  # cutlass: nvidia-cutlass-dsl, the `cute` extra; resource: Unix only
LOCAL_ON_PURPOSE = {
    ("tilecheck", "importlib.metadata"): "read only when __version__ is asked for (~20 ms a command)",
    ("tilecheck.cli", "tilecheck"): "__version__ is computed on first use (importlib.metadata costs ~20 ms a command)",
    ("tilecheck.frontends.cute", "tilecheck"): "the same: __version__ only for --format sarif",
    ("tilecheck.plan", "tilecheck.emit.operand"): "tilecheck/emit/__init__ imports plan at module level",
    # the GPU machine runs these files without the package (no z3 there): ``python tilecheck/gpu/tmap_probe.py
    # --driver-only`` and ``python tilecheck/gpu/tma_probe.py`` load only the pure modules, by path
    ("tilecheck.gpu.tmap_probe", "tilecheck.check"): "only --compare and the full mode prove (z3); --driver-only "
                                                     "runs without the package",
    ("tilecheck.gpu.tmap_probe", "tilecheck.proofs.registry"): "the same: the prover (z3) only where a proof is asked",
    ("tilecheck.tma_landing", "tilecheck.layout"): "tma_probe run as a file loads tma_landing.py by path, outside "
                                                   "the package: only TmaBox.layout() needs the layout (a relative "
                                                   "import at the top would fail there)",
}


def _local_imports(root: Path) -> list[str]:
    """Every function-local import of ``root``'s tilecheck that is not for an optional package."""
    import ast
    mods = {".".join(f.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): f
            for f in (root / "tilecheck").rglob("*.py")}
    trees = {m: ast.parse(f.read_text(encoding="utf-8")) for m, f in mods.items()}

    def module_level(tree):  # module-level imports, also under a module-level if/try
        out, todo = [], list(tree.body)
        while todo:
            n = todo.pop()
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                out.append(n)
            elif isinstance(n, (ast.If, ast.Try)):
                todo += n.body + n.orelse + getattr(n, "finalbody", []) + [s for h in getattr(n, "handlers", [])
                                                                          for s in h.body]
        return out

    def targets(cur, node):
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = cur.split(".")
        if node.level:
            base = base[: len(base) - node.level + (mods[cur].name == "__init__.py")]
        prefix = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
        subs = [f"{prefix}.{a.name}" for a in node.names if f"{prefix}.{a.name}" in mods]
        return subs + ([prefix] if len(subs) < len(node.names) else [])

    top = {m: {t for n in module_level(tree) for t in targets(m, n)} for m, tree in trees.items()}

    def optional(name, seen):  # the module is, or imports at its top, an optional package
        if name.split(".")[0] in OPTIONAL_OR_SLOW:
            return True
        if name in seen:
            return False
        seen.add(name)
        parts = name.split(".")
        return any(optional(t, seen) for i in range(1, len(parts) + 1) for t in top.get(".".join(parts[:i]), ()))

    bad = []
    for m, tree in trees.items():
        rel = str(mods[m].relative_to(root))
        tops = {id(n) for n in module_level(tree)}
        for n in ast.walk(tree):
            if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in tops:
                for t in targets(m, n):
                    if not optional(t, set()) and (m, t) not in LOCAL_ON_PURPOSE:
                        bad.append(f"{rel}:{n.lineno}: {ast.unparse(n)}")
    return bad


def test_function_local_imports_only_for_optional_packages():
    bad = _local_imports(ROOT)
    assert not bad, ("function-local imports that can be module-level (move them to the top; a cycle is "
                     "fixed in the layers, not hidden in a function):\n" + "\n".join(bad))


def test_the_local_import_check_finds_one(tmp_path):
    pkg = tmp_path / "tilecheck"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .b import g\n    import shtab\n    from .c import h\n    return g\n")
    (pkg / "b.py").write_text("def g():\n    return 1\n")
    (pkg / "c.py").write_text("import hypothesis\n\ndef h():\n    return 1\n")
    assert _local_imports(tmp_path) == ["tilecheck/a.py:2: from .b import g"]
