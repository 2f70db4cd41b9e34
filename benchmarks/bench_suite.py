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
- for each test file, what its tests asked of the browser (tests/conftest.py writes it
  when EXPLORABLES_SUITE_LOG names a file): the browser contexts opened, the documents
  loaded (a page opened or reloaded, a frame's page; a lesson swapped in place is not
  one), and the starts of Pyodide (its wasm received, from the server or the cache).
  A lesson loaded until live costs about 1.2 core-seconds in the tests' browser, most of
  it Pyodide's start; the same page with Python held back, about 0.25.

Nothing here passes or fails: it says where to look before making the suite faster.
Compare two versions in one hour (a shared machine's load swings by half).

Usage: python benchmarks/bench_suite.py [--top 25] [-- PYTEST ARGS]
       python benchmarks/bench_suite.py -- tests/browser/test_axe.py
"""

from __future__ import annotations

import argparse
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


def processes() -> dict[tuple[str, str], tuple[str, float]]:
    """Every process now: (pid, start time) -> (kind, CPU seconds so far)."""
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
        seen[(pid, fields[19])] = (kind_of(name, argv), (int(fields[11]) + int(fields[12])) / TICK)
    return seen


def run(pytest_args: list[str], log: Path) -> tuple[Counter, float, int]:
    """The CPU seconds of each kind of process started or running during the run, its
    wall time and pytest's exit code."""
    before = processes()
    last = dict(before)
    env = {**os.environ, "EXPLORABLES_SUITE_LOG": str(log)}
    started = time.perf_counter()
    pytest = subprocess.Popen([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, env=env)
    while pytest.poll() is None:
        for key, (kind, seconds) in processes().items():
            # a process that has ended has no command line left: it keeps the kind it had
            last[key] = (last[key][0] if key in last else kind, seconds)
        time.sleep(0.25)
    wall = time.perf_counter() - started
    cpu: Counter = Counter()
    for key, (kind, seconds) in last.items():
        cpu[kind] += seconds - (before[key][1] if key in before else 0.0)
    return cpu, wall, pytest.returncode


def by_file(log: Path) -> dict[str, Counter]:
    files: dict[str, Counter] = defaultdict(Counter)
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            test, _, kind = line.partition("\t")
            files[test.split("::")[0]][kind] += 1
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="test files to list, most engine starts first")
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments (default: the browser tests)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "browser-work.tsv"
        cpu, wall, code = run(args.pytest_args or DEFAULT_ARGS, log)
        files = by_file(log)
    total = sum(v for v in cpu.values() if v > 0)
    print(f"pytest {' '.join(args.pytest_args or DEFAULT_ARGS)}: exit {code}, {wall:.0f} s wall")
    print(f"\nCPU by kind of process: {total:.0f} core-seconds ({total / wall:.2f} cores busy on average)")
    for kind, seconds in cpu.most_common():
        if seconds >= 0.05 * total / 20:
            print(f"  {seconds:8.1f} core-s  {100 * seconds / total:4.0f} %  {kind}")
    totals = sum(files.values(), Counter())
    print(
        f"\nbrowser work: {totals['context']} contexts, {totals['document']} documents, "
        f"{totals['engine']} starts of Pyodide, in {len(files)} files"
    )
    print(f"{'engine':>8} {'documents':>10} {'contexts':>9}  test file")
    ranked = sorted(files.items(), key=lambda item: (-item[1]["engine"], -item[1]["document"], item[0]))
    for name, counts in ranked[: args.top]:
        print(f"{counts['engine']:8} {counts['document']:10} {counts['context']:9}  {name}")
    return code


if __name__ == "__main__":
    sys.exit(main())
