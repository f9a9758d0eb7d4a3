"""The emitted mainloop executed by a small interpreter of its PTX, on machines without a GPU.

The interpreter reads only the PTX text ``emit.mainloop.ptx`` writes and runs every thread of every CTA
with its own registers: integer arithmetic, predicates, branches, ``bar.sync`` (every thread), the
mbarriers (``init``, ``arrive``, ``arrive.expect_tx``, the copies' ``complete_tx``, ``try_wait.parity`` by phase
parity), the TMA loads (each box element placed where ``tma_landing.TmaBox`` says, read from the global
tensor as the tensor map's dims and strides say, zero outside it; a destination outside the shared window
traps), ``wgmma.mma_async`` (every consumer thread at once; the descriptor uniform in each warpgroup; A and B read where
``smem_descriptor.hardware_address`` says the tensor cores read; D in the fragment of
``families/wgmma.accumulator``) and the guarded ``st.global.v2.f32`` (a store outside C traps).  TMA
completes at once; a wgmma reads shared memory as late as PTX allows (when a ``wait_group`` retires its
group: a stage refilled too early is read with the new data) and its accumulators may not be read before
then.  So this holds the kernel's arithmetic, coordinates, parities, descriptors and its refill order to
tilecheck's models, not the hardware's timing: ``tests/test_mainloop_gpu.py`` does that on the H200.
"""
import re

import numpy as np
import pytest

from tilecheck import mainloop as ml
from tilecheck import smem_descriptor as sd
from tilecheck.emit import mainloop as emit
from tilecheck.families import wgmma as wg
from tilecheck.gpu import mainloop as runner
from tilecheck.tma_landing import TmaBox

SMEM_BASE = 3072  # the dynamic shared buffer's address in the window: a multiple of 1024, not 0 (a test moves it)
PARAMS = {f"{emit.NAME}_ma": 0x1000, f"{emit.NAME}_mb": 0x2000, f"{emit.NAME}_c": 0x3000}
C_ADDR = 1 << 40
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


class Trap(Exception):
    pass


