"""The tokens and vectors the table starts from: two presets and the author's own rows.

"sentence": twelve words with 4-D vectors built by hand. The first two coordinates say
what kind of word a token is (keys) or looks for (queries), noun or verb; the last two
are a position code (sin 0.5t, cos 0.5t), so that a query can ask for "a noun at
position 2". Its values mark the word class, so an output reads as the share of
attention each class got. "random": sixteen tokens with 8-D vectors drawn from a
standard normal distribution (seeded), for the statistics of the scores.
"""

import copy
import random
from functools import cache

from explorables.engine import position_code

MAX_TOKENS = 16
MAX_DIM = 8


SENTENCE = ["the", "old", "dog", "chased", "a", "small", "cat", "across", "the", "quiet", "garden", "."]
KINDS = ("det", "adj", "noun", "verb", "det", "adj", "noun", "prep", "det", "adj", "noun", "punct")
SEEKS = (  # (what kind of word the query looks for, how many places away), per token: the
    # query holds the position code of the place it looks at, an absolute position
    ("noun", 2),  # the -> dog
    ("noun", 1),  # old -> dog
    ("verb", 1),  # dog -> chased
    ("noun", -1),  # chased -> dog, its subject
    ("noun", 2),  # a -> cat
    ("noun", 1),  # small -> cat
    ("verb", -3),  # cat -> chased
    ("noun", 3),  # across -> garden
    ("noun", 2),  # the -> garden
    ("noun", 1),  # quiet -> garden
    (None, -3),  # garden -> across, by position only
    (None, None),  # . -> asks nothing: a zero query
)
VALUES = {"noun": ("noun",), "verb": ("verb",), "det/adj": ("det", "adj"), "other": ("prep", "punct")}  # kinds marked
OMEGA = 0.5  # radians per position of the sentence's position code
KEY_SIZE, QUERY_SIZE = 1.5, 3.0  # lengths of the key and query parts
RANDOM_SEED = 4


def _rounded(xs) -> list[float]:
    """Two decimals, so that every entry can be typed back exactly (and no -0.0)."""
    return [round(x, 2) + 0.0 for x in xs]


def preset(name: str, tokens, q, k, v, *, value_names=None, query: int = 0) -> dict:
    """A preset as the state holds it: its tokens, their q and k (T x d_k) and v (T x d_v),
    a name for each coordinate of the values (v1, v2, ... unless given), the row picked first."""
    names = value_names or [f"v{c + 1}" for c in range(len(v[0]))]
    return {"tokens": list(tokens), "q": q, "k": k, "v": v, "value_names": names, "preset": name, "query": query}


def _sentence() -> dict:
    """Keys: (is noun, is verb, position code) scaled by 1.5. Queries: (looks for a noun,
    looks for a verb, the position code of the place it looks at) scaled by 3."""

    def code(kind, at: int, size: float) -> list[float]:  # (noun, verb, the position code of at), times size
        return _rounded(size * x for x in (kind == "noun", kind == "verb", *position_code(at, OMEGA)))

    keys = [code(kind, j, KEY_SIZE) for j, kind in enumerate(KINDS)]
    queries = [
        code(seek, i + away, QUERY_SIZE) if away is not None else [0.0] * 4 for i, (seek, away) in enumerate(SEEKS)
    ]
    values = [[float(kind in kinds) for kinds in VALUES.values()] for kind in KINDS]
    return preset("sentence", SENTENCE, queries, keys, values, value_names=list(VALUES), query=2)


def _random() -> dict:
    """Sixteen tokens whose q, k, v entries are standard normal numbers (seed 4), rounded."""
    rng = random.Random(RANDOM_SEED)
    q, k, v = ([_rounded(rng.gauss(0.0, 1.0) for _ in range(8)) for _ in range(16)] for _ in "qkv")
    return preset("random", [f"x{j + 1}" for j in range(16)], q, k, v)


_MAKERS = {"sentence": _sentence, "random": _random}
NAMES = tuple(_MAKERS)  # the built-in presets, in the menu's order


@cache
def built_in(name: str) -> dict:
    """The built-in preset ``name``, made when first asked for: not at import, since the
    reader's browser imports every figure and the two presets round about 480 numbers."""
    return _MAKERS[name]()


def load(state: dict, chosen: dict) -> None:
    """Tokens and vectors of a preset, the whole of it in the table, none padded."""
    state.update(copy.deepcopy(chosen), n=len(chosen["tokens"]), padding=0)
