"""PTX of the proved Hopper GEMM mainloop (``tilecheck/mainloop.py``): text only, from a ``mainloop.Plan``.

``ptx(plan)`` is one module with one kernel, ``mainloop(map_a, map_b, c)``: the two tensor maps by value
(``.param .align 64 .b8 [128]``: launch it with ``gpu/tensormap_driver.Module``), then C's global address.
A grid of ``(ceil(M/64), ceil(N/bn))`` CTAs of 128 threads (one warpgroup), ``plan.spec.launch_bytes`` of
dynamic shared memory (the ring of ``stages`` buffers, A's box then B's, at the offsets the plan proved,
then one mbarrier a stage).  Every number that matters comes from the plan: the maps' boxes (the
coordinates' steps), the destinations, the stage's byte count, the descriptors' constant fields, each
stage's start address and each K step's advance.

* the base is the dynamic shared buffer's address rounded up to 1024 bytes (``launch_bytes`` has the slack); a
  ring past 2^18 traps (the descriptors were proved for a 1024-aligned base with the ring below 2^18);
* thread 0 initialises the barriers (``mbarrier.init`` count 1, ``fence.mbarrier_init``), everyone syncs;
* the prologue: thread 0 loads the first ``min(stages, K tiles)`` stages (``mbarrier.arrive.expect_tx`` with
  the proved count, then the two ``cp.async.bulk.tensor`` loads, A's and B's box, on the stage's barrier);
* K tile ``kt`` (stage ``kt % stages``, parity ``(kt / stages) & 1``): every thread waits on the stage's barrier
  (``mbarrier.try_wait.parity``; a barrier that does not complete in about a second traps: a launch error,
  never a hang), builds the two descriptors (the constant word, or the 14-bit start field
  ``((base + start) >> 4) & 0x3FFF``), ``wgmma.fence``, one ``wgmma.mma_async`` a K step with each descriptor
  advanced by the proved bytes ``>> 4``, ``commit_group``, ``wait_group 0`` (this thread's reads of the stage
  done), ``bar.sync`` (every thread's), then thread 0 refills the stage with K tile ``kt + stages``;
* with ``producer``, one more warp: its lane 0 issues every load (K tile ``kt`` into stage ``kt % stages``, once
  the stage's 'empty' mbarrier says its ``consumers`` threads released K tile ``kt - stages``), and the consumers
  never ``bar.sync`` in the loop: each thread arrives on the 'empty' barrier of the stage its retired wgmmas
  read (after ``wait_group 0``, or with ``overlap`` ``wait_group 1``: the stage before);
* the epilogue: each thread stores its fragment (``families/wgmma.py``'s map: register ``4c + 2h + j`` at row
  ``16w + l/4 + 8h``, column ``8c + 2(l%4) + j``) with ``st.global.v2.f32``, each pair guarded by row < M and
  column < N (the guard the plan's `epilogue` piece proved exact: no column pair straddles C's edge).
"""
from __future__ import annotations

from ..families import tma as tma_family
from ..mainloop import Plan
from ..mma_spelling import WGMMA_TARGET, WGMMA_VERSION, wgmma

NAME = "mainloop"
SUSPEND_NS = 10_000  # try_wait's suspend hint
WAIT_LIMIT = 100_000  # rounds of try_wait before the kernel traps (~1 s)


def name(plan: Plan) -> str:
    return NAME


def grid(plan: Plan) -> tuple[int, int, int]:
    s = plan.spec
    return (s.mtiles * s.ntiles, 1, 1) if s.raster else (s.mtiles, s.ntiles, 1)


