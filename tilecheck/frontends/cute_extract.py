"""Trace CuTe Python DSL kernels and record every ``cute.copy`` with its layouts (needs nvidia-cutlass-dsl).

``record(path, entries)`` imports the Python file ``path`` and calls its entry functions (by default every
module-level function whose name starts with ``tilecheck_``; each builds its arguments, e.g. with
``cutlass.cute.runtime.make_fake_tensor``, and calls ``cute.compile``). While they run, the DSL's
``cute.copy``, ``ThrCopy.partition_S``/``partition_D``, ``TiledCopy.retile`` and ``Tensor.__getitem__`` are
wrapped: a partition remembers the whole tensor it was cut from and the tiled copy that cut it, a slice of a
partition remembers its coordinates, and each ``cute.copy`` is recorded with

  * its atom: the operation's class (``CopyG2SOp``, ``CopyUniversalOp``, ``LdMatrix8x8x16bOp``, ``CopyBulk...``),
    the number of matrices, transpose, cache mode; for a ``TiledCopy`` its size (threads), ``tiler_mn`` and the
    source and destination thread-value layouts (``layout_src_tv_tiled``, ``layout_dst_tv_tiled``);
  * each operand as the DSL types it: its per-thread layout, its iterator (element type, address space,
    alignment, a swizzle on the pointer) and where it came from (the whole tensor's layout and iterator, and
    the slices taken since);
  * the file and line of the ``cute.copy`` call.

Everything is text as the DSL prints it (``((8,1),4):((1,0),?{i64 div=256})``, ``ptr<f16, smem, align<16>,
S<2,4,3>>``): the record is JSON, translated by ``tilecheck/frontends/cute.py`` without the DSL. Loops the DSL
unrolls in Python call ``cute.copy`` once per iteration; identical records are kept once with a count.
"""
from __future__ import annotations

import contextlib
import importlib.util
import inspect
import os
import re
import sys
import traceback

# frames of these folders are not the user's: this file's, and the DSL's once _dsl() has imported it
_SKIP = (os.path.dirname(os.path.abspath(__file__)),)


def _dsl():
    """The DSL (cutlass, cutlass.cute, cutlass.cute.tensor), imported when a trace starts: nvidia-cutlass-dsl is
    an optional package, so this module imports without it (``cute.extract`` checks for it first)."""
    global _SKIP
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute import tensor
    _SKIP = (os.path.dirname(os.path.abspath(cutlass.__file__)), os.path.dirname(os.path.abspath(__file__)))
    return cutlass, cute, tensor


def _site() -> tuple[str, int]:
    """The file and line of the first frame outside the DSL and tilecheck: the user's call."""
    f = sys._getframe(2)
    while f is not None:
        fn = os.path.abspath(f.f_code.co_filename)
        if not fn.startswith(_SKIP) and "nvidia_cutlass_dsl" not in fn and not fn.startswith("<"):
            return f.f_code.co_filename, f.f_lineno
        f = f.f_back
    return "?", 0


def _coord(c):
    if c is None:
        return None
    if isinstance(c, bool):
        return "?"
    if isinstance(c, int):
        return c
    if isinstance(c, (tuple, list)):
        return [_coord(x) for x in c]
    return "?"  # a dynamic value (a loop index): its range is the mode's extent


