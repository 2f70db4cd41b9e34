"""The rotary-positions figure and its exercise type: options, events, scene, the numbers
against an independent numpy reference, the invariance the lesson teaches, experiments,
a golden first frame, and the lesson that places it.

The reference builds lesson 5's rotation R_t as a block-diagonal matrix of 2 x 2
clockwise rotations and the code PE(t) from numpy's sin and cos, and multiplies row
vectors by it; the figure turns pairs one by one with the engine's frequencies.
"""
from __future__ import annotations

import json
import math
import re
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables.engine import runtime
from explorables.engine.exercises import EXERCISES
from explorables.engine.figures import FIGURES, FieldError
from explorables.figures import HINT, num
from figure_helpers import ROOT, check_golden_split, control, lesson_as_built, lesson_figure, panel, questions
import figure_helpers

FIG = FIGURES["rotary-positions"]
EXERCISE = EXERCISES["rotary-score"]
GOLDEN = ROOT / "tests" / "golden" / "rotary_positions.json"
LESSON = ROOT / "content" / "06-rotary-positions.md"
PACKAGE = ROOT / "engine" / "figures" / "rotary_positions"
D, BASE = 4, 100.0

first_state = partial(figure_helpers.first_state, FIG)
errors_of = partial(figure_helpers.errors_of, FIG)
vectors = st.lists(st.floats(-2, 2, allow_nan=False), min_size=4, max_size=4)


def set_(state, name, value):
    return FIG.apply(state, {"type": "set", "name": name, "value": value})


# --- the independent reference ----------------------------------------------------------------

