"""The checked model: symbols, tensors, applications — from a TOML check file or Python.

Everything here is validated on the way in; a problem raises ``InputError``
naming the place (tensor, apply, key) and the problem in one line.
"""
from __future__ import annotations

import ast
import operator
import re
import sys
import tomllib
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from . import accesses as _accesses, families, opcodes, tensormap
from .errors import InputError
from .expr import MAX_BITS, brief, concrete, decided, names_of, parse_expr, parse_fact, to_poly, wide
from .machine import GROUPS, group_shape
from .obligations import PERFORMANCE, RECORDS
from .layout import Layout, ThreadStride, _leaves, _same_nesting, from_tv, parse_layout, product, row_major
from .poly import Context, Poly
from .view import View, parse_operand

DTYPES = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64, "int8": 8, "uint8": 8,
          "int16": 16, "uint16": 16, "int32": 32, "uint32": 32, "int64": 64, "uint64": 64}
SCOPES = ("global", "shared", "local", "register")
SYMBOL_SOURCES = ("ctaid.x", "ctaid.y", "ctaid.z", "warpid", "ctarank")
MAX_CLUSTER = 16  # CTAs of a cluster (sm_90's non-portable limit; a multicast's cta_mask has 16 bits)
INT_MAX = 2**31 - 1
WORD = (-(2**64 - 1), 2**64 - 1)  # 64 bits of magnitude (a 64-bit register, and a sign): the file's integers,
# offsets, strides; address arithmetic past 2**64 is the overflow obligation's to refute
S64 = (-2**63, 2**63 - 1)  # a symbol's values: the kernel's .s64 parameter
MAX_OPCODE = 200  # characters: the longest PTX spelling is under 100
STDIN = "-"  # the file name that reads standard input


@dataclass(frozen=True)
class Symbol:
    """A symbolic integer of the check file (``[symbols.NAME]``): every proof holds for each value in
    ``min..max`` that is a multiple of ``multiple_of`` (and satisfies ``assume``).  ``source``
    (``from = "ctaid.x"``) binds it to a CTA index in emitted code; ``from = "warpid"`` to the issuing
    thread's warp (``tid.x / 32``): it takes every value ``0 .. (threads-1)/32``, one per warp;
    ``from = "ctarank"`` to the CTA's rank in its cluster (``%cluster_ctarank``): ``0 .. max``, a
    cluster of ``max + 1`` CTAs."""
    name: str
    min: int = 1
    max: int = INT_MAX
    multiple_of: int = 1
    source: str | None = None  # "ctaid.x": the kernel binds it to the CTA index; "warpid": to tid.x/32;
    #                            "ctarank": to %cluster_ctarank
    min_default: bool = field(default=False, compare=False)  # min was not given (the file's default, 1)

    @property
    def cta(self) -> bool:
        """Bound to a ``%ctaid`` component: one value per CTA of the launch."""
        return bool(self.source) and self.source.startswith("ctaid.")

    @property
    def warp(self) -> bool:
        """Bound to the warp id (``from = "warpid"``): one value per warp of the CTA."""
        return self.source == "warpid"

    @property
    def rank(self) -> bool:
        """Bound to the CTA's rank in its cluster (``from = "ctarank"``): one value per CTA of the cluster."""
        return self.source == "ctarank"

    @property
    def per_cta(self) -> bool:
        """Its value differs between the CTAs of a launch (a ``%ctaid`` component or the cluster rank)."""
        return self.cta or self.rank

    @property
    def register(self) -> str:
        """The special register the kernel reads it from (a bound symbol)."""
        return "%cluster_ctarank" if self.rank else f"%{self.source}"

    @property
    def min_note(self) -> str:
        """What an error that depends on ``min`` says when the file left it to its default."""
        return f" (symbols.{self.name}.min is not given: it defaults to 1)" if self.min_default else ""


@dataclass(frozen=True)
class Tensor:
    """A tensor of the check file (``[tensors.NAME]``): element type, state space (global, shared,
    local or register), logical shape, layout (logical index -> element offset, or for registers
    the slot and the thread that holds it), element offset and byte alignment of the base."""
    name: str
    dtype: str
    scope: str
    shape: tuple
    layout: Layout
    offset: object = 0
    align: int = 1

    @property
    def bits(self) -> int:
        return DTYPES[self.dtype]

    @property
    def esize(self) -> int:
        return DTYPES[self.dtype] // 8

    @property
    def is_register(self) -> bool:
        return self.scope == "register"


@dataclass(frozen=True)
class Descriptor:
    """A shared-memory matrix descriptor of the check file (``[descriptors.NAME]``, docs/wgmma.md): the
    fields the code gives ``matrix-descriptor-encode`` (byte values) for reading the shared tensor
    ``tensor``, each an int or the text of an expression over the symbols and the shared tensors' names
    (a shared tensor's name is its byte address: ``start = "SA"``), with ``+ - * // % << >> & | ^``.
    ``word``: the 64-bit word as the code packs it (None: the exact encoding of the fields);
    ``advance``: the start's byte advance at K steps 1, 2, ...; ``tile``: the ``(MN, K)`` the file says
    one instruction reads (None: the instruction's own).  An apply's descriptor role names it."""
    name: str
    tensor: str
    major: str
    swizzle: str
    start: object = 0
    lbo: object = 0
    sbo: object = 0
    base_offset: object = 0
    word: object = None
    advance: tuple = ()
    tile: tuple | None = None

    FIELDS = ("start", "lbo", "sbo", "base_offset", "word")

    def names(self) -> dict[str, set]:
        """field -> the names (symbols and tensors) its expression reads."""
        out = {k: _expr_names(getattr(self, k)) for k in self.FIELDS}
        for k, a in enumerate(self.advance):
            out[f"advance[{k}]"] = _expr_names(a)
        return out


