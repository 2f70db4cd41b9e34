"""Instant navigation on a served site: a link to another lesson swaps its content into
the open page, its figures go live on the engine already running (one worker per
visit), history and focus behave, and any failure falls back to a plain load."""
from __future__ import annotations

import contextlib
import re
import time

import pytest

from helpers import assert_matches_cpython, in_lesson, shared_page, state_of

FIGURES = {  # page -> (figure id, figure name)
    "one-query-row.html": ("explorer", "attention-row"),
    "attention-heatmap.html": ("table", "attention-heatmap"),
    "attention-lab.html": ("lab", "attention-lab"),
    "two-heads.html": ("heads", "attention-heads"),
    "positional-encoding.html": ("clocks", "positional-encoding"),
}

# how many of the lesson's parts wait to be laid out (parts.js) when a page is swapped in
PARTS_AT_MOUNT = """() => window.explorables.pages.on("mount", root => {
    window.__partsAtMount = root.querySelectorAll(".ex-part:not(.ex-shown)").length; })"""
COUNT_WORKERS = """(() => {
    const Real = window.Worker; window.__workers = 0;
    window.Worker = function (url, options) { window.__workers += 1; return new Real(url, options); };
})()"""


shared = shared_page(own=True)


@pytest.fixture
def lesson(shared, site_url):
    """Lesson 1 swapped in fresh on the module's page, whose Worker constructor counts."""
    counting(shared)
    yield from in_lesson(shared, site_url + "one-query-row.html", "explorer")


def counting(shared) -> None:
    """The module's page counts its workers from its first load on."""
    page, _ = shared
    if page.url == "about:blank":  # before the module's first load
        page.add_init_script(COUNT_WORKERS)


def next_lesson(page):
    """The lesson the "Next" link leads to: (its file, its title, figure id, figure name)."""
    link = page.locator("a[rel=next]")
    href = link.get_attribute("href")
    title = link.inner_text().replace("Next", "", 1).strip()
    return (href, title, *FIGURES[href])


def test_next_swaps_the_lesson_in_and_keeps_python(lesson, site_url):
    page = lesson
    page.evaluate("() => { window.__sameDocument = true; }")
    page.evaluate(PARTS_AT_MOUNT)
    href, title, figure_id, figure = next_lesson(page)
    page.locator("a[rel=next]").click()
    page.locator(f"figure#{figure_id}.ex-live").wait_for()
    assert page.url == site_url + href
    # landing at its top, the lesson is laid out part by part after the swap, as a first page
    assert page.evaluate("() => window.__partsAtMount") >= 3
    page.wait_for_function("() => !document.querySelector('.ex-part:not(.ex-shown)')")
    assert page.evaluate("() => window.__sameDocument") is True  # no new document was loaded
    assert page.evaluate("() => window.__workers") == 1
    assert page.locator("main h1").inner_text() == title
    assert page.evaluate("() => document.activeElement.tagName") == "H1"
    assert page.title().startswith(title)
    page.locator(".ex-announcer", has_text=title).wait_for()
    assert page.locator('nav[aria-label="Lessons"] a[aria-current="page"]').inner_text() == title
    page.evaluate(f"() => window.explorables.figures['{figure_id}'].update({{}})")
    assert_matches_cpython(page, figure_id, figure)


# Whether a canvas has something drawn on it, read from a copy (reading a canvas the page
# draws on again and again makes Chromium warn in the console).
INKED_JS = """c => {
    if (!c.width) return false;
    const copy = document.createElement("canvas");
    copy.width = c.width; copy.height = c.height;
    const g = copy.getContext("2d", { willReadFrequently: true });
    g.drawImage(c, 0, 0);
    return g.getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 0);
}"""

# The engine's answers held until window.__release(): a change being computed, for as
# long as a test needs.
HOLD_ANSWERS = """() => {
    const ex = window.explorables, step = ex.client.step, held = [];
    ex.client.step = function () {
        const self = this, args = arguments;
        return new Promise(resolve => held.push(() => resolve(step.apply(self, args))));
    };
    window.__release = () => { ex.client.step = step; held.splice(0).forEach(go => go()); };
}"""


