"""Multi-head attention (Vaswani et al. 2017, section 3.2.2).

H heads read the same token vectors X, each through its own projections:

    Q^h = X W_Q^h,  K^h = X W_K^h,  V^h = X W_V^h,   O^h = attention(Q^h, K^h, V^h)

The head outputs are put side by side and mixed by one output matrix W_O:

    MultiHead(X)_i = [o^1_i, ..., o^H_i] W_O = sum_h o^h_i W_O^h

where W_O^h is the block of rows of W_O that meets head h's columns of the
concatenation (d_v^h rows). The second form, a sum of one contribution a head, is the
same number and is what the heads figure draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .attention import Attention, attention, projections
from .linalg import Matrix, as_matrix, describe, fsum_saturating, matmul

HEAD_KEYS = ("W_Q", "W_K", "W_V")  # the matrices each head needs


@dataclass(frozen=True)
class MultiHead:
    """The result of multi-head attention, with every intermediate a figure draws."""

    heads: list[Attention]  # (H,) head h's scores, weights and outputs O^h (T, d_v^h)
    concat: list[list[float]]  # (T, sum_h d_v^h) [o^1_i, ..., o^H_i] row by row
    outputs: list[list[float]]  # (T, d_out) concat W_O
    blocks: list[list[list[float]]] = field(repr=False)  # (H,) W_O^h, shape (d_v^h, d_out)
    contributions: list[list[list[float]]] = field(repr=False)  # (H,) O^h W_O^h, (T, d_out)


def _check_head(h: int, head: object) -> dict[str, Matrix]:
    """Head h as a mapping with exactly the keys W_Q, W_K and W_V."""
    need = "each head needs W_Q, W_K and W_V"
    if not isinstance(head, Mapping):
        raise ValueError(f"heads[{h}] must be a mapping with W_Q, W_K and W_V, got {describe(head)}")
    for key in head:
        if key not in HEAD_KEYS:
            raise ValueError(f"heads[{h}] has an unknown key {key!r} ({need})")
    for key in HEAD_KEYS:
        if key not in head:
            raise ValueError(f"heads[{h}] is missing {key!r} ({need})")
    return dict(head)


def split_blocks(W_O: Matrix, sizes: Sequence[int]) -> list[list[list[float]]]:
    """W_O cut into consecutive blocks of rows W_O^h with sizes[h] rows each."""
    W_O = as_matrix("W_O", W_O)
    if sum(sizes) != len(W_O):
        raise ValueError(
            f"W_O has {len(W_O)} rows but the heads' outputs have {sum(sizes)} columns in all "
            f"({' + '.join(map(str, sizes))})"
        )
    blocks, start = [], 0
    for d_v in sizes:
        blocks.append(W_O[start : start + d_v])  # (d_v^h, d_out)
        start += d_v
    return blocks


def sum_of_blocks(head_outputs: Sequence[Matrix], W_O: Matrix) -> list[list[float]]:
    """sum_h O^h W_O^h, equal to concat(O^1, ..., O^H) W_O; shape (T, d_out)."""
    if not head_outputs:
        raise ValueError("head_outputs is empty: there must be at least one head")
    outs = [as_matrix(f"head_outputs[{h}]", O_h) for h, O_h in enumerate(head_outputs)]
    T = len(outs[0])
    for h, O_h in enumerate(outs):
        if len(O_h) != T:
            raise ValueError(f"head_outputs[{h}] has {len(O_h)} rows but head_outputs[0] has {T}")
    blocks = split_blocks(W_O, [len(O_h[0]) for O_h in outs])
    parts = [
        matmul(O_h, W_h, names=(f"head_outputs[{h}]", f"W_O^{h + 1}"))
        for h, (O_h, W_h) in enumerate(zip(outs, blocks, strict=True))
    ]
    return [
        [fsum_saturating(column) for column in zip(*rows, strict=True)] for rows in zip(*parts, strict=True)
    ]  # (T, d_out)


def multi_head(
    X: Matrix,
    heads: Sequence[Mapping[str, Matrix]],
    W_O: Matrix,
    *,
    temperature: float = 1.0,
    causal: bool = False,
    mask: object = None,
) -> MultiHead:
    """concat(O^1, ..., O^H) W_O with O^h = attention(X W_Q^h, X W_K^h, X W_V^h).

    ``heads`` is a list of mappings ``{"W_Q": ..., "W_K": ..., "W_V": ...}``; W_O has one
    row per column of the concatenation. Temperature and masks apply to every head.
    """
    X = as_matrix("X", X)
    if isinstance(heads, Mapping):
        raise ValueError("heads must be a list of mappings, got a single mapping; write heads=[head]")
    if isinstance(heads, str) or not isinstance(heads, Sequence) or len(heads) == 0:
        raise ValueError(f"heads must be a non-empty list of mappings with W_Q, W_K and W_V, got {describe(heads)}")
    results = []  # (H,)
    for h, head in enumerate(heads):
        W = _check_head(h, head)
        q_name, k_name, v_name = (f"heads[{h}][{key!r}]" for key in HEAD_KEYS)
        Q, K, V = projections(X, W["W_Q"], W["W_K"], W["W_V"], names=("X", q_name, k_name, v_name))
        results.append(attention(Q, K, V, temperature=temperature, causal=causal, mask=mask))

    sizes = [len(r.V[0]) for r in results]  # d_v^h
    blocks = split_blocks(W_O, sizes)
    concat = [[x for r in results for x in r.outputs[i]] for i in range(len(X))]  # (T, sum d_v)
    outputs = matmul(concat, [row for block in blocks for row in block], names=("concat", "W_O"))
    contributions = [
        matmul(r.outputs, W_h, names=(f"heads[{h}] outputs", f"W_O^{h + 1}"))  # (T, d_out)
        for h, (r, W_h) in enumerate(zip(results, blocks, strict=True))
    ]
    return MultiHead(heads=results, concat=concat, outputs=outputs, blocks=blocks, contributions=contributions)


__all__ = ["HEAD_KEYS", "MultiHead", "multi_head", "split_blocks", "sum_of_blocks"]
