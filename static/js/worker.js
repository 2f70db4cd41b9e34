/* The engine worker: loads Pyodide, unpacks the engine archive, then answers each step
   request with the engine's JSON.

   Served sites start it as a module worker from this file; Pyodide and the engine
   archive are fetched from the site's own copy. An offline bundle starts the same code
   as a classic worker made from a Blob (pages opened from disk may not fetch, nor start
   module workers): its "init" message then carries the files themselves, Pyodide's
   modules are imported from Blob URLs and the wasm request is answered from memory.

   The engine's figures load on demand (engine/figures/__init__.py): the "init" message
   names the page's figures, imported before the worker says it is ready, and the next
   page's; the others are imported when a step first asks for one, or one by one once the
   worker is ready (the next page's first), so the next lesson finds its figures imported.

   A site built with `snapshot: true` also names a memory snapshot of Python with the
   engine imported (site_builder/snapshot.py): the worker restores it instead of starting
   Python cold, and starts cold after all when anything about it fails. */
// when this script began to run, in ms since the epoch (the worker's clock and the page's
// start at different moments): the page's timings place the worker's start on its own
const RAN = performance.timeOrigin + performance.now();
let handle = null;
let runtime = null;  // explorables.engine.runtime, once imported
let started = false;
let restoring = false;  // a snapshot is being restored: its failures are not the start's
const queue = [];
/* Bytes of Python and the engine received so far, told to the page (at most every
   100 ms) while Python first comes, so that a slow network shows how far it has got:
   every fetch of the start counts its response's body as it streams through. */
let downloaded = 0;
let toldAt = 0;
const plainFetch = self.fetch.bind(self);
function tellDownloaded(now) {
  if (started || (!now && performance.now() - toldAt < 100)) return;
  toldAt = performance.now();
  self.postMessage({ type: "progress", loaded: downloaded });
}
self.fetch = function (url, options) {
  return plainFetch(url, options).then(function (response) {
    if (started || !response.body || !response.ok) return response;
    // a copy of the body read as it comes, the response itself left to its reader as it was
    const reader = response.clone().body.getReader();
    (function count() {
      reader.read().then(function (part) {
        if (part.done) { tellDownloaded(true); return; }
        downloaded += part.value.byteLength;
        tellDownloaded(false);
        count();
      }, function () { /* the response's own reader hears of a failure */ });
    })();
    return response;
  });
};
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
  if (restoring) return;  // the restore's own await reports it, and the start goes on cold
  failed(say("runtime.python_failed", { error: text(event.reason) }));
});

