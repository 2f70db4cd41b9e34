"""The cross-attention figure and its exercise type: options, events, scene, the numbers
against an independent numpy reference, the properties the lesson teaches, experiments,
a golden first frame, and the lesson that places it.

The reference builds the queries, keys and values from the declared angles with numpy's
cos and sin, the table as softmax(Q K^T / (sqrt(d_k) T)) with numpy's exp, and the
residual as x + o W_O by numpy's matrix product; the figure uses the engine's attention.
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

from explorables.engine import attention, convex_hull, point_in_hull, runtime
from explorables.engine.exercises import EXERCISES
from explorables.engine.figures import FIGURES, FieldError
from explorables.figures import HINT, num, vec
from figure_helpers import ROOT, check_golden_split, control, lesson_as_built, lesson_figure, panel, questions
import figure_helpers

FIG = FIGURES["cross-attention"]
EXERCISE = EXERCISES["residual-sum"]
GOLDEN = ROOT / "tests" / "golden" / "cross_attention.json"
LESSON = ROOT / "content" / "08-cross-attention.md"
PACKAGE = ROOT / "engine" / "figures" / "cross_attention"
SOURCE_ANGLES, TARGET_ANGLES = (90, 30, -30, 150, -150), (90, 30, -30, 180)
W_O = np.array([[0.5, -0.3], [0.3, 0.5]])

first_state = partial(figure_helpers.first_state, FIG)
errors_of = partial(figure_helpers.errors_of, FIG)
coords = st.floats(-1.5, 1.5, allow_nan=False)


def set_(state, name, value):
    return FIG.apply(state, {"type": "set", "name": name, "value": value})


# --- the independent reference ----------------------------------------------------------------

def directions(angles) -> np.ndarray:
    a = np.radians(angles)
    return np.round(np.column_stack([np.cos(a), np.sin(a)]), 4)


def reference(X, T=1.0, Z=None):
    """(weights, outputs): softmax over each row of 4 X Z^T / (sqrt(2) T), outputs A Z."""
    Z = directions(SOURCE_ANGLES) if Z is None else np.asarray(Z)
    S = (4 * np.asarray(X)) @ Z.T / math.sqrt(2) / T
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return A, A @ Z


# --- options and events --------------------------------------------------------------------------

def test_defaults_and_options():
    state = first_state()
    assert (state["i"], state["T"], state["residual"]) == (2, 1.0, True)
    assert np.allclose(state["X"], directions(TARGET_ANGLES))
    assert [o.name for o in FIG.options] == ["i", "T", "residual", "norm"]
    assert all(o.doc.strip() for o in FIG.options)
    state = first_state(i=0, T="0.5", residual="false")
    assert (state["i"], state["T"], state["residual"]) == (0, 0.5, False)
    assert FIG.apply(set_(state, "i", 3), {"type": "action", "name": "reset"}) == state


@pytest.mark.parametrize("options, expected", [
    ({"i": "4"}, [("i", "expected an integer from 0 to 3, got '4'")]),
    ({"T": "0"}, [("T", "expected a number from 0.1 to 3, got '0'")]),
    ({"residual": "maybe"}, [("residual", "expected true or false, got 'maybe'")]),
])
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


@pytest.mark.parametrize("name, value", [("i", 4), ("i", 1.5), ("T", 5), ("T", "hot")])
def test_bad_input_is_refused_and_the_state_kept(name, value):
    state = first_state()
    with pytest.raises(FieldError):
        set_(state, name, value)
    reply = runtime.step("cross-attention", state, {"type": "set", "name": name, "value": value})
    assert reply["ok"] is False and reply["field"] == name and name in reply["error"]


def test_a_cell_or_a_row_label_selects_the_target_word():
    state = first_state()
    assert FIG.apply(state, {"type": "select", "mark": "cell", "index": [3, 1]})["i"] == 3
    assert FIG.apply(state, {"type": "select", "mark": "row", "index": 0})["i"] == 0
    reply = runtime.step("cross-attention", state, {"type": "select", "mark": "cell", "index": [9, 0]})
    assert reply["ok"] is False


def test_dragging_x_moves_the_word_and_its_query():
    state = first_state()
    moved = FIG.apply(state, {"type": "drag", "mark": "x", "index": 0, "x": 0.1, "y": 0.987})
    assert moved["X"][2] == [0.1, 0.99] and moved["X"][:2] == state["X"][:2]
    values = FIG.scene(moved)["values"]
    assert values["source"] == "the"  # x now points at 90 degrees: "Katze" reads "the"
    assert values["row"] == pytest.approx(reference(moved["X"])[0][2], abs=1e-12)


# --- numbers ------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(X=st.lists(st.lists(coords, min_size=2, max_size=2), min_size=4, max_size=4),
       T=st.floats(0.1, 3.0), i=st.integers(0, 3), on=st.booleans())
def test_values_match_the_numpy_reference(X, T, i, on):
    state = {**first_state(), "X": X, "T": T, "i": i, "residual": on}
    v = FIG.scene(state)["values"]
    A, O = reference(X, T)
    assert np.allclose(v["weights"], A, atol=1e-9) and np.allclose(v["output"], O[i], atol=1e-9)
    moved = O[i] @ W_O
    assert np.allclose(v["moved"], moved, atol=1e-9)
    assert np.allclose(v["new"], np.asarray(X[i]) + moved if on else moved, atol=1e-9)
    assert v["top"] == pytest.approx(A[i].max(), abs=1e-9)
    json.dumps(FIG.scene(state), allow_nan=False)


@settings(max_examples=80, deadline=None)
@given(m=st.integers(1, 6), n=st.integers(1, 7), T=st.floats(0.1, 3.0), seed=st.integers(0, 10 ** 6))
def test_every_row_sums_to_1_and_every_output_lies_in_the_source_values_hull(m, n, T, seed):
    """Whatever the sizes: the engine's cross-attention (as the figure calls it) over m queries
    and n keys has m rows of n weights, each summing to 1, and each output in the values' hull."""
    rng = np.random.default_rng(seed)
    Q, K, V = rng.normal(size=(m, 2)) * 3, rng.normal(size=(n, 2)), rng.normal(size=(n, 2))
    result = attention(Q.tolist(), K.tolist(), V.tolist(), temperature=T)
    assert np.shape(result.weights) == (m, n)
    assert all(math.isclose(sum(row), 1.0, abs_tol=1e-12) for row in result.weights)
    assert all(point_in_hull(o, convex_hull(V.tolist()), 1e-9) for o in result.outputs)


