"""An author's own exercise type (figures/dot_product.py, the guide's example) in real
Chromium: the page's problem answered right by typing, then "New numbers" makes a fresh
problem that the engine in the worker writes and grades with the author's code, right
and with a known mistake's hint."""
from __future__ import annotations

import html
import re

import pytest

from explorables.engine.exercises import EXERCISES
from author_site import lay_out
from figure_helpers import ROOT
from helpers import answer_exercise, each_fresh, module_page, served_site

FIG = "explorer"
LESSON = """---
title: Dots
order: 1
---

A figure first, then the author's exercise.

:::{attention-row} explorer
:::

:::{exercise} dot-2
:seed: 4
Work it out on paper first.
:::

:::{fragile} shaky
:::
"""


@pytest.fixture(scope="module")
def dots_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("dots")
    lay_out(site, "01-dots.md", LESSON, "dot_product.py",
            (ROOT / "tests" / "fixtures" / "exercises" / "dot_product.py").read_text())
    (site / "figures" / "fragile.py").write_text((ROOT / "tests" / "fixtures" / "figures" / "fragile.py").read_text())
    yield from served_site(site)


@pytest.fixture(scope="module")
def shared(browser, dots_url, browser_context_args):
    yield from module_page(browser, dots_url, browser_context_args)


@pytest.fixture
def lesson(shared, dots_url):
    yield from each_fresh(shared, dots_url + "dots.html", FIG)


def words(statement_html: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", statement_html)).split())


def shown(section) -> str:
    return " ".join(section.locator(".ex-problem").evaluate("p => p.textContent").split())


def answer(page, section, typed: str) -> tuple[str, str]:
    return answer_exercise(page, section, typed)


def test_the_authors_exercise_is_graded_and_made_fresh_by_the_engine(lesson):
    dot = EXERCISES["dot-2"]
    section = lesson.locator(".ex-exercise").first
    section.scroll_into_view_if_needed()
    assert section.get_attribute("data-exercise") == "dot-2"
    assert shown(section) == words(dot.problem(4)["statement"])
    lesson.evaluate("() => window.explorables.ready")  # the engine is live: every verdict is its own
    right = dot.solve(dot.generate(4))
    assert answer(lesson, section, f"{right:.2f}".replace("-", "\u2212")) == ("Right.", "right")

    key = section.get_attribute("id")
    section.get_by_role("button", name="New numbers").click()
    lesson.wait_for_function("key => { const m = location.hash.match(new RegExp(key + '=(\\\\d+)'));"
                             " return m && m[1] !== '4' && document.getElementById(key).dataset.seed === m[1]; }",
                             arg=key)
    seed = int(re.search(rf"{key}=(\d+)", lesson.url).group(1))
    p = dot.generate(seed)
    assert shown(section) == words(dot.problem(seed)["statement"])  # written by the author's code in the worker
    assert section.get_by_label("Your answer").input_value() == ""
    assert answer(lesson, section, f"{dot.solve(p):.3f}") == ("Right.", "right")
    mistake = next(m for m in dot.mistakes if abs(m.value(p) - dot.solve(p)) > 0.05)  # one that shows here
    assert answer(lesson, section, f"{mistake.value(p):.2f}") == (mistake.hint, "mistake")
    # a wrong answer that is none of the known mistakes either (the problem is random)
    wrong = next(w for w in (dot.solve(p) + d for d in (0.5, -0.5, 0.9, -0.9, 1.7))
                 if all(abs(w - m.value(p)) > 0.1 for m in dot.mistakes))
    assert answer(lesson, section, f"{wrong:.2f}")[1] == "wrong"


def test_a_slider_moved_where_the_author_s_figure_fails_goes_back_with_the_figure(shared, lesson):
    """Pins a bug: above a = 4 the author's compute raises; the figure kept its last good
    state and said so, but its slider stayed where the reader left it (5.00)."""
    page, guard = shared
    guard.allowed.append("Explorables figure 'shaky'")  # the author's bug, reported as one
    slider = page.locator("figure#shaky input[type=range]")
    slider.scroll_into_view_if_needed()
    slider.focus()
    page.keyboard.press("End")  # a = 5: the figure cannot draw it
    error = page.locator("figure#shaky .ex-error")
    error.wait_for(state="visible")
    # (a reader's words: the file and line are the author's, in the preview and the console)
    assert error.inner_text() == "This figure could not compute that; it kept its last state."
    page.wait_for_function("() => !window.explorables.figures.shaky.busy")
    assert page.evaluate("() => window.explorables.figures.shaky.state.a") == 1.0
    assert slider.input_value() == "1" and page.locator("figure#shaky output").inner_text() == "1.00"
    page.keyboard.press("ArrowLeft")  # a good value: drawn, and the message goes
    error.wait_for(state="hidden")
    assert page.evaluate("() => window.explorables.figures.shaky.state.a") < 1
