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


def _lean_and_whole(name: str, event: dict) -> tuple[dict, dict]:
    fig = FIGURES[name]
    state = fig.initial_state(fig.parse_options({}))
    message = {"figure": name, "state": state, "event": event}
    whole = json.loads(runtime.handle(json.dumps(message)))
    lean = json.loads(runtime.handle(json.dumps({**message, "lean": True})))
    return lean, whole


@pytest.mark.parametrize("name", ["attention-heatmap", "attention-row", "attention-lab"])
def test_a_lean_step_leaves_out_the_cells_arithmetic_as_a_first_frame_does(name):
    """A step the page asks "lean" (no cell's arithmetic looked at) is the whole scene
    without its cells' ``detail``: the same form the build writes a first frame in, so
    the page asks for the rest in the same way; every other part is the same."""
    from explorables.site_builder.markdown.directives.figure import first_frame

    lean, whole = _lean_and_whole(name, {"type": "patch", "patch": {}})
    assert lean["ok"] and lean["state"] == whole["state"]
    explained = [p["id"] for p in whole["scene"]["panels"] if p["kind"] == "cells"
                 and any(cell.get("detail") for row in p["rows"] for cell in row)]
    assert explained, "the figure has a table with arithmetic"
    assert [p["id"] for p in lean["scene"]["panels"] if p.get("detail_later")] == explained
    framed = first_frame({"scene": whole["scene"]})["scene"]
    cells = lambda scene: [p for p in scene["panels"] if p["kind"] == "cells"]  # noqa: E731
    assert cells(lean["scene"]) == cells(framed)
    others = lambda scene: {k: v for k, v in scene.items() if k != "panels"}  # noqa: E731
    assert others(lean["scene"]) == others(whole["scene"])
    assert [p for p in lean["scene"]["panels"] if p["kind"] != "cells"] == \
        [p for p in whole["scene"]["panels"] if p["kind"] != "cells"]
    # the heatmap's 144 cells: its arithmetic is more than half of its answer
    assert len(json.dumps(lean)) < (0.5 if name == "attention-heatmap" else 1) * len(json.dumps(whole))


def test_a_lean_step_calls_no_detail_and_leaves_a_given_list_as_it_is():
    from explorables.engine.figures.kit import cells
    from explorables.engine.figures.kit.marks import lean

    called = []

    def detail(i, j):
        called.append((i, j))
        return [f"{i}·{j}"]

    with lean():
        later = cells("t", 2, 2, text="x", detail=detail)
        given = cells("u", 1, 2, text="x", detail=[[["a"], ["b"]]])
    assert called == []
    assert later["detail_later"] is True and [c["detail"] for row in later["rows"] for c in row] == [[]] * 4
    assert "detail_later" not in given and [c["detail"] for c in given["rows"][0]] == [["a"], ["b"]]
    whole = cells("t", 2, 2, text="x", detail=detail)  # outside: every cell's arithmetic, as before
    assert "detail_later" not in whole and whole["rows"][1][0]["detail"] == ["1·0"] and len(called) == 4


def test_a_failing_figure_leaves_lean_mode_off_for_the_next_step(row_state, monkeypatch):
    from explorables.engine.figures.kit.marks import _LEAN

    def broken(state):
        assert _LEAN.get() is True
        raise KeyError("oops")

    monkeypatch.setattr(FIGURES["attention-row"], "scene", broken)
    out = runtime.step("attention-row", row_state, {"type": "patch", "patch": {}}, lean=True)
    assert out["internal"] and _LEAN.get() is False
