"""The "Try this" experiments of attention-row.

Each one starts from the first settings (as Reset does) and sets the figure; the
message it shows quotes numbers the engine computes for the state it made, so the
message functions below compute and the rest is data.
"""

from __future__ import annotations

import math

from explorables.engine import unit
from explorables.figures import Experiment, Say, best, num, pct, quote, t, typed, vec

from .vectors import readable, row, vectors

STEP_MATCH, STEP_SCALE, STEP_TEMPERATURE, STEP_MASK, STEP_SOFTMAX, STEP_BLEND = range(6)  # the formula's steps

SHARP_T = 0.1  # the "lower T" experiment's temperature
FLAT_T = 5.0  # the "raise T" experiment's temperature
SAME_KEY = [1.0, 0.5]  # the key every token gets in "make every key the same"
DETERMINERS = ("the", "a", "an")
CHOICE = Say("figure.attention_row.needs_choice")
TWO_WORDS = Say("figure.attention_row.needs_two")


def chooses(state: dict) -> bool:
    """The asking word reads two words or more, so its weights are a choice to watch."""
    return len(readable(state)) >= 2


def two_words(state: dict) -> bool:
    return len(state["tokens"]) >= 2


def first_keys(state: dict) -> list[list[float]]:
    """The keys the figure started with (the author's, or the built-in ones)."""
    return vectors({"tokens": state["tokens"], **state["options"]}, "keys")


def some(m: int, n: int) -> str:
    """The words " of the m words it can read" when the mask hides some of the n words, else ""."""
    return t("figure.attention_row.some", m=m) if m < n else ""


def share(w: float) -> str:
    """A small total weight in words: a percentage, or "less than 0.1%"."""
    return t("figure.attention_row.less_than", share=pct(0.001)) if 0 < w < 0.001 else pct(w)


def written(x: float) -> str:
    """A setting as the messages write it: 0.1 (in German 0,1)."""
    return typed(f"{x:g}")


def sharpen_message(state: dict) -> str:
    tokens = state["tokens"]
    r = row(state)
    order = sorted(readable(state), key=lambda j: -r.weights[j])
    j, second = order[0], order[1]
    text = t(
        "figure.attention_row.sharpen_see",
        t=written(SHARP_T),
        word=quote(tokens[j]),
        share=pct(r.weights[j]),
        before=pct(row(state, temperature=1.0).weights[j]),
    )
    if len(order) == 2:
        text += t("figure.attention_row.sharpen_two", word=quote(tokens[second]), share=share(r.weights[second]))
    elif len(order) == 3:
        text += t(
            "figure.attention_row.sharpen_three",
            second=quote(tokens[second]),
            share=pct(r.weights[second]),
            third=quote(tokens[order[2]]),
            third_share=share(r.weights[order[2]]),
        )
    else:
        rest = math.fsum(r.weights[m] for m in order[2:])
        text += t(
            "figure.attention_row.sharpen_more",
            second=quote(tokens[second]),
            share=pct(r.weights[second]),
            n=len(order) - 2,
            rest=share(rest),
        )
    return text + t("figure.attention_row.sharpen_end")


def flatten_message(state: dict) -> str:
    r = row(state)
    keys = readable(state)
    weights = [r.weights[j] for j in keys]
    return t(
        "figure.attention_row.flatten_see",
        t=written(FLAT_T),
        some=some(len(keys), len(state["tokens"])),
        lo=pct(min(weights)),
        hi=pct(max(weights)),
        even=pct(1 / len(keys)),
    )


def hide_future_message(state: dict) -> str:
    tokens, i = state["tokens"], state["query"]
    r = row(state)
    later = tokens[i + 1 :]
    if not later:
        return t("figure.attention_row.hide_last", word=quote(tokens[i]))
    before = row(state, causal=False).weights
    hidden = t(
        "figure.attention_row.hide_one" if len(later) == 1 else "figure.attention_row.hide_many",
        words=", ".join(map(quote, later)),
    )
    if i == 0:
        return t(
            "figure.attention_row.hide_first",
            word=quote(tokens[0]),
            before=pct(before[0]),
            output=vec(r.output),
            hidden=hidden,
        )
    j = best(r.weights)
    was, now = pct(before[j]), pct(r.weights[j])
    change = (
        t("figure.attention_row.hide_rises", was=was, now=now)
        if was != now
        else t("figure.attention_row.hide_keeps", now=now)
    )
    return t(
        "figure.attention_row.hide_rest", word=quote(tokens[i]), hidden=hidden, best=quote(tokens[j]), change=change
    )


def same_keys(state: dict) -> None:
    state["k"] = [list(SAME_KEY) for _ in state["k"]]


def same_keys_message(state: dict) -> str:
    r = row(state)
    n = len(state["tokens"])
    keys = readable(state)
    m = len(keys)
    text = t(
        "figure.attention_row.same_keys_see",
        key=vec(SAME_KEY),
        score=num(r.scores[0]),
        some=some(m, n),
        m=m,
        share=pct(r.weights[keys[0]]),
    )
    if m == n:
        return text + " " + t("figure.attention_row.same_keys_all", output=vec(r.output))
    return text + " " + t("figure.attention_row.same_keys_some", m=m, output=vec(r.output))


def shortest_query(state: dict) -> int:
    return min(range(len(state["q"])), key=lambda j: math.hypot(*state["q"][j]))


def short_query(state: dict) -> None:
    state["query"] = state["selected"] = shortest_query(state)