def _tile(s) -> list[str]:
    """The CTA's tile (M tile in %r1, N tile in %r2): ``(ctaid.x, ctaid.y)``, or with ``raster = G`` the
    1-D grid's block ``b`` in groups of G M-tiles (Triton's grouped order: consecutive CTAs share B's tiles
    and reuse A's in L2): group ``b / (G * ntiles)``, its first M tile ``G * group``, its height
    ``min(G, mtiles - first)``, M tile ``first + (b % (G * ntiles)) % height``, N tile ``(b % (G * ntiles)) / height``.
    Every tile is some CTA's exactly once (test_mainloop_sim runs every CTA)."""
    if not s.raster:
        return ["\tmov.u32 \t%r1, %ctaid.x;", "\tmov.u32 \t%r2, %ctaid.y;"]
    G, per = s.raster, s.raster * s.ntiles
    return ["\tmov.u32 \t%r3, %ctaid.x;", f"\tdiv.u32 \t%r4, %r3, {per};", f"\tmul.lo.u32 \t%r5, %r4, {G};",  # first
            f"\tsub.u32 \t%r6, {s.mtiles}, %r5;", f"\tmin.u32 \t%r6, %r6, {G};",  # height
            f"\trem.u32 \t%r7, %r3, {per};", "\trem.u32 \t%r1, %r7, %r6;", "\tadd.u32 \t%r1, %r1, %r5;",
            "\tdiv.u32 \t%r2, %r7, %r6;"]


