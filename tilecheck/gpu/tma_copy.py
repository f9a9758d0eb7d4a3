"""A TMA copy kernel: global -> shared -> global through ``cp.async.bulk.tensor`` loads and stores
(issue 30, item 5's reverse path; its speed is ``bench/tma_copy.py``'s, next to ``cuMemcpyDtoD``).

The buffer is viewed as a 2-D tensor of ``uint64``: rows of ``inner`` bytes (dimension 0, ``inner / 8``
elements, the box's inner extent, so a box of ``rows`` rows is one contiguous tile of ``inner * rows``
bytes) and ``height`` rows.  Two tensor maps, one on the source and one on the destination, the same
box, no swizzle, are the kernel's first parameters (``.param .align 64 .b8 map[128]`` each, by value),
then the tile count.  The kernel is persistent: CTA ``b`` copies tiles ``b, b + grid, b + 2*grid, ...``;
one thread of each CTA issues everything, through ``stages`` tiles of dynamic shared memory, each with
its own mbarrier:

* the prologue loads the CTA's first ``stages`` tiles (``mbarrier.arrive.expect_tx`` with the tile's
  bytes, then ``cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes``);
* iteration ``i`` waits for tile ``i``'s barrier (``mbarrier.try_wait.parity``, the parity flips each
  time the stages wrap), stores it (``cp.async.bulk.tensor.2d.global.shared::cta.bulk_group``,
  ``cp.async.bulk.commit_group``), then refills the stage of iteration ``i - lag`` with tile
  ``i - lag + stages`` once that store has read it (``cp.async.bulk.wait_group.read lag``: every group
  but the newest ``lag`` has finished reading shared memory): ``lag`` stores and ``stages - lag``
  loads in flight;
* the end waits for every store (``cp.async.bulk.wait_group 0``).

A wave (``Config.chunk = k``) is the same loop in short CTAs instead: CTA ``b`` copies the ``k``
consecutive tiles ``b*k .. b*k+k-1`` (grid ``ceil(tiles / k)``) and ends at
``cp.async.bulk.wait_group.read 0`` (its stores have read shared memory; the grid's end makes their
writes visible), its shared memory padded so that ``ctas_per_sm`` CTAs fit a SM.  The block scheduler
starts CTAs in order, so what is in flight stays on one narrow address window; the persistent kernel's
CTAs drift apart over their hundreds of tiles and spread it over the whole buffer (on the H200 that
costs 8% of the DRAM bandwidth: 0.92x cuMemcpyDtoD persistent, 1.005x as a wave of one 4 KiB tile a CTA).

A tile whose barrier does not complete in ``WAIT_LIMIT`` rounds of ``try_wait`` (about a second) ends
the kernel with ``trap``: a schedule error is a launch failure, never a hang.

A last tile that crosses the tensor's end is loaded with zero fill and stored clipped, so any height
copies exactly.  Pure text and arithmetic: no tilecheck import, no device (``bench/tma_copy.py`` runs it).
Launch it with ``tensormap_driver.Module`` (``cuLaunchKernel`` with ``kernelParams``) and
``launch_args``: pycuda's packed-buffer launch breaks the by-value maps (illegal instruction, or wrong
data, on the H200).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass

ESIZE = 8  # the tensor maps' element: uint64
THREADS = 32  # one warp per CTA; its lane 0 issues everything
SUSPEND_NS = 10_000  # try_wait's suspend hint; after WAIT_LIMIT rounds (~1 s) the kernel traps
WAIT_LIMIT = 100_000


@dataclass(frozen=True)
class Config:
    inner: int  # bytes of one box row (= one tensor row): a multiple of 16, at most 256 elements (2048 B)
    rows: int  # box rows per tile (1..256)
    stages: int  # tiles of shared memory per CTA (>= 2)
    ctas_per_sm: int = 1
    l2: str = "none"  # the maps' L2 promotion: none, 64B, 128B, 256B
    lag: int = 1  # stores still reading shared memory when a stage is refilled (1..stages-1)
    split: bool = False  # split issue: warp 0 lane 0 loads, warp 1 lane 0 stores (a 'full' and an 'empty'
    # mbarrier a stage); False: one thread does both (the kernel measured first)
    hint: bool = False  # loads and stores with .L2::cache_hint, a createpolicy.fractional evict_first policy
    bulk: bool = False  # a comparison, not the TMA tensor kernel: non-tensor cp.async.bulk 1-D copies of
    # each tile (pointers and the last tile's bytes for parameters, no tensor maps; one thread issues)
    chunk: int = 0  # 0: persistent (SMs x ctas_per_sm CTAs, CTA b takes tiles b, b + grid, ...); k > 0: a
    # wave of short CTAs, CTA b copies the k consecutive tiles b*k .. b*k+k-1 and ends once its stores have
    # read shared memory (grid ceil(tiles / k); ctas_per_sm is then the occupancy the launch pads
    # dynamic shared memory to: the block scheduler keeps the CTAs in flight on one narrow address window)

    def __post_init__(self):
        if self.inner % 16 or not 16 <= self.inner <= 256 * ESIZE:
            raise ValueError(f"inner {self.inner}: a multiple of 16 bytes, 16..{256 * ESIZE}")
        if self.chunk < 0 or (self.chunk and not 1 <= self.stages <= self.chunk):
            raise ValueError(f"chunk {self.chunk}: 0 (persistent) or a CTA's tiles, >= stages ({self.stages})")
        if not 1 <= self.rows <= 256 or self.stages < (1 if self.chunk else 2):
            raise ValueError(f"rows {self.rows} (1..256), stages {self.stages} (>= 2; >= 1 with a chunk)")
        if not 1 <= self.lag < self.stages and not (self.chunk == self.stages and self.lag == 1):
            # (a wave CTA holding its whole chunk at once never refills a stage: lag 1, unused)
            raise ValueError(f"lag {self.lag}: 1..stages-1 ({self.stages - 1})")
        if self.chunk and (self.split or self.bulk):
            raise ValueError("chunk: the one-thread tensor kernel only")
        if self.bulk and (self.split or self.hint):
            raise ValueError("bulk: the one-thread kernel without a cache hint only")

    @property
    def tile(self) -> int:
        return self.inner * self.rows

    @property
    def shared(self) -> int:
        """Dynamic shared bytes per CTA: the stages, then one 8-byte mbarrier each (two with ``split``:
        the 'full' ones, then the 'empty' ones)."""
        return self.stages * self.tile + 8 * self.stages * (2 if self.split else 1)

    def dynamic(self, per_sm: int) -> int:
        """The dynamic shared bytes a CTA is launched with: ``shared``, or for a wave (``chunk``) padded so
        that at most ``ctas_per_sm`` CTAs fit a SM of ``per_sm`` bytes (1 KiB reserved each), rounded down
        to 1 KiB."""
        if not self.chunk:
            return self.shared
        return max(self.shared, (per_sm // self.ctas_per_sm - 1024) // 1024 * 1024)

    def grid(self, tiles: int, sms: int) -> int:
        """The CTAs a launch of ``tiles`` tiles on ``sms`` SMs takes."""
        return -(-tiles // self.chunk) if self.chunk else min(tiles, sms * self.ctas_per_sm)

    @property
    def threads(self) -> int:
        """Threads per CTA: one warp, two with ``split`` (lane 0 of each issues)."""
        return 2 * THREADS if self.split else THREADS

    @property
    def name(self) -> str:
        return (f"tma_copy_i{self.inner}_r{self.rows}_s{self.stages}_l{self.lag}"
                + ("_split" if self.split else "") + ("_ef" if self.hint else "") + ("_bulk" if self.bulk else "")
                + (f"_c{self.chunk}" if self.chunk else ""))

    def box(self) -> tuple[int, int]:
        return self.inner // ESIZE, self.rows

    def tiles(self, height: int) -> int:
        return -(-height // self.rows)

    def __str__(self):
        return (f"tile {self.inner} B x {self.rows} rows ({self.tile // 1024} KiB), {self.stages} stages, "
                f"lag {self.lag}, {self.ctas_per_sm} CTA/SM, L2 promotion {self.l2}"
                + (", split issue" if self.split else "") + (", evict_first" if self.hint else "")
                + (", 1-D bulk copies (not a tensor copy)" if self.bulk else "")
                + (f", a wave of CTAs of {self.chunk} consecutive tiles" if self.chunk else ""))


LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"
COMMIT = "\tcp.async.bulk.commit_group;"
DRAIN = "\tcp.async.bulk.wait_group \t0;"  # every store done
POLICY = "\tcreatepolicy.fractional.L2::evict_first.b64 \t%rd3, 1.0;"  # every line evict_first


def _read(lag: int) -> str:
    """Wait until every bulk group but the newest ``lag`` has read shared memory."""
    return f"\tcp.async.bulk.wait_group.read \t{lag};"


DRAIN_READ = _read(0)  # every store has read shared memory (a wave's CTA ends there: the grid's end makes
# its writes visible, its shared memory goes to the next CTA)


BULK_LOAD = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
BULK_STORE = "cp.async.bulk.global.shared::cta.bulk_group"


def _bytes(cfg: Config, row: str) -> str:
    """The bytes of the tile starting at ``row``: the tile's, or (bulk) %r25 for the last tile (row
    %r24) into %r23."""
    return "\tselp.b32 \t%r23, %r25, {}, %q0;".format(cfg.tile) if cfg.bulk else ""


def _arm(cfg: Config, bar: str, row: str) -> list:
    """``mbarrier.arrive.expect_tx`` of one tile's bytes on ``bar``."""
    if not cfg.bulk:
        return [f"\tmbarrier.arrive.expect_tx.shared::cta.b64 \t_, [{bar}], {cfg.tile};"]
    return [f"\tsetp.eq.u32 \t%q0, {row}, %r24;", _bytes(cfg, row),
            f"\tmbarrier.arrive.expect_tx.shared::cta.b64 \t_, [{bar}], %r23;"]


