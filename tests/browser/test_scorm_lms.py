"""A SCORM package played inside a real SCORM 1.2 runtime: scorm-again (the API that
learning management systems embed; tools/node_modules, installed by `npm ci --prefix
tools`) is the parent page's window.API, and the unzipped package plays in its iframe,
as an LMS plays it. A reader solves an exercise and reads a lesson; what scorm-again
recorded is checked (status, score, objectives, suspend data); a second session, in a
fresh browser with that record loaded into the API, brings the progress back. The same
package opened from disk, with no LMS, works and logs no error."""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest
from conftest import ROOT, Guard, serve_folder
from helpers import answer_exercise, held_for_good
from languages_site import BROWSER_LESSONS, DRILLS, make_site
from scorm_site import EXERCISES as SCORES
from scorm_site import READING, make_package

from explorables.engine.exercises import EXERCISES
from explorables.site_builder.authors import loader
from explorables.site_builder.commands.cli import main

SCORM_AGAIN = ROOT / "tools" / "node_modules" / "scorm-again" / "dist" / "scorm12.js"

# The LMS: scorm-again's SCORM 1.2 API as window.API, loaded with what an earlier session
# left (window.__record, set before the page's scripts run), every call counted.
LMS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A learning management system</title>
<script src="scorm12.js"></script>
<script>
  window.API = new Scorm12API({ logLevel: 5, autocommit: false });
  if (window.__record) window.API.loadFromJSON(window.__record);
  window.calls = [];
  ["LMSInitialize", "LMSCommit", "LMSFinish"].forEach(function (name) {
    window.API.on(name, function () { window.calls.push(name); });
  });
</script></head>
<body><iframe id="sco" title="The lessons" src="package/index.html" style="width: 1100px; height: 700px"></iframe>
</body></html>
"""

# The same LMS playing the package only where the test says: in a frame, the address
# after its '#' (say of another origin), or in a window the test opens.
BARE_PAGE = LMS_PAGE.replace('src="package/index.html" ', "").replace(
    "</body>", "<script>if (location.hash) document.getElementById('sco').src = location.hash.slice(1);</script></body>"
)

RECORDED = """() => {
  const cmi = JSON.parse(JSON.stringify(window.API.cmi));  // as the LMS stores it, write-only elements too
  const objectives = Object.values(cmi.objectives || {}).filter(function (o) { return o && o.id !== undefined; });
  return { status: cmi.core.lesson_status, raw: cmi.core.score.raw, min: cmi.core.score.min,
    max: cmi.core.score.max, suspend: cmi.suspend_data, location: cmi.core.lesson_location,
    exit: cmi.core.exit, session: cmi.core.session_time, calls: window.calls,
    objectives: objectives.map(function (o) { return { id: o.id, status: o.status, raw: o.score.raw }; }) };
}"""


def served_lms(folder, package_zip):
    """Serve ``folder`` as the LMS: its page, scorm-again and the package unzipped."""
    with zipfile.ZipFile(package_zip) as archive:
        archive.extractall(folder / "package")
    shutil.copy(SCORM_AGAIN, folder / "scorm12.js")
    (folder / "index.html").write_text(LMS_PAGE, encoding="utf-8")
    (folder / "bare.html").write_text(BARE_PAGE, encoding="utf-8")
    server = serve_folder(folder)
    yield f"http://127.0.0.1:{server.server_address[1]}/", folder
    server.shutdown()


@pytest.fixture(scope="module")
def lms(tmp_path_factory):
    """The LMS's folder, served, with the package of tests/scorm_site.py."""
    folder = tmp_path_factory.mktemp("lms")
    package_zip, _ = make_package(folder / "made")
    yield from served_lms(folder, package_zip)


