"""The ``attention-row`` figure: one query row of scaled dot-product attention, drawn.

For the asking token's query q, the keys K and the values V (one row each per token)::

    s_j = q . k_j / sqrt(d)                    # scaled score, as the score row shows it
    a   = softmax(s / T)   (masked j: a_j = 0)   # weights: non-negative, sum to 1
    o   = sum_j a_j v_j                          # the asking token's new vector

This is one row of ``softmax(Q K^T / sqrt(d_k)) V`` from Vaswani et al. (2017),
"Attention Is All You Need", with a temperature T added (T = 1 is the paper's formula)
and the decoder's causal mask as a switch. Every number comes from ``engine``; this
module only places the vectors, turns reader events into new states, and describes the
result as a scene (see SCENE.md), each label placed where it covers as little as it can.

The vectors are 2-D and placed by hand so that they can be drawn: in the built-in
sentence "The cat chased the mouse ." the verb's query points towards the keys of its
subject and object, the two determiners wear keys that sit close together, and the
final "." asks with a short query, so its row is nearly flat.
"""
from __future__ import annotations

import copy
import math
from typing import Any

from ..attention import attention_row
from ..geometry import convex_hull, scalar_projection, unit, vector_projection
from . import register
from .base import FieldError, Option, OptionError, OptionErrors, parse_number
from .common import (
    ExperimentFigure,
    EDGE, HINT, Experiment, best, experiment_action, experiment_buttons, extent, field_text, num, parse_bool,
    pct, query_field, quote, ranged, resolve_query, vec, whole, words,
)

from .common import (  # where the labels go, shared with the lab and the heads
    LabelLayout, place_labels, share_labels, tip_label_candidates,
)

# --- the built-in sentence and its hand-placed vectors ---------------------------------

TOKENS = ("The", "cat", "chased", "the", "mouse", ".")

QUERIES = (  # (6, 2): what each token is looking for
    (1.0, 0.9),  # The: its noun, cat
    (0.3, -1.3),  # cat: the verb it does
    (1.4, 1.0),  # chased: who did it (cat) and to what (mouse)
    (1.3, 0.2),  # the: its noun, mouse
    (0.2, -1.2),  # mouse: the verb done to it
    (0.15, 0.1),  # .: a short, faint question that prefers no one
)
KEYS = (  # (6, 2): what each token advertises
    (-0.8, 0.3),  # The   } the two determiners sit close together
    (0.9, 1.45),  # cat   } the nouns sit along chased's query
    (0.3, -1.1),  # chased: the verb
    (-0.8, 0.8),  # the   }
    (1.4, 0.5),  # mouse  }
    (-0.3, -0.6),  # .
)
VALUES = (  # (6, 2): what each token hands over when it is read
    (-1.2, -0.6),  # The
    (1.5, 1.3),  # cat
    (0.2, -1.5),  # chased
    (-1.0, 0.0),  # the
    (1.6, -0.4),  # mouse
    (-0.3, 1.4),  # .
)

MAX_TOKENS = 8
COORD_LIMIT = 10.0  # typed or authored coordinates must lie in [-10, 10]
T_MIN, T_MAX = 0.05, 5.0  # the temperature slider's range
KEY_PLANE = 2.5  # half-width of the key plane while every key fits inside it
VALUE_PLANE = 2.0  # half-width of the value plane while every value fits inside it
STEP, BIG_STEP = 0.1, 0.5  # keyboard steps on the key plane (arrow, Shift+arrow)

STEPS = (  # (label, note): the formula as six steps
    ("q·k", "how well each key matches the question"),
    ("÷ √d", "keep the numbers modest"),
    ("÷ T", "how decisive the choice is"),
    ("mask", "hide the words that come later"),
    ("softmax", "turn scores into shares that add up to 1"),
    ("Σ aᵢvᵢ", "blend the values by those shares"),
)
STEP_MATCH, STEP_SCALE, STEP_TEMPERATURE, STEP_MASK, STEP_SOFTMAX, STEP_BLEND = range(6)


# --- options ------------------------------------------------------------------------


def parse_pairs(text: str, what: str = "vectors") -> list[list[float]]:
    """Vectors written as ``"0.5,1; -1,0.2; ..."``: one ``x,y`` pair a token.

    Raises ValueError whose message says which pair is wrong and how.
    """
    text = str(text).strip()
    if not text:
        raise ValueError("expected pairs like '0.5,1; -1,0.2' (x,y for each token), got ''")
    chunks = [c.strip() for c in text.split(";")]
    if chunks and chunks[-1] == "":
        chunks.pop()  # allow a trailing ';'
    pairs: list[list[float]] = []
    for n, chunk in enumerate(chunks, start=1):
        parts = [p.strip().replace("\u2212", "-") for p in chunk.split(",")]
        if chunk == "":
            raise ValueError(f"pair {n} of the {what} is empty: write x,y for each token, like '0.5,1'")
        if len(parts) != 2:
            raise ValueError(
                f"pair {n} of the {what} must have 2 numbers (x,y), "
                f"got {len(parts)} in {chunk!r}"
            )
        pair = []
        for part in parts:
            try:
                x = float(part)
            except ValueError:
                raise ValueError(f"pair {n} of the {what} must be numbers, got {chunk!r}") from None
            if not math.isfinite(x) or abs(x) > COORD_LIMIT:
                raise ValueError(
                    f"pair {n} of the {what} must have coordinates from "
                    f"-{COORD_LIMIT:g} to {COORD_LIMIT:g}, got {chunk!r}"
                )
            pair.append(x)
        pairs.append(pair)
    return pairs


def _pair_checker(what: str):
    def check(text: str) -> None:
        if str(text).strip():
            parse_pairs(text, what)

    return check


