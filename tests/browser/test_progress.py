"""The reader's progress in Chromium, as a reader makes it: an exercise solved by typing
its answer, a question opened, lessons visited through the menu; the marks in the menu,
on the front page ("2 of 3 exercises", "Continue where you left off") and beside the
exercise survive a reload and the swaps between lessons, and "Forget my progress"
clears them. Storage the browser denies, or stored data that cannot be read, costs the
marks only: the lesson works and says nothing in the console."""

from __future__ import annotations

import json
import re

import pytest
from conftest import Guard, serve_folder
from helpers import answer_exercise, fresh_reader, held_for_good, progress_shown, served_site
from helpers import write_content as write_lessons

from explorables.engine.exercises import EXERCISES
from explorables.site_builder.commands.build import build_site

STORAGE = "explorables-progress /"  # localStorage's key for a site served at the root

DRILLS = """---
title: Drills
order: 1
---
Two exercises and a question.

:::{exercise} softmax-weight
:seed: 2
:name: constructor
:::

::::{question} What do the weights add up to?
One.
::::

:::{exercise} softmax-weight
:seed: 4
:::
"""

READING = "---\ntitle: Reading\norder: 2\n---\nA lesson to read, with no exercise.\n"
LONG = "---\ntitle: Long read\norder: 3\n---\n" + "".join(
    f"## Part {n}\n\n" + "A paragraph to read, line after line, with nothing to solve. " * 12 + "\n\n"
    for n in range(1, 13)
)


def right_weight(seed: int) -> str:
    exercise = EXERCISES["softmax-weight"]
    return f"{100 * exercise.solve(exercise.generate(seed)):.1f}%"


def write_content(folder):
    return write_lessons(folder, {"site.yml": 'title: "Progress"\n', "index.md": "# Progress\n\nTwo lessons.\n",
                                  "01-drills.md": DRILLS, "02-reading.md": READING, "03-long-read.md": LONG})


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("progress")
    write_content(folder)
    yield from served_site(folder)


@pytest.fixture
def reader(browser, site_url):
    """A fresh browser profile (empty storage), guarded against console errors."""
    yield from fresh_reader(browser, site_url)


def menu(page):
    return page.get_by_role("navigation", name="Lessons")


def mark_of(page, title: str) -> str | None:
    return menu(page).get_by_role("link", name=title).get_attribute("data-ex-progress")


def stored(page) -> dict:
    return page.evaluate("() => window.explorables.progress.data()")


def test_marks_survive_a_reload_and_the_swaps_between_lessons(reader, site_url):
    page = reader
    page.goto(site_url + "drills.html")
    page.evaluate("() => window.explorables.ready")
    drill = page.locator("div#constructor")
    assert answer_exercise(page, drill, "12%")[1] == "wrong"
    assert answer_exercise(page, drill, right_weight(2))[1] == "right"
    page.get_by_text("What do the weights add up to?").click()
    page.locator("div#constructor .ex-exercise-label[data-ex-solved]").wait_for()
    assert stored(page)["lessons"]["drills.html"]["exercises"] == {"constructor": {"solved": True, "tries": 2}}

    page.reload()
    progress_shown(page)
    label = page.locator("div#constructor .ex-exercise-label")
    assert label.get_attribute("data-ex-solved") == "solved in 2 tries"
    assert page.locator("div#ex-2 .ex-exercise-label").get_attribute("data-ex-solved") is None
    assert mark_of(page, "Drills") == "visited"  # one of two exercises: not complete
    assert stored(page)["lessons"]["drills.html"]["questions"] == {"q-1": True}

    menu(page).get_by_role("link", name="Reading").click()
    page.wait_for_function("() => document.querySelector('main h1')?.textContent === 'Reading'")
    progress_shown(page)
    assert mark_of(page, "Reading") == "complete"  # no exercise, and read to its end: it is short
    assert mark_of(page, "Drills") == "visited"
    menu(page).get_by_role("link", name="Drills").click()
    # Drills shown first: until then, the marks shown are Reading's, which progress_shown takes
    page.wait_for_function("() => document.querySelector('main h1')?.textContent === 'Drills'")
    progress_shown(page)
    assert page.locator("div#constructor .ex-exercise-label").get_attribute("data-ex-solved") == "solved in 2 tries"
    assert answer_exercise(page, page.locator("div#ex-2"), right_weight(4))[1] == "right"
    page.wait_for_function("() => window.explorables.progress.status('drills.html').complete")
    assert page.locator("div#ex-2 .ex-exercise-label").get_attribute("data-ex-solved") == "solved at the first try"
    assert mark_of(page, "Drills") == "complete"
    assert menu(page).get_by_role("link", name="Drills Complete", exact=True).count() == 1  # said, not only drawn
    assert page.evaluate("() => window.explorables.progress.status('drills.html')") == {
        "visited": True,
        "read": 1,
        "solved": 2,
        "exercises": 2,
        "complete": True,
    }


