"""The ``attention-heads`` figure: two heads of attention side by side, joined by W_O
(see ``model``)."""

from . import model  # noqa: F401  (registers the figure)
