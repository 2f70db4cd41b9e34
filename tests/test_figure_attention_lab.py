"""The attention-lab figure model: options, events, scene, experiments, golden first frame.

Every number the figure shows must be the engine's: the scene's ``values`` are compared
with direct ``engine.embed_with_position`` and ``engine.self_attention`` calls, the
first frame with reviewed golden files (tests/golden/attention_lab.json for the
structure, attention_lab.words.json for the wording) to 1e-9, and
every number the lesson states about the presets with what the engine computes. The
whole scene must survive ``json.dumps(..., allow_nan=False)``.
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
from explorables.engine.figures import FIGURES, FieldError
from explorables.engine.figures import matrices, sentences as shared
from explorables.engine.figures import attention_lab as lab
from explorables.engine.figures.attention_lab import maths, planes as lab_planes
from explorables.figures import HINT, best, num, vec
from figure_helpers import (ROOT, check_golden_split, control, is_num, lesson_as_built, lesson_figure, links, panel,
                            questions, texts)
import figure_helpers

FIG = FIGURES["attention-lab"]


def word(w: str, state: dict) -> dict:
    """The drag reference of the word ``w``'s point on the embedding plane (one a distinct word)."""
    return {"mark": "word", "index": shared.distinct(state["tokens"]).index(w)}
GOLDEN = ROOT / "tests" / "golden" / "attention_lab.json"
LESSON = ROOT / "content" / "03-attention-lab.md"
I2 = [[1.0, 0.0], [0.0, 1.0]]
MATRICES = ("W_Q", "W_K", "W_V")
RESET_KEYS = ("sentence", "tokens", "emb", "W_Q", "W_K", "W_V", "s", "temperature", "causal", "table", "query")


first_state = partial(figure_helpers.first_state, FIG)  # first_state(query="it")
errors_of = partial(figure_helpers.errors_of, FIG)  # errors_of({"dim": "5"}) -> [(option, message)]


def direct(state):
    """(X, attention) straight from the engine, not through the figure."""
    E = [state["emb"][w] for w in state["tokens"]]
    X = engine.embed_with_position(E, state["s"])
    r = engine.self_attention(X, state["W_Q"], state["W_K"], state["W_V"],
                              temperature=state["temperature"], causal=state["causal"])
    return X, r


def act(state, name):
    return FIG.apply(state, {"type": "action", "name": name})


# --- options ------------------------------------------------------------------------------


def test_defaults():
    state = first_state()
    assert state["sentence"] == "pronoun"
    assert state["tokens"] == ["the", "cat", "ate", "because", "it", "was", "hungry"]
    assert state["query"] == 4  # "it"
    assert state["W_Q"] == state["W_K"] == state["W_V"] == I2
    assert (state["s"], state["temperature"], state["causal"], state["table"]) == (0.0, 1.0, False, "weights")
    assert state["emb"]["cat"] == list(lab.VOCAB["cat"])
    assert json.loads(json.dumps(state, allow_nan=False)) == state


def test_every_option_has_a_doc():
    names = [o.name for o in FIG.options]
    assert names == ["sentence", "query", "W_Q", "W_K", "W_V", "s", "temperature", "causal", "table"]
    for opt in FIG.options:
        assert opt.doc.strip(), opt.name


def test_presets_fit_the_figure():
    for s in lab.SENTENCES:
        tokens = s.text.split()
        assert 1 <= len(tokens) <= shared.MAX_TOKENS
        assert all(w in lab.VOCAB for w in tokens), s.key
        assert 0 <= s.query < len(tokens)
    repeat = shared.sentence("repeat").text.split()
    assert repeat.count("the") == 2
    assert "bank" in shared.sentence("river").text.split() and "river" in shared.sentence("river").text.split()
    assert "bank" in shared.sentence("money").text.split() and "money" in shared.sentence("money").text.split()


@pytest.mark.parametrize("key, query", [("repeat", 4), ("pronoun", 4), ("river", 5), ("money", 5)])
def test_each_sentence_and_its_own_query(key, query):
    state = first_state(sentence=key)
    assert state["query"] == query
    check_scene(FIG.scene(state), state)


def test_query_as_word_or_position_and_matrices_as_text():
    assert first_state(query="hungry")["query"] == 6
    assert first_state(query="2")["query"] == 2
    assert first_state(sentence="repeat", query="the")["query"] == 0
    assert first_state(W_Q="2I")["W_Q"] == [[2.0, 0.0], [0.0, 2.0]]
    assert first_state(W_K="0.5, -1; \u22122, 0")["W_K"] == [[0.5, -1.0], [-2.0, 0.0]]
    assert first_state(W_V="rotate")["W_V"] == [[0.0, 1.0], [-1.0, 0.0]]


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"sentence": "pronon"},
         [("sentence", "expected one of repeat, pronoun, river, money, both, got 'pronon' (did you mean 'pronoun'?)")]),
        ({"query": "dog"},
         [("query", "expected a word of the sentence (the, cat, ate, because, it, was, hungry) or a position "
                    "from 0 to 6, got 'dog'")]),
        ({"query": "hungy"},
         [("query", "expected a word of the sentence (the, cat, ate, because, it, was, hungry) or a position "
                    "from 0 to 6, got 'hungy' (did you mean 'hungry'?)")]),
        ({"sentence": "repeat", "query": "6"},
         [("query", "expected a word of the sentence (the, cat, sat, on, the, mat) or a position from 0 to 5, "
                    "got '6'")]),
        ({"W_Q": "rotat"},
         [("W_Q", "expected a preset (I, 2I, 0, swap, rotate, axis1, back1) or two rows of two numbers like "
                  "'1,0; 0,1', got 'rotat' (did you mean 'rotate'?)")]),
        ({"W_K": "1,0; 0"},
         [("W_K", "expected a preset (I, 2I, 0, swap, rotate, axis1, back1) or two rows of two numbers like "
                  "'1,0; 0,1', got '1,0; 0'")]),
        ({"W_V": "1,0; 0,9"}, [("W_V", "matrix entries must be from -5 to 5, got '1,0; 0,9'")]),
        ({"s": "3"}, [("s", "expected a number from 0 to 2, got '3'")]),
        ({"temperature": "0"}, [("temperature", "expected a number from 0.05 to 5, got '0'")]),
        ({"causal": "maybe"}, [("causal", "expected true or false, got 'maybe'")]),
        ({"table": "both"}, [("table", "expected one of weights, scores, got 'both'")]),
        ({"colour": "red"},
         [("colour", "unknown option 'colour' (known options: sentence, query, W_Q, W_K, W_V, s, "
                     "temperature, causal, table)")]),
    ],
)
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


