"""What a screen reader hears, in real Chromium (issue 12, items 3 and 6).

Everything a figure says goes through the page's one announcer (`.ex-announcer`, from
`ex.pages.announce`): a recorder installed in the page keeps every text written into
it, so a test can say exactly what was heard and how often. A slider's `aria-valuetext`
is read in its own `input` event, the moment a screen reader would speak it."""
from __future__ import annotations

import re

import pytest

from helpers import (
    arithmetic,
    fresh_lesson,
    idle,
    mark_position,
    past_settle,
    shared_page,
    state_of,
    type_refused,
    values_of,
)

ROW, ROW_PAGE = "explorer", "one-query-row.html"
LAB, LAB_PAGE = "lab", "attention-lab.html"
CLOCKS, CLOCKS_PAGE = "clocks", "positional-encoding.html"
TABLE, TABLE_PAGE = "table", "attention-heatmap.html"

# Every text written into the announcer, in order; and, at each slider input event,
# what the slider says and what its <output> shows.
RECORD = """() => {
    window.__said = [];
    window.__slid = [];
    if (window.__recording) return;
    window.__recording = true;
    let last = "";
    new MutationObserver(() => {
        const a = document.querySelector('.ex-announcer');
        const text = a ? a.textContent : "";
        if (text && text !== last) window.__said.push(text);
        last = text;
    }).observe(document.body, {subtree: true, childList: true, characterData: true});
    document.addEventListener('input', (event) => {
        const input = event.target;
        if (input.type !== 'range') return;
        const output = input.closest('.ex-control').querySelector('output');
        window.__slid.push({valuetext: input.getAttribute('aria-valuetext'), output: output.textContent});
    });
}"""


def heard_last(page, text: str) -> None:
    page.wait_for_function("t => window.__said[window.__said.length - 1] === t", arg=text)


def written(page) -> None:
    """Until the announcer has written what it was last given: js/pages.js empties it when
    a text comes and writes the text a moment later (never an empty one)."""
    page.wait_for_function("() => { const a = document.querySelector('.ex-announcer');"
                           " return !a || a.textContent !== ''; }")


def quiet(page) -> None:
    """Until a change the figures or the prose would say has been said (helpers.past_settle)
    and written: what was heard by then is all there is."""
    past_settle(page)
    written(page)


def said(page) -> list[str]:
    return page.evaluate("() => window.__said.slice()")


def settled(page, figure_id: str, count: int = 1) -> list[str]:
    """What was heard once the figure is quiet and its change has been said."""
    idle(page, figure_id)
    page.wait_for_function("n => window.__said.length >= n", arg=count)
    page.wait_for_function("id => !window.explorables.figures[id].saying", arg=figure_id)
    written(page)
    return said(page)


shared = shared_page()


def open_lesson(shared, site_url, page_name, figure_id, motion="no-preference"):
    page, guard = shared
    page.emulate_media(reduced_motion=motion)
    # a lesson swapped in says its title a moment after the swap, later still on a busy
    # machine: recorded from before the swap, it is waited for, then forgotten
    swapped = page.evaluate("() => !!(window.explorables && window.explorables.pages)")
    if swapped:
        # what the test before changed is said first (a change is said once the figure
        # has been quiet a while): it would be heard with the title otherwise
        page.wait_for_function("() => !Object.values(window.explorables.figures).some(f => f.saying)")
        written(page)
        page.evaluate(RECORD)
    fresh_lesson(page, guard, site_url + page_name, figure_id)
    idle(page, figure_id)
    if swapped:
        # (heard alone, or after the last words of the test before, in one message)
        page.wait_for_function("() => window.__said.some(text => text.replace(/[.]$/, '')"
                               ".endsWith(document.title.split(' · ')[0]))")
    page.evaluate(RECORD)
    page.evaluate("() => { window.__said = []; }")
    return page, guard


