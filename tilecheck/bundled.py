"""``tilecheck examples [DIR]``: copy the example check files shipped in the package to DIR.

The examples live once, in the repository's ``examples/``; ``tilecheck/examples`` links to it and
the wheel carries the files as package data, so a plain ``pip install`` has them too.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from .errors import InputError

HELP = "copy the shipped example check files to DIR (default ./examples)"


def examples() -> dict[str, str]:
    """File name -> text of every shipped example check file."""
    root = resources.files("tilecheck.examples")
    return {p.name: p.read_text() for p in sorted(root.iterdir(), key=lambda p: p.name) if p.name.endswith(".toml")}


def add_arguments(p):
    p.add_argument("dir", nargs="?", default="examples", metavar="DIR", help="where to write them (default examples)")


def main(args) -> int:
    dest = Path(args.dir)
    if dest.exists() and not dest.is_dir():
        raise InputError("exists and is not a directory", args.dir)
    files = examples()
    for name, text in files.items():  # check everything before writing anything
        path = dest / name
        if path.exists() and (not path.is_file() or path.read_text() != text):
            raise InputError(f"{name} exists and differs from the shipped example; nothing written "
                             f"(choose another DIR)", str(path))
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (dest / name).write_text(text)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", args.dir) from None
    print(f"{len(files)} example check files in {dest}/: {', '.join(files)}")
    print(f"next: tilecheck prove {dest / 'seed.toml'}")
    return 0
