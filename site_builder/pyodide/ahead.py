"""Files made ahead, with Node, and shipped with the package: the engine compiled for
Pyodide (bytecode.py, engine-bytecode.zip) and the runtime minified (minify.py,
runtime-minified.json). Each holds the sha256 of the sources it was made from; the
build uses what is still fresh and falls back for the rest, and a test names what is
stale. ``remake`` is what their ``python -m`` entry points run."""

from __future__ import annotations

import hashlib
import io
import json
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .snapshot import node

_KEPT: dict[Path, tuple[tuple[int, int], Any]] = {}
MANIFEST = "MANIFEST.json"  # what a compiled artifact was made from (bytecode.py, stdlib.py)
DATE = (2020, 1, 1, 0, 0, 0)  # every entry's date: the same input makes the same file


def sha(source: bytes | str) -> str:
    """The sha256 an artifact records of a source (text as UTF-8)."""
    return hashlib.sha256(source.encode("utf-8") if isinstance(source, str) else source).hexdigest()


def kept(artifact: Path, read: Callable[[Path], Any]) -> Any:
    """``read(artifact)``, read again only when the file changes (each build asks, and
    ``explorables serve`` builds on every edit). Raises OSError when there is none."""
    stat = artifact.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    if artifact not in _KEPT or _KEPT[artifact][0] != stamp:
        _KEPT[artifact] = (stamp, read(artifact))
    return _KEPT[artifact][1]


def compiled_artifact(manifest: dict, modules: dict[str, bytes]) -> bytes:
    """A zip of compiled ``modules`` (name.pyc -> bytes) and their ``manifest``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            zipfile.ZipInfo(MANIFEST, date_time=DATE),
            json.dumps(manifest, indent=1, sort_keys=True) + "\n",
            zipfile.ZIP_DEFLATED,
        )
        for name in sorted(modules):
            archive.writestr(zipfile.ZipInfo(name, date_time=DATE), modules[name], zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def read_compiled(artifact: Path) -> tuple[dict, dict[str, bytes]]:
    """What ``compiled_artifact`` wrote: its manifest, and its compiled modules and any
    other file made with them (the engine's: its dataclasses' methods compiled)."""
    with zipfile.ZipFile(artifact) as archive:
        manifest = json.loads(archive.read(MANIFEST))
        return manifest, {name: archive.read(name) for name in archive.namelist() if name != MANIFEST}


def remake(
    artifact: Path,
    sources: dict,
    stale: Callable[[dict], list[str]],
    make: Callable[[dict, str], bytes | str],
    *,
    doing: str,
    done: str,
) -> int:
    """Make ``artifact`` again from ``sources`` (``make(sources, node)``), then say how many
    of them were stale (``doing``: "Compiling the engine for Pyodide"; ``done``:
    "Compiled {n} modules"). Exit status 1 without Node, or if any is still stale."""
    executable = node()
    if not executable:
        print(f"{doing} needs Node (18 or later) on PATH.", file=sys.stderr)
        return 1
    before = set(stale(sources))
    made = make(sources, executable)
    artifact.write_bytes(made if isinstance(made, bytes) else made.encode("utf-8"))
    _KEPT.pop(artifact, None)  # the artifact as it is now, whatever its new stamp
    left = stale(sources)
    print(
        f"{done.format(n=len(sources))} into {artifact.name}; {len(before)} were stale"
        + (f", still stale: {', '.join(left)}" if left else "")
        + "."
    )
    return 1 if left else 0
