"""The engine archive: the ``explorables`` package as the reader's browser needs it.

The worker fetches one zip (``engine-<hash>.zip``) and unpacks it into Pyodide's file
system beside the standard library. It holds the package's ``__init__`` and public figure
kit, the engine, the catalogues the site speaks and the site's own figures; no builder.
The same input gives the same bytes (every file dated ZIP_DATE), so the content hash in
the file's name changes only when what a reader runs does.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from ...engine import locale
from ..disk import remembered
from . import release as pyodide
from .ahead import DATE, kept, read_compiled, sha

ENGINE = Path(__file__).resolve().parents[2] / "engine"
TOP = Path(str(__import__("explorables").__file__)).resolve().parent  # the package holding __init__.py and figures.py
ZIP_DATE = DATE  # every file's date, as in the compiled modules' own zip
ARTIFACT = Path(__file__).resolve().parent.parent / "engine-bytecode.zip"  # the engine compiled ahead (bytecode.py)


def engine_sources() -> dict[str, bytes]:
    """The Python modules of the ``explorables`` package the browser needs (its
    ``__init__``, the public figure kit and the engine, no builder): archive name -> source."""
    files = [(Path("explorables") / path.name, path) for path in sorted(TOP.glob("*.py"))]
    files += [
        (Path("explorables/engine") / path.relative_to(ENGINE), path)
        for path in sorted(ENGINE.rglob("*.py"))
        if "__pycache__" not in path.parts
    ]
    return {name.as_posix(): path.read_bytes() for name, path in files}


def _made_ahead() -> tuple[dict[str, str], dict[str, bytes]]:
    """The sha256 of each source the artifact was made from, and its files (archive name
    -> bytes); nothing when it was made for another Pyodide."""
    try:
        manifest, files = kept(ARTIFACT, read_compiled)
    except (OSError, zipfile.BadZipFile, KeyError, ValueError):
        return {}, {}
    if manifest.get("pyodide") != pyodide.VERSION:
        return {}, {}
    return manifest.get("sources", {}), files


def compiled(sources: dict[str, bytes]) -> dict[str, bytes]:
    """For each module of ``sources`` (archive name -> source) whose compiled form is
    fresh, that compiled form (archive name of the .py -> the .pyc's bytes)."""
    made, files = _made_ahead()
    return {
        name: files[name[:-3] + ".pyc"]
        for name, source in sources.items()
        if made.get(name) == sha(source) and name[:-3] + ".pyc" in files
    }


def compiled_data() -> list[tuple[str, bytes]]:
    """The artifact's files beside the modules, for this Pyodide (the dataclasses'
    methods compiled, engine/ahead.py: read by text, never stale, only less complete)."""
    return sorted((name, data) for name, data in _made_ahead()[1].items() if not name.endswith(".pyc"))


def stale(sources: dict[str, bytes]) -> list[str]:
    """The modules of ``sources`` that would ship as source: no fresh compiled form."""
    fresh = compiled(sources)
    return sorted(name for name in sources if name not in fresh)


def engine_archive(extra: Sequence[tuple[str, bytes]] = (), language: str = "en") -> bytes:
    """The engine archive; ``extra`` adds (name, bytes) files: the site's own figures. A
    module compiled ahead for Pyodide (bytecode.py) goes as its ``.pyc``, any other as its
    source. Of the catalogues it holds English and the site's ``language`` (each other one
    would add some 15 KB that no page of the site reads).

    The archive without ``extra`` is the same for every site of a language: it is made
    once and kept in the per-user cache beside Pyodide's (``engine/``, named after what
    it is made of), and each build adds its site's files to a copy of it (inflating the
    compiled modules and compressing the engine again were a quarter of a small site's
    build)."""
    sources = engine_sources()
    spoken = {"en", locale.base_language(language)}
    catalogues = [
        (f"explorables/engine/locales/{path.name}", path.read_bytes())
        for path in sorted((ENGINE / "locales").glob("*.json"))
        if path.stem in spoken
    ]
    return with_files(_engine_zip(sources, catalogues), extra)


CACHED = 8  # engine archives the per-user cache keeps: the languages of a few sites, a few versions
IN_MEMORY = 4  # and this process: the languages of a site
MAKER = (Path(__file__), Path(__file__).with_name("ahead.py"))  # the code that makes an archive: in its key too
_MADE: dict[str, bytes] = {}  # what an archive without a site's files is made of -> its bytes, for this process


def _engine_zip(sources: dict[str, bytes], catalogues: list[tuple[str, bytes]]) -> bytes:
    """The archive of the engine (``sources``, compiled where the artifact has them) and
    ``catalogues``: from this process's memory, the per-user cache, or made now. Its key
    is everything the bytes depend on: Pyodide's version, the compiled artifact, the
    sources, the catalogues, the code below and zlib's version (its deflate)."""
    try:
        artifact = ARTIFACT.read_bytes()
    except OSError:
        artifact = b""
    makers = [(path.name, path.read_bytes()) for path in MAKER]
    digest = hashlib.sha256(f"{pyodide.VERSION}\0{zlib.ZLIB_RUNTIME_VERSION}\0".encode())
    for name, data in (*makers, ("artifact", artifact), *sources.items(), *catalogues):
        digest.update(b"%d:%s\0%d:" % (len(name), name.encode("utf-8"), len(data)) + data)
    key = digest.hexdigest()[:32]
    if key in _MADE:
        return _MADE[key]

    def make() -> bytes:
        ahead = compiled(sources)
        files = [(name[:-3] + ".pyc", ahead[name]) if name in ahead else (name, data) for name, data in sources.items()]
        return _zipped((*files, *compiled_data(), *catalogues))

    made = remembered(pyodide.cache_dir().parent / "engine" / f"{key}.zip", make, _whole_zip, CACHED)
    if len(_MADE) >= IN_MEMORY:
        _MADE.pop(next(iter(_MADE)))
    _MADE[key] = made
    return made


def _whole_zip(data: bytes) -> bool:
    """Whether ``data`` is a zip whose directory reads (not a file cut short)."""
    try:
        zipfile.ZipFile(io.BytesIO(data)).close()
    except zipfile.BadZipFile:
        return False
    return True


def _zipped(files: Sequence[tuple[str, bytes]]) -> bytes:
    """The zip of ``files`` (name, bytes), in that order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(zipfile.ZipInfo(name, date_time=ZIP_DATE), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def with_files(archive: bytes, files: Sequence[tuple[str, bytes]]) -> bytes:
    """``archive`` with ``files`` (name, bytes) at its end, the others not compressed
    again: the same bytes as an archive made of them all at once (a site's files are
    added to the engine's, the build's id once it is known)."""
    if not files:
        return archive
    buffer = io.BytesIO(archive)
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_DEFLATED) as appended:
        for name, data in files:
            appended.writestr(zipfile.ZipInfo(name, date_time=ZIP_DATE), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
