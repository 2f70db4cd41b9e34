"""The standard library a site ships: Pyodide's, with the modules Python imports to start
and the engine imports compiled ahead.

Pyodide 314's ``python_stdlib.zip`` holds sources only. Python cannot write the bytecode
it compiles back into a zip, so every page compiles the 145 modules that Python and
Pyodide import to start (``asyncio`` among them) anew, in WebAssembly, before the first
line of the engine runs: most of a cold start. Headless Chromium here: ``loadPyodide``
with them compiled answers in 1.0-1.4 s, against 2.5-2.9 s with the sources
(benchmarks/bench_lifecycle.py, "bare" against "python").

So, as with the engine (bytecode.py), those modules are compiled once, by Pyodide itself
in Node, and shipped with the package as ``stdlib-bytecode.zip``: one unchecked
hash-based ``.pyc`` per module, compiled without column ranges (tracebacks keep their
files and lines), and ``MANIFEST.json`` naming the Pyodide version and the sha256 of the
``python_stdlib.zip`` they were made from. Which modules: every one of the standard
library's zip that is imported once Python has started, the engine is imported with all
its built-in figures, and the standard modules the engine's sources and authors' figures
commonly import are imported too (``COMMON``). The rest (about 420 modules) stay sources,
compiled when a figure first imports them, as before; nothing is left out.

The build writes the result as ``_explorables/stdlib.<hash>.zip`` (the worker hands it to
``loadPyodide`` as ``stdLibURL``; a bundle and a snapshot carry the same bytes): Pyodide's
zip with each compiled module's ``.pyc`` in place of its ``.py``, about 390 KB larger.
Made once, it is kept in the per-user cache beside Pyodide (``~/.cache/explorables/
stdlib/``, named by the Pyodide version and both inputs' sha256): making it takes about
0.3 s, half of a small site's build.
When the artifact is not for this Pyodide, the site ships Pyodide's zip as it is.

After changing Pyodide, or when tests/test_bytecode.py names a module the engine now
imports from source, make it again (needs Node and the Pyodide cache)::

    python -m explorables.site_builder.pyodide.bytecode
"""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

from ..disk import remembered
from . import release as pyodide
from .ahead import compiled_artifact, kept, read_compiled, sha
from .archive import engine_archive, engine_sources

ARTIFACT = Path(__file__).resolve().parent.parent / "stdlib-bytecode.zip"
SOURCE = "python_stdlib.zip"  # Pyodide's own, in its folder
# Standard modules authors' figures often import, beyond those of the engine's sources.
COMMON = (
    "bisect",
    "cmath",
    "colorsys",
    "datetime",
    "decimal",
    "fractions",
    "functools",
    "heapq",
    "itertools",
    "statistics",
    "string",
    "textwrap",
)

