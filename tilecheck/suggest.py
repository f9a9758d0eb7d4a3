"""``tilecheck suggest FILE [-o OUT.toml]``: a swizzle that makes shared memory conflict-free, and the
widest legal vector of every memory operand, each one re-proved by tilecheck's own prover.

1. For each shared tensor with an apply whose ``banks`` is not proved at the ideal, the search tries
   CuTe's ``Sw<B,M,S>`` (B in 1..5, M in 0..max(4, m0), S >= B, M+S+B within the tile's offset bits)
   composed with the tensor's layout, in order: M = m0 first (m0 = log2 of the widest atom in elements,
   so every atom stays whole), then larger M, then smaller; within an M the fewest bits B, then the
   smallest shift S.  A candidate is accepted when the whole modified check, proved again, has every
   apply that uses the tensor proved with ``expect = { banks = "conflict-free" }`` (every contract
   obligation, every required one, and ``banks`` at the ideal: proved, never unknown).  Each candidate
   is the checked model with the tensor's layout replaced in place (``dataclasses.replace`` of the
   Tensor and the Check: nothing is parsed again), and the symbols' facts, which no candidate changes,
   are decided once for the whole search.
2. For every ld/st apply, each vector width v1/v2/v4/v8 of the opcode's type: the operands are
   rewritten (widening fuses the innermost part of the last repeat axis into the word; narrowing
   splits the word's outer part off into a new last repeat axis, both operands alike, since they pair
   by position) and the contract obligations proved again; the widest width proved is reported, with
   the first refuted obligation's message for the next width.
"""
from __future__ import annotations

import math
import re
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
import argparse

from .check import from_dict, load
from .errors import InputError
from .layout import Layout, Swizzle
from .proofs.registry import CONTRACT, REGISTRY, blocks
from .report import prove
from .verdict import Verdict
from .decide import decide
from .proofs import facts as _facts, prove_apply
from .timeout import positive_seconds

B_RANGE = range(1, 6)  # 2^5 = 32 banks: more XOR bits cannot spread one column over more banks
M_LOW = 4
MAX_CANDIDATES = 400
WIDTHS = (1, 2, 4, 8)
CONFLICT_FREE = "conflict-free"


@dataclass
class TensorResult:
    tensor: str
    applies: list  # indices of the applies that use it
    targets: list  # indices whose banks is not proved at the ideal
    before: dict  # apply index -> banks message before
    swizzle: Swizzle | None = None
    layout: str | None = None  # the accepted layout text
    tried: int = 0
    family_text: str = ""
    screened: int = 0  # rejected on a counterexample of the brute-force decider (no solver call)
    family: int = 0
    failures: Counter = field(default_factory=Counter)  # reason -> how many candidates
    examples: dict = field(default_factory=dict)  # reason -> first few swizzles
    blocked: str | None = None  # a contract failure before any swizzle
    after: dict = field(default_factory=dict)  # apply index -> banks message with the swizzle


@dataclass
class WidthResult:
    apply: int
    opcode: str
    current: int
    widest: int | None
    next_width: int | None
    reason: str | None  # why next_width fails (one line)
    texts: dict | None = None  # the widest form: {"opcode", "dst", "src"} when it differs from the current
    note: str | None = None


@dataclass
class Suggestion:
    path: str
    tensors: list
    widths: list
    data: dict
    report: object  # the suggested file's report
    seconds: float
    proves: int

    @property
    def exit_status(self) -> int:
        return 1 if any(t.targets and t.swizzle is None for t in self.tensors) else 0


# --- the check as data ---------------------------------------------------------------------------

def _copy(data):
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


class _Prover:
    """The prover for every variant of one check file: they all have its symbols and facts (a swizzle,
    a width or an ``expect`` changes neither), so the facts are decided once (``proofs.facts.decide``)."""

    def __init__(self, path, timeout):
        self.path, self.timeout, self.count, self._facts = path, timeout, 0, None

    def facts(self, check):
        if self._facts is None:
            self._facts = _facts.decide(check, self.timeout)
        return self._facts

    def __call__(self, data):
        """The whole check proved (``report.prove``)."""
        self.count += 1
        check = from_dict(data, self.path)
        return prove(check, timeout=self.timeout, facts=self.facts(check))

    def blocking(self, check, indices, contract_only=False):
        """The applies ``indices`` of ``check`` proved as ``prove_apply`` does, obligation by obligation in
        the registry's order, but only the blocking ones (``contract_only``: the contract ones) and
        stopping at the first that is not proved.  Returns ((k, outcome) of that one or None,
        {k: {name: outcome}})."""
        self.count += 1
        facts = self.facts(check)
        done = {}
        for k in indices:
            apply = check.applies[k]
            select = (lambda n, ob: ob.severity == CONTRACT) if contract_only else (
                lambda n, ob, req=apply.require: blocks(n, req))
            outs = prove_apply(check, apply, self.timeout, facts, True, None, select=select, stop=True)
            done[k] = {o.name: o for o in outs}
            bad = next((o for o in outs if o.status != Verdict.PROVED), None)
            if bad is not None:
                return (k, bad), done
        return None, done


