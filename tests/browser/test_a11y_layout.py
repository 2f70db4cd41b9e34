"""Layout for every reader (issue 12): on a phone the keyboard walks each figure from top
to bottom, and at 320 px (a desktop at 400% zoom) nothing makes the page scroll sideways.

Tab is pressed as a reader presses it; where each focus lands is read from the page."""
from __future__ import annotations

import pytest

from helpers import assert_matches_cpython, clear, fresh_lesson, idle, later_loaded, mark_position, module_page, \
    shared_page, touch_drag

FIGURES = [  # (page, figure id)
    ("one-query-row.html", "explorer"),
    ("attention-heatmap.html", "table"),
    ("attention-lab.html", "lab"),
    ("two-heads.html", "heads"),
    ("positional-encoding.html", "clocks"),
]
PAGES = ["index.html"] + [name for name, _ in FIGURES] + ["notices.html", "print.html"]

# Where the focus is, in page coordinates, and whether it is still inside the figure.
WHERE = """id => {
    const el = document.activeElement;
    const r = el.getBoundingClientRect();
    return { inside: document.getElementById(id).contains(el), top: r.top + scrollY, bottom: r.bottom + scrollY,
             left: r.left + scrollX, right: r.right + scrollX,
             name: el.tagName + (el.getAttribute('aria-label') ? ' ' + el.getAttribute('aria-label') : '')
                   + (el.textContent && el.textContent.length < 40 ? ' ' + el.textContent.trim() : '') };
}"""


shared = shared_page()


FONT_IN = """() => { const font = document.querySelector('link[rel=preload][as=font]');
                     return (!font || performance.getEntriesByName(font.href).length > 0)
                         && document.fonts.status === 'loaded'; }"""


def window(page, width: int, height: int) -> None:
    """The window at ``width`` x ``height`` (the page is laid out anew only if it was not)."""
    if page.viewport_size != {"width": width, "height": height}:
        page.set_viewport_size({"width": width, "height": height})


@pytest.fixture
def reader(shared):
    """The module's page, at the window the test before left: each test sets its own
    (shared_page puts the page's own back after the module)."""
    page, guard = shared
    yield page, guard
    # the font a page preloads (js/start.js) in before the next test leaves the page: a
    # font cut off would be a failed request of that page's own
    page.wait_for_function(FONT_IN)
    guard.check()


def tab_through(page, figure_id: str) -> list[dict]:
    """Focus the figure's first stop, then press Tab until the focus leaves the figure."""
    first = page.locator(f"figure#{figure_id}").locator(
        "a[href], button, input, select, textarea, summary, [tabindex='0'] >> visible=true").first
    first.focus()
    stops = [page.evaluate(WHERE, figure_id)]
    for _ in range(150):
        page.keyboard.press("Tab")
        where = page.evaluate(WHERE, figure_id)
        if not where["inside"]:
            return stops
        stops.append(where)
    raise AssertionError("Tab never left the figure")


@pytest.mark.parametrize("name, figure_id", FIGURES)
def test_at_390_px_tab_never_jumps_up_a_figure(reader, site_url, name, figure_id):
    """Regression: controls moved with CSS `order` made Tab jump back up by 670-2,264 px
    (after "Show the arithmetic", focus went back to "Asking word")."""
    page, guard = reader
    window(page, 390, 844)
    fresh_lesson(page, guard, site_url + name, figure_id)
    stops = tab_through(page, figure_id)
    assert len(stops) >= 4, stops
    for before, after in zip(stops, stops[1:]):
        below = after["top"] >= before["top"] - 4
        right = after["left"] >= before["right"] - 4 and after["bottom"] > before["top"]
        assert below or right, f"Tab went up the page from {before} to {after}"


