"""Tensor maps: the arguments of ``cuTensorMapEncodeTiled`` as a check file's ``[tensormaps.NAME]``.

A tensor map describes a global tensor of the file (``tensor``): its data type, rank (the length of
``dims``), global dims, global strides in bytes, box dims, element strides, interleave, swizzle,
L2 promotion and OOB fill.  Every numeric field may be an expression of the file's symbols.  The
global address is the tensor's base (a multiple of its ``align``) plus its ``offset`` elements.

This module is the model only: it parses and validates the table (bad input raises ``InputError``
naming the table and the field) and evaluates the fields at symbol values.  The driver's rules are
stated twice, independently: as a Z3 violation by the ``descriptor`` obligation
(``proofs/descriptor.py``) and by enumeration in the decider (``decide.tensormap``).
docs/tma.md has the rules and what the H200's driver answered where its header is vague.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from .expr import evaluate, names_of, parse_expr

# CUtensorMapDataType, in the enum's order (the value is the index): CUDA 13.0's cuda.h
DATA_TYPES = ("uint8", "uint16", "uint32", "int32", "uint64", "int64", "float16", "float32", "float64",
              "bfloat16", "float32_ftz", "tfloat32", "tfloat32_ftz", "16u4_align8b", "16u4_align16b",
              "16u6_align16b")
# bits one element takes in global memory (packed: 16 x U4 in 8 bytes; 16 x U4 or U6 in 16 bytes)
BITS = {"uint8": 8, "uint16": 16, "uint32": 32, "int32": 32, "uint64": 64, "int64": 64, "float16": 16,
        "float32": 32, "float64": 64, "bfloat16": 16, "float32_ftz": 32, "tfloat32": 32, "tfloat32_ftz": 32,
        "16u4_align8b": 4, "16u4_align16b": 8, "16u6_align16b": 8}
FLOATS = ("float16", "float32", "float64", "bfloat16", "float32_ftz", "tfloat32", "tfloat32_ftz")
PACKED = ("16u4_align8b", "16u4_align16b", "16u6_align16b")
INTERLEAVES = ("none", "16B", "32B")
SWIZZLES = ("none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B")
L2_PROMOTIONS = ("none", "64B", "128B", "256B")
OOB_FILLS = ("none", "nan")
HOST_TYPES = {"uint64": (0, 2**64 - 1), "int64": (-2**63, 2**63 - 1), "int32": (-2**31, 2**31 - 1),
              "uint32": (0, 2**32 - 1)}
MAX_RANK = 6  # longer lists are bad input; rank 0 and 6 reach the obligation (refuted: rank 1..5)

_KEYS = {"tensor", "dtype", "dims", "strides", "box", "element_strides", "interleave", "swizzle",
         "l2_promotion", "oob_fill", "computed_in"}
_LISTS = ("dims", "strides", "box", "element_strides")


@dataclass(frozen=True)
class TensorMap:
    """One ``[tensormaps.NAME]``: the arguments of ``cuTensorMapEncodeTiled`` (innermost dimension
    first, as the driver takes them), each numeric one an int or an expression of the symbols.
    ``align`` and ``offset`` come from the global tensor (``tensor``): the address is a multiple of
    ``align`` plus ``offset * tensor_bytes``.  ``computed_in``: the integer type the host code
    computes the numeric arguments in (each value must fit it)."""
    name: str
    tensor: str
    dtype: str
    dims: tuple
    strides: tuple  # bytes, rank - 1 entries (dimension 1 .. rank-1)
    box: tuple
    element_strides: tuple
    interleave: str = "none"
    swizzle: str = "none"
    l2_promotion: str = "none"
    oob_fill: str = "none"
    align: int = 16  # the tensor's align: the base address is a multiple of it
    offset: object = 0  # the tensor's offset, in its elements
    tensor_bytes: int = 1  # the tensor's element size
    computed_in: str = "uint64"

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def bits(self) -> int:
        return BITS[self.dtype]

    def fields(self):
        """Every numeric argument as (its place, e.g. ``box[1]``, its value or expression)."""
        for key in _LISTS:
            for k, v in enumerate(getattr(self, key)):
                yield f"{key}[{k}]", v

    def names(self) -> set[str]:
        out = names_of(self.offset)
        for _, v in self.fields():
            out |= names_of(v)
        return out

    def at(self, env: dict[str, int]) -> dict:
        """The driver's arguments at symbol values ``env`` (``address_offset``: bytes past the base)."""
        ev = lambda x: evaluate(x, env)  # noqa: E731
        return {"dtype": self.dtype, "dims": [ev(x) for x in self.dims], "strides": [ev(x) for x in self.strides],
                "box": [ev(x) for x in self.box], "element_strides": [ev(x) for x in self.element_strides],
                "interleave": self.interleave, "swizzle": self.swizzle, "l2": self.l2_promotion,
                "oob": self.oob_fill, "address_offset": ev(self.offset) * self.tensor_bytes}