def _address(base: str, row: str, inner: int) -> list:
    return [f"\tmul.wide.u32 \t%rb0, {row}, {inner};", f"\tadd.u64 \t%rb0, %rb0, {base};"]


def _load(cfg: Config, smem: str, row: str, bar: str) -> str:
    if cfg.bulk:  # after _arm: %r23 holds the bytes
        return "\n".join(_address("%rd1", row, cfg.inner) + [f"\t{BULK_LOAD} \t[{smem}], [%rb0], %r23, [{bar}];"])
    if cfg.hint:
        return f"\t{LOAD}.L2::cache_hint \t[{smem}], [%rd1, {{%r8, {row}}}], [{bar}], %rd3;"
    return f"\t{LOAD} \t[{smem}], [%rd1, {{%r8, {row}}}], [{bar}];"


def _store(cfg: Config, row: str, smem: str) -> str:
    if cfg.bulk:
        return "\n".join([f"\tsetp.eq.u32 \t%q0, {row}, %r24;", _bytes(cfg, row)] + _address("%rd2", row, cfg.inner)
                         + [f"\t{BULK_STORE} \t[%rb0], [{smem}], %r23;"])
    if cfg.hint:
        return f"\t{STORE}.L2::cache_hint \t[%rd2, {{%r8, {row}}}], [{smem}], %rd3;"
    return f"\t{STORE} \t[%rd2, {{%r8, {row}}}], [{smem}];"


