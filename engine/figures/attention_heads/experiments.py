"""The two heads' experiments ("Try this"). Unlike the lab's, they start from the figure
as the reader left it: "copy" gives head 2 whatever head 1 has now."""

from __future__ import annotations

import copy

from explorables.engine import multi_head
from explorables.figures import Experiment, Say, best, num, quote, t, vec

from ..sentences import VOCAB, sentence
from .heads import head_matrices, w_o


def attend(state: dict):
    """(X, result): the token vectors e(word), (T, 2), and the engine's two heads."""
    X = [list(VOCAB[w]) for w in state["tokens"]]  # (T, 2)
    return X, multi_head(X, state["heads"], state["W_O"])


def two_views(state: dict) -> None:
    tokens = sentence("pronoun").tokens
    state.update(
        sentence="pronoun",
        tokens=tokens,
        query=tokens.index("hungry"),
        head1="axis1",
        head2="axis2",
        heads=[head_matrices("axis1"), head_matrices("axis2")],
        W_O=w_o("average"),
    )


def two_views_message(state: dict) -> str:
    _, m = attend(state)
    tokens, i = state["tokens"], state["query"]
    b1, b2 = best(m.heads[0].weights[i]), best(m.heads[1].weights[i])
    return t(
        "figure.attention_heads.two_views_see",
        w1=num(m.heads[0].weights[i][b1]),
        b1=quote(tokens[b1]),
        w2=num(m.heads[1].weights[i][b2]),
        b2=quote(tokens[b2]),
        o1=vec(m.heads[0].outputs[i]),
        o2=vec(m.heads[1].outputs[i]),
        output=vec(m.outputs[i]),
    )


def copy_head(state: dict) -> None:
    state["heads"][1] = copy.deepcopy(state["heads"][0])
    state["head2"] = state["head1"]


def copy_message(state: dict) -> str:
    _, m = attend(state)
    tokens, i = state["tokens"], state["query"]
    b = best(m.heads[0].weights[i])
    return t(
        "figure.attention_heads.copy_see",
        weight=num(m.heads[0].weights[i][b]),
        word=quote(tokens[b]),
        o1=vec(m.heads[0].outputs[i]),
        output=vec(m.outputs[i]),
    )


EXPERIMENTS = (
    Experiment(
        "two-views",
        Say("figure.attention_heads.two_views"),
        Say("figure.attention_heads.two_views_title"),
        run=two_views,
        see=two_views_message,
    ),
    Experiment(
        "copy",
        Say("figure.attention_heads.copy"),
        Say("figure.attention_heads.copy_title"),
        run=copy_head,
        see=copy_message,
    ),
)