def test_several_option_errors_are_reported_together():
    assert [name for name, _ in errors_of({"s": "-1", "W_Q": "x", "temperature": "abc"})] == [
        "s", "W_Q", "temperature"]


# --- events: state + event -> state -------------------------------------------------------


def test_dragging_a_repeated_word_moves_both_tokens():
    state = first_state(sentence="repeat")
    new = FIG.apply(state, {"type": "drag", **word("the", state), "x": 1.234567, "y": -9})
    assert new["emb"]["the"] == [1.23, -2.9]  # rounded, and held inside the plane
    assert new["selected"] == "the" and new["step"] == maths.STEP_EMBED
    values = FIG.scene(new)["values"]
    assert values["E"][0] == values["E"][4] == [1.23, -2.9]
    assert values["X"][0] == values["X"][4]  # s = 0: one vector for both
    assert state["emb"]["the"] == list(lab.VOCAB["the"])  # the old state is untouched
    X, r = direct(new)
    assert values["weights"] == r.weights


def test_an_embedding_is_a_word_s_in_every_sentence():
    state = first_state(sentence="repeat")
    state = FIG.apply(state, {"type": "drag", **word("cat", state), "x": -1, "y": 1})
    state = FIG.apply(state, {"type": "set", "name": "sentence", "value": "pronoun"})
    assert FIG.scene(state)["values"]["E"][1] == [-1.0, 1.0]


def test_drag_refuses_other_marks():
    state = first_state()
    for mark, i in (("word", 99), ("value", 1), ("x", 0), ("word", None), ("word-the", None)):
        with pytest.raises(ValueError) as info:
            FIG.apply(state, {"type": "drag", "mark": mark, "index": i, "x": 0, "y": 0})
        assert str(info.value) == f"only the words of the embedding plane can be dragged, got mark {mark!r} {i!r}"


def test_keyboard_steps_do_not_drift():
    state = first_state()
    x, y = state["emb"]["it"]
    for _ in range(3):
        x += lab_planes.KEYBOARD["step"]
        state = FIG.apply(state, {"type": "drag", **word("it", state), "x": x, "y": y})
    assert state["emb"]["it"] == [1.5, 0.2]


def test_set_sentence_query_s_temperature_mask_table():
    state = first_state()
    new = FIG.apply(state, {"type": "set", "name": "sentence", "value": "river"})
    assert new["tokens"] == ["we", "sat", "on", "the", "river", "bank"] and new["query"] == 5
    assert FIG.apply(state, {"type": "set", "name": "query", "value": "cat"})["query"] == 1
    assert FIG.apply(state, {"type": "set", "name": "query", "value": "6"})["query"] == 6
    new = FIG.apply(state, {"type": "set", "name": "s", "value": 0.75})
    assert new["s"] == 0.75 and new["step"] == maths.STEP_EMBED
    assert FIG.scene(new)["values"]["X"] == engine.embed_with_position(FIG.scene(new)["values"]["E"], 0.75)
    new = FIG.apply(state, {"type": "set", "name": "temperature", "value": "0.5"})
    assert new["temperature"] == 0.5 and new["step"] == maths.STEP_SOFTMAX
    new = FIG.apply(state, {"type": "set", "name": "causal", "value": True})
    assert new["causal"] is True
    weights = FIG.scene(new)["values"]["weights"]
    assert all(weights[i][j] == 0.0 for i in range(7) for j in range(i + 1, 7))
    new = FIG.apply(state, {"type": "set", "name": "table", "value": "scores"})
    assert panel(FIG.scene(new), "table")["title"].startswith("3. Scores")


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("sentence", "poem", "sentence must be one of repeat, pronoun, river, money, both, got 'poem'"),
        ("query", "dog", "query: expected a word of the sentence (the, cat, ate, because, it, was, hungry) "
                         "or a position from 0 to 6, got 'dog'"),
        ("s", "2.5", "s must be from 0 to 2, got 2.5"),
        ("s", "abc", "s must be a number, got 'abc'"),
        ("temperature", 0, "temperature must be from 0.05 to 5, got 0"),
        ("temperature", "1e999", "temperature must be a finite number, got '1e999'"),
        ("causal", "maybe", "causal must be true or false, got 'maybe'"),
        ("table", "both", "table must be one of weights, scores, got 'both'"),
        ("W_Q.2.0", "1", "attention-lab has no control named 'W_Q.2.0'"),
        ("W_O.0.0", "1", "attention-lab has no control named 'W_O.0.0'"),
    ],
)
def test_refused_settings_name_the_control(name, value, message):
    with pytest.raises(FieldError) as info:
        FIG.apply(first_state(), {"type": "set", "name": name, "value": value})
    assert (info.value.name, info.value.message) == (name, message)


