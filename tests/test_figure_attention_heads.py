"""The attention-heads figure model: options, events, scene, golden first frame, lesson.

The scene's ``values`` are compared with a direct ``engine.multi_head`` call, the
concatenation form [o¹, o²] W_O with the sum of blocks o¹W_O¹ + o²W_O²
(``engine.sum_of_blocks``), the first frame with tests/golden/attention_heads.json (structure) and
attention_heads.words.json (wording), and
every number the lesson states with what the engine computes.
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
from explorables.engine.figures import sentences as shared
from explorables.engine.figures import attention_lab as lab
from explorables.engine.figures.attention_heads import heads as ah
from explorables.figures import HINT, best, num, vec
from figure_helpers import (ROOT, check_golden_split, control, lesson_as_built, lesson_figure, panel, questions,
                            texts)
import figure_helpers

FIG = FIGURES["attention-heads"]
GOLDEN = ROOT / "tests" / "golden" / "attention_heads.json"
LESSON = ROOT / "content" / "04-two-heads.md"
HALF = [[0.5, 0.0], [0.0, 0.5]]
RESET_KEYS = ("sentence", "tokens", "heads", "W_O", "query")


first_state = partial(figure_helpers.first_state, FIG)  # first_state(query="it")
errors_of = partial(figure_helpers.errors_of, FIG)  # errors_of({"dim": "5"}) -> [(option, message)]


def direct(state):
    X = [list(lab.VOCAB[w]) for w in state["tokens"]]
    return X, engine.multi_head(X, state["heads"], state["W_O"])


def act(state, name):
    return FIG.apply(state, {"type": "action", "name": name})


# --- options --------------------------------------------------------------------------------


def test_defaults_share_the_lab_s_sentences():
    state = first_state()
    assert state["sentence"] == "pronoun"
    assert state["tokens"] == shared.sentence("pronoun").tokens
    assert state["query"] == 6  # the last token, "hungry"
    assert state["heads"][0] == {"W_Q": [[2.0, 0.0], [0.0, 0.0]], "W_K": [[1.0, 0.0], [0.0, 0.0]],
                                 "W_V": [[1.0, 0.0], [0.0, 1.0]]}
    assert state["heads"][1] == {"W_Q": [[0.0, 0.0], [0.0, 2.0]], "W_K": [[0.0, 0.0], [0.0, 1.0]],
                                 "W_V": [[1.0, 0.0], [0.0, 1.0]]}
    assert state["W_O"] == HALF + HALF
    assert lab.SENTENCES is shared.SENTENCES and lab.VOCAB is shared.VOCAB  # one copy, shared
    assert json.loads(json.dumps(state, allow_nan=False)) == state
    assert [o.name for o in FIG.options] == ["sentence", "query", "head1", "head2", "W_O"]
    assert all(o.doc.strip() for o in FIG.options)


def test_options_choose_the_heads_and_w_o():
    state = first_state(sentence="repeat", query="cat", head1="whole", head2="axis1", W_O="head2")
    assert state["query"] == 1
    assert state["heads"][0] == ah.head_matrices("whole") and state["heads"][1] == ah.head_matrices("axis1")
    assert state["W_O"] == [[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
    assert first_state(sentence="money")["query"] == 5


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"head1": "axis3"}, [("head1", "expected one of axis1, axis2, whole, got 'axis3' (did you mean 'axis2'?)")]),
        ({"W_O": "mean"}, [("W_O", "expected one of average, sum, head1, head2, got 'mean'")]),
        ({"query": "dog"},
         [("query", "expected a word of the sentence (the, cat, ate, because, it, was, hungry) or a position "
                    "from 0 to 6, got 'dog'")]),
        ({"sentence": "river", "query": "cat"},
         [("query", "expected a word of the sentence (we, sat, on, the, river, bank) or a position from 0 to 5, "
                    "got 'cat' (did you mean 'sat'?)")]),
        ({"heads": "2"},
         [("heads", "unknown option 'heads'; did you mean 'head2'? (known options: sentence, query, head1, "
                    "head2, W_O)")]),
    ],
)
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


# --- the maths: the figure's numbers are the engine's -------------------------------------------


def test_values_equal_a_direct_engine_call_and_the_two_forms_agree():
    state = first_state(query="hungry")
    values = FIG.scene(state)["values"]
    X, m = direct(state)
    assert values["X"] == X
    assert values["weights"] == [h.weights for h in m.heads]
    assert values["head_outputs"] == [h.outputs for h in m.heads]
    assert values["concat"] == m.concat and values["outputs"] == m.outputs
    # [o¹, o²] W_O (the concatenation form) = o¹W_O¹ + o²W_O² (the sum of blocks)
    blocks = engine.sum_of_blocks(values["head_outputs"], values["W_O"])
    for a, b in zip(values["outputs"], blocks):
        assert a == pytest.approx(b, abs=1e-12)
    for i, row in enumerate(values["concat"]):
        assert row == values["head_outputs"][0][i] + values["head_outputs"][1][i]
    # each head on its own is the lab's single head with that head's matrices
    for h, head in enumerate(state["heads"]):
        single = engine.self_attention(X, head["W_Q"], head["W_K"], head["W_V"])
        assert values["weights"][h] == single.weights


@settings(max_examples=40, deadline=None)
@given(W_O=st.lists(st.lists(st.floats(-5, 5, allow_nan=False), min_size=2, max_size=2), min_size=4, max_size=4),
       query=st.integers(0, 6))
def test_sum_of_blocks_equals_concat_for_any_w_o(W_O, query):
    state = FIG.apply(first_state(), {"type": "set", "name": "query", "value": query})
    for r, row in enumerate(W_O):
        for c, x in enumerate(row):
            state = FIG.apply(state, {"type": "set", "name": f"W_O.{r}.{c}", "value": repr(x)})
    values = FIG.scene(state)["values"]
    blocks = engine.sum_of_blocks(values["head_outputs"], values["W_O"])
    for a, b in zip(values["outputs"], blocks):
        assert a == pytest.approx(b, abs=1e-9)
    parts = [engine.matmul(values["head_outputs"][h], values["W_O"][2 * h:2 * h + 2]) for h in range(2)]
    assert values["contributions"] == parts


def test_the_built_in_heads_look_along_different_axes():
    values = FIG.scene(first_state(query="hungry"))["values"]
    tokens = values["tokens"]
    first = [tokens[best(values["weights"][h][6])] for h in range(2)]
    assert first == ["cat", "ate"]
    o1, o2 = values["head_outputs"][0][6], values["head_outputs"][1][6]
    assert values["outputs"][6] == pytest.approx([(a + b) / 2 for a, b in zip(o1, o2)], abs=1e-15)


def test_giving_head_2_head_1_s_matrices_adds_nothing():
    state = act(first_state(query="hungry"), "copy")
    assert state["heads"][1] == state["heads"][0] and state["experiment"] == "copy"
    values = FIG.scene(state)["values"]
    assert values["weights"][0] == values["weights"][1]
    assert values["head_outputs"][0] == values["head_outputs"][1]
    # with W_O¹ = W_O² = ½I the multi-head output is head 1's own output, for every token
    for out, o1 in zip(values["outputs"], values["head_outputs"][0]):
        assert out == pytest.approx(o1, abs=1e-15)
    assert vec(values["head_outputs"][0][6]) in state["message"]
    assert "adds nothing" in state["message"]
    readout = panel(FIG.scene(state), "readout")["paragraphs"]
    assert any("adds nothing" in p for p in readout)


# --- events -----------------------------------------------------------------------------------


def test_set_sentence_query_and_head_presets():
    state = first_state()
    new = FIG.apply(state, {"type": "set", "name": "sentence", "value": "repeat"})
    assert new["tokens"] == ["the", "cat", "sat", "on", "the", "mat"] and new["query"] == 5
    assert FIG.apply(state, {"type": "set", "name": "query", "value": "it"})["query"] == 4
    new = FIG.apply(state, {"type": "set", "name": "head2", "value": "whole"})
    assert new["heads"][1] == ah.head_matrices("whole")
    assert control(FIG.scene(new), "head2")["value"] == "whole"


def test_typed_matrix_entries_and_a_custom_head():
    state = first_state()
    new = FIG.apply(state, {"type": "set", "name": "h1.W_K.1.1", "value": "0.5"})
    assert new["heads"][0]["W_K"] == [[1.0, 0.0], [0.0, 0.5]]
    scene = FIG.scene(new)
    select = control(scene, "head1")
    assert select["value"] == "custom" and select["options"][-1] == {"value": "custom", "label": "your own matrices"}
    assert panel(scene, "head1")["title"] == "Head 1 weights A¹: your own matrices"
    assert FIG.apply(new, {"type": "set", "name": "head1", "value": "custom"}) == new  # kept as it is
    new = FIG.apply(state, {"type": "set", "name": "W_O.3.0", "value": "\u22121"})
    assert new["W_O"][3] == [-1.0, 0.5]
    assert [[c["value"] for c in row] for row in control(FIG.scene(new), "W_O2")["rows"]] == [["0.5", "0"], ["-1", "0.5"]]


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("h2.W_Q.0.1", "abc", "Wq² row 1, column 2 must be a number, got 'abc'"),
        ("h1.W_V.1.0", "1e999", "Wv¹ row 2, column 1 must be a finite number, got '1e999'"),
        ("h1.W_K.0.0", "", "Wk¹ row 1, column 1 is empty: type a number such as 0.5"),
        ("W_O.2.1", "7", "Wo row 3, column 2 must be from -5 to 5, got 7"),
        ("W_O.4.0", "1", "attention-heads has no control named 'W_O.4.0'"),
        ("h3.W_Q.0.0", "1", "attention-heads has no control named 'h3.W_Q.0.0'"),
        ("head1", "axis9", "head1 must be one of axis1, axis2, whole, got 'axis9'"),
        ("sentence", "poem", "sentence must be one of repeat, pronoun, river, money, both, got 'poem'"),
        ("query", "9", "query: expected a word of the sentence (the, cat, ate, because, it, was, hungry) or a "
                       "position from 0 to 6, got '9'"),
    ],
)
def test_refused_input_names_the_field_and_keeps_the_state(name, value, message):
    state = first_state()
    with pytest.raises(FieldError) as info:
        FIG.apply(state, {"type": "set", "name": name, "value": value})
    assert (info.value.name, info.value.message) == (name, message)
    reply = runtime.step("attention-heads", state, {"type": "set", "name": name, "value": value})
    assert reply == {"ok": False, "error": message, "field": name}


def test_select_a_cell_or_a_value():
    state = first_state()
    assert FIG.apply(state, {"type": "select", "mark": "a1", "index": [2, 0]})["query"] == 2
    assert FIG.apply(state, {"type": "select", "mark": "a2", "index": [4, 6]})["query"] == 4
    assert FIG.apply(state, {"type": "select", "mark": "value", "index": 1})["query"] == 1
    for mark in ("a3-1-1", "a1-7-0", "o1", "value-9"):
        with pytest.raises(ValueError) as info:
            FIG.apply(state, {"type": "select", "mark": mark})
        assert str(info.value) == f"attention-heads cannot select the mark {mark!r}"


def test_w_o_block_presets_and_reset():
    state = first_state()
    new = act(state, "W_O2=0")
    assert new["W_O"] == HALF + [[0.0, 0.0], [0.0, 0.0]]
    values = FIG.scene(new)["values"]
    assert values["outputs"] == values["contributions"][0]  # only head 1 is left
    new = act(new, "W_O1=I")
    assert new["W_O"][:2] == [[1.0, 0.0], [0.0, 1.0]]
    presets = control(FIG.scene(new), "W_O1")["presets"]
    assert [p["name"] for p in presets if p["active"]] == ["W_O1=I"]
    new = act(act(new, "copy"), "reset")
    for key in RESET_KEYS:
        assert new[key] == state[key]
    assert new["message"] == HINT
    with pytest.raises(ValueError, match="attention-heads has no preset 'twice' for W_O1"):
        act(state, "W_O1=twice")
    with pytest.raises(ValueError, match="attention-heads has no action 'fly'"):
        act(state, "fly")
    with pytest.raises(ValueError, match="attention-heads does not know the event type 'drag'"):
        FIG.apply(state, {"type": "drag", "mark": "o1", "x": 0, "y": 0})


def test_two_views_sets_the_figure():
    state = FIG.patch(first_state(sentence="river", head1="whole"), {"query": 0})
    state = act(state, "two-views")
    assert state["sentence"] == "pronoun" and state["tokens"][state["query"]] == "hungry"
    assert state["heads"] == [ah.head_matrices("axis1"), ah.head_matrices("axis2")]
    values = FIG.scene(state)["values"]
    for h in range(2):
        assert num(max(values["weights"][h][6])) in state["message"]
    assert vec(values["outputs"][6]) in state["message"]


# --- scene --------------------------------------------------------------------------------


def check_scene(scene, state):
    json.dumps(scene, allow_nan=False)
    tokens = state["tokens"]
    n = len(tokens)
    i = state["query"]
    X, m = direct(state)
    assert [p["id"] for p in scene["panels"]] == ["head1", "head2", "outputs", "combine", "readout"]
    for text in texts(scene):
        assert not re.search(r"<[a-zA-Z/!]", text), text
        assert not re.search(r"\b(nan|inf)\b", text.lower()), text
    for h in range(2):
        table = panel(scene, f"head{h + 1}")
        assert table["kind"] == "cells" and table["wide"] is False and table["active_row"] == i
        assert len(table["rows"]) == n
        for a, row in enumerate(table["rows"]):
            for b, cell in enumerate(row):
                assert cell["id"] == f"a{h + 1}-{a}-{b}" and cell["select"] is True
                assert cell["text"] == num(m.heads[h].weights[a][b])
                assert 0.0 <= cell["tone"] <= 1.0 and cell["link"] == f"t{b}"
    plane = panel(scene, "outputs")
    lo, hi = plane["x"]
    assert plane["y"] == plane["x"] and lo == -hi
    points = {mk["id"]: mk for mk in plane["marks"] if mk["kind"] == "point"}
    for mk in plane["marks"]:
        for key in ("x", "y", "x1", "y1", "x2", "y2"):
            if key in mk:
                assert math.isfinite(mk[key]) and lo <= mk[key] <= hi, mk
    assert [points["o1"]["x"], points["o1"]["y"]] == m.heads[0].outputs[i]
    assert [points["o2"]["x"], points["o2"]["y"]] == m.heads[1].outputs[i]
    assert [points["combined"]["x"], points["combined"]["y"]] == m.outputs[i]
    arrows = {mk["id"]: mk for mk in plane["marks"] if mk["kind"] == "arrow"}
    c1 = m.contributions[0][i]
    assert [arrows["part1"]["x2"], arrows["part1"]["y2"]] == c1
    assert [arrows["part2"]["x2"], arrows["part2"]["y2"]] == pytest.approx(m.outputs[i], abs=1e-12)
    combine = panel(scene, "combine")["paragraphs"]
    assert vec(m.concat[i]) in combine[1] and combine[2].endswith(vec(m.outputs[i]))
    assert combine[3].endswith(vec(m.outputs[i]))
    kinds = [(c["name"], c["kind"]) for c in scene["controls"]]
    assert kinds == [("sentence", "select"), ("query", "select"), ("experiments", "buttons"),
                     ("head1", "select"), ("h1.W_Q", "matrix"), ("h1.W_K", "matrix"), ("h1.W_V", "matrix"),
                     ("head2", "select"), ("h2.W_Q", "matrix"), ("h2.W_K", "matrix"), ("h2.W_V", "matrix"),
                     ("W_O1", "matrix"), ("W_O2", "matrix")]
    for h in range(2):
        for which in ah.MATRICES:
            rows = control(scene, f"h{h + 1}.{which}")["rows"]
            assert [[float(c["value"]) for c in row] for row in rows] == state["heads"][h][which]
        rows = control(scene, f"W_O{h + 1}")["rows"]
        assert [[c["name"] for c in row] for row in rows] == [
            [f"W_O.{r}.{c}" for c in range(2)] for r in (2 * h, 2 * h + 1)]
    v = scene["values"]
    assert set(v) == {"sentence", "tokens", "query", "X", "heads", "weights", "head_outputs", "concat",
                      "contributions", "outputs", "W_O"}
    assert v["tokens"] == tokens and v["query"] == i and v["W_O"] == state["W_O"]
    assert v["outputs"] == m.outputs and v["concat"] == m.concat


@pytest.mark.parametrize("key", shared.SENTENCE_KEYS)
def test_scene_invariants_for_every_sentence_and_token(key):
    state = FIG.apply(first_state(), {"type": "set", "name": "sentence", "value": key})
    for query in range(len(state["tokens"])):
        state = FIG.apply(state, {"type": "set", "name": "query", "value": query})
        check_scene(FIG.scene(state), state)
        check_scene(FIG.scene(act(state, "copy")), act(state, "copy"))


@settings(max_examples=40, deadline=None)
@given(
    key=st.sampled_from(shared.SENTENCE_KEYS),
    query=st.integers(0, 5),
    typed=st.lists(st.tuples(st.sampled_from(["h1", "h2"]), st.sampled_from(ah.MATRICES),
                             st.integers(0, 1), st.integers(0, 1), st.floats(-5, 5, allow_nan=False)),
                   max_size=5),
)
def test_scene_invariants_hold_for_any_typed_heads(key, query, typed):
    state = FIG.patch(first_state(), {"sentence": key, "query": query})
    for h, which, r, c, x in typed:
        state = FIG.apply(state, {"type": "set", "name": f"{h}.{which}.{r}.{c}", "value": repr(x)})
    check_scene(FIG.scene(state), state)


# --- golden first frame ---------------------------------------------------------------------


def test_golden_first_frame():
    """The lesson's first frame, reviewed by hand. On a mismatch the new scene is written
    beside the golden as NAME.new.json for review; if it is right, move it over."""
    check_golden_split(FIG.scene(first_state(query="hungry")), GOLDEN)


# --- the lesson quotes the engine ------------------------------------------------------------


def lesson_numbers():
    start = first_state(query="hungry")
    _, m = direct(start)
    _, same = direct(act(start, "copy"))
    _, it = direct(FIG.apply(start, {"type": "set", "name": "query", "value": "it"}))
    i = 6
    claims = [
        f"{num(m.heads[0].weights[i][1])} on *cat*",
        f"{num(m.heads[1].weights[i][2])} on *ate*",
        f"$o^1 =$ {vec(m.heads[0].outputs[i])}",
        f"$o^2 =$ {vec(m.heads[1].outputs[i])}",
        f"$[o^1, o^2] =$ {vec(m.concat[i])}",
        f"{vec(m.contributions[0][i])} + {vec(m.contributions[1][i])} = {vec(m.outputs[i])}",
        f"both heads put {num(same.heads[0].weights[i][1])} on *cat*",
        f"$o^1 = o^2 = {vec(same.heads[0].outputs[i])}$",
        f"*it* and head 1 puts {num(it.heads[0].weights[4][1])} on *cat*",
    ]
    assert max(it.heads[1].weights[4]) < 0.25  # "head 2 spreads its weight thinly"
    assert [best(h.weights[i]) for h in m.heads] == [1, 2]
    return [c.replace("−", "-") for c in claims]


def test_the_lesson_states_the_engine_numbers():
    text = " ".join(lesson_as_built(LESSON).split())
    for claim in lesson_numbers():
        assert " ".join(claim.split()) in text, claim


def test_the_lesson_places_the_figure_with_valid_options():
    text, options = lesson_figure(LESSON, FIG, "heads")
    assert options.pop("caption")  # every figure of the track is captioned (tests/test_lessons.py)
    assert options == {"query": "hungry"}
    assert questions(text) >= 3


# --- a message never outlives its experiment -------------------------------------------


@pytest.mark.parametrize("event", [
    {"type": "set", "name": "sentence", "value": "repeat"},
    {"type": "set", "name": "query", "value": "2"},
    {"type": "set", "name": "head2", "value": "custom"},
    {"type": "set", "name": "h1.W_Q.0.0", "value": "0.3"},
    {"type": "set", "name": "W_O.0.0", "value": "0.3"},
    {"type": "action", "name": "W_O2=0"},
    {"type": "select", "mark": "a1", "index": [1, 2]},
])
def test_any_other_event_ends_the_experiment(event):
    """Regression: after "Give head 2 head 1's matrices" a W_O preset left the message
    saying the two heads agree, beside a figure where they no longer did."""
    for experiment in ("two-views", "copy"):
        state = FIG.apply(first_state(), {"type": "action", "name": experiment})
        assert state["experiment"] == experiment
        after = FIG.apply(state, event)
        assert after["experiment"] is None and after["message"] == HINT
        buttons = control(FIG.scene(after), "experiments")
        assert not any(item.get("active") for item in buttons["items"])
        assert buttons["message"] == HINT




def test_no_diamond_hides_a_value_or_an_arrowhead():
    """Regression: the multi-head diamond hid the value dot of "hungry" and the end of the
    second dashed arrow. Rings (the asker's values) first, then diamonds, then arrows, then
    the other values."""
    marks = panel(FIG.scene(first_state()), "outputs")["marks"]
    kinds = [("ring" if m.get("shape") == "ring" else m.get("shape") if m["kind"] == "point" else m["kind"])
             for m in marks if m["kind"] in ("point", "arrow")]
    assert kinds == sorted(kinds, key=["ring", "diamond", "arrow", "circle"].index)
    ring = next(m for m in marks if m.get("shape") == "ring")
    assert ring["size"] - 1.5 >= max(m["size"] for m in marks if m.get("shape") == "diamond") * 1.4
    # a reader's finding: the second arrow's head covered the multi-head diamond it ends at;
    # its tip stops at the diamond's edge, hovered (1.3 times as large)
    combined = next(m for m in marks if m.get("id") == "combined")
    part2 = next(m for m in marks if m.get("id") == "part2")
    assert (part2["x2"], part2["y2"]) == (combined["x"], combined["y"])
    assert part2["gap"] >= combined["size"] * 1.4 * 1.3


def test_identical_heads_put_their_diamonds_on_one_spot_each_with_its_label():
    """The renderer shares one label among coincident points; the figure sends each
    diamond's own label and no label marks."""
    state = FIG.apply(first_state(), {"type": "action", "name": "copy"})
    marks = panel(FIG.scene(state), "outputs")["marks"]
    diamonds = [m for m in marks if m.get("shape") == "diamond"]
    assert [m["label"] for m in diamonds] == ["o¹", "o²", "multi-head"]
    assert len({(m["x"], m["y"]) for m in diamonds}) == 1
    assert not [m for m in marks if m["kind"] == "label" or "anchor" in m]


def test_every_value_is_declared_with_a_format():
    scene = FIG.scene(first_state())
    assert {v.name for v in FIG.values} == set(scene["values"])
    assert [p["name"] for p in FIG.manifest()["params"]] == ["sentence", "query", "head1", "head2", "W_O"]
    assert [e["name"] for e in FIG.manifest()["experiments"]] == ["two-views", "copy"]


def test_a_head_menu_follows_its_matrices():
    """Typing a cell makes the head "your own matrices"; typing it back makes it the
    preset again; picking a preset from the menu sets all three matrices."""
    state = FIG.apply(first_state(), {"type": "set", "name": "h2.W_Q.1.1", "value": "1"})
    assert state["head2"] == "custom" and control(FIG.scene(state), "head2")["value"] == "custom"
    state = FIG.apply(state, {"type": "set", "name": "h2.W_Q.1.1", "value": "2"})
    assert state["head2"] == "axis2" and len(control(FIG.scene(state), "head2")["options"]) == 3
    state = FIG.apply(state, {"type": "set", "name": "W_O", "value": "sum"})
    assert state["W_O"] == [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]
