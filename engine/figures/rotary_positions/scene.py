# fmt: off
# Laid out by hand: tests/test_figure_rotary_positions.py holds the package, words aside, to 250 lines.
"""The panels: the query/key plane (pair 0), the clocks (one a pair), and the read-out,
from the numbers ``RotaryPositions.compute`` made."""
import math

from explorables.engine import frequencies
from explorables.figures import arrows, circles, formula, labels, num, plane, points, sub, text

from . import words
from .maths import BASE, DIM

REACH = 2.2  # the plane's half-width: a content of length 1 plus a code of length 1 fits
GAP = 2.6  # between the centres of two clocks
LEFT, TOP = 1.3, -1.3  # the first clock's centre: the plane's axes through 0 stay off the faces


def pair_plane(state: dict, v: dict) -> dict:
    t, u, mode = v["t"], v["u"], v["mode"]
    q, k, qt, ku = state["q"][:2], state["k"][:2], v["q_t"][:2], v["k_u"][:2]
    names = [words.ARROW_Q.format(t=sub(t)), words.ARROW_K.format(u=sub(u))]
    return plane(
        "plane",
        circles([(0.0, 0.0)], 1.0, role="grid"),
        arrows("content", (0.0, 0.0), [q, k], role=["query", "key"], dashed=True, width=1.5, label=["q", "k"],
               name=[words.CONTENT_Q(), words.CONTENT_K()]),
        arrows("qt", (0.0, 0.0), [qt], role="query", width=3, label=names[0], draggable=True,
               name=f"{names[0]} = ({num(qt[0])}, {num(qt[1])})"),
        arrows("ku", (0.0, 0.0), [ku], role="key", width=3, label=names[1], draggable=True,
               name=f"{names[1]} = ({num(ku[0])}, {num(ku[1])})"),
        x=[-REACH, REACH], y=[-REACH, REACH], square=True, grid=1.0, keyboard={"step": 0.1, "big": 0.5},
        axes=["x₀", "x₁"], title=words.PLANE_TITLE.format(mode=words.MODES[mode]),
        caption=words.PLANE_CAPTION.format(t=t, u=u),
        legend=[{"role": "query", "label": names[0], "shape": "line"},
                {"role": "key", "label": names[1], "shape": "line"}],
    )


def clocks(state: dict, v: dict) -> dict:
    """One clock a pair: its hand at theta_i t for the query, theta_i u for the key (dashed)."""
    t, u = v["t"], v["u"]
    thetas = frequencies(DIM, BASE)
    centres = [(LEFT + GAP * i, TOP) for i in range(len(thetas))]

    def hands(at: int, r: float) -> list[tuple[float, float]]:  # (sin, cos): clockwise from 12
        return [(x + r * math.sin(th * at), y + r * math.cos(th * at))
                for (x, y), th in zip(centres, thetas, strict=True)]

    def name(i: int) -> str:
        return words.CLOCK_NAME.format(i=i, theta=num(thetas[i], 1), t=t, u=u,
                                       angle=num(math.degrees(thetas[i] * (t - u)), 0))

    return plane(
        "clocks",
        circles(centres, 1.0, role="axis"),
        arrows("hand_u", centres, hands(u, 0.8), role="key", dashed=True, width=2),
        arrows("hand_t", centres, hands(t, 1.0), role="query", width=2.5),
        points("tip", hands(t, 1.0), role="query", shape="circle", size=2.5, name=name),
        labels([(x, y - 1.45) for x, y in centres], [f"i={i}, θ={num(th, 1)}" for i, th in enumerate(thetas)],
               align="center", size=11, role="muted"),
        x=[0.2, GAP * (len(thetas) - 1) + 2 * LEFT - 0.2], y=[TOP - 1.7, -0.2], square=True, grid=0,
        title=words.CLOCKS_TITLE(), caption=words.CLOCKS_CAPTION.format(t=t, u=u),
        legend=[{"role": "query", "label": words.HAND_T.format(t=t), "shape": "line"},
                {"role": "key", "label": words.HAND_U.format(u=u), "shape": "line"}],
    )


def signed(parts: list[float]) -> str:
    """The terms of a sum: 1.40 + 1.70 − 0.19 + 0.56."""
    return num(parts[0]) + "".join(f" {'−' if x < 0 else '+'} {num(abs(x))}" for x in parts[1:])


def readout(state: dict, v: dict) -> dict:
    t, u, p = sub(v["t"]), sub(v["u"]), signed(v["parts"])
    if v["mode"] == "rotate":
        lines = [formula(words.ROTATE_SUM.format(t=t, u=u, parts=p, score=num(v["score"]))),
                 words.ROTATE_WHY.format(offset=num(v["offset"], 0), content=num(v["content"]))]
    else:
        lines = [formula(words.ADD_SUM.format(t=v["t"], u=v["u"], parts=p, score=num(v["score"]))), words.ADD_WHY()]
    return text("score", *lines, title=words.READOUT_TITLE())
