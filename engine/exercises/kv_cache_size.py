"""The exercise "kv-cache-size": the memory of a KV cache, in MiB (2^20 bytes).

    bytes = 2 · n · L · g · d_k · b     (a key and a value, every token, every layer)

for n tokens, L layers, g key/value heads (groups; g = h when nothing is shared) of d_k
entries each, and b bytes a number. Written with the public kit alone, as an author's
exercise type would be.
"""

from __future__ import annotations

import random

from explorables.figures import Exercise, Mistake, Say, eq, mi, mn, register, said

MIB = 2**20


def mib(p: dict, *, kv: int = 2, heads: str = "g", layers: bool = True, unit: int = MIB) -> float:
    """The cache in units of ``unit`` bytes, or as one of the known mistakes computes it."""
    return kv * p["n"] * (p["L"] if layers else 1) * p[heads] * p["d_k"] * p["b"] / unit


@register
class KVCacheSize(Exercise):
    """How many MiB the keys and values of n tokens take, with grouped-query attention."""

    name = "kv-cache-size"
    tolerance = 0.01
    mistakes = (
        Mistake("one-of-k-and-v", Say("exercise.kv_cache_size.forgot_two"), lambda p: mib(p, kv=1)),
        Mistake("heads-not-groups", Say("exercise.kv_cache_size.heads"), lambda p: mib(p, heads="h")),
        Mistake("one-layer", Say("exercise.kv_cache_size.one_layer"), lambda p: mib(p, layers=False)),
        Mistake("megabytes", Say("exercise.kv_cache_size.megabytes"), lambda p: mib(p, unit=10**6)),
    )

    def generate(self, seed: int) -> dict:
        rng = random.Random(seed)  # only the seed decides: the build and the browser agree
        h = rng.choice((8, 16, 32))
        return {
            "n": rng.choice((512, 1024, 2048)),
            "L": rng.choice((4, 6, 12, 24)),
            "h": h,
            "g": rng.choice([g for g in (1, 2, 4) if g < h]),
            "d_k": rng.choice((64, 128)),
            "b": 2,
        }

    def solve(self, p: dict) -> float:
        return mib(p)

    def statement(self, p: dict, decimal_comma: bool = False) -> str:
        c = decimal_comma

        def given(name: str, sub: str | None = None, key: str = "") -> str:
            return eq(mi(name, sub), mn(p[key or name], c))

        return said(
            "exercise.kv_cache_size.statement",
            n=given("n"),
            L=given("L"),
            h=given("h"),
            g=given("g"),
            d_k=given("d", "k", "d_k"),
            b=given("B", key="b"),
        )
