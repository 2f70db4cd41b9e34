"""The "Try this" experiments of attention-row.

Each one starts from the first settings (as Reset does) and sets the figure; the
message it shows quotes numbers the engine computes for the state it made, so the
message functions below compute and the rest is data.
"""
from __future__ import annotations

import math

from explorables.engine import unit
from explorables.figures import Experiment, best, num, pct, quote, vec

from .vectors import readable, row, vectors

STEP_MATCH, STEP_SCALE, STEP_TEMPERATURE, STEP_MASK, STEP_SOFTMAX, STEP_BLEND = range(6)  # the formula's steps

SHARP_T = 0.1  # the "lower T" experiment's temperature
FLAT_T = 5.0  # the "raise T" experiment's temperature
SAME_KEY = [1.0, 0.5]  # the key every token gets in "make every key the same"
DETERMINERS = ("the", "a", "an")
CHOICE = "an asking word that can read two words or more"
TWO_WORDS = "a sentence of two words or more"


def chooses(state: dict) -> bool:
    """The asking word reads two words or more, so its weights are a choice to watch."""
    return len(readable(state)) >= 2


def two_words(state: dict) -> bool:
    return len(state["tokens"]) >= 2


def first_keys(state: dict) -> list[list[float]]:
    """The keys the figure started with (the author's, or the built-in ones)."""
    return vectors({"tokens": state["tokens"], **state["options"]}, "keys")


def some(m: int, n: int) -> str:
    """" of the m words it can read" when the mask hides some of the n words, else ""."""
    return f" of the {m} words it can read" if m < n else ""


def share(w: float) -> str:
    """A small total weight in words: a percentage, or "less than 0.1%"."""
    return "less than 0.1%" if 0 < w < 0.001 else pct(w)


def sharpen_message(state: dict) -> str:
    tokens = state["tokens"]
    r = row(state)
    order = sorted(readable(state), key=lambda j: -r.weights[j])
    j, second = order[0], order[1]
    text = (f"At T = {SHARP_T:g} the weight piles onto the strongest match: {quote(tokens[j])} "
            f"takes {pct(r.weights[j])} (it had {pct(row(state, temperature=1.0).weights[j])} at T = 1)")
    if len(order) == 2:
        text += f", and {quote(tokens[second])} is left with {share(r.weights[second])}"
    elif len(order) == 3:
        text += (f", {quote(tokens[second])} gets {pct(r.weights[second])}, and "
                 f"{quote(tokens[order[2]])} {share(r.weights[order[2]])}")
    else:
        rest = math.fsum(r.weights[m] for m in order[2:])
        text += (f", {quote(tokens[second])} gets {pct(r.weights[second])}, and the other "
                 f"{len(order) - 2} words share {share(rest)}")
    return text + (". Dividing by a small T stretches the gaps between the scores; the smaller T, the "
                   "closer the blend comes to a lookup of the single best value.")


def flatten_message(state: dict) -> str:
    r = row(state)
    keys = readable(state)
    weights = [r.weights[j] for j in keys]
    return (f"At T = {FLAT_T:g} the weights{some(len(keys), len(state['tokens']))} only run from "
            f"{pct(min(weights))} to {pct(max(weights))}, close to an even {pct(1 / len(keys))} each. The "
            f"scores have not changed; dividing them by a large T squeezes their gaps, and the "
            f"diamond drifts towards the plain average of the values it reads.")


def hide_future_message(state: dict) -> str:
    tokens, i = state["tokens"], state["query"]
    r = row(state)
    later = tokens[i + 1:]
    if not later:
        return (f"{quote(tokens[i])} is the last word, so nothing comes after it and the mask hides "
                f"nothing: pick an earlier word to see it bite.")
    before = row(state, causal=False).weights
    one = len(later) == 1
    hidden = (f"{', '.join(map(quote, later))} keep{'s its dot' if one else ' their dots'} on the plane "
              f"but get{'s' if one else ''} weight exactly 0, whatever {'its key says' if one else 'their keys say'}.")
    if i == 0:
        return (f"{quote(tokens[0])} is the first word, so with the future hidden it reads only "
                f"itself: it takes all of the weight (it had {pct(before[0])} with the mask off) and "
                f"its new vector is its own value, {vec(r.output)}. {hidden}")
    j = best(r.weights)
    was, now = pct(before[j]), pct(r.weights[j])
    change = f"rises from {was} to {now}" if was != now else f"keeps {now}: it had nearly all of it already"
    return (f"{quote(tokens[i])} may now read only itself and the words before it. {hidden} The "
            f"shares left still add up to 1: {quote(tokens[j])} {change}.")


def same_keys(state: dict) -> None:
    state["k"] = [list(SAME_KEY) for _ in state["k"]]


