"""Emitted kernels executed by a small PTX interpreter and compared with the numpy reference.

The interpreter reads only the PTX text (the instruction subset the emitter writes:
integer arithmetic, predicates, branches, ``bar.sync`` and ld/st of any width), runs
every thread of every CTA with its own registers, and traps any access outside a
buffer or array.  The expected buffers come from ``tilecheck.gpu.reference``, the
same model the GPU tests compare real runs with; so this checks the kernel ABI and
every emitted address and register, on machines without a GPU.
"""
import re

import numpy as np
import pytest

import tilecheck
from tilecheck.emit import fragment, kernel
from tilecheck.gpu.reference import bind_symbols, reference

from test_emit import CASES, plan_of

GLOBAL = 1 << 40  # buffer k lives at (k + 1) << 40
BITS = {"8": 8, "16": 16, "32": 32, "64": 64}
_REG = re.compile(r"^%[\w$]+$")


class Trap(Exception):
    """The kernel did something the interpreter (or a GPU) would fault on."""


def _split(operands: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in operands:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Program:
    """A parsed .entry: parameters, arrays, instructions and labels."""

    def __init__(self, ptx: str):
        head, _, body = ptx.partition("{")
        body = body.rsplit("}", 1)[0]
        self.params = re.findall(r"\.param \.(u64|s64) (\w+)", head)
        self.arrays, self.code, self.labels = {}, [], {}
        for raw in body.splitlines():
            line = raw.split("//")[0].strip()
            if not line or line.startswith((".reg", ".pragma")):
                continue
            m = re.match(r"\.(shared|local) \.align (\d+) \.b8 (\w+)\[(\d+)\];", line)
            if m:
                self.arrays[m.group(3)] = (m.group(1), int(m.group(2)), int(m.group(4)))
                continue
            if line.endswith(":"):
                self.labels[line[:-1]] = len(self.code)
                continue
            guard = None
            g = re.match(r"@(!?)(%\w+)\s+(.*)", line)
            if g:
                guard, line = (g.group(1) == "!", g.group(2)), g.group(3)
            op, _, rest = line.rstrip(";").partition(" ")
            self.code.append((guard, op, _split(rest)))


class Machine:
    """Runs a Program on buffers: one CTA at a time, threads interleaved at ``bar.sync``."""

    def __init__(self, prog: Program, buffers: list[bytearray], args: dict, threads: int):
        self.prog, self.buffers, self.args, self.threads = prog, buffers, args, threads
        self.layout, top = {}, 0
        for name, (space, align, size) in prog.arrays.items():
            top = -(-top // align) * align + align  # never at address 0
            self.layout[name] = (space, top, size)
            top += size
        self.space_size = top + 16

    def run(self, grid: int = 1):
        for cta in range(grid):
            shared = bytearray(self.space_size)
            threads = [self._thread(t, cta, shared) for t in range(self.threads)]
            while threads:
                alive = []
                for th in threads:
                    try:
                        next(th)
                        alive.append(th)
                    except StopIteration:
                        pass
                if alive and len(alive) != len(threads):
                    raise Trap("some threads exited while others wait at bar.sync")
                threads = alive

    # one thread -------------------------------------------------------------
    def _thread(self, tid, cta, shared):
        regs, local, pc = {}, bytearray(self.space_size), 0
        code, labels = self.prog.code, self.prog.labels
        steps = 0

        def val(x):
            if x == "%tid.x":
                return tid
            if x.startswith(("%ctaid.", "%tid.")):  # a launch of (threads, 1, 1) x (grid, 1, 1)
                return cta if x == "%ctaid.x" else 0
            if x in self.layout:
                return self.layout[x][1]
            if _REG.match(x):
                if x not in regs:
                    raise Trap(f"register {x} read before written (thread {tid})")
                return regs[x]
            return int(x, 0)

        def addr(x):
            m = re.fullmatch(r"\[(%?[\w$]+)(?:\+(-?\d+))?\]", x)
            return val(m.group(1)), int(m.group(2) or 0)

        while True:
            steps += 1
            if steps > 10_000_000:
                raise Trap("too many steps")
            guard, op, a = code[pc]
            pc += 1
            if guard is not None:
                neg, p = guard
                if regs[p] == neg:
                    continue
            parts = op.split(".")
            name = parts[0]
            if name == "ret":
                return
            if name == "bar":
                yield
                continue
            if name == "bra":
                pc = labels[a[0]]
                continue
            if name in ("ld", "st") and parts[1] == "param":
                regs[a[0]] = self.args[a[1][1:-1]]
                continue
            if name in ("ld", "st"):
                self._memory(parts, a, regs, val, addr, shared, local, tid)
                continue
            if name == "createpolicy":
                regs[a[0]] = 0x1234
                continue
            if name == "cvta":
                regs[a[0]] = val(a[1])
                continue
            bits = int(re.sub(r"\D", "", parts[-1]) or 64)
            mask = (1 << bits) - 1
            signed = parts[-1].startswith("s")

            def s(v):
                v &= mask
                return v - (1 << bits) if signed and v >> (bits - 1) else v
            if name == "setp":
                x, y = s(val(a[1])), s(val(a[2]))
                regs[a[0]] = {"ne": x != y, "eq": x == y, "ge": x >= y, "lt": x < y, "gt": x > y,
                              "le": x <= y}[parts[1]]
                continue
            if name == "selp":
                regs[a[0]] = val(a[1]) if regs[a[3]] else val(a[2])
                continue
            if name == "cvt":
                src_bits = int(re.sub(r"\D", "", parts[2]))
                regs[a[0]] = val(a[1]) & ((1 << src_bits) - 1) & ((1 << int(parts[1][1:])) - 1)
                continue
            x = [val(v) for v in a[1:]]
            if name == "mov":
                r = x[0]
            elif name == "add":
                r = s(x[0]) + s(x[1])
            elif name == "sub":
                r = s(x[0]) - s(x[1])
            elif name in ("mul", "mad") and parts[1] == "wide":  # 32 x 32 -> 64 (+ a 64-bit addend)
                r = s(x[0]) * s(x[1]) + (x[2] if name == "mad" else 0)
                mask = (1 << (2 * bits)) - 1
            elif name == "mul" and parts[1] == "hi":
                r = (s(x[0]) * s(x[1])) >> bits
            elif name == "mul":
                r = s(x[0]) * s(x[1])
            elif name == "shr":
                r = s(x[0]) >> x[1]
            elif name == "and":
                r = x[0] & x[1]
            elif name == "xor":
                r = x[0] ^ x[1]
            elif name == "mad":
                r = s(x[0]) * s(x[1]) + s(x[2])
            elif name in ("div", "rem"):
                n, d = s(x[0]), s(x[1])
                q = abs(n) // abs(d) * (1 if (n >= 0) == (d > 0) else -1)  # truncating, like PTX
                r = q if name == "div" else n - q * d
            else:
                raise Trap(f"unknown instruction {op}")
            regs[a[0]] = r & mask

    def _memory(self, parts, a, regs, val, addr, shared, local, tid):
        space = next(p for p in parts if p in ("global", "shared", "local") or p.startswith("shared::"))
        space = "shared" if space.startswith("shared") else space
        vec = next((int(p[1:]) for p in parts if re.fullmatch(r"v\d", p)), 1)
        bits = int(re.sub(r"\D", "", parts[-1]))
        nbytes = bits // 8
        load = parts[0] == "ld"
        regs_text, where = (a[0], a[1]) if load else (a[1], a[0])
        names = [r.strip() for r in regs_text.strip("{}").split(",")]
        assert len(names) == vec, (parts, a)
        base, imm = addr(where)
        ad = base + imm
        if ad % (vec * nbytes):
            raise Trap(f"misaligned {'.'.join(parts)} at {ad:#x} (thread {tid})")
        if space == "global":
            k, off = (ad >> 40) - 1, ad & (GLOBAL - 1)
            if not 0 <= k < len(self.buffers):
                raise Trap(f"global address {ad:#x} is in no buffer (thread {tid})")
            mem = self.buffers[k]
        else:
            mem, off = (shared if space == "shared" else local), ad
            if not any(s == space and lo <= off and off + vec * nbytes <= lo + n
                       for s, lo, n in self.layout.values()):
                raise Trap(f"{space} address {off:#x} is outside every {space} array (thread {tid})")
        if off < 0 or off + vec * nbytes > len(mem):
            raise Trap(f"{space} access [{off}, {off + vec * nbytes}) outside a buffer of {len(mem)} bytes")
        for i, r in enumerate(names):
            o = off + i * nbytes
            if load:
                regs[r] = int.from_bytes(mem[o:o + nbytes], "little")
            else:
                mem[o:o + nbytes] = (val(r) & ((1 << bits) - 1)).to_bytes(nbytes, "little")


def run_kernel(check, symbols=None, seed=0, pred=True):
    """Emit, run on the interpreter, and return (reference case, final buffers by tensor)."""
    plan = tilecheck.prove(check).plan
    ptx = kernel(plan, pred=pred)
    env = bind_symbols(check, symbols)
    case = reference(check, env, seed)
    prog = Program(ptx)
    names = list(check.tensors)
    buffers = [bytearray(case.inputs[n].tobytes()) for n in names]
    args = {}
    for k, (n, (_, pname)) in enumerate(zip(names, prog.params)):
        args[pname] = (k + 1) * GLOBAL
    for (_, pname), sym in zip(prog.params[len(names):], [s for s in check.symbols.values() if not s.source]):
        args[pname] = env[sym.name] & ((1 << 64) - 1)
    Machine(prog, buffers, args, check.threads).run(case.grid)
    out = {n: np.frombuffer(bytes(b), dtype=case.inputs[n].dtype) for n, b in zip(names, buffers)}
    return case, out


@pytest.mark.parametrize("name", list(CASES))
def test_kernel_matches_reference(name):
    check, symbols = CASES[name]
    for env in symbols or [None]:
        case, out = run_kernel(check, env, seed=len(name))
        for t in check.tensors:
            bad = np.flatnonzero(out[t] != case.expected[t])
            assert not bad.size, f"{name} {env}: {t} differs at elements {bad[:8].tolist()}"


def test_preserve_dst_keeps_the_destination_when_the_predicate_is_false():
    """With preserve_dst the kernel first reads the destination registers from their buffer; a false
    predicate leaves them as they were, so the buffer comes back unchanged."""
    check = CASES["pred-preserve"][0]
    case, out = run_kernel(check, pred=False)
    assert np.array_equal(out["R"], case.inputs["R"])
    assert np.array_equal(out["A"], case.inputs["A"])
    case, out = run_kernel(check, pred=True)
    assert np.array_equal(out["R"], case.expected["R"]) and not np.array_equal(out["R"], case.inputs["R"])


def test_without_preserve_dst_the_destination_is_not_read_first():
    """Without preserve_dst nothing defines the destination before the load: a false predicate leaves
    registers no instruction wrote, which the interpreter traps on when they are written back."""
    check = CASES["pred-load"][0]
    with pytest.raises(Trap, match="read before written"):
        run_kernel(check, pred=False)
    case, out = run_kernel(check, pred=True)
    assert np.array_equal(out["R"], case.expected["R"])


def test_fragment_runs_with_the_users_registers():
    """A fragment with user names, spliced into a hand-written kernel, loads what the reference says."""
    check = CASES["warp-nested-lanes"][0]
    plan = plan_of(check)
    names = {s: f"%f{s}" for s in range(16)}
    f = fragment(plan, 0, base={"A": "%in"}, registers=names, scratch="%q")
    regs = ", ".join(f"%f{s}" for s in range(16))
    ptx = "\n".join([".version 7.8", ".target sm_90", ".address_size 64",
                     ".visible .entry k(.param .u64 A, .param .u64 R)", "{",
                     ".reg .b64 %in, %out;", f".reg .b32 {regs};", *f.declarations,
                     "ld.param.u64 %in, [A];", "ld.param.u64 %out, [R];", *f.setup, *f.body,
                     # lane l writes its 4 repeats x 4 words to R[l, :, :] (row-major (32, 4, 4))
                     ".reg .b32 %t<3>; .reg .b64 %o<2>;", "mov.u32 %t1, %tid.x;",
                     "mul.wide.u32 %o1, %t1, 64;", "add.s64 %o1, %out, %o1;",
                     *[f"st.global.b32 [%o1+{4 * k}], %f{k};" for k in range(16)], "ret;", "}"])
    prog = Program(ptx)
    case = reference(check, {}, 3)
    bufs = [bytearray(case.inputs[n].tobytes()) for n in check.tensors]
    Machine(prog, bufs, {"A": GLOBAL, "R": 2 * GLOBAL}, check.threads).run()
    assert np.array_equal(np.frombuffer(bytes(bufs[1]), dtype=np.uint32), case.expected["R"])
