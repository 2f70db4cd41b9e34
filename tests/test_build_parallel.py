"""A large site's pages are parsed and rendered in a pool of processes (commands/
parallel.py): the site it writes is the one a build in one process writes, byte for byte,
and an author's mistake is reported alike."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from explorables.site_builder.commands import parallel
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from sections_site import make_site

MATH = ("---\ntitle: Part {n}\norder: {n}\n---\n## Scores\n\nWith $q_{n} \\cdot k$ and\n\n$$\na_{{ij}} = {n}\n$$\n\n"
        "```python\ndef score(q, k):\n    return q @ k  # part {n}\n```\n")


def site(folder: Path) -> Path:
    """The sections site, with lessons of formulas enough to fill a pool's workers."""
    content = make_site(folder)
    for n in range(12):
        (content / "basics" / f"{n + 10:02d}-part-{n}.md").write_text(MATH.format(n=n))
    return content


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# A build in a process of its own, as `explorables build` runs: one thread, so it may fork
# its pool (a test runner's process has threads of its own, and is never forked). It
# says how many processes parsed and rendered, how often the search index read a body's
# HTML again, and the build's error if any.
POOLED = """
import json, sys
from pathlib import Path
from explorables.site_builder.commands import parallel
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output import search_sections
parallel.SERIAL_BELOW = 0
parallel.workers = lambda: int(sys.argv[3])
used, fed = [], []
real, real_feed = parallel._run, search_sections._feed
parallel._run = lambda *args: used.append(args[2]) or real(*args)
search_sections._feed = lambda parser, html: fed.append(html) or real_feed(parser, html)
try:
    build_site(Path(sys.argv[1]), Path(sys.argv[2]))
    error = None
except BuildError as err:
    error = str(err)
print(json.dumps({"used": used, "fed": len(fed), "error": error}))
"""


def pooled(content: Path, out: Path, workers: int) -> dict:
    done = subprocess.run([sys.executable, "-c", POOLED, str(content), str(out), str(workers)],
                          capture_output=True, text=True, timeout=300, cwd=content.parent)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_pool_writes_the_site_one_process_writes(tmp_path, monkeypatch):
    content = site(tmp_path)
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 10**9)
    build_site(content, tmp_path / "serial")
    run = pooled(content, tmp_path / "pooled", 3)
    assert run["used"] == [3, 3]  # the pages were parsed, then rendered, in three processes
    assert run["fed"] == 0  # the search index took each body's sections from the worker that rendered it
    serial, pooled_tree = tree(tmp_path / "serial"), tree(tmp_path / "pooled")
    assert len(serial) > 40
    assert sorted(set(serial) ^ set(pooled_tree)) == []
    assert [name for name in serial if serial[name] != pooled_tree[name]] == []


def test_a_mistake_found_in_a_worker_is_reported_at_its_line(tmp_path, monkeypatch):
    content = site(tmp_path)
    (content / "basics" / "10-part-0.md").write_text("---\ntitle: Broken\n---\nText.\n\n:::{attention-row} x\n:nope: 1\n:::\n")
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 10**9)
    with pytest.raises(BuildError) as serial:
        build_site(content, tmp_path / "serial")
    run = pooled(content, tmp_path / "pooled", 2)
    assert run["used"] and set(run["used"]) == {2}  # the pool found it
    assert "content/basics/10-part-0.md:7:" in str(serial.value)
    assert run["error"] == str(serial.value)


def test_a_process_with_other_threads_builds_in_its_own(tmp_path, monkeypatch):
    """Forking a process while another of its threads holds a lock leaves that lock held
    in the child for ever: `serve`, whose server answers in threads, builds in its own."""
    content = site(tmp_path)
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 0)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    used = []
    real = parallel._run
    monkeypatch.setattr(parallel, "_run", lambda *args: used.append(args[2]) or real(*args))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        build_site(content, tmp_path / "out")
    finally:
        stop.set()
        other.join()
    assert used == []
    assert (tmp_path / "out" / "index.html").is_file()
