"""The wording of the heatmap: titles, captions, labels, help and message templates.

Structure (which panels, which cells, which numbers) lives in scene.py and
experiments.py; they fill these templates with the engine's numbers, already written
with ``num``, ``pct`` and ``quote``. Every template is a key of the catalogue
(engine/locales/), ``figure.attention_heatmap.*``, looked up when it is filled
(``W.STATUS.format(...)``) or shown, so the page's language reaches it.
"""

from __future__ import annotations

from explorables.figures import Say

from .presets import MAX_DIM, MAX_TOKENS
from .table import PAD_MAX, PAD_TOKEN


def plural(count: int, word: str) -> str:
    """'1 row', '2 rows': for the author's option errors, which stay English."""
    return f"{count} {word}{'' if count == 1 else 's'}"


COUNTS = {  # word: (one, more), for what a reader reads
    "token": (Say("figure.attention_heatmap.count_token"), Say("figure.attention_heatmap.count_tokens")),
    "cell": (Say("figure.attention_heatmap.count_cell"), Say("figure.attention_heatmap.count_cells")),
    "score": (Say("figure.attention_heatmap.count_score"), Say("figure.attention_heatmap.count_scores")),
    "key": (Say("figure.attention_heatmap.count_key"), Say("figure.attention_heatmap.count_keys")),
}


def count(n: int, word: str) -> str:
    """'1 token', '2 tokens' in the current language."""
    return COUNTS[word][0 if n == 1 else 1].format(n=n)


KINDS = {  # a row's kind (table.kind_of_row) in words
    "peaked": Say("figure.attention_heatmap.kind_peaked"),
    "flat": Say("figure.attention_heatmap.kind_flat"),
    "in between": Say("figure.attention_heatmap.kind_between"),
    "one key": Say("figure.attention_heatmap.kind_one_key"),
    "2 keys": Say("figure.attention_heatmap.kind_two_keys"),
}


def kind(name: str) -> str:
    return KINDS[name]()


VALUE_NAMES = {  # the built-in sentence's value coordinates; an author's (v1, v2, ...) stay as they are
    "noun": Say("figure.attention_heatmap.value_noun"),
    "verb": Say("figure.attention_heatmap.value_verb"),
    "det/adj": Say("figure.attention_heatmap.value_det_adj"),
    "other": Say("figure.attention_heatmap.value_other"),
}


def value_names(names: list[str]) -> list[str]:
    return [VALUE_NAMES[name]() if name in VALUE_NAMES else name for name in names]


SUMMARY = Say("figure.attention_heatmap.summary")
TITLE = Say("figure.attention_heatmap.title")
ANNOUNCE = {
    "view": Say("figure.attention_heatmap.announce_view"),
    "cells": Say("figure.attention_heatmap.announce_cells"),
}
STATUS = Say("figure.attention_heatmap.status")
STATUS_PADS = Say("figure.attention_heatmap.status_pads")
STATUS_UNSCALED = Say("figure.attention_heatmap.status_unscaled")

# --- options and controls ----------------------------------------------------------------

