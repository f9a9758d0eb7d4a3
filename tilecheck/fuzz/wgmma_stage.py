"""``tilecheck fuzz --gpu --families descriptor``: drawn descriptor pairs through one wgmma each.

Each case is two drawn descriptor check files (``desc_strategies.descriptor_checks``, restricted to what
``gpu/wgmma_probe.py``'s one ``wgmma.mma_async.m64n8k16.f32.f16.f16`` reads: A a 64 x 16 f16 tile, B a
K-major 8 x 16 one, sm_90 words), agreeing or carrying one of issue 31's bugs, and for A a K step (its
start advanced as CUTLASS does, the advance added to the start field).  A is read with the major-ness its
descriptor declares (``imm-trans-a`` 1 for MN-major): the "major" bug declares a K-major tensor's
descriptor MN-major, and the model, tilecheck and the hardware must all read it so -- read K-major, that
descriptor reads the declared tile exactly, so a K-major instruction would not be the one the file
declares.  The shared images hold small-integer values at the declared addresses (noise elsewhere), so:

* the model's prediction (``smem_descriptor.decode`` of each word, gathered, multiplied in numpy) must
  equal the hardware's D, every element, for every case (``differ``: a finding, written to ``--out``);
* the model reads a wrong address exactly where tilecheck refutes the descriptor (``descriptor-layout``
  at K step 0, and B's; a later step's wrong read is refuted by ``descriptor-k-advance``): checked on the
  CPU for every case, with or without a GPU (``prepare``);
* the hardware's D differs from the declared product where the model reads wrongly (the refutation
  confirmed on the device), and equals it where tilecheck proves both descriptors.

Cases whose word the probe cannot run (a reserved bit set, a field the model's read takes outside its
image) are drawn again.  ``tests/test_wgmma_stage.py`` runs ``prepare`` on the CPU; the GPU half is
``tilecheck fuzz --gpu --families descriptor`` on the H200.
"""
from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import decide, descriptor_file, smem_descriptor as sd
from ..layout import parse_layout
from ..desc_strategies import descriptor_checks
from ..gpu import wgmma_probe as probe
from ..proofs import smem_descriptor as obligations
from ..strategies import sample, to_toml

CASES = 200  # descriptor pairs run by `tilecheck fuzz --gpu --families descriptor`
A_DRAW = dict(shapes=[("K", 16)], mns=(64,), archs=("sm_90",), dtypes=("float16",))
B_DRAW = dict(shapes=[("K", 16)], mns=(8,), archs=("sm_90",), dtypes=("float16",))
B_BYTES = probe.SHARED_BYTES - probe.B_AT


@dataclass
class Case:
    a: dict  # A's descriptor file (its word: the K step's)
    b: dict
    step: int  # the K step A's descriptor is advanced to (0: none)
    major: str  # the major-ness A's descriptor declares: the probe's imm-trans-a is 1 for "MN"
    word_a: int
    word_b: int
    img_a: np.ndarray
    img_b: np.ndarray
    declared: np.ndarray  # A's K slice . B^T, as declared
    predicted: np.ndarray  # what the model reads, multiplied
    wrong: bool  # the model reads some element of A's slice or B at another address than declared
    refuted: bool  # tilecheck refutes A's (layout at step 0, k-advance after) or B's descriptor
    z3: dict  # {"A": {obligation: status}, "B": {...}}


