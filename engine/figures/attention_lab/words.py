"""The lab's wording: titles, captions, help lines, option docs. Structure lives in
model.py and scene.py; a sentence reworded here changes no structural golden."""
from __future__ import annotations

from explorables.figures import num, quote, sub

TITLE = "Attention lab: from embeddings to outputs"
SUMMARY = ("One head of self-attention on a sentence of up to 8 words with 2-D embeddings: "
           "drag words, edit W_Q, W_K, W_V, add a position code, and read the full weight matrix.")

# --- options and controls -------------------------------------------------------------------

DOC = {
    "sentence": ("The sentence preset: repeat (the cat sat on the mat), pronoun (the cat ate because it "
                 "was hungry), river (we sat on the river bank) or money (she put money in the bank)."),
    "query": ("The token that asks: a word of the sentence (its first occurrence) or a 0-based position. "
              "Empty: the sentence's own choice (the second 'the', 'it', 'bank')."),
    "s": ("α, the strength of the position code: xₜ = e(word) + α·pₜ. 0 leaves the embeddings alone. "
          "(The option keeps the short name s.)"),
    "temperature": "T: the scores are divided by T before the softmax; 1 is the standard formula.",
    "causal": "The causal mask: token i reads only tokens 0 .. i.",
    "table": "What the n x n table shows first: the weights aᵢⱼ or the scores sᵢⱼ.",
    "selected": "The word the keyboard moves on the embedding plane.",
}
MATRIX_DOC = ("{what}: a preset (I, 2I, 0, swap, rotate, axis1, back1) or two rows of two numbers like "
              "'1,0; 0,1' (row vectors: x W). back1 (look 1 back, for Wq) turns the position code back "
              "one step, so that every token looks one place back.")
MATRIX_WHAT = {"W_Q": "The query matrix", "W_K": "The key matrix", "W_V": "The value matrix"}
MATRIX_TITLES = {"W_Q": "Wq (query matrix)", "W_K": "Wk (key matrix)", "W_V": "Wv (value matrix)"}

LABEL = {"sentence": "Sentence", "query": "Asking token", "s": "Position strength α", "temperature": "Temperature T",
         "causal": "Causal mask", "table": "Table shows"}
HELP = {
    "s": "xₜ = e(word) + α·(sin 0.6t, cos 0.6t). At 0 a repeated word is one vector.",
    "temperature": "Scores are divided by T before the softmax: low is decisive, high is even.",
    "causal": "Token i reads only tokens 0 to i; later ones get weight exactly 0.",
}
TABLE_CHOICES = (("weights", "weights a (after the softmax)"), ("scores", "scores s (before the softmax)"))


def sentence_help(about: str) -> str:
    return f"This one shows {about}."


# --- the five steps -------------------------------------------------------------------------

STEPS = (("embed", "x = e(word) + α·p"), ("project", "q = xWq, k = xWk, v = xWv"), ("score", "s = q·k / √2"),
         ("softmax", "a = softmax(s / T)"), ("mix", "o = Σ a v"))
FORMULA = "x = e + α·p  →  q, k, v = xWq, xWk, xWv  →  s = q·k/√2  →  a = softmax(s/T)  →  o = Σ a v"


def steps_title(word: str, i: int) -> str:
    return f"Five steps for {quote(word)} (position {i})"


# --- panels -----------------------------------------------------------------------------------

EMBED_TITLE = "1. Embeddings: one point a word"
QK_TITLE = "2-3. The query and the keys"
VALUES_TITLE = "5. Values and every output"
TABLE_TITLE = {"weights": "4. Weights aᵢⱼ (each row sums to 1)",
               "scores": "3. Scores sᵢⱼ = qᵢ·kⱼ / √2 (orange above 0, teal below)"}
TABLE_CAPTION = ("Row i is what token i reads; column j is the token being read. The highlighted row is the "
                 "asking token: click any cell to make its row ask.")
READOUT_TITLE = "In plain words"
LEGEND = {"own": "word embedding e (drag)", "x": "x = e + α·p", "query": "query q", "key": "key k",
          "value": "value v", "output": "output o", "hull": "hull of the values"}


def embed_caption(n_words: int, alpha: float | None) -> str:
    text = (f"Drag a word, or focus the plane, press 1-{n_words} to pick a word and move it with the arrow "
            "keys. A repeated word is one point.")
    if alpha is None:
        return text + " With α = 0 every token's x is its word's e."
    return text + (f" Small squares: x = e + α·p, each token pushed by its position code (the dashed circle "
                   f"has radius α = {num(alpha)}).")


def qk_caption(i: int) -> str:
    return (f"The arrow is q{sub(i)} = x{sub(i)}Wq; the dots are the keys k = xWk. A key's score is how far it "
            "reaches along the arrow's line (to where its dotted line lands), times the arrow's length |q|, "
            "over √2.")


def values_caption(i: int, word: str) -> str:
    return (f"Each output is a weighted average of the values, so all of them stay in the shaded hull. The "
            f"large diamond is o{sub(i)} of {quote(word)}; the small ones are the other tokens' outputs. Click "
            "a value to make its token ask.")


def arithmetic_summary(word: str) -> str:
    return f"Show the arithmetic for {quote(word)}"