def same_keys_message(state: dict) -> str:
    r = row(state)
    n = len(state["tokens"])
    keys = readable(state)
    m = len(keys)
    text = (f"Every key is now {vec(SAME_KEY)}, so every word scores the same ({num(r.scores[0])}) "
            f"and each{some(m, n)} gets 1/{m} = {pct(r.weights[keys[0]])}. ")
    if m == n:
        return text + (f"The new vector is the plain average of the values, {vec(r.output)}, whichever "
                       f"word asks and whatever the temperature.")
    return text + (f"The new vector is the plain average of those {m} values, {vec(r.output)}, whatever "
                   f"the temperature; a later word would average more of them.")


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
    return (f"The query of {quote(tokens[i])} is short (length {num(math.hypot(*state['q'][i]))}), so every "
            f"score{some(len(keys), len(tokens))} stays near 0, from {num(min(scores))} to "
            f"{num(max(scores))}, and the weights only run from {pct(min(weights))} to "
            f"{pct(max(weights))}. A faint question hardly prefers anyone; a long query acts like a "
            f"low temperature.")


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
    rank = "the best match" if best(r.weights) == j else "a strong match"
    if pct(before) == pct(after):
        change = f"its weight stays at {pct(after)}, {rank}"
    elif after > before:
        change = (f"its weight rises from {pct(before)} to {pct(after)}, "
                  f"{'now the best match' if rank == 'the best match' else 'a strong match now'}, "
                  f"and every other share shrinks to make room")
    else:  # its key reached further along the question before
        change = f"its weight falls from {pct(before)} to {pct(after)}, still {rank}"
    return (f"The key of {quote(tokens[j])} now points straight along the question of "
            f"{quote(tokens[i])}: {change}. Drag it back slowly and watch its score follow how "
            f"far it reaches along the arrow.")


def first_word_message(state: dict) -> str:
    r = row(state)
    return (f"With the future hidden, {quote(state['tokens'][0])} can read only itself: it gets "
            f"{pct(r.weights[0])} of the weight and its new vector is its own value, "
            f"{vec(r.output)}. Every other word is greyed out with weight exactly 0.")


def double_keys(state: dict) -> None:
    state["k"] = [[2 * c for c in k] for k in state["k"]]


def double_keys_message(state: dict) -> str:
    T = state["temperature"]
    r = row(state)
    j = best(r.weights)
    same = row(state, k=first_keys(state), temperature=T / 2).weights[j]
    return (f"Every key is twice as long, so every score doubles. {quote(state['tokens'][j])} now takes "
            f"{num(r.weights[j], 3)} of the weight at T = {T:g}, and the original keys at "
            f"T = {T / 2:g} give it the same {num(same, 3)}: longer keys and a lower temperature "
            f"are one move.")


EXPERIMENTS = (
    Experiment("sharpen", f"Lower T to {SHARP_T:g}", "A small temperature makes the choice decisive",
               set={"temperature": SHARP_T, "step": STEP_TEMPERATURE}, see=sharpen_message,
               when=chooses, needs=CHOICE),
    Experiment("flatten", f"Raise T to {FLAT_T:g}", "A large temperature evens the weights out",
               set={"temperature": FLAT_T, "step": STEP_TEMPERATURE}, see=flatten_message,
               when=chooses, needs=CHOICE),
    Experiment("hide-future", "Hide the future", "The causal mask, for the word that asked first",
               set={"causal": True, "step": STEP_MASK}, see=hide_future_message,
               when=two_words, needs=TWO_WORDS),
    Experiment("same-keys", "Make every key the same", "Identical keys give identical scores",
               set={"step": STEP_SOFTMAX}, run=same_keys, see=same_keys_message, when=chooses, needs=CHOICE),
    Experiment("short-query", "Ask with the shortest query", "A short query is a faint question",
               set={"step": STEP_MATCH}, run=short_query, see=short_query_message,
               when=lambda s: chooses(dict(s, query=shortest_query(s))),
               needs="a word with the shortest query that can read two words or more"),
    Experiment("pull-key", "Pull a determiner's key to the question", "Lay one key along the query's arrow",
               set={"step": STEP_MATCH}, run=pull_key, see=pull_key_message,
               when=lambda s: chooses(s) and any(s["q"][s["query"]]),
               needs=CHOICE + ", with a query that is not zero"),
    Experiment("first-word", "First word, future hidden", "With the mask on, the first word sees only itself",
               set={"query": 0, "selected": 0, "causal": True, "step": STEP_MASK}, see=first_word_message,
               when=two_words, needs=TWO_WORDS),
    Experiment("double-keys", "Double every key", "Longer keys act like a lower temperature",
               set={"step": STEP_MATCH}, run=double_keys, see=double_keys_message, when=chooses, needs=CHOICE),
)
