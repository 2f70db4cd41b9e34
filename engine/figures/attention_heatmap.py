"""The ``attention-heatmap`` figure: the whole T x T table of attention, cell by cell.

For queries q_i, keys k_j and values v_j (the rows of Q, K and V), Vaswani et al. (2017),
"Attention Is All You Need"::

    s_ij = q_i . k_j / sqrt(d_k)                 # scaled scores: the table before softmax
    a_ij = softmax_j(s_ij)   (masked: s = -inf)  # weights: each row sums to 1
    o_i  = sum_j a_ij v_j                        # outputs: weighted averages of the values
    H_i  = -sum_j a_ij ln a_ij  <=  ln m_i       # row entropy; m_i keys visible in row i

The table has n^2 cells for n tokens. Two masks hide keys before the softmax: the causal
mask (query i reads only the keys j <= i) and a padding mask: p [PAD] tokens appended to
the sentence (zero vectors, filler that makes it as long as a longer sentence in its
batch) whose keys no query may read; their own rows are computed but muted, as a model
throws those outputs away. The view "unscaled" shows the weights the table would have
without the division by sqrt(d_k). Every number comes from ``engine.attention``; this
module picks the tokens, turns reader events into new states, and describes the result as
a scene (see SCENE.md).

Two presets. "sentence": twelve words with 4-D vectors built by hand, whose first two
coordinates say what kind of word a token is or looks for (noun, verb) and whose last two
are a position code (sin 0.5t, cos 0.5t), so that a query can ask for "a noun at
position 2"; its values mark the word class, so an output reads as the share of attention each
class got. "random": sixteen tokens with 8-D vectors drawn from a standard normal
distribution (seeded), for the statistics of the scores.
"""
from __future__ import annotations

import copy
import math
import random
import statistics
from dataclasses import dataclass
from typing import Any

from ..attention import attention
from ..linalg import dot
from ..positional import position_code
from . import register
from .base import FieldError, Option, OptionError, OptionErrors, parse_number
from .common import (
    ExperimentFigure,
    HINT, Experiment, experiment_action, experiment_buttons, field_text, num, parse_bool, pct, query_field,
    quote, resolve_query, vec, whole, words,
)

MAX_TOKENS = 16
MAX_DIM = 8
COORD_LIMIT = 10.0  # typed or authored coordinates must lie in [-10, 10]
PEAKED, FLAT = 0.5, 0.9  # a row of 3 keys or more is peaked below H/ln m = 0.5, flat above 0.9
VIEWS = ("weights", "scores", "unscaled")
PAD_TOKEN, PAD_MAX = "[PAD]", 4  # the filler appended by the padding slider, and how many at most


# --- the presets ------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A sentence with its vectors."""

    name: str  # the option value and the select's value
    label: str  # the select's text
    tokens: tuple[str, ...]
    q: tuple[tuple[float, ...], ...]  # (T, d_k)
    k: tuple[tuple[float, ...], ...]  # (T, d_k)
    v: tuple[tuple[float, ...], ...]  # (T, d_v)
    value_names: tuple[str, ...]  # a name for each coordinate of the values
    query: int  # the row picked first


SENTENCE = "the old dog chased a small cat across the quiet garden .".split()
KINDS = ("det", "adj", "noun", "verb", "det", "adj", "noun", "prep", "det", "adj", "noun", "punct")
SEEKS = (  # (what kind of word the query looks for, how many places away), per token: the
    # query holds the position code of the place it looks at, an absolute position
    ("noun", 2),  # the -> dog
    ("noun", 1),  # old -> dog
    ("verb", 1),  # dog -> chased
    ("noun", -1),  # chased -> dog, its subject
    ("noun", 2),  # a -> cat
    ("noun", 1),  # small -> cat
    ("verb", -3),  # cat -> chased
    ("noun", 3),  # across -> garden
    ("noun", 2),  # the -> garden
    ("noun", 1),  # quiet -> garden
    (None, -3),  # garden -> across, by position only
    (None, None),  # . -> asks nothing: a zero query
)
OMEGA = 0.5  # radians per position of the sentence's position code
KEY_SIZE, QUERY_SIZE = 1.5, 3.0  # lengths of the key and query parts


def _sentence() -> Preset:
    """Keys: (is noun, is verb, position code) scaled by 1.5. Queries: (looks for a noun,
    looks for a verb, the position code of the place it looks at) scaled by 3. Rounded to
    two decimals, so that every entry can be typed back exactly."""

    def r(xs):
        return tuple(round(x, 2) + 0.0 for x in xs)

    keys, queries = [], []
    for j, kind in enumerate(KINDS):
        p = position_code(j, OMEGA)
        keys.append(r([KEY_SIZE * (kind == "noun"), KEY_SIZE * (kind == "verb"), KEY_SIZE * p[0], KEY_SIZE * p[1]]))
    for i, (seek, away) in enumerate(SEEKS):
        p = [0.0, 0.0] if away is None else position_code(i + away, OMEGA)
        queries.append(r([QUERY_SIZE * (seek == "noun"), QUERY_SIZE * (seek == "verb"),
                          QUERY_SIZE * p[0], QUERY_SIZE * p[1]]))
    values = tuple(
        (float(kind == "noun"), float(kind == "verb"), float(kind in ("det", "adj")),
         float(kind in ("prep", "punct")))
        for kind in KINDS
    )
    return Preset("sentence", "A sentence (12 words, d = 4)", tuple(SENTENCE), tuple(queries),
                  tuple(keys), values, ("noun", "verb", "det/adj", "other"), query=2)


RANDOM_SEED = 4