# node compile_stdlib.mjs PYODIDE_DIR ENGINE_ZIP WANTED_JSON OUT_ZIP: starts Pyodide, imports
# the engine, its figures and WANTED's modules, then writes into OUT_ZIP the .pyc of every
# module imported from the standard library's zip (its name there, .py -> .pyc).
NODE_SCRIPT = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [dir, engine, wanted, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs").href);
const quiet = { stdout: () => {}, stderr: (line) => process.stderr.write(line + "\n") };
const pyodide = await loadPyodide({ indexURL: dir + "/", env: { PYTHONNODEBUGRANGES: "1" }, ...quiet });
pyodide.unpackArchive(new Uint8Array(readFileSync(engine)), "zip", { extractDir: "/lib/explorables" });
pyodide.globals.set("WANTED", readFileSync(wanted, "utf8"));
pyodide.runPython(`
import importlib, importlib.util, json, os, sys, zipfile, zipimport
from importlib._bootstrap_external import _code_to_hash_pyc
sys.path.insert(0, '/lib/explorables')
import explorables.engine.runtime as runtime
while runtime.warm():
    pass
for name in json.loads(WANTED):
    importlib.import_module(name)
stdlib = next(path for path in sys.path if path.endswith('.zip'))
with zipfile.ZipFile(stdlib) as src, zipfile.ZipFile('/tmp/out.zip', 'w') as made:
    for module in list(sys.modules.values()):
        spec = getattr(module, '__spec__', None)
        if spec is None or not isinstance(spec.loader, zipimport.zipimporter):
            continue
        if not (spec.origin or '').startswith(stdlib + '/') or not spec.origin.endswith('.py'):
            continue
        name = spec.origin[len(stdlib) + 1:]
        source = src.read(name)
        code = compile(source, spec.origin, 'exec', dont_inherit=True)
        made.writestr(name + 'c', bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), False)))
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/out.zip"));
"""

_ASSEMBLED: dict[tuple, bytes] = {}
CACHED = 4  # standard libraries the per-user cache keeps (each made by another version of the tool)


def compiled(original: bytes) -> dict[str, bytes]:
    """The compiled modules for the standard library ``original`` (Pyodide's zip): source
    name -> .pyc bytes, or nothing when the artifact was made for another Pyodide."""
    try:
        manifest, modules = kept(ARTIFACT, read_compiled)
    except (OSError, zipfile.BadZipFile, KeyError, ValueError):
        return {}
    if manifest.get("pyodide") != pyodide.VERSION or manifest.get("stdlib") != sha(original):
        return {}
    return {name[:-1]: pyc for name, pyc in modules.items()}


def stale(original: bytes) -> bool:
    """Whether the artifact is not for this standard library (a remake is due)."""
    return not compiled(original)


def site_stdlib(pyodide_dir: Path) -> bytes:
    """The standard library a site ships (see the module's docstring), made once per
    process for each artifact and Pyodide folder, and kept in the per-user cache for the
    next process (making it is about half of a small site's build)."""
    original = (Path(pyodide_dir) / SOURCE).read_bytes()
    key = (sha(original), _stamp(ARTIFACT), pyodide.VERSION)  # what compiled() reads
    if key not in _ASSEMBLED:
        _ASSEMBLED[key] = _from_cache(original)
    return _ASSEMBLED[key]


def cache_file(original: bytes) -> Path | None:
    """Where the per-user cache keeps the site's standard library made of ``original``
    and this artifact; None without an artifact."""
    try:
        artifact = ARTIFACT.read_bytes()
    except OSError:
        return None
    # named after all its bytes depend on: Pyodide's stdlib, the artifact, this code, zlib's deflate
    made_by = f"{sha(Path(__file__).read_bytes())} {zlib.ZLIB_RUNTIME_VERSION}"
    name = sha(f"{pyodide.VERSION} {sha(original)} {sha(artifact)} {made_by}")[:32]
    return pyodide.cache_dir().parent / "stdlib" / f"{name}.zip"


def _from_cache(original: bytes) -> bytes:
    """The site's stdlib from the cache first: a file there was assembled from this
    artifact and this standard library (its name says so), and reading it spares
    inflating the artifact's modules."""
    path = cache_file(original)

    def made() -> bytes:  # (original itself when no module is compiled for it)
        return _assemble(original, compiled(original))

    if path is None:  # no bytecode made ahead to name the cache after
        return made()
    count = len(zipfile.ZipFile(io.BytesIO(original)).namelist())

    def whole(data: bytes) -> bool:
        try:
            return len(zipfile.ZipFile(io.BytesIO(data)).namelist()) == count
        except zipfile.BadZipFile:
            return False

    return remembered(path, made, whole, CACHED)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _assemble(original: bytes, modules: dict[str, bytes]) -> bytes:
    """``original`` with each module of ``modules`` as its .pyc instead of its .py, in
    the same order; the same input makes the same bytes."""
    if not modules:
        return original
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(original)) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            if info.filename in modules:
                entry = zipfile.ZipInfo(info.filename + "c", date_time=info.date_time)
                out.writestr(entry, modules[info.filename], zipfile.ZIP_DEFLATED)
            else:
                out.writestr(info, source.read(info))
    return buffer.getvalue()


def wanted(sources: dict[str, bytes]) -> list[str]:
    """The standard modules ``sources`` (the engine's) import anywhere, a function's
    body included, and COMMON: what the artifact compiles besides Python's start."""
    names = set(COMMON)
    for source in sources.values():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return sorted(name for name in names if name.split(".")[0] in sys.stdlib_module_names and name != "__future__")


def make(node: str, pyodide_dir: Path) -> bytes:
    """The artifact for the Pyodide in ``pyodide_dir``, compiled by that Pyodide in Node."""
    original = (pyodide_dir / SOURCE).read_bytes()
    with tempfile.TemporaryDirectory(prefix="explorables-stdlib-") as tmp:
        script, engine, asked, out = (
            Path(tmp) / name for name in ("compile_stdlib.mjs", "engine.zip", "wanted.json", "out.zip")
        )
        script.write_text(NODE_SCRIPT, encoding="utf-8")
        engine.write_bytes(engine_archive())
        asked.write_text(json.dumps(wanted(engine_sources())), encoding="utf-8")
        subprocess.run([node, str(script), str(pyodide_dir), str(engine), str(asked), str(out)], check=True)
        with zipfile.ZipFile(out) as made:
            modules = {name: made.read(name) for name in made.namelist()}
    return compiled_artifact(
        {"pyodide": pyodide.VERSION, "stdlib": sha(original), "modules": sorted(name[:-1] for name in modules)}, modules
    )
