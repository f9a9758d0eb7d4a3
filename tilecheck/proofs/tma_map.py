"""tma_map: a TMA copy's apply, its tensor map and its tensors agree -- the map exists and describes the
global operand, its rank is the opcode's ``.Nd`` and the coordinates', its element width the shared
tensor's, no interleave, a swizzle the landing model describes (none, 32B, 64B, 128B), declared
symbols only, concrete element strides, and (where the box is concrete) the shared tensor's shape is
the box's visits, outermost first.  A fact of the input, decided without the solver."""
from ..expr import concrete
from .runner import static
from .tma_common import concrete_visits, parts, undeclared


def violation(q):
    op, m, s, g = parts(q)
    if m is None:
        names = ", ".join(q.check.tensormaps) or "none"
        return static(False, f"tensormap {op.tensormap!r} is no [tensormaps] table of the file (its maps: {names})",
                      {"tensormap": op.tensormap})
    if m.tensor != g.name:
        return static(False, f"tensormaps.{m.name} describes {m.tensor}, the copy's global operand is {g.name}",
                      {"tensormap": m.name, "describes": m.tensor, "global": g.name})
    if m.rank != op.rank or len(op.coords) != m.rank:
        return static(False, f"tensormaps.{m.name} has rank {m.rank}; the opcode is .{op.rank}d with "
                             f"{len(op.coords)} coordinates", {"tensormap": m.name, "rank": m.rank, "opcode_rank": op.rank})
    if s.bits != m.bits:
        return static(False, f"tensormaps.{m.name} moves {m.bits}-bit elements, {s.name} holds {s.bits}-bit ones",
                      {"tensormap": m.name, "bits": s.bits, "map_bits": m.bits})
    if m.interleave != "none" or m.swizzle not in ("none", "32B", "64B", "128B"):
        return static(False, f"tensormaps.{m.name}: interleave {m.interleave}, swizzle {m.swizzle}: tilecheck models "
                             "TMA copies without interleave, swizzle none/32B/64B/128B",
                      {"tensormap": m.name, "interleave": m.interleave, "swizzle": m.swizzle})
    bad = undeclared(q)
    if bad:
        return static(False, f"undeclared symbol {bad[0]!r} in coords or expect_tx (declare it in [symbols.{bad[0]}])",
                      {"undeclared": bad})
    if any(concrete(e) is None for e in m.element_strides):
        return static(False, f"tensormaps.{m.name}: a TMA copy's element strides must be concrete",
                      {"tensormap": m.name})
    shape = concrete_visits(m)
    ext = [concrete(e) for e in s.shape]
    if shape is not None and None not in ext and ext != shape[::-1]:
        return static(False, f"{s.name} has shape {ext}, the box of tensormaps.{m.name} visits {shape[::-1]} "
                             "(outermost first): the shared tensor is the landed box",
                      {"tensor": s.name, "shape": ext, "box_visits": shape[::-1]})
    return static(True, "")