def _expr_names(x) -> set:
    if not isinstance(x, str):
        return set()
    return {n.id for n in ast.walk(ast.parse(x, mode="eval")) if isinstance(n, ast.Name)}


@dataclass(frozen=True)
class Apply:
    """One ``[[apply]]``: an instruction (``opcode``, its family's options) issued at ``scope``
    (thread, warp or cta) over the operand views ``dst`` and ``src``, with the performance
    obligations it ``require``s, the counts it ``expect``s and the obligations it ``refutes``."""
    index: int
    opcode: object  # its family's parsed opcode (families.parse): kind, text, vector, bits, ...
    scope: str
    dst: View
    src: View
    pred: bool = False
    preserve_dst: bool = False
    cache_policy: bool = False
    guard: bool = False  # exact per-atom bounds guard (``guard = true``; proofs/guard.py)
    require: tuple = ()  # performance obligations this application makes contracts (``require = [...]``)
    expect: tuple = ()  # ((name, bound), ...): ``expect = { banks = 4 }``; bound None is the ideal (and required)
    refutes: tuple = ()  # obligations this application is expected to refute (``refutes = ["alignment"]``;
    #                      read by the pytest plugin, the proof ignores it)
    operands: tuple = ()  # ((role, operand), ...): a family whose roles are not dst/src (``Family.operands``:
    #                       wgmma's d, a, b) names each operand by its role: a View, or a ``Descriptor``;
    #                       ``dst`` and ``src`` then both hold its register operand's view

    def operand(self, role: str):
        """The operand of ``role``: ``dst``/``src``, or one of the family's own roles (``operands``)."""
        if role in ("dst", "src"):
            return getattr(self, role)
        return dict(self.operands)[role]

    @property
    def family(self) -> families.Family:
        """The instruction family's declaration (``tilecheck/families/``)."""
        return families.of(self.opcode)

    @cached_property
    def is_load(self) -> bool:
        """The register operand is written (the memory operand is the source), as the family's roles declare."""
        return any(r.kind == families.REGISTER and r.writes for r in self.family.roles(self.opcode))

    @property
    def memory(self) -> View:
        """The memory operand: a load's source, a store's destination."""
        return self.src if self.is_load else self.dst

    @property
    def register(self) -> View:
        return self.dst if self.is_load else self.src


@dataclass(frozen=True)
class Check:
    """A loaded check file (``load``, ``loads``, ``from_dict``): target, threads per CTA, symbols,
    facts, tensors and applications.  ``prove(check)`` gives its ``Report``."""
    arch: str = "sm_90"
    threads: int = 1
    symbols: dict = field(default_factory=dict)  # name -> Symbol
    assume: tuple = ()  # (text, lhs, op, rhs)
    tensors: dict = field(default_factory=dict)  # name -> Tensor
    applies: tuple = ()
    path: str = "<check>"
    tensormaps: dict = field(default_factory=dict)  # name -> tensormap.TensorMap ([tensormaps.NAME])
    descriptors: dict = field(default_factory=dict)  # name -> Descriptor ([descriptors.NAME])

    def group_shape(self, scope: str) -> tuple[int, ...]:
        """The extents of the group coordinates at ``scope``: () thread, (32,) warp, (warps, 32) cta."""
        return group_shape(scope, self.threads)

    @cached_property
    def accesses(self) -> dict:
        """Application index -> its accesses (``accesses.Access``: role, space, address, width, active
        predicate, read/write/atomic), built once from the families' roles."""
        return _accesses.build(self)

    def accesses_of(self, apply) -> tuple:
        """``apply``'s accesses: the check's own list, or built for an application not in it."""
        own = self.accesses.get(apply.index)
        if own is not None and all(x.view is apply.operand(x.role) for x in own):
            return own
        return _accesses.of(self, apply)

    def with_arch(self, arch: str) -> "Check":
        """The same check for another target (``--arch``); InputError for an unknown one."""
        try:
            opcodes.parse_arch(arch)
        except ValueError as e:
            raise InputError(str(e), "--arch") from None
        return replace(self, arch=arch)


def cta_grid(check: Check) -> dict[str, int]:
    """The launch a kernel of ``check`` covers: for each ``%ctaid`` component bound to a symbol,
    the number of CTAs (``max + 1``).  A CTA-bound symbol must allow every CTA index from 0 up to
    its max (``min = 0``, ``multiple_of = 1``); otherwise some CTA of any launch would run with a
    value the proofs never covered.  Raises InputError."""
    grid: dict[str, int] = {}
    for s in check.symbols.values():
        if not s.cta:
            continue
        if s.min != 0 or s.multiple_of != 1:
            raise InputError(f"symbol {s.name!r} is bound to %{s.source}: it needs min = 0 and multiple_of = 1 "
                             f"so that every CTA of the grid (0..max) is covered by the proof{s.min_note}",
                             f"symbols.{s.name}")
        grid[s.source] = min(grid.get(s.source, s.max + 1), s.max + 1)
    return grid


# loading ------------------------------------------------------------------

def load(path) -> Check:
    """Read and validate a TOML check file (``-``: standard input)."""
    p = Path(path)
    try:
        data = sys.stdin.buffer.read() if str(path) == STDIN else p.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror}", str(p)) from None
    name = "<stdin>" if str(path) == STDIN else str(p)
    try:
        text = data.decode("utf-8")  # TOML is UTF-8, whatever the locale says
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text: byte 0x{data[e.start]:02x} at offset {e.start} ({e.reason})",
                         name) from None
    return loads(text.removeprefix("\ufeff"), name)  # a byte-order mark is not part of the text


def load_check(path, arch=None) -> Check:
    """Load a check file, with ``arch`` overriding the file's (raises InputError): what every
    command line (``prove``, ``emit``, ``run``, ``draw``) reads its FILE with."""
    check = load(path)
    return check.with_arch(arch) if arch else check