def test_an_answer_sent_before_the_later_scripts_came_is_kept(reader, site_url):
    """Pins a bug: an answer sent before js/later.js had come is graded as soon as
    exercise.js runs, which progress.js came after: with Python live, the verdict could
    come first, and the exercise solved was not kept."""
    page = reader
    later = re.compile(r".*/js/later\.[0-9a-f]+\.js$")
    held = []
    page.route(later, lambda route: held.append(route))
    page.goto(site_url + "drills.html", wait_until="domcontentloaded")  # (its load waits for later.js)
    page.evaluate("() => window.explorables.ready")
    page.locator("div#constructor").get_by_label("Your answer").click()
    page.keyboard.type(right_weight(2))
    page.keyboard.press("Enter")
    page.wait_for_function("() => (window.explorables._unchecked || []).length === 1")  # waits for the grader
    assert len(held) == 1
    held[0].continue_()
    page.unroute(later)
    page.locator("div#constructor .ex-feedback[data-verdict=right]").wait_for()
    progress_shown(page)
    assert stored(page)["lessons"]["drills.html"]["exercises"] == {"constructor": {"solved": True, "tries": 1}}
    assert page.locator("div#constructor .ex-exercise-label").get_attribute("data-ex-solved") == "solved at the first try"


def test_the_front_page_counts_and_continues_and_forget_clears(reader, site_url):
    page = reader
    page.goto(site_url + "drills.html")
    page.evaluate("() => window.explorables.ready")
    assert answer_exercise(page, page.locator("div#constructor"), right_weight(2))[1] == "right"
    page.locator("div#constructor .ex-exercise-label[data-ex-solved]").wait_for()

    # what is read from here on is the marks alone: the lesson's engine is held, never started
    held_for_good(page, re.compile(r".*\.wasm$"))
    page.goto(site_url + "index.html")
    progress_shown(page)
    drills = page.locator("main .ex-track a", has_text="Drills")
    assert drills.get_attribute("data-ex-progress-note") == "Visited · 1 of 2 exercises"
    assert page.locator("main .ex-track a", has_text="Reading").get_attribute("data-ex-progress-note") is None
    go_on = page.get_by_role("link", name="Continue where you left off: Drills")
    go_on.click()
    page.wait_for_function("() => document.querySelector('main h1')?.textContent === 'Drills'")
    assert page.evaluate("() => new URL(location.href).pathname") == "/drills.html"
    progress_shown(page)

    forget = page.get_by_role("button", name="Forget my progress")
    forget.click()
    page.get_by_role("button", name="Keep").click()  # asked first; kept
    assert stored(page)["lessons"]["drills.html"]["exercises"]["constructor"]["solved"] is True
    page.get_by_role("button", name="Forget my progress").click()
    page.get_by_role("button", name="Forget", exact=True).click()
    # said in the footer's line (and, a tick later, by the page's announcer: the footer's is the one waited for)
    page.get_by_role("contentinfo").get_by_text("Your progress is forgotten.").wait_for()
    assert stored(page) == {"v": 1, "last": "", "lessons": {}}
    assert page.evaluate(f"() => localStorage.getItem({STORAGE!r})") == '{"v":1,"last":"","lessons":{}}'
    assert mark_of(page, "Drills") is None
    assert page.locator("div#constructor .ex-exercise-label").get_attribute("data-ex-solved") is None
    page.goto(site_url + "index.html")
    progress_shown(page)
    assert page.locator("main .ex-continue a").count() == 0  # nothing to continue
    assert page.get_by_role("button", name="Forget my progress").count() == 0  # nothing to forget


