"""desc_uniform: a descriptor operand is one value for the whole issuing group (a warpgroup gives wgmma one
descriptor): its fields use no symbol that depends on the thread.  The check file's one such symbol is the
warp id (``from = "warpid"``); a field that names it differs between the group's warps."""
from .desc_common import operands
from .runner import static


def violation(q):
    symbols = q.check.symbols
    for access, d in operands(q):
        for field, names in d.names().items():
            bad = sorted(n for n in names if n in symbols and symbols[n].warp)
            if bad:
                return static(False, f"operand {access.role.upper()} (descriptor {d.name}): its {field} uses "
                                     f"{bad[0]!r}, the warp id (from = \"warpid\"): the group's warps give different "
                                     "descriptors, and the instruction takes one for the whole group",
                              {"operand": access.role, "descriptor": d.name, "field": field, "symbol": bad[0]})
    return static(True, "")
