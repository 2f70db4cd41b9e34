"""An engine that stops answering, in real Chromium. Pins a bug: once the page's engine
worker was gone (the browser ended it, it crashed, it was terminated), the next input
waited forever, the figure busy with the event queued and saying nothing. Now the page
notices (the worker's error events, and an answer that does not come within 20 times the
figure's slowest so far, a few seconds at least), every figure says so in plain words,
keeps its last frame and offers to start the engine again, on the page and on the pages
swapped in after it; started again, the figure answers the input that was waiting."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from helpers import answer_exercise, clear, fresh_lesson, idle, later_loaded, module_page, state_of

STOPPED = "The engine stopped ({why}); the figure keeps its last state."
LIMIT = 4  # s: the least an answer is waited for, as these pages set it (client.js: 8 s unless set)
ROW = "one-query-row.html"


@pytest.fixture(scope="module")
def shared(browser, site_url, browser_context_args):
    """One page for the module, whose engine each test stops and starts again (so Python
    starts once for the module, and once a test again). A page may set the engine's
    limits before the runtime (window.explorables.options): this one waits 4 s for an
    answer that will never come, not the 8 s a reader's page waits (at least: the page
    waits 20 times a figure's slowest answer, and keeps that for its figure's name, so
    the test that times out a figure comes first)."""
    for page, guard in module_page(browser, site_url, browser_context_args):
        page.add_init_script(f"window.explorables = {{options: {{stepTimeout: {LIMIT * 1000}}}}};")
        yield page, guard


def opened(shared, url: str, figure_id: str):
    """The lesson swapped in anew on the module's page (loaded, the first time): the page,
    its figure and its guard, which allows what a stopped engine says on purpose."""
    page, guard = shared
    figure = fresh_lesson(page, guard, url, figure_id)
    clear(guard)
    guard.allowed += ["Explorables: the engine stopped", "Explorables figure '"]  # said on purpose
    return page, figure, guard


def stopped(page, figure_id: str, why: str):
    """Wait until the figure says the engine stopped; its button to start it again."""
    figure = page.locator(f"figure#{figure_id}")
    button = figure.get_by_role("button", name="Start the engine again")
    button.wait_for(timeout=60_000)
    # (a figure swapped in is drawn, then told: the words follow the button within a frame)
    expect(figure.locator(".ex-error")).to_have_text(STOPPED.format(why=why))
    assert "ex-stopped" in figure.get_attribute("class") and "ex-failed" not in figure.get_attribute("class")
    return button


def test_a_worker_that_stops_answering_is_noticed_and_started_again(shared, site_url):
    page, figure, guard = opened(shared, site_url + ROW, "explorer")
    before = state_of(page, "explorer")
    field = figure.locator('input[name="key.1.0"]')

    page.evaluate("() => window.explorables.client.worker.terminate()")  # the worker is gone, unseen
    field.fill("-1.5")
    field.press("Enter")
    button = stopped(page, "explorer", f"it did not answer within {LIMIT} s")
    # the last frame stays, as it was drawn, and the reader's input waits
    assert figure.locator(".ex-bar").count() == 6
    assert state_of(page, "explorer") == before
    assert page.evaluate("() => window.explorables.client.worker") is None

    button.click()
    page.locator("figure#explorer.ex-live:not(.ex-stopped):not(.ex-restarting)").wait_for(timeout=120_000)
    idle(page, "explorer")
    assert state_of(page, "explorer")["k"][1][0] == -1.5  # the input that waited, answered
    assert figure.locator(".ex-error:visible").count() == 0 and button.is_hidden()
    field.fill("0.5")  # and the engine answers again
    field.press("Enter")
    idle(page, "explorer")
    assert state_of(page, "explorer")["k"][1][0] == 0.5
    guard.check()


def test_an_error_of_the_worker_stops_every_figure_and_pages_swapped_in_after_it(shared, site_url):
    page, _, guard = opened(shared, site_url + ROW, "explorer")
    page.evaluate("""() => window.explorables.client.worker.dispatchEvent(
        new ErrorEvent('error', {message: 'out of memory', cancelable: true}))""")
    stopped(page, "explorer", "out of memory")
    # the next lesson, swapped in place, shares the stopped engine and says so at once
    page.locator("a[rel=next]").first.click()
    page.wait_for_url("**/attention-heatmap.html")
    button = stopped(page, "table", "out of memory")
    assert page.evaluate("() => window.explorables.client.stopped") == "out of memory"
    button.click()
    page.locator("figure#table.ex-live:not(.ex-stopped):not(.ex-restarting)").wait_for(timeout=120_000)
    view = page.locator('figure#table select[name="view"]')
    view.focus()
    page.keyboard.press("ArrowDown")  # the next view: answered by the engine started again
    idle(page, "table")
    assert state_of(page, "table")["view"] != "weights"
    guard.check()


def test_an_exercise_waiting_for_a_stopped_engine_says_so_and_is_checked_once_it_is_started(shared, site_url):
    page, _, guard = opened(shared, site_url + ROW, "explorer")
    later_loaded(page)
    section = page.locator(".ex-exercise").first
    section.scroll_into_view_if_needed()
    assert answer_exercise(page, section, "1")[1] in ("wrong", "mistake")  # the engine has graded one

    page.evaluate("() => window.explorables.client.worker.terminate()")
    field = section.get_by_label("Your answer")
    field.fill("2")
    field.press("Enter")
    button = section.get_by_role("button", name="Start the engine again")
    button.wait_for(timeout=60_000)
    assert section.locator(".ex-feedback").inner_text().startswith(
        f"The page's Python engine stopped (it did not answer within {LIMIT} s).")
    button.click()
    section.locator(".ex-feedback[data-verdict]").wait_for(timeout=120_000)  # the answer that waited, graded
    assert section.locator(".ex-feedback").get_attribute("data-verdict") in ("wrong", "mistake")
    assert section.locator(".ex-restart").count() == 0
    guard.check()
