"""The wording of attention-row: titles, captions, help, legends and the sentences that
say what the figure shows. The structure (panels, marks, numbers) lives in scene.py."""
from __future__ import annotations

import math

from explorables.figures import num, pct, quote, vec

TITLE = "Attention explorer: one query row"
SUMMARY = ("One query row of scaled dot-product attention on a short sentence with 2-D "
           "vectors: drag keys, change the temperature, hide the future.")

DOC = {  # the directive options, for `explorables figures attention-row` and the guide
    "tokens": "The sentence, as words separated by spaces (up to 8). The built-in vectors fit "
              "'The cat chased the mouse .'; any other sentence needs queries, keys and values.",
    "query": "The word that asks: a word of the sentence (its first occurrence) or a 0-based position.",
    "temperature": "T: the scores are divided by T before the softmax. Lower is more decisive; "
                   "1 is the standard formula.",
    "causal": "Hide the future: every word after the asking word gets weight exactly 0.",
    "queries": "Query vectors, one x,y pair a token separated by ';', like '0.5,1; -1,0.2'. "
               "Empty: the built-in ones.",
    "keys": "Key vectors, one x,y pair a token separated by ';'. Empty: the built-in ones.",
    "values": "Value vectors, one x,y pair a token separated by ';'. Empty: the built-in ones.",
}

QUERY_LABEL = "Asking word"
TEMPERATURE_LABEL = "Temperature T"
TEMPERATURE_HELP = "Lower is more decisive; higher evens the weights out. T = 1 is the standard formula."
CAUSAL_LABEL = "Hide the future"
CAUSAL_HELP = "Words after the asking word stay on the plane but get weight exactly 0."
KEY_GRID = "Key coordinates (type exact values)"

STEPS = (  # (label, note): the formula as six steps
    ("q·k", "how well each key matches the question"),
    ("÷ √dₖ", "keep the numbers modest"),
    ("÷ T", "how decisive the choice is"),
    ("mask", "hide the words that come later"),
    ("softmax", "turn scores into shares that add up to 1"),
    ("Σ aᵢvᵢ", "blend the values by those shares"),
)
FORMULA_TITLE = "The formula, step by step"
FORMULA = "a = softmax(q·k / (√dₖ · T)),   new vector = Σ aᵢ vᵢ"
KEYS_TITLE = "Keys, and the question being asked"
VALUES_TITLE = "Values, and the new vector"
SCORES_TITLE = "Match scores q·k / √dₖ · click a word to make it ask"
WEIGHTS_TITLE = "Weights · shares of 1 · click a word to make it ask"
READOUT_TITLE = "In plain words"
ARITHMETIC = "Show the arithmetic for the best match"


def mark_label(word: str) -> str:
    """A token as a label on a plane: punctuation is quoted so that a lone "." shows."""
    return word if any(c.isalnum() for c in word) else quote(word)


def keys_caption(tokens: list[str], i: int) -> str:
    keys = "1" if len(tokens) == 1 else f"1-{len(tokens)}"
    return (f"The arrow is the query q of {quote(tokens[i])}. A key's score is how far it reaches along "
            "the arrow's line (to where its dotted line lands), times the arrow's length |q|, over √d. "
            f"Drag a key, or focus the plane, press {keys} and use the arrow keys.")


def values_caption(tokens: list[str], i: int, hull: bool) -> str:
    where = (f"so it stays inside the shaded hull; the dashed arrow shows how far {quote(tokens[i])} "
             "moved from its own value." if hull
             else "so with one value to blend it sits on that value.")  # one value (or all equal)
    return ("The diamond is the weights applied to the values. The weights are never negative and "
            f"add up to 1, {where}")


def keys_legend(asker: str, masked: bool) -> list[dict]:
    return [
        {"role": "query", "label": "question (query)", "shape": "line"},
        {"role": "key", "label": "key"},
        {"role": "key", "label": f"own key of {quote(asker)}", "shape": "ring"},
        {"role": "accent", "label": "picked: arrow keys move it", "shape": "ring"},
    ] + ([{"role": "muted", "label": "hidden"}] if masked else [])


