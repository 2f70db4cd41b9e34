"""Exercises in real Chromium, answered as a reader answers: typed and submitted with
Enter or the Check button. Right, wrong, a forgotten √d_k and an unreadable answer each
get their own message, all from the engine in the page's worker (engine/exercises.py is the
one grader; the page shows the build's problem before Python is live)."""
from __future__ import annotations

import time

import pytest

from helpers import answer_exercise

from conftest import serve_folder
from explorables.engine.exercises import EXERCISES

PAGE = """---
title: Exercises
order: 1
---

:::{exercise} softmax-weight
:seed: 2
Work it out by hand first.
:::

:::{exercise} output-vector
:seed: 5
:::
"""


@pytest.fixture(scope="module")
def exercise_url(tmp_path_factory):
    from explorables.site_builder.commands.build import build_site

    content = tmp_path_factory.mktemp("content")
    (content / "site.yml").write_text('title: "Exercises"\n', encoding="utf-8")
    (content / "index.md").write_text("# Exercises\n\nOne page of exercises.\n", encoding="utf-8")
    (content / "01-exercises.md").write_text(PAGE, encoding="utf-8")
    out = tmp_path_factory.mktemp("site") / "_site"
    build_site(content, out)
    server = serve_folder(out)
    yield f"http://127.0.0.1:{server.server_address[1]}/exercises.html"
    server.shutdown()


@pytest.fixture(scope="module")
def opened(browser, exercise_url, browser_context_args):
    """One page for the module's tests (Python starts once), with the console errors and
    page errors since it loaded. The first test loads it as it needs to; ``reader`` loads
    it for the others when it has not been."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, errors
    context.close()


@pytest.fixture
def reader(opened, exercise_url):
    page, errors = opened
    if page.url != exercise_url:
        page.goto(exercise_url)
    yield page
    try:
        assert errors == []  # none since the page loaded
    finally:
        errors.clear()


def answer(page, exercise: str, typed: str, press_enter: bool = True) -> tuple[str, str]:
    return answer_exercise(page, page.locator(f"div#{exercise}"), typed, press_enter)


def test_an_answer_sent_before_the_grader_came_is_checked_when_it_comes(opened, exercise_url):
    """Pins a bug: Enter pressed before js/later.js (which grades exercises) had come sent
    the answer as a form, so the page reloaded and the answer was lost. (First in the file:
    its load is the module page's first, which the tests after it answer on.)"""
    page, errors = opened
    held = []
    page.route("**/js/later.*.js", lambda route: held.append(route))  # answered below
    page.goto(exercise_url, wait_until="domcontentloaded")  # (its load waits for later.js, held)
    e = EXERCISES["output-vector"]
    right = e.solve(e.generate(5))
    typed = "(" + ", ".join(f"{x:.3f}" for x in right) + ")"
    section = page.locator("div#ex-2")
    section.get_by_label("Your answer").click()
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 120  # the answer asks for the grader at once (the first frame is drawn)
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(held) == 1, "js/later.js was not asked for"
    page.wait_for_timeout(200)
    assert page.url == exercise_url, "the answer was sent as a form"
    assert section.get_by_label("Your answer").input_value() == typed
    assert not section.locator(".ex-feedback[data-verdict]").count()
    held[0].continue_()
    page.unroute("**/js/later.*.js")
    section.locator(".ex-feedback[data-verdict]").wait_for()
    assert section.locator(".ex-feedback").get_attribute("data-verdict") == "right"
    assert errors == []  # none since the page loaded


def test_a_weight_answered_right_wrong_and_with_the_forgotten_sqrt_d(reader):
    e = EXERCISES["softmax-weight"]
    p = e.generate(2)
    right = e.solve(p)
    assert answer(reader, "ex-1", f"{100 * right:.1f}%") == ("Right.", "right")
    forgot = next(m for m in e.mistakes if m.name == "forgot-sqrt-d")
    assert answer(reader, "ex-1", f"{forgot.value(p):.3f}", press_enter=False) == (str(forgot.hint), "mistake")
    assert answer(reader, "ex-1", "0.9")[1] == "wrong"
    assert answer(reader, "ex-1", "lots") == (
        "“lots” is not a number from 0 to 1 or a percentage, such as 0.45 or 45%.", "wrong")
    assert reader.locator("div#ex-1 input").get_attribute("aria-invalid") == "true"


def test_a_vector_is_read_with_a_typographic_minus(reader):
    e = EXERCISES["output-vector"]
    right = e.solve(e.generate(5))
    typed = "(" + ", ".join(f"{x:.3f}".replace("-", "\u2212") for x in right) + ")"
    assert answer(reader, "ex-2", typed) == ("Right.", "right")
    assert reader.locator("div#ex-2 input").get_attribute("aria-invalid") == "false"
