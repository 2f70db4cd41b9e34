// Run the engine's checks under real Pyodide in Node, with no browser.
//
//   node run_engine.mjs PYODIDE_DIR ENGINE_DIR CHECKS_PY INPUTS_JSON
//
// PYODIDE_DIR is the unpacked npm package (pyodide.mjs, pyodide.asm.wasm, ...).
// The engine package and the checks module are written into Pyodide's file system,
// `main(inputs)` of the checks module runs, and its result is printed on stdout as JSON.
// Anything Python prints goes to stderr, so stdout holds the JSON alone.
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, engineDir, checksPath, inputsPath] = process.argv.slice(2);
if (!inputsPath) {
  console.error("usage: node run_engine.mjs PYODIDE_DIR ENGINE_DIR CHECKS_PY INPUTS_JSON");
  process.exit(2);
}

const ROOT = "/home/pyodide/explorables"; // folder put on sys.path inside Pyodide

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

try {
  const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: pyodideDir.endsWith("/") ? pyodideDir : pyodideDir + "/",
    stdout: (line) => process.stderr.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });

  // the engine package, file by file, then the checks module beside it
  for (const file of pythonFiles(engineDir)) {
    const target = join(ROOT, "explorables", "engine", file);
    pyodide.FS.mkdirTree(join(target, ".."));
    pyodide.FS.writeFile(target, readFileSync(join(engineDir, file), "utf8"));
  }
  pyodide.FS.writeFile(join(ROOT, "explorables", "__init__.py"), "");
  pyodide.FS.writeFile(join(ROOT, basename(checksPath)), readFileSync(checksPath, "utf8"));

  pyodide.globals.set("INPUTS_JSON", readFileSync(inputsPath, "utf8"));
  const result = pyodide.runPython(`
import json, sys
sys.path.insert(0, ${JSON.stringify(ROOT)})
import ${basename(checksPath, ".py")} as checks
json.dumps(checks.main(json.loads(INPUTS_JSON)), allow_nan=False)
`);
  process.stdout.write(result);
} catch (err) {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
}
