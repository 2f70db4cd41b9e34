"""A page's first frame loads only what it draws (output/panels.py, output/first_frame.py),
and nothing the reader sees or does is lost: the heatmap's page (cells and text) carries
no plane; the reader who clicks on to the lab's page (planes) at once, before the rest has
come, has it swapped in place with its planes drawn, in the same document; in a site of
three languages, a language picked before js/later.js (with js/languages.js) has come is
swapped in with its words once it has."""

from __future__ import annotations

import time

from conftest import Guard
from helpers import held_for_good
from languages_site import served

FIRST_FRAME = "() => performance.getEntriesByName('explorables:first-frame').length > 0"
PLANES_DRAWN = """() => {
    const figures = Object.values(window.explorables.figures);
    return figures.length > 0 && document.querySelectorAll("main .ex-plane canvas").length > 0 &&
        figures.every(f => Object.values(f.panelViews).every(v => !v.waiting));
}"""


def no_engine(page) -> None:
    """The engine's download never answers (the context's end cancels it): what these
    tests load and draw comes before Python, and no Pyodide starts beside them."""
    held_for_good(page, "**/pyodide/**")


def test_a_page_of_cells_has_no_plane_and_the_page_swapped_in_after_it_draws_its_planes(page, guard, site_url):
    no_engine(page)
    held = []  # js/panels.js, until the lab's page is swapped in with stand-ins
    page.route("**/js/panels.*", lambda route: held.append(route))
    page.goto(site_url + "attention-heatmap.html")
    page.wait_for_function(FIRST_FRAME)
    first = page.evaluate("""() => ({
        plane: window.explorables.panels.plane.waiting === true,
        cells: !window.explorables.panels.cells.waiting,
        loaded: performance.getEntriesByType("resource").map(e => e.name).filter(n => /\\/js\\//.test(n)),
    })""")
    assert first["plane"] and first["cells"], first
    assert not [name for name in first["loaded"] if "/js/panels." in name or "plane" in name], first
    # the table is drawn without js/panels.js: the figure below the view comes once the
    # first frame is painted, so a busy machine may draw it after the mark
    page.locator("main .ex-cells").first.wait_for(state="attached")
    page.evaluate("window.__sameDocument = true")
    link = page.locator("a[rel=next]")
    assert link.get_attribute("href") == "attention-lab.html"
    link.click()  # at once: the rest of the kinds has not come yet
    page.wait_for_function("() => location.pathname.endsWith('attention-lab.html')")
    page.wait_for_function("() => Object.values(window.explorables.figures).some(f => "
                           "Object.values(f.panelViews).some(v => v.waiting))")
    assert page.locator("main .ex-plane canvas").count() == 0  # stand-ins, until the kinds come
    deadline = time.monotonic() + 60  # the request's route reaches this process a little later
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # lets Playwright hand the route over: a poll of ``held``, not a wait for time
    assert held
    for route in held:
        route.continue_()
    page.unroute("**/js/panels.*")
    page.wait_for_function(PLANES_DRAWN)
    assert page.evaluate("window.__sameDocument === true")  # swapped in place, not loaded anew
    assert page.evaluate("!window.explorables.panels.plane.waiting && !window.explorables.panels.chart.waiting")


def test_a_language_picked_before_later_js_has_come_is_swapped_in_with_its_words(
    browser, browser_context_args, tmp_path_factory
):
    """In a site of three languages js/languages.js comes with js/later.js, after the first
    frame: a reader who picks German before it has come lands on the German lesson, in
    place, with German words, its head German, once it has (held here until the click)."""
    base = served(tmp_path_factory)[0]
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    guard = Guard(page, base)
    no_engine(page)
    held = []
    page.route("**/js/later.*", lambda route: held.append(route))
    try:
        page.goto(base + "rows.html", wait_until="domcontentloaded")  # (its load waits for later.js)
        page.wait_for_function(FIRST_FRAME)
        page.evaluate("window.__sameDocument = true")
        assert page.evaluate("() => !window.explorables.languages && document.documentElement.lang") == "en"
        loaded = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        assert not [name for name in loaded if "/js/languages." in name or "/words/" in name], loaded
        page.locator(".ex-languages summary").click()
        page.locator(".ex-languages a[hreflang=de]").click()
        page.wait_for_timeout(300)
        assert "/de/" not in page.evaluate("location.pathname")  # it waits for js/languages.js
        assert held, "js/later.js was asked for"
        page.unroute("**/js/later.*")
        for route in held:
            route.continue_()
        page.wait_for_function("() => location.pathname.endsWith('/de/rows.html')")
        page.wait_for_function("() => window.explorables.words.language === 'de'")
        assert page.evaluate("window.__sameDocument === true")
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.locator("main h1").inner_text() == "Zeilen der Aufmerksamkeit"
        hreflangs = page.evaluate("[...document.querySelectorAll('head link[rel=alternate]')].map(l => l.hreflang)")
        assert "de" in hreflangs
        page.locator("#ex-search-input").wait_for()  # js/later.js's search, in German
        assert page.evaluate("window.explorables.t('runtime.search_label')") == "Die Lektionen durchsuchen"
        guard.check()
    finally:
        context.close()


def test_a_control_kind_the_first_page_lacks_comes_with_the_page_that_needs_it(page, guard, site_url):
    """The lab's page has no Play button: the menu's link to the lesson with one swaps it
    in with its Play button made, in the same document."""
    no_engine(page)
    page.goto(site_url + "attention-lab.html")
    page.wait_for_function(FIRST_FRAME)
    assert page.evaluate("window.explorables.controls.play.waiting === true")
    page.evaluate("window.__sameDocument = true")
    menu = page.locator(".ex-nav-fold summary")
    if menu.is_visible():
        menu.click()
    page.locator('.ex-nav a[href="generating-text.html"]').click()
    page.wait_for_function("() => location.pathname.endsWith('generating-text.html')")
    play = page.locator("main .ex-play").first
    play.wait_for()
    assert play.inner_text() in ("Play", "Step")
    assert page.evaluate("window.__sameDocument === true && !window.explorables.controls.play.waiting")


def test_a_figure_whose_panels_cannot_be_had_says_so_and_draws_them_once_back_online(page, guard, site_url):
    """js/panels.js refused (a dropped request): the lab's page swapped in after the
    heatmap's says that part of its figure could not be loaded, rather than showing empty
    boxes with no word; back online, the file is asked for again and the planes drawn."""
    no_engine(page)
    page.route("**/js/panels.*", lambda route: route.abort())
    guard.allowed += ["Failed to load resource", "Part of this figure could not be loaded"]
    page.goto(site_url + "attention-heatmap.html")
    page.wait_for_function(FIRST_FRAME)
    page.locator("a[rel=next]").click()
    page.wait_for_function("() => location.pathname.endsWith('attention-lab.html')")
    error = page.locator("main figure .ex-error:visible")
    error.first.wait_for()
    assert "could not be loaded" in error.first.inner_text()
    assert page.locator("main .ex-plane canvas").count() == 0
    page.unroute("**/js/panels.*")
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as the browser does when back online
    page.wait_for_function(PLANES_DRAWN)
    assert page.locator("main figure .ex-error:visible").count() == 0
    guard.failed[:] = [f for f in guard.failed if "/js/panels." not in f]
    guard.check()