def test_a_control_follows_the_panel_it_changes_and_goes_back_when_wide(reader, site_url):
    """Narrow: the heatmap's controls sit in the DOM right after its table; wide: in the
    side column again, with the keyboard's focus kept through the move."""
    page, guard = reader
    window(page, 390, 844)
    fresh_lesson(page, guard, site_url + "attention-heatmap.html", "table")
    order = """() => Array.from(document.querySelectorAll('#table .ex-body [data-key]'))
                      .map(el => el.dataset.key)"""
    narrow = page.evaluate(order)
    assert narrow.index("cells:table") < narrow.index("slider:n") < narrow.index("cells:outputs")
    page.locator("#table input[type=range]").first.focus()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("() => !document.querySelector('#table .ex-near')")
    assert sorted(page.evaluate(order)) == sorted(narrow), "the same views, whatever the width"
    in_side = page.evaluate("""() => Array.from(document.querySelectorAll('#table .ex-body > .ex-side > [data-key]'))
                                    .map(el => el.dataset.key)""")
    assert "slider:n" in in_side and not page.locator("#table .ex-panels .ex-side").count()
    assert page.evaluate("() => document.activeElement.type") == "range"
    side = page.locator("#table .ex-side [data-key='slider:n']").bounding_box()
    table = page.locator("#table [data-key='cells:table']").bounding_box()
    assert side["x"] > table["x"] + table["width"] - 1, "wide: the controls stand beside the panels"


@pytest.fixture(scope="module")
def plain(browser, site_url, browser_context_args):
    """A page of its own for the pages without a figure, which are loaded anew: loaded in
    the module's page, they would stop the engine the lessons share (and the print page
    has none to hand on)."""
    yield from module_page(browser, site_url, browser_context_args)


@pytest.fixture
def at_320(request, browser, site_url):
    """The page for the test's page at 320 px: the module's live page for a lesson, the
    page of its own for a page without a figure (its guard checked after the test)."""
    if dict(FIGURES).get(request.getfixturevalue("name")):
        yield request.getfixturevalue("reader")
        return
    page, guard = request.getfixturevalue("plain")
    clear(guard)
    yield page, guard
    page.wait_for_function(FONT_IN)
    guard.check()


@pytest.mark.parametrize("name", PAGES)
def test_at_320_px_nothing_scrolls_the_page_sideways(at_320, site_url, name):
    """At 320 px (1280 px at 400% zoom) the page is no wider than the window, before and
    after the engine is live; a wide formula or grid scrolls in its own focusable box."""
    page, guard = at_320
    window(page, 320, 700)
    figure = dict(FIGURES).get(name)
    if figure:
        fresh_lesson(page, guard, site_url + name, figure)
    else:  # a page without a figure: opened anew, with what loads after its first frame
        before = len(guard.failed)
        page.goto(site_url + name)
        # what leaving the page before cut off (a font its last layout asked for) was its own
        guard.failed[before:] = [f for f in guard.failed[before:] if not f.endswith("(net::ERR_ABORTED)")]
        later_loaded(page)
        # and the font it preloads (js/start.js): the next test's page load would cut off
        # a font still coming, a failed request of this page's own
        page.wait_for_function(FONT_IN)
    # open every fold, so what it hides is measured too
    page.evaluate("() => document.querySelectorAll('main details').forEach(d => { d.open = true; })")
    # what they held is laid out in the next frame, and its boxes measured after that layout
    # (js/scrollers.js: a ResizeObserver's callbacks), in their font once it is in
    page.evaluate("() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame("
                  "() => requestAnimationFrame(r))))")
    wide = page.evaluate("""() => {
        const out = [], seen = new Set();
        const width = document.documentElement.clientWidth;
        for (const el of document.querySelectorAll('main *')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.right <= width + 0.5) continue;
            // inside a box that scrolls sideways is fine: that box is what is measured
            let clipped = false;
            for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
                const s = getComputedStyle(p);
                if (s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden') {
                    clipped = true; break;
                }
            }
            if (clipped || (el.parentElement && seen.has(el.parentElement))) continue;
            seen.add(el);  // the outermost box that sticks out is the one to name
            out.push(el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 30) + '" '
                     + Math.round(r.right - width) + ' px');
        }
        return { out, scroll: document.documentElement.scrollWidth - width };
    }""")
    assert wide["scroll"] <= 0 and not wide["out"], wide
    # every box that does scroll sideways takes the keyboard's focus (WCAG 2.1.1)
    unreachable = page.evaluate("""() => Array.from(document.querySelectorAll('main *')).filter(el => {
        const s = getComputedStyle(el);
        return (s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1
            && el.tabIndex < 0 && !el.querySelector('a[href], button, input, select, textarea, [tabindex="0"]');
    }).map(el => el.tagName + '.' + el.className)""")
    assert not unreachable, unreachable


