"""Two heads side by side in real Chromium: clicks and the keyboard on both tables, typed
matrix entries good and bad, W_O block presets, head presets and the "give head 2 head
1's matrices" action. Every shown number is checked against the CPython engine."""
from __future__ import annotations

import pytest

from explorables import engine
from explorables.engine.figures import FIGURES
from explorables.figures import num, vec
from helpers import arithmetic, assert_matches_cpython, idle, in_lesson, shared_page, state_of

FIG = "heads"
NAME = "attention-heads"
PAGE = "two-heads.html"


shared = shared_page()


@pytest.fixture
def heads(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


def table(page, h: int):
    return page.locator(f'figure#{FIG} [data-key="cells:head{h}"]')


def shown_row(page, h: int, i: int) -> list[str]:
    return table(page, h).locator("tbody tr").nth(i).locator("td").all_inner_texts()


def combine_lines(page) -> list[str]:
    return page.locator(f'figure#{FIG} [data-key="text:combine"] pre').all_inner_texts()


def test_both_tables_and_the_join_show_the_engine_s_numbers(heads):
    values = assert_matches_cpython(heads, FIG, NAME)
    i = values["query"]
    assert values["tokens"][i] == "hungry"
    for h in (1, 2):
        assert shown_row(heads, h, i) == [num(w) for w in values["weights"][h - 1][i]]
    lines = combine_lines(heads)
    assert lines[1] == f"[o¹, o²] = {vec(values['concat'][i])}"
    blocks = engine.sum_of_blocks(values["head_outputs"], values["W_O"])[i]
    assert lines[3].endswith(f"= {vec(blocks)}") and lines[2].endswith(vec(values["outputs"][i]))


def test_clicking_a_cell_in_either_table_makes_its_row_ask(heads):
    table(heads, 2).locator("tbody tr").nth(2).locator("button").nth(5).click()  # "ate" reading "was"
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["query"] == 2
    for h in (1, 2):
        assert "ex-active-row" in (table(heads, h).locator("tbody tr").nth(2).get_attribute("class") or "")
    assert heads.locator(f'figure#{FIG} [data-key="plane:outputs"] h3').inner_text() == "Outputs for “ate” (position 2)"


def test_the_keyboard_reaches_a_cell_and_selects_it(heads):
    cell = table(heads, 1).locator("tbody tr").nth(4).locator("button").nth(1)  # "it" reading "cat"
    cell.focus()
    heads.keyboard.press("Enter")
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["query"] == 4
    table(heads, 1).locator("tbody tr").nth(4).locator("button").nth(2).focus()  # "it" reading "ate"
    assert arithmetic(table(heads, 1).locator(".ex-detail")).startswith("head 1: it₄ → ate₂")
    table(heads, 2).locator("tbody tr").nth(1).locator("button").nth(3).focus()  # "cat" reading "because"
    heads.keyboard.press("Space")
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["query"] == 1
    assert shown_row(heads, 2, 1) == [num(w) for w in values["weights"][1][1]]


def test_typed_entries_change_one_head_only(heads):
    before = assert_matches_cpython(heads, FIG, NAME)
    field = heads.locator('figure#heads input[name="h2.W_K.0.1"]')
    field.fill("1")  # keys of head 2 become (0, x1 + x2): the first axis now counts too
    field.press("Enter")
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["heads"][1]["W_K"] == [[0.0, 1.0], [0.0, 1.0]]
    assert values["weights"][0] == before["weights"][0] and values["weights"][1] != before["weights"][1]
    assert heads.locator("figure#heads select[name=head2]").input_value() == "custom"


def test_a_bad_entry_is_refused_beside_its_field_and_the_state_kept(heads):
    before = state_of(heads, FIG)
    field = heads.locator('figure#heads input[name="W_O.2.1"]')
    field.fill("two")
    field.press("Enter")
    error = field.locator("xpath=..").locator(".ex-field-error")
    error.wait_for()
    assert error.inner_text().strip() == "Wo row 3, column 2 must be a number, got 'two'"
    assert field.get_attribute("aria-invalid") == "true"
    idle(heads, FIG)
    assert state_of(heads, FIG) == before
    assert "NaN" not in heads.locator("figure#heads").inner_text()
    field.fill("1")
    field.press("Enter")
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["W_O"][2] == [0.5, 1.0]
    blocks = engine.sum_of_blocks(values["head_outputs"], values["W_O"])
    for out, block in zip(values["outputs"], blocks):
        assert out == pytest.approx(block, abs=1e-12)


def test_w_o_block_presets(heads):
    heads.locator('figure#heads [data-key="matrix:W_O2"]').get_by_role("button", name="0", exact=True).click()
    values = assert_matches_cpython(heads, FIG, NAME)
    i = values["query"]
    assert values["W_O"][2:] == [[0.0, 0.0], [0.0, 0.0]]
    assert values["outputs"][i] == values["contributions"][0][i]  # only head 1 is heard
    heads.locator('figure#heads [data-key="matrix:W_O1"]').get_by_role("button", name="I", exact=True).click()
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["outputs"][i] == values["head_outputs"][0][i]


def test_giving_head_2_head_1_s_matrices_adds_nothing(heads):
    heads.locator(f"figure#{FIG}").get_by_role("button", name="Give head 2 head 1's matrices").click()
    values = assert_matches_cpython(heads, FIG, NAME)
    i = values["query"]
    assert values["heads"][0] == values["heads"][1]
    assert values["weights"][0] == values["weights"][1]
    assert shown_row(heads, 1, i) == shown_row(heads, 2, i)
    assert values["outputs"][i] == pytest.approx(values["head_outputs"][0][i], abs=1e-15)
    reveal = heads.locator("figure#heads .ex-message details")
    assert reveal.locator("summary").inner_text() == "What you should see"
    assert not reveal.locator("p").is_visible()  # folded: the reader predicts first
    reveal.locator("summary").click()
    message = reveal.locator("p").inner_text()
    assert message == state_of(heads, FIG)["message"] and "adds nothing" in message
    assert vec(values["head_outputs"][0][i]) in message
    assert heads.locator("figure#heads select[name=head2]").input_value() == "axis1"


def test_head_presets_and_sentences(heads):
    heads.locator("figure#heads select[name=head1]").select_option("whole")
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["heads"][0]["W_Q"] == [[1.0, 0.0], [0.0, 1.0]]
    heads.locator("figure#heads select[name=sentence]").select_option("money")
    values = assert_matches_cpython(heads, FIG, NAME)
    assert values["tokens"] == ["she", "put", "money", "in", "the", "bank"] and values["query"] == 5
    assert table(heads, 1).locator("tbody tr").count() == 6
    state = state_of(heads, FIG)
    assert FIGURES[NAME].scene(state)["status"] == heads.locator("figure#heads .ex-status").inner_text()
