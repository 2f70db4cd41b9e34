"""The positional-encoding figure's scene wherever a reader goes, its golden first
frame, and the lesson that quotes it (test_figure_positional_encoding.py: options and
events, and the helpers).

The clock hands are the entries of ``engine.sinusoidal``, the similarity curve equals
``engine.pe_similarity`` of the offset to 1e-12, and every scene survives
``json.dumps(..., allow_nan=False)``.
"""
from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables import engine
from explorables import figures as common  # the kit: num, as the lesson's tests below write numbers
from explorables.engine.figures.positional_encoding import maths as pe
from explorables.engine.figures.positional_encoding import clocks as pe_clocks
from explorables.figures import HINT, num
from figure_helpers import ROLES, check_golden_split, control, is_num, lesson_as_built, lesson_figure, panel, questions
from test_figure_positional_encoding import EXPERIMENTS, FIG, GOLDEN, LESSON, first_state, set_


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
    (shifted,), (at_0,) = pe.similarities(t, [t + k], D, 10000.0), pe.similarities(0, [k], D, 10000.0)
    assert shifted == pytest.approx(at_0, abs=1e-9)


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
