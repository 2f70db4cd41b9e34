"""A site whose site.yml says ``language: de``, in real Chromium: the pager and the
runtime speak German, a figure's readout and the prose write a decimal comma in the
first frame and after the reader changes the figure (numbers computed by the engine in
the worker, which was told the page's language), a typed decimal comma is read, and an
exercise's statement and a known mistake's hint are German. The site's own figure (the
guide's ``shares``, its words in the site's locales/) speaks German too, in the words the
worker writes after a change."""
from __future__ import annotations

import re
import shutil

import pytest

from explorables.engine import locale, softmax
from explorables.engine.exercises import EXERCISES, MINUS
from explorables.figures import num, pct
from figure_helpers import ROOT
from helpers import each_fresh, fresh_lesson, idle, module_page, served_site, state_of, type_refused

FIG = "explorer"
LESSON_1 = """---
title: Eine Frage
order: 1
---

Bei der Temperatur {value}`explorer.temperature` bekommt *cat* {value}`explorer.weights[1]:percent`.

:::{attention-row} explorer
:query: chased
:temperature: 1.5
:::

:::{exercise} scaled-score
:seed: 1
:::
"""
LESSON_2 = """---
title: Zweite Lektion
order: 2
---

Eine eigene Abbildung, und die Uhren.

:::{shares} anteile
:::

:::{positional-encoding} clocks
:::
"""


@pytest.fixture(scope="module")
def german_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("german")
    (site / "content").mkdir()
    (site / "site.yml").write_text("title: Aufmerksamkeit\nlanguage: de\n", encoding="utf-8")
    (site / "content" / "01-eine-frage.md").write_text(LESSON_1, encoding="utf-8")
    (site / "content" / "02-zweite.md").write_text(LESSON_2, encoding="utf-8")
    for folder in ("figures", "locales"):  # the guide's own figure, with its English and German words
        shutil.copytree(ROOT / "tests" / "fixtures" / "words" / folder, site / folder)
    yield from served_site(site)


@pytest.fixture(scope="module")
def shared(browser, german_url, browser_context_args):
    yield from module_page(browser, german_url, browser_context_args)


@pytest.fixture
def german(shared, german_url):
    yield from each_fresh(shared, german_url + "eine-frage.html", FIG)


def german_num(x: float, digits: int = 2) -> str:
    locale.use("de")
    try:
        return num(x, digits)
    finally:
        locale.use("en")


def german_pct(w: float) -> str:
    locale.use("de")
    try:
        return pct(w)
    finally:
        locale.use("en")


def readout(page) -> dict[str, str]:
    items = page.locator(f'figure#{FIG} [data-key="text:stats"] dl > div')
    return {item.locator("dt").inner_text(): item.locator("dd").inner_text() for item in items.all()}


def test_the_first_frame_and_the_pager_speak_german(german_url, page):
    """Before Python is live: the built scene's numbers, the badge and the pager."""
    page.goto(german_url + "eine-frage.html", wait_until="domcontentloaded")
    figure = page.locator(f"figure#{FIG}")
    assert figure.locator('[data-key="text:stats"] dd').nth(1).inner_text() == "1,50"  # the temperature
    assert re.fullmatch(r"\(−?\d,\d\d; −?\d,\d\d\)", readout(page)["Neuer Vektor"])
    assert figure.locator(".ex-figure-title").inner_text() == "Aufmerksamkeit erkunden: eine Abfragezeile"
    assert page.locator(".ex-value").first.inner_text() == "1,50"
    assert page.locator(".ex-kicker").text_content() == "Lektion 1 von 2"
    assert page.locator(".ex-next").text_content() == "Weiter Zweite Lektion"
    assert page.locator("nav.ex-pager").get_attribute("aria-label") == "Vorige und nächste Lektion"
    assert page.locator("html").get_attribute("lang") == "de"


def test_a_change_is_computed_in_german_by_the_worker(german):
    slider = german.locator(f'figure#{FIG} .ex-control-slider input[type="range"]').first
    slider.focus()
    german.keyboard.press("ArrowRight")
    german.keyboard.press("ArrowRight")
    values = idle(german, FIG)
    t = state_of(german, FIG)["temperature"]
    assert t != 1.5
    shown = readout(german)
    assert shown["Temperatur"] == german_num(t) and "," in shown["Temperatur"]
    assert re.fullmatch(r"\(−?\d,\d\d; −?\d,\d\d\)", shown["Neuer Vektor"])
    # the worker's words are German too: its readout, not only its numbers
    assert "„chased“ stellt seine Frage." in german.locator(f'figure#{FIG} [data-key="text:readout"]').inner_text()
    german.wait_for_function("t => document.querySelector('.ex-value').textContent === t", arg=german_num(t))
    assert german.locator(".ex-value").nth(1).inner_text() == german_pct(values["weights"][1])
    assert "\u00a0%" in german.locator(".ex-value").nth(1).inner_text()


