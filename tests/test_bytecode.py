"""The engine's modules compiled ahead for Pyodide's Python (site_builder/bytecode.py):
fresh for every module of the package, shipped in the engine archive in place of their
sources, never for a module whose source changed, and run by real Pyodide with the same
results as the sources in CPython."""
from __future__ import annotations

import importlib.util
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from explorables.site_builder import bytecode, pyodide
from explorables.site_builder.archive import engine_archive, engine_sources
from test_engine_pyodide import _compare

NODE_DIR = Path(__file__).resolve().parent / "node"


def names(archive: bytes) -> set[str]:
    return set(zipfile.ZipFile(io.BytesIO(archive)).namelist())


def test_every_module_of_the_engine_is_compiled_for_this_pyodide():
    stale = bytecode.stale(engine_sources())
    assert not stale, (f"{len(stale)} modules have changed since they were compiled for Pyodide, "
                       f"e.g. {stale[:3]}: run `python -m explorables.site_builder.bytecode`")


def test_the_archive_carries_compiled_modules_in_place_of_their_sources():
    shipped = names(engine_archive())
    sources = engine_sources()
    assert {name[:-3] + ".pyc" for name in sources} <= shipped
    assert not any(name.endswith(".py") for name in shipped)
    assert "explorables/engine/locales/en.json" in shipped


def test_a_changed_module_goes_as_its_source_and_the_others_stay_compiled(monkeypatch):
    from explorables.site_builder import archive

    edited = dict(engine_sources())
    edited["explorables/engine/linalg.py"] += b"\n# an edit\n"
    monkeypatch.setattr(archive, "engine_sources", lambda: edited)
    shipped = names(engine_archive())
    assert "explorables/engine/linalg.py" in shipped and "explorables/engine/linalg.pyc" not in shipped
    assert "explorables/engine/attention.pyc" in shipped and "explorables/engine/attention.py" not in shipped


def test_bytecode_for_another_pyodide_is_not_used(monkeypatch):
    monkeypatch.setattr(pyodide, "VERSION", "0.0.1")
    shipped = names(engine_archive())
    assert "explorables/engine/runtime.py" in shipped
    assert not any(name.endswith(".pyc") for name in shipped)


@pytest.mark.pyodide
def test_pyodide_runs_the_compiled_archive_as_cpython_runs_the_sources(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    from explorables.site_builder.authors import builtin

    (tmp_path / "engine.zip").write_bytes(engine_archive())
    # The built-in figures alone: an earlier test in this process may have registered an
    # author's figure, which the engine archive does not carry.
    names = sorted(builtin())
    inputs = {"figures": names, "event": {"type": "patch", "patch": {}}}
    (tmp_path / "inputs.json").write_text(json.dumps(inputs))
    run = subprocess.run([node, str(NODE_DIR / "run_archive.mjs"), str(pyodide.ensure_pyodide()),
                          str(tmp_path / "engine.zip"), str(NODE_DIR / "compiled_checks.py"),
                          str(tmp_path / "inputs.json")], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, f"node failed:\n{run.stderr[-3000:]}"
    in_pyodide = json.loads(run.stdout)
    spec = importlib.util.spec_from_file_location("compiled_checks", NODE_DIR / "compiled_checks.py")
    checks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checks)
    in_cpython = json.loads(json.dumps(checks.main(inputs), allow_nan=False))

    assert in_pyodide["origins"] == ["pyc"]  # every engine module came compiled
    assert in_cpython["origins"] == ["py"]
    # a traceback names the module's source file and line, as from the source
    assert in_pyodide["traceback"]["file"] == ["explorables", "engine", "linalg.py"]
    assert in_cpython["traceback"]["file"][1:] == ["engine", "linalg.py"]
    assert in_pyodide["traceback"]["line"] == in_cpython["traceback"]["line"] > 1
    assert len(in_cpython["figures"]) == len(names) > 0 and all(f["step"]["ok"] for f in in_cpython["figures"].values())
    mismatches: list[str] = []  # the same numbers within 1e-12 (the two libms may differ in the last bit)
    _compare("figures", in_pyodide["figures"], in_cpython["figures"], mismatches)
    assert not mismatches, f"{len(mismatches)} differences, first ones:\n" + "\n".join(mismatches[:20])
