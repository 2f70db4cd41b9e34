"""The lab's wording: titles, captions, help lines, option docs. Structure lives in
model.py and scene.py; a sentence reworded here changes no structural golden.

What a reader reads is a key of the catalogue (engine/locales/), ``figure.attention_lab.*``:
a ``Say`` where the kit reads it, ``t`` where a function here fills it in. The option docs
are for authors and stay English."""

from __future__ import annotations

from typing import Any

from explorables.figures import Words, num, quote, t, value_table

from ..sentences import sentence, sentence_values, sub

say = Words("figure.attention_lab")  # the figure's catalogue keys, figure.attention_lab.*

TITLE, SUMMARY = say.all("title summary")

# --- options and controls -------------------------------------------------------------------

DOC = {
    "sentence": (
        "The sentence preset: repeat (the cat sat on the mat), pronoun (the cat ate because it "
        "was hungry), river (we sat on the river bank) or money (she put money in the bank)."
    ),
    "query": (
        "The token that asks: a word of the sentence (its first occurrence) or a 0-based position. "
        "Empty: the sentence's own choice (the second 'the', 'it', 'bank')."
    ),
    "s": (
        "α, the strength of the position code: xₜ = e(word) + α·pₜ. 0 leaves the embeddings alone. "
        "(The option keeps the short name s.)"
    ),
    "temperature": "T: the scores are divided by T before the softmax; 1 is the standard formula.",
    "causal": "The causal mask: token i reads only tokens 0 .. i.",
    "table": "What the n x n table shows first: the weights aᵢⱼ or the scores sᵢⱼ.",
    "selected": "The word the keyboard moves on the embedding plane.",
}
MATRIX_DOC = (
    "{what}: a preset (I, 2I, 0, swap, rotate, axis1, back1) or two rows of two numbers like "
    "'1,0; 0,1' (row vectors: x W). back1 (look 1 back, for Wq) turns the position code back "
    "one step, so that every token looks one place back."
)
MATRIX_WHAT = {"W_Q": "The query matrix", "W_K": "The key matrix", "W_V": "The value matrix"}
MATRIX_TITLES = say.table(W_Q="matrix_q", W_K="matrix_k", W_V="matrix_v")

LABEL = say.table(
    sentence="label_sentence",
    query="label_query",
    s="label_s",
    temperature="label_temperature",
    causal="label_causal",
    table="label_table",
)
TEMPERATURE_WHAT = say("what_temperature")
HELP = say.table(s="help_s", temperature="help_temperature", causal="help_causal")
TABLE_CHOICES = (
    ("weights", say("table_weights")),
    ("scores", say("table_scores")),
)


def sentence_help(about) -> str:
    return t("figure.attention_lab.sentence_help", about=about)


# each control's words, by its name
PARAMS: dict[str, dict[str, Any]] = {
    **{name: {"label": LABEL[name], "doc": DOC[name]} for name in LABEL},
    **{m: {"label": MATRIX_TITLES[m], "doc": MATRIX_DOC.format(what=what)} for m, what in MATRIX_WHAT.items()},
    "selected": {"label": "Selected word", "doc": DOC["selected"], "option": False, "control": False},  # no menu
}
for name, help_line in HELP.items():
    PARAMS[name]["help"] = help_line
PARAMS["sentence"]["help"] = lambda s: sentence_help(sentence(s["sentence"]).about)
PARAMS["temperature"]["what"] = TEMPERATURE_WHAT

VALUES = (
    *sentence_values(say("announce_query")),
    *value_table(
        ("E", "matrix", "The embedding e(word) of each token, (T, 2)."),
        ("X", "matrix", "The inputs x = e + α·p, (T, 2)."),
        ("Q", "matrix", "The queries q = xWq, (T, 2)."),
        ("K", "matrix", "The keys k = xWk, (T, 2)."),
        ("V", "matrix", "The values v = xWv, (T, 2)."),
        ("scores", "matrix", "The scores q·k / √2, (T, T)."),
        ("weights", "matrix", "The weights, softmax of each row of scores / T, (T, T)."),
        ("outputs", "matrix", "The outputs o = Σ a v, (T, 2)."),
        ("temperature", "decimal", "T, the temperature."),
        ("causal", "bool", "Whether the causal mask is on."),
        ("s", "decimal", "α, the strength of the position code."),
        ("W_Q", "matrix", "The query matrix."),
        ("W_K", "matrix", "The key matrix."),
        ("W_V", "matrix", "The value matrix."),
        announce={"s": say("announce_s")},
    ),
)


# --- the five steps -------------------------------------------------------------------------


