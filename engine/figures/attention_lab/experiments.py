"""The lab's experiments ("Try this"). Each starts from the built-in settings (the
pronoun sentence, every matrix I, α = 0, T = 1, no mask), sets the figure, and says what
to see in numbers the engine computes for the state it made."""
from __future__ import annotations

import math

from explorables.figures import Experiment, best, num, quote, sentence, vec

from .maths import attend, attend_with, use_sentence

SHARP_T, FLAT_T, HALF_T = 0.1, 3.0, 0.5
STRENGTH = 1.0  # α, the position strength, in the "position code" experiment
LOOK_BACK_STRENGTH = 2.0  # α in the "look back" experiment: the position code at full strength


def repeat(state: dict) -> None:
    use_sentence(state, sentence("repeat"), query=4)


def same_word(state: dict) -> str:
    _, r = attend(state)
    return (f"The two “the”s (positions 0 and 4) have the same embedding, so the same query, and they read the "
            f"same set of tokens: rows 0 and 4 of the table are equal, and both outputs are {vec(r.outputs[0])}. "
            f"Attention on its own treats the sentence as a bag of words.")


def same_word_mask(state: dict) -> str:
    _, r = attend(state)
    return (f"With the causal mask the first “the” reads only itself: weight 1 and output {vec(r.outputs[0])}, "
            f"its own value. The second reads five tokens and gives {num(r.weights[4][0])} to each “the” (they "
            f"share one key); its output is {vec(r.outputs[4])}. The mask broke the tie.")


def same_word_position(state: dict) -> str:
    X, r = attend(state)
    tokens = state["tokens"]
    b0, b4 = best(r.weights[0]), best(r.weights[4])
    return (f"With α = {STRENGTH:g} the two “the”s become x₀ = {vec(X[0])} and x₄ = {vec(X[4])}. Now the first "
            f"puts its largest weight ({num(r.weights[0][b0])}) on {quote(tokens[b0])}, the second "
            f"({num(r.weights[4][b4])}) on {quote(tokens[b4])}: outputs {vec(r.outputs[0])} and "
            f"{vec(r.outputs[4])}. The position code broke the tie.")


def sharp(state: dict) -> str:
    _, r = attend(state)
    _, before = attend_with(state, temperature=1.0)
    i, tokens = state["query"], state["tokens"]
    j = best(r.weights[i])
    close = "matches" if vec(r.outputs[i]) == vec(r.V[j]) else "comes close to"
    return (f"At T = {SHARP_T:g} the row of “it” is nearly one-hot: {num(r.weights[i][j], 3)} on "
            f"{quote(tokens[j])} (it was {num(before.weights[i][j], 3)} at T = 1), and the output "
            f"{vec(r.outputs[i])} {close} the value of {quote(tokens[j])}, {vec(r.V[j])}, to two decimals. A low "
            f"temperature turns the average into a lookup.")


def flat(state: dict) -> str:
    _, r = attend(state)
    i, n = state["query"], len(state["tokens"])
    mean = [math.fsum(c) / n for c in zip(*r.V)]
    return (f"At T = {FLAT_T:g} the row of “it” is nearly flat: its weights run from {num(min(r.weights[i]))} to "
            f"{num(max(r.weights[i]))}, against an even 1/{n} = {num(1 / n)}. The output {vec(r.outputs[i])} "
            f"drifts towards the plain mean of the values, {vec(mean)}.")


def double_query(state: dict) -> str:
    _, r = attend(state)
    identity = [[1.0, 0.0], [0.0, 1.0]]
    _, half = attend_with(state, W_Q=identity, temperature=HALF_T)
    _, plain = attend_with(state, W_Q=identity)
    i = state["query"]
    j = best(r.weights[i])
    word = quote(state["tokens"][j])
    same = "exactly the same" if r.weights == half.weights else "the same"
    return (f"Wq = 2I doubles every query, so every score doubles: {word} now gets {num(r.weights[i][j], 3)} of "
            f"the weight of “it” (it had {num(plain.weights[i][j], 3)} with Wq = I). Setting Wq = I and "
            f"T = {HALF_T:g} gives {same} table, {num(half.weights[i][j], 3)} on {word}: the scale of the scores "
            f"is a temperature.")


