"""The attention lab in real Chromium, used as a reader uses it: mouse drags on the
embedding plane, the keyboard, clicks on the table, typed matrix entries good and bad,
presets, sliders and experiments. Every shown number is checked against the CPython
engine for the page's own state."""
from __future__ import annotations

import pytest

from explorables.engine.figures import FIGURES
from explorables.figures import num
from helpers import (
    assert_matches_cpython, first_frame, idle, in_lesson, let_python_come, mark_position, shared_page, state_of,
    values_of,
)

FIG = "lab"
NAME = "attention-lab"
PAGE = "attention-lab.html"


shared = shared_page()


@pytest.fixture
def lab(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


def table_row(page, i: int) -> list[str]:
    """The numbers the weight table shows in row i."""
    return page.locator(f"figure#{FIG} .ex-cells tbody tr").nth(i).locator("td").all_inner_texts()


def test_first_frame_is_drawn_before_the_engine_is_ready(page, site_url, guard):
    snapshot = first_frame(page, site_url + PAGE, FIG)
    assert snapshot["settled"] is False, "the engine was already live: the test proves nothing"
    assert snapshot["loading"]
    assert snapshot["counts"][".ex-cells tbody td"] == 49 and snapshot["counts"][".ex-plane canvas"] == 3
    assert snapshot["values"] == FIGURES[NAME].scene(
        FIGURES[NAME].initial_state(FIGURES[NAME].parse_options({"sentence": "pronoun", "query": "it"})))["values"]
    let_python_come(page, snapshot["held"])
    page.evaluate("() => window.explorables.ready")
    page.locator("figure#lab.ex-live").wait_for()


def test_dragging_a_repeated_word_moves_both_tokens(lab):
    lab.locator("figure#lab select[name=sentence]").select_option("repeat")
    before = assert_matches_cpython(lab, FIG, NAME)
    assert before["tokens"] == ["the", "cat", "sat", "on", "the", "mat"]
    x, y = mark_position(lab, FIG, "embed", "word-the")
    lab.mouse.move(x, y)
    lab.mouse.down()
    lab.mouse.move(x + 70, y - 90, steps=8)
    lab.mouse.up()
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["E"][0] == values["E"][4] != before["E"][0]  # one word, one point, two tokens
    assert values["weights"][0] == values["weights"][4]  # still a tie: s = 0, no mask
    i = values["query"]
    assert table_row(lab, i) == [num(w) for w in values["weights"][i]]


def test_the_keyboard_picks_a_word_by_its_digit_and_moves_it(lab):
    canvas = lab.locator(f'figure#{FIG} [data-key="plane:embed"] canvas')
    canvas.focus()
    lab.keyboard.press("2")  # the second word of "the cat ate ...": cat
    lab.keyboard.press("ArrowRight")
    lab.keyboard.press("Shift+ArrowUp")
    idle(lab, FIG)
    emb = state_of(lab, FIG)["emb"]
    assert emb["cat"] == [2.1, 0.9]  # (2.0, 0.4) moved by 0.1 right and 0.5 up
    assert emb["the"] == [0.3, -0.9]
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["E"][1] == [2.1, 0.9]


def test_clicking_a_cell_makes_its_row_ask(lab):
    lab.locator("figure#lab .ex-cells tbody tr").nth(6).locator("button").nth(0).click()  # hungry's row
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["query"] == 6
    assert lab.locator("figure#lab .ex-steps-panel h3").inner_text() == "Five steps for “hungry” (position 6)"
    assert "ex-active-row" in (lab.locator("figure#lab .ex-cells tbody tr").nth(6).get_attribute("class") or "")
    x, y = mark_position(lab, FIG, "values", "value-1")  # clicking a value point works too
    lab.mouse.click(x, y)
    assert assert_matches_cpython(lab, FIG, NAME)["query"] == 1


def test_a_typed_matrix_entry_changes_every_number(lab):
    before = values_of(lab, FIG)
    field = lab.locator('figure#lab input[name="W_Q.1.0"]')
    field.fill("\u22121.5")  # a typographic minus is accepted
    field.press("Enter")
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["W_Q"] == [[1.0, 0.0], [-1.5, 1.0]]
    assert values["Q"] != before["Q"] and values["K"] == before["K"]
    assert table_row(lab, 4) == [num(w) for w in values["weights"][4]]


BAD = [  # (typed, its message, a good value typed after it)
    ("abc", "Wk row 2, column 2 must be a number, got 'abc'", 0.5),
    ("1e999", "Wk row 2, column 2 must be a finite number, got '1e999'", 0.25),
]


def test_a_bad_matrix_entry_is_refused_beside_its_field(lab):
    field = lab.locator('figure#lab input[name="W_K.1.1"]')
    for bad, message, good in BAD:
        before = state_of(lab, FIG)
        field.fill(bad)
        field.press("Enter")
        error = field.locator("xpath=..").locator(".ex-field-error")
        error.wait_for()
        assert error.inner_text().strip() == message
        assert field.get_attribute("aria-invalid") == "true", bad
        idle(lab, FIG)
        assert state_of(lab, FIG) == before, bad
        assert "NaN" not in lab.locator("figure#lab").inner_text(), bad
        field.fill(str(good))
        field.press("Enter")
        values = assert_matches_cpython(lab, FIG, NAME)
        assert values["W_K"] == [[1.0, 0.0], [0.0, good]], bad
        assert field.get_attribute("aria-invalid") is None, bad


def test_presets_sliders_and_the_mask(lab):
    lab.locator("figure#lab .ex-control-matrix").first.get_by_role("button", name="0", exact=True).click()
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["W_Q"] == [[0.0, 0.0], [0.0, 0.0]]
    assert table_row(lab, 2) == ["0.14"] * 7  # W_Q = 0: every row is an even 1/7
    lab.get_by_role("switch").click()
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["causal"] is True and table_row(lab, 2) == ["0.33"] * 3 + ["0"] * 4
    slider = lab.locator("figure#lab input[type=range][name=s]")
    slider.focus()
    lab.keyboard.press("End")
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["s"] == 2.0 and values["X"][0] != values["E"][0]
    assert lab.locator(f'figure#{FIG} [data-key="plane:embed"] canvas').is_visible()


def test_an_experiment_sets_the_figure_and_says_what_to_see(lab):
    lab.get_by_role("button", name="… with α = 1").click()
    values = assert_matches_cpython(lab, FIG, NAME)
    state = state_of(lab, FIG)
    assert values["s"] == 1.0 and values["tokens"][0] == values["tokens"][4] == "the"
    assert values["weights"][0] != values["weights"][4]
    reveal = lab.locator("figure#lab .ex-message details")
    assert reveal.locator("summary").inner_text() == "What you should see"
    assert not reveal.locator("p").is_visible()  # folded: the reader predicts first
    reveal.locator("summary").click()
    message = reveal.locator("p").inner_text()
    assert message == state["message"] == FIGURES[NAME].apply(state, {"type": "action", "name": "same-word-position"})["message"]
    assert num(values["X"][4][1]) in message
    assert lab.locator("figure#lab input[name=s]").input_value() == "1"
    lab.get_by_role("button", name="bank with money").click()
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["tokens"][values["query"]] == "bank" and values["s"] == 0.0
    assert "money" in lab.locator("figure#lab select[name=sentence] option:checked").inner_text()


def test_the_look_back_experiment_makes_every_token_read_the_one_before(lab):
    """Issue 15: Wq = "look 1 back" turns the position code back one step; with the words
    at the centre every token from position 1 on puts its largest weight on the one before."""
    lab.get_by_role("button", name="Wq = look 1 back").click()
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["W_Q"] == [[0.825, 0.565], [-0.565, 0.825]] and values["s"] == 2.0
    tops = [max(range(len(row)), key=row.__getitem__) for row in values["weights"]]
    assert tops[1:] == list(range(len(tops) - 1))
    assert table_row(lab, 4) == [num(w) for w in values["weights"][4]]
    preset = lab.locator("figure#lab .ex-control-matrix").first.get_by_role("button", name="look 1 back", exact=True)
    assert "ex-active" in (preset.get_attribute("class") or "")
    lab.locator("figure#lab .ex-control-matrix").first.get_by_role("button", name="I", exact=True).click()
    values = assert_matches_cpython(lab, FIG, NAME)
    assert values["W_Q"] == [[1.0, 0.0], [0.0, 1.0]]
    assert [max(range(len(row)), key=row.__getitem__) for row in values["weights"]] == list(range(len(tops)))
