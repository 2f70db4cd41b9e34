"""Files a build keeps for the next one (the build cache, the standard library and the
engine archive as made, Pyodide's checked files): each written whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def keep(path: Path, data: bytes) -> None:
    """Write ``data`` at ``path`` through a file of its own beside it, then rename it: a
    build stopped meanwhile, or another one writing the same file at once, leaves no
    half file. A folder that cannot be written (a read-only home) is passed by: the next
    build makes the file again."""
    part = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        part = Path(name)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(part, path)
    except OSError:
        if part is not None:
            with contextlib.suppress(OSError):
                part.unlink()


def prune(folder: Path, pattern: str, most: int) -> None:
    """Delete all but the ``most`` files of ``folder`` matching ``pattern`` used last
    (a file read from such a cache is touched: ``used``): a cache of things made of the
    tool's own files gains one at each of the tool's edits."""
    try:
        found = sorted(folder.glob(pattern), key=lambda path: path.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    for old in found[most:]:
        with contextlib.suppress(OSError):
            old.unlink()


def used(path: Path) -> None:
    """Mark a cached file as just used, for ``prune``."""
    with contextlib.suppress(OSError):
        os.utime(path)


def remembered(
    path: Path, make: Callable[[], bytes], whole: Callable[[bytes], bool] = lambda data: True, most: int = 0
) -> bytes:
    """The bytes kept at ``path`` when ``whole`` finds them so (the file is marked used),
    else ``make()``'s, kept there for the next build; with ``most``, the folder keeps that
    many files of its kind, those used last (``prune``)."""
    try:
        data = path.read_bytes()
        if whole(data):
            used(path)
            return data
    except OSError:
        pass
    data = make()
    keep(path, data)
    if most:
        prune(path.parent, "*" + path.suffix, most)
    return data