def _with_expect(data, indices):
    """``data`` with ``expect = { banks = "conflict-free" }`` on the applies ``indices``."""
    out = _copy(data)
    for k in indices:
        ap = out["apply"][k]
        ap["expect"] = {**ap.get("expect", {}), "banks": CONFLICT_FREE}
    return out


def _failure(rep, indices, skip=()):
    """The first blocking obligation not proved on the applies ``indices`` (None: all proved)."""
    for k in indices:
        a = rep.applies[k]
        for o in a.obligations:
            if o.name not in skip and blocks(o.name, a.apply.require) and o.status != Verdict.PROVED:
                return k, o
    return None


def _reason(k, o):
    if o.name == "banks" and o.status == Verdict.REFUTED and o.count is not None:
        return f"banks of apply[{k}]: {o.count} wavefronts"
    return f"{o.name} of apply[{k}] {o.status}"


def _offset_bits(check, tensor) -> int:
    env = {n: min(s.max, 1 << 24) for n, s in check.symbols.items()}
    base = Layout(tensor.layout.shape, tensor.layout.stride)
    try:
        top = base.cosize(env, tensor.offset)
    except Exception:
        top = 1 << 24
    return max(1, min(24, math.ceil(math.log2(max(top, 2)))))


def family(bits: int, m0: int):
    """The swizzles searched, in order (see the module's docstring)."""
    ms = list(range(m0, max(M_LOW, m0) + 1)) + list(range(m0 - 1, -1, -1))
    out = []
    for m in ms:
        for b in B_RANGE:
            for s in range(b, bits - m - b + 1):
                out.append(Swizzle(b, m, s))
    return out


def _screen(check, users):
    """The first blocking obligation of the applies ``users`` that the brute-force decider
    (``decide.py``, exact enumeration) refutes: a concrete counterexample, so a sound rejection.
    None when it refutes none; the candidate then goes to the prover, which alone accepts."""
    try:
        verdicts = decide(check)
    except ValueError:  # no symbol assignment in the decider's range: the prover decides
        return None
    for k in users:
        a = check.applies[k]
        for name, (status, w) in verdicts[k].items():
            if status == Verdict.REFUTED and blocks(name, a.require):
                if name == "banks" and w and "count" in w:
                    return f"banks of apply[{k}]: {w['count']} wavefronts"
                return f"{name} of apply[{k}] refuted"
    return None


# --- 1. swizzles -------------------------------------------------------------------------------

def _search_tensor(prover, check, name, users, targets, before, cap):
    """The first swizzle of the family that ``prover`` accepts for the tensor ``name`` of ``check`` (the
    checked model, with ``expect = { banks = "conflict-free" }`` on ``users``): ``(TensorResult, the
    check with it)``, or ``(TensorResult, check)`` when none is."""
    t = check.tensors[name]
    res = TensorResult(name, users, targets, before)
    atoms = [check.applies[k] for k in users]
    widest = max(getattr(a, r).shape[-1] for a in atoms for r in a.family.memory_roles(a.opcode)
                 if getattr(a, r).tensor == name)
    m0 = int(math.log2(widest)) if widest & (widest - 1) == 0 else 0
    bits = _offset_bits(check, t)
    cands = family(bits, m0)
    res.family_text = (f"Sw<B,M,S> o {Layout(t.layout.shape, t.layout.stride)} (B 1..{B_RANGE[-1]}, "
                       f"M 0..{max(M_LOW, m0)}, S >= B, M+S+B <= {bits})")
    res.family = len(cands)
    base = Layout(t.layout.shape, t.layout.stride)
    for sw in cands[:cap]:
        trial = replace(check, tensors={**check.tensors, name: replace(t, layout=replace(base, swizzle=sw))})
        res.tried += 1
        why = _screen(trial, users)
        if why is not None:  # a concrete counterexample: rejected without the solver
            res.screened += 1
        else:
            bad, done = prover.blocking(trial, users)
            why = None if bad is None else _reason(*bad)
        if why is None:
            res.swizzle, res.layout = sw, f"{sw} o {base}"
            res.after = {k: done[k]["banks"].message for k in users}
            return res, trial
        res.failures[why] += 1
        res.examples.setdefault(why, [])
        if len(res.examples[why]) < 3:
            res.examples[why].append(str(sw))
    return res, check


