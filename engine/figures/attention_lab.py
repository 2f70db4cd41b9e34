"""The ``attention-lab`` figure: one head of self-attention on a short sentence, built
from word embeddings in five steps.

For the tokens w_0 .. w_{T-1} of a sentence, with 2-D embeddings e(w) and the lessons'
2-D position code p_t = (sin 0.6t, cos 0.6t) (``engine.embed_with_position``)::

    x_t  = e(w_t) + s p_t                         1. embed
    q_t  = x_t W_Q,  k_t = x_t W_K,  v_t = x_t W_V  2. project (row vectors)
    s_ij = q_i . k_j / sqrt(2)                    3. score
    a_ij = softmax_j(s_ij / T)  (masked: a_ij = 0) 4. softmax, with a temperature T
    o_i  = sum_j a_ij v_j                         5. mix

This is ``softmax(Q K^T / sqrt(d_k)) V`` of Vaswani et al. (2017), "Attention Is All
You Need", for every token at once, with the projections W_Q, W_K, W_V made editable
2 x 2 matrices. Every number comes from ``engine``; this module holds the sentence
presets and their hand-placed embeddings, turns reader events into new states, and
describes the result as a scene (see SCENE.md).

The embeddings are one per *word*, not per token: the two tokens of "the" in "the cat
sat on the mat" share one point, so with s = 0 and no mask they get equal rows. The
first axis of the plane loosely means "a thing" (nouns sit far along it), the second
"an event or a description" (verbs and adjectives sit high on it); the heads figure
reads one axis per head.
"""
from __future__ import annotations

import copy
import difflib
import math
from dataclasses import dataclass
from typing import Any

from ..attention import self_attention
from ..geometry import convex_hull, vector_projection
from ..positional import OMEGA, embed_with_position, position_code
from . import register
from .base import FieldError, Option, OptionError, parse_number
from .common import (
    ExperimentFigure,
    HINT, Experiment, LabelLayout, matrix_name, best, clear_experiment, experiment_action, experiment_buttons, extent, field_text,
    num, parse_bool, place_labels, point_label_candidates, query_field, radius_px, quote, ranged, resolve_query, share_labels, tip_label_candidates, vec,
)

# --- sentence presets and the word embeddings ----------------------------------------


@dataclass(frozen=True)
class Sentence:
    """One sentence preset of the select control."""

    key: str  # option value and select value, e.g. "repeat"
    text: str  # the tokens, separated by spaces (at most MAX_TOKENS)
    about: str  # what the sentence is there to show, for the select's help line
    query: int  # the token that asks when the sentence is picked


SENTENCES = (
    Sentence("repeat", "the cat sat on the mat", "a word that appears twice", 4),
    Sentence("pronoun", "the cat ate because it was hungry", "a pronoun and the noun it stands for", 4),
    Sentence("river", "we sat on the river bank", "“bank” beside a river", 5),
    Sentence("money", "she put money in the bank", "“bank” beside money", 5),
    Sentence("both", "she put the money in the river bank", "“bank” beside both money and a river", 7),
)
SENTENCE_KEYS = tuple(s.key for s in SENTENCES)

VOCAB = {  # word -> its 2-D embedding e(word): (thing, event or description)
    "the": (0.3, -0.9),
    "cat": (2.0, 0.4),
    "sat": (0.2, 1.8),
    "on": (-0.6, -0.2),
    "mat": (1.6, -0.6),
    "ate": (0.5, 2.0),
    "because": (-0.8, 0.3),
    "it": (1.2, 0.2),  # a pronoun sits close to the nouns it can stand for
    "was": (-0.3, 1.2),
    "hungry": (0.9, 1.0),
    "we": (0.8, 0.6),
    "river": (1.4, 1.4),
    "bank": (1.3, 0.3),  # between the river and the money
    "she": (0.9, 0.5),
    "put": (0.1, 1.5),
    "money": (1.9, -0.6),
    "in": (-0.7, -0.4),
}

MATRIX_PRESETS = (  # (name, label, matrix, what it does to a row vector x -> x W)
    ("I", "I", ((1.0, 0.0), (0.0, 1.0)), "keeps every vector as it is"),
    ("2I", "2I", ((2.0, 0.0), (0.0, 2.0)), "doubles every vector"),
    ("0", "0", ((0.0, 0.0), (0.0, 0.0)), "sends every vector to zero"),
    ("swap", "swap", ((0.0, 1.0), (1.0, 0.0)), "swaps the two coordinates"),
    ("rotate", "rotate", ((0.0, 1.0), (-1.0, 0.0)), "turns every vector by 90° anticlockwise"),
    ("axis1", "axis 1", ((1.0, 0.0), (0.0, 0.0)), "keeps the first coordinate only"),
)
MATRICES = ("W_Q", "W_K", "W_V")
MATRIX_TITLES = {"W_Q": "Wq (query matrix)", "W_K": "Wk (key matrix)", "W_V": "Wv (value matrix)"}

MAX_TOKENS = 8
WORD_LIMIT = 2.9  # a dragged embedding stays within [-2.9, 2.9], inside the plane
EMBED_PLANE = 3.0  # half-width of the embedding plane while every point fits
PLANE = 2.5  # smallest half-width of the query/key and value planes
MATRIX_LIMIT = 5.0  # typed matrix entries must lie in [-5, 5]
T_MIN, T_MAX = 0.05, 5.0  # the temperature slider's range
S_MAX = 2.0  # the position strength slider runs from 0 to S_MAX
STEP, BIG_STEP = 0.1, 0.5  # keyboard steps on the embedding plane
TABLES = ("weights", "scores")

STEPS = (  # (label, note): the five steps
    ("embed", "x = e(word) + α·p"),
    ("project", "q = xWq, k = xWk, v = xWv"),
    ("score", "s = q·k / √2"),
    ("softmax", "a = softmax(s / τ)"),
    ("mix", "o = Σ a v"),
)
STEP_EMBED, STEP_PROJECT, STEP_SCORE, STEP_SOFTMAX, STEP_MIX = range(5)

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sentence(key: str) -> Sentence:
    for s in SENTENCES:
        if s.key == key:
            return s
    raise ValueError(f"expected one of {', '.join(SENTENCE_KEYS)}, got {key!r}")


