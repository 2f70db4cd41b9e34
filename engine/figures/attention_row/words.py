"""The wording of attention-row: titles, captions, help, legends and the sentences that
say what the figure shows. The structure (panels, marks, numbers) lives in scene.py.

Every word is a key of the catalogue (engine/locales/), ``figure.attention_row.*``: what
the kit reads is a ``Say``, looked up when the scene is made; the functions below call
``t`` when they run, so the page's language reaches each of them."""

from __future__ import annotations

import math
from typing import Any

from explorables.figures import Value, Words, num, pct, quote, t, vec

say = Words("figure.attention_row")  # the figure's catalogue keys, figure.attention_row.*

TITLE, SUMMARY, ANNOUNCE_OUTPUT = say.all("title summary announce_output")

DOC = {  # the directive options, for `explorables figures attention-row` and the guide
    "tokens": "The sentence, as words separated by spaces (up to 8). The built-in vectors fit "
    "'The cat chased the mouse .'; any other sentence needs queries, keys and values.",
    "query": "The word that asks: a word of the sentence (its first occurrence) or a 0-based position.",
    "temperature": "T: the scores are divided by T before the softmax. Lower is more decisive; "
    "1 is the standard formula.",
    "causal": "Hide the future: every word after the asking word gets weight exactly 0.",
    "queries": "Query vectors, one x,y pair a token separated by ';', like '0.5,1; -1,0.2'. Empty: the built-in ones.",
    "keys": "Key vectors, one x,y pair a token separated by ';'. Empty: the built-in ones.",
    "values": "Value vectors, one x,y pair a token separated by ';'. Empty: the built-in ones.",
}

ERRORS = {  # an author's mistakes in the directive's options, in English as the build's messages are
    "own_sentence": "the built-in vectors fit only the sentence '{builtin}'; for '{sentence}' "
    "add {add} with {n} x,y pair{s} each, like '0.5,1; -1,0.2'",
    "default_query": " ('chased' is the default, which fits only the built-in sentence: add :query:)",
}

VALUES = (  # the figure's named values, for prose and `explorables figures`
    Value("tokens", "list", "The words of the sentence."),
    Value("query", "integer", "The position of the asking word, from 0."),
    Value("scores", "list", "The scaled scores q·k / √dₖ of the asking word, one a word."),
    Value("weights", "list", "The attention weights of the asking word, one a word; they add up to 1."),
    Value(
        "output", "vector", "The asking word's new vector: the weights applied to the values.", announce=ANNOUNCE_OUTPUT
    ),
    Value("entropy", "decimal", "The entropy of the weights, in nats."),
    Value("temperature", "decimal", "The temperature T."),
    Value("causal", "bool", "Whether the future is hidden."),
    Value("keys", "matrix", "The key vectors, one x,y pair a word."),
)

