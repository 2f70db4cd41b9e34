"""The built-in sentence, its hand-placed 2-D vectors, and vectors an author writes.

The vectors are placed by hand so that they can be drawn: in "The cat chased the
mouse ." the verb's query points towards the keys of its subject and object, the two
determiners wear keys that sit close together, and the final "." asks with a short
query, so its row is nearly flat.
"""

from explorables.engine import attention_row

from ..sentences import given_vectors

TOKENS = ("The", "cat", "chased", "the", "mouse", ".")

# a row a token: its query (what it looks for), its key (what it advertises), its value
# (what it hands over when it is read)
BUILT_IN_ROWS = (
    ((1.0, 0.9), (-0.8, 0.3), (-1.2, -0.6)),  # The: asks for its noun, cat; its key sits close to the other "the"
    ((0.3, -1.3), (0.9, 1.45), (1.5, 1.3)),  # cat: asks for the verb it does; a noun: its key lies along chased's query
    ((1.4, 1.0), (0.3, -1.1), (0.2, -1.5)),  # chased: asks who did it (cat) and to what (mouse); the verb's key
    ((1.3, 0.2), (-0.8, 0.8), (-1.0, 0.0)),  # the: asks for its noun, mouse; its key sits close to "The"
    ((0.2, -1.2), (1.4, 0.5), (1.6, -0.4)),  # mouse: asks for the verb done to it; a noun, along chased's query
    ((0.15, 0.1), (-0.3, -0.6), (-0.3, 1.4)),  # .: a short, faint question that prefers no one
)
QUERIES, KEYS, VALUES = zip(*BUILT_IN_ROWS, strict=True)  # (6, 2) each
BUILT_IN = {"queries": QUERIES, "keys": KEYS, "values": VALUES}  # option -> its built-in vectors

MAX_TOKENS = 8


def vectors(options: dict, name: str) -> list[list[float]]:
    """The vectors of the option ``name`` ("queries", "keys", "values"): the author's, written
    "0.5,1; -1,0.2; ..." (one x,y pair a token), or the built-in ones. # (T, 2)"""
    return [[float(x), float(y)] for x, y in given_vectors(options, width=2).get(name) or BUILT_IN[name]]


def row(state: dict, **changes):
    """The engine's result for the asking token's row (``changes`` replace state fields)."""
    s = {**state, **changes}
    i = s["query"]
    return attention_row(s["q"][i], s["k"], s["v"], index=i, temperature=s["temperature"], causal=s["causal"])


def readable(state: dict) -> list[int]:
    """The words the asking word may read: all of them, or with the future hidden itself
    and the words before it (the engine's mask)."""
    return [j for j, seen in enumerate(row(state).mask) if seen]


def tied(weights, hidden: list[bool]) -> bool:
    """Every word the asker reads (two or more) gets the same weight, to 1e-9: no best match."""
    seen = [w for w, h in zip(weights, hidden, strict=True) if not h]
    return len(seen) > 1 and max(seen) - min(seen) <= 1e-9
