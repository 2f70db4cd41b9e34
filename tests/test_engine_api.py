"""The engine's public API: the names the issue promises, stdlib only, figures apart."""
from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

from explorables import engine

ROOT = Path(__file__).resolve().parent.parent
CORE = ["__init__", "linalg", "attention", "positional", "heads", "geometry"]
STDLIB = {"__future__", "math", "dataclasses", "typing", "numbers", "operator", "sys", "itertools",
          "fractions", "collections"}


def test_promised_names_and_signatures():
    sig = {name: str(inspect.signature(getattr(engine, name))) for name in (
        "softmax", "scaled_scores", "attention", "attention_row", "sinusoidal", "pe_similarity",
        "multi_head", "convex_hull")}
    assert sig["softmax"].startswith("(scores: 'Vector', temperature: 'float' = 1.0, mask:")
    assert sig["scaled_scores"].startswith("(Q: 'Matrix', K: 'Matrix')")
    assert "*, temperature: 'float' = 1.0, causal: 'bool' = False, mask" in sig["attention"]
    assert sig["attention_row"].startswith("(q: 'Vector', K: 'Matrix', V: 'Matrix', *, index: 'int | None' = None, "
                                           "temperature: 'float' = 1.0, causal: 'bool' = False")
    assert sig["sinusoidal"] == "(position: 'float', dim: 'int', base: 'float' = 10000.0) -> 'list[float]'"
    assert sig["pe_similarity"] == "(offset: 'float', dim: 'int', base: 'float' = 10000.0) -> 'float'"
    assert sig["multi_head"].startswith("(X: 'Matrix', heads: 'Sequence[Mapping[str, Matrix]]', W_O: 'Matrix', *, "
                                        "temperature: 'float' = 1.0, causal: 'bool' = False")
    assert sig["convex_hull"] == "(points: 'Matrix') -> 'list[Point]'"
    assert sorted(engine.__all__) == engine.__all__
    assert all(hasattr(engine, name) for name in engine.__all__)


def test_result_attributes():
    r = engine.attention([[1.0]], [[1.0]], [[2.0]])
    assert (r.scores, r.weights, r.outputs, r.entropy) == ([[1.0]], [[1.0]], [[2.0]], [0.0])
    row = engine.attention_row([1.0], [[1.0]], [[2.0]])
    assert (row.scores, row.weights, row.output, row.entropy, len(row.trace)) == ([1.0], [1.0], [2.0], 0.0, 1)
    m = engine.multi_head([[1.0]], [{"W_Q": [[1.0]], "W_K": [[1.0]], "W_V": [[1.0]]}], [[3.0]])
    assert (len(m.heads), m.concat, m.outputs) == (1, [[1.0]], [[3.0]])


def test_importing_engine_leaves_the_figures_alone():
    code = "import sys, explorables.engine; print('explorables.engine.figures' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_engine_core_uses_the_standard_library_only():
    for name in CORE:
        tree = ast.parse((ROOT / "engine" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = [node.module.split(".")[0]]
            else:
                continue
            assert set(roots) <= STDLIB, f"engine/{name}.py imports {roots}"


def test_docstring_examples_run():
    import doctest

    # engine.attention is the function; its module is reached through sys.modules
    for module in (engine, sys.modules["explorables.engine.attention"]):
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__
