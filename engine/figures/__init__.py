"""Figure models: one module a figure, each registered here by its directive name.

Importing the package imports every figure module (the build, ``explorables figures`` and
notebooks see them all), except in the browser's worker, which sets the environment
variable ``EXPLORABLES_FIGURES=on-demand`` first: there a page's own figures are imported
before the engine is ready (``load``), the others when a step first asks for them or
while the worker is idle (engine/runtime.py ``prepare`` and ``warm``). A built-in
figure named ``attention-row`` lives in the module ``attention_row``; a figure found
under no such module makes every module load, so nothing is ever missing, only late.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TypeVar

from ..exercises import EXERCISES, Exercise
from .base import FieldError, Option, OptionError, OptionErrors
from .kit.figure import Figure

FIGURES: dict[str, Figure] = {}


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


ON_DEMAND = os.environ.get("EXPLORABLES_FIGURES") == "on-demand"  # the worker's way (see above)


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
    None when no module registers it."""
    if name not in FIGURES:
        module = module_of(name)
        if module in modules():
            importlib.import_module(f"{__name__}.{module}")
        if name not in FIGURES:
            _load_all(every=True)
    return FIGURES.get(name)


def _load_all(every: bool = not ON_DEMAND) -> None:
    """Import every figure module of this package (unless the figures load on demand and
    ``every`` is not asked for); each registers itself. Figures import the public kit
    (explorables.figures): while that module is the one importing this package, loading
    waits for it to finish; it calls _load_all at its end."""
    if not every:
        return
    api = sys.modules.get("explorables.figures")
    if api is not None and not hasattr(api, "__all__"):
        return

    for name in ["kit", *modules()]:
        importlib.import_module(f"{__name__}.{name}")


_load_all()

__all__ = ["FIGURES", "FieldError", "Figure", "Option", "OptionError", "OptionErrors", "load", "register"]
