"""Where a figure's words go on a desktop page, in real Chromium. Pins a bug: the
starter's sample figure (site_builder/starter/figures/softmax_bars.py: bars, then a text
panel) put its text beside the bars, in a middle column, and left an empty area under
the bars; the words now go under the graphics they explain, across the panels' width."""
from __future__ import annotations

import pytest

from author_site import lay_out
from figure_helpers import ROOT
from helpers import fresh_lesson, module_page, served_site

FIG = "three"
LESSON = """---
title: Softmax of three
order: 1
---

:::{softmax-bars} three
:::
"""
BOX = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                 return [r.left, r.top, r.right, r.bottom]; }"""


@pytest.fixture(scope="module")
def starter_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("starter")
    lay_out(site, "01-three.md", LESSON, "softmax_bars.py",
            (ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py").read_text())
    yield from served_site(site)


@pytest.fixture(scope="module")
def shared(browser, starter_url, browser_context_args):
    yield from module_page(browser, starter_url, {**browser_context_args, "viewport": {"width": 1280, "height": 900}})


@pytest.mark.parametrize("width", [1280, 1000])
def test_the_words_go_under_the_bars_across_the_panels_width(shared, starter_url, width):
    page, guard = shared
    page.set_viewport_size({"width": width, "height": 900})
    fresh_lesson(page, guard, starter_url + "three.html", FIG)  # drawn anew at this width
    panels = page.evaluate(BOX, f"figure#{FIG} .ex-panels")
    bars = page.evaluate(BOX, f"figure#{FIG} .ex-bars-panel")
    text = page.evaluate(BOX, f"figure#{FIG} .ex-panels > .ex-text")
    side = page.evaluate(BOX, f"figure#{FIG} .ex-body > .ex-side")
    assert side[0] >= panels[2], "the controls are still beside the panels (a desktop page)"
    assert text[1] >= bars[3], (bars, text)  # under the bars
    assert abs(text[0] - panels[0]) < 1 and abs(text[2] - panels[2]) < 1  # across the panels' width
    assert abs(bars[2] - panels[2]) < 1, "the bars left an empty column beside them"
    guard.check()
