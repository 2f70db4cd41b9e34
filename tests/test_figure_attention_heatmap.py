"""The attention-heatmap figure model: options, events, scene, and a golden first frame.

Every number the figure shows must be the engine's: the table, the entropies and the
outputs are compared with a direct ``engine.attention`` call on the same tokens and masks,
and the first frame with reviewed golden files to 1e-9: its structure
(tests/golden/attention_heatmap.json) apart from its wording (attention_heatmap.words.json).
The scene must survive ``json.dumps(..., allow_nan=False)``.
"""
from __future__ import annotations

import json
import math
import re
import statistics
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables import engine
from explorables.engine import runtime
from explorables.engine.figures import FIGURES, FieldError
from explorables.engine.figures import attention_heatmap as hm
from explorables.engine.figures.attention_heatmap import table as hm_table
from explorables.engine.figures.kit.rounding import rounded
from explorables.figures import HINT, num, pct, vec
from figure_helpers import ROOT, check_golden_split, control, lesson_as_built, lesson_figure, panel, questions
import figure_helpers

FIG = FIGURES["attention-heatmap"]
GOLDEN = ROOT / "tests" / "golden" / "attention_heatmap.json"
LESSON = ROOT / "content" / "02-attention-heatmap.md"
EXPERIMENTS = [e.name for e in hm.EXPERIMENTS]
SENTENCE = "the old dog chased a small cat across the quiet garden ."


first_state = partial(figure_helpers.first_state, FIG)  # first_state(query="it")
errors_of = partial(figure_helpers.errors_of, FIG)  # errors_of({"dim": "5"}) -> [(option, message)]


def set_(state, name, value):
    return FIG.apply(state, {"type": "set", "name": name, "value": value})


def direct(state):
    """The table computed straight from the engine, not through the figure: the first n
    tokens and p [PAD] tokens of zero vectors, whose keys are masked."""
    n, p = state["n"], state["padding"]
    d_k, d_v = len(state["q"][0]), len(state["v"][0])
    return engine.attention(
        state["q"][:n] + [[0.0] * d_k] * p, state["k"][:n] + [[0.0] * d_k] * p,
        state["v"][:n] + [[0.0] * d_v] * p, causal=state["causal"],
        mask=[j < n for j in range(n + p)],
    )


V_WORKED = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]  # the values of the lesson's worked table

CUSTOM = {
    "tokens": "I saw her",
    "queries": "1, 0; 0, 1; 0.5, 0.5",
    "keys": "1, 0; 0, 1; -1, -1",
    "values": "1, 1, 0; -1, 1, 0; 0, −2, 1",
}


# --- options and presets -----------------------------------------------------------------------


def test_defaults_give_the_sentence_preset():
    state = first_state()
    assert " ".join(state["tokens"]) == SENTENCE
    assert state["n"] == 12 and state["view"] == "weights" and state["padding"] == 0
    assert state["causal"] is False and state["query"] == 2  # dog
    assert all(len(row) == 4 for m in ("q", "k", "v") for row in state[m])
    assert state["value_names"] == ["noun", "verb", "det/adj", "other"]
    assert json.loads(json.dumps(state, allow_nan=False)) == state
    assert all(o.doc.strip() for o in FIG.options)


def test_the_sentence_vectors_follow_their_recipe():
    """Keys (noun, verb, position code) x 1.5; queries (seek noun, seek verb, code of the
    place sought) x 3; two decimals."""
    p = hm.built_in("sentence")
    for j, kind in enumerate(hm.KINDS):
        s, c = engine.position_code(j, hm.OMEGA)
        assert p["k"][j] == [round(x, 2) for x in (1.5 * (kind == "noun"), 1.5 * (kind == "verb"), 1.5 * s, 1.5 * c)]
    assert p["q"][11] == [0.0, 0.0, 0.0, 0.0]  # the full stop asks nothing
    assert p["q"][0] == p["q"][1] == p["q"][3]  # the, old and chased all look for the noun at position 2


def test_the_random_preset_has_unit_spread():
    p = hm.built_in("random")
    assert len(p["tokens"]) == 16 and all(len(r) == 8 for r in p["q"] + p["k"] + p["v"])
    entries = [x for r in p["q"] + p["k"] + p["v"] for x in r]
    assert abs(statistics.fmean(entries)) < 0.15 and 0.85 < statistics.pstdev(entries) < 1.15


def test_importing_the_figure_makes_no_preset():
    """The presets are made when first asked for, not when the reader's worker imports the
    figure (a fresh interpreter: this one's tests have asked for them)."""
    import subprocess
    import sys

    script = ("import explorables.engine.figures.attention_heatmap.presets as p; "
              "print(p.built_in.cache_info().currsize, p.NAMES)")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "0 ('sentence', 'random')"


