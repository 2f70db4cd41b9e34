"""The attention heatmap in real Chromium, used as a reader uses it: clicking cells and row
labels, hovering and arrow-keying through cells, flipping the view, the causal and padding
masks, the length slider, typed vectors good and bad, an experiment. Every shown number is
checked against the CPython engine."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from helpers import arithmetic, assert_matches_cpython, idle, in_lesson, past_settle, shared_page, state_of

from explorables import engine
from explorables.engine.figures import attention_heatmap as hm
from explorables.engine.figures.kit.rounding import rounded
from explorables.figures import HINT, num

FIG = "table"
NAME = "attention-heatmap"
PAGE = "attention-heatmap.html"


shared = shared_page()


@pytest.fixture
def heat(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


def table(page):
    return page.locator(f'figure#{FIG} [data-key="cells:table"]')


def cell_button(page, i: int, j: int):
    return table(page).locator("tbody tr").nth(i).locator("td").nth(j).locator("button")


def detail(page) -> str:
    return arithmetic(table(page).locator(".ex-detail"))


def test_first_frame_is_the_engine_table(heat):
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["n"] == 12 and values["cells"] == 144 and values["query"] == 2
    assert table(heat).locator("tbody td").count() == 144
    assert "n² = 144 cells" in table(heat).locator(".ex-caption").inner_text()
    shown = cell_button(heat, 2, 3).inner_text()  # dog -> chased
    assert shown == f"{values['weights'][2][3]:.2f}" == "0.79"
    row = heat.locator(f'figure#{FIG} [data-key="cells:entropy"] tbody tr').nth(2)
    assert row.locator("td").nth(3).inner_text() == "peaked"
    assert heat.locator(f'figure#{FIG} [data-key="cells:entropy"] tbody tr').nth(11).locator("td").nth(3).inner_text() == "flat"


def test_the_cells_arithmetic_comes_from_the_live_engine(heat):
    """The page's first frame leaves each cell's arithmetic out (the heaviest part of the
    embedded scene); the live figure has it from the engine (the fixture asked for it as
    a reader pointing at a cell does) and shows it for the cell a reader points at."""
    embedded = heat.evaluate("id => JSON.parse(document.getElementById(id)"
                             ".querySelector('script.ex-data').textContent).scene", FIG)
    panels = [p for p in embedded["panels"] if p["kind"] == "cells"]
    assert {p["id"] for p in panels if p.get("detail_later")} == {"table", "outputs"}
    assert {len(cell.get("detail", [])) for p in panels for row in p["rows"] for cell in row} == {0}
    heat.wait_for_function("id => !window.explorables.figures[id].scene.panels.some(p => p.detail_later)", arg=FIG)
    assert state_of(heat, FIG) == heat.evaluate("id => JSON.parse(document.getElementById(id)"
                                                ".querySelector('script.ex-data').textContent).state", FIG)
    outputs = heat.locator(f'figure#{FIG} [data-key="cells:outputs"]')
    outputs.locator("tbody td").first.hover()
    assert arithmetic(outputs.locator(".ex-detail")).startswith("o[noun] of the = ")
    lacking = "id => window.explorables.figures[id].scene.panels.some(p => p.detail_later)"
    # swapped in anew and left alone, the figure asks for it by itself when idle
    heat.mouse.move(0, 0)
    heat.evaluate("url => window.explorables.pages.go(url, {restore: false})", heat.url)
    assert heat.evaluate(lacking, FIG)
    heat.wait_for_function(f"id => !({lacking})(id)", arg=FIG, timeout=10_000)
    # swapped in anew, a pointer resting on a cell asks for it at once and sees it come
    heat.evaluate("url => window.explorables.pages.go(url, {restore: false})", heat.url)
    cell = table(heat).locator("tbody td").nth(5)
    cell.hover()
    first = table(heat).locator(".ex-detail").inner_text()
    assert first == "Working out the arithmetic…" or first.startswith("query the (row 1)"), first
    heat.wait_for_function(f"id => !({lacking})(id)", arg=FIG, timeout=2_000)
    table(heat).locator(".ex-detail", has_text="query the (row 1) · key small (column 6)").wait_for(timeout=2_000)


# Each step request the page sends its worker: whether it asked for the scene lean.
SPY_STEPS = """() => {
    window.__lean = [];
    const worker = window.explorables.client.worker, post = worker.postMessage.bind(worker);
    worker.postMessage = message => {
        if (message && message.type === "step") window.__lean.push(JSON.parse(message.text).lean === true);
        return post(message);
    };
}"""
LACKING = "id => window.explorables.figures[id].scene.panels.some(p => p.detail_later)"


def test_a_change_is_answered_without_the_arithmetic_which_follows_when_idle(heat):
    """While the reader looks at no cell's arithmetic, the engine's answer leaves it out
    (more than half of this table's scene: the change is drawn sooner); the whole scene
    follows once the page is idle, and a cell then pointed at shows the new arithmetic.
    With the pointer on the table, an answer brings it at once."""
    heat.wait_for_function(f"id => !({LACKING})(id)", arg=FIG, timeout=10_000)
    heat.evaluate(SPY_STEPS)
    heat.mouse.move(0, 0)
    view = heat.locator(f'figure#{FIG} select[name="view"]')
    view.focus()
    heat.keyboard.press("ArrowDown")  # the next view
    heat.wait_for_function("id => window.__lean.length === 2", arg=FIG, timeout=10_000)
    idle(heat, FIG)
    assert state_of(heat, FIG)["view"] != "weights" and not heat.evaluate(LACKING, FIG)
    assert heat.evaluate("() => window.__lean") == [True, False], "a lean answer, then the whole scene"
    state = state_of(heat, FIG)
    cell_button(heat, 2, 3).hover()
    r = engine.attention_row(state["q"][2], state["k"], state["v"])
    assert f"= {r.trace[3].scaled:.3f}" in detail(heat) or f"= {r.trace[3].dot:.3f}" in detail(heat)
    # the pointer on the table: the answer is whole, and nothing more is asked
    heat.evaluate("() => { window.__lean = []; }")
    cell_button(heat, 4, 0).click()  # picks the row of "a"
    idle(heat, FIG)
    assert state_of(heat, FIG)["query"] == 4
    past_settle(heat)  # what the pointer on the table would ask has been asked
    assert heat.evaluate("() => window.__lean") == [False]
    assert not heat.evaluate(LACKING, FIG)


def test_clicking_a_cell_or_a_row_label_picks_the_row(heat):
    cell_button(heat, 10, 0).click()  # garden's row
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["query"] == 10
    assert "The row of “garden”" in heat.locator(f'figure#{FIG} [data-key="text:row"]').inner_text()
    heat.locator(f'figure#{FIG} [data-key="cells:table"] tbody th button').nth(11).click()
    assert assert_matches_cpython(heat, FIG, NAME)["query"] == 11
    grid = heat.locator(f'figure#{FIG} input[name="q.11.0"]')
    assert grid.input_value() == "0"


def test_hovering_a_cell_shows_its_arithmetic(heat):
    values = idle(heat, FIG)
    cell_button(heat, 2, 3).hover()
    text = detail(heat)
    r = engine.attention_row(state_of(heat, FIG)["q"][2], state_of(heat, FIG)["k"], state_of(heat, FIG)["v"])
    step = r.trace[3]
    assert "query dog (row 3) · key chased (column 4)" in text
    assert f"= {step.dot:.3f}" in text and f"= {step.scaled:.3f}" in text
    assert f"weight a = {values['weights'][2][3]:.3f}" in text
    assert values["weights"][2][3] == rounded(step.weight)  # the engine's weight, with the digits it is written with


def test_arrow_keys_walk_the_cells_and_enter_picks_a_row(heat):
    cell_button(heat, 0, 0).focus()
    assert "query the (row 1) · key the (column 1)" in detail(heat)
    heat.keyboard.press("ArrowRight")
    heat.keyboard.press("ArrowRight")
    heat.keyboard.press("ArrowDown")
    assert "query old (row 2) · key dog (column 3)" in detail(heat)
    heat.keyboard.press("ArrowLeft")
    heat.keyboard.press("ArrowLeft")
    heat.keyboard.press("ArrowLeft")  # onto the row label "old"
    assert heat.evaluate("() => document.activeElement.closest('th').textContent") == "old"
    heat.keyboard.press("ArrowDown")
    heat.keyboard.press("ArrowDown")
    heat.keyboard.press("Enter")  # the label of "chased"
    assert assert_matches_cpython(heat, FIG, NAME)["query"] == 3
    # the table was drawn anew, and the focus stayed on the same label
    assert heat.evaluate("() => document.activeElement.closest('th').textContent") == "chased"
    heat.keyboard.press("ArrowRight")
    heat.keyboard.press("ArrowDown")
    assert "query a (row 5) · key the (column 1)" in detail(heat)
    heat.keyboard.press("Space")
    assert assert_matches_cpython(heat, FIG, NAME)["query"] == 4


KEEP_CELLS = """id => { window.__cells = Array.from(document.querySelectorAll(
    `figure#${id} [data-key='cells:table'] tbody td`)); window.__kept = document.activeElement; }"""
SAME_CELLS = """id => { const now = document.querySelectorAll(`figure#${id} [data-key='cells:table'] tbody td`);
    return now.length === window.__cells.length && window.__cells.every((td, i) => td === now[i]); }"""


def test_an_answer_rewrites_the_table_in_place(heat):
    """The table is kept from one answer to the next and its cells rewritten: the cell the
    keyboard is on keeps the focus and shows its own new arithmetic; another view puts
    the engine's new number in every one of the same cells."""
    cell_button(heat, 2, 3).focus()
    heat.evaluate(KEEP_CELLS, FIG)
    heat.keyboard.press("Enter")  # dog's row asks
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["query"] == 2
    assert heat.evaluate("() => document.activeElement === window.__kept")
    assert cell_button(heat, 2, 3).get_attribute("aria-pressed") == "true"
    assert cell_button(heat, 4, 3).get_attribute("aria-pressed") == "false"
    assert "query dog (row 3) · key chased (column 4)" in detail(heat)
    assert f"weight a = {values['weights'][2][3]:.3f}" in detail(heat)
    before = table(heat).locator("tbody td").all_inner_texts()
    heat.locator(f'figure#{FIG} select[name="view"]').select_option("scores")
    values = assert_matches_cpython(heat, FIG, NAME)
    assert heat.evaluate(SAME_CELLS, FIG)
    shown = table(heat).locator("tbody td").all_inner_texts()
    assert shown == [num(values["scores"][i][j]) for i in range(12) for j in range(12)] != before
    # a click picks the row of the cell it lands on, in the cells kept
    cell_button(heat, 7, 1).click()
    assert assert_matches_cpython(heat, FIG, NAME)["query"] == 7
    assert heat.evaluate(SAME_CELLS, FIG)


def test_scores_view_and_the_causal_mask(heat):
    heat.locator(f'figure#{FIG} select[name="view"]').select_option("scores")
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["view"] == "scores"
    assert cell_button(heat, 2, 9).inner_text() == num(values["scores"][2][9]) == "−2.23"
    heat.get_by_role("switch").click()
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["causal"] is True
    assert cell_button(heat, 2, 9).inner_text() == "−∞"
    assert all(values["weights"][i][j] == 0.0 for i in range(12) for j in range(i + 1, 12))
    assert "ex-muted" in (table(heat).locator("tbody tr").nth(2).locator("td").nth(9).get_attribute("class") or "")
    assert "NaN" not in heat.locator(f"figure#{FIG}").inner_text()


def test_length_and_padding_sliders(heat):
    n = heat.locator(f'figure#{FIG} input[name="n"]')
    n.focus()
    for _ in range(5):
        heat.keyboard.press("ArrowLeft")
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["n"] == 7 and values["cells"] == 49
    assert table(heat).locator("tbody td").count() == 49
    assert "n² = 49 cells" in table(heat).locator(".ex-caption").inner_text()
    before = values["weights"]
    pad = heat.locator(f'figure#{FIG} input[name="padding"]')
    pad.focus()
    heat.keyboard.press("ArrowRight")
    heat.keyboard.press("ArrowRight")
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["padding"] == 2 and values["cells"] == 81
    # two [PAD] tokens follow the seven words: no row reads them, the words' rows do not change
    assert all(row[7:] == [0.0, 0.0] for row in values["weights"])
    assert [row[:7] for row in values["weights"][:7]] == before
    labels = table(heat).locator("thead th").all_inner_texts()
    assert labels[-3:] == ["cat", "[PAD]", "[PAD]"]
    assert "ex-muted" in (table(heat).locator("tbody tr").nth(8).locator("td").first.get_attribute("class") or "")
    heat.keyboard.press("End")  # the most padding allowed
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["padding"] == hm.PAD_MAX and values["cells"] == (7 + hm.PAD_MAX) ** 2


def test_typed_vectors_good_and_bad(heat):
    before_values = idle(heat, FIG)
    heat.locator(f'figure#{FIG} [data-key="cells:table"] tbody th button').nth(3).click()  # chased
    field = heat.locator(f'figure#{FIG} input[name="k.3.1"]')  # chased's key, the verb part
    idle(heat, FIG)
    before = state_of(heat, FIG)
    for bad in ("abc", "1e999", "", "11"):
        field.fill(bad)
        field.press("Enter")
        error = field.locator("xpath=..").locator(".ex-field-error")
        error.wait_for()
        assert error.inner_text().strip() != "" and field.get_attribute("aria-invalid") == "true"
        idle(heat, FIG)
        assert state_of(heat, FIG) == before
        assert "NaN" not in heat.locator(f"figure#{FIG}").inner_text()
    field.fill("0.25")
    field.press("Enter")
    values = assert_matches_cpython(heat, FIG, NAME)
    assert state_of(heat, FIG)["k"][3][1] == 0.25 and values["query"] == 3
    assert values["weights"][2][3] < before_values["weights"][2][3]  # dog finds less of a verb in chased
    assert field.get_attribute("aria-invalid") is None
    assert cell_button(heat, 2, 3).inner_text() == f"{values['weights'][2][3]:.2f}"


def test_an_experiment_and_the_random_preset(heat):
    heat.get_by_role("button", name="Why divide by √dₖ?").click()
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["n"] == 16 and values["view"] == "scores"
    reveal = heat.locator(f"figure#{FIG} .ex-message details")
    # the experiment's message in place (its words, shown or not) before the reader opens it
    expect(reveal.locator("p")).to_contain_text("spread of 2.83")
    reveal.locator("summary").click()
    expect(reveal.locator("p")).to_contain_text("spread of 2.83, close to √8 = 2.83", use_inner_text=True)
    assert heat.locator(f'figure#{FIG} input[name="q.0.7"]').count() == 1  # eight coordinates
    # the seeded random vectors come out the same under Pyodide as under CPython
    preset = hm.built_in("random")
    state = state_of(heat, FIG)
    assert state["q"] == preset["q"] and state["v"] == preset["v"]
    heat.get_by_role("button", name="Reset").click()
    values = assert_matches_cpython(heat, FIG, NAME)
    assert values["n"] == 12 and values["tokens"][2] == "dog"


def test_unticking_the_mask_ends_the_causal_experiment(heat):
    """Regression: after "Causal mask", unticking the mask still said "66 of 144 cells …"
    with the button highlighted."""
    heat.get_by_role("button", name="Causal mask").click()
    assert assert_matches_cpython(heat, FIG, NAME)["causal"] is True
    heat.get_by_role("switch").click()
    assert assert_matches_cpython(heat, FIG, NAME)["causal"] is False
    assert heat.locator(f"figure#{FIG} .ex-message").inner_text() == HINT
    assert heat.get_by_role("button", name="Causal mask").get_attribute("aria-pressed") == "false"


def test_the_twelve_columns_fit_beside_the_controls_at_1280_px(heat):
    """Pins a layout bug: at 1280 px the 12 x 12 table was 719 px in a 614 px box, its
    last columns ("garden", ".") hidden under the controls, though the lesson's prose
    is about them. Ten columns or more take compact cells."""
    heat.set_viewport_size({"width": 1280, "height": 900})
    box = heat.locator(f"figure#{FIG} .ex-cells-panel.ex-many .ex-scroll").first
    fit = box.evaluate("b => ({inner: b.clientWidth, table: b.scrollWidth})")
    assert fit["table"] <= fit["inner"], fit
    last = heat.locator(f"figure#{FIG} .ex-cells-panel.ex-many thead th").last
    assert last.inner_text() == "." and last.is_visible()
    side = heat.locator(f"figure#{FIG} > .ex-body > .ex-side").bounding_box()
    assert last.bounding_box()["x"] + last.bounding_box()["width"] <= side["x"]


def test_every_column_of_a_wide_table_shows_beside_the_controls(heat):
    """Pins a reader's finding: at 1280 px the [PAD] columns the experiment is about, and
    4 of the 16 random columns, were hidden off to the table's right edge. (Each
    experiment starts from the figure's first settings.)"""
    heat.set_viewport_size({"width": 1280, "height": 900})
    for button in ["Add 3 [PAD] tokens", "Why divide by √dₖ?"]:
        heat.locator(f"figure#{FIG}").get_by_role("button", name=button).click()
        idle(heat, FIG)
        columns = table(heat).locator("tbody tr").first.locator("td").count()
        assert columns >= 15, (button, columns)
        box = table(heat).locator(".ex-scroll").first
        assert box.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), \
            (button, box.evaluate("el => [el.scrollWidth, el.clientWidth]"))
