"""The ``positional-encoding`` figure (see model.py): importing the package registers it."""

from . import model  # noqa: F401  (registers the figure)
