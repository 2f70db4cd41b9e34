"""A number to adjust in the prose follows its figure's control from every new scene, in
real Chromium, used as a reader uses it. Pins a bug of lesson 2: {adjust}`table.n` took
its range from the first frame (12 tokens) and kept it, so after the reader chose the
16-token preset the figure's slider reached 16 and the sentence's number stopped at 12;
and an even-only slider's step of 2 was ignored."""
from __future__ import annotations

import pytest

from author_site import write_site
from helpers import fresh_lesson, idle, in_lesson, module_page, served_site, shared_page, state_of

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


def test_an_even_only_number_keeps_its_steps_of_2(author_page, author_url):
    page, guard = author_page
    fresh_lesson(page, guard, author_url + "clocks.html", "clocks")
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


# Sliders whose ends are not a whole number of steps away in floating point: 0 to 1 by 0.1,
# -3 to 3 by 0.2, and a log range (0.05 to 5 in 200 steps of log(100)/200, which lost its
# last step: End gave 4.886).
STEPS = '''from explorables.figures import Figure, Slider, Value, bars, register


@register
class Steps(Figure):
    name = "steps"
    summary = "Three sliders whose steps do not divide their range exactly."
    params = (
        Slider("a", "a", 0.4, lo=0, hi=1, by=0.1, doc="0 to 1 by 0.1."),
        Slider("b", "b", 0.0, lo=-3, hi=3, by=0.2, doc="-3 to 3 by 0.2."),
        Slider("c", "c", 1.0, lo=0.05, hi=5, by=0.01, log=True, doc="0.05 to 5 on a log scale."),
    )
    values = (Value("sum", "decimal", "a + b + c."),)

    def compute(self, s):
        return {"sum": s["a"] + s["b"] + s["c"]}

    def draw(self, s, v):
        return [bars("sum", [abs(v["sum"])], max=10, label=["a+b+c"])]
'''
ENDS = """---
title: Ends
order: 2
---

Take a = {adjust}`ends.a`, b = {adjust}`ends.b` and c = {adjust}`ends.c`.

:::{steps} ends
:::
"""
LIMITS = {"a": (0, 1), "b": (-3, 3), "c": (0.05, 5)}


@pytest.fixture(scope="module")
def author_url(tmp_path_factory):
    """One author's site for both lessons (one build, one Pyodide for the module's page):
    the clocks of EVEN and the sliders of ENDS."""
    site = write_site(tmp_path_factory.mktemp("adjust"), lessons={"index.md": "# Mine\n", "01-clocks.md": EVEN,
                                                                  "02-ends.md": ENDS}, figures={"steps.py": STEPS})
    yield from served_site(site)


@pytest.fixture(scope="module")
def author_page(browser, author_url, browser_context_args):
    yield from module_page(browser, author_url, browser_context_args)


def test_every_slider_reaches_both_ends_by_keyboard_drag_and_steps(author_page, author_url):
    """Each slider in turn (a, b and c, on one page: they share nothing but the figure)."""
    page, guard = author_page
    fresh_lesson(page, guard, author_url + "ends.html", "ends")  # swapped in anew after the clocks
    for name in sorted(LIMITS):
        reaches_both_ends(page, name)
    guard.check()


def reaches_both_ends(page, name: str) -> None:
    lo, hi = LIMITS[name]
    slider = page.locator(f"figure#ends input[type=range][name={name}]")
    slider.scroll_into_view_if_needed()
    slider.focus()
    for key, end in (("End", hi), ("Home", lo), ("End", hi)):
        page.keyboard.press(key)
        idle(page, "ends")
        assert state_of(page, "ends")[name] == end, (name, key)
    for _ in range(3):  # steps back from the end and forth again land on it exactly
        page.keyboard.press("ArrowLeft")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    idle(page, "ends")
    assert state_of(page, "ends")[name] == hi, (name, "steps")
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    left, right = box["x"], box["x"] + box["width"]
    for start, past, end in ((right - 4, left - 40, lo), (left + 4, right + 40, hi)):
        page.mouse.move(start, y)
        page.mouse.down()
        page.mouse.move(past, y, steps=6)  # beyond the track's end
        page.mouse.up()
        idle(page, "ends")
        assert state_of(page, "ends")[name] == end, (name, "drag")
    # the number in the sentence reaches the same ends, by keyboard and by steps
    number = page.locator(f'.ex-adjust[data-param="{name}"]')
    number.scroll_into_view_if_needed()
    number.focus()
    for key, end in (("Home", lo), ("End", hi)):
        page.keyboard.press(key)
        idle(page, "ends")
        assert state_of(page, "ends")[name] == end, (name, "number", key)
        assert number.get_attribute("aria-valuenow") == f"{end:g}", (name, "number", key)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    idle(page, "ends")
    assert state_of(page, "ends")[name] == hi, (name, "number steps")
