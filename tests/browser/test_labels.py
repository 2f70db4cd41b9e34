"""Names on planes are placed by the renderer from measured text (SCENE.md, "Where labels
go"): read back through figures[id].labels(), no name touches another, leaves its canvas
or covers a point, in every lesson, on a laptop and on a phone, in the first frame and
after a reader drags, slides and picks another asking word; and a name does not jump
from side to side while its point is dragged.

Set EXPLORABLES_SHOTS to a folder to keep a PNG of every plane before and after."""
from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest

from helpers import clear, held_for_good, idle, in_lesson, mark_position, module_page, shared_page

LESSONS = {"one-query-row": "explorer", "attention-lab": "lab", "two-heads": "heads",
           "positional-encoding": "clocks", "attention-heatmap": "table"}  # lesson: its figure
WIDTHS = {"laptop": 1280, "phone": 390}
SLACK = 0.5  # px: boxes that only touch do not overlap

ALL_LABELS = """() => Object.keys(window.explorables.figures).map(id =>
    ({ id, planes: window.explorables.figures[id].labels() }))"""


def overlap(a: dict, b: dict) -> float:
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return min(w, h)


def covers(box: dict, point: dict) -> bool:
    """Whether the box reaches into the point's disc."""
    nx = min(max(point["x"], box["x"]), box["x"] + box["width"])
    ny = min(max(point["y"], box["y"]), box["y"] + box["height"])
    return math.hypot(nx - point["x"], ny - point["y"]) < point["r"] - SLACK


def check(page, where: str) -> int:
    """Assert the placement rule on every plane of the page; return how many names were checked."""
    seen = 0
    for figure in page.evaluate(ALL_LABELS):
        for plane in figure["planes"]:
            at = f"{where} {figure['id']}/{plane['panel']}"
            assert plane["width"] > 0 and plane["height"] > 0, at
            names = plane["labels"]
            for n in names:
                assert n["text"], at
                assert n["x"] >= 0 and n["y"] >= 0, f"{at}: {n['text']!r} leaves the canvas: {n}"
                assert n["x"] + n["width"] <= plane["width"], f"{at}: {n['text']!r} leaves the canvas: {n}"
                assert n["y"] + n["height"] <= plane["height"], f"{at}: {n['text']!r} leaves the canvas: {n}"
                for p in plane["points"]:
                    assert not covers(n, p), f"{at}: {n['text']!r} covers point {p['id']}"
                for h in plane["heads"]:  # a reader's finding: "multi-head" ran into head 2's arrow
                    assert not covers(n, h), f"{at}: {n['text']!r} covers the head of arrow {h['id']}"
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    # a clear pixel between them: names that touch read as one ("itq₄")
                    assert overlap(a, b) <= -1 + SLACK, f"{at}: {a['text']!r} touches {b['text']!r}"
            # points drawn on one another never get two names side by side
            named = {m for n in names for m in (n["shared"] or [n["mark"]])}
            labelled = [p for p in plane["points"] if p["label"] and p["id"] in named]
            for i, p in enumerate(labelled):
                for q in labelled[i + 1:]:
                    if math.hypot(p["x"] - q["x"], p["y"] - q["y"]) < 3:
                        assert any(n["shared"] and {p["id"], q["id"]} <= set(n["shared"]) for n in names), \
                            f"{at}: {p['id']} and {q['id']} coincide and are named twice"
            seen += len(names)
    return seen


