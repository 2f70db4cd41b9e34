"""The lab's experiments ("Try this"). Each starts from the built-in settings (the
pronoun sentence, every matrix I, α = 0, T = 1, no mask), sets the figure, and says what
to see in numbers the engine computes for the state it made."""

from __future__ import annotations

import math

from explorables.figures import Experiment, Say, best, num, quote, t, typed, vec

from ..sentences import sentence
from .maths import attend, attend_with, use_sentence

SHARP_T, FLAT_T, HALF_T = 0.1, 3.0, 0.5
STRENGTH = 1.0  # α, the position strength, in the "position code" experiment
LOOK_BACK_STRENGTH = 2.0  # α in the "look back" experiment: the position code at full strength


def repeat(state: dict) -> None:
    use_sentence(state, sentence("repeat"), query=4)


def written(x: float) -> str:
    """A setting as the messages write it: 0.1 (in German 0,1)."""
    return typed(f"{x:g}")


def same_word(state: dict) -> str:
    _, r = attend(state)
    return t("figure.attention_lab.same_word_see", output=vec(r.outputs[0]))


def same_word_mask(state: dict) -> str:
    _, r = attend(state)
    return t(
        "figure.attention_lab.same_word_mask_see",
        first=vec(r.outputs[0]),
        weight=num(r.weights[4][0]),
        second=vec(r.outputs[4]),
    )


def same_word_position(state: dict) -> str:
    X, r = attend(state)
    tokens = state["tokens"]
    b0, b4 = best(r.weights[0]), best(r.weights[4])
    return t(
        "figure.attention_lab.same_word_position_see",
        alpha=written(STRENGTH),
        x0=vec(X[0]),
        x4=vec(X[4]),
        w0=num(r.weights[0][b0]),
        b0=quote(tokens[b0]),
        w4=num(r.weights[4][b4]),
        b4=quote(tokens[b4]),
        o0=vec(r.outputs[0]),
        o4=vec(r.outputs[4]),
    )


def sharp(state: dict) -> str:
    _, r = attend(state)
    _, before = attend_with(state, temperature=1.0)
    i, tokens = state["query"], state["tokens"]
    j = best(r.weights[i])
    close = (
        t("figure.attention_lab.sharp_matches")
        if vec(r.outputs[i]) == vec(r.V[j])
        else t("figure.attention_lab.sharp_close")
    )
    return t(
        "figure.attention_lab.sharp_see",
        t=written(SHARP_T),
        weight=num(r.weights[i][j], 3),
        word=quote(tokens[j]),
        before=num(before.weights[i][j], 3),
        output=vec(r.outputs[i]),
        close=close,
        value=vec(r.V[j]),
    )


def flat(state: dict) -> str:
    _, r = attend(state)
    i, n = state["query"], len(state["tokens"])
    mean = [math.fsum(c) / n for c in zip(*r.V, strict=True)]
    return t(
        "figure.attention_lab.flat_see",
        t=written(FLAT_T),
        lo=num(min(r.weights[i])),
        hi=num(max(r.weights[i])),
        n=n,
        even=num(1 / n),
        output=vec(r.outputs[i]),
        mean=vec(mean),
    )


def double_query(state: dict) -> str:
    _, r = attend(state)
    identity = [[1.0, 0.0], [0.0, 1.0]]
    _, half = attend_with(state, W_Q=identity, temperature=HALF_T)
    _, plain = attend_with(state, W_Q=identity)
    i = state["query"]
    j = best(r.weights[i])
    word = quote(state["tokens"][j])
    same = (
        t("figure.attention_lab.double_exactly") if r.weights == half.weights else t("figure.attention_lab.double_same")
    )
    return t(
        "figure.attention_lab.double_query_see",
        word=word,
        weight=num(r.weights[i][j], 3),
        plain=num(plain.weights[i][j], 3),
        t=written(HALF_T),
        same=same,
        half=num(half.weights[i][j], 3),
    )


def blank_query(state: dict) -> str:
    _, r = attend(state)
    n = len(state["tokens"])
    return t("figure.attention_lab.blank_query_see", n=n, even=num(1 / n), output=vec(r.outputs[0]))


