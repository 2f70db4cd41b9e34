"""The exercise kit's default generate (draw again until every mistake is apart from the
right answer) and its matrix in MathML, which the built-in types now share."""

import random

from explorables.figures import Exercise, Mistake, mmatrix


class Near(Exercise):
    """x + 1, with a mistake (x + 1.01) that lands near the answer unless x is large."""

    name = "near-test"
    tolerance = 0.01
    mistakes = (Mistake("small", "hint", lambda p: p["x"] + 1 + (0.01 if p["x"] < 5 else 1)),)

    def draw(self, rng: random.Random) -> dict:
        return {"x": rng.randint(0, 9)}

    def solve(self, p: dict) -> float:
        return p["x"] + 1


class Vectors(Near):
    kind = "vector"
    draws = 1
    mistakes = (Mistake("swap", "hint", lambda p: [p["x"], 0.0]),)

    def solve(self, p: dict) -> list[float]:
        return [0.0, p["x"]]


def test_generate_draws_again_until_each_mistake_is_apart():
    for seed in range(50):
        p = Near().generate(seed)
        assert p["x"] >= 5, seed  # the draws where the mistake sits 0.01 off are drawn again
    first = [random.Random(seed).randint(0, 9) for seed in range(50)]
    assert any(x < 5 for x in first)  # (so some seeds did draw again)


def test_apart_measures_a_vector_by_its_largest_gap_and_draws_stops_the_search():
    assert Vectors().apart({"x": 1}) and not Vectors().apart({"x": 0})
    assert Vectors().generate(3) == {"x": random.Random(3).randint(0, 9)}  # one draw, kept


def test_mmatrix_writes_rows_in_the_reader_s_notation():
    out = mmatrix([[1, -0.5], [0, 2]], True)
    assert out.count("<mtr>") == 2 and out.count("<mtd>") == 4
    assert "0,5" in out and "\u2212" in out and out.startswith("<mrow><mo>(</mo><mtable>")