def blank_query(state: dict) -> str:
    _, r = attend(state)
    n = len(state["tokens"])
    return (f"With Wq = 0 every query is zero, so every score is 0 and every row of the table is an even "
            f"1/{n} = {num(1 / n)}. Every token gets the same output, the mean of the values: {vec(r.outputs[0])}.")


def blank_query_mask(state: dict) -> str:
    _, r = attend(state)
    tokens = state["tokens"]
    return (f"With Wq = 0 and the mask, row i is even over the first i + 1 tokens: row 2 gives "
            f"{num(r.weights[2][0])} to each of {', '.join(map(quote, tokens[:3]))}. Each output is a running "
            f"mean: o₀ = {vec(r.outputs[0])}, o₁ = {vec(r.outputs[1])}, o₂ = {vec(r.outputs[2])}.")


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
        return (f"“bank” has the same embedding in both sentences. Here its largest weight, {num(r.weights[i][j])}, "
                f"is on {quote(tokens[j])}, and its output is {vec(r.outputs[i])}; beside "
                f"{quote(other['tokens'][j2])} it was {vec(r2.outputs[i2])}. The output of attention depends on "
                f"the words around it.")
    return message


def centre_words(state: dict) -> None:
    """Every word of the sentence at the centre: x is then the position code alone."""
    for w in state["tokens"]:
        state["emb"][w] = [0.0, 0.0]


def look_back(state: dict) -> str:
    _, r = attend(state)
    tokens, i = state["tokens"], state["query"]
    every = all(best(row) == t - 1 for t, row in enumerate(r.weights) if t > 0)
    return (f"With every word at the centre, x is the position code alone, α·pₜ. Wq = “look 1 back” turns each "
            f"query back one step, qᵢ = α·pᵢ₋₁, so the highest score is the token just before: {quote(tokens[i])} "
            f"puts {num(r.weights[i][i - 1])} on {quote(tokens[i - 1])}, and "
            f"{'every' if every else 'not every'} token from position 1 on reads the one before it most. Drag a "
            f"word out of the centre and its meaning competes with its position again.")


EXPERIMENTS = (
    Experiment("same-word", "Two “the”s", "A repeated word, no mask, no position code", run=repeat, see=same_word),
    Experiment("same-word-mask", "… with the mask", "The causal mask breaks the tie", set={"causal": True},
               run=repeat, see=same_word_mask),
    Experiment("same-word-position", f"… with α = {STRENGTH:g}", "The position code breaks the tie",
               set={"s": STRENGTH}, run=repeat, see=same_word_position),
    Experiment("sharp", f"T = {SHARP_T:g}", "A low temperature: nearly one-hot rows", set={"temperature": SHARP_T},
               see=sharp),
    Experiment("flat", f"T = {FLAT_T:g}", "A high temperature: nearly flat rows", set={"temperature": FLAT_T},
               see=flat),
    Experiment("double-query", "Wq = 2I", "Doubling the queries is halving the temperature", set={"W_Q": "2I"},
               see=double_query),
    Experiment("blank-query", "Wq = 0", "Queries that ask nothing: even rows", set={"W_Q": "0"}, see=blank_query),
    Experiment("blank-query-mask", "Wq = 0 with the mask", "Even rows over the past: running means",
               set={"causal": True, "W_Q": "0", "query": 2}, see=blank_query_mask),
    Experiment("look-back", "Wq = look 1 back", "A rotation of the position code: each token reads the one before",
               set={"W_Q": "back1", "s": LOOK_BACK_STRENGTH}, run=centre_words, see=look_back),
    Experiment("river-bank", "bank by the river", "The same word in one context",
               run=lambda s: use_sentence(s, sentence("river")), see=bank("money")),
    Experiment("money-bank", "bank with money", "The same word in another context",
               run=lambda s: use_sentence(s, sentence("money")), see=bank("river")),
)
