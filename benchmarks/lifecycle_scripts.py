"""The scripts bench_lifecycle.py runs in its pages: the engine alone, the long-task
observer, and what it reads once a lesson is live, after Next, and at the first frame."""

# the lesson's own worker and "init" message (as js/start.js makes them) from an empty page
ENGINE_HTML = """<!doctype html><meta charset="utf-8"><title>engine alone</title>
<script>
window.__engine = new Promise(function (resolve, reject) {
  const manifest = MANIFEST, words = WORDS;
  const folder = new URL("_explorables/", location.href);
  const asset = function (key) { return new URL(manifest.assets[key], folder).href; };
  const w = new Worker(asset("worker"), { type: "module", name: "explorables-engine" });
  w.onmessage = function (e) {
    if (e.data.type === "ready") resolve(performance.now());
    else if (e.data.type === "failed") reject(new Error(e.data.message));
  };
  w.onerror = function (e) { reject(new Error("the worker failed: " + e.message)); };
  w.postMessage({ type: "init", pyodide: asset("pyodide"), engine: asset("engine"),
    stdlib: manifest.assets.stdlib ? asset("stdlib") : null,
    snapshot: manifest.assets.snapshot ? asset("snapshot") : null, words: words,
    figures: manifest.engine.figures || [], next: manifest.engine.next || [] });
});
</script>"""

LONG_TASKS = """
window.__longTasks = [];
try {
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
    .observe({ type: "longtask", buffered: true });
} catch (err) {}
"""

LIVE = """async () => {
  await window.explorables.ready;
  const ready = performance.now();
  const figs = Array.from(document.querySelectorAll("main figure.ex-figure"));
  await new Promise(r => { const t = () => figs.every(f => f.classList.contains("ex-live")) ? r() : setTimeout(t, 2); t(); });
  const tasks = (window.__longTasks || []).filter(t => t[0] < ready).map(t => t[1]);
  const client = window.explorables.client || {};
  const worker = (client.timings && client.timings.worker) || {};
  const frame = performance.getEntriesByName("explorables:first-frame")[0];
  const since = t => (t ? t - performance.timeOrigin : null);  // the worker's epoch times, on this page's clock
  return { ready, longest: Math.max(0, ...tasks), started: client.started, frame: frame ? frame.startTime : null,
           ran: since(worker.ran), began: since(worker.began), pyodide: worker.pyodide, engine: worker.engine };
}"""

NEXT = """async () => {
  const link = document.querySelector("a[rel=next]");
  if (!link) return null;
  const target = new URL(link.getAttribute("href"), location.href).href;
  const t0 = performance.now();
  link.click();
  await new Promise(r => {
    const t = () => {
      const figs = Array.from(document.querySelectorAll("main figure.ex-figure"));
      if (location.href === target && figs.every(f => f.classList.contains("ex-live"))) r(); else setTimeout(t, 1);
    };
    t();
  });
  const first = Object.values(window.explorables.figures)[0];
  if (first) await first.update({});
  return { ms: performance.now() - t0, same: window.__sameDocument === true };
}"""

STILL = """async () => {
  if (document.readyState !== "complete") await new Promise(r => window.addEventListener("load", r, { once: true }));
  await new Promise(r => setTimeout(r, 1000));
  return Math.max(0, ...(window.__longTasks || []).map(t => t[1]));
}"""

FIGURES_LIVE = """() => { const figs = Array.from(document.querySelectorAll("main figure.ex-figure"));
  return figs.every(f => f.classList.contains("ex-live")); }"""

FIRST_FRAME_TYPES = ("document", "stylesheet", "script", "font")
FIRST_FRAME = """() => {
  const mark = performance.getEntriesByName("explorables:first-frame")[0];
  const until = mark ? mark.startTime : Infinity;
  return performance.getEntriesByType("resource").filter(e => e.startTime <= until).map(e => e.name);
}"""