def test_a_typed_decimal_comma_is_read_and_a_bad_entry_explained_in_german(german):
    field = german.locator(f'figure#{FIG} input[name="key.1.0"]')
    field.click()
    german.keyboard.press("Control+A")
    german.keyboard.type("−0,75")
    german.keyboard.press("Enter")
    idle(german, FIG)
    assert state_of(german, FIG)["k"][1][0] == -0.75
    assert field.input_value() == "-0,75"  # the field writes it back with the German decimal comma
    error = type_refused(german, field, "99")
    assert "muss zwischen -10 und 10 liegen, erhalten: 99" in error.inner_text()
    assert state_of(german, FIG)["k"][1][0] == -0.75


def test_the_try_this_box_and_the_badge_speak_german(german):
    figure = german.locator(f"figure#{FIG}")
    assert figure.get_by_role("button", name="Zurücksetzen").count() == 1
    assert "Wählen Sie ein Experiment" in figure.text_content()
    assert german.evaluate("() => window.explorables.t('runtime.starting')") == "Python startet…"
    figure.get_by_role("button", name="T auf 0,1 senken").click()  # the figure's own words, from the worker
    idle(german, FIG)
    reveal = figure.locator(".ex-message details")
    reveal.locator("summary").click()
    assert reveal.locator("p").inner_text().startswith("Bei T = 0,1 häuft sich das Gewicht")


def test_a_known_mistake_gets_its_hint_in_german(german):
    """The statement written at build time and the hint the worker gives for a typed
    wrong answer (q·k, not divided by √d_k), in German; the grid's hidden corner too."""
    assert german.locator(f"figure#{FIG} .ex-grid thead th .ex-sr").first.text_content() == "Zeile"
    section = german.locator(".ex-exercise")
    assert section.locator(".ex-problem").inner_text().startswith("Eine Abfrage")
    p = EXERCISES["scaled-score"].generate(1)
    forgot = sum(a * b for a, b in zip(p["q"], p["k"]))
    assert abs(forgot - EXERCISES["scaled-score"].solve(p)) > 0.1
    feedback = section.locator(".ex-feedback")
    section.locator(".ex-answer input").click()
    german.keyboard.type(f"{forgot:.2f}".replace(".", ",").replace("-", MINUS))
    german.keyboard.press("Enter")
    section.locator(".ex-feedback[data-verdict]").wait_for()
    assert feedback.get_attribute("data-verdict") == "mistake"
    assert feedback.inner_text() == "Sie haben q·k berechnet, aber nicht durch √dₖ geteilt."


def test_the_play_button_and_a_chart_s_description_speak_german(shared, german_url):
    """controls.js and chart.js take their words from the page: the Play button, and the
    chart's text equivalent with German numbers (8, not "8,", on the axis)."""
    page, guard = shared
    fresh_lesson(page, guard, german_url + "zweite.html", "clocks")
    assert page.locator("figure#clocks .ex-play").inner_text() == "Abspielen"
    canvas = page.locator('figure#clocks [data-key="chart:similarity"] canvas')
    about = page.locator("#" + canvas.get_attribute("aria-describedby").split()[0]).text_content()
    assert about.startswith("Kurve, Ähnlichkeit über Position u, bei 0: 1,00; 8: 0,66;")
    assert "Höchstwert 1,00 bei Position u = 0, Tiefstwert " in about
    guard.check()


def test_the_sites_own_figure_speaks_german_after_a_change(shared, german_url):
    """The own figure's words reach the worker in the engine archive: after the reader
    moves a slider and presses an experiment, the texts Python writes anew are German."""
    page, guard = shared
    fresh_lesson(page, guard, german_url + "zweite.html", "anteile")
    figure = page.locator("figure#anteile")
    lead = figure.locator('[data-key="text:lead"]')
    assert figure.locator(".ex-figure-title").inner_text() == "Softmax dreier Werte"
    assert lead.inner_text() == f"a führt mit {german_pct(max(softmax([2.0, 1.0, 0.0])))} des Gewichts."
    slider = figure.get_by_role("slider", name="Wert c")
    slider.focus()
    for _ in range(25):  # c from 0 to 2.5: above a's 2, so c now leads
        page.keyboard.press("ArrowRight")
    values = idle(page, "anteile")
    assert state_of(page, "anteile")["c"] == 2.5
    assert lead.inner_text() == f"c führt mit {german_pct(values['top'])} des Gewichts."
    figure.get_by_role("button", name="a und b gleichsetzen").click()
    idle(page, "anteile")
    reveal = figure.locator(".ex-message details")
    reveal.locator("summary").click()
    assert reveal.locator("p").inner_text() == "a und b teilen sich das Gewicht gleich; c bekommt weniger."
    guard.check()
