"""The engine archive unpacked for CPython, as the worker unpacks it into Pyodide.

The archive ships the package's modules compiled for the Python inside Pyodide
(site_builder/bytecode.py), which the Python running the tests cannot read: those are
written back as their sources, so that a test can run the archive alone (``python -S``,
no installed package) in its place. The site's own files are unpacked as they are.

tests/ is no package, so the tests import this module at the top level."""
from __future__ import annotations

import zipfile
from pathlib import Path

from explorables.site_builder.pyodide.archive import engine_sources


def unpack_for_cpython(archive: Path, folder: Path) -> Path:
    sources = engine_sources()
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(folder)
        for name in opened.namelist():
            if name.endswith(".pyc"):
                (folder / name).unlink()
                (folder / (name[:-1])).write_bytes(sources[name[:-1]])
    return folder
