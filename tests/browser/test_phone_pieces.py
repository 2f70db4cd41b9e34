"""A phone's main thread in short tasks (issue 39): the first frame waits only for the
figures the reader sees; a figure is made a piece a frame (its first panel, then its
controls, then one more panel a frame); js/later.js runs its scripts one per task."""

from __future__ import annotations

import pytest
from conftest import Guard
from helpers import hold_python, let_python_come

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
# when the heatmap figure was drawn, and how many panels and controls it had then and as
# it unfolded (one entry a change of its parts), and the layout shifts
RECORD = """window.__drawn = null; window.__unfolding = []; window.__shifts = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push([e.startTime, e.value]);
}).observe({ type: "layout-shift", buffered: true });
new MutationObserver(() => {
  const figure = document.querySelector("figure#table");
  if (!figure || !figure.classList.contains("ex-drawn")) return;
  if (window.__drawn === null) window.__drawn = performance.now();
  const counts = [figure.querySelectorAll(".ex-panels > .ex-panel").length,
                  figure.querySelectorAll(".ex-side [data-key]").length];
  const last = window.__unfolding[window.__unfolding.length - 1];
  if (!last || last[0] !== counts[0] || last[1] !== counts[1]) window.__unfolding.push(counts);
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });"""
MARK = "() => performance.getEntriesByName('explorables:first-frame')[0].startTime"


