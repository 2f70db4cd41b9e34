"""A reader's progress follows them across the language switch, lesson for lesson (issue
38): an exercise solved by typing its answer in the English lesson is solved in its
German translation too (its mark beside the exercise, in the menu and on the German front
page's count), "Continue where you left off" on the German front page leads to the
German lesson (to the German stand-in of a lesson German lacks), and a store kept by a
translation's own page key, as earlier builds kept it, is merged in, not lost. In the
three-language site the browser tests share (languages_site.served: its lesson of two
exercises in English and German, its lesson "heads" missing in German)."""

from __future__ import annotations

import json

import pytest
from helpers import answer_exercise, fresh_reader, progress_shown
from languages_site import served

from explorables.engine.exercises import EXERCISES

STORAGE = "explorables-progress /"  # localStorage's key for a site served at the root


def right_weight(seed: int) -> str:
    exercise = EXERCISES["softmax-weight"]
    return f"{100 * exercise.solve(exercise.generate(seed)):.1f}%"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return served(tmp_path_factory)[0]


@pytest.fixture
def reader(browser, base):
    """A fresh browser profile (empty storage), guarded against console errors."""
    yield from fresh_reader(browser, base)


def menu_mark(page, title: str) -> str | None:
    return page.locator(".ex-header nav a", has_text=title).first.get_attribute("data-ex-progress")


def switch_to(page, code: str) -> None:
    """The language switch, by mouse: its menu, then the language."""
    page.locator(".ex-languages summary").click()
    page.locator(f".ex-languages a[hreflang={code}]").click()
    page.wait_for_function("code => document.documentElement.lang === code", arg=code)


def test_an_exercise_solved_in_english_is_solved_in_german(reader, base):
    """One engine for the whole walk: solved in English, seen in German (the mark, the
    menu, the German front page's count and its "continue"), completed in German, seen
    complete in English."""
    page = reader
    page.goto(base + "drills.html")
    page.evaluate("() => window.explorables.ready")
    page.evaluate("() => { window.__samePage = true; }")
    assert answer_exercise(page, page.locator("div#weight"), "12%")[1] == "wrong"
    assert answer_exercise(page, page.locator("div#weight"), right_weight(2))[1] == "right"
    page.locator("div#weight .ex-exercise-label[data-ex-solved]").wait_for()

    switch_to(page, "de")
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'Übungen'")
    assert page.evaluate("() => location.pathname") == "/de/drills.html"
    progress_shown(page)
    label = page.locator("div#weight .ex-exercise-label")
    assert label.get_attribute("data-ex-solved") == "gelöst im 2. Versuch"  # the English tries, in German
    assert page.locator("div#again .ex-exercise-label").get_attribute("data-ex-solved") is None
    assert menu_mark(page, "Übungen") == "visited"
    data = page.evaluate("() => window.explorables.progress.data()")
    assert list(data["lessons"]) == ["drills.html"]  # one lesson, not two
    assert data["last"] == "de/drills.html"  # the page read last, in its language (SCORM's lesson_location)
    assert page.evaluate("() => window.__samePage") is True  # switched in place, not loaded anew

    # the German front page counts the English answer and continues in German
    page.locator("a.ex-site-title").click()
    page.wait_for_function("() => location.pathname === '/de/index.html' || location.pathname === '/de/'")
    progress_shown(page)
    drills = page.locator("main .ex-track a", has_text="Übungen")
    assert drills.get_attribute("data-ex-progress-note") == "Besucht · 1 von 2 Übungen"
    go_on = page.get_by_role("link", name="Weiterlesen, wo Sie aufgehört haben: Übungen")
    go_on.click()
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'Übungen'")
    assert page.evaluate("() => location.pathname") == "/de/drills.html"
    progress_shown(page)
    assert page.locator("div#weight .ex-exercise-label").get_attribute("data-ex-solved") == "gelöst im 2. Versuch"
    page.evaluate("() => { window.__samePage = true; }")

    # the other exercise, solved in German, completes the lesson in English too
    again = page.locator("div#again")
    again.get_by_label("Ihre Antwort").click()
    page.keyboard.type(right_weight(4))
    page.keyboard.press("Enter")
    assert again.locator(".ex-feedback[data-verdict]").get_attribute("data-verdict") == "right"
    page.wait_for_function("() => window.explorables.progress.status('de/drills.html').complete")
    assert menu_mark(page, "Übungen") == "complete"
    switch_to(page, "en")
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'Drills'")
    progress_shown(page)
    assert menu_mark(page, "Drills") == "complete"
    assert page.locator("div#again .ex-exercise-label").get_attribute("data-ex-solved") == "solved at the first try"
    assert page.evaluate("() => window.__samePage") is True  # switched in place, not loaded anew


