"""The panels: the clocks, the vector PE(t), the similarity chart, the read-out and the
sum, built from the numbers ``PositionalEncoding.compute`` made (no maths here)."""

from __future__ import annotations

import math

from explorables.figures import (
    arrows,
    cells,
    chart,
    circles,
    field_text,
    heading,
    labels,
    line,
    num,
    plane,
    points,
    series,
    text,
    typed,
)

from ..sentences import sub
from . import words
from .maths import BASE_MAX, BASE_MIN
from .words import sig, signed

COLUMNS = 4  # clocks per row of the clock plane, up to MANY clocks: big enough on a phone
MANY, WIDE_COLUMNS = 16, 8  # more clocks than MANY: a plane as wide as the figure, 8 a row
CELL_W, CELL_H = 2.5, 3.0  # size of one clock's cell on the plane, in data units
LEFT, TOP = 1.0, -1.0  # the clock plane's corner, away from the axes through 0
LATER = 0.85  # the dashed hands' length: shorter, so both hands show where they agree


def panels(state: dict, v: dict) -> list[dict]:
    return [clocks(state, v), vector(state, v), similarity_chart(state, v), readout(state, v), terms(state, v)]


def clocks(state: dict, v: dict) -> dict:
    t, s, thetas = v["t"], v["s"], v["thetas"]
    pairs = len(thetas)
    # clocks keep one size whatever D is (a short row is centred): 4 a row in half the
    # figure's width, big enough on a phone, or 8 a row across the figure past 16 clocks
    cols = COLUMNS if pairs <= MANY else WIDE_COLUMNS
    centres = []
    for i in range(pairs):
        in_row = min(cols, pairs - cols * (i // cols))  # clocks in this clock's row
        centres.append((LEFT + CELL_W * ((cols - in_row) / 2 + i % cols + 0.5), TOP - CELL_H * (i // cols) - 1.2))

    def hands(code: list[float], r: float) -> list[tuple[float, float]]:
        # the hand is the pair (PE_2i, PE_2i+1) = (sin, cos): clockwise from 12 o'clock
        return [(x + r * code[2 * i], y + r * code[2 * i + 1]) for i, (x, y) in enumerate(centres)]

    def name(i: int) -> str:
        return words.CLOCK_NAME.format(
            i=i,
            even=2 * i,
            odd=2 * i + 1,
            step=sig(math.degrees(thetas[i])),
            period=sig(2 * math.pi / thetas[i]),
            t=t,
            angle=num(math.degrees(thetas[i] * t) % 360, 1),
        )

    return plane(
        "clocks",
        circles(centres, 1.0, role="axis"),  # the faces: 3:1 on the canvas, like axes
        arrows("later", centres, hands(v["later"], LATER), role="key", dashed=True, width=2),
        arrows("hand", centres, hands(v["pe"], 1.0), role="query", width=2.5),
        points("tip", hands(v["pe"], 1.0), role="query", shape="circle", size=2.5, name=name),
        labels(
            [(x, y - 1.45) for x, y in centres],
            ["i=0"] + [str(i) for i in range(1, pairs)],
            align="center",
            size=11,
            role="muted",
        ),
        x=[LEFT, LEFT + CELL_W * cols],
        y=[TOP - CELL_H * math.ceil(pairs / cols), TOP],
        square=True,
        grid=0,
        wide=pairs > MANY,
        title=words.CLOCKS_TITLE.format(t=t),
        caption=words.CLOCKS_CAPTION.format(s=s, k=signed(s - t)),
        legend=[
            {"role": "query", "label": words.HAND_AT_T.format(t=t), "shape": "line"},
            {"role": "key", "label": words.HAND_AT_S.format(s=s), "shape": "line"},
        ],
    )


def similarity_chart(state: dict, v: dict) -> dict:
    t, s, at_k, last = v["t"], v["s"], v["similarity_at_offset"], state["positions"]
    probe = 0 <= s <= last
    k = signed(s - t)
    return chart(
        "similarity",
        line([(t, -1.0), (t, 1.0)], role="query", dashed=True, width=1),
        labels(
            [(t, -0.9)],
            [words.T_MARK.format(t=t)],
            size=11,
            role="query",
            align="right" if t > last * 7 / 8 else "left",
        ),
        line([(s, -1.0), (s, at_k)], role="key", dotted=True, width=1) if probe else None,
        points(
            None,
            [(s, at_k)],
            id="probe",
            role="key",
            shape="diamond",
            size=6,
            draggable=True,
            label=words.PROBE.format(k=k, sim=num(at_k)),
            name=words.PROBE_NAME.format(s=s, k=k, sim=num(at_k)),
        )
        if probe
        else None,
        x=[0.0, float(last)],
        y=[-1.0, 1.2],
        series=[series(v["fine"], "accent")],
        wide=True,
        title=words.CHART_TITLE.format(t=t),
        caption=words.CHART_CAPTION(),
        x_label=words.X_LABEL(),
        y_label=words.Y_LABEL(),
        ratio=0.6,
        grid=0,
        keyboard={"step": 1, "big": 4},
        ticks={"x": list(range(0, last + 1, 8 if last <= 96 else 32)), "y": [-1, 0, 1]},
    )


def vector(state: dict, v: dict) -> dict:
    t, pe, thetas = v["t"], v["pe"], v["thetas"]
    fns = ("sin", "cos")

    def detail(i: int, j: int) -> list[str]:
        fill = {
            "t": t,
            "e": sub(2 * i + j),
            "fn": fns[j],
            "i": sub(i),
            "theta": sig(thetas[i]),
            "angle": num(thetas[i] * t, 4),
            "x": num(pe[2 * i + j], 4),
        }
        return [part.format(**fill) for part in words.CELL_DETAIL]

    grid = cells(
        "pe",
        len(thetas),
        2,
        text=lambda i, j: num(pe[2 * i + j]),
        tone=lambda i, j: max(-1.0, min(1.0, pe[2 * i + j])),
        detail=detail,
        tip=lambda i, j: words.CELL_TITLE.format(t=t, e=2 * i + j, x=num(pe[2 * i + j], 3)),
        title=words.VECTOR_TITLE.format(t=t),
        caption=words.VECTOR_CAPTION(),
        wide=len(thetas) > MANY,
        key=[(-1, words.KEY_NEGATIVE()), (1, words.KEY_POSITIVE())],
        col_labels=heading(2, text=words.VECTOR_COLUMNS),
        row_labels=heading(len(thetas), text=lambda i: f"i={i}"),
    )
    return grid


def readout(state: dict, v: dict) -> dict:
    t, s, k, D, thetas = v["t"], v["s"], v["offset"], v["D"], v["thetas"]
    fill = {
        "t": t,
        "s": s,
        "k": k,
        "sim": num(v["similarity_at_offset"]),
        "fast": sig(2 * math.pi / thetas[0]),
        "slow": sig(2 * math.pi / thetas[-1]),
        "last": len(thetas) - 1,
        "half": D // 2,
    }
    shown = [
        str(t),
        str(k),
        words.CLOCKS_OF.format(D=D, half=D // 2),
        field_text(v["base"]),
        num(v["similarity_at_offset"], 3),
    ]
    return text(
        "readout",
        *(p.format(**fill) for p in words.READOUT),
        title=words.READOUT_TITLE(),
        items=[[name.format(**fill), value] for name, value in zip(words.READOUT_ITEMS, shown, strict=True)],
    )


def terms(state: dict, v: dict) -> dict:
    k, D, thetas = v["offset"], v["D"], v["thetas"]
    rows = [
        words.SUM_TERM.format(i=i, theta=sig(theta), angle=num(theta * k, 4), term=num(c, 4))
        for i, (theta, c) in enumerate(zip(thetas, v["terms"], strict=True))
    ]
    return text(
        "sum",
        words.SUM_HEAD.format(k=k),
        *rows,
        words.SUM_TAIL.format(total=num(math.fsum(v["terms"]), 4), half=D // 2, sim=num(v["similarity_at_offset"], 4)),
        collapsible=words.SUM_FOLD.format(k=k),
        mono=True,
    )


def status(v: dict) -> str:
    """The status line: the position, the code and the similarity read out."""
    return words.STATUS.format(
        t=v["t"], D=v["D"], b=field_text(v["base"]), s=v["s"], sim=num(v["similarity_at_offset"])
    )


def typed_base(state: dict) -> dict:
    """The field that takes any base, beside the menu of round ones."""
    return {
        "kind": "number",
        "name": "base_text",
        "near": "clocks",
        "label": words.TYPED_BASE(),
        "help": words.TYPED_BASE_HELP.format(lo=typed(f"{BASE_MIN:g}"), hi=typed(f"{BASE_MAX:g}")),
        "value": field_text(state["base"]),
    }
