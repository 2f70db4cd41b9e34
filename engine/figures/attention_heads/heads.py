"""The two heads: their presets, and what the engine makes of them for a state.

The presets are each head's three 2 x 2 matrices, and W_O (4 x 2) in two blocks. The
built-in heads each look along one axis of the embedding plane: head 1 keeps only
the first coordinate ("a thing") in its queries and keys, head 2 only the second ("an
event or a description"). With W_V^h = I and W_O^1 = W_O^2 = I/2 the combined output
is the midpoint of the two head outputs.
"""

from explorables.engine import multi_head
from explorables.figures import best, num, quote, vec

from ..sentences import VOCAB

IDENTITY = ((1.0, 0.0), (0.0, 1.0))  # I
MATRICES = ("W_Q", "W_K", "W_V")
HEAD_PRESETS = {  # key -> (W_Q, W_K, W_V), each (2, 2)
    "axis1": (((2.0, 0.0), (0.0, 0.0)), ((1.0, 0.0), (0.0, 0.0)), IDENTITY),
    "axis2": (((0.0, 0.0), (0.0, 2.0)), ((0.0, 0.0), (0.0, 1.0)), IDENTITY),
    "whole": (IDENTITY, IDENTITY, IDENTITY),
}
BLOCKS = {"half": ("½I", ((0.5, 0.0), (0.0, 0.5))), "I": ("I", IDENTITY), "0": ("0", ((0.0, 0.0), (0.0, 0.0)))}
W_O_PRESETS = {"average": ("half", "half"), "sum": ("I", "I"), "head1": ("I", "0"), "head2": ("0", "I")}


def head_matrices(key: str) -> dict[str, list[list[float]]]:
    """A head's matrices by preset: {"W_Q": (2, 2), "W_K": ..., "W_V": ...}."""
    return {m: [list(row) for row in M] for m, M in zip(MATRICES, HEAD_PRESETS[key], strict=True)}


def block(name: str) -> list[list[float]]:
    """A block of W_O (2 x 2) by preset: "half", "I" or "0"."""
    return [list(row) for row in BLOCKS[name][1]]


def w_o(preset: str) -> list[list[float]]:
    """W_O (4 x 2) for a preset: block 1 above block 2."""
    return [row for name in W_O_PRESETS[preset] for row in block(name)]


def attend(state: dict):
    """(X, result): the token vectors e(word), (T, 2), and the engine's two heads."""
    X = [list(VOCAB[w]) for w in state["tokens"]]  # (T, 2)
    return X, multi_head(X, state["heads"], state["W_O"])


def tops(state: dict, m=None) -> dict:
    """Each head's strongest weight of the asking token, the word it falls on and the
    head's output, as the messages write them (w1, b1, o1, w2, b2, o2), and the output;
    ``m`` is the engine's result for ``state`` where it is at hand."""
    m = m or attend(state)[1]
    tokens, i, out = state["tokens"], state["query"], {"output": vec(m.outputs[state["query"]])}
    for h, head in enumerate(m.heads, start=1):
        b = best(head.weights[i])
        out.update({f"w{h}": num(head.weights[i][b]), f"b{h}": quote(tokens[b]), f"o{h}": vec(head.outputs[i])})
    return out
