"""Sentences with 2-D word embeddings, and the asking token (the 2 x 2 matrices a reader
types or picks are in matrices.py).

What the built-in attention figures share (the row, the table, the lab and the two heads
use it); no part of the public kit, so ``explorables.figures`` exports none of it:

- ``SENTENCES``: presets of at most ``MAX_TOKENS`` words, each with the token that asks
  when it is picked, and ``VOCAB``, one hand-placed embedding e(word) a *word*, so that
  the two tokens of "the" in "the cat sat on the mat" share one point. The first axis
  loosely means "a thing" (nouns sit far along it), the second "an event or a
  description" (verbs and adjectives sit high on it).
- ``Asker``: the asking token as a menu ("4: it"); a reader may also send a word or a
  position (``resolve_query``'s rule).
- ``VECTORS``, ``vector_options`` and ``given_vectors``: the options in which an author
  gives the tokens' own queries, keys and values (the row and the table take them), each
  coordinate within ``COORD_LIMIT``, and what they hold, read as they are checked.
- ``token_points``: a point a token, the asking token's a ring, the masked ones muted.
- Labels that name tokens: ``sub`` (the kit's ₀₁₂), ``token_label`` (the₀, the₄ only where a word
  repeats), ``column_labels`` and ``row_labels`` of a T x T table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import Option, OptionError
from .kit.events import unselectable
from .kit.figure import Figure
from .kit.geometry import read_rows, rows_checker
from .kit.inputs import best, query_field, resolve_query
from .kit.marks import cells, points
from .kit.params import Choice, Slider, resolve
from .kit.text import Say, quote, sub
from .kit.values import Value

MAX_TOKENS = 8  # words a sentence preset may have (a T x T table still fits a phone)
EMBED_AXES = (Say("figure.axis.thing"), Say("figure.axis.event"))  # the names of the embedding plane's two axes
OWN_RING = 7  # px radius of the asking token's own value: a ring that holds its output's diamond
OUTPUT_DIAMOND = 3.8  # size of the asking token's output diamond (it reaches 1.4 times as far)

# --- sentences and word embeddings ----------------------------------------------------------


@dataclass(frozen=True)
class Sentence:
    """One sentence preset."""

    key: str  # option value and menu value, e.g. "repeat"
    text: str  # the tokens, separated by spaces (at most MAX_TOKENS)
    about: Any  # a Say: what the sentence is there to show, for the menu's help line
    query: int  # the token that asks when the sentence is picked

    @property
    def tokens(self) -> list[str]:
        return self.text.split()


SENTENCES = (
    Sentence("repeat", "the cat sat on the mat", Say("figure.sentence.repeat"), 4),
    Sentence("pronoun", "the cat ate because it was hungry", Say("figure.sentence.pronoun"), 4),
    Sentence("river", "we sat on the river bank", Say("figure.sentence.river"), 5),
    Sentence("money", "she put money in the bank", Say("figure.sentence.money"), 5),
    Sentence("both", "she put the money in the river bank", Say("figure.sentence.both"), 7),
)
SENTENCE_KEYS = tuple(s.key for s in SENTENCES)
SENTENCE_CHOICES = tuple((s.key, s.text) for s in SENTENCES)  # (value, label) pairs of a menu

VOCAB = {  # word -> its 2-D embedding e(word): (thing, event or description)
    "the": (0.3, -0.9),
    "cat": (2.0, 0.4),
    "sat": (0.2, 1.8),
    "on": (-0.6, -0.2),
    "mat": (1.6, -0.6),
    "ate": (0.5, 2.0),
    "because": (-0.8, 0.3),
    "it": (1.2, 0.2),  # a pronoun sits close to the nouns it can stand for
    "was": (-0.3, 1.2),
    "hungry": (0.9, 1.0),
    "we": (0.8, 0.6),
    "river": (1.4, 1.4),
    "bank": (1.3, 0.3),  # between the river and the money
    "she": (0.9, 0.5),
    "put": (0.1, 1.5),
    "money": (1.9, -0.6),
    "in": (-0.7, -0.4),
}


def sentence(key: str) -> Sentence:
    """The preset named ``key``; ValueError naming the presets otherwise."""
    for s in SENTENCES:
        if s.key == key:
            return s
    raise ValueError(f"expected one of {', '.join(SENTENCE_KEYS)}, got {key!r}")


def default_embeddings() -> dict[str, list[float]]:
    """A fresh copy of the word embeddings, as a figure's state keeps them."""
    return {w: [float(x), float(y)] for w, (x, y) in VOCAB.items()}


