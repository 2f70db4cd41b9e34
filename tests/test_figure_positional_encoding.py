"""The positional-encoding figure model: its options and events, and the helpers its
other test file imports (the scene, golden first frame and lesson:
test_figure_positional_encoding_scene.py).

Every number the figure shows must be the engine's: the clock hands are the entries of
``engine.sinusoidal``, the similarity curve equals ``engine.pe_similarity`` of the offset
to 1e-12 (it is computed from the dot products of the two codes), and the read-out is
``engine.pe_similarity``. The scene must survive ``json.dumps(..., allow_nan=False)``.
"""
from __future__ import annotations

import json
from functools import partial

import pytest

from explorables import engine
from explorables.engine import runtime
from explorables.engine.figures import FIGURES, FieldError
from explorables.figures import num
from figure_helpers import ROOT, control, panel
import figure_helpers

FIG = FIGURES["positional-encoding"]
GOLDEN = ROOT / "tests" / "golden" / "positional_encoding.json"
LESSON = ROOT / "content" / "05-positional-encoding.md"
EXPERIMENTS = [e.name for e in FIG.experiments]


first_state = partial(figure_helpers.first_state, FIG)  # first_state(query="it")
errors_of = partial(figure_helpers.errors_of, FIG)  # errors_of({"dim": "5"}) -> [(option, message)]


def set_(state, name, value):
    return FIG.apply(state, {"type": "set", "name": name, "value": value})


def refused(state, name, value) -> str:
    """The message a refused input gets; the runtime keeps the state."""
    with pytest.raises(FieldError) as info:
        set_(state, name, value)
    assert info.value.name == name
    reply = runtime.step("positional-encoding", state, {"type": "set", "name": name, "value": value})
    assert reply == {"ok": False, "error": info.value.message, "field": name}
    return info.value.message


# --- options ------------------------------------------------------------------------------


def test_defaults():
    state = first_state()
    assert (state["t"], state["dim"], state["base"], state["offset"]) == (0, 32, 10000.0, 8)
    assert state["positions"] == 64 and state["playing"] is False
    assert json.loads(json.dumps(state, allow_nan=False)) == state
    names = [o.name for o in FIG.options]
    assert names == ["position", "dim", "base", "offset", "positions"]
    assert all(o.doc.strip() for o in FIG.options)


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"dim": "5"}, [("dim", "expected an even integer from 4 to 64, got 5")]),
        ({"dim": "2"}, [("dim", "expected an integer from 4 to 64, got '2'")]),
        ({"dim": "66"}, [("dim", "expected an integer from 4 to 64, got '66'")]),
        ({"dim": "x"}, [("dim", "expected an integer from 4 to 64, got 'x'")]),
        ({"base": "1"}, [("base", "expected a number from 2 to 100000, got '1'")]),
        ({"base": "inf"}, [("base", "expected a number from 2 to 100000, got 'inf'")]),
        ({"position": "-1"}, [("position", "expected an integer from 0 to 256, got '-1'")]),
        ({"position": "70"}, [("position", "expected an integer from 0 to 64 (the value of :positions:), got 70")]),
        ({"offset": "20", "positions": "16"},
         [("offset", "expected an integer from 0 to 16 (the value of :positions:), got 20")]),
        ({"positions": "4"}, [("positions", "expected an integer from 8 to 256, got '4'")]),
        ({"bse": "100"}, [("bse", "unknown option 'bse'; did you mean 'base'? "
                                  "(known options: position, dim, base, offset, positions)")]),
        ({"dim": "7", "base": "0"}, [("dim", "expected an even integer from 4 to 64, got 7"),
                                     ("base", "expected a number from 2 to 100000, got '0'")]),
    ],
)
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


def test_options_set_the_first_state():
    state = first_state(position=5, dim=16, base=100, offset=3, positions=32)
    assert (state["t"], state["dim"], state["base"], state["offset"], state["positions"]) == (5, 16, 100.0, 3, 32)
    moved = FIG.patch(state, {"t": 9, "dim": 8, "base": "10", "offset": 1})
    back = FIG.apply(moved, {"type": "action", "name": "reset"})  # reset returns to the options
    assert (back["t"], back["dim"], back["base"], back["offset"], back["positions"]) == (5, 16, 100.0, 3, 32)


# --- events -------------------------------------------------------------------------------


