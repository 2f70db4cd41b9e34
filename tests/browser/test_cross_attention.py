"""The cross-attention figure in real Chromium, used as a reader uses it: the target word's
slider by keyboard, a row clicked, the temperature adjusted in the text, x dragged by
mouse and moved by keys, the residual and the norm switched, and the live numbers of the lesson's
prose following the figure. Every shown number is checked against the CPython engine;
the guard fails a test on any console error."""
from __future__ import annotations

import pytest

from explorables.site_builder.markdown.directives.roles import write
from explorables.engine.exercises import EXERCISES
from helpers import (answer_exercise, assert_matches_cpython, cpython_values, in_lesson, mark_position, shared_page,
                     state_of)

FIG = "cross"
NAME = "cross-attention"
PAGE = "cross-attention.html"

shared = shared_page()


@pytest.fixture
def cross(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


def prose(page) -> list[tuple[str, str]]:
    """The live numbers of the prose that follow the figure: (what the page shows, what
    the CPython engine writes for the figure's state)."""
    values = cpython_values(NAME, state_of(page, FIG))
    spans = page.evaluate("""id => Array.from(document.querySelectorAll(`.ex-value[data-figure="${id}"]`))
        .filter(s => !s.classList.contains('ex-first'))
        .map(s => ({name: s.dataset.value, format: s.dataset.format, digits: Number(s.dataset.digits),
                    text: s.textContent}))""", FIG)
    return [(s["text"], write(values[s["name"]], s["format"], s["digits"])) for s in spans]


def test_the_target_word_by_keyboard_moves_the_row_and_the_prose(cross):
    before = assert_matches_cpython(cross, FIG, NAME)
    assert (before["i"], before["word"], before["source"]) == (2, "Katze", "cat")
    live = prose(cross)
    assert live and all(shown == wanted for shown, wanted in live)
    slider = cross.locator(f'figure#{FIG} input[name="i"]')
    slider.focus()
    cross.keyboard.press("ArrowLeft")
    values = assert_matches_cpython(cross, FIG, NAME)
    assert (values["i"], values["word"], values["source"]) == (1, "schwarze", "black")
    assert all(shown == wanted for shown, wanted in prose(cross))
    assert any(shown == write(values["top"], "decimal", 2) for shown, _ in prose(cross))
    cross.keyboard.press("End")
    assert assert_matches_cpython(cross, FIG, NAME)["word"] == "schläft"


def test_a_click_on_a_cell_selects_its_row(cross):
    cells = cross.locator(f'figure#{FIG} [data-key="cells:table"] tbody tr')
    cells.nth(0).locator("td").nth(3).locator("button").click()
    values = assert_matches_cpython(cross, FIG, NAME)
    assert (values["i"], values["word"]) == (0, "die")
    assert cross.locator(f'figure#{FIG} input[name="i"]').input_value() == "0"


def test_the_temperature_adjusted_in_the_text_sharpens_the_row(cross):
    before = assert_matches_cpython(cross, FIG, NAME)
    number = cross.locator(f'.ex-adjust[data-figure="{FIG}"][data-param="T"]')
    number.scroll_into_view_if_needed()
    number.focus()
    cross.keyboard.press("Home")
    values = assert_matches_cpython(cross, FIG, NAME)
    assert values["T"] == pytest.approx(0.1) and values["top"] > before["top"] > 0.7
    assert all(shown == wanted for shown, wanted in prose(cross))


def test_dragging_x_by_mouse_and_by_keys_changes_the_word_and_its_sum(cross):
    x, y = mark_position(cross, FIG, "plane", "x-0")
    cross.mouse.move(x, y)
    cross.mouse.down()
    cross.mouse.move(x - 40, y - 90, steps=6)
    cross.mouse.up()
    values = assert_matches_cpython(cross, FIG, NAME)
    assert values["x"] != [0.866, -0.5] and values["x"][1] > -0.5
    assert values["new"] == pytest.approx([a + b for a, b in zip(values["x"], values["moved"])], abs=1e-12)
    assert all(shown == wanted for shown, wanted in prose(cross))
    plane = cross.locator(f'figure#{FIG} [data-key="plane:plane"] canvas')
    plane.focus()
    cross.keyboard.press("1")
    cross.keyboard.press("ArrowRight")
    moved = assert_matches_cpython(cross, FIG, NAME)["x"]
    assert 0.05 < moved[0] - values["x"][0] < 0.15 and abs(moved[1] - values["x"][1]) < 0.06


def test_the_residual_switch_and_an_experiment_from_the_text(cross):
    switch = cross.locator(f'figure#{FIG} input[name="residual"]')
    switch.focus()
    cross.keyboard.press("Space")
    values = assert_matches_cpython(cross, FIG, NAME)
    assert values["residual"] is False and values["new"] == values["moved"]
    assert all(shown == wanted for shown, wanted in prose(cross))
    norm = cross.locator(f'figure#{FIG} input[name="norm"]')
    norm.focus()
    cross.keyboard.press("Space")
    values = assert_matches_cpython(cross, FIG, NAME)
    assert state_of(cross, FIG)["norm"] is True
    assert sum(c * c for c in values["normed"]) == pytest.approx(2.0, abs=1e-9)  # length sqrt(2)
    cross.locator(f'.ex-try[data-figure="{FIG}"][data-experiment="follow"]').click()
    values = assert_matches_cpython(cross, FIG, NAME)
    assert values["word"] == "schläft" and state_of(cross, FIG)["experiment"] == "follow"


def test_the_exercise_is_graded_by_the_engine_with_its_hints(cross):
    """The exercise type registers with the figure's package: the worker, which imports a
    page's own figures, has it, and grades a right answer and a known mistake."""
    exercise = EXERCISES["residual-sum"]
    p = exercise.generate(1)
    section = cross.locator("div.ex-exercise").first
    section.scroll_into_view_if_needed()
    right = exercise.solve(p)
    assert answer_exercise(cross, section, f"({right[0]:.2f}, {right[1]:.2f})") == ("Right.", "right")
    mistake = next(m for m in exercise.mistakes if m.name == "no-residual")
    wrong = mistake.value(p)
    assert answer_exercise(cross, section, f"({wrong[0]:.2f}, {wrong[1]:.2f})") == (str(mistake.hint), "mistake")
