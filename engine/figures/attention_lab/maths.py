"""The lab's numbers, all from the engine: the five steps for every token at once.

x_t  = e(w_t) + α p_t                          1. embed (p_t = (sin 0.6t, cos 0.6t))
q_t  = x_t W_Q,  k_t = x_t W_K,  v_t = x_t W_V   2. project (row vectors)
s_ij = q_i . k_j / sqrt(2)                     3. score
a_ij = softmax_j(s_ij / T)  (masked: a_ij = 0)  4. softmax, with a temperature T
o_i  = sum_j a_ij v_j                          5. mix
"""

from explorables.engine import embed_with_position, self_attention

from ..sentences import sentence

STEP_EMBED, STEP_PROJECT, STEP_SCORE, STEP_SOFTMAX, STEP_MIX = range(5)  # the highlighted step


def embeddings(state: dict) -> list[list[float]]:
    """E: the embedding of each token's word, (T, 2)."""
    return [list(state["emb"][w]) for w in state["tokens"]]


def attend(state: dict):
    """(X, result): the embedded inputs x_t, (T, 2), and the engine's attention, every row."""
    X = embed_with_position(embeddings(state), state["s"])  # (T, 2)
    r = self_attention(
        X, state["W_Q"], state["W_K"], state["W_V"], temperature=state["temperature"], causal=state["causal"]
    )
    return X, r


def use_sentence(state: dict, key: str, query: int | None = None) -> None:
    """Put the sentence preset ``key`` in the state, its own asking token (or ``query``) asking."""
    preset = sentence(key)
    state["sentence"] = key
    state["tokens"] = preset.tokens
    state["query"] = preset.query if query is None else query
    state["selected"] = state["tokens"][state["query"]]
