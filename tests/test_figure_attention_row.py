"""The attention-row figure model: options, events, scene, and a golden first frame.

Every number the figure shows must be the engine's: the scene's ``values`` are compared
with a direct ``engine.attention_row`` call, and the first frame with a reviewed golden
file (tests/golden/attention_row.json) to 1e-9. The whole scene must survive
``json.dumps(..., allow_nan=False)``: the browser receives it as JSON, and a NaN there
would be a silent blank. Point labels carry only their text: the renderer places them.
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
from explorables.engine.figures.attention_row import experiments as ar_x, scene as ar_scene, vectors as ar_v
from explorables.engine.figures.sentences import token_text
from explorables.figures import HINT, Value, num, pct, vec
from figure_helpers import (
    ROLES, ROOT, SHAPES, check_golden_split, control, is_num, lesson_figure, links, panel, questions, texts,
)
import figure_helpers

FIG = FIGURES["attention-row"]
GOLDEN = ROOT / "tests" / "golden" / "attention_row.json"
LESSON = ROOT / "content" / "01-one-query-row.md"
EXPERIMENTS = [e.name for e in ar_x.EXPERIMENTS]


first_state = partial(figure_helpers.first_state, FIG)  # first_state(query="it")
errors_of = partial(figure_helpers.errors_of, FIG)  # errors_of({"dim": "5"}) -> [(option, message)]


def direct_row(state):
    """The asking row computed straight from the engine, not through the figure."""
    i = state["query"]
    return engine.attention_row(
        state["q"][i], state["k"], state["v"], index=i,
        temperature=state["temperature"], causal=state["causal"],
    )


# --- options ------------------------------------------------------------------------------


def test_defaults_give_the_built_in_sentence():
    options = FIG.parse_options({})
    state = FIG.initial_state(options)
    assert state["tokens"] == ["The", "cat", "chased", "the", "mouse", "."]
    assert state["query"] == 2
    assert state["temperature"] == 1.0
    assert state["causal"] is False
    assert state["q"] == [list(p) for p in ar_v.QUERIES]
    assert state["k"] == [list(p) for p in ar_v.KEYS]
    assert state["v"] == [list(p) for p in ar_v.VALUES]
    assert json.loads(json.dumps(state, allow_nan=False)) == state


def test_every_option_has_a_doc_and_a_default():
    names = [o.name for o in FIG.options]
    assert names == ["tokens", "query", "temperature", "causal", "queries", "keys", "values"]
    for opt in FIG.options:
        assert opt.doc.strip(), opt.name
    temperature = FIG.option("temperature")
    assert (temperature.min, temperature.max, temperature.default) == (0.05, 5.0, 1.0)
    assert FIG.option("tokens").max == 8


def test_query_as_word_or_position():
    assert first_state(query="mouse")["query"] == 4
    assert first_state(query="the")["query"] == 3  # exact match beats "The"
    assert first_state(query="The")["query"] == 0
    assert first_state(query="MOUSE")["query"] == 4  # capitals forgiven when unambiguous
    assert first_state(query="5")["query"] == 5


@pytest.mark.parametrize(
    "options, expected",
    [
        (
            {"query": "dog"},
            [("query", "expected a word of the sentence (The, cat, chased, the, mouse, .) "
                       "or a position from 0 to 5, got 'dog'")],
        ),
        (
            {"query": "chasd"},
            [("query", "expected a word of the sentence (The, cat, chased, the, mouse, .) "
                       "or a position from 0 to 5, got 'chasd' (did you mean 'chased'?)")],
        ),
        (
            {"query": "6"},
            [("query", "expected a word of the sentence (The, cat, chased, the, mouse, .) "
                       "or a position from 0 to 5, got '6'")],
        ),
        ({"temperature": "0"}, [("temperature", "expected a number from 0.05 to 5, got '0'")]),
        ({"temperature": "abc"}, [("temperature", "expected a number from 0.05 to 5, got 'abc'")]),
        ({"temperature": "nan"}, [("temperature", "expected a number from 0.05 to 5, got 'nan'")]),
        ({"causal": "maybe"}, [("causal", "expected true or false, got 'maybe'")]),
        (
            {"tokens": "a b c d e f g h i"},
            [("tokens", "expected 1 to 8 words separated by spaces, got 9 words ('a b c d e f g h i')")],
        ),
        ({"keys": "1,2; 3"}, [("keys", "pair 2 of the keys must have 2 numbers (x,y), got 1 in '3'")]),
        ({"keys": "1,2; a,b"}, [("keys", "pair 2 of the keys must be numbers separated by commas, got 'a,b'")]),
        (
            {"values": "1,2;;3,4"},
            [("values", "pair 2 of the values is empty: write x,y for each token, like '0.5,1'")],
        ),
        (
            {"queries": "1,99"},
            [("queries", "pair 1 of the queries must have numbers from -10 to 10, got '1,99'")],
        ),
        (
            {"keys": "1,2; 3,4"},
            [("keys", "expected 6 x,y pairs, one for each token of 'The cat chased the mouse .', got 2")],
        ),
    ],
)
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


def test_another_sentence_says_exactly_which_options_to_add():
    assert errors_of({"tokens": "I saw her", "query": "saw"}) == [
        ("queries", "the built-in vectors fit only the sentence 'The cat chased the mouse .'; "
                    "for 'I saw her' add :queries:, :keys: and :values: with 3 x,y pairs each, "
                    "like '0.5,1; -1,0.2'"),
    ]
    assert errors_of({"tokens": "I saw her", "query": "saw", "keys": "1,0; 0,1; 1,1"}) == [
        ("queries", "the built-in vectors fit only the sentence 'The cat chased the mouse .'; "
                    "for 'I saw her' add :queries: and :values: with 3 x,y pairs each, "
                    "like '0.5,1; -1,0.2'"),
    ]


def test_another_sentence_reports_every_mistake_together():
    assert errors_of({"tokens": "I saw her"}) == [
        ("queries", "the built-in vectors fit only the sentence 'The cat chased the mouse .'; "
                    "for 'I saw her' add :queries:, :keys: and :values: with 3 x,y pairs each, "
                    "like '0.5,1; -1,0.2'"),
        ("query", "expected a word of the sentence (I, saw, her) or a position from 0 to 2, "
                  "got 'chased' ('chased' is the default, which fits only the built-in "
                  "sentence: add :query:)"),
    ]


def test_a_refused_option_does_not_hide_a_mistake_across_the_others():
    """Pins an author's finding: with :temperature: refused, the misspelt :query: was
    reported only once the temperature was fixed."""
    assert errors_of({"temperature": "hot", "query": "chasd"}) == [
        ("temperature", "expected a number from 0.05 to 5, got 'hot'"),
        ("query", "expected a word of the sentence (The, cat, chased, the, mouse, .) or a position "
                  "from 0 to 5, got 'chasd' (did you mean 'chased'?)"),
    ]
    # a rule that reads a refused option (here :keys:, taken as its default) stays quiet:
    # the sentence's own :keys: might have made it right
    assert errors_of({"tokens": "a b", "query": "zz", "keys": "x"}) == [
        ("keys", "pair 1 of the keys must have 2 numbers (x,y), got 1 in 'x'")]


def test_another_sentence_with_its_vectors():
    state = first_state(
        tokens="I saw her", query="her", queries="1,0; 0,1; 0.5,0.5",
        keys="1,0; 0,1; -1,-1", values="1,1; -1,1; 0,−2",
    )
    assert state["tokens"] == ["I", "saw", "her"]
    assert state["query"] == 2
    assert state["v"][2] == [0.0, -2.0]
    scene = FIG.scene(state)
    check_scene(scene, state)


def test_built_in_sentence_may_override_some_vectors():
    state = first_state(keys="1,0; 0,1; 1,1; -1,0; 0,-1; 0.5,0.5")
    assert state["k"][3] == [-1.0, 0.0]
    assert state["q"] == [list(p) for p in ar_v.QUERIES]


# --- events: state + event -> state -------------------------------------------------------


def test_drag_moves_a_key_clamped_to_the_plane_and_rounded():
    state = first_state()
    new = FIG.apply(state, {"type": "drag", "mark": "key", "index": 3, "x": 0.123456, "y": -9.0})
    assert new["k"][3] == [0.12, -2.4]  # the plane is [-2.5, 2.5]; keys stop 0.1 inside
    assert new["selected"] == 3
    assert new["step"] == ar_x.STEP_MATCH
    assert state["k"][3] == list(ar_v.KEYS[3])  # the old state is untouched
    assert FIG.scene(new)["values"]["keys"][3] == [0.12, -2.4]


def test_keyboard_steps_do_not_drift():
    state = first_state()
    x, y = state["k"][1]
    for _ in range(3):
        x += ar_scene.STEP
        state = FIG.apply(state, {"type": "drag", "mark": "key", "index": 1, "x": x, "y": y})
    assert state["k"][1] == [round(ar_v.KEYS[1][0] + 0.3, 2), ar_v.KEYS[1][1]]  # exactly, no 1e-16 drift


def test_drag_changes_the_weights():
    state = first_state()
    before = FIG.scene(state)["values"]["weights"][3]
    moved = FIG.apply(state, {"type": "drag", "mark": "key", "index": 3, "x": 1.4, "y": 1.0})
    assert FIG.scene(moved)["values"]["weights"][3] > before


def test_only_keys_are_draggable():
    for mark, i in (("value", 1), ("key", 7), ("key-1", None)):
        with pytest.raises(ValueError, match=f"only keys can be dragged, got mark {mark!r} {i!r}"):
            FIG.apply(first_state(), {"type": "drag", "mark": mark, "index": i, "x": 0, "y": 0})


def test_typed_key_coordinates_are_kept_exactly():
    state = first_state()
    new = FIG.apply(state, {"type": "set", "name": "key.1.0", "value": " 0.123 "})
    assert new["k"][1] == [0.123, ar_v.KEYS[1][1]]
    new = FIG.apply(new, {"type": "set", "name": "key.1.1", "value": "\u22122.5"})
    assert new["k"][1] == [0.123, -2.5]
    assert new["selected"] == 1
    grid = control(FIG.scene(new), "keys")
    assert [c["value"] for c in grid["rows"][1]["cells"]] == ["0.123", "-2.5"]


def test_a_typed_key_beyond_the_plane_widens_it():
    state = FIG.apply(first_state(), {"type": "set", "name": "key.0.0", "value": "-7.5"})
    keys = panel(FIG.scene(state), "keys")
    assert keys["x"] == [-8.0, 8.0] and keys["y"] == [-8.0, 8.0]
    state = FIG.apply(state, {"type": "drag", "mark": "key", "index": 0, "x": -100, "y": 100})
    assert state["k"][0] == [-7.9, 7.9]
    assert panel(FIG.scene(state), "keys")["x"] == [-8.0, 8.0]  # dragging never grows it


@pytest.mark.parametrize(
    "text, message",
    [
        ("abc", "x of the key of “cat” must be a number, got 'abc'"),
        ("1e999", "x of the key of “cat” must be a finite number, got '1e999'"),
        ("", "x of the key of “cat” is empty: type a number such as 0.5"),
        ("   ", "x of the key of “cat” is empty: type a number such as 0.5"),
        ("nan", "x of the key of “cat” must be a finite number, got 'nan'"),
        ("11", "x of the key of “cat” must be from -10 to 10, got 11"),
        ("-10.5", "x of the key of “cat” must be from -10 to 10, got -10.5"),
    ],
)
def test_bad_typed_input_is_refused_and_the_state_kept(text, message):
    state = first_state()
    with pytest.raises(FieldError) as info:
        FIG.apply(state, {"type": "set", "name": "key.1.0", "value": text})
    assert info.value.name == "key.1.0"
    assert info.value.message == message
    reply = runtime.step("attention-row", state, {"type": "set", "name": "key.1.0", "value": text})
    assert reply == {"ok": False, "error": message, "field": "key.1.0"}
    assert state["k"][1] == list(ar_v.KEYS[1])


def test_unknown_controls_are_refused():
    state = first_state()
    for name in ("key.9.0", "key.1.2", "key.x.0", "colour"):
        with pytest.raises(FieldError) as info:
            FIG.apply(state, {"type": "set", "name": name, "value": "1"})
        assert info.value.message == f"attention-row has no control named {name!r}"


def test_select_a_score_cell_or_a_value_makes_that_token_ask():
    state = first_state()
    new = FIG.apply(state, {"type": "select", "mark": "score", "index": 4})
    assert new["query"] == 4
    assert FIG.scene(new)["values"]["query"] == 4
    assert FIG.apply(state, {"type": "select", "mark": "value", "index": 0})["query"] == 0
    with pytest.raises(ValueError, match="cannot select the mark 'score-6'"):
        FIG.apply(state, {"type": "select", "mark": "score", "index": 6})


def test_clicking_a_weight_bar_makes_that_word_ask():
    state = first_state()
    bars = panel(FIG.scene(state), "weights")["bars"]
    assert [(b["select"], b["id"]) for b in bars] == [(True, f"bar-{j}") for j in range(6)]
    assert [b.get("active", False) for b in bars] == [j == 2 for j in range(6)]
    new = FIG.apply(state, {"type": "select", "mark": "bar", "index": 4})
    assert new["query"] == 4 and new["step"] == ar_x.STEP_MATCH
    assert new["selected"] == state["selected"]  # the keyboard still moves the same key
    assert [b.get("active", False) for b in panel(FIG.scene(new), "weights")["bars"]] == [j == 4 for j in range(6)]
    masked = FIG.apply(FIG.apply(state, {"type": "set", "name": "causal", "value": True}),
                       {"type": "select", "mark": "bar", "index": 5})  # a hidden word may still ask
    assert masked["query"] == 5 and direct_row(masked).weights[5] > 0
    for bad in ("bar-6", "bar-", "bar-x", "bars-1"):
        with pytest.raises(ValueError, match=f"cannot select the mark '{bad}'"):
            FIG.apply(state, {"type": "select", "mark": bad})


def test_set_query_by_word_or_position():
    state = first_state()
    assert FIG.apply(state, {"type": "set", "name": "query", "value": "mouse"})["query"] == 4
    assert FIG.apply(state, {"type": "set", "name": "query", "value": 5})["query"] == 5
    assert FIG.apply(state, {"type": "set", "name": "query", "value": "0"})["query"] == 0
    with pytest.raises(FieldError) as info:
        FIG.apply(state, {"type": "set", "name": "query", "value": "dog"})
    assert info.value.name == "query"


def test_temperature_slider_is_logarithmic_and_any_value_in_range_is_taken():
    state = first_state()
    slider = control(FIG.scene(state), "temperature")
    assert slider["kind"] == "slider" and slider["log"] is True
    assert (slider["min"], slider["max"], slider["value"]) == (0.05, 5.0, 1.0)
    # a log slider sends exp of its position rounded to 4 significant digits: any of
    # those, the ends, and values typed by a script are all taken exactly
    for value in (0.05, 0.05122, 0.09772, 0.3162, 1, 2.512, 4.885, 5, "0.2"):
        new = FIG.apply(state, {"type": "set", "name": "temperature", "value": value})
        assert new["temperature"] == float(value)
        assert control(FIG.scene(new), "temperature")["value"] == float(value)
    for bad in (0.0499, 5.001):
        with pytest.raises(FieldError):
            FIG.apply(state, {"type": "set", "name": "temperature", "value": bad})


def test_temperature_event():
    state = first_state()
    new = FIG.apply(state, {"type": "set", "name": "temperature", "value": 0.5})
    assert new["temperature"] == 0.5
    assert new["step"] == ar_x.STEP_TEMPERATURE
    top = max(FIG.scene(new)["values"]["weights"])
    assert top > max(FIG.scene(state)["values"]["weights"])
    for bad, message in [
        (9, "temperature must be from 0.05 to 5, got 9"),
        (0, "temperature must be from 0.05 to 5, got 0"),
        ("abc", "temperature must be a number, got 'abc'"),
        ("1e999", "temperature must be a finite number, got '1e999'"),
    ]:
        with pytest.raises(FieldError) as info:
            FIG.apply(state, {"type": "set", "name": "temperature", "value": bad})
        assert (info.value.name, info.value.message) == ("temperature", message)


def test_mask_hides_later_words_with_weight_exactly_zero():
    state = first_state()
    new = FIG.apply(state, {"type": "set", "name": "causal", "value": True})
    assert new["causal"] is True and new["step"] == ar_x.STEP_MASK
    scene = FIG.scene(new)
    weights = scene["values"]["weights"]
    assert weights[3:] == [0.0, 0.0, 0.0]
    assert math.fsum(weights) == pytest.approx(1.0, abs=1e-15)
    keys = {m["id"]: m for m in panel(scene, "keys")["marks"] if m["kind"] == "point"}
    assert [keys[f"key-{j}"].get("muted", False) for j in range(6)] == [False] * 3 + [True] * 3
    cells = panel(scene, "scores")["rows"][0]
    assert [c.get("muted", False) for c in cells] == [False] * 3 + [True] * 3
    assert FIG.apply(new, {"type": "set", "name": "causal", "value": "false"})["causal"] is False
    with pytest.raises(FieldError, match="causal must be true or false, got 'x'"):
        FIG.apply(state, {"type": "set", "name": "causal", "value": "x"})


def test_patch_sets_several_controls():
    state = FIG.patch(first_state(), {"query": 0, "causal": True, "temperature": 2})
    values = FIG.scene(state)["values"]
    assert values["weights"] == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert values["output"] == list(ar_v.VALUES[0])


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_each_experiment_sets_the_controls_and_says_what_to_look_for(name):
    state = first_state()
    state = FIG.apply(state, {"type": "set", "name": "key.1.0", "value": "-2"})  # reader's edit
    new = FIG.apply(state, {"type": "action", "name": name})
    assert new["experiment"] == name
    assert new["message"] and new["message"] != HINT
    assert "nan" not in new["message"].lower()
    scene = FIG.scene(new)
    buttons = control(scene, "experiments")
    assert buttons["message"] == new["message"]
    assert [i["name"] for i in buttons["items"] if i.get("active")] == [name]
    check_scene(scene, new)
    # an experiment starts from the first settings, so the reader's edit is gone
    again = FIG.apply(first_state(), {"type": "action", "name": name})
    assert again == new


def test_experiment_messages_quote_the_engine():
    start = first_state()
    r1 = direct_row(start)
    msg = FIG.apply(start, {"type": "action", "name": "sharpen"})["message"]
    sharp = direct_row(dict(start, temperature=ar_x.SHARP_T))
    assert f"“cat” takes {pct(sharp.weights[1])} (it had {pct(r1.weights[1])} at T = 1)" in msg
    assert f"“mouse” gets {pct(sharp.weights[4])}, and the other 4 words share " in msg

    state = FIG.apply(start, {"type": "action", "name": "hide-future"})
    masked = direct_row(state)
    assert masked.weights[3:] == [0.0, 0.0, 0.0]
    assert f"“cat” rises from {pct(r1.weights[1])} to {pct(masked.weights[1])}" in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "same-keys"})
    same = direct_row(state)
    assert all(w == pytest.approx(1 / 6, abs=1e-15) for w in same.weights)
    mean = [math.fsum(v[c] for v in state["v"]) / 6 for c in range(2)]
    assert same.output == pytest.approx(mean, abs=1e-15)
    assert vec(mean) in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "short-query"})
    assert state["tokens"][state["query"]] == "."
    flat = direct_row(state)
    assert f"from {pct(min(flat.weights))} to {pct(max(flat.weights))}" in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "pull-key"})
    assert state["selected"] == 3  # "the", the determiner that is not asking
    pulled = direct_row(state)
    assert f"rises from {pct(r1.weights[3])} to {pct(pulled.weights[3])}" in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "first-word"})
    first = direct_row(state)
    assert first.weights == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert first.output == list(ar_v.VALUES[0])

    state = FIG.apply(start, {"type": "action", "name": "double-keys"})
    doubled = direct_row(state)
    half_t = direct_row(dict(start, temperature=0.5))
    assert doubled.weights == pytest.approx(half_t.weights, abs=1e-12)
    assert f"same {num(half_t.weights[1], 3)}" in state["message"]


ONE_WORD = dict(tokens="Hello", query="Hello", queries="1,0.5", keys="0.5,1", values="-1,2")


def buttons(state) -> list[str]:
    return [item["name"] for item in control(FIG.scene(state), "experiments")["items"]]


def test_a_one_word_sentence_says_it_is_the_only_word():
    """Regression: with a one-word sentence and the mask off, the readout said "With the
    future hidden it can read only itself"."""
    state = first_state(**ONE_WORD)
    scene = FIG.scene(state)
    check_scene(scene, state)
    readout = panel(scene, "readout")["paragraphs"][0]
    assert readout == ("“Hello” asks its question. It is the only word, so it keeps all of the weight "
                       "and its new vector is its own value, (−1.00, 2.00).")
    assert "future" not in " ".join(panel(scene, "readout")["paragraphs"])
    assert "press 1 and use the arrow keys" in panel(scene, "keys")["caption"]
    masked = FIG.scene(FIG.patch(first_state(), {"query": 0, "causal": True}))
    assert panel(masked, "readout")["paragraphs"][0].startswith(
        "“The” asks its question. With the future hidden it can read only itself, so it keeps all")