# --- 2. vector widths --------------------------------------------------------------------------

_OPERAND = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*\s*(?:\[.*?\])?)\s*(?::.*)?$", re.S)


def _unit(n):
    return n.startswith("()")


def _fresh(name, taken):
    new = f"{name}_v" if name[0].isalpha() else f"v{name}"
    while new in taken:
        new += "v"
    return new


def _render(view, left, axes, size):
    def group(names, sizes):
        if len(names) == 1:
            return names[0]
        return "(" + " ".join(n if i == 0 else f"{n}={sizes[n]}" for i, n in enumerate(names)) + ")"
    lhs = " ".join(group(g, size) for g in left)
    rhs = []
    for ax in axes:
        ns = [n for n in ax if not _unit(n)]
        rhs.append("()" if not ns else ns[0] if len(ns) == 1 else "(" + " ".join(ns) + ")")
    head = _OPERAND.match(view.text).group(1)
    return f"{head}: {lhs} -> {' '.join(rhs)}"


def _rewidth(view, ngroup, k, widen):
    """The operand text with its word ``k`` times wider (``widen``) or narrower, or (None, reason)."""
    left, axes, size = [list(g) for g in view.left], [list(a) for a in view.axes], dict(view.size)
    if widen:
        reps = [p for p in range(ngroup, len(axes) - 1) if view.shape[p] > 1]
        if not reps:
            return None, "the view has no repeat axis to fuse into the word (one instruction per thread)"
        p = reps[-1]
        e = [n for n in axes[p] if not _unit(n)][-1]
        if size[e] % k:
            return None, f"its last repeat axis {e!r} has extent {size[e]}, not a multiple of {k}"
        new = _fresh(e, size)
        g = next(g for g in left if e in g)
        g.insert(g.index(e) + 1, new)
        size[e], size[new] = size[e] // k, k
        axes[-1] = [new] + [n for n in axes[-1] if not _unit(n)]
    else:
        word = [n for n in axes[-1] if not _unit(n)]
        f = word[0]
        if size[f] % k:
            return None, f"its word axis {f!r} has extent {size[f]}, not a multiple of {k}"
        new = _fresh(f, size)
        g = next(g for g in left if f in g)
        g.insert(g.index(f), new)
        size[f], size[new] = size[f] // k, k
        axes.insert(len(axes) - 1, [new])
    return _render(view, left, axes, size), None


def _opcode_text(op, w):
    quals = [q for q in op.qualifiers if q not in ("v2", "v4", "v8")]
    ti = next(i for i, q in enumerate(quals) if q == op.type)
    if w > 1:
        quals.insert(ti, f"v{w}")
    return ".".join([op.kind, *quals])


def _contract_failure(rep, k):
    for o in rep.applies[k].obligations:
        if REGISTRY[o.name].severity == CONTRACT and o.status != Verdict.PROVED:
            return o
    return None


