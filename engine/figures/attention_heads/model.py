"""The ``attention-heads`` figure: two heads of attention side by side, joined by W_O.

Each head h reads the same token vectors x_t through its own 2 x 2 projections and
computes its own weights and outputs (``engine.multi_head``)::

    q^h_t = x_t W_Q^h,  k^h_t = x_t W_K^h,  v^h_t = x_t W_V^h
    o^h_i = sum_j softmax_j(q^h_i . k^h_j / sqrt(2)) v^h_j

The two outputs are put side by side and mixed by one 4 x 2 output matrix W_O, whose
rows split into one 2 x 2 block a head (Vaswani et al. 2017, section 3.2.2)::

    MultiHead_i = [o^1_i, o^2_i] W_O = o^1_i W_O^1 + o^2_i W_O^2

Sentences and embeddings are shared with the lab (``..sentences``), the maths is the engine's,
presets and what experiments read of a head are in ``heads``; the experiments are below.
"""

import copy
from typing import Any

from explorables.figures import Choice, Experiment, cell_of, quote, register, t

from ..matrices import matrix_control, matrix_name, parse_cell
from ..sentences import Asker, OnASentence, asked, clicked, sentence, sentence_menu
from . import words as W
from .heads import BLOCKS, HEAD_PRESETS, MATRICES, attend, block, head_matrices, tops, w_o
from .scene import combine_panel, plane_panel, readout, table_panel

HEADS = ("head1", "head2")
HEAD_CHOICES = tuple((k, W.HEAD_LABELS[k]) for k in HEAD_PRESETS)  # (value, label) of a head's menu
ACTIONS = [f"W_O{h}={key}" for h in (1, 2) for key in BLOCKS]  # a block of W_O set to a preset


def _sync(state: dict) -> dict:
    """Each head's menu names the preset its matrices are, or "custom"."""
    for h, name in enumerate(HEADS):
        state[name] = next((key for key in HEAD_PRESETS if head_matrices(key) == state["heads"][h]), "custom")
    return state


def head_fields(state: dict, h: int) -> list[tuple[str, str, list[list[float]]]]:
    """Head h's matrices as the reader types them: the fields' prefix (h1.W_Q), the label (Wq¹), the rows."""
    return [(f"h{h}.{m}", matrix_name(m) + W.SUP[h], state["heads"][h - 1][m]) for m in MATRICES]


def copy_head(state: dict) -> None:
    state["heads"][1] = copy.deepcopy(state["heads"][0])
    state["head2"] = state["head1"]


TWO_VIEWS = {"sentence": "pronoun", "query": "hungry", "head1": "axis1", "head2": "axis2", "W_O": "average"}
EXPERIMENTS = (
    Experiment("two-views", *W.say.button("two_views"), set=TWO_VIEWS, see=lambda s: W.TWO_VIEWS_SEE.format(**tops(s))),
    Experiment("copy", *W.say.button("copy"), run=copy_head, see=lambda s: W.COPY_SEE.format(**tops(s))),
)


