"""The attention-lab figure's experiments, its scene wherever a reader goes, and its
golden first frame (test_figure_attention_lab.py: options and events, and the helpers).

Each experiment sets the figure and quotes the engine's numbers; every scene survives
``json.dumps(..., allow_nan=False)``, its outputs in the hull of the values, its values
equal to direct ``engine.embed_with_position`` and ``engine.self_attention`` calls.
"""
from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables import engine
from explorables.engine import runtime
from explorables.engine.figures import sentences as shared
from explorables.figures import best, num, vec
from figure_helpers import check_golden_split, control, is_num, links, panel, texts
from test_figure_attention_lab import FIG, GOLDEN, I2, MATRICES, act, direct, first_state, word


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


@pytest.mark.parametrize("key, query", [("repeat", 4), ("pronoun", 4), ("river", 5), ("money", 5)])
def test_each_sentence_and_its_own_query(key, query):
    state = first_state(sentence=key)
    assert state["query"] == query
    check_scene(FIG.scene(state), state)


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
