"""The engine under real Pyodide (Node 20 and the npm pyodide package, no browser).

tests/node/run_engine.mjs loads Pyodide, writes engine/ into its file system and runs
tests/node/engine_checks.py; the same checks run here in CPython, and the two results
must agree number by number within 1e-12, with equal error messages.
"""
from __future__ import annotations

import importlib.util
import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = Path(__file__).resolve().parent / "node"
TOL = 1e-12

pytestmark = pytest.mark.pyodide


def _checks_module():
    spec = importlib.util.spec_from_file_location("engine_checks", NODE_DIR / "engine_checks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compare(path: str, got, expected, mismatches: list[str]) -> None:
    """Walk two JSON values together, noting every difference beyond TOL."""
    if isinstance(expected, float) or (isinstance(expected, int) and not isinstance(expected, bool)):
        if not isinstance(got, (int, float)) or isinstance(got, bool) or not math.isfinite(got):
            mismatches.append(f"{path}: {got!r} != {expected!r}")
        elif not math.isclose(got, expected, rel_tol=TOL, abs_tol=TOL):
            mismatches.append(f"{path}: {got!r} != {expected!r} (off by {abs(got - expected):.3g})")
    elif isinstance(expected, dict):
        if set(got) != set(expected):
            mismatches.append(f"{path}: keys {sorted(got)} != {sorted(expected)}")
        for key in expected:
            if key in got:
                _compare(f"{path}.{key}", got[key], expected[key], mismatches)
    elif isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            mismatches.append(f"{path}: {got!r:.80} != {expected!r:.80}")
        else:
            for i, (g, e) in enumerate(zip(got, expected)):
                _compare(f"{path}[{i}]", g, e, mismatches)
    elif got != expected:
        mismatches.append(f"{path}: {got!r} != {expected!r}")


@pytest.fixture(scope="module")
def pyodide_dir() -> Path:
    from explorables.site_builder.pyodide import ensure_pyodide

    return ensure_pyodide()


def test_engine_agrees_under_pyodide(pyodide_dir, tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    checks = _checks_module()
    inputs = checks.make_inputs(seed=2024)
    (tmp_path / "inputs.json").write_text(json.dumps(inputs))

    run = subprocess.run(
        [node, str(NODE_DIR / "run_engine.mjs"), str(pyodide_dir), str(ROOT / "engine"),
         str(NODE_DIR / "engine_checks.py"), str(tmp_path / "inputs.json")],
        capture_output=True, text=True, timeout=180,
    )
    assert run.returncode == 0, f"node failed:\n{run.stderr[-3000:]}"
    in_pyodide = json.loads(run.stdout)
    in_cpython = json.loads(json.dumps(checks.main(inputs), allow_nan=False))

    assert in_pyodide["platform"] == "emscripten"
    assert in_pyodide["python"] == [3, 14]
    for key in ("platform", "python"):
        del in_pyodide[key], in_cpython[key]

    mismatches: list[str] = []
    _compare("result", in_pyodide, in_cpython, mismatches)
    assert not mismatches, f"{len(mismatches)} differences, first ones:\n" + "\n".join(mismatches[:20])
    # the checks are not empty, and the error messages were compared as text
    assert len(in_cpython["attention"]) == 40 and all(m.startswith("ValueError: ") for m in in_cpython["errors"])
    assert in_cpython["known_similarity"] == pytest.approx([0.6576288585138028, 0.4013262719561504], abs=1e-15)
