"""The kv-cache figure of lesson 7 in real Chromium, used as a reader uses it: the token
slider and the adjustable token in the prose by keyboard, Play, the cache switch,
the sharing menu and an experiment. The live numbers in the prose follow, every shown
number equals the CPython engine's, and the guard fails the test on any console error.
Nothing in the figure is draggable: its marks are cells, which the keyboard reaches."""
from __future__ import annotations

import pytest

from explorables.site_builder.markdown.directives.roles import write
from explorables.engine.exercises import EXERCISES
from helpers import answer_exercise, assert_matches_cpython, cpython_values, idle, in_lesson, shared_page, state_of

FIG = "kv"
NAME = "kv-cache"
PAGE = "generating-text.html"

shared = shared_page()


@pytest.fixture
def kv(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


def prose(page) -> list[dict]:
    return page.evaluate("""id => Array.from(document.querySelectorAll(`.ex-value[data-figure="${id}"]`))
        .map(s => ({name: s.dataset.value, format: s.dataset.format, digits: Number(s.dataset.digits),
                    text: s.textContent}))""", FIG)


def expected(page) -> list[str]:
    values = cpython_values(NAME, state_of(page, FIG))
    return [write(values[n["name"]], n["format"], n["digits"]) for n in prose(page)]


def filled_rows(page) -> int:
    """Rows of the table with a number in them, as the reader sees them."""
    return page.evaluate("""id => Array.from(document.querySelectorAll(
        `figure#${id} [data-key="cells:table"] tr`)).filter(r => /\\d\\.\\d\\d/.test(r.textContent)).length""", FIG)


def test_the_token_slider_by_keyboard_fills_the_table_and_the_prose_follows(kv):
    values = assert_matches_cpython(kv, FIG, NAME)
    assert values["t"] == 5 and values["token_text"] == "512 KiB"  # the lesson's :t: 5
    before = [n["text"] for n in prose(kv)]
    assert before == expected(kv) and filled_rows(kv) == 6
    slider = kv.locator(f'figure#{FIG} input[name="t"]')
    slider.scroll_into_view_if_needed()
    slider.focus()
    kv.keyboard.press("Home")
    assert assert_matches_cpython(kv, FIG, NAME)["t"] == 0 and filled_rows(kv) == 1
    for _ in range(3):
        kv.keyboard.press("ArrowRight")
    values = assert_matches_cpython(kv, FIG, NAME)
    assert values["t"] == 3 and filled_rows(kv) == 4
    kept = kv.locator(f'figure#{FIG} [data-key="cells:kept"]').inner_text()
    assert kept.count("\tkept") == 6 and kept.count("\tnew") == 2  # three kept keys and values, one new pair
    after = [n["text"] for n in prose(kv)]
    assert after == expected(kv) and after != before
    kv.keyboard.press("End")
    assert assert_matches_cpython(kv, FIG, NAME)["t"] == 7 and filled_rows(kv) == 8


def test_the_token_in_the_prose_moves_the_figure(kv):
    number = kv.locator(f'.ex-adjust[data-figure="{FIG}"][data-param="t"]')
    number.scroll_into_view_if_needed()
    number.focus()
    kv.keyboard.press("ArrowLeft")
    kv.keyboard.press("ArrowLeft")
    idle(kv, FIG)
    assert state_of(kv, FIG)["t"] == 3 and number.inner_text() == "3"
    assert kv.locator(f'figure#{FIG} input[name="t"]').input_value() == "3"
    assert [n["text"] for n in prose(kv)] == expected(kv)
    n = kv.locator(f'.ex-value[data-figure="{FIG}"][data-value="n"]').first
    assert n.inner_text() == "4"


def test_generate_turn_the_cache_off_and_share(kv):
    play = kv.locator(f"figure#{FIG} button.ex-play")
    assert play.inner_text() == "Play"  # what the experiment's message tells the reader to press
    play.scroll_into_view_if_needed()
    play.focus()
    kv.keyboard.press("Enter")
    kv.wait_for_function(f"() => window.explorables.figures['{FIG}'].state.t !== 5", timeout=10_000)
    kv.keyboard.press("Enter")  # pause
    idle(kv, FIG)
    assert state_of(kv, FIG)["playing"] is False
    switch = kv.locator(f'figure#{FIG} input[name="cache"]')
    switch.focus()
    kv.keyboard.press("Space")
    values = assert_matches_cpython(kv, FIG, NAME)
    assert values["cache"] is False
    if values["t"] > 0:
        assert "\tagain" in kv.locator(f'figure#{FIG} [data-key="cells:kept"]').inner_text()
    share = kv.locator(f'figure#{FIG} select[name="share"]')
    share.select_option("grouped")
    idle(kv, FIG)
    groups = kv.locator(f'figure#{FIG} select[name="groups"]')
    groups.select_option("4")
    values = assert_matches_cpython(kv, FIG, NAME)
    assert values["kv_heads"] == 4 and values["context_text"] == "256 MiB"
    assert [n["text"] for n in prose(kv)] == expected(kv)


def test_an_experiment_from_the_prose(kv):
    kv.get_by_role("button", name="Turn the cache off", exact=True).first.click()
    idle(kv, FIG)
    state = state_of(kv, FIG)
    assert state["experiment"] == "no-cache" and state["t"] == 7 and state["cache"] is False
    reveal = kv.locator(f"figure#{FIG} .ex-message details")
    reveal.locator("summary").click()
    assert "times as many" in reveal.locator("p").inner_text()
    assert [n["text"] for n in prose(kv)] == expected(kv)


def test_the_exercise_is_graded_by_the_engine_with_its_hints(kv):
    """The exercise type comes with the figure's package: the page's engine grades it."""
    e = EXERCISES["kv-cache-size"]
    p = e.generate(2)
    section = kv.locator("div#ex-1")
    section.scroll_into_view_if_needed()
    assert answer_exercise(kv, section, f"{e.solve(p):g}") == ("Right.", "right")
    for name in ("heads-not-groups", "one-of-k-and-v"):
        mistake = next(m for m in e.mistakes if m.name == name)
        assert answer_exercise(kv, section, f"{mistake.value(p):g}") == (str(mistake.hint), "mistake")
