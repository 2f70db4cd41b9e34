"""The one-query-row explorer in real Chromium, used as a reader uses it: mouse,
keyboard, typing. Every shown number is checked against the CPython engine."""
from __future__ import annotations

import re

import pytest

from helpers import (
    assert_matches_cpython, first_frame, idle, in_lesson, let_python_come, mark_position, shared_page, state_of,
    type_refused, values_of,
)

FIG = "explorer"
PAGE = "one-query-row.html"


shared = shared_page()


@pytest.fixture
def row(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


def test_first_frame_is_drawn_before_the_engine_is_ready(page, site_url, guard):
    snapshot = first_frame(page, site_url + PAGE, FIG)
    assert snapshot["settled"] is False, "the engine was already live: the test proves nothing"
    # the badge says Python is on its way, or how much of it has come (on a slow start)
    assert snapshot["loading"] and re.fullmatch(r"Starting Python…|Python [\d.]+ of [\d.]+ MB", snapshot["badge"])
    weights = snapshot["values"]["weights"]
    assert snapshot["counts"][".ex-bar"] == 6 and abs(sum(weights) - 1) < 1e-12
    # the plane draws its first frame in a task of its own once laid out (plane.js): that
    # drawing comes while Python is still starting. Reading the canvas back again and
    # again makes Chromium advise willReadFrequently: this test's doing, not the page's.
    guard.allowed.append("willReadFrequently")
    # a plane is drawn once the reader comes near it (plane.js): the reader scrolls to it
    page.locator("figure#explorer .ex-plane canvas").first.scroll_into_view_if_needed()
    drawn = page.wait_for_function("""sel => {
        const c = document.querySelector(sel);
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let ink = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) ink++;
        return ink > 1000 && { ink, live: c.closest('figure').classList.contains('ex-live') };
    }""", arg="figure#explorer .ex-plane canvas").json_value()
    assert drawn["live"] is False, "the canvas was drawn only once the engine was live"
    let_python_come(page, snapshot["held"])
    page.evaluate("() => window.explorables.ready")
    page.locator("figure#explorer.ex-live").wait_for()


def test_a_plane_s_drawing_is_as_large_as_the_box_it_is_shown_in(row):
    """Pins a reader's finding: the canvas's 1 px border came out of its height (the page's
    border-box sizing), so every plane's drawing was squeezed by 2 px, its points a little
    oval, and a pointer met a mark about a pixel from where it was drawn."""
    sizes = row.evaluate("""() => [...document.querySelectorAll('figure#explorer canvas.ex-canvas')].map(c =>
        [c.clientWidth * devicePixelRatio, c.clientHeight * devicePixelRatio, c.width, c.height, c.clientLeft])""")
    assert len(sizes) >= 2
    for box_w, box_h, width, height, border in sizes:
        assert (box_w, box_h) == (width, height) and border == 1, sizes


def test_dragging_a_key_with_the_mouse_changes_the_weights(row):
    before = values_of(row, FIG)
    x, y = mark_position(row, FIG, "keys", "key-1")  # cat's key
    row.mouse.move(x, y)
    row.mouse.down()
    row.mouse.move(x - 60, y + 80, steps=8)
    row.mouse.up()
    values = assert_matches_cpython(row, FIG, "attention-row")
    assert values["keys"][1] != before["keys"][1]
    assert values["weights"][1] < before["weights"][1] - 0.05  # cat no longer matches as well
    shown = row.locator("figure#explorer .ex-bar").nth(1).locator(".ex-bar-value").inner_text()
    assert shown == f"{values['weights'][1]:.2f}"


def test_keys_move_with_the_keyboard(row):
    before = state_of(row, FIG)["k"]
    canvas = row.locator("figure#explorer .ex-plane canvas").first
    canvas.focus()
    row.keyboard.press("5")  # mouse's key
    row.keyboard.press("ArrowLeft")
    row.keyboard.press("Shift+ArrowDown")
    idle(row, FIG)
    after = state_of(row, FIG)["k"]
    assert after[4][0] == pytest.approx(before[4][0] - 0.1, abs=1e-9)
    assert after[4][1] == pytest.approx(before[4][1] - 0.5, abs=1e-9)
    assert after[:4] == before[:4] and after[5] == before[5]
    assert_matches_cpython(row, FIG, "attention-row")


def test_temperature_slider_and_causal_mask(row):
    before = values_of(row, FIG)
    slider = row.locator("figure#explorer input[type=range]")
    slider.focus()
    row.keyboard.press("Home")  # the lowest temperature: the best match takes nearly all
    values = assert_matches_cpython(row, FIG, "attention-row")
    assert values["temperature"] == pytest.approx(0.05)
    best = before["weights"].index(max(before["weights"]))
    assert values["weights"][best] > 0.95 > before["weights"][best]
    row.get_by_role("switch").click()
    values = assert_matches_cpython(row, FIG, "attention-row")
    query = values["query"]
    assert values["causal"] is True
    assert all(w == 0.0 for w in values["weights"][query + 1:])
    assert sum(values["weights"]) == pytest.approx(1.0, abs=1e-12)
    bars = row.locator("figure#explorer .ex-bar")
    assert "ex-muted" in (bars.nth(query + 1).get_attribute("class") or "")


def test_the_temperature_slider_moves_on_a_log_scale(row):
    slider = row.locator("figure#explorer input[type=range]")
    slider.focus()
    row.keyboard.press("ArrowRight")  # one of 200 steps from 0.05 to 5: T times 100^(1/200) or less
    values = assert_matches_cpython(row, FIG, "attention-row")
    t = values["temperature"]
    assert 1.0 < t <= 1.024 and t == float(f"{t:.4g}")  # exp of the thumb, to 4 significant digits
    assert row.locator("figure#explorer output").inner_text() == f"{t:.2f}"
    row.keyboard.press("End")
    assert assert_matches_cpython(row, FIG, "attention-row")["temperature"] == 5.0


def test_clicking_a_word_makes_it_ask(row):
    row.locator("figure#explorer .ex-cells button").nth(5).click()  # "."
    values = assert_matches_cpython(row, FIG, "attention-row")
    assert values["query"] == 5
    assert max(values["weights"]) - min(values["weights"]) < 0.1  # the short query: a nearly flat row


BAD = ["abc", "1e999", "", "nan"]


def test_bad_typed_coordinates_are_refused_and_the_state_kept(row):
    """Each bad text in turn, then a good value (another each time, so that it changes the state)."""
    field = row.locator('figure#explorer input[name="key.1.0"]')
    for i, bad in enumerate(BAD):
        before_state = state_of(row, FIG)
        field.fill(bad)
        field.press("Enter")
        error = field.locator("xpath=..").locator(".ex-field-error")
        error.wait_for()
        assert error.inner_text().strip() != "", bad
        assert field.get_attribute("aria-invalid") == "true", bad
        idle(row, FIG)
        assert state_of(row, FIG) == before_state, bad
        assert "NaN" not in row.locator("figure#explorer").inner_text(), bad
        good = -1.5 + 0.25 * i
        field.fill(str(good))
        field.press("Enter")
        idle(row, FIG)
        assert state_of(row, FIG)["k"][1][0] == good, bad
        assert field.get_attribute("aria-invalid") is None, bad
        assert_matches_cpython(row, FIG, "attention-row")


def test_hovering_a_bar_lights_the_same_token_everywhere(row):
    row.locator("figure#explorer .ex-bar").nth(4).hover()
    hot = row.locator("figure#explorer .ex-hot")
    assert hot.count() >= 3  # the bar, the score cell, the key-coordinates row
    links = set(hot.evaluate_all("els => els.map(e => e.dataset.link)"))
    assert links == {"t4"}


def test_an_experiment_sets_the_controls_and_says_what_to_look_for(row):
    row.get_by_role("button", name="Hide the future").click()
    values = assert_matches_cpython(row, FIG, "attention-row")
    assert values["causal"] is True
    reveal = row.locator("figure#explorer .ex-message details")
    assert reveal.locator("summary").inner_text() == "What you should see"
    assert not reveal.locator("p").is_visible()  # folded: the reader predicts first
    reveal.locator("summary").click()
    message = reveal.locator("p").inner_text()
    assert len(message) > 20
    assert row.get_by_role("switch").is_checked()


def test_update_from_a_script_resolves_after_the_redraw(row):
    values = row.evaluate("() => window.explorables.figures.explorer.update({temperature: 2.5})")
    assert values["temperature"] == 2.5
    assert row.locator("figure#explorer output").inner_text() == "2.50"
    assert_matches_cpython(row, FIG, "attention-row")


def test_clicking_a_weight_bar_label_makes_that_word_ask(row):
    bar = row.locator("figure#explorer .ex-bar").nth(4)  # mouse
    label = bar.get_by_role("button", name="mouse")
    assert label.get_attribute("aria-pressed") == "false"
    label.click()
    values = assert_matches_cpython(row, FIG, "attention-row")
    assert values["query"] == 4
    assert state_of(row, FIG)["query"] == 4
    assert bar.get_by_role("button").get_attribute("aria-pressed") == "true"
    assert row.locator("figure#explorer select").input_value() == "4"  # the control follows
    best = values["weights"].index(max(values["weights"]))
    assert values["tokens"][best] == "chased"  # the noun looks for its verb
    row.locator("figure#explorer .ex-bar").nth(0).get_by_role("button").press("Enter")  # by keyboard
    assert assert_matches_cpython(row, FIG, "attention-row")["query"] == 0


def test_the_keyboard_keeps_its_place_across_redraws(row):
    """Pins a bug: pressing a "Try this" button with Enter rebuilt the buttons and
    dropped the focus to the page."""
    button = row.get_by_role("button", name="Hide the future")
    button.focus()
    row.keyboard.press("Enter")
    idle(row, FIG)
    focused = row.evaluate("() => document.activeElement.dataset.focusKey")
    assert focused == "action:hide-future"
    assert row.evaluate("() => document.querySelectorAll('figure#explorer .ex-cells [tabindex=\"0\"]').length") == 1


def test_a_refused_field_follows_when_the_key_moves_another_way(row):
    """Pins a bug: after a refused "abc", moving the key by keyboard left "abc" shown."""
    field = row.locator('figure#explorer input[name="key.1.0"]')
    field.fill("abc")
    field.press("Enter")
    row.locator('figure#explorer input[name="key.1.0"][aria-invalid="true"]').wait_for()
    canvas = row.locator("figure#explorer .ex-plane canvas").first
    canvas.focus()
    row.keyboard.press("2")
    row.keyboard.press("ArrowRight")
    idle(row, FIG)
    x = state_of(row, FIG)["k"][1][0]
    assert field.get_attribute("aria-invalid") is None
    assert float(field.input_value()) == pytest.approx(x)


# The engine's answers a moment late, as on a slow phone (the page's client, for one test)
# (the page is the process's shared one: the client is put back as it was, nothing left on it)
SLOW_ANSWERS = """ms => { const client = window.explorables.client; const prompt = client.__prompt = client.step;
    client.step = function () { return prompt.apply(client, arguments)
        .then(answer => new Promise(done => setTimeout(() => done(answer), ms))); }; }"""
PROMPT_ANSWERS = "() => { const client = window.explorables.client; client.step = client.__prompt; delete client.__prompt; }"


def test_what_the_reader_types_next_is_kept_when_the_last_answer_comes(row):
    """A number sent with Enter, and the next typed at once: the answer to the first, coming
    while the reader types, wrote its value over the field (0.75, then "0.7525")."""
    field = row.locator('figure#explorer input[name="key.1.0"]')
    field.click()
    row.keyboard.press("Control+a")
    row.keyboard.type("0.75")
    row.evaluate(SLOW_ANSWERS, 150)
    try:
        row.keyboard.press("Enter")
        row.keyboard.press("Control+a")
        row.keyboard.type("0.25", delay=60)  # the answer to 0.75 comes meanwhile
        idle(row, FIG)
    finally:
        row.evaluate(PROMPT_ANSWERS)
    assert state_of(row, FIG)["k"][1][0] == 0.75
    assert field.input_value() == "0.25"
    row.keyboard.press("Enter")
    idle(row, FIG)
    assert state_of(row, FIG)["k"][1][0] == 0.25 and field.input_value() == "0.25"


def test_the_score_row_says_what_its_colours_mean(row):
    """The reference's "good match / poor match": a key under the score row's title, each
    swatch filled as a cell of that tone (the largest score is tone 1)."""
    key = row.locator("figure#explorer .ex-cells-key li")
    assert key.all_inner_texts() == ["low score: poor match", "high score: good match"]
    fills = row.evaluate("""() => {
        const fill = el => getComputedStyle(el).backgroundColor;
        const swatches = Array.from(document.querySelectorAll('figure#explorer .ex-cells-key .ex-swatch')).map(fill);
        const scores = window.explorables.figures.explorer.values.scores;
        const top = scores.indexOf(Math.max(...scores));
        return {swatches, top: fill(document.querySelector('figure#explorer .ex-cells td[data-link="t' + top + '"]'))};
    }""")
    assert fills["swatches"][1] == fills["top"] and fills["swatches"][0] != fills["swatches"][1]


def test_a_refused_value_s_message_leaves_the_fields_under_it_in_reach(row):
    """Pins a reader's finding: "x of the key of “cat” must be a number" sat over the
    chased row, took its clicks, and stayed there once the focus had moved on."""
    field = row.locator('figure#explorer input[name="key.1.0"]')
    below = row.locator('figure#explorer input[name="key.2.0"]')
    error = type_refused(row, field, "abc")
    assert error.is_visible()
    box = below.bounding_box()
    at = "([x, y]) => document.elementFromPoint(x, y).getAttribute('name')"
    centre = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
    below.click()  # through the message, if it lies over the field
    assert row.evaluate("() => document.activeElement.name") == "key.2.0"
    assert not error.is_visible()  # the focus moved on: the message waits for the field's return
    assert row.evaluate(at, centre) == "key.2.0"
    assert field.get_attribute("aria-invalid") == "true" and error.text_content()  # still said, to a screen reader
    field.focus()
    assert error.is_visible()
    field.fill("1")
    field.press("Enter")
    idle(row, FIG)
    assert state_of(row, FIG)["k"][1][0] == 1


PIXELS = """sel => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0, sum = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) { ink++; sum = (sum * 31 + d[i - 3] + 7 * d[i - 2] + 13 * d[i - 1]) % 1000000007; }
    return { ink, sum };
}"""
CANVAS = "figure#explorer .ex-plane canvas"


def test_a_plane_far_from_the_view_is_drawn_when_the_reader_comes_near(row, shared):
    """An answer redraws only the planes near the reader's view; one further away is
    drawn, with the latest scene, as the reader scrolls to it."""
    shared[1].allowed.append("willReadFrequently")  # the test reads the canvas back, not the page
    row.evaluate("() => window.scrollTo(0, 0)")
    row.wait_for_function(f"() => document.querySelector('{CANVAS}').getBoundingClientRect().top > 1.6 * innerHeight")
    row.evaluate(f"() => {{ const c = document.querySelector('{CANVAS}'); c.getContext('2d').clearRect(0, 0, c.width, c.height); }}")
    row.evaluate("() => window.explorables.figures.explorer.update({temperature: 2.5})")  # an answer, far away
    row.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert row.evaluate(PIXELS, CANVAS)["ink"] == 0, "a plane two screens away was drawn"
    row.mouse.move(8, 300)  # in the page's margin: no hover redraws the plane meanwhile
    for _ in range(40):  # the reader scrolls down to the figure
        if row.evaluate(f"() => document.querySelector('{CANVAS}').getBoundingClientRect().top < innerHeight"):
            break
        y = row.evaluate("() => window.scrollY")
        row.mouse.wheel(0, 150)
        row.wait_for_function("y => window.scrollY > y", arg=y)  # the wheel's scroll has come
    row.wait_for_function(f"sel => ({PIXELS})(sel).ink > 1000", arg=CANVAS)
    lazily = row.evaluate(PIXELS, CANVAS)
    # the same scene drawn again, in sight: the picture the reader got is the latest one
    row.evaluate("() => { const f = window.explorables.figures.explorer; f.render(f.scene); }")
    assert row.evaluate(PIXELS, CANVAS) == lazily
    assert state_of(row, FIG)["temperature"] == 2.5
    # in sight, every answer redraws it at once: a key moved is drawn where it went
    row.evaluate("""() => { const f = window.explorables.figures.explorer;
        const key = f.state.k[1]; return f.send({type: "drag", mark: "key", index: 1, x: key[0] - 0.5, y: key[1]}); }""")
    assert row.evaluate(PIXELS, CANVAS) != lazily