@contextlib.contextmanager
def answers_held(page):
    """The engine's answers held while the block runs, and let go however it ends (a held
    answer would keep the module's next test waiting for ever)."""
    page.evaluate(HOLD_ANSWERS)
    try:
        yield
    finally:
        page.evaluate("() => window.__release && window.__release()")


# As soon as the swapped-in figure is live, a change to it (its answer held): what the
# page has made of the figure and of the lesson's parts then, and two frames and an idle
# moment later (parts.js lays parts out when idle, unfold makes a panel a frame). Set
# going before the reader's click (``changed_at_live``), it looks in every frame: in the first
# one after the swap the figure has its first panel alone, however late the test's next
# call to the page comes on a busy machine.
CHANGE_AT_LIVE = """async (id) => {
    // how many of the figure's planes have something drawn on them
    const drawn = () => Array.from(document.querySelectorAll(`#${id} canvas`)).filter(INKED_JS).length;
    const made = () => ({ panels: document.querySelectorAll(`#${id} .ex-panel`).length,
                          parts: document.querySelectorAll(".ex-part.ex-shown").length });
    const live = () => document.getElementById(id) && document.getElementById(id).classList.contains("ex-live");
    await new Promise(r => { const t = () => live() ? r() : requestAnimationFrame(t); t(); });
    const figure = window.explorables.figures[id];
    window.__answer = figure.update({});
    const before = made(), total = figure.scene.panels.length;
    const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    await frame(); await frame();
    await new Promise(r => requestIdleCallback(r));
    return { before, after: made(), total, drawn: drawn(), planes: document.querySelectorAll(`#${id} canvas`).length };
}""".replace("INKED_JS", INKED_JS)


def changed_at_live(page, figure_id: str) -> dict:
    """The reader clicks "Next"; what CHANGE_AT_LIVE saw of ``figure_id`` on the lesson
    swapped in (watched from before the click)."""
    page.evaluate(f"id => {{ window.__seen = ({CHANGE_AT_LIVE})(id); }}", figure_id)
    page.locator("a[rel=next]").click()
    return page.evaluate("() => window.__seen")


def test_a_swapped_lesson_draws_a_figures_answer_before_the_work_that_can_wait(lesson):
    """On a lesson just swapped in, a change to its figure is drawn before the page goes
    on with what can wait: the figure's panels still to come (made a frame each) and the
    lesson's parts below (laid out when the page is idle)."""
    page = lesson
    _, _, figure_id, figure = next_lesson(page)
    with answers_held(page):
        seen = changed_at_live(page, figure_id)
        assert seen["before"]["panels"] < seen["total"]  # the figure was still being made
        assert seen["after"] == seen["before"], seen  # nothing more while its answer is computed
    page.evaluate("() => window.__answer")
    # then the rest comes: every panel, every part
    page.wait_for_function(f"() => document.querySelectorAll('#{figure_id} .ex-panel').length === {seen['total']}")
    page.wait_for_function("() => !document.querySelector('.ex-part:not(.ex-shown)')")
    assert_matches_cpython(page, figure_id, figure)


@pytest.fixture
def before_planes(shared, site_url):
    """Lesson 4, whose next lesson's figure begins with a plane, on a window tall enough
    for that plane to be near the view when it is swapped in."""
    for page in in_lesson(shared, site_url + "two-heads.html", "heads"):
        page.set_viewport_size({"width": 1280, "height": 1000})
        yield page


def test_a_swapped_lesson_draws_its_planes_once_from_the_answer(before_planes):
    """A plane of the lesson swapped in comes into sight while the change made to its
    figure is computed: it is drawn from the answer, not from the build's scene first."""
    page = before_planes
    _, _, figure_id, figure = next_lesson(page)
    with answers_held(page):
        seen = changed_at_live(page, figure_id)
        assert seen["planes"] >= 1 and seen["drawn"] == 0, seen  # none drawn while the answer is computed
    page.evaluate("() => window.__answer")
    # then the answer draws them: the planes there were, near the reader's view
    page.wait_for_function(DRAWN_PLANES, arg=[figure_id, seen["planes"]])
    assert_matches_cpython(page, figure_id, figure)