def _head(cfg: Config, params: str) -> list:
    """The module's first lines, both issue schemes': the dynamic shared array, the entry with ``params``,
    the registers every kernel declares."""
    n = cfg.name
    return [".version 8.0", ".target sm_90", ".address_size 64", "",
            f".extern .shared .align 1024 .b8 {n}_smem[];", "",
            f".visible .entry {n}(" + params,
            f".maxntid {cfg.threads}, 1, 1", "{",
            "\t.reg .pred \t%p<8>;", "\t.reg .b32 \t%r<32>;", "\t.reg .b64 \t%rd<4>;"]


def _maps(n: str) -> tuple:
    """The entry's parameters (the two maps by value, the tile count) and the lines putting the maps'
    generic addresses in %rd1 (source) and %rd2 (destination)."""
    return ((f".param .align 64 .b8 {n}_src[128], .param .align 64 .b8 {n}_dst[128], .param .u32 {n}_tiles)"),
            [f"\tmov.b64 \t%rd1, {n}_src;", "\tcvta.param.u64 \t%rd1, %rd1;",
             f"\tmov.b64 \t%rd2, {n}_dst;", "\tcvta.param.u64 \t%rd2, %rd2;"])


def copy_ptx(cfg: Config) -> str:
    """The kernel's module (entry ``cfg.name``; parameters: source map, destination map, u32 tiles)."""
    if cfg.split:
        return _split_ptx(cfg)
    n, S, T, R, D = cfg.name, cfg.stages, cfg.tile, cfg.rows, cfg.lag
    if cfg.bulk:  # pointers, the tile count, the last tile's bytes (a multiple of 16)
        params = (f".param .u64 {n}_src, .param .u64 {n}_dst, .param .u32 {n}_tiles, .param .u32 {n}_last)")
        ptrs = [f"\tld.param.u64 \t%rd1, [{n}_src];", "\tcvta.to.global.u64 \t%rd1, %rd1;",
                f"\tld.param.u64 \t%rd2, [{n}_dst];", "\tcvta.to.global.u64 \t%rd2, %rd2;"]
    else:
        params, ptrs = _maps(n)
    L = [*_head(cfg, params),
         "\t.reg .pred \t%q<1>;\n\t.reg .b64 \t%rb<1>;" if cfg.bulk else "", "",
         "\tmov.u32 \t%r0, %tid.x;", "\tsetp.ne.u32 \t%p0, %r0, 0;", "\t@%p0 bra \tEND;",
         *ptrs,
         f"\tld.param.u32 \t%r1, [{n}_tiles];",
         # bulk: %r24 = the last tile's first row, %r25 = its bytes
         *([f"\tld.param.u32 \t%r25, [{n}_last];", "\tsub.u32 \t%r24, %r1, 1;",
            f"\tmul.lo.u32 \t%r24, %r24, {R};"] if cfg.bulk else []),
         # tile i of this CTA is %r2 + i * %r3: ctaid + i * nctaid (persistent) or ctaid * chunk + i
         *(["\tmov.u32 \t%r2, %ctaid.x;", "\tmov.u32 \t%r3, %nctaid.x;",
            "\tsetp.ge.u32 \t%p1, %r2, %r1;", "\t@%p1 bra \tEND;",
            # %r4 = this CTA's tiles: ceil((tiles - ctaid) / nctaid)
            "\tsub.u32 \t%r4, %r1, %r2;", "\tadd.u32 \t%r4, %r4, %r3;", "\tsub.u32 \t%r4, %r4, 1;",
            "\tdiv.u32 \t%r4, %r4, %r3;"] if not cfg.chunk else
           ["\tmov.u32 \t%r2, %ctaid.x;", f"\tmul.lo.u32 \t%r2, %r2, {cfg.chunk};", "\tmov.u32 \t%r3, 1;",
            "\tsetp.ge.u32 \t%p1, %r2, %r1;", "\t@%p1 bra \tEND;",
            # %r4 = this CTA's tiles: min(chunk, tiles - ctaid * chunk)
            "\tsub.u32 \t%r4, %r1, %r2;", f"\tmin.u32 \t%r4, %r4, {cfg.chunk};"]),
         f"\tmov.u32 \t%r5, {n}_smem;", f"\tadd.u32 \t%r6, %r5, {S * T};"]  # stages, then the barriers
    L += [f"\tmbarrier.init.shared::cta.b64 \t[%r6+{8 * s}], 1;" for s in range(S)]
    L += ["\tfence.mbarrier_init.release.cluster;", "\tfence.proxy.async.shared::cta;",
          "\tmov.u32 \t%r8, 0;"]  # every box starts at column 0
    L += [POLICY] if cfg.hint else []
    for s in range(S):  # the prologue: tiles 0..S-1 of this CTA into stages 0..S-1
        L += [f"\tsetp.ge.u32 \t%p2, {s}, %r4;" if s else "", f"\t@%p2 bra \tPRO{s}_END;" if s else "",
              f"\tmad.lo.u32 \t%r7, %r3, {s}, %r2;", f"\tmul.lo.u32 \t%r7, %r7, {R};",
              *_arm(cfg, f"%r6+{8 * s}", "%r7"),
              f"\tadd.u32 \t%r9, %r5, {s * T};", f"\tadd.u32 \t%r10, %r6, {8 * s};",
              _load(cfg, "%r9", "%r7", "%r10"), f"PRO{s}_END:" if s else ""]
    L += ["\tmov.u32 \t%r11, 0;",  # i
          "\tmov.u32 \t%r12, 0;",  # the stage of i
          "\tmov.u32 \t%r13, 0;",  # the parity of its barrier's phase
          "LOOP:",
          f"\tmad.lo.u32 \t%r14, %r12, {T}, %r5;", "\tshl.b32 \t%r15, %r12, 3;", "\tadd.u32 \t%r15, %r15, %r6;",
          "\tmov.u32 \t%r22, 0;",
          "WAIT:", f"\tmbarrier.try_wait.parity.shared::cta.b64 \t%p3, [%r15], %r13, {SUSPEND_NS};",
          "\t@%p3 bra \tLANDED;", "\tadd.u32 \t%r22, %r22, 1;", f"\tsetp.lt.u32 \t%p3, %r22, {WAIT_LIMIT};",
          "\t@%p3 bra \tWAIT;", "\ttrap;",  # a tile that never lands: a launch error, not a hang
          "LANDED:",
          "\tmad.lo.u32 \t%r16, %r11, %r3, %r2;", f"\tmul.lo.u32 \t%r16, %r16, {R};",
          _store(cfg, "%r16", "%r14"),
          COMMIT,
          # refill the stage of i-D with tile i-D+S, once store i-D has read it
          f"\tsetp.lt.u32 \t%p4, %r11, {D};", "\t@%p4 bra \tNEXT;",
          f"\tadd.u32 \t%r17, %r11, {S - D};", "\tsetp.ge.u32 \t%p5, %r17, %r4;", "\t@%p5 bra \tNEXT;",
          _read(D),
          f"\tadd.u32 \t%r18, %r12, {S - D};", f"\trem.u32 \t%r18, %r18, {S};",
          f"\tmad.lo.u32 \t%r19, %r18, {T}, %r5;", "\tshl.b32 \t%r20, %r18, 3;", "\tadd.u32 \t%r20, %r20, %r6;",
          "\tmad.lo.u32 \t%r21, %r17, %r3, %r2;", f"\tmul.lo.u32 \t%r21, %r21, {R};",
          *_arm(cfg, "%r20", "%r21"),
          _load(cfg, "%r19", "%r21", "%r20"),
          "NEXT:", "\tadd.u32 \t%r11, %r11, 1;", "\tadd.u32 \t%r12, %r12, 1;",
          f"\tsetp.eq.u32 \t%p6, %r12, {S};", "\t@%p6 mov.u32 \t%r12, 0;", "\t@%p6 xor.b32 \t%r13, %r13, 1;",
          "\tsetp.lt.u32 \t%p7, %r11, %r4;", "\t@%p7 bra \tLOOP;",
          DRAIN_READ if cfg.chunk else DRAIN,
          "END:", "\tret;", "}", ""]
    return "\n".join(line for line in L if line != "")


