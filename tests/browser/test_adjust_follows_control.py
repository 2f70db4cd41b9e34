"""A number to adjust in the prose follows its figure's control from every new scene, in
real Chromium, used as a reader uses it. Pins a bug of lesson 2: {adjust}`table.n` took
its range from the first frame (12 tokens) and kept it, so after the reader chose the
16-token preset the figure's slider reached 16 and the sentence's number stopped at 12;
and an even-only slider's step of 2 was ignored."""
from __future__ import annotations

import pytest

from helpers import idle, in_lesson, module_page, open_figure, served_site, shared_page, state_of

shared = shared_page()
HEATMAP = "attention-heatmap.html"
FIG = "table"


@pytest.fixture
def heatmap(shared, site_url):
    yield from in_lesson(shared, site_url + HEATMAP, FIG)


def random_preset(page):
    page.locator(f"figure#{FIG}").get_by_label("Sentence", exact=True).select_option("random")
    idle(page, FIG)
    assert state_of(page, FIG)["preset"] == "random"


def test_the_token_count_reaches_16_by_keyboard_after_the_random_preset(heatmap):
    number = heatmap.locator('.ex-adjust[data-param="n"]')
    assert number.get_attribute("aria-valuemax") == "12"
    random_preset(heatmap)
    assert number.get_attribute("aria-valuemax") == "16"
    number.scroll_into_view_if_needed()
    number.focus()
    heatmap.keyboard.press("Home")
    idle(heatmap, FIG)
    assert state_of(heatmap, FIG)["n"] == 1 and number.inner_text() == "1"
    heatmap.keyboard.press("ArrowRight")
    idle(heatmap, FIG)
    assert state_of(heatmap, FIG)["n"] == 2 and number.inner_text() == "2"
    heatmap.keyboard.press("End")
    idle(heatmap, FIG)
    assert state_of(heatmap, FIG)["n"] == 16
    assert number.inner_text() == "16" and number.get_attribute("aria-valuenow") == "16"
    # the figure's own slider says the same number
    assert heatmap.locator(f"figure#{FIG} input[name=n]").input_value() == "16"
    heatmap.keyboard.press("ArrowRight")  # at the end: it stays
    idle(heatmap, FIG)
    assert state_of(heatmap, FIG)["n"] == 16
    # the lesson's sentence again: 12 tokens, and the number's range with it
    heatmap.locator(f"figure#{FIG}").get_by_label("Sentence", exact=True).select_option("sentence")
    idle(heatmap, FIG)
    assert number.get_attribute("aria-valuemax") == "12" and int(number.inner_text()) <= 12


def test_the_token_count_reaches_16_by_drag_after_the_random_preset(heatmap):
    random_preset(heatmap)
    number = heatmap.locator('.ex-adjust[data-param="n"]')
    number.scroll_into_view_if_needed()
    box = number.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    heatmap.mouse.move(x, y)
    heatmap.mouse.down()
    heatmap.mouse.move(x + 340, y, steps=8)  # wider than a whole sweep of the range
    heatmap.mouse.up()
    idle(heatmap, FIG)
    assert state_of(heatmap, FIG)["n"] == 16 and number.inner_text() == "16"


EVEN = """---
title: Clocks
order: 1
---

The clocks have {adjust}`clocks.dim` numbers each.

:::{positional-encoding} clocks
:::
"""


@pytest.fixture(scope="module")
def even_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("even")
    (site / "content").mkdir()
    (site / "site.yml").write_text('title: "Even"\n')
    (site / "content" / "index.md").write_text("# Even\n")
    (site / "content" / "01-clocks.md").write_text(EVEN)
    yield from served_site(site)


@pytest.fixture(scope="module")
def even_page(browser, even_url, browser_context_args):
    yield from module_page(browser, even_url, browser_context_args)


def test_an_even_only_number_keeps_its_steps_of_2(even_page, even_url):
    page, guard = even_page
    open_figure(page, even_url + "clocks.html", "clocks")
    number = page.locator('.ex-adjust[data-param="dim"]')
    start = state_of(page, "clocks")["dim"]
    assert start % 2 == 0
    number.scroll_into_view_if_needed()
    number.focus()
    page.keyboard.press("ArrowRight")
    idle(page, "clocks")
    assert state_of(page, "clocks")["dim"] == start + 2 and number.inner_text() == str(start + 2)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    idle(page, "clocks")
    assert state_of(page, "clocks")["dim"] == start - 2
    box = number.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 23, y, steps=5)  # a part of the range that would land on an odd number
    page.mouse.up()
    idle(page, "clocks")
    dim = state_of(page, "clocks")["dim"]
    assert dim % 2 == 0 and dim > start - 2 and number.inner_text() == str(dim)
    guard.check()
