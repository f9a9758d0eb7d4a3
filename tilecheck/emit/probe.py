"""A minimal kernel around one application's fragment, to count what ptxas makes of it.

The kernel's parameters are the memory tensor's base (for shared and local
memory: an offset into the probe's array), a *mirror* buffer and the symbols.  A load's registers go to the mirror by the mirror-image instruction
(``st.global.v4.b32`` for ``ld.global.v4.b32``: same registers, one per repeat),
a store's registers come from it the same way, so ptxas keeps every instruction
and the module holds exactly two memory instructions per repeat — one the
application's, one the mirror's (of the other direction, in global memory) — and
the address arithmetic.  ``bench/bench_emit.py`` measures the emitter's
non-memory instructions per memory instruction on it; the tests count its SASS.
"""
from __future__ import annotations

from .. import families
from .fragment import fragment, require_plan
from .kernel import version

ARRAY = 32 * 1024  # bytes of the probe's shared or local array


def probe(plan, apply: int = 0, name: str = "tilecheck_probe", pred: bool = True) -> str:
    check = require_plan(plan).check
    a = check.applies[apply]
    mem = check.tensors[a.memory.tensor]
    syms = [s.name for s in check.symbols.values() if not s.source]
    f = fragment(plan, apply, base={mem.name: "%base"}, symbols={n: f"%sym_{n}" for n in syms},
                 pred="%guard", policy="%policy", scratch="%t")
    vec, bits = a.opcode.vector, mem.bits
    mirror = families.of(a.opcode).mirror(a, vec, bits)
    out = []
    # a guarded load's body also zeroes its registers (mov): mirror the memory instructions only
    for k, line in enumerate(line for line in f.body if not line.lstrip().startswith("mov.")):
        regs = line.split("{")[1].split("}")[0] if vec > 1 else \
            (line.split()[-2].rstrip(",") if a.is_load else line.rstrip(";").split()[-1])
        regs = f"{{{regs}}}" if vec > 1 else regs
        addr = f"[%mirror+{k * vec * bits // 8}]"
        out.append(f"\t{mirror} {addr}, {regs};" if a.is_load else f"\t{mirror} {regs}, {addr};")
    if mem.scope == "global":
        get_base = ["\tld.param.u64 %base, [base];", "\tcvta.to.global.u64 %base, %base;"]
        decl = ["\t.reg .b64 %base;"]
    else:  # the array at a run-time offset (0), so that ptxas cannot keep a local array in registers
        decl = ["\t.reg .b32 %base, %array;", f"\t.{mem.scope} .align 16 .b8 probe_array[{ARRAY}];"]
        get_base = ["\tld.param.u32 %base, [base];", "\tmov.u32 %array, probe_array;",
                    "\tadd.u32 %base, %base, %array;"]
    major, minor = version(check)
    params = [f"\t.param .{'u64' if mem.scope == 'global' else 'u32'} base", "\t.param .u64 mirror_param", *(f"\t.param .s64 {n}" for n in syms)]
    lines = [f".version {major}.{minor}", f".target {check.arch}", ".address_size 64", "",
             f".visible .entry {name}(", ",\n".join(params), ")", "{", *decl,
             "\t.reg .b64 %mirror, %policy;", "\t.reg .pred %guard;",
             *(f"\t.reg .b64 %sym_{n};" for n in syms), *("\t" + d for d in f.declarations),
             *get_base, "\tld.param.u64 %mirror, [mirror_param];", "\tcvta.to.global.u64 %mirror, %mirror;",
             *(f"\tld.param.s64 %sym_{n}, [{n}];" for n in syms),
             f"\tsetp.{'ne' if pred else 'eq'}.u64 %guard, %mirror, 0;",
             "\tcreatepolicy.fractional.L2::evict_last.b64 %policy, 1.0;" if "policy" in a.family.uses(a) else "",
             *f.setup, *([] if a.is_load else out), *f.body, *(out if a.is_load else []), "\tret;", "}", ""]
    return "\n".join(lines)