def test_experiments_that_need_two_words_are_left_out_of_a_one_word_sentence():
    """Regression: with one word every experiment ran and said wrong things, such as
    "rises from 100% to 100%", "Every other word is greyed out" and "each gets 1/1"."""
    state = first_state(**ONE_WORD)
    assert buttons(state) == ["reset"]
    for name in EXPERIMENTS:
        with pytest.raises(ValueError, match=f"the experiment '{name}' needs "):
            FIG.apply(state, {"type": "action", "name": name})
    assert buttons(first_state()) == EXPERIMENTS + ["reset"]


def test_experiments_that_need_a_choice_are_left_out_where_the_asker_reads_only_itself():
    """Regression: with the mask on and the first word asking, "Lower T" said "takes 100%
    (it had 100% at T = 1)" and "Raise T" said the weights "run from 0% to 100%"."""
    state = first_state(causal="true", query="The")
    assert buttons(state) == ["hide-future", "short-query", "first-word", "reset"]
    new = FIG.apply(state, {"type": "action", "name": "hide-future"})
    assert new["message"].startswith(
        "“The” is the first word, so with the future hidden it reads only itself: it takes all "
        "of the weight (it had ")
    assert "rises from" not in new["message"]


def test_messages_with_the_mask_on_count_only_the_words_the_asker_reads():
    """Regression: with the mask on from the start, "Raise T" put the masked words' 0% into
    the range of weights, and "Make every key the same" said each of the 6 words gets 1/6."""
    state = first_state(causal="true")  # chased reads The, cat and itself
    flat = FIG.apply(state, {"type": "action", "name": "flatten"})
    r = direct_row(flat)
    assert (f"the weights of the 3 words it can read only run from {pct(min(r.weights[:3]))} to "
            f"{pct(max(r.weights[:3]))}, close to an even 33% each") in flat["message"]
    same = FIG.apply(state, {"type": "action", "name": "same-keys"})
    assert "each of the 3 words it can read gets 1/3 = 33%" in same["message"]
    sharp = FIG.apply(state, {"type": "action", "name": "sharpen"})
    assert "the other" not in sharp["message"] and "“The” less than 0.1%" in sharp["message"]
    pulled = FIG.apply(state, {"type": "action", "name": "pull-key"})
    assert pulled["selected"] == 0  # "The": "the" (position 3) comes after chased, out of reach
    assert direct_row(pulled).weights[0] > direct_row(state).weights[0]


