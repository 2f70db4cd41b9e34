"""The "Try this" experiments of attention-row.

Each one starts from the first settings (as Reset does) and sets the figure; the
message it shows quotes numbers the engine computes for the state it made, so the
message functions below compute and the rest is data.
"""

import math

from explorables.engine import unit
from explorables.figures import Experiment, best, num, pct, quote, setting, vec

from . import words as W
from .vectors import readable, row, vectors
from .words import say

STEP_MATCH, STEP_SCALE, STEP_TEMPERATURE, STEP_MASK, STEP_SOFTMAX, STEP_BLEND = range(6)  # the formula's steps

SHARP_T = 0.1  # the "lower T" experiment's temperature
FLAT_T = 5.0  # the "raise T" experiment's temperature
SAME_KEY = [1.0, 0.5]  # the key every token gets in "make every key the same"
DETERMINERS = ("the", "a", "an")


def chooses(state: dict) -> bool:
    """The asking word reads two words or more, so its weights are a choice to watch."""
    return sum(row(state).mask) >= 2


def some(m: int, n: int) -> str:
    """The words " of the m words it can read" when the mask hides some of the n words, else ""."""
    return W.SOME.format(m=m) if m < n else ""


def share(w: float) -> str:
    """A small total weight in words: a percentage, or "less than 0.1%"."""
    return W.LESS_THAN.format(share=pct(0.001)) if 0 < w < 0.001 else pct(w)


def sharpen_message(state: dict) -> str:
    tokens, r = state["tokens"], row(state)
    order = sorted(readable(state), key=lambda j: -r.weights[j])
    j, second, shares = order[0], order[1], [pct(r.weights[m]) for m in order]
    before = pct(row(state, temperature=1.0).weights[j])
    text = W.SHARPEN_SEE.format(t=setting(SHARP_T), word=quote(tokens[j]), share=shares[0], before=before)
    if len(order) == 2:
        text += W.SHARPEN_TWO.format(word=quote(tokens[second]), share=share(r.weights[second]))
    elif len(order) == 3:
        third = {"third": quote(tokens[order[2]]), "third_share": share(r.weights[order[2]])}
        text += W.SHARPEN_THREE.format(second=quote(tokens[second]), share=shares[1], **third)
    else:
        rest = share(math.fsum(r.weights[m] for m in order[2:]))
        text += W.SHARPEN_MORE.format(second=quote(tokens[second]), share=shares[1], n=len(order) - 2, rest=rest)
    return text + W.SHARPEN_END()


def flatten_message(state: dict) -> str:
    keys, weights = readable(state), row(state).weights
    seen = [weights[j] for j in keys]
    some_words = some(len(keys), len(state["tokens"]))
    return W.FLATTEN_SEE.format(
        t=setting(FLAT_T), some=some_words, lo=pct(min(seen)), hi=pct(max(seen)), even=pct(1 / len(keys))
    )


def hide_future_message(state: dict) -> str:
    tokens, i, r = state["tokens"], state["query"], row(state)
    later = tokens[i + 1 :]
    if not later:
        return W.HIDE_LAST.format(word=quote(tokens[i]))
    before = row(state, causal=False).weights
    hidden = (W.HIDE_ONE if len(later) == 1 else W.HIDE_MANY).format(words=", ".join(map(quote, later)))
    if i == 0:
        return W.HIDE_FIRST.format(word=quote(tokens[0]), before=pct(before[0]), output=vec(r.output), hidden=hidden)
    j = best(r.weights)
    was, now = pct(before[j]), pct(r.weights[j])
    change = W.HIDE_RISES.format(was=was, now=now) if was != now else W.HIDE_KEEPS.format(now=now)
    return W.HIDE_REST.format(word=quote(tokens[i]), hidden=hidden, best=quote(tokens[j]), change=change)


def same_keys_message(state: dict) -> str:
    r, n = row(state), len(state["tokens"])
    m, weight = sum(r.mask), pct(r.weights[0])  # the first word is never masked; the m words share one weight
    text = W.SAME_KEYS_SEE.format(key=vec(SAME_KEY), score=num(r.scores[0]), some=some(m, n), m=m, share=weight)
    return text + " " + (W.SAME_KEYS_ALL if m == n else W.SAME_KEYS_SOME).format(m=m, output=vec(r.output))


def short_query(state: dict) -> dict:
    """The shortest query asks, and its key is the one the keyboard moves."""
    state["query"] = state["selected"] = min(range(len(state["q"])), key=lambda j: math.hypot(*state["q"][j]))
    return state


