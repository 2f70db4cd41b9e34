"""The ``attention-heads`` figure: two heads of attention side by side, joined by W_O.

Each head h reads the same token vectors x_t through its own 2 x 2 projections and
computes its own weights and outputs (``engine.multi_head``)::

    q^h_t = x_t W_Q^h,  k^h_t = x_t W_K^h,  v^h_t = x_t W_V^h
    o^h_i = sum_j softmax_j(q^h_i . k^h_j / sqrt(2)) v^h_j

The two outputs are put side by side and mixed by one 4 x 2 output matrix W_O, whose
rows split into one 2 x 2 block a head (Vaswani et al. 2017, section 3.2.2)::

    MultiHead_i = [o^1_i, o^2_i] W_O = o^1_i W_O^1 + o^2_i W_O^2

The built-in heads each look along one axis of the lab's embedding plane: head 1 keeps
only the first coordinate ("a thing") in its queries and keys, head 2 only the second
("an event or a description"). With W_V^h = I and W_O^1 = W_O^2 = I/2 the combined
output is the midpoint of the two head outputs. The sentences and embeddings are the
lab's (``attention_lab``); the maths is the engine's.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

from ..heads import multi_head
from . import register
from .attention_lab import (
    EMBED_AXES, OUTPUT_DIAMOND, OWN_RING, SENTENCE_KEYS, SENTENCES, VOCAB, check_query_option, column_labels, grid_step, parse_cell,
    plane_labels, plane_segments, sentence, sentence_field, sub, token_label,
)
from .base import FieldError, Option
from .common import (
    ExperimentFigure,
    HINT, Experiment, matrix_name, best, clear_experiment, experiment_action, experiment_buttons, extent, field_text, num, query_field, quote,
    resolve_query, vec,
)

I = ((1.0, 0.0), (0.0, 1.0))


@dataclass(frozen=True)
class HeadPreset:
    """One choice of the head preset select: a head's three matrices."""

    key: str  # option and select value
    label: str  # the select's text
    W_Q: tuple  # (2, 2)
    W_K: tuple  # (2, 2)
    W_V: tuple  # (2, 2)


HEAD_PRESETS = (
    HeadPreset("axis1", "compares along axis 1 (things)", ((2.0, 0.0), (0.0, 0.0)), ((1.0, 0.0), (0.0, 0.0)), I),
    HeadPreset("axis2", "compares along axis 2 (events)", ((0.0, 0.0), (0.0, 2.0)), ((0.0, 0.0), (0.0, 1.0)), I),
    HeadPreset("whole", "compares whole vectors (I)", I, I, I),
)
HEAD_KEYS = tuple(p.key for p in HEAD_PRESETS)
BLOCK_PRESETS = (  # (name, label, block): choices for one block W_O^h
    ("half", "½I", ((0.5, 0.0), (0.0, 0.5))),
    ("I", "I", I),
    ("0", "0", ((0.0, 0.0), (0.0, 0.0))),
)
W_O_PRESETS = {  # option value -> (block 1, block 2)
    "average": ("half", "half"),
    "sum": ("I", "I"),
    "head1": ("I", "0"),
    "head2": ("0", "I"),
}
MATRICES = ("W_Q", "W_K", "W_V")
SUPERSCRIPT = {1: "¹", 2: "²"}


def head_matrices(key: str) -> dict[str, list[list[float]]]:
    for p in HEAD_PRESETS:
        if p.key == key:
            return {m: [list(row) for row in getattr(p, m)] for m in MATRICES}
    raise ValueError(f"expected one of {', '.join(HEAD_KEYS)}, got {key!r}")


def head_preset_of(head: dict) -> str:
    for p in HEAD_PRESETS:
        if all([list(r) for r in getattr(p, m)] == head[m] for m in MATRICES):
            return p.key
    return "custom"


def block(name: str) -> list[list[float]]:
    for key, _, b in BLOCK_PRESETS:
        if key == name:
            return [list(row) for row in b]
    raise ValueError(f"no block preset {name!r}")


