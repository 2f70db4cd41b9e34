# fmt: off
# Laid out by hand: tests/test_figure_rotary_positions.py holds the package, words aside, to 250 lines.
"""The ``rotary-positions`` figure: a query and a key at positions t and u, turned by their
positions (rotary positions, Su et al. 2021, "RoFormer") or with lesson 5's code added
(maths.py). "Move both" keeps t - u while one moves: turned, the score stays; added, the
two terms that mix content with one position change it.
"""
from typing import Any

from explorables.engine import dot
from explorables.figures import Choice, Experiment, Figure, Slider, Toggle, Value, Vector, num, register

from . import scene, words
from .maths import LAST, pair_scores, placed, terms, unplaced

LATER = 4  # the experiments compare the first positions with both moved this far on


def score(state: dict, t: int, u: int) -> float:
    return dot(placed(state["q"], t, state["mode"]), placed(state["k"], u, state["mode"]))


def moved_see(template):
    """The see of an experiment that moves both: the score here and both positions LATER on."""
    def see(state: dict) -> str:
        t, u = state["t"], state["u"]
        return template.format(offset=t - u, score=num(score(state, t, u)), t=t, u=u, t2=t + LATER, u2=u + LATER,
                               score2=num(score(state, t + LATER, u + LATER)))
    return see


def offset_see(state: dict) -> str:
    t = state["t"]
    return words.X_OFFSET_SEE.format(content=num(dot(state["q"], state["k"])), k1=1, s1=num(score(state, t, t - 1)),
                                     k2=3, s2=num(score(state, t, t - 3)))


def position(name: str, label: Any, default: int, what: Any, doc: str) -> Slider:
    return Slider(name, label, default, lo=0, hi=LAST, integer=True, what=what, doc=doc, near="plane")


@register
class RotaryPositions(Figure, words=words):
    """A query and a key at positions t and u, turned or added to; their score."""

    name = "rotary-positions"
    params = (
        position("t", words.T, 3, words.WHAT_T, words.DOC_T),
        position("u", words.U, 1, words.WHAT_U, words.DOC_U),
        Toggle("together", words.TOGETHER, False, help=words.TOGETHER_HELP, doc=words.DOC_TOGETHER, near="plane"),
        Choice("mode", words.MODE, "rotate", choices=tuple(words.MODES.items()), help=words.MODE_HELP,
               doc=words.DOC_MODE, near="plane"),
        Vector("q", "q", [1.0, 0.0, 0.6, 0.8], size=4, doc=words.DOC_Q),
        Vector("k", "k", [0.8, 0.6, 1.0, 0.0], size=4, doc=words.DOC_K),
    )
    subject = ("q", "k")
    values = (
        Value("t", "integer", words.V_T), Value("u", "integer", words.V_U),
        Value("offset", "integer", words.V_OFFSET),
        Value("score", "decimal", words.V_SCORE, announce=words.V_SCORE_SAY),
        Value("content", "decimal", words.V_CONTENT),
        Value("q_t", "vector", words.V_QT), Value("k_u", "vector", words.V_KU),
        Value("parts", "list", words.V_PAIRS),
        Value("mode", "text", words.V_MODE),
    )
    experiments_near = "score"
    experiments = (
        Experiment("both", *words.X_BOTH, set={"together": True}, see=moved_see(words.X_BOTH_SEE)),
        Experiment("offset", *words.X_OFFSET, set={"u": 3}, see=offset_see),
        Experiment("add", *words.X_ADD, set={"mode": "add", "together": True}, see=moved_see(words.X_ADD_SEE)),
    )

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        state["gap"] = state["t"] - state["u"]  # the offset "move both" keeps
        return state

    def changed(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        """With "move both" on, a position moved takes the other along (held at 0 and LAST)."""
        if state["together"] and name == "t":
            state["u"] = min(LAST, max(0, state["t"] - state["gap"]))
        elif state["together"] and name == "u":
            state["t"] = min(LAST, max(0, state["u"] + state["gap"]))
        state["gap"] = state["t"] - state["u"]
        return state

    def on_drag(self, state: dict[str, Any], mark: str, i: Any, x: Any, y: Any) -> dict[str, Any]:
        """A placed arrow of the plane (pair 0) dragged: the content that lands there."""
        name, at = ("q", state["t"]) if mark == "qt" else ("k", state["u"])
        pair = unplaced([float(x), float(y)], at, state["mode"], 0)
        state[name] = [round(pair[0], 2), round(pair[1], 2), *state[name][2:]]
        return state

    def compute(self, state: dict[str, Any]) -> dict[str, Any]:
        t, u, mode = state["t"], state["u"], state["mode"]
        qt, ku = placed(state["q"], t, mode), placed(state["k"], u, mode)
        parts = pair_scores(qt, ku) if mode == "rotate" else terms(state["q"], state["k"], t, u)
        return {"t": t, "u": u, "offset": t - u, "score": dot(qt, ku), "content": dot(state["q"], state["k"]),
                "q_t": qt, "k_u": ku, "parts": parts, "mode": mode}

    def draw(self, state: dict[str, Any], v: dict[str, Any]) -> list[dict]:
        return [scene.pair_plane(state, v), scene.clocks(state, v), scene.readout(state, v)]

    def status(self, state: dict[str, Any], v: dict[str, Any]) -> str:
        return words.STATUS.format(t=v["t"], u=v["u"], offset=num(v["offset"], 0), mode=words.MODES[v["mode"]],
                                   score=num(v["score"]))
