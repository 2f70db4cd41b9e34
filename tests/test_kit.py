"""The figure kit (explorables.figures), through the sample figure of the author guide:
a parameter declared once is an option, a reader's control and its parser; experiments
are data; the manifest lists it all."""
from __future__ import annotations

import importlib.util
import json

import pytest

from explorables import engine
from explorables import figures as public
from explorables.engine.figures import kit
from explorables.figures import (FIGURES, Field, FieldError, OptionErrors, Slider, Value, arrows, bars, cells,
                                 channel, plane, points)
from figure_helpers import ROOT, split_scene

SAMPLE = ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py"


@pytest.fixture(scope="module")
def fig():
    """The sample figure, registered for this module and forgotten after it (a later test
    in the process would otherwise see an author's figure among the built-ins)."""
    before = FIGURES.get("softmax-bars")
    spec = importlib.util.spec_from_file_location("softmax_bars_sample", SAMPLE)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    yield FIGURES["softmax-bars"]
    if before is None:
        del FIGURES["softmax-bars"]
    else:
        FIGURES["softmax-bars"] = before


def test_the_sample_figure_is_at_most_40_lines():
    assert len(SAMPLE.read_text().splitlines()) <= 40


def test_a_parameter_is_an_option_with_its_range(fig):
    assert [o.name for o in fig.options] == ["a", "b", "c"]
    with pytest.raises(OptionErrors) as err:
        fig.parse_options({"a": "7", "d": "1"})
    assert [(e.option, e.message) for e in err.value.errors] == [
        ("a", "expected a number from -5 to 5, got '7'"),
        ("d", "unknown option 'd' (known options: a, b, c)"),
    ]


def test_a_parameter_is_a_control_and_its_parser(fig):
    state = fig.initial_state(fig.parse_options({"a": "0.5"}))
    slider = next(c for c in fig.scene(state)["controls"] if c["name"] == "a")
    assert (slider["kind"], slider["min"], slider["max"], slider["value"], slider["near"]) == ("slider", -5, 5, 0.5, "weights")
    moved = fig.apply(state, {"type": "set", "name": "b", "value": "3"})
    assert moved["b"] == 3.0 and state["b"] == 1.0  # the old state is never changed
    with pytest.raises(FieldError) as err:
        fig.apply(state, {"type": "set", "name": "b", "value": "abc"})
    assert (err.value.name, err.value.message) == ("b", "Score b must be a number, got 'abc'")


def test_values_come_from_the_engine(fig):
    state = fig.initial_state(fig.parse_options({}))
    values = fig.scene(state)["values"]
    expected = engine.softmax([2.0, 1.0, 0.0])
    assert values["weights"] == pytest.approx(expected, abs=1e-12)
    assert values["top"] == pytest.approx(max(expected), abs=1e-12)
    assert fig.values[1].text(values["top"]) == "67%"


def test_an_experiment_is_data_and_ends_on_the_next_change(fig):
    state = fig.initial_state(fig.parse_options({"c": "2"}))
    tried = fig.apply(state, {"type": "action", "name": "tie"})
    assert (tried["a"], tried["b"], tried["c"], tried["experiment"]) == (1.0, 1.0, 2.0, "tie")  # from the first settings
    assert tried["message"].startswith("a and b share")
    buttons = next(c for c in fig.scene(tried)["controls"] if c["name"] == "experiments")
    assert buttons["reveal"] == "What you should see" and buttons["items"][0]["active"] is True
    after = fig.apply(tried, {"type": "set", "name": "c", "value": 1})
    assert after["experiment"] is None and after["message"] == fig.hint
    reset = fig.apply(after, {"type": "action", "name": "reset"})
    assert (reset["a"], reset["b"], reset["c"]) == (2.0, 1.0, 2.0)  # the author's options again
    with pytest.raises(ValueError, match="has no action 'nope'"):
        fig.apply(state, {"type": "action", "name": "nope"})