def test_the_marks_move_nothing_on_the_front_page(reader, site_url):
    """The marks come after the first frame, into space kept for them: no layout shift."""
    page = reader
    page.goto(site_url + "reading.html")
    progress_shown(page)
    page.add_init_script("""(() => {
        window.__shifts = [];  // each shift: its size, and what moved
        new PerformanceObserver(list => list.getEntries().forEach(e => window.__shifts.push(
            [e.value, e.sources.map(s => s.node && (s.node.outerHTML || s.node.textContent || "").slice(0, 80))])))
            .observe({type: "layout-shift", buffered: true});
    })()""")
    page.goto(site_url + "index.html")
    progress_shown(page)
    page.get_by_role("link", name="Continue where you left off: Reading").wait_for()
    assert page.locator("main .ex-track a", has_text="Reading").get_attribute("data-ex-progress") == "complete"
    page.wait_for_timeout(300)  # a shift is reported in the frame after it
    assert page.evaluate("() => window.__shifts") == []


def test_a_lesson_with_no_exercise_is_complete_once_read_to_its_end(reader, site_url):
    page = reader
    page.goto(site_url + "long-read.html")
    progress_shown(page)
    first = page.evaluate("() => window.explorables.progress.status('long-read.html')")
    assert first["visited"] and 0 < first["read"] < 0.5 and not first["complete"]
    assert mark_of(page, "Long read") == "visited"
    page.mouse.move(600, 500)
    for _ in range(40):  # as a reader reads: the wheel, a step at a time
        page.mouse.wheel(0, 400)
        if page.evaluate("() => window.explorables.progress.status('long-read.html').complete"):
            break
    page.wait_for_function("() => document.querySelector('.ex-nav a[data-ex-progress=complete]')")
    assert mark_of(page, "Long read") == "complete"
    assert stored(page)["lessons"]["long-read.html"]["read"] == 1


def test_another_tab_of_the_site_sees_the_progress_change(reader, site_url):
    page = reader
    page.goto(site_url + "reading.html")
    progress_shown(page)
    other = page.context.new_page()
    other.goto(site_url + "index.html")
    progress_shown(other)
    assert other.locator("main .ex-track a", has_text="Reading").get_attribute("data-ex-progress") == "complete"
    page.get_by_role("button", name="Forget my progress").click()
    page.get_by_role("button", name="Forget", exact=True).click()
    other.wait_for_function("() => !document.querySelector('main .ex-track a[data-ex-progress]')")
    assert other.locator("main .ex-continue a").count() == 0
    other.close()


DENIED = {
    "turned off": """(() => {
        Object.defineProperty(window, "localStorage", {get() { throw new DOMException("denied", "SecurityError"); }});
    })()""",
    "full": """(() => {
        Storage.prototype.setItem = function () { throw new DOMException("full", "QuotaExceededError"); };
    })()""",
}


@pytest.mark.parametrize("storage", list(DENIED))
def test_with_storage_denied_the_lesson_still_works(reader, site_url, storage):
    page = reader
    page.add_init_script(DENIED[storage])
    page.goto(site_url + "drills.html")
    page.evaluate("() => window.explorables.ready")
    assert answer_exercise(page, page.locator("div#constructor"), right_weight(2))[1] == "right"
    page.locator("div#constructor .ex-exercise-label[data-ex-solved]").wait_for()  # kept for this visit
    menu(page).get_by_role("link", name="Reading").click()
    progress_shown(page)
    assert mark_of(page, "Drills") == "visited"
    page.reload()
    progress_shown(page)
    assert mark_of(page, "Drills") is None  # nothing could be kept