def sentence_field(value: Any, name: str = "sentence") -> Sentence:
    """The preset a sentence control picked; FieldError naming the control otherwise."""
    key = str(value).strip()
    if key not in SENTENCE_KEYS:
        raise FieldError(name, f"sentence must be one of {', '.join(SENTENCE_KEYS)}, got {key!r}")
    return sentence(key)


def check_query_option(values: dict[str, Any]) -> None:
    """An author's :query: must name a token of the :sentence: preset (empty: its own)."""
    tokens = sentence(values["sentence"]).text.split()
    if str(values["query"]).strip():
        try:
            resolve_query(values["query"], tokens)
        except ValueError as err:
            raise OptionError("query", str(err)) from None


def default_embeddings() -> dict[str, list[float]]:
    """A fresh copy of the word embeddings, as the state keeps them."""
    return {w: [float(x), float(y)] for w, (x, y) in VOCAB.items()}


def preset_matrix(name: str) -> list[list[float]]:
    for key, _, matrix, _ in MATRIX_PRESETS:
        if key == name:
            return [list(row) for row in matrix]
    raise ValueError(f"no matrix preset {name!r}")


def preset_of(matrix) -> str | None:
    """The name of the preset equal to ``matrix``, if there is one."""
    for key, _, m, _ in MATRIX_PRESETS:
        if [list(r) for r in m] == [list(map(float, r)) for r in matrix]:
            return key
    return None


def parse_matrix(text: str) -> list[list[float]]:
    """A 2 x 2 matrix from a preset name ("I", "2I", "swap", ...) or "a,b; c,d" (rows)."""
    raw = str(text).strip()
    names = [key for key, *_ in MATRIX_PRESETS]
    expected = (
        f"expected a preset ({', '.join(names)}) or two rows of two numbers like '1,0; 0,1', "
        f"got {raw!r}"
    )
    if raw in names:
        return preset_matrix(raw)
    rows = [r.strip() for r in raw.split(";")]
    if len(rows) != 2:
        close = difflib.get_close_matches(raw, names, n=1)
        raise ValueError(expected + (f" (did you mean {close[0]!r}?)" if close else ""))
    matrix = []
    for row in rows:
        parts = [p.strip().replace("\u2212", "-") for p in row.split(",")]
        if len(parts) != 2:
            raise ValueError(expected)
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            raise ValueError(expected) from None
        if not all(math.isfinite(x) and abs(x) <= MATRIX_LIMIT for x in numbers):
            raise ValueError(
                f"matrix entries must be from -{MATRIX_LIMIT:g} to {MATRIX_LIMIT:g}, got {raw!r}"
            )
        matrix.append(numbers)
    return matrix


LABELS_APART = 60.0  # a label on a label costs three times a label on a point (place_labels)
OWN_RING = 7  # px radius of the asking token's own value: a ring that holds its output's diamond
OUTPUT_DIAMOND = 3.8  # size of the asking token's output diamond (it reaches 1.4 times as far)
EMBED_AXES = ("thing", "event")  # axis names of the embedding plane
QK_AXES = ("k1", "k2")  # of the query and key plane
VALUE_AXES = ("v1", "v2")  # of the value plane

# --- labels and plane layout (numbers for people: common.num, common.vec) -------------


def sub(t: int) -> str:
    return str(t).translate(SUBSCRIPTS)


def grid_step(half_width: float) -> float:
    """Grid spacing that keeps about 4 to 12 lines across a plane."""
    for step in (1.0, 2.0, 5.0, 10.0, 20.0):
        if half_width / step <= 6:
            return step
    return 50.0


def token_label(tokens, j: int) -> str:
    """Token j as a label: the word, with its position only where the word repeats (the₀,
    the₄), as the table's column heads and the planes write it."""
    w = tokens[j]
    return f"{w}{sub(j)}" if tokens.count(w) > 1 else w


def column_labels(tokens) -> list[dict]:
    """Column heads of a T x T table: the words, with the position only where a word
    repeats (the row heads always carry it), so that 7 or 8 columns fit on a phone."""
    return [{"text": token_label(tokens, j), "link": f"t{j}"} for j in range(len(tokens))]


def plane_labels(marks: list[dict], half: float, axes: tuple[str, str], segments=(), free=(),
                 selected: str | None = None, named: tuple[str, ...] = ()) -> list:
    """Place the labels of a lab or heads plane (common.place_labels): points drawn on top
    of one another share one label, no label leaves the canvas or, as far as the room
    allows, covers another, a point, an axis name or a line in ``segments``.

    ``free``: (tip, text) of arrows from the origin whose names to place; returns where
    each goes. ``named``: ids of points (the outputs, in a crowded spot) whose label
    becomes a label mark, which may sit further from its point than an anchor allows;
    those marks are added at the end of ``marks``."""
    points = [m for m in marks if m["kind"] == "point"]
    layout = LabelLayout(half)
    for role in dict.fromkeys(m["role"] for m in points):  # keys with keys, values with values
        noun = {"own": "word", "accent": "token", "head1": "value", "head2": "value"}.get(role, role)
        share_labels([m for m in points if m.get("label") and m["role"] == role and m["id"] not in named],
                     layout, noun)
    boxes = [(b, 2.0) for b in layout.axis_names(axes)]
    spots = [tip_label_candidates(layout, tip, text) for tip, text in free]
    owners = [(m, m.pop("label")) for m in points if m["id"] in named and m.get("label")]
    for m, text in owners:
        reach = radius_px(m) * (1.4 if m.get("shape") == "diamond" else 1.0)
        spots.append(point_label_candidates(layout, (m["x"], m["y"]), text, reach))
    chosen = place_labels(layout, points, selected, boxes, list(segments), spots, apart=LABELS_APART)
    for (m, text), (x, y, align) in zip(owners, chosen[len(free):]):
        marks.append({"kind": "label", "x": x, "y": y, "text": text, "role": m["role"], "align": align})
    return chosen[:len(free)]


def plane_segments(marks: list[dict]) -> list:
    """The arrows and lines of a plane as obstacles for labels: (p, q, width px, weight)."""
    out = []
    for m in marks:
        if m["kind"] == "arrow":
            out.append(((m["x1"], m["y1"]), (m["x2"], m["y2"]), m.get("width", 2.5), 3.0))
        elif m["kind"] == "line":
            pts = m["points"]
            for a, b in zip(pts, pts[1:]):
                out.append((tuple(a), tuple(b), m.get("width", 1.5), 1.0 if m.get("dotted") else 0.5))
    return out