@register
class AttentionHeads(OnASentence, words=W):
    """Two heads on the lab's sentences, with their outputs joined by W_O."""

    name = "attention-heads"
    subject = ("sentence", "tokens", "head1", "head2", "W_O")
    params = (
        sentence_menu(near="head1", **W.PARAMS["sentence"]),
        Asker("query", default="", near="head1", **W.PARAMS["query"]),
        Choice("head1", default="axis1", choices=HEAD_CHOICES, near="head1", **W.PARAMS["head1"]),
        Choice("head2", default="axis2", choices=HEAD_CHOICES, near="head2", **W.PARAMS["head2"]),
        Choice("W_O", default="average", choices=tuple(W.W_O_LABELS.items()), control=False, **W.PARAMS["W_O"]),
    )
    values = W.VALUES
    experiments = EXPERIMENTS

    def setup(self, state: dict, options: dict) -> dict:
        state["tokens"] = sentence(state["sentence"]).tokens
        state["query"] = asked(state, len(state["tokens"]) - 1)
        state["heads"] = [head_matrices(state[name]) for name in HEADS]
        state["W_O"] = w_o(state["W_O"])  # (4, 2): rows 0-1 are W_O^1, rows 2-3 W_O^2
        return state

    def start(self, state: dict) -> dict:
        """Experiments start from the figure as the reader left it: "copy" gives head 2 head 1's matrices now."""
        return state

    def changed(self, state: dict, name: str) -> dict:
        if name == "sentence":
            state["tokens"] = sentence(state["sentence"]).tokens
            state["query"] = len(state["tokens"]) - 1
        elif name in HEADS and state[name] != "custom":
            state["heads"][HEADS.index(name)] = head_matrices(state[name])
        elif name == "W_O":
            state["W_O"] = w_o(state["W_O"])
        return _sync(state)

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        """A typed entry of a matrix: ``h1.W_Q.r.c`` of a head's, ``W_O.r.c`` of the output matrix."""
        for prefix, label, M in [("W_O", "Wo", state["W_O"]), *head_fields(state, 1), *head_fields(state, 2)]:
            if cell := cell_of(name, prefix, (len(M), 2)):
                r, c = cell
                M[r][c] = parse_cell(name, value, t("figure.matrix.cell", matrix=label, row=r + 1, column=c + 1))
                return _sync(state)
        return super().on_set(state, name, value)

    def on_select(self, state: dict, mark: str, i: Any) -> dict:
        state["query"] = clicked(self.name, state, mark, i, points=("x", "value"), cells=("a1", "a2"))
        return state

    def on_action(self, state: dict, name: str) -> dict:
        """A block of W_O set to a preset: ``W_O1=half``, ``W_O2=I``, ..."""
        target, _, preset = name.partition("=")
        if target in ("W_O1", "W_O2") and preset:
            if preset not in BLOCKS:
                raise ValueError(f"attention-heads has no preset {preset!r} for {target}")
            start = 2 * int(target[-1]) - 2  # W_O1 is rows 0-1, W_O2 rows 2-3
            state["W_O"][start : start + 2] = block(preset)
            return state
        known = ", ".join(["reset", *(e.name for e in self.experiments), *ACTIONS])
        raise ValueError(f"attention-heads has no action {name!r} (known: {known})")

    def compute(self, s: dict) -> dict:
        """The engine's two heads; the values "heads" and "W_O" are the state's own."""
        X, m = attend(s)
        out = {"X": X, "m": m, "weights": [h.weights for h in m.heads], "head_outputs": [h.outputs for h in m.heads]}
        return {**out, "concat": m.concat, "contributions": m.contributions, "outputs": m.outputs}

    def draw(self, s: dict, v: dict) -> list:
        return [table_panel(s, v, 0), table_panel(s, v, 1), plane_panel(s, v), combine_panel(s, v), readout(s, v)]

    def status(self, s: dict, v: dict) -> str:
        return W.STATUS.format(word=quote(s["tokens"][s["query"]]), **tops(s, v["m"]))

    def controls(self, s: dict, v: dict) -> list[dict]:
        """Sentence and asker, the experiments by the plane, each head's menu and matrices,
        then the two blocks of W_O with their presets."""
        out = [self.declared(n).control_dict(s) for n in ("sentence", "query")]
        out.append(self.experiment_control(s, near="outputs"))
        for h, name in enumerate(HEADS, 1):
            out.append(self.declared(name).control_dict(s))
            out += [matrix_control(prefix, label, M, near=name) for prefix, label, M in head_fields(s, h)]
        for h in (1, 2):
            first = 2 * h - 2  # the block's first row in W_O
            rows = s["W_O"][first : first + 2]
            buttons = [(f"W_O{h}={key}", label, rows == block(key)) for key, (label, _) in BLOCKS.items()]
            title = W.block_label(h)
            out.append(
                matrix_control(f"W_O{h}", title, rows, near="combine", cells="W_O", first_row=first, presets=buttons)
            )
        return out