def _tokens_text(tokens) -> str:
    return " ".join(tokens)


# --- small helpers --------------------------------------------------------------------


def _mark_label(word: str) -> str:
    """A token as a label on a plane: punctuation is quoted so that a lone "." shows."""
    return word if any(c.isalnum() for c in word) else quote(word)


# Labels are placed by common.place_labels (shared with the lab and the heads).

# --- the figure -----------------------------------------------------------------------


@register
class AttentionRow(ExperimentFigure):
    """One query row on a few tokens with 2-D queries, keys and values."""

    name = "attention-row"
    summary = (
        "One query row of scaled dot-product attention on a short sentence with 2-D "
        "vectors: drag keys, change the temperature, hide the future."
    )
    options = (
        Option(
            "tokens",
            "words",
            TOKENS,
            "The sentence, as words separated by spaces (up to 8). The built-in "
            "vectors fit 'The cat chased the mouse .'; any other sentence needs "
            "queries, keys and values.",
            min=1,
            max=MAX_TOKENS,
        ),
        Option(
            "query",
            "str",
            "chased",
            "The word that asks: a word of the sentence (its first occurrence) or a "
            "0-based position.",
        ),
        Option(
            "temperature",
            "float",
            1.0,
            "T: the scores are divided by T before the softmax. Lower is more decisive; "
            "1 is the standard formula.",
            min=T_MIN,
            max=T_MAX,
        ),
        Option(
            "causal",
            "bool",
            False,
            "Hide the future: every word after the asking word gets weight exactly 0.",
        ),
        Option(
            "queries",
            "str",
            "",
            "Query vectors, one x,y pair a token separated by ';', like '0.5,1; -1,0.2'. "
            "Empty: the built-in ones.",
            check=_pair_checker("queries"),
        ),
        Option(
            "keys",
            "str",
            "",
            "Key vectors, one x,y pair a token separated by ';'. Empty: the built-in ones.",
            check=_pair_checker("keys"),
        ),
        Option(
            "values",
            "str",
            "",
            "Value vectors, one x,y pair a token separated by ';'. Empty: the built-in ones.",
            check=_pair_checker("values"),
        ),
    )

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        tokens = words(values["tokens"])
        n = len(tokens)
        errors: list[OptionError] = []
        builtin = tuple(tokens) == TOKENS
        missing = [name for name in ("queries", "keys", "values") if not str(values[name]).strip()]
        if not builtin and missing:
            listed = " and ".join(
                [", ".join(f":{name}:" for name in missing[:-1]), f":{missing[-1]}:"]
                if len(missing) > 1
                else [f":{missing[0]}:"]
            )
            errors.append(
                OptionError(
                    missing[0],
                    f"the built-in vectors fit only the sentence "
                    f"'{_tokens_text(TOKENS)}'; for '{_tokens_text(tokens)}' add {listed} "
                    f"with {n} x,y pair{'s' if n != 1 else ''} each, like '0.5,1; -1,0.2'",
                )
            )
        for name in ("queries", "keys", "values"):
            text = str(values[name]).strip()
            if text:
                got = len(parse_pairs(text, name))
                if got != n:
                    errors.append(
                        OptionError(
                            name,
                            f"expected {n} x,y pairs, one for each token of "
                            f"'{_tokens_text(tokens)}', got {got}",
                        )
                    )
        try:
            resolve_query(values["query"], tokens)
        except ValueError as err:
            message = str(err)
            if str(values["query"]).strip() == "chased" and "chased" not in tokens:
                message += " ('chased' is the default, which fits only the built-in sentence: add :query:)"
            errors.append(OptionError("query", message))
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise OptionErrors(errors)

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {opt.name: opt.default for opt in self.options}
        opts.update(options)
        tokens = words(opts["tokens"])
        n = len(tokens)

        def vectors(name: str, builtin) -> list[list[float]]:
            text = str(opts[name]).strip()
            if text:
                pairs = parse_pairs(text, name)
            elif tuple(tokens) == TOKENS:
                pairs = [list(p) for p in builtin]
            else:
                raise OptionError(name, f"the sentence '{_tokens_text(tokens)}' needs :{name}:")
            if len(pairs) != n:
                raise OptionError(name, f"expected {n} x,y pairs, got {len(pairs)}")
            return [[float(x), float(y)] for x, y in pairs]

        k = vectors("keys", KEYS)
        query = resolve_query(opts["query"], tokens)
        temperature = float(opts["temperature"])
        causal = bool(opts["causal"])
        state = {
            "tokens": tokens,
            "q": vectors("queries", QUERIES),  # (n, 2)
            "k": k,  # (n, 2)
            "v": vectors("values", VALUES),  # (n, 2)
            "query": query,  # position of the asking token
            "temperature": temperature,
            "causal": causal,
            "selected": query,  # the key that the keyboard moves
            "step": STEP_SOFTMAX,  # the highlighted step of the formula
            "experiment": None,  # name of the experiment last started, if any
            "message": HINT,  # what that experiment says to look for
            "initial": {  # what "reset" returns to
                "k": copy.deepcopy(k),
                "query": query,
                "temperature": temperature,
                "causal": causal,
            },
        }
        return state

    # --- events -----------------------------------------------------------------------

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        n = len(state["tokens"])
        if name == "temperature":
            state["temperature"] = ranged(value, name, T_MIN, T_MAX)
            state["step"] = STEP_TEMPERATURE
        elif name == "causal":
            state["causal"] = parse_bool(value, name)
            state["step"] = STEP_MASK
        elif name == "query":
            state["query"] = query_field(value, state["tokens"])
            state["step"] = STEP_MATCH
        elif name == "selected":
            state["selected"] = whole(value, name, 0, n - 1)
        elif name == "step":
            state["step"] = whole(value, name, 0, len(STEPS) - 1)
        elif name.startswith("key."):
            i, j = _key_cell(name, n)
            what = f"{'xy'[j]} of the key of {quote(state['tokens'][i])}"
            try:
                x = parse_number(value, what)
            except FieldError as err:
                raise FieldError(name, err.message) from None
            if abs(x) > COORD_LIMIT:
                raise FieldError(
                    name,
                    f"{what} must be from -{COORD_LIMIT:g} to {COORD_LIMIT:g}, got {str(value).strip()}",
                )
            state["k"][i][j] = x
            state["selected"] = i
            state["step"] = STEP_MATCH
        else:
            raise FieldError(name, f"attention-row has no control named {name!r}")
        return state

    def on_drag(self, state: dict, mark: str, x: Any, y: Any) -> dict:
        n = len(state["tokens"])
        i = _mark_index(mark, n, ("key",))
        if i is None:
            raise ValueError(f"only keys can be dragged, got mark {mark!r}")
        limit = self._key_extent(state) - EDGE
        point = []
        for name, c in (("x", x), ("y", y)):
            c = parse_number(c, name)
            point.append(round(min(limit, max(-limit, c)), 2))
        state["k"][i] = point
        state["selected"] = i
        state["step"] = STEP_MATCH
        return state

    def on_select(self, state: dict, mark: str) -> dict:
        i = _mark_index(mark, len(state["tokens"]), ("score", "bar", "value", "key", "weight", "t"))
        if i is None:
            raise ValueError(f"attention-row cannot select the mark {mark!r}")
        state["query"] = i
        state["step"] = STEP_MATCH
        return state

    def on_action(self, state: dict, name: str) -> dict:
        started = experiment_action(state, name, EXPERIMENTS, self._reset)
        if started is not None:
            return started
        names = ", ".join(e.name for e in EXPERIMENTS)
        raise ValueError(f"attention-row has no action {name!r} (known: reset, {names})")

    @staticmethod
    def _reset(state: dict) -> dict:
        initial = state["initial"]
        state["k"] = copy.deepcopy(initial["k"])
        state["query"] = initial["query"]
        state["temperature"] = initial["temperature"]
        state["causal"] = initial["causal"]
        state["selected"] = initial["query"]
        state["step"] = STEP_SOFTMAX
        state["experiment"] = None
        return state

    # --- maths (all of it from engine) ------------------------------------------------

    @staticmethod
    def row(state: dict):
        """The engine's result for the asking token's row."""
        i = state["query"]
        return attention_row(
            state["q"][i],
            state["k"],
            state["v"],
            index=i,
            temperature=state["temperature"],
            causal=state["causal"],
        )

    @staticmethod
    def _key_extent(state: dict) -> float:
        return extent(state["k"] + [state["q"][state["query"]]], KEY_PLANE)

    # --- scene ------------------------------------------------------------------------

    def scene(self, state: dict[str, Any]) -> dict[str, Any]:
        tokens = state["tokens"]
        n = len(tokens)
        i = state["query"]
        asker = tokens[i]
        r = self.row(state)
        hidden = [state["causal"] and j > i for j in range(n)]
        best = max(range(n), key=lambda j: r.weights[j])
        d = len(state["q"][i])
        panels = [
            self._steps_panel(state, r, best),
            self._keys_panel(state, r, hidden),
            self._values_panel(state, r, hidden),
            self._scores_panel(state, r, hidden),
            self._weights_panel(state, r, hidden, best),
            self._readout_panel(state, r, hidden, best),
            self._arithmetic_panel(state, r, best),
            self._stats_panel(state, r, best, d),
        ]
        return {
            "title": "Attention explorer: one query row",
            "status": (
                f"{quote(asker)} asks; every word it reads gets the same weight ({pct(r.weights[best])})"
                if _tied(r.weights, hidden)
                else f"{quote(asker)} asks; best match: {quote(tokens[best])} ({pct(r.weights[best])})"
            ),
            "panels": panels,
            "controls": self._controls(state),
            "values": {
                "tokens": list(tokens),
                "query": i,
                "scores": list(r.scores),
                "weights": list(r.weights),
                "output": list(r.output),
                "entropy": r.entropy,
                "temperature": state["temperature"],
                "causal": state["causal"],
                "keys": [list(p) for p in state["k"]],
            },
        }

    def _steps_panel(self, state: dict, r, best: int) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        t = r.trace[best]
        word = tokens[best]
        details = [
            f"{tokens[i]}·{word}: {num(t.dot, 3)}",
            f"{num(t.dot, 3)} ÷ √{len(state['q'][i])} = {num(t.scaled, 3)}",
            f"{num(t.scaled, 3)} ÷ {num(state['temperature'])} = {num(t.tempered, 3)}",
            _mask_note(state),
            f"{word} gets {num(r.weights[best], 3)} of the weight",
            f"new vector {vec(r.output)}",
        ]
        steps = [
            {"label": label, "note": note, "detail": detail}
            for (label, note), detail in zip(STEPS, details)
        ]
        return {
            "kind": "steps",
            "id": "formula",
            "title": "The formula, step by step",
            "formula": "a = softmax(q·k / (√d · T)),   new vector = Σ aᵢ vᵢ",
            "steps": steps,
            "active": state["step"],
        }

    def _keys_panel(self, state: dict, r, hidden: list[bool]) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        q = state["q"][i]
        half = self._key_extent(state)
        marks: list[dict] = []
        q_len = math.hypot(q[0], q[1])
        if q_len > 0:
            # the query's direction across the whole plane: each key's reach lands on it
            s = half / max(abs(q[0]), abs(q[1]))
            marks.append(
                {
                    "kind": "line",
                    "points": [[-s * q[0], -s * q[1]], [s * q[0], s * q[1]]],
                    "role": "grid",
                    "dashed": True,
                    "width": 1,
                }
            )
            for j, k in enumerate(state["k"]):
                foot = vector_projection(k, q)
                marks.append(
                    {
                        "kind": "line",
                        "points": [[k[0], k[1]], [foot[0], foot[1]]],
                        "role": "muted" if hidden[j] else "key",
                        "dotted": True,
                        "link": f"t{j}",
                        "width": 1,
                    }
                )
        marks.append(
            {
                "kind": "arrow",
                "id": "query",
                "x1": 0.0,
                "y1": 0.0,
                "x2": q[0],
                "y2": q[1],
                "role": "query",
                "link": f"t{i}",
                "width": 3,
            }
        )
        for j, k in enumerate(state["k"]):
            own = j == i
            note = "hidden by the mask, " if hidden[j] else ""
            marks.append(
                {
                    "kind": "point",
                    "id": f"key-{j}",
                    "x": k[0],
                    "y": k[1],
                    "role": "key",
                    "shape": "ring" if own else "circle",
                    "label": _mark_label(tokens[j]),
                    "link": f"t{j}",
                    "draggable": True,
                    "muted": hidden[j],
                    "name": (
                        f"key {j + 1}, {tokens[j]}{' (own key)' if own else ''}, at {vec(k)}: "
                        f"{note}score {num(r.scores[j])}, weight {num(r.weights[j])}"
                    ),
                }
            )
        key_marks = [m for m in marks if m["kind"] == "point"]
        selected = f"key-{state['selected']}"
        layout = LabelLayout(half)
        share_labels(key_marks, layout, "key")
        boxes = [(b, 2.0) for b in layout.axis_names()]
        q_name = f"q ({_mark_label(tokens[i])})"
        segments = [((0.0, 0.0), (q[0], q[1]), 3.0, 3.0)]
        segments += [
            (tuple(m["points"][0]), tuple(m["points"][1]), 1.0, 1.0 if m.get("dotted") else 0.5)
            for m in marks
            if m["kind"] == "line"
        ]
        (spot,) = place_labels(
            layout, key_marks, selected, boxes, segments,
            free=[tip_label_candidates(layout, q, q_name)],
        )
        x, y, align = spot
        marks.append({"kind": "label", "x": x, "y": y, "text": q_name, "role": "query", "align": align})
        legend = [
            {"role": "query", "label": "question (query)", "shape": "line"},
            {"role": "key", "label": "key"},
            {"role": "key", "label": f"own key of {quote(tokens[i])}", "shape": "ring"},
            {"role": "accent", "label": "picked: arrow keys move it", "shape": "ring"},
        ]
        if any(hidden):
            legend.append({"role": "muted", "label": "hidden"})
        return {
            "kind": "plane",
            "id": "keys",
            "title": "Keys, and the question being asked",
            "caption": (
                f"The arrow is the query q of {quote(tokens[i])}. A key's score is how far it "
                "reaches along the arrow's line (to where its dotted line lands), times the "
                "arrow's length |q|, over √d. Drag a key, or focus the plane, press "
                f"{'1' if len(tokens) == 1 else f'1-{len(tokens)}'} and use the arrow keys."
            ),
            "x": [-half, half],
            "y": [-half, half],
            "square": True,
            "grid": 1.0,
            "axes": ["x1", "x2"],
            "keyboard": {"step": STEP, "big": BIG_STEP},
            "selected": selected,
            "legend": legend,
            "marks": marks,
        }

    def _values_panel(self, state: dict, r, hidden: list[bool]) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        v = state["v"]
        half = extent(v, VALUE_PLANE)
        marks: list[dict] = []
        hull = convex_hull([tuple(p) for p in v])
        if len(hull) >= 3:
            marks.append({"kind": "polygon", "points": [[p[0], p[1]] for p in hull], "role": "hull"})
        elif len(hull) == 2:
            marks.append(
                {"kind": "line", "points": [[p[0], p[1]] for p in hull], "role": "hull", "width": 3}
            )
        for j, p in enumerate(v):
            own = j == i
            marks.append(
                {
                    "kind": "point",
                    "id": f"value-{j}",
                    "x": p[0],
                    "y": p[1],
                    "role": "value",
                    "shape": "ring" if own else "circle",
                    "label": _mark_label(tokens[j]),
                    "link": f"t{j}",
                    "select": True,
                    "muted": hidden[j],
                    "name": (
                        f"value of {tokens[j]} at {vec(p)}, weight {num(r.weights[j])}; "
                        "select to make it ask"
                    ),
                }
            )
        o = r.output
        if math.hypot(o[0] - v[i][0], o[1] - v[i][1]) > 1e-9:
            marks.append(
                {
                    "kind": "arrow",
                    "id": "moved",
                    "x1": v[i][0],
                    "y1": v[i][1],
                    "x2": o[0],
                    "y2": o[1],
                    "role": "output",
                    "dashed": True,
                    "link": f"t{i}",
                }
            )
        marks.append(
            {
                "kind": "point",
                "id": "output",
                "x": o[0],
                "y": o[1],
                "role": "output",
                "shape": "diamond",
                "size": 7,
                "label": f"new {_mark_label(tokens[i])}",
                "link": f"t{i}",
                "name": f"new vector of {tokens[i]} at {vec(o)}",
            }
        )
        points = [m for m in marks if m["kind"] == "point"]
        layout = LabelLayout(half)
        share_labels(points[:-1], layout, "value")  # the values; the new vector keeps its own
        segments = [
            ((m["x1"], m["y1"]), (m["x2"], m["y2"]), 2.5, 3.0)
            for m in marks
            if m["kind"] == "arrow"
        ]
        place_labels(layout, points, None, [(b, 2.0) for b in layout.axis_names()], segments)
        legend = [
            {"role": "value", "label": "value"},
            {"role": "value", "label": f"own value of {quote(tokens[i])}", "shape": "ring"},
            {"role": "output", "label": "new vector", "shape": "diamond"},
        ]
        if len(hull) >= 2:
            legend.append({"role": "hull", "label": "where a blend can land", "shape": "square"})
            where = (
                "so it stays inside the shaded hull; the dashed arrow shows how far "
                f"{quote(tokens[i])} moved from its own value."
            )
        else:  # one value (or all equal): a blend of it is itself
            where = "so with one value to blend it sits on that value."
        return {
            "kind": "plane",
            "id": "values",
            "title": "Values, and the new vector",
            "caption": (
                "The diamond is the weights applied to the values. The weights are never "
                f"negative and add up to 1, {where}"
            ),
            "x": [-half, half],
            "y": [-half, half],
            "square": True,
            "grid": 1.0,
            "axes": ["x1", "x2"],
            "legend": legend,
            "marks": marks,
        }

    def _scores_panel(self, state: dict, r, hidden: list[bool]) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        biggest = max((abs(s) for s in r.scores), default=0.0)
        cells = []
        for j, t in enumerate(r.trace):
            tone = r.scores[j] / biggest if biggest > 0 else 0.0
            k = state["k"][j]
            q = state["q"][i]
            reach = scalar_projection(k, q) if any(q) else 0.0
            detail = [
                f"key of {tokens[j]}: {vec(k)}, reach along the arrow {num(reach)}",
                f"q·k = {' + '.join(f'{num(a)}×{num(b)}' for a, b in zip(q, k))} = {num(t.dot, 3)}",
                f"÷ √{len(q)} = {num(t.scaled, 3)}",
                f"÷ T = {num(t.tempered, 3)}",
                "hidden by the mask: weight exactly 0" if hidden[j] else f"weight {num(r.weights[j], 3)}",
            ]
            cells.append(
                {
                    "text": num(r.scores[j]),
                    "tone": max(-1.0, min(1.0, tone)),
                    "link": f"t{j}",
                    "id": f"score-{j}",
                    "select": True,
                    "active": j == i,
                    "muted": hidden[j],
                    "title": (
                        f"{tokens[j]}: score {num(r.scores[j])}"
                        + ("; hidden by the mask" if hidden[j] else "")
                        + "; click to make it ask"
                    ),
                    "detail": detail,
                }
            )
        return {
            "kind": "cells",
            "id": "scores",
            "title": "Match scores q·k / √d · click a word to make it ask",
            "col_labels": [{"text": w, "link": f"t{j}"} for j, w in enumerate(tokens)],
            "row_labels": [{"text": tokens[i], "link": f"t{i}"}],
            "rows": [cells],
        }

    def _weights_panel(self, state: dict, r, hidden: list[bool], best: int) -> dict:
        tokens = state["tokens"]
        bars = []
        for j, w in enumerate(r.weights):
            bar = {
                "label": tokens[j],
                "value": w,
                "text": num(w),
                "link": f"t{j}",
                "active": j == state["query"],
                "muted": hidden[j],
                "select": True,
                "id": f"bar-{j}",
            }
            if j == best:
                bar["role"] = "accent"
            bars.append(bar)
        return {
            "kind": "bars",
            "id": "weights",
            "title": "Weights · shares of 1 · click a word to make it ask",
            "max": 1.0,
            "bars": bars,
            "footer": f"Σ a = {num(sum(r.weights))}",
        }

    def _readout_panel(self, state: dict, r, hidden: list[bool], best: int) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        n = len(tokens)
        order = sorted((j for j in range(n) if not hidden[j]), key=lambda j: -r.weights[j])
        asks = f"{quote(tokens[i])} asks its question."
        if len(order) == 1:
            why = "It is the only word" if n == 1 else "With the future hidden it can read only itself"
            first = (
                f"{asks} {why}, so it keeps all of the weight and its new vector is its own "
                f"value, {vec(r.output)}."
            )
        elif _tied(r.weights, hidden):
            every = "every word" if len(order) == n else f"each of the {len(order)} words it can read"
            first = (
                f"{asks} No word matches better than another: {every} gets the same share, "
                f"1/{len(order)} = {pct(r.weights[best])}."
            )
        else:
            second = order[1]
            first = (
                f"{asks} The best match is {quote(tokens[best])}, with {pct(r.weights[best])} of "
                f"the weight; next comes {quote(tokens[second])} with {pct(r.weights[second])}."
            )
        visible = len(order)
        spread = (
            f"An even split would give each of the {visible} visible words "
            f"{pct(1 / visible)}."
            if visible > 1
            else ""
        )
        moved = math.hypot(r.output[0] - state["v"][i][0], r.output[1] - state["v"][i][1])
        after = (
            f"Its new vector is {vec(r.output)}, {num(moved)} away from its own value "
            f"{vec(state['v'][i])}, pulled towards the words with the biggest shares."
        )
        paragraphs = [first]
        if spread:
            paragraphs.append(spread)
        if len(order) > 1:
            paragraphs.append(after)
        hidden_words = [tokens[j] for j in range(n) if hidden[j]]
        if hidden_words:
            paragraphs.append(
                f"Hidden by the mask, with weight exactly 0: {', '.join(map(quote, hidden_words))}."
            )
        return {"kind": "text", "id": "readout", "title": "In plain words", "paragraphs": paragraphs}

    def _arithmetic_panel(self, state: dict, r, best: int) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        q = state["q"][i]
        k = state["k"][best]
        v = state["v"][best]
        t = r.trace[best]
        lines = [
            f"asking: {tokens[i]}   q = {vec(q)}",
            f"best match: {tokens[best]}   k = {vec(k)}   v = {vec(v)}",
            f"1. q·k = {' + '.join(f'{num(a)}×{num(b)}' for a, b in zip(q, k))} = {num(t.dot, 4)}",
            f"2. ÷ √d = {num(t.dot, 4)} ÷ {num(r.trace.sqrt_d_k, 4)} = {num(t.scaled, 4)}",
            f"3. ÷ T = {num(t.scaled, 4)} ÷ {num(state['temperature'])} = {num(t.tempered, 4)}",
            f"4. mask: {'hidden' if t.masked else 'visible'}",
            f"5. softmax: exp({num(t.tempered, 4)} − {num(r.trace.max_tempered, 4)}) "
            f"= {num(t.exp, 4)}; ÷ {num(r.trace.exp_sum, 4)} (the sum over visible words) "
            f"= {num(t.weight, 4)}",
            f"6. a·v = {num(t.weight, 4)} × {vec(v)} = {vec(t.weighted_value, 4)}",
            "   Σ aᵢvᵢ = "
            + " + ".join(vec(step.weighted_value, 3) for step in r.trace if not step.masked)
            + f" = {vec(r.output, 4)}",
        ]
        return {
            "kind": "text",
            "id": "arithmetic",
            "collapsible": "Show the arithmetic for the best match",
            "mono": True,
            "paragraphs": lines,
        }

    def _stats_panel(self, state: dict, r, best: int, d: int) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        hidden = [state["causal"] and j > i for j in range(len(tokens))]
        return {
            "kind": "text",
            "id": "stats",
            "paragraphs": [],
            "items": [
                ["d", str(d)],
                ["Temperature", num(state["temperature"])],
                ["Top weight", f"{num(r.weights[best])} ({'a tie' if _tied(r.weights, hidden) else tokens[best]})"],
                ["Σ weights", num(sum(r.weights))],
                ["New vector", vec(r.output)],
                ["Entropy", f"{num(r.entropy)} nats"],
            ],
        }

    def _controls(self, state: dict) -> list[dict]:
        tokens = state["tokens"]
        return [
            {
                "kind": "select",
                "name": "query",
                "label": "Asking word",
                "near": "scores",
                "value": state["query"],
                "options": [{"value": j, "label": f"{j}: {w}"} for j, w in enumerate(tokens)],  # as the lab counts
            },
            {
                "kind": "slider",
                "name": "temperature",
                "label": "Temperature T",
                "near": "weights",
                "help": "Lower is more decisive; higher evens the weights out. T = 1 is the standard formula.",
                "min": T_MIN,
                "max": T_MAX,
                "step": 0.01,
                "value": state["temperature"],
                "digits": 2,
                "log": True,
            },
            {
                "kind": "toggle",
                "name": "causal",
                "label": "Hide the future",
                "near": "weights",
                "help": "Words after the asking word stay on the plane but get weight exactly 0.",
                "value": state["causal"],
            },
            {**experiment_buttons(state, EXPERIMENTS, self._reset), "near": "formula"},
            {
                "kind": "grid",
                "name": "keys",
                "near": "keys",
                "label": "Key coordinates (type exact values)",
                "col_labels": ["x", "y"],
                "rows": [
                    {
                        "label": w,
                        "link": f"t{j}",
                        "cells": [
                            {"name": f"key.{j}.{c}", "value": field_text(state["k"][j][c])}
                            for c in range(2)
                        ],
                    }
                    for j, w in enumerate(tokens)
                ],
            },
        ]


