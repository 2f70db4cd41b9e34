"""An offline bundle in real Chromium, opened from disk (file://) with no server: every
lesson is live, Python starts once per opened bundle, and nothing is requested but the
bundle's own files (file:), Blob URLs and data: URLs."""
from __future__ import annotations

import zipfile

import pytest

from explorables.site_builder.commands.bundle import bundle_site
from conftest import ROOT, serve_folder
from helpers import assert_matches_cpython, mark_position, state_of, values_of

LESSONS = [  # (nav link text, figure id, figure name)
    ("One query row", "explorer", "attention-row"),
    ("From embeddings to outputs", "lab", "attention-lab"),
    ("Why several heads", "heads", "attention-heads"),
    ("How order gets in", "clocks", "positional-encoding"),
    ("Attention as a table", "table", "attention-heatmap"),
]


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle")
    result = bundle_site(ROOT / "content", out / "lessons.zip")
    with zipfile.ZipFile(result.path) as archive:
        archive.extractall(out / "unzipped")
    (top,) = (out / "unzipped").iterdir()
    return top


@pytest.fixture(scope="module")
def disk_page(browser, bundle_dir):
    """One page for the whole module, as a reader keeps one tab: the bundle's index.html
    opened from disk. Worker constructions are counted from the first script on."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script("""(() => {
        const Real = window.Worker; window.__workers = 0;
        window.Worker = function (url, options) { window.__workers += 1; return new Real(url, options); };
    })()""")
    seen = {"requests": [], "errors": []}
    page.on("request", lambda request: seen["requests"].append(request.url))
    page.on("console", lambda message: message.type == "error" and seen["errors"].append(message.text))
    page.on("pageerror", lambda err: seen["errors"].append(str(err)))
    page.goto((bundle_dir / "index.html").as_uri())
    page.evaluate("() => window.explorables.ready")
    yield page, seen
    context.close()


def live(page, figure_id: str) -> None:
    page.locator(f"figure#{figure_id}.ex-live").wait_for(timeout=20_000)


def test_the_index_starts_python_from_disk(disk_page):
    page, seen = disk_page
    assert page.evaluate("() => location.protocol") == "file:"
    timings = page.evaluate("() => window.explorables.client.timings")
    assert timings["total"] > 0 and timings["worker"]["pyodide"] > 0
    assert page.evaluate("() => window.__workers") == 1


@pytest.mark.parametrize("title,figure_id,figure", LESSONS)
def test_every_lesson_goes_live_from_a_click(disk_page, title, figure_id, figure):
    page, seen = disk_page
    page.get_by_role("navigation", name="Lessons").get_by_role("link", name=title).click()
    live(page, figure_id)
    assert page.locator("main h1").inner_text() == title
    assert page.evaluate("() => document.activeElement.tagName") == "H1"  # focus moved to the new lesson
    assert_matches_cpython(page, figure_id, figure)
    assert page.evaluate("() => window.__workers") == 1  # still the one engine


def test_a_drag_and_a_typed_value_change_the_numbers(disk_page):
    page, seen = disk_page
    page.get_by_role("navigation", name="Lessons").get_by_role("link", name="One query row").click()
    live(page, "explorer")
    before = values_of(page, "explorer")
    x, y = mark_position(page, "explorer", "keys", "key-1")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 60, y + 80, steps=8)
    page.mouse.up()
    dragged = assert_matches_cpython(page, "explorer", "attention-row")
    assert dragged["weights"][1] < before["weights"][1] - 0.05
    field = page.locator('figure#explorer input[name="key.1.0"]')
    field.fill("-1.5")
    field.press("Enter")
    typed = assert_matches_cpython(page, "explorer", "attention-row")
    assert typed["keys"][1][0] == -1.5


def test_back_and_forward_keep_each_figure_where_the_reader_left_it(disk_page):
    page, seen = disk_page
    nav = page.get_by_role("navigation", name="Lessons")
    nav.get_by_role("link", name="One query row").click()
    live(page, "explorer")
    page.evaluate("() => window.explorables.figures.explorer.update({temperature: 3})")
    kept = state_of(page, "explorer")
    nav.get_by_role("link", name="How order gets in").click()
    live(page, "clocks")
    page.go_back()
    live(page, "explorer")
    assert page.locator("main h1").inner_text() == "One query row"
    assert state_of(page, "explorer")["temperature"] == 3 == kept["temperature"]
    assert_matches_cpython(page, "explorer", "attention-row")
    page.go_forward()
    live(page, "clocks")
    assert page.evaluate("() => window.__workers") == 1


def test_nothing_leaves_the_bundle_and_nothing_fails(disk_page):
    page, seen = disk_page
    outside = [url for url in seen["requests"] if not url.startswith(("file:", "blob:", "data:"))]
    assert not outside, outside
    assert not seen["errors"], seen["errors"]


def test_a_reload_shows_the_lesson_the_reader_was_on(disk_page):
    """Pins a reader's finding: from disk the address stays index.html whichever lesson
    shows, and a reload went back to the index. (Last of the disk tests: Python starts
    again.)"""
    page, seen = disk_page
    page.get_by_role("navigation", name="Lessons").get_by_role("link", name="Why several heads").click()
    live(page, "heads")
    page.mouse.wheel(0, 900)
    page.wait_for_function("() => scrollY > 500")
    scrolled = page.evaluate("() => scrollY")
    assert page.evaluate("() => location.pathname.endsWith('/index.html')")
    page.reload()
    page.locator("main h1", has_text="Why several heads").wait_for()
    live(page, "heads")
    assert abs(page.evaluate("() => scrollY") - scrolled) < 50
    assert not seen["errors"], seen["errors"]


def test_the_bundle_folder_served_over_http_works_too(browser, bundle_dir):
    server = serve_folder(bundle_dir)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    try:
        page.goto(base + "one-query-row.html")
        page.evaluate("() => window.explorables.ready")
        live(page, "explorer")
        page.evaluate("() => window.explorables.figures.explorer.update({temperature: 0.5})")
        assert_matches_cpython(page, "explorer", "attention-row")
        assert not errors, errors
    finally:
        context.close()
        server.shutdown()
