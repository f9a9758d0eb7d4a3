"""The context's memo (issue 29): one typed entry per decomposition (``poly.Division``, ``Digits``,
``Swizzled``) and one query, ``Context.defined``; no module takes a memo key apart."""
import re
from pathlib import Path

from tilecheck import crd2idx
from tilecheck.layout import Swizzle
from tilecheck.poly import Context, Digits, Division, Swizzled

ROOT = Path(__file__).parent.parent


def test_each_decomposition_is_one_typed_entry_and_made_once():
    ctx = Context()
    x = ctx.var("x", 0, 1000)
    q, r = ctx.divmod(x + 3, 8)
    assert ctx.divmod(x + 3, 8) == (q, r)  # the same value, the same variables
    ds = crd2idx.Polys(ctx, {}).digits(x, [4, 8, 32], "d")
    assert crd2idx.Polys(ctx, {}).digits(x, [4, 8, 32], "d") == ds
    sw = crd2idx.swizzle_poly(x, Swizzle(2, 1, 3), ctx)
    assert crd2idx.swizzle_poly(x, Swizzle(2, 1, 3), ctx) == sw
    entries = ctx.defined()
    assert [type(e) for e in entries] == [Division, Digits, Swizzled]
    assert entries[0] == Division(x + 3, 8, q, r) and entries[0].parts == (q, r)
    assert entries[1].source == x and entries[1].sizes == (4, 8, 32) and list(entries[1].parts) == ds
    assert (entries[2].bits, entries[2].base, entries[2].shift, entries[2].value) == (2, 1, 3, sw)
    assert ctx.defined(Division) == entries[:1] and ctx.defined(Division, Swizzled) == [entries[0], entries[2]]


def test_no_module_walks_the_memo_itself():
    """Only poly.py (``Context.defined``) iterates the memo."""
    found = []
    for p in sorted((ROOT / "tilecheck").rglob("*.py")):
        if p.name == "poly.py" and p.parent.name == "tilecheck":
            continue
        text = p.read_text()
        found += [f"{p.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}"
                  for m in re.finditer(r"\bmemo\.(items|values|keys)\(\)|\bmemo\[\w+\]\[\d\]", text)]
    assert not found, "the memo taken apart outside poly.py (use Context.defined):\n" + "\n".join(found)