def short_query_message(state: dict) -> str:
    tokens, i, r, keys = state["tokens"], state["query"], row(state), readable(state)
    scores, weights = [r.scores[j] for j in keys], [r.weights[j] for j in keys]
    return W.SHORT_QUERY_SEE.format(
        word=quote(tokens[i]),
        length=num(math.hypot(*state["q"][i])),
        some=some(len(keys), len(tokens)),
        lo=num(min(scores)),
        hi=num(max(scores)),
        wlo=pct(min(weights)),
        whi=pct(max(weights)),
    )


def pull_key(state: dict) -> None:
    """Lay a key the asking word can read along the question, as long as the best key: the
    last determiner's that is not asking, else the weakest key."""
    others, weights = [j for j in readable(state) if j != state["query"]], row(state).weights
    determiners = [j for j in others if state["tokens"][j].lower() in DETERMINERS]
    j = determiners[-1] if determiners else min(others, key=weights.__getitem__)
    length = max(math.hypot(*state["k"][best(weights)]), 1.0)
    state["k"][j] = [round(c * length, 2) for c in unit(state["q"][state["query"]])]
    state["selected"] = j


def pull_key_message(state: dict) -> str:
    tokens, i, j, r = state["tokens"], state["query"], state["selected"], row(state)
    was, now = row(state, k=vectors(state["options"], "keys")).weights[j], r.weights[j]  # the first keys
    before, after, is_best = pct(was), pct(now), best(r.weights) == j
    rank = (W.PULL_BEST if is_best else W.PULL_STRONG)()
    if before == after:
        change = W.PULL_STAYS.format(share=after, rank=rank)
    elif now > was:
        now = (W.PULL_NOW_BEST if is_best else W.PULL_NOW_STRONG)()
        change = W.PULL_RISES.format(before=before, after=after, now=now)
    else:  # its key reached further along the question before
        change = W.PULL_FALLS.format(before=before, after=after, rank=rank)
    return W.PULL_KEY_SEE.format(key=quote(tokens[j]), asker=quote(tokens[i]), change=change)


def first_word_message(state: dict) -> str:
    r = row(state)
    return W.FIRST_WORD_SEE.format(word=quote(state["tokens"][0]), share=pct(r.weights[0]), output=vec(r.output))


def double_keys(state: dict) -> None:
    state["k"] = [[2 * c for c in k] for k in state["k"]]


def double_keys_message(state: dict) -> str:
    T, r = state["temperature"], row(state)
    j = best(r.weights)
    same = num(row(state, k=vectors(state["options"], "keys"), temperature=T / 2).weights[j], 3)
    word, weight = quote(state["tokens"][j]), num(r.weights[j], 3)
    return W.DOUBLE_KEYS_SEE.format(word=word, weight=weight, t=setting(T), half=setting(T / 2), same=same)


def tried(name: str, see, *, t=None, run=None, needs=None, **sets) -> Experiment:
    """An experiment of this figure: its words are the catalogue's ``name`` and ``name_title``
    (``t`` the temperature they name), ``sets`` the parameters it sets, and ``needs`` where
    it applies, with the words that say so: by default ``CHOOSES``."""
    words = say.button(name, t=lambda: setting(t)) if t is not None else say.button(name)
    when, needed = needs or CHOOSES
    return Experiment(name, *words, set=sets, run=run, see=see, when=when, needs=needed)


# where an experiment applies (a test of the state it starts from), and the words that say so
CHOOSES, TWO = (chooses, say("needs_choice")), (lambda s: len(s["tokens"]) >= 2, say("needs_two"))
SHORT = (lambda s: chooses(short_query(dict(s))), say("needs_short"))  # once the shortest query asks, it chooses
PULL = (lambda s: chooses(s) and any(s["q"][s["query"]]), say("needs_pull"))  # a choice, and a query to lay a key along
EXPERIMENTS = (
    tried("sharpen", sharpen_message, t=SHARP_T, temperature=SHARP_T, step=STEP_TEMPERATURE),
    tried("flatten", flatten_message, t=FLAT_T, temperature=FLAT_T, step=STEP_TEMPERATURE),
    tried("hide-future", hide_future_message, needs=TWO, causal=True, step=STEP_MASK),
    tried(
        "same-keys", same_keys_message, run=lambda s: s.update(k=[list(SAME_KEY) for _ in s["k"]]), step=STEP_SOFTMAX
    ),
    tried("short-query", short_query_message, run=short_query, needs=SHORT, step=STEP_MATCH),
    tried("pull-key", pull_key_message, run=pull_key, needs=PULL, step=STEP_MATCH),
    tried("first-word", first_word_message, needs=TWO, query=0, selected=0, causal=True, step=STEP_MASK),
    tried("double-keys", double_keys_message, run=double_keys, step=STEP_MATCH),
)