@pytest.fixture(scope="module")
def lms_translated(tmp_path_factory):
    """The LMS's folder, served, with a package of a site in English, German and Hebrew
    (German lacks a lesson), whose German drills have an exercise of their own besides the
    two the English drills have."""
    folder = tmp_path_factory.mktemp("lms-translated")
    own = ":::{exercise} softmax-weight\n:seed: 7\n:name: own\n:::\n"
    lessons = {**BROWSER_LESSONS, "de/04-drills.md": DRILLS.format(title="Übungen", text="Drei Übungen.") + own}
    content = make_site(folder / "site", lessons=lessons)
    try:
        assert main(["bundle", str(content), "--scorm", "-o", str(folder / "translated.zip")]) == 0
    finally:
        loader.unload()  # the site's own figure
    yield from served_lms(folder, folder / "translated.zip")


def fresh_page(browser):
    """A page in a fresh browser (no storage of an earlier session) at the LMS's size."""
    return browser.new_context(viewport={"width": 1200, "height": 800}).new_page()


def errors_of(page, kinds=("error",)) -> list[str]:
    """What the page says in the console of ``kinds`` and its uncaught errors, as they come."""
    errors: list[str] = []
    page.on("console", lambda message: message.type in kinds and errors.append(message.text))
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


# The package's Pyodide files (a bundle reads them when its first page starts the engine)
PYODIDE_DATA = re.compile(r".*/bundle/pyodide-data\.[0-9a-f]+\.js$")


def hold_engine(context) -> None:
    """For a session that only reads: a bundle starts Python on every page it opens (for
    the next lesson's sake), and here its Pyodide files are asked for and never come, so
    Python never starts. A page whose files are held never fires its load event: a test
    waits for what it reads, not for that."""
    held_for_good(context, PYODIDE_DATA)


def open_session(browser, url: str, record: dict | None = None, kept: dict | None = None, held: bool = False):
    """A fresh browser (no storage of an earlier session, or ``kept`` as the progress this
    browser kept of the package) on the LMS's page: (page, the package's frame, guard).
    ``held``: a session that only reads, with the engine held (hold_engine)."""
    page = fresh_page(browser)
    guard = Guard(page, url)
    if held:
        hold_engine(page.context)
    if record is not None:
        page.add_init_script(f"if (window === window.top) window.__record = {json.dumps(record)};")
    if kept is not None:
        page.add_init_script(f"localStorage.setItem('explorables-progress /package/', {json.dumps(json.dumps(kept))});")
    page.goto(url, wait_until="domcontentloaded" if held else "load")
    frame = page.frame_locator("#sco")
    frame.locator("main").wait_for()
    sco = next(f for f in page.frames if f.url.endswith("package/index.html"))
    sco.wait_for_function("() => window.explorables && window.explorables.scorm && window.explorables.scorm.ready")
    sco.evaluate("() => window.explorables.scorm.ready")
    return page, frame, sco, guard


def typed(value) -> str:
    return f"{value:.3f}".replace("-", "\u2212")


def open_lesson(frame, sco, title: str, key: str) -> None:
    """The reader opens a lesson from the package's menu (its page's key: ``key``)."""
    frame.get_by_role("navigation", name="Lessons").get_by_role("link", name=title).click()
    sco.wait_for_function("key => window.explorables.progress.key() === key", arg=key)


def solve(page, frame, sco, place: int) -> None:
    """Answer the place-th exercise of the scores lesson right, as a reader types it, once
    the engine is live (``frame``: where the lesson is, ``sco``: its frame's scripts)."""
    sco.evaluate("() => window.explorables.ready")
    section = frame.locator(f".ex-exercise#ex-{place}")
    section.scroll_into_view_if_needed()
    name = section.get_attribute("data-exercise")
    seed = json.loads(section.locator("script.ex-exercise-data").text_content())["seed"]
    exercise = EXERCISES[name]
    assert answer_exercise(page, section, typed(exercise.solve(exercise.generate(seed)))) == ("Right.", "right")


def recorded(page) -> dict:
    return page.evaluate(RECORDED)


