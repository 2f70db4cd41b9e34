"""The wording of the heatmap: titles, captions, labels, help and message templates.

Structure (which panels, which cells, which numbers) lives in scene.py and
experiments.py; they fill these templates with the engine's numbers, already written
with ``num``, ``pct`` and ``quote``. Every template is a key of the catalogue
(engine/locales/), ``figure.attention_heatmap.*``, looked up when it is filled
(``W.STATUS.format(...)``) or shown, so the page's language reaches it.
"""

from __future__ import annotations

from typing import Any

from explorables.figures import Words, quote, value_table

from .presets import MAX_DIM, MAX_TOKENS
from .table import PAD_MAX, PAD_TOKEN

say = Words("figure.attention_heatmap")  # the figure's catalogue keys, figure.attention_heatmap.*


def plural(count: int, word: str) -> str:
    """'1 row', '2 rows': for the author's option errors, which stay English."""
    return f"{count} {word}{'' if count == 1 else 's'}"


ERRORS = {  # an author's mistakes in the directive's options, in English as the build's messages are
    "too_many": "expected 1 to {most} words separated by spaces, got {n} words",
    "missing": "your own :tokens: need their vectors: add {add} with {rows} each, like '1, 0, 0.5; 0, 2, -1'",
    "d_k": "the keys have {k} numbers a row but the queries have {q}; queries and keys must have the same length d_k",
    "not_own": "vectors need your own :tokens: (one word a row); the preset '{preset}' has vectors of its own",
    "length": "expected an integer from 0 to {n} (the number of tokens), got {length}",
    "past": "expected a token among the first {n} (the table's length), got {query!r}",
}


COUNTS = {  # word: (one, more), for what a reader reads
    "token": say.all("count_token count_tokens"),
    "cell": say.all("count_cell count_cells"),
    "score": say.all("count_score count_scores"),
    "key": say.all("count_key count_keys"),
}


def count(n: int, word: str) -> str:
    """'1 token', '2 tokens' in the current language."""
    return COUNTS[word][0 if n == 1 else 1].format(n=n)


KINDS = say.table(  # a row's kind (table.kind_of_row) in words
    {"peaked": "kind_peaked", "flat": "kind_flat", "in between": "kind_between"},
    **{"one key": "kind_one_key", "2 keys": "kind_two_keys"},
)


def kind(name: str) -> str:
    return KINDS[name]()


# the built-in sentence's value coordinates; an author's (v1, v2, ...) stay as they are
VALUE_NAMES = say.table({"det/adj": "value_det_adj"}, noun="value_noun", verb="value_verb", other="value_other")


def value_names(names: list[str]) -> list[str]:
    return [VALUE_NAMES[name]() if name in VALUE_NAMES else name for name in names]


SUMMARY, TITLE = say.all("summary title")
ANNOUNCE = say.table(view="announce_view", cells="announce_cells")  # what a screen reader hears when they change
VALUES = value_table(  # (name, format, doc): the figure's named values, for prose and `explorables figures`
    ("tokens", "list", "The table's tokens: the first n words, then the [PAD]s."),
    ("n", "integer", "How many words of the sentence the table uses."),
    ("view", "text", "What the table shows: weights, scores or unscaled."),
    ("query", "integer", "The picked row, from 0."),
    ("scores", "matrix", "The scaled scores, one row a query (masked: minus infinity)."),
    ("weights", "matrix", "The weights, one row a query; each row sums to 1."),
    ("entropy", "list", "Each row's entropy in nats."),
    ("outputs", "matrix", "The outputs, one row a query."),
    ("causal", "bool", "Whether the causal mask is on."),
    ("padding", "integer", "How many [PAD] tokens follow the words."),
    ("cells", "integer", "The cells of the table: (n + padding)²."),
    announce=ANNOUNCE,
)
STATUS, STATUS_PADS, STATUS_UNSCALED = say.all("status status_pads status_unscaled")

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
VIEW_CHOICES = (
    ("weights", say("view_weights")),
    ("scores", say("view_scores")),
    ("unscaled", say("view_unscaled")),
)
N_HELP, N_HELP_PADDED, CUSTOM_LABEL = say.all("n_help n_help_padded custom_label")
PRESETS = say.table(sentence="preset_sentence", random="preset_random")
CONTROLS: dict[str, dict[str, Any]] = {  # each control's words: its label (and how messages call its number), its doc
    "view": {"label": say("view_label"), "doc": DOCS["view"]},
    "n": {"label": say("n_label"), "what": say("n_what"), "doc": DOCS["n"]},
    "causal": {"label": say("causal_label"), "doc": DOCS["causal"]},
    "padding": {
        "label": say("padding_label"),
        "what": say("padding_what"),
        "help": say("padding_help"),
        "doc": DOCS["padding"],
    },
    "preset": {"label": say("preset_label"), "doc": DOCS["preset"]},
    "query": {"label": say("query_label"), "doc": DOCS["query"]},
}
WHAT = say.table(q="what_q", k="what_k", v="what_v")
GRID_LABEL, GRID_ROW, GRID_CELL, COORDINATE = say.all("grid_label grid_row grid_cell coordinate")


