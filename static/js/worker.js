/* The engine worker (a module worker): loads Pyodide from the site's own copy, unpacks
   the engine archive, then answers each step request with the engine's JSON.

   Every way of failing to start reaches the page as one "failed" message naming what
   could not be loaded: Pyodide reports some failures (a wasm file that cannot be
   fetched) only as an unhandled rejection, so those are caught here too. A
   Content-Security-Policy violation inside the worker is reported to the page, which
   logs it: the page's own listener cannot see the worker's. */
let handle = null;
let started = false;
const queue = [];

function text(err) {
  return String((err && err.message) || err || "unknown error");
}

function failed(message) {
  if (started) return;  // a late failure of a live engine is a step's error, not a start's
  started = true;
  self.postMessage({ type: "failed", message: message });
}

self.addEventListener("unhandledrejection", function (event) {
  event.preventDefault();
  if (started) return;
  failed("Python could not start (" + text(event.reason) + "); check that the site's _explorables/pyodide/ " +
    "folder was published whole");
});

self.addEventListener("error", function (event) {
  if (started) return;
  event.preventDefault();
  failed("Python could not start (" + text(event.error || event.message) + "); check that the site's " +
    "_explorables/pyodide/ folder was published whole");
});

self.addEventListener("securitypolicyviolation", function (event) {
  self.postMessage({ type: "violation", directive: event.effectiveDirective || event.violatedDirective,
    blocked: String(event.blockedURI || ""), source: String(event.sourceFile || "") });
});

/* Pyodide's loader reports a wasm file it cannot compile (a 404 page, a cut download)
   only as two console warnings, "wasm instantiation failed!" and the error, and then
   waits forever: listen for them while Python starts. */
function wasmFailure(warn) {
  return new Promise(function (resolve, reject) {
    let seen = false;
    let reason = "";
    console.warn = function () {
      warn.apply(console, arguments);
      if (arguments[0] === "wasm instantiation failed!") {
        seen = true;
        setTimeout(function () {
          reject(new Error("could not load pyodide/pyodide.asm.wasm" + (reason ? ": " + reason : "")));
        }, 0);
      } else if (seen && !reason) {
        reason = text(arguments[0]).split("\n")[0];
      }
    };
  });
}

async function start(msg) {
  const t0 = performance.now();
  let loader;
  try {
    loader = await import(msg.pyodide + "pyodide.mjs");
  } catch (err) {
    throw new Error("could not load Pyodide's loader (pyodide/pyodide.mjs): " + text(err));
  }
  let pyodide;
  const warn = console.warn;
  try {
    pyodide = await Promise.race([loader.loadPyodide({ indexURL: msg.pyodide }), wasmFailure(warn)]);
  } catch (err) {
    throw new Error("Python could not start (" + text(err) + "); check that the site's _explorables/pyodide/ " +
      "folder was published whole");
  } finally {
    console.warn = warn;
  }
  const t1 = performance.now();
  let response;
  try {
    response = await fetch(msg.engine);
  } catch (err) {
    throw new Error("could not load the engine archive (" + text(err) + ")");
  }
  if (!response.ok) throw new Error("could not load the engine archive (" + response.status + ")");
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/lib/explorables" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/lib/explorables')\nimport explorables.engine.runtime");
  handle = pyodide.pyimport("explorables.engine.runtime").handle;
  const t2 = performance.now();
  started = true;
  self.postMessage({ type: "ready", timings: { pyodide: t1 - t0, engine: t2 - t1 } });
}

function step(msg) {
  try {
    self.postMessage({ type: "result", id: msg.id, text: handle(msg.text) });
  } catch (err) {
    self.postMessage({ type: "result", id: msg.id, error: text(err) });
  }
}

self.onmessage = function (event) {
  const msg = event.data;
  if (msg.type === "init") {
    start(msg).then(
      function () { queue.splice(0).forEach(step); },
      function (err) { failed(text(err)); }
    );
  } else if (msg.type === "step") {
    if (handle) step(msg); else queue.push(msg);
  }
};

self.postMessage({ type: "loaded" });  // the worker's own script ran: later silence is Python's
