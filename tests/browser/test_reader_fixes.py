"""Three defects a reader review found, each checked as a reader meets it, on a desktop
(1280 x 900) and a phone (390 x 844):

1. The message under a refused typed number was clipped by its table's sideways-scrolling
   box (57 % of it showed in lesson 1's first row, 2 % in its last row and in lesson 5's
   base field) or pushed off the phone's screen (the matrices of lessons 3 and 4 at -107 px).
2. A display formula wider than a phone ("O = softmax(" in lesson 3) scrolled with no sign
   that there was more of it.
3. Exercise boxes started at x = 20 px beside prose at 168 px, their buttons were the
   browser's own, and their placeholder was cut off ("a number from 0 to 1 or a perce…"),
   at 2.4:1 in the dark scheme."""
from __future__ import annotations

import re
import zlib

import pytest

from colours import contrast
from helpers import assert_close, idle, in_lesson, shared_page, state_of, type_refused, values_of

LESSONS = [  # (page, figure id)
    ("one-query-row.html", "explorer"),
    ("attention-heatmap.html", "table"),
    ("attention-lab.html", "lab"),
    ("two-heads.html", "heads"),
    ("positional-encoding.html", "clocks"),
]
WITH_EXERCISES = LESSONS[:3]
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

shared = shared_page()


@pytest.fixture(params=LESSONS, ids=[name for name, _ in LESSONS])
def lesson(request, shared, site_url):
    name, figure_id = request.param
    for page in in_lesson(shared, site_url + name, figure_id):
        yield page, figure_id


# How much of an element a reader can see: points across its box, each asked which element
# is on top there (the hit test clips as painting does). A point outside the window, or cut off by a box that scrolls or clips,
# finds nothing or something else.
# (A refused value's message lets clicks through to the fields under it: it is hit-tested
# as it is painted only while this looks.)
SEEN = """el => {
    const r = el.getBoundingClientRect();
    el.style.pointerEvents = "auto";
    let seen = 0, all = 0;
    for (let i = 0; i <= 6; i++) for (let j = 0; j <= 2; j++) {
        // 3 px in from each edge, inside the rounded corners
        const x = r.left + 3 + (r.width - 6) * i / 6, y = r.top + 3 + (r.height - 6) * j / 2;
        const hit = document.elementFromPoint(x, y);
        all += 1;
        if (hit && (hit === el || el.contains(hit))) seen += 1;
    }
    el.removeAttribute("style");
    return { seen: seen / all, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
             width: innerWidth, height: innerHeight, text: el.textContent };
}"""


def test_a_refused_number_s_message_shows_whole_beside_its_field(lesson):
    """The first and the last field of the first and last typed control: ``abc`` and Enter, as a reader
    types them, on a desktop and then on a phone. The whole message is on screen and on top,
    the figure keeps its values, and Escape puts the field back."""
    page, figure_id = lesson
    before_state, before_values = state_of(page, figure_id), idle(page, figure_id)
    controls = page.locator(f"figure#{figure_id}").locator(".ex-control-number, .ex-control-grid, .ex-control-matrix")
    assert controls.count() > 0
    for size in SIZES:
        page.set_viewport_size(SIZES[size])
        # the first and the last control of the figure (two-heads has eight matrices, all alike)
        for c in sorted({0, controls.count() - 1}):
            fields = controls.nth(c).locator("input.ex-number")
            for field in [fields.first] + ([fields.last] if fields.count() > 1 else []):
                field.evaluate("el => el.scrollIntoView({block: 'center'})")  # the reader scrolls to it
                error = type_refused(page, field, "abc")
                idle(page, figure_id)
                seen = error.evaluate(SEEN)
                where = f"{size}, {field.get_attribute('name')}: {seen}"
                assert "must be a number" in seen["text"], where
                assert seen["left"] >= 0 and seen["right"] <= seen["width"], where
                assert seen["top"] >= 0 and seen["bottom"] <= seen["height"], where
                assert seen["seen"] == 1, where
                # next to its field: starting at most a line below it
                box = field.bounding_box()
                assert box["y"] + box["height"] - 1 <= seen["top"] <= box["y"] + box["height"] + 8, where
                assert field.get_attribute("aria-describedby") == error.get_attribute("id"), where
                assert state_of(page, figure_id) == before_state, where
                assert_close(values_of(page, figure_id), before_values)
                page.keyboard.press("Escape")
                assert error.is_hidden() and field.get_attribute("aria-invalid") is None, where
        # the tables still scroll sideways in their own box when they are wider than it
        assert set(page.locator(f"figure#{figure_id} .ex-grid-scroll").evaluate_all(
            "els => els.map(el => getComputedStyle(el).overflowX)")) <= {"auto"}, size
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), size


