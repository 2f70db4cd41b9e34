"""A large site's pages are parsed and rendered in a pool of processes (commands/
parallel.py): the site it writes is the one a build in one process writes, byte for byte,
and an author's mistake is reported alike."""
from __future__ import annotations

from pathlib import Path

import pytest
from pygments.lexers.python import PythonLexer

from explorables.site_builder.commands import parallel
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output import search
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


def test_a_pool_writes_the_site_one_process_writes(tmp_path, monkeypatch):
    content = site(tmp_path)
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 10**9)
    build_site(content, tmp_path / "serial")
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 0)
    monkeypatch.setattr(parallel, "workers", lambda: 3)
    # as in a fresh process: Pygments makes a lexer's rules on its class's first instance
    monkeypatch.delattr(PythonLexer, "_tokens", raising=False)
    used = []
    real = parallel._run
    monkeypatch.setattr(parallel, "_run", lambda *args: used.append(args[2]) or real(*args))
    search._sections_of.cache_clear()
    fed = []
    real_feed = search._feed
    monkeypatch.setattr(search, "_feed", lambda parser, html: fed.append(html) or real_feed(parser, html))
    build_site(content, tmp_path / "pooled")
    assert used == [3, 3]  # the pages were parsed, then rendered, in three processes
    assert fed == []  # the search index took each body's sections from the worker that rendered it
    serial, pooled = tree(tmp_path / "serial"), tree(tmp_path / "pooled")
    assert len(serial) > 40
    assert sorted(set(serial) ^ set(pooled)) == []
    assert [name for name in serial if serial[name] != pooled[name]] == []


def test_a_mistake_found_in_a_worker_is_reported_at_its_line(tmp_path, monkeypatch):
    content = site(tmp_path)
    (content / "basics" / "10-part-0.md").write_text("---\ntitle: Broken\n---\nText.\n\n:::{attention-row} x\n:nope: 1\n:::\n")
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 10**9)
    with pytest.raises(BuildError) as serial:
        build_site(content, tmp_path / "serial")
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 0)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    with pytest.raises(BuildError) as pooled:
        build_site(content, tmp_path / "pooled")
    assert "content/basics/10-part-0.md:7:" in str(serial.value)
    assert str(pooled.value) == str(serial.value)
