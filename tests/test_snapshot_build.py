"""`snapshot: true` in site.yml without a working Node: the build says why at the key's
line and goes on without a snapshot; serve's rebuilds never make one. (A real snapshot,
made with Node and restored in Chromium: tests/browser/test_snapshot_restore.py.)"""
from __future__ import annotations

import stat
from pathlib import Path

from explorables.site_builder import snapshot
from explorables.site_builder.assets import names_in
from explorables.site_builder.build import build_site

LESSON = ":::{attention-row} explorer\n:::\n"


def site(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / "site.yml").write_text("title: Snap\nsnapshot: true\n", encoding="utf-8")
    (content / "01-a.md").write_text("# A\n\n" + LESSON, encoding="utf-8")
    return content


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
