"""A phone's main thread laid out by the browser, not by the page's scripts (issue 39):
the check for boxes that scroll sideways measures them when the browser has laid them
out anyway, and a lesson swapped in draws its figures a piece a frame."""

from __future__ import annotations

import json

from conftest import Guard
from helpers import hold_python

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
# the boxes laid out whose Tab stop disagrees with their widths (as js/scrollers.js reads them)
AGREES = """() => Array.from(document.querySelectorAll(".ex-math, .ex-scroll, math:not([display=block]), " +
    ".ex-lesson table:not(.ex-cells):not(.ex-grid):not(.ex-matrix)"))
  .filter(box => box.checkVisibility() && !box.closest("details:not([open])"))
  .filter(box => (box.scrollWidth > box.clientWidth + 1 && !box.querySelector(
      "a[href], button, input, select, textarea, summary, [tabindex]:not([data-ex-scroller])"))
    !== box.hasAttribute("data-ex-scroller"))
  .map(box => box.outerHTML.slice(0, 80))"""
WHOLE = "() => new Promise(done => window.explorables.parts.then(() => done(true)))"


def forced_layouts(trace: bytes, script: str) -> list[dict]:
    """The layouts a function of ``script`` (a part of its address) asked for: a trace's
    Layout events inside one of its FunctionCall events, on the same thread."""
    events = [e for e in json.loads(trace)["traceEvents"] if e.get("ph") == "X"]
    calls = [
        e
        for e in events
        if e["name"] == "FunctionCall" and script in (e.get("args", {}).get("data", {}).get("url") or "")
    ]
    return [
        e
        for e in events
        if e["name"] == "Layout"
        and any(
            c["pid"] == e["pid"]
            and c["tid"] == e["tid"]
            and c["ts"] <= e["ts"] <= e["ts"] + e["dur"] <= c["ts"] + c["dur"]
            for c in calls
        )
    ]


def test_the_scroller_check_lays_nothing_out_as_a_phone_loads_a_lesson(browser, site_url):
    """Regression: the check of wide boxes (js/scrollers.js, in js/later.js) read every
    box's widths from a task of its own, and each box in an answer not opened yet (laid
    out only when asked) cost a layout of its own there, one for each such box on the
    lab's lesson, once the page was whole. It now reads them in a ResizeObserver's callback:
    js/later.js asks for no layout, and a formula wider than the phone still becomes a
    Tab stop."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    guard = Guard(page, site_url)
    held = hold_python(page)  # Python held back: nothing the engine draws comes into it
    try:
        browser.start_tracing(page=page, categories=["devtools.timeline"])
        page.goto(site_url + "attention-lab.html")
        page.wait_for_function("() => window.explorables.scrollers && window.explorables.parts")
        page.wait_for_function(WHOLE)
        page.wait_for_function("() => Object.values(window.explorables.figures).every(f => !f.pieces)")
        page.wait_for_timeout(500)  # what the last part's layout brings
        trace = browser.stop_tracing()
        assert page.evaluate("() => document.querySelectorAll('details:not([open]) math').length") > 0
        assert forced_layouts(trace, "/later.") == []
        # every box laid out that scrolls sideways, and has nothing of its own to focus, is
        # a Tab stop, and only those; one in an answer becomes one once the answer is opened
        assert page.evaluate(AGREES) == []
        assert page.locator("[data-ex-scroller]").count() > 0
        page.locator("main details:not([open])").filter(has=page.locator("math")).first.locator("summary").click()
        page.wait_for_function(f"() => ({AGREES})().length === 0")
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()


# the heatmap's figure as a swap brings it: how many panels and controls it had at each
# change of its parts, from the swap's own task on (a MutationObserver's records come at
# the end of the task that made the change)
UNFOLDING = """window.__unfolding = [];
new MutationObserver(() => {
  const figure = document.querySelector("figure#table.ex-drawn");
  if (!figure) return;
  const counts = [figure.querySelectorAll(".ex-panels > .ex-panel").length,
                  figure.querySelectorAll(".ex-side [data-key]").length];
  const last = window.__unfolding[window.__unfolding.length - 1];
  if (!last || last[0] !== counts[0] || last[1] !== counts[1]) window.__unfolding.push(counts);
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });"""


def test_the_next_lesson_swapped_in_draws_its_figure_a_piece_a_frame(browser, site_url):
    """Regression: a lesson swapped in made its figures whole in the task of the swap
    (every panel and control made and laid out there, then drawn in its first frame), and
    the reader's click on Next waited for all of it. The swap now makes each figure's
    first panel, and the rest comes a piece a frame after it, as on a page the browser
    loads; the figure is whole soon after, and live."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    guard = Guard(page, site_url)
    try:
        page.add_init_script(UNFOLDING)
        page.goto(site_url + "one-query-row.html")
        page.evaluate("() => window.explorables.ready")
        page.evaluate("() => { window.__kept = true; }")
        page.locator("a[rel=next]").first.click()
        page.wait_for_url("**/attention-heatmap.html")
        page.wait_for_function("() => window.explorables.figures.table && !window.explorables.figures.table.pieces")
        assert page.evaluate("() => window.__kept === true")  # swapped into the same document
        unfolding = page.evaluate("() => window.__unfolding")
        scene = page.evaluate("() => window.explorables.figures.table.scene")
        panels, controls = len(scene["panels"]), len(scene["controls"])
        assert panels >= 3 and controls >= 1
        assert unfolding[0] == [1, 0], unfolding  # the swap's task: the first panel alone
        assert unfolding[-1] == [panels, controls], unfolding
        page.locator("figure#table.ex-live").wait_for()
        guard.check()
    finally:
        context.close()


