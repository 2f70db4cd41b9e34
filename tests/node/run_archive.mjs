// Run checks against a site's engine archive under real Pyodide in Node, as the worker does.
//
//   node run_archive.mjs PYODIDE_DIR ENGINE_ZIP CHECKS_PY INPUTS_JSON [STDLIB_ZIP]
//
// STDLIB_ZIP, when given, is the standard library a site ships (site_builder/stdlib.py),
// given to loadPyodide as the worker gives it; without it, Pyodide's own.
// ENGINE_ZIP is assets/engine.zip of a built site (the engine, the kit and the site's
// own figures). It is unpacked into /lib/explorables as static/js/worker.js does, the
// runtime is imported as there (which imports the site's figures; the built-in ones
// load on demand, when a check first asks for one), then `main(inputs)` of the
// checks module runs and its result is printed on stdout as JSON. Python's own output
// goes to stderr.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, engineZip, checksPath, inputsPath, stdLibURL] = process.argv.slice(2);
if (!inputsPath) {
  console.error("usage: node run_archive.mjs PYODIDE_DIR ENGINE_ZIP CHECKS_PY INPUTS_JSON");
  process.exit(2);
}

try {
  const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: pyodideDir.endsWith("/") ? pyodideDir : pyodideDir + "/",
    ...(stdLibURL ? { stdLibURL } : {}),
    stdout: (line) => process.stderr.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  // the same steps as static/js/worker.js
  const zip = new Uint8Array(readFileSync(engineZip)); // a plain typed array, not a Node Buffer
  pyodide.unpackArchive(zip, "zip", { extractDir: "/lib/explorables" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/lib/explorables')\nimport explorables.engine.runtime");
  pyodide.FS.writeFile(join("/lib/explorables", basename(checksPath)), readFileSync(checksPath, "utf8"));
  pyodide.globals.set("INPUTS_JSON", readFileSync(inputsPath, "utf8"));
  const result = pyodide.runPython(`
import json
import ${basename(checksPath, ".py")} as checks
json.dumps(checks.main(json.loads(INPUTS_JSON)), allow_nan=False)
`);
  process.stdout.write(result);
} catch (err) {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
}
