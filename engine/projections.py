"""From token vectors to queries, keys and values: Q = X W_Q, K = X W_K, V = X W_V
(attention.py's self_attention attends over them)."""

from __future__ import annotations

from .linalg import Matrix, as_matrix, matmul


def projections(
    X: Matrix,
    W_Q: Matrix,
    W_K: Matrix,
    W_V: Matrix,
    *,
    names: tuple[str, str, str, str] = ("X", "W_Q", "W_K", "W_V"),
) -> tuple[list[list[float]], list[list[float]], list[list[float]]]:
    """Q = X W_Q, K = X W_K, V = X W_V for token vectors X of shape (T, D).

    W_Q and W_K are (D, d_k), W_V is (D, d_v). ``names`` label the error messages.
    """
    x, wq, wk, wv = names
    X = as_matrix(x, X)
    D = len(X[0])
    rows_of = f"{x} has {D} columns; each W needs one row per coordinate of a token vector"
    W_Q = as_matrix(wq, W_Q, rows=D, rows_of=rows_of)
    W_K = as_matrix(
        wk,
        W_K,
        rows=D,
        rows_of=rows_of,
        cols=len(W_Q[0]),
        cols_of=f"{wq} has {len(W_Q[0])}; queries and keys must have the same length d_k",
    )
    W_V = as_matrix(wv, W_V, rows=D, rows_of=rows_of)
    Q = matmul(X, W_Q, names=(x, wq))  # (T, d_k)
    K = matmul(X, W_K, names=(x, wk))  # (T, d_k)
    V = matmul(X, W_V, names=(x, wv))  # (T, d_v)
    return Q, K, V