def pairs(vectors) -> str:
    return "; ".join(f"{x},{y}" for x, y in vectors)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6), causal=st.booleans(), query=st.integers(0, 5),
       temperature=st.sampled_from(["0.5", "1", "2"]))
def test_every_shown_experiment_runs_and_says_true_things(n, causal, query, temperature):
    start = first_state(tokens=" ".join(ar_v.TOKENS[:n]), query=min(query, n - 1), causal=str(causal).lower(),
                        temperature=temperature, queries=pairs(ar_v.QUERIES[:n]), keys=pairs(ar_v.KEYS[:n]),
                        values=pairs(ar_v.VALUES[:n]))
    shown = buttons(start)[:-1]
    for name in EXPERIMENTS:
        if name not in shown:
            with pytest.raises(ValueError, match=f"the experiment '{name}' needs "):
                FIG.apply(start, {"type": "action", "name": name})
            continue
        state = FIG.apply(start, {"type": "action", "name": name})
        message = state["message"]
        assert "nan" not in message.lower() and "1/1 " not in message
        assert not re.search(r"from (\S+%) to \1", message), message  # a range or a rise of nothing
        assert "from 0% to" not in message or name == "pull-key", message  # masked words left out
        check_scene(FIG.scene(state), state)


def test_pulling_a_key_that_already_wins_says_it_stays():
    """Regression: in "The cat" asked by "The", the only key to pull is cat's, which already
    had 98% of the weight, and the message said "its weight rises from 98% to 98%"."""
    start = first_state(tokens="The cat", query="The", temperature="0.5", queries=pairs(ar_v.QUERIES[:2]),
                        keys=pairs(ar_v.KEYS[:2]), values=pairs(ar_v.VALUES[:2]))
    state = FIG.apply(start, {"type": "action", "name": "pull-key"})
    w = direct_row(state).weights[1]
    assert f"its weight stays at {pct(w)}, the best match." in state["message"]
    assert "rises" not in state["message"]


