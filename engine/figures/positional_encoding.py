"""The ``positional-encoding`` figure: sinusoidal position codes as a row of clocks.

For an even dimension D and a base b (Vaswani et al. 2017, "Attention Is All You Need")::

    PE(t)_{2i}   = sin(theta_i t)
    PE(t)_{2i+1} = cos(theta_i t)          theta_i = b^(-2i/D),  i = 0 .. D/2 - 1

Each pair (PE_{2i}, PE_{2i+1}) = (sin, cos) is the tip of a clock hand that starts at 12
o'clock and turns clockwise by theta_i per position. A step of k positions turns every
hand by theta_i k, whatever t is, so PE(t + k) = M_k PE(t) for one fixed block rotation
M_k, and the normalised similarity

    PE(t) . PE(s) / (D/2) = (2/D) sum_i cos(theta_i (s - t))

depends on the offset s - t only: the chart's curve moves with t and keeps its shape.

Every number comes from ``engine`` (``sinusoidal``, ``frequencies``, ``pe_similarity``,
``pe_similarity_terms``, ``dot``): the clock hands are the entries of PE(t) and PE(t + k)
themselves. This module turns reader events into states and describes them as a scene
(see SCENE.md). The similarity curve is computed from the two vectors themselves, dot
product by dot product, so that the chart shows the property rather than assume it.

The chart's probe (the diamond) marks the position s = t + k or s = t - k that the
offset k is read at; the state keeps which side of t it is on, so that a dragged probe
stays under the pointer and the arrow keys move it steadily through t.
"""
from __future__ import annotations

import copy
import math
from typing import Any, Callable

from ..linalg import dot
from ..positional import frequencies, pe_similarity, pe_similarity_terms, sinusoidal
from . import register
from .base import FieldError, Option, OptionError, parse_number
from .common import (
    ExperimentFigure,
    HINT, Experiment, clear_experiment, experiment_action, experiment_buttons, num, parse_bool, shown, whole,
)

DIM_MIN, DIM_MAX = 4, 64  # the dimension slider's range (even numbers only)
BASES = (10.0, 100.0, 1000.0, 10000.0, 100000.0)  # the base select's choices
BASE_MIN, BASE_MAX = 2.0, 100000.0  # a typed base must lie in this range
POSITIONS_MIN, POSITIONS_MAX = 8, 256  # range of the "positions" option
COLUMNS = 4  # clocks per row of the clock plane, up to MANY clocks: big enough on a phone
MANY, WIDE_COLUMNS = 16, 8  # more clocks than MANY: a plane as wide as the figure, 8 a row
SAMPLES = 4  # points of the drawn curve per position: the similarity is defined between them too
CELL_W, CELL_H = 2.5, 3.0  # size of one clock's cell on the plane, in data units
LEFT, TOP = 1.0, -1.0  # the clock plane's corner, away from the axes through 0
INTERVAL = 700  # ms between two positions while playing


def _check_dim(value: int) -> None:
    if value % 2:
        raise ValueError(f"expected an even integer from {DIM_MIN} to {DIM_MAX}, got {value}")


# --- small helpers --------------------------------------------------------------------


def _base_text(b: float) -> str:
    """A base as the reader would write it: 10000, not 10000.0 or 1e+04."""
    return f"{b:.0f}" if b == int(b) else f"{b:g}"


def _sig(x: float) -> str:
    """A small positive number with three significant digits: 1, 0.316, 0.000316."""
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _period(theta: float) -> float:
    """Positions per full turn of a clock turning theta radians a step."""
    return 2 * math.pi / theta


