"""The pinned Pyodide release (site_builder/pyodide/release.py): obtained, verified and
cached; the file ``--pyodide`` names is the one used, or the build stops; and when
Pyodide cannot be had, the message says exactly what to do."""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import PyodideError
from explorables.site_builder.pyodide import release as pyodide
from author_site import write_site


def test_a_tarball_with_the_wrong_hash_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fake = tmp_path / "pyodide-314.0.7.tgz"
    fake.write_bytes(b"not pyodide")
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide(fake)
    assert "which is not a tarball (a .tgz archive) at all" in str(info.value)
    assert f"npm pack pyodide@{pyodide.VERSION}" in str(info.value)


def test_a_folder_without_the_core_files_is_refused(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "pyodide.mjs").write_text("")
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide(tmp_path / "pkg")
    assert "missing: pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json" in str(info.value)


def test_no_cache_and_no_npm_says_exactly_what_to_do(tmp_path, monkeypatch):
    monkeypatch.delenv(pyodide.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(pyodide.shutil, "which", lambda name: None)
    monkeypatch.setattr(pyodide, "TARBALL_URL", (tmp_path / "no-such.tgz").as_uri())  # no download either
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide()
    text = str(info.value)
    assert "npm is not installed" in text
    assert f"explorables build --pyodide pyodide-{pyodide.VERSION}.tgz" in text


def test_a_tampered_core_file_is_refused(tmp_path):
    source = pyodide.ensure_pyodide()
    copy = tmp_path / "package"
    copy.mkdir()
    for name in pyodide.CORE_FILES:
        (copy / name).write_bytes((source / name).read_bytes())
    assert pyodide.ensure_pyodide(copy) == copy  # an untouched copy is accepted
    with open(copy / "pyodide.asm.mjs", "ab") as handle:
        handle.write(b"\n// changed")
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide(copy)
    assert f"pyodide.asm.mjs is not the file of pyodide {pyodide.VERSION} (sha256 " in str(info.value)


def test_the_real_package_is_verified_and_cached():
    folder = pyodide.ensure_pyodide()
    assert all((folder / name).stat().st_size > 1000 for name in pyodide.CORE_FILES)
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    assert lock["info"]["python"].startswith("3.14")


# The file --pyodide names is the one used, or the build stops.

def tarball(path: Path, content: bytes = b"fake pyodide", version: str = pyodide.VERSION) -> tuple[Path, str]:
    """A tarball shaped like the npm package, and its npm-style integrity."""
    with tarfile.open(path, "w:gz") as archive:
        files = {f"package/{name}": content + name.encode() for name in pyodide.CORE_FILES}
        files["package/package.json"] = json.dumps({"name": "pyodide", "version": version}).encode()
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path, "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


@pytest.fixture
def warm_cache(tmp_path, monkeypatch):
    """A cache already holding the (fake) pinned release, and its tarball."""
    tgz, integrity = tarball(tmp_path / f"pyodide-{pyodide.VERSION}.tgz")
    monkeypatch.delenv(pyodide.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(pyodide, "INTEGRITY", integrity)
    monkeypatch.setattr(pyodide, "CORE_SHA256", {n: hashlib.sha256(b"fake pyodide" + n.encode()).hexdigest()
                                                  for n in pyodide.CORE_FILES})
    monkeypatch.setattr(pyodide, "_download", lambda: pytest.fail("no download in these tests"))
    monkeypatch.setattr(pyodide, "_npm_pack", lambda: pytest.fail("no npm in these tests"))
    pyodide._unpack(tgz, pyodide.cache_dir())
    return tgz


def test_a_junk_file_is_refused_even_with_a_warm_cache(warm_cache, tmp_path):
    junk = tmp_path / "bad.tgz"
    junk.write_text("junk\n")
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide(junk)
    assert str(info.value) == (
        f"EXPLORABLES_PYODIDE / --pyodide points at {junk}, which is not a tarball (a .tgz archive) at all. "
        f"Download {pyodide.TARBALL_URL} (or run `npm pack pyodide@{pyodide.VERSION}`) and pass that file.")


def test_another_release_is_refused_naming_its_version(warm_cache, tmp_path):
    other, found = tarball(tmp_path / "pyodide-0.27.0.tgz", content=b"older", version="0.27.0")
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide(other)
    assert str(info.value).startswith(
        f"EXPLORABLES_PYODIDE / --pyodide points at {other}, which is not the tarball of pyodide "
        f"{pyodide.VERSION}: it holds pyodide 0.27.0 (sha512 {found}, expected {pyodide.INTEGRITY}). ")


def test_a_missing_file_is_named(warm_cache, tmp_path):
    with pytest.raises(PyodideError, match="points at .*missing.tgz, which does not exist"):
        pyodide.ensure_pyodide(tmp_path / "missing.tgz")


def test_the_right_tarball_uses_the_warm_cache_and_is_hashed_once(warm_cache, monkeypatch):
    hashed = []
    real = pyodide._integrity_of
    monkeypatch.setattr(pyodide, "_integrity_of", lambda path: hashed.append(path) or real(path))
    monkeypatch.setattr(pyodide, "_unpack", lambda *a, **k: pytest.fail("the warm cache is used as it is"))
    assert pyodide.ensure_pyodide(warm_cache) == pyodide.cache_dir()
    assert pyodide.ensure_pyodide(warm_cache) == pyodide.cache_dir()  # a build asks more than once
    assert hashed == [warm_cache]


def test_the_right_tarball_fills_a_cold_cache_hashing_it_once(warm_cache, monkeypatch):
    import shutil

    shutil.rmtree(pyodide.cache_dir())
    pyodide._tarballs.clear()
    hashed = []
    real = pyodide._integrity_of
    monkeypatch.setattr(pyodide, "_integrity_of", lambda path: hashed.append(path) or real(path))
    folder = pyodide.ensure_pyodide(warm_cache)
    assert folder == pyodide.cache_dir() and (folder / "pyodide.mjs").read_bytes() == b"fake pyodidepyodide.mjs"
    assert hashed == [warm_cache]


def test_the_build_command_stops_at_a_junk_pyodide_file(tmp_path, capsys):
    site = write_site(tmp_path / "site", site_yml="title: Test\nlanguage: en\n", lessons={"01-one.md": "# One\n"})
    junk = tmp_path / "bad.tgz"
    junk.write_text("junk\n")
    assert main(["build", str(site / "content"), "-o", str(tmp_path / "out"), "--pyodide", str(junk)]) == 1
    assert f"--pyodide points at {junk}, which is not a tarball" in capsys.readouterr().err
    assert not (tmp_path / "out" / "index.html").exists()


def test_the_cache_s_files_are_hashed_once_and_again_when_they_change(warm_cache, monkeypatch):
    """The files checked are recorded in the cache by their identity; a later process
    (its memory empty) takes them as checked without reading them, and a file written
    since is read and refused. The digests the offline worker lists are those checked."""
    folder = pyodide.ensure_pyodide()
    assert json.loads((folder / pyodide.RECORD).read_text())["pyodide.mjs"][-1] == pyodide.CORE_SHA256["pyodide.mjs"]
    read = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real(self))
    monkeypatch.setattr(pyodide, "_verified", {})  # a new process
    assert pyodide.ensure_pyodide() == folder and read == []
    assert pyodide.checked((folder / "pyodide.mjs").stat()) == pyodide.CORE_SHA256["pyodide.mjs"]

    monkeypatch.setattr(pyodide, "_verified", {})
    with open(folder / "pyodide.asm.mjs", "ab") as handle:
        handle.write(b"\n// changed")
    with pytest.raises(PyodideError, match="pyodide.asm.mjs is not the file of pyodide"):
        pyodide.ensure_pyodide()
    assert read == ["pyodide.asm.mjs"]


def test_a_record_outside_the_cache_or_of_a_file_just_written_is_not_trusted(warm_cache, tmp_path, monkeypatch):
    """Only the cache's own record counts (a folder given with --pyodide is checked every
    time), and a file written within RACY seconds is hashed again by the next process:
    a write in the same tick of the clock would keep its time."""
    folder = pyodide.ensure_pyodide()
    copy = tmp_path / "package"
    copy.mkdir()
    for name in pyodide.CORE_FILES:
        (copy / name).write_bytes((folder / name).read_bytes())
        os.utime(copy / name, ns=(0, 0))
    stats = {name: (copy / name).stat() for name in pyodide.CORE_FILES}
    (copy / pyodide.RECORD).write_text(json.dumps(
        {name: [*pyodide.identity(stat), pyodide.CORE_SHA256[name]] for name, stat in stats.items()}))
    (copy / "pyodide.mjs").write_bytes(b"X" * stats["pyodide.mjs"].st_size)  # the same size and time
    os.utime(copy / "pyodide.mjs", ns=(0, 0))
    with pytest.raises(PyodideError, match="pyodide.mjs is not the file of pyodide"):
        pyodide.verify(copy)

    monkeypatch.setattr(pyodide, "_verified", {})
    (folder / "pyodide.mjs").write_bytes((folder / "pyodide.mjs").read_bytes())  # written now
    pyodide.verify(folder)
    assert "pyodide.mjs" not in json.loads((folder / pyodide.RECORD).read_text())
    assert "pyodide.asm.mjs" in json.loads((folder / pyodide.RECORD).read_text())
