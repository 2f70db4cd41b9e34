"""attention-row: its parameters, values and events (the scene is drawn in scene.py)."""

from typing import Any

from explorables.figures import (
    EDGE,
    Figure,
    Hidden,
    Option,
    OptionError,
    Rows,
    Toggle,
    best,
    extent,
    held,
    raise_all,
    register,
    resolve_query,
    words,
)

from ..sentences import COORD_LIMIT, VECTORS, Asker, clicked, count_errors, given_vectors, temperature, vector_options
from . import scene
from . import words as W
from .experiments import EXPERIMENTS, STEP_MASK, STEP_MATCH, STEP_SOFTMAX, STEP_TEMPERATURE
from .vectors import MAX_TOKENS, TOKENS, row, tied, vectors

KEY_PLANE = 2.5  # half-width of the key plane while every key fits inside it
VALUE_PLANE = 2.0  # half-width of the value plane while every value fits inside it


def select(state: dict, i: int) -> None:
    """A key typed or dragged is the one the keyboard moves next."""
    state["selected"] = i


def key_extent(state: dict) -> float:
    """Half-width of the key plane: every key and the query inside it."""
    return extent(state["k"] + [state["q"][state["query"]]], KEY_PLANE)


KEYS = Rows("k", default=[], cells="key", limit=COORD_LIMIT, near="keys", then=select, step=STEP_MATCH, **W.PARAMS["k"])


@register
class AttentionRow(Figure, words=W):
    """One query row on a few tokens with 2-D queries, keys and values."""

    name = "attention-row"
    subject = ("tokens",)
    params = (
        Asker("query", default="chased", near="scores", step=STEP_MATCH, **W.PARAMS["query"]),
        temperature(near="weights", step=STEP_TEMPERATURE, **W.PARAMS["temperature"]),
        Toggle("causal", default=False, near="weights", step=STEP_MASK, **W.PARAMS["causal"]),
        Hidden("selected", default=0, hi=lambda s: len(s["tokens"]) - 1, **W.PARAMS["selected"]),
        Hidden("step", default=STEP_SOFTMAX, hi=W.STEP_COUNT - 1, **W.PARAMS["step"]),
        KEYS,
    )
    extra_options = (
        Option("tokens", "words", list(TOKENS), W.DOC["tokens"], min=1, max=MAX_TOKENS),
        *vector_options(W.DOC, width=2),
    )
    values = W.VALUES
    experiments = EXPERIMENTS
    experiments_near = "formula"
    option_order = ("tokens", "query", "temperature", "causal", "queries", "keys", "values")  # as authors read them

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        tokens = words(values["tokens"])
        n, errors = len(tokens), list[OptionError]()
        missing = [name for name in VECTORS if not str(values[name]).strip()]
        if tuple(tokens) != TOKENS and missing:
            listed = " and ".join(filter(None, [", ".join(f":{m}:" for m in missing[:-1]), f":{missing[-1]}:"]))
            sentences = {"builtin": " ".join(TOKENS), "sentence": " ".join(tokens)}
            message = W.ERRORS["own_sentence"].format(**sentences, add=listed, n=n, s="s" if n != 1 else "")
            errors.append(OptionError(missing[0], message))
        errors += count_errors(given_vectors(values, width=2), tokens, "x,y pairs")
        try:
            resolve_query(values["query"], tokens)
        except ValueError as err:
            default = str(values["query"]).strip() == "chased" and "chased" not in tokens
            hint = W.ERRORS["default_query"] if default else ""
            errors.append(OptionError("query", f"{err}{hint}"))
        raise_all(errors)

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        state["tokens"] = words(options["tokens"])
        state["q"], state["k"], state["v"] = (vectors(options, name) for name in VECTORS)
        state["query"] = state["selected"] = resolve_query(options["query"], state["tokens"])
        state["temperature"] = float(state["temperature"])
        return state

    # --- events the parameters do not cover --------------------------------------------

    def on_drag(self, state: dict, mark: str, i: Any, x: Any, y: Any) -> dict:
        if mark != "key" or not isinstance(i, int) or not 0 <= i < len(state["tokens"]):
            raise ValueError(f"only keys can be dragged, got mark {mark!r} {i!r}")
        state["k"][i] = held(x, y, key_extent(state) - EDGE)
        state["selected"], state["step"] = i, STEP_MATCH
        return state

    def on_select(self, state: dict, mark: str, i: Any) -> dict:
        if mark == "score" and isinstance(i, tuple) and i[0] == 0:  # the scores' one row: a column is a token
            i = i[1]
        marks = ("score", "bar", "value", "key", "weight", "t")
        state["query"], state["step"] = clicked(self.name, state, mark, i, points=marks), STEP_MATCH
        return state

    # --- the scene ----------------------------------------------------------------------

    def compute(self, state: dict) -> dict:
        """What the panels need, then the declared values the state does not hold."""
        r = row(state)
        hidden = [not seen for seen in r.mask]  # the words the mask hides
        out = {"row": r, "hidden": hidden, "best": best(r.weights), "tie": tied(r.weights, hidden)}
        out.update(half=key_extent(state), value_half=extent(state["v"], VALUE_PLANE))  # the planes' half-widths
        out.update(scores=list(r.scores), weights=list(r.weights), output=list(r.output))
        return {**out, "entropy": r.entropy, "keys": [list(p) for p in state["k"]]}

    def draw(self, state: dict, v: dict) -> list:
        return scene.panels(state, v)

    def status(self, state: dict, v: dict) -> str:
        top = v["best"]
        return W.status(state["tokens"][state["query"]], state["tokens"][top], v["weights"][top], v["tie"])

    def controls(self, state: dict, v: dict) -> list[dict]:
        """The parameters' controls, then the key coordinates as typed numbers: a row a token, x and y."""
        return [*super().controls(state, v), KEYS.grid(state, "keys")]