def short_query_message(state: dict) -> str:
    tokens, i = state["tokens"], state["query"]
    r = row(state)
    keys = readable(state)
    scores = [r.scores[j] for j in keys]
    weights = [r.weights[j] for j in keys]
    return t(
        "figure.attention_row.short_query_see",
        word=quote(tokens[i]),
        length=num(math.hypot(*state["q"][i])),
        some=some(len(keys), len(tokens)),
        lo=num(min(scores)),
        hi=num(max(scores)),
        wlo=pct(min(weights)),
        whi=pct(max(weights)),
    )


def determiner(state: dict) -> int:
    """The key to pull, among those the asking word can read: the last determiner that is
    not asking, else the weakest key."""
    others = [j for j in readable(state) if j != state["query"]]
    for j in reversed(others):
        if state["tokens"][j].lower() in DETERMINERS:
            return j
    weights = row(state).weights
    return min(others, key=lambda j: weights[j])


def pull_key(state: dict) -> None:
    """Lay the determiner's key along the question, as long as the best key."""
    j = determiner(state)
    length = max(math.hypot(*state["k"][best(row(state).weights)]), 1.0)
    state["k"][j] = [round(c * length, 2) for c in unit(state["q"][state["query"]])]
    state["selected"] = j


def pull_key_message(state: dict) -> str:
    tokens, i, j = state["tokens"], state["query"], state["selected"]
    r = row(state)
    before, after = row(state, k=first_keys(state)).weights[j], r.weights[j]
    is_best = best(r.weights) == j
    rank = t("figure.attention_row.pull_best") if is_best else t("figure.attention_row.pull_strong")
    if pct(before) == pct(after):
        change = t("figure.attention_row.pull_stays", share=pct(after), rank=rank)
    elif after > before:
        now = t("figure.attention_row.pull_now_best") if is_best else t("figure.attention_row.pull_now_strong")
        change = t("figure.attention_row.pull_rises", before=pct(before), after=pct(after), now=now)
    else:  # its key reached further along the question before
        change = t("figure.attention_row.pull_falls", before=pct(before), after=pct(after), rank=rank)
    return t("figure.attention_row.pull_key_see", key=quote(tokens[j]), asker=quote(tokens[i]), change=change)


def first_word_message(state: dict) -> str:
    r = row(state)
    return t(
        "figure.attention_row.first_word_see",
        word=quote(state["tokens"][0]),
        share=pct(r.weights[0]),
        output=vec(r.output),
    )


def double_keys(state: dict) -> None:
    state["k"] = [[2 * c for c in k] for k in state["k"]]


def double_keys_message(state: dict) -> str:
    T = state["temperature"]
    r = row(state)
    j = best(r.weights)
    same = row(state, k=first_keys(state), temperature=T / 2).weights[j]
    return t(
        "figure.attention_row.double_keys_see",
        word=quote(state["tokens"][j]),
        weight=num(r.weights[j], 3),
        t=written(T),
        half=written(T / 2),
        same=num(same, 3),
    )


# A table, laid out by hand: a few lines to an experiment keeps the package's files under 300 lines.
# fmt: off
EXPERIMENTS = (
    Experiment("sharpen", Say("figure.attention_row.sharpen", t=lambda: written(SHARP_T)),
               Say("figure.attention_row.sharpen_title"),
               set={"temperature": SHARP_T, "step": STEP_TEMPERATURE}, see=sharpen_message,
               when=chooses, needs=CHOICE),
    Experiment("flatten", Say("figure.attention_row.flatten", t=lambda: written(FLAT_T)),
               Say("figure.attention_row.flatten_title"),
               set={"temperature": FLAT_T, "step": STEP_TEMPERATURE}, see=flatten_message,
               when=chooses, needs=CHOICE),
    Experiment("hide-future", Say("figure.attention_row.hide_future"), Say("figure.attention_row.hide_future_title"),
               set={"causal": True, "step": STEP_MASK}, see=hide_future_message,
               when=two_words, needs=TWO_WORDS),
    Experiment("same-keys", Say("figure.attention_row.same_keys"), Say("figure.attention_row.same_keys_title"),
               set={"step": STEP_SOFTMAX}, run=same_keys, see=same_keys_message, when=chooses, needs=CHOICE),
    Experiment("short-query", Say("figure.attention_row.short_query"), Say("figure.attention_row.short_query_title"),
               set={"step": STEP_MATCH}, run=short_query, see=short_query_message,
               when=lambda s: chooses(dict(s, query=shortest_query(s))),
               needs=Say("figure.attention_row.needs_short")),
    Experiment("pull-key", Say("figure.attention_row.pull_key"), Say("figure.attention_row.pull_key_title"),
               set={"step": STEP_MATCH}, run=pull_key, see=pull_key_message,
               when=lambda s: chooses(s) and any(s["q"][s["query"]]),
               needs=Say("figure.attention_row.needs_pull")),
    Experiment("first-word", Say("figure.attention_row.first_word"), Say("figure.attention_row.first_word_title"),
               set={"query": 0, "selected": 0, "causal": True, "step": STEP_MASK}, see=first_word_message,
               when=two_words, needs=TWO_WORDS),
    Experiment("double-keys", Say("figure.attention_row.double_keys"), Say("figure.attention_row.double_keys_title"),
               set={"step": STEP_MATCH}, run=double_keys, see=double_keys_message, when=chooses, needs=CHOICE),
)
# fmt: on