def parse_cell(name: str, value: Any, label: str) -> float:
    """A typed matrix entry: a finite number in [-MATRIX_LIMIT, MATRIX_LIMIT]."""
    try:
        x = parse_number(value, label)
    except FieldError as err:
        raise FieldError(name, err.message) from None
    if abs(x) > MATRIX_LIMIT:
        raise FieldError(
            name, f"{label} must be from -{MATRIX_LIMIT:g} to {MATRIX_LIMIT:g}, got {str(value).strip()}"
        )
    return x


def cell_label(matrix: str, r: int, c: int) -> str:
    return f"{matrix_name(matrix)} row {r + 1}, column {c + 1}"


# --- the figure ------------------------------------------------------------------------


def _matrix_option(name: str, what: str) -> Option:
    def check(text: str) -> None:
        parse_matrix(text)

    return Option(
        name,
        "str",
        "I",
        f"{what}: a preset (I, 2I, 0, swap, rotate, axis1) or two rows of two numbers "
        "like '1,0; 0,1' (row vectors: x W).",
        check=check,
    )


@register
class AttentionLab(ExperimentFigure):
    """Self-attention on a short sentence, from word embeddings to outputs."""

    name = "attention-lab"
    summary = (
        "One head of self-attention on a sentence of up to 8 words with 2-D embeddings: "
        "drag words, edit W_Q, W_K, W_V, add a position code, and read the full weight matrix."
    )
    options = (
        Option(
            "sentence",
            "choice",
            "pronoun",
            "The sentence preset: repeat (the cat sat on the mat), pronoun (the cat ate "
            "because it was hungry), river (we sat on the river bank) or money (she put "
            "money in the bank).",
            choices=SENTENCE_KEYS,
        ),
        Option(
            "query",
            "str",
            "",
            "The token that asks: a word of the sentence (its first occurrence) or a 0-based "
            "position. Empty: the sentence's own choice (the second 'the', 'it', 'bank').",
        ),
        _matrix_option("W_Q", "The query matrix"),
        _matrix_option("W_K", "The key matrix"),
        _matrix_option("W_V", "The value matrix"),
        Option(
            "s",
            "float",
            0.0,
            "α, the strength of the position code: xₜ = e(word) + α·pₜ. 0 leaves the embeddings "
            "alone. (The option keeps the short name s.)",
            min=0.0,
            max=S_MAX,
        ),
        Option(
            "temperature",
            "float",
            1.0,
            "τ: the scores are divided by τ before the softmax; 1 is the standard formula.",
            min=T_MIN,
            max=T_MAX,
        ),
        Option("causal", "bool", False, "The causal mask: token i reads only tokens 0 .. i."),
        Option(
            "table",
            "choice",
            "weights",
            "What the n x n table shows first: the weights aᵢⱼ or the scores sᵢⱼ.",
            choices=TABLES,
        ),
    )

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        check_query_option(values)

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {opt.name: opt.default for opt in self.options}
        opts.update(options)
        chosen = sentence(opts["sentence"])
        tokens = chosen.text.split()
        query_text = str(opts["query"]).strip()
        query = resolve_query(query_text, tokens) if query_text else chosen.query
        state = {
            "sentence": chosen.key,
            "tokens": tokens,
            "emb": default_embeddings(),  # word -> e(word), for every preset word
            "W_Q": parse_matrix(opts["W_Q"]),  # (2, 2)
            "W_K": parse_matrix(opts["W_K"]),  # (2, 2)
            "W_V": parse_matrix(opts["W_V"]),  # (2, 2)
            "s": float(opts["s"]),
            "temperature": float(opts["temperature"]),
            "causal": bool(opts["causal"]),
            "table": opts["table"],
            "query": query,
            "selected": tokens[query],  # the word the keyboard moves
            "step": STEP_SCORE,  # the highlighted step
            "experiment": None,
            "message": HINT,
        }
        state["initial"] = {key: copy.deepcopy(state[key]) for key in RESET_KEYS}
        return state

    # --- events -----------------------------------------------------------------------

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        if name == "sentence":
            chosen = sentence_field(value, name)
            state["sentence"] = chosen.key
            state["tokens"] = chosen.text.split()
            state["query"] = chosen.query
            state["selected"] = state["tokens"][chosen.query]
            state["step"] = STEP_SCORE
        elif name == "query":
            state["query"] = query_field(value, state["tokens"])
            state["step"] = STEP_SCORE
        elif name == "s":
            state["s"] = ranged(value, name, 0.0, S_MAX)
            state["step"] = STEP_EMBED
        elif name == "temperature":
            state["temperature"] = ranged(value, name, T_MIN, T_MAX)
            state["step"] = STEP_SOFTMAX
        elif name == "causal":
            state["causal"] = parse_bool(value, name)
            state["step"] = STEP_SOFTMAX
        elif name == "table":
            table = str(value).strip()
            if table not in TABLES:
                raise FieldError(name, f"table must be one of {', '.join(TABLES)}, got {table!r}")
            state["table"] = table
        elif name == "selected":
            word = str(value).strip()
            if word not in state["tokens"]:
                raise FieldError(name, f"selected must be a word of the sentence, got {word!r}")
            state["selected"] = word
        else:
            matrix, r, c = _matrix_cell(name)
            state[matrix][r][c] = parse_cell(name, value, cell_label(matrix, r, c))
            state["step"] = STEP_PROJECT
        return state

    def on_drag(self, state: dict, mark: str, x: Any, y: Any) -> dict:
        word = mark[len("word-"):] if mark.startswith("word-") else None
        if word not in state["tokens"]:
            raise ValueError(f"only the words of the embedding plane can be dragged, got mark {mark!r}")
        point = []
        for axis, c in (("x", x), ("y", y)):
            c = parse_number(c, axis)
            point.append(round(min(WORD_LIMIT, max(-WORD_LIMIT, c)), 2))
        state["emb"][word] = point
        state["selected"] = word
        state["step"] = STEP_EMBED
        return state

    def on_select(self, state: dict, mark: str) -> dict:
        n = len(state["tokens"])
        prefix, _, tail = mark.partition("-")
        i = None
        if prefix == "a":  # a cell of the table: its row asks
            row, _, col = tail.partition("-")
            if row.isdigit() and col.isdigit() and int(row) < n and int(col) < n:
                i = int(row)
        elif prefix in ("x", "key", "value", "out") and tail.isdigit() and int(tail) < n:
            i = int(tail)
        if i is None:
            raise ValueError(f"attention-lab cannot select the mark {mark!r}")
        state["query"] = i
        state["step"] = STEP_SCORE
        return state

    def on_action(self, state: dict, name: str) -> dict:
        matrix, _, preset = name.partition("=")
        if matrix in MATRICES and preset:
            try:
                state[matrix] = preset_matrix(preset)
            except ValueError:
                raise ValueError(f"attention-lab has no preset {preset!r} for {matrix}") from None
            state["step"] = STEP_PROJECT
            return clear_experiment(state)
        started = experiment_action(state, name, EXPERIMENTS, self._reset, start_from_defaults)
        if started is not None:
            started["selected"] = started["tokens"][started["query"]]
            return started
        names = ", ".join(e.name for e in EXPERIMENTS)
        raise ValueError(
            f"attention-lab has no action {name!r} (known: reset, a matrix preset like "
            f"'W_Q=2I', {names})"
        )

    @staticmethod
    def _reset(state: dict) -> dict:
        for key in RESET_KEYS:
            state[key] = copy.deepcopy(state["initial"][key])
        state["step"] = STEP_SCORE
        state["experiment"] = None
        return state

    # --- maths (all of it from engine) ------------------------------------------------

    @staticmethod
    def embeddings(state: dict) -> list[list[float]]:
        """E: the embedding of each token's word, (T, 2)."""
        return [list(state["emb"][w]) for w in state["tokens"]]

    @classmethod
    def compute(cls, state: dict):
        """(X, result): the embedded inputs x_t and the engine's attention for all rows."""
        X = embed_with_position(cls.embeddings(state), state["s"])  # (T, 2)
        result = self_attention(
            X, state["W_Q"], state["W_K"], state["W_V"],
            temperature=state["temperature"], causal=state["causal"],
        )
        return X, result

    # --- scene ------------------------------------------------------------------------

    def scene(self, state: dict[str, Any]) -> dict[str, Any]:
        tokens = state["tokens"]
        i = state["query"]
        X, r = self.compute(state)
        row = r.row(i)
        top = best(r.weights[i])
        panels = [
            self._steps_panel(state, X, r, row, top),
            self._embed_panel(state, X),  # 1. embed
            self._qk_panel(state, r),  # 2-3. project and score
            self._table_panel(state, r),  # 3. scores or 4. weights, every row
            self._values_panel(state, r),  # 5. mix
            self._readout_panel(state, X, r, top),
            self._arithmetic_panel(state, X, r, row),
        ]
        return {
            "title": "Attention lab: from embeddings to outputs",
            "status": (
                f"{quote(tokens[i])} (position {i}) asks; largest weight "
                f"{num(r.weights[i][top])} on {quote(tokens[top])}; output {vec(r.outputs[i])}"
            ),
            "panels": panels,
            "controls": self._controls(state),
            "values": {
                "sentence": state["sentence"],
                "tokens": list(tokens),
                "query": i,
                "E": self.embeddings(state),
                "X": X,
                "Q": r.Q,
                "K": r.K,
                "V": r.V,
                "scores": r.scores,
                "weights": r.weights,
                "outputs": r.outputs,
                "temperature": state["temperature"],
                "causal": state["causal"],
                "s": state["s"],
                "W_Q": copy.deepcopy(state["W_Q"]),
                "W_K": copy.deepcopy(state["W_K"]),
                "W_V": copy.deepcopy(state["W_V"]),
            },
        }

    def _steps_panel(self, state: dict, X, r, row, strongest: int) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        word = tokens[i]
        e = state["emb"][word]
        p = position_code(i, OMEGA)
        top = row.trace[strongest]
        details = [
            f"x{sub(i)} = {vec(e)} + {num(state['s'])}·{vec(p)} = {vec(X[i])}",
            f"q = {vec(r.Q[i])}, k = {vec(r.K[i])}, v = {vec(r.V[i])}",
            f"largest: q·k({tokens[strongest]}) / √2 = {num(top.dot)} / 1.41 = {num(top.scaled)}",
            f"a({tokens[strongest]}) = {num(top.weight)}; the row sums to 1"
            + (f"; {len(tokens) - 1 - i} masked" if state["causal"] and i < len(tokens) - 1 else ""),
            f"o{sub(i)} = Σ a·v = {vec(r.outputs[i])}",
        ]
        return {
            "kind": "steps",
            "id": "steps",
            "title": f"Five steps for {quote(word)} (position {i})",
            "formula": "x = e + α·p  →  q, k, v = xWq, xWk, xWv  →  s = q·k/√2  →  a = softmax(s/τ)  →  o = Σ a v",
            "steps": [
                {"label": label, "note": note, "detail": detail}
                for (label, note), detail in zip(STEPS, details)
            ],
            "active": state["step"],
        }

    def _embed_panel(self, state: dict, X) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        words = _distinct(tokens)
        E = self.embeddings(state)
        shifted = state["s"] > 0
        half = extent(E + (X if shifted else []), EMBED_PLANE)
        marks: list[dict] = []
        if shifted:
            e_i = state["emb"][tokens[i]]
            marks.append({"kind": "circle", "x": e_i[0], "y": e_i[1], "r": state["s"], "role": "grid", "dashed": True})
            for t, (e, x) in enumerate(zip(E, X)):
                marks.append({
                    "kind": "arrow", "x1": e[0], "y1": e[1], "x2": x[0], "y2": x[1],
                    "role": "accent", "width": 1, "link": f"t{t}", "muted": t != i,
                })
            for t, x in enumerate(X):
                marks.append({
                    "kind": "point", "id": f"x-{t}", "x": x[0], "y": x[1], "role": "accent",
                    "shape": "square", "size": 4, "link": f"t{t}", "select": True,
                    **({"label": f"x{sub(t)}"} if t == i else {}),
                    "name": f"token {t}, {tokens[t]}: x{sub(t)} = {vec(x)}; select to make it ask",
                })
        for w in words:
            e = state["emb"][w]
            where = [t for t, token in enumerate(tokens) if token == w]
            count = f" ×{len(where)}" if len(where) > 1 else ""
            marks.append({
                "kind": "point", "id": f"word-{w}", "x": e[0], "y": e[1], "role": "own",
                "shape": "ring" if i in where else "circle", "label": f"{w}{count}",
                "link": f"t{where[0]}", "draggable": True,
                "name": (
                    f"word {w} (position{'s' if len(where) > 1 else ''} "
                    f"{', '.join(map(str, where))}) at {vec(e)}"
                ),
            })
        plane_labels(marks, half, EMBED_AXES, plane_segments(marks), selected=f"word-{state['selected']}")
        legend = [{"role": "own", "label": "word embedding e (drag)"}]
        if shifted:
            legend.append({"role": "accent", "label": "x = e + α·p", "shape": "square"})
        return {
            "kind": "plane",
            "id": "embed",
            "title": "1. Embeddings: one point a word",
            "caption": (
                f"Drag a word, or focus the plane, press 1-{len(words)} to pick a word and move "
                "it with the arrow keys. A repeated word is one point."
                + (
                    f" Small squares: x = e + α·p, each token pushed by its position code "
                    f"(the dashed circle has radius α = {num(state['s'])})."
                    if shifted else " With α = 0 every token's x is its word's e."
                )
            ),
            "x": [-half, half],
            "y": [-half, half],
            "square": True,
            "grid": grid_step(half),
            "axes": list(EMBED_AXES),
            "keyboard": {"step": STEP, "big": BIG_STEP},
            "selected": f"word-{state['selected']}" if state["selected"] in words else None,
            "legend": legend,
            "marks": marks,
        }

    def _values_panel(self, state: dict, r) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        V, O = r.V, r.outputs
        half = extent(V + O, PLANE)
        marks: list[dict] = []
        hull = convex_hull(V)
        if len(hull) >= 3:
            marks.append({"kind": "polygon", "points": [list(p) for p in hull], "role": "hull"})
        elif len(hull) == 2:
            marks.append({"kind": "line", "points": [list(p) for p in hull], "role": "hull", "width": 4})
        # drawn in this order, so that nothing hides anything: the asking token's own value,
        # a ring wide enough to hold a diamond; the outputs; the other values' dots on top
        def value_mark(j: int, v) -> dict:
            return {
                "kind": "point", "id": f"value-{j}", "x": v[0], "y": v[1], "role": "value",
                "shape": "ring" if j == i else "circle", "label": token_label(tokens, j), "link": f"t{j}",
                "select": True, "muted": state["causal"] and j > i,
                "name": f"value of {tokens[j]} (position {j}) at {vec(v)}; select to make it ask",
                **({"size": OWN_RING} if j == i else {}),
            }

        marks.append(value_mark(i, V[i]))
        for j, o in enumerate(O):
            if j != i:
                marks.append({
                    "kind": "point", "id": f"out-{j}", "x": o[0], "y": o[1], "role": "output",
                    "shape": "diamond", "size": 2.5, "link": f"t{j}", "select": True,
                    "name": f"output of {tokens[j]} (position {j}) at {vec(o)}",
                })
        o = O[i]
        marks.append({
            "kind": "point", "id": f"out-{i}", "x": o[0], "y": o[1], "role": "output",
            "shape": "diamond", "size": OUTPUT_DIAMOND, "label": f"o{sub(i)} ({tokens[i]})", "link": f"t{i}",
            "name": f"output of {tokens[i]} (position {i}) at {vec(o)}",
        })
        marks += [value_mark(j, v) for j, v in enumerate(V) if j != i]
        plane_labels(marks, half, VALUE_AXES, plane_segments(marks), named=(f"out-{i}",))
        return {
            "kind": "plane",
            "id": "values",
            "title": "5. Values and every output",
            "caption": (
                f"Each output is a weighted average of the values, so all of them stay in the "
                f"shaded hull. The large diamond is o{sub(i)} of {quote(tokens[i])}; the small "
                "ones are the other tokens' outputs. Click a value to make its token ask."
            ),
            "x": [-half, half],
            "y": [-half, half],
            "square": True,
            "grid": grid_step(half),
            "axes": list(VALUE_AXES),
            "legend": [
                {"role": "value", "label": "value v"},
                {"role": "output", "label": "output o", "shape": "diamond"},
                {"role": "hull", "label": "hull of the values"},
            ],
            "marks": marks,
        }

    def _table_panel(self, state: dict, r) -> dict:
        tokens = state["tokens"]
        n = len(tokens)
        i = state["query"]
        showing = state["table"]
        visible_scores = [s for a, m in zip(r.scores, r.mask) for s, seen in zip(a, m) if seen]
        biggest = max((abs(s) for s in visible_scores), default=0.0)
        rows = []
        for a in range(n):
            trace = r.row(a).trace
            cells = []
            for b in range(n):
                step = trace[b]
                hidden = not r.mask[a][b]
                if showing == "weights":
                    text = "0" if hidden else num(r.weights[a][b])
                    tone = 0.0 if hidden else r.weights[a][b]
                else:
                    text = "−∞" if hidden else num(r.scores[a][b])
                    tone = 0.0 if hidden or biggest == 0 else r.scores[a][b] / biggest
                detail = [
                    f"{tokens[a]}{sub(a)} → {tokens[b]}{sub(b)}",
                    f"q{sub(a)}·k{sub(b)} = {num(step.dot, 3)};  s = {num(step.dot, 3)} / √2 = {num(step.scaled, 3)}",
                    "masked: weight exactly 0"
                    if hidden else f"a = {num(step.weight, 3)};  a·v{sub(b)} = {vec(step.weighted_value, 3)}",
                ]
                cells.append({
                    "text": text,
                    "tone": max(-1.0, min(1.0, tone)),
                    "link": f"t{b}",
                    "id": f"a-{a}-{b}",
                    "select": True,
                    "active": a == i and b == best(r.weights[a]),
                    "muted": hidden,
                    "title": (
                        f"{tokens[a]} (position {a}) reading {tokens[b]} (position {b}): "
                        + ("masked" if hidden else f"weight {num(r.weights[a][b])}, score {num(r.scores[a][b])}")
                        + f"; click to make {tokens[a]} ask"
                    ),
                    "detail": detail,
                })
            rows.append(cells)
        label = (
            "4. Weights aᵢⱼ (each row sums to 1)" if showing == "weights"
            else "3. Scores sᵢⱼ = qᵢ·kⱼ / √2 (orange above 0, teal below)"
        )
        return {
            "kind": "cells",
            "id": "table",
            "title": label,
            "caption": (
                "Row i is what token i reads; column j is the token being read. The highlighted "
                "row is the asking token: click any cell to make its row ask."
            ),
            "col_labels": column_labels(tokens),
            "row_labels": [{"text": f"{w}{sub(j)}", "link": f"t{j}", "active": j == i} for j, w in enumerate(tokens)],
            "rows": rows,
            "active_row": i,
        }

    def _qk_panel(self, state: dict, r) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        q = r.Q[i]
        K = r.K
        feet = [vector_projection(k, q) for k in K] if any(q) else []  # where each key's reach ends
        half = extent(K + [q] + feet, PLANE)
        marks: list[dict] = []
        if feet:
            for j, (k, foot) in enumerate(zip(K, feet)):
                marks.append({
                    "kind": "line", "points": [list(k), list(foot)], "dotted": True, "width": 1,
                    "role": "muted" if state["causal"] and j > i else "key", "link": f"t{j}",
                })
        marks.append({
            "kind": "arrow", "id": "query", "x1": 0.0, "y1": 0.0, "x2": q[0], "y2": q[1],
            "role": "query", "width": 3, "link": f"t{i}",
        })
        for j, k in enumerate(K):
            marks.append({
                "kind": "point", "id": f"key-{j}", "x": k[0], "y": k[1], "role": "key",
                "shape": "ring" if j == i else "circle", "label": token_label(tokens, j), "link": f"t{j}",
                "select": True, "muted": state["causal"] and j > i,
                "name": f"key of {tokens[j]} (position {j}) at {vec(k)}, score {num(r.scores[i][j])}",
            })
        q_name = f"q{sub(i)}"
        (spot,) = plane_labels(marks, half, QK_AXES, plane_segments(marks), free=[(q, q_name)])
        x, y, align = spot
        marks.append({"kind": "label", "x": x, "y": y, "text": q_name, "role": "query", "align": align})
        return {
            "kind": "plane",
            "id": "qk",
            "title": "2-3. The query and the keys",
            "caption": (
                f"The arrow is q{sub(i)} = x{sub(i)}Wq; the dots are the keys k = xWk. A key's score "
                "is how far it reaches along the arrow's line (to where its dotted line lands), times "
                "the arrow's length |q|, over √2."
            ),
            "x": [-half, half],
            "y": [-half, half],
            "square": True,
            "grid": grid_step(half),
            "axes": list(QK_AXES),
            "legend": [
                {"role": "query", "label": "query q", "shape": "line"},
                {"role": "key", "label": "key k"},
            ],
            "marks": marks,
        }

    def _readout_panel(self, state: dict, X, r, strongest: int) -> dict:
        tokens = state["tokens"]
        n = len(tokens)
        i = state["query"]
        weights = r.weights[i]
        order = sorted((j for j in range(n) if r.mask[i][j]), key=lambda j: -weights[j])
        paragraphs = []
        if len(order) == 1:
            paragraphs.append(
                f"{quote(tokens[i])} can read only itself, so it takes all of the weight and its "
                f"output is its own value, {vec(r.outputs[i])}."
            )
        else:
            second = order[1]
            paragraphs.append(
                f"{quote(tokens[i])} puts its largest weight, {num(weights[strongest])}, on "
                f"{quote(tokens[strongest])}{_at(tokens, strongest)}, then {num(weights[second])} on "
                f"{quote(tokens[second])}{_at(tokens, second)}. An even split would give "
                f"each of the {len(order)} tokens it reads {num(1 / len(order))}."
            )
        for w in _distinct(tokens):
            where = [t for t, token in enumerate(tokens) if token == w]
            if len(where) < 2:
                continue
            a, b = where[:2]
            same_x = X[a] == X[b]
            same_out = r.outputs[a] == r.outputs[b]
            if same_out:
                why = "the same vector x and the same set of tokens to read"
                paragraphs.append(
                    f"{quote(w)} appears at positions {a} and {b}. Both tokens have {why}, so their "
                    f"rows are equal and so are their outputs, {vec(r.outputs[a])}: attention alone "
                    f"cannot tell them apart."
                )
            else:
                causes = []
                if not same_x:
                    causes.append(f"the position code gives them different vectors, {vec(X[a])} and {vec(X[b])},")
                if state["causal"]:
                    causes.append(f"the mask lets position {a} read {a + 1} token{'s' if a else ''} and position {b} read {b + 1},")
                paragraphs.append(
                    f"{quote(w)} appears at positions {a} and {b}: "
                    f"{' and '.join(causes) or 'their rows differ'} so their outputs differ: "
                    f"{vec(r.outputs[a])} and {vec(r.outputs[b])}."
                )
        if state["causal"] and i < n - 1:
            paragraphs.append(
                f"The causal mask hides the {n - 1 - i} token{'s' if n - 1 - i > 1 else ''} after "
                f"position {i}: weight exactly 0."
            )
        return {"kind": "text", "id": "readout", "title": "In plain words", "paragraphs": paragraphs}

    def _arithmetic_panel(self, state: dict, X, r, row) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        e = state["emb"][tokens[i]]
        p = position_code(i, OMEGA)
        lines = [
            f"1. x{sub(i)} = e({tokens[i]}) + s·p{sub(i)} = {vec(e)} + {num(state['s'])}·{vec(p)} = {vec(X[i])}",
            f"2. q{sub(i)} = x{sub(i)}Wq = {vec(r.Q[i])}   k{sub(i)} = {vec(r.K[i])}   v{sub(i)} = {vec(r.V[i])}",
            f"3. s{sub(i)}ⱼ = q{sub(i)}·kⱼ / √2, then ÷ τ = {num(state['temperature'])}:",
        ]
        for j, step in enumerate(row.trace):
            if step.masked:
                lines.append(f"   {tokens[j]:>8}{sub(j)}  k = {vec(r.K[j])}  masked")
            else:
                lines.append(
                    f"   {tokens[j]:>8}{sub(j)}  k = {vec(r.K[j])}  q·k = {num(step.dot, 3)}"
                    f"  s = {num(step.scaled, 3)}  s/τ = {num(step.tempered, 3)}"
                )
        lines.append(
            f"4. a{sub(i)}ⱼ = exp(s/τ − {num(row.trace.max_tempered, 3)}) / {num(row.trace.exp_sum, 4)}:  "
            + "  ".join(f"{tokens[j]} {num(w, 3)}" for j, w in enumerate(row.weights))
        )
        lines.append(
            f"5. o{sub(i)} = Σ a·v = "
            + " + ".join(vec(step.weighted_value, 3) for step in row.trace if not step.masked)
            + f" = {vec(row.output, 3)}"
        )
        return {
            "kind": "text",
            "id": "arithmetic",
            "collapsible": f"Show the arithmetic for {quote(tokens[i])}",
            "mono": True,
            "paragraphs": lines,
        }

    def _controls(self, state: dict) -> list[dict]:
        tokens = state["tokens"]
        controls = [
            {
                "kind": "select",
                "name": "sentence",
                "label": "Sentence",
                "near": "embed",
                "help": f"This one shows {sentence(state['sentence']).about}.",
                "value": state["sentence"],
                "options": [{"value": s.key, "label": s.text} for s in SENTENCES],
            },
            {
                "kind": "select",
                "name": "query",
                "label": "Asking token",
                "near": "embed",
                "value": state["query"],
                "options": [{"value": j, "label": f"{j}: {w}"} for j, w in enumerate(tokens)],
            },
            {
                "kind": "slider",
                "name": "s",
                "near": "embed",
                "label": "Position strength α",
                "help": "xₜ = e(word) + α·(sin 0.6t, cos 0.6t). At 0 a repeated word is one vector.",
                "min": 0.0,
                "max": S_MAX,
                "step": 0.05,
                "value": state["s"],
                "digits": 2,
            },
            {
                "kind": "slider",
                "name": "temperature",
                "label": "Temperature τ",
                "near": "table",
                "help": "Scores are divided by τ before the softmax: low is decisive, high is even.",
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
                "label": "Causal mask",
                "near": "table",
                "help": "Token i reads only tokens 0 to i; later ones get weight exactly 0.",
                "value": state["causal"],
            },
            {
                "kind": "select",
                "name": "table",
                "label": "Table shows",
                "near": "table",
                "value": state["table"],
                "options": [
                    {"value": "weights", "label": "weights a (after the softmax)"},
                    {"value": "scores", "label": "scores s (before the softmax)"},
                ],
            },
            {**experiment_buttons(state, EXPERIMENTS, start_from_defaults), "near": "steps"},
        ]
        for matrix in MATRICES:
            current = preset_of(state[matrix])
            controls.append({
                "kind": "matrix",
                "name": matrix,
                "label": MATRIX_TITLES[matrix],
                "near": "values" if matrix == "W_V" else "qk",
                "rows": [
                    [{"name": f"{matrix}.{r}.{c}", "value": field_text(state[matrix][r][c])} for c in range(2)]
                    for r in range(2)
                ],
                "presets": [
                    {"name": f"{matrix}={key}", "label": label, "active": key == current}
                    for key, label, _, _ in MATRIX_PRESETS
                ],
            })
        return controls


