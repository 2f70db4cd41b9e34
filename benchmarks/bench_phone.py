"""Every lesson as a phone loads it, beside the desktop, in one run (issue 39).

Builds content/ once, serves it on 127.0.0.1 gzip-compressed as GitHub Pages serves it
(text files; woff2, wasm and zip as they are, wasm too: Pages compresses it, so does this
server), and drives the whole of Chromium (``/usr/bin/chromium``, the launch flags of
tests/conftest.py). Every load is cold: a new browser context (an empty HTTP cache),
whose first page waits a second on about:blank before it is sent to the lesson, as in
bench_lifecycle.py. Three profiles:

- desktop: a 1280 x 900 window, no throttling;
- phone: a 390 x 844 viewport at device scale 2, touch, the main thread slowed 4 times
  (CDP ``Emulation.setCPUThrottlingRate``, the slowdown of Lighthouse's mobile profile;
  the engine's worker is not slowed, as Lighthouse does not slow it either);
- phone, slow network: the phone and Lighthouse's mobile network (CDP
  ``Network.emulateNetworkConditions``: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
  up), which the engine's worker's downloads share.
- phone, CPU x4: the phone's viewport, not slowed, its longest task and TBT estimated
  from each main-thread task's CPU time times 4 (phone_cpu.py): a shared machine's load
  swings wall times 2-5 times, CPU times hardly.

Per lesson and profile:

- first frame: the figures' first draw, the runtime's ``explorables:first-frame`` mark
  (ms after navigation start), as bench_lifecycle.py times it;
- live: ``explorables.ready`` and every figure live (bench_lifecycle.py's LIVE);
- longest task: the longest main-thread task before live (a PerformanceObserver for
  ``longtask`` installed by an init script);
- TBT, total blocking time as Lighthouse defines it, but up to live: for every task
  between first contentful paint and live, its time over 50 ms (a task begun before the
  first contentful paint counts from it). Lighthouse stops at Time to Interactive, which
  on these pages comes before live, or with it;
- shift: the layout shifts after the first frame, summed (a PerformanceObserver for
  ``layout-shift``, those after the reader's input excluded, as the browser marks them);
- first frame KB: gzip-compressed bytes of the files asked for before the first frame
  (bench_lifecycle.py's first_frame_bytes);
- MB: every byte the page and its worker received before live, compressed as sent
  (Playwright's sizes of each request finished);
- main CPU ("phone, CPU x4" only): the main thread's CPU time before live, at 1x, summed
  over its tasks: the page's own work, steadier from load to load than any wall time.

With ``--baseline DIR`` a site built by another version (``explorables build content DIR``
with the installed release, say) is served too and its lessons timed in the same run,
interleaved with this version's: its rows are marked ``(baseline)``. The machine may be
shared and noisy: compare within one run, and take ``--runs 3`` or more.

With ``--lighthouse`` each lesson is then run through the npm ``lighthouse`` package
(12.2.3: 13 wants Node 22), its mobile profile (simulated throttling), against Debian's
Chromium: the performance score and its metrics. It is installed on first use into
benchmarks/node_modules from benchmarks/package.json (a benchmark tool: CI does not).

Usage: python benchmarks/bench_phone.py [--runs 1] [--lesson one-query-row] [--no-network]
       [--profile "phone, CPU x4"] [--lighthouse] [--lighthouse-only] [--site DIR]
       [--baseline DIR]
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import ClassVar

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

import phone_cpu  # noqa: E402
from bench_lifecycle import FIRST_FRAME, FIRST_FRAME_TYPES, LIVE, SETTLE_MS, excluded, first_frame_bytes  # noqa: E402
from conftest import benchmark_launch  # noqa: E402
from phone_lighthouse import cell, lighthouse, print_lighthouse  # noqa: E402
from sites import serve_versions  # noqa: E402

from explorables.site_builder.commands.build import build_site, slug_of  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
CPU_SLOWDOWN = 4
# Lighthouse's mobile network ("slow 4G"): 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up
MOBILE_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
SIMULATED = "phone, CPU x4"
PROFILES = {
    "desktop": (DESKTOP, 1, None),
    "phone 4x": (PHONE, CPU_SLOWDOWN, None),
    "phone 4x, slow net": (PHONE, CPU_SLOWDOWN, MOBILE_NETWORK),
    SIMULATED: (PHONE, 1, None),  # longest and TBT: CPU time x 4 (phone_cpu.py)
}
LIVE_TIMEOUT_MS = 600_000  # Python at 1.6 Mbit/s takes a minute and more
TARGETS = "phone 4x: first frame <= 1000 ms, TBT <= 200 ms, longest task <= 200 ms; desktop: longest <= 50 ms"

# Installed before the page's own scripts: long tasks, layout shifts and the first
# contentful paint, kept from the navigation's start.
OBSERVERS = """
window.__longTasks = []; window.__shifts = []; window.__fcp = null;
try {
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push([e.startTime, e.value]);
  }).observe({ type: "layout-shift", buffered: true });
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") window.__fcp = e.startTime;
  }).observe({ type: "paint", buffered: true });
} catch (err) {}
"""
# after LIVE: what the observers saw up to live (``ready``)
MEASURES = """([ready, frame]) => {
  const fcp = window.__fcp || 0, tasks = window.__longTasks.filter(t => t[0] < ready);
  const blocking = tasks.reduce((sum, [start, ms]) => {
    const from = Math.max(start, fcp), to = Math.min(start + ms, ready);
    return sum + Math.max(0, to - from - 50);
  }, 0);
  return { fcp, longest: Math.max(0, ...tasks.map(t => t[1])), tbt: blocking,
           shift: window.__shifts.filter(s => frame === null || s[0] > frame).reduce((a, s) => a + s[1], 0) };
}"""

COMPRESSED = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".txt", ".xml", ".map")


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Text files (and wasm) gzip-compressed when the browser accepts it, as GitHub Pages
    sends them; everything else as SimpleHTTPRequestHandler does."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }
    cache: ClassVar[dict[str, bytes]] = {}
    lock = threading.Lock()

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not (path.suffix in COMPRESSED and path.is_file() and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().do_GET()
        with self.lock:
            body = self.cache.get(str(path))
            if body is None:
                body = self.cache[str(path)] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        self.wfile.write(body)


def serve(folder: Path) -> http.server.ThreadingHTTPServer:
    handler = type("Handler", (_GzipHandler,), {"cache": {}})

    def make(*args, **kwargs):
        return handler(*args, directory=str(folder), **kwargs)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def load(browser, site: Path, url: str, profile: str) -> dict:
    """One cold load of ``url`` in ``profile``: its figures (see the module's docstring)."""
    options, slowdown, network = PROFILES[profile]
    context = browser.new_context(**options)
    page = context.new_page()
    page.goto("about:blank")
    page.wait_for_timeout(SETTLE_MS)
    cdp = context.new_cdp_session(page)
    finished: list = []  # the page's requests and its worker's
    context.on("requestfinished", lambda request: finished.append(request))
    if slowdown != 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    if network:
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
    page.add_init_script(OBSERVERS)
    fetched: list[str] = []
    page.on(
        "request",
        lambda r: fetched.append(r.url) if r.resource_type in FIRST_FRAME_TYPES and not excluded(r.url) else None,
    )
    page.set_default_timeout(LIVE_TIMEOUT_MS)
    if profile == SIMULATED:
        phone_cpu.start(browser, page)
    page.goto(url, timeout=LIVE_TIMEOUT_MS)
    live = page.evaluate(LIVE)
    row = page.evaluate(MEASURES, [live["ready"], live["frame"]])
    if profile == SIMULATED:
        row.update(phone_cpu.estimated(browser, row["fcp"], live["ready"], live["frame"], CPU_SLOWDOWN))
    before = set(page.evaluate(FIRST_FRAME))
    packed, _ = first_frame_bytes(site, sorted({u for u in fetched if u in before or u == page.url}))
    received = 0
    for request in list(finished):
        sizes = request.sizes()
        received += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    row.update(frame=live["frame"], live=live["ready"], gz=packed, received=received)
    context.close()
    return row


def median(rows: list[dict], key: str):
    values = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(values) if values else None


def print_table(results: dict[tuple[str, str], list[dict]], slugs: list[str], profiles: list[str]) -> None:
    head = (
        f"{'lesson':<33} {'profile':<19} {'1st frame':>10} {'live':>10} {'longest':>9} {'TBT':>9} "
        f"{'shift':>6} {'1st fr gz':>9} {'received':>9} {'main CPU':>9}"
    )
    print(head)
    print("-" * len(head))
    for slug in slugs:
        for profile in profiles:
            rows = results.get((slug, profile), [])
            shift = median(rows, "shift")
            print(
                f"{slug:<33} {profile:<19} {cell(median(rows, 'frame'), 10)} {cell(median(rows, 'live'), 10)} "
                f"{cell(median(rows, 'longest'), 9)} {cell(median(rows, 'tbt'), 9)} "
                f"{'—' if shift is None else f'{shift:.3f}':>6} {cell(median(rows, 'gz'), 9, 'KB', 1, 1024)} "
                f"{cell(median(rows, 'received'), 9, 'MB', 1, 1e6)} {cell(median(rows, 'cpu'), 9)}"
            )
    print()
    print("targets:", TARGETS)
    phone = [(s, median(results.get((s, "phone 4x"), []), k)) for s in slugs for k in ("frame", "tbt", "longest")]
    phone += [
        (s + " (CPU x4)", None if k == "frame" else median(results.get((s, SIMULATED), []), k))
        for s in slugs
        for k in ("frame", "tbt", "longest")
    ]
    limits = {0: 1000, 1: 200, 2: 200}
    over = [
        f"{s} {('first frame', 'TBT', 'longest')[i % 3]} {v:.0f} ms"
        for i, (s, v) in enumerate(phone)
        if v is not None and v > limits[i % 3]
    ]
    desktop = [
        f"{s} longest {v:.0f} ms"
        for s in slugs
        if (v := median(results.get((s, "desktop"), []), "longest")) is not None and v > 50
    ]
    print("over target:", "; ".join(over + desktop) or "none")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1, help="cold loads of each lesson in each profile")
    parser.add_argument("--lesson", action="append", help="only this lesson (its slug); repeatable")
    parser.add_argument("--no-network", action="store_true", help="skip the slow-network profile (minutes)")
    parser.add_argument("--profile", action="append", choices=list(PROFILES), help="only this profile; repeatable")
    parser.add_argument("--lighthouse", action="store_true", help="also run Lighthouse's mobile profile")
    parser.add_argument("--lighthouse-only", action="store_true", help="only the Lighthouse runs")
    parser.add_argument("--site", type=Path, help="serve this site, built already, rather than build content/")
    parser.add_argument(
        "--baseline",
        type=Path,
        action="append",
        default=[],
        help="a site built by another version, timed in the same run, interleaved; repeatable",
    )
    args = parser.parse_args()

    slugs = [slug_of(p) for p in sorted((ROOT / "content").glob("*.md")) if p.stem != "index"]
    if args.lesson:
        slugs = [s for s in slugs if s in args.lesson]
    profiles = [p for p in PROFILES if not (args.no_network and "net" in p) and p in (args.profile or PROFILES)]
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "_site"
        if not args.site:
            build_site(ROOT / "content", site)
        servers, versions = serve_versions(site, args.baseline, serve)  # (label, site folder, its address)
        if not args.lighthouse_only:
            results: dict[tuple[str, str], list[dict]] = {}
            with sync_playwright() as p:
                launch = benchmark_launch()
                browser = p.chromium.launch(**launch)
                print(
                    f"browser: {launch.get('executable_path', 'Playwright’s Chromium')} {browser.version}", flush=True
                )
                for slug in slugs:
                    for _ in range(args.runs):
                        # interleaved: a noisy moment of a shared machine spreads over every row
                        for label, folder, address in versions:
                            for profile in profiles:
                                row = load(browser, folder, address + f"{slug}.html", profile)
                                results.setdefault((slug + label, profile), []).append(row)
                                print(
                                    f"  {slug}{label} {profile}: first frame {row['frame'] or 0:.0f} ms, live "
                                    f"{row['live']:.0f} ms, longest {row['longest']:.0f} ms, TBT {row['tbt']:.0f} ms",
                                    file=sys.stderr,
                                    flush=True,
                                )
                browser.close()
            print(f"{args.runs} cold load(s) a lesson and profile; medians")
            print_table(results, [slug + label for slug in slugs for label, _, _ in versions], profiles)
        if args.lighthouse or args.lighthouse_only:
            rows: dict[str, dict] = {}
            for slug in slugs:
                for label, _, address in versions:
                    try:
                        rows[slug + label] = lighthouse(address + f"{slug}.html", Path(tmp))
                    except (RuntimeError, subprocess.TimeoutExpired) as err:
                        rows[slug + label] = {"error": str(err)}
                    print(f"  lighthouse {slug}{label}: {rows[slug + label]}", file=sys.stderr, flush=True)
            print_lighthouse(rows)
        for server in servers:
            server.shutdown()


if __name__ == "__main__":
    main()
