"""Engine checks run twice: in CPython by pytest and in Pyodide by serve_checks.mjs.

``make_inputs(seed)`` (CPython only) draws the inputs once; ``main(inputs)`` computes
every engine result for them and returns plain JSON-able data, so that the two runs can
be compared number by number. Bad inputs are included: their error messages must match
too.
"""
from __future__ import annotations

import dataclasses
import random
import sys

from explorables import engine


def make_inputs(seed: int = 0) -> dict:
    rng = random.Random(seed)

    def matrix(rows, cols, spread=1.0):
        return [[rng.gauss(0, spread) for _ in range(cols)] for _ in range(rows)]

    cases = []
    for _ in range(40):
        T_q, T_k, d_k, d_v = rng.randint(1, 9), rng.randint(1, 9), rng.randint(1, 6), rng.randint(1, 4)
        mask = [[rng.random() < 0.7 for _ in range(T_k)] for _ in range(T_q)]
        for row in mask:
            row[0] = True
        cases.append({
            "Q": matrix(T_q, d_k, rng.choice([0.3, 1.0, 3.0])), "K": matrix(T_k, d_k), "V": matrix(T_k, d_v, 2.0),
            "temperature": rng.choice([1.0, 0.1, 0.5, 2.0, rng.uniform(0.05, 10.0)]),
            "causal": rng.random() < 0.5, "mask": mask if rng.random() < 0.5 else None,
        })
    big = [1e300, -1e300, 1.7e308, 1e-300]
    extreme = [{
        "Q": [[rng.choice(big) for _ in range(2)] for _ in range(3)],
        "K": [[rng.choice(big) for _ in range(2)] for _ in range(4)],
        "V": [[rng.choice(big) for _ in range(2)] for _ in range(4)],
        "temperature": rng.choice([1.0, 1e-300, 1e300]), "causal": rng.random() < 0.5, "mask": None,
    } for _ in range(10)]
    heads = []
    for _ in range(8):
        T, D, d_out = rng.randint(1, 6), rng.randint(1, 4), rng.randint(1, 3)
        hs = []
        for _ in range(rng.randint(1, 3)):
            d_k, d_v = rng.randint(1, 3), rng.randint(1, 3)
            hs.append({"W_Q": matrix(D, d_k), "W_K": matrix(D, d_k), "W_V": matrix(D, d_v)})
        W_O = matrix(sum(len(h["W_V"][0]) for h in hs), d_out)
        heads.append({"X": matrix(T, D), "heads": hs, "W_O": W_O, "causal": rng.random() < 0.5})
    return {
        "softmax": [{"scores": [rng.uniform(-20, 20) for _ in range(n)],
                     "temperature": rng.uniform(0.05, 5.0),
                     "mask": [True] + [rng.random() < 0.6 for _ in range(n - 1)]} for n in range(1, 13)],
        "attention": cases,
        "extreme": extreme,
        "positions": [{"t": rng.uniform(-100, 100), "D": 2 * rng.randint(1, 32),
                       "base": rng.choice([10000.0, 100.0, rng.uniform(1.0, 1e5)]),
                       "k": rng.uniform(-50, 50)} for _ in range(20)],
        "embeddings": {"E": matrix(8, 2), "s": 0.7},
        "heads": heads,
        "points": [matrix(rng.randint(1, 30), 2, 3.0) for _ in range(10)],
    }


def _trace(row) -> dict:
    return dataclasses.asdict(row.trace)


def _attention(case) -> dict:
    r = engine.attention(case["Q"], case["K"], case["V"], temperature=case["temperature"],
                         causal=case["causal"], mask=case["mask"])
    last = len(case["Q"]) - 1
    return {"scores": r.scores, "weights": r.weights, "outputs": r.outputs, "entropy": r.entropy,
            "mask": r.mask, "trace_of_last_row": _trace(r.row(last))}


def _errors() -> list[str]:
    """The message of every bad input, which must read the same everywhere."""
    K = [[1.0, 0.0], [0.0, 1.0]]
    V = [[1.0], [2.0]]
    bad = [
        lambda: engine.softmax([]),
        lambda: engine.softmax([1.0, float("nan")]),
        lambda: engine.softmax([1.0], temperature=-1.0),
        lambda: engine.softmax([1.0, 2.0], mask=[False, False]),
        lambda: engine.attention([[1.0, 2.0], [3.0]], K, V),
        lambda: engine.attention([[1.0, 2.0, 3.0]], K, V),
        lambda: engine.attention([[1.0, 2.0]], K, [[1.0]]),
        lambda: engine.attention([[1.0, 2.0]], K, V, mask=[False, False]),
        lambda: engine.attention_row([1.0, 0.0], K, V, causal=True),
        lambda: engine.attention_row([1.0, 0.0], K, V, index=5),
        lambda: engine.sinusoidal(1, 3),
        lambda: engine.pe_similarity(float("inf"), 32),
        lambda: engine.multi_head(K, [{"W_Q": K, "W_K": K}], K),
        lambda: engine.convex_hull([]),
        lambda: engine.scalar_projection([1.0, 2.0], [0.0, 0.0]),
    ]
    messages = []
    for call in bad:
        try:
            call()
        except ValueError as err:
            messages.append(f"{type(err).__name__}: {err}")
        else:
            messages.append("no error")
    return messages


def main(inputs: dict) -> dict:
    out: dict = {"platform": sys.platform, "python": list(sys.version_info[:2])}
    out["softmax"] = [engine.softmax(c["scores"], c["temperature"], c["mask"]) for c in inputs["softmax"]]
    out["scaled_scores"] = [engine.scaled_scores(c["Q"], c["K"]) for c in inputs["attention"]]
    out["attention"] = [_attention(c) for c in inputs["attention"]]
    out["extreme"] = [_attention(c) for c in inputs["extreme"]]
    out["rows"] = [
        _trace(engine.attention_row(c["Q"][0], c["K"], c["V"], index=0, temperature=c["temperature"],
                                    causal=c["causal"]))
        for c in inputs["attention"]
    ]
    out["positions"] = [
        {"pe": engine.sinusoidal(p["t"], p["D"], p["base"]),
         "similarity": engine.pe_similarity(p["k"], p["D"], p["base"]),
         "frequencies": engine.frequencies(p["D"], p["base"])}
        for p in inputs["positions"]
    ]
    out["known_similarity"] = [engine.pe_similarity(8, 32), engine.pe_similarity(8, 32, base=100.0)]
    E = inputs["embeddings"]
    out["embedded"] = engine.embed_with_position(E["E"], E["s"])
    out["heads"] = []
    for h in inputs["heads"]:
        m = engine.multi_head(h["X"], h["heads"], h["W_O"], causal=h["causal"])
        out["heads"].append({
            "concat": m.concat, "outputs": m.outputs, "contributions": m.contributions,
            "head_weights": [r.weights for r in m.heads],
            "sum_of_blocks": engine.sum_of_blocks([r.outputs for r in m.heads], h["W_O"]),
        })
    out["hulls"] = [[list(p) for p in engine.convex_hull(P)] for P in inputs["points"]]
    out["projections"] = [
        [engine.scalar_projection(P[0], P[-1]), engine.vector_projection(P[0], P[-1])]
        for P in inputs["points"] if any(P[-1])
    ]
    out["errors"] = _errors()
    return out
