"""The search box, asked for with "/" before it exists, in real Chromium. Pins a bug: on
a freshly loaded page, pressing "/" and typing a word at once lost the word (the box is
made after the first frame; "/" was remembered, the characters typed meanwhile were not)."""
from __future__ import annotations

from helpers import later_loaded

PAGE = "one-query-row.html"
ABSENT = "() => !document.getElementById('ex-search-input')"


def held_later(page) -> list:
    """js/later.js (search.js makes the box) held back until ``let_later`` lets it come:
    on a warm cache it could run before the first keystroke."""
    held: list = []
    page.route("**/js/later.*", lambda route: held.append(route))
    return held


def let_later(page, held: list) -> None:
    for route in held:
        route.continue_()
    page.unroute("**/js/later.*")


def test_a_word_typed_before_the_box_exists_lands_in_it(page, site_url, guard):
    held = held_later(page)
    page.goto(site_url + PAGE, wait_until="domcontentloaded")
    assert page.evaluate(ABSENT), "the box was there already: the test proves nothing"
    page.keyboard.type("/softmx")
    page.keyboard.press("Backspace")
    page.keyboard.type("ax")
    let_later(page, held)
    box = page.locator("#ex-search-input")
    box.wait_for(timeout=30_000)
    page.wait_for_function("() => document.activeElement === document.getElementById('ex-search-input')")
    assert box.input_value() == "softmax"
    page.locator("#ex-search-results [role=option]").first.wait_for(timeout=30_000)
    assert "softmax" in page.locator("#ex-search-results").inner_text().lower()
    page.keyboard.type(" temperature")  # the box has the focus: the reader types on
    assert box.input_value() == "softmax temperature"
    later_loaded(page)
    page.evaluate("() => window.explorables.ready")


def test_escape_before_the_box_exists_forgets_the_search(page, site_url, guard):
    held = held_later(page)
    page.goto(site_url + PAGE, wait_until="domcontentloaded")
    assert page.evaluate(ABSENT), "the box was there already: the test proves nothing"
    page.keyboard.type("/soft")
    page.keyboard.press("Escape")
    page.keyboard.type("max")
    let_later(page, held)
    box = page.locator("#ex-search-input")
    box.wait_for(timeout=30_000)
    later_loaded(page)
    assert box.input_value() == ""
    assert page.evaluate("() => document.activeElement !== document.getElementById('ex-search-input')")
    page.evaluate("() => window.explorables.ready")
