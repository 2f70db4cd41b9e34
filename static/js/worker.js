/* The engine worker (a module worker): loads Pyodide from the site's own copy, unpacks
   the engine archive, then answers each step request with the engine's JSON. */
import { loadPyodide } from "../pyodide/pyodide.mjs";

let handle = null;
const queue = [];

async function start(msg) {
  const t0 = performance.now();
  const pyodide = await loadPyodide({ indexURL: msg.pyodide });
  const t1 = performance.now();
  const response = await fetch(msg.engine);
  if (!response.ok) throw new Error("could not load the engine archive (" + response.status + ")");
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/lib/explorables" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/lib/explorables')\nimport explorables.engine.runtime");
  handle = pyodide.pyimport("explorables.engine.runtime").handle;
  const t2 = performance.now();
  self.postMessage({ type: "ready", timings: { pyodide: t1 - t0, engine: t2 - t1 } });
}

function step(msg) {
  try {
    self.postMessage({ type: "result", id: msg.id, text: handle(msg.text) });
  } catch (err) {
    self.postMessage({ type: "result", id: msg.id, error: String((err && err.message) || err) });
  }
}

self.onmessage = function (event) {
  const msg = event.data;
  if (msg.type === "init") {
    start(msg).then(
      function () { queue.splice(0).forEach(step); },
      function (err) { self.postMessage({ type: "failed", message: String((err && err.message) || err) }); }
    );
  } else if (msg.type === "step") {
    if (handle) step(msg); else queue.push(msg);
  }
};