def test_continue_in_german_leads_to_the_stand_in_of_a_lesson_german_lacks(reader, base):
    page = reader
    page.goto(base + "heads.html")
    progress_shown(page)
    page.goto(base + "de/index.html")
    progress_shown(page)
    page.get_by_role("link", name="Weiterlesen, wo Sie aufgehört haben: Several heads").click()
    page.wait_for_function("() => location.pathname === '/de/heads.html'")
    page.locator("p.ex-untranslated").wait_for()
    progress_shown(page)
    assert menu_mark(page, "Several heads") == "complete"  # read in English: read in German


def test_a_store_kept_by_a_translations_own_key_is_merged_in(reader, base):
    """Builds before lessons were kept by the lesson kept a translation as a page of its own."""
    page = reader
    old = {
        "v": 1,
        "last": "de/drills.html",
        "lessons": {
            "de/drills.html": {"visited": 5, "read": 0.5, "exercises": {"weight": {"solved": True, "tries": 3}}},
            "drills.html": {"visited": 4, "read": 0.2, "exercises": {"again": {"solved": False, "tries": 1}}},
        },
    }
    page.add_init_script(f"localStorage.setItem({STORAGE!r}, {json.dumps(json.dumps(old))})")
    page.goto(base + "index.html")
    progress_shown(page)
    assert page.locator("main .ex-track a", has_text="Drills").get_attribute("data-ex-progress-note") == (
        "Visited · 1 of 2 exercises"
    )
    page.get_by_role("link", name="Continue where you left off: Drills").wait_for()
    data = page.evaluate("() => window.explorables.progress.data()")
    assert data["lessons"]["drills.html"]["exercises"] == {
        "weight": {"solved": True, "tries": 3},
        "again": {"solved": False, "tries": 1},
    }
    assert data["lessons"]["drills.html"]["read"] == 0.5 and "de/drills.html" not in data["lessons"]
    assert data["last"] == "de/drills.html"  # kept: continued in the language of the page it is on
    page.wait_for_function(  # stored merged
        f"() => Object.keys(JSON.parse(localStorage.getItem({STORAGE!r})).lessons).join() === 'drills.html'"
    )


def test_the_marks_are_in_the_words_of_the_language_switched_to(reader, base):
    """The marks drawn after a switch are in the new language's words, however late they
    come (here German's, held), and coming back to the language the page opened in needs
    no words to come at all."""
    page = reader
    held = []
    page.route("**/words/de*.js", lambda route: held.append(route))
    page.goto(base + "drills.html")
    progress_shown(page)
    assert menu_mark(page, "Drills") == "visited"
    page.locator(".ex-languages summary").click()
    page.locator(".ex-languages a[hreflang=de]").click()
    for _ in range(3000):  # until German's words are asked for (on the way, or ahead once live): held
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "German's words were never asked for"
    assert page.evaluate("() => document.body.dataset.exProgressShown") == "drills.html"  # not drawn yet
    for route in held:
        route.continue_()
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'Übungen'")
    progress_shown(page)
    link = page.locator(".ex-header nav a", has_text="Übungen").first
    assert link.get_attribute("data-ex-progress-label") == "Besucht"
    page.unroute("**/words/de*.js")
    page.route("**/words/*.js", lambda route: route.abort())  # the way back: nothing to wait for
    switch_to(page, "en")
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'Drills'")
    progress_shown(page)
    assert page.locator(".ex-header nav a", has_text="Drills").first.get_attribute("data-ex-progress-label") == (
        "Visited"
    )
