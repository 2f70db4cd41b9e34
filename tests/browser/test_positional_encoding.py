"""The positional-encoding clocks in real Chromium, used as a reader uses them: Play and
Pause, reduced motion, scrolling away, sliders by keyboard, the probe dragged by mouse and
moved by keys, the base picked and typed. Every shown number is checked against the
CPython engine.

Nothing here waits for time to pass to prove that nothing happened. The page's interval
timers are recorded (setInterval is wrapped before the lesson is swapped in, and put back
after the module), so a test can see whether Play's timer is running and run every live
timer at once; the tick events the page sends are
counted by wrapping ``window.explorables.client.step``."""
from __future__ import annotations

import pytest

from helpers import (
    arithmetic,
    assert_matches_cpython,
    fresh_lesson,
    idle,
    in_lesson,
    shared_page,
    state_of,
    values_of,
)

from explorables import engine
from explorables.engine.figures.positional_encoding.maths import INTERVAL
from explorables.figures import HINT, num

FIG = "clocks"
NAME = "positional-encoding"
PAGE = "positional-encoding.html"

TIMERS = """(() => {
    if (window.__timers) return;  // the module's page keeps one wrapper across lessons
    const setReal = window.setInterval, clearReal = window.clearInterval;
    const set = setReal.bind(window), clear = clearReal.bind(window);
    const live = new Map();  // id -> {run, ms}: the interval timers not cleared yet
    window.__timers = {
        count: ms => [...live.values()].filter(t => t.ms === ms).length,
        runAll: () => { for (const t of [...live.values()]) t.run(); return live.size; },
        restore: () => {
            window.setInterval = setReal; window.clearInterval = clearReal; delete window.__timers;
        },
    };
    window.setInterval = function (fn, ms, ...args) {
        const id = set(fn, ms, ...args);
        live.set(id, { run: () => fn(...args), ms: ms });
        return id;
    };
    window.clearInterval = function (id) { live.delete(id); return clear(id); };
})();"""

COUNT_TICKS = """() => {
    window.__ticks = 0;
    const client = window.explorables.client, step = client.step;
    if (client.__step) return;  // the module's page keeps one wrapper across lessons
    client.__step = step;
    client.step = function (figure, state, event) {
        if (event && event.type === "action" && event.name === "tick") window.__ticks += 1;
        return step.apply(this, arguments);
    };
}"""

ON_SCREEN = """([id, wanted]) => new Promise(resolve => {
    // Intersection observers are told in the order they were made, so once this one
    // sees the change, the Play control's own observer (made with the figure) has too.
    const observer = new IntersectionObserver(entries => {
        if (entries[entries.length - 1].isIntersecting === wanted) { observer.disconnect(); resolve(true); }
    });
    observer.observe(document.getElementById(id));
    setTimeout(() => { observer.disconnect(); resolve(false); }, 5000);  // fail, never hang
})"""


track = shared_page()


@pytest.fixture(scope="module")
def shared(track):
    """The process's shared page, its interval timers and the engine's client put back as
    they were after the module."""
    yield track
    track[0].evaluate("""() => {
        if (window.__timers) window.__timers.restore();
        const client = window.explorables && window.explorables.client;
        if (client && client.__step) { client.step = client.__step; delete client.__step; }
    }""")


def open_clocks(shared, site_url):
    """The lesson swapped in fresh on the module's page, its timers and ticks recorded.
    The timers are watched from before the swap: a page not live yet goes live on another
    lesson first."""
    page, guard = shared
    if not page.evaluate("() => !!(window.explorables && window.explorables.pages)"):
        fresh_lesson(page, guard, site_url + "one-query-row.html", "explorer")
    page.evaluate(TIMERS)
    for page in in_lesson(shared, site_url + PAGE, FIG):
        page.evaluate(COUNT_TICKS)
        yield page


@pytest.fixture
def clocks(shared, site_url):
    yield from open_clocks(shared, site_url)


@pytest.fixture
def stepping_clocks(shared, site_url):
    """The clocks for a reader who asks for reduced motion."""
    shared[0].emulate_media(reduced_motion="reduce")
    yield from open_clocks(shared, site_url)


def play_button(page):
    """The Play control's button: "Play" or "Pause" (pressed), or "Step" with reduced motion."""
    return page.locator(f"figure#{FIG} button.ex-play")


def play_timers(page) -> int:
    """How many interval timers of Play's period are running."""
    return page.evaluate("ms => window.__timers.count(ms)", INTERVAL)


def ticks(page) -> int:
    """How many tick events the page has sent to the engine."""
    return page.evaluate("() => window.__ticks")


def run_every_timer(page, times: int = 3) -> None:
    """Run every live interval timer now, as if its period had passed ``times`` times."""
    for _ in range(times):
        page.evaluate("() => window.__timers.runAll()")


