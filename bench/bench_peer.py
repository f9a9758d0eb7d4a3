#!/usr/bin/env python3
"""tilecheck against the peer, TVM TIRx (apache-tvm-tirx==0.1.0a4), side by side in one run.

  python bench/bench_peer.py                 # scaling table + accept/reject cases (about 2 minutes)
  python bench/bench_peer.py --no-cases      # scaling only
  python bench/bench_peer.py --no-scaling    # cases only
  python bench/bench_peer.py --json bench/results/peer.json

1. Scaling: a contiguous (R, 4) float32 tile read into registers with R x ld.global.v4.b32, thread scope,
   R = 10^2 .. 10^5, plus the documentation example (examples/seed.toml). Peer: tvm_tirx.tirx.compile
   of the same tile in its own venv (bench/.venv-tirx, made by bench/peer_env.sh), one subprocess per
   measurement running bench/peer_tirx.py; we report its in-process compile time and the subprocess
   wall time. Ours: wall time of the CLI `python -m tilecheck prove FILE` on the generated check file,
   and of `python -m tilecheck emit FILE --kernel --force` once the emitter exists (skipped, and said so,
   while it does not). Ratios are peer compile time / our CLI wall time.
2. Accept/reject cases: each case is written in both (bench/cases/*.toml or examples/*.toml, and
   CASES in bench/peer_tirx.py); we run both and print the verdicts, which one is right and why.
   Where the peer accepts, its CUDA C is compiled with `nvcc -arch=ARCH -cubin` as an independent
   witness of instruction legality (ptxas column).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (BENCH, ROOT, emit_available, env, fmt_ratio, fmt_s, machine, median, ours,  # noqa: E402
                    table, tile_check, timed)

PEER = os.path.join(BENCH, "peer_tirx.py")

# case -> (our check file, expected ours, expected peer, who is right, why)
CASES = {
    "seed": ("examples/seed.toml", "proved", "accepted", "both",
             "documentation example; both emit 105 ld.global.v4.b32"),
    "inj_3x2": ("bench/cases/inj_3x2.toml", "proved", "rejected", "tilecheck",
                "slots 0,3,2,5,4,7 are pairwise distinct; TIRx's rule (sorted strides, each >= the span "
                "so far) is sufficient, not necessary, and rejects this injective layout"),
    "reversed_words": ("bench/cases/reversed_words.toml", "proved", "rejected", "tilecheck",
                       "slots 3,2,1,0,7,6,5,4 are distinct; the same stride rule rejects any negative stride"),
    "collide": ("bench/cases/collide.toml", "refuted", "rejected", "both",
                "repeats 0 and 1 both load into slots 0..3"),
    "race_thread_store": ("bench/cases/race_thread_store.toml", "refuted", "accepted", "tilecheck",
                          "all 128 threads store (different) values to the same 48 bytes: a data race; "
                          "TIRx checks no cross-thread store disjointness"),
    "race_warp_store": ("bench/cases/race_warp_store.toml", "refuted", "accepted", "tilecheck",
                        "warp scope, memory lane stride 0: 32 lanes store to the same 48 bytes, a data race"),
    "store_self_overwrite": ("bench/cases/store_self_overwrite.toml", "refuted", "accepted", "tilecheck (contract)",
                             "one thread stores repeat 1 over repeat 0 (row stride 0): not UB (program order), "
                             "but repeat 0 is lost; tilecheck's disjoint contract forbids it, TIRx is silent"),
    "v8_b32_sm90": ("bench/cases/v8_b32_sm90.toml", "refuted", "accepted", "tilecheck",
                    "256-bit ld.global.v8.b32 needs sm_100+ (PTX 8.8); TIRx emits it for sm_90 and ptxas refuses"),
    "v8_b32_sm100a": ("bench/cases/v8_b32_sm100a.toml", "proved", "accepted", "both",
                      "legal on sm_100a; ptxas accepts"),
    "v8_b16_sm100a": ("bench/cases/v8_b16_sm100a.toml", "refuted", "rejected", "both",
                      ".v8 of a 16-bit type: ptxas takes it but miscompiles; TIRx cannot even spell it"),
    "symbolic_start": ("examples/symbolic_tile.toml", "proved", "rejected", "tilecheck",
                       "free tile start r0, c0 with facts r0+8<=n, c0+8<=k, multiples of 8: TIRx's tile "
                       "checks ignore T.assume, so 'cannot prove 0 <= r0'; only loop/launch ranges count"),
    "symbolic_start_ctaid": ("bench/cases/symbolic_start_ctaid.toml", "proved", "accepted", "both",
                             "start bound to blockIdx (TIRx) / symbols with b < nt (ours). NB: TIRx's CUDA C "
                             "computes the index in 32-bit int (blockIdx.x*kt*64), which wraps once the "
                             "tensor has >= 2^31 elements"),
    "misaligned_region": ("examples/region_misaligned_refuted.toml", "refuted", "rejected", "both",
                          "A[:, 1:5] of a row-major (8,5) float32 starts at byte 4, not 16-byte aligned"),
    "cta_shared_store": ("examples/cta_shared_store.toml", "proved", "accepted", "both",
                         "CTA-scope shared store, 3 st.shared.v4.b32 per thread"),
    "cta_lane_stride2": ("examples/cta_lane_stride2_refuted.toml", "refuted", "rejected", "both",
                         "register lane stride 2: lane l names lane 2l's registers (ownership)"),
    "generic_space": ("bench/cases/generic_space.toml", "refuted", "rejected", "both",
                      "ld.v4.b32 (generic addressing) names no state space"),
    "v4_f16": ("bench/cases/v4_f16.toml", "refuted", "rejected", "both",
               "ld/st take no .f16 type (use .b16)"),
    "preserve_dst_store": ("bench/cases/preserve_dst_store.toml", "refuted", "rejected", "both",
                           "preserve_dst only means something on a predicated load"),
}


def peer_python(path=None):
    if path:
        return path
    p = subprocess.run(["bash", os.path.join(BENCH, "peer_env.sh")], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench_peer: could not make the peer venv:\n{p.stderr[-2000:]}")
    return p.stdout.strip().splitlines()[-1]


def peer_run(py, *args):
    """Run peer_tirx.py; return (subprocess wall seconds, list of JSON results)."""
    wall, p = timed([py, PEER, *args], cwd=ROOT)
    if p.returncode != 0:
        raise RuntimeError(f"peer_tirx.py {' '.join(args)} failed:\n{p.stderr[-3000:]}")
    return wall, [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def our_prove(path):
    wall, p = timed(ours("prove", "--json", path), cwd=ROOT, env=env())
    try:
        d = json.loads(p.stdout)
    except json.JSONDecodeError:
        d = {"verdict": "error", "error": {"message": p.stderr.strip()[-300:]}}
    return wall, p.returncode, d


def our_emit(path, out, kernel=True):
    # --force: the 10^5-repeat tile needs 400,000 registers, refused without it (a performance refutation)
    wall, p = timed(ours("emit", path, *(["--kernel"] if kernel else []), "--force", "-o", out), cwd=ROOT, env=env())
    return wall, p.returncode, p.stderr.strip()[-300:]


def scaling(py, sizes, reps_ours, reps_peer, has_emit, tmp):
    rows, raw = [], []
    items = [(f"{R:.0e}".replace("e+0", "e"), R, tile_check(R)) for R in sizes]
    items.append(("seed", None, open(os.path.join(ROOT, "examples/seed.toml")).read()))
    for label, R, text in items:
        path = os.path.join(tmp, f"tile_{label}.toml")
        with open(path, "w") as f:
            f.write(text)
        print(f"  {label}: ours ...", file=sys.stderr, flush=True)
        prove_w, prove_rc, prove_d = [], None, None
        for _ in range(reps_ours):
            w, prove_rc, prove_d = our_prove(path)
            prove_w.append(w)
        emit_w, emit_rc, emit_err, frag_w, frag_rc = [], None, "", [], None
        if has_emit:
            for _ in range(reps_ours):
                w, emit_rc, emit_err = our_emit(path, os.path.join(tmp, f"tile_{label}.ptx"))
                emit_w.append(w)
                w, frag_rc, _ = our_emit(path, os.path.join(tmp, f"tile_{label}.frag.ptx"), kernel=False)
                frag_w.append(w)
        print(f"  {label}: peer ...", file=sys.stderr, flush=True)
        n_peer = reps_peer if (R is None or R <= 10_000) else 1
        pw, pc, pres = [], [], None
        for _ in range(n_peer):
            w, res = peer_run(py, *(("tile", str(R)) if R else ("seed",)))
            pres = res[0]
            pw.append(w)
            pc.append(pres["compile_s"] or 0.0)
        instr = sum(a.get("instructions", 0) for a in prove_d.get("applies", []))
        peer_instr = sum(pres["instructions"].values())
        r = {"case": label, "repeats": R if R else 105, "ours_verdict": prove_d.get("verdict"),
             "ours_instructions": instr, "ours_prove_wall_s": median(prove_w),
             "ours_prove_in_process_s": prove_d.get("seconds"),
             "ours_emit_wall_s": median(emit_w) if emit_w and emit_rc == 0 else None,
             "ours_emit_fragment_wall_s": median(frag_w) if frag_w and frag_rc == 0 else None,
             "emit_status": ("ok" if emit_rc == 0 else f"exit {emit_rc}: {emit_err}") if has_emit else "not built",
             "peer_verdict": pres["verdict"], "peer_instructions": peer_instr,
             "peer_compile_s": median(pc), "peer_process_wall_s": median(pw),
             "reps_ours": reps_ours, "reps_peer": n_peer}
        r["ratio_prove"] = r["peer_compile_s"] / r["ours_prove_wall_s"]
        r["ratio_emit"] = (r["peer_compile_s"] / r["ours_emit_wall_s"]) if r["ours_emit_wall_s"] else None
        r["ratio_fragment"] = (r["peer_compile_s"] / r["ours_emit_fragment_wall_s"]
                               if r["ours_emit_fragment_wall_s"] else None)
        raw.append(r)
        rows.append([label, r["repeats"], f"{r['ours_verdict']} / {r['peer_verdict']}",
                     f"{instr} / {peer_instr}", fmt_s(r["peer_compile_s"]), fmt_s(r["peer_process_wall_s"]),
                     fmt_s(r["ours_prove_wall_s"]), fmt_s(r["ours_prove_in_process_s"]),
                     fmt_s(r["ours_emit_fragment_wall_s"]) if has_emit else "not built",
                     fmt_s(r["ours_emit_wall_s"]) if has_emit else "not built",
                     fmt_ratio(r["ratio_prove"]), fmt_ratio(r["ratio_fragment"]) if has_emit else "—",
                     fmt_ratio(r["ratio_emit"]) if has_emit else "—"])
    header = ["tile", "repeats", "verdict ours / peer", "instr. ours / peer", "peer compile",
              "peer process", "ours prove CLI", "ours prove in-proc", "ours emit CLI (fragment)",
              "ours emit --kernel CLI", "peer / prove", "peer / emit", "peer / emit --kernel"]
    return table(header, rows), raw


def ptxas_witness(cu, arch):
    nvcc = shutil.which("nvcc")
    if not nvcc or not cu:
        return "—"
    p = subprocess.run([nvcc, f"-arch={arch}", "-cubin", "-o", os.devnull, cu], capture_output=True, text=True)
    if p.returncode == 0:
        return "ok"
    err = next((ln for ln in p.stderr.splitlines() if "error" in ln.lower()), p.stderr.strip()[:120])
    return "fails: " + err.split("error", 1)[-1].strip(" :")[:90]


def _reason(message):
    """The peer's reason, without its 'lowering failed: op=...' header or its list of legal modifiers."""
    parts = [x.strip() for x in message.split(" | ")]
    if len(parts) > 1 and "lowering failed" in parts[0]:
        parts = parts[1:]
    return "; ".join(parts).split("; open slots")[0].replace('\\"', '"')


