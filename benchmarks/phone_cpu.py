"""A phone's main-thread tasks estimated from their CPU time, for bench_phone.py's profile
"phone, CPU x4": a load in the phone's viewport, not slowed, traced (Chromium's
``toplevel`` category), each main-thread task's thread time (the trace's ``tdur``)
multiplied by 4, as Lighthouse's simulated mobile profile multiplies what it observes.

Wall time on a shared machine swings 2-5 times from one load to the next (the renderer
waits for a core); a task's thread time hardly moves (two loads of the heatmap lesson:
193 and 181 ms of main-thread CPU before live, their wall times 597 and 942 ms), and
CPU throttling spends thread time of its own, so this profile is not throttled. It gives
the longest task and the total blocking time (each task's time over 50 ms, from first
contentful paint to live), both estimated; its first frame and live are measured, at 1x.
Beside them, the main thread's CPU time before live, not multiplied: the page's own work,
the figure to compare between versions.

Why not the throttled thread's own times: under ``Emulation.setCPUThrottlingRate`` at 4x
on this 2-core machine the main thread's thread time before live on the heatmap lesson
was 1,184-1,497 ms against 184-194 ms unthrottled (6-8 times, two loads each): the
throttle's pauses are spent on the CPU, where the engine's worker also runs.
"""

from __future__ import annotations

import json

CATEGORIES = ["toplevel", "blink.user_timing"]
TASKS = ("ThreadControllerImpl::RunTask", "RunTask")
MARK = "explorables:first-frame"


def start(browser, page) -> None:
    browser.start_tracing(page=page, categories=CATEGORIES)


def estimated(browser, fcp: float, ready: float, frame: float | None, slowdown: float) -> dict:
    """Stop the trace: {"longest", "tbt", "cpu"} of the page's main thread, each task's thread
    time times ``slowdown``, for tasks begun before ``ready`` (TBT: from ``fcp``; page
    times in ms). The first-frame mark, at ``frame``, says which thread is the page's and
    where its time starts; without it, {}."""
    events = json.loads(browser.stop_tracing())["traceEvents"]
    mark = next((e for e in events if e.get("name") == MARK), None)
    if mark is None or frame is None:
        return {}
    origin = mark["ts"] - frame * 1000  # the page's time 0, in the trace's microseconds
    tasks = []  # (start, phone ms), page time
    for e in events:
        if (
            e.get("ph") == "X"
            and e.get("name") in TASKS
            and "tdur" in e
            and (e["pid"], e["tid"])
            == (
                mark["pid"],
                mark["tid"],
            )
        ):
            at = (e["ts"] - origin) / 1000
            if 0 <= at < ready:
                tasks.append((at, e["tdur"] / 1000 * slowdown))
    blocking = sum(max(0.0, ms - 50) for at, ms in tasks if at + ms / slowdown > fcp)
    cpu = sum(ms for _, ms in tasks) / slowdown  # as measured, at 1x
    return {"longest": max((ms for _, ms in tasks), default=0.0), "tbt": blocking, "cpu": cpu}