def test_first_frame_shows_the_known_similarity(clocks):
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert (values["D"], values["base"], values["offset"]) == (32, 10000, 8)
    assert round(values["similarity_at_offset"], 3) == 0.658
    readout = clocks.locator(f"figure#{FIG} .ex-text").first.inner_text()
    assert "PE(0) and PE(8) have similarity 0.66" in readout
    assert clocks.locator(f"figure#{FIG} .ex-cells .ex-cell").count() == 32  # PE(0), 2 x 16


def test_play_runs_and_pause_stops(clocks):
    button = play_button(clocks)
    button.scroll_into_view_if_needed()
    assert button.inner_text() == "Play" and button.get_attribute("aria-pressed") == "false"
    assert play_timers(clocks) == 0
    button.click()
    clocks.wait_for_function(f"() => window.explorables.figures.{FIG}.values.t >= 2", timeout=5000)
    assert values_of(clocks, FIG)["playing"] is True and play_timers(clocks) == 1
    assert button.inner_text() == "Pause" and button.get_attribute("aria-pressed") == "true"
    button.click()
    stopped = idle(clocks, FIG)
    assert stopped["playing"] is False
    # Pause cleared Play's timer, and running every timer still alive sends no tick
    assert play_timers(clocks) == 0
    sent = ticks(clocks)
    run_every_timer(clocks)
    assert idle(clocks, FIG)["t"] == stopped["t"] and ticks(clocks) == sent
    assert_matches_cpython(clocks, FIG, NAME)


def test_a_focused_slider_follows_play_and_steps_on_from_where_it_is(clocks):
    """Pins a bug: with the keyboard's focus on the t slider, Play moved the figure on but
    the slider (its value and what it says) stayed at 0, and ArrowRight then sent t from
    0 to 1: the figure jumped back."""
    play_button(clocks).focus()
    clocks.keyboard.press("Enter")
    slider = clocks.locator(f'figure#{FIG} input[name="t"]')
    slider.focus()  # where Tab takes the reader from Play
    clocks.wait_for_function(f"() => window.explorables.figures.{FIG}.values.t >= 3", timeout=10_000)
    value, said, t = clocks.evaluate(f"""async () => {{
        const figure = window.explorables.figures.{FIG};
        await figure.idle();  // (the next tick's answer is drawn with the slider, at once)
        const slider = document.querySelector('figure#{FIG} input[name="t"]');
        return [Number(slider.value), slider.getAttribute("aria-valuetext"), figure.values.t];
    }}""")
    assert value == t and said.endswith(f" {t}"), (value, said, t)
    clocks.keyboard.press("ArrowRight")
    stepped = int(slider.get_attribute("aria-valuetext").rsplit(" ", 1)[1])
    assert stepped >= t + 1, (stepped, t)
    play_button(clocks).click()  # Pause
    assert idle(clocks, FIG)["t"] >= t + 1
    assert_matches_cpython(clocks, FIG, NAME)


def test_play_pauses_while_the_figure_is_off_screen(clocks):
    play_button(clocks).click()
    clocks.wait_for_function(f"() => window.explorables.figures.{FIG}.values.t >= 1", timeout=5000)
    clocks.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert clocks.evaluate(ON_SCREEN, [FIG, False]), "the figure is still on screen"
    t = idle(clocks, FIG)["t"]  # a tick already sent finishes
    sent = ticks(clocks)
    assert play_timers(clocks) == 1  # still playing: the timer runs but its ticks are skipped
    run_every_timer(clocks)
    assert idle(clocks, FIG)["t"] == t and ticks(clocks) == sent, \
        "ticks kept coming while the figure was off screen"
    clocks.locator(f"figure#{FIG}").scroll_into_view_if_needed()
    assert clocks.evaluate(ON_SCREEN, [FIG, True]), "the figure did not come back on screen"
    run_every_timer(clocks, times=1)
    clocks.wait_for_function(f"t => window.explorables.figures.{FIG}.values.t > t", arg=t, timeout=5000)
    assert ticks(clocks) > sent


def test_reduced_motion_steps_once_a_press(stepping_clocks):
    page = stepping_clocks
    for expected in (1, 2):
        assert play_button(page).inner_text() == "Step"
        play_button(page).click()
        values = idle(page, FIG)
        assert values["t"] == expected and values["playing"] is False
    # with reduced motion Play never starts a timer: each press sent one tick, and no more come
    assert play_timers(page) == 0 and ticks(page) == 2
    run_every_timer(page)
    assert idle(page, FIG)["t"] == 2 and ticks(page) == 2
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


def probe_at(page) -> float:
    return page.evaluate(f"() => window.explorables.figures.{FIG}.locate('similarity', 'probe').x")


