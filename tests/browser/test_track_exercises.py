"""The exercises lessons 3 to 5 added, answered in the built track as a reader answers
them: typed and sent with Enter. The page's worker grades them with the engine: the
right answer, a known mistake (its hint) and a new problem from "New numbers", with no
console errors."""
from __future__ import annotations

import json

import pytest

from explorables.engine.exercises import EXERCISES
from helpers import answer_exercise, fresh_lesson, shared_page

shared = shared_page()

LESSONS = [  # page, its figure, the exercise type, a mistake it recognises
    ("attention-lab.html", "lab", "projected-score", "w-k-not-transposed"),
    ("two-heads.html", "heads", "head-concat", "added-heads"),
    ("positional-encoding.html", "clocks", "offset-similarity", "not-averaged"),
]


def typed(value) -> str:
    if isinstance(value, list):
        return "(" + ", ".join(f"{x:.3f}".replace("-", "\u2212") for x in value) + ")"
    return f"{value:.3f}".replace("-", "\u2212")


@pytest.mark.parametrize("page_name, figure, name, mistake", LESSONS)
def test_a_lesson_s_exercise_is_graded_by_the_page_s_engine(shared, site_url, page_name, figure, name, mistake):
    page, guard = shared
    fresh_lesson(page, guard, site_url + page_name, figure)
    section = page.locator(f'.ex-exercise[data-exercise="{name}"]')
    section.scroll_into_view_if_needed()
    e = EXERCISES[name]
    p = e.generate(json.loads(section.locator("script.ex-exercise-data").text_content())["seed"])
    assert answer_exercise(page, section, typed(e.solve(p))) == ("Right.", "right")
    wrong = next(m for m in e.mistakes if m.name == mistake)
    assert answer_exercise(page, section, typed(wrong.value(p))) == (str(wrong.hint), "mistake")
    statement = section.locator(".ex-problem").inner_html()
    section.get_by_role("button", name="New numbers").click()
    page.wait_for_function("([el, before]) => el.innerHTML !== before",
                           arg=[section.locator(".ex-problem").element_handle(), statement])
    guard.check()