# --- helpers ---------------------------------------------------------------------------

RESET_KEYS = ("sentence", "tokens", "emb", "W_Q", "W_K", "W_V", "s", "temperature", "causal", "table", "query")


def _matrix_cell(name: str) -> tuple[str, int, int]:
    parts = name.split(".")
    if len(parts) == 3 and parts[0] in MATRICES and parts[1] in ("0", "1") and parts[2] in ("0", "1"):
        return parts[0], int(parts[1]), int(parts[2])
    raise FieldError(name, f"attention-lab has no control named {name!r}")


def _distinct(tokens) -> list[str]:
    """The words of a sentence in order of first appearance."""
    seen: list[str] = []
    for w in tokens:
        if w not in seen:
            seen.append(w)
    return seen


def _at(tokens, j: int) -> str:
    """" (position j)" when the word occurs more than once, so that it is clear which."""
    return f" (position {j})" if tokens.count(tokens[j]) > 1 else ""


def start_from_defaults(state: dict) -> dict:
    """The built-in settings every experiment starts from (its numbers depend on them)."""
    chosen = sentence("pronoun")
    state.update(
        sentence=chosen.key, tokens=chosen.text.split(), emb=default_embeddings(),
        W_Q=preset_matrix("I"), W_K=preset_matrix("I"), W_V=preset_matrix("I"),
        s=0.0, temperature=1.0, causal=False, table="weights", query=chosen.query,
        step=STEP_SCORE,
    )
    return state