self.addEventListener("error", function (event) {
  if (started) return;
  event.preventDefault();
  if (restoring) return;
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

/* Pyodide from the site's own copy (msg.pyodide, its folder), with the site's standard
   library (msg.stdlib: its modules compiled ahead, site_builder/stdlib.py), each failure
   named by its file. */
async function pyodideFromSite(msg, options) {
  const indexURL = msg.pyodide;
  let loader;
  try {
    loader = await import(indexURL + "pyodide.mjs");
  } catch (err) {
    throw new Error(say("runtime.loader_failed", { error: text(err) }), { cause: err });
  }
  const warn = console.warn;
  try {
    const where = msg.stdlib ? { indexURL: indexURL, stdLibURL: msg.stdlib } : { indexURL: indexURL };
    return await Promise.race([loader.loadPyodide(Object.assign(where, options)), wasmFailure(warn)]);
  } catch (err) {
    // Pyodide names a standard library it could not fetch, or, as its fetch and its start
    // are timed, only says that Python exited: the file is named either way
    const missing = msg.stdlib && !(await fetch(msg.stdlib, { method: "HEAD" }).then((r) => r.ok, () => false));
    const error = missing ? say("runtime.stdlib_failed", { file: msg.stdlib }) : text(err);
    throw new Error(say("runtime.python_failed", { error: error }), { cause: err });
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

/* The engine archive's files as [name, bytes] pairs, inflated while Python starts (the
   archive comes first, and unpacking it in Python, once Python is up, took 25-40 ms of
   the start). A zip lists its entries at its end: each entry's name, compression (0:
   stored, 8: deflated), compressed size and where its local header starts. */
function unzipped(archive) {
  const bytes = archive instanceof Uint8Array ? archive : new Uint8Array(archive);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damaged = new Error(say("runtime.archive_failed", { error: say("runtime.archive_damaged") }));
  let end = bytes.length - 22;  // the end-of-directory record, after any comment
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) return Promise.reject(damaged);
  const names = new TextDecoder(), files = [];
  let at = view.getUint32(end + 16, true);
  for (let i = view.getUint16(end + 10, true); i > 0; i--) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return Promise.reject(damaged);
    const method = view.getUint16(at + 10, true), size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true), local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    if (!name.endsWith("/")) files.push(method === 0 ? [name, data] : inflated(data).then(function (made) { return [name, made]; }));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return Promise.all(files).catch(function () { throw damaged; });  // an entry that does not inflate
}

/* The bytes written to the stream at once: piped from a Blob's stream, the engine's
   hundred entries took 4-5 times as long (80-160 ms against 20-30 in headless Chromium).
   Damaged bytes fail the write and the read alike: the read's failure is the one told. */
function inflated(data) {
  const inflating = new DecompressionStream("deflate-raw");
  const writer = inflating.writable.getWriter();
  writer.write(data).catch(function () {});
  writer.close().catch(function () {});
  return new Response(inflating.readable).arrayBuffer().then(function (made) { return new Uint8Array(made); });
}

/* The engine's files written where Python imports them from (sys.path). */
const ENGINE_DIR = "/lib/explorables";
function place(pyodide, files) {
  for (const [name, data] of files) {
    const path = ENGINE_DIR + "/" + name;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, data);
  }
}

/* The build id inside the unpacked engine archive ("" for a build that wrote none). */
function buildOf(pyodide) {
  try { return pyodide.FS.readFile(ENGINE_DIR + "/explorables/BUILD", { encoding: "utf8" }).trim(); }
  catch { return ""; }
}

/* The snapshot's bytes: the build stores it gzip-compressed (a host may send an unknown
   file type as it is), inflated here while it downloads. */
function fetchSnapshot(url) {
  const bytes = fetch(url).then(function (response) {
    if (!response.ok) throw new Error("could not load the snapshot (" + response.status + ")");
    return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  });
  bytes.catch(function () {});
  return bytes;
}

/* Python restored from the snapshot, the engine archive unpacked beside it (the heap
   holds the imported modules, not the files), or an error: a cut or corrupt download,
   a heap Pyodide cannot restore, a snapshot of another build. A snapshot freezes the
   random generator's state: it is seeded anew. */
async function restore(msg, engine) {
  restoring = true;
  try {
    const pyodide = await pyodideFromSite(msg, { _loadSnapshot: fetchSnapshot(msg.snapshot) });
    place(pyodide, await engine);
    const made = pyodide.runPython("import explorables.engine.runtime as r\nr.SNAPSHOT_OF");
    if (!made || made !== buildOf(pyodide)) throw new Error("the snapshot belongs to another build");
    pyodide.runPython("import random\nrandom.seed()");
    return pyodide;
  } finally {
    restoring = false;
  }
}

async function start(msg) {
  const t0 = performance.now();
  let pyodide;
  let snapshot = false, snapshotError = "";
  // the engine's files, fetched and inflated while Python starts
  const engine = msg.bundle ? unzipped(decode(msg.bundle.engine)) : fetchEngine(msg.engine).then(unzipped);
  engine.catch(function () {});  // reported when awaited, not as an unhandled rejection
  if (msg.bundle) {
    pyodide = await pyodideFromBundle(msg.bundle.pyodide);
  } else if (msg.snapshot) {
    try {
      pyodide = await restore(msg, engine);
      snapshot = true;
    } catch (err) {
      if (err && err.missing) throw err;  // no engine archive: a cold start would not find it either
      snapshotError = text(err);
      console.warn("Explorables engine: the snapshot could not be restored (" + snapshotError + "); starting Python");
    }
  }
  if (!pyodide) pyodide = await pyodideFromSite(msg);
  const t1 = performance.now();
  if (!snapshot) {
    place(pyodide, await engine);
    pyodide.runPython("import sys\nsys.path.insert(0, '" + ENGINE_DIR + "')\nimport explorables.engine.runtime");
  }
  runtime = pyodide.pyimport("explorables.engine.runtime");
  handle = runtime.handle;
  if (msg.words) {  // the page's language: figures' messages and numbers follow it
    pyodide.pyimport("explorables.engine.locale").use(msg.words.language, JSON.stringify(msg.words.messages));
  }
  const t2 = performance.now();
  runtime.prepare(msg.figures || []);
  const t3 = performance.now();
  started = true;
  // the build the archive belongs to, which the page compares with its own; whether
  // Python came from the snapshot (and why not, when it could not)
  self.postMessage({ type: "ready", build: buildOf(pyodide),
    timings: { ran: RAN, began: performance.timeOrigin + t0, pyodide: t1 - t0, engine: t3 - t1, figures: t3 - t2,
      snapshot: snapshot, snapshotError: snapshotError } });
}

/* Work ahead of the reader while the worker is idle, one piece a task (a step waits for
   at most one): the next page's figure modules at once, as the reader may go there at
   once; a second later, each of its figures drawn once (a figure's first scene takes
   about twice as long as the next ones, and would come with the reader's first move
   there); then every other figure module. A page swapped in starts it again for its
   own next page ("ahead"), a second later: the reader's first move there comes first
   (its step waited for the next page's import, which came with the swap). */
const REHEARSE_AFTER = 1000, WARM_REST_AFTER = 2000, SWAPPED_AFTER = 1000;  // ms
let aheadTimer = 0;
function ahead(names, after) {
  // null would reach Python as JsNull, not None: "every other figure" is no argument
  const phases = [
    { after: 0, run: function () { return runtime.warm(names); } },
    { after: REHEARSE_AFTER, run: function () { return runtime.rehearse(names); } },
    { after: WARM_REST_AFTER, run: function () { return runtime.warm(); } },
  ];
  function next(i) {
    let more = false;
    try { more = phases[i].run(); } catch (err) { console.warn("Explorables engine: " + text(err)); }
    self.postMessage({ type: "worked" });  // the page's watch of a step waiting counts from here (client.js)
    if (more) aheadTimer = setTimeout(function () { next(i); }, 0);
    else if (i + 1 < phases.length) aheadTimer = setTimeout(function () { next(i + 1); }, phases[i + 1].after);
  }
  clearTimeout(aheadTimer);
  aheadTimer = setTimeout(function () { next(0); }, after);
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
      function () { queue.splice(0).forEach(step); ahead(msg.next || [], 0); },
      function (err) { failed(text(err), err && err.missing); }
    );
  } else if (msg.type === "step") {
    if (handle) step(msg); else queue.push(msg);
  } else if (msg.type === "ahead") {
    if (runtime) ahead(msg.next || [], SWAPPED_AFTER);
  }
};

self.postMessage({ type: "loaded" });  // the worker's own script ran: later silence is Python's