# --- event helpers ----------------------------------------------------------------------


def _key_cell(name: str, n: int) -> tuple[int, int]:
    parts = name.split(".")
    if len(parts) == 3 and parts[1].isdigit() and parts[2] in ("0", "1"):
        i = int(parts[1])
        if i < n:
            return i, int(parts[2])
    raise FieldError(name, f"attention-row has no control named {name!r}")


def _mark_index(mark: str, n: int, prefixes: tuple[str, ...]) -> int | None:
    prefix, _, tail = mark.rpartition("-")
    if prefix in prefixes and tail.isdigit() and int(tail) < n:
        return int(tail)
    return None


def _tied(weights, hidden: list[bool]) -> bool:
    """Every word the asker reads (two or more) gets the same weight, to 1e-9: no best match."""
    seen = [w for w, h in zip(weights, hidden) if not h]
    return len(seen) > 1 and max(seen) - min(seen) <= 1e-9


def _mask_note(state: dict) -> str:
    """The mask step in words: how many later words it hides."""
    if not state["causal"]:
        return "mask off: every word is visible"
    hidden = len(state["tokens"]) - 1 - state["query"]
    if hidden == 0:
        return "mask on: no word comes later, nothing hidden"
    return f"mask on: {hidden} later word{'s get' if hidden != 1 else ' gets'} weight 0"


