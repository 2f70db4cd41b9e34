"""Where a lesson's main-thread time goes before it is live: each long task, and what is in it.

Builds content/ (or takes ``--site``), serves it gzip-compressed as bench_phone.py does,
and loads one lesson cold in Chromium, traced (the ``toplevel`` and ``devtools.timeline``
categories, with the stacks of layouts a script forced). For each load it prints every
main-thread task from navigation start to live that took at least ``--min`` ms of wall
time, its thread time beside it (a task whose wall time is far above its thread time was
waiting for a core), and the events inside it that took longest:

- Layout, with the layout objects it had to lay out (``dirty``) of those in the page;
- UpdateLayoutTree (style), with the elements it restyled;
- scripts: the file and function of a timer, a frame callback, an idle callback;
- Paint, PrePaint, Layerize and the rest, by name;

then, over every load, the main thread's thread time before live by kind of work: what
to make cheaper, and (run before and after a change, with ``--baseline`` interleaved)
whether it did get cheaper. Nothing here is a pass or fail: bench_phone.py holds the bars.

Profiles as bench_phone.py's: ``--profile "phone 4x"`` (the default: 390 px, device scale
2, the main thread slowed 4 times), ``--profile "phone, CPU x4"`` (the phone unslowed,
for thread times at 1x) or ``--profile desktop``. Slowed, the thread time of a task is
not its work times 4: the throttle's pauses are spent on the CPU too (bench_phone.py).

Usage: python benchmarks/bench_tasks.py --lesson attention-heatmap [--runs 2] [--min 50]
       [--profile "phone, CPU x4"] [--site DIR] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

from bench_lifecycle import LIVE, SETTLE_MS  # noqa: E402
from bench_phone import PROFILES, serve  # noqa: E402
from conftest import benchmark_launch  # noqa: E402
from sites import serve_versions  # noqa: E402

from explorables.site_builder.commands.build import build_site  # noqa: E402

CATEGORIES = [
    "toplevel",
    "devtools.timeline",
    "blink.user_timing",
    "disabled-by-default-devtools.timeline.stack",
]
TASKS = ("ThreadControllerImpl::RunTask", "RunTask")
MARK = "explorables:first-frame"
SCRIPTED = {"TimerFire", "FireAnimationFrame", "FireIdleCallback", "FunctionCall", "EvaluateScript", "EventDispatch"}
# the outermost events of a task that say what kind of work it did (for the totals)
RENDERING = {"Layout", "UpdateLayoutTree", "Paint", "PrePaint", "Layerize", "Commit"}
KINDS = SCRIPTED | RENDERING | {"ParseHTML", "RunMicrotasks"}
SHOWN = 8  # events printed inside each long task


def trace(browser, address: str, profile: str) -> tuple[list[dict], dict]:
    """One cold load of ``address`` in ``profile``, traced until live: (the trace's
    events, bench_lifecycle.py's LIVE figures)."""
    options, slowdown, _ = PROFILES[profile]
    context = browser.new_context(**options)
    page = context.new_page()
    page.goto("about:blank")
    page.wait_for_timeout(SETTLE_MS)
    if slowdown != 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    browser.start_tracing(page=page, categories=CATEGORIES)
    page.goto(address, timeout=600_000)
    live = page.evaluate(LIVE)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    context.close()
    return events, live


def main_thread(events: list[dict], live: dict) -> tuple[list[dict], float] | None:
    """The page's main thread's complete events before live, and the trace time (µs) of
    navigation start; None without the first-frame mark (it says which thread is the page's)."""
    mark = next((e for e in events if e.get("name") == MARK), None)
    if mark is None or live.get("frame") is None:
        return None
    origin = mark["ts"] - live["frame"] * 1000
    end = origin + live["ready"] * 1000
    thread = (mark["pid"], mark["tid"])
    own = [
        e
        for e in events
        if e.get("ph") == "X" and (e["pid"], e["tid"]) == thread and "dur" in e and origin <= e["ts"] < end
    ]
    own.sort(key=lambda e: (e["ts"], -e["dur"]))
    return own, origin


def outermost(events: list[dict], names) -> list[dict]:
    """Of ``events`` (sorted by start), those named in ``names`` not inside another such."""
    found, until = [], 0.0
    for e in events:
        if e["name"] in names and e["ts"] >= until:
            found.append(e)
            until = e["ts"] + e["dur"]
    return found


def described(e: dict) -> str:
    """One event inside a task, in a line: its time, name and what it worked on."""
    args = e.get("args") or {}
    data = args.get("data") or {}
    what = ""
    if e["name"] == "Layout":
        begin = args.get("beginData") or {}
        what = f"{begin.get('dirtyObjects')} of {begin.get('totalObjects')} objects"
        stack = begin.get("stackTrace") or []
        calls = [f"{f.get('functionName') or '?'}:{f.get('lineNumber')}" for f in stack[:3]]
        if calls:
            what += ", forced by " + " < ".join(calls)
    elif e["name"] == "UpdateLayoutTree":
        what = f"{args.get('elementCount', '?')} elements"
    elif e["name"] in SCRIPTED:
        url = (data.get("url") or "").rsplit("/", 1)[-1]
        what = " ".join(filter(None, [data.get("type"), url, data.get("functionName")]))
    return f"{e['dur'] / 1000:7.1f} ms  {e['name']:<18} {what}"


def report(events: list[dict], origin: float, least: float) -> None:
    """Print the long tasks of one load (main_thread's events)."""
    for task in outermost(events, TASKS):
        wall = task["dur"] / 1000
        if wall < least:
            continue
        cpu = task.get("tdur", 0) / 1000
        print(f"  task at {(task['ts'] - origin) / 1000:6.0f} ms: {wall:6.1f} ms wall, {cpu:6.1f} ms thread time")
        inside = [
            e
            for e in events
            if e is not task
            and e["name"] not in TASKS
            and task["ts"] <= e["ts"]
            and e["ts"] + e["dur"] <= task["ts"] + task["dur"]
            and e["dur"] >= 500
        ]
        for e in sorted(inside, key=lambda e: -e["dur"])[:SHOWN]:
            print("     " + described(e))


def kinds(events: list[dict]) -> Counter:
    """Thread time (ms) by kind of work, each outermost event counted once."""
    spent: Counter = Counter()
    for e in outermost(events, KINDS):
        spent[e["name"]] += e.get("tdur", e["dur"]) / 1000
    spent["all tasks"] = sum(t.get("tdur", t["dur"]) for t in outermost(events, TASKS)) / 1000
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lesson", default="attention-heatmap", help="the lesson's slug")
    parser.add_argument("--runs", type=int, default=2, help="cold loads of each site")
    parser.add_argument("--min", type=float, default=50, help="print the tasks of at least this many ms")
    parser.add_argument("--profile", default="phone 4x", choices=[p for p in PROFILES if "net" not in p])
    parser.add_argument("--site", type=Path, help="serve this site, built already, rather than build content/")
    parser.add_argument(
        "--baseline", type=Path, action="append", default=[], help="a site another version built, interleaved"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "_site"
        if not args.site:
            build_site(ROOT / "content", site)
        servers, versions = serve_versions(site, args.baseline, serve)
        totals: dict[str, Counter] = {label: Counter() for label, _, _ in versions}
        loads: Counter = Counter()
        with sync_playwright() as p:
            browser = p.chromium.launch(**benchmark_launch())
            for run in range(args.runs):
                for label, _, address in versions:
                    events, live = trace(browser, address + f"{args.lesson}.html", args.profile)
                    found = main_thread(events, live)
                    print(
                        f"{args.lesson}{label}, {args.profile}, load {run + 1}: first frame {live['frame'] or 0:.0f} ms,"
                        f" live {live['ready']:.0f} ms"
                    )
                    if found is None:
                        print("  (no first-frame mark: the page's thread is not known)")
                        continue
                    report(*found, args.min)
                    totals[label] += kinds(found[0])
                    loads[label] += 1
            browser.close()
        for server in servers:
            server.shutdown()
    print(f"\nmain thread's thread time before live, ms, mean of {args.runs} load(s) ({args.profile})")
    names = sorted({n for spent in totals.values() for n in spent}, key=lambda n: -totals[""][n])
    labels = [label for label, _, _ in versions]
    print(f"{'':<20}" + "".join(f"{(label.strip(' ()') or 'this version'):>16}" for label in labels))
    for name in names:
        cells = "".join(f"{totals[label][name] / max(1, loads[label]):>16.1f}" for label in labels)
        print(f"{name:<20}{cells}")


if __name__ == "__main__":
    main()