DOCS = {
    "preset": "The built-in tokens and vectors: 'sentence' (12 words, dₖ = 4) or 'random' (16 tokens, dₖ = 8). "
    "Ignored when :tokens: is given.",
    "tokens": f"Your own tokens, separated by spaces (up to {MAX_TOKENS}); then :queries:, :keys: and :values: "
    "are needed too.",
    "queries": "Query vectors for :tokens:, one row per token, separated by ';', numbers by ',' "
    f"(at most {MAX_DIM} a row), like '1, 0, 0.5; 0, 2, -1'.",
    "keys": "Key vectors for :tokens:, written like :queries: and as long.",
    "values": "Value vectors for :tokens:, written like :queries: (any length up to 8).",
    "view": "What the table shows first: 'weights', 'scores', or 'unscaled' (the weights without the "
    "division by √d_k).",
    "length": "How many tokens the table uses, from 1 up; 0 (the default) means all of them.",
    "causal": "Start with the causal mask on: query i reads keys j <= i only.",
    "padding": f"How many {PAD_TOKEN} tokens follow the sentence (0 to {PAD_MAX}): filler whose keys no query "
    "may read.",
    "query": "The row picked first: a word of the sentence (its first occurrence) or a 0-based position. "
    "Empty: the preset's choice.",
    "n": "How many tokens the table uses (set by :length:).",
}
VIEW_LABEL = Say("figure.attention_heatmap.view_label")
VIEW_CHOICES = (
    ("weights", Say("figure.attention_heatmap.view_weights")),
    ("scores", Say("figure.attention_heatmap.view_scores")),
    ("unscaled", Say("figure.attention_heatmap.view_unscaled")),
)
N_LABEL, N_WHAT = Say("figure.attention_heatmap.n_label"), Say("figure.attention_heatmap.n_what")
N_HELP = Say("figure.attention_heatmap.n_help")
N_HELP_PADDED = Say("figure.attention_heatmap.n_help_padded")
CAUSAL_LABEL = Say("figure.attention_heatmap.causal_label")
PADDING_LABEL = Say("figure.attention_heatmap.padding_label")
PADDING_WHAT = Say("figure.attention_heatmap.padding_what")
PADDING_HELP = Say("figure.attention_heatmap.padding_help")
PRESET_LABEL = Say("figure.attention_heatmap.preset_label")
PRESETS = {
    "sentence": Say("figure.attention_heatmap.preset_sentence"),
    "random": Say("figure.attention_heatmap.preset_random"),
}
CUSTOM_LABEL = Say("figure.attention_heatmap.custom_label")
QUERY_LABEL = Say("figure.attention_heatmap.query_label")
WHAT = {
    "q": Say("figure.attention_heatmap.what_q"),
    "k": Say("figure.attention_heatmap.what_k"),
    "v": Say("figure.attention_heatmap.what_v"),
}
GRID_LABEL = Say("figure.attention_heatmap.grid_label")
GRID_ROW = Say("figure.attention_heatmap.grid_row")
GRID_CELL = Say("figure.attention_heatmap.grid_cell")
COORDINATE = Say("figure.attention_heatmap.coordinate")

# --- the table -----------------------------------------------------------------------------

TABLE_TITLE = {
    "weights": Say("figure.attention_heatmap.table_title_weights"),
    "scores": Say("figure.attention_heatmap.table_title_scores"),
    "unscaled": Say("figure.attention_heatmap.table_title_unscaled"),
}
TABLE_TITLE_TAIL = Say("figure.attention_heatmap.table_title_tail")
TABLE_SIZE = Say("figure.attention_heatmap.table_size")
TABLE_SIZE_PADDED = Say("figure.attention_heatmap.table_size_padded")
TABLE_CAPTION = Say("figure.attention_heatmap.table_caption")
PICK_ROW = Say("figure.attention_heatmap.pick_row")
CELL_WHAT = {
    "scores": Say("figure.attention_heatmap.cell_score"),
    "weights": Say("figure.attention_heatmap.cell_weight_word"),
}
CELL_TITLE = Say("figure.attention_heatmap.cell_title")
CELL_TITLE_MASKED = Say("figure.attention_heatmap.cell_title_masked")
CELL_PAIR = Say("figure.attention_heatmap.cell_pair")
CELL_DOT = Say("figure.attention_heatmap.cell_dot")
CELL_SCALED = Say("figure.attention_heatmap.cell_scaled")
CELL_UNSCALED = Say("figure.attention_heatmap.cell_unscaled")
CELL_PAD_ROW = Say("figure.attention_heatmap.cell_pad_row")
CELL_MASKED = Say("figure.attention_heatmap.cell_masked")
WHY_MASKED = {
    "padding": Say("figure.attention_heatmap.why_masked_padding"),
    "causal": Say("figure.attention_heatmap.why_masked_causal"),
}
CELL_SOFTMAX = Say("figure.attention_heatmap.cell_softmax")
CELL_WEIGHT = Say("figure.attention_heatmap.cell_weight")

# --- entropy, outputs, the picked row, the cost ---------------------------------------------