@settings(max_examples=60, deadline=None)
@given(x=st.lists(coords, min_size=2, max_size=2), i=st.integers(0, 3))
def test_the_residual_sum_is_x_plus_o_w_o(x, i):
    state = FIG.apply({**first_state(), "i": i}, {"type": "drag", "mark": "x", "index": 0, "x": x[0], "y": x[1]})
    v = FIG.scene(state)["values"]
    assert np.allclose(v["new"], np.asarray(v["x"]) + np.asarray(v["output"]) @ W_O, atol=1e-12)
    plane = panel(FIG.scene(state), "plane")
    arrow = {m["id"].split("-")[0]: m for m in plane["marks"] if m["kind"] == "arrow"}
    assert (arrow["moved"]["x1"], arrow["moved"]["y1"]) == pytest.approx(tuple(v["x"]))  # tip to tail
    assert (arrow["new"]["x2"], arrow["new"]["y2"]) == pytest.approx(tuple(v["new"]))


def test_no_mask_and_a_rectangular_table():
    scene = FIG.scene(first_state())
    table = panel(scene, "table")
    assert len(table["rows"]) == 4 and {len(r) for r in table["rows"]} == {5}
    assert all(not cell.get("muted") for row in table["rows"] for cell in row)
    assert min(min(r) for r in scene["values"]["weights"]) > 0  # every row reads every column


def test_the_residual_switch_removes_the_sum_arrow_and_says_so():
    on, off = FIG.scene(first_state()), FIG.scene(first_state(residual="false"))
    ids = lambda s: {m["id"].split("-")[0] for m in panel(s, "plane")["marks"] if m["kind"] == "arrow"}  # noqa: E731
    assert ids(on) == {"x", "moved", "new"} and ids(off) == {"x", "moved"}
    assert off["values"]["new"] == off["values"]["moved"]
    assert f"x + o W_O = {vec(on['values']['x'])} + " in panel(on, "sum")["paragraphs"][0]
    assert on["status"] == f"“Katze” puts {num(on['values']['top'])} on “cat”; the block passes on " \
                           f"{vec(on['values']['new'])}"