def test_typed_matrix_entries_are_kept_exactly():
    state = first_state()
    new = FIG.apply(state, {"type": "set", "name": "W_Q.0.1", "value": " 0.125 "})
    new = FIG.apply(new, {"type": "set", "name": "W_Q.1.0", "value": "\u22122.5"})
    assert new["W_Q"] == [[1.0, 0.125], [-2.5, 1.0]] and new["step"] == maths.STEP_PROJECT
    scene = FIG.scene(new)
    matrix = control(scene, "W_Q")
    assert [[c["value"] for c in row] for row in matrix["rows"]] == [["1", "0.125"], ["-2.5", "1"]]
    assert not any(p["active"] for p in matrix["presets"])
    X, r = direct(new)
    assert scene["values"]["Q"] == r.Q


@pytest.mark.parametrize(
    "text, message",
    [
        ("abc", "Wk row 1, column 2 must be a number, got 'abc'"),
        ("1e999", "Wk row 1, column 2 must be a finite number, got '1e999'"),
        ("", "Wk row 1, column 2 is empty: type a number such as 0.5"),
        ("nan", "Wk row 1, column 2 must be a finite number, got 'nan'"),
        ("6", "Wk row 1, column 2 must be from -5 to 5, got 6"),
        ("-5.5", "Wk row 1, column 2 must be from -5 to 5, got -5.5"),
    ],
)
def test_bad_matrix_entries_are_refused_and_the_state_kept(text, message):
    state = first_state()
    with pytest.raises(FieldError) as info:
        FIG.apply(state, {"type": "set", "name": "W_K.0.1", "value": text})
    assert (info.value.name, info.value.message) == ("W_K.0.1", message)
    reply = runtime.step("attention-lab", state, {"type": "set", "name": "W_K.0.1", "value": text})
    assert reply == {"ok": False, "error": message, "field": "W_K.0.1"}
    assert state["W_K"] == I2


def test_select_a_cell_or_a_point_makes_that_token_ask():
    state = first_state()
    assert FIG.apply(state, {"type": "select", "mark": "a", "index": [2, 5]})["query"] == 2  # the row asks
    assert FIG.apply(state, {"type": "select", "mark": "key", "index": 6})["query"] == 6
    assert FIG.apply(state, {"type": "select", "mark": "value", "index": 0})["query"] == 0
    assert FIG.apply(state, {"type": "select", "mark": "out", "index": 3})["query"] == 3
    assert FIG.apply(state, {"type": "select", "mark": "x", "index": 1})["query"] == 1
    for mark in ("a-7-0", "a-1", "key-9", "word-cat", "q-1"):
        with pytest.raises(ValueError) as info:
            FIG.apply(state, {"type": "select", "mark": mark})
        assert str(info.value) == f"attention-lab cannot select the mark {mark!r}"


def test_matrix_presets():
    state = first_state()
    for which in MATRICES:
        for preset in FIG.param(which).presets():
            new = act(state, f"{which}={preset.key}")
            assert new[which] == [list(r) for r in preset.matrix]
            presets = control(FIG.scene(new), which)["presets"]
            assert [p["name"] for p in presets if p["active"]] == [f"{which}={preset.key}"]
    assert [len(FIG.param(m).presets()) for m in MATRICES] == [7, 6, 6]  # "look 1 back" is for Wq
    with pytest.raises(ValueError, match="attention-lab has no preset '3I' for W_Q"):
        act(state, "W_Q=3I")
    with pytest.raises(ValueError, match="attention-lab has no preset 'back1' for W_K"):
        act(state, "W_K=back1")


def test_rotate_preset_turns_row_vectors_anticlockwise():
    """x W with W = rotate sends the first axis to the second: (1, 0) -> (0, 1)."""
    assert engine.matmul([[1.0, 0.0]], matrices.preset_matrix("rotate")) == [[0.0, 1.0]]


def test_look_back_preset_turns_the_position_code_back_one_step():
    """Issue 15: a Wq preset that makes every token look one place back. For row vectors
    p_t Wq = p_(t-1) (to the 3 decimals the preset keeps), so the position part of every
    score, (p_i Wq)·p_j = cos 0.6(i − 1 − j), is largest at j = i − 1."""
    W = matrices.preset_matrix("back1")
    assert W == [[0.825, 0.565], [-0.565, 0.825]] == [list(r) for r in matrices.look_back(1)]
    for t in range(1, 9):
        (turned,) = engine.matmul([engine.position_code(t, engine.OMEGA)], W)
        assert turned == pytest.approx(engine.position_code(t - 1, engine.OMEGA), abs=1e-3)


