"""Figure models: one module a figure, each registered here by its directive name."""
from __future__ import annotations

from ..exercises import EXERCISES, Exercise
from .base import FieldError, Figure, Option, OptionError, OptionErrors

FIGURES: dict[str, Figure] = {}


def register(figure_class: type[Figure]) -> type[Figure]:
    """Class decorator: make a figure available under its directive name, or an exercise
    type (a subclass of ``Exercise``) under its name for the ``{exercise}`` directive."""
    if isinstance(figure_class, type) and issubclass(figure_class, Exercise):
        EXERCISES[figure_class.name] = figure_class()
        return figure_class
    FIGURES[figure_class.name] = figure_class()
    return figure_class


def get(name: str) -> Figure:
    return FIGURES[name]


def _load_all() -> None:
    """Import every figure module of this package; each registers itself. Figures import
    the public kit (explorables.figures): while that module is the one importing this
    package, loading waits for it to finish; it calls _load_all at its end."""
    import importlib
    import pkgutil
    import sys

    api = sys.modules.get("explorables.figures")
    if api is not None and not hasattr(api, "__all__"):
        return

    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")


_load_all()

__all__ = ["FIGURES", "FieldError", "Figure", "Option", "OptionError", "OptionErrors", "get", "register"]