SMALL = """id => Array.from(document.getElementById(id).querySelectorAll(
        'button, select, input:not([type=range]), summary'))
    .map(e => { const r = e.getBoundingClientRect(); return { name: e.tagName + ' ' + (e.getAttribute('aria-label')
        || e.textContent || e.name || '').trim().slice(0, 30), w: r.width, h: r.height }; })
    .filter(t => t.w > 0 && (t.w < 24 || t.h < 24))"""


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def phone(browser, site_url, browser_context_args):
    """A phone's page (a touch screen, 390 px, three device pixels to a CSS pixel) for the
    module's tests on it: one Pyodide for them all."""
    yield from module_page(browser, site_url, {**browser_context_args, **PHONE})


def test_on_a_touch_screen_every_control_is_a_target_of_24_px(phone, site_url):
    """Pins a reader's finding: on a phone the "Hide the future" box was 18 px, the
    "Asking word" menu 19 px tall, cells 19 px: under the 24 px a finger needs (WCAG
    2.5.8)."""
    page, guard = phone
    small = {}
    for name, figure_id in FIGURES:  # each lesson swapped in on the first one's engine
        fresh_lesson(page, guard, site_url + name, figure_id)
        found = page.evaluate(SMALL, figure_id)
        if found:
            small[name] = found[:5]
    assert not small, "\n".join(f"{k}: {v}" for k, v in small.items())
    guard.check()


def test_on_a_phone_a_finger_drags_a_key_and_a_swipe_beside_it_scrolls_the_page(phone, site_url):
    """A finger put down on a point of a plane moves the point, and the page stays; put
    down on the plane beside every point, it scrolls the page as anywhere else (the
    canvas lets the browser pan vertically unless a point is under the finger)."""
    page, guard = phone
    fresh_lesson(page, guard, site_url + "one-query-row.html", "explorer")
    before = idle(page, "explorer")
    x, y = mark_position(page, "explorer", "keys", "key-1")  # cat's key, its plane in sight
    top = page.evaluate("() => scrollY")
    touch_drag(page, x, y, -40, 50)
    values = assert_matches_cpython(page, "explorer", "attention-row")
    assert values["keys"][1] != before["keys"][1], "the finger did not move cat's key"
    assert page.evaluate("() => scrollY") == top, "dragging the key scrolled the page"
    # the plane's bottom-left corner holds no point: a swipe up there scrolls the page down
    plane = page.locator('figure#explorer [data-key="plane:keys"] canvas').bounding_box()
    touch_drag(page, plane["x"] + 8, plane["y"] + plane["height"] - 10, 0, -200)
    page.wait_for_function("top => scrollY > top + 100", arg=top, timeout=5_000)  # else the page never scrolled
    assert idle(page, "explorer")["keys"] == values["keys"], "the swipe moved a key"
    guard.check()


def test_beside_the_panels_the_keyboard_can_skip_to_the_controls(reader, site_url):
    """Pins a reader's finding: at 1280 px Tab went through every panel of lesson 1's
    figure (planes, tables, "Show the arithmetic") before the controls that change them.
    The figure's first stop offers the way past them, seen once it has the focus."""
    page, guard = reader
    window(page, 1280, 800)
    fresh_lesson(page, guard, site_url + "one-query-row.html", "explorer")
    skip = page.locator("figure#explorer .ex-skip-controls")
    # start right before the figure (the paragraph before it holds links of its own)
    page.locator("figure#explorer").evaluate(
        "f => { const mark = document.createElement('span'); mark.tabIndex = -1; f.before(mark); mark.focus(); }")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "ex-skip-controls"
    box = skip.bounding_box()
    figure = page.locator("figure#explorer").bounding_box()
    assert figure["x"] <= box["x"] and box["y"] < figure["y"] + 60  # in sight, at the figure's top
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.closest('.ex-side') !== null")
    assert page.evaluate("() => document.activeElement.name") == "query"  # the first control: Asking word
    # on a phone each control follows its panel: no skip is offered
    page.set_viewport_size({"width": 390, "height": 800})
    page.wait_for_function("() => document.querySelector('figure#explorer .ex-skip-controls').hidden")