def loads(text: str, path: str = "<string>") -> Check:
    """A check file's text; an InputError names the file, the line of the offending key where it can
    be found, the place and the problem."""
    if not isinstance(text, str):
        raise InputError(f"a check file's text must be a string, got {type(text).__name__}", path)
    try:
        data = tomllib.loads(text)
    except ValueError as e:  # TOMLDecodeError, or an integer too long for int()
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        m = re.search(r"\(at line (\d+), column \d+\)", first)
        raise InputError(f"invalid TOML: {first}").in_file(path, int(m.group(1)) if m else None) from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise InputError("invalid TOML: arrays or inline tables nested too deeply").in_file(
            path, _deepest_line(text)) from None
    try:
        return from_dict(data, path)
    except InputError as e:
        raise e.in_file(path, e.line or locate(text, e)) from None
    except RecursionError:
        raise InputError("values nested too deeply").in_file(path, _deepest_line(text)) from None


# where a place is in the file's text ------------------------------------------------------------------

_KEY = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_KEYS = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_ARRAY_HEADER = re.compile(rf"\s*\[\[\s*({_KEYS})\s*\]\]")
_HEADER = re.compile(rf"\s*\[\s*({_KEYS})\s*\]")
_ASSIGN = re.compile(rf"\s*({_KEYS})\s*=")
_INLINE_KEY = re.compile(rf"[{{,]\s*({_KEYS})\s*=")


def _key_parts(text: str) -> tuple:
    return tuple(k.strip().strip("\"'") for k in re.findall(_KEY, text))


def _place_parts(where: str) -> tuple:
    """``"apply[0]: expect.banks"`` -> ``("apply", 0, "expect", "banks")``."""
    out = []
    for seg in where.split(": "):
        for part in seg.split("."):
            m = re.fullmatch(r"([^\[\]]*)((?:\[\d+\])*)", part)
            if not m:
                return tuple(out)
            if m.group(1) and m.group(1) != "file":
                out.append(m.group(1))
            out += [int(k) for k in re.findall(r"\d+", m.group(2))]
    return tuple(out)


def _lines(text: str) -> dict:
    """Each key path of the file (and each prefix) -> the line it is first written on."""
    lines: dict = {}
    current: tuple = ()
    arrays: dict = {}
    in_string = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string:  # inside a multi-line string
            if line.count(in_string) % 2:
                in_string = None
            continue
        for q in ('"""', "'''"):
            if line.count(q) % 2:
                in_string = q
        if m := _ARRAY_HEADER.match(line):
            name = _key_parts(m.group(1))
            arrays[name] = arrays.get(name, -1) + 1
            current = (*name, arrays[name])
            path = current
        elif m := _HEADER.match(line):
            current = path = _key_parts(m.group(1))
        elif m := _ASSIGN.match(line):
            path = (*current, *_key_parts(m.group(1)))
            for k in _INLINE_KEY.finditer(line):  # an inline table's keys: the same line
                lines.setdefault((*path, *_key_parts(k.group(1))), number)
        else:
            continue
        for k in range(1, len(path) + 1):
            lines.setdefault(path[:k], number)
    return lines


def locate(text: str, e: InputError) -> int | None:
    """The line of ``e``'s place in the check file ``text`` (the key it names, or the nearest
    enclosing table or key written in the file); None when none is."""
    parts = _place_parts(e.where)
    m = re.match(r"unknown (?:expect )?key '([^']*)'", e.message)
    if m:
        parts = (*parts, m.group(1))
    lines = _lines(text)
    for k in range(len(parts), 0, -1):
        if parts[:k] in lines:
            return lines[parts[:k]]
    return None


def _deepest_line(text: str, depth: int = 64) -> int | None:
    """The first line where brackets or braces nest ``depth`` deep (strings not told apart: a hint)."""
    level = 0
    for number, line in enumerate(text.splitlines(), 1):
        for ch in line:
            level += ch in "[{"
            level -= ch in "]}"
            if level >= depth:
                return number
    return None


def _wide_ints(data, where=""):
    """TOML's integers are 64-bit signed (the spec: a value outside is an error): the first key whose
    integer is outside, with explicit stacks (any depth)."""
    stack = [(data, where)]
    while stack:
        v, at = stack.pop()
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            if not WORD[0] <= v <= WORD[1]:
                raise InputError(f"integer {brief(str(v))} is out of range (a check file's integers are PTX's "
                                 f"64-bit ones: -(2**64-1) .. 2**64-1)", at or "file")
        elif isinstance(v, dict):
            stack += [(x, f"{at}.{k}" if at else str(k)) for k, x in reversed(v.items())]
        elif isinstance(v, list):
            stack += [(x, f"{at}[{k}]") for k, x in reversed(list(enumerate(v)))]


_TOP_KEYS = {"arch", "threads", "assume", "symbols", "tensors", "apply", "version", "require", "tensormaps",
             "descriptors"}
_DESCRIPTOR_KEYS = {"tensor", "major", "swizzle", "start", "lbo", "sbo", "base_offset", "word", "advance", "tile"}
MAJORS, SWIZZLES = ("K", "MN"), ("none", "32B", "64B", "128B")
_BITWISE = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr,
            ast.BitXor)
_SYMBOL_KEYS = {"min", "max", "multiple_of", "from"}
_TENSOR_KEYS = {"dtype", "scope", "shape", "layout", "tv", "offset", "align"}
_APPLY_KEYS = {"opcode", "scope", "dst", "src", "require", "expect", "refutes"}  # and each family's own keys (families.Family.keys)