def use_sentence(state: dict, key: str, query: int | None = None) -> None:
    chosen = sentence(key)
    state["sentence"] = key
    state["tokens"] = chosen.text.split()
    state["query"] = chosen.query if query is None else query


def result(state: dict, **changes):
    """(X, attention) for ``state`` with some fields changed (the state is not touched)."""
    trial = copy.deepcopy(state)
    trial.update(changes)
    return AttentionLab.compute(trial)


# --- experiments ("Try this") ------------------------------------------------------------
#
# Each experiment starts from the built-in settings (``start_from_defaults``), sets the
# figure, and writes a message whose numbers the engine computes for the state it made.


SHARP_T, FLAT_T, HALF_T = 0.1, 3.0, 0.5
STRENGTH = 1.0  # α, the position strength, in the "position code" experiment


def _same_word(state: dict) -> None:
    use_sentence(state, "repeat", query=4)


def _same_word_message(state: dict) -> str:
    _, r = AttentionLab.compute(state)
    return (
        f"The two “the”s (positions 0 and 4) have the same embedding, so the same query, and "
        f"they read the same set of tokens: rows 0 and 4 of the table are equal, and both "
        f"outputs are {vec(r.outputs[0])}. Attention on its own treats the sentence as a bag "
        f"of words."
    )