def w_o(preset: str) -> list[list[float]]:
    """W_O (4 x 2) for a preset: block 1 above block 2."""
    first, second = W_O_PRESETS[preset]
    return block(first) + block(second)


@register
class AttentionHeads(ExperimentFigure):
    """Two heads on the lab's sentences, with their outputs joined by W_O."""

    name = "attention-heads"
    summary = (
        "Two attention heads with their own W_Q, W_K, W_V side by side: two weight tables, "
        "the head outputs, and the multi-head output [o¹, o²] W_O."
    )
    options = (
        Option(
            "sentence",
            "choice",
            "pronoun",
            "The sentence preset, shared with the attention lab: repeat, pronoun, river or money.",
            choices=SENTENCE_KEYS,
        ),
        Option(
            "query",
            "str",
            "",
            "The token whose outputs the plane shows: a word of the sentence or a 0-based "
            "position. Empty: the last token.",
        ),
        Option("head1", "choice", "axis1", "Head 1's matrices: axis1, axis2 or whole.", choices=HEAD_KEYS),
        Option("head2", "choice", "axis2", "Head 2's matrices: axis1, axis2 or whole.", choices=HEAD_KEYS),
        Option(
            "W_O",
            "choice",
            "average",
            "The output matrix: average (½I, ½I), sum (I, I), head1 (I, 0) or head2 (0, I).",
            choices=tuple(W_O_PRESETS),
        ),
    )

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        check_query_option(values)

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {opt.name: opt.default for opt in self.options}
        opts.update(options)
        tokens = sentence(opts["sentence"]).text.split()
        query_text = str(opts["query"]).strip()
        state = {
            "sentence": opts["sentence"],
            "tokens": tokens,
            "heads": [head_matrices(opts["head1"]), head_matrices(opts["head2"])],
            "W_O": w_o(opts["W_O"]),  # (4, 2): rows 0-1 are W_O^1, rows 2-3 W_O^2
            "query": resolve_query(query_text, tokens) if query_text else len(tokens) - 1,
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
            state["query"] = len(state["tokens"]) - 1
        elif name == "query":
            state["query"] = query_field(value, state["tokens"])
        elif name in ("head1", "head2"):
            key = str(value).strip()
            h = int(name[-1]) - 1
            if key == "custom":
                return state  # the reader's own matrices stay
            if key not in HEAD_KEYS:
                raise FieldError(name, f"{name} must be one of {', '.join(HEAD_KEYS)}, got {key!r}")
            state["heads"][h] = head_matrices(key)
        else:
            where, label = _cell(name)
            x = parse_cell(name, value, label)
            if where[0] == "W_O":
                state["W_O"][where[1]][where[2]] = x
            else:
                h, matrix, r, c = where
                state["heads"][h][matrix][r][c] = x
        return state

    def on_select(self, state: dict, mark: str) -> dict:
        n = len(state["tokens"])
        parts = mark.split("-")
        i = None
        if len(parts) == 3 and parts[0] in ("a1", "a2") and parts[1].isdigit() and parts[2].isdigit():
            if int(parts[1]) < n and int(parts[2]) < n:
                i = int(parts[1])
        elif len(parts) == 2 and parts[0] in ("x", "value") and parts[1].isdigit() and int(parts[1]) < n:
            i = int(parts[1])
        if i is None:
            raise ValueError(f"attention-heads cannot select the mark {mark!r}")
        state["query"] = i
        return state

    def on_action(self, state: dict, name: str) -> dict:
        target, _, preset = name.partition("=")
        if target in ("W_O1", "W_O2") and preset:
            try:
                rows = block(preset)
            except ValueError:
                raise ValueError(f"attention-heads has no preset {preset!r} for {target}") from None
            start = 0 if target == "W_O1" else 2
            state["W_O"][start:start + 2] = rows
            return clear_experiment(state)
        started = experiment_action(state, name, EXPERIMENTS, self._reset, _as_it_is)
        if started is not None:
            return started
        names = ", ".join(e.name for e in EXPERIMENTS)
        raise ValueError(
            f"attention-heads has no action {name!r} (known: reset, {names}, "
            "W_O1=half, W_O1=I, W_O1=0, W_O2=half, W_O2=I, W_O2=0)"
        )

    @staticmethod
    def _reset(state: dict) -> dict:
        for key in RESET_KEYS:
            state[key] = copy.deepcopy(state["initial"][key])
        state["experiment"] = None
        return state

    # --- maths (all of it from engine) ------------------------------------------------

    @staticmethod
    def compute(state: dict):
        """(X, result): the token vectors and the engine's multi-head attention."""
        X = [list(VOCAB[w]) for w in state["tokens"]]  # (T, 2)
        return X, multi_head(X, state["heads"], state["W_O"])

    # --- scene ------------------------------------------------------------------------

    def scene(self, state: dict[str, Any]) -> dict[str, Any]:
        tokens = state["tokens"]
        i = state["query"]
        X, m = self.compute(state)
        bests = [best(head.weights[i]) for head in m.heads]
        panels = [
            self._table_panel(state, m, 0),
            self._table_panel(state, m, 1),
            self._plane_panel(state, m),
            self._combine_panel(state, m),
            self._readout_panel(state, m),
        ]
        return {
            "title": "Two heads side by side",
            "status": (
                f"{quote(tokens[i])} asks; head 1 puts {num(m.heads[0].weights[i][bests[0]])} on "
                f"{quote(tokens[bests[0]])}, head 2 puts {num(m.heads[1].weights[i][bests[1]])} on "
                f"{quote(tokens[bests[1]])}; multi-head output {vec(m.outputs[i])}"
            ),
            "panels": panels,
            "controls": self._controls(state),
            "values": {
                "sentence": state["sentence"],
                "tokens": list(tokens),
                "query": i,
                "X": X,
                "heads": copy.deepcopy(state["heads"]),
                "weights": [head.weights for head in m.heads],
                "head_outputs": [head.outputs for head in m.heads],
                "concat": m.concat,
                "contributions": m.contributions,
                "outputs": m.outputs,
                "W_O": copy.deepcopy(state["W_O"]),
            },
        }

    def _table_panel(self, state: dict, m, h: int) -> dict:
        tokens = state["tokens"]
        n = len(tokens)
        i = state["query"]
        head = m.heads[h]
        mark = f"a{h + 1}"
        rows = []
        for a in range(n):
            top = best(head.weights[a])
            rows.append([
                {
                    "text": num(head.weights[a][b]),
                    "tone": head.weights[a][b],
                    "link": f"t{b}",
                    "id": f"{mark}-{a}-{b}",
                    "select": True,
                    "active": a == i and b == top,
                    "title": (
                        f"head {h + 1}: {tokens[a]} (position {a}) reading {tokens[b]} (position {b}): "
                        f"weight {num(head.weights[a][b])}; click to make {tokens[a]} ask"
                    ),
                    "detail": [
                        f"head {h + 1}: {tokens[a]}{sub(a)} → {tokens[b]}{sub(b)}",
                        f"s = q·k / √2 = {num(head.scores[a][b], 3)};  a = {num(head.weights[a][b], 3)}",
                    ],
                }
                for b in range(n)
            ])
        preset = head_preset_of(state["heads"][h])
        what = next((p.label for p in HEAD_PRESETS if p.key == preset), "your own matrices")
        return {
            "kind": "cells",
            "id": f"head{h + 1}",
            "title": f"Head {h + 1} weights A{SUPERSCRIPT[h + 1]}: {what}",
            "caption": "Row i is what token i reads. Click a cell to make its row ask.",
            "col_labels": column_labels(tokens),
            "row_labels": [{"text": f"{w}{sub(j)}", "link": f"t{j}", "active": j == i} for j, w in enumerate(tokens)],
            "rows": rows,
            "active_row": i,
            "wide": False,
        }

    def _plane_panel(self, state: dict, m) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        o1, o2 = m.heads[0].outputs[i], m.heads[1].outputs[i]
        c1 = m.contributions[0][i]
        out = m.outputs[i]
        V1, V2 = m.heads[0].V, m.heads[1].V
        marks: list[dict] = []
        if state["W_O"] == w_o("average"):
            marks.append({"kind": "line", "points": [list(o1), list(o2)], "role": "muted", "dotted": True, "width": 1.5})
        # drawn in this order, so that nothing hides anything: the asking token's own values,
        # rings wide enough to hold a diamond; the outputs; the arrows over them (an
        # arrow's head shows on the diamond it ends at); the other values' dots on top
        value_sets = [(V1, "value", "")] if V1 == V2 else [(V1, "head1", "¹"), (V2, "head2", "²")]
        values = []
        for V, role, sup in value_sets:
            for j, v in enumerate(V):
                values.append({
                    "kind": "point", "id": f"value-{j}" if not sup else f"value{sup}-{j}",
                    "x": v[0], "y": v[1], "role": role, "size": OWN_RING if j == i else 4,
                    "muted": not sup and j != i, "shape": "ring" if j == i else "circle",
                    "label": f"{token_label(tokens, j)}{sup}", "link": f"t{j}", "select": not sup,
                    "name": f"value{sup} of {tokens[j]} (position {j}) at {vec(v)}",
                })
        marks += [m for m in values if m["shape"] == "ring"]
        marks.append({"kind": "point", "id": "o1", "x": o1[0], "y": o1[1], "role": "head1", "shape": "diamond",
                      "size": OUTPUT_DIAMOND, "label": "o¹", "link": f"t{i}",
                      "name": f"head 1 output of {tokens[i]} at {vec(o1)}"})
        marks.append({"kind": "point", "id": "o2", "x": o2[0], "y": o2[1], "role": "head2", "shape": "diamond",
                      "size": OUTPUT_DIAMOND, "label": "o²", "link": f"t{i}",
                      "name": f"head 2 output of {tokens[i]} at {vec(o2)}"})
        marks.append({"kind": "point", "id": "combined", "x": out[0], "y": out[1], "role": "output",
                      "shape": "diamond", "size": OUTPUT_DIAMOND, "label": "multi-head", "link": f"t{i}",
                      "name": f"multi-head output of {tokens[i]} at {vec(out)}"})
        marks.append({"kind": "arrow", "id": "part1", "x1": 0.0, "y1": 0.0, "x2": c1[0], "y2": c1[1],
                      "role": "head1", "width": 2, "dashed": True})
        # o¹W_O¹ + o²W_O² = [o¹, o²] W_O: the second part ends at the engine's output
        marks.append({"kind": "arrow", "id": "part2", "x1": c1[0], "y1": c1[1], "x2": out[0],
                      "y2": out[1], "role": "head2", "width": 2, "dashed": True})
        marks += [m for m in values if m["shape"] != "ring"]
        # diamonds on one spot (two identical heads) share one label: "o¹ = o²"
        diamonds = [m for m in marks if m.get("shape") == "diamond"]
        for a, m in enumerate(diamonds):
            for other in diamonds[a + 1:]:
                if m.get("label") and other.get("label") and math.dist((m["x"], m["y"]), (other["x"], other["y"])) < 1e-9:
                    m["label"] += " = " + other.pop("label")
        points = V1 + V2 + [o1, o2, c1, out, [0.0, 0.0]]
        half = extent(points, 2.5)
        plane_labels(marks, half, EMBED_AXES, plane_segments(marks), named=("o1", "o2", "combined"))
        return {
            "kind": "plane",
            "id": "outputs",
            "title": f"Outputs for {quote(tokens[i])} (position {i})",
            "caption": (
                "The diamonds are head 1's output o¹, head 2's output o², and the multi-head "
                "output. The dashed arrows add o¹Wo¹ and o²Wo²: their sum is the multi-head output."
            ),
            "x": [-half, half],
            "y": [-half, half],
            "square": True,
            "grid": grid_step(half),
            "axes": list(EMBED_AXES),
            "legend": [
                {"role": "head1", "label": "head 1", "shape": "diamond"},
                {"role": "head2", "label": "head 2", "shape": "diamond"},
                {"role": "output", "label": "multi-head", "shape": "diamond"},
                {"role": "value", "label": "values"},
            ],
            "marks": marks,
        }

    def _combine_panel(self, state: dict, m) -> dict:
        i = state["query"]
        o1, o2 = m.heads[0].outputs[i], m.heads[1].outputs[i]
        c1, c2 = m.contributions[0][i], m.contributions[1][i]
        return {
            "kind": "text",
            "id": "combine",
            "title": "Joining the heads",
            "mono": True,
            "paragraphs": [
                f"o¹ = {vec(o1)}   o² = {vec(o2)}",
                f"[o¹, o²] = {vec(m.concat[i])}",
                f"[o¹, o²] Wo = {vec(m.outputs[i])}",
                f"o¹Wo¹ + o²Wo² = {vec(c1)} + {vec(c2)} = {vec(m.outputs[i])}",
            ],
        }

    def _readout_panel(self, state: dict, m) -> dict:
        tokens = state["tokens"]
        i = state["query"]
        lines = []
        for h, head in enumerate(m.heads):
            b = best(head.weights[i])
            lines.append(
                f"Head {h + 1} puts its largest weight, {num(head.weights[i][b])}, on {quote(tokens[b])}; "
                f"its output is {vec(head.outputs[i])}."
            )
        if state["heads"][0] == state["heads"][1]:
            lines.append(
                "The two heads have the same matrices, so they compute the same table and the same "
                "outputs: the second head adds nothing that the first did not already have."
            )
        if state["W_O"] == w_o("average"):
            lines.append(
                f"With Wo¹ = Wo² = ½I the multi-head output {vec(m.outputs[i])} is the midpoint of o¹ and o²."
            )
        return {"kind": "text", "id": "readout", "title": "In plain words", "paragraphs": lines}

    def _controls(self, state: dict) -> list[dict]:
        tokens = state["tokens"]
        controls: list[dict] = [
            {
                "kind": "select",
                "name": "sentence",
                "label": "Sentence",
                "near": "head1",
                "value": state["sentence"],
                "options": [{"value": s.key, "label": s.text} for s in SENTENCES],
            },
            {
                "kind": "select",
                "name": "query",
                "label": "Asking token",
                "near": "head1",
                "value": state["query"],
                "options": [{"value": j, "label": f"{j}: {w}"} for j, w in enumerate(tokens)],
            },
            {**experiment_buttons(state, EXPERIMENTS, _as_it_is), "near": "outputs"},
        ]
        for h in range(2):
            preset = head_preset_of(state["heads"][h])
            options = [{"value": p.key, "label": p.label} for p in HEAD_PRESETS]
            if preset == "custom":
                options.append({"value": "custom", "label": "your own matrices"})
            sup = SUPERSCRIPT[h + 1]
            controls.append({
                "kind": "select",
                "name": f"head{h + 1}",
                "label": f"Head {h + 1}",
                "near": f"head{h + 1}",
                "value": preset,
                "options": options,
            })
            for matrix in MATRICES:
                controls.append({
                    "kind": "matrix",
                    "name": f"h{h + 1}.{matrix}",
                    "label": f"{matrix_name(matrix)}{sup}",
                    "near": f"head{h + 1}",
                    "rows": [
                        [{"name": f"h{h + 1}.{matrix}.{r}.{c}", "value": field_text(state["heads"][h][matrix][r][c])}
                         for c in range(2)]
                        for r in range(2)
                    ],
                })
        for h in range(2):
            sup = SUPERSCRIPT[h + 1]
            current = state["W_O"][2 * h:2 * h + 2]
            controls.append({
                "kind": "matrix",
                "name": f"W_O{h + 1}",
                "near": "combine",
                "label": f"Wo{sup}: rows {2 * h + 1}-{2 * h + 2} of Wo (output matrix), for head {h + 1}",
                "rows": [
                    [{"name": f"W_O.{r}.{c}", "value": field_text(state["W_O"][r][c])} for c in range(2)]
                    for r in (2 * h, 2 * h + 1)
                ],
                "presets": [
                    {"name": f"W_O{h + 1}={key}", "label": label, "active": current == block(key)}
                    for key, label, _ in BLOCK_PRESETS
                ],
            })
        return controls


RESET_KEYS = ("sentence", "tokens", "heads", "W_O", "query")


def _cell(name: str) -> tuple[tuple, str]:
    """(where, label) of a matrix cell's control name, or FieldError."""
    parts = name.split(".")
    if len(parts) == 3 and parts[0] == "W_O" and parts[1] in "0123" and len(parts[1]) == 1 \
            and parts[2] in ("0", "1"):
        r, c = int(parts[1]), int(parts[2])
        return ("W_O", r, c), f"Wo row {r + 1}, column {c + 1}"
    if len(parts) == 4 and parts[0] in ("h1", "h2") and parts[1] in MATRICES \
            and parts[2] in ("0", "1") and parts[3] in ("0", "1"):
        h, r, c = int(parts[0][1]), int(parts[2]), int(parts[3])
        return (h - 1, parts[1], r, c), f"{matrix_name(parts[1])}{SUPERSCRIPT[h]} row {r + 1}, column {c + 1}"
    raise FieldError(name, f"attention-heads has no control named {name!r}")


def _copy_message(state: dict) -> str:
    _, m = AttentionHeads.compute(state)
    tokens = state["tokens"]
    i = state["query"]
    b = best(m.heads[0].weights[i])
    return (
        f"Head 2 now has head 1's matrices, so both tables are the same: both heads put "
        f"{num(m.heads[0].weights[i][b])} on {quote(tokens[b])}, and o¹ = o² = "
        f"{vec(m.heads[0].outputs[i])}. The multi-head output {vec(m.outputs[i])} is o¹(Wo¹ + Wo²): "
        f"one head's output, mixed again. The second head adds nothing."
    )


def _two_views_message(state: dict) -> str:
    _, m = AttentionHeads.compute(state)
    tokens = state["tokens"]
    i = state["query"]
    b1, b2 = best(m.heads[0].weights[i]), best(m.heads[1].weights[i])
    return (
        f"Asked by “hungry”, head 1 (axis 1) puts {num(m.heads[0].weights[i][b1])} on "
        f"{quote(tokens[b1])}, head 2 (axis 2) puts {num(m.heads[1].weights[i][b2])} on "
        f"{quote(tokens[b2])}: one finds who is hungry, the other what happened. o¹ = "
        f"{vec(m.heads[0].outputs[i])}, o² = {vec(m.heads[1].outputs[i])}, and with ½I blocks the "
        f"multi-head output is their midpoint, {vec(m.outputs[i])}."
    )


# --- experiments ("Try this") -------------------------------------------------------------
#
# Unlike the other figures' experiments, these start from the figure as the reader left it:
# "copy" gives head 2 whatever head 1 has now.


def _as_it_is(state: dict) -> dict:
    return state


def _two_views(state: dict) -> None:
    tokens = sentence("pronoun").text.split()
    state.update(
        sentence="pronoun", tokens=tokens, query=tokens.index("hungry"),
        heads=[head_matrices("axis1"), head_matrices("axis2")], W_O=w_o("average"),
    )


def _copy(state: dict) -> None:
    state["heads"][1] = copy.deepcopy(state["heads"][0])


EXPERIMENTS = (
    Experiment("two-views", "Two heads on “hungry”", "The built-in heads, asked by “hungry”",
               _two_views, _two_views_message),
    Experiment("copy", "Give head 2 head 1's matrices", "Make the two heads identical",
               _copy, _copy_message),
)
