"""The attention-lab figure model: its options and events, and the helpers the lab's
other test files import (the scene, experiments and golden first frame:
test_figure_attention_lab_scene.py; the lesson, messages and labels:
test_figure_attention_lab_lesson.py).

Every number the figure shows must be the engine's: the scene's ``values`` are compared
with direct ``engine.embed_with_position`` and ``engine.self_attention`` calls, the
first frame with reviewed golden files (tests/golden/attention_lab.json for the
structure, attention_lab.words.json for the wording) to 1e-9, and
every number the lesson states about the presets with what the engine computes. The
whole scene must survive ``json.dumps(..., allow_nan=False)``.
"""
from __future__ import annotations

import json
from functools import partial

import pytest

from explorables import engine
from explorables.engine import runtime
from explorables.engine.figures import FIGURES, FieldError
from explorables.engine.figures import matrices, sentences as shared
from explorables.engine.figures import attention_lab as lab
from explorables.engine.figures.attention_lab import maths, planes as lab_planes
from explorables.figures import HINT, best, num
from figure_helpers import ROOT, control, panel
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