@pytest.fixture
def row(shared, site_url):
    page, guard = open_lesson(shared, site_url, ROW_PAGE, ROW)
    yield page
    guard.check()


@pytest.fixture
def clocks(shared, site_url):
    page, guard = open_lesson(shared, site_url, CLOCKS_PAGE, CLOCKS)
    yield page
    page.emulate_media(reduced_motion="no-preference")
    guard.check()


@pytest.fixture
def still_clocks(shared, site_url):
    """The clocks for a reader who asked for reduced motion: Play is "Step"."""
    page, guard = open_lesson(shared, site_url, CLOCKS_PAGE, CLOCKS, motion="reduce")
    yield page
    page.emulate_media(reduced_motion="no-preference")
    guard.check()


@pytest.fixture
def lab(shared, site_url):
    page, guard = open_lesson(shared, site_url, LAB_PAGE, LAB)
    yield page
    guard.check()


@pytest.fixture
def heatmap(shared, site_url):
    page, guard = open_lesson(shared, site_url, TABLE_PAGE, TABLE)
    yield page
    guard.check()


def live_regions(page, figure_id: str) -> list[str]:
    """The figure's elements that would speak on their own when their text changes."""
    return page.evaluate("""id => Array.from(document.getElementById(id).querySelectorAll(
        '[aria-live]:not([aria-live=off]), [role=status], [role=log], output:not([aria-live=off])'))
        .map(el => el.outerHTML.slice(0, 80))""", figure_id)


def test_a_slider_step_says_its_value_first_and_the_change_once(row):
    """Regression: aria-valuetext was set only after the engine answered, while the
    <output> (a live region) already spoke the new number."""
    assert live_regions(row, ROW) == []
    slider = row.locator(f"figure#{ROW} input[type=range][name=temperature]")
    slider.focus()
    row.keyboard.press("ArrowRight")
    heard = settled(row, ROW)
    slid = row.evaluate("() => window.__slid")
    assert len(slid) == 1
    # in the input event itself, before any answer: the value the reader hears is the one shown
    assert slid[0]["valuetext"] == "Temperature T " + slid[0]["output"]
    t = values_of(row, ROW)["temperature"]
    assert slid[0]["output"] == f"{t:.2f}"
    status = row.locator(f"figure#{ROW} .ex-status").inner_text()
    # the figure first, then the live numbers of the prose bound to it, in one message
    assert len(heard) == 1 and heard[0].startswith(f"Temperature T {t:.2f}. {status}.")


def test_a_step_that_keeps_the_rounded_percentage_still_says_something(row):
    slider = row.locator(f"figure#{ROW} input[type=range][name=temperature]")
    slider.focus()
    row.keyboard.press("ArrowRight")
    first = settled(row, ROW)
    row.keyboard.press("ArrowRight")
    second = settled(row, ROW, 2)
    assert len(second) == 2 and second[0] == first[0]
    # the best match's percentage may not move, but the new temperature is said
    t = values_of(row, ROW)["temperature"]
    status = row.locator(f"figure#{ROW} .ex-status").inner_text()
    assert second[1].startswith(f"Temperature T {t:.2f}. {status}") and second[1] != second[0]


def test_a_held_arrow_key_is_one_change_said_once(row):
    slider = row.locator(f"figure#{ROW} input[type=range][name=temperature]")
    slider.focus()
    for _ in range(5):
        row.keyboard.press("ArrowLeft")
    heard = settled(row, ROW)
    t = values_of(row, ROW)["temperature"]
    assert len(heard) == 1
    assert heard[0].startswith(f"Temperature T {t:.2f}. " + row.locator(f"figure#{ROW} .ex-status").inner_text())