def _random() -> Preset:
    """Sixteen tokens whose q, k, v entries are standard normal numbers (seed 4), rounded
    to two decimals."""
    rng = random.Random(RANDOM_SEED)

    def matrix():
        return tuple(tuple(round(rng.gauss(0.0, 1.0), 2) + 0.0 for _ in range(8)) for _ in range(16))

    q, k, v = matrix(), matrix(), matrix()
    tokens = tuple(f"x{j + 1}" for j in range(16))
    return Preset("random", "Random vectors (16 tokens, d = 8)", tokens, q, k, v,
                  tuple(f"v{c + 1}" for c in range(8)), query=0)


PRESETS = {p.name: p for p in (_sentence(), _random())}


# --- options ------------------------------------------------------------------------------


def parse_rows(text: str, what: str) -> list[list[float]]:
    """Vectors written as ``"1, 0, 0.5; 0, 2, -1; ..."``: one row a token, numbers by commas.

    Every row must have the same length, at most 8. Raises ValueError saying which row is
    wrong and how.
    """
    text = str(text).strip()
    example = "like '1, 0, 0.5, 2; 0, 1, -1, 0'"
    if not text:
        raise ValueError(f"expected one row of numbers for each token, {example}, got ''")
    chunks = [c.strip() for c in text.split(";")]
    if chunks[-1] == "":
        chunks.pop()  # allow a trailing ';'
    rows: list[list[float]] = []
    for n, chunk in enumerate(chunks, start=1):
        if chunk == "":
            raise ValueError(f"row {n} of the {what} is empty: write one number per coordinate, {example}")
        row = []
        for part in chunk.split(","):
            part = part.strip().replace("\u2212", "-")
            try:
                x = float(part)
            except ValueError:
                raise ValueError(
                    f"row {n} of the {what} must be numbers separated by commas, got {chunk!r}"
                ) from None
            if not math.isfinite(x) or abs(x) > COORD_LIMIT:
                raise ValueError(
                    f"row {n} of the {what} must have numbers from -{COORD_LIMIT:g} to "
                    f"{COORD_LIMIT:g}, got {chunk!r}"
                )
            row.append(x)
        if len(row) > MAX_DIM:
            raise ValueError(f"row {n} of the {what} has {len(row)} numbers; vectors may have at most {MAX_DIM}")
        if rows and len(row) != len(rows[0]):
            raise ValueError(
                f"row {n} of the {what} has {len(row)} numbers but row 1 has {len(rows[0])}; "
                "every row needs the same length"
            )
        rows.append(row)
    return rows


def _rows_checker(what: str):
    def check(text: str) -> None:
        if str(text).strip():
            parse_rows(text, what)

    return check


# --- small helpers --------------------------------------------------------------------


def kind_of_row(H: float, visible: int) -> str:
    """"peaked", "flat", "in between"; or "one key" / "2 keys" for a row that reads too few
    keys to judge (of two keys, 0.32 and 0.68 is already 90% of ln 2)."""
    if visible <= 1:
        return "one key"
    if visible == 2:
        return "2 keys"
    h = H / math.log(visible)
    return "peaked" if h < PEAKED else "flat" if h > FLAT else "in between"


