"""The engine's modules compiled ahead of time for the Python inside Pyodide.

A reader's worker imports the engine right after Python starts, and most of that import
used to be Python compiling the engine's sources: in Pyodide under Node, 110-130 ms
instead of 300-430 ms for the whole engine once its modules come compiled. The
compiled modules must be made by the very Python that Pyodide runs (3.14 here, not the
Python that runs the build), so they are made once, here, by Pyodide itself in Node,
and shipped with the package as ``engine-bytecode.zip``:

- one ``.pyc`` per module of the ``explorables`` package the engine archive carries
  (its ``__init__``, the public figure kit, the engine and the built-in figures),
  compiled without column ranges (tracebacks keep their lines) and with the file names
  the worker unpacks them to;
- ``MANIFEST.json``: the Pyodide version they were made for and the sha256 of each
  module's source.

The build (archive.engine_archive) puts a module's ``.pyc`` into the engine archive in
place of its ``.py`` only where the source still has that sha256 and Pyodide that
version; any other module goes as its source, as before, so an edited engine is never
run from stale bytecode, only a little later. As Pyodide does with its own standard
library, the archive then holds no source for the compiled modules. A site's own
figures always go as source.

After changing the engine, make them again (needs Node and the Pyodide cache)::

    python -m explorables.site_builder.pyodide.bytecode

tests/test_bytecode.py fails, naming the modules, while any of them is stale.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from . import release as pyodide
from . import stdlib
from .ahead import compiled_artifact, remake, sha
from .archive import ARTIFACT, ENGINE, engine_sources, stale

WHERE = "/lib/explorables/"  # where the worker unpacks the engine archive (static/js/worker.js)

AHEAD = "explorables/engine/ahead.py"  # the engine's own reader of DATACLASSES
DATACLASSES = "explorables/engine/dataclasses.marshal"  # the dataclasses' methods compiled (engine/ahead.py)

# node compile.mjs PYODIDE_DIR SOURCES_ZIP OUT_ZIP WHERE AHEAD DATACLASSES: compiles every
# .py of SOURCES_ZIP with Pyodide's own Python into OUT_ZIP (name.py -> name.pyc), then
# imports the engine from those sources, every figure and exercise type, keeping what each
# dataclass's generated methods compiled to (DATACLASSES). No column ranges: a third
# smaller, and a traceback still names the file and line.
NODE_SCRIPT = r"""
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [dir, sources, out, where, ahead, dataclassesFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: dir + "/", env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.writeFile("/tmp/sources.zip", new Uint8Array(readFileSync(sources)));
pyodide.runPython(`
import os, py_compile, zipfile
where = ${JSON.stringify(where)}
with zipfile.ZipFile('/tmp/sources.zip') as src, zipfile.ZipFile('/tmp/out.zip', 'w') as out:
    for name in sorted(src.namelist()):
        path = where + name
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(src.read(name))
        if not name.endswith('.py'):
            continue
        made = py_compile.compile(path, cfile='/tmp/made.pyc', dfile=path, doraise=True,
                                  invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        with open(made, 'rb') as f:
            out.writestr(name[:-3] + '.pyc', f.read())
`);
pyodide.runPython(`
import importlib.util, marshal, sys
where = ${JSON.stringify(where)}
spec = importlib.util.spec_from_file_location('recorder', where + ${JSON.stringify(ahead)})
recorder = importlib.util.module_from_spec(spec)
spec.loader.exec_module(recorder)
made = {}
recorder.texts_run_by(made, record=True)
sys.path.insert(0, where)
import explorables.engine.runtime, explorables.figures
while explorables.engine.runtime.warm():  # every figure, as a reader's worker imports them in time
    pass
with zipfile.ZipFile('/tmp/out.zip', 'a') as out:
    out.writestr(${JSON.stringify(dataclassesFile)}, recorder.header() + marshal.dumps(made))
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/out.zip"));
"""


def make(sources: dict[str, bytes], node: str, pyodide_dir: Path) -> bytes:
    """The artifact for ``sources``, compiled by Pyodide (from ``pyodide_dir``) in Node."""
    with tempfile.TemporaryDirectory(prefix="explorables-bytecode-") as tmp:
        script, given, out = Path(tmp) / "compile.mjs", Path(tmp) / "sources.zip", Path(tmp) / "out.zip"
        script.write_text(NODE_SCRIPT, encoding="utf-8")
        with zipfile.ZipFile(given, "w") as archive:
            for name, source in sources.items():
                archive.writestr(name, source)
            for path in sorted((ENGINE / "locales").glob("*.json")):  # the engine reads them when imported
                archive.writestr(f"explorables/engine/locales/{path.name}", path.read_bytes())
        subprocess.run(
            [node, str(script), str(pyodide_dir), str(given), str(out), WHERE, AHEAD, DATACLASSES], check=True
        )
        with zipfile.ZipFile(out) as made:
            modules = {name: made.read(name) for name in made.namelist()}
    return compiled_artifact(
        {"pyodide": pyodide.VERSION, "sources": {name: sha(source) for name, source in sorted(sources.items())}},
        modules,
    )


def main() -> int:
    """Compile the engine, then the standard library's modules it starts with (stdlib.py)."""
    folder = pyodide.ensure_pyodide()
    engine = remake(
        ARTIFACT,
        engine_sources(),
        stale,
        lambda sources, node: make(sources, node, folder),
        doing="Compiling the engine for Pyodide",
        done="Compiled {n} modules",
    )
    if engine:
        return engine
    original = {stdlib.SOURCE: (folder / stdlib.SOURCE).read_bytes()}
    return remake(
        stdlib.ARTIFACT,
        original,
        lambda sources: [stdlib.SOURCE] if stdlib.stale(sources[stdlib.SOURCE]) else [],
        lambda sources, node: stdlib.make(node, folder),
        doing="Compiling the standard library for Pyodide",
        done="Compiled the modules Python starts with and the engine imports",
    )


if __name__ == "__main__":
    sys.exit(main())
