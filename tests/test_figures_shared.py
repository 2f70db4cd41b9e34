"""Rules every figure keeps, checked once for all of them."""
from __future__ import annotations

import pytest

from explorables.engine.figures import FIGURES
from explorables.figures import HINT
from figure_helpers import control, first_state

NAMES = sorted(FIGURES)


@pytest.mark.parametrize("name", NAMES)
def test_every_control_sits_under_the_panel_it_changes_on_a_phone(name):
    scene = FIGURES[name].scene(first_state(FIGURES[name]))
    ids = {p["id"] for p in scene["panels"]}
    for c in scene["controls"]:
        assert c.get("near") in ids, c["name"]


@pytest.mark.parametrize("name", NAMES)
def test_an_experiments_result_stays_folded_until_the_reader_opens_it(name):
    """The reference pages let the reader predict first: the result waits behind
    "What you should see"."""
    fig = FIGURES[name]
    start = first_state(fig)
    buttons = control(fig.scene(start), "experiments")
    assert "reveal" not in buttons and buttons["message"] == HINT
    for item in buttons["items"]:
        state = fig.apply(start, {"type": "action", "name": item["name"]})
        shown = control(fig.scene(state), "experiments")
        if item["name"] == "reset":  # the hint is no result: shown as it is
            assert "reveal" not in shown and shown["message"] == HINT
        else:
            assert shown["reveal"] == "What you should see"
            assert shown["message"] == state["message"] != HINT
