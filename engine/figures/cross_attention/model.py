# fmt: off
# Laid out by hand: tests/test_figure_cross_attention.py holds the package, words aside, to 250 lines.
"""The ``cross-attention`` figure: a German sentence's queries read an English sentence's keys
and values (maths.py), a rectangular table with no mask; then the block adds the selected
word's o W_O back to its vector x (the residual stream), or, switched off, replaces x.
"""
from __future__ import annotations

from typing import Any

from explorables.figures import Experiment, Figure, Slider, Toggle, Value, element_id, num, quote, register

from . import scene
from . import words as W
from .maths import SOURCE, TARGET, X0, cross, residual, rms_norm

SHARP = 0.3  # the temperature "Sharpen the alignment" sets


def row_of(state: dict, T: float | None = None) -> tuple[list[float], list[float]]:
    """The selected target word's weights and output at temperature T (the state's if None)."""
    result = cross(state["X"], state["T"] if T is None else T)
    return result.weights[state["i"]], result.outputs[state["i"]]


def follow_see(state: dict) -> str:
    w, _ = row_of(state)
    first, second = sorted(range(len(SOURCE)), key=lambda j: -w[j])[:2]
    return W.X_FOLLOW[2].format(word=quote(TARGET[state["i"]]), w1=num(w[first]), s1=quote(SOURCE[first]),
                                w2=num(w[second]), s2=quote(SOURCE[second]))


def off_see(state: dict) -> str:
    x, (_, o) = state["X"][state["i"]], row_of(state)
    moved, on = residual(x, o)
    return W.X_OFF[2].format(word=quote(TARGET[state["i"]]), moved=scene.pair(moved), x=scene.pair(x),
                             sum=scene.pair(on))


def sharp_see(state: dict) -> str:
    w, _ = row_of(state)
    before, _ = row_of(state, 1.0)
    j = max(range(len(SOURCE)), key=lambda j: w[j])
    return W.X_SHARP[2].format(T=num(state["T"], 1), word=quote(TARGET[state["i"]]), w=num(w[j]),
                               source=quote(SOURCE[j]), before=num(before[j]))


@register
class CrossAttention(Figure, words=W):
    """A target sentence's queries over a source sentence's keys and values, and the residual."""

    name = "cross-attention"
    params = (
        Slider("i", W.LABEL_I, 2, lo=0, hi=len(TARGET) - 1, integer=True, what=W.WHAT_I, doc=W.DOC_I, near="table"),
        Slider("T", W.T, 1.0, lo=0.1, hi=3.0, by=0.05, what=W.WHAT_T, help=W.T_HELP, doc=W.DOC_T, near="table"),
        Toggle("residual", W.RESIDUAL, True, help=W.RESIDUAL_HELP, doc=W.DOC_RESIDUAL, near="plane"),
        Toggle("norm", W.NORM, False, help=W.NORM_HELP, doc=W.DOC_NORM, near="plane"),
    )
    values = (
        Value("i", "integer", W.V_I), Value("word", "text", W.V_WORD), Value("source", "text", W.V_SOURCE),
        Value("top", "decimal", W.V_TOP, announce=W.V_TOP_SAY), Value("weights", "matrix", W.V_WEIGHTS),
        Value("row", "list", W.V_ROW), Value("output", "vector", W.V_OUTPUT), Value("moved", "vector", W.V_MOVED),
        Value("x", "vector", W.V_X), Value("new", "vector", W.V_NEW), Value("entropy", "decimal", W.V_ENTROPY),
        Value("T", "decimal", W.V_T), Value("residual", "bool", W.V_RESIDUAL), Value("normed", "vector", W.V_NORMED),
    )
    experiments_near = "plane"
    experiments = (
        Experiment("follow", *W.X_FOLLOW[:2], set={"i": 3}, see=follow_see),
        Experiment("off", *W.X_OFF[:2], set={"residual": False}, see=off_see),
        Experiment("sharp", *W.X_SHARP[:2], set={"T": SHARP}, see=sharp_see),
    )

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        state["X"] = [list(x) for x in X0]  # the target words' vectors; a drag moves one
        return state

    def on_select(self, state: dict[str, Any], mark: str, i: Any) -> dict[str, Any]:
        """A cell ("cell", (i, j)) or a row label ("row", i) selects the target word i."""
        row = i[0] if mark == "cell" and isinstance(i, tuple) else i if mark == "row" else None
        if isinstance(row, int) and 0 <= row < len(TARGET):
            state["i"] = row
            return state
        raise ValueError(f"{self.name} cannot select the mark {element_id(mark, i)!r}")

    def on_drag(self, state: dict[str, Any], mark: str, i: Any, x: Any, y: Any) -> dict[str, Any]:
        """The selected word's vector x dragged: its query follows (q = x W_Q)."""
        if mark != "x":
            raise ValueError(f"{self.name} cannot drag the mark {element_id(mark, i)!r}")
        state["X"][state["i"]] = [round(float(x), 2), round(float(y), 2)]
        return state

    def compute(self, state: dict[str, Any]) -> dict[str, Any]:
        i, result = state["i"], cross(state["X"], state["T"])
        row, x = result.weights[i], state["X"][i]
        top = max(range(len(SOURCE)), key=lambda j: row[j])
        moved, new = residual(x, result.outputs[i], state["residual"])
        return {"i": i, "word": TARGET[i], "source": SOURCE[top], "top": row[top], "weights": result.weights,
                "scores": result.scores, "row": row, "output": result.outputs[i], "moved": moved, "x": x,
                "new": new, "entropy": result.entropy[i], "T": state["T"], "residual": state["residual"],
                "normed": rms_norm(new), "norm": state["norm"]}

    def draw(self, state: dict[str, Any], v: dict[str, Any]) -> list[dict]:
        return [scene.table(state, v), scene.stream(state, v), scene.readout(state, v)]

    def status(self, state: dict[str, Any], v: dict[str, Any]) -> str:
        return W.STATUS.format(word=quote(v["word"]), top=num(v["top"]), source=quote(v["source"]),
                               new=scene.pair(v["new"]))