def test_sliders_set_t_offset_and_dimension():
    state = first_state()
    state = set_(state, "t", 12.0)
    state = set_(state, "offset", "3")
    state = set_(state, "dim", 8)
    assert (state["t"], state["offset"], state["dim"]) == (12, 3, 8)
    values = FIG.scene(state)["values"]
    assert values["pe"] == engine.sinusoidal(12, 8, 10000)
    assert values["similarity_at_offset"] == engine.pe_similarity(3, 8, 10000)


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("t", 65, "position t must be a whole number from 0 to 64, got 65"),
        ("t", 2.5, "position t must be a whole number from 0 to 64, got 2.5"),
        ("t", "abc", "position t must be a number, got 'abc'"),
        ("offset", -1, "offset k must be a whole number from 0 to 64, got -1"),
        ("dim", 7, "dimension D must be even, got 7"),
        ("dim", 2, "dimension D must be a whole number from 4 to 64, got 2"),
        ("base_text", "abc", "base b must be a number, got 'abc'"),
        ("base_text", "1e999", "base b must be a finite number, got '1e999'"),
        ("base_text", "", "base b is empty: type a number such as 10000"),  # one it takes (was 0.5)
        ("base_text", "1", "base b must be from 2 to 100000, got 1"),
        ("base_text", "2e6", "base b must be from 2 to 100000, got 2e6"),
        ("base", "nan", "base b must be a finite number, got 'nan'"),
        ("playing", "maybe", "playing must be true or false, got 'maybe'"),
        ("colour", 1, "positional-encoding has no control named 'colour'"),
    ],
)
def test_bad_input_is_refused_with_exact_text(name, value, message):
    state = first_state()
    assert refused(state, name, value) == message
    assert state == first_state()


def test_base_from_the_select_or_typed():
    state = set_(first_state(), "base", "100")
    assert state["base"] == 100.0
    assert FIG.scene(state)["values"]["similarity_at_offset"] == pytest.approx(0.401, abs=5e-4)
    state = set_(state, "base_text", " 500 ")
    assert state["base"] == 500.0
    select = control(FIG.scene(state), "base")
    assert select["value"] == "500"
    assert [o["value"] for o in select["options"]] == ["10", "100", "500", "1000", "10000", "100000"]
    assert control(FIG.scene(state), "base_text")["value"] == "500"


def test_play_ticks_and_wraps():
    state = set_(first_state(positions=8), "playing", True)
    assert state["playing"] is True
    play = control(FIG.scene(state), "playing")
    assert play["kind"] == "play" and play["playing"] is True
    assert play["event"] == {"type": "action", "name": "tick"} and play["interval"] > 0
    seen = []
    for _ in range(10):
        state = FIG.apply(state, play["event"])
        seen.append(state["t"])
    assert seen == [1, 2, 3, 4, 5, 6, 7, 8, 0, 1]
    assert set_(state, "playing", False)["playing"] is False


def test_dragging_the_probe_sets_the_offset_on_either_side():
    state = set_(first_state(), "t", 20)
    state = FIG.apply(state, {"type": "drag", "mark": "probe", "x": 31.4, "y": 0.2})
    assert state["offset"] == 11
    state = FIG.apply(state, {"type": "drag", "mark": "probe", "x": 14.6, "y": -3})
    assert state["offset"] == 5  # s = 15, five before t
    state = FIG.apply(state, {"type": "drag", "mark": "probe", "x": 900, "y": 0})
    assert state["offset"] == 44  # clamped to the chart's last position, 64
    with pytest.raises(ValueError, match="only the probe on the chart can be dragged, got mark 'hand'"):
        FIG.apply(state, {"type": "drag", "mark": "hand", "index": 0, "x": 0, "y": 0})


def probe_x(state) -> float:
    (probe,) = [m for m in panel(FIG.scene(state), "similarity")["marks"] if m.get("id") == "probe"]
    return probe["x"]


def drag_probe(state, x):
    return FIG.apply(state, {"type": "drag", "mark": "probe", "x": x, "y": 0.5})


def test_a_probe_dragged_before_t_stays_under_the_pointer():
    """Regression: the state kept only k = |s - t| and drew the probe at t + k, so with
    t = 10 a probe dragged to 9 jumped to 11."""
    state = set_(first_state(), "t", 10)
    for s in (9, 3, 0, 10, 12, 64, 7):
        state = drag_probe(state, s)
        assert probe_x(state) == s and state["offset"] == abs(s - 10)


