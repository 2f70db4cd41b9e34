"""What a new user waits for, on this machine: the wheel, the install, `new`, the first build.

Builds the wheel from the checkout's tracked files, installs it into a fresh venv
outside the checkout (pip fetches the dependencies), then times `explorables new` and
the first `explorables build` of the new site (Pyodide from the per-user cache). Prints
the wheel's size and the line count of the sample figure too.

Usage: python benchmarks/bench_install.py
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_install import _tracked_copy  # noqa: E402


def timed(args, cwd) -> float:
    started = time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        source = _tracked_copy(tmp / "source")
        took_wheel = timed([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w",
                            str(tmp / "dist")], tmp)
        (wheel,) = (tmp / "dist").glob("*.whl")
        wheel_name, wheel_size = wheel.name, wheel.stat().st_size
        took_venv = timed([sys.executable, "-m", "venv", "--without-pip", str(tmp / "venv")], tmp)
        took_install = timed([sys.executable, "-m", "pip", "--python", str(tmp / "venv" / "bin" / "python"),
                              "install", "-q", str(wheel)], tmp)
        bin_dir = tmp / "venv" / "bin"
        took_new = timed([bin_dir / "explorables", "new", "my-lessons"], tmp)
        took_build = timed([bin_dir / "explorables", "build"], tmp / "my-lessons")
        took_again = timed([bin_dir / "explorables", "build"], tmp / "my-lessons")
        sample = (tmp / "my-lessons" / "figures" / "softmax_bars.py").read_text().splitlines()
    print(f"wheel:                  {wheel_name}, {wheel_size / 1024:.0f} KiB, built in {took_wheel:.1f} s")
    print(f"fresh venv + install:   {took_venv + took_install:.1f} s (pip fetching the dependencies)")
    print(f"explorables new:        {took_new:.2f} s")
    print(f"first build:            {took_build:.2f} s (Pyodide from the cache); again: {took_again:.2f} s")
    print(f"new -> first build:     {took_new + took_build:.2f} s")
    print(f"sample figure:          {len(sample)} lines")


if __name__ == "__main__":
    main()
