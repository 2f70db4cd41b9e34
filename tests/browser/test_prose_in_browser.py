"""Prose bound to a figure, in real Chromium, used as a reader uses it: a drag in the
figure rewrites the live numbers of the sentences around it with the engine's values
(spoken once, after the change settles); an adjustable number dragged with the mouse
and moved with the arrow keys sets the figure; a {try} button runs an experiment."""
from __future__ import annotations

import pytest

from explorables.site_builder.markdown.directives.roles import write
from helpers import cpython_values, idle, in_lesson, mark_position, past_settle, shared_page, state_of, touch_drag

FIG = "explorer"
PAGE = "one-query-row.html"
RECORD = """() => { const ex = window.explorables; window.__announced = [];
  if (ex.pages.announce.__recording) return;  // the module's page keeps one recorder
  const speak = ex.pages.announce;
  ex.pages.announce = function (text) { window.__announced.push(text); return speak(text); };
  ex.pages.announce.__recording = true; }"""

shared = shared_page()


@pytest.fixture
def lesson(shared, site_url):
    for page in in_lesson(shared, site_url + PAGE, FIG):
        page.evaluate(RECORD)
        yield page


def shown_numbers(page) -> list[dict]:
    return page.evaluate("""() => Array.from(document.querySelectorAll('.ex-value[data-figure="explorer"]'))
        .map(s => ({name: s.dataset.value, index: s.dataset.index === undefined ? null : Number(s.dataset.index),
                    format: s.dataset.format, digits: Number(s.dataset.digits), text: s.textContent}))""")


def expected_numbers(page) -> list[str]:
    values = cpython_values("attention-row", state_of(page, FIG))
    out = []
    for n in shown_numbers(page):
        raw = values[n["name"]] if n["index"] is None else values[n["name"]][n["index"]]
        out.append(write(raw, n["format"], n["digits"]))
    return out


def settled_speech(page, expect: bool = False) -> list[str]:
    """What the announcer was given; with ``expect``, waits for something to be said."""
    if expect:
        page.wait_for_function("() => window.__announced.length > 0")
    past_settle(page)  # the quiet time prose.js waits for has passed, and its timer has run
    return page.evaluate("() => window.__announced")


def test_a_drag_in_the_figure_rewrites_the_live_numbers_with_the_engine_s(lesson):
    before = [n["text"] for n in shown_numbers(lesson)]
    assert len(before) >= 4 and before == expected_numbers(lesson)
    x, y = mark_position(lesson, FIG, "keys", "key-1")  # cat's key
    lesson.mouse.move(x, y)
    lesson.mouse.down()
    lesson.mouse.move(x - 60, y + 80, steps=10)
    lesson.mouse.up()
    idle(lesson, FIG)
    after = [n["text"] for n in shown_numbers(lesson)]
    assert after == expected_numbers(lesson)
    assert after[0] != before[0]  # cat's weight fell
    said = settled_speech(lesson, expect=True)
    assert len(said) == 1, said  # once for the settled change, not once a frame
    assert f"cat's weight {after[0]}" in said[0] and f"new vector {after[3]}" in said[0]


def test_an_adjustable_number_dragged_and_keyed_sets_the_figure(lesson):
    number = lesson.locator('.ex-adjust[data-param="temperature"]')
    number.scroll_into_view_if_needed()
    box = number.bounding_box()
    lesson.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    lesson.mouse.down()
    lesson.mouse.move(box["x"] + box["width"] / 2 + 90, box["y"] + box["height"] / 2, steps=6)
    lesson.mouse.up()
    idle(lesson, FIG)
    t = state_of(lesson, FIG)["temperature"]
    assert t > 1.5, t  # dragged right: warmer
    assert number.inner_text() == f"{t:.2f}" and float(number.get_attribute("aria-valuenow")) == t
    slider = lesson.locator('figure#explorer .ex-control-slider output')
    assert slider.inner_text() == f"{t:.2f}"  # the figure's own control follows
    assert [n["text"] for n in shown_numbers(lesson)] == expected_numbers(lesson)

    assert lesson.evaluate("() => document.activeElement.dataset.param") == "temperature"
    lesson.keyboard.press("ArrowLeft")
    lesson.keyboard.press("ArrowLeft")
    idle(lesson, FIG)
    cooler = state_of(lesson, FIG)["temperature"]
    assert cooler < t and number.inner_text() == f"{cooler:.2f}"
    lesson.keyboard.press("Home")
    idle(lesson, FIG)
    assert state_of(lesson, FIG)["temperature"] == 0.05
    assert [n["text"] for n in shown_numbers(lesson)] == expected_numbers(lesson)


