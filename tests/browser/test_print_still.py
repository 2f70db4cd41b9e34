"""Figures on paper, without JavaScript, and on a browser that saves data: the build's
still (each figure's first frame as SVG) printed to PDF by Chromium, shown with
JavaScript off and when Python cannot start; the Start button that holds Python back
until a reader clicks it. Only the last test starts Python, once."""
from __future__ import annotations

import io
import re

import pytest

from conftest import ROOT, Guard
from helpers import SAVE_DATA, clear

LOW_MEMORY = """
Object.defineProperty(Navigator.prototype, "deviceMemory", { configurable: true, get() { return 1; } });
"""
COUNT_WORKERS = """
window.__workers = 0;
const Original = window.Worker;
window.Worker = function (...args) { window.__workers += 1; return new Original(...args); };
window.Worker.prototype = Original.prototype;
"""
STILL = re.compile(r'<div class="ex-still">.*?</div>\n(?=<figcaption|</figure>)', re.S)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def svg_only_texts(html: str) -> list[list[str]]:
    """For each figure of a page: the texts drawn in its stills' SVG that the page says
    nowhere else (so finding them in a PDF proves the SVG was printed). Its scripts' data
    (a figure's scene, which names the same things) says nothing on paper."""
    said = re.sub(r"<script\b.*?</script>", " ", STILL.sub("", html), flags=re.S)
    elsewhere = _squash(re.sub(r"<[^>]+>", " ", said))
    out = []
    for still in STILL.findall(html):
        texts = set()
        for drawing in re.findall(r"<svg .*?</svg>", still, re.S):
            texts |= {t for t in re.findall(r"<text[^>]*>([^<]{3,})</text>", drawing)}
        out.append(sorted(t for t in texts if _squash(t) not in elsewhere))
    return out


@pytest.fixture(scope="module")
def contexts(browser, site_url):
    """One context, with its page and guard, for each set of options the module's tests ask
    for (``init``: a script run before each document's own): the tests that ask for the same
    share it, each loading its lesson anew."""
    made = {}

    def get(**options):
        key = repr(sorted(options.items()))
        if key not in made:
            init = options.pop("init", None)
            ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
            if init:
                ctx.add_init_script(init)
            page = ctx.new_page()
            made[key] = (ctx, page, Guard(page, site_url))
        return made[key][1:]

    yield get
    for ctx, _, _ in made.values():
        ctx.close()


@pytest.fixture
def context(contexts):
    """The page of a context with the test's options (``context(init=..., **options)``) and
    its guard, started empty; after the test its routes and media are taken off and the
    guard is checked."""
    used = []

    def make(**options):
        page, guard = contexts(**options)
        clear(guard)
        used.append((page, guard))
        return page, guard

    yield make
    for page, guard in used:
        page.unroute_all(behavior="ignoreErrors")
        page.emulate_media(media="screen")
        guard.check()


@pytest.mark.parametrize("lesson", ["one-query-row", "two-heads"])
def test_printing_a_lesson_puts_each_figure_s_svg_in_the_pdf(context, site_url, built_site, lesson):
    from pypdf import PdfReader

    page, _ = context(init=SAVE_DATA + COUNT_WORKERS)  # saving data: no Python needed on paper
    page.goto(site_url + f"{lesson}.html")
    page.locator("figure.ex-figure.ex-drawn canvas").first.wait_for()
    assert page.locator("figure.ex-figure .ex-still").first.is_hidden()  # the live figure is on screen
    page.emulate_media(media="print")
    figures = page.locator("main figure.ex-figure")
    assert figures.count() >= 1
    for i in range(figures.count()):
        figure = figures.nth(i)
        assert figure.locator(".ex-still svg").first.is_visible()
        assert figure.locator("canvas").first.is_hidden()
        assert figure.locator(".ex-side").is_hidden()  # the controls
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    text = _squash("".join(p.extract_text() for p in pdf.pages))
    expected = svg_only_texts((built_site / f"{lesson}.html").read_text(encoding="utf-8"))
    assert len(expected) == figures.count()
    for i, texts in enumerate(expected):
        assert texts, f"figure {i}: no text of its SVG is unique to it"
        found = [t for t in texts if _squash(t) in text]
        assert found, f"figure {i}: none of {texts[:8]} is in the PDF"
    assert page.evaluate("window.__workers") == 0


def test_the_whole_track_prints_from_one_page(context, site_url, built_site):
    from pypdf import PdfReader

    page, _ = context()
    page.goto(site_url + "index.html")
    page.get_by_role("link", name="Print the whole track").click()
    page.wait_for_url("**/print.html")
    lessons = len(list((ROOT / "content").glob("0*.md")))
    assert page.locator(".ex-print-lesson").count() == lessons
    stills = page.locator(".ex-still svg")
    assert stills.count() > 5 and stills.first.is_visible()  # no engine: the stills are the figures
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    text = _squash("".join(p.extract_text() for p in pdf.pages))
    for heading in page.locator(".ex-print-lesson h1").all_inner_texts():
        assert _squash(heading) in text
    assert len(pdf.pages) >= 5  # a lesson a page at least
    # how to use a live figure is left off paper (a reader's finding)
    assert page.locator(".ex-figure + .ex-details").count() == lessons  # one figure a lesson
    assert _squash("How to use this figure") not in text