def _same_word_mask(state: dict) -> None:
    use_sentence(state, "repeat", query=4)
    state["causal"] = True
    state["step"] = STEP_SOFTMAX


def _same_word_mask_message(state: dict) -> str:
    _, r = AttentionLab.compute(state)
    return (
        f"With the causal mask the first “the” reads only itself: weight 1 and output "
        f"{vec(r.outputs[0])}, its own value. The second reads five tokens and gives "
        f"{num(r.weights[4][0])} to each “the” (they share one key); its output is "
        f"{vec(r.outputs[4])}. The mask broke the tie."
    )


def _same_word_position(state: dict) -> None:
    use_sentence(state, "repeat", query=4)
    state["s"] = STRENGTH
    state["step"] = STEP_EMBED


def _same_word_position_message(state: dict) -> str:
    X, r = AttentionLab.compute(state)
    tokens = state["tokens"]
    b0, b4 = best(r.weights[0]), best(r.weights[4])
    return (
        f"With α = {STRENGTH:g} the two “the”s become x₀ = {vec(X[0])} and x₄ = {vec(X[4])}. "
        f"Now the first puts its largest weight ({num(r.weights[0][b0])}) on "
        f"{quote(tokens[b0])}, the second ({num(r.weights[4][b4])}) on {quote(tokens[b4])}: "
        f"outputs {vec(r.outputs[0])} and {vec(r.outputs[4])}. The position code broke the tie."
    )


