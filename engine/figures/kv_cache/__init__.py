"""The ``kv-cache`` figure (model.py) and, with it, the exercise type ``kv-cache-size``."""

from explorables.engine.exercises import kv_cache_size  # noqa: F401  (registers the exercise type)

from . import model  # noqa: F401  (registers the figure)
