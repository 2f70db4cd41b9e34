"""The engine's modules compiled ahead for Pyodide's Python (site_builder/bytecode.py):
fresh for every module of the package, shipped in the engine archive in place of their
sources, never for a module whose source changed, and run by real Pyodide with the same
results as the sources in CPython."""
from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from explorables.site_builder.pyodide import bytecode, release as pyodide, stdlib
from explorables.site_builder.pyodide.archive import engine_archive, engine_sources
from test_engine_pyodide import _compare

NODE_DIR = Path(__file__).resolve().parent / "node"


def names(archive: bytes) -> set[str]:
    return set(zipfile.ZipFile(io.BytesIO(archive)).namelist())


def test_every_module_of_the_engine_is_compiled_for_this_pyodide():
    stale = bytecode.stale(engine_sources())
    assert not stale, (f"{len(stale)} modules have changed since they were compiled for Pyodide, "
                       f"e.g. {stale[:3]}: run `python -m explorables.site_builder.pyodide.bytecode`")


def test_the_archive_carries_compiled_modules_in_place_of_their_sources():
    shipped = names(engine_archive())
    sources = engine_sources()
    assert {name[:-3] + ".pyc" for name in sources} <= shipped
    assert not any(name.endswith(".py") for name in shipped)
    assert "explorables/engine/locales/en.json" in shipped


@pytest.fixture
def own_cache(monkeypatch, tmp_path):
    """A per-user cache of the test's own: an archive made of edited sources, or for
    another Pyodide, goes there, not into the cache the other tests and builds read."""
    from explorables.site_builder.pyodide import archive

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(archive, "_MADE", {})
    return tmp_path / "cache" / "explorables"


def test_a_changed_module_goes_as_its_source_and_the_others_stay_compiled(monkeypatch, own_cache):
    from explorables.site_builder.pyodide import archive

    edited = dict(engine_sources())
    edited["explorables/engine/linalg.py"] += b"\n# an edit\n"
    monkeypatch.setattr(archive, "engine_sources", lambda: edited)
    shipped = names(engine_archive())
    assert "explorables/engine/linalg.py" in shipped and "explorables/engine/linalg.pyc" not in shipped
    assert "explorables/engine/attention.pyc" in shipped and "explorables/engine/attention.py" not in shipped


def test_bytecode_for_another_pyodide_is_not_used(monkeypatch, own_cache):
    monkeypatch.setattr(pyodide, "VERSION", "0.0.1")
    shipped = names(engine_archive())
    assert "explorables/engine/runtime.py" in shipped
    assert not any(name.endswith(".pyc") for name in shipped)


