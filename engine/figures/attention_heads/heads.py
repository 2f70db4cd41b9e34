"""The heads' presets: each head's three 2 x 2 matrices, and W_O (4 x 2) in two blocks.

The built-in heads each look along one axis of the embedding plane: head 1 keeps only
the first coordinate ("a thing") in its queries and keys, head 2 only the second ("an
event or a description"). With W_V^h = I and W_O^1 = W_O^2 = I/2 the combined output
is the midpoint of the two head outputs.
"""

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


def head_preset_of(head: dict) -> str:
    """The preset a head's matrices are, or "custom"."""
    return next((key for key in HEAD_PRESETS if head_matrices(key) == head), "custom")


def block(name: str) -> list[list[float]]:
    """A block of W_O (2 x 2) by preset: "half", "I" or "0"."""
    return [list(row) for row in BLOCKS[name][1]]


def w_o(preset: str) -> list[list[float]]:
    """W_O (4 x 2) for a preset: block 1 above block 2."""
    first, second = W_O_PRESETS[preset]
    return block(first) + block(second)