def test_a_figure_left_before_it_is_whole_is_not_made_further(browser, site_url):
    """A reader who goes on before a swapped-in figure has unfolded: the figure left
    behind makes no more panels (each would be made and laid out for a page no longer
    shown, in the frames of the one that is)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    guard = Guard(page, site_url)
    try:
        page.goto(site_url + "one-query-row.html")
        page.evaluate("() => window.explorables.ready")
        made = page.evaluate(
            """async () => {
              const ex = window.explorables;
              await ex.pages.go(new URL("attention-heatmap.html", location.href).href, { push: true });
              const figure = ex.figures.table;
              const first = Object.keys(figure.panelViews).length;
              figure.root.closest("main").remove();  // (as a swap to another page takes it out)
              for (let i = 0; i < 8; i++) await new Promise(r => requestAnimationFrame(r));
              return [first, Object.keys(figure.panelViews).length, figure.scene.panels.length];
            }"""
        )
        assert made[0] == 1 and made[2] >= 3, made
        assert made[1] == 1, made
        guard.check()
    finally:
        context.close()


def test_the_next_lesson_takes_the_focus_in_the_frame_that_shows_it(browser, site_url):
    """Regression: the swap moved the focus to the new lesson's heading in its own task,
    and focusing lays the page out: the new lesson was laid out there, before its
    figures' first answer was asked for, then drawn in the frame after. The heading now
    takes the focus in the frame that first shows the lesson, where the browser lays
    it out anyway; a screen reader still lands on it, and hears its title."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    guard = Guard(page, site_url)
    try:
        page.goto(site_url + "one-query-row.html")
        page.evaluate("() => window.explorables.ready")
        focused = page.evaluate(
            """async () => {
              const ex = window.explorables, h1 = () => document.querySelector("main h1");
              await ex.pages.go(new URL("attention-heatmap.html", location.href).href, { push: true });
              const inSwap = document.activeElement === h1();  // (the swap's task, its microtasks)
              await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
              return [inSwap, document.activeElement === h1()];
            }"""
        )
        assert focused == [False, True]
        page.locator(".ex-announcer", has_text=page.locator("main h1").inner_text()).wait_for()
        guard.check()
    finally:
        context.close()


# every ResizeObserver of the page, and the elements each observes now
OBSERVERS = """window.__observed = [];
const Native = window.ResizeObserver;
window.ResizeObserver = class extends Native {
  constructor(fn) { super(fn); this.targets = new Set(); window.__observed.push(this.targets); }
  observe(el, options) { this.targets.add(el); return super.observe(el, options); }
  unobserve(el) { this.targets.delete(el); return super.unobserve(el); }
  disconnect() { this.targets.clear(); return super.disconnect(); }
};"""


def test_the_scroller_check_lets_go_of_the_boxes_of_a_page_left(browser, site_url):
    """An observer holds what it observes: the boxes of each lesson left behind would be
    kept, with their documents' nodes, for the whole visit. Once the next lesson is
    swapped in, the scroller check observes only boxes in the document, and marks the
    new lesson's wide formula."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    guard = Guard(page, site_url)
    held = hold_python(page)
    try:
        page.add_init_script(OBSERVERS)
        page.goto(site_url + "one-query-row.html")
        page.wait_for_function("() => window.explorables.scrollers && window.__observed.some(t => t.size > 0)")
        page.locator("a[rel=next]").first.click()
        page.wait_for_url("**/attention-heatmap.html")
        page.locator("a[rel=next]").first.click()
        page.wait_for_url("**/attention-lab.html")
        page.wait_for_function(WHOLE)
        page.wait_for_function(f"() => ({AGREES})().length === 0 && document.querySelector('[data-ex-scroller]')")
        gone = page.evaluate("() => window.__observed.flatMap(t => [...t]).filter(el => !el.isConnected).length")
        assert gone == 0
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()
