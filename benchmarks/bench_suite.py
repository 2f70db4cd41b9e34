"""Where the test suite's time goes: the CPU of every process it starts, by kind, and the
browser work of each test file.

Runs pytest (by default the browser tests, as the README's command runs them: ``-n auto
--dist loadfile``) and, while it runs, reads every process's CPU time from /proc a few
times a second. It prints:

- the CPU time of the run by kind of process: Chromium's renderers (pages and their
  workers, Pyodide in them), its browser, GPU and network processes, Python (pytest, the
  test servers, builds), Node (Playwright's driver, Pyodide under Node), the rest; in
  core-seconds, the run's wall time beside them. On a 2-core machine a suite bound by
  its CPU takes the total divided by two, whatever its tests wait for;
- the CPU time of each test file: what its worker's process and everything it started
  (its Chromium, the servers and builds of its tests) used while the file ran. A test
  file runs on one worker from start to end (``--dist loadfile``), so this is the file's
  own cost, however busy the other workers kept the machine;
- for each test file, what its tests asked of the browser (tests/conftest.py writes it,
  and each test's start, when EXPLORABLES_SUITE_LOG names a file): the contexts opened,
  the documents loaded (a page opened or reloaded, a frame's page; a lesson swapped in
  place is not one), and the starts of Pyodide (its wasm received, from the server or
  the cache).
  A lesson loaded until live costs about 1.2 core-seconds in the tests' browser, most of
  it Pyodide's start; the same page with Python held back, about 0.25.

Nothing here passes or fails: it says where to look before making the suite faster.
Compare two versions in one hour (a shared machine's load swings by half).

Usage: python benchmarks/bench_suite.py [--top 25] [-- PYTEST ARGS]
       python benchmarks/bench_suite.py -- tests/browser/test_axe.py
"""

from __future__ import annotations

import argparse
import bisect
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ARGS = ["tests/browser", "-q", "-n", "auto", "--dist", "loadfile", "-p", "no:cacheprovider"]
TICK = os.sysconf("SC_CLK_TCK")


def kind_of(name: str, argv: list[bytes]) -> str:
    """What a process is, from its name and command line."""
    if argv and b"chrom" in argv[0]:
        flags = dict(a.split(b"=", 1) for a in argv if a.startswith(b"--") and b"=" in a)
        kind = flags.get(b"--utility-sub-type") or flags.get(b"--type") or b"browser"
        return "chromium " + kind.decode(errors="replace").replace("network.mojom.NetworkService", "network")
    if argv and b"node" in argv[0]:
        return "node (Playwright's driver)" if any(b"playwright" in a for a in argv) else "node"
    if argv and b"python" in argv[0]:
        return "python"
    return "other: " + name


def processes() -> dict[tuple[str, str], tuple[str, float, int]]:
    """Every process now: (pid, start time) -> (kind, CPU seconds so far, parent's pid)."""
    seen = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
                raw = f.read()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                # a Chromium child rewrites its command line as one string with spaces
                argv = f.read().replace(b" ", b"\0").split(b"\0")
        except OSError:
            continue
        name = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw.rsplit(")", 1)[1].split()
        seen[(pid, fields[19])] = (kind_of(name, argv), (int(fields[11]) + int(fields[12])) / TICK, int(fields[1]))
    return seen


def owner(pid: int, parents: dict[int, int], top: int) -> int | None:
    """The child of ``top`` (pytest) that ``pid`` descends from, or is: the worker whose
    test started it (its browser's processes, its servers, a build); ``top`` without workers."""
    seen = 0
    while pid and seen < 64:
        parent = parents.get(pid)
        if pid == top or parent == top:
            return pid
        pid, seen = parent or 0, seen + 1
    return None