def test_a_reader_s_progress_is_recorded_by_the_lms_and_comes_back(browser, lms):
    url, _ = lms
    page, frame, sco, guard = open_session(browser, url)
    start = recorded(page)
    assert start["calls"][:1] == ["LMSInitialize"] and start["calls"].count("LMSInitialize") == 1
    assert start["status"] == "incomplete"  # from the start
    assert start["exit"] == "suspend"
    assert [o["id"] for o in start["objectives"]] == [SCORES, READING]

    # The reader opens the scores lesson from the menu and solves its first exercise.
    open_lesson(frame, sco, "Scores", "scores.html")
    solve(page, frame, sco, 1)
    page.wait_for_function("() => window.API.cmi.core.score.raw === '50'")
    after = recorded(page)
    assert (after["raw"], after["min"], after["max"]) == ("50", "0", "100")  # one exercise of two
    assert after["status"] == "incomplete"
    assert after["objectives"][0] == {"id": SCORES, "status": "incomplete", "raw": "50"}
    assert after["location"] == SCORES
    assert "LMSCommit" in after["calls"]  # a graded answer is committed at once

    # Then reads the reading lesson to its end.
    open_lesson(frame, sco, "Reading", "reading.html")
    frame.locator("main p").first.click()
    page.keyboard.press("End")
    page.wait_for_function("() => window.API.cmi.objectives.childArray[1].status === 'completed'")
    frame.locator("details.ex-question summary").click()  # and opens the question's answer
    sco.wait_for_function("() => window.explorables.progress.data().lessons['reading.html'].questions['q-1']")
    read = recorded(page)
    assert read["status"] == "incomplete"  # one exercise is left
    assert read["raw"] == "50"
    assert 0 < len(read["suspend"]) <= 4096
    kept = sco.evaluate("s => window.explorables.scorm.decode(s, window.explorablesTrack)", read["suspend"])
    assert kept["last"] == READING
    assert kept["lessons"][SCORES]["exercises"] == {"ex-1": {"solved": True, "tries": 1}}
    assert kept["lessons"][READING]["read"] == 1 and kept["lessons"][READING]["questions"] == {"q-1": True}

    # The reader leaves: the package says goodbye (pagehide) with the session's time.
    page.locator("#sco").evaluate("frame => { frame.src = 'about:blank'; }")
    page.wait_for_function("() => window.calls.includes('LMSFinish')")
    left = recorded(page)
    assert left["calls"][-1] == "LMSFinish"
    assert left["session"].count(":") == 2 and left["session"] != "00:00:00"
    guard.check()
    page.context.close()

    # A second session: a fresh browser, the LMS holding what the first one recorded.
    record = {
        "suspend_data": left["suspend"],
        "core": {
            "lesson_status": left["status"],
            "lesson_location": left["location"],
            "entry": "resume",
            "score": {"raw": left["raw"]},
        },
    }
    page, frame, sco, guard = open_session(browser, url, record)
    back = sco.evaluate("() => window.explorables.progress.data()")
    assert back["lessons"][SCORES]["exercises"]["ex-1"]["solved"] is True
    assert back["lessons"][READING]["read"] == 1
    assert sco.evaluate("k => window.explorables.progress.status(k).complete", READING) is True
    assert recorded(page)["status"] == "incomplete"

    # The reader solves the other exercise: every lesson is complete.
    open_lesson(frame, sco, "Scores", "scores.html")
    solve(page, frame, sco, 2)
    page.wait_for_function("() => window.API.cmi.core.lesson_status === 'completed'")
    done = recorded(page)
    assert done["raw"] == "100"
    assert [o["status"] for o in done["objectives"]] == ["completed", "completed"]
    guard.check()
    page.context.close()


