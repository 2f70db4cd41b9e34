"""A Pyodide memory snapshot of the engine, restored in Chromium, against a cold start.

Issue 10 asked whether a snapshot of Pyodide's heap taken at build time (in Node, after
importing the engine) starts the engine faster in the reader's browser than loading
Pyodide and importing the engine there. This script measures it, end to end:

1. builds content/ and makes the snapshot in Node with Pyodide's private options
   (``loadPyodide({_makeSnapshot: true})``, the engine archive unpacked and
   ``explorables.engine.runtime`` imported, ``pyodide.makeMemorySnapshot()``); prints how
   long that took, and the snapshot's size raw and gzip-compressed;
2. serves the built site on 127.0.0.1 with a bare page and a module worker of its own,
   and in one headless Chromium, in fresh browser contexts (cold HTTP cache), interleaved:
   - bare: ``loadPyodide`` only (the anchor of bench_lifecycle.py);
   - cold: what the site's worker does today: ``loadPyodide`` with the engine archive
     fetched beside it, the archive unpacked, the runtime imported, the page's words set,
     then the first scene of one figure computed;
   - snap: the same with ``_loadSnapshot`` (the snapshot fetched beside the wasm), the
     archive still unpacked (the heap holds the imported modules, not the files), the
     random generator reseeded, then the same first scene;
   - snap.gz: the same from a gzip-compressed snapshot, inflated in the worker with
     ``DecompressionStream`` (a static host may not compress an unknown file type);
   the ready time is navigation start -> the first scene back on the page;
3. builds content/ again with ``snapshot: true`` (the build makes its own snapshot) and
   times a lesson page of each site, navigation start -> ``explorables.ready``, in the
   same interleaved cold contexts: the snapshot as the site ships it;
4. prints the bytes each way fetches (raw and gzip, as a host that compresses sends
   them), what the extra bytes cost on slower links (computed, not measured), the wasm
   memory after start, whether the standard library is still fetched, and what
   ``random`` gives after a restore before and after the reseed.

Needs ``node`` (20 or later) on PATH. The machine may be shared and noisy: compare the
figures within one run.

Usage: python benchmarks/bench_snapshot.py [--runs 5] [--figure attention-heatmap] [--lesson one-query-row]
"""
from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import benchmark_launch, serve_folder  # noqa: E402
from explorables.site_builder.output.assets import PYODIDE  # noqa: E402
from explorables.site_builder.commands.build import build_site  # noqa: E402
from explorables.site_builder.pyodide.release import ensure_pyodide  # noqa: E402

MAKE_SNAPSHOT = r"""
// node make_snapshot.mjs <pyodide folder> <engine archive> <site's stdlib> <snapshot out>
import { readFileSync, writeFileSync } from "node:fs";
const [dir, enginePath, stdLibURL, out] = process.argv.slice(2);
const { loadPyodide } = await import(dir + "/pyodide.mjs");
const t0 = performance.now();
const pyodide = await loadPyodide({ indexURL: dir + "/", stdLibURL, _makeSnapshot: true });
const t1 = performance.now();
pyodide.unpackArchive(new Uint8Array(readFileSync(enginePath)), "zip", { extractDir: "/lib/explorables" });
pyodide.runPython("import sys\nsys.path.insert(0, '/lib/explorables')\n" +
  "import explorables.engine.runtime, explorables.engine.locale");
const t2 = performance.now();
const snapshot = pyodide.makeMemorySnapshot();
writeFileSync(out, snapshot);
const t3 = performance.now();
const again = await loadPyodide({ indexURL: dir + "/", stdLibURL, _loadSnapshot: new Uint8Array(readFileSync(out)) });
again.unpackArchive(new Uint8Array(readFileSync(enginePath)), "zip", { extractDir: "/lib/explorables" });
again.pyimport("explorables.engine.runtime");
const t4 = performance.now();
console.log(JSON.stringify({ cold: t1 - t0, engine: t2 - t1, snapshot: t3 - t2, restore: t4 - t3 }));
"""