# --- experiments ("Try this") -------------------------------------------------------------
#
# Each experiment starts from the first settings (as "reset" does), sets the controls,
# and writes a message whose numbers are computed by the engine for the state it made.


def _row(state: dict, **changes):
    """The asking row for ``state`` with some fields changed (the state is not touched)."""
    trial = dict(state)
    trial.update(changes)
    return AttentionRow.row(trial)


def _readable(state: dict) -> list[int]:
    """The words the asking word may read: all of them, or with the future hidden itself
    and the words before it (the engine's mask)."""
    return [j for j, seen in enumerate(AttentionRow.row(state).mask) if seen]


def _chooses(state: dict) -> bool:
    """The asking word reads two words or more, so its weights are a choice to watch."""
    return len(_readable(state)) >= 2


def _two_words(state: dict) -> bool:
    return len(state["tokens"]) >= 2


def _some(m: int, n: int) -> str:
    """" of the m words it can read" when the mask hides some of the n words, else ""."""
    return f" of the {m} words it can read" if m < n else ""


CHOICE = "an asking word that can read two words or more"
SHARP_T = 0.1  # the "lower T" experiment's temperature
FLAT_T = 5.0  # the "raise T" experiment's temperature
SAME_KEY = [1.0, 0.5]  # the key every token gets in "make every key the same"
DETERMINERS = ("the", "a", "an")


