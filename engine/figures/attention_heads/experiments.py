"""The two heads' experiments ("Try this"). Unlike the lab's, they start from the figure
as the reader left it: "copy" gives head 2 whatever head 1 has now."""

import copy

from explorables.engine import multi_head
from explorables.figures import Experiment, best, num, quote, vec

from ..sentences import VOCAB
from . import words as W


def attend(state: dict):
    """(X, result): the token vectors e(word), (T, 2), and the engine's two heads."""
    X = [list(VOCAB[w]) for w in state["tokens"]]  # (T, 2)
    return X, multi_head(X, state["heads"], state["W_O"])


def tops(state: dict, m=None) -> dict:
    """Each head's strongest weight of the asking token, the word it falls on and the
    head's output, as the messages write them (w1, b1, o1, w2, b2, o2), and the output;
    ``m`` is the engine's result for ``state`` where it is at hand."""
    m = m or attend(state)[1]
    tokens, i, out = state["tokens"], state["query"], {"output": vec(m.outputs[state["query"]])}
    for h, head in enumerate(m.heads, start=1):
        b = best(head.weights[i])
        out.update({f"w{h}": num(head.weights[i][b]), f"b{h}": quote(tokens[b]), f"o{h}": vec(head.outputs[i])})
    return out


def copy_head(state: dict) -> None:
    state["heads"][1] = copy.deepcopy(state["heads"][0])
    state["head2"] = state["head1"]


TWO_VIEWS = {"sentence": "pronoun", "query": "hungry", "head1": "axis1", "head2": "axis2", "W_O": "average"}
EXPERIMENTS = (
    Experiment("two-views", *W.say.button("two_views"), set=TWO_VIEWS, see=lambda s: W.TWO_VIEWS_SEE.format(**tops(s))),
    Experiment("copy", *W.say.button("copy"), run=copy_head, see=lambda s: W.COPY_SEE.format(**tops(s))),
)