DRAWN_PLANES = """([id, n]) => Array.from(document.querySelectorAll(`#${id} canvas`)).slice(0, n)
    .filter(INKED_JS).length === n""".replace("INKED_JS", INKED_JS)


def test_back_returns_to_the_figure_as_the_reader_left_it(lesson, site_url):
    page = lesson
    page.evaluate("() => window.explorables.figures.explorer.update({temperature: 3})")
    page.evaluate("""() => document.addEventListener('click', () => { window.__scrollAtClick = window.scrollY; },
                                                     { capture: true, once: true })""")
    href, title, figure_id, figure = next_lesson(page)
    page.locator("a[rel=next]").click()
    left_at = page.evaluate("() => window.__scrollAtClick")
    assert left_at > 600  # the reader was down by the Next link
    page.locator(f"figure#{figure_id}.ex-live").wait_for()
    page.mouse.move(640, 400)  # down the next lesson, where Forward brings the reader back
    while (y := page.evaluate("() => window.scrollY")) < 1500:
        page.mouse.wheel(0, 800)
        page.wait_for_function("y => window.scrollY > y", arg=y)
    down = page.evaluate("() => window.scrollY")
    page.evaluate(PARTS_AT_MOUNT)
    page.go_back()
    page.wait_for_url(site_url + "one-query-row.html")
    page.locator("figure#explorer.ex-live").wait_for()
    assert page.evaluate("() => window.__partsAtMount") == 0  # a kept scroll position: laid out at once
    assert state_of(page, "explorer")["temperature"] == 3
    assert_matches_cpython(page, "explorer", "attention-row")
    assert abs(page.evaluate("() => window.scrollY") - left_at) < 5  # where the reader left it
    page.go_forward()
    page.locator(f"figure#{figure_id}.ex-live").wait_for()
    # where the reader left it too (its history entry was left by Back, so it held no scroll:
    # Forward landed at the top)
    page.wait_for_function("down => Math.abs(window.scrollY - down) < 5", arg=down)
    assert page.evaluate("() => window.__workers") == 1