def test_a_drag_says_where_the_point_went_and_its_new_weight_once(row):
    x, y = mark_position(row, ROW, "keys", "key-1")  # "cat"
    row.mouse.move(x, y)
    row.mouse.down()
    for step in range(1, 6):
        row.mouse.move(x - 8 * step, y + 6 * step)
    quiet(row)  # past the settle time: still nothing while held
    assert said(row) == []
    row.mouse.up()
    heard = settled(row, ROW)
    k = state_of(row, ROW)["k"][1]
    assert len(heard) == 1
    text = heard[0]
    assert text.startswith("key 2, cat, at (")
    coords = re.search(r"at \(([^)]*)\)", text).group(1).replace("\u2212", "-")
    assert [float(c) for c in coords.split(", ")] == [round(k[0], 2), round(k[1], 2)]
    weight = values_of(row, ROW)["weights"][1]
    assert f"weight {weight:.2f}" in text
    assert row.locator(f"figure#{ROW} .ex-status").inner_text() in text


def test_play_ticks_are_silent_and_pause_says_where_it_stopped(clocks):
    button = clocks.locator(f"figure#{CLOCKS} button.ex-play")
    button.scroll_into_view_if_needed()
    assert clocks.get_by_role("button", name="Play", exact=True).count() == 1
    button.click()
    clocks.wait_for_function(f"() => window.explorables.figures.{CLOCKS}.values.t >= 3")
    assert said(clocks) == []  # three ticks and the start: nothing heard
    assert clocks.get_by_role("button", name="Pause", exact=True).count() == 1  # name holds the visible word
    button.click()
    heard = settled(clocks, CLOCKS)
    t = values_of(clocks, CLOCKS)["t"]
    assert heard == ["Paused. " + clocks.locator(f"figure#{CLOCKS} .ex-status").inner_text()]
    assert heard[0].startswith(f"Paused. Position {t},")


def test_a_step_with_reduced_motion_says_the_new_position(still_clocks):
    clocks = still_clocks
    step = clocks.get_by_role("button", name="Step", exact=True)
    step.click()
    heard = settled(clocks, CLOCKS)
    assert values_of(clocks, CLOCKS)["t"] == 1
    assert heard == [clocks.locator(f"figure#{CLOCKS} .ex-status").inner_text()]
    assert heard[0].startswith("Position 1,")


def test_the_similarity_curve_has_a_text_equivalent(clocks):
    canvas = clocks.locator(f'figure#{CLOCKS} [data-key="chart:similarity"] canvas')
    ids = canvas.get_attribute("aria-describedby").split()
    about = clocks.locator(f"#{ids[0]}").text_content()
    assert about.startswith("Curve, similarity by position u, at 0: 1.00; 8: 0.66;")
    assert "Highest 1.00 at position u = 0, lowest " in about
    assert clocks.locator(f"#{ids[1]} li").first.text_content().startswith("probe at position 8")


def test_hovering_cells_puts_nothing_in_a_live_region(heatmap):
    assert live_regions(heatmap, TABLE) == []
    cells = heatmap.locator(f"figure#{TABLE} .ex-cells tbody td")
    cells.first.scroll_into_view_if_needed()
    for i in range(6):
        box = cells.nth(i * 7).bounding_box()
        heatmap.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    detail = heatmap.locator(f"figure#{TABLE} .ex-detail").first
    assert detail.inner_text().strip()  # the arithmetic is shown to the eye
    quiet(heatmap)
    assert said(heatmap) == []


def test_a_change_said_in_sentences_keeps_their_own_stops(heatmap):
    """Pins a reader's finding: "Why divide by √dₖ?.": a full stop was put after a
    sentence that had its own."""
    heatmap.locator(f"figure#{TABLE}").get_by_role("button", name="Why divide by √dₖ?").click()
    heard = settled(heatmap, TABLE)
    assert heard[-1].startswith("Why divide by √dₖ? ") and "?." not in heard[-1]


def test_a_lone_full_stop_is_quoted_where_it_is_picked_and_heard(row):
    """Pins a reader's finding: "Asking word: 5: ..", the token "." read as a stop."""
    menu = row.locator(f"figure#{ROW} select[name=query]")
    assert menu.locator("option").last.inner_text() == "5: “.”"
    menu.select_option("5")
    heard = settled(row, ROW)
    assert heard[-1].startswith("Asking word: 5: “.”. ") and ".." not in heard[-1]


