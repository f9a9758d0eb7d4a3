"""Run emitted kernels on a CUDA device with pycuda and compare them with the numpy reference.

    from tilecheck.gpu.runner import run_check, run_checks
    result = run_check(tilecheck.load("examples/symbolic_tile.toml"), {"n": 4096, "k": 4096}, seed=1)
    assert result.ok, result.summary()

``run_checks`` runs many checks and loads their kernels together: loading a
module costs far more than launching its kernels, so the kernels are linked
into a few modules that ptxas assembles in parallel (or into one module for the
driver's JIT with ``how="ptx"``), and runs them as one batch: one upload, one
synchronisation and one download for all of them (``tilecheck.gpu.batch``).
Only proved plans come in here: ``run_check`` proves the check itself and
refuses anything else (``tilecheck.gpu.unchecked`` is the one way to run a
refuted plan: the kernel of ``tilecheck.emit.kernel_unchecked``, in a child process).

Every memory tensor's buffer is placed at an address aligned to exactly its
declared ``align`` (``addr % align == 0`` and ``addr % (2*align) != 0``), so a
plan that relies on more alignment than it declared faults here as it would in
a user's program; guard bytes around every buffer catch stray writes.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
import atexit
import hashlib


from ..check import Check
from ..opcodes import parse_arch
from . import tensormap_driver
from .batch import BatchTimes, launch_batch, launch_shared
from .reference import (BufferTooLarge, Case, Comparison, bind_symbols, buffer_sizes, compare, reference,
                        too_large)
from ..emit import kernel
from ..emit.kernel import tensormap_params
from ..report import prove
from .. import tools  # tools.find_tool: looked up at the call (a test replaces it)
import tilecheck

LOAD_PATHS = ("cubin", "ptx")
# Measured on the H200 (16 cores), docs/gpu.md: parallel ptxas + cubin cache 0.23 s cold / 0.01 s warm for
# the 289-kernel test batch, against 1.2-1.5 s cold / 0.016 s warm for the driver's JIT of one linked module.
DEFAULT_LOAD = "cubin"


class GpuUnavailable(Exception):
    """No way to run here: pycuda missing, no device, or a target the device cannot run (exit 2)."""


class NotProved(Exception):
    """The check is not proved: it has no plan to run (exit 1 refuted, 3 unknown)."""

    def __init__(self, report):
        super().__init__(f"{report.check.path} is {report.verdict}: nothing is run for a plan that is not proved")
        self.report = report


# the device ---------------------------------------------------------------

def _driver():
    try:
        import pycuda.driver as drv
    except ImportError as e:
        raise GpuUnavailable(f"pycuda is not installed ({e.name or e}): pip install -e '.[gpu]' "
                             f"(it builds against the CUDA toolkit; see docs/gpu.md)") from None
    return drv


class Gpu:
    """A CUDA context on one device, made current for this thread."""

    def __init__(self, ordinal: int = 0):
        drv = _driver()
        try:
            drv.init()
            count = drv.Device.count()
        except drv.Error as e:
            raise GpuUnavailable(f"no CUDA device: the driver did not start ({_one_line(e)})") from None
        if count == 0:
            raise GpuUnavailable("no CUDA device: the driver sees none")
        if ordinal >= count:
            raise GpuUnavailable(f"no CUDA device {ordinal}: the driver sees {count}")
        self.drv = drv
        self.device = drv.Device(ordinal)
        self.name = self.device.name()
        self.cc = self.device.compute_capability()
        self.sm = 10 * self.cc[0] + self.cc[1]
        self.arch = f"sm_{self.sm}"
        self.context = self.device.make_context()
        self.closed = False

    def close(self):
        if not self.closed:
            self.closed = True
            try:
                self.context.pop()
                self.context.detach()
            except Exception:
                pass

    def can_run(self, arch: str) -> str | None:
        """None when a module for ``arch`` runs here, else the reason in one line."""
        return cannot_run(arch, self.arch, self.name)

    def __repr__(self):
        return f"Gpu({self.name}, {self.arch})"


def cannot_run(arch: str, device: str, name: str = "the device") -> str | None:
    """None when a module for target ``arch`` runs on a device of target ``device`` (``sm_90``), else why."""
    a, sm = parse_arch(arch), parse_arch(device).sm
    if a.sm > sm:
        return f"target {arch} is newer than the device, {name} ({device})"
    if a.suffix == "a" and a.sm != sm:
        return f"target {arch} is arch-specific: it runs only on sm_{a.sm}, the device is {name} ({device})"
    if a.suffix == "f" and (a.sm // 10 != sm // 10 or a.sm > sm):
        return f"target {arch} is family-specific: it does not run on {name} ({device})"
    return None


_GPU: Gpu | None = None


def gpu() -> Gpu:
    """The process's device context (made on first use, closed at exit)."""
    global _GPU
    if _GPU is None or _GPU.closed:
        _GPU = Gpu(int(os.environ.get("TILECHECK_DEVICE", "0")))
        atexit.register(_GPU.close)
    return _GPU


