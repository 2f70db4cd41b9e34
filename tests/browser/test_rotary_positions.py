"""The rotary-positions figure in real Chromium, used as a reader uses it: the position
slider by keyboard, Move both clicked and the offset kept, a placed arrow dragged by
mouse and moved by keys, the add-or-rotate menu, and the live numbers of the lesson's
prose following the figure. Every shown number is checked against the CPython engine;
the guard fails a test on any console error."""
from __future__ import annotations

import pytest

from explorables.site_builder.markdown.directives.roles import write
from explorables.engine.exercises import EXERCISES
from helpers import (answer_exercise, assert_matches_cpython, cpython_values, in_lesson, mark_position, shared_page,
                     state_of)

FIG = "rope"
NAME = "rotary-positions"
PAGE = "rotary-positions.html"

shared = shared_page()


@pytest.fixture
def rope(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


def prose(page) -> list[tuple[str, str]]:
    """The live numbers of the prose that follow the figure: (what the page shows, what
    the CPython engine writes for the figure's state)."""
    values = cpython_values(NAME, state_of(page, FIG))
    spans = page.evaluate("""id => Array.from(document.querySelectorAll(`.ex-value[data-figure="${id}"]`))
        .map(s => ({name: s.dataset.value, format: s.dataset.format, digits: Number(s.dataset.digits),
                    text: s.textContent}))""", FIG)
    return [(s["text"], write(values[s["name"]], s["format"], s["digits"])) for s in spans]


def test_the_query_s_position_by_keyboard_moves_the_score_and_the_prose(rope):
    before = assert_matches_cpython(rope, FIG, NAME)
    live = prose(rope)
    assert live and all(shown == wanted for shown, wanted in live)
    slider = rope.locator(f'figure#{FIG} input[name="t"]')
    slider.focus()
    for _ in range(3):
        rope.keyboard.press("ArrowRight")
    values = assert_matches_cpython(rope, FIG, NAME)
    assert (values["t"], values["u"], values["offset"]) == (6, 1, 5)
    assert values["score"] != pytest.approx(before["score"], abs=1e-3)  # the offset moved it
    assert all(shown == wanted for shown, wanted in prose(rope))
    assert any(shown == write(values["score"], "decimal", 2) for shown, _ in prose(rope))


def test_the_key_s_position_adjusted_in_the_text_moves_the_figure(rope):
    number = rope.locator('.ex-adjust[data-figure="rope"][data-param="u"]')
    number.scroll_into_view_if_needed()
    number.focus()
    rope.keyboard.press("ArrowRight")
    rope.keyboard.press("ArrowRight")
    values = assert_matches_cpython(rope, FIG, NAME)
    assert (values["t"], values["u"], values["offset"]) == (3, 3, 0)
    assert values["score"] == pytest.approx(values["content"], abs=1e-12)  # offset 0: q·k
    assert rope.locator(f'figure#{FIG} input[name="u"]').input_value() == "3"
    assert all(shown == wanted for shown, wanted in prose(rope))


def test_move_both_keeps_the_offset_and_the_score(rope):
    before = assert_matches_cpython(rope, FIG, NAME)
    rope.locator(f'figure#{FIG}').get_by_label("Move both").check()
    slider = rope.locator(f'figure#{FIG} input[name="t"]')
    slider.focus()
    for _ in range(4):
        rope.keyboard.press("ArrowRight")
    values = assert_matches_cpython(rope, FIG, NAME)
    assert (values["t"], values["u"]) == (7, 5)
    assert values["score"] == pytest.approx(before["score"], abs=1e-12)
    rope.locator(f'figure#{FIG} select[name="mode"]').select_option("add")  # added: moving both moves it
    added = assert_matches_cpython(rope, FIG, NAME)["score"]
    slider.focus()
    rope.keyboard.press("ArrowLeft")
    values = assert_matches_cpython(rope, FIG, NAME)
    assert (values["t"], values["u"]) == (6, 4) and values["score"] != pytest.approx(added, abs=1e-3)


def test_dragging_the_query_s_arrow_by_mouse_and_by_keys_changes_its_content(rope):
    x, y = mark_position(rope, FIG, "plane", "qt-0")
    rope.mouse.move(x, y)
    rope.mouse.down()
    rope.mouse.move(x + 60, y - 40, steps=6)
    rope.mouse.up()
    values = assert_matches_cpython(rope, FIG, NAME)
    q = state_of(rope, FIG)["q"]
    assert q[:2] != [1.0, 0.0] and q[2:] == [0.6, 0.8]
    assert values["content"] != pytest.approx(1.4, abs=1e-6)
    plane = rope.locator(f'figure#{FIG} [data-key="plane:plane"] canvas')
    plane.focus()
    rope.keyboard.press("1")
    head = values["q_t"][:2]
    rope.keyboard.press("ArrowRight")
    moved = assert_matches_cpython(rope, FIG, NAME)["q_t"][:2]
    # one step (0.1) right, on the keyboard's grid of steps; the content kept to 2 decimals
    assert 0.05 < moved[0] - head[0] < 0.15 and abs(moved[1] - head[1]) < 0.06


def test_an_experiment_from_the_text_sets_the_figure(rope):
    button = rope.locator('.ex-try[data-figure="rope"][data-experiment="add"]')
    button.click()
    values = assert_matches_cpython(rope, FIG, NAME)
    state = state_of(rope, FIG)
    assert values["mode"] == "add" and state["together"] is True and state["experiment"] == "add"


def test_the_exercise_is_graded_by_the_engine_with_its_hints(rope):
    """The exercise type registers with the figure's package: the worker, which imports a
    page's own figures, has it, and grades a right answer and a known mistake."""
    exercise = EXERCISES["rotary-score"]
    p = exercise.generate(1)
    section = rope.locator("div.ex-exercise").first
    section.scroll_into_view_if_needed()
    assert answer_exercise(rope, section, f"{exercise.solve(p):.2f}") == ("Right.", "right")
    not_turned = next(m for m in exercise.mistakes if m.name == "not-turned")
    assert answer_exercise(rope, section, f"{not_turned.value(p):.2f}") == (str(not_turned.hint), "mistake")
