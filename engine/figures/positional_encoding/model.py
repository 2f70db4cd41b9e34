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
The curve is computed from the two vectors themselves, dot product by dot product, so
that the chart shows the property rather than assume it.
"""

from typing import Any

from explorables.figures import Figure, NumberChoice, Option, OptionError, Play, Slider, parse_number, register

from . import maths, scene
from . import words as W
from .clocks import clocks, vector
from .experiments import EXPERIMENTS
from .maths import BASE_MAX, BASE_MIN, BASES, DIM_MAX, DIM_MIN, INTERVAL, POSITIONS_MAX, POSITIONS_MIN


def position(name: str, **more: Any) -> Slider:
    """A position on the chart, from 0 to the last (the option ``positions``)."""
    return Slider(name, lo=0, hi=lambda s: s["positions"], integer=True, **more, **W.PARAMS[name])


@register
class PositionalEncoding(Figure, words=W):
    """Sinusoidal position codes: one clock a dimension pair, and the similarity curve."""

    name = "positional-encoding"
    params = (
        Play("playing", default=False, near="clocks", interval=INTERVAL, steps="t", **W.PARAMS["playing"]),
        position("t", default=0, near="clocks", option=False),
        position("offset", default=8, near="similarity", bounds=(0, POSITIONS_MAX)),
        Slider("dim", default=32, lo=DIM_MIN, hi=DIM_MAX, integer=True, even=True, near="clocks", **W.PARAMS["dim"]),
        NumberChoice("base", default=1e4, presets=BASES, lo=BASE_MIN, hi=BASE_MAX, near="clocks", **W.PARAMS["base"]),
    )
    extra_options = (
        Option("position", "int", 0, W.DOC_POSITION, min=0, max=POSITIONS_MAX),  # sets t
        Option("positions", "int", 64, W.DOC_POSITIONS, min=POSITIONS_MIN, max=POSITIONS_MAX),
    )
    option_order = ("position", "dim", "base", "offset")  # first, as authors know them
    values = W.VALUES
    experiments = EXPERIMENTS
    experiments_near = "similarity"

    def check_options(self, values: dict[str, Any]) -> None:
        for name in ("position", "offset"):
            if values[name] > values["positions"]:
                raise OptionError(name, W.PAST_LAST.format(last=values["positions"], got=values[name]))

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        state["t"] = int(options["position"])
        state["positions"] = int(options["positions"])  # the last position on the chart
        # the probe's side of t, s = t + side·k (1 or -1; ``maths.probe_position``): kept, so that a
        # dragged probe stays under the pointer and the arrow keys move it steadily through t
        state["side"] = 1
        return state

    def on_drag(self, state: dict, mark: str, i: Any, x: Any, y: Any = None) -> dict:
        """The probe on the chart: dragged to position s, it sets the offset k = |s - t|
        and stays on the side of t it was dragged to (at s = t either side will do)."""
        if mark != "probe":
            raise ValueError(f"only the probe on the chart can be dragged, got mark {mark!r}")
        t = state["t"]
        s = round(min(state["positions"], max(0.0, parse_number(x, "x"))))
        state["offset"] = abs(s - t)
        if s != t:
            state["side"] = 1 if s > t else -1
        return state

    def compute(self, state: dict[str, Any]) -> dict[str, Any]:
        return maths.numbers(state)

    def draw(self, state: dict[str, Any], v: dict[str, Any]) -> list[Any]:
        return [clocks(v), vector(v), scene.similarity_chart(state, v), scene.readout(v), scene.terms(v)]

    def status(self, state: dict[str, Any], v: dict[str, Any]) -> str:
        return scene.status(v)
