"""Time full attention, the pure-Python engine beside numpy, and print a table.

    python benchmarks/bench_attention.py [--causal] [--repeat N]

For each sequence length T and vector size d (d_k = d_v = d) the engine computes
``engine.attention(Q, K, V)``: scores, softmax weights, outputs and entropies, with
input checks. numpy computes the same with arrays (no checks). Each figure is the best
of several timed runs, in milliseconds; "ratio" is engine / numpy.

Targets (issue 2): lesson sizes (T <= 16, d <= 4) well under 1 ms; T = 64, d = 16
under 10 ms on CPython.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402  (numpy only here, beside the engine, never in it)

from explorables import engine  # noqa: E402

SIZES = [(T, d) for T in (6, 16, 64, 256) for d in (2, 16)]


def numpy_attention(Q, K, V, causal=False):
    S = Q @ K.T / np.sqrt(Q.shape[1])
    if causal:
        S = np.where(np.tril(np.ones(S.shape, dtype=bool)), S, -np.inf)
    Z = np.exp(S - S.max(axis=1, keepdims=True))
    A = Z / Z.sum(axis=1, keepdims=True)
    H = -np.sum(np.where(A > 0, A * np.log(np.where(A > 0, A, 1.0)), 0.0), axis=1)
    return S, A, A @ V, H


def best_ms(call, repeat: int) -> float:
    """The best time of one call in ms, each run long enough (>= 0.2 s) to be measured."""
    number, elapsed = 1, 0.0
    while True:
        elapsed = timeit.timeit(call, number=number)
        if elapsed >= 0.2:
            break
        number *= 2
    runs = [elapsed] + timeit.repeat(call, number=number, repeat=repeat - 1)
    return min(runs) / number * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--causal", action="store_true", help="use the causal mask")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure (best is kept)")
    args = parser.parse_args()

    rng = random.Random(0)
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), numpy {np.__version__}, "
          f"{platform.machine()}; causal={args.causal}; best of {args.repeat}")
    print(f"{'T':>5} {'d':>4} {'engine ms':>11} {'numpy ms':>10} {'ratio':>8} {'max |diff|':>11}")
    for T, d in SIZES:
        Q, K, V = ([[rng.gauss(0, 1) for _ in range(d)] for _ in range(T)] for _ in range(3))
        Qa, Ka, Va = (np.array(M) for M in (Q, K, V))
        ours = best_ms(lambda: engine.attention(Q, K, V, causal=args.causal), args.repeat)
        theirs = best_ms(lambda: numpy_attention(Qa, Ka, Va, args.causal), args.repeat)
        r = engine.attention(Q, K, V, causal=args.causal)
        diff = float(np.max(np.abs(np.array(r.outputs) - numpy_attention(Qa, Ka, Va, args.causal)[2])))
        print(f"{T:>5} {d:>4} {ours:>11.3f} {theirs:>10.3f} {ours / theirs:>8.1f} {diff:>11.1e}")


if __name__ == "__main__":
    main()