PARAMS: dict[str, dict[str, Any]] = {  # each parameter's words: its label, doc and help, and how messages call it
    "query": {"label": say("query_label"), "doc": DOC["query"]},
    "temperature": {"doc": DOC["temperature"], **say.table(label="temperature_label", help="temperature_help")},
    "causal": {"doc": DOC["causal"], **say.table(label="causal_label", help="causal_help")},
    "selected": {"label": "The key the keyboard moves"},
    "step": {"label": "The highlighted step of the formula"},
}
PARAMS["temperature"]["what"] = say("temperature_what")
KEY_GRID, KEY_COORDINATE = say.all("key_grid key_coordinate")  # the typed keys, and one of their fields
PARAMS["k"] = {  # the keys, typed in a grid: a row a word, x and y, and how a message names one
    "label": KEY_GRID,
    "doc": "The key vectors, one x,y pair a word, typed in the grid or dragged.",
    "columns": ("x", "y"),
    "entry": lambda s, i, c: KEY_COORDINATE.format(axis="xy"[c], word=quote(s["tokens"][i])),
}
# The panels' fixed words
LOW_SCORE, HIGH_SCORE = say.all("figure.key.low_score figure.key.high_score")  # the score row's key
FORMULA, FORMULA_TITLE, KEYS_TITLE, VALUES_TITLE, SCORES_TITLE = say.all(
    "formula formula_title keys_title values_title scores_title"
)
SCORE_HIDDEN, WEIGHTS_TITLE, READOUT_TITLE, ARITHMETIC, ARITH_HIDDEN = say.all(
    "score_hidden weights_title readout_title arithmetic arith_hidden"
)
ARITH_VISIBLE = say("arith_visible")
# The panels' words filled in with numbers (scene.py)
ARITH_ASKING, ARITH_BEST, ARITH_MASK, DETAIL_GETS = say.all("arith_asking arith_best arith_mask detail_gets")
DETAIL_NEW_VECTOR, NEW_LABEL, NEW_NAME, SCORE_KEY = say.all("detail_new_vector new_label new_name score_key")
SCORE_WEIGHT, ARITH_SOFTMAX = say.all("score_weight arith_softmax")
# What the experiments say, filled in with the engine's numbers (experiments.py)
SHARPEN_SEE, SHARPEN_TWO, SHARPEN_THREE, SHARPEN_MORE, SHARPEN_END = say.all(
    "sharpen_see sharpen_two sharpen_three sharpen_more sharpen_end"
)
FLATTEN_SEE, SOME, LESS_THAN, HIDE_LAST, HIDE_ONE, HIDE_MANY, HIDE_FIRST = say.all(
    "flatten_see some less_than hide_last hide_one hide_many hide_first"
)
HIDE_RISES, HIDE_KEEPS, HIDE_REST, SAME_KEYS_SEE, SAME_KEYS_ALL = say.all(
    "hide_rises hide_keeps hide_rest same_keys_see same_keys_all"
)
SAME_KEYS_SOME, SHORT_QUERY_SEE, PULL_BEST, PULL_STRONG, PULL_STAYS = say.all(
    "same_keys_some short_query_see pull_best pull_strong pull_stays"
)
PULL_NOW_BEST, PULL_NOW_STRONG, PULL_RISES, PULL_FALLS, PULL_KEY_SEE = say.all(
    "pull_now_best pull_now_strong pull_rises pull_falls pull_key_see"
)
FIRST_WORD_SEE, DOUBLE_KEYS_SEE = say.all("first_word_see double_keys_see")
STEP_COUNT = 6  # the formula's steps, as steps() words them


def steps() -> list[tuple[str, str]]:
    """(label, note): the formula as six steps."""
    return [
        ("q·k", t("figure.attention_row.step_match")),
        ("÷ √dₖ", t("figure.attention_row.step_scale")),
        ("÷ T", t("figure.attention_row.step_temperature")),
        (t("figure.attention_row.step_mask_label"), t("figure.attention_row.step_mask")),
        ("softmax", t("figure.attention_row.step_softmax")),
        ("Σ aᵢvᵢ", t("figure.attention_row.step_blend")),
    ]


def keys_caption(tokens: list[str], i: int) -> str:
    keys = "1" if len(tokens) == 1 else f"1-{len(tokens)}"
    return t("figure.attention_row.keys_caption", word=quote(tokens[i]), keys=keys)


def values_caption(tokens: list[str], i: int, hull: bool) -> str:
    where = (
        t("figure.attention_row.values_caption_hull", word=quote(tokens[i]))
        if hull
        else t("figure.attention_row.values_caption_one")
    )  # one value (or all equal)
    return t("figure.attention_row.values_caption", where=where)


def keys_legend(asker: str, masked: bool) -> list[dict]:
    return [
        {"role": "query", "label": t("figure.attention_row.legend_query"), "shape": "line"},
        {"role": "key", "label": t("figure.attention_row.legend_key")},
        {"role": "key", "label": t("figure.attention_row.legend_own_key", word=quote(asker)), "shape": "ring"},
        {"role": "accent", "label": t("figure.attention_row.legend_picked"), "shape": "ring"},
    ] + ([{"role": "muted", "label": t("figure.attention_row.legend_hidden")}] if masked else [])


def values_legend(asker: str, hull: bool) -> list[dict]:
    return [
        {"role": "value", "label": t("figure.attention_row.legend_value")},
        {"role": "value", "label": t("figure.attention_row.legend_own_value", word=quote(asker)), "shape": "ring"},
        {"role": "output", "label": t("figure.attention_row.legend_new_vector"), "shape": "diamond"},
    ] + ([{"role": "hull", "label": t("figure.attention_row.legend_hull"), "shape": "square"}] if hull else [])


