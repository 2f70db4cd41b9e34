"""A right-to-left site (site.yml ``language: ar``) in real Chromium: the layout is
mirrored (the site's title and the lessons' nav sit on the right, Previous on the right
of Next), while a figure's plane keeps its mathematical orientation, x growing to the
right, and says so under the plane in the catalogue's words."""
from __future__ import annotations

import json

import pytest

from conftest import serve_folder
from explorables.engine import locale
from explorables.site_builder.build import build_site
from helpers import fresh_lesson, mark_position, module_page

FIG = "explorer"
LESSON = """---
title: الدرس {n}
order: {n}
---

نص قصير.

{figure}
"""
FIGURE = """:::{attention-row} explorer
:query: chased
:::"""
OWN = {"page.previous": "السابق", "page.next": "التالي", "page.lesson_of": "الدرس {n} من {total}",
       "runtime.orientation": "x يزداد نحو اليمين و y نحو الأعلى، كما في الرياضيات."}


@pytest.fixture(scope="module")
def rtl_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("rtl")
    (site / "content").mkdir()
    (site / "locales").mkdir()
    (site / "site.yml").write_text("title: الانتباه\nlanguage: ar\n", encoding="utf-8")
    (site / "locales" / "ar.json").write_text(json.dumps(OWN, ensure_ascii=False), encoding="utf-8")
    for n in (1, 2, 3):
        text = LESSON.replace("{n}", str(n)).replace("{figure}", FIGURE if n == 2 else "")
        (site / "content" / f"0{n}-lesson-{n}.md").write_text(text, encoding="utf-8")
    result = build_site(site / "content", site / "_site")
    assert len(result.warnings) == 1 and "the language 'ar' lacks some words" in result.warnings[0]
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
    assert rtl.locator(".ex-prev span").text_content() == "السابق"
    assert rtl.locator(".ex-kicker").text_content() == "الدرس 2 من 3"


def test_a_plane_keeps_x_growing_to_the_right_and_says_so(rtl):
    left_x, _ = mark_position(rtl, FIG, "keys", "key-0")  # x = -0.8
    right_x, _ = mark_position(rtl, FIG, "keys", "key-4")  # x = 1.4
    assert right_x > left_x + 50
    canvas = box(rtl, f'figure#{FIG} [data-key="plane:keys"] canvas')
    key4 = rtl.evaluate("id => window.explorables.figures[id].locate('keys', 'key-4')", FIG)
    note = rtl.locator(f'figure#{FIG} [data-key="plane:keys"] .ex-orientation')
    assert note.text_content() == OWN["runtime.orientation"]
    assert canvas["width"] > 100 and key4 is not None
    # A drag to the right makes x larger, as on a left-to-right page.
    x, y = mark_position(rtl, FIG, "keys", "key-4")
    rtl.mouse.move(x, y)
    rtl.mouse.down()
    rtl.mouse.move(x + 40, y, steps=4)
    rtl.mouse.up()
    rtl.evaluate("id => window.explorables.figures[id].idle()", FIG)
    assert rtl.evaluate("id => window.explorables.figures[id].state.k[4][0]", FIG) > 1.4


def test_every_plane_of_the_page_carries_the_note(rtl):
    """Each plane says it; the shipped catalogues have the note too, for their own RTL
    sites' figures."""
    assert rtl.locator(f"figure#{FIG} .ex-plane").count() == rtl.locator(".ex-orientation").count() == 2
    assert locale.catalogue("de")["runtime.orientation"].startswith("x wächst nach rechts")