@pytest.mark.parametrize("key", shared.SENTENCE_KEYS)
def test_look_back_preset_makes_every_token_read_the_one_before(key):
    """With every word dragged to the centre (x is then α·p alone), α = 2 and Wq = "look 1
    back", each token's largest weight is on the token just before it; with Wq = I each
    token reads itself most. The numbers are the engine's, through the figure."""
    state = FIG.patch(first_state(sentence=key), {"s": 2.0})
    for w in shared.distinct(state["tokens"]):
        state = FIG.apply(state, {"type": "drag", **word(w, state), "x": 0, "y": 0})
    plain = FIG.scene(state)["values"]["weights"]
    assert [best(row) for row in plain] == list(range(len(state["tokens"])))
    state = act(state, "W_Q=back1")
    assert state["W_Q"] == matrices.preset_matrix("back1")
    values = FIG.scene(state)["values"]
    _, r = direct(state)
    assert values["weights"] == r.weights
    assert [best(row) for row in values["weights"]][1:] == list(range(len(state["tokens"]) - 1))
    buttons = control(FIG.scene(state), "W_Q")["presets"]
    assert [(b["label"], b["active"]) for b in buttons if b["name"] == "W_Q=back1"] == [("look 1 back", True)]


def test_look_back_experiment_centres_the_words_and_every_token_reads_the_one_before():
    state = act(first_state(), "look-back")
    X, r = direct(state)
    assert state["W_Q"] == matrices.preset_matrix("back1") and state["s"] == 2.0 and state["step"] == maths.STEP_PROJECT
    assert all(state["emb"][w] == [0.0, 0.0] for w in state["tokens"])
    assert [best(row) for row in r.weights][1:] == list(range(6))
    assert f"puts {num(r.weights[4][3])} on “because”" in state["message"]
    assert "and every token from position 1 on" in state["message"]


def test_every_value_is_declared_with_a_format():
    scene = FIG.scene(first_state())
    declared = {v.name: v for v in FIG.values}
    assert set(declared) == set(scene["values"])
    assert declared["query"].text(scene["values"]["query"]) == "4"
    assert [v.name for v in FIG.values if v.announce] == ["query", "s"]
    manifest = FIG.manifest()
    assert [p["name"] for p in manifest["params"]] == ["sentence", "query", *MATRICES, "s", "temperature", "causal",
                                                       "table", "selected"]
    assert [e["name"] for e in manifest["experiments"]] == [e.name for e in FIG.experiments]


def test_reset_returns_to_the_author_s_settings():
    state = first_state(sentence="repeat", W_Q="swap", s="0.5")
    changed = FIG.apply(state, {"type": "drag", **word("the", state), "x": 2, "y": 2})
    changed = act(changed, "blank-query")
    back = act(changed, "reset")
    for key in RESET_KEYS:
        assert back[key] == state[key], key
    assert back["message"] == HINT and back["experiment"] is None


def test_unknown_events_and_actions():
    state = first_state()
    with pytest.raises(ValueError, match="attention-lab does not know the event type 'hover'"):
        FIG.apply(state, {"type": "hover"})
    with pytest.raises(ValueError, match="attention-lab has no action 'fly'"):
        act(state, "fly")


# --- experiments: each sets the figure, and its numbers are the engine's -----------------


def test_every_experiment_starts_from_the_built_in_settings():
    swapped = first_state(W_V="swap")
    moved = FIG.apply(swapped, {"type": "drag", **word("cat", swapped), "x": 0, "y": 0})
    for e in FIG.experiments:
        state = act(moved, e.name)
        centred = set(state["tokens"]) if e.name == "look-back" else set()  # it moves its words, only them
        assert {w: p for w, p in state["emb"].items() if w not in centred} == {
            w: p for w, p in shared.default_embeddings().items() if w not in centred}, e.name
        assert state["W_V"] == I2 and state["W_K"] == I2, e.name
        assert state["experiment"] == e.name and state["message"] == e.message(state)
        buttons = control(FIG.scene(state), "experiments")
        assert [b["name"] for b in buttons["items"] if b.get("active")] == [e.name]
        assert buttons["message"] == state["message"]


def test_repeated_word_experiments():
    state = act(first_state(), "same-word")
    X, r = direct(state)
    assert state["tokens"][0] == state["tokens"][4] == "the" and state["query"] == 4
    assert X[0] == X[4] and r.weights[0] == r.weights[4] and r.outputs[0] == r.outputs[4]
    assert vec(r.outputs[0]) in state["message"]

    masked = act(state, "same-word-mask")
    X, r = direct(masked)
    assert masked["causal"] is True
    assert r.weights[0][0] == 1.0 and r.outputs[0] == r.V[0]
    assert sum(w > 0 for w in r.weights[4]) == 5
    assert r.outputs[0] != r.outputs[4]

    placed = act(state, "same-word-position")
    X, r = direct(placed)
    assert placed["s"] == 1.0 and X[0] != X[4] and r.weights[0] != r.weights[4]
    assert vec(X[0]) in placed["message"] and vec(r.outputs[4]) in placed["message"]


def test_temperature_experiments_and_the_scale_of_w_q():
    sharp = act(first_state(), "sharp")
    _, r = direct(sharp)
    assert sharp["temperature"] == 0.1 and r.weights[4][1] > 0.99  # "it" reads "cat"
    flat = act(first_state(), "flat")
    _, r = direct(flat)
    assert flat["temperature"] == 3.0 and max(r.weights[4]) - min(r.weights[4]) < 0.15
    doubled = act(first_state(), "double-query")
    _, r = direct(doubled)
    _, half = direct(dict(doubled, W_Q=I2, temperature=0.5))
    assert doubled["W_Q"] == [[2.0, 0.0], [0.0, 2.0]]
    assert r.weights == half.weights  # exactly: doubling the scores is halving the temperature
    assert "exactly the same table" in doubled["message"]


