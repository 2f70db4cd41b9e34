"""An author's figure that fails while a reader uses it, in real Chromium: it raises, or
gives a number JSON cannot carry (nan). Pins a bug: readers saw "internal error in
fragile: ZeroDivisionError ..."; now a reader reads plain words and the figure keeps its
last state, while the author, in the preview (`explorables serve`), reads the file and
line, and for a nan also that None may stand for a number that cannot be computed."""
from __future__ import annotations

import pytest

from author_site import lay_out
from conftest import Guard
from figure_helpers import ROOT
from helpers import module_page, open_figure, served_site, state_of

from explorables.site_builder.commands.serve import DevServer

LESSON = """---
title: Errors
order: 1
---

Two figures with bugs.

:::{fragile} shaky
:::

:::{nanny} rooty
:::
"""
NANNY = '''"""nanny: an author's figure whose value is nan above a = 4."""
import math

from explorables.figures import Figure, Slider, Value, bars, register


@register
class Nanny(Figure):
    name = "nanny"
    summary = "One slider; the square root of 4 - a, nan above 4."
    params = (Slider("a", "a", 1.0, lo=0, hi=5, doc="Above 4 the root is nan."),)
    values = (Value("root", "decimal", "The square root of 4 - a."),)

    def compute(self, s):
        return {"root": math.sqrt(4 - s["a"]) if s["a"] <= 4 else float("nan")}

    def draw(self, s, v):
        return [bars("a", [s["a"]], label=["a"], max=5)]
'''
COMPUTE_LINE = NANNY.splitlines().index("    def compute(self, s):") + 1
PLAIN = "This figure could not compute that; it kept its last state."


def lay_out_site(site):
    lay_out(site, "01-errors.md", LESSON, "fragile.py",
            (ROOT / "tests" / "fixtures" / "figures" / "fragile.py").read_text())
    (site / "figures" / "nanny.py").write_text(NANNY)
    return site


@pytest.fixture(scope="module")
def errors_url(tmp_path_factory):
    yield from served_site(lay_out_site(tmp_path_factory.mktemp("errors")))


@pytest.fixture(scope="module")
def shared(browser, errors_url, browser_context_args):
    yield from module_page(browser, errors_url, browser_context_args)


def push_to_the_end(page, figure_id: str) -> str:
    """Move the figure's slider to its end with the keyboard; what the figure then says."""
    slider = page.locator(f"figure#{figure_id} input[type=range]")
    slider.scroll_into_view_if_needed()
    slider.focus()
    page.keyboard.press("End")
    error = page.locator(f"figure#{figure_id} .ex-error")
    error.wait_for(state="visible", timeout=60_000)
    page.wait_for_function("id => !window.explorables.figures[id].busy", arg=figure_id)
    return error.inner_text()


def test_a_reader_reads_plain_words_and_the_figure_keeps_its_state(shared, errors_url):
    page, guard = shared
    said = []
    page.on("console", lambda message: said.append(message.text) if message.type == "error" else None)
    guard.allowed.append("Explorables figure '")  # the author's bugs, reported as such in the console
    open_figure(page, errors_url + "errors.html", "shaky")
    assert push_to_the_end(page, "shaky") == PLAIN
    assert state_of(page, "shaky")["a"] == 1.0
    assert push_to_the_end(page, "rooty") == PLAIN
    assert state_of(page, "rooty")["a"] == 1.0
    # the console keeps the detail, for a reader who reports the bug
    assert any("ZeroDivisionError: a above 4 has no inverse here (fragile.py:" in text for text in said), said
    assert any(f"values.root = nan (nanny.py:{COMPUTE_LINE})" in text for text in said), said
    guard.check()


def test_the_author_in_the_preview_reads_the_file_and_line(page, tmp_path):
    (tmp_path / "site").mkdir()
    site = lay_out_site(tmp_path / "site")
    server = DevServer(site / "content", port=0)
    assert server.start()
    try:
        guard = Guard(page, server.url)
        guard.allowed.append("Explorables figure '")
        open_figure(page, server.url + "errors.html", "shaky")
        said = push_to_the_end(page, "shaky")
        assert said.startswith("internal error in fragile: ZeroDivisionError: a above 4 has no inverse here "
                               "(fragile.py:"), said
        said = push_to_the_end(page, "rooty")
        assert f"values.root = nan (nanny.py:{COMPUTE_LINE})" in said, said
        assert "may be None" in said
        assert state_of(page, "rooty")["a"] == 1.0
        guard.check()
    finally:
        server.stop()
