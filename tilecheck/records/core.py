"""The records of the obligations every ld/st-like family shares (``families/ldst.py`` and the
families built on its operand model): the target, the operands' spaces, shapes and widths, the
addresses' contiguity, alignment, bounds and overflow, ownership and races, and the performance
obligations (registers, banks, sectors).  Their modules are ``proofs/<name>.py``."""
from . import ILLEGAL, PERFORMANCE, Obligation

ORDER = 0

RECORDS = (
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
)