@pytest.mark.parametrize("lesson", ["one-query-row", "attention-heatmap", "positional-encoding"])
def test_without_javascript_the_figures_are_their_stills(context, site_url, lesson):
    page, _ = context(java_script_enabled=False)
    page.goto(site_url + f"{lesson}.html")
    figures = page.locator("main figure.ex-figure")
    assert figures.count() >= 1
    for i in range(figures.count()):
        figure = figures.nth(i)
        assert figure.locator(".ex-still svg").first.is_visible()
        assert figure.locator(".ex-noscript").is_visible()
        note = figure.locator(".ex-still-note")
        assert note.is_visible() and note.inner_text().startswith("In the live figure you can ")
        assert figure.locator("canvas").count() == 0
        box = figure.locator(".ex-still svg").first.bounding_box()
        assert box["width"] > 200 and box["height"] > 40


def test_python_that_cannot_start_leaves_the_still_and_says_why(context, site_url):
    page, guard = context()
    guard.allowed += ["Explorables", "Failed to load", "pyodide"]
    page.route("**/pyodide.mjs", lambda route: route.abort())
    page.goto(site_url + "one-query-row.html")
    figure = page.locator("main figure.ex-figure").first
    figure.and_(page.locator(".ex-unstarted")).wait_for(timeout=30_000)
    assert figure.locator(".ex-still svg").first.is_visible()
    assert figure.locator(".ex-still-note").is_visible()
    assert figure.locator(".ex-body").is_hidden()
    assert figure.locator(".ex-error").inner_text().startswith("This figure could not start its engine")
    guard.failed.clear()  # the request the test refused


def test_the_still_stays_unseen_until_the_runtime_and_shows_if_it_never_comes(context, site_url):
    """Before the runtime draws a figure its still keeps a place unseen and not laid out
    (no still, then a live layout, on a slow connection); a runtime script that never
    arrives leaves the still in view after three seconds."""
    page, guard = context()
    guard.allowed += ["Failed to load"]
    page.route(re.compile(r".*/js/explorables\.[a-z.-]*[0-9a-f]{8}\.js$"), lambda route: route.abort())
    page.goto(site_url + "one-query-row.html")
    figure = page.locator("main figure.ex-figure").first
    still = figure.locator(".ex-still svg").first
    assert figure.evaluate("f => f.classList.contains('ex-drawn')") is False
    assert still.is_hidden()
    assert still.evaluate("s => getComputedStyle(s).visibility") == "hidden"
    # nor is it laid out meanwhile: the page's first layout skips it
    assert figure.locator(".ex-still").evaluate("s => getComputedStyle(s).contentVisibility") == "hidden"
    box = figure.locator(".ex-still").bounding_box()
    assert box["height"] > 40  # its place is kept
    # what is left of the three seconds (the delay of a CSS animation, figures.css) runs ten
    # times as fast: the test reads that the still shows, not how long the page waited
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 10})
    try:
        still.wait_for(state="visible", timeout=10_000)
    finally:
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})  # the page is the module's
        cdp.detach()
    assert figure.locator(".ex-still").evaluate("s => getComputedStyle(s).contentVisibility") == "visible"
    assert figure.locator("canvas").count() == 0
    guard.failed.clear()  # the request the test refused


def test_low_memory_waits_for_the_reader_too(context, site_url):
    page, _ = context(init=LOW_MEMORY + COUNT_WORKERS)
    page.goto(site_url + "attention-heatmap.html")
    page.locator("button.ex-start").first.wait_for()
    page.wait_for_timeout(500)
    assert page.evaluate("window.__workers") == 0
    assert page.evaluate("window.explorables.client.started") is None


def test_before_python_a_cell_says_its_arithmetic_comes_later(context, site_url):
    """The first frame carries no cell arithmetic (the engine gives it once live): a
    reader who points at a cell or presses D before then is told so."""
    page, _ = context(init=SAVE_DATA + COUNT_WORKERS)
    page.goto(site_url + "attention-heatmap.html")
    page.locator("figure#table button.ex-start").wait_for()
    cell = page.locator('figure#table [data-key="cells:table"] tbody td').nth(3)
    cell.hover()
    box = page.locator('figure#table [data-key="cells:table"] .ex-detail')
    assert box.inner_text() == "The arithmetic appears once Python has started."
    cell.locator("button").focus()
    page.keyboard.press("d")
    page.locator(".ex-announcer", has_text="The arithmetic appears once Python has started.").wait_for()
    assert page.evaluate("window.__workers") == 0


def test_saving_data_starts_python_only_when_the_reader_clicks_start(context, site_url):
    page, _ = context(init=SAVE_DATA + COUNT_WORKERS)
    page.goto(site_url + "one-query-row.html")
    figure = page.locator("main figure.ex-figure").first
    start = figure.locator("button.ex-start")
    start.wait_for()
    assert re.fullmatch(r"Start the interactive figures \(1\d\.\d MB\)", start.inner_text())
    assert figure.locator("canvas").first.is_visible()  # the first frame, drawn without Python
    assert figure.locator(".ex-badge").is_hidden()
    page.mouse.move(5, 5)
    page.wait_for_timeout(1500)
    assert page.evaluate("window.__workers") == 0
    assert "ex-live" not in figure.get_attribute("class")
    start.click()
    assert page.locator("button.ex-start").count() == 0
    assert page.evaluate("window.__workers") == 1
    figure.and_(page.locator(".ex-live")).wait_for(timeout=60_000)
    fig_id = figure.get_attribute("id")
    values = page.evaluate("id => window.explorables.figures[id].update({temperature: 0.5})", fig_id)
    assert values["temperature"] == 0.5
