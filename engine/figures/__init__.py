"""Figure models: one module a figure, each registered here by its directive name."""
from __future__ import annotations

from .base import FieldError, Figure, Option, OptionError, OptionErrors

FIGURES: dict[str, Figure] = {}


def register(figure_class: type[Figure]) -> type[Figure]:
    """Class decorator: make a figure available under its directive name."""
    FIGURES[figure_class.name] = figure_class()
    return figure_class


def get(name: str) -> Figure:
    return FIGURES[name]


# Each figure module registers itself on import.
from . import attention_row  # noqa: E402,F401

__all__ = ["FIGURES", "FieldError", "Figure", "Option", "OptionError", "OptionErrors", "get", "register"]
