"""Named values: the numbers a figure shows, declared once with their format.

A figure lists its values in ``values = (Value(...), ...)``. Each one is computed by the
figure (``compute`` returns it by name), reaches the page as
``window.explorables.figures[id].values[name]``, is printed by ``explorables figures
NAME``, and is what prose bound to the figure quotes, in the same format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...locale import t
from .text import num, pct, spoken, vec

FORMATS = ("percent", "decimal", "integer", "vector", "token", "text", "bool", "list", "matrix")


@dataclass(frozen=True)
class Value:
    """One named value of a figure."""

    name: str  # how prose and tests name it: figures[id].values[name]
    format: str  # one of FORMATS: how it is written for people
    doc: str  # one sentence: what the number is
    digits: int = 2  # decimals for "decimal" and "vector"
    announce: Any = ""  # what a screen reader hears when it changes, "{}" for the value (a Say); "" for silence

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"value {self.name!r}: format must be one of {', '.join(FORMATS)}, got {self.format!r}")

    def text(self, raw: Any) -> str:
        """The value written for people, as the figure and the prose write it."""
        if self.format == "percent":
            return pct(raw)
        if self.format == "decimal":
            return num(raw, self.digits)
        if self.format == "integer":  # grouped as the language groups thousands: 12,345 in Hebrew
            return num(int(raw), 0)
        if self.format == "vector":
            return vec(raw, self.digits)
        if self.format == "bool":
            return t("figure.on") if raw else t("figure.off")
        if self.format in ("list", "matrix"):
            return ", ".join(str(x) for x in raw)
        return str(raw)

    def manifest(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "format": self.format,
            "doc": self.doc,
            "digits": self.digits,
            "announce": spoken(self.announce),
        }


def value_table(*rows: tuple, announce: dict[str, Any] | None = None) -> tuple[Value, ...]:
    """Named values declared as a table: each row (name, format, doc) or (name, format, doc,
    digits); ``announce`` gives, by name, what a screen reader hears when one changes."""
    said = announce or {}
    rows_read = ((name, form, doc, digits[0] if digits else 2) for name, form, doc, *digits in rows)
    return tuple(Value(name, form, doc, places, said.get(name, "")) for name, form, doc, places in rows_read)
