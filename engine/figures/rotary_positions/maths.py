"""The numbers: a query and a key of D = 4 entries (two pairs), each pair turned clockwise
by theta_i = b^(-2i/D) times the position as lesson 5's R turns its hands, PE(t) = PE(0) R_t
(rotate), or PE(t) added (add). Turned, (q R_t) . (k R_u) = q R_(t-u) . k: the offset only.
"""

from __future__ import annotations

import math

from explorables.engine import dot, frequencies, sinusoidal

DIM, BASE = 4, 100.0  # two pairs: theta_0 = 1 rad a step, theta_1 = 0.1
LAST = 15  # the last position on the sliders


def rotate(pair: list[float], angle: float) -> list[float]:
    """The pair (x, y) turned clockwise by ``angle`` radians, as lesson 5's hands turn."""
    x, y = pair
    c, s = math.cos(angle), math.sin(angle)
    return [x * c + y * s, -x * s + y * c]


def placed(v: list[float], position: int, mode: str) -> list[float]:
    """The vector ``v`` at ``position``: each pair turned by theta_i * position (rotate),
    or the position code PE(position) added to it (add)."""
    if mode == "add":
        return [a + b for a, b in zip(v, sinusoidal(position, DIM, BASE), strict=True)]
    out: list[float] = []
    for i, theta in enumerate(frequencies(DIM, BASE)):
        out += rotate(v[2 * i : 2 * i + 2], theta * position)
    return out


def unplaced(w: list[float], position: int, mode: str, i: int) -> list[float]:
    """The pair ``i`` of the content vector that ``placed`` puts at ``w`` (a dragged head)."""
    if mode == "add":
        return [a - b for a, b in zip(w, sinusoidal(position, DIM, BASE)[2 * i : 2 * i + 2], strict=True)]
    return rotate(w, -frequencies(DIM, BASE)[i] * position)


def pair_scores(q: list[float], k: list[float]) -> list[float]:
    """The dot product pair by pair: the score is their sum."""
    return [dot(q[2 * i : 2 * i + 2], k[2 * i : 2 * i + 2]) for i in range(len(q) // 2)]


def terms(q: list[float], k: list[float], t: int, u: int) -> list[float]:
    """Adding: the four terms of (q + PE(t)) . (k + PE(u)), content with content, content
    with position (twice), position with position."""
    pt, pu = sinusoidal(t, DIM, BASE), sinusoidal(u, DIM, BASE)
    return [dot(q, k), dot(q, pu), dot(pt, k), dot(pt, pu)]
