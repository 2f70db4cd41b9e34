"""The positional-encoding clocks in real Chromium, used as a reader uses them: Play and
Pause, reduced motion, scrolling away, sliders by keyboard, the probe dragged by mouse and
moved by keys, the base picked and typed. Every shown number is checked against the
CPython engine."""
from __future__ import annotations

import pytest

from helpers import assert_matches_cpython, idle, open_figure, state_of, values_of

import engine

FIG = "clocks"
NAME = "positional-encoding"
PAGE = "positional-encoding.html"


@pytest.fixture
def clocks(page, site_url, guard):
    open_figure(page, site_url + PAGE, FIG)
    return page


def test_first_frame_shows_the_known_similarity(clocks):
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert (values["D"], values["base"], values["offset"]) == (32, 10000, 8)
    assert round(values["similarity_at_offset"], 3) == 0.658
    readout = clocks.locator(f"figure#{FIG} .ex-text").first.inner_text()
    assert "PE(0) and PE(8) have similarity 0.66" in readout
    assert clocks.locator(f"figure#{FIG} .ex-cells .ex-cell").count() == 32  # PE(0), 2 x 16


def test_play_runs_and_pause_stops(clocks):
    button = clocks.get_by_role("button", name="Play positions")
    button.scroll_into_view_if_needed()
    button.click()
    clocks.wait_for_function(f"() => window.explorables.figures.{FIG}.values.t >= 2", timeout=5000)
    assert values_of(clocks, FIG)["playing"] is True
    clocks.get_by_role("button", name="Pause positions").click()
    stopped = idle(clocks, FIG)
    assert stopped["playing"] is False
    clocks.wait_for_timeout(1600)  # more than two intervals
    assert values_of(clocks, FIG)["t"] == stopped["t"]
    assert_matches_cpython(clocks, FIG, NAME)


def test_play_pauses_while_the_figure_is_off_screen(clocks):
    clocks.get_by_role("button", name="Play positions").click()
    clocks.wait_for_function(f"() => window.explorables.figures.{FIG}.values.t >= 1", timeout=5000)
    clocks.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    clocks.wait_for_timeout(900)  # let a tick already sent finish
    t = idle(clocks, FIG)["t"]
    clocks.wait_for_timeout(1600)
    assert values_of(clocks, FIG)["t"] == t, "ticks kept coming while the figure was off screen"
    clocks.locator(f"figure#{FIG}").scroll_into_view_if_needed()
    clocks.wait_for_function(f"t => window.explorables.figures.{FIG}.values.t > t", arg=t, timeout=5000)


def test_reduced_motion_steps_once_a_press(page, site_url, guard):
    page.emulate_media(reduced_motion="reduce")
    open_figure(page, site_url + PAGE, FIG)
    for expected in (1, 2):
        page.get_by_role("button", name="Play positions").click()
        values = idle(page, FIG)
        assert values["t"] == expected and values["playing"] is False
    page.wait_for_timeout(1600)
    assert values_of(page, FIG)["t"] == 2
    assert_matches_cpython(page, FIG, NAME)


def test_sliders_by_keyboard(clocks):
    slider = clocks.locator(f'figure#{FIG} input[name="t"]')
    slider.focus()
    for _ in range(3):
        clocks.keyboard.press("ArrowRight")
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["t"] == 3
    assert values["pe"] == pytest.approx(engine.sinusoidal(3, 32, 10000), abs=1e-15)
    assert round(values["similarity_at_offset"], 3) == 0.658  # moving t leaves it alone
    dim = clocks.locator(f'figure#{FIG} input[name="dim"]')
    dim.focus()
    clocks.keyboard.press("Home")
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["D"] == 4 and len(values["pe"]) == 4
    clocks.keyboard.press("ArrowRight")
    assert assert_matches_cpython(clocks, FIG, NAME)["D"] == 6


def test_dragging_the_probe_with_the_mouse_sets_the_offset(clocks):
    clocks.locator(f'figure#{FIG} [data-key="chart:similarity"] canvas').scroll_into_view_if_needed()
    at = clocks.evaluate(f"() => window.explorables.figures.{FIG}.locate('similarity', 'probe')")
    x, y = at["x"], at["y"]
    clocks.mouse.move(x, y)
    clocks.mouse.down()
    clocks.mouse.move(x + 120, y + 30, steps=6)
    clocks.mouse.up()
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["offset"] > 8
    assert values["similarity_at_offset"] == engine.pe_similarity(values["offset"], 32, 10000)
    label = clocks.locator(f'figure#{FIG} input[name="offset"]')
    assert label.input_value() == str(values["offset"])


def test_the_probe_moves_with_the_arrow_keys(clocks):
    chart = clocks.locator(f'figure#{FIG} [data-key="chart:similarity"] canvas')
    chart.scroll_into_view_if_needed()
    chart.focus()
    clocks.keyboard.press("1")
    clocks.keyboard.press("ArrowRight")
    clocks.keyboard.press("ArrowRight")
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["offset"] == 10
    clocks.keyboard.press("Shift+ArrowLeft")
    assert assert_matches_cpython(clocks, FIG, NAME)["offset"] == 6


def test_base_picked_and_typed(clocks):
    clocks.locator(f'figure#{FIG} select[name="base"]').select_option("100")
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["base"] == 100 and round(values["similarity_at_offset"], 3) == 0.401
    field = clocks.locator(f'figure#{FIG} input[name="base_text"]')
    assert field.input_value() == "100"
    for bad in ("abc", "1e999", "", "1"):
        before = state_of(clocks, FIG)
        field.fill(bad)
        field.press("Enter")
        error = field.locator("xpath=..").locator(".ex-field-error")
        error.wait_for()
        assert error.inner_text().strip() != "" and field.get_attribute("aria-invalid") == "true"
        idle(clocks, FIG)
        assert state_of(clocks, FIG) == before
        assert "NaN" not in clocks.locator(f"figure#{FIG}").inner_text()
    field.fill("500")
    field.press("Enter")
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["base"] == 500 and field.get_attribute("aria-invalid") is None
    assert clocks.locator(f'figure#{FIG} select[name="base"]').input_value() == "500"


def test_an_experiment_and_a_cell_detail(clocks):
    clocks.get_by_role("button", name="Base 100, D = 32, k = 8").click()
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert (values["base"], values["D"], values["offset"]) == (100, 32, 8)
    message = clocks.locator(f"figure#{FIG} .ex-message").inner_text()
    assert "similarity 0.40 (base 10000 gives 0.66)" in message
    clocks.get_by_role("button", name="Move t to 30").click()
    assert assert_matches_cpython(clocks, FIG, NAME)["t"] == 30
    cell = clocks.locator(f"figure#{FIG} .ex-cells .ex-cell").first
    cell.hover()
    detail = clocks.locator(f"figure#{FIG} .ex-detail").first.inner_text()
    assert "PE(30)_0 = sin(θ_0·t) = sin(1 × 30)" in detail
    assert f"{engine.sinusoidal(30, 32, 10000)[0]:.4f}" in detail