def test_the_manifest_lists_parameters_values_and_experiments(fig):
    manifest = fig.manifest()
    json.dumps(manifest, allow_nan=False)
    assert [p["name"] for p in manifest["params"]] == ["a", "b", "c"]
    assert [(v["name"], v["format"]) for v in manifest["values"]] == [("weights", "list"), ("top", "percent")]
    assert [e["name"] for e in manifest["experiments"]] == ["tie"]


def test_channels_are_constants_lists_or_functions():
    P = [(0.0, 1.0), (2.0, 3.0)]
    marks = points("key", P, role="key", label=["a", "b"], shape=lambda j: "ring" if j == 1 else None,
                   draggable=True, muted=[False, True])
    assert marks == [
        {"kind": "point", "x": 0.0, "y": 1.0, "id": "key-0", "role": "key", "label": "a", "draggable": True,
         "ref": {"mark": "key", "index": 0}},
        {"kind": "point", "x": 2.0, "y": 3.0, "id": "key-1", "role": "key", "label": "b", "shape": "ring",
         "draggable": True, "muted": True, "ref": {"mark": "key", "index": 1}},
    ]
    assert arrows(None, (0, 0), P, role="query")[1] == {"kind": "arrow", "x1": 0.0, "y1": 0.0, "x2": 2.0, "y2": 3.0,
                                                         "role": "query"}
    grid = cells("t", 2, 2, text=lambda i, j: f"{i}{j}", tone=[[0.1, 0.2], [0.3, 0.4]])
    assert grid["rows"][1][0] == {"text": "10", "tone": 0.3}
    assert channel(lambda i, j: i + j, 1, 2) == 3
    assert plane("p", marks, None, x=[0, 1], y=[0, 1])["marks"] == marks
    assert bars("w", [0.25], label=["x"])["bars"] == [{"value": 0.25, "label": "x", "text": "0.25"}]


def test_a_value_format_must_be_known():
    with pytest.raises(ValueError, match="format must be one of"):
        Value("x", "percentage", "bad")


def test_integer_sliders_read_whole_numbers():
    s = Slider("t", "Position t", 0, lo=0, hi=lambda st: st["n"], integer=True)
    assert s.read("3", {"n": 5}) == 3
    with pytest.raises(FieldError, match="Position t must be a whole number from 0 to 5, got 6"):
        s.read(6, {"n": 5})


def test_a_field_is_a_typed_number_read_as_a_slider_reads_it():
    f = Field("base", "Base b", 10000.0, lo=2, hi=100000, doc="The base.", near="clocks", help="Enter to apply.")
    assert f.control_dict({"base": 500.0}) == {"kind": "number", "name": "base", "label": "Base b",
                                               "help": "Enter to apply.", "near": "clocks", "value": "500"}
    assert f.read(" 1e3 ", {"base": 500.0}) == 1000.0
    with pytest.raises(FieldError, match="Base b must be from 2 to 100000, got 1"):
        f.read("1", {"base": 500.0})
    assert f.option_spec().parse("20") == 20.0 and f.manifest()["kind"] == "number"


def test_a_bar_beyond_its_scale_is_an_error_not_a_bar_cut_off():
    """Pins an author's finding: bars("balance", [105, 110.25], ...) drew two full bars
    and said nothing, the scale being max=1.0."""
    assert bars("b", [0, 0.5, 1.0], label=["x", "y", "z"])["max"] == 1.0
    with pytest.raises(ValueError, match=r"bars 'balance': the value 100 is above max=1, .*\(e.g. max=200\)"):
        bars("balance", [100, 110.25], label=["2024", "2025"])
    assert bars("balance", [100, 110.25], label=["2024", "2025"], max=200)["bars"][1]["value"] == 110.25
    with pytest.raises(ValueError, match="below 0"):
        bars("b", [-0.1], label=["x"])


