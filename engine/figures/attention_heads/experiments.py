"""The two heads' experiments ("Try this"). Unlike the lab's, they start from the figure
as the reader left it: "copy" gives head 2 whatever head 1 has now."""
from __future__ import annotations

import copy

from explorables.engine import multi_head
from explorables.figures import VOCAB, Experiment, best, num, quote, sentence, vec

from .heads import head_matrices, w_o


def attend(state: dict):
    """(X, result): the token vectors e(word), (T, 2), and the engine's two heads."""
    X = [list(VOCAB[w]) for w in state["tokens"]]  # (T, 2)
    return X, multi_head(X, state["heads"], state["W_O"])


def two_views(state: dict) -> None:
    tokens = sentence("pronoun").tokens
    state.update(sentence="pronoun", tokens=tokens, query=tokens.index("hungry"), head1="axis1", head2="axis2",
                 heads=[head_matrices("axis1"), head_matrices("axis2")], W_O=w_o("average"))


def two_views_message(state: dict) -> str:
    _, m = attend(state)
    tokens, i = state["tokens"], state["query"]
    b1, b2 = best(m.heads[0].weights[i]), best(m.heads[1].weights[i])
    return (f"Asked by “hungry”, head 1 (axis 1) puts {num(m.heads[0].weights[i][b1])} on {quote(tokens[b1])}, "
            f"head 2 (axis 2) puts {num(m.heads[1].weights[i][b2])} on {quote(tokens[b2])}: one finds who is "
            f"hungry, the other what happened. o¹ = {vec(m.heads[0].outputs[i])}, o² = "
            f"{vec(m.heads[1].outputs[i])}, and with ½I blocks the multi-head output is their midpoint, "
            f"{vec(m.outputs[i])}.")


def copy_head(state: dict) -> None:
    state["heads"][1] = copy.deepcopy(state["heads"][0])
    state["head2"] = state["head1"]


def copy_message(state: dict) -> str:
    _, m = attend(state)
    tokens, i = state["tokens"], state["query"]
    b = best(m.heads[0].weights[i])
    return (f"Head 2 now has head 1's matrices, so both tables are the same: both heads put "
            f"{num(m.heads[0].weights[i][b])} on {quote(tokens[b])}, and o¹ = o² = {vec(m.heads[0].outputs[i])}. "
            f"The multi-head output {vec(m.outputs[i])} is o¹(Wo¹ + Wo²): one head's output, mixed again. The "
            f"second head adds nothing.")


EXPERIMENTS = (
    Experiment("two-views", "Two heads on “hungry”", "The built-in heads, asked by “hungry”", run=two_views,
               see=two_views_message),
    Experiment("copy", "Give head 2 head 1's matrices", "Make the two heads identical", run=copy_head,
               see=copy_message),
)
