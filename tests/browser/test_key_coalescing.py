"""Key presses that come faster than the engine answers, in real Chromium: every press
counts. Pins a bug: ten ArrowUp presses sent at once moved a key of the one-query-row
explorer five steps, not ten (an answer to an early press put the point back where that
press had left it, and the next press stepped on from there)."""
from __future__ import annotations

import math

import pytest

from helpers import assert_matches_cpython, idle, in_lesson, shared_page, state_of

FIG = "explorer"
PAGE = "one-query-row.html"
STEP = 0.1  # the key plane's keyboard step (engine/figures/attention_row/scene.py)


def stepped(x: float, sign: int, presses: int) -> float:
    """Where ``presses`` steps take a coordinate: each lands on the grid of steps, as
    panels/plane.js rounds it (Math.round, then six decimals)."""
    for _ in range(presses):
        x = round(math.floor((x + sign * STEP) / STEP + 0.5) * STEP, 6)
    return x

shared = shared_page()


@pytest.fixture
def row(shared, site_url):
    yield from in_lesson(shared, site_url + PAGE, FIG)


@pytest.mark.parametrize(("key", "point", "axis", "sign"), [("ArrowUp", 2, 1, 1), ("ArrowLeft", 1, 0, -1)])
def test_ten_presses_at_once_move_a_point_ten_steps(row, key, point, axis, sign):
    before = state_of(row, FIG)["k"]
    canvas = row.locator("figure#explorer .ex-plane canvas").first
    canvas.scroll_into_view_if_needed()
    canvas.focus()
    row.keyboard.press(str(point + 1))  # the key of word ``point`` (its digit picks it)
    for _ in range(10):
        row.keyboard.press(key)  # no wait: the engine answers the first while the others come
    idle(row, FIG)
    after = state_of(row, FIG)["k"]
    assert after[point][axis] == pytest.approx(stepped(before[point][axis], sign, 10), abs=1e-9)
    assert abs(after[point][axis] - before[point][axis]) > 9 * STEP  # (not five steps, nor nine)
    assert after[point][1 - axis] == before[point][1 - axis]
    assert after[:point] == before[:point] and after[point + 1:] == before[point + 1:]
    # the point is drawn where the state has it, and the numbers are the engine's for it
    drawn = row.evaluate("""id => {
        const f = window.explorables.figures.explorer;
        const plane = f.scene.panels.find(p => p.id === 'keys');
        const m = plane.marks.find(m => m.id === id);
        return [m.x, m.y];
    }""", f"key-{point}")
    assert drawn == pytest.approx(after[point], abs=1e-9)
    assert_matches_cpython(row, FIG, "attention-row")