class Recorder:
    def __init__(self):
        self.origin = {}  # id(tensor) -> (tensor, origin dict): the tensor kept alive so the id stays its own
        self.copies = []
        self.entry = None

    # ------------------------------------------------------------------ what a tensor is
    def operand(self, t) -> dict:
        et = getattr(t, "element_type", None)
        try:
            space = str(t.memspace).split(".")[-1]
        except (ValueError, AttributeError):  # a coordinate tensor (TMA's): no address space
            space = "none"
        rec = {"layout": str(t.layout), "iterator": str(t.iterator), "dtype": str(et),
               "width": int(getattr(et, "width", 0) or 0), "memspace": space}
        o = self.origin.get(id(t))
        if o is not None and o[0] is t:
            rec["origin"] = o[1]
        return rec

    def tag(self, result, origin):
        self.origin[id(result)] = (result, origin)

    # ------------------------------------------------------------------ the wrappers
    def install(self):
        _, cute, _tensor = _dsl()
        rec = self
        saved = {}

        def wrap(owner, name, make):
            saved[(owner, name)] = getattr(owner, name)
            setattr(owner, name, make(saved[(owner, name)]))

        def partition(side):
            def make(orig):
                def f(self, t, *a, **k):
                    out = orig(self, t, *a, **k)
                    rec.tag(out, {"how": f"partition_{side}", "whole_layout": str(t.layout),
                                  "whole_iterator": str(t.iterator), "tiled": _tiled(self), "slices": []})
                    return out
                return f
            return make

        def retile(orig):
            def f(self, t, *a, **k):
                out = orig(self, t, *a, **k)
                rec.tag(out, {"how": "retile", "slices": []})
                return out
            return f

        def getitem(orig):
            def f(self, crd, *a, **k):
                out = orig(self, crd, *a, **k)
                o = rec.origin.get(id(self))
                if o is not None and o[0] is self and isinstance(out, _tensor._Tensor):
                    c = _coord(crd if isinstance(crd, tuple) else (crd,))
                    rec.tag(out, {**o[1], "slices": o[1]["slices"] + [{"layout": str(self.layout), "coord": c}]})
                return out
            return f

        def copy(orig):
            def f(atom, src, dst, *a, **k):
                try:
                    rec.copies.append(rec.copy_record(atom, src, dst, k))
                except Exception as e:  # noqa: BLE001 - a record we cannot read is reported, the trace goes on
                    file, line = _site()
                    rec.copies.append({"file": file, "line": line, "entry": rec.entry,
                                       "unsupported": f"could not read the copy: {type(e).__name__}: {e}"})
                return orig(atom, src, dst, *a, **k)
            return f

        wrap(cute.ThrCopy, "partition_S", partition("S"))
        wrap(cute.ThrCopy, "partition_D", partition("D"))
        wrap(cute.TiledCopy, "retile", retile)
        if "retile" in vars(cute.ThrCopy):
            wrap(cute.ThrCopy, "retile", retile)
        wrap(_tensor._Tensor, "__getitem__", getitem)
        wrap(cute, "copy", copy)
        return saved

    @staticmethod
    def uninstall(saved):
        for (owner, name), v in saved.items():
            setattr(owner, name, v)

    def copy_record(self, atom, src, dst, kwargs) -> dict:
        file, line = _site()
        op = atom.op
        r = {"file": file, "line": line, "entry": self.entry, "atom": type(atom).__name__,
             "op": type(op).__name__, "op_text": " ".join(str(op).split()), "pred": kwargs.get("pred") is not None}
        for attr in ("num_matrices", "transpose", "cache_mode"):
            v = getattr(op, attr, None)
            if v is not None:
                r[attr] = v if isinstance(v, (bool, int)) else str(v).split(".")[-1]
        if type(atom).__name__ in ("TiledCopy", "ThrCopy"):
            r.update(_tiled(atom))
        else:  # a plain CopyAtom: its values per instruction (the operands' partitions say the threads)
            r["atom_tv_src"] = str(atom.layout_src_tv)
        r["src"] = self.operand(src)
        r["dst"] = self.operand(dst)
        return r


def _tiled(tc) -> dict:
    """What translation needs of a TiledCopy (or the ThrCopy of one thread): threads, tiler, TV layouts."""
    return {"threads": int(tc.size), "tiler": [str(t) for t in tc.tiler_mn],
            "tv_src": str(tc.layout_src_tv_tiled), "tv_dst": str(tc.layout_dst_tv_tiled)}


def _load(path: str):
    name = "_tilecheck_cute_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def record(path: str, entries: list[str] | None = None) -> dict:
    """Run the entry functions of ``path`` under the recorder; the extraction as JSON-able data."""
    cutlass, _, _ = _dsl()
    out = {"file": path, "dsl_version": getattr(cutlass, "__version__", None), "entries": [], "copies": [],
           "errors": []}
    rec = Recorder()
    saved = rec.install()
    try:
        try:
            with contextlib.redirect_stdout(sys.stderr):
                mod = _load(path)
        except Exception as e:  # noqa: BLE001
            out["errors"].append({"entry": None, "stage": "import", "message": f"{type(e).__name__}: {e}".strip()})
            return out
        names = entries or sorted(n for n, v in vars(mod).items()
                                  if n.startswith("tilecheck_") and inspect.isfunction(v) and v.__module__ == mod.__name__)
        if not names:
            out["errors"].append({"entry": None, "stage": "entry", "message": "no function named tilecheck_* in the "
                                  "file (each builds fake tensors and calls cute.compile; or name one with --entry)"})
        for n in names:
            fn = getattr(mod, n, None)
            if not callable(fn):
                out["errors"].append({"entry": n, "stage": "entry", "message": f"no function {n!r} in the file"})
                continue
            out["entries"].append(n)
            rec.entry, before = n, len(rec.copies)
            try:
                with contextlib.redirect_stdout(sys.stderr):  # the kernel's own prints (and the DSL's) are not our output
                    fn()
            except Exception as e:  # noqa: BLE001 - the DSL's own error, as it reports it
                msg = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", f"{type(e).__name__}: {e}").split())
                frames = [f for f in traceback.extract_tb(e.__traceback__)
                          if not os.path.abspath(f.filename).startswith(_SKIP) and "nvidia_cutlass_dsl" not in f.filename]
                where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else None
                out["errors"].append({"entry": n, "stage": "trace", "message": msg[:2000], "where": where})
            out.setdefault("copies_per_entry", {})[n] = len(rec.copies) - before
    finally:
        Recorder.uninstall(saved)
    seen = {}
    for c in rec.copies:  # an unrolled loop calls cute.copy once per iteration: keep one, count them
        key = repr(c)
        if key in seen:
            seen[key]["calls"] += 1
        else:
            seen[key] = {**c, "calls": 1}
    out["copies"] = list(seen.values())
    for c in out["copies"]:  # files below the working directory by a relative path (recordings travel)
        rel = os.path.relpath(c["file"]) if c.get("file", "?") != "?" else "?"
        if not rel.startswith(".."):
            c["file"] = rel
    return out


if __name__ == "__main__":  # python -m tilecheck.frontends.cute_extract FILE.py [ENTRY...]: the raw record
    import json
    print(json.dumps(record(sys.argv[1], sys.argv[2:] or None), indent=1))
