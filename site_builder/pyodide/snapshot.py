"""A memory snapshot of Pyodide with the engine imported, made at build time in Node.

With ``snapshot: true`` in site.yml the build starts Pyodide in Node (Pyodide's private
``_makeSnapshot`` option), unpacks the site's engine archive, imports the engine and the
site's own figures, and writes the whole Python heap (about 30 MiB, 4.7 MiB gzip-compressed)
as ``_explorables/snapshot.<hash>.bin``, gzip-compressed by the build itself: a static
host may send an unknown file type as it is. The reader's worker restores it instead of
starting Python and importing the engine: in headless Chromium here the engine is live
in about 0.6 times the time of a cold start (benchmarks/bench_snapshot.py; a cold start
is quick since the site ships the standard library's start-up modules compiled,
stdlib.py), for about 4.7 MiB more to download on a first visit.

The snapshot is optional: Node is not needed to build a site. Without ``node`` on PATH,
or when Node cannot make the snapshot, the build says so and the site starts Python cold
as before. The snapshot records the build id it was made of (``runtime.SNAPSHOT_OF``);
the worker uses it only when that matches the engine archive's, reseeds ``random`` (a
snapshot freezes its state) and starts cold on any failure.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..disk import remembered
from .release import cache_dir

NODE_VAR = "EXPLORABLES_NODE"  # a node executable to use instead of the one on PATH
TIMEOUT = 180  # seconds Node may take (a cold start, the imports, the snapshot, a restore)

# node make_snapshot.mjs PYODIDE_DIR ENGINE_ZIP STDLIB_ZIP OUT: makes the snapshot (Python's
# standard library from STDLIB_ZIP, the site's: the heap holds the zip's table of contents,
# so the worker must restore it with the same file), then restores it once in Node and
# imports the engine from it, so that a snapshot that cannot be restored is never shipped.
NODE_SCRIPT = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import nodeCrypto from "node:crypto";
process.on("uncaughtException", (err) => {  // one line the build can quote
  process.stderr.write("snapshot failed: " + String((err && err.message) || err).split("\n")[0] + "\n");
  process.exit(1);
});
const [dir, enginePath, stdLibURL, out] = process.argv.slice(2);
// The same input makes the same snapshot, so that a reader keeps it cached across deploys
// that change no engine: the heap would otherwise hold this script's temporary path, the
// clock and random bytes. Every reader restores the same heap anyway; the worker seeds
// `random` anew after each restore.
process.argv[1] = "make_snapshot.mjs";
Date.now = () => 1e12;
let tick = 0;
performance.now = () => (tick += 0.001);
let state = 0x9e3779b9;
const fill = (array) => {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return array;
};
crypto.getRandomValues = fill;
nodeCrypto.randomFillSync = fill;
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs").href);
const engine = new Uint8Array(readFileSync(enginePath));
const quiet = { stdout: () => {}, stderr: (line) => process.stderr.write(line + "\n") };
// a fixed hash seed, and random seeded below: the same input makes the same snapshot
const pyodide = await loadPyodide({ indexURL: dir + "/", stdLibURL, _makeSnapshot: true, env: { PYTHONHASHSEED: "0" },
  ...quiet });
pyodide.unpackArchive(engine, "zip", { extractDir: "/lib/explorables" });
pyodide.runPython([
  "import sys",
  "sys.path.insert(0, '/lib/explorables')",
  "import explorables.engine.runtime as runtime, explorables.engine.locale",
  "while runtime.warm():",  // every figure imported in the snapshot, as before a page asks
  "    pass",
  "runtime.SNAPSHOT_OF = open('/lib/explorables/explorables/BUILD').read().strip()",
  "import random, gc",
  "random.seed(0)",  // the worker seeds it anew after each restore
  "gc.collect()",
].join("\n"));
const snapshot = pyodide.makeMemorySnapshot();
const again = await loadPyodide({ indexURL: dir + "/", stdLibURL, _loadSnapshot: snapshot, ...quiet });
again.unpackArchive(engine, "zip", { extractDir: "/lib/explorables" });
if (!again.pyimport("explorables.engine.runtime").SNAPSHOT_OF) throw new Error("the restored snapshot has no engine");
writeFileSync(out, snapshot);
"""


class SnapshotError(Exception):
    """The snapshot could not be made; the message says why and what to do."""


def node() -> str | None:
    """The node executable to make snapshots with, or None."""
    return os.environ.get(NODE_VAR) or shutil.which("node")


def make(pyodide_dir: Path, engine: bytes, python_lib: bytes) -> bytes:
    """The gzip-compressed snapshot of Pyodide (from ``pyodide_dir``, its standard library
    ``python_lib``: the site's) with ``engine`` (the engine archive, with its build id)
    imported. Raises SnapshotError.

    The same input makes the same snapshot, so one is kept in the per-user cache
    (``snapshots/<digest>.bin.gz`` beside the Pyodide cache) under a digest of Pyodide's
    files, the engine archive and the script that makes it: a rebuild that changes no
    engine does not start Node again."""
    # written whole or not at all, even with builds side by side
    return remembered(_cache_file(pyodide_dir, engine, python_lib), lambda: _make(pyodide_dir, engine, python_lib))


def cache_root() -> Path:
    """Where made snapshots are kept: ``snapshots/`` in the per-user cache."""
    return cache_dir() / "snapshots"


def _cache_file(pyodide_dir: Path, engine: bytes, python_lib: bytes) -> Path:
    digest = hashlib.sha256(NODE_SCRIPT.encode("utf-8"))
    for name in ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide-lock.json"):
        path = pyodide_dir / name
        digest.update(name.encode() + b"\0" + (hashlib.sha256(path.read_bytes()).digest() if path.is_file() else b""))
    digest.update(hashlib.sha256(python_lib).digest())
    digest.update(hashlib.sha256(engine).digest())
    return cache_root() / f"{digest.hexdigest()[:32]}.bin.gz"


def _make(pyodide_dir: Path, engine: bytes, python_lib: bytes) -> bytes:
    executable = node()
    if not executable:
        raise SnapshotError(
            "`snapshot: true` needs Node (18 or later) to make the snapshot, and `node` is not "
            f"on PATH (or set {NODE_VAR}); the site starts Python without it"
        )
    with tempfile.TemporaryDirectory(prefix="explorables-snapshot-") as tmp:
        script, archive, lib, out = (
            Path(tmp) / name for name in ("make_snapshot.mjs", "engine.zip", "stdlib.zip", "snapshot.bin")
        )
        script.write_text(NODE_SCRIPT, encoding="utf-8")
        archive.write_bytes(engine)
        lib.write_bytes(python_lib)
        try:
            done = subprocess.run(
                [executable, str(script), str(pyodide_dir), str(archive), str(lib), str(out)],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            raise SnapshotError(f"Node could not make the snapshot ({err}); the site starts Python without it") from err
        if done.returncode != 0 or not out.is_file():
            said = [line for line in (done.stderr or "").strip().splitlines() if line.strip()]
            failed = [line.removeprefix("snapshot failed: ") for line in said if line.startswith("snapshot failed: ")]
            why = (failed or said or [f"exit {done.returncode}"])[-1]
            if "out of bounds" in why:  # Pyodide restores no heap larger than the one it starts with
                why += (
                    ": Python's memory grew past what Pyodide can restore; do your figures allocate much "
                    "when they are imported?"
                )
            raise SnapshotError(f"Node could not make the snapshot ({why}); the site starts Python without it")
        return gzip.compress(out.read_bytes(), 6, mtime=0)
