"""registers (performance): the check's register tiles fit one thread's register budget.

The model (docs/check-file.md, "The register budget"):

* a thread holds, of every register tensor that some application names, each distinct slot
  its layout reaches: the distinct values of ``offset + sum(coordinate * stride)`` over the
  modes whose stride is not a thread stride (``@laneid``/``@warpid``/``@tid`` modes say which
  thread holds a slot, not which slot).  A stride that names a symbol (even ``0*n``) is counted as if it
  separated its coordinates (the emitter refuses such tiles anyway);
* a slot of a 64-bit tensor is 2 registers, a slot of an 8/16/32-bit tensor 1 (SASS has no
  16-bit registers: a ``%rs`` register takes a whole 32-bit one), except a *packed* tile: a
  16-bit tensor that only ldmatrix/stmatrix applications name is held as the 32-bit registers
  those instructions move, slots ``2m`` and ``2m+1`` (with the tensor's offset) the halves of
  one, so it counts the distinct ``slot // 2`` (what an mma kernel keeps; the emitter declares
  it ``.reg .b32``);
* every such tile is live at once (the kernel holds its tiles between applications); the
  emitter's own registers (addresses, predicates, loop counters) come on top, so the count is a
  lower bound of what ptxas allocates.

The budget is ``min(255, share)``: 255 registers per thread is the ISA's limit, and ``share`` is
what one CTA of ``threads`` threads may take of an SM's 65536 registers as the hardware allocates
them, per warp in units of 256 registers (8 per thread): ``8 * (256 // warps)`` with
``warps = ceil(threads / 32)``, which keeps ``warps * 32 * share <= 65536``.
"""
from __future__ import annotations

from math import prod

import numpy as np

from ..expr import concrete, names_of
from ..layout import ThreadStride, _leaves
from .runner import static

PER_THREAD = 255  # the most registers one thread may address (PTX ISA, every sm_XX tilecheck targets)
REGISTER_FILE = 65536  # 32-bit registers per SM (sm_50 .. sm_120)
UNIT = 256  # registers are allocated per warp in units of 256
SET_LIMIT = 1 << 22  # distinct slots are counted exactly up to this many candidates, else bounded below


def share(threads: int) -> int:
    """The registers per thread a CTA of ``threads`` threads can have, as the hardware allocates."""
    warps = -(-threads // 32)
    return min(PER_THREAD, (REGISTER_FILE // UNIT // warps) * UNIT // 32)


def weight(bits: int) -> int:
    """32-bit registers per slot of a ``bits``-bit register tensor."""
    return 2 if bits == 64 else 1


def packed(check, name: str) -> bool:
    """A 16-bit register tensor that only applications of packing families name (``Family.packs``:
    ldmatrix/stmatrix, whose registers hold two 16-bit elements each): its slots pair up
    into 32-bit registers (slot ``2m`` the low half of register ``m``, ``2m+1`` the high half)."""
    t = check.tensors[name]
    users = [a for a in check.applies if name in (a.dst.tensor, a.src.tensor)]
    return (t.is_register and t.bits == 16 and not names_of(t.offset) and bool(users)
            and all(a.family.packs for a in users))


def slots(tensor, pack: int = 1) -> tuple[int, bool]:
    """(n, exact): the number of distinct slots of ``tensor``'s layout (``pack=2``: of 32-bit
    registers holding slots ``2m`` and ``2m+1``, the tensor's offset included); ``exact`` False
    when the count stopped above ``SET_LIMIT`` (then n is a lower bound)."""
    modes = []
    for s, d in zip(_leaves(tensor.layout.shape), _leaves(tensor.layout.stride)):
        if isinstance(d, ThreadStride):
            continue
        e = concrete(s)
        if e is None or e <= 1:
            continue
        stride = "symbolic" if names_of(d) else concrete(d)  # symbolic: counted as separating its coordinates
        if stride != 0:
            modes.append((e, stride))
    if any(d == "symbolic" for _, d in modes) or (pack == 1 and _injective(modes)):
        # the model: one slot per coordinate (packed: ceil(n/2) registers); packed injective
        # layouts are enumerated, their values decide the pairs
        return -(-prod(e for e, _ in modes) // pack), True
    values = np.full(1, (concrete(tensor.offset) or 0) if pack > 1 else 0, dtype=np.int64)
    for e, d in sorted(modes, key=lambda m: abs(m[1])):
        if values.size * e > SET_LIMIT:
            n = max(values.size, e)  # S + {0, d, ..} has at least max(|S|, e) values
            return -(-n // pack), False
        values = np.unique((values[:, None] + d * np.arange(e, dtype=np.int64)[None, :]).ravel())
    if pack > 1:
        values = np.unique(values // pack)
    return int(values.size), True


def _injective(modes) -> bool:
    """Each stride exceeds the span of the smaller ones: every coordinate gives its own slot."""
    span = 0
    for e, d in sorted(modes, key=lambda m: abs(m[1])):
        if abs(d) <= span:
            return False
        span += (e - 1) * abs(d)
    return True


def count(check) -> tuple[int, bool, dict]:
    """(registers, exact, per tile) of the register tensors the check's applications name."""
    used = {v.tensor for a in check.applies for v in (a.dst, a.src)}
    tiles, total, exact = {}, 0, True
    for name, t in check.tensors.items():
        if not t.is_register or name not in used:
            continue
        n, ok = slots(t)
        if packed(check, name):
            regs, ok2 = slots(t, pack=2)
            ok &= ok2
            tiles[name] = {"slots": n, "dtype": t.dtype, "registers": regs, "packed": True}
        else:
            tiles[name] = {"slots": n, "dtype": t.dtype, "registers": n * weight(t.bits)}
        total += tiles[name]["registers"]
        exact &= ok
    return total, exact, tiles


def violation(q):
    check = q.check
    total, exact, tiles = count(check)
    cta = share(check.threads)
    limit = min(PER_THREAD, cta)
    number = f"{total}" if exact else f"more than {total}"
    parts = ", ".join(f"{n}: {t['slots']} {t['dtype']} slots"
                      + (f", packed in pairs = {t['registers']}" if t.get("packed") else
                         f" = {t['registers']}" if t["registers"] != t["slots"] else "")
                      for n, t in tiles.items()) or "no register tile"
    cex = {"registers": total, "exact": exact, "per_thread_limit": PER_THREAD, "cta_share": cta,
           "threads": check.threads, "tiles": tiles}
    ok = total <= limit
    if ok:
        message = (f"{number} registers per thread ({parts}), within {PER_THREAD} and the CTA's share {cta} "
                   f"({check.threads} thread{'s' if check.threads > 1 else ''})")
    else:
        over = [f"{PER_THREAD} per thread"] if total > PER_THREAD else []
        if total > cta and cta < PER_THREAD:
            over.append(f"the CTA's share {cta} (65536 registers / {check.threads} threads, allocated per warp in "
                        f"units of {UNIT})")
        message = f"the register tiles need {number} registers per thread ({parts}), over {' and '.join(over)}"
    v = static(ok, message, cex)
    v.note = message if ok else None
    return v