def rows(m: str) -> dict[str, Any]:
    """The words of the rows ``m`` ("q", "k", "v"), typed in the grid: a message's name of an entry."""
    return {
        "label": WHAT[m],
        "doc": f"The {m} vectors of the tokens, one row a token, typed in the grid.",
        "entry": lambda s, i, c: COORDINATE.format(c=c + 1, what=WHAT[m], word=quote(s["tokens"][i])),
    }


# --- the table -----------------------------------------------------------------------------

TABLE_TITLE = say.table(weights="table_title_weights", scores="table_title_scores", unscaled="table_title_unscaled")
TABLE_TITLE_TAIL, TABLE_SIZE, TABLE_SIZE_PADDED = say.all("table_title_tail table_size table_size_padded")
TABLE_CAPTION, PICK_ROW = say.all("table_caption pick_row")
KEYS = {  # what the colours of a table mean: (tone, words) pairs
    "scores": [(-1, say("figure.key.low_score")), (1, say("figure.key.high_score"))],
    "weights": [(0.1, say("figure.key.little_weight")), (1, say("figure.key.much_weight"))],
    "outputs": [(-1, say("figure.key.negative")), (1, say("figure.key.positive"))],
}
CELL_WHAT = say.table(scores="cell_score", weights="cell_weight_word")
CELL_TITLE, CELL_TITLE_MASKED, CELL_PAIR, CELL_DOT = say.all("cell_title cell_title_masked cell_pair cell_dot")
CELL_SCALED, CELL_UNSCALED, CELL_PAD_ROW = say.all("cell_scaled cell_unscaled cell_pad_row")
CELL_MASKED = say("cell_masked")
WHY_MASKED = say.table(padding="why_masked_padding", causal="why_masked_causal")
CELL_SOFTMAX, CELL_WEIGHT = say.all("cell_softmax cell_weight")

# --- entropy, outputs, the picked row, the cost ---------------------------------------------

ENTROPY_TITLE, ENTROPY_CAPTION, ENTROPY_EVERY = say.all("entropy_title entropy_caption entropy_every")
ENTROPY_COLUMNS = (
    "H",
    say("entropy_col_max"),
    say("entropy_col_share"),
    say("entropy_col_kind"),
)
ENTROPY_TIPS = say.all("entropy_tip_h entropy_tip_max entropy_tip_share")
OUTPUTS_TITLE, OUTPUTS_CAPTION, OUTPUT_TIP = say.all("outputs_title outputs_caption output_tip")
OUTPUT_SUM, OUTPUT_MORE, ROW_TITLE, ROW_ONE_KEY = say.all("output_sum output_more row_title row_one_key")
ROW_GIVES, ROW_AND, ROW_ENTROPY, ROW_TWO_KEYS = say.all("row_gives row_and row_entropy row_two_keys")
ROW_KIND, ROW_OUTPUT, ROW_REST, ROW_MASKED = say.all("row_kind row_output row_rest row_masked")
COST_TITLE, COST_TEXT, COST_PADS = say.all("cost_title cost_text cost_pads")
COST_ITEMS = (
    say("cost_item_tokens"),
    say("cost_item_pads"),
    say("cost_item_cells"),
    say("cost_item_read"),
    "dₖ",
)

# --- experiments ----------------------------------------------------------------------------

PEAKED_FLAT, CAUSAL, PADDING, PADDING_ONE_ROW = say.all("peaked_flat causal padding padding_one_row")
PADDING_ROWS, PADDING_EXACTLY, GROW = say.all("padding_rows padding_exactly grow")
SCORES_ONE_KEY, SCORES, SCORES_OVER, WHY_SCALE = say.all("scores_one_key scores scores_over why_scale")
NEEDING = ("peaked-flat", "causal", "grow")  # the experiments that apply to some states only


def button(name: str, **fields) -> dict:
    """An experiment's name, label, title and what it needs where it does not apply
    (button_NAME, button_NAME_title, button_NAME_needs), ``fields`` filled in each."""
    label, title = say.button("button-" + name, **fields)
    needs = say(f"button_{name.replace('-', '_')}_needs", **fields) if name in NEEDING else ""
    return {"name": name, "label": label, "title": title, "needs": needs}