@pytest.mark.parametrize(
    "kept",
    [
        "{not json",
        '{"v": 1, "last": 5, "lessons": "drills.html"}',
        '{"v": 1, "last": "drills.html", "lessons": {"drills.html": {"visited": "x", "read": 9, '
        '"exercises": {"constructor": [1], "ex-2": {"solved": "yes", "tries": -3}}, "questions": []}}}',
        '{"v": 7, "lessons": {"drills.html": {"visited": 1}}}',
        "null",
    ],
)
def test_stored_data_that_cannot_be_read_is_ignored(reader, site_url, kept):
    page = reader
    # what the browser kept, in place before the lesson's first script reads it (the one
    # document this test loads)
    page.add_init_script(f"localStorage.setItem({STORAGE!r}, {json.dumps(kept)})")
    page.goto(site_url + "drills.html")
    page.evaluate("() => window.explorables.ready")
    progress_shown(page)
    data = stored(page)
    assert data["v"] == 1 and data["last"] == "drills.html"
    drills = data["lessons"]["drills.html"]
    assert drills["visited"] > 0 and 0 <= drills["read"] <= 1
    assert all(one["solved"] is False for one in drills["exercises"].values())
    assert mark_of(page, "Drills") == "visited"
    assert answer_exercise(page, page.locator("div#constructor"), right_weight(2))[1] == "right"
    page.locator("div#constructor .ex-exercise-label[data-ex-solved]").wait_for()


def test_useStore_merges_what_the_other_store_holds(reader, site_url):
    """The interface a SCORM package uses: another store's progress merged in, kept there.
    (No Python: the lesson's engine is held, never started, as nothing here needs it.)"""
    page = reader
    held_for_good(page, re.compile(r".*\.wasm$"))
    page.goto(site_url + "drills.html")
    progress_shown(page)
    merged = page.evaluate("""() => {
        const p = window.explorables.progress;
        let saved = null, told = 0;
        p.on(() => { told += 1; });
        p.useStore({
            load: () => ({v: 1, last: "reading.html", lessons: {
                "reading.html": {visited: 1, read: 0.5, exercises: {}, questions: {}},
                "gone.html": {visited: 1, read: 1, exercises: {}, questions: {}},
                "drills.html": {visited: 1, read: 0, exercises: {constructor: {solved: true, tries: 3}},
                                questions: {}}}}),
            save: data => { saved = data; },
        });
        return {data: p.data(), saved: saved, told: told, status: p.status("drills.html")};
    }""")
    assert merged["data"]["last"] == "drills.html"  # visited here later than there
    assert merged["data"]["lessons"]["drills.html"]["exercises"]["constructor"] == {"solved": True, "tries": 3}
    assert merged["data"]["lessons"]["reading.html"]["read"] == 0.5
    assert "gone.html" not in merged["data"]["lessons"]  # no lesson of the track: not carried on
    assert merged["saved"] == merged["data"] and merged["told"] == 2  # once on registering, once merged
    assert merged["status"] == {"visited": True, "read": 1, "solved": 1, "exercises": 2, "complete": False}


def test_a_new_deploy_keeps_the_marks(browser, tmp_path):
    """Progress is keyed by page and exercise id, not by build: after a rebuild that changes
    the lessons (and so the track's data and the pages' asset names), the marks are there."""
    content = write_content(tmp_path)
    build_site(content, tmp_path / "_site")
    server = serve_folder(tmp_path / "_site")
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    guard = Guard(page, base)
    try:
        page.goto(base + "drills.html")
        page.evaluate("() => window.explorables.ready")
        assert answer_exercise(page, page.locator("div#constructor"), right_weight(2))[1] == "right"
        page.locator("div#constructor .ex-exercise-label[data-ex-solved]").wait_for()
        track = page.evaluate("() => window.explorables.assetNames.track")
        (content / "01-drills.md").write_text(DRILLS.replace("Two exercises", "Still two exercises"), encoding="utf-8")
        (content / "02-reading.md").write_text(READING + "\n:::{exercise} softmax-weight\n:::\n", encoding="utf-8")
        build_site(content, tmp_path / "_site")  # the next deploy
        # what is read from here on is the marks alone: the lesson's engine is held, never started
        held_for_good(page, re.compile(r".*\.wasm$"))
        page.goto(base + "index.html")
        progress_shown(page)
        assert page.evaluate("() => window.explorables.assetNames.track") != track
        drills = page.locator("main .ex-track a", has_text="Drills")
        assert drills.get_attribute("data-ex-progress-note") == "Visited · 1 of 2 exercises"
        page.get_by_role("link", name="Continue where you left off: Drills").click()
        page.locator("div#constructor .ex-exercise-label[data-ex-solved]").wait_for()
        assert "Still two exercises" in page.locator("main").inner_text()
        guard.check()
    finally:
        context.close()
        server.shutdown()