def sentence_menu(label: Any, doc: str, near: str, **more: Any) -> Choice:
    """The menu of sentence presets the lab and the heads share ("pronoun" first)."""
    return Choice("sentence", label, "pronoun", choices=SENTENCE_CHOICES, doc=doc, near=near, **more)


def sentence_values(announce_query: Say) -> tuple[Value, ...]:
    """The values a figure on a sentence preset names first: the preset, its tokens, the asker."""
    return (
        Value("sentence", "token", "The sentence preset."),
        Value("tokens", "list", "The tokens of the sentence."),
        Value("query", "integer", "The position of the asking token.", announce=announce_query),
    )


def check_query_option(values: dict[str, Any]) -> None:
    """An author's :query: must name a token of the :sentence: preset (empty: its own)."""
    try:
        asked(values, None)
    except ValueError as err:
        raise OptionError("query", str(err)) from None


class OnASentence(Figure):
    """A figure on a sentence preset (the lab, the two heads): an author's :query: names a
    token of its :sentence:."""

    def check_options(self, values: dict[str, Any]) -> None:
        check_query_option(values)


def asked(state: dict, default: int | None) -> int | None:
    """The author's :query: (in the state at ``setup``) as a token of the :sentence: preset, or
    ``default`` where the option is empty."""
    query = str(state["query"]).strip()
    return resolve_query(query, sentence(state["sentence"]).tokens) if query else default


def clicked(figure: str, state: dict, mark: str, i: Any, points: tuple = (), cells: tuple = ()) -> int:
    """The token a click makes ask: the token of a point of the marks ``points``, or the row
    of a cell (i = (row, column)) of the T x T tables ``cells``; ``unselectable`` otherwise."""
    n = len(state["tokens"])
    if mark in cells and isinstance(i, tuple) and max(i) < n:
        return i[0]
    if mark in points and isinstance(i, int) and i < n:
        return i
    raise unselectable(figure, mark, i)


VECTORS = ("queries", "keys", "values")  # the options that hold an author's own vectors
COORD_LIMIT = 10.0  # a coordinate of a vector an author writes or a reader types lies in [-10, 10]


def vector_options(docs: dict[str, str], **limits: Any) -> tuple[Option, ...]:
    """The options ``queries``, ``keys`` and ``values``: an author's own vectors, a row a
    token ("0.5,1; -1,0.2"), each checked by the kit's ``rows_checker(name, **limits)``."""
    return tuple(Option(m, "str", "", docs[m], check=rows_checker(m, limit=COORD_LIMIT, **limits)) for m in VECTORS)


def given_vectors(values: dict[str, Any], **limits: Any) -> dict[str, list[list[float]]]:
    """The vectors an author gave, option -> its rows, read as ``vector_options(docs,
    **limits)`` checks them (the options left empty are not there)."""
    return {m: read_rows(values[m], m, limit=COORD_LIMIT, **limits) for m in VECTORS if str(values.get(m, "")).strip()}


def count_errors(rows: dict[str, list], tokens: list[str], unit: str = "rows") -> list[OptionError]:
    """An error on each option of ``rows`` (name -> its rows) that has not one row a token."""
    n, listed = len(tokens), " ".join(tokens)
    return [
        OptionError(name, f"expected {n} {unit}, one for each token of '{listed}', got {len(r)}")
        for name, r in rows.items()
        if len(r) != n
    ]


def distinct(tokens) -> list[str]:
    """The words of a sentence in order of first appearance."""
    return list(dict.fromkeys(tokens))


