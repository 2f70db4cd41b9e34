"""The kit's shared helpers (explorables.figures), tested once for every figure.

Numbers print the same in every figure (a typographic minus, no "−0.00"), a reader's
input is checked with the same messages, and one ``resolve_query`` turns a word or a
position into the asking token for every figure.
"""
from __future__ import annotations

import re

import pytest

from explorables.figures import (
    FIGURES, HINT, Experiment, FieldError, Figure, OptionErrors, Slider, Toggle, field_text, num, pct, resolve_query,
    text, vec,
)
from figure_helpers import texts

SENTENCE = ["The", "cat", "chased", "the", "mouse", "."]


def test_numbers_print_with_a_typographic_minus_and_no_negative_zero():
    assert num(-0.5) == "−0.50" and num(0.5) == "0.50"
    assert num(-0.001) == "0.00" and num(-0.0004, 3) == "0.000"
    assert num(-12.3456, 1) == "−12.3" and num(2) == "2.00"
    assert vec([-1.2, 0.6]) == "(−1.20, 0.60)" and vec([1, -2], 3) == "(1.000, −2.000)"
    assert [pct(w) for w in (0.0, 0.0004, 0.053, 0.36, 1.0)] == ["0%", "0.0%", "5.3%", "36%", "100%"]


def shown_texts(scene):
    """The words a reader sees: status, panels, and the controls' labels, help and
    messages (a text field's value is the reader's own, with an ASCII minus)."""
    yield scene.get("status", "")
    yield from texts(scene["panels"])
    for c in scene["controls"]:
        yield from (c[key] for key in ("label", "help", "message") if key in c)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_prints_negative_numbers_the_same_way(name):
    """Regression: four figures had their own copy of the number formatter and only one
    wrote the typographic minus, so −0.50 in one figure was -0.50 in the next."""
    fig = FIGURES[name]
    first = fig.initial_state(fig.parse_options({}))
    states = [first] + [fig.apply(first, {"type": "action", "name": item["name"]})
                        for c in fig.scene(first)["controls"] if c["kind"] == "buttons"
                        for item in c["items"]]
    negatives = 0
    for state in states:
        for shown in shown_texts(fig.scene(state)):
            assert not re.search(r"(?<![\w.])-\d", shown), (name, shown)  # an ASCII minus
            negatives += shown.count("\u2212")
    assert negatives > 0, name  # every figure shows some negative number


def test_field_text_reads_back_exactly_with_an_ascii_minus():
    for x in (0.1, -2.0, 1e-7, -0.0, 123456.789, 2 / 3):
        typed = field_text(x)
        assert float(typed) == x and "−" not in typed
    assert field_text(-0.0) == "0" and field_text(3.0) == "3"


@pytest.mark.parametrize(
    "query, expected",
    [("chased", 2), ("The", 0), ("the", 3), ("THE", 0), ("Mouse", 4), (".", 5), ("4", 4), (" 1 ", 1), (3, 3)],
)
def test_resolve_query_by_word_or_position(query, expected):
    assert resolve_query(query, SENTENCE) == expected


EXPECTED = "expected a word of the sentence (The, cat, chased, the, mouse, .) or a position from 0 to 5"


@pytest.mark.parametrize(
    "query, message",
    [
        ("-1", f"{EXPECTED}, got '-1'"),
        ("\u22122", f"{EXPECTED}, got '\u22122'"),
        ("6", f"{EXPECTED}, got '6'"),
        ("--1", f"{EXPECTED}, got '--1'"),
        ("chasd", f"{EXPECTED}, got 'chasd' (did you mean 'chased'?)"),
        ("CHASD", f"{EXPECTED}, got 'CHASD' (did you mean 'chased'?)"),
        (True, f"{EXPECTED}, got True"),
        ("", f"{EXPECTED}, got ''"),
    ],
)
def test_resolve_query_refuses_with_one_message(query, message):
    """Regression: attention-row and attention-lab had two resolve_query functions that
    differed on capitals and negative numbers ("--1" even raised a bare int() error)."""
    with pytest.raises(ValueError) as info:
        resolve_query(query, SENTENCE)
    assert str(info.value) == message


