"""The reader's progress in an offline bundle opened from disk (file://): localStorage
works there in Chromium, the pages swapped in keep one address, and the page keys are
still the lessons' own, so the marks survive a reload of the bundle."""

from __future__ import annotations

import re
import zipfile

import pytest
from helpers import answer_exercise, held_for_good, progress_shown
from test_progress import right_weight, write_content

from explorables.site_builder.commands.bundle import bundle_site


@pytest.fixture(scope="module")
def bundle_index(tmp_path_factory):
    folder = tmp_path_factory.mktemp("progress-bundle")
    result = bundle_site(write_content(folder), folder / "progress.zip")
    with zipfile.ZipFile(result.path) as archive:
        archive.extractall(folder / "unzipped")
    (top,) = (folder / "unzipped").iterdir()
    return (top / "index.html").as_uri()


def test_marks_survive_a_reload_of_the_bundle_from_disk(browser, bundle_index):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    seen = {"requests": [], "errors": []}
    page.on("request", lambda request: seen["requests"].append(request.url))
    page.on("console", lambda message: message.type in ("error", "warning") and seen["errors"].append(message.text))
    page.on("pageerror", lambda err: seen["errors"].append(str(err)))
    try:
        page.goto(bundle_index)
        page.evaluate("() => window.explorables.ready")
        menu = page.get_by_role("navigation", name="Lessons")
        menu.get_by_role("link", name="Drills").click()
        page.wait_for_function("() => document.querySelector('main h1').textContent === 'Drills'")
        assert answer_exercise(page, page.locator("div#constructor"), right_weight(2))[1] == "right"
        menu.get_by_role("link", name="Reading").click()
        page.wait_for_function("() => document.querySelector('main h1').textContent === 'Reading'")
        progress_shown(page)
        assert page.evaluate("() => location.protocol + window.explorables.progress.key()") == "file:reading.html"

        # what is read from here on is the marks alone: the bundle's Pyodide files, which the
        # reloaded page asks for at once, never come, so Python does not start again (and the
        # page's load event, which waits for them, is not waited for)
        held_for_good(page, re.compile(r".*/bundle/pyodide-data\.[0-9a-f]+\.js$"))
        # the page keeps its address from disk, whichever lesson was shown
        page.reload(wait_until="domcontentloaded")
        progress_shown(page)
        assert menu.get_by_role("link", name="Reading").get_attribute("data-ex-progress") == "complete"
        assert menu.get_by_role("link", name="Drills").get_attribute("data-ex-progress") == "visited"
        page.locator("a.ex-site-title").click()  # the front page, whichever page the reload showed
        page.locator("main .ex-continue a").wait_for()
        track = page.locator("main .ex-track a", has_text="Drills")
        assert track.get_attribute("data-ex-progress-note") == "Visited · 1 of 2 exercises"
        page.get_by_role("link", name="Continue where you left off: Reading").click()
        page.wait_for_function("() => document.querySelector('main h1').textContent === 'Reading'")
        outside = [url for url in seen["requests"] if not url.startswith(("file:", "blob:", "data:"))]
        assert not outside, outside
        assert not seen["errors"], seen["errors"]
    finally:
        context.close()
