"""A right-to-left site (site.yml ``language: he``, the shipped Hebrew catalogue) in real
Chromium: the layout is mirrored (the site's title and the lessons' nav sit on the right,
Previous on the right of Next) and speaks Hebrew, while a figure's plane keeps its
mathematical orientation, x growing to the right, and says so under the plane; numbers
inside Hebrew sentences keep their minus on the left."""
from __future__ import annotations

import pytest

from conftest import serve_folder
from explorables.engine import locale
from explorables.site_builder.commands.build import build_site
from helpers import fresh_lesson, mark_position, module_page

FIG = "explorer"
LESSON = """---
title: שיעור {n}
order: {n}
---

טקסט קצר. כשגוררים את המפתח שמאלה, לערך −0.75, המשקל שלו יורד.

{figure}
"""
FIGURE = """:::{attention-row} explorer
:query: chased
:::"""
HEBREW = locale.catalogue("he")


@pytest.fixture(scope="module")
def rtl_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("rtl")
    (site / "content").mkdir()
    (site / "site.yml").write_text("title: קשב\nlanguage: he\n", encoding="utf-8")
    for n in (1, 2, 3):
        text = LESSON.replace("{n}", str(n)).replace("{figure}", FIGURE if n == 2 else "")
        (site / "content" / f"0{n}-lesson-{n}.md").write_text(text, encoding="utf-8")
    result = build_site(site / "content", site / "_site")
    assert result.warnings == []  # Hebrew ships: no word falls back to English
    server = serve_folder(site / "_site")
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def shared(browser, rtl_url, browser_context_args):
    yield from module_page(browser, rtl_url, {**browser_context_args, "viewport": {"width": 1280, "height": 900}})


@pytest.fixture
def rtl(shared, rtl_url):
    page, guard = shared
    fresh_lesson(page, guard, rtl_url + "lesson-2.html", FIG)
    yield page
    guard.check()


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def test_the_layout_is_mirrored_with_the_nav_on_the_right(rtl):
    assert rtl.locator("html").get_attribute("dir") == "rtl"
    width = rtl.viewport_size["width"]
    title = box(rtl, ".ex-site-title")
    assert title["x"] + title["width"] > width - 60  # the title starts at the right edge
    links = [box(rtl, f".ex-nav li:nth-child({i}) a") for i in (1, 2, 3)]
    assert all(link["x"] + link["width"] <= title["x"] for link in links)  # the nav follows, to its left
    assert links[0]["x"] > links[1]["x"] > links[2]["x"]  # the first lesson is the rightmost
    assert links[0]["x"] > width / 2
    prev, nxt = box(rtl, ".ex-prev"), box(rtl, ".ex-next")
    assert prev["x"] > nxt["x"] + nxt["width"]  # Previous on the right, Next on the left
    assert rtl.locator(".ex-prev span").text_content() == HEBREW["page.previous"] == "הקודם"
    assert rtl.locator(".ex-kicker").text_content() == "שיעור 2 מתוך 3"


def test_a_plane_keeps_x_growing_to_the_right_and_says_so(rtl):
    left_x, _ = mark_position(rtl, FIG, "keys", "key-0")  # x = -0.8
    right_x, _ = mark_position(rtl, FIG, "keys", "key-4")  # x = 1.4
    assert right_x > left_x + 50
    canvas = box(rtl, f'figure#{FIG} [data-key="plane:keys"] canvas')
    key4 = rtl.evaluate("id => window.explorables.figures[id].locate('keys', 'key-4')", FIG)
    note = rtl.locator(f'figure#{FIG} [data-key="plane:keys"] .ex-orientation')
    assert note.text_content() == HEBREW["runtime.orientation"]
    assert canvas["width"] > 100 and key4 is not None
    # A drag to the right makes x larger, as on a left-to-right page.
    x, y = mark_position(rtl, FIG, "keys", "key-4")
    rtl.mouse.move(x, y)
    rtl.mouse.down()
    rtl.mouse.move(x + 40, y, steps=4)
    rtl.mouse.up()
    rtl.evaluate("id => window.explorables.figures[id].idle()", FIG)
    assert rtl.evaluate("id => window.explorables.figures[id].state.k[4][0]", FIG) > 1.4


# Where each typographic minus inside ``selector`` is drawn, and where the character after
# it is: [minus x, next x], by the boxes of one-character ranges.
MINUS_BOXES = r"""selector => {
  const found = [];
  for (const root of document.querySelectorAll(selector)) {
    const text = [], walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) text.push(node);
    for (const node of text) {
      for (let i = node.data.indexOf("\u2212"); i >= 0 && i + 1 < node.data.length; i = node.data.indexOf("\u2212", i + 1)) {
        const box = (at) => { const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + 1);
                              return r.getBoundingClientRect(); };
        if (/\d/.test(node.data[i + 1])) found.push([box(i).left, box(i + 1).left]);
      }
    }
  }
  return found;
}"""


def test_a_negative_number_in_a_hebrew_sentence_keeps_its_minus_on_the_left(rtl):
    """Regression: in a right-to-left paragraph the bidi algorithm put a bare "−0.75" as
    "0.75−" and swapped a vector's entries. The author's prose and the figure's readout,
    as first drawn and as the worker recomputes it after a keyboard change, show the minus
    to the left of the digits."""
    prose = rtl.evaluate(MINUS_BOXES, ".ex-lesson > p")
    assert len(prose) == 1 and prose[0][0] < prose[0][1]
    readout = f'figure#{FIG} [data-key="text:readout"] p'
    assert rtl.locator(readout).first.text_content().startswith("\"")  # a Hebrew sentence about a quoted word
    before = rtl.evaluate(MINUS_BOXES, readout)
    assert before and all(minus < digit for minus, digit in before), before
    rtl.locator(f'figure#{FIG} [data-key="plane:keys"] canvas').focus()
    rtl.keyboard.press("2")  # pick the key of "cat", move it far to the left: x becomes negative
    for _ in range(8):
        rtl.keyboard.press("Shift+ArrowLeft")
    rtl.evaluate("id => window.explorables.figures[id].idle()", FIG)
    assert rtl.evaluate("id => window.explorables.figures[id].state.k[1][0]", FIG) < 0
    stats = rtl.evaluate(MINUS_BOXES, f"figure#{FIG} .ex-items dd, figure#{FIG} .ex-step-detail")
    after = rtl.evaluate(MINUS_BOXES, readout)
    assert after != before and stats
    assert all(minus < digit for minus, digit in after + stats), (after, stats)


def test_every_plane_of_the_page_carries_the_note(rtl):
    """Each plane says it; the shipped catalogues have the note too, for their own RTL
    sites' figures."""
    assert rtl.locator(f"figure#{FIG} .ex-plane").count() == rtl.locator(".ex-orientation").count() == 2
    assert locale.catalogue("de")["runtime.orientation"].startswith("x wächst nach rechts")
