"""The work a heatmap scene costs: what the worker computes and writes for each answer.

The table's scene is drawn on every change a reader makes and once more, whole, when the
figure goes live: its numbers come from one attention over the table, each cell's number
is written once, and the words of its cells are looked up once a scene, not once a cell.
What the reader sees is the same as before (the other heatmap tests compare every word).
"""

from __future__ import annotations

from functools import partial

import figure_helpers
import pytest

from explorables.engine import locale, runtime
from explorables.engine.figures import FIGURES
from explorables.engine.figures.attention_heatmap import scene
from explorables.engine.figures.attention_heatmap import table as hm_table
from explorables.engine.figures.kit.marks import lean

FIG = FIGURES["attention-heatmap"]
first_state = partial(figure_helpers.first_state, FIG)


def counted(monkeypatch, module, name: str) -> list[int]:
    """Count the calls of ``module.name`` from now on: the list holds one 1 a call."""
    calls, real = [], getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


@pytest.mark.parametrize("length", [1, 2, 3, 12])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("padding", [0, 2])
@pytest.mark.parametrize("whole", [False, True])
def test_an_answer_computes_the_table_once(monkeypatch, length, causal, padding, whole):
    state = first_state(length=length, causal=causal, padding=padding)
    r = hm_table.result(state)
    reads_three = bool(hm_table.rows_reading(state, r, 3))  # where "peaked and flat" applies
    calls = counted(monkeypatch, hm_table, "attention")
    answer = runtime.step(FIG.name, state, {"type": "patch", "patch": {}}, lean=not whole)
    assert answer["ok"], answer
    assert len(calls) == 1  # the scene's own; whether an experiment applies needs no table
    buttons = next(c for c in answer["scene"]["controls"] if c["name"] == "experiments")
    assert ("peaked-flat" in [b["name"] for b in buttons["items"]]) == reads_three


@pytest.mark.parametrize("view", ["weights", "scores"])
@pytest.mark.parametrize("causal", [False, True])
def test_each_cell_number_is_written_once(monkeypatch, view, causal):
    state = first_state(view=view, causal=causal, padding=1)
    v = FIG.compute(state)
    calls = counted(monkeypatch, scene, "num")
    with lean():
        panel = scene.table_panel(state, v)
    readable = sum(map(sum, v["r"].mask))  # a masked cell shows "0" or "−∞", no number
    assert len(calls) == readable  # its text; its tooltip says the same words
    cells = [cell for row in panel["rows"] for cell in row]
    assert all(cell["text"] in cell["title"] for cell in cells)


def test_the_words_of_the_cells_are_looked_up_once_a_scene(monkeypatch):
    state = first_state(causal=True, padding=2)
    v = FIG.compute(state)
    N = len(v["visible"])
    calls = counted(monkeypatch, locale, "t")
    panel = scene.table_panel(state, v)  # with every cell's arithmetic
    details = [cell["detail"] for row in panel["rows"] for cell in row]
    assert all(len(d) >= 4 for d in details)
    assert len(calls) < 4 * N  # the panel's own words, a row's, the templates: not 5 a cell (N² = 196 cells)
