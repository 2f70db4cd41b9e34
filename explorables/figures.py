"""The public figure kit: ``from explorables.figures import ...``.

Built-in figures and authors' figures use this module and nothing else of the figure
layer. A figure module defines a ``Figure`` subclass and registers it::

    from explorables.engine import softmax
    from explorables.figures import Figure, Slider, Value, bars, pct, register

    @register
    class Softmax3(Figure):
        name = "softmax-3"
        ...

An exercise type is written the same way: a subclass of ``Exercise`` with a ``name``,
registered with ``@register``; its statement is written with ``mathml``, ``eq``, ``mi``,
``mn``, ``mo``, ``mvec``, ``mmatrix``, ``plain`` and ``said`` (a catalogue's words with
formulas in their fields, each formula kept on the line of its punctuation); each known
mistake is a ``Mistake``.

See the author guide (docs/) for a walk through a whole figure and an exercise type, and
``explorables figures NAME`` for any figure's parameters, values and experiments.
"""

from .engine.exercises import Exercise, Mistake, random_vector
from .engine.exercises.mathml import *  # noqa: F403  (a statement's builders: mathml.__all__)
from .engine.exercises.mathml import __all__ as _statement_builders
from .engine.figures import FIGURES, register
from .engine.figures import kit as _kit
from .engine.figures.base import warn_renamed
from .engine.figures.kit import *  # noqa: F403  (the whole kit: kit.__all__)

# The kit's names and the statements' builders come from their own modules' __all__, declared
# once there; this module adds the registry and the exercises' classes.
__all__ = ["FIGURES", "Exercise", "Mistake", "random_vector", "register"]
__all__ += _kit.__all__
__all__ += _statement_builders

# Renamed names of the kit: old name -> new name. An old name keeps working for one minor
# version, with a DeprecationWarning that names the new spelling (see CHANGELOG.md).
RENAMED: dict[str, str] = {}


def __getattr__(name: str):
    if name in RENAMED:
        warn_renamed(f"explorables.figures.{name}", RENAMED[name], "use the new name", 2)
        return globals()[RENAMED[name]]
    raise AttributeError(f"module 'explorables.figures' has no attribute {name!r}")
