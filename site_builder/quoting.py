"""How a message quotes an author's or a reader's value: short ones whole, long ones
clipped to their first characters and their length."""

from __future__ import annotations

import re

QUOTE_LIMIT = 60  # characters of an author's or reader's value quoted in a message


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` if short; else its first ``limit`` characters, '…' and the full length."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Text in single quotes, or its first ``limit`` characters and its length."""
    text = str(text)
    if len(text) <= limit:
        return f"'{text}'"
    return f"'{text[:limit]}…' ({len(text)} characters)"


def quote(value) -> str:
    """A value as a message quotes it: repr for short values, a clipped repr otherwise."""
    text = repr(value)
    if len(text) <= QUOTE_LIMIT + 2:
        return text
    return f"{text[:QUOTE_LIMIT]}… ({len(text)} characters)"


# A value in single quotes: each quote pair taken in turn, short ones too, so that the
# words between two quoted values are never taken for one; a quote inside a word (the
# figure's) opens or closes none.
_QUOTED = re.compile(r"(?<!\w)'([^'\n]*)'(?!\w)")


def clip_quotes(message: str) -> str:
    """A message made elsewhere (the engine's) with every long quoted value clipped."""
    return _QUOTED.sub(lambda m: quoted(m.group(1)), message)