ENTROPY_TITLE = Say("figure.attention_heatmap.entropy_title")
ENTROPY_CAPTION = Say("figure.attention_heatmap.entropy_caption")
ENTROPY_EVERY = Say("figure.attention_heatmap.entropy_every")
ENTROPY_COLUMNS = (
    "H",
    Say("figure.attention_heatmap.entropy_col_max"),
    Say("figure.attention_heatmap.entropy_col_share"),
    Say("figure.attention_heatmap.entropy_col_kind"),
)
ENTROPY_TIPS = (
    Say("figure.attention_heatmap.entropy_tip_h"),
    Say("figure.attention_heatmap.entropy_tip_max"),
    Say("figure.attention_heatmap.entropy_tip_share"),
)
OUTPUTS_TITLE = Say("figure.attention_heatmap.outputs_title")
OUTPUTS_CAPTION = Say("figure.attention_heatmap.outputs_caption")
OUTPUT_TIP = Say("figure.attention_heatmap.output_tip")
OUTPUT_SUM = Say("figure.attention_heatmap.output_sum")
OUTPUT_MORE = Say("figure.attention_heatmap.output_more")
ROW_TITLE = Say("figure.attention_heatmap.row_title")
ROW_ONE_KEY = Say("figure.attention_heatmap.row_one_key")
ROW_GIVES = Say("figure.attention_heatmap.row_gives")
ROW_AND = Say("figure.attention_heatmap.row_and")
ROW_ENTROPY = Say("figure.attention_heatmap.row_entropy")
ROW_TWO_KEYS = Say("figure.attention_heatmap.row_two_keys")
ROW_KIND = Say("figure.attention_heatmap.row_kind")
ROW_OUTPUT = Say("figure.attention_heatmap.row_output")
ROW_REST = Say("figure.attention_heatmap.row_rest")
ROW_MASKED = Say("figure.attention_heatmap.row_masked")
COST_TITLE = Say("figure.attention_heatmap.cost_title")
COST_TEXT = Say("figure.attention_heatmap.cost_text")
COST_PADS = Say("figure.attention_heatmap.cost_pads")
COST_ITEMS = (
    Say("figure.attention_heatmap.cost_item_tokens"),
    Say("figure.attention_heatmap.cost_item_pads"),
    Say("figure.attention_heatmap.cost_item_cells"),
    Say("figure.attention_heatmap.cost_item_read"),
    "dₖ",
)

# --- experiments ----------------------------------------------------------------------------

PEAKED_FLAT = Say("figure.attention_heatmap.peaked_flat")
CAUSAL = Say("figure.attention_heatmap.causal")
PADDING = Say("figure.attention_heatmap.padding")
PADDING_ONE_ROW = Say("figure.attention_heatmap.padding_one_row")
PADDING_ROWS = Say("figure.attention_heatmap.padding_rows")
PADDING_EXACTLY = Say("figure.attention_heatmap.padding_exactly")
GROW = Say("figure.attention_heatmap.grow")
SCORES_ONE_KEY = Say("figure.attention_heatmap.scores_one_key")
SCORES = Say("figure.attention_heatmap.scores")
SCORES_OVER = Say("figure.attention_heatmap.scores_over")
WHY_SCALE = Say("figure.attention_heatmap.why_scale")
BUTTONS = {  # name: (label, title, what it needs where it does not apply)
    "peaked-flat": (
        Say("figure.attention_heatmap.button_peaked_flat"),
        Say("figure.attention_heatmap.button_peaked_flat_title"),
        Say("figure.attention_heatmap.button_peaked_flat_needs"),
    ),
    "scores": (
        Say("figure.attention_heatmap.button_scores"),
        Say("figure.attention_heatmap.button_scores_title"),
        None,
    ),
    "causal": (
        Say("figure.attention_heatmap.button_causal"),
        Say("figure.attention_heatmap.button_causal_title"),
        Say("figure.attention_heatmap.button_causal_needs"),
    ),
    "padding": (
        Say("figure.attention_heatmap.button_padding"),
        Say("figure.attention_heatmap.button_padding_title"),
        None,
    ),
    "grow": (
        Say("figure.attention_heatmap.button_grow"),
        Say("figure.attention_heatmap.button_grow_title"),
        Say("figure.attention_heatmap.button_grow_needs"),
    ),
    "why-scale": (
        Say("figure.attention_heatmap.button_why_scale"),
        Say("figure.attention_heatmap.button_why_scale_title"),
        None,
    ),
}