def test_blank_query_experiments():
    blank = act(first_state(), "blank-query")
    _, r = direct(blank)
    T = len(blank["tokens"])
    for row in r.weights:
        assert row == pytest.approx([1 / T] * T, abs=1e-15)
    mean = [math.fsum(c) / T for c in zip(*r.V)]
    for o in r.outputs:
        assert o == pytest.approx(mean, abs=1e-12)
    masked = act(first_state(), "blank-query-mask")
    _, r = direct(masked)
    for i, row in enumerate(r.weights):
        assert row == pytest.approx([1 / (i + 1)] * (i + 1) + [0.0] * (T - i - 1), abs=1e-15)
        running = [math.fsum(c) / (i + 1) for c in zip(*r.V[: i + 1])]
        assert r.outputs[i] == pytest.approx(running, abs=1e-12)


def test_bank_experiments():
    river = act(first_state(), "river-bank")
    money = act(first_state(), "money-bank")
    X1, r1 = direct(river)
    X2, r2 = direct(money)
    i1, i2 = river["query"], money["query"]
    assert river["tokens"][i1] == money["tokens"][i2] == "bank"
    assert X1[i1] == X2[i2]  # the same embedding, at the same position
    assert river["tokens"][best(r1.weights[i1])] == "river"
    assert money["tokens"][best(r2.weights[i2])] == "money"
    assert vec(r1.outputs[i1]) in river["message"] and vec(r2.outputs[i2]) in river["message"]


# --- scene --------------------------------------------------------------------------------


def check_scene(scene, state):
    """Everything SCENE.md asks of a scene, and what this figure promises on top."""
    json.dumps(scene, allow_nan=False)
    tokens = state["tokens"]
    n = len(tokens)
    i = state["query"]
    X, r = direct(state)
    assert set(scene) == {"title", "status", "panels", "controls", "values"}
    assert [p["id"] for p in scene["panels"]] == ["steps", "embed", "qk", "table", "values", "readout", "arithmetic"]
    for text in texts(scene):
        assert not re.search(r"<[a-zA-Z/!]", text), text
        assert not re.search(r"\b(nan|inf)\b", text.lower()), text

    steps = panel(scene, "steps")
    assert [s["label"] for s in steps["steps"]] == ["embed", "project", "score", "softmax", "mix"]
    assert all(s["note"] and s["detail"] for s in steps["steps"])
    assert steps["active"] == state["step"]
    assert vec(r.outputs[i]) in steps["steps"][4]["detail"]
    assert vec(X[i]) in steps["steps"][0]["detail"]

    for plane_id in ("embed", "values", "qk"):
        plane = panel(scene, plane_id)
        assert plane["kind"] == "plane" and plane["square"] is True
        assert plane["x"] == plane["y"] and plane["x"][0] == -plane["x"][1]
        lo, hi = plane["x"]
        for m in plane["marks"]:
            for key in ("x", "y", "x1", "y1", "x2", "y2", "r"):
                if key in m:
                    assert is_num(m[key]), m
            if m["kind"] == "point":
                assert lo <= m["x"] <= hi and lo <= m["y"] <= hi, m
            for p in m.get("points", []):
                assert all(is_num(c) and lo <= c <= hi for c in p), m
        ids = [m["id"] for m in plane["marks"] if "id" in m]
        assert len(ids) == len(set(ids)), plane_id

    embed = panel(scene, "embed")
    assert embed["keyboard"] == {"step": 0.1, "big": 0.5}
    words = shared.distinct(tokens)
    draggable = [m for m in embed["marks"] if m.get("draggable")]
    assert [m["id"] for m in draggable] == [f"word-{w}" for w in words]  # digit n picks word n
    for m in draggable:
        w = m["id"][5:]
        assert [m["x"], m["y"]] == state["emb"][w]
        assert m["link"] == f"t{tokens.index(w)}" and m["role"] == "own"
    xs = [m for m in embed["marks"] if m.get("id", "").startswith("x-")]
    if state["s"] > 0:
        assert [m["id"] for m in xs] == [f"x-{t}" for t in range(n)]
        for t, m in enumerate(xs):
            assert [m["x"], m["y"]] == X[t] and m["link"] == f"t{t}" and m["select"] is True
    else:
        assert xs == []

    values = panel(scene, "values")
    hull = engine.convex_hull(r.V)
    outs = [m for m in values["marks"] if m.get("id", "").startswith("out-")]
    assert sorted(m["id"] for m in outs) == sorted(f"out-{j}" for j in range(n))
    for m in outs:
        j = int(m["id"][4:])
        assert [m["x"], m["y"]] == r.outputs[j] and m["link"] == f"t{j}"
        assert engine.point_in_hull([m["x"], m["y"]], hull)
        assert m["shape"] == "diamond" and (m["size"] == shared.OUTPUT_DIAMOND) is (j == i)
    (own,) = [m for m in outs if m["id"] == f"out-{i}"]
    assert not own.get("muted") and own["label"] == f"o{shared.sub(i)} ({tokens[i]})"  # the renderer places it
    assert not [m for m in values["marks"] if m["kind"] == "label"]
    assert sum(m.get("role") == "hull" for m in values["marks"]) == (1 if len(hull) >= 2 else 0)

    table = panel(scene, "table")
    assert table["kind"] == "cells" and table["active_row"] == i
    assert len(table["rows"]) == n and all(len(row) == n for row in table["rows"])
    assert [c["link"] for c in table["col_labels"]] == [f"t{j}" for j in range(n)]
    for a, row in enumerate(table["rows"]):
        for b, cell in enumerate(row):
            assert cell["id"] == f"a-{a}-{b}" and cell["select"] is True and cell["link"] == f"t{b}"
            assert -1.0 <= cell["tone"] <= 1.0 and cell["detail"]
            assert bool(cell.get("muted")) is (not r.mask[a][b])
            shown = r.weights[a][b] if state["table"] == "weights" else r.scores[a][b]
            if r.mask[a][b]:
                assert cell["text"] == num(shown)
    qk = panel(scene, "qk")
    (arrow,) = [m for m in qk["marks"] if m["kind"] == "arrow"]
    assert [arrow["x2"], arrow["y2"]] == r.Q[i] and arrow["label"] == f"q{shared.sub(i)}"
    keys = [m for m in qk["marks"] if m["kind"] == "point"]
    assert [[m["x"], m["y"]] for m in keys] == r.K

    assert panel(scene, "readout")["paragraphs"]
    arithmetic = panel(scene, "arithmetic")
    assert arithmetic["mono"] is True and len(arithmetic["paragraphs"]) == n + 5

    for where in ("embed", "values", "table", "qk"):
        assert set(links(panel(scene, where))) >= {f"t{j}" for j in range(n)} - (
            set() if where != "embed" or state["s"] > 0 else
            {f"t{j}" for j in range(n) if tokens.index(tokens[j]) != j}), where
    assert set(links(scene)) <= {f"t{j}" for j in range(n)}

    kinds = {c["name"]: c["kind"] for c in scene["controls"]}
    assert kinds == {"sentence": "select", "query": "select", "s": "slider", "temperature": "slider",
                     "causal": "toggle", "table": "select", "experiments": "buttons",
                     "W_Q": "matrix", "W_K": "matrix", "W_V": "matrix"}
    for which in MATRICES:
        matrix = control(scene, which)
        assert [[c["name"] for c in row] for row in matrix["rows"]] == [
            [f"{which}.{a}.{b}" for b in range(2)] for a in range(2)]
        assert [[float(c["value"]) for c in row] for row in matrix["rows"]] == state[which]
        assert len(matrix["presets"]) == len(FIG.param(which).presets())
    assert control(scene, "query")["value"] == i

    v = scene["values"]
    assert set(v) == {"sentence", "tokens", "query", "E", "X", "Q", "K", "V", "scores", "weights",
                      "outputs", "temperature", "causal", "s", "W_Q", "W_K", "W_V"}
    assert v["tokens"] == tokens and v["query"] == i and v["sentence"] == state["sentence"]
    assert (v["temperature"], v["causal"], v["s"]) == (state["temperature"], state["causal"], state["s"])
    assert v["X"] == X
    for name in ("Q", "K", "V", "scores", "weights", "outputs"):
        assert v[name] == getattr(r, name), name  # the same engine call, so exactly equal
    for row in v["weights"]:
        assert math.fsum(row) == pytest.approx(1.0, abs=1e-12)


