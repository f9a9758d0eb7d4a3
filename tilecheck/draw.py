"""Pictures of a check: every operand's elements on a grid, as plain SVG text.

``tilecheck draw FILE [--apply N] [-o OUT.svg]`` (or ``--all DIR -o OUTDIR``).  For each
application, one panel per operand:

* a memory tensor is drawn by element offset (``--grid offset``, default): one row is
  128 bytes, so a shared tile's columns are its banks (bank = (byte offset / 4) % 32,
  relative to the tensor's base), and an aligned atom never wraps; or by the tensor's
  logical index (``--grid logical``: the last axis across, the others down);
* a register tile is drawn by owning thread (from its ``@laneid``/``@warpid``/``@tid``
  strides) and slot, 32 slots a row.

A cell is one element the application touches, filled by the thread that issues the
access (memory) or owns the slot (register) — or by bank, ``--color bank`` — and labelled
by the register slot it moves to or from (memory) or its repeat number (register).  Each
atom (one instruction's word group) is outlined.  Rows with no element are left out (a
gap line marks the jump).  When an obligation is refuted, its counterexample is
highlighted (a thick red outline, class ``hl``): the misaligned or non-contiguous atom,
the register slot owned by another thread, the two accesses that collide, the element
out of bounds or past the address space, the two lanes' elements in the bank they conflict
on (and that bank's column, ``rect.bankcol``, its header in class ``bank hl``).

Elements are evaluated with the concrete semantics (``View.index``, ``Layout.__call__``)
at one assignment of the symbols: the counterexample's, or the smallest allowed
(``decide.assignments``); the title says which.  At most ``LIMIT`` accesses per operand
are drawn (plus the highlighted ones); the caption says when a panel is truncated.  A panel
of more than ``TOOLTIP_LIMIT`` cells gives only its highlighted cells a tooltip (``<title>``);
every cell keeps its ``data-*`` attributes.

Every function here is pure: ``svg(check, report)`` returns the text.  The SVG's
structure is part of the contract (tests read it): ``g.apply``/``g.panel`` groups,
``rect.cell`` with ``data-thread``, ``data-index``, ``data-offset`` (memory) or
``data-slot`` (register), ``rect.atom``, and ``hl`` added to a highlighted cell's class.

A family that cannot be pictured yet (``Family.pictured`` false: a TMA copy, whose box the
engine lands by its tensor map) gets its title and one note line, ``not_drawn``, in a
``g.apply`` with ``data-drawn="false"`` and no panels; ``tilecheck draw`` prints that line
on standard error too.
"""
from __future__ import annotations

import colorsys
import itertools
from dataclasses import dataclass, field
from math import prod
from xml.sax.saxutils import escape, quoteattr

from . import decide
from .errors import InputError
from .machine import GROUP_NAMES, WARP, group_of, thread_of

LIMIT = 4096  # accesses drawn per operand
TOOLTIP_LIMIT = 1024  # a panel with more cells keeps its data-* attributes but no per-cell tooltip
# (a 64x64 tile's tooltips were most of a 2.7 MB picture)
CELL_W, CELL_H = 30, 20
ROW_BYTES = 128  # one row of the offset grid: 32 banks of 4 bytes
REG_ROW = 32  # register slots per row
LABEL_W = 90  # the row labels' column
GRIDS = ("offset", "logical")
COLORS = ("thread", "bank")


# --- colours ---------------------------------------------------------------------------

def _hex(h: float, light: float, sat: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h % 1.0, light, sat)
    return "#%02x%02x%02x" % (round(r * 255), round(g * 255), round(b * 255))


