"""The numbers of the table, all of them from ``engine.attention``: its tokens and vectors
with the [PAD]s, both masks, the unscaled view, and how to judge a row (see __init__.py)."""

import math

from explorables.engine import attention

PAD_TOKEN, PAD_MAX = "[PAD]", 4  # the filler appended by the padding slider, and how many at most
PEAKED, FLAT = 0.5, 0.9  # a row of 3 keys or more is peaked below H/ln m = 0.5, flat above 0.9


def table(state: dict) -> tuple[list[str], list, list, list]:
    """The tokens and the Q (n + p, d_k), K (n + p, d_k) and V (n + p, d_v) of the table:
    the first n tokens, then ``padding`` [PAD] tokens with zero vectors."""
    n, p = state["n"], state["padding"]
    Q, K, V = (state[m][:n] + [[0.0] * len(state[m][0]) for _ in range(p)] for m in "qkv")
    return state["tokens"][:n] + [PAD_TOKEN] * p, Q, K, V


def result(state: dict, scaled: bool = True):
    """The engine's attention over the table with both masks; not ``scaled``: without the
    division by sqrt(d_k), i.e. with q_i multiplied by sqrt(d_k)."""
    _, Q, K, V = table(state)
    if not scaled:
        root = math.sqrt(len(Q[0]))
        Q = [[root * x for x in q] for q in Q]
    return attention(Q, K, V, causal=state["causal"], mask=[j < state["n"] for j in range(len(K))])


def kind_of_row(H: float, visible: int) -> str:
    """The row's kind: "peaked", "flat", "in between"; or "one key" / "2 keys" for a row that reads too few
    keys to judge (of two keys, 0.32 and 0.68 is already 90% of ln 2)."""
    if visible <= 1:
        return "one key"
    if visible == 2:
        return "2 keys"
    h = H / math.log(visible)
    return "peaked" if h < PEAKED else "flat" if h > FLAT else "in between"


def rows_reading(state: dict, r, least: int) -> list[int]:
    """The words' rows (not the [PAD]s') that read ``least`` keys or more. A row that can
    read one key only gives it all of the weight whatever the scores say, and one of two
    keys is too short to call peaked or flat (the entropy column judges from 3 keys)."""
    return [i for i in range(state["n"]) if sum(r.mask[i]) >= least]


def normalised(r, i: int) -> float:
    """H / ln m of a row that reads m >= 2 keys: 0 for one-hot, 1 for an even split."""
    return r.entropy[i] / math.log(sum(r.mask[i]))