RESERVE_BYTES = 256 << 20  # device memory left for the context, the modules and the arena's slack
HOST_COPIES = 6  # host copies of a buffer while a run is prepared, run and compared (reference, arena, download)


def memory_budget(device_free: int, host_available: int | None) -> tuple[int, str]:
    """The bytes one run's buffers may take, and the limit's name: the device's free memory less a
    reserve, and no more than the host can hold in the copies a run makes."""
    dev = max(0, device_free - RESERVE_BYTES)
    if host_available is not None and host_available // HOST_COPIES < dev:
        return host_available // HOST_COPIES, f"1/{HOST_COPIES} of the host's available memory"
    return dev, "the device's free memory"


def _host_available() -> int | None:
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def budget() -> tuple[int, str]:
    """``memory_budget`` of the current device and host."""
    g = gpu()
    free, _ = g.drv.mem_get_info()
    return memory_budget(int(free), _host_available())


def _one_line(e) -> str:
    return " ".join(str(e).split())


# loading ------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\.(version|target|address_size)\b[^\n]*\n?", re.M)


def link_ptx(modules: list[str]) -> str:
    """One PTX module holding every ``.entry`` of ``modules`` (all for the same target).

    The ``.version`` is the highest of them; module-scope declarations are renamed
    per module so that equal names cannot collide."""
    if len(modules) == 1:
        return modules[0]
    versions, targets, bodies = [], set(), []
    for k, m in enumerate(modules):
        v = re.search(r"^\s*\.version\s+(\d+)\.(\d+)", m, re.M)
        t = re.search(r"^\s*\.target\s+([^\s/]+)", m, re.M)
        if not v or not t:
            raise ValueError("a PTX module without .version or .target")
        versions.append((int(v.group(1)), int(v.group(2))))
        targets.add(t.group(1))
        bodies.append(_rename_module_scope(_HEADER.sub("", m), f"_m{k}"))
    if len(targets) != 1:
        raise ValueError(f"cannot link modules for several targets: {sorted(targets)}")
    major, minor = max(versions)
    return f".version {major}.{minor}\n.target {targets.pop()}\n.address_size 64\n\n" + "\n".join(bodies)


_DECL = re.compile(r"^\s*(?:\.(?:visible|extern|weak)\s+)*\.(?:global|shared|const)\b[^;{]*?"
                   r"([A-Za-z_$][\w$]*)\s*(?:\[[^\]]*\]\s*)*(?:=[^;]*)?;", re.M)


def _rename_module_scope(text: str, suffix: str) -> str:
    """Give the module-scope variables of one module a suffix (entries keep their names)."""
    names, depth = [], 0
    for line in text.splitlines():
        if depth == 0:
            m = _DECL.match(line)
            if m:
                names.append(m.group(1))
        depth += line.count("{") - line.count("}")
    for n in names:
        text = re.sub(rf"(?<![\w$%]){re.escape(n)}(?![\w$])", n + suffix, text)
    return text


