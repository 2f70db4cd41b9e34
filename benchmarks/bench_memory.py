"""How much memory the engine takes once it is live, in headless Chromium.

Builds content/, serves it on 127.0.0.1 with cross-origin isolation (COOP and COEP
headers, which ``performance.measureUserAgentSpecificMemory`` needs; the site itself
needs no such headers), and for each run opens a lesson in a fresh context that reports
``navigator.connection.saveData``: the figures are drawn from their build-time scenes
and Python waits for the Start button. The memory is measured there (before), then the
button is clicked, every figure goes live and it is measured again (after):

- measureUserAgentSpecificMemory: the page and its workers, as the browser counts them
  (Chromium, measured eagerly with --enable-blink-features=ForceEagerMeasureMemory);
- worker heap: the engine's worker seen through the DevTools protocol
  (Runtime.getHeapUsage: the JS heap, and the backing stores of its ArrayBuffers, where
  Pyodide's WebAssembly memory lives);
- process RSS: the growth of the resident memory of every Chromium process (Linux
  /proc), the closest to what a phone has to find.

Usage: python benchmarks/bench_memory.py [--runs 3] [--lesson one-query-row]
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import benchmark_launch  # noqa: E402
from explorables.site_builder.commands.build import build_site  # noqa: E402

SAVE_DATA = """
Object.defineProperty(Navigator.prototype, "connection",
  { configurable: true, get() { return { saveData: true, addEventListener() {} }; } });
"""
MEASURE = """async () => {
  if (!self.crossOriginIsolated || !performance.measureUserAgentSpecificMemory) return null;
  const m = await performance.measureUserAgentSpecificMemory();
  const workers = m.breakdown.filter(b => b.attribution.some(a => a.scope === "DedicatedWorkerGlobalScope"))
    .reduce((s, b) => s + b.bytes, 0);
  return { total: m.bytes, workers };
}"""
LIVE = """async () => {
  await window.explorables.ready;
  const figs = Array.from(document.querySelectorAll("main figure.ex-figure"));
  await new Promise(r => { const t = () => figs.every(f => f.classList.contains("ex-live")) ? r() : setTimeout(t, 5); t(); });
}"""
MB = 1024 * 1024


class _Isolated(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format, *args):
        pass


def serve_isolated(folder: Path):
    handler = functools.partial(_Isolated, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chromium_rss() -> int:
    """Resident bytes of the Chromium processes this script started (Linux /proc; 0
    elsewhere). Only our own descendants: the machine may run other browsers."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if pid.isdigit():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                names[int(pid)] = stat[stat.index("(") + 1:stat.rindex(")")]
                parents[int(pid)] = int(stat[stat.rindex(")") + 2:].split()[1])
            except (OSError, ValueError):
                continue
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                grew = True
    total = 0
    for pid in mine:
        if "chrom" in names.get(pid, ""):
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            except OSError:
                continue
    return total


class WorkerHeap:
    """Runtime.getHeapUsage of the engine's worker, through a browser DevTools session
    attached to the worker target."""

    def __init__(self, browser):
        self.cdp = browser.new_browser_cdp_session()
        self.answers: dict[int, dict] = {}
        self.cdp.on("Target.receivedMessageFromTarget", self._received)
        self.counter = 0

    def _received(self, event):
        message = json.loads(event["message"])
        if "id" in message:
            self.answers[message["id"]] = message

    def _call(self, session: str, method: str, params: dict | None = None) -> dict:
        self.counter += 1
        ask = self.counter
        self.cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(
            {"id": ask, "method": method, "params": params or {}})})
        deadline = time.time() + 20
        while ask not in self.answers and time.time() < deadline:
            time.sleep(0.05)
            self.cdp.send("Target.getTargets")  # lets the event loop deliver messages
        answer = self.answers.pop(ask, {})
        if os.environ.get("BENCH_DEBUG"):
            print(f"  {method}: {str(answer)[:300]}", file=sys.stderr)
        if "error" in answer:
            print(f"  {method}: {answer['error']}", file=sys.stderr)
        return answer.get("result") or {}

    def measure(self) -> dict | None:
        """{usedSize, totalSize, backingStorageSize?}: the worker's JS heap and the
        backing stores of its ArrayBuffers. (Pyodide's WebAssembly memory is counted by
        neither; the process RSS below holds it.)"""
        targets = self.cdp.send("Target.getTargets")["targetInfos"]
        worker = next((t for t in targets if t["type"] == "worker"), None)
        if not worker:
            return None
        session = self.cdp.send("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": False})["sessionId"]
        try:
            usage = self._call(session, "Runtime.getHeapUsage")
        finally:
            try:
                self.cdp.send("Target.detachFromTarget", {"sessionId": session})
            except Exception:  # noqa: BLE001 - the worker may have detached it itself
                pass
        return usage