def values_legend(asker: str, hull: bool) -> list[dict]:
    return [
        {"role": "value", "label": "value"},
        {"role": "value", "label": f"own value of {quote(asker)}", "shape": "ring"},
        {"role": "output", "label": "new vector", "shape": "diamond"},
    ] + ([{"role": "hull", "label": "where a blend can land", "shape": "square"}] if hull else [])


def key_name(j: int, word: str, own: bool, k, hidden: bool, score: float, weight: float) -> str:
    """What a screen reader says of a key."""
    return (f"key {j + 1}, {word}{' (own key)' if own else ''}, at {vec(k)}: "
            f"{'hidden by the mask, ' if hidden else ''}score {num(score)}, weight {num(weight)}")


def value_name(word: str, v, weight: float) -> str:
    return f"value of {word} at {vec(v)}, weight {num(weight)}; select to make it ask"


def score_tip(word: str, score: float, hidden: bool) -> str:
    return f"{word}: score {num(score)}" + ("; hidden by the mask" if hidden else "") + "; click to make it ask"


def mask_note(causal: bool, later: int) -> str:
    """The mask step in words: how many later words it hides."""
    if not causal:
        return "mask off: every word is visible"
    if later == 0:
        return "mask on: no word comes later, nothing hidden"
    return f"mask on: {later} later word{'s get' if later != 1 else ' gets'} weight 0"


def status(asker: str, best: str, top: float, is_tie: bool) -> str:
    if is_tie:
        return f"{quote(asker)} asks; every word it reads gets the same weight ({pct(top)})"
    return f"{quote(asker)} asks; best match: {quote(best)} ({pct(top)})"


def readout(tokens: list[str], i: int, r, hidden: list[bool], best: int, is_tie: bool, own) -> list[str]:
    """The row in plain words: who matches best, how even the split is, where the new
    vector went, and which words the mask hides."""
    n = len(tokens)
    order = sorted((j for j in range(n) if not hidden[j]), key=lambda j: -r.weights[j])
    asks = f"{quote(tokens[i])} asks its question."
    if len(order) == 1:
        why = "It is the only word" if n == 1 else "With the future hidden it can read only itself"
        first = f"{asks} {why}, so it keeps all of the weight and its new vector is its own value, {vec(r.output)}."
    elif is_tie:
        every = "every word" if len(order) == n else f"each of the {len(order)} words it can read"
        first = (f"{asks} No word matches better than another: {every} gets the same share, "
                 f"1/{len(order)} = {pct(r.weights[best])}.")
    else:
        second = order[1]
        first = (f"{asks} The best match is {quote(tokens[best])}, with {pct(r.weights[best])} of the weight; "
                 f"next comes {quote(tokens[second])} with {pct(r.weights[second])}.")
    paragraphs = [first]
    if len(order) > 1:
        moved = math.hypot(r.output[0] - own[0], r.output[1] - own[1])
        paragraphs += [
            f"An even split would give each of the {len(order)} visible words {pct(1 / len(order))}.",
            f"Its new vector is {vec(r.output)}, {num(moved)} away from its own value {vec(own)}, "
            "pulled towards the words with the biggest shares.",
        ]
    hidden_words = [tokens[j] for j in range(n) if hidden[j]]
    if hidden_words:
        paragraphs.append(f"Hidden by the mask, with weight exactly 0: {', '.join(map(quote, hidden_words))}.")
    return paragraphs


def stats(d: int, temperature: float, top: float, top_word: str, is_tie: bool, total: float, output,
          entropy: float) -> list:
    return [
        ["d", str(d)],
        ["Temperature", num(temperature)],
        ["Top weight", f"{num(top)} ({'a tie' if is_tie else top_word})"],
        ["Σ weights", num(total)],
        ["New vector", vec(output)],
        ["Entropy", f"{num(entropy)} nats"],
    ]
