"""What a family's own lowering (``Family.lower``: an engine copy, one instruction for a whole box)
may ask of the emitter: ``Services``.  The kernel (kernel.py) and the fragments (fragment.py) each
build one over their arithmetic and their names for bases, tensor maps and symbols; the family
spells its instructions from what it gets here and names no register of its own choosing."""
from __future__ import annotations

from typing import Callable

from ..check import Check
from ..expr import to_poly
from ..poly import Poly
from .address import addresses
from .arith import Arith
from .operand import TID

SPACE_BITS = {"global": 64, "shared": 32, "local": 32}


class Services:
    """``check``, ``arith`` (the emission's arithmetic), ``model`` (its operand model: context and
    symbols), ``base(tensor)`` (the register holding a memory tensor's base address in its state
    space), ``tensormap(name)`` (a .b64 register holding a tensor map's generic address), ``declare``
    (where scratch ``.shared`` declarations go), ``labels`` (a counter shared with the emitter's own
    labels), ``policy`` (the L2 cache-policy register of ``.L2::cache_hint``, or None)."""

    def __init__(self, check: Check, arith: Arith, model, base: Callable[[str], str],
                 tensormap: Callable[[str], str], declare: list, labels: Callable[[], int], policy: str | None):
        self.check, self.arith, self.model = check, arith, model
        self._base, self._tensormap, self._declare, self._labels = base, tensormap, declare, labels
        self.policy = policy
        # a whole kernel's waits give up after this many tries (None: wait for ever, a fragment's): the
        # GPU tests' kernel shows a copy that never completes as unwritten elements, not as a hang
        self.patience: int | None = None
        self._issuer: str | None = None
        self._shared: dict[str, str] = {}

    def value(self, expr, bits: int = 32) -> str:
        """A register or an immediate holding ``expr`` (an int or an expression of the symbols) modulo
        ``2**bits``, computed once per thread with the emitter's arithmetic."""
        return self.arith.value(to_poly(expr, self.model.ctx, self.model.symbols), bits)

    def register(self, expr, bits: int = 32) -> str:
        """``value`` always in a register (an instruction that takes no immediate there)."""
        v = self.value(expr, bits)
        return v if v.startswith("%") else self.arith.op(bits, f"mov.b{bits}", v)

    def start(self, tensor: str) -> str:
        """A register holding the address of ``tensor``'s first element *before* its layout's swizzle:
        its base plus ``offset`` elements (32-bit for shared, 64-bit for global) -- what an engine that
        swizzles the address itself (TMA) takes."""
        t = self.check.tensors[tensor]
        offset = to_poly(t.offset, self.model.ctx, self.model.symbols) * t.esize
        return self.arith.offset(self._base(tensor), offset, SPACE_BITS[t.scope])

    def address(self, a, role: str) -> str:
        """The address of the first atom of ``a``'s memory operand ``role`` as the operand model places it
        (``reg`` or ``reg+imm``, in the viewed tensor's state space): where an engine copy of one
        contiguous run starts."""
        view = getattr(a, role)
        t = self.check.tensors[view.tensor]
        w = addresses(self.model.applies[a.index][role], self.arith, self._base(view.tensor), SPACE_BITS[t.scope])
        r, i = w.registers[int(w.which[0, 0])], int(w.imm[0, 0])
        return f"{r}+{i}" if i else r

    def tensormap(self, name: str) -> str:
        """A .b64 register holding the generic address of tensor map ``name`` (a kernel parameter)."""
        return self._tensormap(name)

    def shared(self, name: str, ptx_type: str = ".b64", align: int = 8, declare: bool = True) -> str:
        """A scratch ``.shared`` variable of the kernel (an mbarrier), declared once; its name.
        ``declare=False``: another application's (a phase's barrier, declared by its first copy: a
        fragment of a later copy names it without declaring it again)."""
        if name not in self._shared:
            if declare:
                self._declare.append(f".shared .align {align} {ptx_type} {name};")
            self._shared[name] = name
        return self._shared[name]

    def new(self, kind) -> str:
        """A fresh register: 64, 32, 16 bits or "pred"."""
        return self.arith.regs.new(kind)

    def label(self, tag: str) -> str:
        """A fresh label ``$<tag><n>``."""
        return f"${tag}{self._labels()}"

    def issuer(self) -> str:
        """A .pred register true on exactly one thread of the CTA (``%tid.x == 0``): the thread that
        issues a copy the whole CTA then waits for."""
        if self._issuer is None:
            tid = self.arith.value(Poly.var(TID), 32)
            self._issuer = self.new("pred")
            self.arith.emit(f"setp.eq.u32 {self._issuer}, {tid}, 0;")
        return self._issuer


def indent(lines) -> list[str]:
    """A family's lines (no tab) as the emitter's: a tab before each, labels at the margin."""
    return [x if x.endswith(":") else "\t" + x for x in lines]
