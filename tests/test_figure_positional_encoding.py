"""The positional-encoding figure model: options, events, scene, and a golden first frame.

Every number the figure shows must be the engine's: the clock hands are the entries of
``engine.sinusoidal``, the similarity curve equals ``engine.pe_similarity`` of the offset
to 1e-12 (it is computed from the dot products of the two codes), and the read-out is
``engine.pe_similarity``. The scene must survive ``json.dumps(..., allow_nan=False)``.
"""
from __future__ import annotations

import json
import math
import re
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables import engine
from explorables.engine import runtime
from explorables import figures as common  # the kit: num, as the lesson's tests below write numbers
from explorables.engine.figures import FIGURES, FieldError
from explorables.engine.figures import positional_encoding as pe
from explorables.engine.figures.positional_encoding import clocks as pe_clocks
from explorables.figures import HINT, num
from figure_helpers import ROLES, ROOT, check_golden_split, control, is_num, lesson_as_built, lesson_figure, panel, questions
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


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_each_experiment_sets_the_controls_and_says_what_to_look_for(name):
    state = set_(first_state(), "t", 40)  # a reader's change, undone by the experiment
    new = FIG.apply(state, {"type": "action", "name": name})
    assert new["experiment"] == name and new["message"] != HINT
    assert "nan" not in new["message"].lower()
    scene = FIG.scene(new)
    buttons = control(scene, "experiments")
    assert buttons["message"] == new["message"]
    assert [i["name"] for i in buttons["items"] if i.get("active")] == [name]
    check_scene(scene, new)
    assert FIG.apply(first_state(), {"type": "action", "name": name}) == new


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
        ("playing", "play", False), ("t", "slider", False), ("dim", "slider", True),
        ("base", "select", True), ("offset", "slider", True)]
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


# --- scene invariants -------------------------------------------------------------------------