def test_doubled_keys_are_compared_at_half_the_starting_temperature():
    """Regression: "Double every key" said "at T = 1" and compared with T = 0.5 whatever
    the temperature the figure started from."""
    state = FIG.apply(first_state(temperature="2"), {"type": "action", "name": "double-keys"})
    r = direct_row(state)
    j = max(range(6), key=lambda m: r.weights[m])
    assert "of the weight at T = 2, and the original keys at T = 1 give it the same" in state["message"]
    assert f"the same {num(r.weights[j], 3)}" in state["message"]


def test_reset_returns_to_the_first_settings():
    start = first_state(query="mouse", temperature="2")
    state = FIG.apply(start, {"type": "action", "name": "double-keys"})
    state = FIG.apply(state, {"type": "set", "name": "causal", "value": True})
    state = FIG.apply(state, {"type": "action", "name": "reset"})
    assert state == start


def test_unknown_action_and_event():
    with pytest.raises(ValueError, match="no action 'jump'"):
        FIG.apply(first_state(), {"type": "action", "name": "jump"})
    with pytest.raises(ValueError, match="does not know the event type 'wiggle'"):
        FIG.apply(first_state(), {"type": "wiggle"})


# --- scene invariants -----------------------------------------------------------------------

def check_point(p):
    assert isinstance(p, list) and len(p) == 2 and all(is_num(c) for c in p), p