def _sharpen(state: dict) -> None:
    state["temperature"] = SHARP_T
    state["step"] = STEP_TEMPERATURE


def _sharpen_message(state: dict) -> str:
    tokens = state["tokens"]
    r = AttentionRow.row(state)
    order = sorted(_readable(state), key=lambda j: -r.weights[j])
    j = order[0]
    before = _row(state, temperature=1.0).weights[j]
    text = (
        f"At T = {SHARP_T:g} the weight piles onto the strongest match: {quote(tokens[j])} "
        f"takes {pct(r.weights[j])} (it had {pct(before)} at T = 1)"
    )
    second = order[1]
    if len(order) == 2:
        text += f", and {quote(tokens[second])} is left with {_share(r.weights[second])}"
    elif len(order) == 3:
        text += (
            f", {quote(tokens[second])} gets {pct(r.weights[second])}, and "
            f"{quote(tokens[order[2]])} {_share(r.weights[order[2]])}"
        )
    else:
        rest = math.fsum(r.weights[m] for m in order[2:])
        text += (
            f", {quote(tokens[second])} gets {pct(r.weights[second])}, and the other "
            f"{len(order) - 2} words share {_share(rest)}"
        )
    return text + (
        ". Dividing by a small T stretches the gaps between the scores; the smaller T, the "
        "closer the blend comes to a lookup of the single best value."
    )