def test_custom_tokens_with_their_vectors():
    state = first_state(**CUSTOM, query="her", causal="true")
    assert state["tokens"] == ["I", "saw", "her"] and state["preset"] == "custom"
    assert state["v"][2] == [0.0, -2.0, 1.0] and state["value_names"] == ["v1", "v2", "v3"]
    assert state["query"] == 2
    check_scene(FIG.scene(state), state)
    assert [o["value"] for o in control(FIG.scene(state), "preset")["options"]][0] == "custom"


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"preset": "sentense"}, [("preset", "expected one of sentence, random, got 'sentense' (did you mean 'sentence'?)")]),
        ({"view": "heat"}, [("view", "expected one of weights, scores, unscaled, got 'heat'")]),
        ({"length": "13"}, [("length", "expected an integer from 0 to 12 (the number of tokens), got 13")]),
        ({"length": "17"}, [("length", "expected an integer from 0 to 16, got '17'")]),
        ({"padding": "5"}, [("padding", "expected an integer from 0 to 4, got '5'")]),
        ({"query": "cow"}, [("query", "expected a word of the sentence (the, old, dog, chased, a, small, cat, "
                                      "across, the, quiet, garden, .) or a position from 0 to 11, got 'cow'")]),
        ({"query": "garden", "length": "6"},
         [("query", "expected a token among the first 6 (the table's length), got 'garden'")]),
        ({"causal": "perhaps"}, [("causal", "expected true or false, got 'perhaps'")]),
        ({"keys": "1, 0"}, [("keys", "vectors need your own :tokens: (one word a row); the preset 'sentence' "
                                     "has vectors of its own")]),
        ({"tokens": "I saw her"}, [("queries", "your own :tokens: need their vectors: add :queries:, :keys:, "
                                               ":values: with 3 rows each, like '1, 0, 0.5; 0, 2, -1'")]),
        ({**CUSTOM, "keys": "1, 0; 0, 1"}, [("keys", "expected 3 rows, one for each token of 'I saw her', got 2")]),
        ({**CUSTOM, "keys": "1, 0, 0; 0, 1, 0; 1, 1, 1"},
         [("keys", "the keys have 3 numbers a row but the queries have 2; queries and keys must have the "
                   "same length d_k")]),
        ({**CUSTOM, "queries": "1, 0; 0; 1, 1"},
         [("queries", "row 2 of the queries has 1 numbers but row 1 has 2; every row needs the same length")]),
        ({**CUSTOM, "queries": "1, 0;; 1, 1"},
         [("queries", "row 2 of the queries is empty: write one number per coordinate, like '1, 0, 0.5, 2'")]),
        ({**CUSTOM, "values": "1, a; 0, 1; 1, 1"},
         [("values", "row 1 of the values must be numbers separated by commas, got '1, a'")]),
        ({**CUSTOM, "values": "1, 11; 0, 1; 1, 1"},
         [("values", "row 1 of the values must have numbers from -10 to 10, got '1, 11'")]),
        ({**CUSTOM, "values": "1,2,3,4,5,6,7,8,9; 0; 1"},
         [("values", "row 1 of the values has 9 numbers; vectors may have at most 8")]),
        ({**CUSTOM, "tokens": " ".join(f"w{j}" for j in range(17))},
         [("tokens", "expected 1 to 16 words separated by spaces, got 17 words"),
          ("queries", "expected 17 rows, one for each token of '" + " ".join(f"w{j}" for j in range(17))
           + "', got 3"),
          ("keys", "expected 17 rows, one for each token of '" + " ".join(f"w{j}" for j in range(17))
           + "', got 3"),
          ("values", "expected 17 rows, one for each token of '" + " ".join(f"w{j}" for j in range(17))
           + "', got 3")]),
    ],
)
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


# --- events: state + event -> state ------------------------------------------------------------


def test_view_flips_between_scores_and_weights():
    state = set_(first_state(), "view", "scores")
    table = panel(FIG.scene(state), "table")
    r = direct(state)
    assert table["rows"][2][3]["text"] == num(r.scores[2][3])
    assert table["title"].startswith("Scaled scores")
    state = set_(state, "view", "weights")
    assert panel(FIG.scene(state), "table")["rows"][2][3]["text"] == num(r.weights[2][3])
    with pytest.raises(FieldError, match="view must be one of weights, scores, unscaled, got 'heat'"):
        set_(state, "view", "heat")


def test_length_grows_the_table_as_n_squared_and_clamps_the_query():
    state = FIG.patch(first_state(), {"padding": 2, "query": "garden"})
    state = set_(state, "n", 4)
    assert (state["n"], state["padding"], state["query"]) == (4, 2, 3)
    scene = FIG.scene(state)
    table = panel(scene, "table")
    assert len(table["rows"]) == 6 and all(len(r) == 6 for r in table["rows"])
    assert "n = 4 tokens and 2 [PAD], so the table has 6² = 36 cells" in table["caption"]
    assert scene["values"]["cells"] == 36 and control(scene, "padding")["max"] == hm.PAD_MAX
    for n in (1, 7, 12):
        scene = FIG.scene(set_(first_state(), "n", n))
        assert scene["values"]["cells"] == n * n
        assert sum(len(r) for r in panel(scene, "table")["rows"]) == n * n
    for bad, message in [(0, "length n must be a whole number from 1 to 12, got 0"),
                         (13, "length n must be a whole number from 1 to 12, got 13"),
                         ("x", "length n must be a number, got 'x'")]:
        with pytest.raises(FieldError) as info:
            set_(first_state(), "n", bad)
        assert (info.value.name, info.value.message) == ("n", message)