@dataclass
class Loaded:
    module: object
    how: str  # "cubin" or "ptx"
    seconds: float  # ptxas + module_from_buffer (cubin) or module_from_buffer (ptx JIT)
    ptxas_seconds: float = 0.0
    cached: bool = False  # the cubin came from tilecheck's cache


def load_module(ptx: str, how: str = DEFAULT_LOAD, check: Check | None = None) -> Loaded:
    """Load one PTX module into the current context: JIT (``ptx``) or through ptxas (``cubin``); the
    kernel of ``check``, when it takes a tensor map by value, as a ``ByValueModule``."""
    if check is not None and tensormap_params(check):
        return load_by_value([ptx], how)[0]
    return load_modules([ptx], how, chunks=1)[0]


def load_modules(modules: list[str], how: str = DEFAULT_LOAD, chunks: int | None = None) -> list[Loaded]:
    """Load many single-kernel PTX modules; returns the Loaded holding each one.

    Modules are grouped by ``.target`` (only modules of one target link together).  ``ptx``: each
    group linked into one module, JIT-compiled by the driver (which caches the result on disk,
    ~/.nv/ComputeCache, keyed by the PTX).  ``cubin``: linked into about ``chunks`` modules in all
    (default: one per CPU core, at least 8 kernels each) that ptxas assembles in parallel; each
    cubin is cached under ``$TILECHECK_CACHE`` (default ~/.cache/tilecheck; ``off`` disables it),
    keyed by the PTX, the target and ptxas's version."""
    g = gpu()
    drv = g.drv
    if how not in LOAD_PATHS:
        raise ValueError(f"unknown load path {how!r} (one of {LOAD_PATHS})")
    start = time.perf_counter()
    groups: dict[str, list[int]] = {}
    for k, m in enumerate(modules):
        groups.setdefault(_target(m), []).append(k)
    total = chunks or max(1, min(os.cpu_count() or 1, len(modules) // 8))
    pieces = []  # (indices, linked text, target)
    for target, ks in groups.items():
        n = 1 if how == "ptx" else max(1, min(len(ks), round(total * len(ks) / len(modules))))
        bounds = [len(ks) * j // n for j in range(n + 1)]
        pieces += [(ks[a:b], link_ptx([modules[k] for k in ks[a:b]]), target) for a, b in zip(bounds, bounds[1:])]
    out: list = [None] * len(modules)
    if how == "ptx":
        for ks, text, _ in pieces:
            try:
                mod = drv.module_from_buffer(text.encode() + b"\0")  # the JIT reads a C string
            except drv.Error as e:
                raise RuntimeError(f"the driver's PTX JIT rejected the module: {_one_line(e)}") from None
            for k in ks:
                out[k] = Loaded(mod, "ptx", time.perf_counter() - start)
        return out
    # plain targets run on newer chips: assemble them for this one
    cubins, cached = ptxas_many([t for _, t, _ in pieces],
                                [target if parse_arch(target).suffix else g.arch for _, _, target in pieces])
    t1 = time.perf_counter()
    mods = []
    for (ks, _, _), cubin in zip(pieces, cubins):
        try:
            mods.append((ks, drv.module_from_buffer(cubin)))
        except drv.Error as e:
            raise RuntimeError(f"the driver rejected ptxas's cubin: {_one_line(e)}") from None
    seconds = time.perf_counter() - start
    for ks, mod in mods:
        for k in ks:
            out[k] = Loaded(mod, "cubin", seconds, t1 - start, cached)
    return out


class ByValueModule:
    """A module whose kernels take a tensor map by value (``kernel.tensormap_params``): loaded by
    ``cuModuleLoadData`` into pycuda's context and launched by ``cuLaunchKernel`` with ``kernelParams``
    (``tensormap_driver.Module``), since pycuda's launch makes such kernels fault (docs/gpu.md, "TMA").
    ``get_function`` gives what ``batch.launch_batch`` calls, as it calls a pycuda function."""

    def __init__(self, image):
        self.module = tensormap_driver.Module(image)

    def get_function(self, name: str) -> "_ByValueFunction":
        return _ByValueFunction(self.module, name)


@dataclass
class _ByValueFunction:
    module: object
    name: str

    def __call__(self, *args, grid=(1, 1), block=(1, 1, 1), shared: int = 0):
        self.module.launch(self.name, args, grid=grid, block=block, shared=shared)

    def set_attribute(self, attribute, value: int):  # the one attribute the batch sets
        self.module.set_max_dynamic_shared(self.name, value)


def load_by_value(modules: list[str], how: str = DEFAULT_LOAD) -> list[Loaded]:
    """Load kernels that take a tensor map by value, one module each (``ByValueModule``): the driver's
    JIT on the PTX (``ptx``) or ptxas's cubin (``cubin``, cached like ``load_modules``)."""
    if not modules:
        return []
    g = gpu()
    if how not in LOAD_PATHS:
        raise ValueError(f"unknown load path {how!r} (one of {LOAD_PATHS})")
    start = time.perf_counter()
    images, cached = (modules, False) if how == "ptx" else ptxas_many(
        modules, [t if parse_arch(t).suffix else g.arch for t in map(_target, modules)])
    t1 = time.perf_counter()
    out = []
    for image in images:
        try:
            out.append(ByValueModule(image))
        except tensormap_driver.CudaError as e:
            raise RuntimeError(f"the driver rejected the module: {_one_line(e)}") from None
    seconds = time.perf_counter() - start
    return [Loaded(m, how, seconds, 0.0 if how == "ptx" else t1 - start, cached) for m in out]


def _target(ptx: str) -> str:
    return re.search(r"^\s*\.target\s+([^\s/,]+)", ptx, re.M).group(1)


def _cache_dir() -> Path | None:
    d = os.environ.get("TILECHECK_CACHE", "")
    if d.lower() == "off":
        return None
    return Path(d) if d else Path.home() / ".cache" / "tilecheck"


_PTXAS_VERSION: dict = {}


def _ptxas_version(exe: str) -> str:
    if exe not in _PTXAS_VERSION:
        r = subprocess.run([exe, "--version"], capture_output=True, text=True)
        _PTXAS_VERSION[exe] = r.stdout.strip()
    return _PTXAS_VERSION[exe]


def ptxas_many(texts: list[str], sm) -> tuple[list[bytes], bool]:
    """Assemble PTX modules with concurrent ptxas processes (cached), for ``sm`` (one target for all,
    or one per text); returns (cubins, whether all came from the cache)."""
    sms = [sm] * len(texts) if isinstance(sm, str) else list(sm)
    try:
        exe = tools.find_tool("ptxas")
    except tools.ToolNotFound as e:
        raise GpuUnavailable(f"{e}; or use --load ptx") from None
    cache = _cache_dir()
    keys = [hashlib.sha256(f"{sm}\n{_ptxas_version(exe)}\n{t}".encode()).hexdigest() for sm, t in zip(sms, texts)]
    out: list = [None] * len(texts)
    if cache is not None:
        for k, key in enumerate(keys):
            f = cache / f"{key}.cubin"
            if f.exists():
                out[k] = f.read_bytes()
    todo = [k for k in range(len(texts)) if out[k] is None]
    if todo:
        with tempfile.TemporaryDirectory(prefix="tilecheck-") as d:
            procs = []
            for k in todo:
                src, dst = Path(d) / f"k{k}.ptx", Path(d) / f"k{k}.cubin"
                src.write_text(texts[k])
                procs.append((k, dst, subprocess.Popen([exe, f"-arch={sms[k]}", "-o", str(dst), str(src)],
                                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
            for k, dst, p in procs:
                _, err = p.communicate()
                if p.returncode:
                    raise RuntimeError(f"ptxas -arch={sms[k]} rejected the module: {' '.join(err.split())[:400]}")
                out[k] = dst.read_bytes()
                if cache is not None:
                    try:
                        cache.mkdir(parents=True, exist_ok=True)
                        tmp = cache / f".{keys[k]}.{os.getpid()}"
                        tmp.write_bytes(out[k])
                        os.replace(tmp, cache / f"{keys[k]}.cubin")
                    except OSError:
                        pass  # a read-only home: no cache, same result
    return out, not todo


def ptxas(ptx: str, sm: str) -> bytes:
    return ptxas_many([ptx], sm)[0][0]


# running ------------------------------------------------------------------

@dataclass
class RunResult:
    """One kernel run and its comparison with the reference."""
    case: Case
    comparison: Comparison | None
    kernel: str  # the entry's name
    ptx: str  # this kernel's own module
    seconds: dict = field(default_factory=dict)  # prove, emit, reference, load, run (the launch+sync)
    guard: list = field(default_factory=list)  # tensors whose guard bytes the kernel changed
    refused: str | None = None  # the driver's reason when it refused to launch the kernel (resources)
    note: str = ""  # for a case that failed in a batch: whether it fails alone too

    @property
    def ok(self) -> bool:
        return not self.refused and not self.guard and self.comparison is not None and self.comparison.ok

    def summary(self) -> str:
        if self.refused:
            return f"the driver refused to launch it: {self.refused}"
        parts = [self.comparison.summary() if self.comparison else
                 f"ran to completion; the layouts define no reference ({self.case.undefined})"]
        if self.guard:
            parts.append(f"wrote outside its buffer: {', '.join(self.guard)}")
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)


@dataclass
class Job:
    check: Check
    symbols: dict | None = None
    seed: int = 0
    name: str = ""
    plan: object = None  # a proved plan (from tilecheck.prove(check).plan); proved here when None
    ptx: str | None = None  # the kernel's module (emitted here when None)
    strict: bool = True  # False (unchecked runs only): run even where the layouts define no result
    pred: bool = True  # the value of the predicate of applications with pred = true
    placement: dict | None = None  # tensor -> (residue, modulus): unchecked runs of align-blamed refutations


def _emit(plan, name: str, pred: bool = True) -> str:
    return kernel(plan, name=name, pred=pred)


def prepare(job: Job, index: int, timeout: float = 10.0, limit: tuple[int, str] | None = None
            ) -> tuple[Case, str, dict]:
    """Prove (unless planned), emit and compute the reference of one job.  ``limit``: (bytes, its name)
    that the job's buffers may take (default: ``budget()``, the device's free memory); more raises
    BufferTooLarge before anything is allocated."""
    secs = {}
    if job.ptx is None:
        t = time.perf_counter()
        plan = job.plan
        if plan is None:
            report = prove(job.check, timeout=timeout)
            if report.verdict != "proved":
                raise NotProved(report)
            plan = report.plan
        secs["prove"] = time.perf_counter() - t
        t = time.perf_counter()
        job.name = job.name or f"tilecheck_k{index}"
        job.ptx = _emit(plan, job.name, job.pred)
        secs["emit"] = time.perf_counter() - t
    t = time.perf_counter()
    symbols = bind_symbols(job.check, job.symbols)
    nbytes, what = limit or budget()
    big = too_large(job.check, buffer_sizes(job.check, symbols), nbytes, f"{nbytes / 2**30:.3g} GiB, {what}")
    if big:
        raise big
    case = reference(job.check, symbols, job.seed, strict=job.strict, pred=job.pred, max_bytes=nbytes)
    case.placement = dict(job.placement or {})
    _check_shared(case)
    secs["reference"] = time.perf_counter() - t
    return case, job.ptx, secs


def _check_shared(case: Case):
    """BufferTooLarge when the case's dynamic shared memory is more than the device gives one block."""
    need = launch_shared(case)
    if not need:
        return
    g = gpu()
    most = g.device.get_attribute(g.drv.device_attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
    if need > most:
        syms = ", ".join(f"{k}={v}" for k, v in case.symbols.items())
        raise BufferTooLarge(f"the shared tensors need {need} bytes of dynamic shared memory at {syms}, more than "
                             f"the {most} bytes {g.name} gives one block")


def run_check(check: Check, symbols: dict | None = None, seed: int = 0, *, plan=None,
              how: str = DEFAULT_LOAD, timeout: float = 10.0) -> RunResult:
    """Prove, emit, run and compare one check (``symbols``: values for the parameter symbols)."""
    return run_checks([Job(check, symbols, seed, plan=plan)], how=how, timeout=timeout)[0]


def run_checks(jobs: list[Job], how: str = DEFAULT_LOAD, timeout: float = 10.0) -> list[RunResult]:
    """Prove, emit, run and compare many checks; their kernels are loaded together (per target)."""
    g = gpu()
    for job in jobs:
        reason = g.can_run(job.check.arch)
        if reason:
            raise GpuUnavailable(f"{job.check.path}: {reason}")
    prepared, (left, what) = [], budget()
    for k, job in enumerate(jobs):
        if not job.name:
            job.name = f"tilecheck_k{k}"
        prepared.append(prepare(job, k, timeout, (left, what)))
        left -= sum(b.nbytes for b in prepared[-1][0].inputs.values())  # one arena holds the whole batch
    by_value = [k for k, (case, _, _) in enumerate(prepared) if tensormap_params(case.check)]
    plain = [k for k in range(len(prepared)) if k not in by_value]
    modules = dict(zip(plain, load_modules([prepared[k][1] for k in plain], how)))
    modules |= dict(zip(by_value, load_by_value([prepared[k][1] for k in by_value], how)))
    return launch_loaded([(modules[k].module, job.name, prepared[k][0], prepared[k][1],
                           {**prepared[k][2], "load": modules[k].seconds}) for k, job in enumerate(jobs)])


def launch_loaded(entries, times: BatchTimes | None = None) -> list[RunResult]:
    """Run ``(module, kernel name, case, ptx, seconds)`` entries as one batch (``batch.launch_batch``)
    and compare each with its reference.  A case that fails in the batch is run again alone, and its
    summary says whether it fails alone too; it stays failed either way (a kernel of the batch wrote
    into its buffers, or it is wrong itself).  ``seconds["run"]`` is the case's share of the batch."""
    if not entries:
        return []
    g = gpu()
    times = times if times is not None else BatchTimes()
    raw = launch_batch(g.drv, [(m.get_function(name), case, case.check.threads) for m, name, case, _, _ in entries],
                       times)
    share = times.launch / len(entries)
    out = []
    t = time.perf_counter()
    for (module, name, case, ptx, secs), ran in zip(entries, raw):
        res = _result(name, case, ptx, {**secs, "run": share}, ran)
        if not res.ok and not res.refused:
            alone = launch(module, name, case, ptx, secs)
            res.note = ("it fails when run alone too" if not alone.ok else
                        "it passes when run alone: another kernel of its batch wrote into its buffers")
        out.append(res)
    times.compare += time.perf_counter() - t
    return out


def launch(module, name: str, case: Case, ptx: str = "", secs: dict | None = None) -> RunResult:
    """Upload the case's buffers, launch ``name`` once, download and compare.  A CUDA fault
    propagates (pycuda.driver.Error): after a fault the context is unusable."""
    g = gpu()
    times = BatchTimes()
    [ran] = launch_batch(g.drv, [(module.get_function(name), case, case.check.threads)], times)
    return _result(name, case, ptx, {**(secs or {}), "run": times.launch}, ran)


def _result(name: str, case: Case, ptx: str, secs: dict, ran) -> RunResult:
    """The RunResult of one ``launch_batch`` entry ``(outputs, damaged tensors, refusal)``."""
    outputs, damaged, refusal = ran
    if refusal is not None:
        return RunResult(case, None, name, ptx, secs, refused=refusal)
    comparison = compare(case, outputs) if case.expected is not None else None
    return RunResult(case, comparison, name, ptx, secs, damaged)


def main(argv=None) -> int:  # python -m tilecheck.gpu.runner FILE...: a quick batch run
    files = list(argv if argv is not None else sys.argv[1:])
    res = run_checks([Job(tilecheck.load(f), seed=1) for f in files])
    for f, r in zip(files, res):
        print(f"{f}: {'PASS' if r.ok else 'FAIL'}: {r.summary()}")
    return 0 if all(r.ok for r in res) else 1


if __name__ == "__main__":
    sys.exit(main())
