"""The page lifecycle, lesson by lesson, against bare Pyodide (issue 10's table).

Builds content/, serves it on 127.0.0.1 and drives one headless Chromium. For every
lesson, in fresh browser contexts (cold HTTP cache), interleaved with the anchor:

- bare: a page that only starts ``loadPyodide`` in a module worker (the site's own copy
  of Pyodide), navigation start -> Pyodide answers; timed in the same browser run;
- live: navigation start -> ``explorables.ready``; the ratio live / bare is the row;
- next: on a live lesson, a click on "Next" -> every figure of the next lesson live and
  one update answered (a swap on the running engine). The click comes as soon as the
  lesson is live, while the page is still fetching the next lesson ahead and the worker
  importing its figures; "read next" clicks it after 3 s on the lesson (on the "new
  window" load, once settled), when both are done and the next figures drawn once, as
  for a reader who reads any of the lesson;
- longest task: the longest main-thread task (PerformanceObserver "longtask") before ready;
- first frame bytes: every HTML, CSS, JS and font file the page asked for before the
  runtime marked its first frame drawn (``explorables:first-frame``; Pyodide, the
  engine archive and the worker's script that loads them excluded), gzip-compressed as
  GitHub Pages serves them (woff2 as is: it is compressed already), the uncompressed
  size beside it;
- serve: ``explorables serve`` on a copy of content/, the lesson's text edited ->
  the new text visible, and its figures live again (the rebuild is started at once, the
  server's 0.5 s polling is not counted).

The machine may be shared and noisy: compare the ratios within one run.

What no page could do better (the ``floors`` table), timed in the same run:

- engine alone: the lesson's own worker and "init" message (its figures, the next
  lesson's) started from a page with nothing else in it, navigation start -> the
  worker's "ready": Python, the engine and the lesson's figures imported, with no page
  drawn beside them. Its ratio to bare is the least the live row's can be without
  making Python itself start faster (``--snapshot``);
- longest task, no script: the lesson's HTML with its scripts taken out, the longest
  main-thread task of its first second (parsing, styling and laying the page out
  once): the least the longest-task row can be for that page on this machine.

Where the start's time goes (the ``start`` table): when the page made its worker
(``explorables.client.started``, ms after navigation start), when the worker's script
began to run and when it took the page's "init" message (the worker's own clock, placed
on the page's), and the worker's own timings (``explorables.client.timings.worker``):
Python up, then the engine imported.

With ``--baseline DIR`` a site built by another version (e.g. ``explorables build
content DIR`` with the installed release) is served too and its lessons timed in the same
run, interleaved with this version's: its rows are marked ``(baseline)`` (with several
``--baseline``, by their folders' names).

Every load is cold: a new browser context (an empty HTTP cache), whose first page is
left on ``about:blank`` for a second before it is sent to the address, as a reader's
window is open before the lesson is. The whole of Chromium starts a renderer for its
address bar's popup with each new context, about 0.3 s of JavaScript on a 2-core machine;
a page sent to its address at once shares the cores with it, and its tasks take two to
three times their CPU time. The ``new window`` column times the longest task that way
too: a lesson opened at once in a new context.

The browser is the whole of Chromium (``/usr/bin/chromium``), as readers have it; set
``EXPLORABLES_CHROMIUM=/usr/bin/chromium-headless-shell`` to time the headless shell.

With ``--snapshot`` the site is built with ``snapshot: true`` (site_builder/snapshot.py):
the live and next rows then start Python from the memory snapshot.

Usage: python benchmarks/bench_lifecycle.py [--runs 3] [--lesson one-query-row] [--snapshot]
       [--baseline DIR]
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bare import write_bare  # noqa: E402
from conftest import benchmark_launch  # noqa: E402
from lifecycle_scripts import ENGINE_HTML, FIGURES_LIVE, FIRST_FRAME, FIRST_FRAME_TYPES, LIVE, LONG_TASKS, NEXT, STILL  # noqa: E402
from sites import serve_versions  # noqa: E402

from explorables.site_builder.commands.build import build_site, slug_of  # noqa: E402
from explorables.site_builder.output.assets import PYODIDE  # noqa: E402
from explorables.site_builder.pyodide.release import ensure_pyodide  # noqa: E402

BUDGET_BYTES = 60 * 1024
SETTLE_MS = 1000  # a new context's first page on about:blank, before the address
READ_MS = 3000  # "read next": how long the reader stays on a live lesson before Next


def first_frame_bytes(site: Path, urls: list[str]) -> tuple[int, int]:
    """(gzip-compressed, uncompressed) bytes of the files behind ``urls``."""
    packed = raw = 0
    for url in urls:
        path = urlparse(url).path.lstrip("/") or "index.html"
        data = (site / path).read_bytes()
        raw += len(data)
        packed += len(data) if path.endswith(".woff2") else len(gzip.compress(data, 6))
    return packed, raw


def excluded(url: str) -> bool:
    # the worker's script is the engine's loader, asked for by the engine's start as
    # Pyodide is, beside the first frame and not needed to draw it
    return (
        "/pyodide/" in url
        or re.search(r"/engine\.[0-9a-f]{8}\.zip$", url)
        or re.search(r"/js/worker\.[0-9a-f]{8}\.js$", url)
        or "__bare" in url
        or "__livereload" in url
    )


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value, unit="ms", width=8, digits=0):
    if value is None:
        return f"{'—':>{width}}"
    return f"{value:>{width - len(unit) - 1}.{digits}f} {unit}"


def table(title: str | None, columns: str) -> None:
    """A table's title (after a blank line) and head: the lesson, then ``columns``."""
    if title:
        print()
        print(title)
    head = f"{'lesson':<33} {columns}"
    print(head)
    print("-" * len(head))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3, help="cold loads of each lesson, and as many bare ones")
    parser.add_argument("--lesson", action="append", help="only this lesson (its slug); repeatable")
    parser.add_argument("--no-serve", action="store_true", help="skip the serve row")
    parser.add_argument(
        "--baseline",
        type=Path,
        action="append",
        default=[],
        help="a site built by another version, timed in the same run for comparison; repeatable",
    )
    parser.add_argument(
        "--snapshot",
        action="store_true",
        help="build content/ with `snapshot: true` (Python restored from a memory snapshot)",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from explorables.site_builder.commands.serve import DevServer

    slugs = [slug_of(p) for p in sorted((ROOT / "content").glob("*.md")) if p.stem != "index"]
    if args.lesson:
        slugs = [s for s in slugs if s in args.lesson]

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        content = ROOT / "content"
        if args.snapshot:
            content = Path(tmp) / "content"
            shutil.copytree(ROOT / "content", content)
            config = content / "site.yml"
            config.write_text(config.read_text(encoding="utf-8") + "snapshot: true\n", encoding="utf-8")
        result = build_site(content, site)
        if args.snapshot and [w for w in result.warnings if "snapshot" in w]:
            sys.exit("no snapshot was made: " + "; ".join(result.warnings))
        write_bare(site, f"_explorables/{PYODIDE}")
        # the anchor is Pyodide as published, its own standard library (sources only)
        shutil.copy2(ensure_pyodide() / "python_stdlib.zip", site / "_explorables" / PYODIDE / "python_stdlib.zip")
        for slug in slugs:  # a lesson with no figure nor exercise starts no engine: no floor to time
            html = (site / f"{slug}.html").read_text(encoding="utf-8")
            manifest = re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html, re.S)
            words = re.search(r'<script type="application/json" id="ex-words">(.*?)</script>', html, re.S)
            if '"engine": {' in manifest.group(1):
                (site / f"__engine_{slug}.html").write_text(
                    ENGINE_HTML.replace("MANIFEST", manifest.group(1)).replace("WORDS", words.group(1)),
                    encoding="utf-8",
                )
            (site / f"__still_{slug}.html").write_text(
                re.sub(r"<script\b[^>]*\bsrc=[^>]*></script>", "", html), encoding="utf-8"
            )
        servers, versions = serve_versions(site, args.baseline)  # (label, site folder, its address)
        base = versions[0][2]
        rows: dict[str, dict] = {}
        bare: list[float] = []
        floors: dict[str, dict] = {}
        launch = benchmark_launch()
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch)
            print(f"browser: {launch.get('executable_path', 'Playwright’s Chromium')} {browser.version}", flush=True)

            def cold(url, init=None, settled=True):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                if settled:  # the window open before the lesson is (see the docstring)
                    page.goto("about:blank")
                    page.wait_for_timeout(SETTLE_MS)
                if init:
                    page.add_init_script(init)
                fetched: list[str] = []
                page.on(
                    "request",
                    lambda r: (
                        fetched.append(r.url) if r.resource_type in FIRST_FRAME_TYPES and not excluded(r.url) else None
                    ),
                )
                page.goto(url)
                return context, page, fetched

            for slug in slugs:
                for _ in range(args.runs):
                    context, page, _ = cold(base + "__bare.html")
                    bare.append(page.evaluate("() => window.__bare"))
                    context.close()
                    floor = floors.setdefault(slug, {"engine": [], "still": []})
                    if (site / f"__engine_{slug}.html").exists():
                        context, page, _ = cold(base + f"__engine_{slug}.html")
                        floor["engine"].append(page.evaluate("() => window.__engine"))
                        context.close()
                    context, page, _ = cold(base + f"__still_{slug}.html", LONG_TASKS)
                    floor["still"].append(page.evaluate(STILL))
                    context.close()
                    for label, folder, address in versions:
                        row = rows.setdefault(
                            slug + label,
                            {
                                "live": [],
                                "longest": [],
                                "new window": [],
                                "next": [],
                                "next, read": [],
                                "bytes": None,
                                "started": [],
                                "ran": [],
                                "began": [],
                                "pyodide": [],
                                "engine": [],
                                "frame": [],
                            },
                        )
                        context, page, fetched = cold(address + f"{slug}.html", LONG_TASKS)
                        result = page.evaluate(LIVE)
                        row["live"].append(result["ready"])
                        row["longest"].append(result["longest"])
                        for key in ("started", "ran", "began", "pyodide", "engine", "frame"):
                            row[key].append(result.get(key))
                        # what was asked for before the runtime marked its first frame drawn
                        # (later scripts, the search index and the like come after it)
                        before = set(page.evaluate(FIRST_FRAME))
                        row["bytes"] = first_frame_bytes(
                            folder, sorted({u for u in fetched if u in before or u == page.url})
                        )
                        page.evaluate("() => { window.__sameDocument = true; }")
                        nxt = page.evaluate(NEXT)
                        if nxt is not None:
                            row["next"].append(nxt["ms"] if nxt["same"] else None)
                            row.setdefault("full_loads", 0)
                            row["full_loads"] += 0 if nxt["same"] else 1
                        context.close()
                        context, page, _ = cold(address + f"{slug}.html", LONG_TASKS, settled=False)
                        row["new window"].append(page.evaluate(LIVE)["longest"])
                        page.wait_for_timeout(READ_MS)  # the reader reads a little, then goes on
                        page.evaluate("() => { window.__sameDocument = true; }")
                        nxt = page.evaluate(NEXT)
                        if nxt is not None:
                            row["next, read"].append(nxt["ms"] if nxt["same"] else None)
                        context.close()
                for label, _, _ in versions:
                    row = rows[slug + label]
                    print(
                        f"  {slug}{label}: live {[round(v) for v in row['live']]} ms, bare so far "
                        f"{median(bare):.0f} ms, next {[round(v) if v else v for v in row['next']]} ms",
                        file=sys.stderr,
                        flush=True,
                    )

            if not args.no_serve:
                content = Path(tmp) / "content"
                shutil.copytree(ROOT / "content", content)
                dev = DevServer(content, port=0)
                try:
                    if not dev.start():
                        raise RuntimeError("serve could not build content/")
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    for n, slug in enumerate(slugs):
                        source = next(p for p in content.glob("*.md") if slug_of(p) == slug)
                        page.goto(dev.url + f"{slug}.html")
                        page.evaluate(LIVE)
                        page.wait_for_function("() => document.documentElement.dataset.livereload === 'open'")
                        marker = f"Edited for the benchmark, number {n}."
                        started = time.perf_counter()
                        source.write_text(source.read_text() + f"\n{marker}\n")
                        if not dev.check():
                            raise RuntimeError("the edit did not rebuild")
                        page.locator("main", has_text=marker).wait_for(timeout=60000)
                        text_s = time.perf_counter() - started
                        page.wait_for_function(FIGURES_LIVE, timeout=60000)
                        page.evaluate(
                            "async () => { const f = Object.values(window.explorables.figures)[0]; "
                            "if (f) await f.update({}); }"
                        )
                        live_s = time.perf_counter() - started
                        rows[slug]["serve"] = (text_s, live_s)
                    context.close()
                except Exception as err:
                    print(f"serve row failed: {type(err).__name__}: {err}", file=sys.stderr)
                finally:
                    dev.stop()
            browser.close()
        for server in servers:
            server.shutdown()

    anchor = median(bare)
    print(
        f"bare loadPyodide in a module worker: median {anchor:.0f} ms of {len(bare)} cold loads "
        f"(min {min(bare):.0f}, max {max(bare):.0f})"
    )
    print(f"{args.runs} cold loads a lesson; ratio = median live / median bare (target <= 1.0)")
    print()
    table(
        None,
        f"{'live':>8} {'ratio':>6} {'next':>8} {'read next':>9} {'longest':>8} {'new window':>10} "
        f"{'1st frame gz':>12} {'raw':>8} {'serve text':>10} {'serve live':>10}",
    )
    for slug, row in rows.items():
        live = median(row["live"])
        packed, raw = row["bytes"]
        serve = row.get("serve")
        print(
            f"{slug:<33} {fmt(live)} {live / anchor:>6.2f} {fmt(median(row['next']))} "
            f"{fmt(median(row['next, read']), width=9)} "
            f"{fmt(median(row['longest']))} {fmt(median(row['new window']), width=10)} {packed / 1024:>9.1f} KB {raw / 1024:>5.0f} KB "
            f"{fmt(serve[0] if serve else None, 's', 10, 2)} {fmt(serve[1] if serve else None, 's', 10, 2)}"
            + ("  (Next loaded a new document)" if row.get("full_loads") else "")
        )
    table(
        "start: worker made, its script running, its init message taken and first frame drawn (ms after "
        "navigation start); in the worker, Python up, then the engine imported",
        f"{'worker made':>11} {'script ran':>10} {'init':>8} {'1st frame':>10} {'python':>8} {'engine':>8}",
    )
    for slug, row in rows.items():
        print(
            f"{slug:<33} {fmt(median(row['started']), width=11)} {fmt(median(row['ran']), width=10)} "
            f"{fmt(median(row['began']))} {fmt(median(row['frame']), width=10)} "
            f"{fmt(median(row['pyodide']))} {fmt(median(row['engine']))}"
        )
    table(
        "floors: the lesson's worker alone, from an empty page (navigation start -> ready), and the "
        "longest task of the lesson's page with its scripts taken out",
        f"{'engine alone':>12} {'ratio':>6} {'longest, no script':>18}",
    )
    for slug, floor in floors.items():
        alone = median(floor["engine"])
        ratio = f"{alone / anchor:>6.2f}" if alone else f"{'—':>6}"
        print(f"{slug:<33} {fmt(alone, width=12)} {ratio} {fmt(median(floor['still']), width=18)}")
    print()
    print(
        "targets: ratio <= 1.0; next <= 200 ms; longest task < 50 ms; first frame <= 60 KB gzip; "
        "serve text <= 1 s, live <= 1.5 s"
    )
    over = [s for s, r in rows.items() if r["bytes"][0] > BUDGET_BYTES]
    print(f"first frame over {BUDGET_BYTES // 1024} KB gzip: {', '.join(over) if over else 'none'}")


if __name__ == "__main__":
    main()
