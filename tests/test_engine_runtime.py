"""engine.runtime, the bridge the worker calls: refused input and bugs keep the state."""
from __future__ import annotations

import json

import pytest

from explorables.engine import runtime
from explorables.engine.figures import FIGURES


@pytest.fixture
def row_state():
    fig = FIGURES["attention-row"]
    return fig.initial_state(fig.parse_options({}))


def test_a_good_event_returns_the_new_state_and_scene(row_state):
    out = json.loads(runtime.handle(json.dumps({"figure": "attention-row", "state": row_state,
                                                "event": {"type": "set", "name": "temperature", "value": 2}})))
    assert out["ok"] and out["state"]["temperature"] == 2 and out["scene"]["values"]["temperature"] == 2


def test_refused_input_names_its_field(row_state):
    out = runtime.step("attention-row", row_state, {"type": "set", "name": "key.1.0", "value": "abc"})
    assert out == {"ok": False, "error": out["error"], "field": "key.1.0"} and "abc" in out["error"]


def test_a_patch_that_is_not_an_object_is_refused(row_state):
    out = runtime.step("attention-row", row_state, {"type": "patch", "patch": [1]})
    assert out["ok"] is False and "a patch an object of control names and values" in out["error"]


def test_a_bug_in_a_figure_is_reported_not_raised(row_state, monkeypatch):
    def broken(state):
        raise KeyError("oops")

    monkeypatch.setattr(FIGURES["attention-row"], "scene", broken)
    out = runtime.step("attention-row", row_state, {"type": "set", "name": "temperature", "value": 2})
    assert out == {"ok": False, "error": "internal error in attention-row: KeyError: 'oops'", "internal": True}


def test_an_unknown_figure_is_refused(row_state):
    assert runtime.step("no-such-figure", row_state, {"type": "set"}) == {
        "ok": False, "error": "unknown figure 'no-such-figure'"}