def test_the_golden_split_keeps_numbers_in_the_structure(fig):
    structure, words = split_scene(fig.scene(fig.initial_state({})))
    assert structure["panels"][0]["bars"][0]["text"] == "67%"
    assert structure["title"] == "…" and "Softmax of three scores" in words


# --- generic geometry: rows of numbers, one vector, a Vector parameter ---------------------

def test_rows_of_numbers_are_read_once_for_every_figure():
    """Three figures read "a,b; c,d" with three copies of a parser that differed; now the kit's."""
    from explorables.figures import read_rows
    assert read_rows("0.5,1; \u22121,0.2;", "keys", width=2) == [[0.5, 1.0], [-1.0, 0.2]]
    assert read_rows("1, 0, 2; 0, 1, 3", "values", most=3) == [[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]]
    refused = {
        ("1,2; 3", 2): "pair 2 of the keys must have 2 numbers (x,y), got 1 in '3'",
        ("1,2; a,b", 2): "pair 2 of the keys must be numbers separated by commas, got 'a,b'",
        ("1,99", 2): "pair 1 of the keys must have numbers from -10 to 10, got '1,99'",
        ("1, 2; 3", None): "row 2 of the keys has 1 numbers but row 1 has 2; every row needs the same length",
        ("1, 2;; 3, 4", None): "row 2 of the keys is empty: write one number per coordinate, like '1, 0, 0.5, 2'",
    }
    for (text, width), message in refused.items():
        with pytest.raises(ValueError) as err:
            read_rows(text, "keys", width=width, limit=10)
        assert str(err.value) == message


def test_a_vector_parameter_reads_its_option_an_experiment_and_a_drag_alike():
    from explorables.figures import Experiment, Figure, Vector, read_vector, arrows, plane

    class Arrow(Figure):
        name = "arrow"
        params = (Vector("u", "u", [1.0, 0.0]),)
        experiments = (Experiment("up", "Up", set={"u": "0, 2"}, see="Up."),)

        def on_drag(self, s, mark, i, x, y):
            s["u"] = [x, y]
            return s

        def draw(self, s, v):
            return [plane("p", arrows("u", (0, 0), [s["u"]], draggable=True), x=[-3, 3], y=[-3, 3])]

    fig = Arrow()
    assert fig.parse_options({"u": "1, \u22120.5"})["u"] == [1.0, -0.5]
    with pytest.raises(OptionErrors) as err:
        fig.parse_options({"u": "1; 0.5"})
    assert [(e.option, e.message) for e in err.value.errors] == [("u", "expected 2 numbers like 1, 0.5, got '1; 0.5'")]
    assert fig.apply(fig.initial_state({}), {"type": "action", "name": "up"})["u"] == [0.0, 2.0]
    assert read_vector([3, 4]) == [3.0, 4.0] and read_vector("1, 2, 3", size=3) == [1.0, 2.0, 3.0]
    controls = fig.scene(fig.initial_state({}))["controls"]
    assert fig.manifest()["options"][0]["name"] == "u" and [c["name"] for c in controls] == ["experiments"]


def test_the_kit_has_the_parameters_positional_encoding_wrote_for_itself():
    """An even whole-number slider, a number menu that takes any number in range, and
    Play: before, three classes of the figure's own (Whole, NumberMenu, Play)."""
    from explorables.figures import NumberChoice, Play

    dim = Slider("dim", "D", 32, lo=2, hi=64, integer=True, even=True)
    assert dim.control_dict({"dim": 32})["step"] == 2 and dim.read("12", {"dim": 32}) == 12
    with pytest.raises(FieldError, match="must be even, got 13"):
        dim.read("13", {"dim": 32})
    with pytest.raises(ValueError, match="expected an even integer from 2 to 64, got 13"):
        dim.option_spec().check(13)
    offset = Slider("k", "k", 8, lo=0, hi=lambda s: s["n"], integer=True, bounds=(0, 256))
    assert offset.control_dict({"k": 8, "n": 9})["step"] == 1  # by=0.1 (the default) is no whole step
    assert (offset.option_spec().min, offset.option_spec().max) == (0, 256)
    base = NumberChoice("b", "Base", 100.0, presets=(10.0, 100.0), lo=2, hi=1000, what="the base")
    assert base.read("2.5", {"b": 100.0}) == 2.5
    assert [o["value"] for o in base.control_dict({"b": 50.0})["options"]] == ["10", "50", "100"]
    with pytest.raises(FieldError, match="the base must be from 2 to 1,?000, got 5000"):
        base.read("5000", {"b": 100.0})
    play = Play("on", "Play", False, interval=500).control_dict({"on": True})
    assert play["kind"] == "play" and play["playing"] and play["event"] == {"type": "action", "name": "tick"}


