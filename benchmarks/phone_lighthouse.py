"""Lighthouse's mobile profile on a lesson, for bench_phone.py's ``--lighthouse``: the npm
``lighthouse`` package (12.2.3: 13 wants Node 22), installed on first use into
benchmarks/node_modules from benchmarks/package.json (a benchmark tool: CI does not),
driving Debian's Chromium with simulated throttling."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import CHROMIUM_FLAGS, benchmark_launch

HERE = Path(__file__).resolve().parent


def cell(value, width: int, unit: str = "ms", digits: int = 0, scale: float = 1) -> str:
    """A value right-aligned in ``width`` with its unit, "—" if None."""
    if value is None:
        return f"{'—':>{width}}"
    return f"{value / scale:>{width - len(unit) - 1},.{digits}f} {unit}"


LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
LIGHTHOUSE_FLAGS = ["--headless=new", *CHROMIUM_FLAGS]
AUDITS = (
    ("first-contentful-paint", "FCP"),
    ("largest-contentful-paint", "LCP"),
    ("speed-index", "SI"),
    ("total-blocking-time", "TBT"),
    ("interactive", "TTI"),
    ("cumulative-layout-shift", "CLS"),
)


def lighthouse_installed() -> Path:
    """benchmarks/node_modules/.bin/lighthouse, installed from benchmarks/package.json the
    first time."""
    if not LIGHTHOUSE.exists():
        npm = shutil.which("npm")
        if not npm:
            sys.exit("--lighthouse needs Node 18.16 or newer and npm")
        command = "ci" if (HERE / "package-lock.json").exists() else "install"
        print(f"installing Lighthouse: npm {command} --prefix benchmarks", file=sys.stderr, flush=True)
        subprocess.run([npm, command, "--no-audit", "--no-fund", "--prefix", str(HERE)], check=True)
    return LIGHTHOUSE


def lighthouse(url: str, out: Path) -> dict:
    """Lighthouse's mobile profile on ``url``: {"score", audit name: value}."""
    chrome = benchmark_launch().get("executable_path") or "/usr/bin/chromium"
    env = {**os.environ, "CHROME_PATH": chrome}
    report = out / "report.json"
    command = [
        str(lighthouse_installed()),
        url,
        "--only-categories=performance",
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        "--chrome-flags=" + " ".join(LIGHTHOUSE_FLAGS),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode or not report.exists():
        raise RuntimeError(f"lighthouse exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    data = json.loads(report.read_text(encoding="utf-8"))
    report.unlink()
    if data.get("runtimeError"):
        raise RuntimeError(f"lighthouse: {data['runtimeError'].get('message')}")
    row = {"score": data["categories"]["performance"]["score"]}
    for audit, name in AUDITS:
        row[name] = data["audits"].get(audit, {}).get("numericValue")
    return row


def print_lighthouse(rows: dict[str, dict]) -> None:
    print()
    print(
        "Lighthouse 12.2.3, mobile profile (simulated: 4x CPU, 150 ms, 1.6 Mbit/s), performance score and metrics (ms)"
    )
    head = f"{'lesson':<33} {'score':>6} " + " ".join(f"{name:>7}" for _, name in AUDITS)
    print(head)
    print("-" * len(head))
    for slug, row in rows.items():
        if "error" in row:
            print(f"{slug:<33} {row['error']}")
            continue
        values = [
            f"{row[name]:>7.3f}"
            if name == "CLS"
            else cell(row[name], 7, "", 0)[:-1].rjust(7)
            if row[name] is not None
            else f"{'—':>7}"
            for _, name in AUDITS
        ]
        print(f"{slug:<33} {row['score'] * 100:>6.0f} " + " ".join(values))
    print("target: score >= 90 on every lesson")
