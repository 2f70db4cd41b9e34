"""attention-row: its parameters, values and events (the scene is drawn in scene.py)."""

from __future__ import annotations

from typing import Any

from explorables.figures import (
    EDGE,
    FieldError,
    Figure,
    Hidden,
    Option,
    OptionError,
    Slider,
    Toggle,
    Value,
    best,
    cell_of,
    extent,
    field_text,
    held,
    quote,
    raise_all,
    register,
    resolve_query,
    rows_checker,
    t,
    words,
)

from ..sentences import Asker, clicked, count_errors, temperature
from . import scene
from . import words as W
from .experiments import EXPERIMENTS, STEP_MASK, STEP_MATCH, STEP_SOFTMAX, STEP_TEMPERATURE
from .vectors import COORD_LIMIT, MAX_TOKENS, TOKENS, parse_pairs, row, tied, vectors
from .words import ANNOUNCE_OUTPUT as ANNOUNCE
from .words import (
    CAUSAL_HELP,
    CAUSAL_LABEL,
    DOC,
    QUERY_LABEL,
    STEP_COUNT,
    TEMPERATURE_HELP,
    TEMPERATURE_LABEL,
    TEMPERATURE_WHAT,
)

KEY_PLANE = 2.5  # half-width of the key plane while every key fits inside it
VECTORS = ("queries", "keys", "values")  # the options that hold an author's own vectors


def whole(name: str, hi) -> Any:
    """A parser for a whole number from 0 to ``hi(state)``: the kit's integer slider, not drawn."""
    return Slider(name, name, 0, lo=0, hi=hi, integer=True).read


def key_extent(state: dict) -> float:
    """Half-width of the key plane: every key and the query inside it."""
    return extent(state["k"] + [state["q"][state["query"]]], KEY_PLANE)