def R(position: float, dim: int = D, base: float = BASE) -> np.ndarray:
    """Lesson 5's R: pair i turned clockwise by theta_i * position, for a row vector."""
    out = np.zeros((dim, dim))
    for i in range(dim // 2):
        a = base ** (-2 * i / dim) * position
        out[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]
    return out


def PE(position: float, dim: int = D, base: float = BASE) -> np.ndarray:
    theta = base ** (-2 * np.arange(dim // 2) / dim)
    return np.ravel(np.column_stack([np.sin(theta * position), np.cos(theta * position)]))


def reference_score(q, k, t, u, mode):
    q, k = np.array(q), np.array(k)
    if mode == "add":
        return float((q + PE(t)) @ (k + PE(u)))
    return float((q @ R(t)) @ (k @ R(u)))


def test_the_reference_rotation_moves_the_code_as_lesson_5_says():
    for t in range(6):
        assert np.allclose(PE(0) @ R(t), PE(t))  # PE(t) = PE(0) R_t
        assert np.allclose(R(t) @ R(-2), R(t - 2)) and np.allclose(R(t).T, R(-t))


# --- options and events --------------------------------------------------------------------------

def test_defaults_and_options():
    state = first_state()
    assert (state["t"], state["u"], state["together"], state["mode"]) == (3, 1, False, "rotate")
    assert state["q"] == [1.0, 0.0, 0.6, 0.8] and state["k"] == [0.8, 0.6, 1.0, 0.0]
    assert [o.name for o in FIG.options] == ["t", "u", "together", "mode", "q", "k"]
    assert all(o.doc.strip() for o in FIG.options)
    state = first_state(t=9, u=4, mode="add", q="1, 2, 0, 0")
    assert (state["t"], state["u"], state["mode"], state["q"]) == (9, 4, "add", [1.0, 2.0, 0.0, 0.0])
    assert FIG.apply(set_(state, "t", 0), {"type": "action", "name": "reset"}) == state


@pytest.mark.parametrize("options, expected", [
    ({"t": "16"}, [("t", "expected an integer from 0 to 15, got '16'")]),
    ({"u": "-1"}, [("u", "expected an integer from 0 to 15, got '-1'")]),
    ({"mode": "spin"}, [("mode", "expected one of rotate, add, got 'spin'")]),
    ({"q": "1,2"}, [("q", "expected 4 numbers like 1, 0.5, 0, 0, got '1,2'")]),
    ({"together": "maybe"}, [("together", "expected true or false, got 'maybe'")]),
])
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


@pytest.mark.parametrize("name, value, message", [
    ("t", 16, "position t must be a whole number from 0 to 15, got 16"),
    ("u", 2.5, "position u must be a whole number from 0 to 15, got 2.5"),
    ("mode", "spin", "mode must be one of rotate, add, got 'spin'"),
    ("q", [1, 2], "expected 4 numbers like 1, 0.5, 0, 0, got [1, 2]"),
])
def test_bad_input_is_refused_and_the_state_kept(name, value, message):
    state = first_state()
    with pytest.raises(FieldError):
        set_(state, name, value)
    reply = runtime.step("rotary-positions", state, {"type": "set", "name": name, "value": value})
    assert reply == {"ok": False, "error": message, "field": name}


def test_move_both_keeps_the_offset_and_stops_at_the_ends():
    state = set_(first_state(), "together", True)
    state = set_(state, "t", 9)
    assert (state["t"], state["u"]) == (9, 7)
    state = set_(state, "u", 2)
    assert (state["t"], state["u"]) == (4, 2)
    state = set_(state, "t", 1)  # u would be -1: held at 0, the offset shrinks
    assert (state["t"], state["u"]) == (1, 0)
    alone = set_(set_(state, "together", False), "t", 6)
    assert (alone["t"], alone["u"]) == (6, 0)


@pytest.mark.parametrize("mode", ["rotate", "add"])
@pytest.mark.parametrize("mark, name", [("qt", "q"), ("ku", "k")])
def test_dragging_a_placed_arrow_sets_the_content_that_lands_there(mode, mark, name):
    state = first_state(mode=mode, t=5, u=2)
    moved = FIG.apply(state, {"type": "drag", "mark": mark, "index": 0, "x": 0.5, "y": -1.2})
    assert moved[name][2:] == state[name][2:]  # pair 1 is not on the plane
    head = FIG.scene(moved)["values"]["q_t" if name == "q" else "k_u"][:2]
    assert head == pytest.approx([0.5, -1.2], abs=0.01)  # the content is rounded to 2 decimals


# --- numbers ------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(q=vectors, k=vectors, t=st.integers(0, 15), u=st.integers(0, 15), mode=st.sampled_from(["rotate", "add"]))
def test_values_match_the_numpy_reference(q, k, t, u, mode):
    state = {**first_state(mode=mode), "q": q, "k": k}
    state = set_(set_(state, "t", t), "u", u)
    values = FIG.scene(state)["values"]
    assert values["score"] == pytest.approx(reference_score(q, k, t, u, mode), abs=1e-9)
    assert values["offset"] == t - u and values["content"] == pytest.approx(float(np.dot(q, k)), abs=1e-12)
    placed_q = np.array(q) + PE(t) if mode == "add" else np.array(q) @ R(t)
    assert np.allclose(values["q_t"], placed_q, atol=1e-12)
    assert sum(values["parts"]) == pytest.approx(values["score"], abs=1e-9)
    json.dumps(FIG.scene(state), allow_nan=False)


@settings(max_examples=80, deadline=None)
@given(q=vectors, k=vectors, t=st.integers(0, 15), u=st.integers(0, 15), shift=st.integers(-15, 15))
def test_rotated_the_score_is_unchanged_when_both_positions_shift_together(q, k, t, u, shift):
    """The lesson's claim, through the figure's own control: Move both on, t moved."""
    state = set_(set_({**first_state(), "q": q, "k": k}, "t", t), "u", u)
    state = set_(state, "together", True)
    t2 = min(15, max(0, t + shift))
    moved = set_(state, "t", t2)
    if 0 <= t2 - (t - u) <= 15:  # not held at an end
        assert moved["t"] - moved["u"] == t - u
        before, after = FIG.scene(state)["values"]["score"], FIG.scene(moved)["values"]["score"]
        assert after == pytest.approx(before, abs=1e-9)


def test_added_the_score_changes_when_both_positions_shift_together():
    state = set_(first_state(mode="add"), "together", True)
    scores = {FIG.scene(set_(state, "t", t))["values"]["score"] for t in range(2, 15)}
    assert len({round(s, 6) for s in scores}) == 13  # the same offset, 13 different scores


def test_the_readout_and_status_write_the_sum():
    scene = FIG.scene(first_state())
    v = scene["values"]
    parts = panel(scene, "score")["paragraphs"]
    assert f"q₃·k₁ = {num(v['parts'][0])} + {num(v['parts'][1])} = {num(v['score'])}" in parts[0]
    assert scene["status"] == f"t = 3, u = 1, offset 2, rotate: score {num(v['score'])}"
    added = FIG.scene(first_state(mode="add"))
    a, b, c, d = added["values"]["parts"]
    assert c < 0 and f"{num(a)} + {num(b)} − {num(abs(c))} + {num(d)}" in panel(added, "score")["paragraphs"][0]


def test_the_clocks_show_each_pair_turned_by_its_own_speed():
    scene = FIG.scene(first_state(t=5, u=2))
    clocks = panel(scene, "clocks")
    hands = [m for m in clocks["marks"] if m["kind"] == "arrow" and m["id"].startswith("hand_t")]
    for i, hand in enumerate(hands):
        angle = math.atan2(hand["x2"] - hand["x1"], hand["y2"] - hand["y1"])  # clockwise from 12
        assert math.isclose(angle % (2 * math.pi), (BASE ** (-2 * i / D) * 5) % (2 * math.pi), abs_tol=1e-9)
    assert len(hands) == 2 and all(m["y1"] < 0 < m["x1"] for m in hands)  # off the plane's axes


# --- experiments ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["both", "offset", "add"])
def test_each_experiment_sets_the_controls_and_says_what_to_look_for(name):
    state = set_(first_state(), "t", 12)
    new = FIG.apply(state, {"type": "action", "name": name})
    assert new["experiment"] == name and new["message"] != HINT
    assert control(FIG.scene(new), "experiments")["message"] == new["message"]
    assert FIG.apply(first_state(), {"type": "action", "name": name}) == new


def test_experiment_messages_quote_the_reference():
    q, k = [1.0, 0.0, 0.6, 0.8], [0.8, 0.6, 1.0, 0.0]
    both = FIG.apply(first_state(), {"type": "action", "name": "both"})
    same = num(reference_score(q, k, 3, 1, "rotate"))
    assert both["together"] and f"The score stays {same}: at t = 7, u = 5 it is {same}." in both["message"]
    off = FIG.apply(first_state(), {"type": "action", "name": "offset"})
    assert (off["t"], off["u"]) == (3, 3)
    assert (f"q·k = {num(np.dot(q, k))}" in off["message"]
            and f"at offset 1 it is {num(reference_score(q, k, 3, 2, 'rotate'))}" in off["message"]
            and f"at offset 3 {num(reference_score(q, k, 3, 0, 'rotate'))}" in off["message"])
    add = FIG.apply(first_state(), {"type": "action", "name": "add"})
    here, there = reference_score(q, k, 3, 1, "add"), reference_score(q, k, 7, 5, "add")
    assert abs(here - there) > 0.1
    assert f"the score is {num(here)} at t = 3, u = 1, and {num(there)} at t = 7, u = 5" in add["message"]


# --- the kit only, and its size -----------------------------------------------------------------

def test_the_figure_imports_only_the_public_kit_and_the_engine():
    paths = [*PACKAGE.glob("*.py"), ROOT / "engine" / "exercises" / "rotary_score.py"]
    assert figure_helpers.outside_the_public_kit(paths) == []


def test_the_figure_is_at_most_250_lines_words_aside():
    lines = figure_helpers.lines_words_aside(PACKAGE)
    assert lines <= 250, lines


# --- the golden first frame -------------------------------------------------------------------

def test_golden_first_frame():
    """The lesson's first frame, structure and numbers in tests/golden/rotary_positions.json,
    its words in rotary_positions.words.json (a mismatch writes the .new.json files)."""
    check_golden_split(FIG.scene(first_state()), GOLDEN)


# --- the exercise type ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(1, 40))
def test_the_exercise_solves_as_the_reference_and_hints_each_mistake(seed):
    p = EXERCISE.generate(seed)
    assert p == EXERCISE.generate(seed) and p["t"] != p["u"] and p["theta"] in (30, 45, 60, 90)
    a = math.radians(p["theta"])
    rot = lambda n: np.array([[np.cos(a * n), -np.sin(a * n)], [np.sin(a * n), np.cos(a * n)]])  # noqa: E731
    right = float((np.array(p["q"]) @ rot(p["t"])) @ (np.array(p["k"]) @ rot(p["u"])))
    assert EXERCISE.solve(p) == pytest.approx(right, abs=1e-9)
    assert EXERCISE.solve(p) == pytest.approx(float(np.array(p["q"]) @ rot(p["t"] - p["u"]) @ p["k"]), abs=1e-9)
    assert EXERCISE.grade(seed, f"{right:.2f}").ok
    for mistake in EXERCISE.mistakes:
        wrong = mistake.value(p)
        if abs(wrong - right) > 2 * EXERCISE.tolerance:
            verdict = EXERCISE.grade(seed, f"{wrong:.2f}")
            assert not verdict.ok and verdict.mistake == mistake.name


def test_the_exercise_statement_is_mathml_in_either_notation():
    problem = EXERCISE.problem(1)
    assert problem["statement"].startswith("A query <math") and "<mo>°</mo>" in problem["statement"]
    assert "<mo>;</mo>" in EXERCISE.problem(1, True)["statement"]
    reply = json.loads(runtime.handle(json.dumps({"exercise": "rotary-score", "seed": 1, "answer": "abc"})))
    assert reply["ok"] and reply["right"] is False


# --- the lesson --------------------------------------------------------------------------------

def test_the_lesson_places_the_figure_and_an_exercise_and_asks_questions():
    text, options = lesson_figure(LESSON, FIG, "rope")
    assert options["caption"].startswith("A query and a key turned")
    assert re.search(r"^title: Rotary positions$", text, re.M) and re.search(r"^order: 6$", text, re.M)
    assert "{numref}`rope`" in text and "index.html#notation-and-prerequisites" in text
    assert "\n:::{details} How to use this figure\n" in text
    assert "\n:::{exercise} rotary-score\n:seed: 1\n" in text and questions(text) >= 3
    for name in ("both", "offset", "add"):
        assert f"<rope.{name}>" in text
    assert "Read on in [rotary positions](06-rotary-positions.md)." in (
        ROOT / "content" / "05-positional-encoding.md").read_text(encoding="utf-8")
    assert "$q_t = q\\,R_t$ and $k_u = k\\,R_u$" in (ROOT / "content" / "index.md").read_text(encoding="utf-8")


def test_the_lesson_states_the_figure_s_numbers():
    built = " ".join(lesson_as_built(LESSON).split())
    values = FIG.scene(first_state())["values"]
    assert f"the contents give q ⋅ k = {num(values['content'])}" in built or num(values["content"]) in built
    assert f"{num(values['score'])}" in built
    text = " ".join(LESSON.read_text(encoding="utf-8").split())
    theta = [BASE ** (-2 * i / D) for i in range(2)]
    assert theta == [1.0, 0.1] and "$\\theta_0 = 1$ radian a step and pair 1 turns $\\theta_1 = 0.1$" in text
    # offset 63: 10 whole turns and 0.17 rad for pair 0; one turn and 0.02 for pair 1
    rest = [63 * th - 2 * math.pi * math.floor(63 * th / (2 * math.pi)) for th in theta]
    assert [math.floor(63 * th / (2 * math.pi)) for th in theta] == [10, 1]
    assert f"10 whole turns and {rest[0]:.2f} radians more" in text and f"one turn and {rest[1]:.2f} more" in text
    q, k = np.array([1.0, 0.0, 0.6, 0.8]), np.array([0.8, 0.6, 1.0, 0.0])
    assert abs(reference_score(q, k, 63, 0, "rotate") - q @ k) < 0.15  # "almost exactly as offset 0"
    assert abs(reference_score(q, k, 2, 0, "rotate") - q @ k) > 1.0


# --- the kit extension this figure needed: experiments_near ---------------------------------------

def test_experiments_near_puts_the_try_this_buttons_under_a_panel_without_overriding_controls():
    from explorables.figures import Experiment, Figure, Slider, text

    class Plain(Figure):
        name = "plain-near-test"
        params = (Slider("a", "a", 1.0, lo=0, hi=2, near="words"),)
        experiments = (Experiment("two", "Two", set={"a": 2.0}, see="a is 2."),)

        def draw(self, s, v):
            return [text("words", f"a = {s['a']}"), text("more", "more")]

    class Placed(Plain):
        experiments_near = "more"

    for cls, near in ((Plain, None), (Placed, "more")):
        fig = cls()
        scene = fig.scene(fig.initial_state(fig.parse_options({})))
        assert control(scene, "experiments").get("near") == near
    assert control(FIG.scene(first_state()), "experiments")["near"] == "score"


# --- the same numbers under Pyodide (Node, the pyodide_node fixture) ------------------------------

@pytest.mark.pyodide
def test_the_figure_agrees_under_pyodide(pyodide_node, tmp_path):
    """The figure shipped in the engine archive and imported as the worker imports it: its
    first frame and a reader's events give the same numbers under Pyodide as in CPython."""
    inputs = {"figure": FIG.name, "options": {"t": "5", "mode": "rotate"},
              "events": [{"type": "set", "name": "together", "value": True}, {"type": "set", "name": "t", "value": 9},
                         {"type": "drag", "mark": "qt", "index": 0, "x": 0.4, "y": -1.1},
                         {"type": "set", "name": "u", "value": "x"}, {"type": "action", "name": "add"},
                         {"type": "patch", "patch": {"t": 12}}]}
    in_cpython = figure_helpers.agrees_under_pyodide(pyodide_node, tmp_path, inputs)
    assert [s["ok"] for s in in_cpython["steps"]] == [True, True, True, False, True, True]
    assert in_cpython["steps"][1]["state"]["u"] == 5  # Move both kept the offset: 5 - 1 = 9 - 5
    assert in_cpython["steps"][3]["error"] == "position u must be a number, got 'x'"