def check_mark(m):
    kind = m["kind"]
    assert kind in {"point", "arrow", "line", "polygon", "label", "circle"}, kind
    if "role" in m or kind != "label":
        assert m["role"] in ROLES, m
    if kind == "point":
        assert isinstance(m["id"], str) and is_num(m["x"]) and is_num(m["y"])
        assert m["shape"] in SHAPES
    elif kind == "arrow":
        assert all(is_num(m[c]) for c in ("x1", "y1", "x2", "y2"))
    elif kind in ("line", "polygon"):
        for p in m["points"]:
            check_point(p)
        assert len(m["points"]) >= (3 if kind == "polygon" else 2)
    elif kind == "label":
        assert is_num(m["x"]) and is_num(m["y"]) and isinstance(m["text"], str)
    elif kind == "circle":
        assert is_num(m["x"]) and is_num(m["y"]) and is_num(m["r"])


def check_scene(scene, state):
    """Everything SCENE.md asks of a scene, and what this figure promises on top."""
    json.dumps(scene, allow_nan=False)
    n = len(state["tokens"])
    i = state["query"]
    assert set(scene) == {"title", "status", "panels", "controls", "values"}
    ids = [p["id"] for p in scene["panels"]]
    assert ids == ["formula", "keys", "values", "scores", "weights", "readout", "arithmetic", "stats"]
    for text in texts(scene):
        assert not re.search(r"<[a-zA-Z/!]", text), text  # no HTML
        assert "nan" not in text.lower().split() and "inf" not in text.lower().split(), text

    steps = panel(scene, "formula")
    assert steps["kind"] == "steps"
    assert [s["label"] for s in steps["steps"]] == ["q·k", "÷ √dₖ", "÷ T", "mask", "softmax", "Σ aᵢvᵢ"]
    assert all(s["note"] and s["detail"] for s in steps["steps"])
    assert steps["active"] == state["step"] and 0 <= steps["active"] < 6

    r = direct_row(state)
    hidden = [state["causal"] and j > i for j in range(n)]
    for plane_id in ("keys", "values"):
        plane = panel(scene, plane_id)
        assert plane["kind"] == "plane" and plane["square"] is True
        assert plane["x"] == plane["y"] and plane["x"][0] == -plane["x"][1]
        for m in plane["marks"]:
            check_mark(m)
        points = [m for m in plane["marks"] if m["kind"] == "point"]
        for m in points:
            lo, hi = plane["x"]
            assert lo <= m["x"] <= hi and lo <= m["y"] <= hi, m
    keys = panel(scene, "keys")
    assert keys["keyboard"] == {"step": 0.1, "big": 0.5}
    assert keys["selected"] == f"key-{state['selected']}"
    legend = {(item["role"], item.get("shape", "circle")) for item in keys["legend"]}
    assert {("query", "line"), ("key", "circle"), ("key", "ring"), ("accent", "ring")} <= legend
    assert (("muted", "circle") in legend) is any(hidden)
    assert not [m for m in keys["marks"] if m["kind"] == "label"]  # the query's name rides on its arrow
    for plane_id in ("keys", "values"):
        for m in panel(scene, plane_id)["marks"]:
            assert "anchor" not in m, m  # the renderer places every label from measured text
    key_points = [m for m in keys["marks"] if m["kind"] == "point"]
    assert [m["id"] for m in key_points] == [f"key-{j}" for j in range(n)]
    for j, m in enumerate(key_points):
        assert [m["x"], m["y"]] == state["k"][j]
        assert m["role"] == "key" and m["draggable"] is True and m["link"] == f"t{j}"
        assert m.get("muted", False) is hidden[j]
        assert m["label"] == token_text(state["tokens"][j])  # its own word, never shared
        assert (m["shape"] == "ring") is (j == i)
    (arrow,) = [m for m in keys["marks"] if m["kind"] == "arrow"]
    assert arrow["role"] == "query" and [arrow["x2"], arrow["y2"]] == state["q"][i]
    assert arrow["id"] == "query" and arrow["label"] == f"q ({token_text(state['tokens'][i])})"
    if any(state["q"][i]):
        dotted = [m for m in keys["marks"] if m["kind"] == "line" and m.get("dotted")]
        assert len(dotted) == n
        for j, line in enumerate(dotted):
            foot = engine.vector_projection(state["k"][j], state["q"][i])
            assert line["points"][1] == pytest.approx(foot, abs=1e-12)

    values = panel(scene, "values")
    hulls = [m for m in values["marks"] if m.get("role") == "hull"]
    hull = engine.convex_hull(state["v"])
    assert len(hulls) == (len(hull) >= 2)  # one distinct value has no hull to shade
    (output,) = [m for m in values["marks"] if m.get("id") == "output"]
    assert output["role"] == "output" and output["shape"] == "diamond"
    assert {(item["role"], item.get("shape", "circle")) for item in values["legend"]} == {
        ("value", "circle"), ("value", "ring"), ("output", "diamond")} | ({("hull", "square")} if hulls else set())
    assert engine.point_in_hull([output["x"], output["y"]], hull)
    value_points = [m for m in values["marks"] if m["kind"] == "point" and m["id"] != "output"]
    assert [m["id"] for m in value_points] == [f"value-{j}" for j in range(n)]
    assert all(m["select"] is True and m["role"] == "value" for m in value_points)
    moved = [m for m in values["marks"] if m["kind"] == "arrow"]
    if moved:
        (arrow,) = moved
        assert arrow["dashed"] is True and arrow["role"] == "output"
        assert [arrow["x1"], arrow["y1"]] == state["v"][i]

    scores = panel(scene, "scores")
    assert scores["kind"] == "cells" and len(scores["rows"]) == 1
    for j, cell in enumerate(scores["rows"][0]):
        assert cell["select"] is True and cell["id"] == f"score-{j}" and cell["link"] == f"t{j}"
        assert -1.0 <= cell["tone"] <= 1.0 and cell["text"] == num(r.scores[j])
        assert cell["detail"] and cell.get("muted", False) is hidden[j]
    bars = panel(scene, "weights")
    assert [(b["select"], b["id"]) for b in bars["bars"]] == [(True, f"bar-{j}") for j in range(n)]
    assert [b.get("active", False) for b in bars["bars"]] == [j == i for j in range(n)]
    assert bars["kind"] == "bars" and bars["footer"] == "Σ a = 1.00"
    assert [b["value"] for b in bars["bars"]] == r.weights
    assert [b["link"] for b in bars["bars"]] == [f"t{j}" for j in range(n)]

    readout = panel(scene, "readout")
    assert readout["kind"] == "text" and readout["paragraphs"]
    arithmetic = panel(scene, "arithmetic")
    assert arithmetic["collapsible"] == "Show the arithmetic for the best match"
    assert arithmetic["mono"] is True and len(arithmetic["paragraphs"]) >= 6
    stats = dict(panel(scene, "stats")["items"])
    assert set(stats) >= {"dₖ", "Temperature", "Top weight", "Σ weights", "New vector"}
    assert stats["dₖ"] == "2" and stats["Σ weights"] == "1.00"

    # every token is linked in the key plane, the value plane, the scores, the bars, the grid
    for where in ("keys", "values", "scores", "weights"):
        assert set(links(panel(scene, where))) >= {f"t{j}" for j in range(n)}, where
    assert set(links(control(scene, "keys"))) == {f"t{j}" for j in range(n)}
    assert set(links(scene)) <= {f"t{j}" for j in range(n)}

    kinds = {c["name"]: c["kind"] for c in scene["controls"]}
    assert kinds == {"query": "select", "temperature": "slider", "causal": "toggle",
                     "experiments": "buttons", "keys": "grid"}
    grid = control(scene, "keys")
    assert [[c["name"] for c in row["cells"]] for row in grid["rows"]] == [
        [f"key.{j}.0", f"key.{j}.1"] for j in range(n)
    ]
    for row, k in zip(grid["rows"], state["k"]):
        assert [float(c["value"]) for c in row["cells"]] == k  # exact: typed values round-trip
    buttons = control(scene, "experiments")
    names = [item["name"] for item in buttons["items"]]
    assert names[-1] == "reset" and names[:-1] == [e for e in EXPERIMENTS if e in names] and buttons["message"]
    if state["tokens"] == list(ar_v.TOKENS) and not FIG.reset(dict(state))["causal"]:
        assert len(names) >= 6  # every word reads all six: every experiment applies

    # values: exactly the engine's numbers
    v = scene["values"]
    assert set(v) == {"tokens", "query", "scores", "weights", "output", "entropy",
                      "temperature", "causal", "keys"}
    assert v["tokens"] == state["tokens"] and v["query"] == i
    assert v["temperature"] == state["temperature"] and v["causal"] == state["causal"]
    assert v["keys"] == state["k"]
    for name in ("scores", "weights", "output"):
        assert v[name] == pytest.approx(getattr(r, name), abs=1e-12, rel=0)
    assert v["entropy"] == pytest.approx(r.entropy, abs=1e-12)
    for j in range(n):
        assert v["weights"][j] >= 0.0
        if hidden[j]:
            assert v["weights"][j] == 0.0  # exactly, not merely small
    assert math.fsum(v["weights"]) == pytest.approx(1.0, abs=1e-12)


