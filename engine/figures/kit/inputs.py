"""What figures about sentences share: tokens, the asking word, vectors on a plane.

``resolve_query`` is the one rule for naming a token (a word of the sentence, its first
occurrence, an exact match before one that differs in capitals, or a 0-based position);
``extent`` sizes a square plane so that dragged points never make it grow.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..base import FieldError
from .text import MINUS

EDGE = 0.1  # a plane keeps every point at least this far inside its edge
_WHOLE = re.compile(r"[-\u2212]?\d+")


def words(value) -> list[str]:
    """Tokens from an option: text split at spaces, or a list of words."""
    return value.split() if isinstance(value, str) else [str(w) for w in value]


def resolve_query(query: Any, tokens: list[str]) -> int:
    """The position of the asking token: a 0-based position or a word of the sentence.

    A word that occurs more than once means its first occurrence; an exact match wins
    over one that differs only in capitals. Raises ValueError naming what was given.
    """
    text = str(query).strip()
    n = len(tokens)
    expected = f"a word of the sentence ({', '.join(tokens)}) or a position from 0 to {n - 1}"
    if isinstance(query, bool):
        raise ValueError(f"expected {expected}, got {query!r}")
    if isinstance(query, int) or _WHOLE.fullmatch(text):
        i = int(text.replace(MINUS, "-"))
        if not 0 <= i < n:
            raise ValueError(f"expected {expected}, got {text!r}")
        return i
    if text in tokens:
        return tokens.index(text)
    lower = [t.lower() for t in tokens]
    if text.lower() in lower:
        return lower.index(text.lower())
    import difflib  # noqa: PLC0415  only for a refused value: not at the worker's start

    close = difflib.get_close_matches(text.lower(), lower, n=1)
    hint = f" (did you mean {tokens[lower.index(close[0])]!r}?)" if close else ""
    raise ValueError(f"expected {expected}, got {text!r}{hint}")


def query_field(value: Any, tokens: list[str], name: str = "query") -> int:
    """``resolve_query`` for the control ``name``: FieldError saying what is wrong."""
    try:
        return resolve_query(value, tokens)
    except ValueError as err:
        raise FieldError(name, f"query: {err}") from None


def best(weights) -> int:
    """The position of the largest weight (the first, on a tie)."""
    return max(range(len(weights)), key=lambda j: weights[j])


def extent(points, base: float) -> float:
    """Half-width of a square plane that holds every point at least EDGE inside its edge:
    ``base``, or the next multiple of 0.5 above. A point dragged to the edge (which stops
    EDGE inside) never makes the plane grow."""
    m = max((abs(c) for p in points for c in p), default=0.0)
    return max(base, math.ceil((m + EDGE) * 2) / 2)
