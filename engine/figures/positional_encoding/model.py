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

The chart's probe (the diamond) marks the position s = t + k or s = t - k that the
offset k is read at; the state keeps which side of t it is on (``side``), so that a
dragged probe stays under the pointer and the arrow keys move it steadily through t.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from explorables.engine import frequencies, pe_similarity, pe_similarity_terms, sinusoidal
from explorables.figures import (
    Figure,
    NumberChoice,
    Option,
    OptionError,
    Play,
    Slider,
    Value,
    field_text,
    num,
    parse_number,
    register,
)

from . import scene, words
from .experiments import EXPERIMENTS
from .maths import (
    BASE_MAX,
    BASE_MIN,
    BASES,
    DIM_MAX,
    DIM_MIN,
    INTERVAL,
    POSITIONS_MAX,
    POSITIONS_MIN,
    SAMPLES,
    probe_position,
    similarities,
)


def last(state: dict) -> int:
    return state["positions"]


@register
class PositionalEncoding(Figure, words=words):
    """Sinusoidal position codes: one clock a dimension pair, and the similarity curve."""

    name = "positional-encoding"
    params = (
        Play(
            "playing",
            words.PLAY,
            False,
            help=lambda s: words.PLAY_HELP.format(last=last(s)),
            near="clocks",
            interval=INTERVAL,
        ),
        Slider("t", words.T, 0, lo=0, hi=last, integer=True, what=words.WHAT["t"], near="clocks", option=False),
        Slider(
            "dim",
            words.DIM,
            32,
            lo=DIM_MIN,
            hi=DIM_MAX,
            integer=True,
            even=True,
            what=words.WHAT["dim"],
            doc=words.DOC_DIM,
            near="clocks",
        ),
        NumberChoice(
            "base",
            words.BASE,
            10000.0,
            presets=BASES,
            lo=BASE_MIN,
            hi=BASE_MAX,
            what=words.WHAT["base"],
            doc=words.DOC_BASE,
            near="clocks",
            show=lambda c: words.sig(c) if c == int(c) else field_text(c),
        ),
        Slider(
            "offset",
            words.OFFSET,
            8,
            lo=0,
            hi=last,
            integer=True,
            bounds=(0, POSITIONS_MAX),
            what=words.WHAT["offset"],
            help=words.OFFSET_HELP,
            doc=words.DOC_OFFSET,
            near="similarity",
        ),
    )
    extra_options = (
        Option("position", "int", 0, words.DOC_POSITION, min=0, max=POSITIONS_MAX),  # sets t
        Option("positions", "int", 64, words.DOC_POSITIONS, min=POSITIONS_MIN, max=POSITIONS_MAX),
    )
    option_order = ("position",)  # first, as authors know them
    values = (
        Value("t", "integer", words.V_T),
        Value("D", "integer", words.V_D),
        Value("base", "decimal", words.V_BASE, digits=0),
        Value("offset", "integer", words.V_OFFSET),
        Value("similarity_at_offset", "decimal", words.V_AT_OFFSET, announce=words.V_AT_OFFSET_SAY),
        Value("pe", "vector", words.V_PE),
        Value("similarity", "matrix", words.V_SIMILARITY),
        Value("playing", "bool", words.V_PLAYING),
    )
    experiments = EXPERIMENTS

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        for name in ("position", "offset"):
            if values[name] > values["positions"]:
                raise OptionError(name, words.PAST_LAST.format(last=values["positions"], got=values[name]))

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        state["t"] = int(options["position"])
        state["positions"] = int(options["positions"])  # the last position on the chart
        state["side"] = 1  # the probe sits at s = t + side·k (1 or -1), on the other side near an end
        return state

    # --- events -----------------------------------------------------------------------

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        if name == "base_text":  # the field beside the menu: any base, typed
            state["base"] = replace(self.declared("base"), name=name).read(value, state)
            return state
        return super().on_set(state, name, value)

    def on_drag(self, state: dict, mark: str, i: Any, x: Any, y: Any = None) -> dict:
        """The probe on the chart: dragged to position s, it sets the offset k = |s - t|
        and stays on the side of t it was dragged to (at s = t either side will do)."""
        if mark != "probe":
            raise ValueError(f"only the probe on the chart can be dragged, got mark {mark!r}")
        t = state["t"]
        s = round(min(last(state), max(0.0, parse_number(x, "x"))))
        state["offset"] = abs(s - t)
        if s != t:
            state["side"] = 1 if s > t else -1
        return state

    def on_tick(self, state: dict) -> dict:
        """One step of Play: the next position, back to 0 after the last."""
        state["t"] = 0 if state["t"] >= last(state) else state["t"] + 1
        return state

    # --- scene ------------------------------------------------------------------------

    def compute(self, state: dict[str, Any]) -> dict[str, Any]:
        t, D, b, k = state["t"], state["dim"], state["base"], state["offset"]
        s = probe_position(state)  # the position compared with t: t + k, or t − k near an end
        # the line is sampled between positions too (the similarity is defined for any
        # offset), so a short code's swings are drawn smooth; the values keep the positions
        xs = [x / SAMPLES for x in range(last(state) * SAMPLES + 1)]
        fine = [list(point) for point in zip(xs, similarities(t, xs, D, b), strict=True)]
        return {
            "t": t,
            "D": D,
            "base": b,
            "offset": k,
            "playing": state["playing"],
            "s": s,
            "similarity_at_offset": pe_similarity(k, D, b),
            "pe": sinusoidal(t, D, b),  # (D,): the hands
            "later": sinusoidal(s, D, b),  # (D,): the dashed hands
            "thetas": frequencies(D, b),  # (D/2,)
            "terms": pe_similarity_terms(k, D, b),  # (D/2,): cos(θᵢ k)
            "similarity": fine[::SAMPLES],
            "fine": fine,
        }

    def draw(self, state: dict[str, Any], v: dict[str, Any]) -> list[Any]:
        return scene.panels(state, v)

    def status(self, state: dict[str, Any], v: dict[str, Any]) -> str:
        return words.STATUS.format(
            t=v["t"], D=v["D"], b=field_text(v["base"]), s=v["s"], sim=num(v["similarity_at_offset"])
        )

    def controls(self, state: dict[str, Any], v: dict[str, Any]) -> list[dict]:
        shown = {p.name: p for p in self.params}
        return [
            *(shown[n].control_dict(state) for n in ("playing", "t", "offset", "dim", "base")),
            scene.typed_base(state),
            self.experiment_control(state, near="similarity"),
        ]
