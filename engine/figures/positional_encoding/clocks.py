"""The clock plane and the vector PE(t) whose pairs it draws as hands, from the numbers
``maths.numbers`` made."""

import math

from explorables.figures import arrows, cells, circles, heading, labels, num, plane, points, sub

from . import words as W
from .maths import period
from .words import sig, signed

COLUMNS = 4  # clocks per row of the clock plane (half the figure wide), up to MANY clocks: big enough on a phone
MANY, WIDE_COLUMNS = 16, 8  # more clocks than MANY: a plane as wide as the figure, 8 a row
CELL_W, CELL_H = 2.5, 3.0  # size of one clock's cell on the plane, in data units, whatever D is
LEFT, TOP = 1.0, -1.0  # the clock plane's corner, away from the axes through 0
LATER = 0.85  # the dashed hands' length: shorter, so both hands show where they agree


def centres(pairs: int, cols: int) -> list[tuple[float, float]]:
    """The clocks' centres, ``cols`` a row, a short last row centred."""
    out = []
    for i in range(pairs):
        in_row = min(cols, pairs - cols * (i // cols))  # clocks in this clock's row
        out.append((LEFT + CELL_W * ((cols - in_row) / 2 + i % cols + 0.5), TOP - CELL_H * (i // cols) - 1.2))
    return out


def clocks(v: dict) -> dict:
    t, s, thetas = v["t"], v["s"], v["thetas"]
    pairs = len(thetas)
    cols = COLUMNS if pairs <= MANY else WIDE_COLUMNS
    at = centres(pairs, cols)

    def hands(code: list[float], r: float) -> list[tuple[float, float]]:
        # the hand is the pair (PE_2i, PE_2i+1) = (sin, cos): clockwise from 12 o'clock
        return [(x + r * code[2 * i], y + r * code[2 * i + 1]) for i, (x, y) in enumerate(at)]

    def name(i: int) -> str:
        step, turn, angle = sig(math.degrees(thetas[i])), sig(period(thetas[i])), math.degrees(thetas[i] * t) % 360
        return W.CLOCK_NAME.format(i=i, even=2 * i, odd=2 * i + 1, step=step, period=turn, t=t, angle=num(angle, 1))

    under = [(x, y - 1.45) for x, y in at]
    return plane(
        "clocks",
        circles(at, 1.0, role="axis"),  # the faces: 3:1 on the canvas, like axes
        arrows("later", at, hands(v["later"], LATER), role="key", dashed=True, width=2),
        arrows("hand", at, hands(v["pe"], 1.0), role="query", width=2.5),
        points("tip", hands(v["pe"], 1.0), role="query", shape="circle", size=2.5, name=name),
        labels(under, ["i=0", *map(str, range(1, pairs))], align="center", size=11, role="muted"),
        x=[LEFT, LEFT + CELL_W * cols],
        y=[TOP - CELL_H * math.ceil(pairs / cols), TOP],
        square=True,
        grid=0,
        wide=pairs > MANY,
        title=W.CLOCKS_TITLE.format(t=t),
        caption=W.CLOCKS_CAPTION.format(s=s, k=signed(s - t)),
        legend=[("query", W.HAND_AT_T.format(t=t), "line"), ("key", W.HAND_AT_S.format(s=s), "line")],
    )


def vector(v: dict) -> dict:
    t, pe, thetas = v["t"], v["pe"], v["thetas"]

    def detail(i: int, j: int) -> list[str]:
        fn, angle, x = ("sin", "cos")[j], num(thetas[i] * t, 4), num(pe[2 * i + j], 4)
        fill = {"t": t, "e": sub(2 * i + j), "fn": fn, "i": sub(i), "theta": sig(thetas[i]), "angle": angle, "x": x}
        return [part.format(**fill) for part in W.CELL_DETAIL]

    return cells(
        "pe",
        len(thetas),
        2,
        text=lambda i, j: num(pe[2 * i + j]),
        tone=lambda i, j: pe[2 * i + j],
        detail=detail,
        tip=lambda i, j: W.CELL_TITLE.format(t=t, e=2 * i + j, x=num(pe[2 * i + j], 3)),
        title=W.VECTOR_TITLE.format(t=t),
        caption=W.VECTOR_CAPTION,
        wide=len(thetas) > MANY,
        key=[(-1, W.KEY_NEGATIVE()), (1, W.KEY_POSITIVE())],
        col_labels=heading(2, text=W.VECTOR_COLUMNS),
        row_labels=heading(len(thetas), text=lambda i: f"i={i}"),
    )