class Run:
    """pytest run once, watched: ``cpu`` (core-seconds by kind of process), ``wall``,
    ``code`` (pytest's exit code), ``pid`` (pytest's) and ``ticks``: for each reading,
    its time and the CPU seconds each of pytest's children (its workers) used since the last."""

    def __init__(self, pytest_args: list[str], log: Path):
        before = processes()
        last = {key: (kind, seconds) for key, (kind, seconds, _) in before.items()}
        env = {**os.environ, "EXPLORABLES_SUITE_LOG": str(log)}
        started = time.perf_counter()
        pytest = subprocess.Popen([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, env=env)
        self.pid, self.ticks = pytest.pid, []
        while pytest.poll() is None:
            now, spent = processes(), Counter()
            parents = {int(pid): parent for (pid, _), (_, _, parent) in now.items()}
            for key, (kind, seconds, _) in now.items():
                used = seconds - last.get(key, (kind, 0.0))[1]
                # a process that has ended has no command line left: it keeps the kind it had
                last[key] = (last[key][0] if key in last else kind, seconds)
                worker = owner(int(key[0]), parents, self.pid) if used > 0 else None
                if worker:
                    spent[worker] += used
            self.ticks.append((time.time(), spent))
            time.sleep(0.25)
        self.wall, self.code = time.perf_counter() - started, pytest.returncode
        self.cpu: Counter = Counter()
        for key, (kind, seconds) in last.items():
            self.cpu[kind] += seconds - (before[key][1] if key in before else 0.0)

    def by_file(self, starts: list[tuple[str, int, float]]) -> Counter:
        """The CPU seconds spent while each test file ran, by its worker and what that
        started: ``starts`` are (test, worker's pid, time) as each test started."""
        timelines: dict[int, list[tuple[float, str]]] = defaultdict(list)
        for test, pid, at in starts:
            timelines[pid].append((at, test.split("::")[0]))
        for line in timelines.values():
            line.sort()
        spent: Counter = Counter()
        for at, used in self.ticks:
            for pid, seconds in used.items():
                line = timelines.get(pid, [])
                i = bisect.bisect_right(line, (at, "\uffff")) - 1
                if i >= 0:
                    spent[line[i][1]] += seconds
                elif pid == self.pid:
                    spent["(pytest's own process: collection, the workers' reports)"] += seconds
                else:
                    spent["(a worker before its first test: its start and collection)"] += seconds
        return spent


def read_log(log: Path, pytest_pid: int) -> tuple[dict[str, Counter], list[tuple[str, int, float]]]:
    """What tests/conftest.py wrote: the browser work of each test file, and each test's
    start (its worker and the time; xdist's controller says each start again: left out)."""
    files: dict[str, Counter] = defaultdict(Counter)
    starts = []
    for line in log.read_text(encoding="utf-8").splitlines() if log.exists() else []:
        test, _, kind = line.partition("\t")
        if kind.startswith("start "):
            _, pid, at = kind.split()
            starts.append((test, int(pid), float(at)))
        else:
            files[test.split("::")[0]][kind] += 1
    if any(pid != pytest_pid for _, pid, _ in starts):
        starts = [start for start in starts if start[1] != pytest_pid]
    return files, starts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="test files to list in each table")
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments (default: the browser tests)")
    args = parser.parse_args()
    pytest_args = args.pytest_args or DEFAULT_ARGS
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "suite.tsv"
        run = Run(pytest_args, log)
        files, starts = read_log(log, run.pid)
    total = sum(v for v in run.cpu.values() if v > 0)
    print(f"pytest {' '.join(pytest_args)}: exit {run.code}, {run.wall:.0f} s wall")
    print(f"\nCPU by kind of process: {total:.0f} core-seconds ({total / run.wall:.2f} cores busy on average)")
    for kind, seconds in run.cpu.most_common():
        if seconds >= total / 400:
            print(f"  {seconds:8.1f} core-s  {100 * seconds / total:4.0f} %  {kind}")

    spent = run.by_file(starts)
    print(f"\nCPU by test file (its worker's processes while it ran): {sum(spent.values()):.0f} core-seconds")
    for name, seconds in spent.most_common(args.top):
        print(f"  {seconds:8.1f} core-s  {name}")

    totals = sum(files.values(), Counter())
    print(
        f"\nbrowser work: {totals['context']} contexts, {totals['document']} documents, "
        f"{totals['engine']} starts of Pyodide, in {len(files)} files"
    )
    print(f"{'engine':>8} {'documents':>10} {'contexts':>9}  test file")
    ranked = sorted(files.items(), key=lambda item: (-item[1]["engine"], -item[1]["document"], item[0]))
    for name, counts in ranked[: args.top]:
        print(f"{counts['engine']:8} {counts['document']:10} {counts['context']:9}  {name}")
    return run.code


if __name__ == "__main__":
    sys.exit(main())
