"""How fast a lesson page comes alive, in headless Chromium on this machine.

Builds content/, serves it on 127.0.0.1 and, for each run in a fresh browser context
(cold HTTP cache), measures:
- first frame: navigation start -> every figure drawn from its build-time scene;
- ready: navigation start -> window.explorables.ready (Pyodide and the engine live);
- main thread blocked: the sum of long tasks (> 50 ms) before ready, and the longest;
- one round trip: update({...}) -> recomputed and redrawn, median of 40;
- a drag: 60 pointer moves on a key, time until the last one is drawn.

Usage: python benchmarks/bench_page_load.py [--runs 3] [--page one-query-row.html]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import benchmark_launch, serve_folder  # noqa: E402
from sites import lesson_args, timed_build  # noqa: E402

LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
  .observe({ type: "longtask", buffered: true });
"""


def main() -> None:
    args = lesson_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        build_s = timed_build(Path(tmp) / "_site")
        server = serve_folder(Path(tmp) / "_site")
        url = f"http://127.0.0.1:{server.server_address[1]}/{args.page}"
        rows = []
        with sync_playwright() as p:
            launch = benchmark_launch()
            browser = p.chromium.launch(**launch)
            for run in range(args.runs):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.add_init_script(LONG_TASKS)
                page.goto(url)
                first = page.evaluate("() => performance.now()")  # scripts ran: first frames are drawn
                result = page.evaluate(
                    """async () => { await window.explorables.ready;
                        const ready = performance.now();
                        const blocked = window.__longTasks.reduce((a, b) => a + b, 0);
                        return { ready, blocked, longest: Math.max(0, ...window.__longTasks),
                                 timings: window.explorables.client.timings }; }"""
                )
                fig = page.evaluate("() => Object.keys(window.explorables.figures)[0]")
                # One round trip: the figure's first slider moved between its ends (else a menu).
                trips = page.evaluate(
                    """async id => { const f = window.explorables.figures[id]; const out = [];
                        const s = f.scene.controls.find(c => c.kind === 'slider');
                        const menu = f.scene.controls.find(c => c.kind === 'select');  // no slider: a menu
                        for (let i = 0; i < 40; i++) { const t = performance.now();
                          let patch;
                          if (s) { const v = s.min + (s.max - s.min) * (i % 10) / 10;
                                   patch = {[s.name]: s.step >= 1 ? Math.round(v) : v}; }
                          else patch = {[menu.name]: menu.options[i % menu.options.length].value};
                          await f.update(patch); out.push(performance.now() - t); }
                        return out; }""",
                    fig,
                )
                # A drag: 60 moves of the first draggable point of any plane, if there is one.
                drag = page.evaluate(
                    """async id => { const f = window.explorables.figures[id];
                        const marks = f.scene.panels.flatMap(p => p.marks || []);
                        const m = marks.find(k => k.kind === 'point' && k.draggable);
                        if (!m) return null;
                        const t = performance.now(); const all = [];
                        for (let i = 0; i < 60; i++) all.push(f.send({type: 'drag', mark: m.id, x: m.x + i / 200, y: m.y}));
                        await Promise.all(all); await f.idle(); return performance.now() - t; }""",
                    fig,
                )
                rows.append(
                    (
                        first,
                        result["ready"],
                        result["blocked"],
                        result["longest"],
                        statistics.median(trips),
                        drag,
                        result["timings"],
                    )
                )
                context.close()
            browser.close()
        server.shutdown()

    print(f"build of content/: {build_s * 1000:.0f} ms")
    print(f"page: {args.page}, {args.runs} cold runs (fresh context each)")
    print(
        f"{'run':>3} {'first frame':>12} {'ready':>9} {'blocked':>9} {'longest':>9} {'round trip':>11} {'60 drags':>9}"
    )
    for i, (first, ready, blocked, longest, trip, drag, _) in enumerate(rows, 1):
        drag_text = f"{drag:>6.0f} ms" if drag is not None else "     —"
        print(
            f"{i:>3} {first:>9.0f} ms {ready:>6.0f} ms {blocked:>6.0f} ms {longest:>6.0f} ms "
            f"{trip:>8.2f} ms {drag_text}"
        )
    timings = rows[-1][6]
    print(
        f"in the worker (last run): loadPyodide {timings['worker']['pyodide']:.0f} ms, "
        f"engine unpack+import {timings['worker']['engine']:.0f} ms"
    )


if __name__ == "__main__":
    main()