def steps() -> list[tuple[str, str]]:
    """(label, note) of the five steps; the notes are formulas."""
    return [
        (t("figure.attention_lab.step_embed"), t("figure.attention_lab.step_embed_note")),
        (t("figure.attention_lab.step_project"), "q = xWq, k = xWk, v = xWv"),
        (t("figure.attention_lab.step_score"), "s = q·k / √2"),
        ("softmax", "a = softmax(s / T)"),
        (t("figure.attention_lab.step_mix"), "o = Σ a v"),
    ]


FORMULA = "x = e + α·p  →  q, k, v = xWq, xWk, xWv  →  s = q·k/√2  →  a = softmax(s/T)  →  o = Σ a v"


def steps_title(word: str, i: int) -> str:
    return t("figure.attention_lab.steps_title", word=quote(word), i=i)


# --- panels -----------------------------------------------------------------------------------

EMBED_TITLE, QK_TITLE, VALUES_TITLE = say.all("embed_title qk_title values_title")
TABLE_TITLE = say.table(weights="table_title_weights", scores="table_title_scores")
TABLE_CAPTION, READOUT_TITLE = say.all("table_caption readout_title")
LEGEND = {
    "own": say("legend_own"),
    "x": "x = e + α·p",
    "query": say("legend_query"),
    "key": say("legend_key"),
    "value": say("legend_value"),
    "output": say("legend_output"),
    "hull": say("legend_hull"),
}


def embed_caption(n_words: int, alpha: float | None) -> str:
    text = t("figure.attention_lab.embed_caption", n=n_words)
    if alpha is None:
        return text + t("figure.attention_lab.embed_caption_zero")
    return text + t("figure.attention_lab.embed_caption_pushed", alpha=num(alpha))


def qk_caption(i: int) -> str:
    return t("figure.attention_lab.qk_caption", i=sub(i))


def values_caption(i: int, word: str) -> str:
    return t("figure.attention_lab.values_caption", i=sub(i), word=quote(word))


def arithmetic_summary(word: str) -> str:
    return t("figure.attention_lab.arithmetic_summary", word=quote(word))


# --- experiments ------------------------------------------------------------------------------

DOUBLE_QUERY_TITLE, BLANK_QUERY_TITLE = say.all("double_query_title blank_query_title")  # "Wq = 2I", "Wq = 0"
SAME_WORD_SEE, SAME_WORD_MASK_SEE, SAME_WORD_POSITION_SEE = say.all(
    "same_word_see same_word_mask_see same_word_position_see"
)
SHARP_SEE, SHARP_CLOSE = say("sharp_see"), {True: say("sharp_matches"), False: say("sharp_close")}
FLAT_SEE, DOUBLE_QUERY_SEE = say.all("flat_see double_query_see")
DOUBLE_SAME = {True: say("double_exactly"), False: say("double_same")}
BLANK_QUERY_SEE, BLANK_QUERY_MASK_SEE, BANK_SEE = say.all("blank_query_see blank_query_mask_see bank_see")
LOOK_BACK_SEE, LOOK_BACK_EVERY = say("look_back_see"), {True: say("look_back_every"), False: say("look_back_not_every")}

# --- the panels' marks and cells --------------------------------------------------------------

X_NAME, KEY_NAME, VALUE_NAME, OUTPUT_NAME = say.all("x_name key_name value_name output_name")
WORD_NAME = {False: say("word_name"), True: say("word_name_many")}  # by whether the word repeats
DETAIL_LARGEST, DETAIL_SUMS, DETAIL_MASKED = say.all("detail_largest detail_sums detail_masked")
CELL_TITLE, CELL_SHOWN, CELL_MASKED, DETAIL_MASKED_CELL = say.all(
    "cell_title cell_shown cell_masked detail_masked_cell"
)
TABLE_KEY = {  # what the table's colours mean, by what it shows
    "weights": ((0.1, say("figure.key.little_weight")), (1, say("figure.key.much_weight"))),
    "scores": ((-1, say("figure.key.low_score")), (1, say("figure.key.high_score"))),
}

# --- the plain words and the arithmetic -------------------------------------------------------

STATUS, AT = say.all("status at")
READOUT_ALONE, READOUT_BEST, READOUT_SAME, READOUT_DIFFER = say.all(
    "readout_alone readout_best readout_same readout_differ"
)
READOUT_HIDDEN = {True: say("readout_hidden"), False: say("readout_hidden_one")}  # by whether several are hidden
CAUSE_POSITION, CAUSE_AND, CAUSE_ROWS = say.all("cause_position cause_and cause_rows")
CAUSE_MASK = {True: say("cause_mask"), False: say("cause_mask_one")}  # by whether the first token reads several
ARITH_THEN, ARITH_MASKED = say.all("arith_then arith_masked")
