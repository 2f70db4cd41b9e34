/* The engine's early start. The runtime (js/explorables.js) is a deferred script: it
   runs once the whole page is parsed, its stylesheet loaded and the main thread free,
   often a tenth of a second and more after the page arrived. Python takes seconds to
   start, so a page that needs the engine (the head's #ex-build says so, with the
   figures it shows and the next page's) makes the engine's worker here instead: a small
   script at the end of the head, after the stylesheet and the runtime's tag (both are
   fetched meanwhile), which runs before the body is parsed. The runtime's client
   (client.js) adopts the worker and the messages it sent meanwhile, and ex.ready means
   what it always meant. (An async script would not do: Chromium runs it when the main
   thread is free, about as late as the runtime.)

   It also fetches the math font of a page with formulas (below), for every reader.

   The engine is not started here, and the runtime starts it as before, for readers who
   save data or whose device has little memory (they start Python with a Start button,
   boot.js), on a page opened from disk, and on a page that needs no engine. Offline
   bundles do not load this script. */
(function () {
  "use strict";
  const ex = (window.explorables = window.explorables || {});
  if (ex.client || ex._early || location.protocol === "file:") return;  // the runtime ran first
  let manifest, words;
  try {
    manifest = JSON.parse(document.getElementById("ex-build").textContent);
    words = JSON.parse(document.getElementById("ex-words").textContent);
  } catch {
    return;  // the runtime says what is wrong
  }
  if (!document.currentScript) return;
  // this script is <assets>/js/start.HASH.js: the names in the map are from <assets>/
  const folder = new URL("../", document.currentScript.src);
  const asset = function (key) { return new URL(manifest.assets[key], folder).href; };

  /* A page with formulas fetches the math font now, beside the rest of the page, not
     when its first layout meets a formula: that layout then sets the formulas in it,
     rather than asking the system for a fallback font character by character and
     setting them again once the font comes. (Fonts are fetched with CORS, which a page
     opened from disk would refuse: it has returned above.) */
  if (manifest.font) {
    const font = document.createElement("link");
    font.rel = "preload";
    font.as = "font";
    font.type = "font/woff2";
    font.crossOrigin = "anonymous";
    font.href = new URL(manifest.font, folder).href;
    document.head.appendChild(font);
  }

  const connection = navigator.connection;
  if ((connection && connection.saveData) ||
      (typeof navigator.deviceMemory === "number" && navigator.deviceMemory <= 2)) return;
  if (!manifest.engine) return;
  const message = { type: "init", pyodide: asset("pyodide"), engine: asset("engine"),
    stdlib: manifest.assets.stdlib ? asset("stdlib") : null,
    snapshot: manifest.assets.snapshot ? asset("snapshot") : null, words: words,
    figures: manifest.engine.figures || [], next: manifest.engine.next || [] };
  let worker;
  try {
    worker = new Worker(asset("worker"), { type: "module", name: "explorables-engine" });
  } catch {
    return;  // the runtime tries again, and says why it cannot
  }
  const early = { worker: worker, script: asset("worker"), message: message, started: performance.now(), events: [] };
  worker.onmessage = function (event) { early.events.push(event); };
  worker.onerror = function (event) { event.preventDefault(); early.events.push(event); };
  worker.postMessage(message);
  ex._early = early;
})();
