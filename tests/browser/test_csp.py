"""Every page works under a strict Content-Security-Policy with no 'unsafe-inline'.

The policy is sent as a header on every response, as a host would: unlike the page's
<meta>, a header also governs the worker script (a worker loaded from a URL gets the
policy of its own response). Violations are counted by a `securitypolicyviolation`
listener in the page and by the worker's own listener, which reports to the page."""
from __future__ import annotations

import re

import pytest

from conftest import Guard, serve_folder

from explorables.site_builder.output.assets import names_in
from explorables.site_builder.structure.config import DEFAULT_CSP
from helpers import SAVE_DATA, later_loaded

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.effectiveDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber);
});
"""

# How much wider each root (<msqrt>, <mroot>) is than what it holds, in ems: its
# radical sign, about 1 em in the site's math font, 0 when the font lacks the sign.
RADICALS = """() => [...document.querySelectorAll('msqrt, mroot')].map(root => {
    const held = [...root.children].slice(0, root.localName === 'mroot' ? 1 : undefined)
        .reduce((sum, child) => sum + child.getBoundingClientRect().width, 0);
    return (root.getBoundingClientRect().width - held) / parseFloat(getComputedStyle(root).fontSize);
})"""


@pytest.fixture(scope="module")
def strict_url(built_site):
    server = serve_folder(built_site, DEFAULT_CSP)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_every_page_loads_and_goes_live_cleanly_with_zero_violations_in_page_and_worker(page, strict_url, built_site):
    """Each page opened on its own, as a reader landing from a search engine would, by a
    reader who saves data (Python waits for their Start: the engine's own start is not the
    page's, and it is walked below): the navigation lists every lesson, formulas use the
    site's math font, no NaN or undefined shows, and nothing breaks a strict policy. Then
    every lesson swapped in after the first on one live engine, as a reader reads on:
    every figure goes live and answers, with no violation in the page or the worker. Pins
    a bug: aligned table columns were style attributes, refused by style-src (16
    violations on two lessons, the alignment lost)."""
    guard = Guard(page, strict_url)
    page.add_init_script(SAVE_DATA + LISTEN)
    names = sorted(p.name for p in built_site.glob("*.html"))
    assert len(names) >= 6 and "index.html" in names
    lessons = [n for n in names if n not in ("index.html", "404.html", "notices.html", "print.html")]
    for name in names:
        html = (built_site / name).read_text()
        assert f'<meta http-equiv="Content-Security-Policy" content="{DEFAULT_CSP}">'.replace("'", "&#39;") in html
        assert "style=" not in html.replace("displaystyle=", "")
        if name == "print.html":  # runs no figure: its figures are their stills
            assert re.findall(r'<script defer src="[^"]+"', html) == [
                '<script defer src="_explorables/' + names_in(built_site)["js/scrollers.js"] + '"']
            continue
        page.goto(strict_url + name)
        later_loaded(page)
        assert page.evaluate("() => window.explorables.client.started") is None, name  # no engine: the reader's Start
        assert page.evaluate("() => window.__violations") == [], name
        right = page.locator("td.ex-align-right")
        if right.count():
            assert right.first.evaluate("el => getComputedStyle(el).textAlign") == "right"
        assert page.locator("header .ex-nav a").count() == len(lessons), name
        maths = page.locator("math")
        if maths.count():  # formulas are drawn with the site's own math font
            assert page.evaluate("""() => document.fonts.ready.then(() => [...document.fonts].some(
                f => f.family.includes('Explorables Math') && f.status === 'loaded'))"""), name
            # every root draws its radical sign (a subset font without it drew none)
            radicals = page.evaluate(RADICALS)
            assert all(width > 0.5 for width in radicals), (name, radicals)
            # its own font fetched once: by the head's preload, which its @font-face then uses, or
            # (a lesson after the last) from the cache the last one's look ahead filled
            font = re.search(r'data-ex-font="_explorables/([^"]+)"', html).group(1)
            fetched = page.evaluate("""font => performance.getEntriesByType('resource')
                .filter(e => e.name.endsWith('/' + font)).map(e => e.initiatorType)""", font)
            assert fetched in (["link"], ["css"]), (name, fetched)
        for i in range(min(maths.count(), 5)):
            box = maths.nth(i).bounding_box()
            if box is not None:
                assert box["width"] > 0 and box["height"] > 0, name
        assert_nothing_undefined(page, name)
    guard.check()

    reader = page.context.new_page()  # no saving data: the engine starts with the first lesson
    guard = Guard(reader, strict_url)
    reader.add_init_script(LISTEN)
    reader.goto(strict_url + lessons[0])
    reader.evaluate("() => window.explorables.ready")
    for name in lessons:
        if name != lessons[0]:
            assert reader.evaluate("url => window.explorables.pages.go(url)", strict_url + name), name
            reader.wait_for_function("url => window.explorables.pages.current === url", arg=strict_url + name)
        for figure in reader.locator("main figure.ex-figure").all():
            figure.and_(reader.locator(".ex-live")).wait_for()
        for figure_id in reader.evaluate("() => Object.keys(window.explorables.figures)"):
            reader.evaluate("id => window.explorables.figures[id].update({})", figure_id)  # a round trip each
        assert reader.evaluate("() => window.__violations") == [], name
        assert reader.evaluate("() => window.explorables.client.violations || []") == [], name
        assert_nothing_undefined(reader, name)
    later_loaded(reader)
    guard.check()


def assert_nothing_undefined(page, name: str) -> None:
    """What the page computes (figures, live numbers, exercises) never shows NaN or
    undefined; the prose may name NaN (lesson 2 says where −∞ gives it)."""
    computed = page.locator("main figure, main .ex-value, main .ex-adjust, main .ex-exercise").all_inner_texts()
    assert not re.search(r"\bNaN\b|undefined", "\n".join(computed)), name


def test_the_listeners_do_see_violations(page, built_site):
    """The checks above could fail: an inline style in the page, and a worker whose
    policy forbids WebAssembly, are both reported (and the figure says why it is still)."""
    server = serve_folder(built_site, DEFAULT_CSP.replace(" 'wasm-unsafe-eval'", ""))
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        page.add_init_script(LISTEN)
        page.on("console", lambda m: None)
        page.goto(url + "one-query-row.html")
        page.evaluate("() => { document.body.setAttribute('style', 'color: red'); }")
        page.locator("figure#explorer.ex-failed").wait_for(timeout=60_000)
        assert any(v.startswith("style-src-attr") for v in page.evaluate("() => window.__violations"))
        worker = page.evaluate("() => window.explorables.client.violations")
        assert any(v["directive"] == "script-src" for v in worker), worker
        assert "could not start its engine" in page.locator("figure#explorer .ex-error").inner_text()
    finally:
        server.shutdown()