def _wait(label: str, bar: str, parity: str, done: str) -> list:
    """``try_wait.parity`` on ``bar`` until the phase of ``parity`` completed, then ``bra done``; after
    WAIT_LIMIT rounds, ``trap``."""
    return ["\tmov.u32 \t%r22, 0;",
            f"{label}:", f"\tmbarrier.try_wait.parity.shared::cta.b64 \t%p3, [{bar}], {parity}, {SUSPEND_NS};",
            f"\t@%p3 bra \t{done};", "\tadd.u32 \t%r22, %r22, 1;", f"\tsetp.lt.u32 \t%p3, %r22, {WAIT_LIMIT};",
            f"\t@%p3 bra \t{label};", "\ttrap;", f"{done}:"]


def _split_ptx(cfg: Config) -> str:
    """Split issue: thread 0 (warp 0) only loads, thread 32 (warp 1) only stores.  Stage ``s`` has a
    'full' mbarrier (``arrive.expect_tx`` by the loader, completed by the load's bytes) and an 'empty'
    one (count 1, arrived on by the storer once the store of the stage's tile has read it).

    * the loader: tile ``j`` (this CTA's ``j``-th) into stage ``j % S``; for ``j >= S`` first waits for
      'empty' of that stage to complete its phase ``j / S - 1`` (the store of tile ``j - S`` read it);
    * the storer: waits 'full' of stage ``i % S`` (phase ``i / S``), stores tile ``i``, commits, then for
      ``i >= D`` waits ``cp.async.bulk.wait_group.read D`` (store ``i - D`` has read its stage) and arrives
      on 'empty' of stage ``(i - D) % S`` -- only where the loader will refill it (``i - D + S < n``);
    * the storer ends with ``cp.async.bulk.wait_group 0``.
    """
    n, S, T, R, D = cfg.name, cfg.stages, cfg.tile, cfg.rows, cfg.lag
    params, ptrs = _maps(n)
    L = [*_head(cfg, params), "",
         "\tmov.u32 \t%r0, %tid.x;",
         *ptrs,
         f"\tld.param.u32 \t%r1, [{n}_tiles];",
         "\tmov.u32 \t%r2, %ctaid.x;", "\tmov.u32 \t%r3, %nctaid.x;",
         "\tsetp.ge.u32 \t%p1, %r2, %r1;", "\t@%p1 bra \tEND;",  # uniform across the CTA
         "\tsub.u32 \t%r4, %r1, %r2;", "\tadd.u32 \t%r4, %r4, %r3;", "\tsub.u32 \t%r4, %r4, 1;",
         "\tdiv.u32 \t%r4, %r4, %r3;",
         f"\tmov.u32 \t%r5, {n}_smem;", f"\tadd.u32 \t%r6, %r5, {S * T};",  # 'full' barriers
         f"\tadd.u32 \t%r7, %r6, {8 * S};",  # 'empty' barriers
         "\tsetp.ne.u32 \t%p0, %r0, 0;", "\t@%p0 bra \tINITED;"]
    L += [f"\tmbarrier.init.shared::cta.b64 \t[%r6+{8 * s}], 1;" for s in range(S)]
    L += [f"\tmbarrier.init.shared::cta.b64 \t[%r7+{8 * s}], 1;" for s in range(S)]
    L += ["\tfence.mbarrier_init.release.cluster;", "\tfence.proxy.async.shared::cta;",
          "INITED:", "\tbar.sync \t0;",  # the storer sees the barriers initialised
          "\tmov.u32 \t%r8, 0;"]  # every box starts at column 0
    L += [POLICY] if cfg.hint else []
    L += ["\tsetp.eq.u32 \t%p0, %r0, 32;", "\t@%p0 bra \tSTORER;",
          "\tsetp.ne.u32 \t%p0, %r0, 0;", "\t@%p0 bra \tEND;",
          # the loader: j, its stage, the parity of the 'empty' phase it waits for (j / S - 1)
          "\tmov.u32 \t%r11, 0;", "\tmov.u32 \t%r12, 0;", "\tmov.u32 \t%r13, 1;",
          "LLOOP:",
          "\tshl.b32 \t%r15, %r12, 3;", "\tadd.u32 \t%r20, %r15, %r7;", "\tadd.u32 \t%r15, %r15, %r6;",
          f"\tsetp.lt.u32 \t%p4, %r11, {S};", "\t@%p4 bra \tLFREE;"]
    L += _wait("LWAIT", "%r20", "%r13", "LFREE")
    L += [f"\tmad.lo.u32 \t%r14, %r12, {T}, %r5;",
          "\tmad.lo.u32 \t%r21, %r11, %r3, %r2;", f"\tmul.lo.u32 \t%r21, %r21, {R};",
          f"\tmbarrier.arrive.expect_tx.shared::cta.b64 \t_, [%r15], {T};",
          _load(cfg, "%r14", "%r21", "%r15"),
          "\tadd.u32 \t%r11, %r11, 1;", "\tadd.u32 \t%r12, %r12, 1;",
          f"\tsetp.eq.u32 \t%p6, %r12, {S};", "\t@%p6 mov.u32 \t%r12, 0;", "\t@%p6 xor.b32 \t%r13, %r13, 1;",
          "\tsetp.lt.u32 \t%p7, %r11, %r4;", "\t@%p7 bra \tLLOOP;", "\tbra \tEND;",
          # the storer: i, its stage, the parity of the 'full' phase it waits for (i / S)
          "STORER:", "\tmov.u32 \t%r11, 0;", "\tmov.u32 \t%r12, 0;", "\tmov.u32 \t%r13, 0;",
          "SLOOP:",
          f"\tmad.lo.u32 \t%r14, %r12, {T}, %r5;", "\tshl.b32 \t%r15, %r12, 3;", "\tadd.u32 \t%r15, %r15, %r6;"]
    L += _wait("SWAIT", "%r15", "%r13", "SLANDED")
    L += ["\tmad.lo.u32 \t%r16, %r11, %r3, %r2;", f"\tmul.lo.u32 \t%r16, %r16, {R};",
          _store(cfg, "%r16", "%r14"),
          COMMIT,
          # free the stage of i-D (for tile i-D+S) once store i-D has read it
          f"\tsetp.lt.u32 \t%p4, %r11, {D};", "\t@%p4 bra \tSNEXT;",
          f"\tadd.u32 \t%r17, %r11, {S - D};", "\tsetp.ge.u32 \t%p5, %r17, %r4;", "\t@%p5 bra \tSNEXT;",
          _read(D),
          f"\tadd.u32 \t%r18, %r12, {S - D};", f"\trem.u32 \t%r18, %r18, {S};",
          "\tshl.b32 \t%r20, %r18, 3;", "\tadd.u32 \t%r20, %r20, %r7;",
          "\tmbarrier.arrive.shared::cta.b64 \t_, [%r20];",
          "SNEXT:", "\tadd.u32 \t%r11, %r11, 1;", "\tadd.u32 \t%r12, %r12, 1;",
          f"\tsetp.eq.u32 \t%p6, %r12, {S};", "\t@%p6 mov.u32 \t%r12, 0;", "\t@%p6 xor.b32 \t%r13, %r13, 1;",
          "\tsetp.lt.u32 \t%p7, %r11, %r4;", "\t@%p7 bra \tSLOOP;",
          DRAIN,
          "END:", "\tret;", "}", ""]
    return "\n".join(line for line in L if line != "")