def mb(value) -> str:
    return f"{value / MB:7.1f} MB" if value is not None else f"{'—':>10}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lesson", default="one-query-row")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        build_site(ROOT / "content", site)
        server = serve_isolated(site)
        url = f"http://127.0.0.1:{server.server_address[1]}/{args.lesson}.html"
        launch = benchmark_launch("--enable-blink-features=ForceEagerMeasureMemory")
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch)
            heap = WorkerHeap(browser)
            for run in range(args.runs):
                context = browser.new_context()
                context.add_init_script(SAVE_DATA)
                page = context.new_page()
                page.goto(url)
                page.locator("button.ex-start").first.wait_for()
                time.sleep(0.5)
                before = {"uasm": page.evaluate(MEASURE), "rss": chromium_rss()}
                started = time.perf_counter()
                page.locator("button.ex-start").first.click()
                page.evaluate(LIVE)
                live_s = time.perf_counter() - started
                time.sleep(0.5)
                after = {"uasm": page.evaluate(MEASURE), "rss": chromium_rss(), "worker": heap.measure()}
                rows.append((before, after, live_s))
                print(f"  run {run + 1}: live {live_s:.1f} s after the click", file=sys.stderr, flush=True)
                context.close()
            browser.close()
        server.shutdown()

    def med(values):
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    print(f"{args.lesson}: {args.runs} runs; before = figures drawn, Python not started (saving data); "
          f"after = every figure live")
    print(f"{'measure':<44} {'before':>10} {'after':>10} {'growth':>10}")
    print("-" * 77)
    b = med([r[0]["uasm"]["total"] if r[0]["uasm"] else None for r in rows])
    a = med([r[1]["uasm"]["total"] if r[1]["uasm"] else None for r in rows])
    print(f"{'measureUserAgentSpecificMemory, page+workers':<44} {mb(b)} {mb(a)} "
          f"{mb(a - b) if a is not None and b is not None else mb(None)}")
    w = med([r[1]["uasm"]["workers"] if r[1]["uasm"] else None for r in rows])
    print(f"{'  of which the engine worker':<44} {mb(None)} {mb(w)}")
    used = med([r[1]["worker"]["usedSize"] if r[1]["worker"] else None for r in rows])
    backing = med([r[1]["worker"].get("backingStorageSize") if r[1]["worker"] else None for r in rows])
    print(f"{'worker JS heap (Runtime.getHeapUsage)':<44} {mb(None)} {mb(used)}")
    print(f"{'worker ArrayBuffer backing stores':<44} {mb(None)} {mb(backing)}")
    b = med([r[0]["rss"] for r in rows]) or None
    a = med([r[1]["rss"] for r in rows]) or None
    print(f"{'Chromium processes, resident (RSS)':<44} {mb(b)} {mb(a)} "
          f"{mb(a - b) if a and b else mb(None)}")
    print(f"time to live after the click: median {med([r[2] for r in rows]):.1f} s")


if __name__ == "__main__":
    main()
