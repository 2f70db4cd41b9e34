"""The wording of the two heads: titles, captions, help, option docs."""
from __future__ import annotations

from explorables.figures import quote, vec

TITLE = "Two heads side by side"
SUMMARY = ("Two attention heads with their own W_Q, W_K, W_V side by side: two weight tables, the head outputs, "
           "and the multi-head output [o¹, o²] W_O.")
SUP = {1: "¹", 2: "²"}
DOC = {
    "sentence": "The sentence preset, shared with the attention lab: repeat, pronoun, river or money.",
    "query": ("The token whose outputs the plane shows: a word of the sentence or a 0-based position. Empty: the "
              "last token."),
    "head1": "Head 1's matrices: axis1, axis2 or whole.",
    "head2": "Head 2's matrices: axis1, axis2 or whole.",
    "W_O": "The output matrix: average (½I, ½I), sum (I, I), head1 (I, 0) or head2 (0, I).",
}
HEAD_LABELS = {"axis1": "compares along axis 1 (things)", "axis2": "compares along axis 2 (events)",
               "whole": "compares whole vectors (I)", "custom": "your own matrices"}
W_O_LABELS = {"average": "average (½I, ½I)", "sum": "sum (I, I)", "head1": "head 1 only (I, 0)",
              "head2": "head 2 only (0, I)"}
TABLE_CAPTION = "Row i is what token i reads. Click a cell to make its row ask."
PLANE_CAPTION = ("The diamonds are head 1's output o¹, head 2's output o², and the multi-head output. The dashed "
                 "arrows add o¹Wo¹ and o²Wo²: their sum is the multi-head output.")
LEGEND = (("head1", "head 1", "diamond"), ("head2", "head 2", "diamond"), ("output", "multi-head", "diamond"),
          ("value", "values", None))
COMBINE_TITLE = "Joining the heads"
READOUT_TITLE = "In plain words"
SAME_HEADS = ("The two heads have the same matrices, so they compute the same table and the same outputs: the "
              "second head adds nothing that the first did not already have.")


def table_title(h: int, preset: str) -> str:
    return f"Head {h} weights A{SUP[h]}: {HEAD_LABELS[preset]}"


def plane_title(word: str, i: int) -> str:
    return f"Outputs for {quote(word)} (position {i})"


def block_label(h: int) -> str:
    return f"Wo{SUP[h]}: rows {2 * h - 1}-{2 * h} of Wo (output matrix), for head {h}"


def midpoint(out) -> str:
    return f"With Wo¹ = Wo² = ½I the multi-head output {vec(out)} is the midpoint of o¹ and o²."