def _share(w: float) -> str:
    """A small total weight in words: a percentage, or "less than 0.1%"."""
    return "less than 0.1%" if 0 < w < 0.001 else pct(w)


def _flatten(state: dict) -> None:
    state["temperature"] = FLAT_T
    state["step"] = STEP_TEMPERATURE


def _flatten_message(state: dict) -> str:
    r = AttentionRow.row(state)
    keys = _readable(state)
    weights = [r.weights[j] for j in keys]
    m = len(keys)
    return (
        f"At T = {FLAT_T:g} the weights{_some(m, len(state['tokens']))} only run from "
        f"{pct(min(weights))} to {pct(max(weights))}, close to an even {pct(1 / m)} each. The "
        f"scores have not changed; dividing them by a large T squeezes their gaps, and the "
        f"diamond drifts towards the plain average of the values it reads."
    )


def _hide_future(state: dict) -> None:
    state["causal"] = True
    state["step"] = STEP_MASK


def _hide_future_message(state: dict) -> str:
    tokens = state["tokens"]
    i = state["query"]
    r = AttentionRow.row(state)
    later = tokens[i + 1 :]
    if not later:
        return (
            f"{quote(tokens[i])} is the last word, so nothing comes after it and the mask hides "
            f"nothing: pick an earlier word to see it bite."
        )
    before = _row(state, causal=False).weights
    hidden = (
        f"{', '.join(map(quote, later))} keep{'s its dot' if len(later) == 1 else ' their dots'} "
        f"on the plane but get{'s' if len(later) == 1 else ''} weight exactly 0, whatever "
        f"{'its key says' if len(later) == 1 else 'their keys say'}."
    )
    if i == 0:
        return (
            f"{quote(tokens[0])} is the first word, so with the future hidden it reads only "
            f"itself: it takes all of the weight (it had {pct(before[0])} with the mask off) and "
            f"its new vector is its own value, {vec(r.output)}. {hidden}"
        )
    j = best(r.weights)
    was, now = pct(before[j]), pct(r.weights[j])
    change = f"rises from {was} to {now}" if was != now else f"keeps {now}: it had nearly all of it already"
    return (
        f"{quote(tokens[i])} may now read only itself and the words before it. {hidden} The "
        f"shares left still add up to 1: {quote(tokens[j])} {change}."
    )