def _sharp(state: dict) -> None:
    state["temperature"] = SHARP_T
    state["step"] = STEP_SOFTMAX


def _sharp_message(state: dict) -> str:
    _, r = AttentionLab.compute(state)
    _, before = result(state, temperature=1.0)
    i = state["query"]
    tokens = state["tokens"]
    j = best(r.weights[i])
    close = "matches" if vec(r.outputs[i]) == vec(r.V[j]) else "comes close to"
    return (
        f"At τ = {SHARP_T:g} the row of “it” is nearly one-hot: {num(r.weights[i][j], 3)} on "
        f"{quote(tokens[j])} (it was {num(before.weights[i][j], 3)} at τ = 1), and the output "
        f"{vec(r.outputs[i])} {close} the value of {quote(tokens[j])}, {vec(r.V[j])}, to two "
        f"decimals. A low temperature turns the average into a lookup."
    )


def _flat(state: dict) -> None:
    state["temperature"] = FLAT_T
    state["step"] = STEP_SOFTMAX


def _flat_message(state: dict) -> str:
    _, r = AttentionLab.compute(state)
    i = state["query"]
    n = len(state["tokens"])
    mean = [math.fsum(c) / n for c in zip(*r.V)]
    return (
        f"At τ = {FLAT_T:g} the row of “it” is nearly flat: its weights run from "
        f"{num(min(r.weights[i]))} to {num(max(r.weights[i]))}, against an even 1/{n} = "
        f"{num(1 / n)}. The output {vec(r.outputs[i])} drifts towards the plain mean of the "
        f"values, {vec(mean)}."
    )


