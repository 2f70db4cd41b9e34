"""print.html read in Chromium: its formulas keep their punctuation on their line, its
exercises are on paper, with nothing to submit, and its height holds still while it is
scrolled.

Regression tests: lines of the lessons started with ". The square dominates" (after
2n²D), ". The output becomes", ", a model could learn" and "(" stayed behind at a
line's end while its formula went on to the next; and the Check button of an exercise on
print.html submitted a plain GET that reloaded the page as print.html? at its top. The
print page holds every lesson's prose and runs no engine, so it is read here."""
from __future__ import annotations

import pytest

from helpers import clear, module_page

# Narrow the paragraph holding the span.ex-nowrap so that its formula ends a line (or, for an
# opening bracket, so that the bracket ends it); then say whether the glued character
# is on the formula's line. ``unwrap`` first takes the span.ex-nowrap away, to show that the
# width does provoke the break. Returns [on one line, the width set]. It is measured in a copy
# of the paragraph put right after it (the same styles), taken away again: the page is left
# as it was, for the next case.
AT_LINE_END = """([index, side, unwrap]) => {
  const original = document.querySelectorAll("main .ex-nowrap")[index];
  const own = original.closest("p, li");
  const block = own.cloneNode(true);
  own.after(block);
  const nobr = block.querySelectorAll(".ex-nowrap")[[...own.querySelectorAll(".ex-nowrap")].indexOf(original)];
  const math = nobr.querySelector("math");
  const text = side === "after" ? math.nextSibling : math.previousSibling;
  const at = side === "after" ? 0 : text.data.length - 1;
  if (unwrap) nobr.replaceWith(...nobr.childNodes);
  const glyph = () => { const r = document.createRange(); r.setStart(text, at); r.setEnd(text, at + 1);
                        return r.getBoundingClientRect(); };
  block.style.maxWidth = "none";
  block.style.width = "max-content";  // one line: every position as the first line has it
  const left = block.getBoundingClientRect().left;
  const edge = side === "after" ? math.getBoundingClientRect().right : glyph().right;
  block.style.width = (edge - left + 0.5) + "px";
  const m = math.getBoundingClientRect(), g = glyph(), middle = (g.top + g.bottom) / 2;
  block.remove();
  return [middle > m.top && middle < m.bottom, edge - left];
}"""

FIND = """([touching, side]) => [...document.querySelectorAll("main .ex-nowrap")].findIndex(n => {
  const math = n.querySelector("math");
  const text = side === "after" ? math && math.nextSibling : math && math.previousSibling;
  const rest = side === "after" ? n.nextSibling : null;
  return text && text.nodeType === 3 && (side === "after"
    ? rest && rest.nodeType === 3 && (text.data + rest.data).startsWith(touching)
    : text.data === touching) && n.getClientRects().length > 0;
})"""


@pytest.fixture(scope="module")
def printed(browser, site_url, browser_context_args):
    """One page for the module: print.html, loaded once for the formulas' cases (each leaves
    it as it was) and anew by each test that acts on it."""
    yield from module_page(browser, site_url, browser_context_args)


@pytest.fixture
def print_page(printed, site_url):
    """print.html as loaded, in the module's page (loaded once: the formulas' cases change nothing)."""
    page, guard = printed
    clear(guard)
    if page.url != site_url + "print.html":
        page.goto(site_url + "print.html")
    yield page
    guard.check()


@pytest.fixture
def print_anew(printed, site_url):
    """print.html loaded anew, for a test that scrolls or types in it."""
    page, guard = printed
    clear(guard)
    page.goto(site_url + "print.html")
    yield page
    guard.check()


@pytest.mark.parametrize("touching, side", [
    (". The square dominates", "after"),   # attention-heatmap: after 2n²D
    (". The output becomes", "after"),     # two-heads: after o¹ = o² = (1.40, 0.50)
    (", a model could learn", "after"),    # positional-encoding: after PE(t)
    ("), the", "after"),                   # one-query-row: (the standard formula has T = 1), the
    ("(", "before"),                       # an exercise: (d_k = 2).
])
def test_a_formula_at_a_line_s_end_keeps_its_punctuation(print_page, touching, side):
    page = print_page
    index = page.evaluate(FIND, [touching, side])
    assert index >= 0, f"no formula with {touching!r} touching it on print.html"
    kept, width = page.evaluate(AT_LINE_END, [index, side, False])
    assert kept, f"{touching!r} left its formula's line in a paragraph {width:.1f} px wide"
    broken, _ = page.evaluate(AT_LINE_END, [index, side, True])
    assert not broken, "without the span.ex-nowrap the same width breaks the line beside the formula"


def test_print_html_shows_each_exercise_with_nothing_to_submit(print_anew, site_url):
    page = print_anew
    exercises = page.locator(".ex-exercise")
    assert exercises.count() >= 3
    assert page.locator(".ex-exercise :is(form, input, button, select, textarea)").count() == 0
    first = exercises.first
    first.scroll_into_view_if_needed()
    label = first.get_attribute("aria-labelledby")
    assert page.locator(f"#{label}").text_content() == "Exercise 1"
    problem = first.locator(".ex-problem")
    assert "A query" in problem.text_content() and problem.locator("math").count() >= 3  # words and numbers
    line = first.locator(".ex-answer-line")
    assert line.text_content().startswith("Your answer: ___") and "such as" in line.text_content()
    page.evaluate("() => { window.__same = true; }")  # gone if the page loads again
    line.click()
    page.keyboard.press("Enter")  # where a reader would have submitted the answer
    page.wait_for_timeout(300)
    assert page.url == site_url + "print.html"
    assert page.evaluate("() => window.__same") is True


def test_print_html_keeps_its_height_while_the_reader_scrolls_through_it(print_anew):
    """Pins a reader's finding: the page's height jumped under the scroll bar (60,327 px
    on opening, 54,903 px at its end, 25,224 px laid out), as each part, estimated at
    100rem while unseen, came near the screen: the parts wait for js/parts.js, which the
    print page does not load."""
    page = print_anew
    page.evaluate("() => document.fonts.ready")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    page.mouse.move(640, 400)
    heights = set()
    for _ in range(12):
        y = page.evaluate("() => scrollY")
        page.mouse.wheel(0, height / 12)
        page.wait_for_function("y => scrollY > y || scrollY + innerHeight >= document.documentElement.scrollHeight",
                               arg=y)  # the wheel's scroll has come (or the page's end)
        heights.add(page.evaluate("() => document.documentElement.scrollHeight"))
    assert heights == {height}
    assert page.evaluate("() => scrollY + innerHeight") >= height * 0.9  # it did scroll through
