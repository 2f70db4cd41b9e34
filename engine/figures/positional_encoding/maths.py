"""The numbers of the figure that are not the engine's own: ranges, the similarity of
two positions from their codes, and which position the chart's probe stands at."""

import math

from explorables.engine import dot, frequencies, pe_similarity, pe_similarity_terms, sinusoidal

DIM_MIN, DIM_MAX = 4, 64  # the dimension slider's range (even numbers only)
BASES = (10.0, 100.0, 1000.0, 10000.0, 100000.0)  # the base menu's choices
BASE_MIN, BASE_MAX = 2.0, 100000.0  # a typed base must lie in this range
POSITIONS_MIN, POSITIONS_MAX = 8, 256  # range of the "positions" option
SAMPLES = 4  # points of the drawn curve per position: the similarity is defined between them too
INTERVAL = 700  # ms between two positions while playing


def similarities(t: float, positions: list[float], dim: int, base: float) -> list[float]:
    """PE(t) . PE(s) / (D/2) for every s of ``positions``, from the two vectors (t and s may
    lie between positions), PE(t) computed once (the chart's curve asks for a thousand)."""
    at_t = sinusoidal(t, dim, base)
    return [dot(at_t, sinusoidal(s, dim, base)) / (dim // 2) for s in positions]


def period(theta: float) -> float:
    """Positions per full turn of a clock turning theta radians a step."""
    return 2 * math.pi / theta


def probe_position(state: dict) -> int:
    """The position s = t ± k that the offset is read at: on the probe's side of t, or on
    the other side when its own has no room on the chart (beyond it when neither has)."""
    t, k, last, side = state["t"], state["offset"], state["positions"], state["side"]
    return next((s for s in (t + side * k, t - side * k) if 0 <= s <= last), t + k)


def numbers(state: dict) -> dict:
    """Everything the panels show, for the figure's ``compute``: the hands PE(t) and the
    dashed hands PE(s), (D,) each; the clocks' steps θᵢ and the sum's terms cos(θᵢ k), (D/2,)."""
    t, D, b, k = state["t"], state["dim"], state["base"], state["offset"]
    s = probe_position(state)  # the position compared with t: t + k, or t − k near an end
    # the line is sampled between positions too (the similarity is defined for any
    # offset), so a short code's swings are drawn smooth; the values keep the positions
    xs = [x / SAMPLES for x in range(state["positions"] * SAMPLES + 1)]
    fine = [list(point) for point in zip(xs, similarities(t, xs, D, b), strict=True)]
    out = {"t": t, "D": D, "base": b, "offset": k, "s": s, "similarity_at_offset": pe_similarity(k, D, b)}
    clocks = {"pe": sinusoidal(t, D, b), "later": sinusoidal(s, D, b), "thetas": frequencies(D, b)}
    return {**out, **clocks, "terms": pe_similarity_terms(k, D, b), "similarity": fine[::SAMPLES], "fine": fine}