@pytest.mark.pyodide
def test_pyodide_runs_the_compiled_archive_and_stdlib_as_cpython_runs_sources(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    from explorables.site_builder.authors.loader import builtin

    (tmp_path / "engine.zip").write_bytes(engine_archive())
    (tmp_path / "stdlib.zip").write_bytes(stdlib.site_stdlib(pyodide.ensure_pyodide()))
    # The built-in figures alone: an earlier test in this process may have registered an
    # author's figure, which the engine archive does not carry.
    names = sorted(builtin())
    inputs = {"figures": names, "event": {"type": "patch", "patch": {}}}
    (tmp_path / "inputs.json").write_text(json.dumps(inputs))
    run = subprocess.run([node, str(NODE_DIR / "run_archive.mjs"), str(pyodide.ensure_pyodide()),
                          str(tmp_path / "engine.zip"), str(NODE_DIR / "compiled_checks.py"),
                          str(tmp_path / "inputs.json"), str(tmp_path / "stdlib.zip")],
                         capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, f"node failed:\n{run.stderr[-3000:]}"
    in_pyodide = json.loads(run.stdout)
    spec = importlib.util.spec_from_file_location("compiled_checks", NODE_DIR / "compiled_checks.py")
    checks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checks)
    in_cpython = json.loads(json.dumps(checks.main(inputs), allow_nan=False))

    assert in_pyodide["origins"] == ["pyc"]  # every engine module came compiled
    # and every dataclass of the engine and its figures had its methods compiled ahead
    assert in_pyodide["dataclasses"]["compiled here"] == 0 and in_pyodide["dataclasses"]["compiled ahead"] >= 20
    assert in_cpython["dataclasses"] == {"compiled ahead": 0, "compiled here": 0}  # only in Pyodide
    assert in_cpython["origins"] == ["py"]
    # a traceback names the module's source file and line, as from the source
    assert in_pyodide["traceback"]["file"] == ["explorables", "engine", "linalg.py"]
    assert in_cpython["traceback"]["file"][1:] == ["engine", "linalg.py"]
    assert in_pyodide["traceback"]["line"] == in_cpython["traceback"]["line"] > 1
    assert len(in_cpython["figures"]) == len(names) > 0 and all(f["step"]["ok"] for f in in_cpython["figures"].values())
    mismatches: list[str] = []  # the same numbers within 1e-12 (the two libms may differ in the last bit)
    _compare("figures", in_pyodide["figures"], in_cpython["figures"], mismatches)
    assert not mismatches, f"{len(mismatches)} differences, first ones:\n" + "\n".join(mismatches[:20])
    # Python started, and the engine ran, with no module of the standard library compiled
    # from its source: those the engine imports now are all in the site's stdlib compiled
    assert not in_pyodide["stdlib"]["sources"], (
        f"{in_pyodide['stdlib']['sources']} came from source: run `python -m explorables.site_builder.pyodide.bytecode`")
    assert in_pyodide["stdlib"]["compiled"] > 100
    # a traceback through a compiled module names its source file and line
    assert in_pyodide["stdlib"]["traceback"]["file"] == ["json", "decoder.py"]
    assert in_pyodide["stdlib"]["traceback"]["line"] > 1


# The standard library's modules compiled ahead (site_builder/stdlib.py)

def zipped(archive: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(archive)).namelist()


def test_the_standard_library_is_compiled_for_this_pyodide():
    original = (pyodide.ensure_pyodide() / stdlib.SOURCE).read_bytes()
    assert not stdlib.stale(original), "run `python -m explorables.site_builder.pyodide.bytecode`"


def test_the_site_s_stdlib_is_pyodide_s_with_compiled_modules_in_place_of_sources():
    folder = pyodide.ensure_pyodide()
    original = (folder / stdlib.SOURCE).read_bytes()
    shipped = stdlib.site_stdlib(folder)
    compiled = stdlib.compiled(original)
    assert {"asyncio/__init__.py", "json/decoder.py", "statistics.py"} <= set(compiled)
    # the same entries in the same order, each compiled module's .py as its .pyc
    assert zipped(shipped) == [name + "c" if name in compiled else name for name in zipped(original)]
    with zipfile.ZipFile(io.BytesIO(original)) as before, zipfile.ZipFile(io.BytesIO(shipped)) as after:
        assert after.read("asyncio/__init__.pyc") == compiled["asyncio/__init__.py"]
        magic = {after.read(name)[:4] for name in after.namelist() if name.endswith(".pyc")}
        assert len(magic) == 1  # every module for the same Python
        assert after.read("tomllib/_parser.py") == before.read("tomllib/_parser.py")  # the rest as it was
    assert stdlib.site_stdlib(folder) == shipped  # the same bytes each build


def test_a_stdlib_compiled_for_another_pyodide_is_not_used(monkeypatch):
    monkeypatch.setattr(pyodide, "VERSION", "0.0.1")
    folder = pyodide.ensure_pyodide()
    assert stdlib.site_stdlib(folder) == (folder / stdlib.SOURCE).read_bytes()


def test_the_modules_compiled_besides_python_s_start_are_those_the_engine_imports():
    asked = stdlib.wanted(engine_sources())
    assert {"difflib", "fractions", "statistics", "json", "dataclasses"} <= set(asked)  # some only inside functions
    assert not [name for name in asked if name.startswith(("explorables", "__future__"))]


def test_the_site_s_stdlib_is_kept_in_the_user_s_cache_for_the_next_build(monkeypatch, tmp_path):
    """Made once, kept in the per-user cache; a later process reads it there, and a
    damaged or unwritable cache only costs the time to make it again."""
    folder = pyodide.ensure_pyodide()
    original = (folder / stdlib.SOURCE).read_bytes()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(stdlib, "_ASSEMBLED", {})
    made = stdlib.site_stdlib(folder)
    kept = stdlib.cache_file(original)
    assert kept.is_relative_to(tmp_path / "cache") and kept.read_bytes() == made
    assert [p.name for p in kept.parent.iterdir()] == [kept.name]  # no part left behind

    def never(*args):
        raise AssertionError("made again, though the cache has it")
    monkeypatch.setattr(stdlib, "_ASSEMBLED", {})  # a new process
    monkeypatch.setattr(stdlib, "_assemble", never)
    monkeypatch.setattr(stdlib, "compiled", never)  # nor is the artifact read through
    assert stdlib.site_stdlib(folder) == made

    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    kept.write_bytes(made[: len(made) // 2])  # a damaged copy: made again, and kept anew
    monkeypatch.setattr(stdlib, "_ASSEMBLED", {})
    assert stdlib.site_stdlib(folder) == made and kept.read_bytes() == made

    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # nowhere to write
    monkeypatch.setattr(stdlib, "_ASSEMBLED", {})
    assert stdlib.site_stdlib(folder) == made


def test_the_engine_archive_is_kept_in_the_user_s_cache_and_a_site_s_files_added(monkeypatch, own_cache, tmp_path):
    """The engine's part of the archive is made once and kept in the per-user cache; a
    site's own files are added to it with the same bytes as an archive made whole."""
    from explorables.site_builder.pyodide import archive

    own = [("explorables/site_figures/__init__.py", b"from . import shares\n"),
           ("explorables/site_figures/shares.py", b"SHARES = [0.5, 0.25, 0.25]\n" * 40)]
    made = engine_archive(own, "de")
    kept = list((tmp_path / "cache" / "explorables" / "engine").iterdir())
    assert len(kept) == 1 and kept[0].suffix == ".zip"
    opened = zipfile.ZipFile(io.BytesIO(made))
    files = [(info.filename, opened.read(info)) for info in opened.infolist()]
    assert files[-2:] == own and "explorables/engine/locales/de.json" in dict(files)
    assert archive._zipped(files) == made  # as if made at once

    def never(*args):
        raise AssertionError("made again, though the cache has it")
    monkeypatch.setattr(archive, "_MADE", {})  # a new process
    monkeypatch.setattr(archive, "compiled", never)
    monkeypatch.setattr(archive, "_zipped", never)
    assert engine_archive(own, "de") == made
    assert archive.with_files(engine_archive([], "de"), own) == made  # the engine's alone, and the site's added
    edited = dict(engine_sources())
    edited["explorables/engine/linalg.py"] += b"\n# an edit\n"
    monkeypatch.setattr(archive, "engine_sources", lambda: edited)
    with pytest.raises(AssertionError, match="made again"):  # another engine: another archive
        engine_archive(own, "de")


def test_each_language_has_its_kept_archive_and_an_unwritable_cache_only_costs_time(monkeypatch, own_cache, tmp_path):
    from explorables.site_builder.pyodide import archive

    german, hebrew = engine_archive([], "de"), engine_archive([], "he")
    assert "explorables/engine/locales/he.json" in names(hebrew) - names(german)
    assert len(list((own_cache / "engine").glob("*.zip"))) == 2
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # nowhere to write
    monkeypatch.setattr(archive, "_MADE", {})
    assert engine_archive([], "de") == german


def test_a_cache_keeps_the_files_used_last(tmp_path):
    from explorables.site_builder import disk

    for n in range(5):
        disk.keep(tmp_path / f"{n}.zip", b"%d" % n)
        os.utime(tmp_path / f"{n}.zip", ns=(n * 10**9, n * 10**9))  # made in that order
    disk.used(tmp_path / "0.zip")  # the oldest, read again
    disk.prune(tmp_path, "*.zip", 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0.zip", "3.zip", "4.zip"]
    assert (tmp_path / "0.zip").read_bytes() == b"0"
