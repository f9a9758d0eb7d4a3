"""The public API is documented (``help(tilecheck)`` is a usable page) and typed (``py.typed``)."""
import dataclasses
import pydoc
import tomllib
from pathlib import Path

import tilecheck

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_name_has_its_own_docstring():
    for name in tilecheck.__all__:
        obj = getattr(tilecheck, name)
        doc = obj.__doc__ or ""
        # a dataclass without a docstring gets its signature as one: "Check(arch: str = 'sm_90', ...)"
        assert doc.strip() and not doc.startswith(f"{name}("), name
        if dataclasses.is_dataclass(obj):
            assert len(doc.split()) >= 10, name


def test_help_shows_how_to_use_it():
    page = pydoc.render_doc(tilecheck, renderer=pydoc.plaintext)
    for part in ("tilecheck.load(", "tilecheck.prove(", "report.verdict", "kernel(report.plan)", "InputError",
                 "pytest --tilecheck"):
        assert part in page, part


def test_the_package_is_typed():
    assert (ROOT / "tilecheck" / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["tilecheck"]


def test_every_public_method_has_a_docstring():
    import inspect
    missing = []
    for name in tilecheck.__all__:
        obj = getattr(tilecheck, name)
        if inspect.isclass(obj):
            missing += [f"{name}.{m}" for m, f in vars(obj).items()
                        if not m.startswith("_") and callable(f) and not (f.__doc__ or "").strip()]
    assert not missing, missing
