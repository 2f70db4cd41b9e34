"""The attention-lab figure in its lesson: the numbers the lesson states are the
engine's, a message never outlives its experiment, and the labels and drawing order a
reader sees (test_figure_attention_lab.py: options, events and the helpers)."""
from __future__ import annotations

import pytest

from explorables.engine.figures import FIGURES
from explorables.engine.figures import attention_lab as lab
from explorables.engine.figures import sentences as shared
from explorables.figures import HINT, best, num, vec
from figure_helpers import control, lesson_as_built, lesson_figure, panel, questions, texts
from test_figure_attention_lab import FIG, LESSON, act, direct, first_state
from test_figure_attention_lab_scene import check_scene


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
