"""The track's prose in real Chromium, beyond lesson 1: in the lab (lesson 3), moving the
adjustable temperature with the keyboard rewrites the live numbers that quote cells of
its tables (``weights[4][1]``) with the engine's values for the figure's new state."""
from __future__ import annotations

import pytest

from explorables.site_builder.markdown.directives.roles import write
from helpers import cpython_values, fresh_lesson, idle, shared_page, state_of

FIG = "lab"
PAGE = "attention-lab.html"


shared = shared_page()


@pytest.fixture
def lab(shared, site_url):
    page, guard = shared
    fresh_lesson(page, guard, site_url + PAGE, FIG)
    yield page
    guard.check()


def shown(page) -> list[dict]:
    return page.evaluate("""id => Array.from(document.querySelectorAll(`.ex-value[data-figure="${id}"]`))
        .map(s => ({name: s.dataset.value, index: s.dataset.index || "", format: s.dataset.format,
                    digits: Number(s.dataset.digits), text: s.textContent}))""", FIG)


def expected(page) -> list[str]:
    values = cpython_values("attention-lab", state_of(page, FIG))
    out = []
    for n in shown(page):
        raw = values[n["name"]]
        for i in filter(None, n["index"].split(",")):
            raw = raw[int(i)]
        out.append(write(raw, n["format"], n["digits"]))
    return out


def test_the_temperature_set_from_the_text_moves_the_cells_the_text_quotes(lab):
    before = [n["text"] for n in shown(lab)]
    assert any("," in n["index"] for n in shown(lab))  # cells of a table, not whole values
    assert before == expected(lab)
    slider = lab.locator('.ex-adjust[data-figure="lab"][data-param="temperature"]')
    slider.scroll_into_view_if_needed()
    slider.focus()
    for _ in range(5):
        lab.keyboard.press("ArrowLeft")
    lab.keyboard.press("Shift+ArrowLeft")
    idle(lab, FIG)
    assert state_of(lab, FIG)["temperature"] < 1
    after = [n["text"] for n in shown(lab)]
    assert after == expected(lab)
    cat = next(i for i, n in enumerate(shown(lab)) if n["index"] == "4,1" and n["format"] == "percent")
    assert int(after[cat].rstrip("%")) > int(before[cat].rstrip("%"))  # a cooler row: cat gains
