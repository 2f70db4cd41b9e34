"""Generic geometry an author writes in a directive: rows of numbers ("0.5,1; -1,0.2"),
one vector ("1, 0.5"), and ``Vector``, a point or vector parameter the reader moves by
dragging, whose option is read by that parser.

    params = (Vector("u", "u", [1.0, 0.0], doc="The vector u, as x, y."),)
    extra_options = (Option("keys", "str", "", "x,y for each token", check=rows_checker("keys", width=2)),)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..base import FieldError, Option
from .params import Hidden
from .text import MINUS


def read_rows(
    text: Any, what: str, *, width: int | None = None, most: int | None = None, limit: float | None = None
) -> list[list[float]]:
    """Rows of numbers written ``"0.5,1; -1,0.2"``: one row a token, its numbers separated
    by commas, a trailing ';' allowed. ``width`` is the numbers a row must have (2: the
    rows are pairs x,y), else every row has the first one's, at most ``most``; ``limit``
    bounds every number either side of 0. ValueError saying which row is wrong and how."""
    noun = "pair" if width == 2 else "row"
    like = "'0.5,1; -1,0.2'" if width == 2 else "'1, 0, 0.5, 2; 0, 1, -1, 0'"
    text = str(text).strip()
    if not text:
        raise ValueError(f"expected one {noun} of numbers for each token, like {like}, got ''")
    chunks = [c.strip() for c in text.split(";")]
    if chunks[-1] == "":
        chunks.pop()
    rows: list[list[float]] = []
    for n, chunk in enumerate(chunks, start=1):
        where = f"{noun} {n} of the {what}"
        if chunk == "":
            what_to = "x,y for each token" if width == 2 else "one number per coordinate"
            raise ValueError(f"{where} is empty: write {what_to}, like {like.split(';')[0]}'")
        parts = chunk.split(",")
        if width is not None and len(parts) != width:
            xy = " (x,y)" if width == 2 else ""
            raise ValueError(f"{where} must have {width} numbers{xy}, got {len(parts)} in {chunk!r}")
        try:
            row = [float(part.strip().replace(MINUS, "-")) for part in parts]
        except ValueError:
            raise ValueError(f"{where} must be numbers separated by commas, got {chunk!r}") from None
        if not all(math.isfinite(x) and (limit is None or abs(x) <= limit) for x in row):
            bounds = f" from -{limit:g} to {limit:g}" if limit is not None else ", all finite"
            raise ValueError(f"{where} must have numbers{bounds}, got {chunk!r}")
        if most is not None and len(row) > most:
            raise ValueError(f"{where} has {len(row)} numbers; vectors may have at most {most}")
        if rows and len(row) != len(rows[0]):
            raise ValueError(
                f"{where} has {len(row)} numbers but {noun} 1 has {len(rows[0])}; every {noun} needs the same length"
            )
        rows.append(row)
    return rows


def rows_checker(what: str, **limits: Any) -> Callable[[str], None]:
    """An option's check: empty (the figure's own rows then), or rows that ``read_rows`` reads."""

    def check(text: str) -> None:
        if str(text).strip():
            read_rows(text, what, **limits)

    return check


def read_vector(value: Any, size: int = 2) -> list[float]:
    """One vector of ``size`` numbers: ``"1, 0.5"`` (an option, a typed value) or ``[1, 0.5]``
    (an experiment's value, a script's); ValueError saying what is expected otherwise."""
    parts = list(value) if isinstance(value, (list, tuple)) else str(value).split(",")
    try:
        numbers = [
            float(p)
            if isinstance(p, (int, float)) and not isinstance(p, bool)
            else float(str(p).strip().replace(MINUS, "-"))
            for p in parts
        ]
    except ValueError:
        numbers = []
    if len(numbers) != size or not all(math.isfinite(x) for x in numbers):
        example = ", ".join(("1", "0.5", "0", "0", "0", "0", "0", "0")[:size])
        got = value if isinstance(value, (list, tuple)) else str(value).strip()
        raise ValueError(f"expected {size} numbers like {example}, got {got!r}")
    return numbers


@dataclass(frozen=True)
class Vector(Hidden):
    """A point or vector of ``size`` numbers, moved by the reader's drag (no control of its
    own); its directive option takes the numbers separated by commas, ``:u: 1, 0.5``, and
    an experiment's ``set`` a list or that text."""

    size: int = 2
    option: bool = True

    def option_spec(self) -> Option:
        return Option(self.name, "str", self.default, self.doc)

    def read(self, value: Any, state: dict) -> Any:
        if self.parse is not None:
            return self.parse(value, state)
        try:
            return read_vector(value, self.size)
        except ValueError as err:
            raise FieldError(self.name, str(err)) from None


__all__ = ["Vector", "read_rows", "read_vector", "rows_checker"]