def open_phone(browser, site_url, height=844, init="", slower=1):
    """The heatmap lesson on a phone's screen (its CPU ``slower`` times slower), Python
    held back."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": 390, "height": height}})
    page = context.new_page()
    if slower > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slower})
    guard = Guard(page, site_url)
    held = hold_python(page)  # Python held back: what is drawn here is drawn without it
    page.add_init_script(RECORD + init)
    page.goto(site_url + "attention-heatmap.html")
    page.wait_for_function("() => performance.getEntriesByName('explorables:first-frame').length > 0")
    return context, page, guard, held


def test_a_figure_a_screen_below_is_drawn_after_the_first_frame_without_the_reader(browser, site_url):
    """The heatmap's figure starts below a phone's first screen: the first frame does not
    wait for it, and it is drawn right after, before the reader scrolls and before Python
    has come; nothing on the screen moves meanwhile."""
    context, page, guard, held = open_phone(browser, site_url)
    try:
        assert page.evaluate("() => document.querySelector('figure#table').getBoundingClientRect().top") > 844
        page.locator("figure#table.ex-drawn").wait_for()
        assert page.evaluate("() => window.__drawn") > page.evaluate(MARK)
        page.wait_for_function("() => !document.querySelector('figure#table .ex-held')")
        assert page.evaluate("() => window.scrollY") == 0
        assert page.evaluate("() => window.explorables.client.timings.worker") is None  # Python has not come
        shifted = page.evaluate(f"() => window.__shifts.filter(s => s[0] > ({MARK})()).reduce((a, s) => a + s[1], 0)")
        assert shifted < 0.01  # (as test_phone.py: a late font may move a line a hair)
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()


def test_a_figure_in_view_is_drawn_before_the_first_frame_a_piece_a_frame(browser, site_url):
    """On a screen tall enough to show it, the same figure is drawn before the first frame
    is marked, and made in pieces: its first panel alone, then its controls, then one
    more panel each frame, until the whole figure shows."""
    context, page, guard, held = open_phone(browser, site_url, height=2400)
    try:
        assert page.evaluate("() => document.querySelector('figure#table').getBoundingClientRect().top") < 2400
        assert page.evaluate("() => window.__drawn") < page.evaluate(MARK)
        page.wait_for_function("() => !document.querySelector('figure#table .ex-held')")
        unfolding = page.evaluate("() => window.__unfolding")
        scene = page.evaluate("() => window.explorables.figures.table.scene")
        panels, controls = len(scene["panels"]), len(scene["controls"])
        assert panels >= 3 and controls >= 1
        assert unfolding[0] == [1, 0], unfolding
        # the controls, but those placed after a panel still to come (the typed vectors, after
        # the outputs), which come with it; a control once shown stays
        assert unfolding[1][0] == 1 and 0 < unfolding[1][1] < controls, unfolding
        assert [c for _, c in unfolding] == sorted(c for _, c in unfolding), unfolding
        assert [n for n, _ in unfolding[1:]] == list(range(1, panels + 1)), unfolding
        assert unfolding[-1] == [panels, controls]
        # and the figure made in pieces is the whole figure: a control moved still computes
        let_python_come(page, held)
        page.evaluate("() => window.explorables.ready")
        page.locator("figure#table.ex-live").wait_for()
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()


# which of the heatmap figure's panels and controls were put in place inside an
# animation-frame callback (whose task also styles, lays out and paints that frame)
FRAME_WORK = """window.__inFrame = false; window.__placed = [];
(function () {
  const frame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = function (callback) {
    return frame(function (time) {
      window.__inFrame = true;
      try { callback(time); } finally { window.__inFrame = false; }
    });
  };
  const insert = Node.prototype.insertBefore;
  Node.prototype.insertBefore = function (node, before) {
    // (a control placed after a panel goes into that panel's group before the group is in the figure)
    if (node instanceof Element && this instanceof Element && (this.closest("figure#table") || this.closest(".ex-near")) &&
        (node.classList.contains("ex-panel") || node.classList.contains("ex-control"))) {
      window.__placed.push([node.classList.contains("ex-panel") ? "panel" : "control", window.__inFrame,
                            node.dataset.key]);
    }
    return insert.call(this, node, before);
  };
})();"""


def test_each_piece_of_a_figure_is_made_in_a_task_of_its_own_after_a_frame(browser, site_url):
    """The figure made in pieces makes each piece (its controls, then a panel a frame) in
    a task just after a frame, not in the frame's animation callback: there it shared one
    task with the frame's layout and paint, a long task on a phone's CPU. And it puts each
    panel and control in place once."""
    context, page, guard, held = open_phone(browser, site_url, height=2400, init=FRAME_WORK)
    try:
        page.wait_for_function("() => window.explorables.figures.table && document.querySelectorAll("
                               "'figure#table .ex-panels > .ex-panel').length === "
                               "window.explorables.figures.table.scene.panels.length")
        placed = page.evaluate("() => window.__placed")
        assert [kind for kind, _, _ in placed].count("panel") >= 3, placed
        assert "control" in [kind for kind, _, _ in placed], placed
        assert [in_frame for _, in_frame, _ in placed] == [False] * len(placed), placed
        # each put in place once, where it stays: a control to follow a panel still to come
        # was laid out among the others first, and moved (laid out again) when the panel came
        keys = [key for _, _, key in placed]
        assert len(keys) == len(set(keys)), placed
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()


LATER_PIECES = """window.__pieces = []; window.__queued = 0;
(function watch() {
  const ex = (window.explorables = window.explorables || {});
  const queue = [];
  queue.push = function (piece) {
    const n = window.__queued++;
    return Array.prototype.push.call(this, function () {
      window.__pieces.push("start " + n);
      queueMicrotask(() => window.__pieces.push("end " + n));  // at the end of the piece's task
      return piece();
    });
  };
  ex._laterPieces = queue;
})();"""


@pytest.mark.parametrize("lesson", ["attention-heatmap"])
def test_the_later_scripts_run_one_per_task(browser, site_url, lesson):
    """js/later.js's scripts each run in a task of their own (each task ends before the
    next script starts), in order, and then do their work: the search box is there."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        guard = Guard(page, site_url)
        page.add_init_script(LATER_PIECES)
        page.goto(site_url + f"{lesson}.html")
        page.locator("#ex-search-input").wait_for(state="attached")
        page.wait_for_function("() => window.__queued > 0 && window.__pieces.length === 2 * window.__queued")
        pieces = page.evaluate("() => window.__pieces")
        n = page.evaluate("() => window.__queued")
        assert n >= 8  # (static/js: the scripts of LATER)
        assert pieces == [f"{what} {i}" for i in range(n) for what in ("start", "end")]
        guard.check()
    finally:
        context.close()


