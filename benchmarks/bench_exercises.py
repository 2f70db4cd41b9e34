"""Exercises answered by the engine: how long a fresh problem and a check take.

- CPython: ``runtime.handle`` for a problem ("New numbers") and for a check, per type;
- browser: the same requests sent through the page's engine client to Pyodide in its
  worker, on a served build of content/ in headless Chromium, after the engine is live
  (the round trip a reader waits for after a click).

Each figure is the median of the runs, in milliseconds.

Usage: python benchmarks/bench_exercises.py [--runs 30]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import benchmark_launch, serve_folder  # noqa: E402
from explorables.engine import runtime  # noqa: E402
from explorables.engine.exercises import EXERCISES  # noqa: E402
from explorables.site_builder.commands.build import build_site  # noqa: E402

ANSWERS = {"scaled-score": "0.5", "softmax-weight": "0.3", "output-vector": "(0.1, 0.2)"}

IN_PAGE = """async ([name, answer, runs]) => {
  const c = window.explorables.client, problem = [], check = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await c.exercise({exercise: name, seed: 1000 + i, language: "en"});
    problem.push(performance.now() - t);
    t = performance.now();
    await c.exercise({exercise: name, seed: 1000 + i, language: "en", answer: answer});
    check.push(performance.now() - t);
  }
  const median = a => a.sort((x, y) => x - y)[a.length >> 1];
  return {problem: median(problem), check: median(check)};
}"""


def cpython(name: str, runs: int) -> tuple[float, float]:
    problem, check = [], []
    for i in range(runs):
        t = time.perf_counter()
        runtime.handle(json.dumps({"exercise": name, "seed": 1000 + i}))
        problem.append(time.perf_counter() - t)
        t = time.perf_counter()
        runtime.handle(json.dumps({"exercise": name, "seed": 1000 + i, "answer": ANSWERS[name]}))
        check.append(time.perf_counter() - t)
    return 1000 * statistics.median(problem), 1000 * statistics.median(check)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        build_site(ROOT / "content", Path(tmp) / "_site")
        server = serve_folder(Path(tmp) / "_site")
        url = f"http://127.0.0.1:{server.server_address[1]}/attention-heatmap.html"
        with sync_playwright() as p:
            browser = p.chromium.launch(**benchmark_launch())
            page = browser.new_page()
            page.goto(url)
            page.evaluate("() => window.explorables.ready")
            print(f"{'type':<16} {'CPython problem':>16} {'check':>8} {'Pyodide problem':>16} {'check':>8}   (ms)")
            for name in EXERCISES:
                cp, cc = cpython(name, args.runs)
                live = page.evaluate(IN_PAGE, [name, ANSWERS[name], args.runs])
                print(f"{name:<16} {cp:>16.3f} {cc:>8.3f} {live['problem']:>16.1f} {live['check']:>8.1f}")
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
