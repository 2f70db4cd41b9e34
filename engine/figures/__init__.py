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


def _load_all() -> None:
    """Import every figure module of this package; each registers itself.

    Built-in figures import the public kit (``explorables.figures``), which imports this
    package: when the kit is imported first, it calls this once its names are bound."""
    import importlib
    import pkgutil
    import sys

    public = sys.modules.get(__name__.split(".")[0] + ".figures")
    if public is not None and not hasattr(public, "__all__"):
        return  # the public kit is still binding its names; it loads the figures itself
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")


_load_all()

__all__ = ["FIGURES", "FieldError", "Figure", "Option", "OptionError", "OptionErrors", "get", "register"]