@settings(max_examples=60, deadline=None)
@given(x=st.lists(coords, min_size=2, max_size=2), T=st.floats(0.1, 3.0), on=st.booleans())
def test_the_norm_rescales_the_sum_to_length_root_2_and_keeps_its_direction(x, T, on):
    state = {**first_state(norm="true"), "T": T, "residual": on}
    state = FIG.apply(state, {"type": "drag", "mark": "x", "index": 0, "x": x[0], "y": x[1]})
    scene = FIG.scene(state)
    new, normed = np.asarray(scene["values"]["new"]), np.asarray(scene["values"]["normed"])
    if np.linalg.norm(new) > 1e-6:
        assert np.allclose(normed, new / np.sqrt(np.mean(new ** 2)), atol=1e-9)  # numpy's RMS norm
        assert np.linalg.norm(normed) == pytest.approx(math.sqrt(2), abs=1e-9)
    assert any(m.get("id", "").startswith("normed") for m in panel(scene, "plane")["marks"])
    assert "After the RMS norm" in panel(scene, "sum")["paragraphs"][-1]
    plain = FIG.scene({**state, "norm": False})
    assert not any(m.get("id", "").startswith("normed") for m in panel(plain, "plane")["marks"])


# --- experiments ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["follow", "off", "sharp"])
def test_each_experiment_sets_the_controls_and_says_what_to_look_for(name):
    state = set_(first_state(), "T", 2.0)
    new = FIG.apply(state, {"type": "action", "name": name})
    assert new["experiment"] == name and new["message"] != HINT
    assert control(FIG.scene(new), "experiments")["message"] == new["message"]
    assert FIG.apply(first_state(), {"type": "action", "name": name})["experiment"] == name


def test_experiment_messages_quote_the_reference():
    A, O = reference(directions(TARGET_ANGLES))
    follow = FIG.apply(first_state(), {"type": "action", "name": "follow"})
    assert follow["i"] == 3 and abs(A[3, 3] - A[3, 4]) < 1e-9
    assert f"{num(A[3, 3])} on “is” and {num(A[3, 4])} on “sleeping”" in follow["message"]
    off = FIG.apply(first_state(), {"type": "action", "name": "off"})
    x, moved = directions(TARGET_ANGLES)[2], O[2] @ W_O
    assert f"“Katze” becomes {vec(moved)}" in off["message"] and f"= {vec(x + moved)}" in off["message"]
    sharp = FIG.apply(first_state(), {"type": "action", "name": "sharp"})
    cold = reference(directions(TARGET_ANGLES), 0.3)[0]
    assert sharp["T"] == 0.3 and cold[2, 2] > 0.98
    assert f"puts {num(cold[2, 2])} on “cat”, against {num(A[2, 2])} at T = 1" in sharp["message"]


# --- the kit only, and its size -----------------------------------------------------------------

def test_the_figure_imports_only_the_public_kit_and_the_engine():
    paths = [*PACKAGE.glob("*.py"), ROOT / "engine" / "exercises" / "residual_sum.py"]
    assert figure_helpers.outside_the_public_kit(paths) == []


def test_the_figure_is_at_most_250_lines_words_aside():
    lines = figure_helpers.lines_words_aside(PACKAGE)
    assert lines <= 250, lines


# --- the golden first frame -------------------------------------------------------------------

def test_golden_first_frame():
    """The lesson's first frame, structure and numbers in tests/golden/cross_attention.json,
    its words in cross_attention.words.json (a mismatch writes the .new.json files)."""
    check_golden_split(FIG.scene(first_state()), GOLDEN)


# --- the exercise type ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(1, 40))
def test_the_exercise_solves_as_the_reference_and_hints_each_mistake(seed):
    p = EXERCISE.generate(seed)
    assert p == EXERCISE.generate(seed)
    x, o, W = np.array(p["x"]), np.array(p["o"]), np.array(p["W_O"])
    right = x + o @ W
    assert np.allclose(EXERCISE.solve(p), right, atol=1e-12)
    assert EXERCISE.grade(seed, f"({right[0]:.2f}, {right[1]:.2f})").ok
    wrongs = {"no-residual": o @ W, "no-w-o": x + o, "columns": x + o @ W.T, "x-times-w-o": x @ W + o}
    assert {m.name for m in EXERCISE.mistakes} == set(wrongs)
    for mistake in EXERCISE.mistakes:
        wrong = wrongs[mistake.name]
        assert np.allclose(mistake.value(p), wrong, atol=1e-12)
        if np.abs(wrong - right).max() > 3 * EXERCISE.tolerance:
            verdict = EXERCISE.grade(seed, f"({wrong[0]:.2f}, {wrong[1]:.2f})")
            assert not verdict.ok and verdict.mistake == mistake.name