def similarity(t: float, s: float, dim: int, base: float) -> float:
    """PE(t) . PE(s) / (D/2), from the two vectors (t and s may lie between positions)."""
    return dot(sinusoidal(t, dim, base), sinusoidal(s, dim, base)) / (dim // 2)


def probe_position(state: dict) -> int:
    """The position s = t ± k that the offset is read at: on the probe's side of t, or on
    the other side when its own has no room on the chart (beyond it when neither has)."""
    t, k, last, side = state["t"], state["offset"], state["positions"], state["side"]
    for s in (t + side * k, t - side * k):
        if 0 <= s <= last:
            return s
    return t + k


def _signed(offset: int) -> str:
    """An offset s − t with its sign when negative: 8, 0, −1."""
    return num(offset, 0)


# --- the figure -----------------------------------------------------------------------


@register
class PositionalEncoding(ExperimentFigure):
    """Sinusoidal position codes: one clock a dimension pair, and the similarity curve."""

    name = "positional-encoding"
    summary = (
        "Sinusoidal positional encodings as clocks: move the position or press Play, "
        "change the base and the dimension, and read how alike two positions are."
    )
    options = (
        Option(
            "position",
            "int",
            0,
            "The position t shown first (0 to the value of :positions:).",
            min=0,
            max=POSITIONS_MAX,
        ),
        Option(
            "dim",
            "int",
            32,
            f"The dimension D of the code: an even number from {DIM_MIN} to {DIM_MAX}; "
            "it gives D/2 clocks.",
            min=DIM_MIN,
            max=DIM_MAX,
            check=_check_dim,
        ),
        Option(
            "base",
            "float",
            10000.0,
            "The base b in theta_i = b^(-2i/D). The original transformer uses 10000.",
            min=BASE_MIN,
            max=BASE_MAX,
        ),
        Option(
            "offset",
            "int",
            8,
            "The offset k whose similarity PE(t)·PE(t+k)/(D/2) is read out (0 to :positions:).",
            min=0,
            max=POSITIONS_MAX,
        ),
        Option(
            "positions",
            "int",
            64,
            f"The last position on the chart and the slider ({POSITIONS_MIN} to "
            f"{POSITIONS_MAX}); Play wraps back to 0 after it.",
            min=POSITIONS_MIN,
            max=POSITIONS_MAX,
        ),
    )

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        last = values["positions"]
        for name in ("position", "offset"):
            if values[name] > last:
                raise OptionError(
                    name,
                    f"expected an integer from 0 to {last} (the value of :positions:), "
                    f"got {values[name]}",
                )

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {opt.name: opt.default for opt in self.options}
        opts.update(options)
        first = {
            "t": int(opts["position"]),
            "dim": int(opts["dim"]),
            "base": float(opts["base"]),
            "offset": int(opts["offset"]),
        }
        return {
            **first,
            "positions": int(opts["positions"]),  # the last position on the chart
            "side": 1,  # the probe sits at s = t + side·k (1 or -1), on the other side near an end
            "playing": False,
            "experiment": None,  # name of the experiment last started, if any
            "message": HINT,  # what that experiment says to look for
            "initial": dict(first),  # what "reset" returns to
        }

    # --- events -----------------------------------------------------------------------

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        last = state["positions"]
        if name == "t":
            state["t"] = whole(value, name, 0, last, "position t")
        elif name == "offset":
            state["offset"] = whole(value, name, 0, last, "offset k")
        elif name == "dim":
            d = whole(value, name, DIM_MIN, DIM_MAX, "dimension D")
            if d % 2:
                raise FieldError(name, f"dimension D must be even, got {d}")
            state["dim"] = d
        elif name in ("base", "base_text"):
            what = "base b"
            try:
                b = parse_number(value, what)
            except FieldError as err:
                raise FieldError(name, err.message) from None
            if not BASE_MIN <= b <= BASE_MAX:
                raise FieldError(
                    name,
                    f"{what} must be from {_base_text(BASE_MIN)} to {_base_text(BASE_MAX)}, "
                    f"got {shown(value)}",
                )
            state["base"] = b
        elif name == "playing":
            state["playing"] = parse_bool(value, name)
        else:
            raise FieldError(name, f"positional-encoding has no control named {name!r}")
        return state

    def on_drag(self, state: dict, mark: str, x: Any, y: Any = None) -> dict:
        """The probe on the chart: dragged to position s, it sets the offset k = |s - t|
        and stays on the side of t it was dragged to (at s = t either side will do)."""
        if mark != "probe":
            raise ValueError(f"only the probe on the chart can be dragged, got mark {mark!r}")
        last, t = state["positions"], state["t"]
        s = round(min(last, max(0.0, parse_number(x, "x"))))
        state["offset"] = abs(s - t)
        if s != t:
            state["side"] = 1 if s > t else -1
        return state

    def on_action(self, state: dict, name: str) -> dict:
        if name == "tick":  # one step of Play: the next position, back to 0 after the last
            clear_experiment(state)
            state["t"] = 0 if state["t"] >= state["positions"] else state["t"] + 1
            return state
        started = experiment_action(state, name, EXPERIMENTS, self._reset)
        if started is not None:
            return started
        names = ", ".join(e.name for e in EXPERIMENTS)
        raise ValueError(f"positional-encoding has no action {name!r} (known: tick, reset, {names})")

    @staticmethod
    def _reset(state: dict) -> dict:
        state.update(copy.deepcopy(state["initial"]))
        state["side"] = 1
        state["playing"] = False
        state["experiment"] = None
        return state

    # --- scene ------------------------------------------------------------------------

    def scene(self, state: dict[str, Any]) -> dict[str, Any]:
        t, D, b, k = state["t"], state["dim"], state["base"], state["offset"]
        s = probe_position(state)  # the position compared with t: t + k, or t − k near the end
        pe = sinusoidal(t, D, b)  # (D,)
        later = sinusoidal(s, D, b)  # (D,): the dashed hands
        thetas = frequencies(D, b)  # (D/2,)
        curve = [[float(x), similarity(t, x, D, b)] for x in range(state["positions"] + 1)]
        at_k = pe_similarity(k, D, b)
        return {
            "title": "Positional encoding: a clock for every pair of dimensions",
            "status": (
                f"Position {t}, D = {D}, base {_base_text(b)}: PE({t}) and PE({s}) have "
                f"similarity {num(at_k)}"
            ),
            "panels": [
                self._clocks_panel(state, thetas, pe, later, s),
                self._vector_panel(state, pe, thetas),
                self._chart_panel(state, at_k, s),
                self._readout_panel(state, thetas, at_k, s),
                self._sum_panel(state, thetas, at_k),
            ],
            "controls": self._controls(state),
            "values": {
                "t": t,
                "D": D,
                "base": b,
                "offset": k,
                "similarity_at_offset": at_k,
                "pe": pe,
                "similarity": curve,
                "playing": state["playing"],
            },
        }

    def _clocks_panel(self, state: dict, thetas: list[float], pe: list[float], later: list[float],
                      s: int) -> dict:
        t = state["t"]
        pairs = len(thetas)
        # clocks keep one size whatever D is (a short row is centred): 4 a row in half the
        # figure's width, big enough on a phone, or 8 a row across the figure past 16 clocks
        cols = COLUMNS if pairs <= MANY else WIDE_COLUMNS
        rows = math.ceil(pairs / cols)
        marks: list[dict] = []
        for i, theta in enumerate(thetas):
            in_row = min(cols, pairs - cols * (i // cols))  # clocks in this clock's row
            cx = LEFT + CELL_W * ((cols - in_row) / 2 + i % cols) + CELL_W / 2
            cy = TOP - CELL_H * (i // cols) - 1.2
            # the hand is the pair (PE_2i, PE_2i+1) = (sin, cos): clockwise from 12 o'clock
            tip, then = (pe[2 * i], pe[2 * i + 1]), (later[2 * i], later[2 * i + 1])
            marks.append({"kind": "circle", "x": cx, "y": cy, "r": 1.0, "role": "grid"})
            marks.append(
                {
                    "kind": "arrow",
                    "id": f"later-{i}",
                    "x1": cx,
                    "y1": cy,
                    "x2": cx + 0.85 * then[0],
                    "y2": cy + 0.85 * then[1],
                    "role": "key",
                    "dashed": True,
                    "width": 2,
                }
            )
            marks.append(
                {
                    "kind": "arrow",
                    "id": f"hand-{i}",
                    "x1": cx,
                    "y1": cy,
                    "x2": cx + tip[0],
                    "y2": cy + tip[1],
                    "role": "query",
                    "width": 2.5,
                }
            )
            degrees = math.degrees(theta * t) % 360  # the hand's angle
            marks.append(
                {
                    "kind": "point",
                    "id": f"tip-{i}",
                    "x": cx + tip[0],
                    "y": cy + tip[1],
                    "role": "query",
                    "shape": "circle",
                    "size": 2.5,
                    "name": (
                        f"clock i={i} (dimensions {2 * i} and {2 * i + 1}): turns "
                        f"{_sig(math.degrees(theta))}° a step, once round every "
                        f"{_sig(_period(theta))} positions; at t = {t} its hand is at "
                        f"{num(degrees, 1)}°"
                    ),
                }
            )
            marks.append(
                {"kind": "label", "x": cx, "y": cy - 1.45, "text": f"i={i}" if i == 0 else str(i),
                 "align": "center", "size": 11, "role": "muted"}
            )
        return {
            "kind": "plane",
            "id": "clocks",
            "title": f"Clock hands at position t = {t}",
            "caption": (
                f"Dimensions 2i and 2i+1 are the hand (sin θᵢt, cos θᵢt) of clock i, which turns "
                f"θᵢ = b^(−2i/D) radians a step. The dashed hands show position {s}: every "
                f"clock has turned by θᵢ·({_signed(s - t)}), whatever t is."
            ),
            "wide": pairs > MANY,
            "x": [LEFT, LEFT + CELL_W * cols],
            "y": [TOP - CELL_H * rows, TOP],
            "square": True,
            "grid": 0,
            "legend": [
                {"role": "query", "label": f"hand at t = {t}", "shape": "line"},
                {"role": "key", "label": f"hand at s = {s}", "shape": "line"},
            ],
            "marks": marks,
        }

    def _chart_panel(self, state: dict, at_k: float, s: int) -> dict:
        t, last = state["t"], state["positions"]
        D, b = state["dim"], state["base"]
        # the line is sampled between positions too (the similarity is defined for any
        # offset), so a short code's swings are drawn smooth; the values keep the positions
        fine = [[x / SAMPLES, similarity(t, x / SAMPLES, D, b)] for x in range(last * SAMPLES + 1)]
        marks: list[dict] = [
            {"kind": "line", "points": [[float(t), -1.0], [float(t), 1.0]], "role": "query",
             "dashed": True, "width": 1},
            {"kind": "label", "x": float(t), "y": -0.9, "text": f" t = {t} ", "size": 11, "role": "query",
             "align": "right" if t > last * 7 / 8 else "left"},
        ]
        if 0 <= s <= last:
            # the label sits on the side away from the chart's nearer edge, so it stays inside
            anchor = "left" if s > last * 3 / 4 else "right" if s < last / 4 else "above"
            marks.append(
                {"kind": "line", "points": [[float(s), -1.0], [float(s), at_k]], "role": "key",
                 "dotted": True, "width": 1}
            )
            marks.append(
                {
                    "kind": "point",
                    "id": "probe",
                    "x": float(s),
                    "y": at_k,
                    "role": "key",
                    "shape": "diamond",
                    "size": 6,
                    "draggable": True,
                    "label": f"k = {_signed(s - t)}: {num(at_k)}",
                    "anchor": anchor,
                    "name": (
                        f"probe at position {s}, offset {_signed(s - t)} from t: similarity {num(at_k)}; "
                        "drag it or use the arrow keys to change k"
                    ),
                }
            )
        step = 8 if last <= 96 else 32
        return {
            "kind": "chart",
            "id": "similarity",
            "title": f"How alike PE({t}) is to every PE(s)",
            "caption": (
                "The curve is PE(t)·PE(s)/(D/2) for every position s on the axis: 1 at s = t, "
                "lower further away. Move t and it slides along without changing shape. Drag "
                "the diamond, or focus the chart and use the arrow keys, to choose the offset k."
            ),
            "wide": True,
            "x": [0.0, float(last)],
            "y": [-1.0, 1.2],
            "x_label": "position s",
            "y_label": "similarity",
            "ratio": 0.6,
            "grid": 0,
            "ticks": {"x": list(range(0, last + 1, step)), "y": [-1, 0, 1]},
            "keyboard": {"step": 1, "big": 4},
            "series": [{"points": fine, "role": "accent"}],
            "marks": marks,
        }

    def _vector_panel(self, state: dict, pe: list[float], thetas: list[float]) -> dict:
        t = state["t"]
        rows = []
        for i, theta in enumerate(thetas):  # one row a clock: (sin, cos)
            cells = []
            for r, name in enumerate(("sin", "cos")):
                x = pe[2 * i + r]
                cells.append(
                    {
                        "text": num(x),
                        "tone": max(-1.0, min(1.0, x)),
                        "title": f"PE({t}) entry {2 * i + r}: {num(x, 3)}",
                        "detail": [
                            f"PE({t})_{2 * i + r} = {name}(θ_{i}·t) = {name}({_sig(theta)} × {t})",
                            f"= {name}({num(theta * t, 4)} rad) = {num(x, 4)}",
                        ],
                    }
                )
            rows.append(cells)
        return {
            "kind": "cells",
            "id": "pe",
            "title": f"The vector PE({t}), one row a clock",
            "caption": (
                "Left: the even entries 2i (sine); right: the odd entries 2i+1 (cosine). Hover or "
                "focus a cell for its formula."
            ),
            "wide": len(thetas) > MANY,
            "col_labels": [{"text": "2i: sin"}, {"text": "2i+1: cos"}],
            "row_labels": [{"text": f"i={i}"} for i in range(len(thetas))],
            "rows": rows,
        }

    def _readout_panel(self, state: dict, thetas: list[float], at_k: float, s: int) -> dict:
        t, D, b, k = state["t"], state["dim"], state["base"], state["offset"]
        fast, slow = thetas[0], thetas[-1]
        return {
            "kind": "text",
            "id": "readout",
            "title": "Read-out",
            "paragraphs": [
                f"PE({t}) and PE({s}) have similarity {num(at_k)}. Any two positions "
                f"{k} apart give the same number: it depends on the offset only.",
                f"The fastest clock (i=0) goes round every {_sig(_period(fast))} positions; the "
                f"slowest (i={len(thetas) - 1}) every {_sig(_period(slow))}.",
            ],
            "items": [
                ["Position t", str(t)],
                ["Offset k", str(k)],
                ["Dimension D", f"{D} ({D // 2} clocks)"],
                ["Base b", _base_text(b)],
                [f"PE({t})·PE({s}) / {D // 2}", num(at_k, 3)],
            ],
        }

    def _sum_panel(self, state: dict, thetas: list[float], at_k: float) -> dict:
        k, D = state["offset"], state["dim"]
        terms = pe_similarity_terms(k, D, state["base"])  # (D/2,): cos(θᵢ k)
        lines = [
            f"PE(t)·PE(t+{k}) / (D/2) = (2/D) Σᵢ cos(θᵢ·{k})",
            *(
                f"i={i:<2}  θ = {_sig(theta):>9}   cos({num(theta * k, 4)}) = {num(c, 4)}"
                for i, (theta, c) in enumerate(zip(thetas, terms))
            ),
            f"sum = {num(math.fsum(terms), 4)};  ÷ {D // 2} = {num(at_k, 4)}",
        ]
        return {
            "kind": "text",
            "id": "sum",
            "collapsible": f"Show the sum for offset k = {k}",
            "mono": True,
            "paragraphs": lines,
        }

    def _controls(self, state: dict) -> list[dict]:
        b = state["base"]
        choices = list(BASES) if b in BASES else sorted(BASES + (b,))
        last = state["positions"]
        return [
            {
                "kind": "play",
                "name": "playing",
                "near": "clocks",
                "label": "Play the positions",
                "playing": state["playing"],
                "interval": INTERVAL,
                "event": {"type": "action", "name": "tick"},
                "help": f"Steps t by 1, back to 0 after {last}. With reduced motion, each press steps once.",
            },
            {
                "kind": "slider",
                "name": "t",
                "near": "clocks",
                "label": "Position t",
                "min": 0,
                "max": last,
                "step": 1,
                "value": state["t"],
                "digits": 0,
            },
            {
                "kind": "slider",
                "name": "offset",
                "near": "similarity",
                "label": "Offset k",
                "help": "The read-out compares PE(t) with PE(t + k).",
                "min": 0,
                "max": last,
                "step": 1,
                "value": state["offset"],
                "digits": 0,
            },
            {
                "kind": "slider",
                "name": "dim",
                "near": "clocks",
                "label": "Dimension D",
                "min": DIM_MIN,
                "max": DIM_MAX,
                "step": 2,
                "value": state["dim"],
                "digits": 0,
            },
            {
                "kind": "select",
                "name": "base",
                "near": "clocks",
                "label": "Base b",
                "value": _base_text(b),
                "options": [{"value": _base_text(c), "label": f"{c:,.0f}" if c == int(c) else _base_text(c)}
                            for c in choices],
            },
            {
                "kind": "grid",
                "name": "base_text",
                "near": "clocks",
                "label": "Or type any base",
                "help": f"A number from {_base_text(BASE_MIN)} to {_base_text(BASE_MAX)}; Enter to apply.",
                "col_labels": ["b"],  # the field's name is its row's and column's: "base b"
                "rows": [{"label": "base", "cells": [{"name": "base_text", "value": _base_text(b)}]}],
            },
            {**experiment_buttons(state, EXPERIMENTS, self._reset), "near": "similarity"},
        ]


# --- experiments ("Try this") -------------------------------------------------------------
#
# Each experiment starts from the first settings (as "reset" does), sets the controls, and
# writes a message whose numbers are computed by the engine for the state it made.


COMPARE_D, COMPARE_K = 32, 8  # the base comparison: D = 32, offset 8
SHIFT_T = 30  # "move t" moves the position to this
FAST_SLOW_D = 16
FEW_D, FEW_BASE = 4, 100.0


def _compare(base: float) -> Callable[[dict], None]:
    def setup(state: dict) -> None:
        state.update(t=0, dim=COMPARE_D, offset=COMPARE_K, base=base)

    return setup


def _compare_message(state: dict) -> str:
    b = state["base"]
    other = 100.0 if b == 10000.0 else 10000.0
    here = pe_similarity(COMPARE_K, COMPARE_D, b)
    there = pe_similarity(COMPARE_K, COMPARE_D, other)
    slowest = frequencies(COMPARE_D, b)[-1]
    text = (
        f"With D = {COMPARE_D} and base {_base_text(b)}, positions {COMPARE_K} apart have "
        f"similarity {num(here)} (base {_base_text(other)} gives {num(there)}). "
    )
    if b < other:
        return text + (
            f"A small base makes even the slowest clock turn {_sig(math.degrees(slowest))}° a step, "
            f"so neighbours drift apart sooner and the curve falls faster: positions are told "
            f"apart well inside a short window. Press Play and watch the last clocks move."
        )
    return text + (
        f"With a large base the slowest clock turns only {_sig(math.degrees(slowest))}° a step, "
        f"so the slow clocks still tell positions apart after thousands of steps, and the "
        f"curve falls gently. Now try base {_base_text(other)}."
    )


def _fast_slow(state: dict) -> None:
    state.update(t=1, dim=FAST_SLOW_D, base=10000.0, offset=1)


def _fast_slow_message(state: dict) -> str:
    thetas = frequencies(FAST_SLOW_D, 10000.0)
    last = len(thetas) - 1
    return (
        f"Clock i=0 turns {_sig(thetas[0])} radian ({_sig(math.degrees(thetas[0]))}°) a step and "
        f"goes round every {_sig(_period(thetas[0]))} positions; clock i={last} turns "
        f"{_sig(thetas[last])} radian ({_sig(math.degrees(thetas[last]))}°) and needs "
        f"{_sig(_period(thetas[last]))} positions for one turn. Press Play: the first hands spin, "
        f"the last ones look frozen. Each clock is {_sig(thetas[0] / thetas[1])} times slower than "
        f"the one before. (This sets t = 1 and k = 1: the dashed hands are one step on.)"
    )


def _shift(state: dict) -> None:
    state.update(t=SHIFT_T, dim=COMPARE_D, base=10000.0, offset=COMPARE_K)


def _shift_message(state: dict) -> str:
    k, half = state["offset"], state["dim"] // 2
    at_0 = similarity(0, k, state["dim"], state["base"])
    at_t = similarity(SHIFT_T, SHIFT_T + k, state["dim"], state["base"])
    return (
        f"The peak moved from s = 0 to s = {SHIFT_T}, but the curve kept its shape: "
        f"PE(0)·PE({k})/{half} = {num(at_0, 4)} and PE({SHIFT_T})·PE({SHIFT_T + k})/{half} = "
        f"{num(at_t, 4)}. Stepping by {k} turns every hand by the same angle θᵢ·{k} from any "
        f"start, so only the offset matters. Drag the t slider and watch the diamond's number."
    )


def _few(state: dict) -> None:
    state.update(t=0, dim=FEW_D, base=FEW_BASE, offset=COMPARE_K)


def _few_message(state: dict) -> str:
    last = state["positions"]
    values = [pe_similarity(s, FEW_D, FEW_BASE) for s in range(1, last + 1)]
    low = min(range(len(values)), key=values.__getitem__)
    high = max(range(len(values)), key=values.__getitem__)
    return (
        f"With only {FEW_D // 2} clocks (D = {FEW_D}, base {_base_text(FEW_BASE)}) the curve "
        f"swings: position {low + 1} has similarity {num(values[low])} to position 0, almost "
        f"the opposite, while position {high + 1} comes back up to {num(values[high])}. Few clocks "
        f"make far positions look alike; more dimensions flatten the tail."
    )


EXPERIMENTS = (
    Experiment("base-10000", "Base 10000, D = 32, k = 8", "The original transformer's base",
               _compare(10000.0), _compare_message),
    Experiment("base-100", "Base 100, D = 32, k = 8", "A small base: faster clocks",
               _compare(100.0), _compare_message),
    Experiment("fast-slow", "Fast and slow clocks", "How much each clock turns per step",
               _fast_slow, _fast_slow_message),
    Experiment("shift", f"Move t to {SHIFT_T}", "The similarity depends only on the offset",
               _shift, _shift_message),
    Experiment("few", f"Only {FEW_D // 2} clocks", "A short code repeats itself",
               _few, _few_message),
)
