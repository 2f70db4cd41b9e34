"""Files a build keeps for the next one (the build cache, the standard library and the
engine archive as made, Pyodide's checked files): each written whole or not at all."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def keep(path: Path, data: bytes) -> None:
    """Write ``data`` at ``path`` through a file of its own beside it, then rename it: a
    build stopped meanwhile, or another one writing the same file, leaves no half file.
    A folder that cannot be written (a read-only home) is passed by: the next build
    makes the file again."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)


def prune(folder: Path, pattern: str, most: int) -> None:
    """Delete all but the ``most`` newest files of ``folder`` that match ``pattern``: a
    cache of things made of the tool's own files gains one at each of the tool's edits."""
    try:
        found = sorted(folder.glob(pattern), key=lambda path: path.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    for old in found[most:]:
        with contextlib.suppress(OSError):
            old.unlink()