def launch_args(src_map: bytes, dst_map: bytes, tiles: int) -> list:
    """The kernel's arguments for ``tensormap_driver.Module.launch``: the two 128-byte maps by value,
    then the tile count as a u32."""
    if len(src_map) != 128 or len(dst_map) != 128:
        raise ValueError(f"a tensor map is 128 bytes, got {len(src_map)} and {len(dst_map)}")
    if not 0 <= tiles < 2**32:
        raise ValueError(f"tiles {tiles}: a u32")
    return [bytes(src_map), bytes(dst_map), ctypes.c_uint32(tiles)]


def bulk_args(src: int, dst: int, height: int, cfg: Config) -> list:
    """The ``bulk`` kernel's arguments: the two pointers, the tile count, the last tile's bytes."""
    if not cfg.bulk:
        raise ValueError(f"{cfg}: not a bulk configuration")
    tiles = cfg.tiles(height)
    return [ctypes.c_uint64(src), ctypes.c_uint64(dst), ctypes.c_uint32(tiles),
            ctypes.c_uint32(height * cfg.inner - (tiles - 1) * cfg.tile)]


def maps(encode, base_src: int, base_dst: int, height: int, cfg: Config):
    """The two tensor maps (``encode``: ``tensormap_driver.encode_tiled``) of a ``height``-row copy."""
    out = []
    for base in (base_src, base_dst):
        e = encode("uint64", base, [cfg.inner // ESIZE, height], [cfg.inner], list(cfg.box()), [1, 1],
                   "none", "none", cfg.l2, "none")
        if not e.accepted:
            raise ValueError(f"cuTensorMapEncodeTiled refused the map of {cfg} over {height} rows: status {e.status}")
        out.append(e.descriptor)
    return out