def test_a_try_button_runs_the_experiment_and_brings_the_figure_into_view(lesson):
    button = lesson.get_by_role("button", name="Cool it to T = 0.1")
    button.scroll_into_view_if_needed()
    figure = lesson.locator("figure#explorer")
    assert not figure.evaluate("f => { const b = f.getBoundingClientRect(); return b.bottom > 0 && b.top < innerHeight; }")
    button.click()
    idle(lesson, FIG)
    assert state_of(lesson, FIG)["temperature"] == 0.1
    # the figure is taller than the window: its top comes into view (the planes the
    # experiment changed), not its last readout (pinned: it scrolled to the bottom edge)
    assert figure.evaluate("f => f.getBoundingClientRect().height") > lesson.viewport_size["height"]
    lesson.wait_for_function("""() => { const b = document.getElementById('explorer').getBoundingClientRect();
                                        return Math.abs(b.top) < 2; }""")
    assert lesson.evaluate("() => document.activeElement.id") == FIG
    assert [n["text"] for n in shown_numbers(lesson)] == expected_numbers(lesson)
    assert lesson.locator('.ex-adjust[data-param="temperature"]').inner_text() == "0.10"
    # the way back (a reader's finding: the sentence, and its partner button, were left
    # 4,000 px below with no way back but scrolling)
    back = lesson.get_by_role("button", name="Back to the text")
    assert back.is_visible()
    back.click()
    lesson.wait_for_function("""() => { const b = [...document.querySelectorAll('.ex-try')]
        .find(e => e.textContent.includes('Cool it')).getBoundingClientRect();
        return b.top > 0 && b.bottom < innerHeight; }""")
    assert lesson.evaluate("() => document.activeElement.textContent").startswith("Cool it")
    assert back.count() == 0
    # taken up again and coming back by scrolling: the offer goes by itself
    button.click()
    lesson.wait_for_function("""() => Math.abs(document.getElementById('explorer').getBoundingClientRect().top) < 2""")
    assert back.is_visible()
    button.scroll_into_view_if_needed()
    lesson.wait_for_function("() => !document.querySelector('.ex-back-to-text')")


def test_a_figure_reference_in_the_text_leads_to_the_figure(lesson):
    links = lesson.locator('a.ex-ref[href="#explorer"]')  # the lesson names its figure several times
    assert links.count() >= 1 and set(links.all_inner_texts()) == {"Figure 1"}
    link = links.first
    link.scroll_into_view_if_needed()
    link.click()
    lesson.wait_for_function("""() => { const b = document.getElementById('explorer').getBoundingClientRect();
                                        return location.hash === '#explorer' && b.top < innerHeight && b.bottom > 0; }""")
    caption = lesson.locator("figure#explorer > figcaption.ex-caption")
    assert caption.inner_text().startswith("Figure 1. ")
    # below the drawn figure, not above it (the figure draws its parts after the build's HTML)
    assert caption.evaluate("c => c.parentElement.lastElementChild === c")
    body = lesson.locator("figure#explorer .ex-body").bounding_box()
    assert caption.bounding_box()["y"] > body["y"] + body["height"] - 1