PAGE = """<!doctype html><meta charset="utf-8"><title>snapshot benchmark</title>
<script>
window.__run = function (mode, message) {
  return new Promise(function (resolve, reject) {
    const w = new Worker("__snap_worker.js", { type: "module" });
    w.onmessage = function (e) { e.data.ready = performance.now(); resolve(e.data); };
    w.onerror = function (e) { reject(new Error(e.message)); };
    message.mode = mode;
    message.base = new URL("_explorables/", location.href).href;
    w.postMessage(message);
  });
};
</script>"""

WORKER = """
function bytes(url, inflate) {
  return fetch(url).then(function (r) {
    if (!r.ok) throw new Error(url + ": " + r.status);
    if (!inflate) return r.arrayBuffer();
    return new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  });
}
self.onmessage = async function (e) {
  const m = e.data;
  const t0 = performance.now();
  const { loadPyodide } = await import(m.base + m.pyodide + "pyodide.mjs");
  const options = { indexURL: m.base + m.pyodide };
  // the site's standard library (modules compiled ahead, site_builder/stdlib.py); bare: Pyodide's own
  options.stdLibURL = m.base + (m.mode === "bare" ? m.pyodide + "python_stdlib.zip" : m.stdlib);
  if (m.mode === "snap" || m.mode === "snap.gz") {
    options._loadSnapshot = bytes(m.base + (m.mode === "snap" ? m.snapshot : m.snapshot + ".gz"), m.mode === "snap.gz");
  }
  const engine = m.mode === "bare" ? null : bytes(m.base + m.engine, false);
  const pyodide = await loadPyodide(options);
  const t1 = performance.now();
  if (m.mode === "bare") {
    pyodide.runPython("1 + 1");
    self.postMessage({ pyodide: t1 - t0, memory: pyodide._module.HEAP8.length });
    return;
  }
  pyodide.unpackArchive(await engine, "zip", { extractDir: "/lib/explorables" });
  let before = null;
  if (m.mode === "cold") {
    pyodide.runPython("import sys\\nsys.path.insert(0, '/lib/explorables')\\nimport explorables.engine.runtime");
  } else {
    before = pyodide.runPython("import random\\nrandom.random()");
    pyodide.runPython("random.seed()");
  }
  const after = pyodide.runPython("import random\\nrandom.random()");
  const handle = pyodide.pyimport("explorables.engine.runtime").handle;
  pyodide.pyimport("explorables.engine.locale").use(m.words.language, JSON.stringify(m.words.messages));
  const t2 = performance.now();
  const reply = JSON.parse(handle(m.step));
  const t3 = performance.now();
  self.postMessage({ pyodide: t1 - t0, engine: t2 - t1, scene: t3 - t2, ok: reply.ok,
    values: reply.ok ? reply.scene.values : reply.error, before: before, after: after,
    memory: pyodide._module.HEAP8.length,
    stdlib: pyodide.FS.analyzePath("/lib/python314.zip").exists });
};
"""

MODES = ("bare", "cold", "snap", "snap.gz")
LESSON_READY = """async () => { await window.explorables.ready; const w = window.explorables.client.timings.worker;
  return { ready: performance.now(), snapshot: w.snapshot, error: w.snapshotError }; }"""
LINKS = (("4G phone, 10 Mbit/s", 10e6 / 8), ("home, 50 Mbit/s", 50e6 / 8))


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6))


