"""The wording of the two heads: titles, captions, help, option docs.

What a reader reads is a key of the catalogue (engine/locales/), ``figure.attention_heads.*``:
a ``Say`` where the kit reads it, ``t`` where a function here fills it in. The option docs
are for authors and stay English."""

from __future__ import annotations

from typing import Any

from explorables.figures import Words, quote, t, value_table, vec

from ..sentences import sentence_values

say = Words("figure.attention_heads")  # the figure's catalogue keys, figure.attention_heads.*

TITLE, SUMMARY = say.all("title summary")
ANNOUNCE = say.table(query="announce_query", outputs="announce_outputs")
SUP = {1: "¹", 2: "²"}
DOC = {
    "sentence": "The sentence preset, shared with the attention lab: repeat, pronoun, river or money.",
    "query": (
        "The token whose outputs the plane shows: a word of the sentence or a 0-based position. Empty: the last token."
    ),
    "head1": "Head 1's matrices: axis1, axis2 or whole.",
    "head2": "Head 2's matrices: axis1, axis2 or whole.",
    "W_O": "The output matrix: average (½I, ½I), sum (I, I), head1 (I, 0) or head2 (0, I).",
}
VALUES = (
    *sentence_values(ANNOUNCE["query"]),
    *value_table(
        ("X", "matrix", "The token vectors e(word), (T, 2)."),
        ("heads", "list", "Each head's matrices W_Q, W_K, W_V."),
        ("weights", "list", "Each head's weights, (2, T, T)."),
        ("head_outputs", "list", "Each head's outputs o¹, o², (2, T, 2)."),
        ("concat", "matrix", "[o¹, o²] for every token, (T, 4)."),
        ("contributions", "list", "o¹Wo¹ and o²Wo² for every token, (2, T, 2)."),
        ("outputs", "matrix", "The multi-head outputs [o¹, o²] Wo, (T, 2)."),
        ("W_O", "matrix", "The output matrix, (4, 2): block 1 above block 2."),
        announce={"outputs": ANNOUNCE["outputs"]},
    ),
)
HEAD_LABELS = say.table(axis1="head_axis1", axis2="head_axis2", whole="head_whole", custom="head_custom")
W_O_LABELS = say.table(average="w_o_average", sum="w_o_sum", head1="w_o_head1", head2="w_o_head2")
LABEL = say.table(
    sentence="label_sentence", query="label_query", head1="label_head1", head2="label_head2", W_O="label_w_o"
)
PARAMS: dict[str, dict[str, Any]] = {
    name: {"label": label, "doc": DOC[name]} for name, label in LABEL.items()
}  # each parameter's words
PARAMS["head1"]["custom"] = PARAMS["head2"]["custom"] = HEAD_LABELS["custom"]  # once the reader types a matrix
TABLE_CAPTION, PLANE_CAPTION = say.all("table_caption plane_caption")
LEGEND = (
    ("head1", say("legend_head1"), "diamond"),
    ("head2", say("legend_head2"), "diamond"),
    ("output", say("legend_output"), "diamond"),
    ("value", say("legend_values"), None),
)
STATUS, TWO_VIEWS_SEE, COPY_SEE, READOUT_HEAD = say.all("status two_views_see copy_see readout_head")
CELL_HEAD, CELL_TITLE, VALUE_NAME, OUTPUT_NAME = say.all("cell_head cell_title value_name output_name")
COMBINE_TITLE, READOUT_TITLE, SAME_HEADS = say.all("combine_title readout_title same_heads")
MULTI_HEAD = say("label_multi_head")
OUTPUT_NAMES = say.table(o1="head1_output", o2="head2_output", combined="multi_head_output")


def table_title(h: int, preset: str) -> str:
    return t("figure.attention_heads.table_title", h=h, sup=SUP[h], preset=HEAD_LABELS[preset]())


def plane_title(word: str, i: int) -> str:
    return t("figure.attention_heads.plane_title", word=quote(word), i=i)


def block_label(h: int) -> str:
    return t("figure.attention_heads.block_label", sup=SUP[h], first=2 * h - 1, last=2 * h, h=h)


def midpoint(out) -> str:
    return t("figure.attention_heads.midpoint", output=vec(out))
