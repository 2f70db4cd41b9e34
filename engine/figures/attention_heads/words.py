"""The wording of the two heads: titles, captions, help, option docs.

What a reader reads is a key of the catalogue (engine/locales/), ``figure.attention_heads.*``:
a ``Say`` where the kit reads it, ``t`` where a function here fills it in. The option docs
are for authors and stay English."""

from __future__ import annotations

from explorables.figures import Say, quote, t, vec

TITLE = Say("figure.attention_heads.title")
SUMMARY = Say("figure.attention_heads.summary")
ANNOUNCE = {
    "query": Say("figure.attention_heads.announce_query"),
    "outputs": Say("figure.attention_heads.announce_outputs"),
}
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
HEAD_LABELS = {
    "axis1": Say("figure.attention_heads.head_axis1"),
    "axis2": Say("figure.attention_heads.head_axis2"),
    "whole": Say("figure.attention_heads.head_whole"),
    "custom": Say("figure.attention_heads.head_custom"),
}
W_O_LABELS = {
    "average": Say("figure.attention_heads.w_o_average"),
    "sum": Say("figure.attention_heads.w_o_sum"),
    "head1": Say("figure.attention_heads.w_o_head1"),
    "head2": Say("figure.attention_heads.w_o_head2"),
}
LABEL = {
    "sentence": Say("figure.attention_heads.label_sentence"),
    "query": Say("figure.attention_heads.label_query"),
    "head1": Say("figure.attention_heads.label_head1"),
    "head2": Say("figure.attention_heads.label_head2"),
    "W_O": Say("figure.attention_heads.label_w_o"),
}
TABLE_CAPTION = Say("figure.attention_heads.table_caption")
PLANE_CAPTION = Say("figure.attention_heads.plane_caption")
LEGEND = (
    ("head1", Say("figure.attention_heads.legend_head1"), "diamond"),
    ("head2", Say("figure.attention_heads.legend_head2"), "diamond"),
    ("output", Say("figure.attention_heads.legend_output"), "diamond"),
    ("value", Say("figure.attention_heads.legend_values"), None),
)
COMBINE_TITLE = Say("figure.attention_heads.combine_title")
READOUT_TITLE = Say("figure.attention_heads.readout_title")
SAME_HEADS = Say("figure.attention_heads.same_heads")
MULTI_HEAD = Say("figure.attention_heads.label_multi_head")
OUTPUT_NAMES = {
    "o1": Say("figure.attention_heads.head1_output"),
    "o2": Say("figure.attention_heads.head2_output"),
    "combined": Say("figure.attention_heads.multi_head_output"),
}


def table_title(h: int, preset: str) -> str:
    return t("figure.attention_heads.table_title", h=h, sup=SUP[h], preset=HEAD_LABELS[preset]())


def plane_title(word: str, i: int) -> str:
    return t("figure.attention_heads.plane_title", word=quote(word), i=i)


def block_label(h: int) -> str:
    return t("figure.attention_heads.block_label", sup=SUP[h], first=2 * h - 1, last=2 * h, h=h)


def midpoint(out) -> str:
    return t("figure.attention_heads.midpoint", output=vec(out))