def test_arrow_keys_move_the_probe_steadily_through_t():
    """Regression: at k = 0 ArrowLeft sent the probe to t - 1, which the figure drew at
    t + 1; the next ArrowLeft sent it back to t, so k flipped between 0 and 1. The
    renderer moves the probe from where it is drawn, as this test does."""
    state = FIG.patch(first_state(), {"t": 10, "offset": 0})
    seen = []
    for step in [-1] * 4 + [1] * 8:  # ArrowLeft four times, then ArrowRight eight times
        state = drag_probe(state, probe_x(state) + step)
        seen.append(probe_x(state))
    assert seen == [9, 8, 7, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    assert state["offset"] == 4 and state["side"] == 1


def test_the_probe_keeps_its_side_as_t_and_k_change_and_flips_only_at_an_end():
    state = drag_probe(set_(first_state(), "t", 20), 15)  # five before t
    assert probe_x(set_(state, "t", 30)) == 25  # still before t
    assert probe_x(set_(state, "offset", 9)) == 11
    assert probe_x(set_(state, "offset", 20)) == 0
    assert probe_x(set_(state, "offset", 30)) == 50  # no room before t: shown after it
    assert FIG.apply(state, {"type": "action", "name": "reset"}) == first_state()


def test_probe_sits_on_the_curve_and_flips_side_near_the_end():
    state = FIG.patch(first_state(), {"t": 60, "offset": 8})
    chart = panel(FIG.scene(state), "similarity")
    (probe,) = [m for m in chart["marks"] if m.get("id") == "probe"]
    assert probe["x"] == 52.0  # 60 + 8 is off the chart: the probe shows s = t - k
    assert probe["y"] == engine.pe_similarity(8, 32, 10000)
    assert probe["draggable"] is True


def test_experiment_messages_quote_the_engine():
    start = first_state()
    msg = FIG.apply(start, {"type": "action", "name": "base-10000"})["message"]
    assert "similarity 0.66 (base 100 gives 0.40)" in msg
    msg = FIG.apply(start, {"type": "action", "name": "base-100"})["message"]
    assert "similarity 0.40 (base 10000 gives 0.66)" in msg
    state = FIG.apply(start, {"type": "action", "name": "shift"})
    assert state["t"] == 30
    same = f"{engine.pe_similarity(8, 32, 10000):.4f}"
    assert f"PE(0)·PE(8)/16 = {same} and PE(30)·PE(38)/16 = {same}" in state["message"]
    state = FIG.apply(start, {"type": "action", "name": "few"})
    assert (state["dim"], state["base"]) == (4, 100.0)
    curve = [engine.pe_similarity(s, 4, 100) for s in range(1, 65)]
    low = min(range(64), key=curve.__getitem__)
    assert f"position {low + 1} has similarity {num(curve[low])}" in state["message"]


def test_moving_t_to_30_needs_thirty_positions():
    """A chart of fewer positions has no t = 30: the button is left out, and the action
    says what it needs instead of drawing t off the chart."""
    short = first_state(positions=16)
    buttons = control(FIG.scene(short), "experiments")
    assert [i["name"] for i in buttons["items"]] == ["base-10000", "base-100", "fast-slow", "few", "reset"]
    with pytest.raises(ValueError, match="the experiment 'shift' needs positions of 30 or more"):
        FIG.apply(short, {"type": "action", "name": "shift"})


def test_the_manifest_declares_parameters_values_and_experiments():
    manifest = FIG.manifest()
    json.dumps(manifest, allow_nan=False)
    assert [(p["name"], p["kind"], p["option"]) for p in manifest["params"]] == [
        ("playing", "play", False), ("t", "slider", False), ("offset", "slider", True),
        ("dim", "slider", True), ("base", "select", True)]
    formats = {v["name"]: v["format"] for v in manifest["values"]}
    assert formats == {"t": "integer", "D": "integer", "base": "decimal", "offset": "integer",
                       "similarity_at_offset": "decimal", "pe": "vector", "similarity": "matrix",
                       "playing": "bool"}
    assert [v["name"] for v in manifest["values"] if v["announce"]] == ["similarity_at_offset"]
    assert [e["name"] for e in manifest["experiments"]] == EXPERIMENTS
    values = FIG.scene(first_state())["values"]
    assert [v.text(values[v.name]) for v in FIG.values[:5]] == ["0", "32", "10000", "8", "0.66"]


def test_reset_and_unknown_events():
    start = first_state(dim=16)
    state = FIG.apply(start, {"type": "action", "name": "base-100"})
    state = set_(state, "playing", True)
    assert FIG.apply(state, {"type": "action", "name": "reset"}) == start
    with pytest.raises(ValueError, match="no action 'jump'"):
        FIG.apply(start, {"type": "action", "name": "jump"})
    with pytest.raises(ValueError, match="does not know the event type 'select'"):
        FIG.apply(start, {"type": "select", "mark": "tip", "index": 0})
