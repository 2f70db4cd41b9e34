"""What drawing an answer costs the page's main thread, figure by figure.

Builds content/, serves it on 127.0.0.1 and opens every lesson in one headless Chromium.
Once the lesson is live and quiet, each figure draws two scenes in turn, many times:
its own scene, and a copy in which every cell's tone and text and every number of a bar
have changed (as a new answer changes them). Timed per redraw: ``render`` and the layout
it leaves to do (``document.body.offsetHeight``), the median printed, for

- changed: every redraw draws the other scene;
- same: the scene drawn again unchanged (what an answer that changes nothing costs).

The engine's own time is not in it (bench_page_load.py times a whole round trip).

With ``--baseline DIR`` a site built by another version is timed in the same run,
interleaved with this one: compare the two within one run, as the machine may be shared
and noisy.

Usage: python benchmarks/bench_redraw.py [--rounds 3] [--redraws 60] [--baseline DIR]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import benchmark_launch, serve_folder  # noqa: E402
from explorables.site_builder.commands.build import build_site, slug_of  # noqa: E402

QUIET_MS = 1500  # after live: the whole scene asked for once idle has come and been drawn

REDRAWS = """async ([id, redraws, changed]) => {
  const figure = window.explorables.figures[id];
  await figure.idle();
  const own = figure.scene;
  const other = JSON.parse(JSON.stringify(own));
  // another answer: every tone and text of a cell, every bar's value, changed
  (other.panels || []).forEach(panel => {
    (panel.rows || []).forEach(row => row.forEach(cell => {
      if (typeof cell.tone === "number") cell.tone = cell.tone * 0.9;
      if (typeof cell.text === "string") cell.text = cell.text + "0";
    }));
    (panel.bars || []).forEach(bar => { if (typeof bar.value === "number") bar.value = bar.value * 0.9; });
  });
  const times = [];
  for (let i = 0; i < redraws; i++) {
    const scene = changed && i % 2 ? other : own;
    const start = performance.now();
    figure.render(scene);
    void document.body.offsetHeight;  // the layout the redraw left to do
    times.push(performance.now() - start);
  }
  figure.render(own);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3, help="times each lesson is opened anew")
    parser.add_argument("--redraws", type=int, default=60, help="redraws a figure, a round")
    parser.add_argument("--baseline", type=Path, action="append", default=[],
                        help="a site built by another version, timed in the same run; repeatable")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    slugs = [slug_of(p) for p in sorted((ROOT / "content").glob("*.md")) if p.stem != "index"]
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        build_site(ROOT / "content", site)
        versions = [("", site)] + [
            (" (baseline)" if len(args.baseline) == 1 else f" ({folder.name})", folder) for folder in args.baseline]
        servers = [serve_folder(folder) for _, folder in versions]
        bases = [f"http://127.0.0.1:{s.server_address[1]}/" for s in servers]
        found: dict[tuple[str, str], dict[str, list[float]]] = {}
        launch = benchmark_launch()
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch)
            print(f"browser: {launch.get('executable_path', 'Playwright’s Chromium')} {browser.version}", flush=True)
            for _ in range(args.rounds):
                for (label, _), base in zip(versions, bases):
                    page = browser.new_page(viewport={"width": 1280, "height": 900})
                    for slug in slugs:
                        page.goto(base + f"{slug}.html")
                        page.evaluate("() => window.explorables.ready")
                        page.wait_for_timeout(QUIET_MS)
                        for figure in page.evaluate("() => Object.keys(window.explorables.figures)"):
                            row = found.setdefault((f"{slug} {figure}", label), {"changed": [], "same": []})
                            row["changed"].append(page.evaluate(REDRAWS, [figure, args.redraws, True]))
                            row["same"].append(page.evaluate(REDRAWS, [figure, args.redraws, False]))
                    page.close()
            browser.close()
        for server in servers:
            server.shutdown()

    print(f"\nmedian redraw of a figure (render and layout), {args.rounds} rounds of {args.redraws}")
    print(f"{'figure':44s} {'changed':>9s} {'same':>9s}   each round (changed)")
    print("-" * 90)
    for name in dict.fromkeys(name for name, _ in found):  # lesson order, each version under the last
        for label, _ in versions:
            row = found[(name, label)]
            print(f"{(name + label):44s} {statistics.median(row['changed']):6.1f} ms "
                  f"{statistics.median(row['same']):6.1f} ms   {[round(v, 1) for v in row['changed']]}")


if __name__ == "__main__":
    main()