def test_arrow_keys_in_a_table_are_quiet_and_d_reads_the_arithmetic(heatmap):
    button = heatmap.locator(f"figure#{TABLE} .ex-cells tbody .ex-focusable").first
    button.focus()
    heatmap.keyboard.press("ArrowRight")
    heatmap.keyboard.press("ArrowDown")
    quiet(heatmap)
    assert said(heatmap) == []
    detail = arithmetic(heatmap.locator(f"figure#{TABLE} .ex-detail").first).strip().splitlines()
    heatmap.keyboard.press("d")
    heatmap.wait_for_function("() => window.__said.length >= 1")
    assert said(heatmap) == [". ".join(line.strip() for line in detail)]
    # on the row's label D says nothing, and the box shows no cell's arithmetic (it kept
    # the last cell's, which D then read out)
    heatmap.keyboard.press("ArrowLeft")
    assert heatmap.evaluate("() => !!document.activeElement.closest('tbody th')")
    heatmap.keyboard.press("d")
    quiet(heatmap)
    assert said(heatmap) == [". ".join(line.strip() for line in detail)]
    assert heatmap.locator(f"figure#{TABLE} .ex-detail").first.is_hidden()
    # a cell with a button is named once: by its button, not also by its cell
    assert heatmap.locator(f"figure#{TABLE} td[aria-label]:has(button)").count() == 0


def test_a_number_field_keeps_focus_on_enter_and_escape_restores(row):
    """Regression: Enter blurred the field, dropping the focus to <body>."""
    # no empty header: the corner over the row labels is named for screen readers
    assert [th.text_content() for th in row.locator(f"figure#{ROW} .ex-grid thead th").all()] == ["Row", "x", "y"]
    field = row.locator(f'figure#{ROW} input[name="key.1.0"]')
    field.click()
    field.fill("0.5")
    row.keyboard.press("Enter")
    idle(row, ROW)
    assert state_of(row, ROW)["k"][1][0] == 0.5
    assert row.evaluate("() => document.activeElement.name") == "key.1.0"
    row.keyboard.press("Control+a")
    row.keyboard.type("abc")
    row.keyboard.press("Enter")
    idle(row, ROW)
    assert field.get_attribute("aria-invalid") == "true"
    error_id = field.get_attribute("aria-describedby")
    message = row.locator(f"#{error_id}").inner_text()
    assert "must be a number, got 'abc'" in message
    assert row.evaluate("() => document.activeElement.name") == "key.1.0"
    row.wait_for_function("() => window.__said.length >= 1")
    assert message in said(row)[-1]
    row.keyboard.press("Escape")
    assert field.input_value() == "0.5"
    assert field.get_attribute("aria-invalid") is None and field.get_attribute("aria-describedby") is None
    assert row.evaluate("() => document.activeElement.name") == "key.1.0"
    assert state_of(row, ROW)["k"][1][0] == 0.5


def test_a_number_refused_right_after_a_change_is_heard_last(row):
    """A value sent, then at once (before the change is said) a value the figure refuses:
    the change comes first with the number that was sent, and the refusal last. (It came
    after the refusal, naming the refused text as the field's new value.)"""
    field = row.locator(f'figure#{ROW} input[name="key.1.1"]')
    field.click()
    field.fill("0.75")
    row.keyboard.press("Enter")
    error = type_refused(row, field, "xyz")
    idle(row, ROW)
    quiet(row)
    message = error.inner_text()
    assert "must be a number, got 'xyz'" in message
    heard = said(row)
    assert message in heard[-1], heard
    assert not any("xyz." in text for text in heard), heard  # the refused text is never said as set
    assert any(" 0.75." in text for text in heard), heard
    assert state_of(row, ROW)["k"][1][1] == 0.75


