"""The driver as referee: ``cuTensorMapEncodeTiled`` against tilecheck's ``descriptor`` obligation.

    python -m tilecheck.gpu.tmap_probe --count 12000 --seed 1 --out FILE.json    # driver + proof (GPU, z3)
    python tilecheck/gpu/tmap_probe.py --driver-only --count 12000 --seed 1 --out FILE.json  # no z3 needed
    python -m tilecheck.gpu.tmap_probe --compare FILE.json                       # recorded verdicts, no GPU

Draws ``--count`` argument sets (deterministic for a seed): rule-following ones (``valid``) and
single-rule mutations at each boundary -- every limit and the value past it (rank 0/1/5/6, dims
0/1/2^32/2^32+1, strides 0, +-1, +-8 and +-16 bytes, 2^40-16/2^40/2^40+16, box 0/1/256/257, element
strides 0/1/8/9), each alignment +-1 byte, the inner box at and past each swizzle span, every
interleave x swizzle, data type x OOB fill, the box's byte count around the driver's limit
(``box_bytes``: every representable size between 228,480 and 262,144 bytes; ``box_bytes_edge``: every
count within 48 bytes of 233,472 that a box can hold, odd ones through element_strides[0] > 1; floor
against ceil of box / element stride) and the global address around 2^57 (``address_edge``).  Each set is asked of the driver (``tensormap_driver.encode_tiled``) and
built as a check file with concrete values whose ``descriptor`` obligation tilecheck proves or
refutes; the report is ``tilecheck == driver: N/N`` with every disagreement listed.

``--driver-only`` records the driver's verdicts (a list of ``{"family", "args", "status"}``: the
format of ``/work/data/tmap_sweep_*.json``, which ``--compare`` reads too) without importing
tilecheck's prover; ``--compare`` proves recorded sets here.  Run as a script
(``python tilecheck/gpu/tmap_probe.py``) nothing of tilecheck but ``tensormap_driver.py`` is loaded
until a proof is asked for.  The driver takes ``cuuint64`` dims and strides and ``cuuint32`` box and
element strides: a recorded value outside them reached the driver reduced modulo 2^64 or 2^32, and is
compared so (``as_driver_saw``).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

DATA_TYPES = ("uint8", "uint16", "uint32", "int32", "uint64", "int64", "float16", "float32", "float64",
              "bfloat16", "float32_ftz", "tfloat32", "tfloat32_ftz", "16u4_align8b", "16u4_align16b",
              "16u6_align16b")
SIZE = {"uint8": 1, "uint16": 2, "uint32": 4, "int32": 4, "uint64": 8, "int64": 8, "float16": 2, "float32": 4,
        "float64": 8, "bfloat16": 2, "float32_ftz": 4, "tfloat32": 4, "tfloat32_ftz": 4, "16u4_align8b": 1,
        "16u4_align16b": 1, "16u6_align16b": 1}
PLAIN = DATA_TYPES[:13]
FLOATS = ("float16", "float32", "float64", "bfloat16", "float32_ftz", "tfloat32", "tfloat32_ftz")
SWIZZLES = ("none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B")
SPAN = {"none": None, "32B": 32, "64B": 64, "128B": 128, "128B_atom_32B": 128, "128B_atom_32B_flip_8B": 128,
        "128B_atom_64B": 128}
INTERLEAVES = ("none", "16B", "32B")
L2 = ("none", "64B", "128B", "256B")
BASE = 0x10000000  # the global address's base (the driver only checks its alignment; no memory is touched)
# the tensor a check file's map describes: the map's type, or one of its size
TENSOR_DTYPE = {"float32_ftz": "float32", "tfloat32": "float32", "tfloat32_ftz": "float32", "16u4_align8b": "uint8",
                "16u4_align16b": "uint8", "16u6_align16b": "uint8"}
BOX_LOW, BOX_HIGH = 228480, 262144  # the driver accepted 228,480 box bytes and refused 260,096 (tmap_sweep_*)
BOX_EDGE = 233472  # its limit (tmap_edges, 2026-12-03): box_bytes_edge probes every count within 48 of it
ADDRESS_EDGE = 2**57  # the driver refuses addresses from here on (the same day): address_value probes around it


# --- drawing argument sets ----------------------------------------------------------------------------

def _unit(a) -> int:
    return 32 if a["interleave"] == "32B" or a["dtype"] in ("16u4_align16b", "16u6_align16b") else 16


def _log(rng, lo, hi) -> int:
    return max(lo, min(hi, int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))))


def valid(rng) -> dict:
    """A rule-following argument set of the sm_90 driver (what tilecheck proves)."""
    dt = rng.choice(PLAIN)
    es = SIZE[dt]
    rank = rng.randint(1, 5)
    il = rng.choice(("none",) * 4 + ("16B", "32B")) if rank >= 3 else "none"
    sw = rng.choice(SWIZZLES[:4])
    span = SPAN[sw] if il == "none" and sw != "none" else 256 * es
    inner = 16 * rng.randint(1, max(1, min(span, 256 * es) // 16))  # box[0] bytes: a multiple of 16
    while inner % es:
        inner += 16
    box = [inner // es]
    estr = [rng.choice((1, 1, 1, 2, 3, 8))]
    dims = [_log(rng, 1, 2**32)]
    for _ in range(rank - 1):
        box.append(_log(rng, 1, 256))
        estr.append(rng.choice((1, 1, 1, 2, 3, 5, 8)))
        dims.append(_log(rng, 1, 2**20))
    while es * math.prod(b // e for b, e in zip(box, estr)) > BOX_LOW:  # keep under the limit
        k = rng.randrange(1, rank)
        box[k] = max(1, box[k] // 2)
    unit = 32 if il == "32B" else 16
    strides, acc = [], dims[0] * es
    for k in range(1, rank):
        acc = -(-acc // unit) * unit * rng.choice((1, 1, 2))
        if acc >= 2**40:
            acc = unit * _log(rng, 1, 2**30)
        strides.append(acc)
        acc *= dims[k]
    addr = BASE + unit * rng.randint(0, 64)
    oob = rng.choice(("none", "nan")) if dt in FLOATS else "none"
    return {"dtype": dt, "address": addr, "dims": dims, "strides": strides, "box": box, "element_strides": estr,
            "interleave": il, "swizzle": sw, "l2": rng.choice(L2), "oob": oob}


def _copy(a: dict) -> dict:
    return {k: list(v) if isinstance(v, list) else v for k, v in a.items()}


def mutations(rng, a: dict):
    """Single-rule changes of a valid set at each boundary: (family, args)."""
    r, es = len(a["dims"]), SIZE[a["dtype"]]
    k = rng.randrange(r)
    out = []

    def put(family, **changes):
        b = _copy(a)
        for key, val in changes.items():
            if isinstance(val, tuple):  # (index, value) into a list
                b[key][val[0]] = val[1]
            else:
                b[key] = val
        out.append((family, b))

    for v in (0, 1, 2**32 - 1, 2**32, 2**32 + 1):
        put("dims", dims=(k, v))
    if r > 1:
        j = rng.randrange(r - 1)
        s = a["strides"][j]
        for d in (-16, -8, -1, 1, 8, 16):
            if s + d >= 0:
                put("stride_multiple", strides=(j, s + d))
        for v in (0, 2**40 - 32, 2**40 - 16, 2**40, 2**40 + 16):
            put("stride_max", strides=(j, v))
        put("stride_small", strides=(j, 16 if _unit(a) == 16 else 32))  # below dims * the previous stride
        if r > 2:
            b = _copy(a)
            b["strides"][0], b["strides"][-1] = b["strides"][-1], b["strides"][0]
            out.append(("stride_order", b))
    for v in (0, 1, 255, 256, 257, a["dims"][k], a["dims"][k] + 1):
        if 0 <= v < 2**32:
            put("box", box=(k, v))
    for v in (0, 1, 7, 8, 9):
        put("element_strides", element_strides=(k, v))
    for d in (1, 2, 4, 8, 15, 16, 24, 32):
        put("address", address=a["address"] + d)
    put("address", address=a["address"] - 1)
    # the address's value: tilecheck models only its alignment (the tensor's align); does the driver look further?
    put("address_value", address=rng.choice((0, 2**12, 2**40, 2**47, 2**48, 2**56, 2**63, 2**64 - 256)))
    put("address_value", address=ADDRESS_EDGE + _unit(a) * rng.choice((-2, -1, 0, 1, 2)) + a["address"] % 4096)
    for b0 in {a["box"][0] - 1, a["box"][0] + 1, max(1, 16 // es) * rng.randint(1, 16), 24 // es or 1}:
        if 1 <= b0 <= 256:
            put("box_inner", box=(0, b0))
    for rr in (0, 6):
        b = _copy(a)
        if rr == 0:
            b.update(dims=[], strides=[], box=[], element_strides=[])
        else:
            while len(b["dims"]) < 6:
                b["dims"].append(2)
                b["box"].append(1)
                b["element_strides"].append(1)
                b["strides"].append((b["strides"][-1] if b["strides"] else 16 * b["dims"][0]) * 2)
        out.append(("rank", b))
    for il in INTERLEAVES:
        for sw in SWIZZLES:
            put("interleave_swizzle", interleave=il, swizzle=sw)
    if r < 3:
        put("interleave_rank", interleave=rng.choice(("16B", "32B")))
    for sw in SWIZZLES[1:]:  # the inner box at the span and one 16-byte step past it
        for inner in (SPAN[sw], SPAN[sw] + 16, SPAN[sw] - 16):
            if inner % es == 0 and 1 <= inner // es <= 256:
                put("swizzle_span", swizzle=sw, interleave="none", box=(0, inner // es))
    for dt in DATA_TYPES:
        for oob in ("none", "nan"):
            b = _copy(a)
            b["dtype"], b["oob"] = dt, oob
            if SIZE[dt] != es:  # keep the inner box a multiple of 16 bytes
                b["box"][0] = max(1, (b["box"][0] * es) // SIZE[dt])
            out.append(("dtype_oob", b))
    for l2 in L2:
        put("l2", l2=l2)
    return out


def packed(rng) -> dict:
    """The header's rules for a packed type (what an sm_100 driver would take)."""
    dt = rng.choice(DATA_TYPES[13:])
    rank = rng.randint(1, 5)
    dims = [128 * rng.randint(1, 64)] + [rng.randint(1, 64) for _ in range(rank - 1)]
    strides, acc = [], dims[0]
    for k in range(1, rank):
        acc = -(-acc // 32) * 32
        strides.append(acc)
        acc *= dims[k]
    return {"dtype": dt, "address": BASE + 32 * rng.randint(0, 8), "dims": dims, "strides": strides,
            "box": [128] + [rng.randint(1, 8) for _ in range(rank - 1)], "element_strides": [1] * rank,
            "interleave": "none", "swizzle": rng.choice(("none", "128B", "128B_atom_32B")), "l2": "none",
            "oob": "none"}


def _smooth(n: int, parts: int) -> list[int] | None:
    """``n`` as ``parts`` factors each 1..256 (prime factors packed first-fit, largest first), or None."""
    primes = []
    for p in range(2, 257):
        while n % p == 0:
            primes.append(p)
            n //= p
    if n != 1:
        return None
    bins = [1] * parts
    for p in sorted(primes, reverse=True):
        k = next((k for k in range(parts) if bins[k] * p <= 256), None)
        if k is None:
            return None
        bins[k] *= p
    return sorted(bins, reverse=True)


# box (uint8, innermost first), element strides: what the driver counts, floor or ceil of box / stride,
# with element_strides[0] or without it (the header says it is ignored without interleave)
FLOOR_CASES = (([256, 61, 61, 1, 1], [1, 2, 2, 1, 1]),  # floor 230,400 bytes, ceil 246,016
               ([256, 86, 98, 1, 1], [1, 3, 3, 1, 1]),  # floor 229,376, ceil 244,992
               ([256, 256, 256, 2, 1], [1, 1, 1, 3, 1]),  # floor 0 (box < stride), ceil 16,777,216
               ([256, 32, 32, 1, 1], [8, 1, 1, 1, 1]),  # with element_strides[0]: 32,768; without: 262,144
               ([256, 256, 256, 1, 1], [2, 1, 1, 1, 1]))  # 8,388,608 either way


def box_bytes(rng, step: int = 16) -> list[tuple[str, dict]]:
    """Every box byte count in BOX_LOW..BOX_HIGH (a multiple of ``step``) that uint8 boxes of rank 5 can
    hold, and ``FLOOR_CASES``."""
    out = []
    for total in range(BOX_LOW - 64, BOX_HIGH + 64 + 1, step):
        for box0 in (256, 128, 64, 32, 16):
            if total % box0:
                continue
            rest = _smooth(total // box0, 4)
            if rest is not None:
                out.append(("box_bytes", _box_set([box0, *rest], [1] * 5)))
                break
    for total in range(BOX_EDGE - 48, BOX_EDGE + 49):  # odd counts too: element_strides[0] > 1
        if (f := _edge_box(total)) is not None:
            out.append(("box_bytes_edge", _box_set(*f)))
    for box, estr in FLOOR_CASES:
        out.append(("box_bytes_floor", _box_set(box, estr)))
    for total in range(BOX_LOW // 1024 * 1024 - 1024, BOX_HIGH + 1024 + 1, 1024):  # the same limit interleaved?
        rest = _smooth(total // 256, 4) if total % 256 == 0 else None
        for il in ("16B", "32B") if rest is not None else ():
            out.append(("box_bytes_interleave", {**_box_set([256, *rest], [1] * 5), "interleave": il}))
    return out


def _edge_box(total: int) -> tuple[list[int], list[int]] | None:
    """A uint8 box of rank 5 and its element strides that count exactly ``total`` bytes, with
    box[0] a multiple of 16 and box[0] // element_strides[0] any quotient, or None."""
    for q0 in range(256, 0, -1):
        if total % q0:
            continue
        rest = _smooth(total // q0, 4)
        if rest is None:
            continue
        for e0 in range(1, 9):
            b0 = -(-q0 * e0 // 16) * 16  # the smallest multiple of 16 with b0 // e0 == q0, if any
            if b0 <= 256 and b0 // e0 == q0:
                return [b0, *rest], [e0, 1, 1, 1, 1]
    return None


def _box_set(box, estr) -> dict:
    dims = [4096, 256, 256, 256, 256]  # the last stride is 2^36, below 2^40
    strides, acc = [], dims[0]
    for k in range(1, 5):
        acc = -(-acc // 16) * 16
        strides.append(acc)
        acc *= dims[k]
    return {"dtype": "uint8", "address": BASE, "dims": dims, "strides": strides, "box": box,
            "element_strides": estr, "interleave": "none", "swizzle": "none", "l2": "none", "oob": "none"}


def address_edges() -> list[tuple[str, dict]]:
    """The global address around the driver's end, 2^57: one and two alignment units (16 and 32 with
    interleave 32B) and a page either side, and each power of two from 2^40 on."""
    out = []
    for il, unit in (("none", 16), ("32B", 32)):
        for d in (-4096, -2 * unit, -unit, 0, unit, 2 * unit, 4096):
            out.append(("address_edge", {**_box_set([16, 1, 1, 1, 1], [1] * 5), "address": ADDRESS_EDGE + d,
                                         "interleave": il}))
    for k in range(40, 64):
        out.append(("address_edge", {**_box_set([16, 1, 1, 1, 1], [1] * 5), "address": 2**k}))
    return out


def draw(count: int, seed: int) -> list[tuple[str, dict]]:
    """``count`` argument sets (at least the boundary sweeps of ``box_bytes`` and ``address_edges``): a fifth
    rule-following, the rest single-rule mutations of rule-following ones (four of each), packed types;
    deterministic for ``seed``."""
    rng = random.Random(seed)
    out = box_bytes(rng) + address_edges()
    count = max(count, len(out))
    while len(out) < count:
        a = valid(rng)
        out.append(("valid", a))
        muts = mutations(rng, a)
        out += rng.sample(muts, min(len(muts), 4))
        if rng.random() < 0.05:
            out.append(("packed", packed(rng)))
    return out[:count]


# --- the driver, and tilecheck --------------------------------------------------------------------------

def _driver():
    spec = importlib.util.spec_from_file_location("tilecheck_tensormap_driver", HERE / "tensormap_driver.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # (its dataclass looks its module up there)
    spec.loader.exec_module(mod)
    return mod


def ask(sets) -> list[dict]:
    """The driver's status for each set (0 accepted, 1 refused)."""
    drv = _driver()
    out = []
    for family, a in sets:
        e = drv.encode_tiled(**a)
        out.append({"family": family, "args": a, "status": e.status})
    return out


def as_driver_saw(a: dict) -> dict:
    """The arguments as the driver received them: ``cuuint64`` dims and strides, ``cuuint32`` box and
    element strides (a recorded value outside reached the driver reduced)."""
    b = dict(a)
    b["dims"] = [x % 2**64 for x in a["dims"]]
    b["strides"] = [x % 2**64 for x in a["strides"]]
    b["box"] = [x % 2**32 for x in a["box"]]
    b["element_strides"] = [x % 2**32 for x in a["element_strides"]]
    return b


def check_of(a: dict, arch: str = "sm_90", symbolic: bool = False) -> dict:
    """A check file (as a dict) whose one tensor map has the arguments ``a`` (concrete): the tensor's
    ``align`` is the address's largest power of two (up to 4096), which decides its alignment exactly.
    The rest of the address, a multiple of 4096, is the tensor's ``offset`` (the base taken as 0), which
    decides its range (``address_range``: below 2^57).
    ``symbolic``: every numeric argument is a symbol whose range holds that one value (a symbol is an
    s64: values past it stay constants), so the solver decides the obligation, not the simplifier."""
    a = as_driver_saw(a)
    addr = a["address"] % 2**64
    low = addr % 4096  # the base: its alignment; the offset: the rest, a multiple of 4096 (the address's range)
    align = min(low & -low, 4096) if low else 4096
    tensor = {"dtype": TENSOR_DTYPE.get(a["dtype"], a["dtype"]), "scope": "global", "shape": [1], "align": align,
              "offset": (addr - low) // SIZE[a["dtype"]]}
    symbols = {}

    def field(key):
        out = []
        for k, v in enumerate(a[key]):
            if symbolic and v < 2**63:
                name = f"{key}{k}"
                symbols[name] = {"min": v, "max": v}
                v = name
            out.append(v)
        return out

    m = {"tensor": "A", "dtype": a["dtype"], "dims": field("dims"), "strides": field("strides"), "box": field("box"),
         "element_strides": field("element_strides"), "interleave": a["interleave"], "swizzle": a["swizzle"],
         "l2_promotion": a["l2"], "oob_fill": a["oob"]}
    return {"arch": arch, "symbols": symbols, "tensors": {"A": tensor}, "tensormaps": {"M": m}}


def prove(a: dict, symbolic: bool = False) -> tuple[str, str | None]:
    """tilecheck's verdict on one set: ("proved" | "refuted" | ..., the refuted rule)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tilecheck.check import from_dict
    from tilecheck.proofs.registry import TENSORMAP_REGISTRY
    check = from_dict(check_of(a, symbolic=symbolic))
    out = TENSORMAP_REGISTRY["descriptor"].prove(check, check.tensormaps["M"], 10.0)
    return out.status, (out.counterexample or {}).get("rule")


def compare(records: list[dict], symbolic: bool = False) -> dict:
    """Prove every recorded set (``symbolic``: each number a pinned symbol, ``check_of``); the agreement
    with the driver and every disagreement."""
    agree, differ, by_family = 0, [], {}
    for rec in records:
        status, rule = prove(rec["args"], symbolic)
        accepted = rec["status"] == 0
        same = (status == "proved") == accepted and status in ("proved", "refuted")
        fam = by_family.setdefault(rec.get("family", "recorded"), [0, 0])
        fam[0] += same
        fam[1] += 1
        if same:
            agree += 1
        else:
            differ.append({**rec, "tilecheck": status, "rule": rule})
    return {"agree": agree, "total": len(records), "disagreements": differ, "by_family": by_family}


def boundary(records: list[dict]) -> str | None:
    """What the driver said about the box's byte count: the largest accepted and the smallest refused
    (``box_bytes`` sets only)."""
    acc, ref = [], []
    for rec in records:
        if rec.get("family") not in ("box_bytes", "box_bytes_edge"):
            continue
        a = rec["args"]
        n = SIZE[a["dtype"]] * math.prod(b // e for b, e in zip(a["box"], a["element_strides"]))
        (acc if rec["status"] == 0 else ref).append(n)
    if not acc and not ref:
        return None
    text = (f"box bytes: largest accepted {max(acc, default=None)}, smallest refused {min(ref, default=None)} "
            f"({len(acc)} accepted, {len(ref)} refused)")
    addr = [(rec["args"]["address"], rec["status"]) for rec in records
            if rec.get("family") in ("address_value", "address_edge")
            and rec["args"]["address"] % _unit(rec["args"]) == 0]  # aligned ones: only the range decides
    if addr:
        hi = max((x for x, s in addr if s == 0), default=None)
        lo = min((x for x, s in addr if s != 0), default=None)
        text += (f"\naddress: largest accepted {hex(hi) if hi is not None else None}, smallest refused "
                 f"{hex(lo) if lo is not None else None} ({len(addr)} aligned sets)")
    return text


def report(result: dict, records: list[dict]) -> str:
    lines = [f"tilecheck == driver: {result['agree']}/{result['total']}"]
    for fam, (same, n) in sorted(result["by_family"].items()):
        lines.append(f"  {fam:<20} {same}/{n}")
    if (b := boundary(records)) is not None:
        lines.append(b)
    for d in result["disagreements"]:
        lines.append(f"DIFFERS {d.get('family', '')}: driver {'accepted' if d['status'] == 0 else 'refused'}, "
                     f"tilecheck {d['tilecheck']} ({d['rule']}): {json.dumps(d['args'])}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="tmap_probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write the records (and tilecheck's verdicts) as JSON")
    ap.add_argument("--driver-only", action="store_true", help="ask the driver only (no z3 needed)")
    ap.add_argument("--compare", metavar="FILE", help="prove recorded verdicts here (no GPU)")
    ap.add_argument("--limit", type=int, help="--compare: the first N records only")
    ap.add_argument("--symbolic", action="store_true",
                    help="state each number as a symbol pinned to it: the solver decides, not the simplifier")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    if args.compare:
        records = json.loads(Path(args.compare).read_text())
        if isinstance(records, dict):  # a probe's own --out
            records = records["records"]
        records = [r for r in records if r.get("status") is not None][:args.limit]
    else:
        sets = draw(args.count, args.seed)
        try:
            records = ask(sets)
        except Exception as e:  # noqa: BLE001  no libcuda, no device: one line
            if type(e).__name__ != "DriverUnavailable":
                raise
            print(f"tmap_probe: error: the driver is not available here ({e}); --compare FILE proves recorded "
                  f"verdicts without it", file=sys.stderr)
            return 2
        print(f"{len(records)} sets asked of the driver in {time.perf_counter() - start:.1f} s: "
              f"{sum(r['status'] == 0 for r in records)} accepted", flush=True)
        if args.driver_only:
            if args.out:
                Path(args.out).write_text(json.dumps(records))
            print(boundary(records) or "")
            return 0
    result = compare(records, args.symbolic)
    text = report(result, records)
    print(text)
    print(f"({time.perf_counter() - start:.1f} s)")
    if args.out:
        Path(args.out).write_text(json.dumps({"records": records, "agree": result["agree"], "total": result["total"],
                                              "disagreements": result["disagreements"]}))
    return 0 if result["agree"] == result["total"] else 1


if __name__ == "__main__":
    sys.exit(main())
