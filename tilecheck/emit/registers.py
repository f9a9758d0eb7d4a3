"""The register tile: which PTX register holds each slot, and which slot each coordinate names.

Default naming (the kernel ABI, also the fragment's default): slot ``s`` of a
register tensor is the register ``<prefix><s>``, the prefix chosen by the
element width —

    8- and 16-bit elements   %rs<s>   (.b16; ld/st .b8 accept a .b16 register)
    32-bit elements          %r<s>    (.b32)
    64-bit elements          %rl<s>   (.b64)

The first register tensor of a class takes the bare prefix; a later one of the
same class appends its position among the check's tensors and an underscore
(``%r3_<s>``) so that no two tensors share a register.

A *packed* tile (a 16-bit tensor that only ldmatrix/stmatrix name, each instruction's word
pair ``2i, 2i+1`` in slots ``2m, 2m+1``; ``proofs/registers.py``) is held as the 32-bit registers
those instructions move, as an mma kernel keeps them: slots ``2m`` and ``2m+1`` are the low and
high halves of ``%rp<m>`` (``.reg .b32``), which the ldmatrix writes and the stmatrix reads
directly (no unpacking into 16-bit registers).  The emitter's own
scratch registers use other names (``%rd``, ``%ra``, ``%rh``, ``%p``; see Regs).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from .. import crd2idx
from ..check import Check, Tensor
from ..expr import names_of
from ..layout import OFFSET, _leaves
from .errors import EmitError
from .applies import register_copies  # noqa: F401 (re-exported)
from .operand import Operand, integer_dot
from ..proofs.registers import packed

PREFIX = {8: "%rs", 16: "%rs", 32: "%r", 64: "%rl"}
PACKED = "%rp"  # a packed 16-bit tile's 32-bit registers
REG_BITS = {8: 16, 16: 16, 32: 32, 64: 64}


@dataclass(frozen=True)
class Tile:
    """The default naming of one register tensor's slots."""
    tensor: Tensor
    prefix: str
    size: int  # slots 0 .. size-1
    packed: bool = False  # slots 2m, 2m+1 are the halves of the 32-bit register <prefix><m>

    def name(self, slot: int) -> str:
        """The register holding ``slot`` (packed: the 32-bit register of which it is a half)."""
        return f"{self.prefix}{slot // 2 if self.packed else slot}"

    @property
    def declaration(self) -> str:
        if self.packed:
            return f".reg .b32 {self.prefix}<{-(-self.size // 2)}>;"
        return f".reg .b{REG_BITS[self.tensor.bits]} {self.prefix}<{self.size}>;"


def tiles(check: Check, packed=frozenset()) -> dict[str, Tile]:
    """The default naming of every register tensor of ``check``; the tensors in ``packed``
    (``packable``) are held in 32-bit pairs."""
    out, used = {}, set()
    for k, (name, t) in enumerate(check.tensors.items()):
        if not t.is_register:
            continue
        base = PACKED if name in packed else PREFIX[t.bits]
        prefix = base if base not in used else f"{base}{k}_"
        used.add(base)
        out[name] = Tile(t, prefix, _size(t), name in packed)
    return out


def packable(check: Check, operands) -> frozenset:
    """The register tensors the default naming holds packed: 16-bit, named only by ldmatrix /
    stmatrix (``proofs.registers.packed``), and every instruction's word pair ``2i, 2i+1`` in
    slots ``2m, 2m+1``.  ``operands``: the plan's operand model per application (role -> Operand)."""
    out = set()
    for name, t in check.tensors.items():
        if not t.is_register or not packed(check, name):
            continue
        ok = True
        for a in check.applies:
            if a.register.tensor == name:
                s = slots(operands[a.index]["register"])
                ok &= bool(s.shape[1] % 2 == 0 and (s[:, 0::2] % 2 == 0).all() and (s[:, 1::2] == s[:, 0::2] + 1).all())
        if ok:
            out.add(name)
    return frozenset(out)


def naming(tile: Tile, registers) -> Callable[[int], str]:
    """Slot -> register name: the default, a prefix string, a mapping, or a function."""
    if registers is None:
        return tile.name
    if isinstance(registers, str):
        return lambda s: f"{registers}{s}"
    if isinstance(registers, Mapping):
        def lookup(s):
            try:
                return registers[s]
            except KeyError:
                raise KeyError(f"registers has no name for slot {s} of {tile.tensor.name}") from None
        return lookup
    if callable(registers):
        return registers
    raise TypeError("registers must be None, a prefix like '%f', a mapping slot -> name, or a function")


def slots(op: Operand) -> np.ndarray:
    """The register slot of every (repeat, word) coordinate: shape (repeats, vector)."""
    lin = op.linear(op.comps[OFFSET])
    shape = (int(np.prod(op.repeat_shape)), op.vector)
    if lin is not None and lin.thread.is_const:
        dot = integer_dot(lin, op.digits(), shape)
        if dot is not None:
            return lin.thread.constant + dot
    out = np.empty(shape, dtype=np.int64)
    for i, rep in enumerate(op.repeats()):
        for w in range(op.vector):
            s = op.at(rep, w)[OFFSET]
            if not s.is_const:
                return _thread_invariant_slots(op, shape, s)
            out[i, w] = s.constant
    return out


def _thread_invariant_slots(op: Operand, shape, example) -> np.ndarray:
    """Slots whose polynomial mentions the thread (a nested mode mixing a lane sub-mode with
    slot sub-modes) may still be the same for every thread: decide it on the concrete semantics,
    every group coordinate of every (repeat, word), and use them if so."""
    groups = list(np.ndindex(*op.check.group_shape(op.apply.scope)))
    if len(groups) * shape[0] * shape[1] > 4_000_000:
        raise EmitError(f"the register slot of {op.tensor.name} depends on the thread or a symbol ({example}) "
                        "and the tile is too large to show otherwise: PTX names registers statically")
    t = op.tensor
    read = [*op.view.starts, *_leaves(t.layout.stride), t.offset]  # what the evaluation reads
    symbols = sorted({n for x in read for n in names_of(x)})
    if symbols:
        raise EmitError(f"the register slot of {t.name} depends on symbol {symbols[0]}: "
                        "PTX names registers statically")
    out = np.empty(shape, dtype=np.int64)
    ints = crd2idx.Ints()
    for i, rep in enumerate(np.ndindex(*op.repeat_shape)):
        for w in range(op.vector):
            seen = {crd2idx.operand_value(t, op.view, (*g, *rep, w), ints)[OFFSET] for g in groups}
            if len(seen) != 1:
                raise EmitError(f"the register slot of {t.name} at repeat {rep}, word {w} differs between "
                                f"threads ({sorted(seen)[:4]}): PTX names registers statically")
            out[i, w] = seen.pop()
    return out


def _size(t: Tensor) -> int:
    symbols = t.layout.symbols(t.offset)
    if symbols:
        raise EmitError(f"register tensor {t.name}: its slots depend on symbol {symbols[0]}")
    return t.layout.cosize({}, t.offset)
