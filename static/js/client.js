/* The engine client: starts Pyodide in a module Web Worker as soon as the page has a
   figure, and turns each figure's event into one request to the worker. The main thread
   never runs Python. A served page that needs the engine has made the worker already,
   from the head (start.js): the client adopts it and what it said meanwhile. The worker
   is told the figures of the page and of the next one: it imports the page's before it
   is ready, the others after (worker.js).

   The engine never hangs a figure: a worker that fails to start says why (ready
   rejects); a worker that stops later (an error event, a message it sent that cannot
   be read, or an answer that does not come within 20 times the slowest of its figure
   so far, and at least a few seconds) is ended, and the figures say so, keep their last
   frame and offer to start it again (restart): the requests waiting are then sent
   again with the figures' states. Every figure of the page, and of the pages swapped
   in after it, shares that one engine and its answer.

   The page and the engine must come from the same build: the worker reports the build
   id written in the engine archive, and a page that finds another one (a cache that
   kept files of an earlier deploy) reloads itself, once; if the ids still differ, the
   figures say so. */
(function () {
  "use strict";
  const ex = window.explorables;
  const options = ex.options || {};  // a page may set window.explorables = {options: {...}} first
  const LIMITS = {
    start: options.startTimeout || 120000,  // ms for Python to start (slow phones take 20 s and more)
    step: options.stepTimeout || 20000,     // ms for a figure's first answer (they take milliseconds)
  };
  // ms an answer is waited for at least once its figure answered: it may wait behind a piece of
  // work ahead (another figure's first scene), which takes seconds on a slow or busy machine
  const LEAST = options.stepTimeout || 8000;
  const SLOWER = 20;  // an answer is waited for 20 times the slowest of its figure so far
  const pending = new Map();  // id -> {resolve, reject, text, name, sent: when posted (0: not yet)}
  const listeners = [];
  let worker = null;
  let live = false;       // the current worker has Python ready
  let restarts = 0;
  let dead = null;        // the error once the engine could not start
  let stopped = null;     // why the engine stopped, until the reader starts it again
  const slowest = new Map();  // figure (or exercise type) -> its slowest answer so far, ms
  let heard = 0;          // when the worker last said something
  let watchdog = null;
  let startTimer = null;
  let counter = 0;
  let init = null;
  const RELOADED = "explorables-reloaded-for-build";  // sessionStorage: the one reload was tried

  /* Reload the page once for ``why``: a fresh page names the files of one build. False
     (and no reload) when that was tried already for this page's build (under ``key``, a
     sessionStorage name: RELOADED unless given), or cannot be remembered: nothing would
     then stop a loop. */
  function reloadOnce(why, key) {
    let tried = true;
    try {
      tried = sessionStorage.getItem(key || RELOADED) === ex.build;
      if (!tried) sessionStorage.setItem(key || RELOADED, ex.build);
    } catch { /* no storage */ }
    if (tried) return false;
    console.warn("Explorables: " + why + "; reloading the page once");
    location.reload();
    return true;
  }

  ex.reloadOnce = reloadOnce;  // for a file of the page's own build gone too (core.js)

  /* The engine belongs to another build than the page: reload once, else the error. */
  function otherBuild(engineBuild) {
    if (reloadOnce("the engine (build " + engineBuild + ") is not this page's (build " + ex.build + ")")) return null;
    return new Error(ex.t("runtime.other_build", { page: ex.build || ex.t("runtime.unknown"),
      engine: engineBuild || ex.t("runtime.unknown") }));
  }

  function sameBuild() {
    try { sessionStorage.removeItem(RELOADED); } catch { /* no storage */ }
  }

  function notify(status, detail) {
    listeners.forEach(function (fn) {
      try { fn(status, detail); } catch (err) { console.error("Explorables: " + err.message); }
    });
  }

  /* A message quoting a reader's long value keeps a short prefix of it (figure-speech.js,
     in js/later.js, which comes long before the engine's first answer). */
  function clipQuotes(message) {
    return ex.clipQuotes ? ex.clipQuotes(message) : String(message);
  }

  function post(id, p) {
    p.sent = performance.now();
    worker.postMessage({ type: "step", id: id, text: p.text });
    if (!watchdog) watch();
  }

  /* The worker answers in order: watch the oldest request sent, from when it was sent or
     the worker last said something (an answer, a piece of work ahead), whichever is later;
     looked at again when that time is up, and while requests wait. */
  function watch() {
    watchdog = null;
    let head = null;
    for (const p of pending.values()) { if (p.sent) { head = p; break; } }
    if (!live || !head) return;
    const known = slowest.get(head.name);
    const limit = known === undefined ? LIMITS.step : Math.max(LEAST, SLOWER * known);
    const left = Math.max(head.sent, heard) + limit - performance.now();
    if (left > 0) watchdog = setTimeout(watch, left);
    else died(ex.t("runtime.no_answer", { s: Math.round(limit / 1000) }));
  }

  /* The worker stopped answering, or failed to start again: end it; the figures keep
     their frames and offer to start it again. */
  function died(reason) {
    if (dead || stopped || (!live && restarts === 0)) return;
    live = false;
    clearTimeout(startTimer);
    clearTimeout(watchdog);
    watchdog = null;
    if (worker) { try { worker.terminate(); } catch { /* already gone */ } worker = null; }
    pending.forEach(function (p) { p.sent = 0; });  // sent again once the engine is live
    stopped = reason;
    console.error("Explorables: the engine stopped (" + reason + ")");
    notify("stopped", reason);
  }

  /* Start (or restart) a worker, or take over the one start.js made (``early``: its
     worker, and the events it received so far). The first start settles ex.ready; a
     restart, once live, sends again every request still waiting for an answer. */
  function spawn(early) {
    const first = restarts === 0;
    let loaded = false;
    const fail = function (message, missing) {
      // A page kept by a cache from before a deploy names files the deploy removed: a
      // fresh copy of the page names the new ones.
      if (missing && first && !dead && reloadOnce("a file of the engine is missing (" + message + ")")) {
        if (worker) { try { worker.terminate(); } catch { /* gone */ } worker = null; }
        clearTimeout(startTimer);
        return;
      }
      const error = new Error(message);
      if (first && !dead) { ex._settleReady(false, error); dead = error; clearTimeout(startTimer);
        pending.forEach(function (p) { p.reject(error); });
        pending.clear();
        if (worker) { try { worker.terminate(); } catch { /* gone */ } worker = null; } }
      else died(message);  // a restart that failed: the reader may try again
    };
    try {
      worker = early ? early.worker : new Worker(init.script, init.classic ? { name: "explorables-engine" }
        : { type: "module", name: "explorables-engine" });
    } catch (err) {
      fail(ex.t("runtime.worker_not_started", { error: (err && err.message) || err }));
      return;
    }
    const mine = worker;
    clearTimeout(startTimer);
    startTimer = setTimeout(function () {
      if (worker === mine && !live) fail(ex.t("runtime.python_timeout", { s: Math.round(LIMITS.start / 1000) }));
    }, LIMITS.start);
    worker.onmessage = function (event) {
      if (worker !== mine) return;
      const msg = event.data;
      heard = performance.now();  // (a "worked" message says no more)
      if (msg.type === "loaded") {
        loaded = true;
      } else if (msg.type === "ready") {
        clearTimeout(startTimer);
        if (msg.build !== ex.build) {
          const error = otherBuild(msg.build);
          if (error) fail(error.message);
          else { try { worker.terminate(); } catch { /* gone */ } worker = null; }
          return;
        }
        sameBuild();
        live = true;
        if (first) {
          ex.client.timings = { worker: msg.timings, total: performance.now() - ex.client.started };
          ex._settleReady(true, ex.client.timings);
        } else {
          notify("live");
          pending.forEach(function (p, id) { post(id, p); });
        }
      } else if (msg.type === "progress") {  // bytes of the engine's files downloaded so far
        if (first && !live) { ex.client.downloaded = msg.loaded; notify("progress", msg.loaded); }
      } else if (msg.type === "failed") {
        fail(msg.message, msg.missing);
      } else if (msg.type === "violation") {
        ex.client.violations.push(msg);
        console.error("Explorables engine: the Content-Security-Policy blocked " + (msg.blocked || "something") +
          " (" + msg.directive + ")");
      } else if (msg.type === "result") {
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        slowest.set(p.name, Math.max(slowest.get(p.name) || 0, heard - p.sent));
        if (msg.error) { p.reject(new Error(ex.t("runtime.engine_raised", { error: clipQuotes(msg.error) }))); return; }
        const result = JSON.parse(msg.text);
        if (!result.ok && result.error) result.error = clipQuotes(result.error);
        p.resolve(result);
      }
    };
    worker.onerror = function (event) {
      if (worker !== mine) return;
      event.preventDefault();
      if (!loaded) fail(ex.t("runtime.worker_script", { script: init.script }) +
        (event.message ? ": " + event.message : ""), true);
      else if (!live) fail(ex.t("runtime.worker_failed_start", { error: event.message || ex.t("runtime.unknown_error") }));
      else died(event.message || ex.t("runtime.worker_failed"));
    };
    worker.onmessageerror = function () { if (worker === mine) died(ex.t("runtime.worker_failed")); };
    if (!early) { worker.postMessage(init.message); return; }
    early.events.forEach(function (event) {  // what the worker said before it was adopted
      if (worker !== mine) return;
      if (event.type === "error") mine.onerror(event); else mine.onmessage(event);
    });
  }

  /* ``name``: whose answer it is (a figure, an exercise type), for the time it may take. */
  function send(text, name) {
    return new Promise(function (resolve, reject) {
      if (dead) { reject(dead); return; }
      counter += 1;
      const p = { resolve: resolve, reject: reject, sent: 0, text: text, name: name };
      pending.set(counter, p);
      if (live) post(counter, p);  // else sent once the worker is live (again)
    });
  }

  /* The figures of the page (their directive names): the worker imports them first. */
  function figureNames() {
    const names = Array.from(document.querySelectorAll("figure.ex-figure[data-figure]"), function (root) {
      return root.dataset.figure;
    });
    return names.filter(function (name, i) { return names.indexOf(name) === i; });
  }

  ex.client = {
    started: null,
    timings: {},
    violations: [],  // Content-Security-Policy violations the worker reported
    limits: LIMITS,
    downloaded: 0,  // bytes of Python and the engine the worker has received, while it starts
    /* fn(status, detail): "stopped" (why), "restarting", "live" (after a restart),
       "progress" (bytes downloaded so far, while Python first comes). */
    onStatus: function (fn) { listeners.push(fn); },
    get worker() { return worker; },
    get dead() { return dead; },  // the error, once the engine could not start
    get stopped() { return stopped; },  // why the engine stopped, until it is started again
    /* Start the engine again after it stopped (the figures' button). */
    restart: function () {
      if (!stopped || dead) return;
      stopped = null;
      restarts += 1;
      notify("restarting");
      spawn();
    },
    start: function () {
      if (init || ex.client.started) return ex.ready;
      if (ex._readyWithoutEngine) ex._resetReady();  // a page with no figure came first
      ex.client.started = performance.now();
      if (ex.bundle && ex.bundle.carried()) {
        // An offline bundle: the worker is made from a Blob and given the files.
        ex.bundle.load().then(function (parts) {
          init = { script: ex.bundle.workerURL(parts), classic: true,
            message: { type: "init", bundle: parts, words: ex.words, figures: figureNames(),
              next: (ex.engineNeeds && ex.engineNeeds.next) || [] } };
          spawn();
        }, function (err) { dead = err; ex._settleReady(false, err); });
        return ex.ready;
      }
      const early = ex._early;
      ex._early = null;
      if (early) {  // made by start.js from the head, told the page's figures there
        ex.client.started = early.started;
        init = { script: early.script, message: early.message };
        spawn(early);
        return ex.ready;
      }
      init = {
        script: ex.asset("worker"),
        message: { type: "init", pyodide: ex.asset("pyodide"), engine: ex.asset("engine"),
          stdlib: ex.assetNames.stdlib ? ex.asset("stdlib") : null,
          // no snapshot for a frugal reader: 5 MB more to download, 30 MB more memory
          snapshot: ex.assetNames.snapshot && !ex.frugal() ? ex.asset("snapshot") : null, words: ex.words,
          figures: figureNames(), next: (ex.engineNeeds && ex.engineNeeds.next) || [] },
      };
      if (location.protocol === "file:") {
        dead = new Error(ex.t("runtime.from_disk"));
        ex._settleReady(false, dead);
        return ex.ready;
      }
      spawn();
      return ex.ready;
    },
    /* One event for one figure: resolves with {ok, state, scene} or {ok: false, error, field};
       ``lean``: the scene without its cells' arithmetic (figure.js complete). */
    step: function (figure, state, event, lean) {
      const request = { figure: figure, state: state, event: event };
      if (lean) request.lean = true;
      return send(JSON.stringify(request), figure);
    },
    /* The figures of the page after this one (a page swapped in): the worker imports
       them and draws each once while it is idle (worker.js ahead). */
    ahead: function (names) {
      if (worker && live && !dead) worker.postMessage({ type: "ahead", next: names });
    },
    /* One exercise request (engine/runtime.py exercise): {exercise, seed, language} makes
       the problem for a seed, with {answer} too it grades the answer. */
    exercise: function (request) {
      return send(JSON.stringify(request), request.exercise);
    },
  };
})();