def test_first_frame_scene_invariants():
    state = first_state()
    check_scene(FIG.scene(state), state)


@pytest.mark.parametrize("query", range(6))
@pytest.mark.parametrize("causal", [False, True])
def test_scene_invariants_for_every_asker(query, causal):
    state = FIG.patch(first_state(), {"query": query, "causal": causal})
    check_scene(FIG.scene(state), state)


coordinate = st.floats(-10, 10, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(
    query=st.integers(0, 5),
    causal=st.booleans(),
    temperature=st.floats(0.05, 5),
    moves=st.lists(st.tuples(st.integers(0, 5), coordinate, coordinate), max_size=4),
    typed=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1), coordinate), max_size=3),
)
def test_scene_invariants_hold_wherever_the_reader_goes(query, causal, temperature, moves, typed):
    """The whole scene is JSON with allow_nan=False, the output stays in the hull, and the
    values equal the engine's, for any drags, typed keys, asker, mask and temperature."""
    state = FIG.patch(first_state(), {"query": query, "causal": causal, "temperature": temperature})
    for j, x, y in moves:
        state = FIG.apply(state, {"type": "drag", "mark": "key", "index": j, "x": x, "y": y})
    for j, c, x in typed:
        state = FIG.apply(state, {"type": "set", "name": f"key.{j}.{c}", "value": repr(x)})
    json.dumps(state, allow_nan=False)
    scene = FIG.scene(state)
    check_scene(scene, state)