def _placed(data: dict, step: int, size: int, rng, major: str | None = None):
    """(word, image, declared values of the K slice, model's wrong read?) or None when the probe cannot
    run it: the word the code passes (``decide.desc_word``) with the K step's advance added to its start
    field, read with the major-ness the descriptor declares (``major``: None for any the probe reads, else
    the one it must declare), every declared element of the slice and every model read inside the
    ``size``-byte image."""
    arch, d = "sm_90", data["descriptors"]["DA"]
    if major is not None and d["major"] != major:
        return None
    t = data["tensors"]["SA"]
    word = decide.desc_word(d, arch, {})
    if step:
        adv = d["advance"][step - 1]
        if adv % 16:
            return None
        word += adv >> 4  # CUTLASS's DescriptorIterator: the advance in 16-byte units added to the word
    if word & sd.reserved_mask(arch) or word >= 1 << 64:
        return None
    try:
        dec = sd.decode(word, d["major"], 16, tuple(d["tile"]))
    except ValueError:
        return None
    layout = parse_layout(t["layout"])
    mn, k = d["tile"]
    ext = layout.extents()
    if len(ext) != 2 or ext[0] < mn or ext[1] < (step + 1) * k:
        return None
    address, offset = t["address"], t.get("offset", 0)
    at = lambda i, j: sd.declared_address(layout, 16, address, offset, i, j)  # noqa: E731
    reads = [[dec.address(i, j) for j in range(k)] for i in range(mn)]
    slice_ = [[at(i, j + step * k) for j in range(k)] for i in range(mn)]
    if any(not 0 <= a < size or a % 2 for row in reads + slice_ for a in row):
        return None
    values = rng.integers(-8, 9, tuple(ext)).astype(np.float16)  # small integers: every sum exact
    img = np.random.default_rng(int(rng.integers(1 << 30))).integers(-8, 9, size // 2).astype(np.float16)
    for i in range(ext[0]):
        for j in range(ext[1]):
            a = at(i, j)
            if 0 <= a < size and a % 2 == 0:
                img[a // 2] = values[i, j]
    for i in range(mn):  # the slice's own values last: an element placed over another is the slice's
        for j in range(k):
            img[slice_[i][j] // 2] = values[i, j + step * k]
    declared = values[:mn, step * k:(step + 1) * k]
    return word, img, declared, reads != slice_


def _z3(data: dict) -> dict:
    return {o.name: str(o.status) for o in obligations.decide(descriptor_file.load(copy.deepcopy(data))[0])}


def prepare(a: dict, b: dict, step: int, rng) -> Case | None:
    """One case (None when the probe cannot run it: ``_placed``)."""
    pa = _placed(a, step, probe.B_AT, rng)
    pb = _placed(b, 0, B_BYTES, rng, major="K")  # the probe's imm-trans-b is 0
    if pa is None or pb is None:
        return None
    (wa, ia, da, wrong_a), (wb, ib, db, wrong_b) = pa, pb
    major = a["descriptors"]["DA"]["major"]
    declared = da.astype(np.float32) @ db.astype(np.float32).T
    predicted = probe.predict_words(ia, wa, ib, wb, major)
    z3 = {"A": _z3(a), "B": _z3(b)}
    refuted = z3["B"]["descriptor-layout"] == "refuted" or \
        z3["A"]["descriptor-layout" if step == 0 else "descriptor-k-advance"] == "refuted"
    return Case(a, b, step, major, wa, wb, ia, ib, declared, predicted, wrong_a or wrong_b, refuted, z3)


def cases(n: int, seed: int) -> list[Case]:
    """``n`` cases drawn with ``seed`` (drawing more where the probe cannot run one)."""
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    out, batch = [], 0
    while len(out) < n and batch < 20:
        a_files = sample(2 * n, seed * 1000 + batch, descriptor_checks(**A_DRAW))
        b_files = sample(2 * n, seed * 1000 + batch + 500, descriptor_checks(**B_DRAW))
        for a, b in zip(a_files, b_files):
            step = pick.randrange(len(a["descriptors"]["DA"].get("advance", [])) + 1)
            c = prepare(a, b, step, rng)
            if c is not None:
                out.append(c)
                if len(out) == n:
                    break
        batch += 1
    return out


def model_problems(c: Case) -> list[str]:
    """What the CPU holds of a case: the model reads wrongly exactly where tilecheck refutes at step 0,
    and a wrong read at a later step is refuted too."""
    if c.step == 0 and c.wrong != c.refuted:
        return [f"the model {'reads' if c.wrong else 'does not read'} a wrong address, tilecheck "
                f"{'refutes' if c.refuted else 'proves'} the descriptors: {c.z3}"]
    if c.wrong and not c.refuted:
        return [f"K step {c.step}: the model reads a wrong address, tilecheck proves the descriptors: {c.z3}"]
    return []


def run(n: int | None = None, seed: int = 0, out: str | None = None, gpu=None) -> list[str]:
    """The stage's summary lines: ``n`` (default ``CASES``) cases on the device (``gpu``: a ``runner.Gpu``,
    else the default)."""
    n = CASES if n is None else n
    t = time.perf_counter()
    drawn = cases(n, seed)
    loaded = {m: probe.probe_function(gpu, m) for m in sorted({c.major for c in drawn})}  # A K- or MN-major
    differ, confirmed, wrong, proved_equal, proved, model = [], 0, 0, 0, 0, []
    for k, c in enumerate(drawn):
        model += [f"case {k}: {p}" for p in model_problems(c)]
        got = probe.run_words(c.img_a, c.word_a, c.img_b, c.word_b, loaded=loaded[c.major])
        if not np.array_equal(got, c.predicted):
            differ.append((k, c, np.argwhere(got != c.predicted)[:3].tolist()))
        if c.wrong:
            wrong += 1
            confirmed += not np.array_equal(got, c.declared)
        if not c.refuted:
            proved += 1
            proved_equal += np.array_equal(got, c.declared)
    mn = sum(c.major == "MN" for c in drawn)
    lines = [f"  wgmma GPU stage: {len(drawn)} descriptor pairs (m64n8k16 f16, A at K steps 0.., MN-major A in {mn} "
             f"(imm-trans-a 1)), "
             f"{time.perf_counter() - t:.1f} s: hardware == model {len(drawn) - len(differ)}/{len(drawn)}; "
             f"tilecheck proved {proved}, D == declared in {proved_equal}/{proved}; the model reads wrongly in "
             f"{wrong}, D != declared in {confirmed}/{wrong}; model vs tilecheck problems {len(model)}"]
    lines += [f"  wgmma differs: case {k} ({c.major}-major A, K step {c.step}) at {at}" for k, c, at in differ[:10]]
    lines += [f"  wgmma {m}" for m in model[:10]]
    if out and (differ or model):
        d = Path(out) / "wgmma"
        d.mkdir(parents=True, exist_ok=True)
        for k, c, at in differ:
            for name, data in (("A", c.a), ("B", c.b)):
                path = d / f"differs-{k}-{name}.toml"
                path.write_text(to_toml(data, comment=f"tilecheck fuzz --gpu: wgmma case {k} ({c.major}-major A at K step "
                                                      f"{c.step}): "
                                                      f"the hardware's D differs from the model's at {at}"))
                lines.append(f"  wrote {path}")
    return lines
