"""Contrast of the stylesheet's colours in both schemes (issue 12, WCAG 2.1 1.4.3 and
1.4.11), computed exactly from the custom properties in static/css/ (joined into explorables.css): text at
4.5:1, marks and component borders at 3:1. The browser test (tests/browser/test_axe.py)
checks the colours the page really computes for every cell."""
from __future__ import annotations

import pytest

from colours import contrast, mix, rgb, scheme

SCHEMES = ("light", "dark")
# Roles the canvas draws as text (names of points and arrows, label marks, tick numbers)
# and as marks; all sit on the canvas, whose background is --ex-bg.
TEXT_ROLES = ("text", "muted", "query", "key", "value", "output", "own", "accent", "head1", "head2")
MARK_ROLES = TEXT_ROLES + ("hull", "axis", "positive", "negative")
CELL_ROLES = ("positive", "negative")
MAX_SHARE = 0.75  # cells.js: a tone of 1 fills a cell with 75% of its role's colour


@pytest.fixture(params=SCHEMES)
def colours(request):
    return {name: rgb(value) for name, value in scheme(request.param).items() if value.startswith("#")}


def test_the_dark_scheme_overrides_the_light_one():
    light, dark = scheme("light"), scheme("dark")
    assert light["bg"] == "#fdfcf9" and dark["bg"] == "#15171a"
    assert {"focus-halo", "control-line"} <= set(dark)


@pytest.mark.parametrize("role", TEXT_ROLES)
def test_canvas_text_reads_at_4_5_to_1(colours, role):
    assert contrast(colours[role], colours["bg"]) >= 4.5


@pytest.mark.parametrize("role", MARK_ROLES)
def test_marks_stand_3_to_1_off_the_canvas(colours, role):
    """Points, arrows, lines, hull outlines, axes and clock faces (role axis), drawn at
    full strength (a muted point is the muted colour, not a faded one)."""
    assert contrast(colours[role], colours["bg"]) >= 3


@pytest.mark.parametrize("text", ["text", "soft", "link", "accent", "error", "caution"])
def test_page_text_reads_on_page_and_panel(colours, text):
    for ground in ("bg", "panel"):
        assert contrast(colours[text], colours[ground]) >= 4.5, ground


def test_field_and_button_borders_stand_3_to_1(colours):
    """An input's or button's border against the panel around it and its own fill."""
    for ground in ("bg", "panel"):
        assert contrast(colours["control-line"], colours[ground]) >= 3, ground


def fills(colours):
    """Every fill a focused element or its ring can sit on: page, panel, canvas, any
    tinted cell, an active button."""
    out = {"bg": colours["bg"], "panel": colours["panel"],
           "active button": mix(colours["accent"], colours["bg"], 0.14)}
    for role in CELL_ROLES:
        for pct in range(0, int(MAX_SHARE * 100) + 1):
            out[f"{role} {pct}%"] = mix(colours[role], colours["panel"], pct / 100)
    return out


def test_focus_ring_stands_3_to_1_off_every_fill(colours):
    """The ring is two bands, the halo inside the focus colour: they differ by 3:1, so the
    ring is seen whatever is under it, and one band stands 3:1 off every fill."""
    focus, halo = colours["focus"], colours["focus-halo"]
    assert contrast(focus, halo) >= 3
    for name, fill in fills(colours).items():
        assert max(contrast(focus, fill), contrast(halo, fill)) >= 3, name
    for ground in ("bg", "panel"):  # on the plain page both bands do
        assert contrast(focus, colours[ground]) >= 3


def ink(colours, share, role, muted=False):
    """cells.js's choice: the cell's own text colour if it reads at 4.5:1 on the final
    fill, else the darker or lighter ink, whichever reads better."""
    fill = mix(colours[role], colours["panel"], share)
    own = colours["soft" if muted else "text"]
    if contrast(own, fill) >= 4.5:
        return own, fill
    dark, light = colours["ink-dark"], colours["ink-light"]
    return (dark if contrast(dark, fill) >= contrast(light, fill) else light), fill


@pytest.mark.parametrize("muted", [False, True])
def test_every_tinted_cell_reads_at_4_5_to_1(colours, muted):
    """Regression: dark text on mid-tone fills was 2.3-2.7:1 in the dark scheme."""
    for role in CELL_ROLES:
        for pct in range(0, int(MAX_SHARE * 100) + 1):
            share = pct / 100 * (0.5 if muted else 1)
            text, fill = ink(colours, share, role, muted)
            assert contrast(text, fill) >= 4.5, (role, pct)
