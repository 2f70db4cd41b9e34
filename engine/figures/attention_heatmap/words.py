"""The wording of the heatmap: titles, captions, labels, help and message templates.

Structure (which panels, which cells, which numbers) lives in scene.py and
experiments.py; they fill these templates with the engine's numbers, already written
with ``num``, ``pct`` and ``quote``.
"""
from __future__ import annotations

from .presets import MAX_DIM, MAX_TOKENS
from .table import FLAT, PAD_MAX, PAD_TOKEN, PEAKED


def plural(count: int, word: str) -> str:
    """'1 token', '2 tokens'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


SUMMARY = ("The whole table of attention for a longer sentence: scores or weights cell by cell, each row's "
           "entropy, the outputs, the causal and padding masks, the n² cost.")
TITLE = "Attention as a table: every query against every key"
STATUS = "{tokens}{pads}, {cells}; row {word}: {kind}, entropy {H} nats"
STATUS_PADS = " and {p} " + PAD_TOKEN
STATUS_UNSCALED = " (without ÷√d_k)"

# --- options and controls ----------------------------------------------------------------

DOCS = {
    "preset": "The built-in tokens and vectors: 'sentence' (12 words, dₖ = 4) or 'random' (16 tokens, dₖ = 8). "
              "Ignored when :tokens: is given.",
    "tokens": f"Your own tokens, separated by spaces (up to {MAX_TOKENS}); then :queries:, :keys: and :values: "
              "are needed too.",
    "queries": "Query vectors for :tokens:, one row a token separated by ';', numbers by ',' "
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
VIEW_LABEL = "The table shows"
VIEW_CHOICES = (("weights", "weights (after softmax)"), ("scores", "scaled scores (before)"),
                ("unscaled", "weights without ÷√d_k"))
N_LABEL, N_WHAT = "Tokens n", "length n"
N_HELP = "The table uses the first n tokens: n² = {cells}."
CAUSAL_LABEL = "Causal mask (no looking ahead)"
PADDING_LABEL = f"{PAD_TOKEN} tokens after the sentence"
PADDING_HELP = "Filler that pads a sentence to its batch's length: no query may read it."
PRESET_LABEL = "Sentence"
CUSTOM_LABEL = "The author's tokens"
QUERY_LABEL = "The picked row"
WHAT = {"q": "query", "k": "key", "v": "value"}
GRID_LABEL = "Vectors of {word}: {what} (type exact values)"
GRID_ROW = "coordinate {c}"
GRID_CELL = "{what} coordinate {c}"
COORDINATE = "coordinate {c} of the {what} of {word}"

# --- the table -----------------------------------------------------------------------------

TABLE_TITLE = {
    "weights": "Weights a_ij = softmax of row i",
    "scores": "Scaled scores s_ij = q_i·k_j / √d_k",
    "unscaled": "Weights without ÷√d_k: softmax of q_i·k_j",
}
TABLE_TITLE_TAIL = " · rows ask (queries), columns answer (keys)"
TABLE_SIZE = "n = {tokens}, so the table has n² = {cells}"
TABLE_SIZE_PADDED = ("n = {tokens} and {p} " + PAD_TOKEN + ", so the table has {N}² = {cells} cells; the "
                     + PAD_TOKEN + " rows are muted: their outputs are not used")
TABLE_CAPTION = ("{size}. Click a cell or a row's word to pick that query; hover or focus a cell for its "
                 "arithmetic (arrow keys move between cells).")
PICK_ROW = "pick the row of {word}"
CELL_TITLE = "{q} → {k}: {what} {text}"
CELL_TITLE_MASKED = " (masked)"
CELL_PAIR = "query {q} (row {row}) · key {k} (column {col})"
CELL_DOT = "q·k = {terms} = {qk}"
CELL_SCALED = "s = q·k ÷ √{d} = {dot} ÷ {root} = {s}"
CELL_UNSCALED = "without ÷ √{d}: s = q·k = {s}"
CELL_PAD_ROW = f"a {PAD_TOKEN} row: computed like any other, its output is thrown away"
CELL_MASKED = "masked ({why}): s becomes −∞, so the weight is exactly 0"
WHY_MASKED = {"padding": "a padding key", "causal": "the causal mask: a later key"}
CELL_SOFTMAX = "softmax: exp({s} − {top}) = {e}; ÷ {total} = {w}"
CELL_WEIGHT = "weight a = {w}: {pct} of the row of {q}"

# --- entropy, outputs, the picked row, the cost ---------------------------------------------

ENTROPY_TITLE = "Entropy of each row · peaked or flat"
ENTROPY_CAPTION = ("H = −Σ a ln a in nats: 0 when one key takes all, ln m when the m keys a row can read share "
                   "evenly{every}. A row of 3 keys or more is peaked with H below " f"{PEAKED:.0%}"
                   " of ln m, flat above " f"{FLAT:.0%}" ".")
ENTROPY_EVERY = " (ln {n} = {ln} for a row that reads all {n})"
ENTROPY_COLUMNS = ("H", "ln m (max)", "H / max", "row is")
ENTROPY_TIPS = ("entropy of the row of {word}: {H} nats", "ln {m}: the entropy of an even split over {m} keys",
                "H as a share of its maximum")
OUTPUTS_TITLE = "Outputs o_i = Σ_j a_ij v_j · one row a token"
OUTPUTS_CAPTION = ("Each output is a weighted average of the value vectors, with the weights of its row. Hover "
                   "or focus a cell for its sum.")
OUTPUT_TIP = "output of {word}, {name}: {o}"
OUTPUT_SUM = "o[{name}] of {word} = Σ_j a_ij v_j[{name}]"
OUTPUT_MORE = " + … ({more} more)"
ROW_TITLE = "The row of {word}"
ROW_ONE_KEY = ("The row of {word} can read one key only, {best}, so it takes all of the weight and the entropy "
               "is 0.")
ROW_GIVES = "The row of {word} gives {a} to {best}"
ROW_AND = " and {a} to {second}"
ROW_ENTROPY = ". Its entropy is {H} nats against ln {m} = {ln} for an even split over its {m} visible keys"
ROW_TWO_KEYS = ": too few keys to call it peaked or flat."
ROW_KIND = ": {kind}."
ROW_OUTPUT = "Its output is {terms}{rest} = {o}."
ROW_REST = " + {more} smaller terms"
ROW_MASKED = "The masks hide {masked} of the {cells} cells; their weights are exactly 0."
COST_TITLE = "Cost"
COST_TEXT = ("Every query meets every key: {N} × {N} = {scores}{pads}. Doubling the length to {N2} would "
             "make {cells2}.")
COST_PADS = " ({tokens} and {p} " + PAD_TOKEN + ")"
COST_ITEMS = ("Tokens n", f"{PAD_TOKEN} tokens", "Cells in the table", "Read (not masked)", "d_k")

# --- experiments ----------------------------------------------------------------------------

PEAKED_FLAT = ("The most peaked row is {low}: {a} goes to {top} and its entropy is {H_low} nats. The flattest "
               "is {high} with {H_high} nats, against ln {m} = {ln} for a perfectly even row over its {m} keys. "
               "Click the rows to compare them.")
CAUSAL = ("Every cell above the diagonal is now masked: {hidden} of {cells} cells get weight exactly 0, and "
          "the first row can read only itself. The row of {word} now gives {a} to {best} (it gave {before} "
          "without the mask). Words that looked ahead for their noun have to settle for what came before.")
PADDING = ("{p} " + PAD_TOKEN + " tokens now follow {last}: filler that makes this sentence as long as a longer "
           "one in its batch. Their columns are masked for every query, so {newly} of {cells} get weight 0, "
           "and {rows} {exactly}the weights they had: the row of {word} still reads {keys}, with entropy {H} "
           "nats. The " + PAD_TOKEN + " rows are muted: they ask too, but their outputs are thrown away.")
PADDING_ONE_ROW = "the token's row keeps"
PADDING_ROWS = "the rows of the {n} tokens keep"
GROW = ("The table now uses {n} tokens: {cells} cells. Drag the slider back to {T}: that is {times} times the "
        "tokens and {cells_T} cells, {times_cells} times as many. The cost of attention grows with the square "
        "of the length.")
SCORES_ONE_KEY = ("These are the scaled scores before the softmax; a masked cell shows −∞. The row of {word} "
                  "can read one key only, {key}, so its score {s} becomes weight 1 whatever its size. Click a "
                  "row that reads more keys to see the softmax choose. Scores can be negative; weights never are.")
SCORES = ("These are the scaled scores before the softmax. In the row of {word}{over} they run from {lo} "
          "({lo_word}) to {hi} ({hi_word}); the softmax turns that gap of {gap} into weights {w_lo} and {w_hi}. "
          "Scores can be negative; weights never are.")
SCORES_OVER = " over the {m} keys it can read"
WHY_SCALE = ("Sixteen tokens with random entries of spread 1 and d = {d}. The raw dot products q·k have a "
             "spread of {raw}, close to √{d} = {root}; divided by √{d} the scores have {scaled}. Without the "
             "division the top weight of a row would average {top_u} instead of {top}, and the entropy would "
             "fall from {H} to {H_u} of its maximum: rows closer to one-hot, with less to learn from. See it: "
             "set the table to “weights without ÷√d_k”, then back to “weights”.")
BUTTONS = {  # name: (label, title, what it needs where it does not apply)
    "peaked-flat": ("Peaked and flat rows", "Which rows lock onto one key", "a row that can read three keys or more"),
    "scores": ("Show the raw scores", "The table before the softmax", ""),
    "causal": ("Causal mask", "No query may read a later key", "a table of two tokens or more"),
    "padding": ("Add {pad} " + PAD_TOKEN + " tokens", "Filler keys are hidden from every query", ""),
    "grow": ("Start from {grow} tokens", "The table grows as n²", "more than {grow} tokens"),
    "why-scale": ("Why divide by √d_k?", "Random vectors with and without the scaling", ""),
}
