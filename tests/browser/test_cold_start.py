"""A cold start wastes no time: the engine's worker starts from the page's head, before
the body is parsed (js/start.js), and not at all for a page without figures or for a
reader who saves data; the engine archive is fetched alongside Pyodide rather than
after it; a page with several figures draws them one per task, each going live; and
the lesson's parts below the first screen are laid out after the first frame, one at a
time, and the rest a part a task once Python is live."""
from __future__ import annotations

import pytest

from explorables.site_builder.output.assets import plain_name
from helpers import assert_matches_cpython, module_page

RECORD = """(() => {
    const Real = window.Worker;
    window.__workers = [];  // {state: document.readyState, runtime: whether js/explorables.js ran, figures}
    window.Worker = function (url, options) {
        const ex = window.explorables;
        window.__workers.push({ state: document.readyState, runtime: !!(ex && ex.boot),
                                figures: ex && ex.figures ? Object.keys(ex.figures).length : 0 });
        return new Real(url, options);
    };
    window.Worker.prototype = Real.prototype;
    // parts of a figure held back while the page first lays it out (figure.js unfold)
    window.__held = 0;
    new MutationObserver(function (changes) {
        for (const c of changes) if (c.target.classList && c.target.classList.contains("ex-held")) window.__held++;
    }).observe(document, { attributes: true, attributeFilter: ["class"], subtree: true });
    // the parts of the lesson the browser left out of a layout (content-visibility)
    window.__skipped = new Set();
    document.addEventListener("contentvisibilityautostatechange", function (e) {
        if (e.skipped && e.target.classList.contains("ex-part")) window.__skipped.add(e.target.querySelector("h2").id);
    }, true);
})()"""
SAVE_DATA = """Object.defineProperty(Navigator.prototype, "connection",
  { configurable: true, get() { return { saveData: true, effectiveType: "4g", addEventListener() {} }; } });"""


@pytest.fixture(scope="module")
def cold(browser, site_url, built_site, browser_context_args):
    """One cold start, recorded, of a page of three figures made from the built lesson
    (the same figure three times); the tests below read what it did."""
    source = (built_site / "one-query-row.html").read_text()
    start = source.index('<figure class="ex-figure" id="explorer"')
    end = source.index("</figure>", start) + len("</figure>")
    block = source[start:end]
    extra = block.replace('id="explorer"', 'id="second"') + block.replace('id="explorer"', 'id="third"')
    (built_site / "__three.html").write_text(source[:end] + extra + source[end:])
    try:
        for page, guard in module_page(browser, site_url, browser_context_args):
            requests: list[str] = []
            page.context.on("request", lambda r: requests.append(r.url))
            page.add_init_script(RECORD)
            page.goto(site_url + "__three.html")
            page.evaluate("() => window.explorables.ready")
            yield page, requests
            guard.check()
    finally:
        (built_site / "__three.html").unlink()


def test_the_worker_starts_from_the_head_before_the_body_is_parsed(cold):
    """js/start.js makes the worker while the document is still loading, before the
    runtime runs or draws a figure; the runtime adopts it (no second worker) and the
    engine goes live on it."""
    page, _ = cold
    workers = page.evaluate("() => window.__workers")
    assert workers == [{"state": "loading", "runtime": False, "figures": 0}]
    assert page.evaluate("() => window.explorables.client.worker !== null && "
                         "window.explorables.client.started < performance.getEntriesByType('navigation')[0].domInteractive")


def test_no_early_worker_without_figures_nor_for_a_reader_who_saves_data(browser, site_url, browser_context_args):
    """A page with no figure nor exercise makes no worker at all; a reader who saves data
    gets the Start buttons and no worker until one is pressed."""
    from conftest import Guard

    for url, init, shown in (("index.html", "", "main h1"),
                             ("one-query-row.html", SAVE_DATA, "figure#explorer button.ex-start")):
        context = browser.new_context(**browser_context_args)
        try:
            page = context.new_page()
            guard = Guard(page, site_url)
            page.add_init_script(RECORD + ";" + init)
            page.goto(site_url + url)
            page.locator(shown).first.wait_for()
            page.wait_for_function("() => performance.getEntriesByName('explorables:first-frame').length > 0")
            assert page.evaluate("() => window.__workers") == [], url
            assert page.evaluate("() => window.explorables.client.started") is None, url
            guard.check()
        finally:
            context.close()