def test_padding_appends_pad_tokens_whose_keys_no_query_reads():
    """Regression: "Pad the last 3" relabelled the real words quiet, garden and . as
    padding and kept their rows; padding is filler appended to the sentence."""
    state = set_(first_state(), "padding", 3)
    scene = FIG.scene(state)
    weights = scene["values"]["weights"]
    assert len(weights) == 15 and all(row[12:] == [0.0, 0.0, 0.0] for row in weights)
    assert all(math.fsum(row) == pytest.approx(1, abs=1e-4) for row in weights)  # each weight to 5 decimals
    # the words' rows keep exactly the weights they had without the padding
    assert [row[:12] for row in weights[:12]] == rounded(direct(first_state()).weights)
    table = panel(scene, "table")
    labels = [c["text"] for c in table["col_labels"]]
    assert labels == SENTENCE.split() + ["[PAD]"] * 3
    assert all(cell["muted"] and "select" not in cell for row in table["rows"][12:] for cell in row)
    assert all("select" not in label for label in table["row_labels"][12:])
    assert len(panel(scene, "entropy")["rows"]) == 12 and len(panel(scene, "outputs")["rows"]) == 12
    with pytest.raises(ValueError, match="cannot select the mark 'row-12'"):
        FIG.apply(state, {"type": "select", "mark": "row", "index": 12})
    with pytest.raises(FieldError, match="padding must be a whole number from 0 to 4, got 5"):
        set_(state, "padding", 5)


def test_causal_mask_hides_the_upper_triangle():
    state = set_(first_state(), "causal", True)
    r = direct(state)
    assert FIG.scene(state)["values"]["weights"] == rounded(r.weights)
    assert all(r.weights[i][j] == 0.0 for i in range(12) for j in range(i + 1, 12))
    assert r.weights[0][0] == 1.0
    table = panel(FIG.scene(set_(state, "view", "scores")), "table")
    assert table["rows"][0][1]["text"] == "−∞" and table["rows"][0][1]["muted"] is True
    assert set_(state, "causal", "false")["causal"] is False
    with pytest.raises(FieldError, match="causal must be true or false, got 'x'"):
        set_(state, "causal", "x")


def test_select_a_cell_or_a_row_label_picks_the_row():
    state = first_state()
    assert FIG.apply(state, {"type": "select", "mark": "cell", "index": [5, 0]})["query"] == 5
    assert FIG.apply(state, {"type": "select", "mark": "row", "index": 11})["query"] == 11
    for mark, index, bad in (("cell", [12, 0], "cell-12-0"), ("cell", 1, "cell-1"), ("row", [1, 2], "row-1-2"),
                             ("row-x", None, "row-x"), ("t3", None, "t3"), ("cell", [1, 2, 3], "cell-1-2-3")):
        with pytest.raises(ValueError, match=f"cannot select the mark '{bad}'"):
            FIG.apply(state, {"type": "select", "mark": mark, "index": index})
    assert set_(state, "query", "garden")["query"] == 10
    with pytest.raises(FieldError):
        set_(state, "query", "cow")


def test_typed_vectors_change_the_numbers_exactly():
    state = first_state()
    state = set_(state, "k.3.1", " 0.25 ")  # chased's key: less of a verb
    state = set_(state, "q.2.0", "\u22121.5")
    state = set_(state, "v.3.1", "2")
    assert state["k"][3][1] == 0.25 and state["q"][2][0] == -1.5 and state["v"][3][1] == 2.0
    assert state["query"] == 3  # the token whose vectors were typed is picked
    scene = FIG.scene(state)
    r = direct(state)
    assert scene["values"]["weights"] == rounded(r.weights) and scene["values"]["outputs"] == rounded(r.outputs)
    (grid,) = [c for c in scene["controls"] if c["kind"] == "grid"]
    assert [[c["name"] for c in row["cells"]] for row in grid["rows"]] == [[f"{m}.3.{c}" for m in "qkv"] for c in range(4)]
    assert [row["cells"][1]["value"] for row in grid["rows"]] == ["0", "0.25", "1.5", "0.11"]


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("k.3.1", "abc", "coordinate 2 of the key of “chased” must be a number, got 'abc'"),
        ("k.3.1", "1e999", "coordinate 2 of the key of “chased” must be a finite number, got '1e999'"),
        ("k.3.1", "", "coordinate 2 of the key of “chased” is empty: type a number such as 0.5"),
        ("q.0.3", "11", "coordinate 4 of the query of “the” must be from -10 to 10, got 11"),
        ("v.11.0", "nan", "coordinate 1 of the value of “.” must be a finite number, got 'nan'"),
        ("k.12.0", "1", "attention-heatmap has no control named 'k.12.0'"),
        ("k.0.4", "1", "attention-heatmap has no control named 'k.0.4'"),
        ("w.0.0", "1", "attention-heatmap has no control named 'w.0.0'"),
    ],
)
def test_bad_typed_input_is_refused_and_the_state_kept(name, text, message):
    state = first_state()
    with pytest.raises(FieldError) as info:
        set_(state, name, text)
    assert (info.value.name, info.value.message) == (name, message)
    reply = runtime.step("attention-heatmap", state, {"type": "set", "name": name, "value": text})
    assert reply == {"ok": False, "error": message, "field": name}
    assert state == first_state()


def test_eight_coordinates_are_named_by_number():
    state = set_(first_state(), "preset", "random")
    with pytest.raises(FieldError) as info:
        set_(state, "q.0.7", "x")
    assert info.value.message == "coordinate 8 of the query of “x1” must be a number, got 'x'"


