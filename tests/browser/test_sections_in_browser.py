"""A site with sections in real Chromium, on one page and one engine: next and prev
clicked through every page across folders swap the content in place (one worker, one
document), a section's images load from its folder, its figure goes live with the
engine's numbers, search lands in another folder, and on a 390 px phone the
navigation folds under "Lessons" with only the reader's section open."""
from __future__ import annotations


import pytest

from explorables.site_builder.commands.build import build_site
from conftest import serve_folder
from helpers import assert_matches_cpython, fresh_lesson, module_page
from sections_site import READING, make_site

TITLES = {"intro.html": "Intro", "basics/index.html": "Basics", "basics/scores.html": "Scores",
          "basics/softmax.html": "Softmax", "advanced/index.html": "Advanced", "advanced/heads.html": "Heads",
          "advanced/deeper/index.html": "Deeper", "advanced/deeper/more.html": "More"}


@pytest.fixture(scope="module")
def sections_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sections-site")
    build_site(make_site(folder), folder / "_site")
    server = serve_folder(folder / "_site")
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def shared(browser, sections_url, browser_context_args):
    """One page and one Pyodide for the module; workers are counted from the first script."""
    for page, guard in module_page(browser, sections_url, {**browser_context_args,
                                                           "viewport": {"width": 1280, "height": 900}}):
        page.add_init_script("""(() => {
            const Real = window.Worker; window.__workers = 0;
            window.Worker = function (url, options) { window.__workers += 1; return new Real(url, options); };
        })()""")
        yield page, guard


def here(page, base: str) -> str:
    return page.evaluate("() => location.href.split('#')[0]").removeprefix(base)


def test_next_and_prev_cross_folders_in_place_on_one_engine(shared, sections_url):
    page, guard = shared
    page.goto(sections_url + READING[0])
    page.wait_for_function("() => window.explorables && window.explorables.pages")
    page.evaluate("() => { window.__samePage = true; }")  # gone if a page loads anew
    for url in READING[1:]:
        page.locator("a[rel=next]").click()
        page.wait_for_function("url => location.href.endsWith(url)", arg=url)
        assert page.locator("main h1").inner_text() == TITLES[url]
        # the heading takes the focus once the swap is done (the address changes before)
        page.wait_for_function("() => document.activeElement.tagName === 'H1'")
        assert 'aria-current="page"' in page.locator(".ex-nav a[aria-current]").evaluate("a => a.outerHTML")
        if url == "basics/softmax.html":
            page.locator("figure#explorer.ex-live").wait_for(timeout=30_000)
            image = page.locator("figure#dot img")
            image.scroll_into_view_if_needed()
            page.wait_for_function("() => document.querySelector('figure#dot img').complete")
            assert image.evaluate("img => img.naturalWidth") == 40  # ../img resolved from the section's folder
            assert page.locator("figure#dot figcaption").inner_text().startswith("Figure 1.")
    for url in reversed(READING[:-1]):
        page.locator("a[rel=prev]").click()
        page.wait_for_function("url => location.href.endsWith(url)", arg=url)
        assert page.locator("main h1").inner_text() == TITLES[url]
    page.go_back()  # history across folders swaps too
    page.wait_for_function("url => location.href.endsWith(url)", arg=READING[1])
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'Basics'")
    assert page.evaluate("() => window.__samePage") is True
    assert page.evaluate("() => window.__workers") == 1
    guard.check()


def test_a_figure_in_a_section_goes_live_with_the_engine_s_numbers(shared, sections_url):
    page, guard = shared
    fresh_lesson(page, guard, sections_url + "basics/softmax.html", "explorer")
    values = assert_matches_cpython(page, "explorer", "attention-row")
    page.locator("figure#explorer").get_by_role("slider").first.focus()
    page.keyboard.press("ArrowRight")
    after = assert_matches_cpython(page, "explorer", "attention-row")
    assert after != values
    assert page.evaluate("() => window.__workers") == 1
    guard.check()


def test_search_lands_on_a_page_in_another_folder(shared, sections_url):
    page, guard = shared
    fresh_lesson(page, guard, sections_url + "basics/softmax.html", "explorer")
    page.locator("#ex-search-input").wait_for()  # the box comes with js/later.js, after the first frame
    page.keyboard.press("/")
    page.keyboard.type("several heads")
    page.locator("#ex-search-results [role=option]").first.wait_for()
    assert "Advanced › Heads" in page.locator("#ex-search-results [role=option]").first.inner_text()
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.href.endsWith('advanced/heads.html')")
    assert page.locator("main h1").inner_text() == "Heads"
    assert page.evaluate("() => window.__workers") == 1
    guard.check()


def test_on_a_phone_the_navigation_folds_with_the_reader_s_section_open(shared, sections_url):
    page, guard = shared
    fresh_lesson(page, guard, sections_url + "basics/softmax.html", "explorer")
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        nav = page.get_by_role("navigation", name="Lessons")
        scores = nav.get_by_role("link", name="Scores")
        page.wait_for_function("() => !document.querySelector('.ex-nav-fold').open")
        assert not scores.is_visible()
        nav.locator(".ex-nav-fold > summary").click()
        assert scores.is_visible()  # the reader's section is open inside
        heads = nav.get_by_role("link", name="Heads")
        assert heads.count() == 0  # every other section is one entry, leading to its page
        nav.get_by_role("link", name="Advanced").click()
        page.wait_for_function("() => location.href.endsWith('advanced/index.html')")
        assert not page.evaluate("() => document.querySelector('.ex-nav-fold').open")  # folded again
        nav.locator(".ex-nav-fold > summary").click()
        heads.click()
        page.wait_for_function("() => location.href.endsWith('advanced/heads.html')")
        assert page.locator("main h1").inner_text() == "Heads"
        assert not page.evaluate("() => document.querySelector('.ex-nav-fold').open")  # folded again
        box = page.locator(".ex-header").bounding_box()
        assert box["width"] <= 390 and box["height"] < 200
        page.set_viewport_size({"width": 1280, "height": 900})
        page.wait_for_function("() => document.querySelector('.ex-nav-fold').open")
        assert nav.get_by_role("link", name="Heads").is_visible()
        assert not nav.get_by_role("link", name="Scores").is_visible()  # Basics folded now
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    assert page.evaluate("() => window.__workers") == 1
    guard.check()
