"""A lesson on a phone (issue 39): a 390 px touch screen at device scale 2. The page fits
the screen and does not move as its figures are drawn and go live; the figures below
the first screens are drawn as the reader comes near them (they show the build's still
until then), not before the first frame; and a reader who turns the page before Python
has come loses nothing of what they set."""

from __future__ import annotations

import re

import pytest
from conftest import Guard
from helpers import hold_python, let_python_come

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SHIFTS = """window.__shifts = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push([e.startTime, e.value]);
}).observe({ type: "layout-shift", buffered: true });"""
# the layout shifts after the runtime marked its first frame drawn, summed
SHIFTED = """() => {
  const frame = performance.getEntriesByName("explorables:first-frame")[0].startTime;
  return window.__shifts.filter(s => s[0] > frame).reduce((sum, s) => sum + s[1], 0);
}"""
ALL_LIVE = """() => Array.from(document.querySelectorAll("main figure.ex-figure"))
  .every(f => f.classList.contains("ex-live"))"""


@pytest.fixture
def phone(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    guard = Guard(page, site_url)
    page.add_init_script(SHIFTS)
    yield page, guard
    context.close()


AT_END = "() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2"
# The page has moved since the wheel turned (a wheel's scroll is the compositor's, a frame
# or more later), or cannot move further, or shows the figure asked for
MOVED = f"""([y, id]) => window.scrollY !== y || ({AT_END})()
    || (id !== null && id in window.explorables.figures)"""


def wheel_down(page, dy: int, figure_id: str | None = None) -> None:
    """Turn the mouse wheel by ``dy`` and wait until the page has scrolled (or is at its
    end, or, given ``figure_id``, has drawn that figure): a reader's next turn comes once
    the page moved, without a fixed pause."""
    y = page.evaluate("() => window.scrollY")
    page.mouse.wheel(0, dy)
    page.wait_for_function(MOVED, arg=[y, figure_id])


def scroll_through(page) -> None:
    """Scroll to the end of the page as a reader does, a screen at a time."""
    for _ in range(40):
        wheel_down(page, 700)
        if page.evaluate(AT_END):
            break


def scroll_to(page, figure_id: str) -> None:
    """Scroll down a screen at a time, as a reader does, until the figure is drawn."""
    page.mouse.move(200, 400)
    for _ in range(80):
        if page.evaluate("id => id in window.explorables.figures", figure_id):
            break
        wheel_down(page, 600, figure_id)
    page.locator(f"figure#{figure_id}.ex-drawn").wait_for()
    page.locator(f"figure#{figure_id}").scroll_into_view_if_needed()


@pytest.mark.parametrize("lesson", ["attention-lab", "two-heads"])
def test_a_lesson_fits_a_phone_and_nothing_moves_as_its_figures_go_live(phone, site_url, lesson):
    page, guard = phone
    page.goto(site_url + f"{lesson}.html")
    page.evaluate("() => window.explorables.ready")
    page.mouse.move(200, 400)
    scroll_through(page)
    page.wait_for_function(ALL_LIVE)
    page.evaluate("() => Promise.all(Object.values(window.explorables.figures).map(f => f.idle()))")
    page.wait_for_function("() => document.querySelectorAll('.ex-part:not(.ex-shown)').length === 0")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SHIFTED) < 0.01
    guard.check()


@pytest.fixture
def three_figures(built_site, site_url):
    """lesson 1 with its figure there three times, the other two at the end of the lesson"""
    source = (built_site / "one-query-row.html").read_text()
    start = source.index('<figure class="ex-figure" id="explorer"')
    block = source[start : source.index("</figure>", start) + len("</figure>")]
    extra = block.replace('id="explorer"', 'id="second"') + block.replace('id="explorer"', 'id="third"')
    end = source.index("</main>")
    page = built_site / "__phone_three.html"
    page.write_text(source[:end] + extra + source[end:])
    yield site_url + page.name
    page.unlink()


