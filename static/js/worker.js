/* The engine worker: loads Pyodide, unpacks the engine archive, then answers each step
   request with the engine's JSON.

   Served sites start it as a module worker from this file; Pyodide and the engine
   archive are fetched from the site's own copy. An offline bundle starts the same code
   as a classic worker made from a Blob (pages opened from disk may not fetch, nor start
   module workers): its "init" message then carries the files themselves, Pyodide's
   modules are imported from Blob URLs and the wasm request is answered from memory. */
let handle = null;
let started = false;
const queue = [];
let words = {};  // the page's words (its "init" message): what a failure to start says

/* say("runtime.python_failed", {error: ...}): the page's words, fields filled in as the
   page's ex.t fills them. */
function say(key, fields) {
  const text = words[key] === undefined ? key : words[key];
  return fields ? text.replace(/\{(\w+)\}/g, function (whole, name) {
    return name in fields ? String(fields[name]) : whole;
  }) : text;
}

/* Every way of failing to start reaches the page as one "failed" message naming what
   could not be loaded: Pyodide reports some failures (a wasm file that cannot be
   fetched) only as an unhandled rejection, so those are caught here too. A
   Content-Security-Policy violation inside the worker is reported to the page, which
   logs it: the page's own listener cannot see the worker's. */
function text(err) {
  return String((err && err.message) || err || say("runtime.unknown_error"));
}

function failed(message, missing) {
  if (started) return;  // a late failure of a live engine is a step's error, not a start's
  started = true;
  self.postMessage({ type: "failed", message: message, missing: !!missing });
}

self.addEventListener("unhandledrejection", function (event) {
  event.preventDefault();
  failed(say("runtime.python_failed", { error: text(event.reason) }));
});

self.addEventListener("error", function (event) {
  if (started) return;
  event.preventDefault();
  failed(say("runtime.python_failed", { error: text(event.error || event.message) }));
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
          reject(new Error(say("runtime.wasm_failed") + (reason ? ": " + reason : "")));
        }, 0);
      } else if (seen && !reason) {
        reason = text(arguments[0]).split("\n")[0];
      }
    };
  });
}

/* Pyodide from the site's own copy, each failure named by its file. */
async function pyodideFromSite(indexURL) {
  let loader;
  try {
    loader = await import(indexURL + "pyodide.mjs");
  } catch (err) {
    throw new Error(say("runtime.loader_failed", { error: text(err) }));
  }
  const warn = console.warn;
  try {
    return await Promise.race([loader.loadPyodide({ indexURL: indexURL }), wasmFailure(warn)]);
  } catch (err) {
    throw new Error(say("runtime.python_failed", { error: text(err) }));
  } finally {
    console.warn = warn;
  }
}

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
    throw new Error(say("runtime.bundle_pyodide", { version: "314.0.7" }));
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
  const bytes = fetch(url).catch(function (err) {
    throw new Error(say("runtime.archive_failed", { error: text(err) }));
  }).then(function (response) {
    if (!response.ok) {
      const error = new Error(say("runtime.archive_failed", { error: response.status }));
      error.missing = response.status === 404;  // a page from before a deploy: the page reloads once
      throw error;
    }
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
    pyodide = await pyodideFromSite(msg.pyodide);
  }
  const t1 = performance.now();
  if (!archive) archive = await engine;
  pyodide.unpackArchive(archive, "zip", { extractDir: "/lib/explorables" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/lib/explorables')\nimport explorables.engine.runtime");
  handle = pyodide.pyimport("explorables.engine.runtime").handle;
  if (msg.words) {  // the page's language: figures' messages and numbers follow it
    pyodide.pyimport("explorables.engine.locale").use(msg.words.language, JSON.stringify(msg.words.messages));
  }
  const t2 = performance.now();
  started = true;
  // the build the archive belongs to, which the page compares with its own
  let build = "";
  try { build = pyodide.FS.readFile("/lib/explorables/explorables/BUILD", { encoding: "utf8" }).trim(); }
  catch (err) { /* an archive of a build that wrote no id */ }
  self.postMessage({ type: "ready", build: build, timings: { pyodide: t1 - t0, engine: t2 - t1 } });
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
    words = (msg.words && msg.words.messages) || {};
    start(msg).then(
      function () { queue.splice(0).forEach(step); },
      function (err) { failed(text(err), err && err.missing); }
    );
  } else if (msg.type === "step") {
    if (handle) step(msg); else queue.push(msg);
  }
};

self.postMessage({ type: "loaded" });  // the worker's own script ran: later silence is Python's