def blank_query_mask(state: dict) -> str:
    _, r = attend(state)
    tokens = state["tokens"]
    return t(
        "figure.attention_lab.blank_query_mask_see",
        weight=num(r.weights[2][0]),
        words=", ".join(map(quote, tokens[:3])),
        o0=vec(r.outputs[0]),
        o1=vec(r.outputs[1]),
        o2=vec(r.outputs[2]),
    )


def bank(other_key: str):
    """The message of a "bank" experiment, which compares with the sentence ``other_key``."""

    def message(state: dict) -> str:
        _, r = attend(state)
        tokens, i = state["tokens"], state["query"]
        j = best(r.weights[i])
        other = dict(state)
        use_sentence(other, sentence(other_key))
        _, r2 = attend(other)
        i2 = other["query"]
        j2 = best(r2.weights[i2])
        return t(
            "figure.attention_lab.bank_see",
            weight=num(r.weights[i][j]),
            word=quote(tokens[j]),
            output=vec(r.outputs[i]),
            other=quote(other["tokens"][j2]),
            other_output=vec(r2.outputs[i2]),
        )

    return message


def centre_words(state: dict) -> None:
    """Every word of the sentence at the centre: x is then the position code alone."""
    for w in state["tokens"]:
        state["emb"][w] = [0.0, 0.0]


def look_back(state: dict) -> str:
    _, r = attend(state)
    tokens, i = state["tokens"], state["query"]
    every = all(best(row) == j - 1 for j, row in enumerate(r.weights) if j > 0)
    return t(
        "figure.attention_lab.look_back_see",
        word=quote(tokens[i]),
        weight=num(r.weights[i][i - 1]),
        before=quote(tokens[i - 1]),
        every=(t("figure.attention_lab.look_back_every") if every else t("figure.attention_lab.look_back_not_every")),
    )


# A table, laid out by hand: a line or two to an experiment (each key written out, as the
# catalogue's tests and translators find them).
# fmt: off
EXPERIMENTS = (
    Experiment("same-word", Say("figure.attention_lab.same_word"), Say("figure.attention_lab.same_word_title"),
               run=repeat, see=same_word),
    Experiment("same-word-mask", Say("figure.attention_lab.same_word_mask"),
               Say("figure.attention_lab.same_word_mask_title"), set={"causal": True}, run=repeat, see=same_word_mask),
    Experiment("same-word-position", Say("figure.attention_lab.same_word_position", alpha=lambda: written(STRENGTH)),
               Say("figure.attention_lab.same_word_position_title"), set={"s": STRENGTH}, run=repeat,
               see=same_word_position),
    Experiment("sharp", Say("figure.attention_lab.sharp", t=lambda: written(SHARP_T)),
               Say("figure.attention_lab.sharp_title"), set={"temperature": SHARP_T}, see=sharp),
    Experiment("flat", Say("figure.attention_lab.flat", t=lambda: written(FLAT_T)),
               Say("figure.attention_lab.flat_title"), set={"temperature": FLAT_T}, see=flat),
    Experiment("double-query", "Wq = 2I", Say("figure.attention_lab.double_query_title"), set={"W_Q": "2I"},
               see=double_query),
    Experiment("blank-query", "Wq = 0", Say("figure.attention_lab.blank_query_title"), set={"W_Q": "0"},
               see=blank_query),
    Experiment("blank-query-mask", Say("figure.attention_lab.blank_query_mask"),
               Say("figure.attention_lab.blank_query_mask_title"), set={"causal": True, "W_Q": "0", "query": 2},
               see=blank_query_mask),
    Experiment("look-back", Say("figure.attention_lab.look_back"), Say("figure.attention_lab.look_back_title"),
               set={"W_Q": "back1", "s": LOOK_BACK_STRENGTH}, run=centre_words, see=look_back),
    Experiment("river-bank", Say("figure.attention_lab.river_bank"), Say("figure.attention_lab.river_bank_title"),
               run=lambda s: use_sentence(s, sentence("river")), see=bank("money")),
    Experiment("money-bank", Say("figure.attention_lab.money_bank"), Say("figure.attention_lab.money_bank_title"),
               run=lambda s: use_sentence(s, sentence("money")), see=bank("river")),
)
# fmt: on