def test_presets_switch_and_the_authors_tokens_come_back():
    state = first_state(**CUSTOM)
    state = set_(state, "preset", "random")
    assert len(state["tokens"]) == 16 and state["n"] == 16 and state["preset"] == "random"
    check_scene(FIG.scene(state), state)
    state = set_(state, "preset", "custom")
    assert state["tokens"] == ["I", "saw", "her"] and state["v"][2] == [0.0, -2.0, 1.0]
    with pytest.raises(FieldError, match="preset must be one of sentence, random, got 'custom'"):
        set_(first_state(), "preset", "custom")


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_each_experiment_sets_the_controls_and_says_what_to_look_for(name):
    state = FIG.patch(first_state(), {"n": 9, "k.0.0": "2"})  # a reader's edits, undone
    new = FIG.apply(state, {"type": "action", "name": name})
    assert new["experiment"] == name and new["message"] != HINT
    assert "nan" not in new["message"].lower()
    scene = FIG.scene(new)
    assert control(scene, "experiments")["message"] == new["message"]
    check_scene(scene, new)
    assert FIG.apply(first_state(), {"type": "action", "name": name}) == new
    back = FIG.apply(new, {"type": "action", "name": "reset"})
    assert back == {**first_state(), "message": HINT}


def test_experiment_messages_quote_the_engine():
    start = first_state()
    state = FIG.apply(start, {"type": "action", "name": "peaked-flat"})
    r = direct(state)
    assert state["query"] == 2
    assert f"{pct(r.weights[2][3])} goes to “chased” and its entropy is {r.entropy[2]:.2f} nats" in state["message"]
    assert f"The flattest is “.” with {r.entropy[11]:.2f} nats" in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "causal"})
    assert state["causal"] is True and "66 of 144 cells" in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "padding"})
    assert state["padding"] == 3 and "so 45 cells of 225 get weight 0" in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "grow"})
    assert state["n"] == 6 and "36 cells" in state["message"] and "144 cells, 4 times" in state["message"]

    state = FIG.apply(start, {"type": "action", "name": "why-scale"})
    assert state["preset"] == "random" and state["view"] == "scores"
    raw = [engine.dot(q, k) for q in state["q"] for k in state["k"]]
    r = direct(state)
    scaled = [s for row in r.scores for s in row]
    assert f"spread of {statistics.pstdev(raw):.2f}" in state["message"]
    assert f"the scores have {statistics.pstdev(scaled):.2f}" in state["message"]
    assert FIG.apply(state, {"type": "action", "name": "reset"})["preset"] == "sentence"


def buttons(state) -> list[str]:
    return [item["name"] for item in control(FIG.scene(state), "experiments")["items"]]


def test_raw_scores_with_the_causal_mask_name_only_keys_the_row_can_read():
    """Regression: with the causal mask on, "Show the raw scores" named the lowest score
    of the row even when the mask hid that key, and printed its weight as 0.000."""
    start = first_state(causal="true", query="dog")  # dog reads the, old and itself
    state = FIG.apply(start, {"type": "action", "name": "scores"})
    r = direct(state)
    readable = [0, 1, 2]
    lo = min(readable, key=lambda j: r.scores[2][j])
    hi = max(readable, key=lambda j: r.scores[2][j])
    assert (lo, hi) != (min(range(12), key=lambda j: r.scores[2][j]), max(range(12), key=lambda j: r.scores[2][j]))
    message = state["message"]
    assert (f"In the row of “dog” over the 3 keys it can read they run from {num(r.scores[2][lo])} "
            f"(“{state['tokens'][lo]}”) to {num(r.scores[2][hi])} (“{state['tokens'][hi]}”)") in message
    assert f"weights {num(r.weights[2][lo], 3)} and {num(r.weights[2][hi])}" in message
    assert "weights 0.000" not in message
    for word in set(state["tokens"][3:]) - set(state["tokens"][:3]):  # masked for dog
        assert f"“{word}”" not in message
    first_row = FIG.apply(first_state(causal="true", query="the"), {"type": "action", "name": "scores"})
    assert "The row of “the” can read one key only, “the”, so its score" in first_row["message"]


def test_peaked_and_flat_rows_leave_out_rows_that_read_one_key():
    """Regression: "Peaked and flat rows" took the causal mask's first row, which can read
    only itself (weight 1, entropy 0), for the most peaked row; and it measured the
    flattest row against ln n instead of ln of the keys that row can read."""
    start = first_state(causal="true")
    state = FIG.apply(start, {"type": "action", "name": "peaked-flat"})
    r = direct(state)
    choosing = [i for i in range(12) if sum(r.mask[i]) >= 3]  # fewer keys: neither peaked nor flat
    assert state["query"] != 0 and state["query"] in choosing
    h = {i: r.entropy[i] / math.log(sum(r.mask[i])) for i in choosing}
    assert state["query"] == min(h, key=h.get)
    high = max(h, key=h.get)
    m = sum(r.mask[high])
    assert f"against ln {m} = {num(math.log(m))} for a perfectly even row over its {m} keys" in state["message"]
    # with no mask every row reads all 12 keys, as before
    plain = FIG.apply(first_state(), {"type": "action", "name": "peaked-flat"})
    assert "against ln 12 = 2.48 for a perfectly even row over its 12 keys" in plain["message"]


