"""Files made ahead, with Node, and shipped with the package: the engine compiled for
Pyodide (bytecode.py, engine-bytecode.zip) and the runtime minified (minify.py,
runtime-minified.json). Each holds the sha256 of the sources it was made from; the
build uses what is still fresh and falls back for the rest, and a test names what is
stale. ``remake`` is what their ``python -m`` entry points run."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from .snapshot import node


def remake(artifact: Path, sources: dict, stale: Callable[[dict], list[str]],
           make: Callable[[dict, str], bytes | str], forget: Callable[[], None], *, doing: str, done: str) -> int:
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
    forget()  # the artifact as it is now, not as it was read before
    left = stale(sources)
    print(f"{done.format(n=len(sources))} into {artifact.name}; {len(before)} were stale"
          + (f", still stale: {', '.join(left)}" if left else "") + ".")
    return 1 if left else 0