def plural(count: int, word: str) -> str:
    """'1 token', '2 tokens'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# --- the figure -----------------------------------------------------------------------


@register
class AttentionHeatmap(ExperimentFigure):
    """The full attention table for up to 16 tokens with vectors of up to 8 numbers."""

    name = "attention-heatmap"
    summary = (
        "The whole table of attention for a longer sentence: scores or weights cell by "
        "cell, each row's entropy, the outputs, the causal and padding masks, the n² cost."
    )
    options = (
        Option(
            "preset",
            "choice",
            "sentence",
            "The built-in tokens and vectors: 'sentence' (12 words, d = 4) or 'random' "
            "(16 tokens, d = 8). Ignored when :tokens: is given.",
            choices=tuple(PRESETS),
        ),
        Option(
            "tokens",
            "str",
            "",
            f"Your own tokens, separated by spaces (up to {MAX_TOKENS}); then :queries:, "
            ":keys: and :values: are needed too.",
        ),
        Option(
            "queries",
            "str",
            "",
            f"Query vectors for :tokens:, one row a token separated by ';', numbers by ',' "
            f"(at most {MAX_DIM} a row), like '1, 0, 0.5; 0, 2, -1'.",
            check=_rows_checker("queries"),
        ),
        Option(
            "keys",
            "str",
            "",
            "Key vectors for :tokens:, written like :queries: and as long.",
            check=_rows_checker("keys"),
        ),
        Option(
            "values",
            "str",
            "",
            "Value vectors for :tokens:, written like :queries: (any length up to 8).",
            check=_rows_checker("values"),
        ),
        Option("view", "choice", "weights", "What the table shows first: 'weights', 'scores', or "
               "'unscaled' (the weights without the division by √d_k).", choices=VIEWS),
        Option(
            "length",
            "int",
            0,
            "How many tokens the table uses, from 1 up; 0 (the default) means all of them.",
            min=0,
            max=MAX_TOKENS,
        ),
        Option("causal", "bool", False, "Start with the causal mask on: query i reads keys j <= i only."),
        Option(
            "padding",
            "int",
            0,
            f"How many {PAD_TOKEN} tokens follow the sentence (0 to {PAD_MAX}): filler whose keys "
            "no query may read.",
            min=0,
            max=PAD_MAX,
        ),
        Option(
            "query",
            "str",
            "",
            "The row picked first: a word of the sentence (its first occurrence) or a 0-based "
            "position. Empty: the preset's choice.",
        ),
    )

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        errors: list[OptionError] = []
        tokens = self._tokens(values)
        n_tokens = len(tokens)
        custom = bool(str(values["tokens"]).strip())
        given = [name for name in ("queries", "keys", "values") if str(values[name]).strip()]
        if custom:
            if n_tokens > MAX_TOKENS:
                errors.append(OptionError(
                    "tokens",
                    f"expected 1 to {MAX_TOKENS} words separated by spaces, got {n_tokens} words",
                ))
            missing = [name for name in ("queries", "keys", "values") if name not in given]
            if missing:
                listed = ", ".join(f":{m}:" for m in missing)
                errors.append(OptionError(
                    missing[0],
                    f"your own :tokens: need their vectors: add {listed} with {n_tokens} "
                    f"row{'s' if n_tokens != 1 else ''} each, like '1, 0, 0.5; 0, 2, -1'",
                ))
            rows = {}
            for name in given:
                rows[name] = parse_rows(values[name], name)
                if len(rows[name]) != n_tokens:
                    errors.append(OptionError(
                        name,
                        f"expected {n_tokens} rows, one for each token of "
                        f"'{' '.join(tokens)}', got {len(rows[name])}",
                    ))
            if "queries" in rows and "keys" in rows and len(rows["queries"][0]) != len(rows["keys"][0]):
                errors.append(OptionError(
                    "keys",
                    f"the keys have {len(rows['keys'][0])} numbers a row but the queries have "
                    f"{len(rows['queries'][0])}; queries and keys must have the same length d_k",
                ))
        elif given:
            errors.append(OptionError(
                given[0],
                f"vectors need your own :tokens: (one word a row); the preset "
                f"'{values['preset']}' has vectors of its own",
            ))
        n = values["length"] or n_tokens
        if values["length"] > n_tokens:
            errors.append(OptionError(
                "length", f"expected an integer from 0 to {n_tokens} (the number of tokens), got {values['length']}"
            ))
        if str(values["query"]).strip() and n_tokens <= MAX_TOKENS:
            try:
                i = resolve_query(values["query"], tokens)
            except ValueError as err:
                errors.append(OptionError("query", str(err)))
            else:
                if i >= n:
                    errors.append(OptionError(
                        "query", f"expected a token among the first {n} (the table's length), got {values['query']!r}"
                    ))
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise OptionErrors(errors)

    @staticmethod
    def _tokens(values: dict[str, Any]) -> list[str]:
        text = str(values.get("tokens") or "").strip()
        return text.split() if text else list(PRESETS[values["preset"]].tokens)

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {opt.name: opt.default for opt in self.options}
        opts.update(options)
        if str(opts["tokens"]).strip():
            tokens = words(opts["tokens"])
            q, k, v = (parse_rows(opts[name], name) for name in ("queries", "keys", "values"))
            preset, value_names, query = "custom", [f"v{c + 1}" for c in range(len(v[0]))], 0
            custom = {"tokens": tokens, "q": q, "k": k, "v": v, "value_names": value_names}
        else:
            p = PRESETS[opts["preset"]]
            tokens, q, k, v = list(p.tokens), [list(r) for r in p.q], [list(r) for r in p.k], [list(r) for r in p.v]
            preset, value_names, query = p.name, list(p.value_names), p.query
            custom = None
        n = opts["length"] or len(tokens)
        if str(opts["query"]).strip():
            query = resolve_query(opts["query"], tokens)
        query = min(query, n - 1)
        state = {
            "tokens": tokens,
            "q": q,  # (T, d_k)
            "k": k,  # (T, d_k)
            "v": v,  # (T, d_v)
            "value_names": value_names,
            "preset": preset,
            "n": n,  # tokens in the table
            "view": opts["view"],
            "causal": bool(opts["causal"]),
            "padding": int(opts["padding"]),  # [PAD] tokens after the n tokens
            "query": query,  # the picked row
            "experiment": None,
            "message": HINT,
            "custom": copy.deepcopy(custom),  # the author's own tokens and vectors, if any
        }
        state["initial"] = {key: copy.deepcopy(state[key]) for key in RESET_KEYS}
        return state

    # --- events -----------------------------------------------------------------------

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        T = len(state["tokens"])
        if name == "view":
            view = str(value).strip()
            if view not in VIEWS:
                raise FieldError(name, f"view must be one of {', '.join(VIEWS)}, got {view!r}")
            state["view"] = view
        elif name == "n":
            state["n"] = whole(value, name, 1, T, "length n")
            state["query"] = min(state["query"], state["n"] - 1)
        elif name == "padding":
            state["padding"] = whole(value, name, 0, PAD_MAX, "padding")
        elif name == "causal":
            state["causal"] = parse_bool(value, name)
        elif name == "query":
            state["query"] = query_field(value, state["tokens"][: state["n"]])
        elif name == "preset":
            key = str(value).strip()
            if key == "custom" and state.get("custom"):
                self._load(state, Preset("custom", "", **{
                    name: tuple(map(tuple, x)) if name in "qkv" else tuple(x)
                    for name, x in state["custom"].items()}, query=0))
            elif key in PRESETS:
                self._load(state, PRESETS[key])
            else:
                raise FieldError(name, f"preset must be one of {', '.join(PRESETS)}, got {key!r}")
        elif name[:2] in ("q.", "k.", "v."):
            which, i, c = self._cell(state, name)
            what = f"coordinate {c + 1} of the {WHAT[which]} of {quote(state['tokens'][i])}"
            try:
                x = parse_number(value, what)
            except FieldError as err:
                raise FieldError(name, err.message) from None
            if abs(x) > COORD_LIMIT:
                raise FieldError(name, f"{what} must be from -{COORD_LIMIT:g} to {COORD_LIMIT:g}, got {str(value).strip()}")
            state[which][i][c] = x
            state["query"] = i if i < state["n"] else state["query"]
        else:
            raise FieldError(name, f"attention-heatmap has no control named {name!r}")
        return state

    @staticmethod
    def _cell(state: dict, name: str) -> tuple[str, int, int]:
        parts = name.split(".")
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            which, i, c = parts[0], int(parts[1]), int(parts[2])
            if i < len(state["tokens"]) and c < len(state[which][i]):
                return which, i, c
        raise FieldError(name, f"attention-heatmap has no control named {name!r}")

    @staticmethod
    def _load(state: dict, p: Preset) -> None:
        state.update(
            tokens=list(p.tokens), q=[list(r) for r in p.q], k=[list(r) for r in p.k],
            v=[list(r) for r in p.v], value_names=list(p.value_names), preset=p.name,
            n=len(p.tokens), padding=0, query=p.query,
        )
        state["initial"] = {key: copy.deepcopy(state[key]) for key in RESET_KEYS}
        state["initial"]["causal"] = False
        state["initial"]["view"] = "weights"

    def on_select(self, state: dict, mark: str) -> dict:
        """A cell "cell-i-j" or a row label "row-i" picks the query row i (a word's, not a
        [PAD]'s: their rows are not used)."""
        parts = mark.split("-")
        if (parts[0], len(parts)) in (("cell", 3), ("row", 2)) and all(p.isdigit() for p in parts[1:]):
            i = int(parts[1])
            if i < state["n"] and (len(parts) == 2 or int(parts[2]) < state["n"] + state["padding"]):
                state["query"] = i
                return state
        raise ValueError(f"attention-heatmap cannot select the mark {mark!r}")

    def on_action(self, state: dict, name: str) -> dict:
        started = experiment_action(state, name, EXPERIMENTS, self._reset)
        if started is not None:
            return started
        names = ", ".join(e.name for e in EXPERIMENTS)
        raise ValueError(f"attention-heatmap has no action {name!r} (known: reset, {names})")

    @staticmethod
    def _reset(state: dict) -> dict:
        state.update(copy.deepcopy(state["initial"]))
        state["experiment"] = None
        return state

    # --- maths (all of it from engine) ------------------------------------------------

    @staticmethod
    def table(state: dict) -> tuple[list[str], list, list, list]:
        """The tokens and the Q, K, V of the table: the first n tokens, then `padding`
        [PAD] tokens with zero vectors."""
        n, p = state["n"], state["padding"]
        d_k, d_v = len(state["q"][0]), len(state["v"][0])
        tokens = state["tokens"][:n] + [PAD_TOKEN] * p
        Q = state["q"][:n] + [[0.0] * d_k for _ in range(p)]  # (n + p, d_k)
        K = state["k"][:n] + [[0.0] * d_k for _ in range(p)]  # (n + p, d_k)
        V = state["v"][:n] + [[0.0] * d_v for _ in range(p)]  # (n + p, d_v)
        return tokens, Q, K, V

    @staticmethod
    def visible_keys(state: dict) -> list[bool]:
        """The padding mask over the table's keys: False for the [PAD] tokens."""
        n, p = state["n"], state["padding"]
        return [j < n for j in range(n + p)]

    @classmethod
    def result(cls, state: dict):
        """The engine's attention over the table with both masks."""
        _, Q, K, V = cls.table(state)
        return attention(Q, K, V, causal=state["causal"], mask=cls.visible_keys(state))

    @classmethod
    def shown(cls, state: dict):
        """What the table shows: the attention, or with the view "unscaled" the attention
        as it would be without the division by sqrt(d_k)."""
        return unscaled(state) if state["view"] == "unscaled" else cls.result(state)

    # --- scene ------------------------------------------------------------------------

    def scene(self, state: dict[str, Any]) -> dict[str, Any]:
        n, p = state["n"], state["padding"]
        N = n + p  # the table's side: the tokens and the [PAD]s
        tokens = self.table(state)[0]
        r = self.shown(state)
        rows = [r.row(i) for i in range(N)]  # traces, for the cells' arithmetic
        visible = [sum(m) for m in r.mask]
        kinds = [kind_of_row(r.entropy[i], visible[i]) for i in range(N)]
        i = state["query"]
        pads = f" and {p} {PAD_TOKEN}" if p else ""
        return {
            "title": "Attention as a table: every query against every key",
            "status": (
                f"{plural(n, 'token')}{pads}, {plural(N * N, 'cell')}; row {quote(tokens[i])}: "
                f"{kinds[i]}, entropy {num(r.entropy[i])} nats"
                + (" (without ÷√d_k)" if state["view"] == "unscaled" else "")
            ),
            "panels": [
                self._table_panel(state, r, rows),
                self._entropy_panel(state, r, visible, kinds),
                self._outputs_panel(state, r),
                self._row_panel(state, r, visible, kinds),
                self._cost_panel(state, r),
            ],
            "controls": self._controls(state),
            "values": {
                "tokens": list(tokens),
                "n": n,
                "view": state["view"],
                "query": i,
                "scores": r.scores,
                "weights": r.weights,
                "entropy": r.entropy,
                "outputs": r.outputs,
                "causal": state["causal"],
                "padding": state["padding"],
                "cells": N * N,
            },
        }

    def _table_panel(self, state: dict, r, rows) -> dict:
        n = state["n"]
        tokens, Q, K, _ = self.table(state)
        N = len(tokens)
        view = state["view"]
        d = len(state["q"][0])
        seen = [s for row, m in zip(r.scores, r.mask) for s, ok in zip(row, m) if ok]
        biggest = max((abs(s) for s in seen), default=0.0) or 1.0
        top = max(max(row) for row in r.weights) or 1.0
        table = []
        for i in range(N):
            trace = rows[i].trace
            filler = i >= n  # a [PAD]'s own row: computed, muted, its output thrown away
            cells = []
            for j in range(N):
                step = trace[j]
                hidden = not r.mask[i][j]
                why = ("a padding key" if j >= n else "the causal mask: a later key") if hidden else ""
                q, k = Q[i], K[j]
                qk = dot(q, k)
                detail = [
                    f"query {tokens[i]} (row {i + 1}) · key {tokens[j]} (column {j + 1})",
                    "q·k = " + " + ".join(f"{num(a)}×{num(b)}" for a, b in zip(q, k)) + f" = {num(qk, 3)}",
                    f"without ÷ √{d}: s = q·k = {num(step.scaled, 3)}" if view == "unscaled" else
                    f"s = q·k ÷ √{d} = {num(step.dot, 3)} ÷ {num(trace.sqrt_d_k, 3)} = {num(step.scaled, 3)}",
                ]
                if filler:
                    detail.insert(1, f"a {PAD_TOKEN} row: computed like any other, its output is thrown away")
                if hidden:
                    detail.append(f"masked ({why}): s becomes −∞, so the weight is exactly 0")
                else:
                    detail.append(
                        f"softmax: exp({num(step.scaled, 3)} − {num(trace.max_tempered, 3)}) = "
                        f"{num(step.exp, 4)}; ÷ {num(trace.exp_sum, 4)} = {num(step.weight, 4)}"
                    )
                    detail.append(f"weight a = {num(step.weight, 3)}: {pct(step.weight)} of the row of {tokens[i]}")
                if view != "scores":
                    text = "0" if hidden else num(r.weights[i][j])
                    tone = 0.0 if hidden else r.weights[i][j] / top
                    said = f"weight {text}"
                else:
                    text = "−∞" if hidden else num(r.scores[i][j])
                    tone = 0.0 if hidden else max(-1.0, min(1.0, r.scores[i][j] / biggest))
                    said = f"score {text}"
                cells.append(
                    {
                        "text": text,
                        "tone": tone,
                        "id": f"cell-{i}-{j}",
                        "select": not filler,
                        "link": f"t{j}",
                        "active": i == state["query"],
                        "muted": hidden or filler,
                        "title": f"{tokens[i]} → {tokens[j]}: {said}{' (masked)' if hidden else ''}",
                        "detail": detail,
                    }
                )
            table.append(cells)
        what = {
            "weights": "Weights a_ij = softmax of row i",
            "scores": "Scaled scores s_ij = q_i·k_j / √d_k",
            "unscaled": "Weights without ÷√d_k: softmax of q_i·k_j",
        }[view]
        size = f"n = {plural(n, 'token')}, so the table has n² = {plural(n * n, 'cell')}"
        if N > n:
            size = (f"n = {plural(n, 'token')} and {N - n} {PAD_TOKEN}, so the table has "
                    f"{N}² = {N * N} cells; the {PAD_TOKEN} rows are muted: their outputs are not used")
        return {
            "kind": "cells",
            "id": "table",
            "title": f"{what} · rows ask (queries), columns answer (keys)",
            "caption": (
                f"{size}. Click a cell or a row's word to pick that query; hover or focus a cell "
                "for its arithmetic (arrow keys move between cells)."
            ),
            "col_labels": [{"text": w, "link": f"t{j}"} for j, w in enumerate(tokens)],
            "row_labels": [
                {"text": w, "link": f"t{i}", "id": f"row-{i}", "select": True, "active": i == state["query"],
                 "title": f"pick the row of {tokens[i]}"} if i < n else {"text": w, "link": f"t{i}"}
                for i, w in enumerate(tokens)
            ],
            "rows": table,
            "active_row": state["query"],
        }

    def _entropy_panel(self, state: dict, r, visible: list[int], kinds: list[str]) -> dict:
        n = state["n"]
        tokens = state["tokens"][:n]
        tones = {"peaked": 0.8, "in between": 0.0, "flat": -0.5, "one key": 0.0, "2 keys": 0.0}
        rows = []
        for i in range(n):
            H, m = r.entropy[i], visible[i]
            top = math.log(m)
            share = H / top if m > 1 else 0.0
            rows.append(
                [
                    {"text": num(H), "tone": 0.0, "title": f"entropy of the row of {tokens[i]}: {num(H, 3)} nats"},
                    {"text": num(top), "tone": 0.0, "title": f"ln {m}: the entropy of an even split over {m} keys"},
                    {"text": pct(share) if m > 1 else "—", "tone": 0.0, "title": "H as a share of its maximum"},
                    {"text": kinds[i], "tone": tones[kinds[i]], "active": i == state["query"]},
                ]
            )
        every = f" (ln {n} = {num(math.log(n))} for a row that reads all {n})" if n > 1 else ""
        return {
            "kind": "cells",
            "id": "entropy",
            "title": "Entropy of each row · peaked or flat",
            "caption": (
                f"H = −Σ a ln a in nats: 0 when one key takes all, ln m when the m keys a row can "
                f"read share evenly{every}. A row of 3 keys or more is peaked with H below "
                f"{PEAKED:.0%} of ln m, flat above {FLAT:.0%}."
            ),
            "wide": False,
            "col_labels": [{"text": "H"}, {"text": "ln m (max)"}, {"text": "H / max"}, {"text": "row is"}],
            "row_labels": [{"text": w, "link": f"t{i}"} for i, w in enumerate(tokens)],
            "rows": rows,
            "active_row": state["query"],
        }

    def _outputs_panel(self, state: dict, r) -> dict:
        n = state["n"]
        tokens = state["tokens"][:n]
        names = state["value_names"]
        biggest = max((abs(x) for row in r.outputs for x in row), default=0.0) or 1.0
        rows = []
        for i in range(n):
            cells = []
            for c, o in enumerate(r.outputs[i]):
                terms = [(r.weights[i][j], state["v"][j][c], j) for j in range(n) if r.mask[i][j]]  # real keys
                terms.sort(key=lambda t: -t[0])
                shown = " + ".join(f"{num(a, 3)}×{num(v)}" for a, v, _ in terms[:4])
                more = f" + … ({len(terms) - 4} more)" if len(terms) > 4 else ""
                cells.append(
                    {
                        "text": num(o),
                        "tone": max(-1.0, min(1.0, o / biggest)),
                        "title": f"output of {tokens[i]}, {names[c]}: {num(o, 3)}",
                        "detail": [
                            f"o[{names[c]}] of {tokens[i]} = Σ_j a_ij v_j[{names[c]}]",
                            f"= {shown}{more}",
                            f"= {num(o, 4)}",
                        ],
                    }
                )
            rows.append(cells)
        return {
            "kind": "cells",
            "id": "outputs",
            "title": "Outputs o_i = Σ_j a_ij v_j · one row a token",
            "caption": (
                "Each output is a weighted average of the value vectors, with the weights of its "
                "row. Hover or focus a cell for its sum."
            ),
            "wide": False,
            "col_labels": [{"text": name} for name in names],
            "row_labels": [{"text": w, "link": f"t{i}"} for i, w in enumerate(tokens)],
            "rows": rows,
            "active_row": state["query"],
        }

    def _row_panel(self, state: dict, r, visible: list[int], kinds: list[str]) -> dict:
        n = state["n"]
        tokens = state["tokens"][:n]
        i = state["query"]
        a = r.weights[i]
        order = sorted((j for j in range(n) if r.mask[i][j]), key=lambda j: -a[j])
        best = order[0]
        m = visible[i]
        if m == 1:
            first = (
                f"The row of {quote(tokens[i])} can read one key only, {quote(tokens[best])}, so it "
                f"takes all of the weight and the entropy is 0."
            )
        else:
            first = (
                f"The row of {quote(tokens[i])} gives {pct(a[best])} to {quote(tokens[best])}"
                + (f" and {pct(a[order[1]])} to {quote(tokens[order[1]])}" if len(order) > 1 else "")
                + f". Its entropy is {num(r.entropy[i])} nats against ln {m} = "
                f"{num(math.log(m))} for an even split over its {m} visible keys"
                + (": too few keys to call it peaked or flat." if m == 2 else f": {kinds[i]}.")
            )
        top = order[:3]
        terms = " + ".join(f"{num(a[j])}·v({tokens[j]})" for j in top)
        rest = f" + {len(order) - 3} smaller terms" if len(order) > 3 else ""
        second = f"Its output is {terms}{rest} = {vec(r.outputs[i])}."
        N = len(visible)  # the table's side, with the [PAD]s
        masked = N * N - sum(visible)
        paragraphs = [first, second]
        if masked:
            paragraphs.append(f"The masks hide {masked} of the {N * N} cells; their weights are exactly 0.")
        return {"kind": "text", "id": "row", "title": f"The row of {quote(tokens[i])}", "paragraphs": paragraphs}

    def _cost_panel(self, state: dict, r) -> dict:
        n, p = state["n"], state["padding"]
        N = n + p
        visible = sum(sum(m) for m in r.mask)
        pads = f" ({plural(n, 'token')} and {p} {PAD_TOKEN})" if p else ""
        return {
            "kind": "text",
            "id": "cost",
            "title": "Cost",
            "paragraphs": [
                f"Every query meets every key: {N} × {N} = {plural(N * N, 'score')}{pads}. Doubling "
                f"the length to {2 * N} would make {4 * N * N}."
            ],
            "items": [
                ["Tokens n", str(n)],
                [f"{PAD_TOKEN} tokens", str(p)],
                ["Cells in the table", str(N * N)],
                ["Read (not masked)", str(visible)],
                ["d_k", str(len(state["q"][0]))],
            ],
        }

    def _controls(self, state: dict) -> list[dict]:
        T = len(state["tokens"])
        n = state["n"]
        presets = [{"value": p.name, "label": p.label} for p in PRESETS.values()]
        if state["preset"] == "custom":
            presets.insert(0, {"value": "custom", "label": "The author's tokens"})
        return [
            {
                "kind": "select",
                "name": "view",
                "near": "table",
                "label": "The table shows",
                "value": state["view"],
                "options": [
                    {"value": "weights", "label": "weights (after softmax)"},
                    {"value": "scores", "label": "scaled scores (before)"},
                    {"value": "unscaled", "label": "weights without ÷√d_k"},
                ],
            },
            {
                "kind": "slider",
                "name": "n",
                "near": "table",
                "label": "Tokens n",
                "help": f"The table uses the first n tokens: n² = {plural(n * n, 'cell')}.",
                "min": 1,
                "max": T,
                "step": 1,
                "value": n,
                "digits": 0,
            },
            {
                "kind": "toggle",
                "name": "causal",
                "near": "table",
                "label": "Causal mask (no looking ahead)",
                "value": state["causal"],
            },
            {
                "kind": "slider",
                "name": "padding",
                "near": "table",
                "label": f"{PAD_TOKEN} tokens after the sentence",
                "help": "Filler that pads a sentence to its batch's length: no query may read it.",
                "min": 0,
                "max": PAD_MAX,
                "step": 1,
                "value": state["padding"],
                "digits": 0,
            },
            {
                "kind": "select",
                "name": "preset",
                "near": "table",
                "label": "Sentence",
                "value": state["preset"],
                "options": presets,
            },
            {**experiment_buttons(state, EXPERIMENTS, self._reset), "near": "table"},
        ] + self._vector_grids(state)

    @staticmethod
    def _vector_grids(state: dict) -> list[dict]:
        """Typed entries of the picked token's q, k and v: one row a coordinate."""
        i = state["query"]
        word = quote(state["tokens"][i])
        groups = [("q", "k", "v")] if len(state["q"][i]) == len(state["v"][i]) else [("q", "k"), ("v",)]
        grids = []
        for group in groups:
            d = len(state[group[0]][i])
            grids.append(
                {
                    "kind": "grid",
                    "name": "vectors-" + "".join(group),
                    "near": "outputs",
                    "label": f"Vectors of {word}: {', '.join(WHAT[w] for w in group)} (type exact values)",
                    "col_labels": [WHAT[w] for w in group],
                    "rows": [
                        {
                            "label": f"coordinate {c + 1}",
                            "link": f"t{i}",
                            "cells": [
                                {"name": f"{which}.{i}.{c}", "value": field_text(state[which][i][c]),
                                 "label": f"{WHAT[which]} coordinate {c + 1}"}
                                for which in group
                            ],
                        }
                        for c in range(d)
                    ],
                }
            )
        return grids


WHAT = {"q": "query", "k": "key", "v": "value"}
RESET_KEYS = ("tokens", "q", "k", "v", "value_names", "preset", "n", "view", "causal", "padding", "query")


# --- experiments ("Try this") -------------------------------------------------------------
#
# Each experiment starts from the first settings (as "reset" does), sets the controls, and
# writes a message whose numbers are computed by the engine for the state it made.


def _readable(r, i: int) -> list[int]:
    """The keys row i may read: the masks leave them visible."""
    return [j for j, seen in enumerate(r.mask[i]) if seen]


def _choosing_rows(state: dict, r, least: int = 2) -> list[int]:
    """The words' rows (not the [PAD]s') that read ``least`` keys or more. A row that can
    read one key only gives it all of the weight whatever the scores say, and one of two
    keys is too short to call peaked or flat."""
    return [i for i in range(state["n"]) if sum(r.mask[i]) >= least]


def _judged_rows(state: dict, r) -> list[int]:
    """The rows the entropy column calls peaked, flat or in between: 3 keys or more."""
    return _choosing_rows(state, r, 3)


def _normalised(r, i: int) -> float:
    """H / ln m of a row that reads m >= 2 keys: 0 for one-hot, 1 for an even split."""
    return r.entropy[i] / math.log(sum(r.mask[i]))


def _some_row_is_judged(state: dict) -> bool:
    return bool(_judged_rows(state, AttentionHeatmap.result(state)))


def _two_tokens(state: dict) -> bool:
    return state["n"] >= 2


def _peaked_flat(state: dict) -> None:
    state["view"] = "weights"
    r = AttentionHeatmap.result(state)
    state["query"] = min(_judged_rows(state, r), key=lambda i: _normalised(r, i))


def _peaked_flat_message(state: dict) -> str:
    r = AttentionHeatmap.result(state)
    tokens = state["tokens"]
    low = state["query"]
    high = max(_judged_rows(state, r), key=lambda i: _normalised(r, i))
    top = max(_readable(r, low), key=lambda j: r.weights[low][j])
    m = sum(r.mask[high])
    return (
        f"The most peaked row is {quote(tokens[low])}: {pct(r.weights[low][top])} goes to "
        f"{quote(tokens[top])} and its entropy is {num(r.entropy[low])} nats. The flattest is "
        f"{quote(tokens[high])} with {num(r.entropy[high])} nats, against ln {m} = "
        f"{num(math.log(m))} for a perfectly even row over its {m} keys. Click the rows to "
        f"compare them."
    )


def _causal(state: dict) -> None:
    state["causal"] = True
    state["view"] = "weights"


def _causal_message(state: dict) -> str:
    r = AttentionHeatmap.result(state)
    before = AttentionHeatmap.result(dict(state, causal=False))
    tokens = state["tokens"]
    N = state["n"] + state["padding"]
    hidden = N * N - sum(sum(m) for m in r.mask)
    i = state["query"]
    j = max(range(state["n"]), key=lambda j: r.weights[i][j])
    return (
        f"Every cell above the diagonal is now masked: {hidden} of {N * N} cells get weight "
        f"exactly 0, and the first row can read only itself. The row of {quote(tokens[i])} now gives "
        f"{pct(r.weights[i][j])} to {quote(tokens[j])} (it gave {pct(before.weights[i][j])} without "
        f"the mask). Words that looked ahead for their noun have to settle for what came before."
    )


PAD = 3


def _padding(state: dict) -> None:
    state["padding"] = PAD
    state["view"] = "weights"


def _padding_message(state: dict) -> str:
    r = AttentionHeatmap.result(state)
    _, Q, K, V = AttentionHeatmap.table(state)
    readable = attention(Q, K, V, causal=state["causal"])  # the same table, [PAD] keys readable
    unpadded = AttentionHeatmap.result(dict(state, padding=0))
    tokens = state["tokens"]
    n, p = state["n"], state["padding"]
    N = n + p
    newly = sum(map(sum, readable.mask)) - sum(map(sum, r.mask))  # cells the padding mask hides
    i = state["query"]
    m = sum(r.mask[i])
    same = all(r.weights[a][:n] == unpadded.weights[a] for a in range(n))
    return (
        f"{p} {PAD_TOKEN} tokens now follow {quote(tokens[n - 1])}: filler that makes this "
        f"sentence as long as a longer one in its batch. Their columns are masked for every "
        f"query, so {plural(newly, 'cell')} of {N * N} get weight 0, and "
        + ("the token's row keeps" if n == 1 else f"the rows of the {n} tokens keep")
        + f" {'exactly ' if same else ''}the weights they had: the row "
        f"of {quote(tokens[i])} still reads {plural(m, 'key')}, with entropy {num(r.entropy[i])} "
        f"nats. The {PAD_TOKEN} rows are muted: they ask too, but their outputs are thrown away."
    )


GROW_FROM = 6


def _grow(state: dict) -> None:
    state["n"] = min(GROW_FROM, len(state["tokens"]))
    state["query"] = min(state["query"], state["n"] - 1)


def _grow_message(state: dict) -> str:
    n, T = state["n"], len(state["tokens"])
    return (
        f"The table now uses {n} tokens: {n * n} cells. Drag the slider back to {T}: that is "
        f"{T / n:.3g} times the tokens and {T * T} cells, {T * T / (n * n):.3g} times as many. "
        f"The cost of attention grows with the square of the length."
    )


def _scores(state: dict) -> None:
    state["view"] = "scores"


def _scores_message(state: dict) -> str:
    r = AttentionHeatmap.result(state)
    tokens = state["tokens"]
    i = state["query"]
    row = r.scores[i]
    keys = _readable(r, i)  # a masked score is shown as −∞ and gets weight 0
    if len(keys) == 1:
        (j,) = keys
        return (
            f"These are the scaled scores before the softmax; a masked cell shows −∞. The row of "
            f"{quote(tokens[i])} can read one key only, {quote(tokens[j])}, so its score "
            f"{num(row[j])} becomes weight 1 whatever its size. Click a row that reads more keys "
            f"to see the softmax choose. Scores can be negative; weights never are."
        )
    hi = max(keys, key=lambda j: row[j])
    lo = min(keys, key=lambda j: row[j])
    over = f" over the {len(keys)} keys it can read" if len(keys) < len(row) else ""
    return (
        f"These are the scaled scores before the softmax. In the row of {quote(tokens[i])}{over} "
        f"they run from {num(row[lo])} ({quote(tokens[lo])}) to {num(row[hi])} ({quote(tokens[hi])}); "
        f"the softmax turns that gap of {num(row[hi] - row[lo])} into weights "
        f"{num(r.weights[i][lo], 3)} and {num(r.weights[i][hi])}. Scores can be negative; weights "
        f"never are."
    )


def unscaled(state: dict):
    """The same table without the division by sqrt(d_k): q_i multiplied by sqrt(d_k)."""
    _, Q, K, V = AttentionHeatmap.table(state)
    root = math.sqrt(len(state["q"][0]))
    Q = [[root * x for x in q] for q in Q]
    return attention(Q, K, V, causal=state["causal"], mask=AttentionHeatmap.visible_keys(state))


def dot_spread(state: dict) -> tuple[float, float]:
    """Standard deviation of the raw dot products q_i·k_j and of the scaled scores."""
    n = state["n"]
    dots = [dot(q, k) for q in state["q"][:n] for k in state["k"][:n]]
    r = AttentionHeatmap.result(state)
    return statistics.pstdev(dots), statistics.pstdev([s for row in r.scores[:n] for s in row[:n]])


def _why_scale(state: dict) -> None:
    first = state["initial"]  # experiments and "reset" still go back to the first settings
    AttentionHeatmap._load(state, PRESETS["random"])
    state["initial"] = first
    state["view"] = "scores"


def _why_scale_message(state: dict) -> str:
    d = len(state["q"][0])
    raw, scaled = dot_spread(state)
    r = AttentionHeatmap.result(state)
    u = unscaled(state)
    rows = _choosing_rows(state, r)  # a row that reads one key has nothing to choose
    mean = statistics.fmean(_normalised(r, i) for i in rows)
    mean_u = statistics.fmean(_normalised(u, i) for i in rows)
    top = statistics.fmean(max(r.weights[i]) for i in rows)
    top_u = statistics.fmean(max(u.weights[i]) for i in rows)
    return (
        f"Sixteen tokens with random entries of spread 1 and d = {d}. The raw dot products q·k "
        f"have a spread of {num(raw)}, close to √{d} = {num(math.sqrt(d))}; divided by √{d} the "
        f"scores have {num(scaled)}. Without the division the top weight of a row would average "
        f"{num(top_u)} instead of {num(top)}, and the entropy would fall from {pct(mean)} to "
        f"{pct(mean_u)} of its maximum: rows closer to one-hot, with less to learn from. See it: "
        f"set the table to “weights without ÷√d_k”, then back to “weights”."
    )


EXPERIMENTS = (
    Experiment("peaked-flat", "Peaked and flat rows", "Which rows lock onto one key",
               _peaked_flat, _peaked_flat_message, applies=_some_row_is_judged,
               needs="a row that can read three keys or more"),
    Experiment("scores", "Show the raw scores", "The table before the softmax",
               _scores, _scores_message),
    Experiment("causal", "Causal mask", "No query may read a later key",
               _causal, _causal_message, applies=_two_tokens, needs="a table of two tokens or more"),
    Experiment("padding", f"Add {PAD} {PAD_TOKEN} tokens", "Filler keys are hidden from every query",
               _padding, _padding_message),
    Experiment("grow", f"Start from {GROW_FROM} tokens", "The table grows as n²",
               _grow, _grow_message, applies=lambda state: len(state["tokens"]) > GROW_FROM,
               needs=f"more than {GROW_FROM} tokens"),
    Experiment("why-scale", "Why divide by √d_k?", "Random vectors with and without the scaling",
               _why_scale, _why_scale_message),
)