@dataclass(frozen=True)
class Asker(Choice):
    """The asking token: a menu of the sentence's tokens ("4: it", values are positions);
    a reader may also send a word or a position. The state keeps the position."""

    choices: Any = lambda s: [(j, f"{j}: {token_text(w)}") for j, w in enumerate(s["tokens"])]

    def read(self, value: Any, state: dict) -> int:
        return query_field(value, state["tokens"], self.name)

    def control_dict(self, state: dict) -> dict[str, Any]:
        out = super().control_dict(state)
        out["value"] = state[self.name]
        out["options"] = [{"value": v, "label": label} for v, label in resolve(self.choices, state)]
        return out


T_MIN, T_MAX = 0.05, 5.0  # the temperature slider's range


def temperature(label: Any, doc: str, help: Any, what: Any, near: str, step: int) -> Slider:
    """The temperature slider the attention figures share: T from 0.05 to 5, on a log scale,
    1 the standard formula; each figure gives its own words and where it sits."""
    return Slider(
        "temperature", label, 1.0, doc, help, near=near, step=step, lo=T_MIN, hi=T_MAX, by=0.01, log=True, what=what
    )


# --- labels of tokens --------------------------------------------------------------------------


def link(j: int) -> str:
    """Token j's link: hovering any of its marks lights the others, in every panel."""
    return f"t{j}"


def token_text(word: str) -> str:
    """A token in a menu or on a plane: punctuation is quoted, so that a lone "." shows and
    is not read as the end of a sentence ("5: “.”")."""
    return word if any(c.isalnum() for c in word) else quote(word)


def token_label(tokens, j: int) -> str:
    """Token j as a label: the word, with its position only where the word repeats (the₀,
    the₄)."""
    w = tokens[j]
    return f"{w}{sub(j)}" if tokens.count(w) > 1 else w


def column_labels(tokens) -> list[dict]:
    """Column heads of a T x T table: the words, with the position only where a word
    repeats (the row heads always carry it), so that 7 or 8 columns fit on a phone."""
    return [{"text": token_label(tokens, j), "link": f"t{j}"} for j in range(len(tokens))]


def row_labels(tokens, i: int) -> list[dict]:
    """Row heads of a T x T table: word and position, the asking row active."""
    return [{"text": f"{w}{sub(j)}", "link": f"t{j}", "active": j == i} for j, w in enumerate(tokens)]


def token_points(role: str, P: list, s: dict, js: Sequence[int] | None = None, **more: Any) -> list[dict]:
    """A point for each token j of ``js`` (every token where None), in the colour ``role`` and
    linked to its token: the asking token's a ring, those the causal mask hides from it
    muted. Its labels and the rest are channels in ``more``."""
    i, js = s["query"], range(len(P)) if js is None else js
    shape, muted = ["ring" if j == i else "circle" for j in js], [s["causal"] and j > i for j in js]
    return points(role, P, index=js, role=role, shape=shape, link=[link(j) for j in js], muted=muted, **more)


def grid_step(half_width: float) -> float:
    """Grid spacing that keeps about 4 to 12 lines across a square plane."""
    for step in (1.0, 2.0, 5.0, 10.0, 20.0):
        if half_width / step <= 6:
            return step
    return 50.0


def token_table(id: str, mark: str, tokens, i: int, weights, **more: Any) -> dict:
    """The T x T table of a sentence, a row a token that asks: cell (a, b) linked to token b
    and clicked as the mark ``mark`` (``mark-a-b``), each row's strongest weight in the asking
    row lit, the tokens as heads; ``more`` gives its text, tone, detail, tip and the rest."""
    tops, n = [best(row) for row in weights], len(tokens)
    return cells(
        id,
        n,
        n,
        **more,
        link=lambda a, b: link(b),
        id=lambda a, b: f"{mark}-{a}-{b}",
        select=True,
        mark=mark,
        active=lambda a, b: a == i and b == tops[a],
        col_labels=column_labels(tokens),
        row_labels=row_labels(tokens, i),
        active_row=i,
    )
