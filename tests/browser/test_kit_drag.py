"""A draggable arrow (the kit's arrows(..., draggable=True)) in real Chromium: the mouse
drags it by its head, and the keyboard picks it with a digit and moves it with the arrow
keys, as it does a point; each sends the drag event the author's on_drag reads. The
figure is an author's (tests/fixtures/figures/vector_drag.py), its vector option read by
its Hidden parameter's parse."""
from __future__ import annotations

import pytest

from author_site import lay_out
from figure_helpers import ROOT
from helpers import assert_matches_cpython, each_fresh, mark_position, module_page, served_site, state_of

FIG = "pair"
LESSON = """---
title: Vectors
order: 1
---

Drag the heads.

:::{vector-drag} pair
:u: 1, 0.5
:::
"""


@pytest.fixture(scope="module")
def vectors_url(tmp_path_factory):
    site = tmp_path_factory.mktemp("vectors")
    lay_out(site, "01-vectors.md", LESSON, "vector_drag.py",
            (ROOT / "tests" / "fixtures" / "figures" / "vector_drag.py").read_text())
    yield from served_site(site)


@pytest.fixture(scope="module")
def shared(browser, vectors_url, browser_context_args):
    yield from module_page(browser, vectors_url, browser_context_args)


@pytest.fixture
def vectors(shared, vectors_url):
    yield from each_fresh(shared, vectors_url + "vectors.html", FIG)


def test_the_option_reached_the_state_through_parse(vectors):
    assert state_of(vectors, FIG)["u"] == [1.0, 0.5]


def test_an_arrow_is_dragged_by_its_head_with_the_mouse(vectors):
    x, y = mark_position(vectors, FIG, "vectors", "vec-0")
    vectors.mouse.move(x - 3, y + 2)  # near the head, not on its very tip
    vectors.mouse.down()
    vectors.mouse.move(x + 40, y - 60, steps=8)
    vectors.mouse.up()
    values = assert_matches_cpython(vectors, FIG, "vector-drag")
    u, v = values["u"], values["v"]
    assert u[0] > 1.2 and u[1] > 0.8, u  # right and up, in data units
    assert v == [0.0, 1.0]
    x2, y2 = mark_position(vectors, FIG, "vectors", "vec-0")  # the head is drawn where it was let go
    assert abs(x2 - (x + 40)) < 8 and abs(y2 - (y - 60)) < 8


def test_the_shaft_of_an_arrow_is_no_handle(vectors):
    x, y = mark_position(vectors, FIG, "vectors", "vec-0")  # u's head, at (1, 0.5)
    x0, top = mark_position(vectors, FIG, "vectors", "vec-1")  # v's head, at (0, 1)
    k = x - x0  # px a unit (the plane is square)
    vectors.mouse.move(x0 + 0.5 * k, top + 0.75 * k)  # the middle of u's shaft, (0.5, 0.25)
    vectors.mouse.down()
    vectors.mouse.move(x + 40, y + 40, steps=4)
    vectors.mouse.up()
    assert state_of(vectors, FIG)["u"] == [1.0, 0.5]


def test_an_arrow_is_picked_and_moved_with_the_keyboard(vectors):
    canvas = vectors.locator(f"figure#{FIG} .ex-plane canvas").first
    assert canvas.get_attribute("role") == "application"
    canvas.focus()
    vectors.keyboard.press("2")  # v, the second draggable arrow
    vectors.keyboard.press("ArrowRight")
    vectors.keyboard.press("Shift+ArrowUp")
    values = assert_matches_cpython(vectors, FIG, "vector-drag")
    assert values["v"] == pytest.approx([0.1, 1.5]) and values["u"] == [1.0, 0.5]
    # a screen reader hears where the head went (it heard "v at (—, —)": a point's x and y)
    vectors.wait_for_function("() => /v at \\(0[.]1\\d*, 1[.]5/.test(document.querySelector('.ex-announcer').textContent)")
    vectors.keyboard.press("p")  # the previous one: u
    vectors.keyboard.press("ArrowLeft")
    values = assert_matches_cpython(vectors, FIG, "vector-drag")
    assert values["u"] == pytest.approx([0.9, 0.5])
