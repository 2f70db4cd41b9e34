/* The engine client: starts Pyodide in a module Web Worker as soon as the page has a
   figure, and turns each figure's event into one request to the worker. The main thread
   never runs Python. */
(function () {
  "use strict";
  const ex = window.explorables;
  const pending = new Map();
  let worker = null;
  let counter = 0;

  function rejectAll(error) {
    pending.forEach(function (p) { p.reject(error); });
    pending.clear();
  }

  ex.client = {
    started: null,
    timings: {},
    start: function () {
      if (worker) return ex.ready;
      const assets = new URL(document.body.dataset.assets || "_explorables/", location.href);
      ex.client.started = performance.now();
      if (location.protocol === "file:") {
        ex._settleReady(false, new Error("pages opened straight from disk cannot start the engine yet; " +
          "serve the folder instead (explorables serve, or python -m http.server)"));
        return ex.ready;
      }
      try {
        worker = new Worker(new URL("js/worker.js", assets), { type: "module", name: "explorables-engine" });
      } catch (err) {
        ex._settleReady(false, err);
        return ex.ready;
      }
      worker.onmessage = function (event) {
        const msg = event.data;
        if (msg.type === "ready") {
          ex.client.timings = { worker: msg.timings, total: performance.now() - ex.client.started };
          ex._settleReady(true, ex.client.timings);
        } else if (msg.type === "failed") {
          const error = new Error(msg.message);
          ex._settleReady(false, error);
          rejectAll(error);
        } else if (msg.type === "result") {
          const p = pending.get(msg.id);
          if (!p) return;
          pending.delete(msg.id);
          if (msg.error) p.reject(new Error("the engine raised an error: " + msg.error));
          else p.resolve(JSON.parse(msg.text));
        }
      };
      worker.onerror = function (event) {
        const error = new Error("the engine's worker failed: " + (event.message || "unknown error"));
        ex._settleReady(false, error);
        rejectAll(error);
      };
      worker.postMessage({
        type: "init",
        pyodide: new URL("pyodide/", assets).href,
        engine: new URL("engine.zip", assets).href,
      });
      return ex.ready;
    },
    /* One event for one figure: resolves with {ok, state, scene} or {ok: false, error, field}. */
    step: function (figure, state, event) {
      return new Promise(function (resolve, reject) {
        counter += 1;
        pending.set(counter, { resolve: resolve, reject: reject });
        worker.postMessage({ type: "step", id: counter, text: JSON.stringify({ figure: figure, state: state, event: event }) });
      });
    },
  };
})();
