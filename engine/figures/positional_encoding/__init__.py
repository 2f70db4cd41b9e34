"""The ``positional-encoding`` figure (see model.py): importing the package registers it."""

from . import model  # noqa: F401  (registers the figure)
from .maths import BASES, INTERVAL, SAMPLES, probe_position, similarity

__all__ = ["BASES", "INTERVAL", "SAMPLES", "probe_position", "similarity"]
