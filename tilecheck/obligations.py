"""The obligations' records, in the order they are decided: name, prerequisites, severity, the docs
table's row, the hardware prediction, the state spaces and families they apply to -- everything
but the function that decides each one.

This module imports no obligation, so that the check model (``check.py``: ``require``,
``expect``) reads the records below the proofs; ``proofs/registry.py`` binds each record to its
module (``REGISTRY``) and re-exports every name here.  The report, the fuzz summary, the docs
table (``docs/check-file.md``, held to ``doc_row`` by ``tests/test_registry.py``) and the
hardware predictions of ``tilecheck run --unchecked`` all iterate the records in this order; a
family (``tilecheck/families/``) names the obligations that apply to it.  Adding an obligation is
one module in ``proofs/``, one record here and its module in ``proofs/registry.py``.
"""
from __future__ import annotations

from dataclasses import dataclass

CONTRACT, PERFORMANCE = "contract", "performance"

# what the hardware does when a plan refuted on an obligation is forced through (--unchecked)
DIFFERS = "output that differs from the numpy reference (or a fault)"
ILLEGAL = "an illegal-address fault, a write outside the buffer, or output that differs from the numpy reference"


@dataclass(frozen=True)
class Obligation:
    name: str
    needs: tuple[str, ...]  # prerequisites: proved first, else this one is skipped
    doc: str  # the docs table's "holds when" cell
    needs_on_load: tuple[str, ...] = ()  # extra prerequisites when the register operand is written
    severity: str = CONTRACT  # contract: a refutation blocks emission; performance: reported only
    hardware: str = DIFFERS  # the predicted behaviour of a forced refuted plan
    fault: str | None = None  # the CUDA error text the prediction expects, if a fault
    rank: int = 3  # which prediction wins when several obligations are refuted (lowest)
    per_memory_operand: bool = False  # stated on q.memory: decided once per memory operand of the family
    spaces: tuple[str, ...] = ()  # only on memory operands in these state spaces (absent if the apply has none)
    guarded_only: bool = False  # decided only for an application with ``guard = true``
    module: object = None  # violation(q) -> Violation: bound by proofs/registry.py (None in RECORDS)

    def prerequisites(self, is_load: bool) -> tuple[str, ...]:
        return self.needs + (self.needs_on_load if is_load else ())

    def roles(self, check, apply) -> tuple[str, ...] | None:
        """The memory operands this obligation is decided on (``spaces``: those whose tensor lives
        there; none: it does not apply), or None when it is not restricted by space."""
        if not self.spaces:
            return None
        return tuple(x.role for x in check.accesses_of(apply) if x.memory and x.space in self.spaces)

    @property
    def needs_doc(self) -> str:
        out = ", ".join(self.needs)
        if self.needs_on_load:
            out += f" (+ {', '.join(self.needs_on_load)} for loads)"
        return out

    @property
    def doc_row(self) -> str:
        """This obligation's row of the docs table."""
        return f"| `{self.name}` | {self.doc} | {self.needs_doc + ' ' if self.needs_doc else ''}| {self.severity} |"