def test_the_exercise_statement_is_mathml_in_either_notation():
    problem = EXERCISE.problem(1)
    statement = problem["statement"]  # a formula glued to its punctuation sits in a nowrap span
    assert statement.startswith('A word\'s vector is <span class="ex-nowrap"><math') and "<mtable>" in statement
    assert "<mo>;</mo>" in EXERCISE.problem(1, True)["statement"]
    reply = json.loads(runtime.handle(json.dumps({"exercise": "residual-sum", "seed": 1, "answer": "abc"})))
    assert reply["ok"] and reply["right"] is False


# --- the lesson --------------------------------------------------------------------------------

def test_the_lesson_places_the_figure_and_an_exercise_and_asks_questions():
    text, options = lesson_figure(LESSON, FIG, "cross")
    assert options["caption"].startswith("The German words' queries")
    assert re.search(r"^title: Cross-attention and the block$", text, re.M) and re.search(r"^order: 8$", text, re.M)
    assert "{numref}`cross`" in text and "index.html#notation-and-prerequisites" in text
    assert "\n:::{details} How to use this figure\n" in text
    assert "\n:::{exercise} residual-sum\n:seed: 1\n" in text and questions(text) >= 3
    for name in ("follow", "off", "sharp"):
        assert f"<cross.{name}>" in text
    assert "[cross-attention and the block](08-cross-attention.md)" in (
        ROOT / "content" / "07-generating-text.md").read_text(encoding="utf-8")
    box = (ROOT / "content" / "index.md").read_text(encoding="utf-8")
    assert "$n' \\times n$" in box and "$\\mathrm{LN}$" in box and "$\\mathrm{FFN}$" in box and "$z_j$" in box


def test_the_lesson_states_the_figure_s_numbers():
    built = " ".join(lesson_as_built(LESSON).split())
    A, O = reference(directions(TARGET_ANGLES))
    x, moved = directions(TARGET_ANGLES)[2], O[2] @ W_O
    assert f"puts {num(A[2, 2])} of its weight on" in built
    assert f"It puts {num(A[3, 3])} on is and {num(A[3, 4])} on sleeping" in built.replace("*", "")
    assert vec(x) in built and vec(moved) in built and vec(x + moved) in built
    text = " ".join(LESSON.read_text(encoding="utf-8").split())
    assert "$W_K = W_V = I$ and $W_Q = 4I$" in text and "hidden layer $4D$ wide" in text
    # "in two entries, once the mean is taken away, only (1, -1) or (-1, 1) is left"
    for v in np.random.default_rng(8).normal(size=(50, 2)):
        centred = v - v.mean()
        assert np.allclose(np.abs(centred / centred.std()), [1, 1])
    assert "only $(1, -1)$ or $(-1, 1)$ is left" in text and "length $\\sqrt{2}$, whatever its size" in text


# --- the same numbers under Pyodide (Node, the pyodide_node fixture) ------------------------------

@pytest.mark.pyodide
def test_the_figure_agrees_under_pyodide(pyodide_node, tmp_path):
    """The figure shipped in the engine archive and imported as the worker imports it: its
    first frame and a reader's events give the same numbers under Pyodide as in CPython."""
    inputs = {"figure": FIG.name, "options": {"i": "1", "T": "0.7"},
              "events": [{"type": "set", "name": "i", "value": 3}, {"type": "select", "mark": "cell", "index": [0, 2]},
                         {"type": "drag", "mark": "x", "index": 0, "x": 0.4, "y": -1.1},
                         {"type": "set", "name": "T", "value": "x"}, {"type": "action", "name": "off"},
                         {"type": "patch", "patch": {"T": 2.5}}]}
    in_cpython = figure_helpers.agrees_under_pyodide(pyodide_node, tmp_path, inputs)
    assert [s["ok"] for s in in_cpython["steps"]] == [True, True, True, False, True, True]
    assert in_cpython["steps"][2]["state"]["X"][0] == [0.4, -1.1]  # the cell selected row 0, the drag moved it
