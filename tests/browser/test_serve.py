"""`explorables serve`: rebuilds on change and reloads the open page; a broken edit
keeps the last good site served."""
from __future__ import annotations

from pathlib import Path

import pytest

from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.serve import DevServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reader(browser, browser_context_args):
    """One page for the module: each test opens its own server's pages in it (another
    port, so another origin: nothing of a test before carries over)."""
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


@pytest.fixture
def page(reader):
    """The module's page, left blank after each test (its server is stopped)."""
    yield reader
    reader.goto("about:blank")


@pytest.fixture
def dev(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: First\n---\nHello, reader.\n")
    server = DevServer(content, port=0)
    assert server.start()
    yield server
    server.stop()


def test_an_edit_swaps_the_new_text_into_the_open_page(page, dev):
    """Also pins a bug: an edit saved in the same second as the build before it was
    served as "304 Not Modified", so the reloaded page showed the old text."""
    page.goto(dev.url + "a.html")
    assert "Hello, reader." in page.locator("main").inner_text()
    page.wait_for_function("() => document.documentElement.dataset.livereload === 'open'")
    page.evaluate("() => { window.__sameDocument = true; }")
    (dev.content / "01-a.md").write_text("---\ntitle: First\n---\nHello again.\n")
    assert dev.check() is True
    page.locator("main", has_text="Hello again.").wait_for()
    assert page.evaluate("() => window.__sameDocument") is True  # swapped in, not reloaded


def test_a_build_error_shows_over_the_page_until_the_next_good_build(page, dev):
    page.goto(dev.url + "a.html")
    page.wait_for_function("() => document.documentElement.dataset.livereload === 'open'")
    (dev.content / "01-a.md").write_text(":::{attention-row} x\n:temperature: -1\n:::\n")
    assert dev.check() is False
    overlay = page.get_by_role("alert").filter(has_text="does not build")
    overlay.wait_for()
    assert "01-a.md:2:15" in overlay.inner_text()
    assert "Hello, reader." in page.locator("main").inner_text()  # the last good build stays
    (dev.content / "01-a.md").write_text("---\ntitle: First\n---\nFixed.\n")
    assert dev.check() is True
    page.locator("main", has_text="Fixed.").wait_for()
    assert overlay.count() == 0


def test_a_page_opened_after_a_failed_build_shows_its_error(page, dev):
    (dev.content / "01-a.md").write_text(":::{attention-row} x\n:temperature: -1\n:::\n")
    assert dev.check() is False
    page.goto(dev.url + "a.html")
    overlay = page.get_by_role("alert").filter(has_text="does not build")
    overlay.wait_for()
    assert "01-a.md:2:15" in overlay.inner_text()
    assert "Hello, reader." in page.locator("main").inner_text()


def test_a_site_that_does_not_build_yet_is_served_with_its_errors(page, tmp_path, capsys):
    """`serve` on a broken site keeps running: its page lists the errors, and turns into
    the site once a build succeeds."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text(":::{attention-row} x\n:temperature: -1\n:::\n")
    server = DevServer(content, port=0)
    try:
        assert server.start()
        said = capsys.readouterr().err
        assert "01-a.md:2:15" in said
        assert "nothing was written (there is no previous site)" in said and "previous site was left" not in said
        # a lesson's address too, opened before anything was built, lists the errors
        response = page.goto(server.url + "a.html")
        assert response.status == 404
        page.locator("h1").filter(has_text="could not be built").wait_for()
        page.goto(server.url)
        assert "01-a.md:2:15: {attention-row} x: option 'temperature'" in page.locator("pre").inner_text()
        page.locator("h1").filter(has_text="could not be built").wait_for()
        (content / "01-a.md").write_text(":::{attention-row} x\n:temperature: -2\n:::\n")
        assert server.check() is False  # still broken: the list follows
        page.locator("pre", has_text="got '-2'").wait_for()
        (content / "01-a.md").write_text("---\ntitle: First\n---\nHello, reader.\n")
        assert server.check() is True
        page.locator("main a", has_text="First").wait_for()  # the site's index, listing the lesson
        assert page.locator("pre").count() == 0
        # a page that is not there: the site's own 404 page, styled, from any folder
        response = page.goto(server.url + "deep/folder/missing.html")
        assert response.status == 404
        assert page.evaluate("() => [...document.styleSheets].some(s => s.href && s.href.includes('/_explorables/')"
                             " && s.cssRules.length > 0)")  # its stylesheet found from that folder
        page.locator("main a", has_text="First").click()
        page.locator("main", has_text="Hello, reader.").wait_for()
    finally:
        server.stop()


def test_an_edit_of_site_yml_is_built_and_loaded(page, tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: First\n---\nHello, reader.\n")
    (tmp_path / "site.yml").write_text('title: "Old name"\n')
    server = DevServer(content, port=0)
    try:
        assert server.start()
        page.goto(server.url + "a.html")
        assert "Old name" in page.title()
        page.wait_for_function("() => document.documentElement.dataset.livereload === 'open'")
        (tmp_path / "site.yml").write_text('title: "New name"\n')
        assert server.check() is True
        page.wait_for_function("() => document.title.includes('New name')")
    finally:
        server.stop()


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
    server = DevServer(Path("content"), port=0)
    try:
        assert server.start()
        assert (server.out_dir / "a.html").is_file()
        assert "Here." in (server.out_dir / "a.html").read_text()
    finally:
        server.stop()


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_serve_never_writes_into_the_build_output(tmp_path, monkeypatch):
    """Pins a bug: serve built into _site/ with a live-reload script whose URL was
    absolute, so publishing _site/ after a preview shipped it."""
    from explorables.site_builder.commands.cli import main

    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "01-a.md").write_text("---\ntitle: A\n---\nHere.\n")
    monkeypatch.chdir(tmp_path)
    assert main(["build"]) == 0
    built = tree(tmp_path / "_site")
    server = DevServer(Path("content"), port=0)
    try:
        assert server.start()
        preview = server.out_dir
        assert tmp_path not in preview.parents
        assert f'src="_explorables/{names_in(preview)["js/livereload.js"]}"' in (preview / "a.html").read_text()
    finally:
        server.stop()
    assert not preview.exists()  # the preview's own folder goes with the server
    assert tree(tmp_path / "_site") == built
    assert "livereload" not in (tmp_path / "_site" / "a.html").read_text()
    assert main(["build"]) == 0
    assert tree(tmp_path / "_site") == built  # serve then build: the same site, byte for byte


def test_an_edit_of_the_text_keeps_what_the_reader_set_and_where_they_are(page, tmp_path):
    """Pins an author's finding: each save moved the focus to the lesson's title (with its
    outline) and put a slider the author had moved back to the lesson's setting. An edit
    to the text keeps the figure's state and the focus's place; an edit to the figure's
    options starts the figure anew."""
    content = tmp_path / "content"
    content.mkdir()
    lesson = "---\ntitle: First\n---\nHello, reader.\n\n:::{attention-row} row\n:temperature: 1\n:::\n"
    (content / "01-a.md").write_text(lesson)
    server = DevServer(content, port=0)
    assert server.start()
    try:
        page.goto(server.url + "a.html")
        page.evaluate("() => window.explorables.ready")
        page.wait_for_function("() => document.documentElement.dataset.livereload === 'open'")
        slider = page.locator("figure#row input[type=range][name=temperature]")
        slider.focus()
        page.keyboard.press("ArrowRight")
        page.evaluate("() => window.explorables.figures.row.idle()")
        moved = page.evaluate("() => window.explorables.figures.row.state.temperature")
        assert moved != 1
        (content / "01-a.md").write_text(lesson.replace("Hello, reader.", "Hello again."))
        assert server.check() is True
        page.locator("main", has_text="Hello again.").wait_for()
        page.locator("figure#row.ex-live").wait_for()
        assert page.evaluate("() => window.explorables.figures.row.state.temperature") == moved
        # the focus is back on the slider the author used (a new element): the keys go on moving it
        assert page.evaluate("() => document.activeElement.matches('figure#row input[name=temperature]')") is True
        page.keyboard.press("ArrowRight")
        page.evaluate("() => window.explorables.figures.row.idle()")
        assert page.evaluate("() => window.explorables.figures.row.state.temperature") > moved
        (content / "01-a.md").write_text(lesson.replace(":temperature: 1", ":temperature: 2"))
        assert server.check() is True
        page.wait_for_function("() => window.explorables.figures.row && window.explorables.figures.row.state.temperature === 2")
    finally:
        server.stop()