def _double_query(state: dict) -> None:
    state["W_Q"] = preset_matrix("2I")
    state["step"] = STEP_PROJECT


def _double_query_message(state: dict) -> str:
    _, r = AttentionLab.compute(state)
    _, half = result(state, W_Q=preset_matrix("I"), temperature=HALF_T)
    _, plain = result(state, W_Q=preset_matrix("I"))
    i = state["query"]
    j = best(r.weights[i])
    word = quote(state["tokens"][j])
    same = "exactly the same" if r.weights == half.weights else "the same"
    return (
        f"Wq = 2I doubles every query, so every score doubles: {word} now gets "
        f"{num(r.weights[i][j], 3)} of the weight of “it” (it had {num(plain.weights[i][j], 3)} "
        f"with Wq = I). Setting Wq = I and τ = {HALF_T:g} gives {same} table, "
        f"{num(half.weights[i][j], 3)} on {word}: the scale of the scores is a temperature."
    )


def _blank_query(state: dict) -> None:
    state["W_Q"] = preset_matrix("0")
    state["step"] = STEP_PROJECT


def _blank_query_message(state: dict) -> str:
    _, r = AttentionLab.compute(state)
    n = len(state["tokens"])
    return (
        f"With Wq = 0 every query is zero, so every score is 0 and every row of the table is "
        f"an even 1/{n} = {num(1 / n)}. Every token gets the same output, the mean of the "
        f"values: {vec(r.outputs[0])}."
    )


def _blank_query_mask(state: dict) -> None:
    state["W_Q"] = preset_matrix("0")
    state["causal"] = True
    state["query"] = 2
    state["step"] = STEP_SOFTMAX


def _blank_query_mask_message(state: dict) -> str:
    _, r = AttentionLab.compute(state)
    tokens = state["tokens"]
    return (
        f"With Wq = 0 and the mask, row i is even over the first i + 1 tokens: row 2 gives "
        f"{num(r.weights[2][0])} to each of {', '.join(map(quote, tokens[:3]))}. Each output "
        f"is a running mean: o₀ = {vec(r.outputs[0])}, o₁ = {vec(r.outputs[1])}, "
        f"o₂ = {vec(r.outputs[2])}."
    )


def _bank_message(state: dict, other_key: str) -> str:
    _, r = AttentionLab.compute(state)
    tokens = state["tokens"]
    i = state["query"]
    j = best(r.weights[i])
    other = dict(copy.deepcopy(state))
    use_sentence(other, other_key)
    _, r2 = AttentionLab.compute(other)
    i2 = other["query"]
    j2 = best(r2.weights[i2])
    return (
        f"“bank” has the same embedding in both sentences. Here its largest weight, "
        f"{num(r.weights[i][j])}, is on {quote(tokens[j])}, and its output is "
        f"{vec(r.outputs[i])}; beside {quote(other['tokens'][j2])} it was {vec(r2.outputs[i2])}. "
        f"The output of attention depends on the words around it."
    )


def _river(state: dict) -> None:
    use_sentence(state, "river")


def _money(state: dict) -> None:
    use_sentence(state, "money")


EXPERIMENTS = (
    Experiment("same-word", "Two “the”s", "A repeated word, no mask, no position code",
               _same_word, _same_word_message),
    Experiment("same-word-mask", "… with the mask", "The causal mask breaks the tie",
               _same_word_mask, _same_word_mask_message),
    Experiment("same-word-position", f"… with α = {STRENGTH:g}", "The position code breaks the tie",
               _same_word_position, _same_word_position_message),
    Experiment("sharp", f"τ = {SHARP_T:g}", "A low temperature: nearly one-hot rows",
               _sharp, _sharp_message),
    Experiment("flat", f"τ = {FLAT_T:g}", "A high temperature: nearly flat rows",
               _flat, _flat_message),
    Experiment("double-query", "Wq = 2I", "Doubling the queries is halving the temperature",
               _double_query, _double_query_message),
    Experiment("blank-query", "Wq = 0", "Queries that ask nothing: even rows",
               _blank_query, _blank_query_message),
    Experiment("blank-query-mask", "Wq = 0 with the mask", "Even rows over the past: running means",
               _blank_query_mask, _blank_query_mask_message),
    Experiment("river-bank", "bank by the river", "The same word in one context",
               _river, lambda state: _bank_message(state, "money")),
    Experiment("money-bank", "bank with money", "The same word in another context",
               _money, lambda state: _bank_message(state, "river")),
)
