"""The ``cross-attention`` figure (model.py) and its exercise type ``residual-sum``
(engine/exercises/residual_sum.py): importing the package registers both."""

from explorables.engine.exercises import residual_sum  # noqa: F401  (registers the exercise type)

from . import model  # noqa: F401  (registers the figure)
