"""The exercise types lessons 3 to 5 added, one for each skill they teach: the score after
the projections (projected-score), the heads joined by W_O (head-concat) and the
similarity of two position codes (offset-similarity). Each answer is checked against the
engine computed another way, each known mistake earns its own hint, and every seed makes
a statement with finite numbers whose mistakes all stand apart from the right answer."""
from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables import engine
from explorables.engine import runtime
from explorables.engine.exercises import EXERCISES, SEED_LIMIT
from figure_helpers import ROOT

NEW = ("projected-score", "head-concat", "offset-similarity")
LOCALES = ROOT / "engine" / "locales"


def ask(**request) -> dict:
    return json.loads(runtime.handle(json.dumps(request)))


def flat(answer) -> list[float]:
    return answer if isinstance(answer, list) else [answer]


def test_the_projected_score_is_the_lab_s_score_of_one_cell():
    e = EXERCISES["projected-score"]
    for seed in range(40):
        p = e.generate(seed)
        X = [p["x_i"], p["x_j"]]
        Q, K, _ = engine.projections(X, p["W_Q"], p["W_K"], [[1.0, 0.0], [0.0, 1.0]])
        assert e.solve(p) == pytest.approx(engine.scaled_scores(Q, K)[0][1], abs=1e-12)


def test_the_heads_joined_are_the_engine_s_multi_head_output():
    e = EXERCISES["head-concat"]
    for seed in range(40):
        p = e.generate(seed)
        parts = engine.sum_of_blocks([[p["o1"]], [p["o2"]]], p["W_O"])  # o^1 W_O^1 + o^2 W_O^2
        assert e.solve(p) == pytest.approx(parts[0], abs=1e-12)


def test_the_offset_similarity_is_the_dot_product_of_two_codes_over_d_2():
    e = EXERCISES["offset-similarity"]
    for seed in range(40):
        p = e.generate(seed)
        t = 7  # any position: the similarity depends on the offset only
        codes = [engine.sinusoidal(t, p["D"], p["base"]), engine.sinusoidal(t + p["k"], p["D"], p["base"])]
        assert e.solve(p) == pytest.approx(engine.dot(*codes) / (p["D"] / 2), abs=1e-9)


@pytest.mark.parametrize("name, seed, typed, mistake", [
    # lesson 3's problem: x_i = (-1, -1.3), x_j = (0.5, -0.3), W_Q = (-2 1; 2 0), W_K = (-2 -1; 2 2)
    ("projected-score", 4, "1.46", ""),
    ("projected-score", 4, "2.06", "forgot-sqrt-d"),
    ("projected-score", 4, "0.01", "w-k-not-transposed"),
    ("projected-score", 4, "\u22120.91", "column-vectors"),
    ("projected-score", 4, "0.11", "swapped-projections"),
    ("projected-score", 4, "\u22120.08", "no-projection"),
    # lesson 4's: o1 = (-1, -1.3), o2 = (0.5, -0.3)
    ("head-concat", 4, "(\u22121.1, \u22121.05)", ""),
    ("head-concat", 4, "(\u22121.1, \u22120.25)", "added-heads"),
    ("head-concat", 4, "(\u22120.3, \u22120.5)", "head-1-only"),
    ("head-concat", 4, "(\u22121.1, \u22120.55)", "swapped-blocks"),
    ("head-concat", 4, "(\u22120.5, \u22121.6)", "no-w-o"),
    # lesson 5's: D = 4, base 100, offset 2, so (cos 2 + cos 0.2) / 2
    ("offset-similarity", 22, "0.28", ""),
    ("offset-similarity", 22, "0.56", "not-averaged"),
    ("offset-similarity", 22, "1", "degrees"),
    ("offset-similarity", 22, "0.2", "exponent-without-2"),
    ("offset-similarity", 22, "\u22120.42", "fastest-clock-only"),
])
def test_the_lessons_problems_grade_as_worked_by_hand(name, seed, typed, mistake):
    reply = ask(exercise=name, seed=seed, answer=typed)
    assert (reply["right"], reply["mistake"]) == (mistake == "", mistake)


def test_each_hint_names_what_went_wrong():
    hints = {m.name: str(m.hint) for name in NEW for m in EXERCISES[name].mistakes}
    assert "√dₖ" in hints["forgot-sqrt-d"] and "W_Kᵀ" in hints["w-k-not-transposed"]
    assert "from the right" in hints["column-vectors"] and "Concatenate" in hints["added-heads"]
    assert "o² W_O²" in hints["head-1-only"] and "radians" in hints["degrees"]
    assert "D/2" in hints["not-averaged"] and "b^(−2i/D)" in hints["exponent-without-2"]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, SEED_LIMIT - 1), name=st.sampled_from(NEW))
def test_every_seed_makes_a_solvable_problem_whose_mistakes_stand_apart(seed, name):
    e = EXERCISES[name]
    p = e.generate(seed)
    right = flat(e.solve(p))
    assert all(math.isfinite(x) for x in right)
    for mistake in e.mistakes:  # each wrong computation is more than the tolerance away: its hint can be given
        wrong = flat(mistake.value(p))
        assert max(abs(x - y) for x, y in zip(wrong, right)) > e.tolerance, mistake.name
    statement = e.problem(seed)["statement"]
    assert "{" not in statement and "nan" not in statement and "inf" not in statement


def test_a_statement_draws_the_matrices_row_by_row():
    statement = EXERCISES["head-concat"].problem(4)["statement"]
    assert statement.count("<mtr>") == 4 and statement.count("<mtd>") == 8  # W_O is 4 x 2
    assert "<msup><mi>o</mi><mn>1</mn></msup>" in statement and "Write it as (x, y)." in statement
    statement = EXERCISES["projected-score"].problem(4)["statement"]
    assert statement.count("<mtr>") == 4  # two 2 x 2 matrices
    drawn = re.sub(r"<[^>]+>", "", statement)
    assert drawn.startswith("Two tokens have the vectors xi=(\u22121,\u22121.3)") and "of token i for token j?" in drawn
    assert "<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"inline\"><mrow><mi>j</mi>" in statement
    comma = EXERCISES["offset-similarity"].problem(22, decimal_comma=True)["statement"]
    assert "<mn>100</mn>" in comma and "<mn>4</mn>" in comma and "<mn>2</mn>" in comma


@pytest.mark.parametrize("language", ["en", "de", "he"])
def test_every_new_word_is_in_every_shipped_language(language):
    words = json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    english = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))
    keys = [k for k in english if k.split(".")[1] in ("projected_score", "head_concat", "offset_similarity")]
    assert len(keys) == 16
    for key in keys:
        assert words.get(key), key
        assert re.findall(r"\{(\w+)\}", words[key]) == re.findall(r"\{(\w+)\}", english[key]) or \
            set(re.findall(r"\{(\w+)\}", words[key])) == set(re.findall(r"\{(\w+)\}", english[key])), key
    if language != "en":
        assert all(words[k] != english[k] for k in keys if k.endswith("statement"))


def test_a_german_reader_is_told_the_mistake_in_german():
    from explorables.engine import locale

    locale.use("de")
    try:
        reply = ask(exercise="head-concat", seed=4, language="de", answer="(\u22121,1; \u22120,25)")
        assert reply["mistake"] == "added-heads" and reply["message"].startswith("Sie haben die Ausgaben")
    finally:
        locale.use("en")