RECORDS: dict[str, Obligation] = {o.name: o for o in (
    Obligation("target", (),
               "the opcode is a legal PTX ld/st form for `arch` under PTX ISA 9.0 (ptxas 13.0); `.v8` of "
               "8/16-bit types is refuted (ptxas miscompiles it)",
               hardware="ptxas or the driver rejects the module, or the output differs from the numpy reference",
               rank=2),
    Obligation("space", (),
               "the memory operand's scope is the opcode's state space (`.global`, `.shared`/`.shared::cta`, "
               "`.local`), the other operand is `register`; an `ld.global.nc` reads a tensor that no application "
               "of the check stores to (`.nc` data must be read-only for the whole kernel)"),
    Obligation("shape", (), "both operands view as `(*group, *repeat, word)`"),
    Obligation("width", (), "both tensors' element width equals the opcode's type width"),
    Obligation("operands", (),
               "`cache_policy` exactly with `.L2::cache_hint`; `preserve_dst` only on a predicated or guarded load"),
    Obligation("guard", ("shape", "space"),
               "(`guard = true` only) no atom of the guarded operand straddles its tensor's edge: word 0's index "
               "is in bounds exactly when every word's is, so the emitted guard is exact both ways",
               hardware=ILLEGAL, rank=1, guarded_only=True),
    Obligation("contiguity", ("shape", "space"),
               "for every group and repeat coordinate the memory words are at element offsets "
               "`base, …, base+V-1`", per_memory_operand=True),
    Obligation("alignment", ("shape", "space", "width", "contiguity"),
               "`align` is a multiple of the vector's bytes and every atom's first byte offset is too",
               hardware="the launch ends in CUDA's 'misaligned address' error", fault="misaligned address",
               rank=0, per_memory_operand=True),
    Obligation("ownership", ("shape", "space"),
               "every register element named belongs to the issuing thread (thread: no thread components; "
               "warp: laneid = lane, no warpid/tid; cta: `32*warpid + laneid + tid` = `32*warp + lane`)"),
    Obligation("disjoint", ("shape", "space"),
               "load: one thread's slots are pairwise distinct over (repeat, word); store: memory words are "
               "pairwise distinct over every access that can race: `.local` one thread's own (repeat, word) "
               "(local memory is per thread), `.shared` every thread of the CTA, repeat and word, `.global` the "
               "same and, when a symbol is bound to `%ctaid`, every access of another CTA",
               needs_on_load=("ownership",)),
    Obligation("bounds", ("shape", "space"),
               "every extent of an operand's tensor is positive, every slice is inside its tensor and every "
               "accessed offset is in `[0, extent)`: the declared extent, 1 + the largest unswizzled offset "
               "(a swizzled offset is held to it, not to the swizzle's rounded cosize)",
               hardware=ILLEGAL, rank=1),
    Obligation("overflow", ("shape", "space", "bounds"),
               "every accessed byte offset is in `[0, 2^32)` (shared, local) or `[0, 2^64)` (global)",
               hardware=ILLEGAL, rank=1, per_memory_operand=True),
    Obligation("registers", (),
               "the register tiles the applications name need at most `min(255, share)` 32-bit registers per "
               "thread: distinct slots, a 64-bit slot 2, an 8/16-bit slot 1; `share` = `8 * (256 // warps)`, the "
               "CTA's part of the SM's 65536 (the message gives the number either way)",
               severity=PERFORMANCE,
               hardware="ptxas spills registers to local memory (slower); the output equals the numpy reference",
               rank=4),
    Obligation("banks", ("shape", "space", "width", "contiguity", "alignment", "bounds"),
               "each warp-instruction on a `.shared` operand takes the ideal number of wavefronts (one per "
               "phase: 32/16/8 lanes for <=4/8/16-byte accesses), or at most `expect`'s; the message gives the "
               "exact count, maximised over symbols, warps, repeats and base addresses",
               severity=PERFORMANCE, per_memory_operand=True, spaces=("shared",),
               hardware="bank conflicts: extra wavefronts (slower); the output equals the numpy reference",
               rank=4),
    Obligation("sectors", ("shape", "space", "width", "contiguity", "alignment", "bounds"),
               "each warp-instruction on a `.global` operand touches `ceil(bytes / 32)` 32-byte sectors, or at "
               "most `expect`'s; the message gives the exact count, maximised like `banks`'",
               severity=PERFORMANCE, per_memory_operand=True, spaces=("global",),
               hardware="uncoalesced accesses: extra sectors (slower); the output equals the numpy reference",
               rank=4),
    # TMA copies (families/tma.py; proofs/tma_*.py)
    Obligation("tma_map", (),
               "(TMA copies) the `tensormap` exists and describes the global operand, its rank is the opcode's "
               "`.Nd` and the `coords`', its element width the shared tensor's; no interleave; swizzle none/32B/64B/"
               "128B; a concrete box's visits are the shared tensor's shape (outermost first)"),
    Obligation("tma_inner", ("tma_map",),
               "(TMA copies) `coords[0] * element size` is a multiple of 16 bytes",
               hardware="the launch ends in an illegal-instruction fault", fault="illegal instruction", rank=0),
    Obligation("tma_smem", ("tma_map",),
               "(TMA copies) the shared address (`align`, plus `offset * element size`) is a multiple of 128 bytes, "
               "and with a swizzled map `align` is a multiple of the pattern's repeat (256/512/1024 bytes)",
               hardware="an illegal-instruction fault, or output that differs from the numpy reference", rank=0),
    Obligation("tma_landing", ("tma_map", "tma_smem"),
               "(TMA copies) the shared tensor's declared layout is where TMA writes every box element (box order, "
               "element strides, the swizzle anchored at address 0); the box concrete"),
    Obligation("tma_tx", ("tma_map",),
               "(TMA loads) `expect_tx` equals the bytes delivered: element size * the box's visits (elements "
               "outside the tensor included) * the CTAs of `cta_mask`, and is at most 2^20 - 1",
               hardware="the kernel waits forever on its mbarrier (a hang, ended by the launch timeout)", rank=1),
    Obligation("tma_box", ("tma_map",),
               "(TMA copies) every element the box visits is inside the tensor (else a load fills it with zero or "
               "NaN and counts it, a store skips it)",
               severity=PERFORMANCE,
               hardware="defined: the box's elements outside the tensor are filled (loads) or skipped (stores)",
               rank=4),
)}

NAMES: tuple[str, ...] = tuple(RECORDS)


PERFORMANCE_NAMES: tuple[str, ...] = tuple(n for n, o in RECORDS.items() if o.severity == PERFORMANCE)