def test_first_frame_scene_invariants():
    state = first_state()
    check_scene(FIG.scene(state), state)


@pytest.mark.parametrize("key", shared.SENTENCE_KEYS)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("s", [0.0, 1.0])
def test_scene_invariants_for_every_sentence(key, causal, s):
    state = FIG.patch(first_state(), {"sentence": key, "causal": causal, "s": s, "table": "scores"})
    for query in range(len(state["tokens"])):
        state = FIG.apply(state, {"type": "set", "name": "query", "value": query})
        check_scene(FIG.scene(state), state)


def test_every_experiment_gives_a_valid_scene():
    state = first_state()
    for name in [e.name for e in FIG.experiments] + ["reset"]:
        state = act(state, name)
        check_scene(FIG.scene(state), state)
    reply = json.loads(runtime.handle(json.dumps(
        {"figure": "attention-lab", "state": state, "event": {"type": "select", "mark": "a", "index": [1, 1]}})))
    assert reply["ok"] is True and reply["state"]["query"] == 1


entry = st.floats(-5, 5, allow_nan=False)
coordinate = st.floats(-10, 10, allow_nan=False)


@settings(max_examples=50, deadline=None)
@given(
    key=st.sampled_from(shared.SENTENCE_KEYS),
    query=st.integers(0, 5),
    causal=st.booleans(),
    s=st.floats(0, 2),
    temperature=st.floats(0.05, 5),
    drags=st.lists(st.tuples(st.integers(0, 5), coordinate, coordinate), max_size=3),
    typed=st.lists(st.tuples(st.sampled_from(MATRICES), st.integers(0, 1), st.integers(0, 1), entry),
                   max_size=4),
)
def test_scene_invariants_hold_wherever_the_reader_goes(key, query, causal, s, temperature, drags, typed):
    """JSON with allow_nan=False, every output in the hull, values equal to the engine's,
    for any sentence, drags, typed matrices, asker, mask, position strength and temperature."""
    state = FIG.patch(first_state(), {"sentence": key, "query": query, "causal": causal, "s": s,
                                      "temperature": temperature})
    for t, x, y in drags:
        state = FIG.apply(state, {"type": "drag", **word(state['tokens'][t], state), "x": x, "y": y})
    for which, a, b, x in typed:
        state = FIG.apply(state, {"type": "set", "name": f"{which}.{a}.{b}", "value": repr(x)})
    json.dumps(state, allow_nan=False)
    check_scene(FIG.scene(state), state)


