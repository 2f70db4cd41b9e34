"""Names an author or a reader writes that are also members of JavaScript's Object
(``constructor``, ``toString``, ``hasOwnProperty``, ``valueOf``, ``__proto__``) in real
Chromium: a figure whose id, parameter and values are so named, two exercises so named,
and in the page's address. Pins a bug: the seeds read from the address
were kept in a plain object, and a page with an exercise named ``constructor`` said, on
every load, 'the page's address asks for problem "function Object() {...'."""
from __future__ import annotations

import json

import pytest

from author_site import lay_out
from figure_helpers import ROOT
from helpers import fresh_lesson, idle, later_loaded, module_page, served_site, state_of

FIG = "toString"
LESSON = """---
title: Keyed
order: 1
---

Twice is {value}`toString.toString`, three times {value}`toString.hasOwnProperty`, four times
{value}`toString.__proto__`.

:::{keyed} toString
:::

:::{exercise} dot-2
:seed: 4
:name: constructor
Work it out.
:::

:::{exercise} dot-2
:seed: 5
:name: valueOf
Again.
:::
"""
MODULE = '''"""keyed: a parameter and values named as JavaScript's Object members."""
from explorables.figures import Field, Figure, Slider, Value, bars, register


@register
class Keyed(Figure):
    name = "keyed"
    summary = "Names that are members of JavaScript's Object."
    params = (Field("b", "b", 1.0, lo=0, hi=9, doc="A typed number."),
              Slider("constructor", "constructor", 1.0, lo=0, hi=4, doc="A number."))
    values = (Value("toString", "decimal", "Twice it."), Value("hasOwnProperty", "decimal", "Three times."),
              Value("__proto__", "decimal", "Four times."))

    def compute(self, s):
        a = s["constructor"]
        return {"toString": 2 * a, "hasOwnProperty": 3 * a, "__proto__": 4 * a}

    def draw(self, s, v):
        return [bars("toString", [v["toString"], v["hasOwnProperty"], v["__proto__"]],
                     label=["2a", "3a", "4a"], max=16)]
'''


@pytest.fixture(scope="module")
def keyed_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("keyed")
    lay_out(site, "01-keyed.md", LESSON, "keyed.py", MODULE)
    (site / "figures" / "dot_product.py").write_text(
        (ROOT / "tests" / "fixtures" / "exercises" / "dot_product.py").read_text())
    yield from served_site(site)


@pytest.fixture(scope="module")
def shared(browser, keyed_url, browser_context_args):
    yield from module_page(browser, keyed_url, browser_context_args)


def opened(shared, url: str):
    page, guard = shared
    fresh_lesson(page, guard, url, FIG)  # loaded once, then swapped in anew on the running engine
    later_loaded(page)
    page.wait_for_function("() => window.explorables.exercises && !document.querySelector('.ex-exercise.ex-busy')",
                           timeout=60_000)
    return page, guard


def test_exercises_named_as_object_members_ask_for_no_problem_of_their_own(shared, keyed_url):
    page, guard = opened(shared, keyed_url + "keyed.html")
    for name, seed in (("constructor", "4"), ("valueOf", "5")):
        section = page.locator(f"#{name}")
        assert section.get_attribute("data-exercise") == "dot-2"
        assert section.locator(".ex-feedback").inner_text() == "", name
        assert page.evaluate("id => window.explorables.exercises.seedsInAddress().get(id)", name) is None
        assert "ex-making" not in (section.get_attribute("class") or "")
        assert section.get_attribute("data-seed") in (None, seed)
    # and the address hands them the problems it names
    page.evaluate("() => { location.hash = 'constructor=7&valueOf=9'; }")
    page.wait_for_function("() => document.getElementById('constructor').dataset.seed === '7'"
                           " && document.getElementById('valueOf').dataset.seed === '9'", timeout=60_000)
    assert page.locator("#constructor .ex-feedback").inner_text() == ""
    guard.check()


def test_a_figure_id_a_parameter_and_values_named_as_object_members_work(shared, keyed_url):
    """Pins a bug: moving the slider "constructor" found Object's constructor among the typed
    field b's fields, and the figure stopped working ("field.ok is not a function")."""
    page, guard = opened(shared, keyed_url + "keyed.html")
    assert page.evaluate("() => Object.keys(window.explorables.figures)") == [FIG]
    slider = page.locator(f"figure#{FIG} input[type=range]")
    slider.focus()
    page.keyboard.press("End")  # constructor = 4
    idle(page, FIG)
    assert state_of(page, FIG)["constructor"] == 4
    # (as JSON: Playwright's own copy of an object would drop a key "__proto__")
    values = json.loads(page.evaluate("id => JSON.stringify(window.explorables.figures[id].values)", FIG))
    assert values == {"toString": 8, "hasOwnProperty": 12, "__proto__": 16}
    spans = page.locator(".ex-value")
    page.wait_for_function("() => document.querySelectorAll('.ex-value')[2].textContent === '16.00'")
    assert [spans.nth(i).inner_text() for i in range(3)] == ["8.00", "12.00", "16.00"]
    guard.check()