def _widths(prover, check, data, report, k):
    a = check.applies[k]
    if a.family.name != "ld/st":
        return WidthResult(k, a.opcode.text, a.family.atom(a.opcode), None, None, None,
                           note=f"{a.family.name}: widths are searched for ld/st only")
    ngroup = len(check.group_shape(a.scope))
    v = a.opcode.vector

    def attempt(w):  # (texts, the first contract obligation's message when one is not proved)
        if w == v:
            bad = _contract_failure(report, k)
            return None, None if bad is None else _line(bad)
        widen = w > v
        kk = w // v if widen else v // w
        texts = {"opcode": _opcode_text(a.opcode, w)}
        for role in ("dst", "src"):
            t, r = _rewidth(getattr(a, role), ngroup, kk, widen)
            if t is None:
                return None, f"{role} cannot carry v{w}: {r}"
            texts[role] = t
        trial = _copy(data)
        trial["apply"][k].update(texts)
        try:
            bad, _ = prover.blocking(from_dict(trial, prover.path), [k], contract_only=True)
        except InputError as e:
            return None, f"not a valid apply: {e.message}"
        return texts, None if bad is None else _line(bad[1])

    # the current width proved: widen until a width fails; else narrow until one proves
    texts, why = attempt(v)
    widest, win = (v, None) if why is None else (None, None)
    up = [w for w in WIDTHS if w > v] if why is None else []
    nxt, reason = (None, None) if why is None else (v, why)
    for w in up:
        t, r = attempt(w)
        if r is not None:
            nxt, reason = w, r
            break
        widest, win = w, t
    if widest is None:
        for w in (w for w in reversed(WIDTHS) if w < v):
            t, r = attempt(w)
            if r is None:
                widest, win = w, t
                break
            nxt, reason = w, r
        if widest is not None:
            nxt, reason = min((x for x in WIDTHS if x > widest)), None
            reason = attempt(nxt)[1]
    res = WidthResult(k, a.opcode.text, v, widest, nxt, reason)
    res.texts = win
    return res


def _line(o):
    msg = (o.message or f"{o.name} {o.status}").splitlines()[0]
    return msg if msg.startswith(o.name) else f"{o.name} {o.status}: {msg}"


# --- the command ---------------------------------------------------------------------------------

def suggest(path, timeout: float = 10.0, cap: int = MAX_CANDIDATES) -> Suggestion:
    """Search swizzles and widths for the check file ``path`` (raises InputError on bad input)."""
    start = time.perf_counter()
    check = load(path)
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    prover = _Prover(str(path), timeout)
    users = {}  # shared tensor -> indices of the applies that use it
    for a in check.applies:
        for r in a.family.memory_roles(a.opcode):
            name = getattr(a, r).tensor
            if check.tensors[name].scope == "shared":
                users.setdefault(name, [])
                if a.index not in users[name]:
                    users[name].append(a.index)
    ideal = _with_expect(data, sorted({k for ks in users.values() for k in ks}))
    base = prover(ideal)
    tensors, out = [], data
    for name, ks in users.items():
        targets = [k for k in ks if base.applies[k].obligation("banks").status != Verdict.PROVED]
        before = {k: base.applies[k].obligation("banks").message for k in ks}
        if not targets:
            tensors.append(TensorResult(name, ks, [], before))
            continue
        blocked = _failure(base, ks, skip=("banks",))
        if blocked is not None:
            r = TensorResult(name, ks, targets, before)
            r.blocked = f"{_reason(*blocked)} before any swizzle: fix that first"
            tensors.append(r)
            continue
        res, _ = _search_tensor(prover, from_dict(_with_expect(out, ks), prover.path), name, ks, targets, before, cap)
        if res.swizzle is not None:
            out = _copy(out)
            out["tensors"][name]["layout"] = res.layout
            for k in targets:  # the conflict-freedom just proved becomes a contract of the kept file
                out["apply"][k]["expect"] = {**out["apply"][k].get("expect", {}), "banks": CONFLICT_FREE}
        tensors.append(res)
    final = prover(out)
    final_check = final.check
    widths = [_widths(prover, final_check, out, final, a.index) for a in final_check.applies]
    return Suggestion(str(path), tensors, widths, out, final, time.perf_counter() - start, prover.count)


