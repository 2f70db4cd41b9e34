// One Pyodide under Node that runs check after check, read from stdin, with no browser.
//
//   node serve_checks.mjs PYODIDE_DIR
//
// Starting Pyodide takes seconds; the tests that compare the engine under Pyodide with
// CPython start it once a test process here (tests/node_pyodide.py) and send it one
// request a line, as JSON:
//
//   {"checks": CHECKS_PY, "inputs": JSON_TEXT, "engine": ENGINE_DIR}   the engine's sources
//   {"checks": CHECKS_PY, "inputs": JSON_TEXT, "archive": ENGINE_ZIP}  a site's engine archive
//
// With "engine", the package's .py files are written into Pyodide's file system under
// /home/pyodide/explorables; with "archive", the zip is unpacked into /lib/explorables
// and the runtime imported as static/js/worker.js does. Then `main(inputs)` of the checks
// module runs on the inputs parsed. The answer is one line of JSON: {"ok": true, "result":
// the JSON text main returned, "output": what Python printed} or {"ok": false, "error":
// the traceback, "output": ...}.
//
// Each check finds the interpreter as Pyodide started: afterwards the modules it imported
// are forgotten (sys.modules, the importers' caches), the folders it wrote removed, and
// sys.path, sys.meta_path, sys.path_hooks and os.environ put back as they were.
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [pyodideDir] = process.argv.slice(2);
if (!pyodideDir) {
  console.error("usage: node serve_checks.mjs PYODIDE_DIR");
  process.exit(2);
}

const SOURCES = "/home/pyodide/explorables"; // the engine's sources, put on sys.path
const ARCHIVE = "/lib/explorables"; // where worker.js unpacks the engine archive

/** Every .py file under `dir`, as paths relative to it (no __pycache__). */
function pythonFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") {
      found.push(...pythonFiles(path).map((p) => join(entry.name, p)));
    } else if (entry.isFile() && entry.name.endsWith(".py")) {
      found.push(entry.name);
    }
  }
  return found;
}

// The interpreter as Pyodide started it, kept to put back after each check.
const KEEP = `
import importlib, os, shutil, sys
_ex_kept = (set(sys.modules), list(sys.path), list(sys.meta_path), list(sys.path_hooks), dict(os.environ))


def _ex_forget(folders):
    modules, path, meta_path, path_hooks, environ = _ex_kept
    for name in set(sys.modules) - modules:
        del sys.modules[name]
    sys.path[:], sys.meta_path[:], sys.path_hooks[:] = path, meta_path, path_hooks
    os.environ.clear()
    os.environ.update(environ)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
`;

const RUN = (module) => `
import json
import ${module} as checks
json.dumps(checks.main(json.loads(INPUTS_JSON)), allow_nan=False)
`;

let output = []; // what Python printed during the check under way

function sourcesOnPath(pyodide, engineDir) {
  for (const file of pythonFiles(engineDir)) {
    const target = join(SOURCES, "explorables", "engine", file);
    pyodide.FS.mkdirTree(join(target, ".."));
    pyodide.FS.writeFile(target, readFileSync(join(engineDir, file), "utf8"));
  }
  pyodide.FS.writeFile(join(SOURCES, "explorables", "__init__.py"), "");
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(SOURCES)})`);
  return SOURCES;
}

function archiveOnPath(pyodide, engineZip) {
  // the same steps as static/js/worker.js
  const zip = new Uint8Array(readFileSync(engineZip)); // a plain typed array, not a Node Buffer
  pyodide.unpackArchive(zip, "zip", { extractDir: ARCHIVE });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(ARCHIVE)})\nimport explorables.engine.runtime`);
  return ARCHIVE;
}

function check(pyodide, forget, request) {
  const folder = request.archive ? ARCHIVE : SOURCES;
  try {
    if (request.archive) archiveOnPath(pyodide, request.archive);
    else sourcesOnPath(pyodide, request.engine);
    pyodide.FS.writeFile(join(folder, basename(request.checks)), readFileSync(request.checks, "utf8"));
    pyodide.globals.set("INPUTS_JSON", request.inputs);
    return { ok: true, result: pyodide.runPython(RUN(basename(request.checks, ".py"))) };
  } catch (err) {
    return { ok: false, error: err && err.stack ? err.stack : String(err) };
  } finally {
    for (const name of ["INPUTS_JSON", "json", "checks"]) {
      if (pyodide.globals.has(name)) pyodide.globals.delete(name);
    }
    forget([SOURCES, ARCHIVE]);
  }
}

try {
  const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: pyodideDir.endsWith("/") ? pyodideDir : pyodideDir + "/",
    stdout: (line) => output.push(line),
    stderr: (line) => output.push(line),
  });
  pyodide.runPython(KEEP);
  const forget = pyodide.globals.get("_ex_forget");
  process.stdout.write(JSON.stringify({ ready: true }) + "\n");
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    output = [];
    const answer = check(pyodide, forget, JSON.parse(line));
    process.stdout.write(JSON.stringify({ ...answer, output: output.join("\n") }) + "\n");
  }
} catch (err) {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
}