@register
class AttentionRow(Figure, words=W):
    """One query row on a few tokens with 2-D queries, keys and values."""

    name = "attention-row"
    subject = ("tokens",)
    params = (
        Asker("query", QUERY_LABEL, "chased", DOC["query"], near="scores", step=STEP_MATCH),
        temperature(
            TEMPERATURE_LABEL, DOC["temperature"], TEMPERATURE_HELP, TEMPERATURE_WHAT, "weights", STEP_TEMPERATURE
        ),
        Toggle("causal", CAUSAL_LABEL, False, DOC["causal"], CAUSAL_HELP, near="weights", step=STEP_MASK),
        Hidden("selected", "The key the keyboard moves", 0, parse=whole("selected", lambda s: len(s["tokens"]) - 1)),
        Hidden(
            "step", "The highlighted step of the formula", STEP_SOFTMAX, parse=whole("step", lambda s: STEP_COUNT - 1)
        ),
    )
    extra_options = (
        Option("tokens", "words", list(TOKENS), DOC["tokens"], min=1, max=MAX_TOKENS),
        *(Option(name, "str", "", DOC[name], check=rows_checker(name, width=2, limit=COORD_LIMIT)) for name in VECTORS),
    )
    values = (
        Value("tokens", "list", "The words of the sentence."),
        Value("query", "integer", "The position of the asking word, from 0."),
        Value("scores", "list", "The scaled scores q·k / √dₖ of the asking word, one a word."),
        Value("weights", "list", "The attention weights of the asking word, one a word; they add up to 1."),
        Value(
            "output", "vector", "The asking word's new vector: the weights applied to the values.", announce=ANNOUNCE
        ),
        Value("entropy", "decimal", "The entropy of the weights, in nats."),
        Value("temperature", "decimal", "The temperature T."),
        Value("causal", "bool", "Whether the future is hidden."),
        Value("keys", "matrix", "The key vectors, one x,y pair a word."),
    )
    experiments = EXPERIMENTS
    experiments_near = "formula"
    option_order = ("tokens", "query", "temperature", "causal", "queries", "keys", "values")  # as authors read them

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        tokens = words(values["tokens"])
        n = len(tokens)
        errors: list[OptionError] = []
        missing = [name for name in VECTORS if not str(values[name]).strip()]
        if tuple(tokens) != TOKENS and missing:
            listed = " and ".join(filter(None, [", ".join(f":{m}:" for m in missing[:-1]), f":{missing[-1]}:"]))
            errors.append(
                OptionError(
                    missing[0],
                    f"the built-in vectors fit only the sentence '{' '.join(TOKENS)}'; "
                    f"for '{' '.join(tokens)}' add {listed} with {n} x,y "
                    f"pair{'s' if n != 1 else ''} each, like '0.5,1; -1,0.2'",
                )
            )
        given = {m: parse_pairs(str(values[m]).strip(), m) for m in VECTORS if m not in missing}
        errors += count_errors(given, tokens, "x,y pairs")
        try:
            resolve_query(values["query"], tokens)
        except ValueError as err:
            message = str(err)
            if str(values["query"]).strip() == "chased" and "chased" not in tokens:
                message += " ('chased' is the default, which fits only the built-in sentence: add :query:)"
            errors.append(OptionError("query", message))
        raise_all(errors)

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        state["tokens"] = words(options["tokens"])
        state["q"], state["k"], state["v"] = (vectors(options, name) for name in VECTORS)
        state["query"] = state["selected"] = resolve_query(options["query"], state["tokens"])
        state["temperature"] = float(state["temperature"])
        return state

    # --- events the parameters do not cover --------------------------------------------

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        """A typed key coordinate, ``key.i.c``."""
        cell = cell_of(name, "key", (len(state["tokens"]), 2))
        if cell is None:
            raise FieldError(name, f"attention-row has no control named {name!r}")
        i, c = cell
        what = t("figure.attention_row.key_coordinate", axis="xy"[c], word=quote(state["tokens"][i]))
        typed = Slider(name, what, 0.0, lo=-COORD_LIMIT, hi=COORD_LIMIT)  # the kit's reader of a number in a range
        state["k"][i][c] = typed.read(value, state)
        state["selected"], state["step"] = i, STEP_MATCH
        return state

    def on_drag(self, state: dict, mark: str, i: Any, x: Any, y: Any) -> dict:
        if mark != "key" or not isinstance(i, int) or not 0 <= i < len(state["tokens"]):
            raise ValueError(f"only keys can be dragged, got mark {mark!r} {i!r}")
        state["k"][i] = held(x, y, key_extent(state) - EDGE)
        state["selected"], state["step"] = i, STEP_MATCH
        return state

    def on_select(self, state: dict, mark: str, i: Any) -> dict:
        marks = ("score", "bar", "value", "key", "weight", "t")
        if mark == "score" and isinstance(i, tuple) and i[0] == 0:  # the scores' one row: a column is a token
            i = i[1]
        state["query"], state["step"] = clicked(self.name, state, mark, i, points=marks), STEP_MATCH
        return state

    # --- the scene ----------------------------------------------------------------------

    def compute(self, state: dict) -> dict:
        r = row(state)
        hidden = [state["causal"] and j > state["query"] for j in range(len(state["tokens"]))]  # masked words
        return {
            "row": r,
            "hidden": hidden,
            "best": best(r.weights),
            "tie": tied(r.weights, hidden),
            "half": key_extent(state),  # what the panels need, then the declared values
            "tokens": list(state["tokens"]),
            "query": state["query"],
            "scores": list(r.scores),
            "weights": list(r.weights),
            "output": list(r.output),
            "entropy": r.entropy,
            "temperature": state["temperature"],
            "causal": state["causal"],
            "keys": [list(p) for p in state["k"]],
        }

    def draw(self, state: dict, v: dict) -> list:
        return scene.panels(state, v)

    def status(self, state: dict, v: dict) -> str:
        return scene.status(state, v)

    def controls(self, state: dict, v: dict) -> list[dict]:
        return [*super().controls(state, v), key_grid(state)]


def key_grid(state: dict) -> dict:
    """The key coordinates as typed numbers: a row a token, x and y."""
    return {
        "kind": "grid",
        "name": "keys",
        "near": "keys",
        "label": t("figure.attention_row.key_grid"),
        "col_labels": ["x", "y"],
        "rows": [
            {
                "label": w,
                "link": f"t{j}",
                "cells": [{"name": f"key.{j}.{c}", "value": field_text(state["k"][j][c])} for c in range(2)],
            }
            for j, w in enumerate(state["tokens"])
        ],
    }
