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
``mn``, ``mo``, ``mvec`` and ``plain``, each known mistake is a ``Mistake``.

See the author guide (docs/) for a walk through a whole figure and an exercise type, and
``explorables figures NAME`` for any figure's parameters, values and experiments.
"""
from .engine.exercises import Exercise, Mistake, eq, mathml, mi, mn, mo, mvec, plain, random_vector
from .engine.figures import FIGURES, register
from .engine.figures.kit import *  # noqa: F401,F403  (the kit's names are the public API)
from .engine.figures.kit import __all__ as _kit_names

_EXERCISE_NAMES = ["Exercise", "Mistake", "eq", "mathml", "mi", "mn", "mo", "mvec", "plain", "random_vector"]
__all__ = ["FIGURES", "register", *_kit_names, *_EXERCISE_NAMES]

# Renamed names of the kit: old name -> new name. An old name keeps working for one minor
# version, with a DeprecationWarning that names the new spelling (see CHANGELOG.md).
RENAMED: dict[str, str] = {}


def __getattr__(name: str):
    if name in RENAMED:
        import warnings

        warnings.warn(f"explorables.figures.{name} is now called {RENAMED[name]}; use the new name (the old "
                      f"one stops working in the next minor version)", DeprecationWarning, stacklevel=2)
        return globals()[RENAMED[name]]
    raise AttributeError(f"module 'explorables.figures' has no attribute {name!r}")


from .engine.figures import _load_all as _load_figures  # noqa: E402
_load_figures()  # the built-in figures import this module: load them once it is complete