# the parts laid out a block at a time and the blocks so laid (a class's old value: the
# classes come and go within one task); and, at the end of a task that leaves a part
# half laid out, how many of its blocks wait with their layout skipped
PARTS = """window.__opened = []; window.__laid = 0; window.__waiting = [];
new MutationObserver(changes => {
  for (const c of changes) {
    const was = (c.oldValue || "").split(" ");
    if (was.includes("ex-opening") && !window.__opened.includes(c.target)) window.__opened.push(c.target);
    if (was.includes("ex-laid")) window.__laid++;
  }
  for (const part of document.querySelectorAll(".ex-part.ex-opening")) {
    const blocks = Array.from(part.children).filter(b => !b.classList.contains("ex-laid"));
    window.__waiting.push(blocks.filter(b => getComputedStyle(b).contentVisibility === "auto").length);
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true });"""


def test_a_long_part_below_is_laid_out_a_block_at_a_time_and_nothing_moves(browser, site_url):
    """A part further down than the first screen is laid out a block at a time (its other
    blocks skip their layout meanwhile, in a place of their own) rather than in one long
    task; the page is whole in the end, with no trace of it, and nothing on the screen
    moved."""
    context, page, guard, held = open_phone(browser, site_url, init=PARTS, slower=4)
    try:
        page.wait_for_function("() => !document.querySelector('.ex-part:not(.ex-shown)')")
        opened = page.evaluate("() => window.__opened.map(p => p.querySelector('h2').id)")
        last = page.evaluate("() => Array.from(document.querySelectorAll('.ex-part h2')).pop().id")
        assert last in opened, opened
        assert page.evaluate("() => window.__laid") >= 3
        waiting = page.evaluate("() => window.__waiting")
        assert waiting and all(n >= 1 for n in waiting), waiting  # more than one task, blocks skipped meanwhile
        assert page.locator(".ex-opening, .ex-laid").count() == 0
        assert page.evaluate("() => window.scrollY") == 0
        shifted = page.evaluate(f"() => window.__shifts.filter(s => s[0] > ({MARK})()).reduce((a, s) => a + s[1], 0)")
        assert shifted < 0.01  # (as test_phone.py: a late font may move a line a hair)
        # the last part shows, as the reader scrolls down to it
        page.mouse.move(200, 400)
        page.locator(f"h2#{last}").scroll_into_view_if_needed()
        assert page.locator(f"h2#{last}").is_visible()
        # every block of the parts so laid out has its height (none left at the estimate)
        heights = page.evaluate("""() => window.__opened.flatMap(p => Array.from(p.children, c => [
            c.getBoundingClientRect().height, getComputedStyle(c).contentVisibility]))""")
        assert heights and all(h > 0 and cv == "visible" for h, cv in heights), heights
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()


# the page at ``href``: how many times it was fetched, and whether once to its end
FETCHES = """href => performance.getEntriesByType("resource")
  .filter(e => new URL(e.name).pathname.endsWith("/" + href)).map(e => e.responseEnd > 0)"""


def test_the_next_lesson_is_fetched_before_python_comes_and_next_uses_it(browser, site_url):
    """The next lesson's page is fetched once the first frame is drawn, while Python is
    still on its way (fetched at live, it made a reader who goes on at once wait for
    it); Next at the instant the figures go live swaps that copy in: one request in all."""
    context, page, guard, held = open_phone(browser, site_url)
    try:
        href = page.locator("a[rel=next]").first.get_attribute("href")
        page.wait_for_function(f"href => ({FETCHES})(href).includes(true)", arg=href)
        assert page.evaluate("() => window.explorables.client.timings.worker") is None  # Python has not come
        page.evaluate("() => { window.__sameDocument = true; }")
        let_python_come(page, held)
        page.evaluate("() => window.explorables.ready")
        page.locator("a[rel=next]").first.click()
        page.wait_for_url("**/" + href)
        page.locator("main figure.ex-figure.ex-live").first.wait_for()
        assert page.evaluate("() => window.__sameDocument") is True
        assert page.evaluate(FETCHES, href) == [True]
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()