def from_dict(data: dict, path: str = "<check>") -> Check:
    """Build a Check from the check file's data (the Python API uses this too)."""
    if isinstance(data, dict) and ("descriptors" in data or "idesc" in data) and "apply" not in data:
        key = "descriptors" if "descriptors" in data else "idesc"  # descriptor_file.py's form (docs/wgmma.md)
        raise InputError(f"a descriptor check file ([{key}.X] tables), not a check file: prove it with "
                         "`python -m tilecheck.descriptor_file FILE` (or `pytest --tilecheck`)", key)
    _keys(data, _TOP_KEYS, "file")
    _wide_ints(data)
    if data.get("version", 1) != 1:
        raise InputError(f"unsupported check file version {data['version']!r} (only 1)", "version")
    arch = data.get("arch", "sm_90")
    try:
        opcodes.parse_arch(arch)
    except ValueError as e:
        raise InputError(str(e), "arch") from None
    threads = _int(data.get("threads", 1), "threads")
    if not 1 <= threads <= 1024:
        raise InputError(f"threads must be in 1..1024, got {threads}", "threads")

    symbols = {}
    for name, spec in _table(data.get("symbols", {}), "symbols").items():
        symbols[name] = _symbol(name, spec, threads)
    assume = []
    facts = data.get("assume", [])
    if not isinstance(facts, list):
        raise InputError("assume must be a list of strings like 'n >= 8'", "assume")
    for k, text in enumerate(facts):
        where = f"assume[{k}]"
        lhs, op, rhs = parse_fact(text, where, bits=None)
        _declared(names_of(lhs) | names_of(rhs), symbols, where)
        for n in sorted(names_of(lhs) | names_of(rhs)):
            if symbols[n].warp:
                raise InputError(f"symbol {n!r} is the warp id (from = \"warpid\"): every warp of the CTA runs, "
                                 "so no fact may restrict it", where)
            if symbols[n].rank:
                raise InputError(f"symbol {n!r} is the cluster rank (from = \"ctarank\"): every CTA of the cluster "
                                 "runs, so no fact may restrict it (its max is the cluster's size)", where)
        if wide(lhs) or wide(rhs):
            fact = _decide_wide(text, lhs, op, rhs, symbols, where)
            if fact is None:  # true for every value: nothing to assume
                continue
            lhs, rhs = fact
        assume.append((text, lhs, op, rhs))

    tensors = {}
    for name, spec in _table(data.get("tensors", {}), "tensors").items():
        try:
            tensors[name] = _tensor(name, spec, symbols)
        except InputError as e:
            raise e.at(f"tensors.{name}") from None
    tensormaps = {}
    for name, spec in _table(data.get("tensormaps", {}), "tensormaps").items():
        try:
            tensormaps[name] = tensormap.parse(name, spec, symbols, tensors)
        except InputError as e:
            raise e.at(f"tensormaps.{name}") from None
    descriptors = {}
    for name, spec in _table(data.get("descriptors", {}), "descriptors").items():
        try:
            descriptors[name] = _descriptor(name, spec, symbols, tensors)
        except InputError as e:
            raise e.at(f"descriptors.{name}") from None
    applies = data.get("apply", [])
    if not isinstance(applies, list) or (not applies and not tensormaps):
        raise InputError("the file needs at least one [[apply]] table (or a [tensormaps.NAME] table)", "apply")
    shapes = {n: t.shape for n, t in tensors.items()}
    required = _require(data.get("require", []), "require")
    out = []
    for k, spec in enumerate(applies):
        try:
            out.append(_apply(k, spec, shapes, symbols, threads,
                              {n for n, t in tensors.items() if t.is_register}, tensors, required, descriptors))
        except InputError as e:
            raise e.at(f"apply[{k}]") from None
    _warp_uses(symbols, tensors, out)
    out = families.check_applies(out, symbols)  # rules across applications (an mbarrier phase's copies)
    return Check(arch, threads, symbols, tuple(assume), tensors, tuple(out), path, tensormaps, descriptors)


def _descriptor(name, spec, symbols, tensors) -> Descriptor:
    """A ``[descriptors.NAME]`` table (docs/wgmma.md, "The wgmma family as an apply")."""
    _keys(spec, _DESCRIPTOR_KEYS, "")
    for key in ("tensor", "major", "swizzle", "start", "lbo", "sbo"):
        if key not in spec:
            raise InputError(f"missing key {key!r}", key)
    t = tensors.get(spec["tensor"]) if isinstance(spec["tensor"], str) else None
    if t is None:
        raise InputError(f"unknown tensor {spec['tensor']!r} (a [tensors.NAME] of the file)", "tensor")
    if t.scope != "shared":
        raise InputError(f"a descriptor reads shared memory, {t.name} is a {t.scope} tensor", "tensor")
    if (len(t.shape) != 2 or t.layout.symbols() or concrete(t.offset) is None
            or any(concrete(x) is None for x in t.shape)):
        raise InputError(f"{t.name}: a descriptor's tensor has a concrete (MN, K) shape, layout and offset",
                         "tensor")
    for key, allowed in (("major", MAJORS), ("swizzle", SWIZZLES)):
        if spec[key] not in allowed:
            raise InputError(f"{key} {spec[key]!r}: one of {', '.join(allowed)}", key)
    shared = {n for n, x in tensors.items() if x.scope == "shared"}
    clash = sorted(shared & set(symbols))
    if clash:
        raise InputError(f"{clash[0]!r} names a symbol and a shared tensor (a descriptor's expression reads a "
                         "shared tensor's name as its address): rename one", "tensor")
    names = set(symbols) | shared
    fields = {k: _descriptor_expr(spec[k], names, symbols, k) for k in ("start", "lbo", "sbo")}
    fields["base_offset"] = _descriptor_expr(spec.get("base_offset", 0), names, symbols, "base_offset")
    word = _descriptor_expr(spec["word"], names, symbols, "word") if "word" in spec else None
    advance = spec.get("advance", [])
    if not isinstance(advance, list):
        raise InputError("advance must be a list of the start's byte advances at K steps 1, 2, ...", "advance")
    advance = tuple(_descriptor_expr(a, names, symbols, f"advance[{k}]") for k, a in enumerate(advance))
    tile = spec.get("tile")
    if tile is not None and not (isinstance(tile, list) and len(tile) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in tile)):
        raise InputError("tile must be [MN, K], two positive integers", "tile")
    return Descriptor(name, t.name, spec["major"], spec["swizzle"], **fields, word=word, advance=advance,
                      tile=None if tile is None else tuple(tile))