def test_a_refused_number_is_said_once_and_again_only_on_enter(row):
    """Leaving a field that holds a refused text sends nothing (the browser's change event
    on leaving it sent the text again, and its message was heard twice); Enter does."""
    field = row.locator(f'figure#{ROW} input[name="key.2.0"]')
    message = type_refused(row, field, "q").inner_text()
    idle(row, ROW)
    quiet(row)
    row.keyboard.press("Tab")
    idle(row, ROW)
    quiet(row)
    assert sum(message in text for text in said(row)) == 1, said(row)
    assert field.input_value() == "q" and field.get_attribute("aria-invalid") == "true"
    field.focus()
    row.keyboard.press("Enter")
    idle(row, ROW)
    quiet(row)
    assert sum(message in text for text in said(row)) == 2, said(row)


def test_escape_undoes_an_unsent_edit(row):
    field = row.locator(f'figure#{ROW} input[name="key.2.1"]')
    before = field.input_value()
    field.click()
    row.keyboard.press("Control+a")
    row.keyboard.type("3.25")
    row.keyboard.press("Escape")
    assert field.input_value() == before
    field.blur()
    idle(row, ROW)
    assert str(state_of(row, ROW)["k"][2][1]) == before


def test_a_select_only_plane_is_a_widget_and_every_point_can_be_picked(lab):
    canvas = lab.locator(f'figure#{LAB} [data-key="plane:values"] canvas')
    assert canvas.get_attribute("role") == "application"
    points = lab.evaluate("""() => window.explorables.figures.lab.scene.panels
        .find(p => p.id === 'values').marks.filter(m => m.kind === 'point' && m.select)""")
    n = len(points)
    assert n >= 10, "the lesson's values plane has ten or more points to pick"
    assert f"Keys 1 to {n}" in canvas.get_attribute("aria-label")
    canvas.focus()
    for key in str(n):  # two digits in a row: the last point
        lab.keyboard.press(key)
    heard_last(lab, f"{points[n - 1]['label']}, {n} of {n}: Enter makes it the choice")
    lab.keyboard.press("n")  # N steps on, round to the first
    heard_last(lab, f"{points[0]['label']}, 1 of {n}: Enter makes it the choice")
    lab.keyboard.press("p")
    lab.keyboard.press("p")  # back past the last to the one before it
    lab.keyboard.press("Enter")
    idle(lab, LAB)
    chosen = points[n - 2]["id"]
    assert state_of(lab, LAB)["query"] == int(chosen.split("-")[1])


def test_each_plane_is_described_by_its_points_said_once(lab):
    for canvas in lab.locator(f"figure#{LAB} .ex-plane canvas").all():
        ids = canvas.get_attribute("aria-describedby").split()
        items = lab.locator(f"#{ids[-1]} li").all_text_contents()
        assert items
        for item in items:
            assert item.count(" at (") <= 1, item


def test_every_figure_has_a_name(shared, site_url):
    page, guard = shared
    for page_name, figure_id in ((ROW_PAGE, ROW), (LAB_PAGE, LAB), (CLOCKS_PAGE, CLOCKS), (TABLE_PAGE, TABLE)):
        fresh_lesson(page, guard, site_url + page_name, figure_id)
        names = page.evaluate("""() => Array.from(document.querySelectorAll('figure.ex-figure')).map(f => {
            const by = (f.getAttribute('aria-labelledby') || '').split(' ').filter(Boolean);
            return by.map(id => document.getElementById(id).textContent.trim()).join(' ');
        })""")
        titles = page.locator("figure.ex-figure > .ex-figure-head h2").all_text_contents()
        assert names and [n[:len(t)] for n, t in zip(names, titles)] == titles, (page_name, names)
        title = titles[0]
        assert page.get_by_role("figure", name=re.compile("^" + re.escape(title))).count() == 1
        guard.check()