def _choice(spec, key, options, default):
    v = spec.get(key, default)
    if not isinstance(v, str) or v not in options:
        raise InputError(f"unknown {key} {v!r} (one of {', '.join(options)})", key)
    return v


def parse(name: str, spec, symbols: dict, tensors: dict) -> TensorMap:
    """A ``[tensormaps.NAME]`` table (``tensors``: the file's, already parsed).  Raises InputError
    naming the field (the caller prefixes ``tensormaps.NAME``)."""
    if not isinstance(spec, dict):
        raise InputError("must be a table", "")
    for k in spec:
        if k not in _KEYS:
            raise InputError(f"unknown key {k!r} (allowed: {', '.join(sorted(_KEYS))})", "")
    for key in ("tensor", "dims", "box"):
        if key not in spec:
            raise InputError(f"missing key {key!r}", key)
    tname = spec["tensor"]
    if not isinstance(tname, str) or tname not in tensors:
        raise InputError(f"unknown tensor {tname!r} (the file's tensors: {', '.join(tensors) or 'none'})", "tensor")
    t = tensors[tname]
    if t.scope != "global":
        raise InputError(f"a tensor map describes a global tensor; {tname} is a {t.scope} tensor", "tensor")
    if "dtype" in spec:
        dtype = _choice(spec, "dtype", DATA_TYPES, None)
    elif t.dtype in DATA_TYPES:
        dtype = t.dtype
    else:
        raise InputError(f"tensor {tname}'s dtype {t.dtype} is no CUtensorMapDataType: give dtype "
                         f"(one of {', '.join(DATA_TYPES)})", "dtype")
    if dtype in PACKED:
        if t.esize != 1:
            raise InputError(f"a packed {dtype} map describes bytes: tensor {tname} must be uint8 or int8, "
                             f"not {t.dtype}", "dtype")
    elif BITS[dtype] != t.bits:
        raise InputError(f"{dtype} has {BITS[dtype]} bits, tensor {tname}'s {t.dtype} has {t.bits}", "dtype")
    lists = {}
    for key in _LISTS:
        v = spec.get(key)
        if key == "element_strides" and v is None:
            continue
        if key == "strides" and v is None:
            v = []
        if not isinstance(v, list):
            raise InputError(f"{key} must be a list (innermost dimension first)", key)
        if len(v) > MAX_RANK:
            raise InputError(f"{key} has {len(v)} entries: a tensor map has rank 1..5", key)
        vals = []
        for k, x in enumerate(v):
            where = f"{key}[{k}]"
            if isinstance(x, bool) or not isinstance(x, (int, str)):
                raise InputError(f"must be an integer or an expression of the symbols, got {x!r}", where)
            try:
                e = parse_expr(x, key)
            except InputError as err:
                raise InputError(err.message, where) from None
            for n in sorted(names_of(e)):
                if n not in symbols:
                    raise InputError(f"undeclared symbol {n!r} (declare it in [symbols.{n}])", where)
            vals.append(e)
        lists[key] = tuple(vals)
    rank = len(lists["dims"])
    if "element_strides" not in lists:
        lists["element_strides"] = (1,) * rank
    for key in ("box", "element_strides"):
        if len(lists[key]) != rank:
            raise InputError(f"{key} has {len(lists[key])} entries, dims has {rank}: one per dimension", key)
    if len(lists["strides"]) != max(rank - 1, 0):
        raise InputError(f"strides has {len(lists['strides'])} entries: the byte strides of dimensions "
                         f"1..{rank - 1} need {max(rank - 1, 0)} (dimension 0 is contiguous)", "strides")
    host = _choice(spec, "computed_in", tuple(HOST_TYPES), "uint64")
    return TensorMap(name, tname, dtype, lists["dims"], lists["strides"], lists["box"], lists["element_strides"],
                     _choice(spec, "interleave", INTERLEAVES, "none"), _choice(spec, "swizzle", SWIZZLES, "none"),
                     _choice(spec, "l2_promotion", L2_PROMOTIONS, "none"), _choice(spec, "oob_fill", OOB_FILLS, "none"),
                     t.align, t.offset, t.esize, host)