def test_figures_far_below_wait_for_the_reader_and_show_their_still(phone, three_figures):
    """Before the first frame only the figures near the view are drawn; one further down
    shows the build's still and is drawn once the reader scrolls near it, Python or not."""
    page, guard = phone
    held = hold_python(page)
    page.goto(three_figures)
    page.wait_for_function("() => performance.getEntriesByName('explorables:first-frame').length > 0")
    page.wait_for_timeout(500)  # (idle moments: nothing more is drawn without the reader)
    drawn = page.evaluate("() => Object.keys(window.explorables.figures)")
    assert "third" not in drawn, drawn
    assert page.locator("figure#third:not(.ex-drawn) > .ex-still").count() == 1
    scroll_to(page, "third")
    assert page.evaluate("() => window.explorables.client.timings.worker") is None  # Python has not come
    let_python_come(page, held)
    page.evaluate("() => window.explorables.ready")
    page.wait_for_function(ALL_LIVE)
    page.evaluate("() => window.explorables.figures.third.idle()")
    guard.check()


def test_a_slider_moved_before_python_came_is_kept_across_pages(browser, site_url):
    """Drag a slider while Python is on its way, go on to the next lesson, come back:
    the slider is where the reader left it, and once Python is live the figure computes
    that value."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        guard = Guard(page, site_url)
        held = hold_python(page)
        page.goto(site_url + "one-query-row.html")
        scroll_to(page, "explorer")  # (a figure far from the first screen is drawn as the reader comes)
        slider = page.locator("figure#explorer input[type=range][name=temperature]")
        slider.scroll_into_view_if_needed()
        before = slider.input_value()
        box = slider.bounding_box()
        y = box["y"] + box["height"] / 2
        page.mouse.move(box["x"] + box["width"] * 0.5, y)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] * 0.9, y, steps=8)
        page.mouse.up()
        moved = slider.input_value()
        spoken = slider.get_attribute("aria-valuetext")
        assert moved != before
        page.evaluate("() => { window.__sameDocument = true; }")
        page.locator("a[rel=next]").first.click()
        page.wait_for_url("**/attention-heatmap.html")
        page.locator("main h1").wait_for()
        page.go_back()
        page.wait_for_url("**/one-query-row.html")
        slider = page.locator("figure#explorer input[type=range][name=temperature]")
        slider.wait_for()
        assert slider.input_value() == moved
        assert slider.get_attribute("aria-valuetext") == spoken
        assert page.evaluate("() => window.__sameDocument") is True  # swapped in place, not loaded anew
        let_python_come(page, held)
        page.evaluate("() => window.explorables.ready")
        page.locator("figure#explorer.ex-live").wait_for()
        page.evaluate("() => window.explorables.figures.explorer.idle()")
        state = page.evaluate("() => window.explorables.figures.explorer.state")
        value = float(spoken.split()[-1])
        assert abs(state["temperature"] - value) < 0.01 * max(1, abs(value)), (state, spoken)
        guard.check()
    finally:
        context.close()


def test_the_figure_says_how_much_of_python_has_come(browser, site_url):
    """On a slow network the figure's badge counts Python's download in megabytes, the
    count rises as the files stream in, its ring fills as much (and does not spin: the
    page draws nothing between two counts), and the badge goes once the figure is live."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        guard = Guard(page, site_url)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions",
                 {"offline": False, "latency": 20, "downloadThroughput": 10_000_000, "uploadThroughput": 750_000})
        page.add_init_script("""window.__said = [];
          new MutationObserver(() => {
            const badge = document.querySelector("figure#explorer .ex-badge");
            if (badge && !badge.hidden) {
              const ring = getComputedStyle(badge, "::before");
              window.__said.push([badge.textContent, badge.style.getPropertyValue("--ex-done"),
                                  ring.backgroundImage, ring.animationName]);
            }
          }).observe(document, { subtree: true, childList: true, characterData: true });""")
        page.goto(site_url + "one-query-row.html")
        scroll_to(page, "explorer")
        page.locator("figure#explorer.ex-live").wait_for(timeout=120_000)
        said = page.evaluate("() => window.__said")
        counted = [(float(m[1]) / float(m[2]), done, ring, spin) for (text, done, ring, spin) in said
                   if (m := re.search(r"Python ([\d.]+) of ([\d.]+) MB", text))]
        counts = [share for share, *_ in counted]
        assert len(set(counts)) >= 3, said
        assert counts == sorted(counts), said
        for share, done, ring, spin in counted:  # the ring shows the share the text says
            assert abs(float(done) - share) < 0.02 and "conic-gradient" in ring and spin == "none", (share, done, ring)
        assert page.locator("figure#explorer .ex-badge").is_hidden()
        guard.check()
    finally:
        context.close()
