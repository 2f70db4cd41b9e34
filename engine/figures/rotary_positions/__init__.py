"""The ``rotary-positions`` figure (model.py) and its exercise type ``rotary-score``
(engine/exercises/rotary_score.py): importing the package registers both."""

from explorables.engine.exercises import rotary_score  # noqa: F401  (registers the exercise type)

from . import model  # noqa: F401  (registers the figure)
