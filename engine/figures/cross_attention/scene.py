# fmt: off
# Laid out by hand: tests/test_figure_cross_attention.py holds the package, words aside, to 250 lines.
"""The panels: the rectangular table of weights, the residual plane of the selected target
word, and the read-out, from the numbers ``CrossAttention.compute`` made."""
from __future__ import annotations

import math

from explorables.figures import arrows, cells, circles, formula, heading, labels, num, plane, points, quote, text, vec

from . import words as W
from .maths import SOURCE, TARGET, Z

REACH = 1.6  # the plane's half-width: x (length 1) plus o W_O (at most about 0.6) fits


def pair(v: list[float]) -> str:
    return formula(vec(v))  # one left-to-right run in Hebrew too


def table(state: dict, v: dict) -> dict:
    weights, i = v["weights"], v["i"]
    m, n = len(TARGET), len(SOURCE)

    def detail(r: int, j: int) -> list[str]:
        return [W.CELL_DETAIL.format(s=num(v["scores"][r][j]), T=num(v["T"]), w=num(weights[r][j]))]

    return cells("table", m, n, text=lambda r, j: num(weights[r][j]), tone=lambda r, j: weights[r][j],
                 id=lambda r, j: f"cell-{r}-{j}", select=lambda r, j: True, mark="cell", active=lambda r, j: r == i,
                 tip=lambda r, j: W.CELL_TIP.format(q=quote(TARGET[r]), k=quote(SOURCE[j]), w=num(weights[r][j])),
                 detail=detail, active_row=i,
                 row_labels=heading(m, "row", text=TARGET, id=lambda r: f"row-{r}", select=lambda r: True,
                                    active=lambda r: r == i, title=lambda r: W.PICK_ROW.format(word=quote(TARGET[r]))),
                 col_labels=heading(n, text=SOURCE), key=[(0, W.KEY_LITTLE()), (1, W.KEY_MUCH())],
                 title=W.TABLE_TITLE.format(m=m, n=n), caption=W.TABLE_CAPTION.format(m=m, n=n))


def stream(state: dict, v: dict) -> dict:
    """x, o W_O and x + o W_O for the selected word; the source words' directions, faint."""
    x, moved, new, on = v["x"], v["moved"], v["new"], v["residual"]
    tail = x if on else [0.0, 0.0]
    return plane(
        "plane",
        points("source", Z, role="key", shape="circle", size=3.5,
               name=[W.SOURCE_NAME.format(word=quote(w)) for w in SOURCE]),
        labels([[1.25 * c for c in z] for z in Z], list(SOURCE), align="center", size=11, role="muted"),
        arrows("x", (0.0, 0.0), [x], role="own", width=3, label=W.ARROW_X, draggable=True, dashed=not on,
               name=f"x = {vec(x)}"),
        arrows("moved", tail, [[a + b for a, b in zip(tail, moved, strict=True)]], role="output", width=2.5,
               label=W.ARROW_MOVED, name=f"o W_O = {vec(moved)}"),
        *([arrows("new", (0.0, 0.0), [new], role="accent", width=3, label=W.ARROW_SUM,
                  name=f"x + o W_O = {vec(new)}")] if on else []),
        *([circles([(0.0, 0.0)], math.sqrt(2), role="grid"),
           arrows("normed", (0.0, 0.0), [v["normed"]], role="value", width=2, dashed=True, label=W.ARROW_NORM,
                  name=f"RMSNorm = {vec(v['normed'])}")] if v["norm"] else []),
        x=[-REACH, REACH], y=[-REACH, REACH], square=True, grid=0.5, keyboard={"step": 0.1, "big": 0.5},
        axes=["x₀", "x₁"], title=W.PLANE_TITLE.format(word=quote(v["word"])),
        caption=(W.PLANE_CAPTION if on else W.PLANE_CAPTION_OFF).format(word=quote(v["word"])),
        legend=[{"role": "own", "label": W.ARROW_X, "shape": "line"},
                {"role": "output", "label": W.ARROW_MOVED, "shape": "line"},
                *([{"role": "accent", "label": W.ARROW_SUM, "shape": "line"}] if on else []),
                *([{"role": "value", "label": W.ARROW_NORM, "shape": "line"}] if v["norm"] else [])],
    )


def readout(state: dict, v: dict) -> dict:
    fill = {"x": vec(v["x"]), "moved": vec(v["moved"]), "new": vec(v["new"]), "word": quote(v["word"])}
    if v["residual"]:
        lines = [formula(W.SUM_ON.format(**fill)), W.WHY_ON.format(**fill)]
    else:
        lines = [formula(W.SUM_OFF.format(**fill)), W.WHY_OFF.format(**fill)]
    if v["norm"]:
        lines.append(W.NORM_LINE.format(normed=vec(v["normed"]), length=num(math.sqrt(2))))
    return text("sum", *lines, title=W.READOUT_TITLE.format(word=quote(v["word"])))
