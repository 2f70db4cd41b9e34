"""The sites a benchmark times: content/ built (and how long that took), and this
version's site served beside the sites other versions built, so that one run times them
all, interleaved."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import serve_folder  # noqa: E402

from explorables.site_builder.commands.build import build_site  # noqa: E402


def lesson_args() -> argparse.Namespace:
    """The options of a benchmark that loads one lesson a few times: --runs and --page."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--page", default="one-query-row.html")
    return parser.parse_args()


def timed_build(out: Path) -> float:
    """Build content/ into ``out``: the seconds it took."""
    started = time.perf_counter()
    build_site(ROOT / "content", out)
    return time.perf_counter() - started


def serve_versions(site: Path, baselines: list[Path], serve: Callable = serve_folder) -> tuple[list, list]:
    """Serve ``site`` and each baseline (a site another version built) on 127.0.0.1 with
    ``serve``: (the servers, to shut down, and a (label, folder, address) a site, this
    version's first with the label "")."""
    servers = [serve(site)]
    versions = [("", site, f"http://127.0.0.1:{servers[0].server_address[1]}/")]
    for folder in baselines:
        servers.append(serve(folder))
        label = " (baseline)" if len(baselines) == 1 else f" ({folder.name})"
        versions.append((label, folder, f"http://127.0.0.1:{servers[-1].server_address[1]}/"))
    return servers, versions
