"""output/zipped.py: a bundle's zip, byte for byte what zipfile writes, with the deflated
form of a large file kept in the cache and checked before it is used again."""
from __future__ import annotations

import random
import zipfile

import pytest

from explorables.site_builder.errors import BuildError
from explorables.site_builder.output import zipped
from explorables.site_builder.pyodide.ahead import DATE


@pytest.fixture
def files(tmp_path, monkeypatch):
    """(name in the zip, file) for a small text, an empty file, a name that is not ASCII and
    a large file (half random bytes, half text), with the cache in tmp_path."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "site"
    folder.mkdir()
    noise = random.Random(7).randbytes(zipped.LARGE // 2)
    contents = {
        "top/index.html": b"<p>attention</p>\n" * 40,
        "top/.nojekyll": b"",
        "top/lessons/\u00fcber-softmax.html": "<p>\u00fcber</p>".encode(),
        "top/_explorables/bundle/pyodide-data.js": noise + b"window.explorablesBundle = 1;\n" * 20_000,
    }
    found = []
    for i, (name, data) in enumerate(contents.items()):
        path = folder / f"{i}.bin"
        path.write_bytes(data)
        found.append((name, path))
    return found


def as_zipfile_writes(target, files) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name, path in files:
            info = zipfile.ZipInfo(name, date_time=DATE)
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)


def test_the_zip_is_byte_for_byte_what_zipfile_writes(tmp_path, files):
    zipped.write_zip(tmp_path / "ours.zip", files)
    as_zipfile_writes(tmp_path / "theirs.zip", files)
    assert (tmp_path / "ours.zip").read_bytes() == (tmp_path / "theirs.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "ours.zip") as archive:
        assert archive.testzip() is None
        assert archive.namelist() == [name for name, _ in files]
        for name, path in files:
            assert archive.read(name) == path.read_bytes()
            assert archive.getinfo(name).external_attr >> 16 == 0o644


def test_a_large_file_is_deflated_once_and_its_kept_form_checked(tmp_path, files, monkeypatch):
    zipped.write_zip(tmp_path / "first.zip", files)
    kept = list((tmp_path / "cache").rglob("*.deflate"))
    assert len(kept) == 1  # the large file's alone

    deflate = zipped.deflated

    def small_only(data: bytes) -> bytes:
        assert len(data) < zipped.LARGE, "a large file deflated again"
        return deflate(data)

    monkeypatch.setattr(zipped, "deflated", small_only)
    zipped.write_zip(tmp_path / "second.zip", files)
    assert (tmp_path / "second.zip").read_bytes() == (tmp_path / "first.zip").read_bytes()

    # a kept file damaged on disk is made again, and the zip stays whole
    monkeypatch.setattr(zipped, "deflated", deflate)
    damaged = bytearray(kept[0].read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    kept[0].write_bytes(bytes(damaged))
    zipped.write_zip(tmp_path / "third.zip", files)
    assert (tmp_path / "third.zip").read_bytes() == (tmp_path / "first.zip").read_bytes()
    assert kept[0].read_bytes() != bytes(damaged)


def test_a_zip_past_what_a_zip_without_zip64_holds_is_refused(tmp_path, files, monkeypatch):
    monkeypatch.setattr(zipped, "_LIMIT", 1000)
    with pytest.raises(BuildError, match=r"4 GiB at top/_explorables/bundle/pyodide-data\.js: write a folder"):
        zipped.write_zip(tmp_path / "big.zip", files)
