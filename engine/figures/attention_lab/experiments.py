"""The lab's experiments ("Try this"). Each starts from the built-in settings (the
pronoun sentence, every matrix I, α = 0, T = 1, no mask), sets the figure, and says what
to see in numbers the engine computes for the state it made."""

import math
from functools import partial

from explorables.figures import Experiment, best, num, quote, setting, vec

from . import words as W
from .maths import attend, use_sentence

SHARP_T, FLAT_T, HALF_T = 0.1, 3.0, 0.5
STRENGTH = 1.0  # α, the position strength, in the "position code" experiment
LOOK_BACK_STRENGTH = 2.0  # α in the "look back" experiment: the position code at full strength


def repeat(state: dict) -> None:
    use_sentence(state, "repeat", query=4)


def top(state: dict, r, i: int | None = None) -> tuple[int, int, str]:
    """(i, j, word): the token i that asks (default: the state's), the token j it weighs
    most, and j's word quoted."""
    i = state["query"] if i is None else i
    j = best(r.weights[i])
    return i, j, quote(state["tokens"][j])


def same_word(state: dict, X, r) -> str:
    return W.SAME_WORD_SEE.format(output=vec(r.outputs[0]))


def same_word_mask(state: dict, X, r) -> str:
    first, second = vec(r.outputs[0]), vec(r.outputs[4])
    return W.SAME_WORD_MASK_SEE.format(first=first, weight=num(r.weights[4][0]), second=second)


def same_word_position(state: dict, X, r) -> str:
    fields = {}  # for the two "the"s, 0 and 4: x, the word weighed most (b) and its weight (w), the output
    for t in (0, 4):
        _, j, word = top(state, r, t)
        fields.update({f"x{t}": vec(X[t]), f"w{t}": num(r.weights[t][j]), f"b{t}": word, f"o{t}": vec(r.outputs[t])})
    return W.SAME_WORD_POSITION_SEE.format(alpha=setting(STRENGTH), **fields)


def sharp(state: dict, X, r) -> str:
    _, before = attend(dict(state, temperature=1.0))
    i, j, word = top(state, r)
    weight, output, value = num(r.weights[i][j], 3), vec(r.outputs[i]), vec(r.V[j])
    close = W.SHARP_CLOSE[output == value].format()
    before_weight = num(before.weights[i][j], 3)
    return W.SHARP_SEE.format(
        t=setting(SHARP_T), weight=weight, word=word, before=before_weight, output=output, close=close, value=value
    )


def flat(state: dict, X, r) -> str:
    i, n = state["query"], len(state["tokens"])
    mean = vec([math.fsum(c) / n for c in zip(*r.V, strict=True)])
    lo, hi = num(min(r.weights[i])), num(max(r.weights[i]))
    return W.FLAT_SEE.format(t=setting(FLAT_T), lo=lo, hi=hi, n=n, even=num(1 / n), output=vec(r.outputs[i]), mean=mean)


def double_query(state: dict, X, r) -> str:
    identity = [[1.0, 0.0], [0.0, 1.0]]
    _, half = attend(dict(state, W_Q=identity, temperature=HALF_T))
    _, plain = attend(dict(state, W_Q=identity))
    i, j, word = top(state, r)
    same = W.DOUBLE_SAME[r.weights == half.weights].format()
    weight, plain_weight, half_weight = (num(x.weights[i][j], 3) for x in (r, plain, half))
    return W.DOUBLE_QUERY_SEE.format(
        word=word, weight=weight, plain=plain_weight, t=setting(HALF_T), same=same, half=half_weight
    )


def blank_query(state: dict, X, r) -> str:
    n = len(state["tokens"])
    return W.BLANK_QUERY_SEE.format(n=n, even=num(1 / n), output=vec(r.outputs[0]))


def blank_query_mask(state: dict, X, r) -> str:
    first = ", ".join(map(quote, state["tokens"][:3]))
    o0, o1, o2 = (vec(o) for o in r.outputs[:3])
    return W.BLANK_QUERY_MASK_SEE.format(weight=num(r.weights[2][0]), words=first, o0=o0, o1=o1, o2=o2)


def bank(state: dict, X, r, other: str) -> str:
    """The message of a "bank" experiment, which compares with the sentence ``other``."""
    there = dict(state)
    use_sentence(there, other)
    _, r2 = attend(there)
    (i, j, word), (i2, _, other_word) = top(state, r), top(there, r2)
    weight, output, other_output = num(r.weights[i][j]), vec(r.outputs[i]), vec(r2.outputs[i2])
    return W.BANK_SEE.format(weight=weight, word=word, output=output, other=other_word, other_output=other_output)


def centre_words(state: dict) -> None:
    """Every word of the sentence at the centre: x is then the position code alone."""
    for w in state["tokens"]:
        state["emb"][w] = [0.0, 0.0]


def look_back(state: dict, X, r) -> str:
    tokens, i = state["tokens"], state["query"]
    every = W.LOOK_BACK_EVERY[all(best(row) == j - 1 for j, row in enumerate(r.weights) if j > 0)].format()
    word, before = quote(tokens[i]), quote(tokens[i - 1])
    return W.LOOK_BACK_SEE.format(word=word, weight=num(r.weights[i][i - 1]), before=before, every=every)


def message(see):
    """``see(state, X, r)`` as an experiment's message: X and r are the inputs and the
    engine's attention, every row, for the state the experiment made."""
    return lambda state: see(state, *attend(state))


def experiment(name: str, see, settings: dict | None = None, **more) -> Experiment:
    """The experiment ``name``, its button's words found by its name (``settings`` written in
    them as the messages write them, when they are shown), ``see(state, X, r)`` its message."""
    fields = {key: partial(setting, x) for key, x in (settings or {}).items()}
    return Experiment(name, *W.say.button(name, **fields), see=message(see), **more)


EXPERIMENTS = (
    experiment("same-word", same_word, run=repeat),
    experiment("same-word-mask", same_word_mask, set={"causal": True}, run=repeat),
    experiment("same-word-position", same_word_position, {"alpha": STRENGTH}, set={"s": STRENGTH}, run=repeat),
    experiment("sharp", sharp, {"t": SHARP_T}, set={"temperature": SHARP_T}),
    experiment("flat", flat, {"t": FLAT_T}, set={"temperature": FLAT_T}),
    Experiment("double-query", "Wq = 2I", W.DOUBLE_QUERY_TITLE, set={"W_Q": "2I"}, see=message(double_query)),
    Experiment("blank-query", "Wq = 0", W.BLANK_QUERY_TITLE, set={"W_Q": "0"}, see=message(blank_query)),
    experiment("blank-query-mask", blank_query_mask, set={"causal": True, "W_Q": "0", "query": 2}),
    experiment("look-back", look_back, set={"W_Q": "back1", "s": LOOK_BACK_STRENGTH}, run=centre_words),
    experiment("river-bank", partial(bank, other="money"), run=lambda s: use_sentence(s, "river")),
    experiment("money-bank", partial(bank, other="river"), run=lambda s: use_sentence(s, "money")),
)