# --- labels: text only, placed by the renderer ---------------------------------------------


def test_points_on_top_of_each_other_keep_their_own_labels():
    """Points carry their word and nothing about where it goes: the renderer measures the
    text, shares one label among points that coincide and gives the dragged point priority."""
    state = FIG.apply(first_state(), {"type": "action", "name": "same-keys"})
    points = [m for m in panel(FIG.scene(state), "keys")["marks"] if m["kind"] == "point"]
    assert [m["label"] for m in points] == ["The", "cat", "chased", "the", "mouse", "“.”"]
    assert all((m["x"], m["y"]) == (1.0, 0.5) and "anchor" not in m for m in points)
    output = [m for m in panel(FIG.scene(state), "values")["marks"] if m.get("id") == "output"]
    assert [m["label"] for m in output] == ["new chased"]


def test_a_zero_query_draws_without_projections():
    state = first_state(queries="0,0; 0,1; 1,0; 1,1; -1,0; 0,-1", query="The")
    scene = FIG.scene(state)
    check_scene(scene, state)
    assert scene["values"]["weights"] == pytest.approx([1 / 6] * 6, abs=1e-15)


def test_the_whole_scene_is_json_with_no_nan():
    """Module contract: scene(state) is plain JSON (allow_nan=False) for every experiment,
    and the runtime bridge returns it as JSON text."""
    state = first_state()
    for name in EXPERIMENTS + ["reset"]:
        state = FIG.apply(state, {"type": "action", "name": name})
        text = json.dumps(FIG.scene(state), allow_nan=False)
        assert json.loads(text)["values"]["tokens"] == state["tokens"]
    reply = json.loads(runtime.handle(json.dumps(
        {"figure": "attention-row", "state": state, "event": {"type": "select", "mark": "score", "index": 5}}
    )))
    assert reply["ok"] is True and reply["state"]["query"] == 5


# --- the figure as data: written with the public kit ---------------------------------------

PACKAGE = ROOT / "engine" / "figures" / "attention_row"