# --- the golden first frame -----------------------------------------------------------------


def test_golden_first_frame():
    """The lesson's first frame, reviewed by hand. On a mismatch the new scene is written
    beside the golden as NAME.new.json for review; if it is right, move it over."""
    check_golden_split(FIG.scene(first_state(sentence="pronoun", query="it")), GOLDEN)


# --- the lesson quotes the engine ------------------------------------------------------------


def lesson_numbers():
    """Each number the lesson states about the presets, as the engine computes it."""
    start = first_state()
    _, r = direct(start)
    same = act(start, "same-word")
    _, r_same = direct(same)
    _, r_mask = direct(act(start, "same-word-mask"))
    X_pos, r_pos = direct(act(start, "same-word-position"))
    _, r_sharp = direct(act(start, "sharp"))
    _, r_flat = direct(act(start, "flat"))
    _, r_double = direct(act(start, "double-query"))
    _, r_blank = direct(act(start, "blank-query"))
    _, r_run = direct(act(start, "blank-query-mask"))
    river = act(start, "river-bank")
    _, r_river = direct(river)
    _, r_money = direct(act(start, "money-bank"))
    row = r.row(4)
    _, r_rotate = direct(act(start, "W_Q=rotate"))
    assert start["tokens"][best(r_rotate.weights[4])] == "ate"  # "*it* now reads *ate*"
    assert r_mask.weights[4][0] == r_mask.weights[4][4]  # "gives weight 0.30 to each *the*"
    assert best(r.weights[4]) == 1 and sorted(r.weights[4])[-2] == r.weights[4][4]  # runner-up: it
    claims = [
        f"$q \\cdot k = {num(row.trace[1].dot)}$",
        f"$s =$ {num(row.trace[1].scaled)}",
        f"weight {num(r.weights[4][1])} on *cat*",
        f"$o =$ {vec(r.outputs[4])}",
        f"both outputs are ${vec(r_same.outputs[0])}$",
        f"${vec(r_mask.outputs[4])}$ for the second",
        f"$x_0 = {vec(X_pos[0])}$ and $x_4 = {vec(X_pos[4])}$",
        f"{num(r_pos.weights[0][1])} on *cat*",
        f"{num(r_pos.weights[4][5])} on *mat*",
        f"{num(r_sharp.weights[4][1], 3)} of the weight of *it*",
        f"from {num(min(r_flat.weights[4]))} to {num(max(r_flat.weights[4]))}",
        f"{num(r_double.weights[4][1], 3)}",
        f"${vec(r_blank.outputs[0])}$",
        f"the mean is ${vec(r_run.outputs[2])}$",
        f"{num(r_river.weights[5][4])} on *river*",
        f"$o = {vec(r_river.outputs[5])}$",
        f"{num(r_money.weights[5][2])} on *money*",
        f"$o = {vec(r_money.outputs[5])}$",
        "(0.18, on *it* itself)".replace("0.18", num(r.weights[4][4])),
        "embeddings " + ", ".join(f"${vec(lab.VOCAB[w], 1)}$" for w in ("the", "cat", "ate")[:2])
        + f" and ${vec(lab.VOCAB['ate'], 1)}$",
        f"weight {num(r_mask.weights[4][0])} to each *the*",
    ]
    return [c.replace("−", "-") for c in claims]  # the lesson writes an ASCII minus


def test_the_lesson_states_the_engine_numbers():
    """Every number the lesson quotes about the presets is the engine's, in context
    (compared with line breaks and indents folded into single spaces)."""
    text = " ".join(lesson_as_built(LESSON).split())
    for claim in lesson_numbers():
        assert " ".join(claim.split()) in text, claim


def test_the_lesson_places_the_figure_with_valid_options():
    text, options = lesson_figure(LESSON, FIG, "lab")
    assert options.pop("caption")  # every figure of the track is captioned (tests/test_lessons.py)
    assert options == {"sentence": "pronoun", "query": "it"}
    assert questions(text) >= 3


def test_column_heads_name_the_position_only_of_a_repeated_word():
    table = panel(FIG.scene(first_state(sentence="repeat")), "table")
    assert [c["text"] for c in table["col_labels"]] == ["the₀", "cat", "sat", "on", "the₄", "mat"]
    assert [c["text"] for c in table["row_labels"]] == ["the₀", "cat₁", "sat₂", "on₃", "the₄", "mat₅"]


# --- a message never outlives its experiment -------------------------------------------


@pytest.mark.parametrize("event", [
    {"type": "set", "name": "sentence", "value": "pronoun"},
    {"type": "set", "name": "query", "value": "2"},
    {"type": "set", "name": "s", "value": 0.5},
    {"type": "set", "name": "temperature", "value": 0.7},
    {"type": "set", "name": "causal", "value": True},
    {"type": "set", "name": "table", "value": "scores"},
    {"type": "set", "name": "W_Q.0.1", "value": "0.3"},
    {"type": "action", "name": "W_K=2I"},
    {"type": "drag", "mark": "word", "index": 1, "x": 0.5, "y": 0.5},
    {"type": "select", "mark": "a", "index": [1, 2]},
])
def test_any_other_event_ends_the_experiment(event):
    """Regression: after an experiment, a matrix preset or a slider left its message and
    highlighted button in place, describing a figure that was no longer there."""
    state = FIG.apply(first_state(), {"type": "action", "name": "same-word"})
    assert state["experiment"] == "same-word"
    after = FIG.apply(state, event)
    assert after["experiment"] is None and after["message"] == HINT
    buttons = control(FIG.scene(after), "experiments")
    assert not any(item.get("active") for item in buttons["items"])
    assert buttons["message"] == HINT




