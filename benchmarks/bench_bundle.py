"""An offline bundle against the served site, in headless Chromium on this machine.

Builds content/ twice in one run: as a site served on 127.0.0.1 and as a bundle
unzipped to a temporary folder and opened from disk (file://). For each run, in a fresh
browser context, it times the lesson page to window.explorables.ready, then (bundle
only) a click on "Next" to the next lesson's figure answering an update() on the running
engine. Ratios are of medians taken in the same run, so a busy machine shifts both.

Before that, making the bundle: ``bundle_site`` timed (wall and this process's CPU) as
many times as ``--runs``, each time with the deflated form of Pyodide that the cache keeps
(output/zipped.py) and, interleaved, with it deleted first: made anew, as on a machine's
first bundle of a Pyodide release.

Usage: python benchmarks/bench_bundle.py [--runs 3] [--page one-query-row.html]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import benchmark_launch, serve_folder  # noqa: E402
from explorables.site_builder.commands.bundle import bundle_site  # noqa: E402
from explorables.site_builder.pyodide.release import cache_dir  # noqa: E402
from sites import lesson_args, timed_build  # noqa: E402

READY = "() => window.explorables.ready.then(() => window.explorables.client.timings.total)"
NEXT = """async () => {
  const t0 = performance.now();
  document.querySelector('a[rel=next]').click();
  const figure = Object.values(window.explorables.figures)[0];
  await figure.update({});
  return performance.now() - t0;
}"""


def made(content: Path, target: Path, anew: bool) -> tuple[float, float]:
    """(wall, CPU) seconds of one bundle; with ``anew``, the kept deflated files deleted first."""
    if anew:
        shutil.rmtree(cache_dir() / "deflated", ignore_errors=True)
    wall, cpu = time.perf_counter(), time.process_time()
    bundle_site(content, target)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    args = lesson_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        built = timed_build(tmp / "site")
        started = time.perf_counter()
        result = bundle_site(ROOT / "content", tmp / "bundle.zip")
        bundled = time.perf_counter() - started
        making: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(args.runs):
            for anew in (True, False):
                making[anew].append(made(ROOT / "content", tmp / "again.zip", anew))
        with zipfile.ZipFile(result.path) as archive:
            archive.extractall(tmp / "unzipped")
        (folder,) = (tmp / "unzipped").iterdir()
        server = serve_folder(tmp / "site")
        served_url = f"http://127.0.0.1:{server.server_address[1]}/{args.page}"
        disk_url = (folder / args.page).as_uri()
        served, disk, nexts = [], [], []
        with sync_playwright() as p:
            launch = benchmark_launch()
            browser = p.chromium.launch(**launch)
            for _ in range(args.runs):
                for url, into in ((served_url, served), (disk_url, disk)):
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(url)
                    into.append(page.evaluate(READY))
                    if into is disk:
                        nexts.append(page.evaluate(NEXT))
                    context.close()
            browser.close()
        server.shutdown()
    print(f"build {built:.2f} s; bundle {bundled:.2f} s, {result.bytes / 1e6:.1f} MB zip")
    for anew, label in ((True, "Pyodide deflated anew"), (False, "Pyodide's deflated form kept")):
        walls, cpus = [w for w, _ in making[anew]], [c for _, c in making[anew]]
        print(f"bundle, {label:28} {statistics.median(walls):5.2f} s wall, {statistics.median(cpus):5.2f} s CPU "
              f"(median of {len(walls)})")
    print(f"{'':32} {'median':>9} {'min':>9} {'max':>9}")
    for name, xs in (
        ("served: ready (ms)", served),
        ("bundle from disk: ready (ms)", disk),
        ("bundle: Next -> figure answers", nexts),
    ):
        print(f"{name:32} {statistics.median(xs):9.0f} {min(xs):9.0f} {max(xs):9.0f}")
    print(f"ratio disk / served ready: {statistics.median(disk) / statistics.median(served):.2f}")


if __name__ == "__main__":
    main()
