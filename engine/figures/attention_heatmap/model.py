"""The attention-heatmap figure: its parameters, options, values and events (the other
modules: see __init__.py)."""

from typing import Any

from explorables.figures import (
    Choice,
    Figure,
    Hidden,
    Option,
    OptionError,
    Rows,
    Slider,
    Toggle,
    num,
    query_field,
    quote,
    raise_all,
    register,
    resolve_query,
    unselectable,
    words,
)

from ..kit.rounding import rounded
from ..sentences import COORD_LIMIT, VECTORS, count_errors, given_vectors, vector_options
from . import scene
from . import words as W
from .experiments import EXPERIMENTS
from .presets import MAX_DIM, MAX_TOKENS, NAMES, built_in, load, preset
from .table import PAD_MAX, kind_of_row, result, table


def own_tokens(options: dict) -> list[str]:
    """The author's :tokens: ([] where the directive gives none)."""
    return words(str(options.get("tokens") or ""))


def preset_of(name: str, options: dict):
    """The preset ``name``, or with "custom" the author's tokens and vectors."""
    if name != "custom":
        return built_in(name)
    return preset("custom", own_tokens(options), *given_vectors(options, most=MAX_DIM).values())


def mistake(option: str, kind: str, **fields) -> OptionError:
    """The option error ``kind`` of words.ERRORS, at ``option``."""
    return OptionError(option, W.ERRORS[kind].format(**fields))


def preset_choices(state: dict) -> list[tuple[str, Any]]:
    """The presets, after the author's own tokens if the directive gave some."""
    own = [("custom", W.CUSTOM_LABEL)] if own_tokens(state["options"]) else []
    return own + [(name, W.PRESETS[name]) for name in NAMES]


def picked_row(value: Any, s: dict) -> int:
    """A query row sent by a reader or an author: a word or a position among the table's words."""
    return query_field(value, s["tokens"][: s["n"]])


def pick(s: dict, i: int) -> None:
    """A typed coordinate of token i picks its row, if the table uses it."""
    s["query"] = i if i < s["n"] else s["query"]


def n_help(s: dict) -> str:
    """Under the length slider: how many cells the table has, [PAD]s included."""
    cells = W.count((s["n"] + s["padding"]) ** 2, "cell")
    return (W.N_HELP_PADDED if s["padding"] else W.N_HELP).format(p=s["padding"], cells=cells)