def _same_keys(state: dict) -> None:
    state["k"] = [list(SAME_KEY) for _ in state["k"]]
    state["step"] = STEP_SOFTMAX


def _same_keys_message(state: dict) -> str:
    r = AttentionRow.row(state)
    n = len(state["tokens"])
    keys = _readable(state)
    m = len(keys)
    text = (
        f"Every key is now {vec(SAME_KEY)}, so every word scores the same "
        f"({num(r.scores[0])}) and each{_some(m, n)} gets 1/{m} = {pct(r.weights[keys[0]])}. "
    )
    if m == n:
        return text + (
            f"The new vector is the plain average of the values, {vec(r.output)}, whichever "
            f"word asks and whatever the temperature."
        )
    return text + (
        f"The new vector is the plain average of those {m} values, {vec(r.output)}, whatever "
        f"the temperature; a later word would average more of them."
    )


def _shortest_query(state: dict) -> int:
    return min(range(len(state["q"])), key=lambda j: math.hypot(*state["q"][j]))


def _short_query(state: dict) -> None:
    state["query"] = _shortest_query(state)
    state["selected"] = state["query"]
    state["step"] = STEP_MATCH


def _short_query_chooses(state: dict) -> bool:
    return _chooses(dict(state, query=_shortest_query(state)))


