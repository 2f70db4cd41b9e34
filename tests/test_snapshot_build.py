"""`snapshot: true` in site.yml without a working Node: the build says why at the key's
line and goes on without a snapshot; serve's rebuilds never make one. (A real snapshot,
made with Node and restored in Chromium: tests/browser/test_snapshot_restore.py.)"""
from __future__ import annotations

import stat
from pathlib import Path

import pytest

from explorables.site_builder.pyodide import snapshot
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.build import build_site

LESSON = ":::{attention-row} explorer\n:::\n"


def site(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / "site.yml").write_text("title: Snap\nsnapshot: true\n", encoding="utf-8")
    (content / "01-a.md").write_text("# A\n\n" + LESSON, encoding="utf-8")
    return content


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """No snapshot made before (by another test or build) is found in the cache."""
    monkeypatch.setattr(snapshot, "cache_root", lambda: tmp_path / "snapshots")


def fake_node(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "node"
    script.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def test_without_node_the_build_warns_at_the_key_and_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "node", lambda: None)
    result = build_site(site(tmp_path), tmp_path / "_site")
    said = [w for w in result.warnings if "snapshot" in w]
    assert len(said) == 1 and said[0].startswith("content/site.yml:2:1: `snapshot: true` needs Node"), said
    assert "snapshot.bin" not in names_in(tmp_path / "_site")
    assert '"snapshot"' not in (tmp_path / "_site" / "a.html").read_text()
    assert '"engine"' in (tmp_path / "_site" / "a.html").read_text()


def test_a_node_that_fails_is_named_in_the_warning(tmp_path, monkeypatch):
    monkeypatch.setenv(snapshot.NODE_VAR, str(fake_node(tmp_path, 'echo "Error: out of memory" >&2; exit 3')))
    result = build_site(site(tmp_path), tmp_path / "_site")
    said = [w for w in result.warnings if "snapshot" in w]
    assert len(said) == 1 and "Node could not make the snapshot (Error: out of memory)" in said[0], said
    assert "install Node, or remove `snapshot: true`" in said[0]
    assert "snapshot.bin" not in names_in(tmp_path / "_site")


def test_serve_rebuilds_and_sites_without_the_key_never_start_node(tmp_path, monkeypatch):
    called = tmp_path / "called"
    monkeypatch.setenv(snapshot.NODE_VAR, str(fake_node(tmp_path, f'touch "{called}"; exit 1')))
    content = site(tmp_path)
    assert not build_site(content, tmp_path / "dev", dev=True).warnings
    (content / "site.yml").write_text("title: Snap\n", encoding="utf-8")
    assert not build_site(content, tmp_path / "plain").warnings
    assert not called.exists()
    (content / "site.yml").write_text("title: Snap\nsnapshot: true\n", encoding="utf-8")
    build_site(content, tmp_path / "made")
    assert called.exists()  # the fake is the one the build runs


def test_a_made_snapshot_is_kept_and_the_next_build_does_not_start_node(tmp_path, monkeypatch):
    """The cache, keyed by Pyodide's files and the engine archive: a fake snapshot put
    where the cache keeps the real one is what the next build ships, without Node."""
    from explorables.site_builder.pyodide import release as pyodide

    monkeypatch.setattr(snapshot, "node", lambda: None)
    content = site(tmp_path)
    build_site(content, tmp_path / "first")
    names = names_in(tmp_path / "first")
    engine, python_lib = ((tmp_path / "first" / "_explorables" / names[name]).read_bytes()
                          for name in ("engine.zip", "stdlib.zip"))
    kept = snapshot._cache_file(pyodide.ensure_pyodide(), engine, python_lib)
    assert kept.parent == tmp_path / "snapshots"
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"cached snapshot")
    result = build_site(content, tmp_path / "second")
    assert not [w for w in result.warnings if "snapshot" in w], result.warnings
    shipped = tmp_path / "second" / "_explorables" / names_in(tmp_path / "second")["snapshot.bin"]
    assert shipped.read_bytes() == b"cached snapshot"
    # another engine archive (it carries the site's language): another key, Node again (absent here)
    (content / "site.yml").write_text("title: Snap\nsnapshot: true\nlanguage: de\n", encoding="utf-8")
    result = build_site(content, tmp_path / "third")
    assert [w for w in result.warnings if "needs Node" in w], result.warnings