def test_the_package_opened_from_disk_is_a_bundle_with_no_lms(browser, lms):
    _, folder = lms
    page = fresh_page(browser)
    errors = errors_of(page, ("error", "warning"))
    page.goto((folder / "package" / "scores.html").as_uri())
    page.wait_for_function("() => window.explorables.scorm")  # js/later.js has come
    solve(page, page, page, 1)  # the lesson is the page itself, no frame of an LMS
    assert page.evaluate("() => window.explorables.scorm.api") is None  # no LMS was found, none was called
    assert page.evaluate("() => window.explorables.progress.status('scores.html').solved") == 1
    assert errors == []
    page.context.close()


def test_what_the_browser_kept_of_another_learner_is_not_reported(browser, lms):
    """A class shares its computers: this browser holds another learner's progress in the
    package (an exercise solved), and a new learner opens it with an empty record."""
    url, _ = lms
    other = {
        "v": 1,
        "last": SCORES,
        "lessons": {SCORES: {"visited": 1, "read": 1, "exercises": {"ex-1": {"solved": True, "tries": 1}}}},
    }
    page, _, sco, guard = open_session(browser, url, kept=other, held=True)
    assert sco.evaluate("k => window.explorables.progress.status(k).solved", SCORES) == 0
    mine = recorded(page)
    assert mine["raw"] == "0" and mine["status"] == "incomplete"
    kept_now = json.loads(sco.evaluate("() => localStorage.getItem('explorables-progress /package/')") or "{}")
    assert "ex-1" not in kept_now.get("lessons", {}).get(SCORES, {}).get("exercises", {})  # not kept for the next one
    guard.check()
    page.context.close()


def test_a_lesson_read_in_another_language_is_that_lesson_done(browser, lms_translated):
    """In a site in several languages, a lesson and its translations are one objective,
    named by the default language's page: reading the German one completes it."""
    url, _ = lms_translated
    page, frame, sco, guard = open_session(browser, url, held=True)  # only read, nothing computed
    start = recorded(page)
    assert [o["id"] for o in start["objectives"]] == ["rows.html", "shares.html", "heads.html", "drills.html"]
    frame.locator(".ex-languages summary").click()
    frame.locator(".ex-languages").get_by_role("link", name="Deutsch").click()
    sco.wait_for_function("() => window.explorables.progress.key() === 'de/index.html'")
    frame.locator("nav a", has_text="Zeilen der Aufmerksamkeit").first.click()
    sco.wait_for_function("() => window.explorables.progress.key() === 'de/rows.html'")
    frame.locator("main p").first.click()
    page.keyboard.press("End")
    page.wait_for_function("() => window.API.cmi.objectives.childArray[0].status === 'completed'")
    read = recorded(page)
    assert [o["status"] for o in read["objectives"]] == ["completed", "not attempted", "not attempted", "not attempted"]
    assert read["status"] == "incomplete" and read["location"] == "de/rows.html"
    guard.check()
    page.context.close()


def test_a_lesson_is_scored_in_the_translation_the_learner_worked_in(browser, lms_translated):
    """The German drills have three exercises, the English two: one solved in German is a
    third of the lesson (it was counted against the English two, a half)."""
    url, _ = lms_translated
    page, frame, sco, guard = open_session(browser, url)
    assert [o["id"] for o in recorded(page)["objectives"]][-1] == "drills.html"
    frame.locator(".ex-languages summary").click()
    frame.locator(".ex-languages").get_by_role("link", name="Deutsch").click()
    sco.wait_for_function("() => window.explorables.progress.key() === 'de/index.html'")
    frame.locator("nav a", has_text="Übungen").first.click()
    sco.wait_for_function("() => window.explorables.progress.key() === 'de/drills.html'")
    sco.evaluate("() => window.explorables.ready")
    section = frame.locator(".ex-exercise").nth(2)
    section.scroll_into_view_if_needed()
    name = section.get_attribute("data-exercise")
    seed = json.loads(section.locator("script.ex-exercise-data").text_content())["seed"]
    assert seed == 7
    feedback = section.locator(".ex-feedback")
    section.get_by_label("Ihre Antwort").click()
    page.keyboard.type(typed(EXERCISES[name].solve(EXERCISES[name].generate(seed))))
    page.keyboard.press("Enter")
    section.locator(".ex-feedback[data-verdict]").wait_for()
    assert feedback.get_attribute("data-verdict") == "right"
    page.wait_for_function("() => window.API.cmi.objectives.childArray[3].score.raw === '33'")
    drills = recorded(page)["objectives"][3]
    assert drills == {"id": "drills.html", "status": "incomplete", "raw": "33"}
    guard.check()
    page.context.close()