def test_the_engine_archive_is_requested_before_pyodide_itself(cold):
    _, requests = cold
    names = [url.rsplit("/", 1)[-1] for url in requests]
    names = [plain_name(name) or name for name in names]  # engine.0123abcd.zip -> engine.zip
    assert "engine.zip" in names and "pyodide.asm.wasm" in names
    assert names.index("engine.zip") < names.index("pyodide.mjs") < names.index("pyodide.asm.wasm")
    for name in ("engine.zip", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "stdlib.zip", "pyodide-lock.json"):
        assert names.count(name) == 1, (name, names)  # none downloaded twice (9.6 MB for the wasm)


def test_every_figure_of_a_page_with_several_is_drawn_and_goes_live(cold):
    page, _ = cold
    for fid in ("explorer", "second", "third"):
        page.locator(f"figure#{fid}.ex-live").wait_for()
    page.locator("figure#third [data-key] canvas, figure#third .ex-cells").first.wait_for()
    for fid in ("explorer", "second", "third"):
        assert_matches_cpython(page, fid, "attention-row")


def test_search_copy_and_exercises_load_after_the_first_frame(cold):
    """js/later.js is asked for only once the runtime has marked its first frame drawn,
    and then it works: the search box it makes is on the page."""
    page, requests = cold
    page.locator("#ex-search-input").wait_for(state="attached")
    timing = page.evaluate("""() => {
        const mark = performance.getEntriesByName("explorables:first-frame")[0];
        const later = performance.getEntriesByType("resource").find(e => /\\/js\\/later\\.[0-9a-f]+\\.js$/.test(e.name));
        return { mark: mark && mark.startTime, later: later && later.startTime };
    }""")
    assert timing["mark"] is not None and timing["later"] is not None, timing
    assert timing["later"] > timing["mark"]
    names = [url.rsplit("/", 1)[-1] for url in requests]
    assert sum(1 for n in names if n.startswith("later.")) == 1


def test_parts_below_the_first_screen_wait_and_are_all_laid_out_by_live(cold):
    page, _ = cold
    # (those left when Python is live follow a part a task, without waiting for idle moments)
    page.wait_for_function("() => !document.querySelector('.ex-part:not(.ex-shown)')")
    parts = page.evaluate("""() => Array.from(document.querySelectorAll(".ex-part"),
        p => ({ id: p.querySelector("h2").id, shown: p.classList.contains("ex-shown") }))""")
    assert len(parts) >= 5
    skipped = page.evaluate("() => Array.from(window.__skipped)")
    assert parts[-1]["id"] in skipped, (parts, skipped)  # the last one was not laid out at first
    assert all(p["shown"] for p in parts), parts  # and every one is now, as without parts
    # the table of contents marks the section being read, measured on the real heights
    page.mouse.wheel(0, 2000)
    page.wait_for_function("""() => {
        const current = document.querySelector(".ex-toc a[aria-current]");
        return current && current !== document.querySelector(".ex-toc a");
    }""")


def test_a_figure_is_laid_out_over_a_few_frames_and_whole_by_live(cold):
    """The first page lays each new figure out a few panels a frame (its controls and
    later panels are held back, display: none, for a frame or two); by the time Python is
    live nothing is held and every panel shows."""
    page, _ = cold
    # (a figure further down than a screen from the view may be drawn just after live)
    page.wait_for_function("() => Object.keys(window.explorables.figures).length === 3")
    page.wait_for_function("() => !document.querySelector('.ex-held')")
    assert page.evaluate("() => window.__held") >= 3  # at least one held part per figure
    shown = page.evaluate("""() => Array.from(document.querySelectorAll("figure.ex-figure .ex-panel, figure.ex-figure .ex-side"),
        el => el.getBoundingClientRect().height > 0)""")
    assert shown and all(shown)


def test_a_page_opened_at_an_anchor_lands_on_its_heading(cold, site_url):
    page, _ = cold
    last = page.evaluate("""() => Array.from(document.querySelectorAll(".ex-part h2")).pop().id""")
    # the next lesson, fetched ahead once this one is live, is not cut off by leaving
    page.wait_for_function("""() => performance.getEntriesByType("resource")
        .some(e => e.name.endsWith(new URL(document.querySelector("a[rel=next]").href).pathname))""")
    page.goto(site_url + "one-query-row.html#" + last)
    page.evaluate("() => window.explorables.ready")
    top = page.evaluate(f"() => document.getElementById({last!r}).getBoundingClientRect().top")
    scrolled = page.evaluate("() => window.scrollY")
    # at its place, give or take what moved above it once loaded (a badge, a font)
    assert scrolled > 1000 and -20 <= top < 120, (top, scrolled)
    assert page.evaluate("() => document.querySelectorAll('.ex-part:not(.ex-shown)').length") == 0