def pixels(page, x: float, y: float, width: float) -> list[tuple[int, int, int]]:
    """The colours on screen along a row one pixel high from (x, y), ``width`` long, from
    one screenshot: a PNG of one row is a filter byte and its pixels, each filtered by the
    one before it at most (none, Sub, Average and Paeth all reduce to that with no row
    above)."""
    png = page.screenshot(clip={"x": x, "y": y, "width": width, "height": 1})
    data, at, channels = b"", 8, 3
    while at < len(png):
        size, kind = int.from_bytes(png[at:at + 4], "big"), png[at + 4:at + 8]
        if kind == b"IHDR":
            assert png[at + 8 + 8] == 8 and png[at + 8 + 9] in (2, 6), "expected 8-bit RGB or RGBA"
            channels = 3 if png[at + 8 + 9] == 2 else 4
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + size]
        at += 12 + size
    row = zlib.decompress(data)
    kind, raw, out = row[0], row[1:], bytearray()
    for i, byte in enumerate(raw):
        left = out[i - channels] if i >= channels else 0
        out.append((byte + {0: 0, 1: left, 2: 0, 3: left // 2, 4: left}[kind]) % 256)
    return [tuple(out[i:i + 3]) for i in range(0, len(out), channels)]


def differ(a, b) -> int:
    return sum(abs(p - q) for p, q in zip(a, b))


def edges(page, box, r) -> list[tuple[int, int, int]]:
    """The colours half-way down a formula's box at its left edge, 40 px in from it, at
    its right edge and 40 px in from that: what its background shows there, the formula
    hidden for the moment (its glyphs would stand in front)."""
    hide = "(el, how) => el.querySelectorAll(':scope > *').forEach(c => { c.style.visibility = how; })"
    box.evaluate(hide, "hidden")
    row = pixels(page, r["x"], r["y"] + r["height"] / 2, r["width"])
    box.evaluate(hide, "")
    return [row[min(round(dx), len(row) - 1)] for dx in (1, 40, r["width"] - 2, r["width"] - 40)]


AT_END = "el => el.scrollLeft + el.clientWidth >= el.scrollWidth - 1"


SCHEMES = ["light", "dark"]


def test_a_display_formula_wider_than_a_phone_shows_it_scrolls_and_scrolls_to_its_end(lesson):
    """At 390 px every display formula (every answer opened) fits, or shows a shadow at
    the edge that has more behind it, in the light and the dark scheme, takes the
    keyboard's focus and scrolls to its end with the arrow key; there the shadow has moved
    to the other edge, in either scheme."""
    page, _ = lesson
    page.set_viewport_size(SIZES["phone"])
    closed = page.locator("main details:not([open]) > summary:visible")
    for _ in range(50):  # the reader opens every answer
        if not closed.count():
            break
        closed.first.click()
    wide = 0
    for box in page.locator("main .ex-math").all():
        if not box.is_visible() or box.evaluate("el => el.scrollWidth <= el.clientWidth + 1"):
            continue
        wide += 1
        box.scroll_into_view_if_needed()
        box.and_(page.locator("[data-ex-scroller]")).wait_for()  # js/scrollers.js: a Tab stop
        assert box.get_attribute("tabindex") == "0"
        r = box.bounding_box()
        name = box.inner_text()[:30]
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            left, left_in, right, right_in = edges(page, box, r)
            assert differ(right, right_in) >= 30, f"{scheme}: no shadow at the right edge of {name!r}: {right} {right_in}"
            assert differ(left, left_in) <= 6, f"{scheme}: a shadow at the left edge of {name!r} before it scrolled"
        box.click()
        assert box.evaluate("el => el === document.activeElement")
        for _ in range(40):
            if box.evaluate(AT_END):
                break
            was = box.evaluate("el => el.scrollLeft")
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"([el, was]) => el.scrollLeft > was || ({AT_END})(el)",
                                   arg=[box.element_handle(), was])
        page.wait_for_function(AT_END, arg=box.element_handle())
        for scheme in reversed(SCHEMES):
            page.emulate_media(color_scheme=scheme)
            left, left_in, right, right_in = edges(page, box, r)
            assert differ(left, left_in) >= 30, f"{scheme}: no shadow at the left edge of {name!r} at its end"
            assert differ(right, right_in) <= 6, f"{scheme}: a shadow at the right edge of {name!r} at its end"
    if lesson[1] in ("lab", "clocks"):  # lessons 3 and 5 have formulas wider than a phone
        assert wide > 0


def rgb_of(css: str) -> tuple[float, float, float]:
    return tuple(float(v) for v in re.findall(r"[\d.]+", css)[:3])


@pytest.fixture(params=WITH_EXERCISES, ids=[name for name, _ in WITH_EXERCISES])
def exercise_lesson(request, shared, site_url):
    name, figure_id = request.param
    yield from in_lesson(shared, site_url + name, figure_id)


def test_an_exercise_box_lines_up_with_the_prose_and_has_the_site_s_buttons(exercise_lesson):
    page = exercise_lesson
    page.set_viewport_size(SIZES["desktop"])
    exercises = page.locator(".ex-exercise")
    assert exercises.count() > 0
    prose = page.locator(".ex-lesson > p, .ex-part > p").evaluate_all(
        "els => els.map(el => el.getBoundingClientRect().left)")
    assert len(set(prose)) == 1, prose
    looks = "el => { const s = getComputedStyle(el); return [s.backgroundColor, s.color, s.borderTopColor, " \
            "s.borderTopWidth, s.borderRadius, s.fontFamily, s.fontSize]; }"
    site_button = page.locator("figure .ex-button").first.evaluate(looks)
    for exercise in exercises.all():
        exercise.scroll_into_view_if_needed()
        assert exercise.bounding_box()["x"] == pytest.approx(prose[0], abs=0.5)
        for button in exercise.locator("form button").all():
            assert button.evaluate(looks) == site_button, button.inner_text()


# The placeholder's width in its own font against the room inside the field. (Chromium
# counts no placeholder in an input's scrollWidth: a cut-off placeholder has scrollWidth
# equal to clientWidth, so it is measured.)
PLACEHOLDER = """el => {
    const s = getComputedStyle(el), p = getComputedStyle(el, '::placeholder');
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${p.fontStyle} ${p.fontWeight} ${p.fontSize} ${p.fontFamily}`;
    return { text: el.placeholder, needs: ctx.measureText(el.placeholder).width,
             room: el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),
             colour: p.color, background: s.backgroundColor, scroll: el.scrollWidth, client: el.clientWidth };
}"""


def test_an_exercise_s_placeholder_shows_whole_and_reads_at_4_5_to_1(exercise_lesson):
    """On a desktop and a phone, in the light and the dark scheme."""
    page = exercise_lesson
    for size in SIZES:
        page.set_viewport_size(SIZES[size])
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            for field in page.locator(".ex-exercise form input").all():
                field.scroll_into_view_if_needed()
                p = field.evaluate(PLACEHOLDER)
                where = f"{size}, {scheme}: {p}"
                assert p["text"] and p["needs"] <= p["room"], where
                assert p["scroll"] <= p["client"], where
                ratio = contrast(rgb_of(p["colour"]), rgb_of(p["background"]))
                assert ratio >= 4.5, (where, round(ratio, 2))


def test_a_square_root_ends_where_what_is_under_it_ends(shared, site_url):
    """Pins a reader's finding: "√dₖ ." and "√2  ≈ 1.41": drawn with the bundled math
    font, Chromium left out the radical's bar and put 4.8 px after it."""
    for page in in_lesson(shared, site_url + "one-query-row.html", "explorer"):
        page.evaluate("() => document.fonts.ready")
        gaps = page.evaluate("""() => Array.from(document.querySelectorAll('main msqrt')).map(s =>
            s.getBoundingClientRect().right - s.lastElementChild.getBoundingClientRect().right)""")
        assert len(gaps) >= 3 and max(gaps) < 1, gaps
