"""Controls a figure lays out itself, beside its parameters' own: a grid of typed numbers.

    grid("keys", "Keys, typed", ["x", "y"],
         [(word, f"t{j}", [(f"key.{j}.{c}", K[j][c]) for c in range(2)]) for j, word in enumerate(tokens)])

The page sends each field's text as ``{"type": "set", "name": FIELD, "value": TEXT}``,
which no parameter has: ``on_set`` reads it (``cell_of`` says which cell it names).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .text import field_text, spoken


def grid(
    name: str, label: Any, col_labels: Sequence[Any], rows: Sequence[tuple], *, near: str | None = None
) -> dict[str, Any]:
    """A grid of typed numbers, a row a thing: ``rows`` holds (label, link, cells), each
    cell (field name, number) or (field name, number, the field's own label). The labels
    may be ``Say``s, read when the grid is made."""
    out: dict[str, Any] = {"kind": "grid", "name": name}
    if near:
        out["near"] = near
    out.update(label=spoken(label), col_labels=[spoken(c) for c in col_labels])
    out["rows"] = [
        {"label": text, "link": link, "cells": [_field(*cell) for cell in cells]} for text, link, cells in rows
    ]
    return out


def _field(name: str, value: float, label: Any = None) -> dict[str, Any]:
    return {"name": name, "value": field_text(value), **({"label": spoken(label)} if label is not None else {})}
