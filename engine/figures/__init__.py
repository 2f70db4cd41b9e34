"""Figure models: one module a figure, each registered here by its directive name.

A built-in figure is imported when it is first named: ``FIGURES["attention-row"]``,
``"attention-row" in FIGURES`` or ``load("attention-row")`` imports the module
``attention_row``, where the figure named ``attention-row`` lives (a test checks that
each does), and no other. Reading the whole registry (iterating it, its length, its
items) imports every figure first, so that ``explorables figures``, a notebook or a test
sees them all. A build imports only the figures its lessons name (importing all of them
was a tenth of a small site's build); the browser's worker imports a page's own before
the engine is ready, the others when a step first asks for them or while it is idle
(engine/runtime.py ``prepare`` and ``warm``).
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import cache
from typing import TypeVar

from ..exercises import EXERCISES, Exercise
from ..registry import Registry
from .base import FieldError, Option, OptionError, OptionErrors
from .kit.figure import Figure

FIGURES: Registry[Figure] = Registry()


# What ``register`` takes and gives back: a figure class or an exercise type, as it is.
Registered = TypeVar("Registered", bound=type[Figure] | type[Exercise])


def register(figure_class: Registered) -> Registered:
    """Class decorator: make a figure available under its directive name, or an exercise
    type (a subclass of ``Exercise``) under its name for the ``{exercise}`` directive."""
    if isinstance(figure_class, type) and issubclass(figure_class, Exercise):
        EXERCISES[figure_class.name] = figure_class()
        return figure_class
    FIGURES[figure_class.name] = figure_class()
    return figure_class


@cache
def modules() -> list[str]:
    """The figure packages of this package (their short names), imported or not, as
    source or compiled (the engine archive ships compiled modules as ``.pyc`` alone,
    site_builder/pyodide/bytecode.py). Every built-in figure is a package; the modules
    beside them (``base``, ``sentences``, ``matrices``) are code the figures share."""
    found = set()
    for folder in __path__:
        for entry in os.scandir(folder):
            if (
                entry.is_dir()
                and entry.name.isidentifier()
                and any(os.path.isfile(os.path.join(entry.path, "__init__" + end)) for end in (".py", ".pyc"))
            ):
                found.add(entry.name)
    return sorted(found - {"kit"})


def unloaded() -> list[str]:
    """The figure modules of this package not imported yet."""
    return [name for name in modules() if f"{__name__}.{name}" not in sys.modules]


def module_of(name: str) -> str:
    """The module a built-in figure is expected in: ``attention-row`` -> ``attention_row``."""
    return name.replace("-", "_")


def load(name: str) -> Figure | None:
    """The figure registered as ``name``, its module imported first if it was not yet;
    None when no module registers it (a teaching directive's name, a misspelt one)."""
    return FIGURES.get(name)


def _load_all() -> None:
    """Import every figure module not imported yet (each registers itself)."""
    for name in unloaded():
        importlib.import_module(f"{__name__}.{name}")


def _load_module_of(name: str) -> None:
    if module_of(name) in modules():
        importlib.import_module(f"{__name__}.{module_of(name)}")


FIGURES.find, FIGURES.everything = _load_module_of, _load_all
# An exercise type may be registered by a figure's package (kv-cache-size beside kv-cache):
# one not known yet may be in any of them.
EXERCISES.find, EXERCISES.everything = (lambda name: _load_all()), _load_all


__all__ = ["FIGURES", "FieldError", "Figure", "Option", "OptionError", "OptionErrors", "load", "register"]
