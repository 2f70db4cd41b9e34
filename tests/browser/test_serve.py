"""`explorables serve`: rebuilds on change and reloads the open page; a broken edit
keeps the last good site served."""
from __future__ import annotations

from pathlib import Path

import pytest

from explorables.site_builder.serve import DevServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dev(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: First\n---\nHello, reader.\n")
    server = DevServer(content, tmp_path / "_site", port=0)
    assert server.start()
    yield server
    server.stop()


def test_an_edit_rebuilds_and_reloads_the_open_page(page, dev):
    """Also pins a bug: an edit saved in the same second as the build before it was
    served as "304 Not Modified", so the reloaded page showed the old text."""
    page.goto(dev.url + "a.html")
    assert "Hello, reader." in page.locator("main").inner_text()
    page.wait_for_function("() => document.readyState === 'complete'")
    (dev.content / "01-a.md").write_text("---\ntitle: First\n---\nHello again.\n")
    with page.expect_navigation():
        assert dev.check() is True
    assert "Hello again." in page.locator("main").inner_text()


def test_a_broken_edit_keeps_the_last_good_site(dev, capsys):
    before = (dev.out_dir / "a.html").read_text()
    (dev.content / "01-a.md").write_text(":::{attention-row} x\n:temperature: -1\n:::\n")
    assert dev.check() is False
    assert "01-a.md:2:15: {attention-row} x: option 'temperature'" in capsys.readouterr().err
    assert (dev.out_dir / "a.html").read_text() == before


def test_relative_folders_are_those_of_the_current_directory(tmp_path, monkeypatch):
    """Pins a bug: the rebuild ran in the project folder, so `explorables serve` in
    another folder built the project's own content/ and served nothing."""
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "01-a.md").write_text("Here.\n")
    monkeypatch.chdir(tmp_path)
    server = DevServer(Path("content"), Path("_site"), port=0)
    try:
        assert server.start()
        assert (tmp_path / "_site" / "a.html").is_file()
    finally:
        server.stop()
