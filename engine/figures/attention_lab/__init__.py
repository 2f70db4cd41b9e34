"""The ``attention-lab`` figure: one head of self-attention on a short sentence, built
from word embeddings in five steps (see ``model``)."""

from ..sentences import SENTENCES, VOCAB  # noqa: F401  (the lab's sentences, as tests and prose name them)
from . import model  # noqa: F401  (registers the figure)
