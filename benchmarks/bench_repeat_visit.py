"""A repeat visit from the service worker's cache, against a first visit and bare Pyodide
(issue 35, section 1).

Builds a site (the starter's lessons and figure by default, or ``--content``), serves it
on 127.0.0.1 with a plain static server, and in one headless Chromium, interleaved, in a
fresh browser context each round (cold HTTP cache):

- bare: a page that only runs ``loadPyodide`` in a module worker (the anchor of
  bench_lifecycle.py), from a second server on another port, so that no service worker
  answers it;
- first: the lesson's first visit, navigation start -> ``explorables.ready``, with
  service workers allowed; then the time until the footer says "available offline"
  (the whole site cached, after the lesson is live and the page idle);
- second, third: the same lesson in a new tab of that context, answered by the
  worker's cache (the third also by the compiled WebAssembly Chromium keeps beside a
  cached response once it has compiled it from there);
- fourth, offline: the same again with the network off;
- and as a baseline, in another context that blocks service workers: a first visit
  (the first visit must not get slower), a second and a third from the HTTP cache alone.

Prints each measure's median in ms and its ratio to bare, the issue's yardstick (live /
bare: a first visit was about 0.5; a repeat visit should be under it, and the first must
not grow). The machine may be shared and noisy: compare figures within one run.

Usage: python benchmarks/bench_repeat_visit.py [--runs 5] [--content PATH] [--lesson one-query-row]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bare import write_bare  # noqa: E402
from conftest import benchmark_launch, serve_folder  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from explorables.site_builder.commands.build import build_site  # noqa: E402
from explorables.site_builder.output.assets import PYODIDE  # noqa: E402
from explorables.site_builder.pyodide.release import ensure_pyodide  # noqa: E402

LIVE = "() => window.explorables.ready.then(() => performance.now())"
MEASURES = (
    "bare",
    "first",
    "offline note",
    "second",
    "third",
    "fourth, offline",
    "first, no worker",
    "second, HTTP cache",
    "third, HTTP cache",
)


def site_folder(tmp: Path, content: Path | None) -> Path:
    """The site to build: ``content`` (its site.yml beside or inside it), or the starter."""
    if content is not None:
        return content
    site = tmp / "starter"
    for part in ("content", "figures"):
        shutil.copytree(ROOT / "site_builder" / "starter" / part, site / part)
    (site / "site.yml").write_text('title: "Starter"\n', encoding="utf-8")
    return site / "content"


def bare_folder(tmp: Path) -> Path:
    """Pyodide as published (its own standard library) beside the bare page."""
    folder = tmp / "bare"
    shutil.copytree(ensure_pyodide(), folder / "pyodide")
    write_bare(folder, "pyodide/")
    return folder


def visit(context, url: str) -> tuple:
    page = context.new_page()
    page.goto(url)
    return page, page.evaluate(LIVE)


def with_worker(browser, lesson: str, times: dict[str, float]) -> None:
    context = browser.new_context(service_workers="allow")
    page, times["first"] = visit(context, lesson)
    page.locator(".ex-offline").wait_for(timeout=120_000)
    times["offline note"] = page.evaluate("() => performance.now()")
    page.close()
    for name in ("second", "third"):
        page, times[name] = visit(context, lesson)
        page.close()
    context.set_offline(True)
    page, times["fourth, offline"] = visit(context, lesson)
    context.close()


def without_worker(browser, lesson: str, times: dict[str, float]) -> None:
    context = browser.new_context(service_workers="block")
    for name in ("first, no worker", "second, HTTP cache", "third, HTTP cache"):
        page, times[name] = visit(context, lesson)
        page.wait_for_timeout(1000)  # its files in the HTTP cache, its prefetches done
        page.close()
    context.close()


def round_of(browser, lesson: str, bare_url: str, run: int) -> dict[str, float]:
    """One of each measure; the two sites' contexts in turn first (every other round), a
    second's pause before each: the browser's work after a load weighs on the next."""
    times: dict[str, float] = {}
    context = browser.new_context()
    page = context.new_page()
    page.goto(bare_url)
    times["bare"] = page.evaluate("() => window.__bare")
    context.close()
    for measure in (with_worker, without_worker) if run % 2 == 0 else (without_worker, with_worker):
        time.sleep(1)
        measure(browser, lesson, times)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="rounds, each of every measure")
    parser.add_argument("--content", type=Path, default=None, help="a site's content folder (default: the starter)")
    parser.add_argument("--lesson", default="one-query-row", help="the lesson's page, without .html")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        content = site_folder(Path(tmp), args.content)
        out = Path(tmp) / "_site"
        build_site(content, out)
        total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        files = sum(1 for p in out.rglob("*") if p.is_file())
        server, bare = serve_folder(out), serve_folder(bare_folder(Path(tmp)))
        lesson = f"http://127.0.0.1:{server.server_address[1]}/{args.lesson}.html"
        bare_url = f"http://127.0.0.1:{bare.server_address[1]}/__bare.html"
        rows: dict[str, list[float]] = {name: [] for name in MEASURES}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(**benchmark_launch())
                for run in range(args.runs):
                    times = round_of(browser, lesson, bare_url, run)
                    for name, value in times.items():
                        rows[name].append(value)
                    shown = ", ".join(f"{name} {times[name]:.0f}" for name in MEASURES)
                    print(f"  round {run + 1}: {shown}", flush=True)
                browser.close()
        finally:
            server.shutdown()
            bare.shutdown()
    anchor = statistics.median(rows["bare"])
    print(
        f"\nsite: {files} files, {total / 1e6:.1f} MB cached by the worker; lesson {args.lesson}.html; "
        f"Pyodide {PYODIDE.split('/')[1]}; {args.runs} rounds, medians"
    )
    print(f"{'measure':<22}{'ms':>8}{'/ bare':>9}   (min, max)")
    for name in MEASURES:
        values = rows[name]
        median = statistics.median(values)
        print(f"{name:<22}{median:>8.0f}{median / anchor:>9.2f}   ({min(values):.0f}, {max(values):.0f})")
    print("first, offline note: navigation start -> live, -> the whole site cached and said so;")
    print("second, third, fourth: new tabs of the same browser, from the worker's cache (the fourth offline).")


if __name__ == "__main__":
    main()