def key_name(j: int, word: str, own: bool, k, hidden: bool, score: float, weight: float) -> str:
    """What a screen reader says of a key."""
    return t(
        "figure.attention_row.key_name",
        n=j + 1,
        word=word,
        own=t("figure.attention_row.key_name_own") if own else "",
        at=vec(k),
        hidden=t("figure.attention_row.key_name_hidden") if hidden else "",
        score=num(score),
        weight=num(weight),
    )


def value_name(word: str, v, weight: float) -> str:
    return t("figure.attention_row.value_name", word=word, at=vec(v), weight=num(weight))


def score_tip(word: str, score: float, hidden: bool) -> str:
    return t(
        "figure.attention_row.score_tip",
        word=word,
        score=num(score),
        hidden=t("figure.attention_row.score_tip_hidden") if hidden else "",
    )


def mask_note(causal: bool, later: int) -> str:
    """The mask step in words: how many later words it hides."""
    if not causal:
        return t("figure.attention_row.mask_off")
    if later == 0:
        return t("figure.attention_row.mask_none")
    if later == 1:
        return t("figure.attention_row.mask_hides_one", n=later)
    return t("figure.attention_row.mask_hides", n=later)


def status(asker: str, best: str, top: float, is_tie: bool) -> str:
    if is_tie:
        return t("figure.attention_row.status_tie", asker=quote(asker), share=pct(top))
    return t("figure.attention_row.status", asker=quote(asker), best=quote(best), share=pct(top))


def readout(tokens: list[str], i: int, r, hidden: list[bool], best: int, is_tie: bool, own) -> list[str]:
    """The row in plain words: who matches best, how even the split is, where the new
    vector went, and which words the mask hides."""
    n = len(tokens)
    order = sorted((j for j in range(n) if not hidden[j]), key=lambda j: -r.weights[j])
    asks = t("figure.attention_row.asks", word=quote(tokens[i]))
    if len(order) == 1:
        why = t("figure.attention_row.only_word") if n == 1 else t("figure.attention_row.only_itself")
        first = t("figure.attention_row.readout_alone", asks=asks, why=why, output=vec(r.output))
    elif is_tie:
        every = (
            t("figure.attention_row.every_word")
            if len(order) == n
            else t("figure.attention_row.each_readable", n=len(order))
        )
        first = t("figure.attention_row.readout_tie", asks=asks, every=every, n=len(order), share=pct(r.weights[best]))
    else:
        second = order[1]
        first = t(
            "figure.attention_row.readout_best",
            asks=asks,
            best=quote(tokens[best]),
            share=pct(r.weights[best]),
            second=quote(tokens[second]),
            second_share=pct(r.weights[second]),
        )
    paragraphs = [first]
    if len(order) > 1:
        moved = math.hypot(r.output[0] - own[0], r.output[1] - own[1])
        paragraphs += [
            t("figure.attention_row.readout_even", n=len(order), share=pct(1 / len(order))),
            t("figure.attention_row.readout_moved", output=vec(r.output), moved=num(moved), own=vec(own)),
        ]
    hidden_words = [tokens[j] for j in range(n) if hidden[j]]
    if hidden_words:
        paragraphs.append(t("figure.attention_row.readout_hidden", words=", ".join(map(quote, hidden_words))))
    return paragraphs


def stats(
    d: int, temperature: float, top: float, top_word: str, is_tie: bool, total: float, output, entropy: float
) -> list:
    who = t("figure.attention_row.stat_tie") if is_tie else top_word
    return [
        ["dₖ", str(d)],
        [t("figure.attention_row.stat_temperature"), num(temperature)],
        [t("figure.attention_row.stat_top"), f"{num(top)} ({who})"],
        [t("figure.attention_row.stat_sum"), num(total)],
        [t("figure.attention_row.stat_new_vector"), vec(output)],
        [t("figure.attention_row.stat_entropy"), t("figure.attention_row.stat_nats", value=num(entropy))],
    ]