def test_prose_stays_bound_after_leaving_the_lesson_and_coming_back(lesson, site_url):
    """Pages are swapped in place: the roles of a lesson swapped back in still drive and
    follow its figure, and the numbers restored with it are not spoken over the title."""
    number = lesson.locator('.ex-adjust[data-param="temperature"]')
    number.focus()
    lesson.keyboard.press("End")
    idle(lesson, FIG)
    assert state_of(lesson, FIG)["temperature"] == 5.0
    settled_speech(lesson, expect=True)
    lesson.locator("a[rel=next]").click()
    lesson.wait_for_function("() => !location.pathname.endsWith('one-query-row.html')")
    lesson.locator("figure.ex-live").first.wait_for()
    idle(lesson, lesson.locator("figure.ex-live").first.get_attribute("id"))
    lesson.evaluate("() => { window.__announced = []; }")
    lesson.go_back()
    lesson.wait_for_function("() => location.pathname.endsWith('one-query-row.html')")
    lesson.locator("figure#explorer.ex-live").wait_for()
    number = lesson.locator('.ex-adjust[data-param="temperature"]')
    assert number.inner_text() == "5.00"  # the figure kept the reader's state; so does the text
    assert [n["text"] for n in shown_numbers(lesson)] == expected_numbers(lesson)
    said = settled_speech(lesson)
    assert not any("new vector" in s for s in said), said
    number.focus()
    lesson.keyboard.press("Home")
    idle(lesson, FIG)
    assert state_of(lesson, FIG)["temperature"] == 0.05
    assert [n["text"] for n in shown_numbers(lesson)] == expected_numbers(lesson)


HEATMAP = "attention-heatmap.html"


def test_numbers_about_the_lesson_s_tokens_hold_while_the_reader_shows_another_example(shared, site_url):
    """Pins a bug: with the heatmap's "random" vectors the prose said "the row of dog has
    entropy 2.36: peaked" and "-14.5% of its attention went to a verb", numbers of other
    tokens under the lesson's words. Numbers quoted by position keep the lesson's value,
    marked, while the example is another; a number of the whole figure (the cell count)
    follows it; with the lesson's example back, all follow again."""
    for page in in_lesson(shared, site_url + HEATMAP, "table"):
        dog = page.locator('.ex-value[data-figure="table"][data-value="entropy"][data-index="2"]')
        cells = page.locator('.ex-value[data-figure="table"][data-value="cells"]')
        built, cells_before = dog.inner_text(), cells.inner_text()
        assert dog.get_attribute("class") == "ex-value"
        page.locator("figure#table").get_by_label("Sentence", exact=True).select_option("random")
        idle(page, "table")
        assert page.evaluate("() => window.explorables.figures.table.state.preset") == "random"
        assert dog.inner_text() == built and "ex-value-held" in dog.get_attribute("class")
        assert "the figure now shows another example" in dog.get_attribute("title")
        assert cells.inner_text() != cells_before  # 16 tokens: 256 cells, live
        assert cells.inner_text() == str(page.evaluate("() => window.explorables.figures.table.values.cells"))
        page.locator("figure#table").get_by_label("Sentence", exact=True).select_option("sentence")
        idle(page, "table")
        assert dog.get_attribute("class") == "ex-value" and dog.get_attribute("title") is None
        assert dog.inner_text() == built and cells.inner_text() == cells_before
        # the causal mask is another example too (a reader's finding: "the rows of the, old
        # and chased are identical, each giving 0% to dog" went on under the mask)
        the = page.locator('.ex-value[data-figure="table"][data-value="weights"][data-index="0,2"]')
        before = the.inner_text()
        page.locator("figure#table").get_by_label("Causal mask", exact=False).check()
        idle(page, "table")
        assert the.inner_text() == before and "ex-value-held" in the.get_attribute("class")
        assert cells.inner_text() == cells_before  # the cells, a number of the whole figure, follow it
        # (the table's arithmetic, which follows the answer when the page is idle, has come)
        page.wait_for_function("() => !window.explorables.figures.table.scene.panels.some(p => p.detail_later)")
        idle(page, "table")
        page.locator("figure#table").get_by_label("Causal mask", exact=False).uncheck()
        idle(page, "table")
        assert the.get_attribute("class") == "ex-value"