def test_a_package_opened_in_a_new_window_finds_the_lms_through_its_opener(browser, lms):
    """Moodle's "Display package: New window": the package in a window the LMS's page opened."""
    url, _ = lms
    page = fresh_page(browser)
    guard = Guard(page, url)
    hold_engine(page.context)  # only the API is looked for
    page.goto(url + "bare.html")
    with page.expect_popup() as opened:
        page.evaluate("() => { window.open('package/index.html', 'sco'); }")
    popup = opened.value
    errors = errors_of(popup)
    popup.wait_for_function("() => window.explorables && window.explorables.scorm && window.explorables.scorm.ready")
    popup.evaluate("() => window.explorables.scorm.ready")
    assert popup.evaluate("() => window.explorables.scorm.api === window.opener.API") is True
    started = recorded(page)
    assert started["calls"][0] == "LMSInitialize" and "LMSFinish" not in started["calls"]
    assert started["status"] == "incomplete"
    popup.close(run_before_unload=True)
    page.wait_for_function("() => window.calls.includes('LMSFinish')")
    assert errors == []
    guard.check()
    page.context.close()


def test_a_parent_of_another_origin_is_no_lms(browser, lms):
    """A page of another site around the package: its window.API cannot be reached, and
    the package is a bundle like any other, with nothing in the console."""
    url, _ = lms
    page = fresh_page(browser)
    errors = errors_of(page)
    hold_engine(page.context)  # only the API is looked for
    elsewhere = url.replace("127.0.0.1", "localhost") + "package/index.html"
    page.goto(f"{url}bare.html#{elsewhere}", wait_until="domcontentloaded")
    page.frame_locator("#sco").locator("main").wait_for()
    frame = next(f for f in page.frames if f.url == elsewhere)
    frame.wait_for_function("() => window.explorables && window.explorables.scorm")  # later.js
    assert frame.evaluate("() => window.explorables.scorm.api") is None
    assert page.evaluate("() => window.calls") == []
    assert errors == []
    page.context.close()


def test_in_review_mode_the_lms_records_nothing(browser, lms):
    """A teacher (or a learner after the course) reviews the package: the lessons work, and
    nothing the reader does is written into the record."""
    url, _ = lms
    page, frame, sco, guard = open_session(browser, url, {"core": {"lesson_mode": "review"}}, held=True)
    open_lesson(frame, sco, "Reading", "reading.html")
    frame.locator("main p").first.click()
    page.keyboard.press("End")
    sco.wait_for_function("k => window.explorables.progress.status(k).complete", arg=READING)
    seen = recorded(page)
    assert (seen["status"], seen["suspend"], seen["raw"], seen["objectives"]) == ("not attempted", "", "", [])
    assert seen["calls"] == ["LMSInitialize"]
    guard.check()
    page.context.close()


def test_with_a_mastery_score_the_package_passes_at_that_score(browser, lms):
    """An LMS that gives the package a mastery score (cmi.student_data.mastery_score)
    expects "passed" rather than "completed": here once half the exercises are solved."""
    url, _ = lms
    page, frame, sco, guard = open_session(browser, url, {"student_data": {"mastery_score": "50"}})
    assert recorded(page)["status"] == "incomplete"
    open_lesson(frame, sco, "Scores", "scores.html")
    solve(page, frame, sco, 1)
    page.wait_for_function("() => window.API.cmi.core.lesson_status === 'passed'")
    assert recorded(page)["raw"] == "50"
    guard.check()
    page.context.close()
