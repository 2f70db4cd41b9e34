"""An offline bundle of a site with sections, opened from disk (file://): links and
next/prev carry the reader into a section's folder and out again in place, with one
engine, the section's image and figure working, and nothing requested but the
bundle's own files, Blob URLs and data: URLs."""
from __future__ import annotations

import re
import zipfile

import pytest

from explorables.site_builder.commands.bundle import bundle_site
from helpers import assert_matches_cpython, held_for_good, progress_shown
from sections_site import make_site


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("sections-bundle")
    result = bundle_site(make_site(out), out / "sections.zip")
    with zipfile.ZipFile(result.path) as archive:
        archive.extractall(out / "unzipped")
    (top,) = (out / "unzipped").iterdir()
    return top


@pytest.fixture(scope="module")
def disk_page(browser, bundle_dir):
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
    yield page, seen
    context.close()


def heading(page, text: str) -> None:
    page.wait_for_function("t => document.querySelector('main h1').textContent === t", arg=text)


def test_from_disk_into_a_section_and_out_again_in_place(disk_page, bundle_dir):
    page, seen = disk_page
    page.goto((bundle_dir / "index.html").as_uri())
    page.evaluate("() => { window.__samePage = true; }")
    nav = page.get_by_role("navigation", name="Lessons")
    nav.get_by_role("link", name="Basics").click()  # a folded section leads to its page
    heading(page, "Basics")
    nav.get_by_role("link", name="Softmax").click()
    heading(page, "Softmax")
    page.locator("figure#explorer.ex-live").wait_for(timeout=30_000)
    assert_matches_cpython(page, "explorer", "attention-row")
    image = page.locator("figure#dot img")
    image.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('figure#dot img').complete")
    assert image.evaluate("img => img.naturalWidth") == 40  # basics/img/dot.svg, from the bundle's index
    page.locator("a[rel=next]").click()  # out of basics/ into advanced/
    heading(page, "Advanced")
    page.get_by_role("navigation", name="Lessons").get_by_role("link", name="Overview").click()
    heading(page, "Advanced")
    page.locator("main .ex-track a", has_text="More").click()  # two folders down
    heading(page, "More")
    page.locator("a[rel=prev]").click()
    heading(page, "Deeper")
    page.locator(".ex-site-title").click()  # back to the top
    heading(page, "Welcome")
    page.go_back()
    heading(page, "Deeper")
    assert page.evaluate("() => window.__samePage") is True
    assert page.evaluate("() => window.__workers") == 1
    assert page.evaluate("() => location.protocol") == "file:"
    assert not seen["errors"], seen["errors"]
    assert all(url.startswith(("file:", "blob:", "data:")) for url in seen["requests"]), seen["requests"]


def test_a_section_page_opened_from_disk_leads_back_to_the_top(disk_page, bundle_dir):
    """Links only: the bundle's Pyodide files, which a bundle reads on every page it opens,
    are asked for and never come, so Python does not start again (and the page's load
    event, which waits for them, is not waited for).

    What the page loads after its first frame (js/later.js, with the reader's progress)
    comes only once a page of another folder is shown, as when a reader turns the page at
    once. Regression: the progress then asked for the track's data in the folder above the
    bundle's (the opened page's assets' path read against the page shown), a file not
    found, asked for again at each page turn, and kept the page under a wrong key."""
    page, seen = disk_page
    seen["errors"].clear()
    held_for_good(page, re.compile(r".*/bundle/pyodide-data\.[0-9a-f]+\.js$"))
    held = []
    page.route(re.compile(r".*/js/later\.[0-9a-f]+\.js$"), lambda route: held.append(route))
    page.goto((bundle_dir / "basics" / "scores.html").as_uri(), wait_until="domcontentloaded")
    page.evaluate("() => { window.__samePage = true; }")
    page.get_by_role("link", name="the intro").click()
    heading(page, "Intro")
    for _ in range(500):  # the request held by its route (its handler may come after its event)
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "js/later.js was never asked for"
    for route in held:
        route.continue_()
    progress_shown(page)
    assert page.evaluate("() => window.explorables.progress.key()") == "intro.html"
    page.locator("a[rel=next]").click()
    heading(page, "Basics")
    progress_shown(page)
    assert page.evaluate("() => window.explorables.progress.key()") == "basics/index.html"
    assert page.evaluate("() => window.__samePage") is True
    assert not seen["errors"], seen["errors"]