def thread_colour(t: int) -> str:
    """A fill per thread: 256 hues, neighbours far apart, four lightnesses (distinct for t < 1024, tested)."""
    return _hex((t * 157 % 256) / 256, (0.70, 0.55, 0.82, 0.45)[t // 256 % 4], 0.7)


def bank_colour(b: int) -> str:
    return _hex(b / 32, 0.70, 0.55)


def bank(byte_offset: int) -> int:
    return (byte_offset // 4) % 32


# --- the concrete elements ---------------------------------------------------------------

@dataclass
class Access:
    """One (group, repeat, word) of one operand, evaluated."""
    point: tuple  # (group, repeat, word)
    thread: int  # the issuing thread
    index: tuple  # the tensor's logical index
    value: dict  # layout components: "" (offset or slot), laneid, warpid, tid
    other: int | None = None  # the other operand's offset/slot at the same point (None if shapes differ)

    @property
    def owner(self) -> int:
        """The thread whose registers hold this element (register tensors)."""
        return 32 * self.value.get("warpid", 0) + self.value.get("laneid", 0) + self.value.get("tid", 0)


def issuing_thread(scope: str, group: tuple) -> int:
    if len(group) != len(GROUP_NAMES.get(scope, ())):
        return 0
    return thread_of(scope, group)


def _split(view, group_shape):
    """How many leading view axes are the group (0 if the view does not start with it)."""
    s = tuple(view.shape)
    g = len(group_shape)
    return g if len(s) > g and s[:g] == tuple(group_shape) else 0


def _evaluate(check, apply, view, other, env, point, g):
    t = check.tensors[view.tensor]
    group, repeat, word = point
    coords = (*group, *repeat, word)
    index = view.index(coords, env)
    comps = t.layout(index, env, t.offset)
    value = {a: comps.get(a, 0) for a in ("", "laneid", "warpid", "tid")}
    o = None
    if other is not None and tuple(other.shape) == tuple(view.shape):
        ot = check.tensors[other.tensor]
        o = ot.layout(other.index(coords, env), env, ot.offset).get("", 0)
    return Access(point, issuing_thread(apply.scope, group), index, value, o)  # no group axes (g 0): thread 0


def accesses(check, apply, role: str, env: dict, extra=(), limit: int = LIMIT):
    """(accesses, total): up to ``limit`` points of operand ``role`` in order, plus ``extra`` points."""
    view = getattr(apply, role)
    other = apply.src if role == "dst" else apply.dst
    group_shape = check.group_shape(apply.scope)
    g = _split(view, group_shape)
    shape = tuple(view.shape)
    total = prod(shape)
    out, seen = [], set()
    for c in itertools.islice(itertools.product(*(range(e) for e in shape)), limit):
        p = (tuple(c[:g]), tuple(c[g:-1]), c[-1])
        seen.add(p)
        out.append(_evaluate(check, apply, view, other, env, p, g))
    for p in extra:
        if p not in seen and _inside(p, shape, g):
            seen.add(p)
            out.append(_evaluate(check, apply, view, other, env, p, g))
    return out, total


def _inside(p, shape, g):
    group, repeat, word = p
    c = (*group, *repeat, word)
    return len(group) == g and len(c) == len(shape) and all(0 <= x < e for x, e in zip(c, shape))


# --- counterexamples -> highlighted points ----------------------------------------------------

def _point(d: dict, scope: str) -> tuple:
    group = tuple(d.get("group", {}).values())
    if not group and "thread" in d:  # a witness that names the thread: its coordinates in the group
        t = d["thread"]
        group = group_of(scope, t)
    return group, tuple(d.get("repeat", {}).values()), d.get("word", 0)


@dataclass
class Highlight:
    obligation: str
    role: str  # "dst" / "src"
    points: list = field(default_factory=list)  # points to outline
    atom: bool = False  # outline every word of each point's atom
    axis: tuple | None = None  # (axis, extent): every element whose index[axis] is outside [0, extent)
    bank: int | None = None  # banks: the bank column (relative to the tensor's base) the points share


def highlights(check, apply, name: str, cex: dict) -> list[Highlight]:
    """Which elements show the counterexample of obligation ``name``."""
    mem = "src" if apply.is_load else "dst"
    reg = "dst" if apply.is_load else "src"
    if not cex:
        return []
    if name == "disjoint" and "first" in cex:
        a, b = _point(cex["first"], apply.scope), _point(cex["second"], apply.scope)
        return [Highlight(name, mem, [a, b]), Highlight(name, reg, [a, b])]
    if name == "bounds" and "axis" in cex:
        return [Highlight(name, cex["operand"], axis=(cex["axis"], cex["extent"]))]
    if name == "banks" and "lanes" in cex:
        return _bank_conflict(check, apply, cex)
    if "word" not in cex:  # a static fact (the base pointer's alignment, ...)
        return []
    p = _point(cex, apply.scope)
    if name in ("alignment", "contiguity"):
        return [Highlight(name, mem, [p], atom=True)]
    if name == "ownership":
        return [Highlight(name, reg, [p]), Highlight(name, mem, [p])]
    if name == "bounds":
        return [Highlight(name, cex.get("operand", mem), [p])]
    return [Highlight(name, mem, [p])]


def _bank_conflict(check, apply, cex: dict) -> list[Highlight]:
    """banks: the elements of the two conflicting lanes' atoms that lie in the conflicting bank (the
    counterexample's byte addresses include the base residue ``base``), and that bank's column."""
    role = next((r for r in ("src", "dst") if check.tensors[getattr(apply, r).tensor].scope == "shared"), None)
    if role is None:
        return []
    esize = check.tensors[getattr(apply, role).tensor].esize
    rep, base, points, column = tuple(cex.get("repeat", {}).values()), cex.get("base", 0), [], None
    warp = cex.get("warp", 0)
    for lane, addr in zip(cex["lanes"], cex["byte_addresses"]):
        group = group_of(apply.scope, WARP * warp + lane)
        for w in range(apply.opcode.vector):
            byte = addr + w * esize
            if (byte // 4) % 32 == cex["bank"]:
                points.append((group, rep, w))
                column = bank(byte - base) if column is None else column
    return [Highlight("banks", role, points, bank=column)]


def env_for(check, refuted) -> tuple[dict, str]:
    """The symbol values to draw at, and how they were chosen."""
    if not check.symbols:
        return {}, ""
    for o in refuted:
        cex = o.counterexample or {}
        syms = cex.get("symbols") or (cex.get("first") or {}).get("symbols")
        if syms:
            return dict(syms), f"at the {o.name} counterexample's values"
    envs = decide.assignments(check, per_end=1)
    if not envs:
        raise InputError("no assignment of the symbols satisfies the facts; nothing to draw", "symbols")
    return envs[0], "at the smallest allowed values"


# --- panels -------------------------------------------------------------------------------------

@dataclass
class Cell:
    row: int  # row key (rows are compressed to the keys present)
    col: int
    fill: str
    label: str
    attrs: dict
    atom: tuple  # (group, repeat): the instruction this element belongs to
    point: tuple = ()
    issuer: int = 0
    hl: list = field(default_factory=list)  # obligations highlighting it


def _index_text(index) -> str:
    return ",".join(map(str, index))


def memory_cells(check, view, accs, grid: str, color: str):
    t = check.tensors[view.tensor]
    width = max(1, ROW_BYTES // t.esize)
    cells = {}
    if grid == "offset":
        key = lambda a: a.value[""]  # noqa: E731
        pos = lambda a: divmod(a.value[""], width)  # noqa: E731
        row_name = lambda r: f"@{r * width}"  # noqa: E731
    else:
        lo = [min(a.index[k] for a in accs) for k in range(len(accs[0].index))] if accs else []
        ext = [max(a.index[k] for a in accs) - lo[k] + 1 for k in range(len(lo))] if accs else []
        key = lambda a: a.index  # noqa: E731

        def pos(a):
            rel = [i - l for i, l in zip(a.index, lo)]
            r = 0
            for i, e in zip(rel[:-1], ext[:-1]):
                r = r * e + i
            return r, rel[-1]

        def row_name(r):
            out = []
            for e, l in zip(reversed(ext[:-1]), reversed(lo[:-1])):
                out.append(r % e + l)
                r //= e
            return "[" + ",".join(map(str, reversed(out))) + (",…]" if out else "…]")
    for a in accs:
        k = key(a)
        if k in cells:
            c = cells[k]
            c.attrs["data-threads"] = c.attrs.get("data-threads", c.attrs["data-thread"]) + f",{a.thread}"
            continue
        row, col = pos(a)
        byte = a.value[""] * t.esize
        b = bank(byte)
        attrs = {"data-thread": str(a.thread), "data-index": _index_text(a.index), "data-offset": str(a.value[""])}
        tip = f"{t.name}[{_index_text(a.index)}] offset {a.value['']} (byte {byte}), thread {a.thread}, " \
              f"{_point_text(a.point)}"
        if t.scope == "shared":
            attrs["data-bank"] = str(b)
            tip += f", bank {b}"
        if a.other is not None:
            tip += f", register slot {a.other}"
        attrs["title"] = tip
        fill = bank_colour(b) if color == "bank" and t.scope == "shared" else thread_colour(a.thread)
        label = str(a.other) if a.other is not None else _repeat_label(a)
        cells[k] = Cell(row, col, fill, label, attrs, a.point[:2], a.point, a.thread)
    header = None
    if grid == "offset" and t.scope == "shared":
        header = [str(bank(c * t.esize)) for c in range(width)]
    return cells, row_name, width, header, key


def register_cells(check, view, accs, color: str):
    t = check.tensors[view.tensor]
    cells = {}
    for a in accs:
        slot, owner = a.value[""], a.owner
        k = (owner, slot)
        if k in cells:
            c = cells[k]
            c.attrs["data-issuers"] = c.attrs.get("data-issuers", str(c.issuer)) + f",{a.thread}"
            continue
        attrs = {"data-thread": str(owner), "data-index": _index_text(a.index), "data-slot": str(slot),
                 "title": f"{t.name}[{_index_text(a.index)}] slot {slot} of thread {owner}, issued by thread "
                          f"{a.thread}, {_point_text(a.point)}"
                          + (f", memory offset {a.other}" if a.other is not None else "")}
        row = owner * 2**20 + slot // REG_ROW
        cells[k] = Cell(row, slot % REG_ROW, thread_colour(owner), _repeat_label(a), attrs, a.point[:2], a.point, a.thread)

    def row_name(r):
        return f"T{r // 2**20} s{r % 2**20 * REG_ROW}"
    return cells, row_name, REG_ROW, None, lambda a: (a.owner, a.value[""])


def _point_text(p) -> str:
    g, r, w = p
    return f"group ({','.join(map(str, g))}) repeat ({','.join(map(str, r))}) word {w}"


def _repeat_label(a) -> str:
    r = a.point[1]
    return "r" + ".".join(map(str, r)) if r else f"w{a.point[2]}"


# --- SVG ------------------------------------------------------------------------------------------

STYLE = (".cell{stroke:#fff;stroke-width:.5}.atom{fill:none;stroke:#333;stroke-width:1.2}"
         ".mark{fill:none;stroke:#d00;stroke-width:3}.vec{stroke:#888;stroke-width:.6}"
         ".gap{stroke:#999;stroke-dasharray:3,3}text{font-family:monospace}.label{font-size:9px;text-anchor:middle}"
         ".row{font-size:8px;text-anchor:end}.bank{font-size:8px;text-anchor:middle}.caption,.note{font-size:11px}"
         ".title{font-size:13px;font-weight:bold}.bankcol{fill:#d00;fill-opacity:.12}.bank.hl{fill:#d00;font-weight:bold}")


def _rect(x, y, w, h, cls, fill=None, attrs=None) -> str:
    extra = "".join(f" {k}={quoteattr(v)}" for k, v in (attrs or {}).items() if k != "title")
    f = f' fill="{fill}"' if fill else ""
    body = f"<title>{escape(attrs['title'])}</title>" if attrs and "title" in attrs else ""
    end = f">{body}</rect>" if body else "/>"
    return f'<rect class="{cls}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{f}{extra}{end}'


def _text(x, y, s, cls="label") -> str:
    return f'<text class="{cls}" x="{x:g}" y="{y:g}">{escape(s)}</text>'


def panel(check, apply, role, accs, total, hls, grid, color, y0) -> tuple[list[str], int, int]:
    """One operand's panel at height y0: (svg lines, height, width)."""
    view = getattr(apply, role)
    t = check.tensors[view.tensor]
    if t.is_register:
        cells, row_name, width, header, key = register_cells(check, view, accs, color)
        kind = "register"
    else:
        cells, row_name, width, header, key = memory_cells(check, view, accs, grid, color)
        kind = "memory"
    # highlights: the cells of the counterexample's points (two colliding points share one cell)
    by_point = {a.point: a for a in accs}
    for h in hls:
        if h.role != role:
            continue
        if h.axis is not None:
            ax, ext = h.axis
            marked = [k for k, c in cells.items() if not 0 <= _index(c)[ax] < ext]
        else:
            marked = [key(by_point[q]) for q in h.points if q in by_point]
            if h.atom:
                atoms = {q[:2] for q in h.points}
                marked += [k for k, c in cells.items() if c.atom in atoms]
        for k in dict.fromkeys(marked):
            cells[k].hl.append(h.obligation)
    rows = sorted({c.row for c in cells.values()})
    ypos, y, prev = {}, 0, None
    gaps = []
    for r in rows:
        if prev is not None and r != prev + 1:
            gaps.append(y)
            y += CELL_H // 2
        ypos[r] = y
        y += CELL_H
        prev = r
    truncated = total > LIMIT
    cap = (f"{role} {view.text!r}: {t.name} ({t.scope} {t.dtype}), {len(cells)} elements"
           + (f" — truncated: drew {min(total, LIMIT)} of {total} accesses" if truncated else "")
           + (", by element offset, 128 bytes a row" if kind == "memory" and grid == "offset"
              else ", by logical index" if kind == "memory" else ", by owning thread and slot"))
    top = y0 + 16 + (12 if header else 0)
    out = [f'<g class="panel" data-role="{role}" data-kind="{kind}" data-tensor={quoteattr(t.name)} '
           f'data-elements="{len(cells)}" data-total="{total}" data-truncated="{str(truncated).lower()}">',
           _text(4, y0 + 12, cap, "caption")]
    conflict = {h.bank for h in hls if h.role == role and h.bank is not None} if header else set()
    if header:
        for c, s in enumerate(header):
            hot = bank(c * t.esize) in conflict
            out.append(_text(LABEL_W + c * CELL_W + CELL_W / 2, y0 + 26, s, "bank hl" if hot else "bank"))
            if hot:  # the conflicting bank: its column, under the cells
                out.append(_rect(LABEL_W + c * CELL_W, top - 3, CELL_W, y + 3, "bankcol", None,
                                 {"data-bank": s, "data-highlight": "banks"}))
    for r in rows:
        out.append(_text(LABEL_W - 4, top + ypos[r] + CELL_H * 0.7, row_name(r), "row"))
    for g in gaps:
        out.append(f'<line class="gap" x1="{LABEL_W}" x2="{LABEL_W + width * CELL_W}" y1="{top + g + CELL_H // 4}" '
                   f'y2="{top + g + CELL_H // 4}"/>')
    if kind == "memory" and grid == "offset" and rows:  # vector boundaries: an aligned atom starts on one
        vec = apply.opcode.vector
        for c in range(0, width + 1, vec):
            out.append(f'<line class="vec" x1="{LABEL_W + c * CELL_W}" x2="{LABEL_W + c * CELL_W}" '
                       f'y1="{top - 3}" y2="{top + y}"/>')
    tooltips = len(cells) <= TOOLTIP_LIMIT
    for c in cells.values():
        x, yy = LABEL_W + c.col * CELL_W, top + ypos[c.row]
        attrs = dict(c.attrs)
        if not tooltips and not c.hl:
            attrs.pop("title", None)
        if c.hl:
            attrs["data-highlight"] = ",".join(c.hl)
        out.append(_rect(x, yy, CELL_W, CELL_H, "cell hl" if c.hl else "cell", c.fill, attrs))
        out.append(_text(x + CELL_W / 2, yy + CELL_H * 0.68, c.label))
    # atoms: maximal horizontal runs of one instruction's cells
    runs = {}
    for c in cells.values():
        runs.setdefault((c.atom, c.row), []).append(c.col)
    for (atom, row), cols in runs.items():
        cols.sort()
        start = cols[0]
        for a, b in zip(cols, cols[1:] + [None]):
            if b != a + 1:
                out.append(_rect(LABEL_W + start * CELL_W, top + ypos[row], (a - start + 1) * CELL_W, CELL_H,
                                 "atom"))
                start = b
    for c in cells.values():  # highlights on top
        if c.hl:
            out.append(_rect(LABEL_W + c.col * CELL_W + 1.5, top + ypos[c.row] + 1.5, CELL_W - 3, CELL_H - 3,
                             "mark", None, {"data-highlight": ",".join(c.hl)}))
    out.append("</g>")
    height = top - y0 + y + 8
    return out, height, LABEL_W + width * CELL_W + 10


def _index(cell) -> tuple:
    return tuple(int(x) for x in cell.attrs["data-index"].split(","))


def not_drawn(apply) -> str:
    """The one line that stands for an application whose family does not draw (``Family.pictured``; its
    ``unpictured`` says why, else the TMA copies' reason)."""
    return f"apply[{apply.index}] not drawn: " + (apply.family.unpictured or (
        f"tilecheck does not draw {apply.family.name} copies yet (the box is the engine's copy, placed by the "
        "tensor map, not elements of threads; docs/tma.md)"))


def apply_svg(check, apply, report=None, grid="offset", color="thread", y0=0) -> tuple[list[str], int, int]:
    ar = report.applies[apply.index] if report is not None else None
    refuted = [o for o in ar.obligations if o.status == "refuted"] if ar else []
    env, how = env_for(check, refuted)
    hls = []
    for o in refuted:
        cex = o.counterexample or {}
        syms = cex.get("symbols") or (cex.get("first") or {}).get("symbols") or {}
        if not syms or syms == env:
            hls += highlights(check, apply, o.name, cex)
    title = f"{check.path} apply[{apply.index}] {apply.opcode.text} ({apply.scope} scope)"
    if ar:
        title += f": {ar.verdict}"
    lines = [title]
    if env:
        lines.append("symbols " + ", ".join(f"{k}={v}" for k, v in env.items()) + f" ({how})")
    lines += [o.message for o in refuted if o.message]
    drawn = apply.family.pictured
    if not drawn:
        lines.append(not_drawn(apply))
    out = [f'<g class="apply" data-index="{apply.index}" data-verdict="{ar.verdict if ar else ""}"'
           + ("" if drawn else ' data-drawn="false"') + ">"]
    y = y0
    for i, s in enumerate(lines):
        out.append(_text(4, y + 14, s, "title" if i == 0 else "note"))
        y += 18
    if not drawn:  # the title, the verdict's notes and the one line: no panels
        out.append("</g>")
        return out, y - y0, 600
    width = 600
    for role in ("src", "dst") if apply.is_load else ("dst", "src"):
        extra = [p for h in hls if h.role == role for p in h.points]
        accs, total = accesses(check, apply, role, env, extra)
        lines_, h, w = panel(check, apply, role, accs, total, hls, grid, color, y + 6)
        out += lines_
        y += h + 10
        width = max(width, w)
    out.append("</g>")
    return out, y - y0, width


def svg(check, report=None, apply: int | None = None, grid: str = "offset", color: str = "thread") -> str:
    """The picture of ``check`` (every application, or only ``apply``) as SVG text."""
    if grid not in GRIDS:
        raise InputError(f"unknown grid {grid!r} (one of {', '.join(GRIDS)})", "--grid")
    if color not in COLORS:
        raise InputError(f"unknown colouring {color!r} (one of {', '.join(COLORS)})", "--color")
    if apply is not None and not 0 <= apply < len(check.applies):
        raise InputError(f"apply {apply} does not exist (the file has {len(check.applies)})", "--apply")
    chosen = check.applies if apply is None else [check.applies[apply]]
    body, y, width = [], 0, 600
    for a in chosen:
        lines, h, w = apply_svg(check, a, report, grid, color, y)
        body += lines
        y += h + 20
        width = max(width, w)
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" viewBox="0 0 {width} {y}">'
    return "\n".join([head, f"<title>{escape(check.path)}</title>", f"<style>{STYLE}</style>",
                      f'<rect class="background" x="0" y="0" width="{width}" height="{y}" fill="#fff"/>',
                      *body, "</svg>"]) + "\n"