def test_a_link_to_an_anchor_of_another_lesson_lands_on_it(lesson, site_url, built_site):
    page = lesson
    headings = re.findall(r'<h2 id="([^"]+)"', (built_site / "attention-heatmap.html").read_text())
    target = headings[len(headings) // 2]  # a section in the middle of the lesson
    page.evaluate("""(target) => {
        const a = document.createElement('a'); a.href = 'attention-heatmap.html#' + target; a.id = 'jump';
        a.textContent = 'jump'; document.querySelector('main').prepend(a);
    }""", target)
    page.evaluate(PARTS_AT_MOUNT)
    page.click("#jump")
    page.wait_for_url(site_url + f"attention-heatmap.html#{target}")
    page.locator("figure#table.ex-live").wait_for()
    assert page.evaluate("() => window.__partsAtMount") == 0  # an anchor: laid out at once
    assert page.evaluate("() => document.activeElement.id") == target
    top = page.evaluate("(t) => document.getElementById(t).getBoundingClientRect().top", target)
    assert -2 <= top < 200  # scrolled to it
    assert page.evaluate("() => window.__workers") == 1


def test_a_reload_keeps_the_reader_s_place(shared, site_url):
    """Pins a reader's finding: a reload went back to the top of the lesson (4000 -> 0):
    the page turns the browser's own scroll restoration off (it restores swapped pages
    itself) and restored nothing on a reload. (On the module's page: the reload is the
    test's one new start of Python.)"""
    counting(shared)
    for page in in_lesson(shared, site_url + "attention-lab.html", "lab"):
        page.mouse.move(640, 400)
        while (y := page.evaluate("() => window.scrollY")) < 4000:
            page.mouse.wheel(0, 800)
            page.wait_for_function("y => window.scrollY > y", arg=y)  # the wheel's scroll has come
        before = page.evaluate("() => window.scrollY")
        heading = page.evaluate("""() => [...document.querySelectorAll('main h2')]
            .filter(h => h.getBoundingClientRect().top < innerHeight / 2).pop().id""")
        page.reload()
        page.evaluate("() => window.explorables.ready")
        page.wait_for_function("before => Math.abs(window.scrollY - before) < 5", arg=before)  # the place is put back
        top = page.evaluate(f"() => document.getElementById({heading!r}).getBoundingClientRect().top")
        assert top < page.viewport_size["height"] / 2  # the same section in view


FETCHED = """href => performance.getEntriesByType("resource").some(e => e.name.endsWith("/" + href) && e.responseEnd > 0)"""


def test_the_next_lesson_is_fetched_once_live_even_on_a_busy_page_and_next_uses_it(page, guard, site_url):
    """The next lesson is fetched ahead as soon as the figures are live, not at an idle
    moment a busy page may not have (waiting for one cost a reader who goes on at once
    40 ms), and Next swaps that copy in: one request for it in all. A lesson swapped in
    fetches the one after it a second later (at once, parsing it came while the new
    figures first answered), and Next uses that copy too."""
    # never idle: an idle callback runs only when its timeout is up
    page.add_init_script("window.requestIdleCallback = (fn, options) => setTimeout(fn, (options || {}).timeout || 1e9);")
    asked = []
    page.on("request", lambda request: asked.append((time.monotonic(), request.url)))
    page.goto(site_url + "one-query-row.html")
    page.evaluate("() => window.explorables.ready")
    href = page.locator("a[rel=next]").get_attribute("href")
    page.wait_for_function(FETCHED, arg=href, timeout=5000)
    page.evaluate("() => { window.__sameDocument = true; }")
    page.locator("a[rel=next]").click()
    page.locator(f"figure#{FIGURES[href][0]}.ex-live").wait_for()
    swapped = time.monotonic()
    assert page.evaluate("() => window.__sameDocument") is True
    assert [url for _, url in asked if url.endswith("/" + href)] == [site_url + href]

    after = page.locator("a[rel=next]").get_attribute("href")
    page.wait_for_function(FETCHED, arg=after, timeout=5000)
    (when,) = [t for t, url in asked if url.endswith("/" + after)]
    assert when - swapped > 0.9, "fetched at once, beside the new figures' first answers"
    page.locator("a[rel=next]").click()
    page.locator(f"figure#{FIGURES[after][0]}.ex-live").wait_for()
    assert page.evaluate("() => window.__sameDocument") is True
    assert [url for _, url in asked if url.endswith("/" + after)] == [site_url + after]


def test_a_lesson_swapped_in_asks_the_worker_to_make_its_next_lesson_s_figures_ready(lesson):
    """The worker is told the figures of the lesson after the one swapped in (it imports
    them and draws each once while idle), not only those of the first page's next."""
    page = lesson
    page.evaluate("""() => { const worker = window.explorables.client.worker; const post = worker.postMessage.bind(worker);
        window.__told = []; worker.postMessage = m => { if (m.type === "ahead") window.__told.push(m.next); post(m); }; }""")
    href, _, figure_id, _ = next_lesson(page)
    page.locator("a[rel=next]").click()
    page.locator(f"figure#{figure_id}.ex-live").wait_for()
    after = page.locator("a[rel=next]").get_attribute("href")
    assert page.evaluate("() => window.__told") == [[FIGURES[after][1]]]


def test_a_page_that_cannot_be_swapped_in_loads_plainly(lesson, shared, site_url):
    """(Last in the file: it leaves the module's page on a plain load.)"""
    page, guard = lesson, shared[1]
    guard.allowed.append("404")
    page.evaluate("""() => {
        const a = document.createElement('a'); a.href = 'no-such-lesson.html'; a.id = 'gone';
        a.textContent = 'gone'; document.querySelector('main').prepend(a);
    }""")
    with page.expect_navigation():
        page.click("#gone")
    assert page.url == site_url + "no-such-lesson.html"
    guard.failed.clear()
