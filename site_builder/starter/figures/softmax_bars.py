"""softmax-bars: three scores on sliders and their softmax weights as bars."""

from explorables.engine import softmax
from explorables.figures import Experiment, Figure, Slider, Value, bars, pct, register, text

NAMES = ("a", "b", "c")
TIE = "a and b share the weight equally; c gets less."


@register
class SoftmaxBars(Figure):
    name = "softmax-bars"
    summary = "Three scores on sliders and their softmax weights, drawn as bars."
    title = "Softmax of three scores"
    params = tuple(
        Slider(n, f"Score {n}", default, lo=-5, hi=5, doc=f"The score of {n}.", near="weights")
        for n, default in zip(NAMES, (2.0, 1.0, 0.0), strict=True)
    )
    values = (
        Value("weights", "list", "The three softmax weights, in order."),
        Value("top", "percent", "The largest weight.", announce="top weight {}"),
    )
    experiments = (
        Experiment("tie", "Tie a and b", title="Give a and b the same score", set={"a": 1.0, "b": 1.0}, see=TIE),
    )

    def compute(self, s):
        weights = softmax([s[n] for n in NAMES])
        return {"weights": weights, "top": max(weights)}

    def draw(self, s, v):
        return [
            bars("weights", v["weights"], label=NAMES, text=[pct(w) for w in v["weights"]], title="Weights"),
            text("sum", f"The weights add up to {sum(v['weights']):.2f}, whatever the scores."),
        ]

    def status(self, s, v):
        return f"top weight {pct(v['top'])}"