def test_experiments_that_need_a_choice_are_left_out_where_every_row_reads_one_key():
    """Regression: with every row reading one key, "Peaked and flat rows" had no row to
    compare but still picked one; a row of two keys is too short to judge too."""
    start = first_state(length=2, padding=3)
    assert buttons(start) == ["scores", "causal", "padding", "grow", "why-scale", "reset"]
    with pytest.raises(ValueError, match="the experiment 'peaked-flat' needs a row that can read three keys or more"):
        FIG.apply(start, {"type": "action", "name": "peaked-flat"})
    assert buttons(first_state(length=1)) == ["scores", "padding", "grow", "why-scale", "reset"]
    assert buttons(first_state()) == EXPERIMENTS + ["reset"]


@settings(max_examples=40, deadline=None)
@given(length=st.integers(1, 12), padding=st.integers(0, 4), causal=st.booleans(), query=st.integers(0, 11))
def test_every_shown_experiment_runs_for_any_first_settings(length, padding, causal, query):
    start = first_state(length=length, padding=padding, causal=str(causal).lower(),
                        query=min(query, length - 1))
    shown = buttons(start)[:-1]
    for name in EXPERIMENTS:
        if name in shown:
            state = FIG.apply(start, {"type": "action", "name": name})
            assert "nan" not in state["message"].lower() and "0.000" not in state["message"]
            check_scene(FIG.scene(state), state)
        else:
            with pytest.raises(ValueError, match=f"the experiment '{name}' needs "):
                FIG.apply(start, {"type": "action", "name": name})


def test_growing_from_six_tokens_keeps_the_padding():
    state = FIG.apply(first_state(length=7, padding=4), {"type": "action", "name": "grow"})
    assert (state["n"], state["padding"]) == (6, 4)
    check_scene(FIG.scene(state), state)


def test_padding_counts_the_cells_it_hides_and_the_keys_a_row_can_read():
    """Regression: with the causal mask on too, the padding message counted cells the
    causal mask had already hidden and said the row kept n - p keys."""
    state = FIG.apply(first_state(causal="true", query="dog"), {"type": "action", "name": "padding"})
    # the causal mask already hid the [PAD] keys from every row before them: 1 + 2 + 3 left
    assert "so 6 cells of 225 get weight 0" in state["message"]
    assert "the row of “dog” still reads 3 keys" in state["message"]
    assert "the rows of the 12 tokens keep exactly the weights they had" in state["message"]
    plain = FIG.apply(first_state(), {"type": "action", "name": "padding"})
    assert "so 45 cells of 225 get weight 0" in plain["message"] and "still reads 12 keys" in plain["message"]


def test_unknown_action_and_event():
    with pytest.raises(ValueError, match="no action 'jump'"):
        FIG.apply(first_state(), {"type": "action", "name": "jump"})
    with pytest.raises(ValueError, match="does not know the event type 'drag'"):
        FIG.apply(first_state(), {"type": "drag", "mark": "x", "x": 0, "y": 0})
    with pytest.raises(FieldError, match="has no control named 'colour'"):
        set_(first_state(), "colour", "red")


# --- scene invariants -------------------------------------------------------------------------


def check_scene(scene, state):
    """Everything SCENE.md asks of a scene, and the engine's numbers in every cell."""
    json.dumps(scene, allow_nan=False)
    n, p, i = state["n"], state["padding"], state["query"]
    N = n + p
    tokens = state["tokens"][:n] + ["[PAD]"] * p
    r = hm.result(state, scaled=False) if state["view"] == "unscaled" else direct(state)

    table = panel(scene, "table")
    assert table["kind"] == "cells" and table["active_row"] == i
    assert [c["text"] for c in table["col_labels"]] == tokens
    assert [c.get("id") for c in table["row_labels"]] == [f"row-{a}" for a in range(n)] + [None] * p
    assert all(c["select"] is True for c in table["row_labels"][:n])
    cells = "cell" if n == 1 else "cells"
    assert (f"n² = {n * n} {cells}" if not p else f"{N}² = {N * N} cells") in table["caption"]
    assert len(table["rows"]) == N
    for a, row in enumerate(table["rows"]):
        assert len(row) == N
        for b, cell in enumerate(row):
            hidden = not r.mask[a][b]
            assert hidden == ((state["causal"] and b > a) or b >= n)
            # a flag that is off is left out of the scene (SCENE.md)
            assert cell["id"] == f"cell-{a}-{b}" and cell.get("select", False) is (a < n) and cell["link"] == f"t{b}"
            assert cell.get("muted", False) is (hidden or a >= n) and cell.get("active", False) is (a == i)
            assert -1.0 <= cell["tone"] <= 1.0 and len(cell["detail"]) >= 4
            if state["view"] != "scores":
                assert cell["text"] == ("0" if hidden else num(r.weights[a][b]))
            else:
                assert cell["text"] == ("−∞" if hidden else num(r.scores[a][b]))
            if hidden:
                assert r.weights[a][b] == 0.0 and "exactly 0" in cell["detail"][-1]
            else:
                assert cell["detail"][-1].startswith(f"weight a = {num(r.weights[a][b], 3)}")

    entropy = panel(scene, "entropy")
    assert len(entropy["rows"]) == n and entropy["wide"] is False
    for a, row in enumerate(entropy["rows"]):
        m = sum(r.mask[a])
        assert row[0]["text"] == num(r.entropy[a]) and row[1]["text"] == num(math.log(m))
        assert -1e-12 <= r.entropy[a] <= math.log(m) + 1e-12
        kind = row[3]["text"]
        assert kind == hm.kind_of_row(r.entropy[a], m)
        assert (kind == "one key") == (m == 1) and (kind == "2 keys") == (m == 2)
        if m > 2:
            h = r.entropy[a] / math.log(m)
            assert (kind == "peaked") == (h < hm.PEAKED) and (kind == "flat") == (h > hm.FLAT)

    outputs = panel(scene, "outputs")
    assert [c["text"] for c in outputs["col_labels"]] == state["value_names"]
    for a, row in enumerate(outputs["rows"]):
        seen = [state["v"][b] for b in range(n) if r.mask[a][b]]
        for c, cell in enumerate(row):
            o = r.outputs[a][c]
            assert cell["text"] == num(o)
            # a weighted average stays between the smallest and largest value it averages
            assert min(v[c] for v in seen) - 1e-12 <= o <= max(v[c] for v in seen) + 1e-12

    row_text = " ".join(panel(scene, "row")["paragraphs"])
    assert vec(r.outputs[i]) in row_text
    cost = dict(panel(scene, "cost")["items"])
    assert cost["Cells in the table"] == str(N * N) and cost["Read (not masked)"] == str(sum(map(sum, r.mask)))

    kinds = {c["name"]: c["kind"] for c in scene["controls"]}
    assert {k: v for k, v in kinds.items() if v != "grid"} == {
        "view": "select", "n": "slider", "causal": "toggle", "padding": "slider",
        "preset": "select", "experiments": "buttons"}
    grids = [c for c in scene["controls"] if c["kind"] == "grid"]
    typed = {cell["name"]: float(cell["value"]) for g in grids for row in g["rows"] for cell in row["cells"]}
    assert typed == {f"{m}.{i}.{c}": state[m][i][c] for m in "qkv" for c in range(len(state[m][i]))}

    v = scene["values"]
    assert set(v) == {"tokens", "n", "view", "query", "scores", "weights", "entropy", "outputs",
                      "causal", "padding", "cells"}
    assert (v["tokens"], v["n"], v["view"], v["query"]) == (tokens, n, state["view"], i)
    assert (v["causal"], v["padding"], v["cells"]) == (state["causal"], p, N * N)
    # the engine's numbers, with the digits they are written with (test_figure_attention_heatmap_digits.py)
    assert v["scores"] == rounded(r.scores) and v["weights"] == rounded(r.weights)
    assert v["entropy"] == rounded(r.entropy) and v["outputs"] == rounded(r.outputs)
    for row in v["weights"]:
        assert math.fsum(row) == pytest.approx(1.0, abs=1e-4)