# --- labels and drawing order -------------------------------------------------------------


def one_click_states(fig):
    """The first frame and every state one click away: each button, preset, sentence, asker."""
    start = fig.initial_state(fig.parse_options({}))
    yield "first frame", start
    for c in fig.scene(start)["controls"]:
        if c["kind"] == "buttons":
            for item in c["items"]:
                yield item["name"], fig.apply(start, {"type": "action", "name": item["name"]})
        elif c["kind"] == "matrix":
            for preset in c.get("presets", []):
                yield preset["name"], fig.apply(start, {"type": "action", "name": preset["name"]})
        elif c["kind"] == "select" and c["name"] in ("sentence", "query"):
            for option in c["options"]:
                yield f"{c['name']} = {option['value']}", fig.apply(
                    start, {"type": "set", "name": c["name"], "value": str(option["value"])})


def test_points_carry_their_labels_and_the_renderer_places_them():
    """Labels are placed by the renderer from measured text: the figure sends no anchor and
    no label mark, only the text: the query arrow's name, repeated words by position."""
    state = FIG.apply(first_state(), {"type": "action", "name": "same-word-position"})
    scene = FIG.scene(state)
    qk = panel(scene, "qk")
    (arrow,) = [m for m in qk["marks"] if m["kind"] == "arrow"]
    assert arrow["label"] == "q₄" and arrow["role"] == "query"
    assert [m["label"] for m in qk["marks"] if m["kind"] == "point"] == ["the₀", "cat", "sat", "on", "the₄", "mat"]
    for plane_id in ("embed", "qk", "values"):
        marks = panel(scene, plane_id)["marks"]
        assert not [m for m in marks if m["kind"] == "label" or "anchor" in m], plane_id


def test_no_output_diamond_hides_a_value():
    """The asking token's value is a ring wide enough to hold its output's diamond, drawn
    under it; every other value is drawn over the outputs."""
    for where, state in one_click_states(FIG):
        marks = panel(FIG.scene(state), "values")["marks"]
        order = [m["id"] for m in marks if m["kind"] == "point"]
        i = state["query"]
        assert order[0] == f"value-{i}" and order[-len(state["tokens"]) + 1:] == [
            f"value-{j}" for j in range(len(state["tokens"])) if j != i], where
        ring = marks[[m.get("id") for m in marks].index(f"value-{i}")]
        assert ring["size"] - 1.5 >= shared.OUTPUT_DIAMOND * 1.4  # the diamond fits inside the ring's stroke


def test_panels_read_in_the_order_of_the_steps_and_alpha_is_the_position_strength():
    """Regression: the panels were numbered 1, 5, 4, 2-3, and "s" named both the position
    strength and the score."""
    scene = FIG.scene(FIG.patch(first_state(), {"s": 1.0}))
    titles = [p["title"] for p in scene["panels"] if p["id"] in ("embed", "qk", "table", "values")]
    numbers = [t.split(".")[0] for t in titles]
    assert numbers == ["1", "2-3", "4", "5"]
    assert control(scene, "s")["label"] == "Position strength α"
    assert "α·p" in panel(scene, "steps")["formula"] and "s·p" not in panel(scene, "steps")["formula"]
    assert "α = 1.00" in panel(scene, "embed")["caption"]
    labels = [o["label"] for o in control(scene, "query")["options"]]
    assert labels[0] == "0: the" and labels[4] == "4: it"


@pytest.mark.parametrize("name", ["attention-row", "attention-lab", "attention-heads", "attention-heatmap",
                                  "positional-encoding"])
def test_figure_text_has_no_pseudo_tex(name):
    """Regression: "W_Q (queries)", "Weights a_ij", "x_t = …", "W_O¹ = W_O² = ½I" showed
    their underscores. Figure text writes Wq, aᵢⱼ, xₜ, Wo¹ (matrices.matrix_name)."""
    fig = FIGURES[name]
    for where, state in one_click_states(fig):
        scene = fig.scene(state)
        shown = [scene["status"], scene["title"], *texts(scene["panels"])]
        for c in scene["controls"]:
            shown += [c.get(key, "") for key in ("label", "help", "message")]
            shown += [item.get(key, "") for item in c.get("items", []) + c.get("presets", [])
                      for key in ("label", "title")]
            shown += [str(option["label"]) for option in c.get("options", [])]
        for text in shown:
            assert "_" not in text, (where, text)


def test_an_eight_word_sentence_fills_the_table():
    """Sentences may have up to 8 words; the preset "both" has 8, with "bank" beside both
    a river and money."""
    state = FIG.apply(first_state(), {"type": "set", "name": "sentence", "value": "both"})
    scene = FIG.scene(state)
    assert len(state["tokens"]) == 8 == shared.MAX_TOKENS and state["tokens"][state["query"]] == "bank"
    table = panel(scene, "table")
    assert len(table["rows"]) == 8 and all(len(row) == 8 for row in table["rows"])
    assert [c["text"] for c in table["col_labels"]][2::3] == ["the₂", "the₅"]
    assert all(len(s.text.split()) <= shared.MAX_TOKENS for s in lab.SENTENCES)
    check_scene(scene, state)