def _split(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "{["
        depth -= ch in "}]"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse(text):
    """(instructions, labels): each instruction (guard, negated, opcode, operands)."""
    body = text[text.index("{", text.index(".entry")) + 1:text.rindex("}")]
    ins, labels = [], {}
    for line in body.splitlines():
        line = line.split("//")[0].strip()
        if not line or line.startswith(".reg"):
            continue
        if line.endswith(":"):
            labels[line[:-1]] = len(ins)
            continue
        line = line.rstrip(";")
        guard, neg = None, False
        m = re.match(r"@(!?)(%\w+)\s+(.*)", line)
        if m:
            neg, guard, line = m.group(1) == "!", m.group(2), m.group(3)
        parts = line.split(None, 1)
        ins.append((guard, neg, parts[0], _split(parts[1]) if len(parts) > 1 else []))
    return ins, labels


CACHE = {}  # (descriptor word, rows, element bits) -> the addresses the tensor cores read


class Barrier:
    def __init__(self, count):
        self.expected = self.pending = count
        self.tx = 0
        self.completed = 0

    def _check(self):
        if self.pending == 0 and self.tx == 0:
            self.completed += 1
            self.pending = self.expected


class Cta:
    def __init__(self, plan, ins, labels, ctaid, a_vals, b_vals, c):
        self.plan, self.ins, self.labels, self.ctaid = plan, ins, labels, ctaid
        self.spec = plan.spec
        self.raw = SMEM_BASE  # the dynamic shared buffer's address (the kernel rounds it up to 1024)
        self.shared = np.zeros(SMEM_BASE + 2048 + self.spec.launch_bytes, dtype=np.uint8)
        self.bars = {}
        self.globals = {PARAMS[f"{emit.NAME}_ma"]: (plan.a, a_vals), PARAMS[f"{emit.NAME}_mb"]: (plan.b, b_vals)}
        self.c = c
        self.threads = self.spec.threads
        self.regs = [dict() for _ in range(self.threads)]
        self.pc = [0] * self.threads
        self.done = [False] * self.threads
        self.wgmmas = 0
        self.cache = CACHE
        self.open = [[] for _ in range(self.spec.wgs)]  # each warpgroup's wgmmas since its last commit
        self.groups = [[] for _ in range(self.spec.wgs)]  # its committed groups, not yet retired
        self.pending = set()  # accumulator registers an unretired wgmma writes

    # operands
    def val(self, t, x):
        r = self.regs[t]
        if x.startswith("%"):
            if x == "%tid.x":
                return t
            if x in ("%ctaid.x", "%ctaid.y"):
                return self.ctaid["xy".index(x[-1])]
            if x not in r:
                raise Trap(f"thread {t} reads {x} before writing it")
            if x in self.pending:
                raise Trap(f"thread {t} reads {x} while a wgmma writing it is in flight")
            return r[x]
        if x == f"{emit.NAME}_smem":
            return self.raw
        if x in PARAMS:
            return PARAMS[x]
        if x.startswith("0f"):
            return np.uint32(int(x[2:], 16)).view(np.float32)
        return int(x, 0)

    def addr(self, t, x):
        m = re.fullmatch(r"\[([^+\]]+)(?:\+(\d+))?\]", x)
        return self.val(t, m.group(1)) + int(m.group(2) or 0)

    def bar(self, a):
        if a not in self.bars:
            raise Trap(f"mbarrier at {a} was never initialised")
        return self.bars[a]

    def sh_check(self, a, n):
        if not (self.raw <= a and a + n <= self.raw + self.spec.launch_bytes):
            raise Trap(f"shared access [{a}, {a + n}) outside the buffer")

    # one thread's step; returns "ok", "bar", "wgmma", "commit", "wgwait", "wait", "exit"
    def step(self, t):
        guard, neg, op, args = self.ins[self.pc[t]]
        r = self.regs[t]
        if guard is not None and bool(r[guard]) == neg:
            self.pc[t] += 1
            return "ok"
        base = op.split(".")[0]
        nxt = self.pc[t] + 1
        v = lambda x: self.val(t, x)  # noqa: E731
        if op in ("mov.u32", "mov.b64", "mov.f32"):
            r[args[0]] = v(args[1])
        elif op in ("cvta.param.u64", "cvta.to.global.u64", "cvt.u64.u32"):
            r[args[0]] = v(args[1])
        elif op == "ld.param.u64":
            if args[1] != f"[{emit.NAME}_c]":
                raise Trap(f"ld.param of {args[1]}")
            r[args[0]] = C_ADDR
        elif op in ("add.u32", "add.u64"):
            r[args[0]] = (v(args[1]) + v(args[2])) & (M32 if op.endswith("32") else M64)
        elif op == "mul.lo.u32":
            r[args[0]] = (v(args[1]) * v(args[2])) & M32
        elif op == "mul.wide.u32":
            r[args[0]] = v(args[1]) * v(args[2])
        elif op == "rem.u32":
            r[args[0]] = v(args[1]) % v(args[2])
        elif op == "div.u32":
            r[args[0]] = v(args[1]) // v(args[2])
        elif op == "sub.u32":
            r[args[0]] = (v(args[1]) - v(args[2])) & M32
        elif op == "min.u32":
            r[args[0]] = min(v(args[1]), v(args[2]))
        elif op == "mad.lo.u32":
            r[args[0]] = (v(args[1]) * v(args[2]) + v(args[3])) & M32
        elif op in ("shl.b32", "shl.b64"):
            r[args[0]] = (v(args[1]) << v(args[2])) & (M32 if op.endswith("32") else M64)
        elif op == "shr.u32":
            r[args[0]] = v(args[1]) >> v(args[2])
        elif op in ("and.b32", "or.b64", "xor.b32"):
            f = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b}[base]
            r[args[0]] = f(v(args[1]), v(args[2]))
        elif op == "and.pred":
            r[args[0]] = bool(v(args[1])) and bool(v(args[2]))
        elif op == "or.pred":
            r[args[0]] = bool(v(args[1])) or bool(v(args[2]))
        elif op.startswith("setp."):
            a, b = v(args[1]), v(args[2])
            r[args[0]] = {"eq": a == b, "lt": a < b, "ne": a != b, "ge": a >= b, "gt": a > b}[op.split(".")[1]]
        elif op in ("bra", "bra.uni"):
            nxt = self.labels[args[0]]
        elif op == "trap":
            raise Trap(f"thread {t} trapped")
        elif op == "ret":
            self.done[t] = True
            return "exit"
        elif op.startswith("fence.") or op == "wgmma.fence.sync.aligned":
            pass
        elif op == "wgmma.commit_group.sync.aligned":
            return "commit"
        elif op == "wgmma.wait_group.sync.aligned":
            return "wgwait"
        elif op == "bar.sync":
            return "bar"
        elif op.startswith("wgmma.mma_async"):
            return "wgmma"
        elif op == "mbarrier.init.shared::cta.b64":
            a = self.addr(t, args[0])
            self.sh_check(a, 8)
            if a < self.raw + self.spec.bar_offset or a % 8:
                raise Trap(f"mbarrier at {a} inside the ring or unaligned")
            self.bars[a] = Barrier(v(args[1]))
        elif op == "mbarrier.arrive.shared::cta.b64":
            b = self.bar(self.addr(t, args[1]))
            b.pending -= 1
            if b.pending < 0:
                raise Trap(f"more arrivals than the barrier's count at {self.addr(t, args[1])}")
            b._check()
        elif op == "mbarrier.arrive.expect_tx.shared::cta.b64":
            b = self.bar(self.addr(t, args[1]))
            b.tx += v(args[2])
            b.pending -= 1
            b._check()
        elif op.startswith("cp.async.bulk.tensor"):
            self.tma(t, args)
        elif op == "mbarrier.try_wait.parity.shared::cta.b64":
            b = self.bar(self.addr(t, args[1]))
            done = b.completed % 2 != v(args[2])
            r[args[0]] = done
            if not done:
                self.pc[t] = nxt
                return "wait"
        elif op == "st.global.v2.f32":
            a = self.addr(t, args[0])
            vals = [v(x.strip()) for x in args[1].strip("{}").split(",")]
            off = a - C_ADDR
            if off % 8 or not 0 <= off <= self.c.nbytes - 8:
                raise Trap(f"thread {t} stores at C + {off}: outside C ({self.c.nbytes} bytes) or unaligned")
            self.c.reshape(-1)[off // 4:off // 4 + 2] = vals
        else:
            raise Trap(f"the interpreter does not know {op}")
        self.pc[t] = nxt
        return "ok"

    def tma(self, t, args):
        dst = self.addr(t, args[0])
        m = re.fullmatch(r"\[(%\w+), \{(.*)\}\]", args[1])
        mp, coords = self.val(t, m.group(1)), [self.val(t, x.strip()) for x in m.group(2).split(",")]
        bar = self.bar(self.addr(t, args[2]))
        opl, vals = self.globals[mp]
        tm = opl.tmap
        box = TmaBox(self.spec.esize, tuple(tm["box"]), tuple(tm["element_strides"]), tm["swizzle"])
        self.sh_check(dst, box.footprint)
        e = self.spec.esize
        k = [x.reshape(-1) for x in np.indices(box.shape)]  # every visited element, dimension 0 first
        src = box.source(coords, k)
        inside = np.ones(k[0].shape, dtype=bool)
        for c, d in zip(src, tm["dims"]):
            inside &= (c >= 0) & (c < d)
        byte = src[0] * e
        for c, st in zip(src[1:], tm["strides"]):
            byte = byte + c * st
        flat = vals.reshape(-1)
        x = np.where(inside, flat[np.where(inside, byte // e, 0)], 0).astype(flat.dtype)
        a = box.address(dst, k)
        for i in range(e):  # little-endian bytes of each element
            self.shared[a + i] = (x.astype(np.uint64) >> np.uint64(8 * i)).astype(np.uint8)
        bar.tx -= box.nbytes
        bar._check()

    def collective(self, kind):
        """wgmma.mma_async, commit_group, wait_group: every thread of the CTA at the same pc.  The tensor
        cores read shared memory as late as PTX allows (when a wait_group retires the group), so a stage
        refilled before its wgmmas are waited for is read with the new data: a wrong product."""
        consumers = range(self.spec.consumers)
        pcs = {self.pc[t] for t in consumers}
        if len(pcs) != 1 or any(self.done[t] for t in consumers):
            raise Trap(f"{kind} reached at different instructions {sorted(pcs)}")
        _, _, op, args = self.ins[self.pc[0]]
        for g in range(self.spec.wgs):
            group = range(128 * g, 128 * g + 128)
            if kind == "wgmma":
                descs = {(self.val(t, args[1]), self.val(t, args[2])) for t in group}
                if len(descs) != 1:
                    raise Trap("the descriptors differ across the warpgroup")
                scales = {bool(self.val(t, args[3])) for t in group}
                self.open[g].append((*descs.pop(), args[0].strip("{}").split(", "), scales.pop()))
                self.wgmmas += 1
            elif kind == "commit":
                self.groups[g].append(self.open[g])
                self.open[g] = []
            else:
                keep = int(args[0])
                while len(self.groups[g]) > keep:
                    for mma in self.groups[g].pop(0):
                        self.retire(g, *mma)
        self.pending = {r for g in range(self.spec.wgs) for grp in self.groups[g] + [self.open[g]]
                        for _, _, regs, _ in grp for r in regs}
        for t in consumers:
            self.pc[t] += 1

    def retire(self, g, da, db, regs, scale):
        n = self.spec.bn
        rows, cols = wg.elements(wg.accumulator(n), n)
        prod = self.read(da, 64) @ self.read(db, n).T
        for t in range(128 * g, 128 * g + 128):
            for i, reg in enumerate(regs):
                old = self.regs[t].get(reg, np.float32(0)) if scale else np.float32(0)
                self.regs[t][reg] = np.float32(old + prod[rows[t - 128 * g, i], cols[t - 128 * g, i]])

    def read(self, word, rows):
        """The (rows, K) tile the tensor cores read through ``word``: ``hardware_address`` of each element."""
        s = self.spec
        key = (word, rows, s.elem_bits)
        if key not in self.cache:
            f = sd.unpack(word)
            self.cache[key] = np.array([[sd.hardware_address(f, "K", s.elem_bits, (rows, s.ik), i, j)
                                         for j in range(s.ik)] for i in range(rows)], dtype=np.int64)
        a = self.cache[key]
        self.sh_check(int(a.min()), 0)
        self.sh_check(int(a.max()), s.esize)
        raw = np.stack([self.shared[a + i] for i in range(s.esize)], axis=-1)
        return decode(raw, s.dtype)

    def run(self):
        limit, last = 10_000_000, None
        while not all(self.done):
            state = {}
            for t in range(self.threads):
                if self.done[t]:
                    continue
                while True:
                    limit -= 1
                    if limit < 0:
                        raise Trap("the interpreter's step limit")
                    st = self.step(t)
                    if st == "ok":
                        continue
                    if st == "wait":  # try_wait false: the thread spins; give the others a turn
                        break
                    state[t] = st
                    break
            live = [t for t in range(self.threads) if not self.done[t]]
            if live and all(state.get(t) == "bar" for t in live):
                if len(live) != self.threads:
                    raise Trap("bar.sync with exited threads")
                for t in live:
                    self.pc[t] += 1
                continue
            consumers = [t for t in live if t < self.spec.consumers]  # the producer warp issues no wgmma
            kinds = {state.get(t) for t in consumers}
            if consumers and len(kinds) == 1 and kinds <= {"wgmma", "commit", "wgwait"}:
                self.collective(kinds.pop())
                continue
            sig = (tuple(self.pc), tuple(self.done),
                   tuple(sorted((a, b.completed, b.tx, b.pending) for a, b in self.bars.items())))
            if sig == last:
                raise Trap(f"deadlock: threads at {sorted(set(state.values()))} and spinning waits")
            last = sig


def decode(raw, dtype):
    """float32 values of little-endian element bytes (the last axis)."""
    if dtype == "f16":
        return raw.copy().view(np.float16)[..., 0].astype(np.float32)
    if dtype == "bf16":
        return (raw.copy().view(np.uint16)[..., 0].astype(np.uint32) << 16).view(np.float32)
    return runner.e4m3_values()[raw[..., 0]]


def simulate(plan, seed=0, text=None):
    s = plan.spec
    abits, af, bbits, bf = runner.inputs(s, "int", seed)
    c = np.full((s.m, s.n), np.nan, dtype=np.float32)
    ins, labels = parse(emit.ptx(plan) if text is None else text)
    wgmmas = 0
    gx, gy, _ = emit.grid(plan)
    for x in range(gx):
        for y in range(gy):
            cta = Cta(plan, ins, labels, (x, y), abits, bbits, c)
            cta.run()
            wgmmas += cta.wgmmas
    return c, af @ bf.T, wgmmas


SIM_CASES = [ml.Mainloop(100, 144, 88 if sw == "none" else 3 * (ml.SPAN[sw] // 2) + 8, 64, 2, sw, "f16")
             for sw in ml.SWIZZLES] + [
    ml.Mainloop(70, 40, 112, 16, 3, "64B", "bf16"),
    ml.Mainloop(70, 24, 400, 24, 2, "128B", "e4m3"),
    ml.Mainloop(70, 24, 272, 8, 3, "none", "e4m3"),
    ml.Mainloop(64, 16, 40, 16, 4, "32B", "f16"),  # more stages than K tiles
    ml.Mainloop(65, 72, 136, 64, 2, "128B", "f16", pad=128),
    ml.Mainloop(100, 40, 200, 40, 2, "128B", "f16", overlap=True),  # one K tile's wgmmas in flight
    ml.Mainloop(64, 32, 72, 32, 2, "none", "bf16", overlap=True),
    ml.Mainloop(150, 40, 136, 40, 3, "128B", "f16", wgs=2),  # two warpgroups: a 128-row tile
    ml.Mainloop(130, 24, 400, 24, 2, "64B", "e4m3", wgs=2, overlap=True),
    ml.Mainloop(100, 16, 88, 16, 3, "none", "f16", wgs=2, overlap=True),
    ml.Mainloop(100, 40, 400, 40, 2, "128B", "f16", producer=True),  # a producer warp, stages released by mbarrier
    ml.Mainloop(100, 40, 400, 40, 3, "64B", "bf16", producer=True, overlap=True),
    ml.Mainloop(150, 24, 592, 24, 2, "128B", "e4m3", wgs=2, overlap=True, producer=True),
    ml.Mainloop(64, 16, 40, 16, 4, "32B", "f16", producer=True, overlap=True),  # more stages than K tiles
    ml.Mainloop(330, 40, 72, 8, 2, "128B", "f16", raster=2),  # grouped order: 6 M tiles x 5 N tiles, groups of 2
    ml.Mainloop(330, 40, 72, 16, 2, "128B", "f16", wgs=2, overlap=True, producer=True, raster=4),  # a short last group
]


@pytest.mark.parametrize("spec", SIM_CASES, ids=str)
def test_the_emitted_kernel_computes_the_product_on_the_models(spec):
    plan = ml.prove(spec).plan
    assert plan is not None
    c, ref, wgmmas = simulate(plan)
    assert wgmmas == spec.mtiles * spec.ntiles * spec.ktiles * spec.ksteps * spec.wgs
    assert np.array_equal(c, ref), f"{int((c != ref).sum())} elements differ, first {np.argwhere(c != ref)[:3].tolist()}"


def test_a_forced_descriptor_gives_a_wrong_product_on_the_models():
    plan = ml.prove(ml.Mainloop(64, 32, 64, 32, 2, "128B", "f16", unchecked_swizzle="64B")).plan
    assert plan.unchecked
    c, ref, _ = simulate(plan)
    assert (c != ref).sum() > 0


def test_a_shared_buffer_off_1024_is_rounded_up():
    """The descriptors are proved for a 1024-aligned base: the kernel rounds the buffer's address up (its
    launch has the 1024 bytes of slack) and the product is still right."""
    plan = ml.prove(ml.Mainloop(64, 32, 200, 32, 2, "128B", "f16")).plan
    ins, labels = parse(emit.ptx(plan))
    abits, af, bbits, bf = runner.inputs(plan.spec, "int", 0)
    for raw in (SMEM_BASE + 16, SMEM_BASE + 128, SMEM_BASE + 1008):
        c = np.zeros((64, 32), dtype=np.float32)
        cta = Cta(plan, ins, labels, (0, 0), abits, bbits, c)
        cta.raw = raw
        cta.run()
        assert np.array_equal(c, af @ bf.T), raw


def test_the_interpreter_sees_a_stage_refilled_while_it_is_read():
    """The interpreter's wgmma reads shared memory when a wait_group retires it: the overlapped loop waiting
    with wait_group 2 (the refilled stage's wgmmas still in flight) gives a wrong product, and a loop with no
    wait_group before the refill reads the accumulators while a wgmma writes them (a trap)."""
    plan = ml.prove(ml.Mainloop(100, 40, 400, 40, 3, "128B", "f16", overlap=True)).plan
    text = emit.ptx(plan)
    assert "wgmma.wait_group.sync.aligned 1;" in text
    c, ref, _ = simulate(plan, text=text.replace("wgmma.wait_group.sync.aligned 1;", "wgmma.wait_group.sync.aligned 2;"))
    assert (c != ref).sum() > 0
    plan = ml.prove(ml.Mainloop(100, 40, 400, 40, 2, "128B", "f16")).plan
    text = emit.ptx(plan)
    with pytest.raises(Trap, match="while a wgmma writing it is in flight"):
        simulate(plan, text=text.replace("wgmma.wait_group.sync.aligned 0;\n\tbar.sync", "bar.sync"))