def test_first_frame_invariants():
    state = first_state()
    check_scene(FIG.scene(state), state)


@pytest.mark.parametrize("preset", ["sentence", "random"])
@pytest.mark.parametrize("view", ["weights", "scores", "unscaled"])
@pytest.mark.parametrize("causal", [False, True])
def test_invariants_for_presets_views_and_masks(preset, view, causal):
    state = FIG.patch(first_state(preset=preset), {"view": view, "causal": causal, "padding": 2})
    check_scene(FIG.scene(state), state)


coordinate = st.floats(-10, 10, allow_nan=False)


@settings(max_examples=50, deadline=None)
@given(
    preset=st.sampled_from(["sentence", "random"]),
    n=st.integers(1, 16), padding=st.integers(0, 4), causal=st.booleans(),
    view=st.sampled_from(["weights", "scores", "unscaled"]), query=st.integers(0, 15),
    typed=st.lists(st.tuples(st.sampled_from("qkv"), st.integers(0, 7), coordinate), max_size=4),
)
def test_invariants_wherever_the_reader_goes(preset, n, padding, causal, view, query, typed):
    state = first_state(preset=preset)
    n = min(n, len(state["tokens"]))
    state = FIG.patch(state, {"n": n, "padding": padding, "causal": causal, "view": view})
    state = FIG.apply(state, {"type": "select", "mark": "row", "index": min(query, n - 1)})
    for m, c, x in typed:
        d = len(state[m][0])
        state = set_(state, f"{m}.{state['query']}.{c % d}", repr(x))
    json.dumps(state, allow_nan=False)
    check_scene(FIG.scene(state), state)


# --- the figure as data: parameters, values, experiments ------------------------------------


def test_every_control_is_one_declared_parameter():
    """A slider, toggle or select is a kit parameter: its control, its parser and (where
    an author may set it) its option come from one declaration."""
    params = {p.name: p for p in FIG.params}
    scene = FIG.scene(first_state())
    for c in scene["controls"]:
        if c["kind"] in ("slider", "toggle", "select"):
            assert c == params[c["name"]].control_dict(first_state())
    assert control(scene, "n") | {} == {
        "kind": "slider", "name": "n", "label": "Tokens n", "near": "table", "min": 1, "max": 12, "step": 1,
        "value": 12, "digits": 0, "help": "The table uses the first n tokens: n² = 144 cells."}
    assert [o.name for o in FIG.options] == ["preset", "tokens", "queries", "keys", "values", "view", "length",
                                              "causal", "padding", "query"]


def test_the_values_are_declared_with_a_format():
    manifest = FIG.manifest()
    json.dumps(manifest, allow_nan=False)
    declared = {v["name"]: v["format"] for v in manifest["values"]}
    assert set(declared) == set(FIG.scene(first_state())["values"])
    assert declared["weights"] == "matrix" and declared["cells"] == "integer"
    assert [v["name"] for v in manifest["values"] if v["announce"]] == ["view", "cells"]
    assert [e["name"] for e in manifest["experiments"]] == EXPERIMENTS
    assert manifest["experiments"][1]["sets"] == {"view": "scores"}