def test_a_probe_dragged_before_t_stays_under_the_pointer(clocks):
    """Regression: the figure kept only k = |s - t| and drew the probe at t + k, so a probe
    dragged to the left of t jumped to the mirror place on the right when let go."""
    clocks.evaluate(f"() => window.explorables.figures.{FIG}.update({{t: 20}})")
    canvas = clocks.locator(f'figure#{FIG} [data-key="chart:similarity"] canvas')
    canvas.scroll_into_view_if_needed()
    unit = (canvas.bounding_box()["width"] - 2 * 18) / 64  # px per position: 18 px padding, s in [0, 64]
    x = probe_at(clocks)  # s = 28
    y = clocks.evaluate(f"() => window.explorables.figures.{FIG}.locate('similarity', 'probe').y")
    clocks.mouse.move(x, y)
    clocks.mouse.down()
    clocks.mouse.move(x - 13 * unit, y, steps=8)  # to s = 15, five before t
    clocks.mouse.up()
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["offset"] == 5 and state_of(clocks, FIG)["side"] == -1
    assert abs(probe_at(clocks) - (x - 13 * unit)) < 1


def test_the_probe_moves_steadily_through_t_with_the_arrow_keys(clocks):
    """Regression: at k = 0 ArrowLeft moved the probe to t - 1, which was drawn at t + 1,
    and the next ArrowLeft sent it back to t: k flipped between 0 and 1."""
    clocks.evaluate(f"() => window.explorables.figures.{FIG}.update({{t: 10, offset: 0}})")
    chart = clocks.locator(f'figure#{FIG} [data-key="chart:similarity"] canvas')
    chart.scroll_into_view_if_needed()
    chart.focus()
    clocks.keyboard.press("1")
    seen = []
    for key in ["ArrowLeft"] * 3 + ["ArrowRight"] * 6:
        clocks.keyboard.press(key)
        idle(clocks, FIG)
        seen.append((state_of(clocks, FIG)["offset"], probe_at(clocks)))
    assert [k for k, _ in seen] == [1, 2, 3, 2, 1, 0, 1, 2, 3]
    xs = [x for _, x in seen]
    assert xs[:3] == sorted(xs[:3], reverse=True) and xs[2:] == sorted(xs[2:])
    assert all(a != b for a, b in zip(xs, xs[1:]))  # every press moved it
    assert_matches_cpython(clocks, FIG, NAME)


def test_base_picked_and_typed(clocks):
    clocks.locator(f'figure#{FIG} select[name="base"]').select_option("100")
    values = assert_matches_cpython(clocks, FIG, NAME)
    assert values["base"] == 100 and round(values["similarity_at_offset"], 3) == 0.401
    field = clocks.locator(f'figure#{FIG} input[name="base_text"]')
    assert field.input_value() == "100"
    # one field, one visible label that names it (it was a one-cell table: three labels)
    assert clocks.locator(f"figure#{FIG}").get_by_role("textbox", name="Any base b", exact=True).count() == 1
    assert field.evaluate("el => !el.closest('table') && el.labels.length === 1 && !el.hasAttribute('aria-label')")
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
    reveal = clocks.locator(f"figure#{FIG} .ex-message details")
    assert reveal.locator("summary").inner_text() == "What you should see"
    assert not reveal.locator("p").is_visible()  # folded: the reader predicts first
    reveal.locator("summary").click()
    assert "similarity 0.40 (base 10000 gives 0.66)" in reveal.locator("p").inner_text()
    clocks.locator(f"figure#{FIG}").get_by_role("button", name="Move t to 30").click()
    assert assert_matches_cpython(clocks, FIG, NAME)["t"] == 30
    # moving t ends the experiment: its message ("the peak moved to s = 30") would be wrong
    slider = clocks.locator(f'figure#{FIG} input[name="t"]')
    slider.focus()
    slider.press("ArrowRight")
    assert assert_matches_cpython(clocks, FIG, NAME)["t"] == 31
    assert clocks.locator(f"figure#{FIG} .ex-message").inner_text() == HINT
    assert clocks.locator(f'figure#{FIG} .ex-message details').count() == 0
    clocks.locator(f"figure#{FIG}").get_by_role("button", name="Move t to 30").click()
    assert assert_matches_cpython(clocks, FIG, NAME)["t"] == 30
    cell = clocks.locator(f"figure#{FIG} .ex-cells .ex-cell").first
    cell.hover()
    # the arithmetic is asked of the engine as the cell is hovered ("Working out the
    # arithmetic…" until it comes)
    detail = arithmetic(clocks.locator(f"figure#{FIG} .ex-detail").first)
    assert num(engine.sinusoidal(30, 32, 10000)[0], 4) in detail  # −0.9880, the figures' minus