def test_sliders_and_toggles_name_the_control():
    n = Slider("n", "length n", 3, lo=1, hi=5, integer=True)
    assert n.read("3", {}) == 3 and n.read(4.0, {}) == 4
    for value, message in [(6, "length n must be a whole number from 1 to 5, got 6"),
                           (2.5, "length n must be a whole number from 1 to 5, got 2.5"),
                           ("x", "length n must be a number, got 'x'")]:
        with pytest.raises(FieldError) as info:
            n.read(value, {})
        assert (info.value.name, info.value.message) == ("n", message)
    temperature = Slider("temperature", "temperature", 1.0, lo=0.05, hi=5)
    assert temperature.read("0.5", {}) == 0.5
    with pytest.raises(FieldError, match="temperature must be from 0.05 to 5, got 9"):
        temperature.read(9, {})
    causal = Toggle("causal", "Hide the future", False)
    assert causal.read("On", {}) is True and causal.read(0, {}) is False
    with pytest.raises(FieldError, match="causal must be true or false, got 'maybe'"):
        causal.read("maybe", {})


def test_a_whole_number_option_may_be_written_with_a_decimal_point():
    """Pins an author's trap: a slider of whole numbers with the default 2.0, or a lesson's
    `:n: 3.0`, stopped the build ("expected an integer from 0 to 10, got '2.0'") though a
    reader may type 3.0 in the figure itself."""
    class Whole(Figure):
        name = "whole"
        params = (Slider("n", "n", 2.0, lo=0, hi=10, integer=True),)

        def draw(self, state, v):
            return []

    fig = Whole()
    assert fig.parse_options({}) == {"n": 2.0} and fig.parse_options({"n": "3.0"}) == {"n": 3}
    assert type(fig.parse_options({"n": "3.0"})["n"]) is int and fig.parse_options({"n": "4"}) == {"n": 4}
    for typed in ("2.5", "inf", "nan", "1e400", "x"):
        with pytest.raises(OptionErrors, match=f"n: expected an integer from 0 to 10, got '{typed}'"):
            fig.parse_options({"n": typed})


class _Counter(Figure):
    """A figure of one number, for the experiment rules of the kit's Figure."""

    name = "counter"
    params = (Slider("x", "x", 0, lo=0, hi=9, integer=True), Slider("y", "y", 2, lo=0, hi=9, integer=True))
    experiments = (
        Experiment("up", "Up", "Add one", run=lambda s: s.update(x=s["x"] + 1), see=lambda s: f"x is {s['x']}"),
        Experiment("odd", "Odd", "Needs y", see="odd", when=lambda s: s["y"] % 2 == 1, needs="an odd y"),
    )

    def draw(self, state, v):
        return [text("x", str(state["x"]))]


def test_experiments_start_set_and_say_and_hide_where_they_do_not_apply():
    fig = _Counter()
    state = fig.initial_state(fig.parse_options({"x": "5"}))
    up = fig.apply(state, {"type": "action", "name": "up"})
    assert (up["x"], up["experiment"], up["message"]) == (6, "up", "x is 6")  # from the first settings
    with pytest.raises(ValueError, match="has no action 'down'"):
        fig.apply(state, {"type": "action", "name": "down"})
    with pytest.raises(ValueError, match="the experiment 'odd' needs an odd y"):
        fig.apply(state, {"type": "action", "name": "odd"})
    control = fig.experiment_control(state)
    assert [item["name"] for item in control["items"]] == ["up", "reset"]
    assert control["message"] == HINT and state["x"] == 5  # the scene changes nothing
    odd = fig.initial_state(fig.parse_options({"y": "3"}))
    tried = fig.apply(odd, {"type": "action", "name": "odd"})
    control = fig.experiment_control(tried)
    assert [(item["name"], item["active"]) for item in control["items"][:2]] == [("up", False), ("odd", True)]
    assert control["message"] == "odd" and control["reveal"] == "What you should see"