def test_numbers_about_tokens_the_table_no_longer_holds_are_held(shared, site_url):
    """Pins a reader's finding: with "Tokens n" lowered to 2 the table held "the" and
    "old" alone, and the prose still said, unmarked, that the row of dog gives 89% of its
    weight to chased (and announced it as news)."""
    for page in in_lesson(shared, site_url + HEATMAP, "table"):
        dog = page.locator('.ex-value[data-figure="table"][data-value="entropy"][data-index="2"]')
        built = dog.inner_text()
        slider = page.locator("figure#table").get_by_label("Tokens n", exact=False)
        slider.focus()
        page.keyboard.press("Home")
        idle(page, "table")
        assert page.evaluate("() => window.explorables.figures.table.state.n") == 1
        assert dog.inner_text() == built and "ex-value-held" in dog.get_attribute("class")
        page.keyboard.press("End")
        idle(page, "table")
        assert dog.get_attribute("class") == "ex-value"  # the lesson's table again


def test_the_caption_stays_under_the_figure_from_its_first_frame(page, guard, site_url):
    """Pins a finding of both reviews: on a lesson the browser loaded, "Figure 1. ..." sat
    over the figure until the first change moved it under, shifting every control 29 px."""
    page.goto(site_url + PAGE, wait_until="domcontentloaded")
    page.locator(f"figure#{FIG}.ex-drawn").wait_for()
    placed = """id => { const figure = document.getElementById(id), caption = figure.querySelector(':scope > figcaption');
        const status = figure.querySelector('.ex-status').getBoundingClientRect();
        return [figure.lastElementChild === caption, caption.getBoundingClientRect().top >= status.bottom - 1,
                Math.round(figure.querySelector('.ex-body').getBoundingClientRect().top - figure.getBoundingClientRect().top)]; }"""
    first = page.evaluate(placed, FIG)
    assert first[:2] == [True, True]
    page.evaluate("() => window.explorables.ready")
    page.locator(f"figure#{FIG}.ex-live").wait_for()
    page.locator(f"figure#{FIG} input[type=range]").first.focus()
    page.keyboard.press("ArrowRight")
    idle(page, FIG)
    assert page.evaluate(placed, FIG) == first  # nothing moved


def test_an_adjustable_number_follows_a_finger_all_the_way(browser, site_url, browser_context_args):
    """Pins a reader's finding: on a phone, dragging the number 100 px or 200 px both
    gave 1.36: the number was an inline element, on which `touch-action: none` has no
    effect, so the browser took the gesture over (pointercancel) after a few pixels."""
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 390, "height": 844},
                                     "device_scale_factor": 3, "is_mobile": True, "has_touch": True})
    page = context.new_page()
    try:
        page.goto(site_url + PAGE)
        page.evaluate("() => window.explorables.ready")
        number = page.locator('.ex-adjust[data-param="temperature"]')
        number.scroll_into_view_if_needed()
        box = number.bounding_box()
        touch_drag(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 60)
        idle(page, FIG)
        near = state_of(page, FIG)["temperature"]
        box = number.bounding_box()
        touch_drag(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 120)
        idle(page, FIG)
        far = state_of(page, FIG)["temperature"]
        # 60 px of the 300 that sweep the range (0.05 to 5, on a log scale): 1.00 x 100^0.2
        assert near == pytest.approx(100 ** 0.2, abs=0.05), near
        assert far == 5  # 120 px more: x 100^0.4, past the top of the range
        assert number.inner_text() == f"{far:.2f}"
    finally:
        context.close()
