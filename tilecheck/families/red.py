"""red: atomic reduction without return, ``red.global.add``: each thread adds its register vector
to memory.  Many threads may add to one address (that is split-K), so ``disjoint`` does not
apply; the atom is still the issuing thread's contiguous, aligned vector of its own registers.

Spelling: ``red{.sem}{.scope}.global.add{.noftz}{.vN}.type [a], b`` (ptxas also takes the vector
and type before ``.add``); the half types need ``.noftz``.  The legal set is a ptxas 13.0 sweep
(``tests/test_red.py``): vectors need sm_90 (f32: v2/v4; f16/bf16: v2/v4/v8; f16x2/bf16x2:
v2/v4), bf16 and bf16x2 and the ``.cluster`` scope need sm_90; the lowest ``.version`` of each
is ``VERSIONS`` (``.noftz``, PTX 6.3, is older than every target and needs no row).  tilecheck
models ``.global`` only and no cache hint.
"""
from dataclasses import dataclass

import numpy as np

from ..opcodes import OpcodeError, needs, parse_arch
from . import ATOMIC, MEMORY, READ, REGISTER, Family, Role

TYPES = {"f32": 32, "u32": 32, "s32": 32, "u64": 64, "f64": 64, "f16": 16, "bf16": 16, "f16x2": 32,
         "bf16x2": 32, "s64": 64, "b32": 32, "b64": 64}  # the last three: real types red.add lacks
ADD = ("f32", "u32", "s32", "u64", "f64", "f16", "bf16", "f16x2", "bf16x2")
VECTORS = {"f32": (2, 4), "f16": (2, 4, 8), "bf16": (2, 4, 8), "f16x2": (2, 4), "bf16x2": (2, 4)}
GROUPS = {"space": ("global", "shared", "shared::cta", "shared::cluster"), "sem": ("relaxed", "release"),
          "scope": ("cta", "cluster", "gpu", "sys"), "op": ("add",), "noftz": ("noftz",),
          "vector": ("v2", "v4", "v8"), "type": tuple(TYPES)}
GROUP_OF = {t: g for g, ts in GROUPS.items() for t in ts}
OTHER_OPS = ("min", "max", "inc", "dec", "and", "or", "xor")
# qualifier -> lowest .version, each checked against ptxas 13.0 (tests/test_red.py)
VERSIONS = (("vector red", lambda op: op.vector > 1, (8, 1)),
            (".bf16/.bf16x2", lambda op: op.type in ("bf16", "bf16x2"), (7, 8)),
            (".cluster scope", lambda op: op.first("scope") == "cluster", (7, 8)))


@dataclass(frozen=True)
class RedOpcode:
    text: str
    kind: str
    space: str | None
    vector: int
    type: str
    bits: int
    cache_hint: bool
    qualifiers: tuple[str, ...]

    def first(self, group):
        return next((q for q in self.qualifiers if GROUP_OF[q] == group), None)


def parse(text: str) -> RedOpcode:
    kind, *quals = text.strip().split(".")
    for q in quals:
        if q in OTHER_OPS:
            raise OpcodeError(f"red.{q} in {text!r}: tilecheck's red family models .add only")
        if q not in GROUP_OF:
            raise OpcodeError(f"unknown qualifier '.{q}' in {text!r}" if q else f"empty qualifier in {text!r}")
    types = [q for q in quals if GROUP_OF[q] == "type"]
    if not types or "add" not in quals:
        raise OpcodeError(f"{text!r} needs .add and a type (e.g. red.global.add.f32)")
    space = next((q for q in quals if GROUP_OF[q] == "space"), None)
    vec = next((q for q in quals if GROUP_OF[q] == "vector"), "v1")
    return RedOpcode(text, kind, space, int(vec[1:]), types[-1], TYPES[types[-1]], False, tuple(quals))


def legality(op, arch) -> str | None:
    target, t = parse_arch(arch), op.type
    groups = [GROUP_OF[q] for q in op.qualifiers]
    reasons = [
        (next((g for g in GROUPS if groups.count(g) > 1), None), "more than one .{} qualifier"),
        (op.space not in ("global",), "tilecheck's red family models .global only"),
        (t not in ADD, f"red.add takes no .{t}"),
        ((t in ("f16", "bf16", "f16x2", "bf16x2")) != bool(op.first("noftz")),
         ".noftz goes exactly with the half types (f16, bf16, f16x2, bf16x2)"),
        (op.vector > 1 and op.vector not in VECTORS.get(t, ()),
         f".v{op.vector} of .{t} is no red vector form"),
    ]
    for bad, reason in reasons:
        if bad:
            return f"{op.text}: {reason.format(bad) if '{}' in reason else reason}"
    if (op.vector > 1 or t in ("bf16", "bf16x2") or op.first("scope") == "cluster") and target.sm < 90:
        why = "vector red" if op.vector > 1 else "." + t if t.startswith("bf16") else ".cluster scope"
        return f"{op.text} needs sm_90 or newer ({why}), target is {target.name}"
    return None


def ptx_version(op, arch) -> tuple[int, int]:
    return needs(VERSIONS, op, arch)


LANE = {"f32": np.float32, "f64": np.float64, "u32": np.uint32, "s32": np.int32, "u64": np.uint64,
        "f16": np.float16, "f16x2": np.float16}  # the type red adds, per element (packed: per half)


class Red(Family):
    name = "red"
    instructions = ("red",)
    keys = {}
    obligations = ("target", "space", "shape", "width", "contiguity", "alignment", "ownership", "bounds",
                   "overflow", "registers", "banks", "sectors")  # not disjoint: many threads add to one address
    verbs = ("reads", "adds to")
    updates_memory = True

    def roles(self, op):
        return Role("dst", MEMORY, ("global",), ATOMIC), Role("src", REGISTER, ("register",), READ)

    def memory_role(self, op):
        return "dst"

    parse = staticmethod(parse)
    legality = staticmethod(legality)
    ptx_version = staticmethod(ptx_version)
    versions = VERSIONS

    verbatim = True

    def instruction(self, a, regs, addr, pred, policy):
        return f"\t{a.opcode.text} {addr}, {regs};"

    def reference(self, a, memory, off, threads, values):
        """numpy.add.at, once per thread that executes the coordinates (replicas); bf16 through
        float32 (exact for the small integers ``inputs`` draws)."""
        memory._check(off)
        t, data, n = a.opcode.type, memory.data, threads.shape[0]
        if t.startswith("bf16"):
            lanes = data.view(np.uint16).astype(np.uint32) << 16
            acc, vals = lanes.view(np.float32), (values.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            acc = data.view(LANE[t])
            vals = values.view(LANE[t])
        where = (2 * off[:, None] + np.arange(2)).reshape(-1) if t.endswith("x2") else off
        for _ in range(n):
            np.add.at(acc, where, vals)
        if t.startswith("bf16"):
            data.view(np.uint16)[:] = (acc.view(np.uint32) >> 16).astype(np.uint16)

    def inputs(self, a, tensor, n, rng):
        """Small integers in the type red adds (sums are exact in any order, bf16 included)."""
        t, bits = a.opcode.type, tensor.bits
        if bits != a.opcode.bits:  # refuted on width: the ld/st default (random bits)
            return None
        x = rng.integers(0 if t.startswith("u") else -2, 3, size=n * (2 if t.endswith("x2") else 1))
        if t.startswith("bf16"):
            words = (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        else:
            words = x.astype(LANE[t])
        return words.view({16: np.uint16, 32: np.uint32, 64: np.uint64}[bits])


FAMILY = Red()