def to_text(s: Suggestion) -> str:
    screened = sum(t.screened for t in s.tensors)
    lines = [f"{s.path}: searched in {s.seconds:.2f} s ({sum(t.tried for t in s.tensors)} swizzles tried, "
             f"{screened} of them rejected on a brute-force counterexample; {s.proves} prover runs)"]
    if not s.tensors:
        lines.append("  no shared-memory tensor: no swizzle to search")
    for t in s.tensors:
        ap = ", ".join(f"apply[{k}]" for k in t.applies)
        if not t.targets:
            lines.append(f"  shared tensor {t.tensor} ({ap}): banks proved at the ideal already")
            continue
        for k in t.targets:
            lines.append(f"  shared tensor {t.tensor}, apply[{k}]: {t.before[k]}")
        if t.blocked:
            lines.append(f"    no search: {t.blocked}")
        elif t.swizzle is not None:
            lines.append(f"    swizzle found: layout = \"{t.layout}\" (candidate {t.tried} of {t.family}); "
                         f"every contract obligation of {ap} stays proved")
            for k in t.applies:
                lines.append(f"    apply[{k}] banks: {t.after[k]}")
        else:
            capped = "" if t.tried == t.family else f" (the first {t.tried} of {t.family}: raise --max-candidates)"
            lines.append(f"    no swizzle in the family works: every one of the {t.tried} candidates {t.family_text}"
                         f"{capped} fails:")
            for why, n in t.failures.most_common():
                lines.append(f"      {n:4d} x {why} (e.g. {', '.join(t.examples[why])})")
    lines.append("  vector widths (contract obligations proved; the suggested file):")
    for w in s.widths:
        head = f"    apply[{w.apply}] {w.opcode}:"
        if w.note:
            lines.append(f"{head} {w.note}")
            continue
        nxt = f"; v{w.next_width}: {w.reason}" if w.next_width else ""
        if w.widest is None:
            lines.append(f"{head} no width v1..v8 proves the contract{nxt}")
        elif w.widest == w.current:
            lines.append(f"{head} v{w.current} is the widest{nxt}")
        else:
            lines.append(f"{head} v{w.widest} proves (now v{w.current}): opcode = \"{w.texts['opcode']}\", "
                         f"dst = \"{w.texts['dst']}\", src = \"{w.texts['src']}\"{nxt}")
    changed = any(t.swizzle is not None for t in s.tensors)
    lines.append(f"  suggested file{'' if changed else ' (no change)'}: {s.report.verdict}")
    return "\n".join(lines)


def header(s: Suggestion) -> str:
    """The comment ``suggest -o`` puts above the file: what was found and re-proved."""
    out = [f"Suggested by `tilecheck suggest {Path(s.path).name}` (re-proved: {s.report.verdict})."]
    for t in s.tensors:
        if t.swizzle is not None:
            out.append(f"{t.tensor}: {t.layout}; banks conflict-free on "
                       + ", ".join(f"apply[{k}]" for k in t.targets) + " (now required by expect)")
    for w in s.widths:
        if w.texts:
            out.append(f"apply[{w.apply}] could use {w.texts['opcode']}: dst = \"{w.texts['dst']}\", "
                       f"src = \"{w.texts['src']}\"")
    return "\n".join(out)


def rewrite(original: str, data: dict, comment: str = "") -> str:
    """The check file ``original`` with the values that differ in ``data`` replaced (tomlkit: every
    comment, blank line and the order of keys kept), ``comment`` above it with a ``#`` line between."""
    import tomlkit
    doc = tomlkit.parse(original)
    _merge(doc, data, top=True)
    top = "".join(f"# {line}".rstrip() + "\n" for line in comment.splitlines())
    return (top + "#\n" if top else "") + tomlkit.dumps(doc)


def _merge(node, data: dict, top: bool = False):
    import tomlkit
    for k, v in data.items():
        old = node.get(k)
        if isinstance(v, dict) and hasattr(old, "keys") and not isinstance(old, tomlkit_inline()):
            _merge(old, v)
        elif (isinstance(v, list) and isinstance(old, list) and len(old) == len(v) and v
              and all(isinstance(x, dict) and hasattr(o, "keys") for x, o in zip(v, old))):
            for o, x in zip(old, v):
                _merge(o, x)
        elif old is None or (old.unwrap() if hasattr(old, "unwrap") else old) != v:
            if isinstance(v, dict) and not top:  # a new table inside one: inline, as `expect = {...}`
                table = tomlkit.inline_table()
                table.update(v)
                v = table
            node[k] = v
    for k in [k for k in node if k not in data]:  # a key the suggestion dropped
        del node[k]


def tomlkit_inline():
    from tomlkit.items import InlineTable
    return InlineTable


def add_arguments(p):
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", metavar="OUT.toml", help="write the suggested check file")
    p.add_argument("--timeout", type=_seconds, default=10.0, metavar="SECONDS", help="bound on each query (default 10)")
    p.add_argument("--max-candidates", type=_positive, default=MAX_CANDIDATES, metavar="N",
                   help=f"swizzles tried per shared tensor at most (default {MAX_CANDIDATES})")


def _seconds(text):
    return positive_seconds(text)


def _positive(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return n


def main(args) -> int:
    s = suggest(args.file, args.timeout, args.max_candidates)
    print(to_text(s))
    if args.output:
        text = rewrite(Path(args.file).read_text(encoding="utf-8"), s.data, header(s))
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise InputError(f"cannot write {args.output!r}: {e.strerror or e}", "-o") from None
        print(f"wrote {args.output}")
    return s.exit_status