def shoot(page, lesson: str, width: str, moment: str) -> None:
    folder = os.environ.get("EXPLORABLES_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for i, canvas in enumerate(page.locator(".ex-plane canvas").all()):
        canvas.scroll_into_view_if_needed()
        canvas.evaluate("c => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # drawn near the view
        canvas.screenshot(path=str(Path(folder) / f"{lesson}-{width}-{moment}-{i}.png"))


def drag_onto_another(page, figure: dict) -> bool:
    """Drag a draggable point with the mouse onto the next draggable point of its plane."""
    for panel in figure["scene"]["panels"]:
        movable = [m["id"] for m in panel.get("marks", []) if m["kind"] == "point" and m.get("draggable")]
        if panel["kind"] != "plane" or len(movable) < 2:
            continue
        x0, y0 = mark_position(page, figure["id"], panel["id"], movable[1])
        x1, y1 = mark_position(page, figure["id"], panel["id"], movable[2 % len(movable)])
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x1, y1, steps=12)
        page.mouse.up()
        idle(page, figure["id"])
        return True
    return False


def slide(page, figure: dict) -> bool:
    """Move the figure's first slider three steps with the keyboard."""
    slider = page.locator(f"figure#{figure['id']} input[type=range]").first
    if not slider.count():
        return False
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    idle(page, figure["id"])
    return True


def ask_another(page, figure: dict) -> bool:
    """Pick another asking word in the figure's query menu."""
    menu = page.locator(f"figure#{figure['id']} select[name=query]")
    if not menu.count():
        return False
    options = menu.locator("option").all()
    current = menu.input_value()
    other = next(o.get_attribute("value") for o in options if o.get_attribute("value") != current)
    menu.select_option(other)
    idle(page, figure["id"])
    return True


def reset(page, figure: dict) -> bool:
    """Press the figure's Reset (a reader's finding: lesson 4's names were placed otherwise
    after it, one on an arrow's head)."""
    button = page.locator(f"figure#{figure['id']}").get_by_role("button", name="Reset", exact=True)
    if not button.count():
        return False
    button.first.click()
    idle(page, figure["id"])
    return True


@pytest.fixture(scope="module")
def unstarted(browser, site_url, browser_context_args):
    """A page whose Python never starts: its WebAssembly is never answered, which keeps
    this cheap and the engine surely not live (one page for both widths)."""
    for page, guard in module_page(browser, site_url, browser_context_args):
        held_for_good(page, re.compile(r".*\.wasm$"))
        yield page, guard


@pytest.mark.parametrize("width", WIDTHS)
def test_first_frames_name_every_point_without_overlaps(unstarted, site_url, width):
    """Before Python is live: each lesson is opened only as far as its first frame."""
    page, guard = unstarted
    clear(guard)
    page.set_viewport_size({"width": WIDTHS[width], "height": 900})
    for lesson in LESSONS:
        page.goto(site_url + lesson + ".html", wait_until="domcontentloaded")
        # its figure brought into view and made whole (boot.js draws a figure as it comes near,
        # figure.js a few panels a frame)
        page.locator(f"figure#{LESSONS[lesson]}").scroll_into_view_if_needed()
        page.wait_for_function(
            "id => { const ex = window.explorables, f = ex && ex.figures && ex.figures[id]; return f && !f.pieces; }",
            arg=LESSONS[lesson],
        )
        live = page.evaluate("() => document.querySelectorAll('figure.ex-live').length")
        planes = sum(len(f["planes"]) for f in page.evaluate(ALL_LABELS))
        first = check(page, f"{lesson} at {width}, first frame:")
        if planes:
            assert first > 0, "a lesson with planes draws names in its first frame"
        assert live == 0, "the engine was live already: this was not the first frame"
    # leaving each lesson while its engine still loads cancels that download (the worker's
    # script, Pyodide, the engine archive), and only that
    guard.failed[:] = [f for f in guard.failed if not (f.endswith("(net::ERR_ABORTED)") and "/_explorables/" in f)]
    guard.check()


shared = shared_page()


# every lesson at one width, then at the other: the page is laid out anew for a width once
@pytest.mark.parametrize("lesson, width", [(lesson, width) for width in WIDTHS for lesson in LESSONS],
                         ids=lambda value: value)
def test_no_name_overlaps_another_leaves_its_canvas_or_covers_a_point(shared, site_url, lesson, width):
    if shared[0].viewport_size != {"width": WIDTHS[width], "height": 900}:
        shared[0].set_viewport_size({"width": WIDTHS[width], "height": 900})
    for page in in_lesson(shared, site_url + lesson + ".html", LESSONS[lesson]):
        shoot(page, lesson, width, "before")
        first = check(page, f"{lesson} at {width}, live:")
        figures = page.evaluate("""() => Object.keys(window.explorables.figures).map(id =>
            ({ id, scene: window.explorables.figures[id].scene }))""")
        done = []
        for figure in figures:
            for action in (drag_onto_another, slide, ask_another, reset):
                if action(page, figure):
                    done.append(action.__name__)
                    check(page, f"{lesson} at {width}, after {action.__name__} in {figure['id']}:")
        shoot(page, lesson, width, "after")
        planes = sum(len(f["planes"]) for f in page.evaluate(ALL_LABELS))
        if planes:
            assert first > 0, "a lesson with planes draws names"
            assert done, "a reader action was tried"
        if lesson in ("one-query-row", "attention-lab"):
            assert {"drag_onto_another", "slide", "ask_another"} <= set(done)


@pytest.fixture
def row(shared, site_url):
    yield from in_lesson(shared, site_url + "one-query-row.html", "explorer")


def test_a_dragged_point_keeps_its_name_on_one_side(row):
    """Moving a key a few pixels at a time, back and forth, its name stays on one side."""
    page = row
    x, y = mark_position(page, "explorer", "keys", "key-1")

    def side() -> str:
        """Once the figure has computed and drawn the move: the side of key-1's name."""
        (plane,) = [p for p in page.evaluate("""() => window.explorables.figures.explorer.idle()
            .then(() => window.explorables.figures.explorer.labels())""") if p["panel"] == "keys"]
        (name,) = [n for n in plane["labels"] if n["mark"] == "key-1" or "key-1" in (n["shared"] or [])]
        return name["side"]

    page.mouse.move(x, y)
    page.mouse.down()
    sides = []
    for dx in (3, 6, 9, 6, 3, 0, -3, -6, -3, 0, 3, 6):
        page.mouse.move(x + dx, y + dx / 3)
        sides.append(side())
    page.mouse.up()
    changes = sum(1 for a, b in zip(sides, sides[1:]) if a != b)
    assert changes <= 1, sides


PLACE = """([jitter, keep]) => {
    const ex = window.explorables;
    const c = document.createElement('canvas');
    const ctx = c.getContext('2d');
    // a strip so low that only the right and left of a point are on the canvas
    const view = { sx: x => x, sy: y => y, width: 300, height: 24, xs: [0, 300], ys: [-1, -1],
                   selected: null, color: () => '#000', isHot: () => false };
    const previous = {};
    const sides = [];
    for (const dx of jitter) {
        // a line runs into each side's spot: as the point moves a pixel right, its right
        // spot covers a little more of one line and its left spot a little less of the other
        const marks = [
            { kind: 'point', id: 'p', x: 150 + dx, y: 12, label: 'word' },
            { kind: 'line', points: [[170, 12], [300, 12]] },
            { kind: 'line', points: [[0, 12], [130, 12]] },
        ];
        const placed = ex.labels.place(ctx, view, marks, { previous: keep ? previous : {} });
        sides.push(placed[0].side);
    }
    return sides;
}"""


def test_labels_keep_their_side_across_a_near_tie(row):
    """Where two sides are nearly as good, a point jittering by a pixel flips between them
    when nothing is remembered, and keeps its side with the previous drawing's sides."""
    page = row
    jitter = [1, -1, 1, -1, 1, -1, 1, -1]
    forgetful = page.evaluate(PLACE, [jitter, False])
    assert len(set(forgetful)) == 2, forgetful  # the setting is a real near tie
    steady = page.evaluate(PLACE, [jitter, True])
    assert len(set(steady)) == 1, steady


SHARE = """(texts) => {
    const ex = window.explorables;
    const c = document.createElement('canvas');
    const ctx = c.getContext('2d');
    const view = { sx: x => x, sy: y => y, width: 300, height: 200, xs: [1, 299], ys: [1, 199],
                   selected: 'b', color: () => '#000', isHot: () => false };
    const marks = texts.map((t, i) => ({ kind: 'point', id: 'abcdefgh'[i], x: 100 + (i % 2), y: 100, label: t }));
    marks.push({ kind: 'point', id: 'far', x: 250, y: 50, label: 'far' });
    return ex.labels.place(ctx, view, marks, {}).map(p => [p.text, p.key, p.members || null]);
}"""


def test_points_on_one_another_share_one_name(row):
    page = row
    placed = page.evaluate(SHARE, ["the₀", "the₄"])
    # the selected point (b) leads its group
    assert placed == [["the₀/the₄", "point:b", ["b", "a"]], ["far", "point:far", None]]
    crowd = page.evaluate(SHARE, ["because", "hungry", "chased", "mouse", "rather"])
    assert crowd[0][0] == "5 points"