def _short_query_message(state: dict) -> str:
    tokens = state["tokens"]
    i = state["query"]
    r = AttentionRow.row(state)
    keys = _readable(state)
    scores = [r.scores[j] for j in keys]
    weights = [r.weights[j] for j in keys]
    length = math.hypot(*state["q"][i])
    return (
        f"The query of {quote(tokens[i])} is short (length {num(length)}), so every score"
        f"{_some(len(keys), len(tokens))} stays near 0, from {num(min(scores))} to "
        f"{num(max(scores))}, and the weights only run from {pct(min(weights))} to "
        f"{pct(max(weights))}. A faint question hardly prefers anyone; a long query acts like a "
        f"low temperature."
    )


def _determiner(state: dict) -> int:
    """The key to pull, among those the asking word can read: the last determiner that is
    not asking, else the weakest key."""
    tokens = state["tokens"]
    i = state["query"]
    others = [j for j in _readable(state) if j != i]
    for j in reversed(others):
        if tokens[j].lower() in DETERMINERS:
            return j
    weights = AttentionRow.row(state).weights
    return min(others, key=lambda j: weights[j])


def _can_pull(state: dict) -> bool:
    return _chooses(state) and any(state["q"][state["query"]])


def _pull_key(state: dict) -> None:
    """Lay the determiner's key along the question, as long as the best key."""
    j = _determiner(state)
    direction = unit(state["q"][state["query"]])
    top = best(AttentionRow.row(state).weights)
    length = max(math.hypot(*state["k"][top]), 1.0)
    state["k"][j] = [round(c * length, 2) for c in direction]
    state["selected"] = j
    state["step"] = STEP_MATCH


def _pull_key_message(state: dict) -> str:
    tokens = state["tokens"]
    i = state["query"]
    j = state["selected"]
    r = AttentionRow.row(state)
    before, after = _row(state, k=state["initial"]["k"]).weights[j], r.weights[j]
    rank = "the best match" if best(r.weights) == j else "a strong match"
    if pct(before) == pct(after):
        change = f"its weight stays at {pct(after)}, {rank}"
    elif after > before:
        change = (f"its weight rises from {pct(before)} to {pct(after)}, "
                  f"{'now the best match' if rank == 'the best match' else 'a strong match now'}, "
                  f"and every other share shrinks to make room")
    else:  # its key reached further along the question before
        change = f"its weight falls from {pct(before)} to {pct(after)}, still {rank}"
    return (
        f"The key of {quote(tokens[j])} now points straight along the question of "
        f"{quote(tokens[i])}: {change}. Drag it back slowly and watch its score follow how "
        f"far it reaches along the arrow."
    )


def _first_word(state: dict) -> None:
    state["query"] = 0
    state["selected"] = 0
    state["causal"] = True
    state["step"] = STEP_MASK


def _first_word_message(state: dict) -> str:
    tokens = state["tokens"]
    r = AttentionRow.row(state)
    return (
        f"With the future hidden, {quote(tokens[0])} can read only itself: it gets "
        f"{pct(r.weights[0])} of the weight and its new vector is its own value, "
        f"{vec(r.output)}. Every other word is greyed out with weight exactly 0."
    )


def _double_keys(state: dict) -> None:
    state["k"] = [[2 * c for c in k] for k in state["k"]]
    state["step"] = STEP_MATCH


def _double_keys_message(state: dict) -> str:
    tokens = state["tokens"]
    T = state["temperature"]
    r = AttentionRow.row(state)
    j = best(r.weights)
    same = _row(state, k=state["initial"]["k"], temperature=T / 2).weights[j]
    return (
        f"Every key is twice as long, so every score doubles. {quote(tokens[j])} now takes "
        f"{num(r.weights[j], 3)} of the weight at T = {T:g}, and the original keys at "
        f"T = {T / 2:g} give it the same {num(same, 3)}: longer keys and a lower temperature "
        f"are one move."
    )


EXPERIMENTS = (
    Experiment(
        "sharpen",
        f"Lower T to {SHARP_T:g}",
        "A small temperature makes the choice decisive",
        _sharpen,
        _sharpen_message,
        applies=_chooses,
        needs=CHOICE,
    ),
    Experiment(
        "flatten",
        f"Raise T to {FLAT_T:g}",
        "A large temperature evens the weights out",
        _flatten,
        _flatten_message,
        applies=_chooses,
        needs=CHOICE,
    ),
    Experiment(
        "hide-future",
        "Hide the future",
        "The causal mask, for the word that asked first",
        _hide_future,
        _hide_future_message,
        applies=_two_words,
        needs="a sentence of two words or more",
    ),
    Experiment(
        "same-keys",
        "Make every key the same",
        "Identical keys give identical scores",
        _same_keys,
        _same_keys_message,
        applies=_chooses,
        needs=CHOICE,
    ),
    Experiment(
        "short-query",
        "Ask with the shortest query",
        "A short query is a faint question",
        _short_query,
        _short_query_message,
        applies=_short_query_chooses,
        needs="a word with the shortest query that can read two words or more",
    ),
    Experiment(
        "pull-key",
        "Pull a determiner's key to the question",
        "Lay one key along the query's arrow",
        _pull_key,
        _pull_key_message,
        applies=_can_pull,
        needs=CHOICE + ", with a query that is not zero",
    ),
    Experiment(
        "first-word",
        "First word, future hidden",
        "With the mask on, the first word sees only itself",
        _first_word,
        _first_word_message,
        applies=_two_words,
        needs="a sentence of two words or more",
    ),
    Experiment(
        "double-keys",
        "Double every key",
        "Longer keys act like a lower temperature",
        _double_keys,
        _double_keys_message,
        applies=_chooses,
        needs=CHOICE,
    ),
)
