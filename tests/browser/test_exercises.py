"""Exercises in real Chromium, answered as a reader answers: typed and submitted with
Enter or the Check button. Right, wrong, a forgotten √d_k and an unreadable answer each
get their own message; the page needs no engine to grade the build's problem."""
from __future__ import annotations

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
    from explorables.site_builder.build import build_site

    content = tmp_path_factory.mktemp("content")
    (content / "site.yml").write_text('title: "Exercises"\n', encoding="utf-8")
    (content / "index.md").write_text("# Exercises\n\nOne page of exercises.\n", encoding="utf-8")
    (content / "01-exercises.md").write_text(PAGE, encoding="utf-8")
    out = tmp_path_factory.mktemp("site") / "_site"
    build_site(content, out)
    server = serve_folder(out)
    yield f"http://127.0.0.1:{server.server_address[1]}/exercises.html"
    server.shutdown()


@pytest.fixture
def reader(page, exercise_url):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(exercise_url)
    yield page
    assert errors == []


def answer(page, exercise: str, typed: str, press_enter: bool = True) -> tuple[str, str]:
    return answer_exercise(page, page.locator(f"div#{exercise}"), typed, press_enter)


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
