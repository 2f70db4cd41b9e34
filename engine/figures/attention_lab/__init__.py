"""The ``attention-lab`` figure: one head of self-attention on a short sentence, built
from word embeddings in five steps (see ``model``)."""
from . import model  # noqa: F401  (registers the figure)
