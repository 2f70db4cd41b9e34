"""What one answer of the engine costs, figure by figure, in CPython and in Pyodide.

Every figure of the track, from its default options, answers an empty patch (the whole
scene computed anew, as for any change of the reader's) through ``runtime.handle``, the
worker's own entry point (JSON text in, JSON text out), two ways:

- lean: without the cells' arithmetic, as the page asks while the reader looks at none;
- whole: with it.

Timed in this checkout's CPython, and in Pyodide under Node from the engine archive of a
site built from content/ (the site's own standard library beside it, as the worker loads
them). The median of ``--repeat`` answers, after one to warm up, in milliseconds; and
the answer's size in bytes.

With ``--baseline DIR`` (a site built by another version, e.g. ``explorables build
content DIR`` with the installed release) that site's engine archive is timed in Pyodide
too, alternately with this one's: compare the two within one run, as the machine may be
shared and noisy.

Usage: python benchmarks/bench_steps.py [--repeat 15] [--rounds 2] [--baseline DIR]
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from explorables.site_builder.commands.build import build_site  # noqa: E402
from explorables.site_builder.pyodide.release import ensure_pyodide  # noqa: E402

# Runs inside Pyodide (tests/node/run_archive.mjs imports it beside the engine) and in
# CPython alike: main(inputs) -> {figure: {"lean": [ms...], "whole": [ms...], "bytes": {...}}}
TIMER = '''
import importlib
import json
import time


def main(inputs):
    import explorables.engine.figures as figures
    from explorables.engine import runtime

    for module in figures.modules():  # the worker imports them on demand
        importlib.import_module(f"{figures.__name__}.{module}")
    names = inputs.get("figures") or sorted(figures.FIGURES)
    out = {}
    for name in names:
        model = figures.load(name)
        state = model.initial_state(model.parse_options({}))
        row = {"bytes": {}}
        for way, lean in (("lean", True), ("whole", False)):
            message = json.dumps({"figure": name, "state": state, "event": {"type": "patch", "patch": {}},
                                  "lean": lean})
            answer = runtime.handle(message)  # the first answer warms the figure's code up
            assert json.loads(answer)["ok"], answer[:300]
            times = []
            for _ in range(inputs["repeat"]):
                start = time.perf_counter()
                runtime.handle(message)
                times.append((time.perf_counter() - start) * 1000)
            row[way] = times
            row["bytes"][way] = len(answer.encode())
        out[name] = row
    return out
'''


def engine_archive(site: Path) -> tuple[Path, Path | None]:
    assets = site / "_explorables"
    engine = sorted(assets.glob("engine.*.zip"))
    if not engine:
        sys.exit(f"{site} holds no _explorables/engine.*.zip: is it a built site?")
    stdlib = sorted(assets.glob("stdlib.*.zip"))
    return engine[0], stdlib[0] if stdlib else None


def in_pyodide(site: Path, work: Path, repeat: int) -> dict:
    node = shutil.which("node")
    if not node:
        sys.exit("node is needed to run Pyodide (Node 18 or later)")
    engine, stdlib = engine_archive(site)
    (work / "step_timer.py").write_text(TIMER)
    (work / "inputs.json").write_text(json.dumps({"repeat": repeat}))
    command = [node, str(ROOT / "tests" / "node" / "run_archive.mjs"), str(ensure_pyodide()), str(engine),
               str(work / "step_timer.py"), str(work / "inputs.json")]
    if stdlib:
        command.append(stdlib.as_uri())
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if run.returncode:
        sys.exit(f"Pyodide failed:\n{run.stderr[-2000:]}")
    return json.loads(run.stdout)


def in_cpython(repeat: int) -> dict:
    space: dict = {}
    exec(compile(TIMER, "step_timer", "exec"), space)
    return space["main"]({"repeat": repeat})


def merge(into: dict, more: dict) -> None:
    for name, row in more.items():
        mine = into.setdefault(name, {"lean": [], "whole": [], "bytes": row["bytes"]})
        mine["lean"] += row["lean"]
        mine["whole"] += row["whole"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15, help="answers timed, a figure and way, a round")
    parser.add_argument("--rounds", type=int, default=2, help="Pyodide runs of each archive, alternating")
    parser.add_argument("--baseline", type=Path, help="a site built by another version")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        site = work / "site"
        started = time.perf_counter()
        build_site(ROOT / "content", site)
        print(f"built content/ in {time.perf_counter() - started:.1f} s")
        rows: dict[str, dict] = {"cpython": {}, "pyodide": {}, "pyodide (baseline)": {}}
        merge(rows["cpython"], in_cpython(args.repeat))
        for _ in range(args.rounds):
            merge(rows["pyodide"], in_pyodide(site, work, args.repeat))
            if args.baseline:
                merge(rows["pyodide (baseline)"], in_pyodide(args.baseline, work, args.repeat))

    print(f"\nmedian ms an answer ({args.repeat} answers x {args.rounds} rounds in Pyodide), and its size")
    print(f"{'figure':<22} {'engine':<20} {'lean':>7} {'whole':>7} {'lean B':>8} {'whole B':>8}")
    for name in sorted(rows["cpython"]):
        for label, table in rows.items():
            row = table.get(name)
            if not row:
                continue
            print(f"{name:<22} {label:<20} {statistics.median(row['lean']):>7.1f} "
                  f"{statistics.median(row['whole']):>7.1f} {row['bytes']['lean']:>8} {row['bytes']['whole']:>8}")


if __name__ == "__main__":
    main()