def median(values):
    return statistics.median(values) if values else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="cold starts of each way")
    parser.add_argument("--figure", default="attention-heatmap", help="the figure whose first scene is computed")
    parser.add_argument("--lesson", default="one-query-row", help="the lesson timed on the two built sites")
    args = parser.parse_args()
    node = shutil.which("node")
    if not node:
        sys.exit("bench_snapshot needs node on PATH to make the snapshot")
    from playwright.sync_api import sync_playwright

    from explorables.engine.figures import FIGURES
    from explorables.engine.locale import ENGLISH

    model = FIGURES[args.figure]
    state = model.initial_state(model.parse_options({}))
    step = json.dumps({"figure": args.figure, "state": state, "event": {"type": "patch", "patch": {}}})
    expected = model.scene(state)["values"]

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        build_site(ROOT / "content", site)
        assets = site / "_explorables"
        engine = next(assets.glob("engine.*.zip")).name
        python_lib = next(assets.glob("stdlib.*.zip")).name
        pyodide_dir = assets / PYODIDE
        # the anchor is Pyodide as published, its own standard library (sources only)
        shutil.copy2(ensure_pyodide() / "python_stdlib.zip", pyodide_dir / "python_stdlib.zip")
        script = Path(tmp) / "make_snapshot.mjs"
        script.write_text(MAKE_SNAPSHOT)
        snapshot = assets / "snapshot.bin"
        started = time.perf_counter()
        made = subprocess.run([node, str(script), str(pyodide_dir), str(assets / engine), str(assets / python_lib), str(snapshot)],
                              capture_output=True, text=True, check=True)
        made_s = time.perf_counter() - started
        node_times = json.loads(made.stdout.strip().splitlines()[-1])
        raw = snapshot.read_bytes()
        (assets / "snapshot.bin.gz").write_bytes(gzip.compress(raw, 6))
        (site / "__snap.html").write_text(PAGE)
        (site / "__snap_worker.js").write_text(WORKER)
        content = Path(tmp) / "content"
        shutil.copytree(ROOT / "content", content)
        config = content / "site.yml"
        config.write_text(config.read_text(encoding="utf-8") + "\nsnapshot: true\n", encoding="utf-8")
        started = time.perf_counter()
        shipped = build_site(content, Path(tmp) / "_snapsite")
        snap_build_s = time.perf_counter() - started
        if shipped.warnings:
            raise SystemExit("the snapshot site built with warnings: " + "; ".join(shipped.warnings))

        server = serve_folder(site)
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        snap_server = serve_folder(Path(tmp) / "_snapsite")
        sites = {"site": base, "site+snap": f"http://127.0.0.1:{snap_server.server_address[1]}/"}
        lesson: dict[str, list[dict]] = {name: [] for name in sites}
        message = {"pyodide": PYODIDE, "engine": engine, "stdlib": python_lib, "snapshot": "snapshot.bin", "step": step,
                   "words": {"language": "en", "messages": ENGLISH}}
        results: dict[str, list[dict]] = {mode: [] for mode in MODES}
        fetched: dict[str, list[str]] = {}
        launch = benchmark_launch()
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch)
            for run in range(args.runs):
                for mode in MODES:
                    context = browser.new_context()
                    urls: list[str] = []
                    context.on("request", lambda r, urls=urls: urls.append(r.url))
                    page = context.new_page()
                    page.goto(base + "__snap.html")
                    result = page.evaluate("([mode, m]) => window.__run(mode, m)", [mode, message])
                    context.close()
                    if mode != "bare" and result["values"] != expected:
                        raise SystemExit(f"{mode}: the first scene differs from CPython's: {result['values']!r:.300}")
                    results[mode].append(result)
                    fetched[mode] = urls
                for name, url in sites.items():
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(url + f"{args.lesson}.html")
                    lesson[name].append(page.evaluate(LESSON_READY))
                    context.close()
                    if lesson[name][-1]["snapshot"] != (name == "site+snap"):
                        raise SystemExit(f"{name}: the worker reported snapshot={lesson[name][-1]['snapshot']} "
                                         f"({lesson[name][-1]['error']})")
                print(f"  run {run + 1}: " + ", ".join(f"{m} {results[m][-1]['ready']:.0f} ms" for m in MODES)
                      + ", " + ", ".join(f"{n} {lesson[n][-1]['ready']:.0f} ms" for n in sites),
                      file=sys.stderr, flush=True)
            browser.close()
        server.shutdown()
        snap_server.shutdown()

        def size(url: str) -> tuple[int, int]:
            path = site / urlparse(url).path.lstrip("/")
            data = path.read_bytes()
            return len(data), gz(data)

        totals = {}
        for mode, urls in fetched.items():
            files = [u for u in urls if "/_explorables/" in u]
            sizes = [size(u) for u in files]
            # a host sends an already gzip-compressed file as it is
            totals[mode] = (sum(s[0] for s in sizes),
                            sum(s[0] if u.endswith(".gz") else s[1] for u, s in zip(files, sizes)),
                            sorted(urlparse(u).path.rsplit("/", 1)[-1] for u in files))

    print(f"snapshot made in Node in {made_s:.1f} s (cold loadPyodide {node_times['cold']:.0f} ms, engine import "
          f"{node_times['engine']:.0f} ms, snapshot written {node_times['snapshot']:.0f} ms; a restore in Node "
          f"{node_times['restore']:.0f} ms)")
    print(f"snapshot size: {len(raw) / 2**20:.1f} MiB raw, {gz(raw) / 2**20:.2f} MiB gzip")
    print()
    print(f"Chromium, {args.runs} cold contexts each, interleaved; ready = navigation start -> the first scene of "
          f"{args.figure} on the page (bare: Pyodide answers)")
    head = f"{'way':<8} {'ready':>8} {'min':>7} {'max':>7} {'pyodide':>8} {'engine':>7} {'scene':>6} " \
           f"{'wasm mem':>9} {'fetched raw':>12} {'gzip':>9}"
    print(head)
    print("-" * len(head))
    for mode in MODES:
        rows = results[mode]
        ready = [r["ready"] for r in rows]
        raw_b, gz_b, _ = totals[mode]
        print(f"{mode:<8} {median(ready):>5.0f} ms {min(ready):>4.0f} ms {max(ready):>4.0f} ms "
              f"{median([r['pyodide'] for r in rows]):>5.0f} ms "
              + (f"{median([r['engine'] for r in rows]):>4.0f} ms {median([r['scene'] for r in rows]):>3.0f} ms "
                 if mode != "bare" else f"{'':>7} {'':>6} ")
              + f"{rows[-1]['memory'] / 2**20:>5.1f} MiB {raw_b / 2**20:>8.1f} MiB {gz_b / 2**20:>5.2f} MiB")
    print()
    print()
    print(f"the lesson {args.lesson} of the built site, navigation start -> explorables.ready "
          f"(the site with `snapshot: true` built in {snap_build_s:.1f} s):")
    for name in sites:
        ready = [r["ready"] for r in lesson[name]]
        print(f"  {name:<10} median {median(ready):>5.0f} ms (min {min(ready):.0f}, max {max(ready):.0f})")
    shipped_ready = median([r["ready"] for r in lesson["site+snap"]])
    print(f"  ratio site+snap / site: {shipped_ready / median([r['ready'] for r in lesson['site']]):.2f}")
    print()
    cold, snap = median([r["ready"] for r in results["cold"]]), median([r["ready"] for r in results["snap"]])
    snapgz = median([r["ready"] for r in results["snap.gz"]])
    extra = totals["snap"][1] - totals["cold"][1]
    print(f"snapshot / cold ready: {snap / cold:.2f} (snap.gz: {snapgz / cold:.2f}); saved on 127.0.0.1: "
          f"{cold - snap:.0f} ms")
    for name, rate in LINKS:
        print(f"  the snapshot's extra {extra / 2**20:.2f} MiB (gzip) on {name}: +{extra / rate * 1000:.0f} ms "
              f"against {cold - snap:.0f} ms saved")
    print()
    for mode in ("cold", "snap"):
        print(f"files fetched ({mode}): {', '.join(totals[mode][2])}")
    snap_rows = results["snap"]
    print(f"standard library zip still fetched and written with a snapshot: "
          f"{python_lib in totals['snap'][2]} (/lib/python314.zip present: {snap_rows[-1]['stdlib']})")
    before = sorted({r["before"] for r in snap_rows})
    after = sorted({r["after"] for r in snap_rows})
    print(f"random.random() right after restore, {len(snap_rows)} restores: {len(before)} distinct value(s) "
          f"{before[:2]}; after random.seed(): {len(after)} distinct")


if __name__ == "__main__":
    main()