def ptx(plan: Plan) -> str:
    """The module's text.  Refuses anything but a ``Plan`` (only ``mainloop.prove`` makes one: proved, or
    marked unchecked)."""
    if not isinstance(plan, Plan):
        raise TypeError(f"emit.mainloop.ptx takes a mainloop.Plan (from tilecheck.mainloop.prove), not "
                        f"{type(plan).__name__}")
    s = plan.spec
    S, KT, BN = s.stages, s.ktiles, s.bn
    rank = len(plan.a.tmap["box"])
    n_acc = BN // 2
    smem = f"{NAME}_smem"
    copy = tma_family.parse(tma_family.load_spelling(rank))
    kstep = s.bk if rank == 2 else s.bk // s.chunk  # the K coordinate's step a tile (dimension 0 or 2)

    def coords(kreg: str, row: str) -> list[str]:
        return [kreg, row] if rank == 2 else ["%r_zero", row, kreg]

    def load(stage_reg_a: str, stage_reg_b: str, bar: str, kreg: str) -> list[str]:
        return [f"mbarrier.arrive.expect_tx.shared::cta.b64 \t_, [{bar}], {plan.tx};",
                tma_family.Tma.spell(copy, stage_reg_a, "%rd_ma", coords(kreg, "%r_row0"), bar).strip(),
                tma_family.Tma.spell(copy, stage_reg_b, "%rd_mb", coords(kreg, "%r_col0"), bar).strip()]

    L = [f"// tilecheck mainloop: {s}" + (" -- UNCHECKED: " + "; ".join(plan.refutations[:2]) if plan.unchecked else ""),
         f".version {WGMMA_VERSION}", f".target {WGMMA_TARGET}", ".address_size 64", "",
         f".extern .shared .align 1024 .b8 {smem}[];", "",
         f".visible .entry {NAME}(.param .align 64 .b8 {NAME}_ma[128], .param .align 64 .b8 {NAME}_mb[128], "
         f".param .u64 {NAME}_c)",
         f".maxntid {s.threads}, 1, 1", "{",
         "\t.reg .pred \t%p<16>;", f"\t.reg .pred \t%pc<{BN // 8}>;",
         "\t.reg .b32 \t%r<40>;", "\t.reg .b32 \t%r_zero, %r_row0, %r_col0, %r_base, %r_bar, %r_wg;",
         "\t.reg .b64 \t%rd<16>;", "\t.reg .b64 \t%rd_ma, %rd_mb, %rd_da, %rd_db, %rd_ka, %rd_kb;",
         f"\t.reg .f32 \t%d<{n_acc}>;", "",
         "\tmov.u32 \t%r0, %tid.x;", "\tsetp.eq.u32 \t%p0, %r0, 0;",  # %p0: the issuing thread
         "\tmov.u32 \t%r_zero, 0;",
         f"\tmov.b64 \t%rd_ma, {NAME}_ma;", "\tcvta.param.u64 \t%rd_ma, %rd_ma;",
         f"\tmov.b64 \t%rd_mb, {NAME}_mb;", "\tcvta.param.u64 \t%rd_mb, %rd_mb;",
         # what the descriptors were proved for: the base rounded up to 1024 bytes, the ring below 2^18 (else trap)
         f"\tmov.u32 \t%r_base, {smem};", "\tadd.u32 \t%r_base, %r_base, 1023;", "\tand.b32 \t%r_base, %r_base, -1024;",
         f"\tsetp.gt.u32 \t%p10, %r_base, {(1 << 18) - s.shared_bytes};", "\t@%p10 trap;",
         f"\tadd.u32 \t%r_bar, %r_base, {s.bar_offset};",
         *_tile(s),  # %r1 = the M tile, %r2 = the N tile
         f"\tmul.lo.u32 \t%r_row0, %r1, {s.rows};",
         # this warpgroup's A: its 64 rows of the box start wg_step bytes on
         "\tshr.u32 \t%r_wg, %r0, 7;", f"\tmul.lo.u32 \t%r_wg, %r_wg, {plan.a.wg_step};",
         f"\tmul.lo.u32 \t%r_col0, %r2, {BN};",
         "\t@!%p0 bra \tINIT_DONE;"]
    L += [f"\tmbarrier.init.shared::cta.b64 \t[%r_bar+{8 * k}], 1;" for k in range(S)]
    empty = 8 * S  # with a producer: stage k's 'empty' barrier at %r_bar + 8S + 8k, one arrival a consumer thread
    if s.producer:
        L += [f"\tmbarrier.init.shared::cta.b64 \t[%r_bar+{empty + 8 * k}], {s.consumers};" for k in range(S)]
    L += ["\tfence.mbarrier_init.release.cluster;", "\tfence.proxy.async.shared::cta;",
          "INIT_DONE:", "\tbar.sync \t0;"]
    if s.producer:
        L += [f"\tsetp.ge.u32 \t%p12, %r0, {s.consumers};", "\t@%p12 bra \tPRODUCER;", "\tbra.uni \tPRO_DONE;"]
    L += ["\t@!%p0 bra \tPRO_DONE;"]
    for k in range(min(S, KT) if not s.producer else 0):  # the prologue: K tiles 0 .. min(S, KT) - 1 into stages 0 ..
        L += [f"\tadd.u32 \t%r3, %r_base, {plan.a.dst[k]};", f"\tadd.u32 \t%r4, %r_base, {plan.b.dst[k]};",
              f"\tadd.u32 \t%r5, %r_bar, {8 * k};", f"\tmov.u32 \t%r6, {k * kstep};"]
        L += ["\t" + x for x in load("%r3", "%r4", "%r5", "%r6")]
    L += ["PRO_DONE:"]
    L += [f"\tmov.f32 \t%d{i}, 0f00000000;" for i in range(n_acc)]
    L += ["\tsetp.eq.u32 \t%p1, %r0, %r0;",  # scale-d true: D = A.B + D
          "\tmov.u32 \t%r10, 0;",  # kt
          "\tmov.u32 \t%r11, 0;",  # its stage
          "\tmov.u32 \t%r12, 0;",  # the parity of its barrier's phase
          "LOOP:",
          "\tshl.b32 \t%r13, %r11, 3;", "\tadd.u32 \t%r13, %r13, %r_bar;",
          "\tmov.u32 \t%r14, 0;",
          "WAIT:", f"\tmbarrier.try_wait.parity.shared::cta.b64 \t%p2, [%r13], %r12, {SUSPEND_NS};",
          "\t@%p2 bra \tLANDED;", "\tadd.u32 \t%r14, %r14, 1;", f"\tsetp.lt.u32 \t%p2, %r14, {WAIT_LIMIT};",
          "\t@%p2 bra \tWAIT;", "\ttrap;",
          "LANDED:",
          # the stage's descriptors: the constant fields | ((base + start) >> 4) & 0x3FFF
          f"\tmad.lo.u32 \t%r15, %r11, {s.stage_bytes}, %r_base;"]
    for reg, op in (("%rd_da", plan.a), ("%rd_db", plan.b)):
        L += [f"\tadd.u32 \t%r16, %r15, {op.start[0]};"] + (["\tadd.u32 \t%r16, %r16, %r_wg;"] if op.wg_step else [])
        L += ["\tshr.u32 \t%r16, %r16, 4;", "\tand.b32 \t%r16, %r16, 16383;",
              "\tcvt.u64.u32 \t%rd1, %r16;", f"\tor.b64 \t{reg}, %rd1, {op.desc_const:#x};"]
    L += ["\twgmma.fence.sync.aligned;"]
    accs = "%d"
    for j in range(s.ksteps):
        da, db = "%rd_da", "%rd_db"
        if j:
            L += [f"\tadd.u64 \t%rd_ka, %rd_da, {plan.a.advance[j - 1] >> 4};",
                  f"\tadd.u64 \t%rd_kb, %rd_db, {plan.b.advance[j - 1] >> 4};"]
            da, db = "%rd_ka", "%rd_kb"
        L.append("\t" + wgmma(BN, s.dtype, accs, da, db, "%p1"))
    L += ["\twgmma.commit_group.sync.aligned;"]
    if s.producer:  # release the stage read (by this thread's wgmmas) to the producer: one arrival a thread
        if not s.overlap:
            L += ["\twgmma.wait_group.sync.aligned 0;", f"\tmbarrier.arrive.shared::cta.b64 \t_, [%r13+{empty}];"]
        else:  # K tile kt - 1's wgmmas done: release its stage
            L += ["\twgmma.wait_group.sync.aligned 1;", "\tsetp.eq.u32 \t%p3, %r10, 0;", "\t@%p3 bra \tNEXT;",
                  f"\tadd.u32 \t%r19, %r11, {S - 1};", f"\trem.u32 \t%r19, %r19, {S};",
                  "\tshl.b32 \t%r9, %r19, 3;", "\tadd.u32 \t%r9, %r9, %r_bar;",
                  f"\tmbarrier.arrive.shared::cta.b64 \t_, [%r9+{empty}];"]
    elif not s.overlap:
        L += ["\twgmma.wait_group.sync.aligned 0;",
              "\tbar.sync \t0;",  # every thread has read the stage
              # refill the stage with K tile kt + S (thread 0)
              f"\tadd.u32 \t%r17, %r10, {S};", f"\tsetp.lt.u32 \t%p3, %r17, {KT};", "\tand.pred \t%p3, %p3, %p0;",
              "\t@!%p3 bra \tNEXT;",
              "\tmov.u32 \t%r19, %r11;", "\tmov.u32 \t%r9, %r13;"]
    else:  # K tile kt - 1's wgmmas done (kt's in flight): refill its stage with K tile kt - 1 + S
        L += ["\twgmma.wait_group.sync.aligned 1;",
              "\tbar.sync \t0;",  # every thread has read stage (kt - 1) % S
              f"\tadd.u32 \t%r17, %r10, {S - 1};", f"\tsetp.lt.u32 \t%p3, %r17, {KT};", "\tand.pred \t%p3, %p3, %p0;",
              "\tsetp.ne.u32 \t%p4, %r10, 0;", "\tand.pred \t%p3, %p3, %p4;",
              "\t@!%p3 bra \tNEXT;",
              f"\tadd.u32 \t%r19, %r11, {S - 1};", f"\trem.u32 \t%r19, %r19, {S};",  # the stage before
              "\tshl.b32 \t%r9, %r19, 3;", "\tadd.u32 \t%r9, %r9, %r_bar;"]
    if not s.producer:
        L += [f"\tmad.lo.u32 \t%r18, %r19, {s.stage_bytes}, %r_base;",
              f"\tadd.u32 \t%r3, %r18, {plan.a.dst[0]};", f"\tadd.u32 \t%r4, %r18, {plan.b.dst[0]};",
              f"\tmul.lo.u32 \t%r6, %r17, {kstep};"]
        L += ["\t" + x for x in load("%r3", "%r4", "%r9", "%r6")]
    L += ["NEXT:", "\tadd.u32 \t%r10, %r10, 1;", "\tadd.u32 \t%r11, %r11, 1;",
          f"\tsetp.eq.u32 \t%p4, %r11, {S};", "\t@%p4 mov.u32 \t%r11, 0;", "\t@%p4 xor.b32 \t%r12, %r12, 1;",
          f"\tsetp.lt.u32 \t%p5, %r10, {KT};", "\t@%p5 bra \tLOOP;"]
    if s.overlap:
        L += ["\twgmma.wait_group.sync.aligned 0;"]
    # the epilogue: the fragment map, guarded at M and N
    L += [f"\tld.param.u64 \t%rd2, [{NAME}_c];", "\tcvta.to.global.u64 \t%rd2, %rd2;",
          "\tshr.u32 \t%r20, %r0, 5;", "\tand.b32 \t%r21, %r0, 31;",  # the CTA's warp (16 rows each), the lane
          "\tshr.u32 \t%r22, %r21, 2;", "\tand.b32 \t%r23, %r21, 3;",  # g, q
          "\tshl.b32 \t%r24, %r20, 4;", "\tadd.u32 \t%r24, %r24, %r22;", "\tadd.u32 \t%r24, %r24, %r_row0;",  # row
          "\tshl.b32 \t%r25, %r23, 1;", "\tadd.u32 \t%r25, %r25, %r_col0;",  # column 2q
          f"\tsetp.lt.u32 \t%p6, %r24, {s.m};", "\tadd.u32 \t%r26, %r24, 8;", f"\tsetp.lt.u32 \t%p7, %r26, {s.m};",
          f"\tmul.wide.u32 \t%rd3, %r24, {s.n};", "\tcvt.u64.u32 \t%rd4, %r25;", "\tadd.u64 \t%rd3, %rd3, %rd4;",
          "\tshl.b64 \t%rd3, %rd3, 2;", "\tadd.u64 \t%rd3, %rd3, %rd2;",  # row h = 0
          f"\tadd.u64 \t%rd5, %rd3, {32 * s.n};"]  # row h = 1: 8 rows on
    for c in range(BN // 8):
        L += [f"\tadd.u32 \t%r27, %r25, {8 * c};", f"\tsetp.lt.u32 \t%pc{c}, %r27, {s.n};",
              f"\tand.pred \t%p8, %p6, %pc{c};", f"\tand.pred \t%p9, %p7, %pc{c};",
              f"\t@%p8 st.global.v2.f32 \t[%rd3+{32 * c}], {{%d{4 * c}, %d{4 * c + 1}}};",
              f"\t@%p9 st.global.v2.f32 \t[%rd5+{32 * c}], {{%d{4 * c + 2}, %d{4 * c + 3}}};"]
    L += ["\tret;"]
    if s.producer:  # the producer warp's lane 0: K tile kt into stage kt % S once its consumers released it
        L += ["PRODUCER:", f"\tsetp.ne.u32 \t%p12, %r0, {s.consumers};", "\t@%p12 bra \tPRODUCER_END;",
              "\tmov.u32 \t%r30, 0;", "\tmov.u32 \t%r31, 0;", "\tmov.u32 \t%r32, 0;",  # kt, stage, phase
              "PLOOP:", "\tshl.b32 \t%r33, %r31, 3;", "\tadd.u32 \t%r33, %r33, %r_bar;",
              f"\tsetp.lt.u32 \t%p13, %r30, {S};", "\t@%p13 bra \tPFREE;",
              # wait for the release of K tile kt - S: the empty barrier's phase (kt / S) - 1
              "\txor.b32 \t%r34, %r32, 1;", "\tmov.u32 \t%r35, 0;",
              "PWAIT:", f"\tmbarrier.try_wait.parity.shared::cta.b64 \t%p14, [%r33+{empty}], %r34, {SUSPEND_NS};",
              "\t@%p14 bra \tPFREE;", "\tadd.u32 \t%r35, %r35, 1;", f"\tsetp.lt.u32 \t%p14, %r35, {WAIT_LIMIT};",
              "\t@%p14 bra \tPWAIT;", "\ttrap;",
              "PFREE:",
              f"\tmad.lo.u32 \t%r36, %r31, {s.stage_bytes}, %r_base;",
              f"\tadd.u32 \t%r3, %r36, {plan.a.dst[0]};", f"\tadd.u32 \t%r4, %r36, {plan.b.dst[0]};",
              f"\tmul.lo.u32 \t%r6, %r30, {kstep};"]
        L += ["\t" + x for x in load("%r3", "%r4", "%r33", "%r6")]
        L += ["\tadd.u32 \t%r30, %r30, 1;", "\tadd.u32 \t%r31, %r31, 1;",
              f"\tsetp.eq.u32 \t%p15, %r31, {S};", "\t@%p15 mov.u32 \t%r31, 0;", "\t@%p15 xor.b32 \t%r32, %r32, 1;",
              f"\tsetp.lt.u32 \t%p15, %r30, {KT};", "\t@%p15 bra \tPLOOP;",
              "PRODUCER_END:", "\tret;"]
    L += ["}", ""]
    return "\n".join(L)