def test_the_star_import_is_the_whole_kit_and_nothing_of_the_built_in_figures():
    namespace: dict = {}
    exec("from explorables.figures import *", namespace)
    assert {"Figure", "Vector", "NumberChoice", "Play", "read_rows", "read_vector", "rows_checker", "Exercise",
            "mathml", "register"} <= set(namespace)
    assert not {"SENTENCES", "VOCAB", "Asker", "Matrix", "token_text", "sentence"} & set(namespace)


def test_the_public_kit_lists_every_name_of_the_kit_and_the_statement_helpers():
    """explorables/figures.py spells its names out: each of the figure kit's, and the
    exercises' public part, ``said`` among them (a statement keeps a formula's
    punctuation on its line with it)."""
    names = public.__all__
    assert len(set(names)) == len(names) and all(hasattr(public, name) for name in names)
    assert set(kit.__all__) <= set(names)
    q, k, d, s = (f"<math><mi>{x}</mi></math>" for x in "qkds")
    statement = public.said("exercise.scaled_score.statement", q=q, k=k, d_k=d, score=s)
    assert '<span class="ex-nowrap">' in statement


def test_a_whole_number_slider_steps_by_a_whole_by():
    """An author's whole-number slider may step by more than 1 (before, only even=True
    stepped by 2): by=8 counts from lo, in the control, in a reader's value and in an
    author's option."""
    width = Slider("w", "Width", 16, lo=0, hi=64, integer=True, by=8, what="the width")
    assert width.control_dict({"w": 16})["step"] == 8 and width.read("24", {"w": 16}) == 24
    with pytest.raises(FieldError, match="the width moves in steps of 8 from 0: 13 is not one of them"):
        width.read("13", {"w": 16})
    with pytest.raises(ValueError, match="expected an integer from 0 to 64 in steps of 8 from 0, got 13"):
        width.option_spec().check(13)
    from_one = Slider("n", "n", 1, lo=1, hi=31, integer=True, by=5)
    assert from_one.read("26", {"n": 1}) == 26 and from_one.control_dict({"n": 1})["min"] == 1


def test_the_integer_format_groups_thousands_as_the_language_does():
    """Value(..., "integer") wrote str(int(x)): 1048576 in every language. It now groups as
    the language's numbers do (German 1.048.576; English, whose rules group none, as before)."""
    from explorables.engine import locale

    cache = Value("cache_bytes", "integer", "Bytes.")
    assert cache.text(1048576.0) == "1048576" and cache.text(-3.7) == "−3"
    try:
        locale.use("de")
        assert cache.text(1048576) == "1.048.576" and cache.text(1234) == "1234"
    finally:
        locale.use("en")


def test_a_figure_takes_its_summary_and_title_from_its_words():
    """``class X(Figure, words=W)`` reads W.SUMMARY and W.TITLE, as every built-in figure
    declares them, instead of two lines of the same shape in each figure's class."""
    from types import SimpleNamespace

    from explorables.figures import Figure, Say

    said = SimpleNamespace(SUMMARY=Say("figure.cross_attention.summary"), TITLE="A title")

    class Worded(Figure, words=said):
        name = "worded"

    assert (Worded.summary, Worded.title) == (said.SUMMARY, "A title") and Figure.title == ""
    assert FIGURES["cross-attention"].manifest()["summary"] == said.SUMMARY()