def _descriptor_expr(value, names, symbols, where):
    """An unsigned 64-bit integer, or the text of an expression over ``names`` (the symbols, each with a
    non-negative ``min``, and the shared tensors' addresses) with ``+ - * // % << >> & | ^``."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"must be an integer or an expression, got {brief(value)}", where)
    if isinstance(value, int):
        if not 0 <= value < 2**64:
            raise InputError(f"{value} is not an unsigned 64-bit integer", where)
        return value
    try:
        tree = ast.parse(value, mode="eval")
    except SyntaxError:
        raise InputError(f"cannot parse the expression {brief(value)}", where) from None
    for node in ast.walk(tree.body):
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise InputError(f"unknown name {node.id!r} in {brief(value)} (a symbol or a shared tensor)", where)
            if node.id in symbols and symbols[node.id].min < 0:
                raise InputError(f"symbol {node.id!r} may be negative (min = {symbols[node.id].min}): a descriptor's "
                                 "fields are unsigned", where)
        elif not (isinstance(node, (ast.BinOp, ast.Load, *_BITWISE)) or (isinstance(node, ast.Constant) and isinstance(
                node.value, int) and not isinstance(node.value, bool) and 0 <= node.value < 2**64)):
            raise InputError(f"{brief(value)}: only integers, names and + - * // % << >> & | ^ are allowed", where)
    return value


def _warp_uses(symbols: dict, tensors: dict, applies: list):
    """A warp-id symbol (``from = "warpid"``) is a per-warp offset: it may appear in the slice starts
    of a warp- or thread-scope apply's memory operands and in a memory tensor's ``offset`` (at cta
    scope the warp is the group's first coordinate already), nowhere else (a tensor's shape and
    layout, a register tensor: the same in every warp)."""
    warp = {n for n, s in symbols.items() if s.warp}
    if not warp:
        return
    for name, t in tensors.items():
        where = {"shape": set().union(*(names_of(d) for d in t.shape)), "layout": set(t.layout.symbols())}
        if t.is_register:
            where["offset"] = names_of(t.offset)
        for key, used in where.items():
            if used & warp:
                raise InputError(f"symbol {min(used & warp)!r} is the warp id (from = \"warpid\"): it may start a "
                                 f"memory operand's slice or set a memory tensor's offset, not a "
                                 f"{'register ' * t.is_register}tensor's {key}", f"tensors.{name}.{key}")
    for a in applies:
        for role in ("dst", "src"):
            v = getattr(a, role)
            starts = (set().union(*(names_of(x) for x in v.starts)) | names_of(tensors[v.tensor].offset)) & warp
            extents = set().union(*(names_of(x) for x in v.extents)) & warp
            where = f"apply[{a.index}].{role}"
            if extents:
                raise InputError(f"symbol {min(extents)!r} is the warp id (from = \"warpid\"): it may start a "
                                 "slice, not set its extent (write A[64*w : 64*w + 64])", where)
            if starts and tensors[v.tensor].is_register:
                raise InputError(f"symbol {min(starts)!r} is the warp id (from = \"warpid\"): it may start a "
                                 "memory operand's slice, not a register operand's", where)
            if starts and len(GROUPS[a.scope].coords) > 1:  # a group of several warps (cta, warpgroup)
                raise InputError(f"symbol {min(starts)!r} is the warp id (from = \"warpid\"): a cta-scope apply "
                                 "has the warp as its group's first coordinate already (use the layout), or "
                                 "issue the apply at warp or thread scope", where)


def _keys(d, allowed, where):
    if not isinstance(d, dict):
        raise InputError("must be a table", where)
    for k in d:
        if k not in allowed:
            raise InputError(f"unknown key {k!r} (allowed: {', '.join(sorted(allowed))})", where)


def _table(d, where):
    if not isinstance(d, dict):
        raise InputError("must be a table", where)
    return d


def _int(v, where):
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"must be an integer, got {v!r}", where)
    return v


def _bool(v, where):
    if not isinstance(v, bool):
        raise InputError(f"must be true or false, got {v!r}", where)
    return v


def _declared(names, symbols, where):
    for n in sorted(names):
        if n not in symbols:
            raise InputError(f"undeclared symbol {n!r} (declare it under [symbols.{n}])", where)


def _decide_wide(text, lhs, op, rhs, symbols, where):
    """A fact with a constant over ``expr.MAX_BITS`` bits, which the proofs do not encode: decided here
    over the symbols' ranges.  True for every value: nothing to assume (returns); false for every
    value: the facts have no model (InputError, as ``proofs.facts`` says of contradictory facts);
    neither: ``lhs - rhs`` without the wide constants when they cancel (``n + 10**400 < 10**400 + 5`` is
    ``n - 5 < 0``: returns ``(lhs, rhs)`` to assume), else refused (InputError): never a proof from a
    fact that is not encoded exactly."""
    box = {n: (s.min, s.max) for n, s in symbols.items()}
    verdict = decided(lhs, op, rhs, box)
    if verdict is True:
        return None
    difference = _difference(lhs, rhs) if verdict is None else None
    if difference is not None:
        return difference, 0
    ranges = ", ".join(f"{n} in [{box[n][0]}, {box[n][1]}]" for n in sorted(names_of(lhs) | names_of(rhs)))
    if verdict is False:
        raise InputError(f"fact {brief(text)} holds for no value of its symbols ({ranges or 'none'}): "
                         f"the facts cannot all hold", where)
    if verdict is None:
        raise InputError(f"fact {brief(text)} has a constant over {MAX_BITS} bits and the symbols' ranges "
                         f"({ranges}) do not decide it; tilecheck cannot encode it exactly", where)


def _difference(lhs, rhs):
    """``lhs - rhs`` as an expression, when it has no division and its coefficients fit ``MAX_BITS``
    bits (else None)."""
    names = names_of(lhs) | names_of(rhs)
    if any(op == "b" and arg in (ast.FloorDiv, ast.Mod) for x in (lhs, rhs) if not isinstance(x, int)
           for op, arg in x.code()):
        return None
    free = {n: Poly.var(n) for n in names}
    d = to_poly(lhs, Context(), free) - to_poly(rhs, Context(), free)
    if any(c.bit_length() > MAX_BITS for c in d.terms.values()):
        return None
    text = " + ".join(f"({c})" + "".join(f"*{v}" for v in m) for m, c in sorted(d.terms.items())) or "0"
    return parse_expr(text, "fact operand")


def _symbol(name, spec, threads: int = 1) -> Symbol:
    where = f"symbols.{name}"
    if not name.isidentifier():
        raise InputError(f"symbol name {name!r} is not an identifier", where)
    if re.fullmatch(r"_\d+", name):
        raise InputError(f"symbol name {name!r} is CuTe's static integer {name[1:]} in a layout; "
                         "give the symbol another name", where)
    _keys(spec, _SYMBOL_KEYS, where)
    lo = _int(spec.get("min", 1), f"{where}.min")
    hi = _int(spec.get("max", INT_MAX), f"{where}.max")
    m = _int(spec.get("multiple_of", 1), f"{where}.multiple_of")
    src = spec.get("from")
    if src is not None and src not in SYMBOL_SOURCES:
        raise InputError(f"unknown source {src!r} (use one of {', '.join(SYMBOL_SOURCES)})", f"{where}.from")
    if src == "warpid":  # every warp of the CTA: 0 .. (threads-1)/32, nothing to choose
        given = sorted(set(spec) & {"min", "max", "multiple_of"})
        if given:
            raise InputError(f"{given[0]} is not allowed with from = \"warpid\": the symbol takes every warp id "
                             f"of the CTA, 0..{(threads - 1) // 32}", f"{where}.{given[0]}")
        return Symbol(name, 0, (threads - 1) // 32, 1, src)
    if src == "ctarank":  # every CTA of the cluster: 0 .. max, max + 1 CTAs
        if "multiple_of" in spec:
            raise InputError("multiple_of is not allowed with from = \"ctarank\": the symbol takes every rank of "
                             "the cluster, 0..max", f"{where}.multiple_of")
        if lo != 0 and "min" in spec:
            raise InputError(f"min = {lo}: a symbol with from = \"ctarank\" takes every rank of the cluster from 0 "
                             "(give min = 0 or leave it out)", f"{where}.min")
        if "max" not in spec or not 0 <= hi < MAX_CLUSTER:
            raise InputError(f"a symbol with from = \"ctarank\" needs max = the cluster's CTAs - 1, in "
                             f"0..{MAX_CLUSTER - 1}" + (f", got {hi}" if "max" in spec else ""), f"{where}.max")
        return Symbol(name, 0, hi, 1, src)
    if m < 1:
        raise InputError(f"multiple_of must be positive, got {m}", f"{where}.multiple_of")
    for key, v in (("min", lo), ("max", hi), ("multiple_of", m)):
        if not S64[0] <= v <= S64[1]:
            raise InputError(f"{key} = {v} is out of range (a symbol is a .s64 kernel parameter: -2**63 .. 2**63-1)",
                             f"{where}.{key}")
    default = "min" not in spec
    note = Symbol(name, min_default=default).min_note
    if lo > hi:
        raise InputError(f"min = {lo} is greater than max = {hi}: no value is allowed{note}", where)
    if -(-lo // m) * m > hi:
        raise InputError(f"no value in [{lo}, {hi}] is a multiple of {m}{note}", where)
    return Symbol(name, lo, hi, m, src, min_default=default)


def _value(v, symbols, what, where):
    try:
        x = parse_expr(v, what)
    except InputError as e:
        raise InputError(e.message, where) from None
    _declared(names_of(x), symbols, where)
    return _word(x, what, where)


def _word(x, what, where):
    """``x``, when its value does not depend on symbols and fits a 64-bit PTX register; InputError if not."""
    c = concrete(x)
    if c is not None and not WORD[0] <= c <= WORD[1]:
        raise InputError(f"{what} {brief(str(x))} = {brief(str(c))} is out of range (PTX's addresses, offsets and "
                         f"strides are 64-bit: -(2**64-1) .. 2**64-1)", where)
    return x


def _tensor(name, spec, symbols) -> Tensor:
    _keys(spec, _TENSOR_KEYS, "")
    for key in ("dtype", "scope", "shape"):
        if key not in spec:
            raise InputError(f"missing key {key!r}", key)
    dtype, scope = spec["dtype"], spec["scope"]
    if not isinstance(dtype, str) or dtype not in DTYPES:
        raise InputError(f"unknown dtype {dtype!r} (one of {', '.join(DTYPES)})", "dtype")
    if not isinstance(scope, str) or scope not in SCOPES:
        raise InputError(f"unknown scope {scope!r} (one of {', '.join(SCOPES)})", "scope")
    if not isinstance(spec["shape"], list) or not spec["shape"]:
        raise InputError("shape must be a non-empty list", "shape")
    shape = tuple(_value(s, symbols, "shape entry", "shape") for s in spec["shape"])
    for s in shape:
        c = concrete(s)
        if scope == "register" and c is None:
            raise InputError(f"a register tensor's shape must be concrete, got {s}", "shape")
        if c is not None and c < 1:
            raise InputError(f"shape entries must be positive, got {c}", "shape")
    if "tv" in spec:  # a fragment as CuTe's thread-value layout: inverted here (layout.from_tv)
        if "layout" in spec:
            raise InputError("give layout or tv, not both", "tv")
        if scope != "register":
            raise InputError(f"tv (a thread-value layout) is for register tensors, {name} is a {scope} tensor", "tv")
        if not isinstance(spec["tv"], str):
            raise InputError(f"tv must be a string like '((4,8),(2,2)):((32,1),(16,8))', got {spec['tv']!r}", "tv")
        try:
            spec = {**spec, "layout": from_tv(spec["tv"], tuple(concrete(s) for s in shape))}
        except InputError as e:
            raise InputError(e.message, "tv") from None
    if "layout" in spec:
        lay = spec["layout"]
        if isinstance(lay, Layout):
            layout = lay
        elif not isinstance(lay, str):
            layout = _layout_object(lay)
        else:
            try:
                layout = parse_layout(lay)
            except InputError as e:
                raise InputError(e.message, "layout") from None
        for leaf in _leaves(layout.shape) + _leaves(layout.stride):
            if not isinstance(leaf, ThreadStride):
                _declared(names_of(leaf), symbols, "layout")
                _word(leaf, "layout entry", "layout")
        if layout.thread_axes() and scope != "register":
            raise InputError("thread strides (@laneid, @warpid, @tid) are only for register tensors", "layout")
        if layout.swizzle is not None and (scope == "register" or layout.thread_axes()):
            raise InputError(f"only a memory tensor's layout may be swizzled, {name} is a {scope} tensor"
                             if scope == "register" else "a swizzled layout cannot have thread strides", "layout")
        _same_shape(layout, shape)
    else:
        layout = row_major(shape)
    offset = _value(spec.get("offset", 0), symbols, "offset", "offset")
    if scope == "register" and "align" in spec:
        raise InputError("align is for memory tensors only", "align")
    align = _int(spec.get("align", DTYPES[dtype] // 8), "align")
    if align < 1:
        raise InputError(f"align must be positive, got {align}", "align")
    return Tensor(name, dtype, scope, shape, layout, offset, align)


# attributes of swizzles and compositions in pycute (Swizzle, ComposedLayout) and tensor-layouts
_COMPOSED = ("inner", "outer", "layoutA", "layoutB", "yyy_msk", "bits")


def _layout_object(obj) -> Layout:
    """A duck-typed CuTe layout (pycute's or tensor-layouts' ``Layout``): ``.shape`` and ``.stride``,
    nested tuples of ints.  Swizzles and compositions are refused (not supported yet)."""
    kind = type(obj).__name__
    if ("Swizzle" in kind or "Composed" in kind or any(hasattr(obj, a) for a in _COMPOSED)
            or getattr(obj, "swizzle", None) is not None):
        raise InputError(f"a swizzled or composed layout ({kind}) is not supported yet; "
                         "give a plain shape:stride layout", "layout")
    shape, stride = getattr(obj, "shape", None), getattr(obj, "stride", None)
    if shape is None or stride is None or callable(shape) or callable(stride):
        raise InputError(f"layout must be a 'shape:stride' string or an object with .shape and .stride "
                         f"(nested tuples of ints), got {kind}", "layout")

    def ints(x):
        if isinstance(x, (tuple, list)):
            if not x:
                raise InputError(f"{kind} layout has an empty mode", "layout")
            return tuple(ints(e) for e in x)
        try:
            if isinstance(x, bool):
                raise TypeError
            return operator.index(x)  # int, numpy integers
        except TypeError:
            raise InputError(f"{kind} layout: shape and stride must be nested tuples of ints, got {x!r}",
                             "layout") from None

    shape, stride = ints(shape), ints(stride)
    if not isinstance(shape, tuple):
        shape, stride = (shape,), (stride,)
    if not _same_nesting(shape, stride):
        raise InputError(f"{kind} layout {shape}:{stride}: shape and stride have different nesting", "layout")
    layout = Layout(shape, stride)
    if any(s < 1 for s in _leaves(shape)):
        raise InputError(f"{kind} layout {layout}: shape entries must be positive", "layout")
    return layout


def _same_shape(layout: Layout, shape):
    ext = layout.extents()
    if len(ext) != len(shape):
        raise InputError(f"layout {layout} has {len(ext)} modes, the tensor's shape has {len(shape)}", "layout")
    ctx = Context()  # one context: n//2 and n//4 get different division variables
    for k, (e, s) in enumerate(zip(ext, shape)):
        if to_poly(e, ctx, _Free()) != to_poly(s, ctx, _Free()):
            raise InputError(f"layout {layout}: mode {k} has extent {e}, the tensor's shape says {s}", "layout")
    for k, mode in enumerate(layout.shape):
        if isinstance(mode, tuple) and any(concrete(product(_leaves(m))) is None for m in mode[:-1]):
            raise InputError(f"layout {layout}: mode {k} splits by a symbolic sub-extent; "
                             "only the last sub-mode of a nested mode may be symbolic", "layout")


class _Free(dict):
    def __missing__(self, key):
        return Poly.var(key)


def _require(names, where, family=None) -> tuple[str, ...]:
    """``require = ["registers"]``: performance obligations made contracts (a refutation blocks)."""
    perf = [n for n, o in RECORDS.items() if o.severity == PERFORMANCE]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InputError(f"require must be a list of performance obligation names (one of {', '.join(perf)}), "
                         f"got {names!r}", where)
    for n in names:
        if n not in RECORDS:
            raise InputError(f"unknown obligation {n!r} (performance obligations: {', '.join(perf)})", where)
        if RECORDS[n].severity != PERFORMANCE:
            raise InputError(f"{n!r} is a contract obligation already (require names performance obligations: "
                             f"{', '.join(perf)})", where)
        if family is not None and n not in family.obligations:
            raise InputError(f"{n!r} does not apply to the {family.name} family", where)
    return tuple(dict.fromkeys(names))


def _roles_named(spec) -> tuple[str, ...]:
    """The operand keys the apply's opcode takes (``Family.operands``; dst, src when it does not parse)."""
    try:
        return families.of(families.parse(spec["opcode"])).operands
    except (ValueError, TypeError, AttributeError, KeyError):
        return ("dst", "src")


