"""The heatmap's values with the digits they are written with (engine/figures/kit/rounding.py).

Its scene names the whole table of scores and weights, the entropies and the outputs, in
every answer and in the page's first frame. Each number keeps the fewest significant
digits that leave every way the page writes it (a percent, 0 to 5 decimals, the integer
part) as the engine's full number writes it: the reader sees the same digits, the page
carries a third of the bytes.
"""

from __future__ import annotations

import json
import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from explorables.engine import numbers
from explorables.engine.figures import FIGURES
from explorables.engine.figures.kit.rounding import DECIMALS, rounded
from explorables.site_builder.markdown.directives.figure import first_frame, initial
from figure_helpers import ROOT

FIG = FIGURES["attention-heatmap"]
GERMAN = numbers.Rules(decimal=",", group=".", percent="{} %", list="; ")


def writings(x: float, rules: numbers.Rules = numbers.ENGLISH) -> tuple:
    """Every way a page writes a value: the formats of kit/values.py and static/js/prose.js."""
    return (numbers.percent(x, rules), math.trunc(x), *(numbers.fixed(x, d, rules) for d in range(DECIMALS + 1)))


def test_worked_cases():
    assert rounded(0.028383566604682636) == 0.02838  # written "2.8%", "0.03", ..., "0.02838"
    assert rounded(1.9764000000000002) == 1.9764  # a score of two-decimal vectors, without the float's noise
    assert rounded(0.7071067811865475) == 0.70711
    assert rounded(1.215) == 1.215 and rounded(-2.23125) == -2.23125  # no more digits than it is written with
    assert rounded(2.0) == 2.0 and rounded(-0.0) == 0.0 and rounded(1e-9) == 1e-9
    assert rounded(float("-inf")) == float("-inf")  # a masked score, as it was
    assert rounded([[0.1234567, 3], (True, "dog", None)]) == [[0.12346, 3], [True, "dog", None]]


def test_a_candidate_ending_in_5_is_skipped():
    """0.125 writes 0.12499999 as it is written, in Python, but it is a tie to two
    decimals, which static/js/numbers.js may round the other way: it is not taken."""
    x = 0.12499999
    assert writings(0.125) == writings(x)
    assert rounded(x) == x
    assert rounded(0.014999999) == 0.014999999 and rounded(0.0150001) == 0.0150001


def test_the_integer_part_is_kept():
    assert rounded(2.9999999) == 2.9999999  # 3.0 writes "3.00000" too, but its integer part is 3
    assert math.trunc(rounded(-1.0000001)) == -1


# numbers near the ties of every rounding the page does: k / 10^d, give or take a little
NEAR_TIES = st.builds(
    lambda k, d, nudge: k / 10**d + nudge,
    st.integers(-10**6, 10**6),
    st.integers(0, 7),
    st.sampled_from([0.0, 1e-12, -1e-12, 1e-9, -1e-9, 4e-6, -4e-6, 5e-6, -5e-6, 6e-6, -6e-6]),
)


@settings(max_examples=2000, deadline=None)
@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False) | NEAR_TIES)
def test_every_writing_is_kept_and_the_number_is_no_longer(x):
    y = rounded(x)
    assert writings(y) == writings(x) and writings(y, GERMAN) == writings(x, GERMAN)
    assert len(repr(y)) <= len(repr(x))
    assert abs(y - x) <= 0.5e-5 + 4 * math.ulp(x)  # never further than half of the fifth decimal


def test_the_first_frame_carries_the_values_in_a_third_of_the_bytes():
    data = initial("attention-heatmap", FIG.parse_options({}))
    values = first_frame(data)["scene"]["values"]
    exact = FIG.compute(data["state"])["r"]
    for name in ("scores", "weights", "entropy", "outputs"):
        mine, full = values[name], getattr(exact, name)
        flat = (lambda m: m) if name == "entropy" else (lambda m: [x for row in m for x in row])
        assert [writings(x) for x in flat(mine)] == [writings(x) for x in flat(full)], name
    dump = json.dumps({k: values[k] for k in ("scores", "weights", "entropy", "outputs")})
    full_dump = json.dumps({k: getattr(exact, k) for k in ("scores", "weights", "entropy", "outputs")})
    assert len(dump) < 0.6 * len(full_dump), (len(dump), len(full_dump))


def test_the_lesson_s_numbers_read_as_before():
    """The lesson's live numbers, written from the rounded values, are the engine's."""
    text = (ROOT / "content" / "02-attention-heatmap.md").read_text(encoding="utf-8")
    data = initial("attention-heatmap", FIG.parse_options({"preset": "sentence", "query": "dog"}))
    values, exact = data["scene"]["values"], FIG.compute(data["state"])["r"]
    bound = re.findall(r"<table\.(\w+)((?:\[\d+\])+)(?::(\w+))?>", text)
    assert len(bound) >= 14
    for name, index, _ in bound:
        mine, full = values[name], getattr(exact, name)
        for i in map(int, re.findall(r"\d+", index)):
            mine, full = mine[i], full[i]
        assert writings(mine) == writings(full), (name, index)
