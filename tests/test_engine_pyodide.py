"""The engine under real Pyodide (Node 20 and the npm pyodide package, no browser).

The ``pyodide_node`` fixture (tests/node_pyodide.py) runs checks in one Pyodide under
Node: engine/'s sources written into its file system, or a site's engine archive unpacked
as the worker unpacks it. tests/node/engine_checks.py runs there and here in CPython, and
the two results must agree number by number within 1e-12, with equal error messages.
"""
from __future__ import annotations

import importlib.util
import json
import math
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


def test_engine_agrees_under_pyodide(pyodide_node):
    checks = _checks_module()
    inputs = checks.make_inputs(seed=2024)

    run = pyodide_node.run(NODE_DIR / "engine_checks.py", inputs, engine=ROOT / "engine")
    assert run.ok, f"node failed:\n{run.error[-3000:]}"
    in_pyodide = run.result
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


def test_the_sample_author_figure_agrees_under_pyodide(pyodide_node, tmp_path):
    """The sample figure of the guide (what `explorables new` writes), importing a module
    of its own folder, shipped in the
    engine archive the build writes and imported as the worker imports it: its first
    frame and a few reader events give the same numbers under Pyodide as in CPython."""
    from explorables.site_builder.authors import loader as authors
    from explorables.site_builder.pyodide.archive import engine_archive

    (tmp_path / "figures").mkdir()
    # its names come from another module of the folder, one that sorts after it
    sample = (ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py").read_text()
    assert '\nNAMES = ("a", "b", "c")\n' in sample
    (tmp_path / "figures" / "softmax_bars.py").write_text(
        sample.replace('\nNAMES = ("a", "b", "c")\n', "\nfrom .words_of import NAMES\n"))
    (tmp_path / "figures" / "words_of.py").write_text('NAMES = ("a", "b", "c")\n')
    loaded = authors.load(tmp_path / "figures")
    try:
        assert loaded.errors == []
        (tmp_path / "engine.zip").write_bytes(engine_archive(loaded.archive_files()))
        inputs = {"figure": "softmax-bars", "options": {"a": "0.5", "c": "-1"},
                  "events": [{"type": "set", "name": "b", "value": "2.5"}, {"type": "action", "name": "tie"},
                             {"type": "set", "name": "a", "value": "abc"}, {"type": "patch", "patch": {"c": 4}}]}
        spec = importlib.util.spec_from_file_location("figure_checks", NODE_DIR / "figure_checks.py")
        checks = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(checks)
        in_cpython = json.loads(json.dumps(checks.main(inputs), allow_nan=False))
    finally:
        authors.unload()

    run = pyodide_node.run(NODE_DIR / "figure_checks.py", inputs, archive=tmp_path / "engine.zip")
    assert run.ok, f"node failed:\n{run.error[-3000:]}"
    in_pyodide = run.result
    assert (in_pyodide["platform"], in_pyodide["python"]) == ("emscripten", [3, 14])
    assert in_pyodide["site_figures"] == ["softmax_bars", "words_of"]  # the worker imported the site's modules
    for key in ("platform", "python", "site_figures"):
        del in_pyodide[key], in_cpython[key]
    mismatches: list[str] = []
    _compare("result", in_pyodide, in_cpython, mismatches)
    assert not mismatches, f"{len(mismatches)} differences, first ones:\n" + "\n".join(mismatches[:20])
    steps = in_cpython["steps"]
    assert [s["ok"] for s in steps] == [True, True, False, True]
    assert steps[2]["error"] == "Score a must be a number, got 'abc'"
    from explorables.engine import softmax
    assert in_cpython["first"]["values"]["top"] == pytest.approx(max(softmax([0.5, 1.0, -1.0])), abs=1e-12)


MODULE_FAILED_CHECKS = '''
from explorables.engine import figures, runtime


def main(inputs):
    out = {}
    for name in ("needs-yaml", "softmax-bars", "attention-row"):
        model = figures.load(name)
        state = model.initial_state(model.parse_options({})) if model else {}
        out[name] = runtime.step(name, state, {"type": "patch", "patch": {}})
    return out
'''


def test_a_module_that_fails_only_in_the_browser_takes_down_its_own_figures_alone(pyodide_node, tmp_path):
    """Pins an author's finding: a figure module that imported a package by a name put
    together while it runs built (the builder has the package), and in the browser every
    figure of every page, built-in ones too, showed a 15-line Pyodide traceback. Such an
    import is now refused at build time (tests/test_authors_sandbox.py), but a module can
    still fail only in the browser (here it checks where it runs). Each of the site's
    modules is imported on its own: that module's figures say why, in one line, and the
    others work."""
    from explorables.site_builder.authors import loader as authors
    from explorables.site_builder.pyodide.archive import engine_archive

    (tmp_path / "figures").mkdir()
    sample = (ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py").read_text()
    (tmp_path / "figures" / "softmax_bars.py").write_text(sample)
    (tmp_path / "figures" / "needs_yaml.py").write_text(
        "import sys\nif sys.platform == 'emscripten':\n    raise ImportError('no such thing here')  # the browser only\n"
        + sample.replace('name = "softmax-bars"', 'name = "needs-yaml"').replace("SoftmaxBars", "NeedsYaml"))
    loaded = authors.load(tmp_path / "figures")
    try:
        assert loaded.errors == []  # it builds
        (tmp_path / "engine.zip").write_bytes(engine_archive(loaded.archive_files()))
    finally:
        authors.unload()
    (tmp_path / "module_failed_checks.py").write_text(MODULE_FAILED_CHECKS)
    run = pyodide_node.run(tmp_path / "module_failed_checks.py", {}, archive=tmp_path / "engine.zip")
    assert run.ok, f"node failed:\n{run.error[-3000:]}"
    steps = run.result
    assert steps["softmax-bars"]["ok"] and steps["attention-row"]["ok"]
    assert steps["needs-yaml"] == {
        "ok": False, "internal": True,
        "error": "needs_yaml.py of the site's figures could not be loaded in the browser (ImportError: "
                 "no such thing here (needs_yaml.py:3)); a figure module may import only the standard library, "
                 "explorables.figures and explorables.engine"}


IMPORT_CHECKS = '''
import importlib


def main(names):
    missing = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing
'''


def test_the_standard_modules_a_figure_may_not_import_are_those_the_browser_lacks(pyodide_node, tmp_path):
    """The build refuses an author's import of a standard module the reader's browser
    cannot import (author_checks.NOT_IN_BROWSER): that list is what fails under the
    Pyodide the site ships, among every module this Python's standard library names."""
    import sys

    from explorables.site_builder.pyodide.archive import engine_archive
    from explorables.site_builder.authors.checks import NOT_IN_BROWSER

    names = sorted(set(sys.stdlib_module_names) - {"antigravity", "this"})  # these two open a browser, print
    (tmp_path / "engine.zip").write_bytes(engine_archive([]))
    (tmp_path / "import_checks.py").write_text(IMPORT_CHECKS)
    run = pyodide_node.run(tmp_path / "import_checks.py", names, archive=tmp_path / "engine.zip")
    assert run.ok, f"node failed:\n{run.error[-3000:]}"
    missing = set(run.result)
    assert "curses" in missing and "json" not in missing
    assert missing == NOT_IN_BROWSER & set(names), (
        f"missing in the browser but allowed: {sorted(missing - NOT_IN_BROWSER)}; "
        f"refused but there: {sorted(NOT_IN_BROWSER & set(names) - missing)}")