def _apply(k, spec, shapes, symbols, threads, register_names=(), tensors=None, required=(),
           descriptors=None) -> Apply:
    roles = _roles_named(spec) if isinstance(spec, dict) and "opcode" in spec else ()
    _keys(spec, _APPLY_KEYS.union(roles, *(f.keys for f in families.FAMILIES.values())), "")
    for key in ("opcode", *roles):
        if key not in spec:
            raise InputError(f"missing key {key!r}", key)
    op = spec["opcode"]
    if getattr(op, "kind", None) in families.FAMILIES:  # parsed already (from Python)
        opcode = op
    else:
        if not isinstance(op, str):
            raise InputError(f"opcode must be a string, got {brief(op)}", "opcode")
        if len(op) > MAX_OPCODE:
            raise InputError(f"opcode {brief(op)} is not a PTX opcode (over {MAX_OPCODE} characters)", "opcode")
        try:
            opcode = families.parse(op)
        except ValueError as e:
            raise InputError(str(e), "opcode") from None
    family = families.of(opcode)
    tensors = tensors or {}
    named = set(family.operands)
    _keys(spec, (_APPLY_KEYS - {"dst", "src"}) | named | set(family.keys), "")
    for key in family.operands:
        if key not in spec:
            raise InputError(f"missing key {key!r}", key)
    scope = spec.get("scope", "thread" if "thread" in family.groups else family.groups[0])  # wgmma: its warpgroup
    if not isinstance(scope, str) or scope not in GROUPS or scope not in family.groups:
        raise InputError(f"unknown scope {scope!r} (one of {', '.join(family.groups)})", "scope")
    if threads % GROUPS[scope].multiple:
        raise InputError(f"scope {scope!r} needs threads to be a multiple of {GROUPS[scope].multiple}, got {threads}",
                         "scope")
    views = {}
    kinds = {r.name: r.kind for r in family.roles(opcode)}
    for key in family.operands:
        if kinds[key] == families.DESCRIPTOR:  # the name of a [descriptors.NAME] of the file
            d = (descriptors or {}).get(spec[key]) if isinstance(spec[key], str) else None
            if d is None:
                raise InputError(f"operand {key} must name a [descriptors.NAME] table of the file, got "
                                 f"{brief(spec[key])}", key)
            views[key] = d
            continue
        try:
            views[key] = parse_operand(spec[key], shapes)
        except InputError as e:
            raise InputError(e.message, key) from None
        v = views[key]
        for s in v.starts:
            _declared(names_of(s), symbols, key)
        if v.tensor in register_names and any(names_of(s) for s in v.starts):
            raise InputError(f"a register operand's slice starts must be concrete (PTX names registers "
                             f"statically): {v.text!r}", key)
    options = {key: _bool(spec.get(key, default), key) for key, default in family.keys.items()
               if isinstance(default, bool)}  # other keys complete the opcode (Family.bind)
    opcode = family.bind(opcode, spec, tensors, views)
    _require(list(required), "require", family)
    require = tuple(dict.fromkeys((*required, *_require(spec.get("require", []), "require", family))))
    expect = _expect(spec.get("expect", {}), family)
    for name, _ in expect:
        spaces = RECORDS[name].spaces
        if tensors and not any(tensors[views[r.name].tensor].scope in spaces for r in family.roles(opcode)
                               if r.kind == families.MEMORY and views[r.name].tensor in tensors):
            raise InputError(f"{name} applies to {' or '.join(spaces)} operands; this apply has none", f"expect.{name}")
    require = tuple(dict.fromkeys((*require, *(n for n, _ in expect))))
    refutes = _refutes(spec.get("refutes", []), family)
    if family.operands == ("dst", "src"):
        return Apply(k, opcode, scope, views["dst"], views["src"], **options, require=require, expect=expect,
                     refutes=refutes)
    own = next(views[r.name] for r in family.roles(opcode) if r.kind == families.REGISTER)
    return Apply(k, opcode, scope, own, own, **options, require=require, expect=expect, refutes=refutes,
                 operands=tuple((key, views[key]) for key in family.operands))