def test_a_legend_entry_may_be_written_as_a_tuple():
    """Figures wrote each legend entry as a dict, and the lab a helper of its own to make
    them: a plane now takes (role, label) or (role, label, shape), its label a Say read in
    the page's language, beside the dicts it took before."""
    from explorables.engine import locale
    from explorables.figures import Say

    made = plane("p", x=[0, 1], y=[0, 1], legend=[("query", "q", "line"), ("key", Say("figure.key.positive"))])
    assert made["legend"] == [{"role": "query", "label": "q", "shape": "line"}, {"role": "key", "label": "positive"}]
    try:
        locale.use("de")
        german = plane("p", x=[0, 1], y=[0, 1],
                       legend=[("key", Say("figure.key.positive")), {"role": "a", "label": "b"}])
    finally:
        locale.use("en")
    assert german["legend"] == [{"role": "key", "label": "positiv"}, {"role": "a", "label": "b"}]


def test_a_grid_of_typed_numbers_is_one_call():
    """Two figures wrote a grid of typed numbers as nested dicts: ``grid`` makes it from
    rows of (label, link, cells), each number written as a field shows it."""
    from explorables.engine import locale
    from explorables.figures import Say, grid

    made = grid("keys", "Keys", ["x", "y"], [("cat", "t1", [("key.1.0", 0.5), ("key.1.1", -2.0, "y of cat")])],
                near="k")
    assert made == {
        "kind": "grid", "name": "keys", "near": "k", "label": "Keys", "col_labels": ["x", "y"],
        "rows": [{"label": "cat", "link": "t1", "cells": [
            {"name": "key.1.0", "value": "0.5"}, {"name": "key.1.1", "value": "-2", "label": "y of cat"}]}],
    }
    assert "near" not in grid("g", "G", [], [])
    worded = grid("g", Say("figure.key.positive"), [Say("figure.key.positive")], [("a", "t0", [("a.0", 1, Say("figure.key.positive"))])])
    assert worded["label"] == worded["col_labels"][0] == worded["rows"][0]["cells"][0]["label"] == "positive"
    try:
        locale.use("de")
        assert grid("g", "G", ["x"], [("a", "t0", [("a.0", 0.25)])])["rows"][0]["cells"][0]["value"] == "0,25"
    finally:
        locale.use("en")


def test_an_experiment_button_is_found_by_the_experiments_name_with_fields():
    """The row, the lab and the heatmap each wrote a helper that found an experiment's
    label and title by its name and filled in a field: Words.button does both."""
    from explorables.figures import Words

    say = Words("figure.attention_row")
    label, title = say.button("hide-future")
    assert (label.key, title.key) == ("figure.attention_row.hide_future", "figure.attention_row.hide_future_title")
    sharpen, _ = say.button("sharpen", t=lambda: "0.1")
    assert "0.1" in sharpen() and "{t}" not in sharpen()


def test_a_value_table_declares_values_as_rows_with_what_is_announced():
    from explorables.figures import value_table

    top, weights = value_table(("top", "percent", "The largest weight."), ("weights", "list", "The weights.", 3),
                               announce={"top": "top weight {}"})
    assert (top.name, top.format, top.doc, top.digits, top.announce) == (
        "top", "percent", "The largest weight.", 2, "top weight {}")
    assert (weights.name, weights.digits, weights.announce) == ("weights", 3, "")
    with pytest.raises(ValueError, match="format must be one of"):
        value_table(("top", "percentage", "The largest weight."))


def test_sub_writes_a_position_as_a_subscript():
    from explorables.figures import sub

    assert [sub(0), sub(7), sub(12)] == ["₀", "₇", "₁₂"]