def check_scene(scene, state):
    """Everything SCENE.md asks of a scene, and the engine's numbers in every mark."""
    json.dumps(scene, allow_nan=False)
    t, D, b, k = state["t"], state["dim"], state["base"], state["offset"]
    code = engine.sinusoidal(t, D, b)
    s_probe = pe.probe_position(state)  # t + k, or t − k where t + k is off the chart
    assert abs(s_probe - t) == k
    later = engine.sinusoidal(s_probe, D, b)

    clocks = panel(scene, "clocks")
    assert clocks["kind"] == "plane" and clocks["square"] is True
    x0, x1 = clocks["x"]
    y0, y1 = clocks["y"]
    assert not (x0 <= 0 <= x1) and not (y0 <= 0 <= y1)  # no axis lines across the clocks
    marks = clocks["marks"]
    for m in marks:
        assert m["kind"] in {"circle", "arrow", "point", "label"} and m.get("role", "text") in ROLES
        for c in ("x", "y", "x1", "y1", "x2", "y2", "r"):
            if c in m:
                assert is_num(m[c])
    circles = [m for m in marks if m["kind"] == "circle"]
    hands = {m["id"]: m for m in marks if m["kind"] == "arrow"}
    labels = [m["text"] for m in marks if m["kind"] == "label"]
    assert len(circles) == D // 2 and labels == ["i=0"] + [str(i) for i in range(1, D // 2)]
    for i, circle in enumerate(circles):
        hand, dashed = hands[f"hand-{i}"], hands[f"later-{i}"]
        assert (hand["x1"], hand["y1"]) == (circle["x"], circle["y"]) and circle["r"] == 1.0
        assert x0 <= circle["x"] - 1 and circle["x"] + 1 <= x1 and y0 <= circle["y"] - 1.6
        # the hand is the pair (PE_2i, PE_2i+1) drawn from the clock's centre
        assert hand["x2"] - hand["x1"] == pytest.approx(code[2 * i], abs=1e-12)
        assert hand["y2"] - hand["y1"] == pytest.approx(code[2 * i + 1], abs=1e-12)
        assert dashed["dashed"] is True
        assert (dashed["x2"] - dashed["x1"]) / 0.85 == pytest.approx(later[2 * i], abs=1e-12)
        assert (dashed["y2"] - dashed["y1"]) / 0.85 == pytest.approx(later[2 * i + 1], abs=1e-12)
    tips = [m for m in marks if m["kind"] == "point"]
    assert [m["id"] for m in tips] == [f"tip-{i}" for i in range(D // 2)]
    assert all(m["name"].startswith(f"clock i={i} ") for i, m in enumerate(tips))

    chart = panel(scene, "similarity")
    assert chart["kind"] == "chart" and chart["x"] == [0.0, float(state["positions"])]
    (series,) = chart["series"]
    # the line is sampled between positions too; the values report the positions themselves
    last = state["positions"]
    assert [p[0] for p in series["points"]] == [x / pe.SAMPLES for x in range(last * pe.SAMPLES + 1)]
    for s, y in series["points"]:
        assert y == pytest.approx(engine.pe_similarity(s - t, D, b), abs=1e-12)
        assert chart["y"][0] <= y <= chart["y"][1]
    assert series["points"][::pe.SAMPLES] == [[float(x), y] for x, y in scene["values"]["similarity"]]
    assert chart["y"][0] == -1 and chart["ticks"]["y"] == [-1, 0, 1]
    probes = [m for m in chart["marks"] if m.get("id") == "probe"]
    for probe in probes:
        assert probe["x"] == s_probe and probe["y"] == engine.pe_similarity(k, D, b)
        assert probe["label"] == f"k = {num(s_probe - t, 0)}: {num(probe['y'])}"
        assert "anchor" not in probe  # the renderer places point labels

    cells = panel(scene, "pe")
    assert len(cells["rows"]) == D // 2 and all(len(r) == 2 for r in cells["rows"])
    for i, row in enumerate(cells["rows"]):
        for r, cell in enumerate(row):
            assert cell["text"] == num(code[2 * i + r]) and -1 <= cell["tone"] <= 1
            assert cell["detail"]
    summed = panel(scene, "sum")
    assert summed["collapsible"] and len(summed["paragraphs"]) == D // 2 + 2
    terms = engine.positional.pe_similarity_terms(k, D, b)
    for line, term in zip(summed["paragraphs"][1:], terms):
        assert line.endswith(f" = {num(term, 4)}")

    kinds = {c["name"]: c["kind"] for c in scene["controls"]}
    assert kinds == {"playing": "play", "t": "slider", "offset": "slider", "dim": "slider",
                     "base": "select", "base_text": "number", "experiments": "buttons"}
    assert control(scene, "t")["value"] == t and control(scene, "dim")["step"] == 2

    v = scene["values"]
    assert set(v) == {"t", "D", "base", "offset", "similarity_at_offset", "pe", "similarity", "playing"}
    assert (v["t"], v["D"], v["base"], v["offset"], v["playing"]) == (t, D, b, k, state["playing"])
    assert v["pe"] == code
    assert v["similarity_at_offset"] == engine.pe_similarity(k, D, b)
    assert [x for x, _ in v["similarity"]] == list(range(last + 1))


def test_first_frame_invariants_and_known_values():
    state = first_state()
    scene = FIG.scene(state)
    check_scene(scene, state)
    assert round(scene["values"]["similarity_at_offset"], 3) == 0.658
    assert round(FIG.scene(set_(state, "base", "100"))["values"]["similarity_at_offset"], 3) == 0.401


@settings(max_examples=60, deadline=None)
@given(
    t=st.integers(0, 64), k=st.integers(0, 64), D=st.integers(2, 32).map(lambda h: 2 * h),
    base=st.sampled_from(pe.BASES) | st.floats(2, 100000),
)
def test_scene_invariants_everywhere(t, k, D, base):
    state = FIG.patch(first_state(), {"t": t, "offset": k, "dim": D, "base_text": repr(base)})
    check_scene(FIG.scene(state), state)


@settings(max_examples=40, deadline=None)
@given(t=st.integers(0, 10_000), k=st.integers(0, 64), D=st.integers(2, 32).map(lambda h: 2 * h))
def test_similarity_depends_on_the_offset_only(t, k, D):
    """The figure's curve is built from dot products; shifting t must not change it."""
    assert pe.similarity(t, t + k, D, 10000.0) == pytest.approx(pe.similarity(0, k, D, 10000.0), abs=1e-9)


# --- the golden first frame ------------------------------------------------------------------


def test_golden_first_frame():
    """The lesson's first frame, reviewed by hand: its structure (marks, channels,
    numbers) in tests/golden/positional_encoding.json, its wording in
    positional_encoding.words.json. On a mismatch the new file is written beside the old
    as .new.json; if it is right, move it over the old."""
    check_golden_split(FIG.scene(first_state(dim=32, base=10000, offset=8)), GOLDEN)


# --- the lesson quotes the engine ------------------------------------------------------------------


def test_the_lesson_states_the_engine_numbers():
    text = re.sub(r"\s+", " ", lesson_as_built(LESSON))
    thetas_10000 = engine.frequencies(32, 10000)
    thetas_100 = engine.frequencies(32, 100)
    fast_slow = engine.frequencies(16, 10000)
    few = [engine.pe_similarity(s, 4, 100) for s in range(65)]
    far = min(range(1, 65), key=few.__getitem__)
    back = max(range(2, 65), key=few.__getitem__)
    code = engine.sinusoidal(3, 4, 100)
    claims = [  # the fast and slow clocks of D = 16 are stated by the figure's experiment, not the lesson
        f"$\\theta_0 = 1$ radian (about {math.degrees(fast_slow[0]):.0f}°)",
        f"positions 8 apart have similarity {engine.pe_similarity(8, 32, 10000):.2f} at base 10000 and "
        f"{engine.pe_similarity(8, 32, 100):.2f} at base 100",
        f"goes round every {2 * math.pi / thetas_100[-1]:,.0f} positions, against "
        f"{2 * math.pi / thetas_10000[-1]:,.0f} for base 10000",
        f"turns {math.degrees(thetas_100[-1]):.2f}° a step",
        f"position {far} has similarity {common.num(few[far])} to position 0, and position {back} "
        f"climbs back to {common.num(few[back])}",  # prose: the figure's typographic minus
        "$PE(3) = (\\sin(3), \\cos(3), \\sin(0.3), \\cos(0.3)) = ("
        + ", ".join(f"{x:.2f}" for x in code) + ")$",
    ]
    for claim in claims:
        assert claim in text, claim
    assert f"{engine.pe_similarity(8, 32, 10000):.2f}" == "0.66"
    assert f"{engine.pe_similarity(8, 32, 100):.2f}" == "0.40"


def test_the_lesson_places_the_figure_with_valid_options():
    text, _ = lesson_figure(LESSON, FIG, "clocks")
    assert re.search(r"^order: 5$", text, re.M)
    assert questions(text) >= 3


@pytest.mark.parametrize("event", [
    {"type": "set", "name": "t", "value": 31},
    {"type": "set", "name": "offset", "value": 3},
    {"type": "set", "name": "dim", "value": 8},
    {"type": "set", "name": "base", "value": "100"},
    {"type": "set", "name": "playing", "value": True},
    {"type": "drag", "mark": "probe", "x": 50, "y": 0},
    {"type": "action", "name": "tick"},
])
def test_any_other_event_ends_the_experiment(event):
    """Regression: after "Move t to 30", moving t left "the peak moved to s = 30" and the
    button highlighted while the figure showed another t."""
    state = FIG.apply(first_state(), {"type": "action", "name": "shift"})
    after = FIG.apply(state, event)
    assert after["experiment"] is None and after["message"] == HINT
    buttons = control(FIG.scene(after), "experiments")
    assert buttons["message"] == HINT and not any(item.get("active") for item in buttons["items"])


def test_every_control_sits_near_the_panel_it_changes():
    """On a phone the controls come right under the panel they change (SCENE.md: near)."""
    scene = FIG.scene(first_state())
    panels = {p["id"] for p in scene["panels"]}
    near = {c["name"]: c.get("near") for c in scene["controls"]}
    assert set(near.values()) <= panels
    assert near["playing"] == near["t"] == near["dim"] == near["base"] == "clocks"
    assert near["offset"] == "similarity"


def test_at_the_last_position_the_readout_names_the_probe_left_of_t():
    """Regression: at t = 64 the read-out said "PE(64) and PE(65)" and the label "k = 1"
    (cut at the right edge) while the probe was drawn at u = 63, left of t."""
    state = set_(set_(first_state(), "t", 64), "offset", 1)
    scene = FIG.scene(state)
    probe = next(m for m in panel(scene, "similarity")["marks"] if m.get("id") == "probe")
    at = num(engine.pe_similarity(1, 32, 10000))
    assert probe["x"] == 63 and probe["label"] == f"k = −1: {at}"
    assert panel(scene, "readout")["paragraphs"][0].startswith(f"PE(64) and PE(63) have similarity {at}.")
    assert scene["status"].endswith(f"PE(64) and PE(63) have similarity {at}")
    assert panel(scene, "clocks")["legend"][1]["label"] == "hand at u = 63"


def test_fast_and_slow_says_it_sets_t_and_k_and_play_says_what_it_plays():
    state = FIG.apply(first_state(), {"type": "action", "name": "fast-slow"})
    assert (state["t"], state["offset"]) == (1, 1) and "sets t = 1 and k = 1" in state["message"]
    assert control(FIG.scene(state), "playing")["label"] == "Play the positions"


def test_clocks_come_four_a_row_up_to_sixteen_and_the_vector_one_row_a_clock():
    """A phone's clocks were too small to show their dashed hands at 8 a row; the PE(0)
    table lost its last columns even at 1280 px."""
    scene = FIG.scene(first_state())  # D = 32: 16 clocks
    clocks = panel(scene, "clocks")
    assert clocks["x"][1] - clocks["x"][0] == 4 * pe_clocks.CELL_W and not clocks["wide"]
    table = panel(scene, "pe")
    assert len(table["rows"]) == 16 and len(table["col_labels"]) == 2 and not table["wide"]
    many = panel(FIG.scene(set_(first_state(), "dim", 64)), "clocks")
    assert many["x"][1] - many["x"][0] == 8 * pe_clocks.CELL_W and many["wide"]
