/* The engine worker: loads Pyodide, unpacks the engine archive, then answers each step
   request with the engine's JSON.

   Served sites start it as a module worker from this file; Pyodide and the engine
   archive are fetched from the site's own copy. An offline bundle starts the same code
   as a classic worker made from a Blob (pages opened from disk may not fetch, nor start
   module workers): its "init" message then carries the files themselves, Pyodide's
   modules are imported from Blob URLs and the wasm request is answered from memory. */
let handle = null;
const queue = [];

function blobURL(body, type) {
  return URL.createObjectURL(new Blob([body], { type: type }));
}

function decode(base64) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(base64);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/* Pyodide from the files a bundle carries: no request leaves the page. */
async function pyodideFromBundle(files) {
  const wasm = decode(files.wasm);
  const realFetch = self.fetch.bind(self);
  self.fetch = function (url, options) {
    if (String(url).endsWith("pyodide.asm.wasm")) {
      return Promise.resolve(new Response(wasm, { headers: { "Content-Type": "application/wasm" } }));
    }
    return realFetch(url, options);
  };
  // Pyodide takes its classic-worker path when importScripts exists; this worker is
  // classic only because file:// pages cannot start module workers.
  self.importScripts = function () { throw new TypeError("explorables: module imports only"); };
  const { loadPyodide } = await import(blobURL(files.loader, "text/javascript"));
  const asm = await import(blobURL(files.asm, "text/javascript"));
  if (typeof asm.default !== "function") {
    throw new Error("this Pyodide has no createPyodideModule export; the bundle needs Pyodide 314.0.7");
  }
  return loadPyodide({
    indexURL: "https://pyodide.invalid/",  // never fetched: every file is given below
    createPyodideModule: asm.default,
    lockFileContents: files.lock,
    stdLibURL: blobURL(decode(files.stdlib), "application/zip"),
  });
}

/* The engine archive, fetched while Pyodide loads rather than after it. */
function fetchEngine(url) {
  const bytes = fetch(url).then(function (response) {
    if (!response.ok) throw new Error("could not load the engine archive (" + response.status + ")");
    return response.arrayBuffer();
  });
  bytes.catch(function () {});  // reported when awaited, not as an unhandled rejection
  return bytes;
}

async function start(msg) {
  const t0 = performance.now();
  let pyodide, archive;
  const engine = msg.bundle ? null : fetchEngine(msg.engine);
  if (msg.bundle) {
    pyodide = await pyodideFromBundle(msg.bundle.pyodide);
    archive = decode(msg.bundle.engine).buffer;
  } else {
    const { loadPyodide } = await import(msg.pyodide + "pyodide.mjs");
    pyodide = await loadPyodide({ indexURL: msg.pyodide });
  }
  const t1 = performance.now();
  if (!archive) archive = await engine;
  pyodide.unpackArchive(archive, "zip", { extractDir: "/lib/explorables" });
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
