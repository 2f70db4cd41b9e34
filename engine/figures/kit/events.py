"""What figures' option checks and event hooks share: gathered errors, a dragged point,
a typed cell's field name, a mark that cannot be clicked.

``check_options`` may find several mistakes at once: collect them and ``raise_all``;
``on_drag`` keeps a point inside its plane with ``held``; ``on_set`` reads which cell of
a typed grid a field names (``"key.3.1"``) with ``cell_of``; ``on_select`` refuses an
element it does not know with ``unselectable``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import OptionError, OptionErrors, parse_number
from .marks import element_id


def raise_all(errors: Sequence[OptionError]) -> None:
    """Raise the option errors found, if any: the one alone, or all together in one."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise OptionErrors(list(errors))


def held(x: Any, y: Any, limit: float, digits: int = 2) -> list[float]:
    """A dragged point (x, y), read as numbers, kept within [-limit, limit] on both axes
    and rounded to ``digits``."""
    return [round(min(limit, max(-limit, parse_number(c, axis))), digits) for axis, c in (("x", x), ("y", y))]


def cell_of(name: str, prefix: str, shape: Sequence[int]) -> tuple[int, ...] | None:
    """The indices of a typed cell's field name, ``prefix.i.j``, each below its size in
    ``shape``: ``cell_of("key.3.1", "key", (5, 2))`` is (3, 1); None for any other name."""
    head, dot, rest = name.partition(f"{prefix}.")
    parts = rest.split(".")
    if head or not dot or len(parts) != len(shape) or not all(p.isdecimal() for p in parts):
        return None
    indices = tuple(int(p) for p in parts)
    return indices if all(i < n for i, n in zip(indices, shape, strict=True)) else None


def unselectable(figure: str, mark: str, i: Any) -> ValueError:
    """The error ``on_select`` raises for an element the figure does not pick."""
    return ValueError(f"{figure} cannot select the mark {element_id(mark, i)!r}")
