"""The numbers of the figure that are not the engine's own: ranges, the similarity of
two positions from their codes, and which position the chart's probe stands at."""

from __future__ import annotations

import math

from explorables.engine import dot, sinusoidal

DIM_MIN, DIM_MAX = 4, 64  # the dimension slider's range (even numbers only)
BASES = (10.0, 100.0, 1000.0, 10000.0, 100000.0)  # the base menu's choices
BASE_MIN, BASE_MAX = 2.0, 100000.0  # a typed base must lie in this range
POSITIONS_MIN, POSITIONS_MAX = 8, 256  # range of the "positions" option
SAMPLES = 4  # points of the drawn curve per position: the similarity is defined between them too
INTERVAL = 700  # ms between two positions while playing


def similarity(t: float, s: float, dim: int, base: float) -> float:
    """PE(t) . PE(s) / (D/2), from the two vectors (t and s may lie between positions)."""
    return dot(sinusoidal(t, dim, base), sinusoidal(s, dim, base)) / (dim // 2)


def similarities(t: float, positions: list[float], dim: int, base: float) -> list[float]:
    """``similarity(t, s, dim, base)`` for every s of ``positions``, PE(t) computed once
    (the chart's curve asks for a thousand)."""
    at_t = sinusoidal(t, dim, base)
    return [dot(at_t, sinusoidal(s, dim, base)) / (dim // 2) for s in positions]


def period(theta: float) -> float:
    """Positions per full turn of a clock turning theta radians a step."""
    return 2 * math.pi / theta


def probe_position(state: dict) -> int:
    """The position s = t ± k that the offset is read at: on the probe's side of t, or on
    the other side when its own has no room on the chart (beyond it when neither has)."""
    t, k, last, side = state["t"], state["offset"], state["positions"], state["side"]
    for s in (t + side * k, t - side * k):
        if 0 <= s <= last:
            return s
    return t + k