def cases(py, tmp):
    cu_dir = os.path.join(tmp, "cu")
    _, res = peer_run(py, "case", "all", "--cuda", cu_dir)
    peer = {r["case"]: r for r in res}
    rows, raw, surprises = [], [], []
    for name, (path, exp_ours, exp_peer, right, why) in CASES.items():
        _, rc, d = our_prove(path)
        bad = [o for a in d.get("applies", []) for o in a["obligations"] if o["status"] not in ("proved", "skipped")]
        ours_v = d.get("verdict")
        ours_detail = ", ".join(f"{o['name']} {o['status']}" for o in bad)
        p = peer[name]
        peer_detail = (_reason(p["message"]) if p["verdict"] == "rejected"
                       else ", ".join(f"{k} x{n}" for k, n in p["instructions"].items()))
        witness = ptxas_witness(p.get("cuda"), p["arch"]) if p["verdict"] == "accepted" else "—"
        agree = (ours_v == "proved") == (p["verdict"] == "accepted")
        if ours_v != exp_ours or p["verdict"] != exp_peer:
            surprises.append(f"{name}: expected ours={exp_ours} peer={exp_peer}, got ours={ours_v} peer={p['verdict']}")
        raw.append({"case": name, "check_file": path, "arch": p["arch"], "ours": ours_v, "ours_detail": ours_detail,
                    "peer": p["verdict"], "peer_stage": p["stage"], "peer_detail": peer_detail,
                    "ptxas_on_peer_cuda": witness, "agree": agree, "right": right, "why": why})
        rows.append([name, p["arch"], f"{ours_v}" + (f" ({ours_detail})" if ours_detail else ""),
                     f"{p['verdict']}" + (f" ({peer_detail[:160]})" if peer_detail else ""), witness,
                     "yes" if agree else "**NO**", right, why])
    header = ["case", "arch", "tilecheck", "TIRx", "ptxas on TIRx's CUDA C", "agree", "right", "why"]
    return table(header, rows), raw, surprises


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e2,1e3,1e4,1e5", help="repeat counts (default 1e2,1e3,1e4,1e5)")
    ap.add_argument("--repeats", type=int, default=3, help="runs of our CLI per size (median)")
    ap.add_argument("--peer-repeats", type=int, default=3, help="peer runs per size up to 1e4 (1 above)")
    ap.add_argument("--peer-python", help="python of a ready peer venv (default: bash bench/peer_env.sh)")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--no-cases", action="store_true")
    ap.add_argument("--json", help="also write the raw results here")
    a = ap.parse_args(argv)
    py = peer_python(a.peer_python)
    vp = subprocess.run([py, "-c", "import importlib.metadata as m; print(m.version('apache-tvm-tirx'))"],
                        capture_output=True, text=True).stdout.strip()
    info = machine() | {"tirx": vp}
    print(f"# tilecheck vs TVM TIRx {vp} — {info['date']}, {info['nproc']} x {info['cpu']}, "
          f"Python {info['python']}, z3 {info['z3']}, commit {info['commit']}, load average {info['load']}\n")
    out = {"machine": info}
    with tempfile.TemporaryDirectory(prefix="bench_peer_") as tmp:
        if not a.no_scaling:
            has_emit = emit_available()
            if not has_emit:
                print("`tilecheck emit` does not exist yet: the emit column is skipped.\n")
            sizes = [int(float(s)) for s in a.sizes.split(",")]
            t, raw = scaling(py, sizes, a.repeats, a.peer_repeats, has_emit, tmp)
            print("## Compile/check time against the peer\n")
            print(t + "\n")
            out["scaling"] = raw
            out["emit_available"] = has_emit
        if not a.no_cases:
            t, raw, surprises = cases(py, tmp)
            print("## Accept/reject cases\n")
            print(t + "\n")
            for s in surprises:
                print(f"SURPRISE (the 'right' column was written for the expected verdicts): {s}")
            out["cases"] = raw
    print(f"\nload average at the end: {'%.2f %.2f %.2f' % os.getloadavg()}")
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
