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

    def __post_init__(self):
        if self.inner % 16 or not 16 <= self.inner <= 256 * ESIZE:
            raise ValueError(f"inner {self.inner}: a multiple of 16 bytes, 16..{256 * ESIZE}")
        if not 1 <= self.rows <= 256 or self.stages < 2:
            raise ValueError(f"rows {self.rows} (1..256), stages {self.stages} (>= 2)")
        if not 1 <= self.lag < self.stages:
            raise ValueError(f"lag {self.lag}: 1..stages-1 ({self.stages - 1})")

    @property
    def tile(self) -> int:
        return self.inner * self.rows

    @property
    def shared(self) -> int:
        """Dynamic shared bytes per CTA: the stages, then one 8-byte mbarrier each."""
        return self.stages * self.tile + 8 * self.stages

    @property
    def name(self) -> str:
        return f"tma_copy_i{self.inner}_r{self.rows}_s{self.stages}_l{self.lag}"

    def box(self) -> tuple[int, int]:
        return self.inner // ESIZE, self.rows

    def tiles(self, height: int) -> int:
        return -(-height // self.rows)

    def __str__(self):
        return (f"tile {self.inner} B x {self.rows} rows ({self.tile // 1024} KiB), {self.stages} stages, "
                f"lag {self.lag}, {self.ctas_per_sm} CTA/SM, L2 promotion {self.l2}")


def copy_ptx(cfg: Config) -> str:
    """The kernel's module (entry ``cfg.name``; parameters: source map, destination map, u32 tiles)."""
    n, S, T, R, D = cfg.name, cfg.stages, cfg.tile, cfg.rows, cfg.lag
    L = [".version 8.0", ".target sm_90", ".address_size 64", "",
         f".extern .shared .align 1024 .b8 {n}_smem[];", "",
         f".visible .entry {n}(.param .align 64 .b8 {n}_src[128], .param .align 64 .b8 {n}_dst[128], "
         f".param .u32 {n}_tiles)",
         f".maxntid {THREADS}, 1, 1", "{",
         "\t.reg .pred \t%p<8>;", "\t.reg .b32 \t%r<32>;", "\t.reg .b64 \t%rd<4>;", "",
         "\tmov.u32 \t%r0, %tid.x;", "\tsetp.ne.u32 \t%p0, %r0, 0;", "\t@%p0 bra \tEND;",
         f"\tmov.b64 \t%rd1, {n}_src;", "\tcvta.param.u64 \t%rd1, %rd1;",
         f"\tmov.b64 \t%rd2, {n}_dst;", "\tcvta.param.u64 \t%rd2, %rd2;",
         f"\tld.param.u32 \t%r1, [{n}_tiles];",
         "\tmov.u32 \t%r2, %ctaid.x;", "\tmov.u32 \t%r3, %nctaid.x;",
         "\tsetp.ge.u32 \t%p1, %r2, %r1;", "\t@%p1 bra \tEND;",
         # %r4 = this CTA's tiles: ceil((tiles - ctaid) / nctaid)
         "\tsub.u32 \t%r4, %r1, %r2;", "\tadd.u32 \t%r4, %r4, %r3;", "\tsub.u32 \t%r4, %r4, 1;",
         "\tdiv.u32 \t%r4, %r4, %r3;",
         f"\tmov.u32 \t%r5, {n}_smem;", f"\tadd.u32 \t%r6, %r5, {S * T};"]  # stages, then the barriers
    L += [f"\tmbarrier.init.shared::cta.b64 \t[%r6+{8 * s}], 1;" for s in range(S)]
    L += ["\tfence.mbarrier_init.release.cluster;", "\tfence.proxy.async.shared::cta;",
          "\tmov.u32 \t%r8, 0;"]  # every box starts at column 0
    for s in range(S):  # the prologue: tiles 0..S-1 of this CTA into stages 0..S-1
        L += [f"\tsetp.ge.u32 \t%p2, {s}, %r4;" if s else "", f"\t@%p2 bra \tPRO{s}_END;" if s else "",
              f"\tmad.lo.u32 \t%r7, %r3, {s}, %r2;", f"\tmul.lo.u32 \t%r7, %r7, {R};",
              f"\tmbarrier.arrive.expect_tx.shared::cta.b64 \t_, [%r6+{8 * s}], {T};",
              f"\tadd.u32 \t%r9, %r5, {s * T};", f"\tadd.u32 \t%r10, %r6, {8 * s};",
              "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
              "\t[%r9], [%rd1, {%r8, %r7}], [%r10];", f"PRO{s}_END:" if s else ""]
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
          "\tcp.async.bulk.tensor.2d.global.shared::cta.bulk_group \t[%rd2, {%r8, %r16}], [%r14];",
          "\tcp.async.bulk.commit_group;",
          # refill the stage of i-D with tile i-D+S, once store i-D has read it
          f"\tsetp.lt.u32 \t%p4, %r11, {D};", "\t@%p4 bra \tNEXT;",
          f"\tadd.u32 \t%r17, %r11, {S - D};", "\tsetp.ge.u32 \t%p5, %r17, %r4;", "\t@%p5 bra \tNEXT;",
          f"\tcp.async.bulk.wait_group.read \t{D};",
          f"\tadd.u32 \t%r18, %r12, {S - D};", f"\trem.u32 \t%r18, %r18, {S};",
          f"\tmad.lo.u32 \t%r19, %r18, {T}, %r5;", "\tshl.b32 \t%r20, %r18, 3;", "\tadd.u32 \t%r20, %r20, %r6;",
          "\tmad.lo.u32 \t%r21, %r17, %r3, %r2;", f"\tmul.lo.u32 \t%r21, %r21, {R};",
          f"\tmbarrier.arrive.expect_tx.shared::cta.b64 \t_, [%r20], {T};",
          "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
          "\t[%r19], [%rd1, {%r8, %r21}], [%r20];",
          "NEXT:", "\tadd.u32 \t%r11, %r11, 1;", "\tadd.u32 \t%r12, %r12, 1;",
          f"\tsetp.eq.u32 \t%p6, %r12, {S};", "\t@%p6 mov.u32 \t%r12, 0;", "\t@%p6 xor.b32 \t%r13, %r13, 1;",
          "\tsetp.lt.u32 \t%p7, %r11, %r4;", "\t@%p7 bra \tLOOP;",
          "\tcp.async.bulk.wait_group \t0;",
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
