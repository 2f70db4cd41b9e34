"""A page of a build a deploy has replaced: the panel kinds its first frames did not draw
(js/panels.js, static/js/core.js ``lazyPanels``) are no longer on the server. The page the
reader turns to is then loaded again, once, and drawn whole from its own runtime; if the
file is still missing after that, the figure says so and nothing loads again."""

from __future__ import annotations

FIRST_FRAME = "() => performance.getEntriesByName('explorables:first-frame').length > 0"
PLANES_DRAWN = """() => {
    const figures = Object.values(window.explorables.figures || {});
    return figures.length > 0 && document.querySelectorAll("main .ex-plane canvas").length > 0 &&
        figures.every(f => Object.values(f.panelViews).every(v => !v.waiting));
}"""


def test_a_page_whose_panels_a_deploy_removed_is_loaded_again_once(page, guard, site_url):
    answered = []  # the status each request for js/panels.js was given: the server has it no more

    def deployed(route):
        answered.append(route.request.method)
        route.fulfill(status=404, body="not found")

    page.route("**/js/panels.*", deployed)
    guard.allowed += ["Failed to load resource", "js/panels.js is no longer on the server; reloading the page once",
                      "Part of this figure could not be loaded"]
    page.goto(site_url + "attention-heatmap.html")
    page.wait_for_function(FIRST_FRAME)
    page.evaluate("window.__sameDocument = true")

    # the lab's planes are not in the heatmap's runtime: the swapped-in lab asks for them
    page.locator("a[rel=next]").click()
    page.wait_for_function(
        "() => location.pathname.endsWith('attention-lab.html') && window.__sameDocument === undefined"
    )  # a new document: the page loaded again
    page.wait_for_function(FIRST_FRAME)
    page.wait_for_function(PLANES_DRAWN)  # from the lab's own runtime, which has them
    assert page.locator("main figure .ex-error:visible").count() == 0
    assert "HEAD" in answered, "the page asked whether the file is gone before loading again"

    # still missing: the heatmap swapped in after it lacks its grid and says so; no loop
    page.evaluate("window.__sameDocument = true")
    page.locator("a[rel=prev]").first.click()
    page.wait_for_function("() => location.pathname.endsWith('attention-heatmap.html')")
    error = page.locator("main figure .ex-error:visible")
    error.first.wait_for()
    assert "could not be loaded" in error.first.inner_text()
    assert page.evaluate("window.__sameDocument === true"), "the page was loaded again a second time"
    guard.failed[:] = [f for f in guard.failed if "/js/panels." not in f]