def test_reset_returns_to_the_preset_the_reader_picked():
    """Reset goes back to the first settings, or to those of the preset the reader picked
    since; an experiment (why-scale loads the random vectors) does not count as a pick."""
    state = FIG.patch(first_state(causal="true"), {"preset": "random", "n": 5, "padding": 2})
    back = FIG.apply(state, {"type": "action", "name": "reset"})
    assert (back["preset"], back["n"], back["padding"], back["causal"]) == ("random", 16, 0, False)
    tried = FIG.apply(back, {"type": "action", "name": "causal"})
    assert tried["preset"] == "random" and tried["causal"] is True
    scaled = FIG.apply(first_state(), {"type": "action", "name": "why-scale"})
    assert FIG.apply(set_(scaled, "n", 4), {"type": "action", "name": "reset"}) == {**first_state(), "message": HINT}


def test_the_authors_tokens_stay_in_the_sentence_menu():
    """The menu keeps "The author's tokens" after the reader picked a preset, so they can
    go back to them; Reset then returns to them too."""
    state = set_(first_state(**CUSTOM), "preset", "sentence")
    menu = control(FIG.scene(state), "preset")
    assert [o["value"] for o in menu["options"]] == ["custom", "sentence", "random"] and menu["value"] == "sentence"
    state = set_(FIG.patch(state, {"preset": "custom"}), "n", 2)
    back = FIG.apply(state, {"type": "action", "name": "reset"})
    assert back["tokens"] == ["I", "saw", "her"] and back["n"] == 3


# --- the golden first frame ------------------------------------------------------------------


def test_golden_first_frame():
    """The lesson's first frame, reviewed by hand: its structure and its wording apart. On
    a mismatch the new file is written beside the old as NAME.new.json; if it is right,
    move it over the old."""
    check_golden_split(FIG.scene(first_state(preset="sentence", query="dog")), GOLDEN)


# --- the lesson quotes the engine ------------------------------------------------------------------