@register
class AttentionHeatmap(Figure, words=W):
    """The full attention table for up to 16 tokens with vectors of up to 8 numbers."""

    name = "attention-heatmap"
    # the causal mask too: the lesson's sentences about rows (three identical rows, a
    # peaked row) are about its table without the mask; padding leaves the real rows be
    subject = ("preset", "tokens", "n", "q", "k", "v", "causal")
    params = (
        Choice("view", default="weights", choices=W.VIEW_CHOICES, near="table", **W.CONTROLS["view"]),
        Slider(
            "n",
            default=0,
            lo=1,
            hi=lambda s: len(s["tokens"]),
            integer=True,
            option=False,
            help=n_help,
            near="table",
            **W.CONTROLS["n"],
        ),
        Toggle("causal", default=False, near="table", **W.CONTROLS["causal"]),
        Slider("padding", default=0, lo=0, hi=PAD_MAX, integer=True, near="table", **W.CONTROLS["padding"]),
        Choice(
            "preset", default="sentence", choices=preset_choices, option=False, near="table", **W.CONTROLS["preset"]
        ),
        Hidden("query", default="", option=True, parse=picked_row, **W.CONTROLS["query"]),
        *(Rows(m, default=[], limit=COORD_LIMIT, then=pick, **W.rows(m)) for m in "qkv"),
    )
    extra_options = (
        Option("preset", "choice", "sentence", W.DOCS["preset"], choices=NAMES),
        Option("tokens", "str", "", W.DOCS["tokens"]),
        *vector_options(W.DOCS, most=MAX_DIM),
        Option("length", "int", 0, W.DOCS["length"], min=0, max=MAX_TOKENS),
    )
    values = W.VALUES
    experiments = EXPERIMENTS
    experiments_near = "table"
    option_order = ("preset", "tokens", *VECTORS, "view", "length", "causal", "padding", "query")

    # --- options -> first state -----------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        own = own_tokens(values)
        tokens = own or built_in(values["preset"])["tokens"]
        given = given_vectors(values, most=MAX_DIM)
        errors = [mistake(next(iter(given)), "not_own", preset=values["preset"])] if given and not own else []
        if own:  # the author's own tokens, and the vectors given for them
            T, missing = len(own), [m for m in VECTORS if m not in given]
            errors += [mistake("tokens", "too_many", most=MAX_TOKENS, n=T)] if T > MAX_TOKENS else []
            if missing:
                add = ", ".join(f":{m}:" for m in missing)
                errors.append(mistake(missing[0], "missing", add=add, rows=W.plural(T, "row")))
            errors += count_errors(given, own)
            if "queries" in given and "keys" in given and len(given["queries"][0]) != len(given["keys"][0]):
                errors.append(mistake("keys", "d_k", k=len(given["keys"][0]), q=len(given["queries"][0])))
        n = values["length"] or len(tokens)
        if values["length"] > len(tokens):
            errors.append(mistake("length", "length", n=len(tokens), length=values["length"]))
        if (query := values["query"]).strip() and len(tokens) <= MAX_TOKENS:
            try:
                if resolve_query(query, tokens) >= n:
                    errors.append(mistake("query", "past", n=n, query=query))
            except ValueError as err:
                errors.append(OptionError("query", str(err)))
        raise_all(errors)

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        load(state, preset_of("custom" if own_tokens(options) else options["preset"], options))
        n = options["length"] or len(state["tokens"])
        query = resolve_query(options["query"], state["tokens"]) if str(options["query"]).strip() else state["query"]
        state.update(n=n, padding=int(options["padding"]), query=min(query, n - 1))
        state["reset_preset"] = None  # the preset Reset returns to, once the reader picked one
        return state

    def reset(self, state: dict[str, Any]) -> dict[str, Any]:
        """The first settings; after the reader picked a preset, that preset's."""
        options, picked = state.get("options") or {}, state.get("reset_preset")
        if picked is None:
            return self.initial_state(options)
        own = {m: options[m] for m in ("tokens", *VECTORS)} if picked == "custom" else {"preset": picked}
        return dict(self.initial_state(own), options=options, reset_preset=picked)

    # --- events ---------------------------------------------------------------------------

    def changed(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        if name == "n":
            state["query"] = min(state["query"], state["n"] - 1)
        elif name == "preset":
            load(state, preset_of(state["preset"], state["options"]))
            state["reset_preset"] = state["preset"]
        return state

    def on_select(self, state: dict[str, Any], mark: str, i: Any) -> dict[str, Any]:
        """A cell ("cell", (i, j)) or a row label ("row", i) picks the query row i (a word's,
        not a [PAD]'s: their rows are not used)."""
        kind = (mark, type(i))
        row, col = i if kind == ("cell", tuple) and len(i) == 2 else (i, 0) if kind == ("row", int) else (None, None)
        if row is None or row >= state["n"] or col >= state["n"] + state["padding"]:
            raise unselectable(self.name, mark, i)
        state["query"] = row
        return state

    # --- the scene ------------------------------------------------------------------------

    def compute(self, state: dict[str, Any]) -> dict[str, Any]:
        r = result(state, scaled=state["view"] != "unscaled")  # "unscaled": as if not divided by √d_k
        visible = [sum(m) for m in r.mask]
        return {  # the panels draw from r; the values, in every scene, with the digits they are written with
            "r": r,
            "tokens": table(state)[0],
            **{name: rounded(getattr(r, name)) for name in ("scores", "weights", "entropy", "outputs")},
            "cells": len(visible) ** 2,
            "visible": visible,
            "kinds": [kind_of_row(H, m) for H, m in zip(r.entropy, visible, strict=True)],
        }

    def draw(self, state: dict[str, Any], v: dict[str, Any]) -> list[Any]:
        return [panel(state, v) for panel in scene.PANELS]

    def status(self, state: dict[str, Any], v: dict[str, Any]) -> str:
        n, p, i = state["n"], state["padding"], state["query"]
        text = W.STATUS.format(
            tokens=W.count(n, "token"),
            pads=W.STATUS_PADS.format(p=p) if p else "",
            cells=W.count(v["cells"], "cell"),
            word=quote(v["tokens"][i]),
            kind=W.kind(v["kinds"][i]),
            H=num(v["entropy"][i]),
        )
        return text + (W.STATUS_UNSCALED() if state["view"] == "unscaled" else "")

    def controls(self, state: dict[str, Any], v: dict[str, Any]) -> list[dict[str, Any]]:
        return super().controls(state, v) + scene.vector_grids(state)