def test_the_package_is_small_files_written_with_the_public_kit():
    """Only `explorables.figures` (the kit), `explorables.engine` (the maths) and its own
    modules: the same API an author's figure gets."""
    for path in sorted(PACKAGE.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert len(source.splitlines()) <= 300, path.name
        for module in re.findall(r"^\s*(?:from|import) (\S+)", source, re.M):
            assert module in ("__future__", "math", "typing", "explorables.figures", "explorables.engine") \
                or module.startswith("."), (path.name, module)
    assert not (ROOT / "engine" / "figures" / "attention_row.py").exists()


def test_the_manifest_declares_every_control_value_and_experiment():
    manifest = FIG.manifest()
    json.dumps(manifest, allow_nan=False)
    assert [o["name"] for o in manifest["options"]] == [
        "tokens", "query", "temperature", "causal", "queries", "keys", "values"]
    assert [(p["name"], p["kind"], p["control"]) for p in manifest["params"]] == [
        ("query", "select", True), ("temperature", "slider", True), ("causal", "toggle", True),
        ("selected", "hidden", False), ("step", "hidden", False), ("k", "rows", False)]
    assert [e["name"] for e in manifest["experiments"]] == EXPERIMENTS
    assert manifest["experiments"][0]["sets"] == {"temperature": 0.1, "step": ar_x.STEP_TEMPERATURE}
    scene = FIG.scene(first_state())
    assert [v["name"] for v in manifest["values"]] == list(scene["values"])
    assert all(v["doc"] for v in manifest["values"])
    assert any(v["announce"] for v in manifest["values"])


def test_each_value_is_written_in_its_format():
    scene = FIG.scene(first_state())
    shown = {v.name: v.text(scene["values"][v.name]) for v in FIG.values}
    r = direct_row(first_state())
    assert shown["output"] == vec(r.output) and shown["entropy"] == num(r.entropy)
    assert shown["query"] == "2" and shown["causal"] == "off" and shown["temperature"] == "1.00"
    assert shown["tokens"] == "The, cat, chased, the, mouse, ."
    assert all(isinstance(v, Value) for v in FIG.values)


def test_hidden_parameters_refuse_what_is_out_of_range():
    state = first_state()
    assert FIG.apply(state, {"type": "set", "name": "selected", "value": "4"})["selected"] == 4
    assert FIG.apply(state, {"type": "set", "name": "step", "value": 0})["step"] == 0
    for name, bad, message in [("selected", 6, "selected must be a whole number from 0 to 5, got 6"),
                               ("step", "1.5", "step must be a whole number from 0 to 5, got 1.5"),
                               ("step", "x", "step must be a number, got 'x'")]:
        with pytest.raises(FieldError) as info:
            FIG.apply(state, {"type": "set", "name": name, "value": bad})
        assert (info.value.name, info.value.message) == (name, message)


# --- the golden first frame -----------------------------------------------------------------


def test_golden_first_frame():
    """The first frame of the lesson's figure, reviewed by hand. On a mismatch the new
    structure or wording is written beside it (attention_row.new.json,
    attention_row.words.new.json) for review; if it is right, move it over the old file."""
    check_golden_split(FIG.scene(first_state(query="chased", temperature=1)), GOLDEN)


# --- the lesson quotes the engine --------------------------------------------------------------


def tex(shown: str) -> str:
    """A number or vector as the lesson writes it inside $...$: LaTeX makes the ASCII
    hyphen a minus sign (prose outside math uses the figures' typographic minus)."""
    return shown.replace("\u2212", "-")


def lesson_numbers():
    """Each number the lesson states about the presets, as the engine computes it."""
    start = first_state()
    chased = direct_row(start)
    period = direct_row(dict(start, query=5))
    masked = direct_row(dict(start, causal=True))
    sharp = direct_row(dict(start, temperature=ar_x.SHARP_T))
    flat = direct_row(dict(start, temperature=ar_x.FLAT_T))
    same = direct_row(FIG.apply(start, {"type": "action", "name": "same-keys"}))
    doubled = direct_row(FIG.apply(start, {"type": "action", "name": "double-keys"}))
    pulled = direct_row(FIG.apply(start, {"type": "action", "name": "pull-key"}))
    first = direct_row(FIG.apply(start, {"type": "action", "name": "first-word"}))
    trace = chased.trace
    return [
        f"$q \\cdot k = {tex(num(trace[1].dot))}$",  # cat for chased, before the scaling
        f"${tex(num(trace[4].dot))}$",  # mouse for chased
        f"the scores {num(chased.scores[1])} and {num(chased.scores[4])}",
        f"*cat* gets {pct(chased.weights[1])} of the weight and *mouse* {pct(chased.weights[4])}",
        f"o = \\sum_j a_j v_j = {tex(vec(chased.output))}",
        f"*chased* itself, ${tex(vec(start['v'][2]))}$",
        f"its length is {num(math.hypot(*start['q'][5]))}, against "
        f"{num(math.hypot(*start['q'][2]))} for *chased*",
        f"from {pct(min(period.weights))}\nto {pct(max(period.weights))}, close to an even split",
        f"*cat* takes {pct(sharp.weights[1])} of the weight of *chased* and *mouse* "
        f"{pct(sharp.weights[4])}, while the other four words\nshare {ar_x.share(1 - sharp.weights[1] - sharp.weights[4])}",
        f"the weights run only from {pct(min(flat.weights))} to {pct(max(flat.weights))}",
        f"*cat* climbs to {pct(masked.weights[1])}",
        f"each word gets {pct(same.weights[0])} and the new vector is\n${tex(vec(same.output))}$",
        f"*cat* gets {num(doubled.weights[1], 3)} of the weight of *chased*",
        f"its weight rises from {pct(chased.weights[3])} to {pct(pulled.weights[3])}",
        f"it takes {pct(first.weights[0])} of the weight",
        f"${tex(vec(first.output))}$ for *The*",
    ]


def test_the_lesson_states_the_engine_numbers():
    """Every number the lesson quotes about the presets is the engine's, in context
    (compared with line breaks folded into single spaces)."""
    text = " ".join(LESSON.read_text(encoding="utf-8").split())
    for claim in lesson_numbers():
        assert " ".join(claim.split()) in text, claim


def test_the_lesson_table_of_best_matches():
    text = LESSON.read_text(encoding="utf-8")
    start = first_state()
    for i, word in enumerate(start["tokens"]):
        r = direct_row(dict(start, query=i))
        best = max(range(6), key=lambda j: r.weights[j])
        row = re.search(rf"^\| {re.escape(word)} +\| (\S+) +\| +(\S+) +\|$", text, re.M)
        assert row, word
        assert row.groups() == (start["tokens"][best], pct(r.weights[best])), word


def test_the_lesson_places_the_figure_with_valid_options():
    text, options = lesson_figure(LESSON, FIG, "explorer")
    assert options == {"caption": "One row of attention: *chased* asks, every word answers.",
                       "query": "chased", "temperature": "1"}
    assert questions(text) >= 5


# --- a message never outlives its experiment -------------------------------------------


def test_ending_an_experiment_puts_the_hint_back_and_keeps_the_rest():
    state = FIG.apply(first_state(), {"type": "action", "name": "sharpen"})
    before = {k: v for k, v in state.items() if k not in ("experiment", "message")}
    cleared = FIG.end_experiment(state)
    assert cleared is state and state["experiment"] is None and state["message"] == HINT
    assert {k: v for k, v in state.items() if k not in ("experiment", "message")} == before


@pytest.mark.parametrize("event", [
    {"type": "set", "name": "temperature", "value": 0.7},
    {"type": "set", "name": "causal", "value": True},
    {"type": "set", "name": "query", "value": "1"},
    {"type": "set", "name": "key.1.0", "value": "0.4"},
    {"type": "drag", "mark": "key", "index": 1, "x": 0.5, "y": 0.5},
    {"type": "select", "mark": "bar", "index": 4},
])
def test_any_other_event_ends_the_experiment(event):
    """Regression: after "Lower T" a reader who moved the slider still read "T = 0.1 ..."
    beside a highlighted button, contradicting the figure."""
    for experiment in ("sharpen", "same-keys"):
        state = FIG.apply(first_state(), {"type": "action", "name": experiment})
        assert state["experiment"] == experiment
        after = FIG.apply(state, event)
        assert after["experiment"] is None and after["message"] == HINT
        buttons = control(FIG.scene(after), "experiments")
        assert not any(item.get("active") for item in buttons["items"])
        assert buttons["message"] == HINT and "reveal" not in buttons


def test_a_tie_is_told_as_a_tie():
    """Regression: after "Make every key the same" the readout said "The best match is
    'The' with 17%; next comes 'cat' with 17%"."""
    state = FIG.apply(first_state(), {"type": "action", "name": "same-keys"})
    scene = FIG.scene(state)
    first = panel(scene, "readout")["paragraphs"][0]
    assert "best match" not in first and "every word gets the same share, 1/6 = 17%" in first
    assert scene["status"] == "“chased” asks; every word it reads gets the same weight (17%)"
    masked = FIG.scene(FIG.patch(state, {"causal": True}))
    assert "each of the 3 words it can read gets the same share, 1/3 = 33%" in panel(masked, "readout")["paragraphs"][0]
    assert "best match" not in masked["status"]
    assert "best match" in FIG.scene(first_state())["status"]  # no tie, no change


def test_the_asking_word_menu_counts_from_0_as_the_lab_does():
    labels = [o["label"] for o in control(FIG.scene(first_state()), "query")["options"]]
    assert labels == ["0: The", "1: cat", "2: chased", "3: the", "4: mouse", "5: “.”"]  # quoted: read as a word


def test_the_asking_word_menu_keeps_positions_as_the_other_figures_do():
    """The row had its own Asker, whose menu sent text ("2") where the lab's and the heads'
    sent the position (2); all three use one now, and a reader may still send a word."""
    from explorables.engine.figures import sentences

    assert type(FIG.param("query")) is sentences.Asker is type(FIGURES["attention-lab"].param("query"))
    menu = control(FIG.scene(first_state()), "query")
    assert menu["value"] == 2 and [o["value"] for o in menu["options"]] == [0, 1, 2, 3, 4, 5]
    assert menu["options"][5]["label"] == "5: “.”"
    assert FIG.apply(first_state(), {"type": "set", "name": "query", "value": "mouse"})["query"] == 4
    assert FIG.apply(first_state(), {"type": "set", "name": "query", "value": 1})["query"] == 1