def lesson_claims() -> list[str]:
    start = first_state()
    r = direct(start)
    causal = direct(dict(start, causal=True))
    both = direct(dict(start, causal=True, padding=3))
    padded = direct(dict(start, padding=3))
    causal15 = engine.attention(*hm_table.table(dict(start, padding=3))[1:], causal=True)
    newly = sum(map(sum, causal15.mask)) - sum(map(sum, both.mask))  # cells only the padding hides
    rand = FIG.apply(start, {"type": "action", "name": "why-scale"})
    raw = statistics.pstdev([engine.dot(q, k) for q in rand["q"] for k in rand["k"]])  # all 16 tokens, no padding
    scaled = statistics.pstdev([s for row in direct(rand).scores for s in row])
    top = statistics.fmean(max(row) for row in direct(rand).weights)
    top_u = statistics.fmean(max(row) for row in hm.result(rand, scaled=False).weights)
    d = len(rand["q"][0])
    worked = engine.attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                              [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    dog, stop, garden = 2, 11, 10
    # the end-to-end worked problem: three tokens, d = 2
    Q, K, V = [[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]], [[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]], V_WORKED
    whole = engine.attention(Q, K, V)

    def rows(m, digits=2):
        shown = [vec(row, digits) for row in m]
        return ", ".join(shown[:-1]) + f" and {shown[-1]}"

    a0 = whole.weights[0]
    return [
        "one row a query:\n" + rows([[engine.dot(q, k) for k in K] for q in Q], 0),
        f"Dividing by $\\sqrt{{2}} = {math.sqrt(2):.2f}$ gives the scores\n{rows(whole.scores)}",
        f"gives the weights {rows(whole.weights)}",
        f"The outputs $A V$ are {rows(whole.outputs)}",
        f"the first is ${a0[0]:.2f} \\cdot (1, 0) + {a0[1]:.2f} \\cdot (0, 1) + {a0[2]:.2f} \\cdot (1, 1)$",
        f"row of *dog* gives {pct(r.weights[dog][3])} of its weight to *chased*",
        f"each giving\n{pct(r.weights[0][2])} to *dog*",
        f"The row of *dog* has entropy {r.entropy[dog]:.2f} nats",
        f"$\\ln(12) = {math.log(12):.2f}$",
        f"its entropy is the maximum, {r.entropy[stop]:.2f}",
        f"gives its largest weight, {pct(r.weights[garden][7])}, to\n*across* and sits in between, at "
        f"{r.entropy[garden]:.2f} nats",
        f"the output of *dog*,\n{vec(r.outputs[dog])}, says that {pct(r.outputs[dog][1])}",
        f"values: {vec(r.outputs[stop])}.",
        f"Of the 144 cells\nit hides {144 - sum(map(sum, causal.mask))}",
        f"keeps {pct(causal.weights[dog][dog])} of its weight on itself",
        f"together the two masks hide {225 - sum(map(sum, both.mask))} cells",
        f"the causal mask alone hides\n$15 \\cdot 14 / 2 = {225 - sum(map(sum, causal15.mask))}$",
        f"45 cells, but\n{45 - newly} of them lie above the diagonal already",
        f"$1 + 2 + 3 = {newly}$ cells in the [PAD] rows are new",
        f"turn to 0 for every row: {225 - sum(map(sum, padded.mask))} of the 225 cells",
        f"standard deviation of {raw:.2f}, right at\n$\\sqrt{{{d}}} = {math.sqrt(d):.2f}$; the scaled "
        f"scores have {scaled:.2f}",
        f"every score would\nbe {math.sqrt(d):.2f} times larger",
        f"the\ntop weight of a row would average {top_u:.2f} instead of {top:.2f}",
        f"the scores are\n{worked.scores[0][0]:.2f}, {worked.scores[0][1]:.0f} and {worked.scores[0][2]:.2f}",
        "weights " + ", ".join(f"{w:.2f}" for w in worked.weights[0][:2]) + f" and {worked.weights[0][2]:.2f}",
        f"= {vec(worked.outputs[0])}$",
        f"= {worked.entropy[0]:.2f}$ nats",
        f"$\\ln(3) = {math.log(3):.2f}$",
    ]


def test_the_lesson_states_the_engine_numbers():
    text = re.sub(r"\s+", " ", lesson_as_built(LESSON))
    for claim in lesson_claims():
        claim = re.sub(r"\s+", " ", claim)
        assert claim in text, claim


def test_the_lesson_places_the_figure_with_valid_options():
    text, _ = lesson_figure(LESSON, FIG, "table")
    assert re.search(r"^order: 2$", text, re.M)
    assert questions(text) >= 3


@pytest.mark.parametrize("event", [
    {"type": "set", "name": "causal", "value": False},
    {"type": "set", "name": "view", "value": "scores"},
    {"type": "set", "name": "n", "value": 5},
    {"type": "set", "name": "padding", "value": 1},
    {"type": "set", "name": "q.2.0", "value": "1"},
    {"type": "select", "mark": "row", "index": 4},
])
def test_any_other_event_ends_the_experiment(event):
    """Regression: after "Causal mask", unticking the mask still said "66 of 144 cells …
    masked" with the button highlighted."""
    state = FIG.apply(first_state(), {"type": "action", "name": "causal"})
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
    assert {near[name] for name in ("view", "n", "causal", "padding", "experiments")} == {"table"}
    assert near["vectors-qkv"] == "outputs"


def test_the_unscaled_view_shows_what_why_scale_claims():
    """Regression: "Why divide by √d_k?" quoted the top weight without the division, but
    the figure had no way to show it."""
    state = FIG.apply(first_state(), {"type": "action", "name": "why-scale"})
    u = hm.result(state, scaled=False)
    top_u = statistics.fmean(max(row) for row in u.weights)
    assert f"would average {top_u:.2f}" in state["message"]
    assert "“weights without ÷√dₖ”" in state["message"]
    assert "unscaled" in [o["value"] for o in control(FIG.scene(state), "view")["options"]]
    scene = FIG.scene(set_(state, "view", "unscaled"))
    assert scene["values"]["weights"] == rounded(u.weights)
    assert panel(scene, "table")["title"].startswith("Weights without ÷√dₖ")
    assert statistics.fmean(max(row) for row in scene["values"]["weights"]) == pytest.approx(top_u, abs=1e-6)


def test_a_row_of_two_keys_is_neither_peaked_nor_flat():
    """Regression: with the causal mask the row of "old" (0.32 and 0.68) was called flat,
    being 90% of ln 2."""
    scene = FIG.scene(set_(first_state(), "causal", True))
    kinds = [row[3]["text"] for row in panel(scene, "entropy")["rows"]]
    assert kinds[:3] == ["one key", "2 keys", kinds[2]] and kinds[2] not in ("one key", "2 keys")
    row = FIG.scene(FIG.apply(set_(first_state(), "causal", True), {"type": "select", "mark": "row", "index": 1}))
    assert "too few keys to call it peaked or flat" in " ".join(panel(row, "row")["paragraphs"])


def test_one_token_reads_in_the_singular_and_the_mask_wording_fits():
    """Regression: "n = 1 tokens", "n² = 1 cells", "(ln 1 = 0.00 with no mask)"."""
    scene = FIG.scene(FIG.patch(first_state(), {"n": 1, "causal": True}))
    text = json.dumps(scene, ensure_ascii=False)
    for wrong in ("1 tokens", "1 cells", "1 scores", "with no mask"):
        assert wrong not in text
    assert "n = 1 token, so the table has n² = 1 cell" in panel(scene, "table")["caption"]
    assert scene["status"].startswith("1 token, 1 cell;")
    caption = panel(FIG.scene(set_(first_state(), "causal", True)), "entropy")["caption"]
    assert "(ln 12 = 2.48 for a row that reads all 12)" in caption


def test_vector_fields_are_named_by_coordinate_like_their_messages():
    (grid,) = [c for c in FIG.scene(first_state())["controls"] if c["kind"] == "grid"]
    assert grid["col_labels"] == ["query", "key", "value"]
    assert [row["label"] for row in grid["rows"]] == [f"coordinate {c}" for c in (1, 2, 3, 4)]


def test_the_length_slider_counts_the_cells_the_table_has_with_its_pads():
    """Pins a reader's finding: with 3 [PAD] tokens the slider still said "n² = 144
    cells" beside a table of 225."""
    state = FIG.apply(first_state(), {"type": "set", "name": "padding", "value": 3})
    assert control(FIG.scene(state), "n")["help"].endswith("(n + 3)² = 225 cells.")
    assert control(FIG.scene(first_state()), "n")["help"].endswith("n² = 144 cells.")