def _refutes(names, family) -> tuple:
    """``refutes = "alignment"`` or ``["ownership", "banks"]``: the obligations expected to refute."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InputError(f"refutes must be an obligation name or a list of them (one of "
                         f"{', '.join(family.obligations)}), got {names!r}", "refutes")
    for n in names:
        if n not in family.obligations:
            raise InputError(f"unknown obligation {n!r} for the {family.name} family (one of "
                             f"{', '.join(family.obligations)})", "refutes")
    return tuple(dict.fromkeys(names))


EXPECT_WORDS = {"banks": "conflict-free", "sectors": "minimal"}  # the ideal, by name


def _expect(spec, family) -> tuple:
    """``expect = { banks = "conflict-free" | N, sectors = "minimal" | N }``: the named counted
    performance obligations become contracts of this apply, at the ideal or at most N."""
    if not isinstance(spec, dict):
        raise InputError(f"expect must be a table such as {{ banks = \"conflict-free\" }}, got {spec!r}", "expect")
    out = []
    for name, bound in spec.items():
        if name not in EXPECT_WORDS:
            raise InputError(f"unknown expect key {name!r} (one of {', '.join(EXPECT_WORDS)})", f"expect.{name}")
        _require([name], f"expect.{name}", family)
        if bound == EXPECT_WORDS[name]:
            out.append((name, None))
        elif isinstance(bound, int) and not isinstance(bound, bool) and bound >= 1:
            out.append((name, bound))
        else:
            raise InputError(f"must be {EXPECT_WORDS[name]!r} or a positive integer, got {bound!r}",
                             f"expect.{name}")
    return tuple(out)
